//! The crate against cuzk's libcuzk_supraseal_curio.so, end to end: two
//! assignments of one circuit are proven through every entry point (one
//! call with both circuits, the split start/finish form, two threads sharing
//! one GPU mutex, the `Assignment` form, a cloned handle), each proof is
//! compressed to bellperson's 192-byte form and checked with `cuzk verify`,
//! which must also reject it with another circuit's or a changed input.
//!
//! tests/supraseal/test_crate.sh makes the fixtures and runs these tests:
//!   CUZK_SUPRASEAL_FIXTURES  a folder with c.params (a development key of
//!                            the circuit), a1.asgn, a2.asgn (two assignments
//!                            of it, docs/ASSIGNMENT.md) and in1.json, in2.json
//!                            (their public inputs, as `cuzk assign
//!                            --inputs-out` writes them)
//!   CUZK_BIN                 the cuzk command line, for `cuzk verify`
//!   SUPRASEAL_TEST_SEED      optional: the seed of the blinding scalars
//!                            (every test prints the one it used)

use std::ffi::c_void;
use std::fs;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

use supraseal_c2::{
    alloc_gpu_mutex, cuda, drop_pending_proof, finish_groth16_proof, free_gpu_mutex,
    generate_groth16_proof, generate_groth16_proofs, start_groth16_proof, Assignment, SRS,
};

mod support;

use support::asgn::{popcount, read_asgn, Asgn};
use support::bls::{
    compress, compress_g1, fp, fr, from_hex, put_fp, sub, Fr, COMPRESSED, G1, LARGER_Y, PR,
    UNWRITTEN,
};

// ---- the fixtures ----------------------------------------------------------

/// The decimal strings of a JSON array of them (what `--inputs-out` writes).
fn json_strings(text: &str) -> Vec<String> {
    text.split('"')
        .skip(1)
        .step_by(2)
        .map(str::to_string)
        .collect()
}

/// The inputs file of a proof file: one array for one proof, an array of
/// arrays for several (as `cuzk prove --inputs-out` writes them).
fn inputs_json(sets: &[&[String]]) -> String {
    let array = |v: &[String]| {
        let items: Vec<String> = v.iter().map(|s| format!("\"{s}\"")).collect();
        format!("[{}]", items.join(", "))
    };
    if sets.len() == 1 {
        array(sets[0]) + "\n"
    } else {
        let all: Vec<String> = sets.iter().map(|v| array(v)).collect();
        format!("[\n{}\n]\n", all.join(",\n"))
    }
}

struct Fixtures {
    dir: PathBuf,
    cuzk: PathBuf,
    params: PathBuf,
    asgn: [Asgn; 2],
    inputs: [Vec<String>; 2],
}

fn fixtures() -> &'static Fixtures {
    static F: OnceLock<Fixtures> = OnceLock::new();
    F.get_or_init(|| {
        let dir = std::env::var_os("CUZK_SUPRASEAL_FIXTURES").map(PathBuf::from).expect(
            "CUZK_SUPRASEAL_FIXTURES is not set: these tests need the fixtures that \
             tests/supraseal/test_crate.sh CUZK_BIN LIB_DIR CARGO_TARGET_DIR makes; run that script",
        );
        let cuzk = std::env::var_os("CUZK_BIN")
            .map(PathBuf::from)
            .expect("CUZK_BIN is not set: run tests/supraseal/test_crate.sh");
        let read = |name: &str| {
            let p = dir.join(name);
            fs::read_to_string(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
        };
        let inputs = [json_strings(&read("in1.json")), json_strings(&read("in2.json"))];
        let asgn = [read_asgn(&dir.join("a1.asgn")), read_asgn(&dir.join("a2.asgn"))];
        for (k, a) in asgn.iter().enumerate() {
            assert_eq!(
                inputs[k].len() + 1,
                a.inputs.len(),
                "in{}.json holds the inputs of a{}.asgn, ONE excluded",
                k + 1,
                k + 1
            );
        }
        Fixtures {
            params: dir.join("c.params"),
            dir,
            cuzk,
            asgn,
            inputs,
        }
    })
}

