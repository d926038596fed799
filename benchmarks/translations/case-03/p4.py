def hit_bmi(berat, tinggi):
    return berat * 0.45359237 / ((tinggi * 0.0254) * (tinggi * 0.0254))


def main():
    berat = 0.0
    inci = 0.0
    tinggi = 0.0
    feet = 0.0
    print("Enter weight in pounds: ", end="")
    berat = float(input())
    print("Enter feet: ", end="")
    feet = float(input())
    print("Enter inches: ", end="")
    inci = float(input())
    tinggi = feet * 12 + inci
    print("BMI is " + str(hit_bmi(berat, tinggi)))
    if hit_bmi(berat, tinggi) < 18.5:
        print("Underweight")
    elif hit_bmi(berat, tinggi) < 25:
        print("Normal")
    elif hit_bmi(berat, tinggi) < 30:
        print("Overweight")
    else:
        print("Obese")


main()
