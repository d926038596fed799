import java.util.Scanner

fun main() {
    val angka = IntArray(10)
    val sc = Scanner(System.`in`)
    for (i in 0 until 10) {
        print("Read a number: ")
        angka[i] = sc.nextInt()
    }
    for (i in 9 downTo 0) {
        println(angka[i])
    }
}
