//! supraseal-c2's Groth16 prover API, as Curio's fork of the crate offers
//! it, served by cuzk.
//!
//! The items, their signatures and their panics are those of Curio's
//! `supraseal-c2` 0.1.2, so that bellperson's `cuda-supraseal` prover and
//! Curio's workers build against this crate unchanged (through
//! `[patch.crates-io]`). Instead of compiling supraseal's CUDA, every call
//! goes to cuzk's `libcuzk_supraseal_curio.so`, whose C ABI is
//! `src/supraseal/supraseal.h` in cuzk's source tree: each proving call is
//! one job of a process-wide cuzk engine, on the GPU when the library was
//! built with CUDA and a device is there, else on the CPU.
//!
//! Memory layouts the library relies on (x86-64 and AArch64 Linux):
//! - a scalar `S` is a BLS12-381 Fr element in Montgomery form,
//!   R = 2^256 mod r, four little-endian 64-bit limbs (blstrs' `Scalar`),
//!   below r;
//! - a proof `PR` is 384 bytes: A as blst's `blst_p1_affine`, B as
//!   `blst_p2_affine`, C as `blst_p1_affine` (Fp in Montgomery form,
//!   R = 2^384; an Fp2 is c0 then c1; the point at infinity is all zero),
//!   which is how bellperson's `Proof<Bls12>` sits in memory;
//! - a density bitmap is an array of 64-bit words, variable i in bit i % 64
//!   of word i / 64 (bitvec's `BitVec<usize, Lsb0>` raw storage).

use core::ffi::c_void;
use std::ffi::{c_char, CString};
use std::path::PathBuf;

/// The error type of the C ABI (sppark's `RustError`).
pub mod cuda {
    use core::ffi::c_void;
    use std::ffi::{c_char, CStr};
    use std::fmt;

    extern "C" {
        fn malloc(size: usize) -> *mut c_void;
        fn free(ptr: *mut c_void);
    }

    /// A failure the library reported: `code` is a `cuzk_status_t` value
    /// (never 0; `include/cuzk_base.h` lists them, e.g. 4 for a file that
    /// is not what it should be, 14 for a path that names no readable
    /// file), with a one-line message that names what failed (the file, the
    /// count that did not match).
    ///
    /// The library returns this by value, laid out as sppark's `RustError`:
    /// the code, then a message that is NULL or allocated with `malloc`.
    /// The error owns the message and frees it when dropped.
    #[repr(C)]
    pub struct Error {
        pub code: i32,
        message: *mut c_char,
    }

    // The message is an owned, immutable heap string: moving the error to
    // another thread, or reading it from several, is safe.
    unsafe impl Send for Error {}
    unsafe impl Sync for Error {}

    impl Error {
        /// An error raised on the Rust side (before the library is called),
        /// its message in malloc'd memory like the library's own (a NUL in
        /// `text` is written as `\0`, which would otherwise end it).
        pub(crate) fn new(code: i32, text: &str) -> Error {
            let text = text.replace('\0', "\\0");
            let message = unsafe { malloc(text.len() + 1) } as *mut c_char;
            if !message.is_null() {
                unsafe {
                    core::ptr::copy_nonoverlapping(text.as_ptr(), message as *mut u8, text.len());
                    *message.add(text.len()) = 0;
                }
            }
            Error { code, message }
        }

        /// The message, or None when the library gave none.
        fn text(&self) -> Option<String> {
            if self.message.is_null() {
                None
            } else {
                let s = unsafe { CStr::from_ptr(self.message) };
                Some(s.to_string_lossy().into_owned())
            }
        }
    }

    impl Drop for Error {
        fn drop(&mut self) {
            unsafe { free(self.message as *mut c_void) };
            self.message = core::ptr::null_mut();
        }
    }

    impl fmt::Display for Error {
        /// The library's message; "cuzk supraseal error N" when it gave none.
        fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            match self.text() {
                Some(t) => f.write_str(&t),
                None => write!(f, "cuzk supraseal error {}", self.code),
            }
        }
    }

    impl fmt::Debug for Error {
        fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            f.debug_struct("Error")
                .field("code", &self.code)
                .field("message", &self.text())
                .finish()
        }
    }

    impl std::error::Error for Error {}

    impl From<&Error> for String {
        fn from(e: &Error) -> String {
            e.to_string()
        }
    }

    impl From<Error> for String {
        fn from(e: Error) -> String {
            e.to_string()
        }
    }
}

