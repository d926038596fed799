# ruff: noqa  (a test fixture: code written the way students write it)
import datetime


class Account:
    def __init__(self, owner, balance=0):
        self.owner = owner
        self.balance = balance
        self.history = []

    def deposit(self, amount):
        if amount <= 0:
            print("Invalid amount")
            return False
        self.balance += amount
        self.history.append((datetime.date.today(), "deposit", amount))
        return True

    def withdraw(self, amount):
        if amount <= 0:
            print("Invalid amount")
            return False
        if amount > self.balance:
            print("Insufficient funds")
            return False
        self.balance -= amount
        self.history.append((datetime.date.today(), "withdraw", amount))
        return True

    def transfer(self, other, amount):
        if self.withdraw(amount):
            other.deposit(amount)
            return True
        return False

    def statement(self):
        print("Statement for", self.owner)
        for day, kind, amount in self.history:
            print(day, kind.ljust(10), "%10.2f" % amount)
        print("Balance:", "%.2f" % self.balance)


a = Account("Ann", 100)
b = Account("Bob")
a.deposit(50)
a.transfer(b, 70)
b.withdraw(100)
a.statement()
b.statement()
