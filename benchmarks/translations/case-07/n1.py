def sum_major_diagonal(m):
    total = 0
    for i in range(len(m)):
        total += m[i][i]
    return total


def main():
    m = [[0.0] * 4 for _ in range(4)]
    print("Enter a 4-by-4 matrix row by row: ")
    for i in range(len(m)):
        for j in range(len(m[0])):
            m[i][j] = float(input())
    print("Sum of the elements in the major diagonal is " + str(sum_major_diagonal(m)))


main()