/// CUZK_EINVAL of `include/cuzk_base.h`: an argument out of its range.
const CUZK_EINVAL: i32 = 1;

/// A handle to the parameters of one bellperson `.params` file, loaded by
/// cuzk (the points of every circuit proven with it).
///
/// Handles are reference counted by the library: a clone is a new
/// reference to the same loaded parameters, and the points are freed when
/// the last handle is dropped (unless the path is cached, see
/// [`SRS::try_new`]). `SRS::default()` is an empty handle, which proves
/// nothing and drops as a no-op.
#[repr(C)]
pub struct SRS {
    ptr: *const c_void,
}

// The library takes and releases its references under its own locks, and
// every function may be called from any thread.
unsafe impl Send for SRS {}
unsafe impl Sync for SRS {}

extern "C" {
    fn create_SRS(ret: *mut SRS, path: *const c_char, cache: bool) -> cuda::Error;
    fn evict_SRS(h: *const SRS);
    fn drop_SRS(h: *const SRS);
    fn clone_SRS(h: *const SRS) -> SRS;

    fn generate_groth16_proofs_c(
        provers: *const c_void,
        num_circuits: usize,
        r_s: *const c_void,
        s_s: *const c_void,
        proofs: *mut c_void,
        srs: *const SRS,
        gpu_mtx: *mut c_void,
        gpu_index: i32,
    ) -> cuda::Error;
    fn generate_groth16_proofs_start_c(
        provers: *const c_void,
        num_circuits: usize,
        r_s: *const c_void,
        s_s: *const c_void,
        srs: *const SRS,
        gpu_mtx: *mut c_void,
        gpu_index: i32,
        pending_out: *mut *mut c_void,
    ) -> cuda::Error;
    fn finalize_groth16_proof_c(pending: *mut c_void, proofs: *mut c_void) -> cuda::Error;
    fn destroy_pending_proof(pending: *mut c_void);

    fn create_gpu_mutex() -> *mut c_void;
    fn destroy_gpu_mutex(mtx: *mut c_void);
}

impl Default for SRS {
    fn default() -> SRS {
        SRS {
            ptr: core::ptr::null(),
        }
    }
}

impl SRS {
    /// Loads the bellperson `.params` file at `srs_path`. The file is read
    /// and checked before this returns; a path that is missing, or a file
    /// that is not a params file, gives an error whose message names the
    /// path.
    ///
    /// All handles of one path share one loaded copy. With `cache`, the
    /// library keeps that copy after the last handle is dropped, so that a
    /// later `try_new` of the same path finds it, until [`SRS::evict`].
    pub fn try_new(srs_path: PathBuf, cache: bool) -> Result<SRS, cuda::Error> {
        use std::os::unix::ffi::OsStrExt;
        let path = match CString::new(srs_path.as_os_str().as_bytes()) {
            Ok(p) => p,
            Err(_) => {
                return Err(cuda::Error::new(
                    CUZK_EINVAL,
                    &format!("{}: a path with a NUL byte", srs_path.display()),
                ))
            }
        };
        let mut ret = SRS::default();
        let err = unsafe { create_SRS(&mut ret, path.as_ptr(), cache) };
        if err.code != 0 {
            Err(err)
        } else {
            Ok(ret)
        }
    }

    /// Drops the cached copy of this handle's path (see [`SRS::try_new`]).
    /// Live handles, this one included, keep their parameters.
    pub fn evict(&self) {
        unsafe { evict_SRS(self) };
    }
}

impl Clone for SRS {
    /// A new reference to the same loaded parameters.
    fn clone(&self) -> SRS {
        unsafe { clone_SRS(self) }
    }
}

impl Drop for SRS {
    fn drop(&mut self) {
        unsafe { drop_SRS(self) };
        self.ptr = core::ptr::null();
    }
}

/// One circuit (partition) as bellperson's `ProvingAssignment` holds it
/// after synthesis: 136 bytes, the C ABI's `supraseal_assignment_t`. The
/// pointers are the caller's and must stay valid for the call that takes
/// the struct (for the split form: `a`, `b`, `c` until
/// [`start_groth16_proof`] returns, the rest until [`finish_groth16_proof`]
/// or [`drop_pending_proof`]).
#[repr(C)]
pub struct Assignment<Scalar> {
    /// Bit j: aux variable j has a point in the A query.
    pub a_aux_density: *const usize,
    /// Bits of `a_aux_density`: the number of aux variables.
    pub a_aux_bit_len: usize,
    /// Bits set in `a_aux_density`.
    pub a_aux_popcount: usize,

