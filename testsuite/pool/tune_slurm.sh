#!/bin/sh
# tune_slurm.sh CL1CC ROW_SUMS.CU: `cl1cc tune --cl1-backend=slurm` end to
# end without a GPU.  Starts a private single-node Slurm (slurm_lib.sh), runs
# tune on a hand-made capture of row_sums (as nogpu_tune.sh does) with the
# work folder and the captures in the cluster's folder, and checks that the
# judge ran as a Slurm batch job, not locally: a job named cl1cc-row_sums-r1
# that the controller knows COMPLETED, whose stdout is the judge's under WORK,
# and whose builds (an nvcc on PATH that notes its caller) saw that job's
# SLURM_JOB_ID, tune's working directory and CL1CC_DB / CL1CC_CACHE_DIR.  Skipped (77) only
# where Slurm or munge is not installed or there is a GPU (then the judge
# would need --slurm-gres and gpu_tune.sh covers tune).
set -u
cl1cc=$(readlink -f "$1")
src=$(readlink -f "$2")
slurm_lib_name=tune_slurm
. "$(dirname "$0")/slurm_lib.sh"

slurm_lib_have_tools || exit 77
if command -v nvidia-smi >/dev/null 2>&1 && nvidia-smi -L >/dev/null 2>&1; then
    echo "SKIPPED: this machine has a GPU; gpu_tune.sh covers tune here"
    exit 77
fi
trap slurm_lib_stop EXIT
trap 'exit 1' INT TERM HUP
slurm_lib_start || exit 1
started=$(date +%s)

# everything tune and the job touch lies in the cluster's folder, which the
# one node sees (and slurm_lib_stop removes)
dir=$base/tune
mkdir -p "$dir" || exit 1
export CL1CC_CACHE_DIR="$dir/cache" CL1CC_DB="$dir/db/tuning.db"
export CL1CC_SLURM_BIN_DIR="$(dirname "$(command -v sbatch)")"
# an nvcc first on PATH that notes who called it, from where, with what
# environment, then runs the real one: the judge's builds must show the job
real_nvcc=$(command -v nvcc) || { echo "FAIL: no nvcc on PATH"; exit 1; }
mkdir -p "$dir/bin"
cat >"$dir/bin/nvcc" <<N
#!/bin/sh
echo "job=\${SLURM_JOB_ID:-none} pwd=\$PWD db=\${CL1CC_DB:-} cache=\${CL1CC_CACHE_DIR:-}" >>"$dir/nvcc.log"
exec "$real_nvcc" "\$@"
N
chmod +x "$dir/bin/nvcc"
PATH=$dir/bin:$PATH
export PATH
cp "$src" "$dir/row_sums.cu"
. "$(dirname "$src")/fake_capture.sh"
fake_capture "$dir/row_sums.cu" "$dir/cap"

# relative paths on purpose: the job must run in tune's working directory
cd "$dir" || exit 1
"$cl1cc" tune --captures cap --cl1-backend=slurm --slurm-gres "" --work work \
    --json out.json row_sums.cu -- -O3 >out.txt 2>err.txt
rc=$?
cat out.txt
fail=0
[ $rc -eq 0 ] || { echo "FAIL: tune exited $rc"; cat err.txt; fail=1; }
grep -q "row_sums *skipped_no_gpu" out.txt || { echo "FAIL: row_sums is not skipped_no_gpu"; fail=1; }
grep -q "(0 did not compile)" out.txt || { echo "FAIL: some variant did not compile"; fail=1; }
[ -e "$CL1CC_DB" ] && { echo "FAIL: a database was written without measurements"; fail=1; }
python3 - out.json <<'PY' || fail=1
import json, sys
d = json.load(open(sys.argv[1]))
ks = {k["kernel"]: k for k in d["kernels"]}
assert d["ran_on_gpu"] is False, d
assert ks["row_sums"]["status"] == "skipped_no_gpu", ks
assert ks["row_sums"]["variants_tried"] == 6, ks
print("ok: JSON summary (row_sums skipped_no_gpu, 6 variants)")
PY

# the judge went through Slurm: the controller keeps ended jobs for
# MinJobAge (300 s), and a local run leaves no job there
jobs=$(squeue --states=all -h -o '%i|%j|%T' 2>/dev/null)
echo "slurm jobs: $(echo $jobs)"
judge_jobs=$(printf '%s\n' "$jobs" | grep -c '|cl1cc-row_sums-r1|')
[ "$judge_jobs" -eq 1 ] || { echo "FAIL: $judge_jobs Slurm job(s) named cl1cc-row_sums-r1, not 1"; fail=1; }
[ "$(printf '%s\n' "$jobs" | grep -c '|cl1cc-')" -eq 1 ] || { echo "FAIL: tune submitted other jobs too"; fail=1; }
id=$(printf '%s\n' "$jobs" | grep '|cl1cc-row_sums-r1|' | head -n 1 | cut -d'|' -f1)
state=$(printf '%s\n' "$jobs" | grep '|cl1cc-row_sums-r1|' | head -n 1 | cut -d'|' -f3)
[ "$state" = COMPLETED ] || { echo "FAIL: the judge's job is '$state', not COMPLETED"; fail=1; }
if [ -n "$id" ]; then
    show=$(scontrol show job -o "$id" 2>/dev/null)
    # its output went to the judge's files under WORK, it ran in tune's folder
    out=$(printf '%s\n' "$show" | tr ' ' '\n' | sed -n 's/^StdOut=//p')
    wd=$(printf '%s\n' "$show" | tr ' ' '\n' | sed -n 's/^WorkDir=//p')
    case $out in
        "$dir"/work/*/judge.out) ;;
        *) echo "FAIL: the job's StdOut is '$out', not WORK/.../judge.out"; fail=1 ;;
    esac
    [ "$wd" = "$dir" ] || { echo "FAIL: the job ran in '$wd', not in '$dir'"; fail=1; }
    [ -f "$out" ] || { echo "FAIL: the judge's stdout $out is missing"; fail=1; }
    printf '%s\n' "$show" | grep -q ' Gres=gpu\| TresPerNode=gres:gpu' &&
        { echo "FAIL: --slurm-gres \"\" still asked for a GPU"; fail=1; }
fi
# the judge's own stdout and JSON are in WORK, written during the job
n=$(ls work/*/judge.json 2>/dev/null | wc -l)
[ "$n" -eq 1 ] || { echo "FAIL: $n judge.json under WORK, not 1"; fail=1; }
# the judge built the variants inside that job, in tune's folder, with
# tune's environment (CL1CC_DB, CL1CC_CACHE_DIR, PATH)
want="job=$id pwd=$dir db=$CL1CC_DB cache=$CL1CC_CACHE_DIR"
grep -qxF "$want" nvcc.log 2>/dev/null ||
    { echo "FAIL: no nvcc call in the job with '$want'; the calls:"; cat nvcc.log 2>/dev/null; fail=1; }
[ $fail -eq 0 ] || { cat err.txt; ls -R work | head -n 40; cat work/*/judge.err 2>/dev/null | tail -n 20; slurm_lib_show_logs; }
[ $fail -eq 0 ] && echo "ok: tune ran its judge as Slurm job $id in $(( $(date +%s) - started )) s"
exit $fail
