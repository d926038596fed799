def print_table(mil):
    while mil <= 10:
        print(str(mil) + "\t\t" + str(mil * 1.609))
        mil += 1


def main():
    mil = 1
    print("Miles\t\tKilometers")
    print("-------------------------------")
    print_table(mil)


main()
