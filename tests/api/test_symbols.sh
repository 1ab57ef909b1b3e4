#!/usr/bin/env bash
# libcuzk.so exports the public API and nothing else:
#   - include/cuzk.sym lists exactly the functions the public headers
#     declare CUZK_API (a header change without the list, or the reverse,
#     fails);
#   - `nm -D --defined-only` of the library shows exactly that list (an
#     internal symbol that leaks, or a public one that is missing, fails);
#   - the SONAME is libcuzk.so.MAJOR;
#   - the prefix marks the boundary: no function or variable of the static
#     library (libcuzk.a, which holds the internal code too) is named cuzk_*
#     unless it is in the list.
#   tests/api/test_symbols.sh LIBCUZK_SO SOURCE_DIR MAJOR LIBCUZK_A
set -uo pipefail
lib=$1
src=$2
major=$3
archive=$4
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failures=0
check() { # check NAME STATUS(0 = pass) [DETAIL]
    if [ "$2" -eq 0 ]; then
        echo "PASS $1"
    else
        echo "FAIL $1${3:+ ($3)}"
        failures=$((failures + 1))
    fi
}

grep -h 'CUZK_API' "$src"/include/*.h | grep -v '#define' |
    sed -E 's/.*[ *](cuzk_[a-z0-9_]+)\(.*/\1/' | sort >"$work/headers"
sort "$src/include/cuzk.sym" >"$work/list"
diff -u "$work/list" "$work/headers" >"$work/diff1"
check "include/cuzk.sym lists exactly the CUZK_API functions of include/*.h" $? \
    "$(cat "$work/diff1")"

# Symbols the linker itself defines in every shared object are not ours.
nm -D --defined-only "$lib" | awk '{print $NF}' |
    grep -vxE '_init|_fini|_edata|_end|__bss_start' | sort >"$work/exported"
[ -s "$work/exported" ]
check "nm -D lists the exports of $lib" $?
diff -u "$work/list" "$work/exported" >"$work/diff2"
check "libcuzk.so exports exactly include/cuzk.sym" $? "$(head -n 40 "$work/diff2")"

soname=$(readelf -d "$lib" | sed -n 's/.*SONAME.*\[\(.*\)\]/\1/p')
[ "$soname" = "libcuzk.so.$major" ]
check "the SONAME is libcuzk.so.$major" $? "$soname"

nm --defined-only "$archive" 2>/dev/null | awk 'NF == 3 {sub(/\..*/, "", $3); print $3}' | sort -u >"$work/defined"
[ -s "$work/defined" ]
check "nm lists the symbols of $archive" $?
grep '^cuzk_' "$work/defined" | comm -23 - "$work/list" >"$work/internal"
[ ! -s "$work/internal" ]
check "no internal symbol carries the cuzk_ prefix" $? "$(head -n 20 "$work/internal" | tr '\n' ' ')"

[ $failures -eq 0 ] && echo "all checks passed" || echo "$failures check(s) failed"
[ $failures -eq 0 ]
