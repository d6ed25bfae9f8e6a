#!/bin/sh
# devset_table.sh SRC: testsuite/bench/devset_table.py on a made-up run of
# two programs: the last first verdict is a judged kernel's (a judge that
# gave up on a nondeterministic original gives none), net_s is each judged
# kernel's first verdict less its own wait for the GPU's lock, and the
# end-to-end mark is '+' only when every wrapped run is slower than every
# plain one, '~' when the runs overlap.
set -u
src=$1
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
command -v python3 >/dev/null 2>&1 || { echo "FAIL: no python3"; exit 1; }
mkdir -p "$out/alpha" "$out/beta"
cat >"$out/alpha/tune.json" <<'JSON'
{"capture_seconds": 12.0, "capture_run_seconds": 2.0, "kernels": [
 {"kernel": "gave_up", "status": "error", "first_verdict_seconds": 125.4, "variants_tried": 0,
  "judge_seconds": {"lock_wait": 0}},
 {"kernel": "late", "status": "no_gain", "first_verdict_seconds": 90.0, "variants_tried": 5, "speedup": 1.0,
  "judge_seconds": {"lock_wait": 70.0}},
 {"kernel": "early", "status": "improved", "first_verdict_seconds": 40.0, "variants_tried": 5, "speedup": 1.5,
  "judge_seconds": {"lock_wait": 1.0}}]}
JSON
printf 'census pass 1.0\ntune exit 0 50\nplain pass 1.00\nwrapped pass 1.20\nplain pass 1.05\nwrapped pass 1.21\nplain pass 1.02\nwrapped pass 1.30\n' \
    >"$out/alpha/runs.tsv"
cat >"$out/beta/tune.json" <<'JSON'
{"capture_seconds": 3.0, "capture_run_seconds": 0.5, "kernels": [
 {"kernel": "only", "status": "no_gain", "first_verdict_seconds": 20.0, "variants_tried": 3, "speedup": 1.0,
  "judge_seconds": {"lock_wait": 2.5}}]}
JSON
printf 'plain pass 1.00\nwrapped pass 0.98\nplain pass 0.97\nwrapped pass 1.01\n' >"$out/beta/runs.tsv"
table=$(python3 "$src/testsuite/bench/devset_table.py" "$out") || { echo "FAIL: devset_table.py failed"; exit 1; }
fail=0
row() { echo "$table" | awk -v p="$1" '$1 == p'; }
# alpha: first_s 90.0 (not the error's 125.4), wait 70.0, net 39.0 (early's
# 40 - 1 = 39 against late's 90 - 70 = 20), e2e '+'
case $(row alpha) in
*" 90.0 "*" 70.0 "*" 39.0 "*"+"*) echo "ok: alpha: last verdict 90.0, its wait 70.0, net 39.0, slower" ;;
*) echo "FAIL: alpha: $(row alpha)"; fail=1 ;;
esac
case $(row alpha) in *125.4*) echo "FAIL: alpha: the error's time counted as a verdict"; fail=1 ;; esac
case $(row beta) in
*" 20.0 "*" 2.5 "*" 17.5 "*"~"*) echo "ok: beta: net 17.5, runs overlap" ;;
*) echo "FAIL: beta: $(row beta)"; fail=1 ;;
esac
exit $fail
