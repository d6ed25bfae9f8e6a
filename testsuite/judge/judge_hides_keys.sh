#!/bin/sh
# judge_hides_keys.sh CL1CC: no process that runs generated code sees an API
# key.  A stand-in nvidia-smi says there is a GPU and a stand-in nvcc
# (CL1CC_NVCC) "builds" the replay driver as a script that writes its
# environment down; `cl1cc judge` runs it on a hand-made capture with
# CL1CC_LLM_API_KEY, OPENAI_API_KEY and the variable --cl1-llm-key-env names
# set: none may reach it, an ordinary variable does.  No GPU needed.
set -u
cl1cc=$(readlink -f "$1")
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export CL1CC_CACHE_DIR="$work/cache" CL1CC_DB="$work/db"
mkdir -p "$work/bin" "$work/cap/0"
cat >"$work/bin/nvidia-smi" <<'S'
#!/bin/sh
echo "9.0, Stand-in GPU"
S
# the "driver" records its environment (and fails: the judge stops there)
cat >"$work/bin/nvcc" <<S
#!/bin/sh
out=
while [ \$# -gt 0 ]; do [ "\$1" = -o ] && out=\$2; shift; done
[ -n "\$out" ] || exit 0
printf '#!/bin/sh\nenv >>"$work/seen.env"\necho "--- run" >>"$work/seen.env"\nexit 1\n' >"\$out"
chmod +x "\$out"
S
chmod +x "$work/bin/nvidia-smi" "$work/bin/nvcc"
cp "$here/../example/vector_scale.cu" "$work/"
cat >"$work/cap/0/meta" <<'M'
cl1cc-capture 1
kernel scale_clamp
index 0
grid 1 1 1
block 4 1 1
shmem 0
allocs 2
alloc 0 16
alloc 1 16
args 4
arg 0 pointer 0 0
arg 1 pointer 1 0
arg 2 value 4 0000c03f
arg 3 value 4 04000000
end
M
for f in alloc0.in alloc0.out alloc1.in alloc1.out; do head -c 16 /dev/zero >"$work/cap/0/$f"; done
cd "$work" || exit 1
fail=0
ok() { echo "ok: $1"; }
bad() { echo "FAIL: $1"; fail=1; }
run_judge() { # extra judge options...
    rm -f seen.env
    PATH="$work/bin:$PATH" CL1CC_NVCC="$work/bin/nvcc" CL1CC_LLM_API_KEY=secret-default \
        OPENAI_API_KEY=secret-openai MY_LLM_KEY=secret-named JUDGE_TEST_CANARY=visible \
        "$cl1cc" judge vector_scale.cu scale_clamp --captures cap \
        --variant "$here/variants/scale_clamp.correct.cu" "$@" -- -O3 >out.txt 2>err.txt
    [ -s seen.env ] || { bad "the stand-in driver never ran ($*)"; cat out.txt err.txt; return; }
    grep -q "^JUDGE_TEST_CANARY=visible$" seen.env || bad "the driver's environment was not recorded"
}
run_judge
grep -q "secret-default" seen.env && bad "the driver saw CL1CC_LLM_API_KEY"
grep -q "secret-openai" seen.env && bad "the driver saw OPENAI_API_KEY"
[ $fail -eq 0 ] && ok "the replay driver sees neither CL1CC_LLM_API_KEY nor OPENAI_API_KEY"
run_judge --cl1-llm-key-env MY_LLM_KEY
grep -q "secret-" seen.env && bad "the driver saw a key with --cl1-llm-key-env MY_LLM_KEY"
[ $fail -eq 0 ] && ok "nor the variable --cl1-llm-key-env names"
exit $fail
