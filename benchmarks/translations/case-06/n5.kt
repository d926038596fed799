import java.util.Scanner

fun main()
{
    val sc = Scanner(System.`in`)
    val numbers = IntArray(10)
    for (i in 0 until 10)
    {
        print("Read a number: ")
        numbers[i] = sc.nextInt()
    }
    var i = 9
    while (i > -1)
    {
        println(numbers[i])
        i--
    }
}
