sisa = 0
nomor = int(input("Enter an integer: "))
while nomor != 0:
    sisa = nomor % 10
    print(sisa, end="")
    nomor = nomor // 10
print()
