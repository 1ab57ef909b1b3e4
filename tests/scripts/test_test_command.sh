#!/usr/bin/env bash
# scripts/test.sh, the README's test command, in a copy of the repository's
# scripts with cmake, ctest and scripts/deps.sh replaced by recorders of
# their arguments:
#   - it configures the tests on explicitly (-DCUZK_TESTS=ON), so that a
#     build/ that scripts/run.sh configured without them (-DCUZK_TESTS=OFF,
#     cached) is switched back on; --sanitize does the same in build-asan/;
#   - it runs ctest with --no-tests=error, and the real ctest given those
#     arguments fails on a build directory that holds no tests;
#   - its exit status is ctest's.
#   tests/scripts/test_test_command.sh REPO_ROOT
# One line per check; exit 1 on any failure.
set -uo pipefail
root=$1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failures=0
check() { # check NAME STATUS(0 = pass) [DETAIL]
    if [ "$2" -eq 0 ]; then
        echo "PASS test command: $1"
    else
        echo "FAIL test command: $1${3:+ ($3)}"
        failures=$((failures + 1))
    fi
}
real_ctest=$(command -v ctest)

mkdir -p "$work/repo/scripts" "$work/bin"
cp "$root/scripts/test.sh" "$work/repo/scripts/"
printf '#!/bin/sh\nexit 0\n' >"$work/repo/scripts/deps.sh"
for tool in cmake ctest; do
    cat >"$work/bin/$tool" <<REC
#!/bin/sh
printf '%s\n' "\$*" >>"$work/$tool.calls"
[ "$tool" = ctest ] && exit "\${CTEST_EXIT:-0}"
exit 0
REC
done
chmod +x "$work/repo/scripts/deps.sh" "$work/bin/cmake" "$work/bin/ctest"

# run ARGS...: scripts/test.sh ARGS with the recorders first on PATH.
run() {
    rm -f "$work/cmake.calls" "$work/ctest.calls"
    PATH="$work/bin:$PATH" bash "$work/repo/scripts/test.sh" "$@" >"$work/out" 2>&1
}

run
rc=$?
configure=$(grep -m1 -E -- '(^| )-S ' "$work/cmake.calls")
[ $rc -eq 0 ] && [[ " $configure " == *" -DCUZK_TESTS=ON "* ]] &&
    [[ " $configure " == *" -B build "* ]]
check "configures build/ with -DCUZK_TESTS=ON" $? "exit $rc: $configure"
grep -q -- '--build build' "$work/cmake.calls"
check "builds build/" $? "$(cat "$work/cmake.calls")"
ctest_args=$(cat "$work/ctest.calls")
[[ " $ctest_args " == *" --no-tests=error "* ]] && [[ " $ctest_args " == *" --test-dir build "* ]]
check "runs ctest on build/ with --no-tests=error" $? "$ctest_args"

# The real ctest, given the same arguments, fails where no tests were built.
mkdir -p "$work/empty/build"
: >"$work/empty/build/CTestTestfile.cmake"
# shellcheck disable=SC2086 # the recorded arguments, split as ctest got them
(cd "$work/empty" && "$real_ctest" $ctest_args >"$work/real.out" 2>&1)
rc=$?
[ $rc -ne 0 ] && grep -q "No tests were found" "$work/real.out"
check "with those arguments the real ctest fails when there are no tests" $? \
    "exit $rc: $(tail -n 2 "$work/real.out")"

CTEST_EXIT=8 run
rc=$?
[ $rc -eq 8 ]
check "a failing ctest fails the command (exit 8)" $? "exit $rc"

run --sanitize
rc=$?
configure=$(grep -m1 -E -- '(^| )-S ' "$work/cmake.calls")
[ $rc -eq 0 ] && [[ " $configure " == *" -DCUZK_TESTS=ON "* ]] &&
    [[ " $configure " == *" -DCUZK_SANITIZE=ON "* ]] && [[ " $configure " == *" -B build-asan "* ]] &&
    grep -q -- '--no-tests=error' "$work/ctest.calls"
check "--sanitize: build-asan/ with -DCUZK_TESTS=ON -DCUZK_SANITIZE=ON, --no-tests=error" $? \
    "exit $rc: $configure"

[ $failures -eq 0 ] && echo "all checks passed" || echo "$failures check(s) failed"
[ $failures -eq 0 ]
