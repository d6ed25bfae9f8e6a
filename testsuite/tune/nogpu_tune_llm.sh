#!/bin/sh
# nogpu_tune_llm.sh CL1CC PYTHON: `cl1cc tune --policy both` against a fake
# OpenAI-compatible server (loopback): the built-in proposals and the
# model's go to the judge together, a refusal is recorded as a failed
# proposal, and everything that reached the judge compiled.  No GPU needed;
# skipped (77) where there is one.
set -u
cl1cc=$(readlink -f "$1") python=$2
here=$(cd "$(dirname "$0")" && pwd)
if command -v nvidia-smi >/dev/null 2>&1 && nvidia-smi -L >/dev/null 2>&1; then
    echo "SKIPPED: this machine has a GPU; gpu_tune.sh covers tune here"
    exit 77
fi
work=$(mktemp -d)
server_pid=
trap '[ -n "$server_pid" ] && kill $server_pid 2>/dev/null; rm -rf "$work"' EXIT
unset http_proxy https_proxy HTTP_PROXY HTTPS_PROXY ALL_PROXY all_proxy
export NO_PROXY=127.0.0.1,localhost no_proxy=127.0.0.1,localhost
"$python" "$here/../llm/fake_server.py" "$here/llm/scenarios.json" "$here/llm" "$work/server.log" \
    "$work/port" >"$work/server.out" 2>&1 &
server_pid=$!
tries=0
while [ ! -s "$work/port" ]; do
    tries=$((tries + 1))
    [ $tries -gt 100 ] && { echo "FAIL: the fake server did not start"; cat "$work/server.out"; exit 1; }
    sleep 0.1
done
url="http://127.0.0.1:$(cat "$work/port")/s/row_sums/v1"
export CL1CC_CACHE_DIR="$work/cache" CL1CC_DB="$work/db/tuning.db"
cp "$here/row_sums.cu" "$work/"
. "$here/fake_capture.sh"
fake_capture "$work/row_sums.cu" "$work/cap"
cd "$work" || exit 1
"$cl1cc" tune --captures cap --policy both --cl1-llm-url "$url" --cl1-llm-model fake-model \
    --llm-per-round 2 --kernel row_sums --json out.json row_sums.cu -- -O3 >out.txt 2>err.txt
rc=$?
cat out.txt
fail=0
[ $rc -eq 0 ] || { echo "FAIL: tune exited $rc"; cat err.txt; fail=1; }
[ "$(grep -c '"scenario": "row_sums"' server.log)" -ge 1 ] || { echo "FAIL: the model was not asked"; fail=1; }
# 6 built-in proposals and the model's good one were built; its refusal was recorded
grep -q "built the replay driver and 7 variant(s) (0 did not compile)" out.txt ||
    { echo "FAIL: not the built-in and the LLM proposals together"; fail=1; }
python3 - out.json <<'PY' || fail=1
import json, sys
k = {k["kernel"]: k for k in json.load(open(sys.argv[1]))["kernels"]}["row_sums"]
assert k["variants_tried"] == 8, k   # 6 built-in + 1 from the model + 1 refusal
print("ok: 8 proposals, the refusal among them")
PY
[ $fail -eq 0 ] && echo "ok: tune runs the built-in and the LLM policy in one search"
exit $fail
