def main():
    matrix = [[0] * 4 for _ in range(4)]
    total = 0
    print("Enter a 4-by-4 matrix row by row: ")
    for i in range(4):
        for j in range(4):
            matrix[i][j] = int(input())
            if i == j:
                total += matrix[i][j]
    print("Sum of the elements in the major diagonal is " + str(total))


main()
