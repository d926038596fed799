import java.util.Scanner

fun main() {
    val sc = Scanner(System.`in`)
    val m = Array(4) { DoubleArray(4) }
    println("Enter a 4-by-4 matrix row by row: ")
    for (i in m.indices) {
        for (j in m[0].indices) {
            m[i][j] = sc.nextDouble()
        }
    }
    println("Sum of the elements in the major diagonal is " + sumMajorDiagonal(m))
}

fun sumMajorDiagonal(m: Array<DoubleArray>): Double {
    var sum = 0.0
    for (i in m.indices) {
        sum += m[i][i]
    }
    return sum
}
