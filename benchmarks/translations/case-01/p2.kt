fun main() {
    println("Welcome to Java")
    println("Welcome to Java")
    println("Welcome to Java")
    println("Welcome to Java")
    println("Welcome to Java")
}
