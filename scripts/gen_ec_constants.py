#!/usr/bin/env python3
"""Generates src/ec/*_params.h: the curve constants of the four groups in the
Montgomery form that the field templates use, and checks every one of them.

Usage: scripts/gen_ec_constants.py [outdir]   (default: src/ec next to this script)

Inputs are the public curve specifications (FORMATS.md section 1; the
generators from the IETF pairing-friendly-curves draft and EIP-197). The
script checks, before writing anything: the generators are on their curves
and have order r; the endomorphism constants are the ones whose eigenvalue is
the lambda of the subgroup test (phi(P) = [-x^2]P on BLS12-381 G1, psi(P) =
[x]P on BLS12-381 G2, psi(P) = [6x^2]P on BN254 G2); the GLV splits of G1
and of BN254 G2 (EC_GLV_*) keep both halves below 2^127.
"""
import os
import sys
from math import isqrt

CURVES = {
    "bls381": dict(
        p=0x1A0111EA397FE69A4B1BA7B6434BACD764774B84F38512BF6730D2A0F6B0F6241EABFFFEB153FFFFB9FEFFFFFFFFAAAB,
        r=0x73EDA753299D7D483339D80809A1D80553BDA402FFFE5BFEFFFFFFFF00000001,
        limbs=6,
        x=-0xD201000000010000,
        b1=4,
        g1=(0x17F1D3A73197D7942695638C4FA9AC0FC3688C4F9774B905A14E3A3F171BAC586C55E83FF97A1AEFFB3AF00ADB22C6BB,
            0x08B3F481E3AAA0F1A09E30ED741D8AE4FCF5E095D5D00AF600DB18CB2C04B3EDD03CC744A2888AE40CAA232946C5E7E1),
        g2=((0x024AA2B2F08F0A91260805272DC51051C6E47AD4FA403B02B4510B647AE3D1770BAC0326A805BBEFD48056C8C121BDB8,
             0x13E02B6052719F607DACD3A088274F65596BD0D09920B61AB5DA61BBDC7F5049334CF11213945D57E5AC7D055D042B7E),
            (0x0CE5D527727D6E118CC9CDC6DA2E351AADFD9BAA8CBDD3A76D429A695160D12C923AC9CC3BACA289E193548608B82801,
             0x0606C4A02EA734CC32ACD2B02BC28B99CB3E287E85A763AF267492AB572E99AB3F370D275CEC1DA1AAA9075FF05F79BE)),
        xi=(1, 1),
        twist="M",
    ),
    "bn254": dict(
        p=0x30644E72E131A029B85045B68181585D97816A916871CA8D3C208C16D87CFD47,
        r=0x30644E72E131A029B85045B68181585D2833E84879B9709143E1F593F0000001,
        limbs=4,
        x=4965661367192848881,
        b1=3,
        g1=(1, 2),
        g2=((10857046999023057135944570762232829481370756359578518086990519993285655852781,
             11559732032986387107991004021392285783925812861821192530917403151452391805634),
            (8495653923123431417604973247489272438418190587263600148770280649306958101930,
             4082367875863433681332203403145435568316851327593401208105741076214120093531)),
        xi=(9, 1),
        twist="D",
    ),
}


class Fp2:
    """c0 + c1*u with u^2 = -1, over the prime P (set per curve)."""
    P = None

    def __init__(self, c0, c1=0):
        self.c0, self.c1 = c0 % Fp2.P, c1 % Fp2.P

    def __add__(s, o): return Fp2(s.c0 + o.c0, s.c1 + o.c1)
    def __sub__(s, o): return Fp2(s.c0 - o.c0, s.c1 - o.c1)
    def __neg__(s): return Fp2(-s.c0, -s.c1)
    def __mul__(s, o): return Fp2(s.c0 * o.c0 - s.c1 * o.c1, s.c0 * o.c1 + s.c1 * o.c0)
    def __eq__(s, o): return s.c0 == o.c0 and s.c1 == o.c1
    def is_zero(s): return s.c0 == 0 and s.c1 == 0
    def conj(s): return Fp2(s.c0, -s.c1)

    def inv(s):
        n = pow(s.c0 * s.c0 + s.c1 * s.c1, -1, Fp2.P)
        return Fp2(s.c0 * n, -s.c1 * n)

    def pow(s, e):
        acc, base = Fp2(1), s
        while e:
            if e & 1:
                acc = acc * base
            base = base * base
            e >>= 1
        return acc


class Fp1(Fp2):
    """The base field, as Fp2 elements with c1 = 0, so one EC code serves both."""


def ec_add(P, Q, zero):
    if P is None:
        return Q
    if Q is None:
        return P
    (x1, y1), (x2, y2) = P, Q
    if x1 == x2:
        if (y1 + y2).is_zero():
            return None
        lam = (x1 * x1 * Fp2(3)) * (y1 * Fp2(2)).inv()
    else:
        lam = (y2 - y1) * (x2 - x1).inv()
    x3 = lam * lam - x1 - x2
    return (x3, lam * (x1 - x3) - y1)


