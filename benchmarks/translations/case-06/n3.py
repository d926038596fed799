array = []
for i in range(10):
    array.append(int(input("Read a number: ")))
for i in range(9, -1, -1):
    print(array[i])
