#!/bin/sh
# gpu_long_kernel.sh CL1CC: long kernels on a GPU.  Captures
# long_kernel/long_kernel.cu (spin: its last launch about 250 ms, the program
# sets its length by timing a shorter one; scramble: microseconds) and checks
#  1. the launch_ms each capture's meta records: >= 100 for spin's long
#     launch, < 50 for scramble's;
#  2. the judge's timing of long kernels, in the `timings` files it leaves
#     under --work DIR/timebatch0-0/kI (I: 0 the original, then the variants
#     in order): the original and a variant of the same speed get one round
#     (one warm-up, not written, then timed launches until at least 3 add up
#     to 1 s; no second round), and a correct variant doing the work three
#     times over passes with exactly 2 timed samples (it gave up: both over
#     1.5x the original's longest).
# GPU test: without a GPU it says so and exits 77 (ctest: skipped).
set -u
cl1cc=$(readlink -f "$1")
here=$(cd "$(dirname "$0")" && pwd)
if ! command -v nvidia-smi >/dev/null 2>&1 || ! nvidia-smi -L >/dev/null 2>&1; then
    echo "SKIPPED: no GPU on this machine (nvidia-smi -L lists none): the long-kernel judge test was not run"
    exit 77
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export CL1CC_DB="$work/tuning.db" CL1CC_CACHE_DIR="$work/cache"
lk=$here/long_kernel
cp "$lk/long_kernel.cu" "$work/"
cd "$work" || exit 1
fail=0
flags="-O3 -arch=sm_90"

# spin is k0, scramble k1; the program launches scramble twice, then spin
# three times (warm-up, calibration, the long launch: k0/2)
t0=$(date +%s)
if ! "$cl1cc" capture --out "$work/cap" --limit 3 --build "nvcc $flags -o lk long_kernel.cu" --run ./lk \
    long_kernel.cu >capture.log 2>&1; then
    echo "FAIL: capture"; cat capture.log; exit 1
fi
t1=$(date +%s)
grep '^long_kernel:' capture.log
tag=$(ls -d "$work"/cap/long_kernel.cu-*)
for c in k0/2 k1/1; do
    [ -f "$tag/$c/meta" ] || { echo "FAIL: no capture $c"; ls -R "$tag"; cat capture.log; exit 1; }
done
echo "ok: captured in $((t1 - t0)) s"

# 1. launch_ms in meta (harness/runtime/cl1cc_capture.cuh: the wall time
#    from just before the launch to the synchronize after it)
launch_ms() { awk '$1 == "launch_ms" { print $2 }' "$tag/$1/meta" 2>/dev/null; }
long=$(launch_ms k0/2)
short=$(launch_ms k1/1)
echo "launch_ms: spin $(launch_ms k0/0) (warm-up), $(launch_ms k0/1) (calibration), ${long:-none} (long);" \
    "scramble $(launch_ms k1/0), ${short:-none}"
if awk -v v="$long" 'BEGIN { exit !(v != "" && v + 0 >= 100) }'; then
    echo "ok: the long launch's launch_ms is $long (>= 100)"
else
    echo "FAIL: the long launch's launch_ms is '${long:-nothing}', expected >= 100"; fail=1
fi
if awk -v v="$short" 'BEGIN { exit !(v != "" && v + 0 < 50) }'; then
    echo "ok: the short launch's launch_ms is $short (< 50)"
else
    echo "FAIL: the short launch's launch_ms is '${short:-nothing}', expected < 50"; fail=1
fi

. "$here/expect.sh"

# 2. the judge on the long launch.  --rounds 3 --runs 20 are the defaults,
# written out: with one round allowed, "one round" would prove nothing.
# --seeds 0: perturbing keeps integers, so more input sets would only repeat
# the captured one
t0=$(date +%s)
"$cl1cc" judge long_kernel.cu spin --captures "$tag/k0/2" --seeds 0 --rounds 3 --runs 20 --timeout 30 \
    --work "$work/judge" --json judge.json \
    --variant "$lk/spin.same_speed.cu" --variant "$lk/spin.three_times.cu" -- $flags >judge.txt 2>judge.err
