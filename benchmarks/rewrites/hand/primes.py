# ruff: noqa  (a test fixture: code written the way students write it)
import sys


def sieve(limit):
    is_prime = [True] * (limit + 1)
    is_prime[0] = False
    if limit >= 1:
        is_prime[1] = False
    i = 2
    while i * i <= limit:
        if is_prime[i]:
            j = i * i
            while j <= limit:
                is_prime[j] = False
                j += i
        i += 1
    primes = []
    for n in range(limit + 1):
        if is_prime[n]:
            primes.append(n)
    return primes


def twins(primes):
    result = []
    for k in range(len(primes) - 1):
        if primes[k + 1] - primes[k] == 2:
            result.append((primes[k], primes[k + 1]))
    return result


def goldbach(n, primes):
    ps = set(primes)
    for p in primes:
        if p > n // 2:
            break
        if n - p in ps:
            return p, n - p
    return None


limit = int(sys.argv[1]) if len(sys.argv) > 1 else 100
primes = sieve(limit)
print(len(primes), "primes up to", limit)
print("twin primes:", twins(primes))
for even in range(4, min(limit, 30) + 1, 2):
    print(even, "=", goldbach(even, primes))
