import java.util.Scanner

fun jumlahDiagonal(m: Array<DoubleArray>): Double {
    var sum = 0.0
    for (i in 0 until m.size) {
        sum += m[i][i]
    }
    return sum
}

fun main() {
    val sc = Scanner(System.`in`)
    val m = Array(4) { DoubleArray(4) }
    print("Enter a 4 by 4 matrix row by row: ")
    for (i in 0 until 4) {
        for (j in 0 until 4) {
            m[i][j] = sc.nextDouble()
        }
    }
    print("Sum of the elements in the major diagonal is " + jumlahDiagonal(m))
}
