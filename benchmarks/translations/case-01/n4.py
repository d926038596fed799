for i in range(5):
    print("Welcome To Java")
