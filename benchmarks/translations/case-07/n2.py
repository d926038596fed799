def sum_major_diagonal(m):
    temp = 0
    for i in range(4):
        for j in range(4):
            if i == j:
                temp = temp + m[i][j]
    return temp


print("Enter a 4-by-4 matrix row by row:")
m = [[0.0] * 4 for _ in range(4)]
for i in range(4):
    for j in range(4):
        m[i][j] = float(input())
print("Sum of the elements in the major diagonal is " + str(sum_major_diagonal(m)))
