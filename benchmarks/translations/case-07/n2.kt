fun main() {
    println("Enter a 4-by-4 matrix row by row:")
    val m = Array(4) { DoubleArray(4) }
    for (i in 0 until 4) {
        for (j in 0 until 4) {
            m[i][j] = readln().toDouble()
        }
    }
    println("Sum of the elements in the major diagonal is " + sumMajorDiagonal(m))
}

fun sumMajorDiagonal(m: Array<DoubleArray>): Double {
    var temp = 0.0
    for (i in 0 until 4) {
        for (j in 0 until 4) {
            if (i == j) {
                temp = temp + m[i][j]
            }
        }
    }
    return temp
}
