def main():
    a = [0] * 10
    for i in range(len(a)):
        print("Read a number: ", end="")
        a[i] = int(input())
    for i in range(len(a) - 1, -1, -1):
        print(a[i])


main()
