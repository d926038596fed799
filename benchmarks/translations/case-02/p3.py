def main():
    jari2 = 0.0
    panjang = 0.0
    print("Enter the radius and length of a cylinder: ", end="")
    jari2 = float(input())
    panjang = float(input())
    luas = jari2 * jari2 * 3.14159
    total = luas * panjang
    print("The area is " + str(luas) + " , ", end="")
    print("The volume of the cylinder is " + str(total))


main()
