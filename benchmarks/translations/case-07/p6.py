def jumlah_diagonal(m):
    sum = 0
    hit = len(m) - 1
    while hit >= 0:
        sum += m[hit][hit]
        hit -= 1
    return sum


def show(m):
    print("Sum of the elements in the major diagonal is " + str(jumlah_diagonal(m)), end="")


def main():
    m = [[0.0] * 4 for _ in range(4)]
    print("Enter a 4 by 4 matrix row by row: ")
    for i in range(3, -1, -1):
        for j in range(3, -1, -1):
            m[i][j] = float(input())
    show(m)


main()
