fun main() {
    print("Enter weight in pounds: ")
    val berat = readln().toDouble()
    print("Enter feet: ")
    val feet = readln().toDouble()
    print("Enter inches: ")
    val inci = readln().toDouble()
    val tinggi = feet * 12 + inci
    val bmi = berat * 0.45359237 / ((tinggi * 0.0254) * (tinggi * 0.0254))
    println("BMI is $bmi")
    if (bmi < 18.5) {
        println("Underweight")
    } else if (bmi < 25) {
        println("Normal")
    } else if (bmi < 30) {
        println("Overweight")
    } else {
        println("Obese")
    }
}
