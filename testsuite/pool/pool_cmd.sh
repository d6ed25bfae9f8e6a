#!/bin/sh
# pool_cmd.sh CL1CC: `cl1cc pool-run` by hand: a job file on two fake GPUs,
# the table it prints, the logs, the exit status; and the Slurm backend's
# error when sbatch cannot be found.
set -u
cl1cc=$1
dir=$(mktemp -d "${TMPDIR:-/tmp}/cl1cc-pool-cmd-XXXXXX") || exit 1
trap 'rm -rf "$dir"' EXIT
fail=0
check() { # DESCRIPTION COMMAND...
    what=$1; shift
    if ! "$@"; then echo "FAIL: $what"; fail=1; fi
}

cat >"$dir/jobs" <<'JOBS'
# one job per line
echo "saw $CUDA_VISIBLE_DEVICES"

exit 2
sleep 30
JOBS
CUDA_VISIBLE_DEVICES=0,1 "$cl1cc" pool-run --timeout 1 --attempts 1 --logs "$dir/logs" \
    "$dir/jobs" >"$dir/table" 2>"$dir/stderr"
rc=$?
cat "$dir/table"
check "exit status 1 when a job fails" [ $rc -eq 1 ]
check "job-1 done" grep -Eq '^job-1 +done +0 +1 .*gpu [01] ' "$dir/table"
check "job-2 failed with exit 2" grep -Eq '^job-2 +failed +2 +1 ' "$dir/table"
check "job-3 timed out" grep -Eq '^job-3 +timeout +124 +1 ' "$dir/table"
check "three jobs" [ "$(grep -c '^job-' "$dir/table")" -eq 3 ]
check "job-1's output" grep -Eq '^saw [01]$' "$dir/logs/job-1.out"

# all done: exit 0; from stdin, CPU jobs
mkdir "$dir/cwd"
(cd "$dir/cwd" && printf 'true\necho a\n' | "$cl1cc" pool-run --no-gpu - >"$dir/table2" 2>/dev/null)
check "exit 0 when all are done" [ $? -eq 0 ]
check "CPU jobs" grep -Eq '^job-2 +done +0 +1 .* cpu ' "$dir/table2"
check "default log folder in the working directory" [ -s "$(echo "$dir"/cwd/cl1cc-pool-*/job-2.out)" ]

# usage errors and a missing sbatch: exit 2 with a message
"$cl1cc" pool-run --bogus "$dir/jobs" >/dev/null 2>&1
check "usage error" [ $? -eq 2 ]
CL1CC_SLURM_BIN_DIR=$dir/none "$cl1cc" pool-run --cl1-backend=slurm --logs "$dir/l2" \
    "$dir/jobs" >/dev/null 2>"$dir/err3"
rc=$?
check "slurm without sbatch: exit 2" [ $rc -eq 2 ]
check "slurm without sbatch: says so" grep -q 'no sbatch' "$dir/err3"
[ $fail -eq 0 ] && echo "pool_cmd: all passed"
exit $fail
