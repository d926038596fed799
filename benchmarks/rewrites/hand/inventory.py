# ruff: noqa  (a test fixture: code written the way students write it)
class Inventory:
    def __init__(self):
        self.items = {}
        self.log = []

    def add(self, name, qty, price):
        if qty <= 0:
            raise ValueError("quantity must be positive")
        if name in self.items:
            old_qty, old_price = self.items[name]
            self.items[name] = (old_qty + qty, price)
        else:
            self.items[name] = (qty, price)
        self.log.append(("add", name, qty))

    def remove(self, name, qty):
        if name not in self.items:
            raise KeyError(name)
        have, price = self.items[name]
        if qty > have:
            raise ValueError("not enough " + name)
        if have - qty == 0:
            del self.items[name]
        else:
            self.items[name] = (have - qty, price)
        self.log.append(("remove", name, qty))

    def value(self):
        total = 0
        for name in self.items:
            qty, price = self.items[name]
            total = total + qty * price
        return total

    def low_stock(self, limit):
        out = []
        for name in sorted(self.items):
            if self.items[name][0] < limit:
                out.append(name)
        return out


inv = Inventory()
inv.add("apple", 10, 0.5)
inv.add("pear", 3, 0.75)
inv.add("apple", 5, 0.55)
inv.remove("pear", 1)
print("value:", round(inv.value(), 2))
print("low stock:", inv.low_stock(5))
print("log:", inv.log)