rc=$?
t1=$(date +%s)
cat judge.txt
echo "judge wall time: $((t1 - t0)) s"
[ $rc -eq 0 ] || { echo "FAIL: judge exited $rc"; cat judge.err; fail=1; }
expect judge.txt "$lk/spin.same_speed.cu" pass
expect judge.txt "$lk/spin.three_times.cu" pass

# harness/judge.c time_batch: one process times all, each kernel's timed
# launches (one per line, ms) in timebatch0-0/kI/timings, `done` at the end
tb=$work/judge/timebatch0-0
for k in k0 k1 k2; do
    if [ ! -f "$tb/$k/timings" ] || [ ! -f "$tb/$k/done" ]; then
        echo "FAIL: no $tb/$k/timings or done: a variant that failed is not timed; else the batched"
        echo "  timing did not finish (the judge then times a process per round and kernel: time*/)"
        ls -R "$work/judge" | head -n 40; cat judge.err
        exit 1
    fi
done
runs() { awk 'END { print NR }' "$1"; }
describe() { awk '{ n++; s += $1; if (n == 1 || $1 > hi) hi = $1; if (n == 1 || $1 < lo) lo = $1 }
    END { printf "%d timed runs, %.1f ms in all, %.1f to %.1f ms", n, s, lo, hi }' "$1"; }
# one round of a long kernel: at least 3 timed runs, each over 100 ms, and
# the last the first to bring their sum to 1 s (a second round would have
# appended 3 or more after a first that had reached it)
one_round() {
    awk '{ n++; before = sum; sum += $1; if ($1 <= 100) short++ }
        END { exit !(n >= 3 && short == 0 && sum >= 1000 && (n == 3 || before < 1000)) }' "$1"
}
for k in k0 k1; do
    name=$([ $k = k0 ] && echo "the original" || echo "spin.same_speed")
    if one_round "$tb/$k/timings"; then
        echo "ok: $name: one round: $(describe "$tb/$k/timings")"
    else
        echo "FAIL: $name: expected one round of timed runs over 100 ms that stop once they add up to 1 s;" \
            "got $(describe "$tb/$k/timings"): $(tr '\n' ' ' <"$tb/$k/timings")"; fail=1
    fi
done
longest=$(awk 'n++ == 0 || $1 > m { m = $1 } END { print m }' "$tb/k0/timings")
if [ "$(runs "$tb/k2/timings")" = 2 ] &&
    awk -v lim="$longest" '$1 <= 1.5 * lim { fast = 1 } END { exit fast || !(lim > 0) }' "$tb/k2/timings"; then
    echo "ok: spin.three_times gave up after 2 timed runs: $(describe "$tb/k2/timings")" \
        "(the original's longest: $longest ms)"
else
    echo "FAIL: spin.three_times: expected exactly 2 timed runs, both over 1.5 x $longest ms;" \
        "got $(describe "$tb/k2/timings"): $(tr '\n' ' ' <"$tb/k2/timings")"; fail=1
fi

# the judge's own counts (--json) are those of the files above
if command -v python3 >/dev/null 2>&1; then
    json=$(python3 -c 'import json, sys
j = json.load(open(sys.argv[1]))
print(int(j["original"]["runs"]), *[int(v["timing"]["runs"]) for v in j["variants"]])' judge.json 2>&1)
    files="$(runs "$tb/k0/timings") $(runs "$tb/k1/timings") $(runs "$tb/k2/timings")"
    if [ "$json" = "$files" ]; then
        echo "ok: the judge's JSON counts the same runs: $json"
    else
        echo "FAIL: the judge's JSON counts runs '$json', the timings files $files"; fail=1
    fi
fi
exit $fail
