import java.text.DecimalFormat

fun main() {
    print("Enter the radius and length of a cylinder :")
    val radius = readln().toDouble()
    val length = readln().toDouble()
    val area = radius * radius * 3.14159
    val df = DecimalFormat(".####")
    val df2 = DecimalFormat(".#")
    val volume = area * length
    println("The area is " + df.format(area))
    println("The volume is " + df2.format(volume))
}
