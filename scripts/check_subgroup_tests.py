#!/usr/bin/env python3
"""Checks the mathematics behind the subgroup tests of src/ec/ec_subgroup_impl.h.

Usage: scripts/check_subgroup_tests.py    (exit 0 and "all checks hold", or an
AssertionError naming the first claim that fails)

Each test checks alpha(P) = O for an endomorphism alpha in Z[phi] (BLS12-381
G1) or Z[psi] (the G2 twists). It is exact when
  (a) alpha kills the order-r subgroup: phi and psi act on it as their
      eigenvalue lambda (scripts/gen_ec_constants.py checks that on the
      generators), so alpha's polynomial at lambda must be 0 mod r;
  (b) alpha kills nothing else: alpha(P) = O gives [N(alpha)]P = O (compose
      with the conjugate), so if gcd(N(alpha), #E) = r and r^2 does not
      divide #E, P has order r.
N is the norm: a^2 - ab + b^2 for a + b*phi (phi^2 + phi + 1 = 0), a^2 +
t*ab + p*b^2 for a + b*psi (psi^2 - t*psi + p = 0 on the whole twist, which
this script also checks on random points of the twist, not only G2).

Also printed: each group's cofactor and its prime factors below 2^32, the
numbers tests/test_subgroup.c builds its points of small order from, and the
signed digits of the seeds the chains use.
"""
import math
import os
import random
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from gen_ec_constants import CURVES, Fp2, ec_add, ec_mul  # noqa: E402

BLS_Z_ABS = 0xD201000000010000
BN_U = 0x44E992B44A6909F1
BN_U_POS, BN_U_NEG = 0x450A14044A890A01, 0x0020815000200010


def naf(k):
    """NAF of k >= 0 as (pos, neg) masks."""
    pos = neg = 0
    i = 0
    while k:
        if k & 1:
            d = 2 - (k % 4)
            k -= d
            if d > 0:
                pos |= 1 << i
            else:
                neg |= 1 << i
        k //= 2
        i += 1
    return pos, neg


def is_probable_prime(n):
    if n < 4:
        return n in (2, 3)
    d, s = n - 1, 0
    while d % 2 == 0:
        d, s = d // 2, s + 1
    for a in (2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37):
        x = pow(a, d, n)
        if x in (1, n - 1) or a % n == 0:
            continue
        for _ in range(s - 1):
            x = x * x % n
            if x == n - 1:
                break
        else:
            return False
    return True


