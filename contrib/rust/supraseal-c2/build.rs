// Finds cuzk's libcuzk_supraseal_curio.so and links it.
//
// Where the library is, in this order:
//   1. the directory in the environment variable CUZK_LIB_DIR (a build
//      folder of cuzk, or the lib folder of an installation);
//   2. `pkg-config --variable=libdir cuzk`, for an installed cuzk (the
//      cuzk.pc of `cmake --install`).
// The directory is also written into the rpath of this package's own test
// and example binaries. Cargo does not pass link arguments on to dependent
// crates, so a program that uses this crate finds the library at run time
// through the system's search path (an installed cuzk) or its own rpath or
// LD_LIBRARY_PATH.

use std::env;
use std::path::PathBuf;
use std::process::Command;

const LIB_NAME: &str = "cuzk_supraseal_curio";

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    println!("cargo:rerun-if-env-changed=CUZK_LIB_DIR");
    println!("cargo:rerun-if-env-changed=PKG_CONFIG_PATH");

    let dir = match env::var_os("CUZK_LIB_DIR") {
        Some(d) if !d.is_empty() => PathBuf::from(d),
        _ => match pkg_config_libdir() {
            Ok(d) => d,
            Err(why) => fail(&format!(
                "CUZK_LIB_DIR is not set and pkg-config does not know cuzk ({why})"
            )),
        },
    };
    if dir.is_relative() {
        fail(&format!(
            "CUZK_LIB_DIR={} is a relative path (give it absolute)",
            dir.display()
        ));
    }
    let file = dir.join(format!("lib{LIB_NAME}.so"));
    if !file.is_file() {
        fail(&format!("{} is not there", file.display()));
    }

    println!("cargo:rustc-link-search=native={}", dir.display());
    println!("cargo:rustc-link-arg=-Wl,-rpath,{}", dir.display());
    println!("cargo:rustc-link-lib=dylib={LIB_NAME}");
}

/// The libdir variable of cuzk.pc, or why there is none.
fn pkg_config_libdir() -> Result<PathBuf, String> {
    let out = Command::new("pkg-config")
        .args(["--print-errors", "--variable=libdir", "cuzk"])
        .output()
        .map_err(|e| format!("running pkg-config: {e}"))?;
    if !out.status.success() {
        let err = String::from_utf8_lossy(&out.stderr);
        let err = err.split_whitespace().collect::<Vec<_>>().join(" ");
        return Err(format!("`pkg-config --variable=libdir cuzk`: {err}"));
    }
    let dir = String::from_utf8_lossy(&out.stdout).trim().to_string();
    if dir.is_empty() {
        return Err("cuzk.pc has no libdir".to_string());
    }
    Ok(PathBuf::from(dir))
}

/// Stops the build with what went wrong and the two ways to fix it.
fn fail(what: &str) -> ! {
    eprintln!(
        "supraseal-c2 links cuzk's lib{LIB_NAME}.so, and {what}.\n\
         Either set CUZK_LIB_DIR to the directory that holds lib{LIB_NAME}.so\n\
         (a cuzk build folder after `cmake --build BUILD --target {LIB_NAME}`),\n\
         or install cuzk (`cmake --install BUILD`) so that\n\
         `pkg-config --variable=libdir cuzk` names that directory\n\
         (PKG_CONFIG_PATH=<prefix>/lib/pkgconfig for a prefix outside the default search)."
    );
    std::process::exit(1)
}
