#!/bin/sh
# lanes.sh SRC: testsuite/bench/lanes.sh, the bench scripts' lanes: the
# programs dealt round-robin to N lanes run at once; with BENCH_GPUS=G each
# lane gets GPU (K-1) % G alone and that GPU's lock (GPU 0 the lock path as
# set, GPU g PATH.gpu<g>); without it no lane's GPU or lock is changed.
set -u
src=$1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
out=$work
. "$src/testsuite/bench/lanes.sh"
fail=0
# the "program" each lane runs: its programs and what it was given
cat >"$work/lane.sh" <<'EOF2'
#!/bin/sh
for p in "$@"; do [ "$p" = "--" ] && break; printf '%s gpu=%s lock=%s\n' "$p" "${CUDA_VISIBLE_DEVICES:-unset}" "${CL1CC_GPU_LOCK:-unset}"; done
EOF2
bench_args a b c d e
unset CUDA_VISIBLE_DEVICES
export CL1CC_GPU_LOCK=/tmp/x.lock
BENCH_GPUS=2 bench_lanes 3 sh "$work/lane.sh"
got=$(cat "$work"/lane-*.log | sort | tr '\n' ';')
want="a gpu=0 lock=/tmp/x.lock;b gpu=1 lock=/tmp/x.lock.gpu1;c gpu=0 lock=/tmp/x.lock;d gpu=0 lock=/tmp/x.lock;e gpu=1 lock=/tmp/x.lock.gpu1;"
[ "$got" = "$want" ] && echo "ok: 3 lanes on 2 GPUs: lanes 1 and 3 on GPU 0, lane 2 on GPU 1, each with its GPU's lock" ||
    { echo "FAIL: lanes on GPUs: got $got, want $want"; fail=1; }
rm -f "$work"/lane-*.log
bench_lanes 2 sh "$work/lane.sh"
got=$(cat "$work"/lane-*.log | sort | tr '\n' ';')
want="a gpu=unset lock=/tmp/x.lock;b gpu=unset lock=/tmp/x.lock;c gpu=unset lock=/tmp/x.lock;d gpu=unset lock=/tmp/x.lock;e gpu=unset lock=/tmp/x.lock;"
[ "$got" = "$want" ] && echo "ok: one GPU: the lanes share it and its lock" ||
    { echo "FAIL: one GPU: got $got, want $want"; fail=1; }
exit $fail
