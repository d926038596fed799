fun reverse(number: Int) {
    val temp = number.toString()
    for (i in temp.length downTo 1) {
        print(temp[i - 1])
    }
}

fun main() {
    print("Enter a integer: ")
    val a = readln().toInt()
    reverse(a)
}
