def print_welcome():
    for i in range(5):
        print("Welcome to Java\n", end="")


def main():
    print_welcome()


main()
