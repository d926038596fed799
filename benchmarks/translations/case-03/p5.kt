fun hitBmi(berat: Double, tinggi: Double): Double =
    berat * 0.45359237 / ((tinggi * 0.0254) * (tinggi * 0.0254))

fun main() {
    print("Enter weight in pounds: ")
    val berat = readln().toDouble()
    print("Enter feet: ")
    val feet = readln().toDouble()
    print("Enter inches: ")
    val inci = readln().toDouble()
    val tinggi = feet * 12 + inci
    println("BMI is ${hitBmi(berat, tinggi)}")
    if (hitBmi(berat, tinggi) < 18.5) {
        println("Underweight")
    } else if (hitBmi(berat, tinggi) < 25) {
        println("Normal")
    } else if (hitBmi(berat, tinggi) < 30) {
        println("Overweight")
    } else {
        println("Obese")
    }
}
