fun main() {
    for (i in 0 until 5) {
        println("Welcome To Java")
    }
}
