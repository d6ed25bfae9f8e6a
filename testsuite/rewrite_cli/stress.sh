#!/bin/sh
# stress.sh CL1CC RWC_PUT HERE DB_PUT: many cl1cc processes on one tuning
# database: `cl1cc rewrite --patch` readers while db_put writers add
# variants, one writer killed with SIGKILL in the middle; afterwards every
# reader succeeded with a patch that applies, the database passes its
# integrity check and holds every row a writer reported committed.
set -u
cl1cc=$(readlink -f "$1") put=$(readlink -f "$2") db_put=$(readlink -f "$4")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work" || exit 1
export CL1CC_DB="$work/tuning.db" CL1CC_DB_BUSY_MS=30000
flags="-O3 -arch=sm_90"
fail=0
ok() { echo "ok: $*"; }
bad() { echo "FAIL: $*"; fail=1; }
cat >k.cu <<'CU'
__global__ void scale(float *x, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        x[i] *= 2.0f;
}
CU
cat >v.cu <<'CU'
__global__ void scale(float *x, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        x[i] = x[i] + x[i];
}
CU
"$db_put" k.cu scale v.cu 1.1 -- $flags || { bad "first db_put"; exit 1; }
git init -q . && git add k.cu && git -c user.email=t@example.com -c user.name=t commit -qm base

writer() { # id
    for n in 1 2 3; do
        "$db_put" k.cu scale v.cu "1.$1$n" -- $flags 2>>"w$1.err"
        echo $? >>"w$1.status"
    done
}
reader() { # id
    for n in 1 2 3; do
        "$cl1cc" rewrite --patch k.cu -- $flags >"r$1.$n.patch" 2>>"r$1.err"
        echo $? >>"r$1.status"
    done
}
# the victim: db_put after db_put in a process group of its own, so that one
# SIGKILL to the group stops the loop and the db_put it is running
export k_flags="$flags" db_put
setsid sh -c 'while :; do "$db_put" k.cu scale v.cu 1.9 -- $k_flags 2>/dev/null; echo $? >>victim.status; done' &
victim=$!
pids=""
for i in 1 2 3; do writer $i & pids="$pids $!"; done
for i in 1 2 3; do reader $i & pids="$pids $!"; done
sleep 3
kill -9 "-$victim" || bad "could not kill the victim's process group"
wait "$victim" 2>/dev/null
for p in $pids; do wait "$p"; done

committed=1
for i in 1 2 3; do
    z=$(grep -c '^0$' "w$i.status")
    [ "$z" = 3 ] || bad "writer $i: $z of 3 succeeded: $(cat "w$i.err")"
    committed=$((committed + z))
done
victim_ok=$(grep -c '^0$' victim.status 2>/dev/null || echo 0)
committed=$((committed + victim_ok))
for i in 1 2 3; do
    [ "$(grep -c '^0$' "r$i.status")" = 3 ] || bad "reader $i failed: $(cat "r$i.err")"
    for n in 1 2 3; do
        if head -n 1 "r$i.$n.patch" | grep -q '^diff --git a/k.cu b/k.cu$' && git apply --check "r$i.$n.patch"; then :; else bad "reader $i run $n: no patch that applies"; fi
    done
done
[ $fail -eq 0 ] && ok "9 readers' patches all apply; writers: $committed rows reported committed ($victim_ok by the killed writer before its kill)"
rows=$("$put" --count 2>count.err)
if [ $? -ne 0 ]; then
    bad "integrity check: $(cat count.err)"
elif [ "$rows" -eq "$committed" ] || [ "$rows" -eq $((committed + 1)) ]; then
    ok "integrity check passes; $rows variant rows: none lost (the killed write may or may not have committed)"
else
    bad "$rows variant rows, $committed committed"
fi
"$cl1cc" rewrite --in-place k.cu -- $flags 2>final.err && grep -q 'speedup=1.90\|speedup=1.3' k.cu && ok "afterwards the best entry is applied: $(grep -o 'speedup=[0-9.]*' k.cu)" || { bad "final rewrite"; cat final.err; }
exit $fail
