def sum_major_diagonal(m):
    total = 0
    for i in range(len(m)):
        total += m[i][i]
    return total


def main():
    print("Enter a 4 by 4 matrix row by row: ", end="")
    m = [[0.0] * 4 for _ in range(4)]
    for i in range(4):
        for j in range(4):
            m[i][j] = float(input())
    print("Sum of the elements in the major diagonal is " + str(sum_major_diagonal(m)), end="")


main()