def ec_mul(k, P):
    R = None
    if k < 0:
        k, P = -k, (P[0], -P[1])
    while k:
        if k & 1:
            R = ec_add(R, P, None)
        P = ec_add(P, P, None)
        k >>= 1
    return R


def on_curve(P, b):
    x, y = P
    return y * y == x * x * x + b


def limbs(v, n):
    return [(v >> (64 * i)) & (2**64 - 1) for i in range(n)]


def fp_init(v, c):
    """A C initializer of NAME_fp_t holding v in Montgomery form."""
    m = (v * 2 ** (64 * c["limbs"])) % c["p"]
    return "{{" + ", ".join("0x%016xULL" % l for l in limbs(m, c["limbs"])) + "}}"


def f_init(e, c, deg):
    if deg == 1:
        assert e.c1 == 0
        return fp_init(e.c0, c)
    return "{" + fp_init(e.c0, c) + ", " + fp_init(e.c1, c) + "}"


def scalar_init(v):
    assert 0 < v < 2**256
    return "{" + ", ".join("0x%016xULL" % l for l in limbs(v, 4)) + "}"


def glv_basis(r, lam):
    """Two short vectors (a, b) with a + b*lam = 0 mod r, by the extended
    Euclidean algorithm on (r, lam) stopped at sqrt(r) (Gallant, Lambert and
    Vanstone 2001, section 4)."""
    rs = [(r, 0), (lam, 1)]
    while rs[-1][0] != 0:
        (r0, t0), (r1, t1) = rs[-2], rs[-1]
        q = r0 // r1
        rs.append((r0 - q * r1, t0 - q * t1))
    s = isqrt(r)
    l = max(i for i, (ri, _) in enumerate(rs) if ri >= s)
    v1 = (rs[l + 1][0], -rs[l + 1][1])
    a, b = (rs[l][0], -rs[l][1]), (rs[l + 2][0], -rs[l + 2][1])
    v2 = a if a[0] ** 2 + a[1] ** 2 <= b[0] ** 2 + b[1] ** 2 else b
    return v1, v2


