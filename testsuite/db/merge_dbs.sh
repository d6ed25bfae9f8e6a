#!/bin/sh
# merge_dbs.sh CL1CC DB_PUT SRC_DIR: testsuite/bench/merge_tuning_dbs.py
# (`cl1cc db import --replace`) takes each kernel whole from the last database that has it, keeps
# databases cl1cc accepts (the chooser retrains on the result), and refuses
# to overwrite an existing file.
set -u
cl1cc=$1 db_put=$2 src=$3
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
ex=$src/testsuite/example/vector_scale.cu v=$src/testsuite/judge/variants
merge="python3 $src/testsuite/bench/merge_tuning_dbs.py"
export CL1CC="$cl1cc" # the script is `cl1cc db import --replace` now
fail=0
put() { # db kernel variant speedup
    CL1CC_DB=$1 "$db_put" "$ex" "$2" "$3" "$4" -- -O3 -arch=sm_90 >/dev/null || { echo "FAIL: db_put $*"; exit 1; }
}
put "$work/a.db" scale_clamp "$v/scale_clamp.correct.cu" 1.5
put "$work/a.db" row_sums "$v/row_sums.correct_unrolled.cu" 1.2
put "$work/b.db" scale_clamp "$v/scale_clamp.correct.cu" 2.5
put "$work/b.db" scale_clamp "$v/scale_clamp.caches.cu" 1.1
$merge "$work/m.db" "$work/a.db" "$work/b.db" >"$work/out" 2>&1 || { echo "FAIL: merge"; cat "$work/out"; fail=1; }
n=$(CL1CC_DB="$work/m.db" "$db_put" --count)
[ "$n" = 3 ] && echo "ok: 3 variants (scale_clamp's 2 from the later database, row_sums' 1)" ||
    { echo "FAIL: $n variants in the merged database, expected 3"; cat "$work/out"; fail=1; }
best=$(python3 -c "import sqlite3,sys; c=sqlite3.connect(sys.argv[1]); print(c.execute(\"select max(speedup) from variants where kernel_name='scale_clamp'\").fetchone()[0])" "$work/m.db")
[ "$best" = 2.5 ] && echo "ok: scale_clamp's best is the later run's" || { echo "FAIL: best $best"; fail=1; }
if CL1CC_DB="$work/m.db" "$cl1cc" tune --retrain --chooser "$work/chooser.json" >"$work/retrain" 2>&1; then
    echo "ok: the chooser retrains on it: $(tail -n 1 "$work/retrain")"
else
    echo "FAIL: retrain on the merged database"; cat "$work/retrain"; fail=1
fi
if $merge "$work/m.db" "$work/a.db" >/dev/null 2>&1; then
    echo "FAIL: merged over an existing file"; fail=1
else
    echo "ok: an existing output is refused"
fi
exit $fail
