print("Miles       Kilometers")
for i in range(1, 11):
    if i < 10:
        print(str(i) + "           " + str(i * 1609))
    else:
        print(str(i) + "          " + str(i * 1609))
