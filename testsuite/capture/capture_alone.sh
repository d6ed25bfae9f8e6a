#!/bin/sh
# capture_alone.sh CL1CC: the capture's run of the program takes the GPU's
# lock shared (beside judges' checks), and exclusive with
# CL1CC_CAPTURE_ALONE=1 (a bench timing several programs on one GPU): the
# program itself asks for the lock shared without waiting, and gets it only
# in the first case.
set -u
cl1cc=$(readlink -f "$1")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
command -v flock >/dev/null 2>&1 || { echo "FAIL: no flock"; exit 1; }
cd "$work" || exit 1
printf '__global__ void k(float *x) { x[0] = 1; }\n' >a.cu
probe="flock -n -s $work/gpu.lock true && echo shared || echo held"
fail=0
got=$(CL1CC_GPU_LOCK=$work/gpu.lock "$cl1cc" capture --run "$probe" --out caps a.cu 2>&1 | head -n 1)
[ "$got" = shared ] && echo "ok: shared by default" || { echo "FAIL: by default: $got"; fail=1; }
got=$(CL1CC_CAPTURE_ALONE=1 CL1CC_GPU_LOCK=$work/gpu.lock "$cl1cc" capture --run "$probe" --out caps2 a.cu 2>&1 | head -n 1)
[ "$got" = held ] && echo "ok: exclusive with CL1CC_CAPTURE_ALONE=1" || { echo "FAIL: alone: $got"; fail=1; }
exit $fail
