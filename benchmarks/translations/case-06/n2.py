def main():
    a = [0] * 10
    for i in range(10):
        a[i] = int(input("Read a number: "))
    for i in range(9, -1, -1):
        print(a[i])


main()
