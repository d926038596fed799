print("Enter the radius and length of a cylinder :", end="")
radius = float(input())
length = float(input())
area = radius * radius * 3.14159
volume = area * length
print("The area is " + "{:.4f}".format(area))
print("The volume is " + "{:.1f}".format(volume))
