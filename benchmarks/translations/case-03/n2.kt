fun main() {
    print("Enter weight in pounds: ")
    val w = readln().toFloat()
    print("Enter feet: ")
    val f = readln().toFloat()
    print("Enter inches: ")
    val i = readln().toFloat()
    val h = f * 12 + i
    val bmi = ((w * 0.45359237) / ((h * 0.0254) * (h * 0.0254))).toFloat()
    println("BMI is " + bmi)
    if (bmi < 18.5) {
        println("Underweight")
    } else if (bmi >= 18.5 && bmi < 25) {
        println("Normal")
    } else if (bmi >= 25 && bmi < 35) {
        println("Overweight")
    } else if (bmi >= 35) {
        println("Obese")
    }
}
