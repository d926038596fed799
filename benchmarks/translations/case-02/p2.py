print("Enter the radius and length of a cylinder: ", end="")
jari2 = float(input())
panjang = float(input())
luas = jari2 * jari2 * 3.14159
total = luas * panjang
print(f"The area is {luas}")
print(f"The volume of the cylinder is {total}")
