import java.util.Scanner

fun main() {
    val sc = Scanner(System.`in`)
    val input = IntArray(10)
    for (i in input.indices) {
        print("Read a number: ")
        input[i] = sc.nextInt()
    }
    for (i in 9 downTo 0) {
        println(input[i])
    }
}
