def main():
    print("Miles\t\tKilometers")
    print("-------------------------------")
    # Use while loop
    miles = 1
    while miles <= 10:
        print(str(miles) + "\t\t" + str(miles * 1.609))
        miles += 1


main()
