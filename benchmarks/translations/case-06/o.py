def main():
    num = [0] * 10
    for i in range(10):
        # Read a number
        num[i] = int(input("Read a number: "))
    # Display the array
    for i in range(9, -1, -1):
        print(num[i])


main()
