def main():
    sisa = 0
    print("Enter an integer: ", end="")
    nomor = int(input())
    while nomor != 0:
        if nomor != 0:
            sisa = nomor % 10
            print(sisa, end="")
            nomor = nomor // 10
    print()


main()