/// A folder for one test's files, removed when the test passes.
struct Work(PathBuf);

impl Work {
    fn new(name: &str) -> Work {
        let d = std::env::temp_dir().join(format!("supraseal-c2-{}-{name}", std::process::id()));
        fs::create_dir_all(&d).unwrap();
        Work(d)
    }
}

impl Drop for Work {
    fn drop(&mut self) {
        if std::thread::panicking() {
            eprintln!("kept {} for a look", self.0.display());
        } else {
            let _ = fs::remove_dir_all(&self.0);
        }
    }
}

/// xorshift64*: the blinding scalars, reproducible from the seed.
struct Rng(u64);

impl Rng {
    fn for_test(name: &str, default: u64) -> Rng {
        let seed = std::env::var("SUPRASEAL_TEST_SEED")
            .ok()
            .and_then(|s| s.parse().ok())
            .unwrap_or(default);
        eprintln!("{name}: SUPRASEAL_TEST_SEED={seed}");
        Rng(seed | 1)
    }

    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    /// n values below 2^254 < r, in Montgomery form.
    fn scalars(&mut self, n: usize) -> Vec<Fr> {
        (0..n)
            .map(|_| {
                let mut v = [self.next(), self.next(), self.next(), self.next()];
                v[3] >>= 2;
                Fr(fr().montgomery(&v))
            })
            .collect()
    }
}

// ---- proving as bellperson does it -------------------------------------------

/// The pointer vectors of bellperson's supraseal prover for some circuits.
struct Refs {
    a: Vec<*const Fr>,
    b: Vec<*const Fr>,
    c: Vec<*const Fr>,
    inputs: Vec<*const Fr>,
    aux: Vec<*const Fr>,
}

fn refs(circuits: &[&Asgn]) -> Refs {
    Refs {
        a: circuits.iter().map(|p| p.a.as_ptr()).collect(),
        b: circuits.iter().map(|p| p.b.as_ptr()).collect(),
        c: circuits.iter().map(|p| p.c.as_ptr()).collect(),
        inputs: circuits.iter().map(|p| p.inputs.as_ptr()).collect(),
        aux: circuits.iter().map(|p| p.aux.as_ptr()).collect(),
    }
}

/// A GPU mutex handle that threads may share.
#[derive(Clone, Copy)]
struct Mtx(*mut c_void);
unsafe impl Send for Mtx {}
unsafe impl Sync for Mtx {}
impl Mtx {
    fn get(self) -> *mut c_void {
        self.0
    }
}

/// generate_groth16_proof with bellperson's arguments.
fn prove(circuits: &[&Asgn], r_s: &[Fr], s_s: &[Fr], srs: &SRS, mtx: Mtx) -> Vec<PR> {
    let p0 = circuits[0];
    let mut r = refs(circuits);
    let mut proofs = vec![UNWRITTEN; circuits.len()];
    generate_groth16_proof(
        r.a.as_slice(),
        r.b.as_slice(),
        r.c.as_slice(),
        p0.a.len(),
        r.inputs.as_mut_slice(),
        r.aux.as_mut_slice(),
        p0.inputs.len(),
        p0.aux.len(),
        p0.a_aux_density.as_slice(),
        p0.b_inp_density.as_slice(),
        p0.b_aux_density.as_slice(),
        popcount(&p0.a_aux_density),
        popcount(&p0.b_inp_density),
        popcount(&p0.b_aux_density),
        circuits.len(),
        r_s,
        s_s,
        proofs.as_mut_slice(),
        srs,
        mtx.get(),
        -1,
    );
    proofs
}

