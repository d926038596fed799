values = [0] * 10
for i in range(len(values)):
    values[i] = int(input("Read a number: "))
for i in range(9, -1, -1):
    print(values[i])
