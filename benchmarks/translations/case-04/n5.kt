fun main()
{
    println("Miles       Kilometers")
    var i = 1
    while (i < 11)
    {
        if (i < 10)
        {
            println(i.toString() + "           " + i * 1609)
        }
        else
        {
            println(i.toString() + "          " + i * 1609)
        }
        i++
    }
}