def small_factors(n, bound=2**32, steps=200000):
    """The prime factors of n below bound (trial division to 1000, then
    Pollard's rho on what is left, for a bounded number of steps), and the
    rest of n."""
    fs = []
    for p in range(2, 1000):
        while n % p == 0:
            fs.append(p)
            n //= p
    rest = n
    stack = [n] if n > 1 else []
    while stack:
        m = stack.pop()
        if is_probable_prime(m):
            if m < bound:
                fs.append(m)
                rest //= m
            continue
        for c in range(1, 8):  # another polynomial when the cycle closed on m
            x = y = 2
            d = 1
            for _ in range(steps):  # rho finds a factor f in about sqrt(f) steps
                x = (x * x + c) % m
                y = (y * y + c) % m
                y = (y * y + c) % m
                d = math.gcd(abs(x - y), m)
                if d != 1:
                    break
            if 1 < d < m:
                stack += [d, m // d]
                break
    return fs, rest


def twist_point(p, b2):
    """A random point of y^2 = x^3 + b2 over Fp2 (p = 3 mod 4)."""
    while True:
        x = Fp2(random.randrange(p), random.randrange(p))
        a = x * x * x + b2
        n = (a.c0 * a.c0 + a.c1 * a.c1) % p
        s = pow(n, (p + 1) // 4, p)
        if s * s % p != n:
            continue
        for sg in (s, p - s):
            t = (a.c0 + sg) * pow(2, -1, p) % p
            x0 = pow(t, (p + 1) // 4, p)
            if x0 and x0 * x0 % p == t:
                y = Fp2(x0, a.c1 * pow(2 * x0, -1, p))
                if y * y == a:
                    return (x, y)


def main():
    random.seed(2021)
    assert CURVES["bls381"]["x"] == -BLS_Z_ABS and CURVES["bn254"]["x"] == BN_U
    assert naf(BN_U) == (BN_U_POS, BN_U_NEG)
    for curve, c in CURVES.items():
        p, r, x = c["p"], c["r"], c["x"]
        Fp2.P = p
        t = x + 1 if curve == "bls381" else 6 * x * x + 1
        n1 = p + 1 - t
        # The twist's order: the one of the six candidates that kills a point.
        xi = Fp2(*c["xi"])
        b2 = Fp2(c["b1"]) * xi if c["twist"] == "M" else Fp2(c["b1"]) * xi.inv()
        f = math.isqrt((4 * p - t * t) // 3)
        assert 3 * f * f == 4 * p - t * t
        t2 = t * t - 2 * p
        q = twist_point(p, b2)
        cands = {p * p + 1 - s for s in (t2, -t2, (3 * f * t + t2) // 2, (-3 * f * t + t2) // 2,
                                         (3 * f * t - t2) // 2, -(3 * f * t + t2) // 2)}
        n2 = [n for n in cands if n % r == 0 and ec_mul(n, q) is None]
        assert len(n2) == 1
        n2 = n2[0]
        assert n1 % (r * r) and n2 % (r * r)
        e3, e2 = xi.pow((p - 1) // 3), xi.pow((p - 1) // 2)
        if c["twist"] == "M":
            e3, e2 = e3.inv(), e2.inv()

        def psi(pt):
            return (e3 * pt[0].conj(), e2 * pt[1].conj())

        for _ in range(2):
            q = twist_point(p, b2)
            assert ec_add(ec_add(psi(psi(q)), ec_mul(-t, psi(q)), None), ec_mul(p, q), None) is None

        def psi_test(coeffs, name):
            lam = p % r
            assert sum(a * pow(lam, j, r) for j, a in enumerate(coeffs)) % r == 0, name + " (a)"
            cc = list(coeffs)
            for j in range(len(cc) - 1, 1, -1):  # psi^j = t psi^(j-1) - p psi^(j-2)
                cc[j - 1] += t * cc[j]
                cc[j - 2] -= p * cc[j]
                cc[j] = 0
            norm = cc[0] ** 2 + t * cc[0] * cc[1] + p * cc[1] ** 2
            assert math.gcd(norm, n2) == r, name + " (b)"
            print("  %s: exact; N(alpha) = r * %d bits" % (name, (norm // r).bit_length()))

        print(curve)
        if curve == "bls381":
            a, b = x * x, 1
            assert (a + b * (-x * x)) % r == 0
            norm = a * a - a * b + b * b
            assert norm == r and math.gcd(norm, n1) == r
            print("  G1 phi(P) = [-z^2]P: exact; N(z^2 + phi) = r")
            psi_test([-x, 1], "G2 psi(P) = [z]P")
        else:
            assert n1 == r
            print("  G1: prime order")
            psi_test([x + 1, x, x, -2 * x], "G2 [u+1]P + psi([u]P) + psi^2([u]P) = psi^3([2u]P)")
        for g, h in (("G1", n1 // r), ("G2", n2 // r)):
            fs, rest = small_factors(h)
            print("  %s cofactor 0x%x: small primes %s, rest %d bits"
                  % (g, h, sorted(set(fs)), rest.bit_length()))
    print("chains: |z| = 0x%x (%d bits set); u as NAF pos 0x%x neg 0x%x (%d digits)"
          % (BLS_Z_ABS, bin(BLS_Z_ABS).count("1"), BN_U_POS, BN_U_NEG,
             bin(BN_U_POS | BN_U_NEG).count("1")))
    print("all checks hold")


if __name__ == "__main__":
    main()
