fun main() {
    println("Miles\tKilometers")
    for (i in 1..10) {
        print(String.format(i.toString() + "\t%.3f", i * 1.609))
        println()
    }
}
