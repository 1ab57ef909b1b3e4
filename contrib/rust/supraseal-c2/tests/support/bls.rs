//! BLS12-381 arithmetic for the tests: Montgomery multiplication over
//! N 64-bit limbs (Fr with N = 4, Fp with N = 6), the ABI's scalar and
//! proof types as bellperson holds them, and bellperson's compressed proof
//! form (FORMATS.md §8.1, §8.4).

use std::sync::OnceLock;

// ---- field arithmetic: N little-endian 64-bit limbs, Montgomery R = 2^(64N)

/// Parses a hex integer (most significant digit first, no prefix).
pub fn from_hex<const N: usize>(hex: &str) -> [u64; N] {
    let mut out = [0u64; N];
    for (k, chunk) in hex.as_bytes().rchunks(16).enumerate() {
        let s = std::str::from_utf8(chunk).unwrap();
        out[k] = u64::from_str_radix(s, 16).unwrap();
    }
    out
}

/// a ≥ b.
pub fn geq<const N: usize>(a: &[u64; N], b: &[u64; N]) -> bool {
    for i in (0..N).rev() {
        if a[i] != b[i] {
            return a[i] > b[i];
        }
    }
    true
}

/// a − b mod 2^(64N), and the borrow out.
pub fn sub<const N: usize>(a: &[u64; N], b: &[u64; N]) -> ([u64; N], bool) {
    let mut out = [0u64; N];
    let mut borrow = false;
    for i in 0..N {
        let (d, b1) = a[i].overflowing_sub(b[i]);
        let (d, b2) = d.overflowing_sub(borrow as u64);
        out[i] = d;
        borrow = b1 || b2;
    }
    (out, borrow)
}

/// a = 0.
pub fn is_zero<const N: usize>(a: &[u64; N]) -> bool {
    a.iter().all(|&l| l == 0)
}

/// A prime field with modulus m < 2^(64N − 1), N ≤ 6.
pub struct Field<const N: usize> {
    pub m: [u64; N],
    /// −m⁻¹ mod 2^64.
    pub m_inv: u64,
    /// R² mod m.
    pub r2: [u64; N],
}

impl<const N: usize> Field<N> {
    /// The field of the odd modulus given in hex.
    pub fn new(modulus_hex: &str) -> Field<N> {
        assert!(N <= 6);
        let m = from_hex::<N>(modulus_hex);
        // Newton's iteration doubles the correct low bits of m[0]⁻¹ each
        // step: 1 → 2 → … → 64 bits in 6 steps (m odd).
        let mut inv: u64 = 1;
        for _ in 0..6 {
            inv = inv.wrapping_mul(2u64.wrapping_sub(m[0].wrapping_mul(inv)));
        }
        assert_eq!(m[0].wrapping_mul(inv), 1);
        // R² = 2^(128N) mod m: 1 doubled 128N times, reduced each time
        // (2x < 2m < 2^(64N), so one subtraction suffices).
        let mut x = [0u64; N];
        x[0] = 1;
        for _ in 0..128 * N {
            let mut carry = 0u64;
            for limb in x.iter_mut() {
                let next = *limb >> 63;
                *limb = (*limb << 1) | carry;
                carry = next;
            }
            if geq(&x, &m) {
                x = sub(&x, &m).0;
            }
        }
        Field {
            m,
            m_inv: inv.wrapping_neg(),
            r2: x,
        }
    }

    /// a·b·R⁻¹ mod m for a, b < m (CIOS Montgomery multiplication).
    pub fn mont_mul(&self, a: &[u64; N], b: &[u64; N]) -> [u64; N] {
        let mut t = [0u64; 8];
        for bi in b.iter() {
            let mut carry: u128 = 0;
            for j in 0..N {
                let v = t[j] as u128 + (a[j] as u128) * (*bi as u128) + carry;
                t[j] = v as u64;
                carry = v >> 64;
            }
            let v = t[N] as u128 + carry;
            t[N] = v as u64;
            t[N + 1] = (v >> 64) as u64;
            let q = t[0].wrapping_mul(self.m_inv);
            let mut carry = (t[0] as u128 + (q as u128) * (self.m[0] as u128)) >> 64;
            for j in 1..N {
                let v = t[j] as u128 + (q as u128) * (self.m[j] as u128) + carry;
                t[j - 1] = v as u64;
                carry = v >> 64;
            }
            let v = t[N] as u128 + carry;
            t[N - 1] = v as u64;
            t[N] = t[N + 1] + (v >> 64) as u64;
        }
        let mut out = [0u64; N];
        out.copy_from_slice(&t[..N]);
        if t[N] != 0 || geq(&out, &self.m) {
            out = sub(&out, &self.m).0;
        }
        out
    }

    /// a + b mod m for a, b < m.
    pub fn add(&self, a: &[u64; N], b: &[u64; N]) -> [u64; N] {
        let mut out = [0u64; N];
        let mut carry = false;
        for i in 0..N {
            let (s1, o1) = a[i].overflowing_add(b[i]);
            let (s2, o2) = s1.overflowing_add(carry as u64);
            out[i] = s2;
            carry = o1 || o2;
        }
        if carry || geq(&out, &self.m) {
            out = sub(&out, &self.m).0;
        }
        out
    }

