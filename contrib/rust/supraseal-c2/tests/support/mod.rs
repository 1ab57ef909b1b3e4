//! What the tests of tests/c2.rs share: field arithmetic and proof
//! compression (bls), the assignment reader (asgn).

pub mod asgn;
pub mod bls;
