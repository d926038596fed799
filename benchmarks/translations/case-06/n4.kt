fun main() {
    val a = IntArray(10)
    for (i in a.indices) {
        print("Read a number: ")
        a[i] = readln().toInt()
    }
    for (i in a.size - 1 downTo 0) {
        println(a[i])
    }
}
