fun reverse(number: Int) {
    val cek = number.toString()
    for (i in 0 until cek.length) {
        print(cek[cek.length - 1 - i])
    }
    println("")
}

fun main() {
    print("Enter an integer ")
    val a = readln().toInt()
    reverse(a)
}
