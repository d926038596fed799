print("Miles\tKilometers")
for i in range(1, 11):
    print(str(i) + "\t%.3f" % (i * 1.609), end="")
    print()
