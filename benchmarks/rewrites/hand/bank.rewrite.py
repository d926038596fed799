# ruff: noqa  (a test fixture: code written the way students write it)
"""A tiny bank account model with an audit trail."""
from datetime import date


class InsufficientFunds(Exception):
    pass


class BankAccount:
    def __init__(self, holder: str, opening_balance: float = 0) -> None:
        self.holder = holder
        self.funds = opening_balance
        self.ledger: list[tuple[date, str, float]] = []

    def _record(self, action: str, value: float) -> None:
        self.ledger.append((date.today(), action, value))

    @staticmethod
    def _valid(value: float) -> bool:
        if value > 0:
            return True
        print("Invalid amount")
        return False

    def credit(self, value: float) -> bool:
        if not self._valid(value):
            return False
        self.funds += value
        self._record("deposit", value)
        return True

    def debit(self, value: float) -> bool:
        if not self._valid(value):
            return False
        if value > self.funds:
            print("Insufficient funds")
            return False
        self.funds -= value
        self._record("withdraw", value)
        return True

    def send(self, recipient: "BankAccount", value: float) -> bool:
        ok = self.debit(value)
        if ok:
            recipient.credit(value)
        return ok

    def print_statement(self) -> None:
        print("Statement for", self.holder)
        for when, action, value in self.ledger:
            print(when, f"{action:<10}", f"{value:10.2f}")
        print("Balance:", f"{self.funds:.2f}")


if __name__ == "__main__":
    ann, bob = BankAccount("Ann", 100), BankAccount("Bob")
    ann.credit(50)
    ann.send(bob, 70)
    bob.debit(100)
    ann.print_statement()
    bob.print_statement()
