def print_table(mil):
    i = 10
    while i > 0:
        print(str(mil) + "\t\t" + str(mil * 1.609))
        mil += 1
        i -= 1


def main():
    mil = 1
    print("Miles\t\tKilometers")
    print("-------------------------------")
    print_table(mil)


main()
