def hit_bmi(berat, tinggi):
    return berat * 0.45359237 / ((tinggi * 0.0254) * (tinggi * 0.0254))


def main():
    feet = 0
    berat = float(input("Enter weight in pounds: "))
    feet = float(input("Enter feet: "))
    inci = float(input("Enter inches: "))
    tinggi = feet * 12 + inci
    print("BMI is " + str(hit_bmi(berat, tinggi)))
    if hit_bmi(berat, tinggi) < 25 and hit_bmi(berat, tinggi) > 18.5:
        print("Normal")
    elif hit_bmi(berat, tinggi) < 30 and hit_bmi(berat, tinggi) > 25:
        print("Overweight")
    elif hit_bmi(berat, tinggi) > 30:
        print("Obese")
    else:
        print("Underweight")


main()