    /// Bit i: input i has a point in the B queries.
    pub b_inp_density: *const usize,
    /// Bits of `b_inp_density`: the number of inputs.
    pub b_inp_bit_len: usize,
    /// Bits set in `b_inp_density`.
    pub b_inp_popcount: usize,

    /// Bit j: aux variable j has a point in the B queries.
    pub b_aux_density: *const usize,
    /// Bits of `b_aux_density`: the number of aux variables.
    pub b_aux_bit_len: usize,
    /// Bits set in `b_aux_density`.
    pub b_aux_popcount: usize,

    /// (A·w), (B·w), (C·w) of every constraint row, `abc_size` each.
    pub a: *const Scalar,
    pub b: *const Scalar,
    pub c: *const Scalar,
    /// Rows: the circuit's constraints, then one `input · 0 = 0` row per
    /// input, as bellperson appends them.
    pub abc_size: usize,

    /// The input (public) values, the constant one first.
    pub inp_assignment_data: *const Scalar,
    pub inp_assignment_size: usize,

    /// The aux (private) values.
    pub aux_assignment_data: *const Scalar,
    pub aux_assignment_size: usize,
}

// The layouts the C ABI fixes (supraseal.h).
const _: () = assert!(core::mem::size_of::<Assignment<[u64; 4]>>() == 136);
const _: () = assert!(core::mem::size_of::<cuda::Error>() == 16);
const _: () = assert!(core::mem::size_of::<SRS>() == core::mem::size_of::<*const c_void>());

/// The `Assignment` of every circuit of a bellperson batch: per-circuit
/// evaluations and values, the same density bitmaps for all.
#[allow(clippy::too_many_arguments)]
fn assignments<S, D>(
    ntt_a_scalars: &[*const S],
    ntt_b_scalars: &[*const S],
    ntt_c_scalars: &[*const S],
    ntt_scalars_actual_size: usize,
    input_assignments: &[*const S],
    aux_assignments: &[*const S],
    input_assignments_size: usize,
    aux_assignments_size: usize,
    a_aux_density_bv: &[D],
    b_g1_input_density_bv: &[D],
    b_g1_aux_density_bv: &[D],
    a_aux_total_density: usize,
    b_g1_input_total_density: usize,
    b_g1_aux_total_density: usize,
    num_circuits: usize,
) -> Vec<Assignment<S>> {
    assert_eq!(ntt_a_scalars.len(), num_circuits);
    assert_eq!(ntt_b_scalars.len(), num_circuits);
    assert_eq!(ntt_c_scalars.len(), num_circuits);
    assert_eq!(input_assignments.len(), num_circuits);
    assert_eq!(aux_assignments.len(), num_circuits);

    let word_bits = core::mem::size_of::<D>() * 8;
    assert!(
        word_bits == 64,
        "only 64-bit elements in bit vectors are supported"
    );
    assert!(a_aux_density_bv.len() * word_bits >= aux_assignments_size);
    assert!(b_g1_input_density_bv.len() * word_bits >= input_assignments_size);
    assert!(b_g1_aux_density_bv.len() * word_bits >= aux_assignments_size);

    (0..num_circuits)
        .map(|i| Assignment {
            a_aux_density: a_aux_density_bv.as_ptr() as *const usize,
            a_aux_bit_len: aux_assignments_size,
            a_aux_popcount: a_aux_total_density,
            b_inp_density: b_g1_input_density_bv.as_ptr() as *const usize,
            b_inp_bit_len: input_assignments_size,
            b_inp_popcount: b_g1_input_total_density,
            b_aux_density: b_g1_aux_density_bv.as_ptr() as *const usize,
            b_aux_bit_len: aux_assignments_size,
            b_aux_popcount: b_g1_aux_total_density,
            a: ntt_a_scalars[i],
            b: ntt_b_scalars[i],
            c: ntt_c_scalars[i],
            abc_size: ntt_scalars_actual_size,
            inp_assignment_data: input_assignments[i],
            inp_assignment_size: input_assignments_size,
            aux_assignment_data: aux_assignments[i],
            aux_assignment_size: aux_assignments_size,
        })
        .collect()
}

/// The element sizes the library reads and writes: a caller's `S` or `PR`
/// of another size would be indexed with the wrong stride.
fn check_sizes<S, PR>() {
    assert_eq!(
        core::mem::size_of::<S>(),
        32,
        "a scalar is a 32-byte BLS12-381 Fr element"
    );
    assert_eq!(
        core::mem::size_of::<PR>(),
        384,
        "a proof is 384 bytes: G1, G2 and G1 affine points"
    );
}

