fun main() {
    var nomor: Int
    var sisa = 0
    print("Enter an integer: ")
    val input = java.util.Scanner(System.`in`)
    nomor = input.nextInt()
    while (nomor != 0) {
        if (nomor != 0) {
            sisa = nomor % 10
            print(sisa)
            nomor = nomor / 10
        }
    }
    println()
}
