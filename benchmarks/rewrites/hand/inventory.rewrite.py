# ruff: noqa  (a test fixture: code written the way students write it)
from dataclasses import dataclass, field


@dataclass
class StockEntry:
    quantity: int
    unit_price: float


@dataclass
class Warehouse:
    """Keeps track of stock levels and every change made to them."""

    stock: dict = field(default_factory=dict)
    history: list = field(default_factory=list)

    def restock(self, product, amount, unit_price):
        if amount <= 0:
            raise ValueError("quantity must be positive")
        current = self.stock.get(product)
        updated = amount if current is None else current.quantity + amount
        self.stock[product] = StockEntry(updated, unit_price)
        self.history.append(("add", product, amount))

    def take(self, product, amount):
        entry = self.stock.get(product)
        if entry is None:
            raise KeyError(product)
        if amount > entry.quantity:
            raise ValueError(f"not enough {product}")
        remaining = entry.quantity - amount
        if remaining:
            self.stock[product] = StockEntry(remaining, entry.unit_price)
        else:
            self.stock.pop(product)
        self.history.append(("remove", product, amount))

    def total_value(self):
        return sum(e.quantity * e.unit_price for e in self.stock.values())

    def running_low(self, threshold):
        return [p for p in sorted(self.stock) if self.stock[p].quantity < threshold]


if __name__ == "__main__":
    store = Warehouse()
    store.restock("apple", 10, 0.5)
    store.restock("pear", 3, 0.75)
    store.restock("apple", 5, 0.55)
    store.take("pear", 1)
    print("value:", round(store.total_value(), 2))
    print("low stock:", store.running_low(5))
    print("log:", store.history)