/// start_groth16_proof, then finish_groth16_proof, as Curio's workers do:
/// a, b and c are copies that are overwritten and freed as soon as start
/// returns (Curio hands them back to its pool then).
fn prove_split(circuits: &[&Asgn], r_s: &[Fr], s_s: &[Fr], srs: &SRS, mtx: Mtx) -> Vec<PR> {
    let p0 = circuits[0];
    let mut abc: Vec<[Vec<Fr>; 3]> = circuits
        .iter()
        .map(|p| [p.a.clone(), p.b.clone(), p.c.clone()])
        .collect();
    let mut r = refs(circuits);
    r.a = abc.iter().map(|v| v[0].as_ptr()).collect();
    r.b = abc.iter().map(|v| v[1].as_ptr()).collect();
    r.c = abc.iter().map(|v| v[2].as_ptr()).collect();
    let pending = start_groth16_proof(
        r.a.as_slice(),
        r.b.as_slice(),
        r.c.as_slice(),
        p0.a.len(),
        r.inputs.as_mut_slice(),
        r.aux.as_mut_slice(),
        p0.inputs.len(),
        p0.aux.len(),
        p0.a_aux_density.as_slice(),
        p0.b_inp_density.as_slice(),
        p0.b_aux_density.as_slice(),
        popcount(&p0.a_aux_density),
        popcount(&p0.b_inp_density),
        popcount(&p0.b_aux_density),
        circuits.len(),
        r_s,
        s_s,
        srs,
        mtx.get(),
        -1,
    );
    assert!(!pending.is_null(), "start_groth16_proof gave no handle");
    for v in abc.iter_mut().flatten() {
        v.iter_mut()
            .for_each(|x| *x = Fr([0x5a5a_5a5a_5a5a_5a5a; 4]));
    }
    drop(abc);
    let mut proofs = vec![UNWRITTEN; circuits.len()];
    finish_groth16_proof(pending, proofs.as_mut_slice());
    proofs
}

