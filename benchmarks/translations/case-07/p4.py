def jumlah_diagonal(m):
    sum = 0
    for i in range(len(m)):
        sum += m[i][i]
    return sum


def show(m):
    print("Sum of the elements in the major diagonal is " + str(jumlah_diagonal(m)), end="")


def main():
    m = [[0.0] * 4 for _ in range(4)]
    print("Enter a 4 by 4 matrix row by row: ")
    for i in range(4):
        for j in range(4):
            m[i][j] = float(input())
    show(m)


main()
