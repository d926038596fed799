import java.util.Scanner

fun main()
{
    val sc = Scanner(System.`in`)
    print("Enter an integer: ")
    val number = sc.nextInt()
    reverse(number)
}

fun reverse(n: Int)
{
    var number = n
    var balik = ""
    while (number > 0)
    {
        balik = balik + (number % 10)
        number = number / 10
    }
    println(balik)
}
