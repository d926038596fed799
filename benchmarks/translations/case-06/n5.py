numbers = [0] * 10
for i in range(10):
    numbers[i] = int(input("Read a number: "))
i = 9
while i > -1:
    print(numbers[i])
    i -= 1