    /// The Montgomery form x·R mod m of canonical x < m.
    pub fn montgomery(&self, x: &[u64; N]) -> [u64; N] {
        assert!(!geq(x, &self.m), "not below the modulus");
        self.mont_mul(x, &self.r2)
    }

    /// The canonical value x·R⁻¹ mod m of Montgomery-form x < m.
    pub fn canonical(&self, x: &[u64; N]) -> [u64; N] {
        let mut one = [0u64; N];
        one[0] = 1;
        self.mont_mul(x, &one)
    }

    /// Whether canonical y is the larger of y and m − y (y > (m − 1)/2).
    pub fn is_larger(&self, y: &[u64; N]) -> bool {
        let neg = sub(&self.m, y).0;
        !geq(&neg, y)
    }
}

pub const FR_MODULUS: &str = "73eda753299d7d483339d80809a1d80553bda402fffe5bfeffffffff00000001";
pub const FP_MODULUS: &str = "1a0111ea397fe69a4b1ba7b6434bacd764774b84f38512bf6730d2a0f6b0f6241eabfffeb153ffffb9feffffffffaaab";

/// The scalar field of BLS12-381.
pub fn fr() -> &'static Field<4> {
    static F: OnceLock<Field<4>> = OnceLock::new();
    F.get_or_init(|| Field::new(FR_MODULUS))
}

/// The base field of BLS12-381.
pub fn fp() -> &'static Field<6> {
    static F: OnceLock<Field<6>> = OnceLock::new();
    F.get_or_init(|| Field::new(FP_MODULUS))
}

// ---- the ABI's value types, as bellperson holds them -----------------------

/// An Fr element in Montgomery form (blstrs' Scalar).
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Fr(pub [u64; 4]);

#[repr(C)]
#[derive(Clone, Copy)]
pub struct G1 {
    pub x: [u64; 6],
    pub y: [u64; 6],
}

#[repr(C)]
#[derive(Clone, Copy)]
pub struct G2 {
    pub x: [[u64; 6]; 2],
    pub y: [[u64; 6]; 2],
}

/// A proof as bellperson's Proof<Bls12> sits in memory.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct PR {
    pub a: G1,
    pub b: G2,
    pub c: G1,
}

/// What a proof slot holds before the library writes it: limbs above p,
/// which compress() refuses.
pub const UNWRITTEN: PR = PR {
    a: G1 {
        x: [!0; 6],
        y: [!0; 6],
    },
    b: G2 {
        x: [[!0; 6]; 2],
        y: [[!0; 6]; 2],
    },
    c: G1 {
        x: [!0; 6],
        y: [!0; 6],
    },
};

// ---- bellperson's compressed proof (FORMATS.md §8.1, §8.4) ------------------

pub const COMPRESSED: u8 = 0x80;
pub const INFINITY: u8 = 0x40;
pub const LARGER_Y: u8 = 0x20;

/// Canonical value of the Montgomery-form coordinate `x` of proof `what`.
pub fn fp_canonical(x: &[u64; 6], what: &str) -> [u64; 6] {
    assert!(
        !geq(x, &fp().m),
        "{what}: a coordinate not below p (was the proof written?)"
    );
    fp().canonical(x)
}

/// 48 bytes, big-endian.
pub fn put_fp(out: &mut [u8], x: &[u64; 6]) {
    for (i, byte) in out.iter_mut().enumerate().take(48) {
        let k = 47 - i;
        *byte = (x[k / 8] >> (8 * (k % 8))) as u8;
    }
}

pub fn compress_g1(p: &G1, what: &str) -> [u8; 48] {
    let mut out = [0u8; 48];
    if is_zero(&p.x) && is_zero(&p.y) {
        out[0] = COMPRESSED | INFINITY;
        return out;
    }
    let x = fp_canonical(&p.x, what);
    let y = fp_canonical(&p.y, what);
    put_fp(&mut out, &x);
    out[0] |= COMPRESSED;
    if fp().is_larger(&y) {
        out[0] |= LARGER_Y;
    }
    out
}

pub fn compress_g2(p: &G2, what: &str) -> [u8; 96] {
    let mut out = [0u8; 96];
    if p.x.iter().chain(p.y.iter()).all(is_zero) {
        out[0] = COMPRESSED | INFINITY;
        return out;
    }
    let x0 = fp_canonical(&p.x[0], what);
    let x1 = fp_canonical(&p.x[1], what);
    let y0 = fp_canonical(&p.y[0], what);
    let y1 = fp_canonical(&p.y[1], what);
    put_fp(&mut out[..48], &x1);
    put_fp(&mut out[48..], &x0);
    out[0] |= COMPRESSED;
    // Fp2 order: c1 decides, c0 only when c1 is zero.
    let larger = if is_zero(&y1) {
        fp().is_larger(&y0)
    } else {
        fp().is_larger(&y1)
    };
    if larger {
        out[0] |= LARGER_Y;
    }
    out
}

/// Proof i of a run as bellperson writes it: A ‖ B ‖ C, 192 bytes.
pub fn compress(p: &PR, i: usize) -> Vec<u8> {
    let what = format!("proof {i}");
    let mut out = Vec::with_capacity(192);
    out.extend_from_slice(&compress_g1(&p.a, &what));
    out.extend_from_slice(&compress_g2(&p.b, &what));
    out.extend_from_slice(&compress_g1(&p.c, &what));
    out
}
