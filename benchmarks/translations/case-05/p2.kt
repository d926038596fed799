fun main() {
    print("Enter an integer: ")
    val nomor = readln().toInt()
    balik(nomor)
}

fun balik(n: Int) {
    var nomor = n
    while (nomor != 0) {
        val sisa = nomor % 10
        print(sisa)
        nomor = nomor / 10
    }
    println()
}
