print("Miles\t\tKilometers")
print("-------------------------------")
mil = 1
while mil <= 10:
    print(f"{mil}\t\t{mil * 1.609}")
    mil += 1
