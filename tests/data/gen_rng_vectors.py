#!/usr/bin/env python3
"""Writes rng_vectors.txt: reference outputs of CPython's `random` module,
which tests/c/test_rng.c compares exactly against the engine's rng.c.

Usage: python3 tests/data/gen_rng_vectors.py   (writes next to this script)

File format (line oriented, ASCII, tokens separated by single spaces):

    # ...                          comment, ignored
    seed <N>                       fresh random.seed(N), N a decimal integer
                                   (maybe negative, maybe huge); resets the
                                   draw counter to 0
    <kind> [<param>...] : <draws> <v1> <v2> ...
                                   one operation repeated on the CONTINUING
                                   stream (no reseed); <draws> is the number
                                   of 32-bit outputs consumed since the last
                                   `seed` line once all values are drawn;
                                   v1.. are the results in order

Kinds:
    genrand32 : d v...             getrandbits(32) per value
    random : d v...                random(), printed with repr() (round-trips
                                   through strtod exactly)
    getrandbits K : d v...         getrandbits(K), 1 <= K <= 64
    randbelow N : d v...           _randbelow(N) (= randrange(N))
    choice L : d v...              choice(range(L))
    choiceseq L1 L2 ... : d v...   one choice(range(Li)) per listed size
    choicecost L : d c...          ci = outputs consumed by the i-th
                                   choice(range(L)) call (value not shown)
    randint A B : d v...           randint(A, B)
    shuffle L : d v0..v(L-1)       x = list(range(L)); shuffle(x); print x

Every draw count is double-checked here: a fresh generator that makes that
many getrandbits(32) calls must end in the same getstate().
"""

import os
import random

MAIN_SEEDS = [0, 1, 42, 2**32 + 5, 2**40, -7, 12345678901234567890,
              1234567890123456789012345678901234567890]
# Extra seeds get a shorter block: widest uint64, first 3-word seed, a
# negative multi-word seed and a 700-digit seed (malloc path in C).
EXTRA_SEEDS = [2**64 - 1, 2**64, -(2**70 + 3), int("9876543210" * 70) + 1]

GETRANDBITS_K = [1, 31, 32, 33, 40, 63, 64]
RANDBELOW_N = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 16, 100, 2**31, 2**32 - 1,
               2**32, 2**32 + 1, 2**33, 10**18, 2**63, 2**64 - 1]
RANDINT_AB = [(1, 6), (-5, 5), (0, 0), (-2**63, 2**63 - 1), (-2**63, 0),
              (0, 2**63 - 1), (10**18, 10**18 + 10**9)]


class Counting(random.Random):
    """random.Random that counts the 32-bit outputs it consumes.

    Overriding getrandbits keeps CPython on _randbelow_with_getrandbits, the
    path the engine reproduces; getrandbits(k) uses ceil(k/32) outputs."""

    def seed(self, a=None, version=2):
        super().seed(a, version)
        self.draws = 0

    def getrandbits(self, k):
        self.draws += (k + 31) // 32
        return super().getrandbits(k)

    def random(self):
        self.draws += 2
        return super().random()


def check_draws(seed, r):
    fresh = random.Random(seed)
    for _ in range(r.draws):
        fresh.getrandbits(32)
    assert fresh.getstate() == r.getstate(), (seed, r.draws)


class Writer:
    def __init__(self):
        self.lines = []
        self.r = Counting()
        self.seed_value = None

    def comment(self, text):
        self.lines.append("# " + text)

    def seed(self, n):
        self.seed_value = n
        self.r.seed(n)
        self.lines.append("seed %d" % n)

    def op(self, head, values):
        check_draws(self.seed_value, self.r)
        self.lines.append("%s : %d %s" % (head, self.r.draws,
                                          " ".join(values)))


def main_block(w, s):
    r = w.r
    w.comment("seed %d" % s)
    w.seed(s)
    w.op("genrand32", [str(r.getrandbits(32)) for _ in range(2000)])
    w.seed(s)
    w.op("random", [repr(r.random()) for _ in range(100)])
    for L in range(1, 10):
        w.seed(s)
        w.op("choice %d" % L, [str(r.choice(range(L))) for _ in range(50)])
    w.seed(s)
    sizes = list(range(9, 0, -1))
    w.op("choiceseq " + " ".join(map(str, sizes)),
         [str(r.choice(range(L))) for L in sizes])
    for L in (1, 9):
        w.seed(s)
        costs = []
        for _ in range(10):
            before = r.draws
            r.choice(range(L))
            costs.append(str(r.draws - before))
        w.op("choicecost %d" % L, costs)
    for k in GETRANDBITS_K:
        w.seed(s)
        w.op("getrandbits %d" % k, [str(r.getrandbits(k)) for _ in range(20)])
    for n in RANDBELOW_N:
        w.seed(s)
        w.op("randbelow %d" % n, [str(r._randbelow(n)) for _ in range(20)])
    for a, b in RANDINT_AB:
        w.seed(s)
        w.op("randint %d %d" % (a, b), [str(r.randint(a, b)) for _ in range(10)])
    w.seed(s)
    for _ in range(5):
        x = list(range(10))
        r.shuffle(x)
        w.op("shuffle 10", [str(v) for v in x])
    # A mixed run on one stream: the order of calls matters.
    w.seed(s)
    w.op("choice 9", [str(r.choice(range(9))) for _ in range(3)])
    w.op("random", [repr(r.random())])
    w.op("getrandbits 40", [str(r.getrandbits(40))])
    w.op("randbelow 1", [str(r._randbelow(1))])
    w.op("genrand32", [str(r.getrandbits(32)) for _ in range(700)])
    w.op("choice 1", [str(r.choice(range(1))) for _ in range(5)])


def extra_block(w, s):
    r = w.r
    w.comment("extra seed")
    w.seed(s)
    w.op("genrand32", [str(r.getrandbits(32)) for _ in range(100)])
    w.seed(s)
    w.op("choice 9", [str(r.choice(range(9))) for _ in range(20)])


def main():
    w = Writer()
    w.comment("Generated by gen_rng_vectors.py from CPython %s; do not edit."
              % ".".join(map(str, __import__("sys").version_info[:3])))
    for s in MAIN_SEEDS:
        main_block(w, s)
    for s in EXTRA_SEEDS:
        extra_block(w, s)
    out = os.path.join(os.path.dirname(os.path.abspath(__file__)),
                       "rng_vectors.txt")
    with open(out, "w", newline="\n") as f:
        f.write("\n".join(w.lines) + "\n")


if __name__ == "__main__":
    main()
