def main():
    print("Miles           Kilometers")
    for i in range(1, 10):
        print(str(i) + "               " + str(i * 1.609))
    print(str(10) + "              " + str(10 * 1.609))


main()
