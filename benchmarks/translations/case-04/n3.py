print("Miles \t Kilometers")
for i in range(1, 11):
    print(str(i) + " \t " + str(i * 1.069))
