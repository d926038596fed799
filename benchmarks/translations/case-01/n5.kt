fun main()
{
    var i = 0
    while (i < 5)
    {
        println("Welcome To Java")
        i++
    }
}
