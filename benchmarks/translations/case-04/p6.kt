fun printTable(start: Int) {
    var mil = start
    var i = 10
    while (i > 0) {
        println(mil.toString() + "\t\t" + mil * 1.609)
        mil++
        i--
    }
}

fun main() {
    val mil = 1
    println("Miles\t\tKilometers")
    println("-------------------------------")
    printTable(mil)
}
