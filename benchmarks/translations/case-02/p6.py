def hit_luas(jari2):
    return jari2 * jari2 * 3.14159


def total(luas, panjang):
    return luas * panjang


def main():
    jari2 = 0
    panjang = 0
    print("Enter the radius and length of a cylinder: ", end="")
    for i in range(1):
        jari2 = float(input())
        panjang = float(input())
    luas = hit_luas(jari2)
    tot = total(luas, panjang)
    print("The area is " + str(luas) + " , ", end="")
    print("The volume of the cylinder is " + str(tot))


main()