/// Proves `num_circuits` circuits of one shape (the partitions of a
/// bellperson batch) with the parameters of `srs`, writing proof i into
/// `proofs[i]`.
///
/// Circuit i is `ntt_a_scalars[i]`, `ntt_b_scalars[i]`, `ntt_c_scalars[i]`
/// (`ntt_scalars_actual_size` rows each), `input_assignments[i]`
/// (`input_assignments_size` values, the one first) and `aux_assignments[i]`
/// (`aux_assignments_size` values); the density bitmaps and their
/// popcounts are the same for every circuit; `r_s[i]`, `s_s[i]` blind proof
/// i. `gpu_mtx` (from [`alloc_gpu_mutex`], or null) is accepted and not
/// taken: cuzk's engine schedules its devices itself. `gpu_index` is -1 (the
/// engine chooses) or a device the engine drives.
///
/// Panics with the library's message when proving fails (a circuit that
/// does not fit the parameters, an assignment that does not satisfy its
/// circuit, a device error), and on slices whose lengths disagree with
/// `num_circuits` or bitmaps too short for the counts.
// Safe functions that take raw handles, as in Curio's crate: the signatures
// are the API this crate stands in for.
#[allow(clippy::too_many_arguments, clippy::not_unsafe_ptr_arg_deref)]
pub fn generate_groth16_proof<S, D, PR>(
    ntt_a_scalars: &[*const S],
    ntt_b_scalars: &[*const S],
    ntt_c_scalars: &[*const S],
    ntt_scalars_actual_size: usize,
    input_assignments: &[*const S],
    aux_assignments: &[*const S],
    input_assignments_size: usize,
    aux_assignments_size: usize,
    a_aux_density_bv: &[D],
    b_g1_input_density_bv: &[D],
    b_g1_aux_density_bv: &[D],
    a_aux_total_density: usize,
    b_g1_input_total_density: usize,
    b_g1_aux_total_density: usize,
    num_circuits: usize,
    r_s: &[S],
    s_s: &[S],
    proofs: &mut [PR],
    srs: &SRS,
    gpu_mtx: *mut c_void,
    gpu_index: i32,
) {
    check_sizes::<S, PR>();
    assert_eq!(r_s.len(), num_circuits);
    assert_eq!(s_s.len(), num_circuits);
    assert_eq!(proofs.len(), num_circuits);
    let provers = assignments(
        ntt_a_scalars,
        ntt_b_scalars,
        ntt_c_scalars,
        ntt_scalars_actual_size,
        input_assignments,
        aux_assignments,
        input_assignments_size,
        aux_assignments_size,
        a_aux_density_bv,
        b_g1_input_density_bv,
        b_g1_aux_density_bv,
        a_aux_total_density,
        b_g1_input_total_density,
        b_g1_aux_total_density,
        num_circuits,
    );
    let err = unsafe {
        generate_groth16_proofs_c(
            provers.as_ptr() as *const c_void,
            num_circuits,
            r_s.as_ptr() as *const c_void,
            s_s.as_ptr() as *const c_void,
            proofs.as_mut_ptr() as *mut c_void,
            srs,
            gpu_mtx,
            gpu_index,
        )
    };
    if err.code != 0 {
        panic!("{}", String::from(err));
    }
}

/// Proves the circuits `provers` (one shape) with blinding `r_s[i]`,
/// `s_s[i]`, writing proof i into `proofs[i]`; the engine chooses the
/// device. Panics with the library's message when proving fails.
pub fn generate_groth16_proofs<S, PR>(
    provers: &[Assignment<S>],
    r_s: &[S],
    s_s: &[S],
    proofs: &mut [PR],
    srs: &SRS,
) {
    check_sizes::<S, PR>();
    let num_circuits = provers.len();
    assert_eq!(r_s.len(), num_circuits);
    assert_eq!(s_s.len(), num_circuits);
    assert_eq!(proofs.len(), num_circuits);
    let err = unsafe {
        generate_groth16_proofs_c(
            provers.as_ptr() as *const c_void,
            num_circuits,
            r_s.as_ptr() as *const c_void,
            s_s.as_ptr() as *const c_void,
            proofs.as_mut_ptr() as *mut c_void,
            srs,
            core::ptr::null_mut(),
            -1,
        )
    };
    if err.code != 0 {
        panic!("{}", String::from(err));
    }
}

