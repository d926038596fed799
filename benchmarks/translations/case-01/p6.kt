fun printWelcome() {
    var i = 5
    while (i > 0) {
        print("Welcome to Java\n")
        i--
    }
}

fun main() {
    printWelcome()
}
