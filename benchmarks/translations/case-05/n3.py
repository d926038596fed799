def reverse(number):
    str_number = str(number)
    temp = ""
    for i in range(len(str_number), 0, -1):
        temp += str(i)
    temp_number = int(temp)
    print(temp_number)


def main():
    number = int(input("Enter an integer : "))
    reverse(number)


main()
