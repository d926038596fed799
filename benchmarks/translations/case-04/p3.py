def main():
    mil = 0
    print("Miles\t\tKilometers")
    print("-------------------------------")
    mil = 1
    while mil <= 10:
        print(str(mil) + "\t\t" + str(mil * 1.609))
        mil = mil + 1


main()
