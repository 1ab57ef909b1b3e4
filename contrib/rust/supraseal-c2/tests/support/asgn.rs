//! A reader of cuzk's assignment files (docs/ASSIGNMENT.md) that hands the
//! values out in Montgomery form, as bellperson's ProvingAssignment holds
//! them.

use std::fs;
use std::path::Path;

use super::bls::{fr, geq, Fr};

/// An assignment file (docs/ASSIGNMENT.md), scalars in Montgomery form.
pub struct Asgn {
    pub a: Vec<Fr>,
    pub b: Vec<Fr>,
    pub c: Vec<Fr>,
    pub inputs: Vec<Fr>,
    pub aux: Vec<Fr>,
    pub a_aux_density: Vec<usize>,
    pub b_inp_density: Vec<usize>,
    pub b_aux_density: Vec<usize>,
}

const ASGN_MAGIC: &[u8; 8] = b"cuzkasgn";
const ASGN_VERSION: u32 = 1;
const ASGN_CURVE_BLS12_381: u32 = 2;
const ASGN_HEADER_SIZE: usize = 40;

/// Reads the sections of an assignment file in order.
struct Cursor<'a> {
    path: &'a Path,
    bytes: &'a [u8],
    off: usize,
}

impl Cursor<'_> {
    fn scalars(&mut self, n: usize, section: &str) -> Vec<Fr> {
        let mut out = Vec::with_capacity(n);
        for i in 0..n {
            let mut v = [0u64; 4];
            for (k, limb) in v.iter_mut().enumerate() {
                let o = self.off + 32 * i + 8 * k;
                *limb = u64::from_le_bytes(self.bytes[o..o + 8].try_into().unwrap());
            }
            assert!(
                !geq(&v, &fr().m),
                "{}: section {section}: scalar {i} is not below r",
                self.path.display()
            );
            out.push(Fr(fr().montgomery(&v)));
        }
        self.off += 32 * n;
        out
    }

    fn words(&mut self, n_bits: usize) -> Vec<usize> {
        let n = n_bits.div_ceil(64);
        let w = (0..n)
            .map(|i| {
                let o = self.off + 8 * i;
                u64::from_le_bytes(self.bytes[o..o + 8].try_into().unwrap()) as usize
            })
            .collect();
        self.off += 8 * n;
        w
    }
}

pub fn read_asgn(path: &Path) -> Asgn {
    let bytes = fs::read(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let fail = |what: String| -> ! { panic!("{}: {what}", path.display()) };
    if bytes.len() < ASGN_HEADER_SIZE {
        fail(format!("shorter than the {ASGN_HEADER_SIZE}-byte header"));
    }
    if &bytes[..8] != ASGN_MAGIC {
        fail("not an assignment file (no cuzkasgn magic)".into());
    }
    let u32_at = |o: usize| u32::from_le_bytes(bytes[o..o + 4].try_into().unwrap());
    let u64_at = |o: usize| u64::from_le_bytes(bytes[o..o + 8].try_into().unwrap()) as usize;
    if u32_at(8) != ASGN_VERSION || u32_at(12) != ASGN_CURVE_BLS12_381 {
        fail(format!(
            "version {} curve {}, wanted version 1 of BLS12-381",
            u32_at(8),
            u32_at(12)
        ));
    }
    let (n_rows, n_inputs, n_aux) = (u64_at(16), u64_at(24), u64_at(32));
    let want = ASGN_HEADER_SIZE
        + 32 * (3 * n_rows + n_inputs + n_aux)
        + 8 * (2 * n_aux.div_ceil(64) + n_inputs.div_ceil(64));
    if bytes.len() != want {
        fail(format!("{} bytes, the counts say {want}", bytes.len()));
    }
    let mut cur = Cursor {
        path,
        bytes: &bytes,
        off: ASGN_HEADER_SIZE,
    };
    let a = cur.scalars(n_rows, "a");
    let b = cur.scalars(n_rows, "b");
    let c = cur.scalars(n_rows, "c");
    let inputs = cur.scalars(n_inputs, "inputs");
    let aux = cur.scalars(n_aux, "aux");
    let a_aux_density = cur.words(n_aux);
    let b_inp_density = cur.words(n_inputs);
    let b_aux_density = cur.words(n_aux);
    assert_eq!(cur.off, bytes.len());
    assert_eq!(
        fr().canonical(&inputs[0].0),
        [1, 0, 0, 0],
        "inputs[0] is one"
    );
    Asgn {
        a,
        b,
        c,
        inputs,
        aux,
        a_aux_density,
        b_inp_density,
        b_aux_density,
    }
}

pub fn popcount(words: &[usize]) -> usize {
    words.iter().map(|w| w.count_ones() as usize).sum()
}
