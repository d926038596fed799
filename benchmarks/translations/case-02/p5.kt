fun hitLuas(jari2: Double): Double = jari2 * jari2 * 3.14159

fun total(luas: Double, panjang: Double): Double = luas * panjang

fun main() {
    val jari2: Double
    val panjang: Double
    print("Enter the radius and length of a cylinder: ")
    jari2 = readln().toDouble()
    panjang = readln().toDouble()
    val luas = hitLuas(jari2)
    val total = total(luas, panjang)
    print("The area is " + luas + " , ")
    println("The volume of the cylinder is " + total)
}
