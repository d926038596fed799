fun reverse(n: Int) {
    var number = n
    while (number > 0) {
        print(number % 10)
        number /= 10
    }
    println()
}

fun main() {
    print("Enter an integer: ")
    val number = readln().toInt()
    reverse(number)
}
