def main():
    berat = 0.0
    inci = 0.0
    tinggi = 0.0
    bmi = 0.0
    feet = 0.0
    print("Enter weight in pounds: ", end="")
    berat = float(input())
    print("Enter feet: ", end="")
    feet = float(input())
    print("Enter inches: ", end="")
    inci = float(input())
    tinggi = feet * 12 + inci
    bmi = berat * 0.45359237 / ((tinggi * 0.0254) * (tinggi * 0.0254))
    print("BMI is " + str(bmi))
    if bmi < 18.5:
        print("Underweight")
    elif bmi < 25:
        print("Normal")
    elif bmi < 30:
        print("Overweight")
    else:
        print("Obese")


main()