def glv_defines(r, lam):
    """The GLV split k = k1 + k2*lam (mod r) as ec_tmpl_impl.h computes it:
    c1 = round(k*G1 / 2^256), c2 = round(k*G2 / 2^256) with G1, G2 the
    rounded 2^256*b2/det and -2^256*b1/det, then k1 = k - c1*a1 - c2*a2,
    k2 = -c1*b1 - c2*b2 modulo 2^128. Checked: |k1|, |k2| < 2^127 for every
    k < r, from |c_i - exact| <= 1/2 + 1/8 (G's rounding costs k/2^257)."""
    (a1, b1), (a2, b2) = glv_basis(r, lam)
    assert (a1 + b1 * lam) % r == 0 and (a2 + b2 * lam) % r == 0
    det = a1 * b2 - a2 * b1
    assert abs(det) == r
    g1 = (2 ** 257 * b2 + det) // (2 * det)
    g2 = (-(2 ** 257) * b1 + det) // (2 * det)
    assert abs(g1) < 2 ** 192 and abs(g2) < 2 ** 192
    for a, b in ((a1, a2), (b1, b2)):
        assert 5 * (abs(a) + abs(b)) < 8 * 2 ** 127
    for k in (0, 1, r - 1, r // 2, lam, r - lam, 2 ** 128, r - 2 ** 128):
        c1 = (k * abs(g1) + 2 ** 255) >> 256
        c2 = (k * abs(g2) + 2 ** 255) >> 256
        c1, c2 = (-c1 if g1 < 0 else c1), (-c2 if g2 < 0 else c2)
        k1, k2 = k - c1 * a1 - c2 * a2, -c1 * b1 - c2 * b2
        assert (k1 + k2 * lam - k) % r == 0 and abs(k1) < 2 ** 127 and abs(k2) < 2 ** 127

    def s128(v):  # modulo 2^128: only the low 128 bits of the products matter
        return "{" + ", ".join("0x%016xULL" % l for l in limbs(v % 2 ** 128, 2)) + "}"

    def mag192(v):
        return "{" + ", ".join("0x%016xULL" % l for l in limbs(abs(v), 3)) + "}"

    return ["#define EC_GLV_R %s" % scalar_init(r),
            "#define EC_GLV_A1 %s" % s128(a1), "#define EC_GLV_B1 %s" % s128(b1),
            "#define EC_GLV_A2 %s" % s128(a2), "#define EC_GLV_B2 %s" % s128(b2),
            "#define EC_GLV_G1 %s" % mag192(g1), "#define EC_GLV_G1_NEG %d" % (g1 < 0),
            "#define EC_GLV_G2 %s" % mag192(g2), "#define EC_GLV_G2_NEG %d" % (g2 < 0)]


def cube_roots_of_unity(q):
    """The two non-trivial cube roots of unity modulo the prime q, the
    smaller first."""
    h = next(pow(g, (q - 1) // 3, q) for g in range(2, 100) if pow(g, (q - 1) // 3, q) != 1)
    return sorted((h, h * h % q))


def header(name, c, deg, b, gen, extra, doc):
    out = ["/* %s. Generated by scripts/gen_ec_constants.py: do not edit." % doc,
           " * Template parameters for ec_tmpl.h (no include guard: included by",
           " * %s.h and %s.c). Field constants are in Montgomery form. */" % (name, name),
           "/* clang-format off */",
           "#define EC_NAME %s" % name,
           "#define EC_DEGREE %d" % deg,
           "#define EC_BASE %s_fp" % name.split("_")[0],
           "#define EC_B %s" % f_init(b, c, deg),
           "#define EC_GEN_X %s" % f_init(gen[0], c, deg),
           "#define EC_GEN_Y %s" % f_init(gen[1], c, deg)]
    out += extra
    out += ["/* clang-format on */"]
    return "\n".join(out) + "\n"


def main():
    outdir = sys.argv[1] if len(sys.argv) > 1 else os.path.join(
        os.path.dirname(os.path.abspath(__file__)), "..", "src", "ec")
    files = {}
    for curve, c in CURVES.items():
        p, r, x = c["p"], c["r"], c["x"]
        Fp2.P = p
        # ---- G1 ------------------------------------------------------------
        b1 = Fp2(c["b1"])
        g1 = (Fp2(c["g1"][0]), Fp2(c["g1"][1]))
        assert on_curve(g1, b1) and ec_mul(r, g1) is None
        extra = ["#define EC_FIELD %s_fp" % curve]
        # phi(x, y) = (beta*x, y) = [lam]P: on BLS12-381 the lam = -x^2 of
        # the subgroup test (Scott 2021, section 4); on BN254 the smaller
        # cube root of unity mod r.
        lam = -x * x if curve == "bls381" else cube_roots_of_unity(r)[0]
        beta = None
        for cand in cube_roots_of_unity(p):
            if (Fp2(cand) * g1[0], g1[1]) == ec_mul(lam % r, g1):
                beta = cand
        assert beta is not None
        extra += ["#define EC_ENDO_BETA %s" % fp_init(beta, c)]
        if curve == "bls381":
            extra += ["#define EC_LAMBDA %s" % scalar_init(-lam),
                      "#define EC_LAMBDA_NEG 1",
                      "#define EC_ZCASH 1"]
        else:
            extra += ["#define EC_COFACTOR_ONE 1"]
        extra += glv_defines(r, lam % r)
        files["%s_g1" % curve] = header("%s_g1" % curve, c, 1, b1, g1, extra,
                                        "%s G1: y^2 = x^3 + %d over Fp" % (curve, c["b1"]))
        # ---- G2 ------------------------------------------------------------
        xi = Fp2(*c["xi"])
        b2 = Fp2(c["b1"]) * xi if c["twist"] == "M" else Fp2(c["b1"]) * xi.inv()
        g2 = (Fp2(*c["g2"][0]), Fp2(*c["g2"][1]))
        assert on_curve(g2, b2) and ec_mul(r, g2) is None
        # psi = untwist-Frobenius-twist: (x, y) -> (cx * conj(x), cy * conj(y)).
        # Its eigenvalue on G2 is p mod r: x on BLS12, 6x^2 on BN.
        lam = x if curve == "bls381" else 6 * x * x
        assert (p - lam) % r == 0
        e3, e2 = xi.pow((p - 1) // 3), xi.pow((p - 1) // 2)
        if c["twist"] == "M":
            e3, e2 = e3.inv(), e2.inv()
        psi = (e3 * g2[0].conj(), e2 * g2[1].conj())
        assert on_curve(psi, b2) and psi == ec_mul(lam % r, g2)
        extra = ["#define EC_FIELD %s_fp2" % curve,
                 "#define EC_ENDO_PSI_X %s" % f_init(e3, c, 2),
                 "#define EC_ENDO_PSI_Y %s" % f_init(e2, c, 2),
                 "#define EC_LAMBDA %s" % scalar_init(abs(lam)),
                 "#define EC_LAMBDA_NEG %d" % (lam < 0)]
        if curve == "bn254":
            # 6x^2 is near sqrt(r): the same two-dimensional split as G1's
            # (BLS12-381's x has 64 bits and would need four dimensions).
            extra += glv_defines(r, lam % r)
        if curve == "bls381":
            extra += ["#define EC_ZCASH 1"]
        twist = "4(1+u)" if curve == "bls381" else "3/(9+u)"
        files["%s_g2" % curve] = header("%s_g2" % curve, c, 2, b2, g2, extra,
                                        "%s G2: y^2 = x^3 + %s over Fp2" % (curve, twist))
    for name, text in files.items():
        with open(os.path.join(outdir, name + "_params.h"), "w") as f:
            f.write(text)


if __name__ == "__main__":
    main()
