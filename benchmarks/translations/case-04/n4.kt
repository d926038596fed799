fun main() {
    println("Miles           Kilometers")
    for (i in 1 until 10) {
        println(i.toString() + "               " + i * 1.609)
    }
    println(10.toString() + "              " + 10 * 1.609)
}
