def print_welcome():
    print("Welcome to Java")
    print("Welcome to Java")
    print("Welcome to Java")
    print("Welcome to Java")
    print("Welcome to Java")


def main():
    print_welcome()


main()
