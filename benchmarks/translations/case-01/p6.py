def print_welcome():
    i = 5
    while i > 0:
        print("Welcome to Java\n", end="")
        i -= 1


def main():
    print_welcome()


main()
