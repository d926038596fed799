fun main() {
    println("Miles \t Kilometers")
    for (i in 1..10) {
        println("$i \t ${i * 1.069}")
    }
}
