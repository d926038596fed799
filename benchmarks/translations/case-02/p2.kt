fun main() {
    print("Enter the radius and length of a cylinder: ")
    val jari2 = readln().toDouble()
    val panjang = readln().toDouble()
    val luas = jari2 * jari2 * 3.14159
    val total = luas * panjang
    println("The area is $luas")
    println("The volume of the cylinder is $total")
}
