fun printWelcome() {
    for (i in 0 until 5) {
        print("Welcome to Java\n")
    }
}

fun main() {
    printWelcome()
}
