#!/usr/bin/env bash
# `cmake --install` into scratch directories, checked file by file:
#   - the default prefix (/usr/local, under DESTDIR) gives exactly the paths
#     that contrib/cuzkd.service and README.md's "Install" name, and nothing
#     else: the programs, libcuzk.so (with its SONAME link) and libcuzk.a, the
#     two builds of supraseal-c2's ABI (libcuzk_supraseal.so, _curio.so), the
#     public headers include/cuzk*.h, the CMake package, the unit where
#     systemd looks (/usr/local/lib/systemd/system), /etc/cuzk/cuzkd.conf, the
#     documents (README.md beside docs/, every link between them resolving)
#     and the pkg-config file;
#   - the installed unit's ExecStartPre, ExecStart and Documentation name the
#     installed binary, configuration and DAEMON.md, for that prefix and for
#     --prefix /opt/cuzk, where the configuration stays inside the prefix;
#   - systemd-analyze, where it is installed, accepts the unit;
#   - a configuration the operator edited survives a second install, the
#     shipped one landing next to it as cuzkd.conf.new;
#   - a program including the installed cuzk.h links against the installed
#     libcuzk.a by hand and against libcuzk.so through the installed cuzk.pc,
#     and prints cuzk_version(), which is also what the installed cuzk prints.
#   tests/install/test_install.sh CMAKE_COMMAND BUILD_DIR SOURCE_DIR LIBDIR
# LIBDIR is GNUInstallDirs' CMAKE_INSTALL_LIBDIR of the build; CUZK_LINK_FLAGS
# (the sanitizer build sets it) is added to the hand-written link line. One
# line per check; exit 1 on any failure.
set -uo pipefail
cmake=$1
build=$2
src=$3
libdir=$4

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

# install DESTDIR [ARGS...]: cmake --install of the build tree into DESTDIR.
install_into() {
    local dest=$1
    shift
    DESTDIR=$dest "$cmake" --install "$build" "$@" >"$work/install.log" 2>&1
}

# unit_paths UNIT: the absolute paths the unit's ExecStartPre, ExecStart and
# Documentation= lines name, one a line.
unit_paths() {
    sed -n -e 's#^Documentation=file://##p' -e 's/^ExecStart\(Pre\)\?=//p' "$1" | tr ' ' '\n' |
        grep '^/'
}

have_cuzkd=0
[ -x "$build/cuzkd" ] && have_cuzkd=1
version=$(sed -n 's/^CMAKE_PROJECT_VERSION:[A-Z]*=//p' "$build/CMakeCache.txt")

