fun main() {
    print("Enter an integer: ")
    val input = java.util.Scanner(System.`in`)
    val number = input.nextInt()
    reverse(number)
}

fun reverse(n: Int) {
    var number = n
    while (number != 0) {
        val remainder = number % 10
        print(remainder)
        number = number / 10
    }
    println()
}
