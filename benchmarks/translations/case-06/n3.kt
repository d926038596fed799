import java.util.Scanner

fun main() {
    val sc = Scanner(System.`in`)
    val array = IntArray(10)
    for (i in 0 until 10) {
        print("Read a number: ")
        array[i] = sc.nextInt()
    }
    for (i in 9 downTo 0) {
        println(array[i])
    }
}
