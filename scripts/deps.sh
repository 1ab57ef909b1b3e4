#!/usr/bin/env bash
# Installs the Debian packages that building and testing cuzk need, when any
# is missing. Runs apt-get only when something is missing; needs root for that
# (or prints the command to run).
#   scripts/deps.sh           everything: build, tests, static checks
#   scripts/deps.sh --build   only what building cuzk needs
set -euo pipefail

# build: compiler, CMake, pkg-config, jansson (JSON); cuzkd: libmicrohttpd
# (HTTP), libinih (configuration files), libpq (the fleet's PostgreSQL; it
# brings libssl-dev, whose libcrypto digests the fleet's keys)
packages=(build-essential cmake pkg-config libjansson-dev libmicrohttpd-dev libinih-dev libpq-dev)
if [ "${1:-}" != "--build" ]; then
    # tests: cmocka, GMP, curl (the cuzkd tests), python3 (the subgroup
    # tests' proof, the cuzkd tests' JSON checks), bsdutils (script(1): the
    # progress line's pseudo-terminal), chromium (cuzkd's status page,
    # headless), binutils (nm, readelf: libcuzk.so's exports and SONAME),
    # postgresql (the fleet's tests start a throwaway cluster);
    # static checks: cppcheck, clang-tidy; fuzzers
    # (tests/fuzz/run.sh): clang and its libFuzzer and sanitizer runtimes
    packages+=(libgmp-dev libcmocka-dev curl python3 binutils bsdutils chromium postgresql cppcheck clang-tidy clang libclang-rt-14-dev)
    # the Rust crate of contrib/rust/supraseal-c2 (its tests): Debian's cargo,
    # unless a cargo is there already (rustup's, in ~/.cargo/bin)
    if ! command -v cargo >/dev/null 2>&1 && [ ! -x "$HOME/.cargo/bin/cargo" ]; then
        packages+=(cargo)
    fi
fi

missing=()
for p in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0

if [ "$(id -u)" -ne 0 ]; then
    echo "missing packages: ${missing[*]}" >&2
    echo "install them with: sudo apt-get install -y ${missing[*]}" >&2
    exit 1
fi
export DEBIAN_FRONTEND=noninteractive
apt-get update
apt-get install -y --no-install-recommends "${missing[@]}"
