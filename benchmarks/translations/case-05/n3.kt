import java.util.Scanner

fun reverse(number: Int) {
    val strNumber = number.toString()
    var temp = ""
    for (i in strNumber.length downTo 1) {
        temp += i
    }
    val tempNumber = temp.toInt()
    println(tempNumber)
}

fun main() {
    val sc = Scanner(System.`in`)
    print("Enter an integer : ")
    val number = sc.nextInt()
    reverse(number)
}