/// Runs `cuzk verify` on the proofs with the inputs: its exit status and
/// what it printed.
fn verify(work: &Work, name: &str, proofs: &[PR], inputs: &[&[String]]) -> (i32, String, String) {
    let f = fixtures();
    let bytes: Vec<u8> = proofs
        .iter()
        .enumerate()
        .flat_map(|(i, p)| compress(p, i))
        .collect();
    let proof_path = work.0.join(format!("{name}.bin"));
    let inputs_path = work.0.join(format!("{name}.json"));
    fs::write(&proof_path, &bytes).unwrap();
    fs::write(&inputs_path, inputs_json(inputs)).unwrap();
    let out = Command::new(&f.cuzk)
        .arg("verify")
        .arg("--vk")
        .arg(&f.params)
        .arg("--inputs")
        .arg(&inputs_path)
        .arg("--proof")
        .arg(&proof_path)
        .output()
        .unwrap_or_else(|e| panic!("running {}: {e}", f.cuzk.display()));
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn expect_valid(work: &Work, name: &str, proofs: &[PR], inputs: &[&[String]]) {
    let (code, out, err) = verify(work, name, proofs, inputs);
    assert!(
        code == 0 && out.lines().any(|l| l == "OK"),
        "{name}: cuzk verify exited {code}, printed {out:?}, {err:?} (files in {})",
        work.0.display()
    );
}

fn expect_invalid(work: &Work, name: &str, proofs: &[PR], inputs: &[&[String]]) {
    let (code, out, err) = verify(work, name, proofs, inputs);
    assert!(
        code == 1,
        "{name}: cuzk verify should reject it (exit 1) but exited {code}, printed {out:?}, {err:?}"
    );
}

/// The inputs with the first one changed.
fn tampered(inputs: &[String]) -> Vec<String> {
    let mut v = inputs.to_vec();
    v[0] = if v[0] == "5" { "6" } else { "5" }.to_string();
    v
}

fn load_srs(cache: bool) -> SRS {
    let f = fixtures();
    SRS::try_new(f.params.clone(), cache)
        .unwrap_or_else(|e| panic!("SRS::try_new({}): {e}", f.params.display()))
}

const NO_MUTEX: Mtx = Mtx(core::ptr::null_mut());

// ---- the tests -------------------------------------------------------------

#[test]
fn field_arithmetic_and_compression() {
    // R² mod r as FORMATS.md §1 gives it.
    assert_eq!(
        fr().r2,
        from_hex::<4>("0748d9d99f59ff1105d314967254398f2b6cedcb87925c23c999e990f3f29c6d")
    );
    // R mod p, FORMATS.md §1: the Montgomery form of one.
    let one6 = [1, 0, 0, 0, 0, 0];
    assert_eq!(
        fp().montgomery(&one6),
        from_hex::<6>("15f65ec3fa80e4935c071a97a256ec6d77ce5853705257455f48985753c758baebf4000bc40c0002760900000002fffd")
    );
    let mut rng = Rng::for_test("field_arithmetic_and_compression", 7);
    for _ in 0..100 {
        let x = rng.scalars(1)[0].0;
        let y = rng.scalars(1)[0].0;
        assert_eq!(fr().montgomery(&fr().canonical(&x)), x);
        // (xR)(yR)/R = xyR: mont_mul is multiplication in Montgomery form.
        let xy = fr().mont_mul(&x, &y);
        assert_eq!(fr().mont_mul(&xy, &fr().montgomery(&[1, 0, 0, 0])), xy);
    }

    // The generator of G1 (on y² = x³ + 4) compresses to its well-known
    // bytes, its negation with the sign flag.
    let gx = from_hex::<6>("17f1d3a73197d7942695638c4fa9ac0fc3688c4f9774b905a14e3a3f171bac586c55e83ff97a1aeffb3af00adb22c6bb");
    let gy = from_hex::<6>("08b3f481e3aaa0f1a09e30ed741d8ae4fcf5e095d5d00af600db18cb2c04b3edd03cc744a2888ae40caa232946c5e7e1");
    let (x, y) = (fp().montgomery(&gx), fp().montgomery(&gy));
    let x3 = fp().mont_mul(&fp().mont_mul(&x, &x), &x);
    let rhs = fp().add(&x3, &fp().montgomery(&[4, 0, 0, 0, 0, 0]));
    assert_eq!(fp().mont_mul(&y, &y), rhs, "the generator is on the curve");
    let g = G1 { x, y };
    let mut want = [0u8; 48];
    put_fp(&mut want, &gx);
    want[0] |= COMPRESSED;
    assert_eq!(compress_g1(&g, "G")[..], want[..]);
    assert_eq!(want[0], 0x97);
    let neg = G1 {
        x,
        y: fp().montgomery(&sub(&fp().m, &gy).0),
    };
    want[0] |= LARGER_Y;
    assert_eq!(compress_g1(&neg, "-G")[..], want[..]);
    let inf = G1 {
        x: [0; 6],
        y: [0; 6],
    };
    assert_eq!(compress_g1(&inf, "O")[0], 0xc0);
}

#[test]
fn layouts_match_the_c_header() {
    use std::mem::{offset_of, size_of};
    assert_eq!(size_of::<Assignment<Fr>>(), 136);
    assert_eq!(offset_of!(Assignment<Fr>, b_inp_density), 24);
    assert_eq!(offset_of!(Assignment<Fr>, b_aux_density), 48);
    assert_eq!(offset_of!(Assignment<Fr>, a), 72);
    assert_eq!(offset_of!(Assignment<Fr>, abc_size), 96);
    assert_eq!(offset_of!(Assignment<Fr>, inp_assignment_data), 104);
    assert_eq!(offset_of!(Assignment<Fr>, aux_assignment_size), 128);
    assert_eq!(size_of::<cuda::Error>(), 16);
    assert_eq!(size_of::<SRS>(), 8);
    assert_eq!(size_of::<PR>(), 384);
    fn send_sync<T: Send + Sync>() {}
    send_sync::<SRS>();
    let empty = SRS::default();
    drop(empty);
}

#[test]
fn one_call_with_both_circuits() {
    let f = fixtures();
    let work = Work::new("one_call");
    let srs = load_srs(false);
    let mut rng = Rng::for_test("one_call_with_both_circuits", 11);
    let (r_s, s_s) = (rng.scalars(2), rng.scalars(2));
    let proofs = prove(&[&f.asgn[0], &f.asgn[1]], &r_s, &s_s, &srs, NO_MUTEX);
    let (in1, in2) = (&f.inputs[0][..], &f.inputs[1][..]);
    expect_valid(&work, "both", &proofs, &[in1, in2]);
    expect_valid(&work, "first", &proofs[..1], &[in1]);
    expect_valid(&work, "second", &proofs[1..], &[in2]);
    assert_ne!(compress(&proofs[0], 0), compress(&proofs[1], 1));
    if in1 != in2 {
        expect_invalid(&work, "first_with_second_inputs", &proofs[..1], &[in2]);
        expect_invalid(&work, "swapped", &proofs, &[in2, in1]);
    } else {
        eprintln!("NOTE: a1.asgn and a2.asgn have the same inputs: no cross-inputs check");
    }
    expect_invalid(&work, "first_tampered", &proofs[..1], &[&tampered(in1)]);

    // Blinding with r = s = 0 is what bellperson does without randomization.
    let zero = vec![Fr([0; 4]); 1];
    let plain = prove(&[&f.asgn[1]], &zero, &zero, &srs, NO_MUTEX);
    expect_valid(&work, "unblinded", &plain, &[in2]);
}

#[test]
fn start_then_finish() {
    let f = fixtures();
    let work = Work::new("split");
    let srs = load_srs(false);
    let mut rng = Rng::for_test("start_then_finish", 13);
    let (r_s, s_s) = (rng.scalars(2), rng.scalars(2));
    let proofs = prove_split(&[&f.asgn[0], &f.asgn[1]], &r_s, &s_s, &srs, NO_MUTEX);
    let (in1, in2) = (&f.inputs[0][..], &f.inputs[1][..]);
    expect_valid(&work, "both", &proofs, &[in1, in2]);
    if in1 != in2 {
        expect_invalid(&work, "swapped", &proofs, &[in2, in1]);
    }
    expect_invalid(&work, "second_tampered", &proofs[1..], &[&tampered(in2)]);
    // The same blinding through the one-call form gives the same proofs.
    let again = prove(&[&f.asgn[0], &f.asgn[1]], &r_s, &s_s, &srs, NO_MUTEX);
    for i in 0..2 {
        assert_eq!(compress(&proofs[i], i), compress(&again[i], i), "proof {i}");
    }
}

#[test]
fn abandoned_pending_proof() {
    let f = fixtures();
    let srs = load_srs(false);
    let p0 = &f.asgn[0];
    let mut r = refs(&[p0]);
    let mut rng = Rng::for_test("abandoned_pending_proof", 17);
    let (r_s, s_s) = (rng.scalars(1), rng.scalars(1));
    let pending = start_groth16_proof(
        r.a.as_slice(),
        r.b.as_slice(),
        r.c.as_slice(),
        p0.a.len(),
        r.inputs.as_mut_slice(),
        r.aux.as_mut_slice(),
        p0.inputs.len(),
        p0.aux.len(),
        p0.a_aux_density.as_slice(),
        p0.b_inp_density.as_slice(),
        p0.b_aux_density.as_slice(),
        popcount(&p0.a_aux_density),
        popcount(&p0.b_inp_density),
        popcount(&p0.b_aux_density),
        1,
        &r_s,
        &s_s,
        &srs,
        core::ptr::null_mut(),
        -1,
    );
    assert!(!pending.is_null());
    unsafe { drop_pending_proof(pending) };
    unsafe { drop_pending_proof(core::ptr::null_mut()) };
    // The engine goes on proving after the abandoned job.
    let work = Work::new("abandoned");
    let proofs = prove(&[p0], &r_s, &s_s, &srs, NO_MUTEX);
    expect_valid(&work, "after", &proofs, &[&f.inputs[0]]);
}

#[test]
fn two_threads_sharing_a_gpu_mutex() {
    let f = fixtures();
    let work = Work::new("threads");
    let srs = load_srs(false);
    let mtx = Mtx(alloc_gpu_mutex());
    assert!(!mtx.0.is_null(), "alloc_gpu_mutex gave NULL");
    let mut rng = Rng::for_test("two_threads_sharing_a_gpu_mutex", 19);
    let blind: Vec<(Vec<Fr>, Vec<Fr>)> = (0..4).map(|_| (rng.scalars(1), rng.scalars(1))).collect();
    let rounds = 3;
    let results: Vec<Vec<(usize, PR)>> = std::thread::scope(|scope| {
        let workers: Vec<_> = (0..2)
            .map(|k| {
                let (srs, blind) = (&srs, &blind);
                scope.spawn(move || {
                    let circuit = &f.asgn[k];
                    let mut out = Vec::new();
                    for round in 0..rounds {
                        let (r_s, s_s) = &blind[2 * k + round % 2];
                        let p = if round % 2 == 0 {
                            prove(&[circuit], r_s, s_s, srs, mtx)
                        } else {
                            prove_split(&[circuit], r_s, s_s, srs, mtx)
                        };
                        out.push((k, p[0]));
                    }
                    out
                })
            })
            .collect();
        workers.into_iter().map(|w| w.join().unwrap()).collect()
    });
    unsafe { free_gpu_mutex(mtx.get()) };
    for (k, proofs) in results.iter().enumerate() {
        for (round, (circuit, p)) in proofs.iter().enumerate() {
            assert_eq!(*circuit, k);
            expect_valid(
                &work,
                &format!("thread{k}_round{round}"),
                &[*p],
                &[&f.inputs[k]],
            );
        }
    }
}

#[test]
fn assignment_structs() {
    let f = fixtures();
    let work = Work::new("assignments");
    let srs = load_srs(false);
    let provers: Vec<Assignment<Fr>> = f
        .asgn
        .iter()
        .map(|p| Assignment {
            a_aux_density: p.a_aux_density.as_ptr(),
            a_aux_bit_len: p.aux.len(),
            a_aux_popcount: popcount(&p.a_aux_density),
            b_inp_density: p.b_inp_density.as_ptr(),
            b_inp_bit_len: p.inputs.len(),
            b_inp_popcount: popcount(&p.b_inp_density),
            b_aux_density: p.b_aux_density.as_ptr(),
            b_aux_bit_len: p.aux.len(),
            b_aux_popcount: popcount(&p.b_aux_density),
            a: p.a.as_ptr(),
            b: p.b.as_ptr(),
            c: p.c.as_ptr(),
            abc_size: p.a.len(),
            inp_assignment_data: p.inputs.as_ptr(),
            inp_assignment_size: p.inputs.len(),
            aux_assignment_data: p.aux.as_ptr(),
            aux_assignment_size: p.aux.len(),
        })
        .collect();
    let mut rng = Rng::for_test("assignment_structs", 23);
    let (r_s, s_s) = (rng.scalars(2), rng.scalars(2));
    let mut proofs = vec![UNWRITTEN; 2];
    generate_groth16_proofs(&provers, &r_s, &s_s, &mut proofs, &srs);
    expect_valid(&work, "both", &proofs, &[&f.inputs[0], &f.inputs[1]]);
}

#[test]
fn cloned_handle_outlives_the_original() {
    let f = fixtures();
    let work = Work::new("clone");
    let mut rng = Rng::for_test("cloned_handle_outlives_the_original", 29);
    let (r_s, s_s) = (rng.scalars(1), rng.scalars(1));

    let srs = load_srs(true);
    let clone = srs.clone();
    srs.evict();
    drop(srs);
    let proofs = prove(&[&f.asgn[0]], &r_s, &s_s, &clone, NO_MUTEX);
    expect_valid(&work, "clone", &proofs, &[&f.inputs[0]]);

    // Loading the path again after the eviction, while the clone lives,
    // and proving with the new handle once the clone is gone.
    let again = load_srs(true);
    drop(clone);
    let proofs = prove(&[&f.asgn[1]], &r_s, &s_s, &again, NO_MUTEX);
    expect_valid(&work, "again", &proofs, &[&f.inputs[1]]);
    again.evict();
    let clone = again.clone();
    drop(again);
    drop(clone);

    // Uncached: a clone alone keeps the parameters.
    let plain = load_srs(false);
    let clone = plain.clone();
    drop(plain);
    let proofs = prove(&[&f.asgn[1]], &r_s, &s_s, &clone, NO_MUTEX);
    expect_valid(&work, "uncached_clone", &proofs, &[&f.inputs[1]]);
}

/// Err of try_new with a message that names the path.
fn expect_load_error(path: &Path) -> cuda::Error {
    let err = match SRS::try_new(path.to_path_buf(), false) {
        Ok(_) => panic!("SRS::try_new({}) loaded it", path.display()),
        Err(e) => e,
    };
    assert_ne!(err.code, 0, "{err:?}");
    let text = err.to_string();
    assert!(
        text.contains(&*path.to_string_lossy()),
        "the message {text:?} does not name {}",
        path.display()
    );
    assert!(format!("{err:?}").contains(&format!("code: {}", err.code)));
    err
}

#[test]
fn srs_errors_name_the_path() {
    let f = fixtures();
    let not_params = expect_load_error(&f.dir.join("a1.asgn"));
    let missing = expect_load_error(&f.dir.join("no-such-file.params"));
    eprintln!("not a params file: {not_params}");
    eprintln!("missing: {missing}");
    let text = String::from(missing);
    assert!(!text.is_empty());
    let err = SRS::try_new(PathBuf::from("bad\0path"), false)
        .err()
        .unwrap();
    assert!(err.to_string().contains("NUL"), "{err}");
}

#[test]
fn a_circuit_that_does_not_fit_panics_with_the_message() {
    let f = fixtures();
    let srs = load_srs(false);
    let p0 = &f.asgn[0];
    let mut rng = Rng::for_test("a_circuit_that_does_not_fit_panics_with_the_message", 31);
    let (r_s, s_s) = (rng.scalars(1), rng.scalars(1));
    let mut r = refs(&[p0]);
    let mut proofs = vec![UNWRITTEN; 1];
    // One aux variable fewer than the key's L query has.
    let result = catch_unwind(AssertUnwindSafe(|| {
        generate_groth16_proof(
            r.a.as_slice(),
            r.b.as_slice(),
            r.c.as_slice(),
            p0.a.len(),
            r.inputs.as_mut_slice(),
            r.aux.as_mut_slice(),
            p0.inputs.len(),
            p0.aux.len() - 1,
            p0.a_aux_density.as_slice(),
            p0.b_inp_density.as_slice(),
            p0.b_aux_density.as_slice(),
            popcount(&p0.a_aux_density),
            popcount(&p0.b_inp_density),
            popcount(&p0.b_aux_density),
            1,
            &r_s,
            &s_s,
            proofs.as_mut_slice(),
            &srs,
            core::ptr::null_mut(),
            -1,
        )
    }));
    let payload = result.expect_err("proving with a wrong aux count succeeded");
    let text = payload
        .downcast_ref::<String>()
        .cloned()
        .or_else(|| payload.downcast_ref::<&str>().map(|s| s.to_string()))
        .unwrap_or_default();
    eprintln!("wrong aux count: {text}");
    assert!(
        !text.is_empty() && !text.starts_with("cuzk supraseal error"),
        "{text:?}"
    );
}
