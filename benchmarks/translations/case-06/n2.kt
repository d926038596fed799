fun main() {
    val a = IntArray(10)
    for (i in 0 until 10) {
        print("Read a number: ")
        a[i] = readln().toInt()
    }
    for (i in 9 downTo 0) {
        println(a[i])
    }
}