# ---- the default prefix ---------------------------------------------------------
d="$work/default"
install_into "$d" --prefix /usr/local
check "cmake --install --prefix /usr/local" $? "$(cat "$work/install.log")"
expected="$work/expected"
{
    echo /usr/local/bin/cuzk
    [ $have_cuzkd -eq 1 ] && echo /usr/local/bin/cuzkd
    echo "/usr/local/$libdir/libcuzk.a"
    echo "/usr/local/$libdir/libcuzk.so"
    echo "/usr/local/$libdir/libcuzk.so.${version%%.*}"
    echo "/usr/local/$libdir/libcuzk.so.$version"
    echo "/usr/local/$libdir/libcuzk_supraseal.so"
    echo "/usr/local/$libdir/libcuzk_supraseal_curio.so"
    echo "/usr/local/$libdir/pkgconfig/cuzk.pc"
    echo "/usr/local/$libdir/cmake/cuzk/cuzkConfig.cmake"
    echo "/usr/local/$libdir/cmake/cuzk/cuzkConfigVersion.cmake"
    for f in "$src"/include/*.h; do
        echo "/usr/local/include/$(basename "$f")"
    done
    echo /usr/local/lib/systemd/system/cuzkd.service
    echo /etc/cuzk/cuzkd.conf
    for f in README.md LICENSE-MIT LICENSE-APACHE; do
        echo "/usr/local/share/doc/cuzk/$f"
    done
    for f in "$src"/docs/*.md; do
        echo "/usr/local/share/doc/cuzk/docs/$(basename "$f")"
    done
} | sort >"$expected"
(cd "$d" && find . -type f -o -type l | sed 's#^\.##' | sort) >"$work/got"
diff -u "$expected" "$work/got" >"$work/diff"
check "the default install holds exactly the expected files" $? "$(cat "$work/diff")"

unit="$d/usr/local/lib/systemd/system/cuzkd.service"
grep -qx 'ExecStart=/usr/local/bin/cuzkd --config /etc/cuzk/cuzkd.conf' "$unit"
check "the installed unit starts /usr/local/bin/cuzkd with /etc/cuzk/cuzkd.conf" $? \
    "$(grep ^Exec "$unit")"
grep -qx 'Documentation=file:///usr/local/share/doc/cuzk/docs/DAEMON.md' "$unit"
check "the installed unit's documentation is the installed DAEMON.md" $?
missing=""
for p in $(unit_paths "$unit"); do
    [ -f "$d$p" ] || missing="$missing $p"
done
[ -z "$missing" ] && [ -n "$(unit_paths "$unit")" ]
check "every path the unit names is installed" $? "missing:$missing"
cmp -s "$unit" "$src/contrib/cuzkd.service"
check "for the default prefix the installed unit is contrib/cuzkd.service" $?
cmp -s "$d/etc/cuzk/cuzkd.conf" "$src/contrib/cuzkd.conf"
check "for the default prefix the installed configuration is contrib/cuzkd.conf" $?
# The README's Install section names the paths of a default install.
for p in /usr/local/bin/cuzkd /etc/cuzk/cuzkd.conf /usr/local/lib/systemd/system/cuzkd.service \
    /usr/local/include/cuzk.h "/usr/local/$libdir/libcuzk.a" "/usr/local/$libdir/libcuzk.so" \
    "/usr/local/$libdir/cmake/cuzk/" /usr/local/share/doc/cuzk/; do
    grep -qF "$p" "$src/README.md" && [ -e "$d$p" ]
    check "README.md names $p and the install has it" $?
done

# The installed documents keep working links (README.md beside docs/).
out=$(python3 "$src/scripts/check_md_links.py" --links-only "$d/usr/local/share/doc/cuzk" 2>&1)
check "the installed README.md and docs/*.md: every link and anchor resolves" $? "$out"

# ---- an edited configuration survives ---------------------------------------------
conf="$d/etc/cuzk/cuzkd.conf"
printf 'listen = 0.0.0.0:9999\n' >>"$conf"
# Edited before the shipped file last changed (an upgrade): an install that
# went by timestamps alone would replace it.
touch -d '2000-01-01 00:00' "$conf"
cp "$conf" "$work/edited.conf"
install_into "$d" --prefix /usr/local
check "a second install" $? "$(cat "$work/install.log")"
cmp -s "$conf" "$work/edited.conf"
check "the edited cuzkd.conf is kept" $?
cmp -s "$d/etc/cuzk/cuzkd.conf.new" "$src/contrib/cuzkd.conf"
check "the shipped configuration lands as cuzkd.conf.new" $?
grep -q "Keeping the edited $conf" "$work/install.log"
check "the install says it kept the edited file" $? "$(cat "$work/install.log")"

# ---- another prefix ---------------------------------------------------------------
o="$work/opt"
install_into "$o" --prefix /opt/cuzk
check "cmake --install --prefix /opt/cuzk" $? "$(cat "$work/install.log")"
unit="$o/opt/cuzk/lib/systemd/system/cuzkd.service"
grep -qx 'ExecStartPre=/opt/cuzk/bin/cuzkd --config /opt/cuzk/etc/cuzk/cuzkd.conf --check-config' \
    "$unit" &&
    grep -qx 'ExecStart=/opt/cuzk/bin/cuzkd --config /opt/cuzk/etc/cuzk/cuzkd.conf' "$unit" &&
    grep -qx 'Documentation=file:///opt/cuzk/share/doc/cuzk/docs/DAEMON.md' "$unit"
check "the /opt/cuzk unit names /opt/cuzk's binary, configuration and documents" $? \
    "$(grep -e ^Exec -e ^Doc "$unit")"
missing=""
for p in $(unit_paths "$unit"); do
    [ -f "$o$p" ] || missing="$missing $p"
done
[ -z "$missing" ]
check "every path the /opt/cuzk unit names is installed" $? "missing:$missing"
outside=$(cd "$o" && find . -type f | grep -v '^\./opt/cuzk/')
[ -z "$outside" ]
check "an /opt/cuzk install writes nothing outside /opt/cuzk" $? "$outside"
grep -q '^token_file = /opt/cuzk/etc/cuzk/token$' "$o/opt/cuzk/etc/cuzk/cuzkd.conf"
check "the /opt/cuzk configuration names its token file under the prefix" $?

# ---- a plain --prefix (no DESTDIR): the programs run from there ------------------
p="$work/prefix"
"$cmake" --install "$build" --prefix "$p" >"$work/install.log" 2>&1
check "cmake --install --prefix $p" $? "$(cat "$work/install.log")"
out=$("$p/bin/cuzk" --version 2>&1)
printf '%s' "$out" | grep -q "^cuzk $version "
check "the installed cuzk runs and is version $version" $? "$out"
if [ $have_cuzkd -eq 1 ]; then
    unit="$p/lib/systemd/system/cuzkd.service"
    mkdir -p "$work/keys" "$work/journal"
    printf 'tok\n' >"$p/etc/cuzk/token"
    # The unit's ExecStartPre as systemd would run it, with the state paths
    # (outside the prefix) moved under the test's directory.
    pre=$(sed -n 's/^ExecStartPre=//p' "$unit")
    # shellcheck disable=SC2086 # the unit's command line, split as systemd splits it
    out=$($pre --allow "$work/keys" --journal "$work/journal" 2>&1)
    check "the installed unit's ExecStartPre passes with the installed configuration" $? "$out"
    if command -v systemd-analyze >/dev/null; then
        out=$(systemd-analyze verify "$unit" 2>&1)
        check "systemd-analyze verify accepts the installed unit" $? "$out"
    else
        echo "SKIP: systemd-analyze verify (systemd-analyze is not installed)"
    fi
fi

cat >"$work/t.c" <<'C'
#include <cuzk.h>
#include <stdio.h>

int main(void)
{
    printf("%s %s\n", cuzk_version(), cuzk_strerror(CUZK_EBADFILE));
    return 0;
}
C
# shellcheck disable=SC2086 # the flags, split as a command line
cc -Wall -Werror "$work/t.c" -I"$p/include" "$p/$libdir/libcuzk.a" -ljansson -lm -pthread \
    ${CUZK_LINK_FLAGS:-} -o "$work/t" >"$work/cc.log" 2>&1
check "a program with the installed cuzk.h links against the installed libcuzk.a" $? \
    "$(cat "$work/cc.log")"
out=$("$work/t" 2>&1)
[ "$out" = "$version truncated, corrupt or unexpected file" ]
check "it prints cuzk_version() $version" $? "$out"
flags=$(PKG_CONFIG_PATH="$p/$libdir/pkgconfig" pkg-config --cflags --libs cuzk 2>&1)
check "pkg-config finds the installed cuzk.pc" $? "$flags"
# shellcheck disable=SC2086 # pkg-config's flags, split by the shell as make would
cc -Wall -Werror "$work/t.c" $flags -o "$work/t2" >"$work/cc.log" 2>&1 &&
    LD_LIBRARY_PATH="$p/$libdir" "$work/t2" >/dev/null
check "the same program builds and runs with pkg-config's flags (libcuzk.so)" $? \
    "$flags $(cat "$work/cc.log")"
readelf -d "$work/t2" | grep -q "NEEDED.*libcuzk.so.${version%%.*}"
check "it needs libcuzk.so.${version%%.*}, the SONAME" $? "$(readelf -d "$work/t2" | grep NEEDED)"
printf '%s' "$flags" | grep -q -- "-I$p/include" && printf '%s' "$flags" | grep -q -- "-L$p/$libdir"
check "cuzk.pc names this install's directories" $? "$flags"

[ $failures -eq 0 ] && echo "all checks passed" || echo "$failures check(s) failed"
[ $failures -eq 0 ]
