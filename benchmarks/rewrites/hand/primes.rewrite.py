# ruff: noqa  (a test fixture: code written the way students write it)
"""Prime number helpers: sieve, twin primes and Goldbach decompositions."""
import sys
from itertools import pairwise


def primes_up_to(bound: int) -> list[int]:
    """Sieve of Eratosthenes."""
    flags = [True] * (bound + 1)
    flags[0:2] = [False] * min(2, bound + 1)
    for candidate in range(2, int(bound ** 0.5) + 1):
        if not flags[candidate]:
            continue
        for multiple in range(candidate * candidate, bound + 1, candidate):
            flags[multiple] = False
    return [value for value, prime in enumerate(flags) if prime]


def twin_pairs(prime_list: list[int]) -> list[tuple[int, int]]:
    return [(low, high) for low, high in pairwise(prime_list) if high - low == 2]


def decompose(even: int, prime_list: list[int]):
    lookup = set(prime_list)
    return next(((p, even - p) for p in prime_list
                 if p <= even // 2 and even - p in lookup), None)


def main() -> None:
    bound = int(sys.argv[1]) if len(sys.argv) > 1 else 100
    found = primes_up_to(bound)
    print(len(found), "primes up to", bound)
    print("twin primes:", twin_pairs(found))
    for even in range(4, min(bound, 30) + 1, 2):
        print(even, "=", decompose(even, found))


if __name__ == "__main__":
    main()
