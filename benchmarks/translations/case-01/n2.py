def main():
    for i in range(0, 5):
        print("Welcome To Java")


main()
