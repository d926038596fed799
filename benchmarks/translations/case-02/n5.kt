fun main() {
    print("Enter the radius and length of a cylinder: ")
    val radlen = readln()
    val splited = radlen.split(Regex("\\s+"))
    val rad = splited[0].toFloat()
    val len = splited[1].toFloat()
    println("The area is " + Math.round(rad * rad * 3.14159 * 10000.0) / 10000.0)
    println("The volume is " + Math.round(rad * rad * 3.14159 * len * 10.0) / 10.0)
}
