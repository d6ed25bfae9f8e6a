#!/bin/sh
# run-tests.sh: builds cl1cc twice (release, and ASan+UBSan) and runs the
# whole test suite in both with ctest.  Tests that need a GPU carry the
# label "gpu" and report themselves skipped, with the reason, without one.
set -eu
cd "$(dirname "$0")/.."
export PATH="$PATH:/usr/local/cuda/bin"
mkdir -p build
jobs=$(nproc 2>/dev/null || echo 2)
for config in release asan; do
    dir=build/$config
    extra=""
    [ "$config" = asan ] && extra="-DCL1CC_SANITIZE=ON -DCMAKE_BUILD_TYPE=Debug"
    echo "== $config build in $dir"
    # shellcheck disable=SC2086
    cmake -S . -B "$dir" -G Ninja $extra >"$dir.configure.log" 2>&1 || { cat "$dir.configure.log"; exit 1; }
    cmake --build "$dir" -j "$jobs"
    echo "== $config tests"
    # LeakSanitizer cannot trace under ptrace-less CI sandboxes reliably: keep
    # it on, and let libclang's own caches (freed at exit) be suppressed.
    # use_sigaltstack=0: libclang's parser threads set alternate signal
    # stacks of their own (LLVM's crash recovery), and ASan, unmapping its
    # own at such a thread's exit, failed its CHECK ("unable to unmap") on
    # some kernels: the frontend child exited 1 whenever it built a PCH
    ASAN_OPTIONS=detect_leaks=1:use_sigaltstack=0 LSAN_OPTIONS="suppressions=$(pwd)/testsuite/lsan.supp" \
        ctest --test-dir "$dir" --output-on-failure -j "$jobs"
    # what each skipped GPU test said about why
    awk '/^[0-9]+\/[0-9]+ Test: / { name = $3 } /^SKIPPED: / { print "skipped " name ": " substr($0, 10) }' \
        "$dir/Testing/Temporary/LastTest.log"
done
