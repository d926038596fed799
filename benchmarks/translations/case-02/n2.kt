fun main() {
    print("Enter the radius and length of a cylinder: ")
    val r = readln().toFloat()
    val l = readln().toFloat()
    println("The area is " + r * r * 3.14159)
    println("The volume is " + (r * r * 3.14159) * l)
}
