fun main() {
    print("Enter weight in pounds: ")
    val weight = readln().toDouble()
    print("Enter feet: ")
    val feet = readln().toDouble()
    print("Enter inches: ")
    val inches = readln().toDouble()
    val height = feet * 12 + inches
    val bmi = weight * 0.45359237 / ((height * 0.0254) * (height * 0.0254))
    println("BMI Is " + bmi)
    if (bmi < 18.5) {
        println("Underweight")
    } else if (bmi >= 18.5 && bmi < 25) {
        println("Normal")
    } else if (bmi >= 25 && bmi < 35) {
        println("Overweight")
    } else {
        println("Obese")
    }
}