/// The first half of [`generate_groth16_proof`]: checks the circuits
/// against the parameters, queues them as one engine job and returns a
/// pending handle. The library does not read `a`, `b` and `c` after this
/// returns, so the caller may free those buffers then (Curio returns them
/// to its pool); the input and aux values and the density bitmaps must
/// stay valid until the handle is finished or dropped.
///
/// Give the handle to exactly one of [`finish_groth16_proof`] (waits and
/// writes the proofs) or [`drop_pending_proof`] (abandons them). Panics
/// with the library's message when the circuits are refused.
#[allow(clippy::too_many_arguments, clippy::not_unsafe_ptr_arg_deref)]
pub fn start_groth16_proof<S, D>(
    ntt_a_scalars: &[*const S],
    ntt_b_scalars: &[*const S],
    ntt_c_scalars: &[*const S],
    ntt_scalars_actual_size: usize,
    input_assignments: &[*const S],
    aux_assignments: &[*const S],
    input_assignments_size: usize,
    aux_assignments_size: usize,
    a_aux_density_bv: &[D],
    b_g1_input_density_bv: &[D],
    b_g1_aux_density_bv: &[D],
    a_aux_total_density: usize,
    b_g1_input_total_density: usize,
    b_g1_aux_total_density: usize,
    num_circuits: usize,
    r_s: &[S],
    s_s: &[S],
    srs: &SRS,
    gpu_mtx: *mut c_void,
    gpu_index: i32,
) -> *mut c_void {
    assert_eq!(
        core::mem::size_of::<S>(),
        32,
        "a scalar is a 32-byte BLS12-381 Fr element"
    );
    assert_eq!(r_s.len(), num_circuits);
    assert_eq!(s_s.len(), num_circuits);
    let provers = assignments(
        ntt_a_scalars,
        ntt_b_scalars,
        ntt_c_scalars,
        ntt_scalars_actual_size,
        input_assignments,
        aux_assignments,
        input_assignments_size,
        aux_assignments_size,
        a_aux_density_bv,
        b_g1_input_density_bv,
        b_g1_aux_density_bv,
        a_aux_total_density,
        b_g1_input_total_density,
        b_g1_aux_total_density,
        num_circuits,
    );
    let mut pending: *mut c_void = core::ptr::null_mut();
    let err = unsafe {
        generate_groth16_proofs_start_c(
            provers.as_ptr() as *const c_void,
            num_circuits,
            r_s.as_ptr() as *const c_void,
            s_s.as_ptr() as *const c_void,
            srs,
            gpu_mtx,
            gpu_index,
            &mut pending,
        )
    };
    if err.code != 0 {
        panic!("{}", String::from(err));
    }
    pending
}

/// Waits for the proofs of a handle from [`start_groth16_proof`] and
/// writes them into `proofs`, which must have room for as many proofs as
/// the handle has circuits. The handle is freed, on failure too: do not use
/// it again. Panics with the library's message when proving failed.
#[allow(clippy::not_unsafe_ptr_arg_deref)]
pub fn finish_groth16_proof<PR>(handle: *mut c_void, proofs: &mut [PR]) {
    assert_eq!(
        core::mem::size_of::<PR>(),
        384,
        "a proof is 384 bytes: G1, G2 and G1 affine points"
    );
    let err = unsafe { finalize_groth16_proof_c(handle, proofs.as_mut_ptr() as *mut c_void) };
    if err.code != 0 {
        panic!("{}", String::from(err));
    }
}

/// Abandons a handle from [`start_groth16_proof`]: its circuits are
/// cancelled and the handle freed. A null handle is ignored.
///
/// # Safety
/// `handle` is null or a handle from [`start_groth16_proof`] that was
/// neither finished nor dropped.
pub unsafe fn drop_pending_proof(handle: *mut c_void) {
    unsafe { destroy_pending_proof(handle) };
}

/// A mutex for callers that share one between their workers of a GPU, to
/// pass as `gpu_mtx`. cuzk accepts it and does not take it (its engine
/// orders the work of each device), so sharing one costs nothing. Free it
/// with [`free_gpu_mutex`].
pub fn alloc_gpu_mutex() -> *mut c_void {
    unsafe { create_gpu_mutex() }
}

/// Frees a mutex from [`alloc_gpu_mutex`].
///
/// # Safety
/// `ptr` came from [`alloc_gpu_mutex`], was not freed before, and no call
/// that was given it is still running.
pub unsafe fn free_gpu_mutex(ptr: *mut c_void) {
    unsafe { destroy_gpu_mutex(ptr) };
}
