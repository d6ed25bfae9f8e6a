#!/bin/sh
# precommit.sh CL1CC RWC_PUT HERE: the hooks of .pre-commit-hooks.yaml (as
# committed at the source tree's HEAD) through pre-commit itself: the
# rewrite hook rewrites a .cu file that has a verified variant (and so
# fails once, as formatters do), then passes; the check hook fails while a
# rewrite is available and changes nothing.  All of it as on a machine
# without a GPU (nvidia-smi finds none): hooks given no flags pass silently
# when nothing applies for nvcc's default arch, and apply what the database
# holds for it.  Skipped (77) without
# pre-commit or when the source tree is not a git checkout.
set -u
cl1cc=$(readlink -f "$1") put=$(readlink -f "$2") here=$(readlink -f "$3")
src=$(git -C "$here" rev-parse --show-toplevel 2>/dev/null) || src=""
rev=$(git -C "$here" rev-parse HEAD 2>/dev/null) || rev=""
if ! command -v pre-commit >/dev/null 2>&1; then echo "SKIPPED: pre-commit is not installed (apt-get install pre-commit)"; exit 77; fi
if [ -z "$src" ] || ! git -C "$src" cat-file -e "$rev:.pre-commit-hooks.yaml" 2>/dev/null; then
    echo "SKIPPED: the source tree is not a git checkout with .pre-commit-hooks.yaml committed"; exit 77
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work" || exit 1
mkdir bin && ln -s "$cl1cc" bin/cl1cc
printf '#!/bin/sh\necho "NVIDIA-SMI has failed: no devices were found" >&2\nexit 9\n' >bin/nvidia-smi
chmod +x bin/nvidia-smi
export PATH="$work/bin:$PATH" CL1CC_DB="$work/tuning.db" PRE_COMMIT_HOME="$work/pc-home" HOME="$work"
fail=0
ok() { echo "ok: $*"; }
bad() { echo "FAIL: $*"; fail=1; }
mkdir repo && cd repo || exit 1
git init -q .
cat >k.cu <<'CU'
__global__ void scale(float *x, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        x[i] *= 2.0f;
}
CU
cat >../v.cu <<'CU'
__global__ void scale(float *x, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        x[i] = x[i] + x[i];
}
CU
"$put" k.cu scale ../v.cu 1.5 -- -O3 -arch=sm_90 >/dev/null || { bad "db_put"; exit 1; }
cat >.pre-commit-config.yaml <<YAML
repos:
  - repo: $src
    rev: $rev
    hooks:
      - id: cl1cc-check
        args: [--, -O3, -arch=sm_90]
      - id: cl1cc-rewrite
        args: [--, -O3, -arch=sm_90]
YAML
cp k.cu ../k.orig
git add . && git -c user.email=t@example.com -c user.name=t commit -qm base
pre-commit run cl1cc-check --files k.cu >check.out 2>&1; rc=$?
if [ $rc -ne 0 ] && grep -q "kernel scale can be rewritten" check.out && cmp -s k.cu ../k.orig; then ok "cl1cc-check fails while a rewrite is available, changes nothing"; else bad "cl1cc-check: rc=$rc"; cat check.out; fi
pre-commit run cl1cc-rewrite --files k.cu >rw1.out 2>&1; rc=$?
if [ $rc -ne 0 ] && grep -q "files were modified by this hook" rw1.out && grep -q "cl1cc-optimized: kernel=scale" k.cu; then ok "cl1cc-rewrite rewrites k.cu (and fails once, as formatters do)"; else bad "cl1cc-rewrite first run: rc=$rc"; cat rw1.out; fi
pre-commit run cl1cc-rewrite --files k.cu >rw2.out 2>&1; rc=$?
[ $rc -eq 0 ] && ok "cl1cc-rewrite passes on the rewritten file" || { bad "cl1cc-rewrite second run: rc=$rc"; cat rw2.out; }
pre-commit run cl1cc-check --files k.cu >check2.out 2>&1; rc=$?
[ $rc -eq 0 ] && ok "cl1cc-check passes on the rewritten file" || { bad "cl1cc-check after: rc=$rc"; cat check2.out; }
# hooks with no flags (no -arch): the arch is nvcc's default, no GPU asked
cd "$work" && mkdir repo2 && cd repo2 || exit 1
git init -q .
sed 's/scale/other/' ../k.orig >k.cu
cat >.pre-commit-config.yaml <<YAML
repos:
  - repo: $src
    rev: $rev
    hooks:
      - id: cl1cc-check
      - id: cl1cc-rewrite
YAML
git add . && git -c user.email=t@example.com -c user.name=t commit -qm base
pre-commit run --all-files >none.out 2>&1; rc=$?
if [ $rc -eq 0 ] && ! grep -qi "gpu\|error\|cl1cc:" none.out; then ok "no GPU, no flags, nothing to apply: both hooks pass silently"; else bad "no GPU, nothing to apply: rc=$rc"; cat none.out; fi
sed 's/scale/other/' ../v.cu >../v2.cu
"$put" k.cu other ../v2.cu 1.4 -- >/dev/null || bad "db_put for nvcc's default arch"
pre-commit run cl1cc-check --all-files >def.out 2>&1; rc=$?
if [ $rc -ne 0 ] && grep -q "kernel other can be rewritten.*on sm_75" def.out; then ok "no GPU, no flags: the entry for nvcc's default arch (sm_75) is found"; else bad "default arch entry: rc=$rc"; cat def.out; fi
exit $fail
