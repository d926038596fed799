fun main() {
    var nomor: Int
    var sisa = 0
    print("Enter an integer: ")
    nomor = readln().toInt()
    while (nomor != 0) {
        sisa = nomor % 10
        print(sisa)
        nomor = nomor / 10
    }
    println()
}
