fun printTable(start: Int) {
    var mil = start
    while (mil <= 10) {
        println(mil.toString() + "\t\t" + mil * 1.609)
        mil++
    }
}

fun main() {
    val mil = 1
    println("Miles\t\tKilometers")
    println("-------------------------------")
    printTable(mil)
}
