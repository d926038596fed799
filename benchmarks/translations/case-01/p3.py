def main():
    print("Welcome to Java")
    print("Welcome to Java")
    print("Welcome to Java")
    print("Welcome to Java")
    print("Welcome to Java")


if __name__ == "__main__":
    main()
