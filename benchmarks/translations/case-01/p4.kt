fun printWelcome() {
    println("Welcome to Java")
    println("Welcome to Java")
    println("Welcome to Java")
    println("Welcome to Java")
    println("Welcome to Java")
}

fun main() {
    printWelcome()
}
