def sum_major_diagonal(m):
    jumdiagonal = 0
    for i in range(4):
        for j in range(4):
            if i == j:
                jumdiagonal = jumdiagonal + m[i][j]
    return jumdiagonal


def main():
    numbers = [[0.0] * 4 for _ in range(4)]
    print("Enter a 4-by4 matrix row by row:")
    for i in range(4):
        rows = input()
        rowssplit = rows.split()
        for j in range(4):
            numbers[i][j] = float(rowssplit[j])
    print("Sum of the elements in the major diagonal is " + str(sum_major_diagonal(numbers)))


main()
