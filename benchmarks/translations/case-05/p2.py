def balik(nomor):
    while nomor != 0:
        sisa = nomor % 10
        print(sisa, end="")
        nomor = nomor // 10
    print()


print("Enter an integer: ", end="")
nomor = int(input())
balik(nomor)
