#!/bin/sh
# llm_cmd.sh PYTHON CL1CC WORKDIR: `cl1cc llm-propose` end to end against
# the fake server: a kernel comes back; a 401 gives one clear line; bad
# options are refused; the prompt built from the parsed file matches
# expected/prompt_scale_cu.txt; and the API key, set in the environment and
# sent to the server, appears in nothing cl1cc prints, verbose or not.
set -u
PYTHON=$1 CL1CC=$2 WORK=$3
HERE=$(cd "$(dirname "$0")" && pwd)
if ! command -v "$PYTHON" >/dev/null 2>&1; then
    echo "llm_cmd: no python3; skipped" >&2
    exit 77
fi
. "$HERE/server.sh"
rm -rf "$WORK" && mkdir -p "$WORK" || exit 1
trap stop_server EXIT
KEY="sk-cl1cc-cli-$(od -An -N8 -tx1 /dev/urandom | tr -d ' \n')"
export FAKE_LLM_EXPECTED_KEY="$KEY"
start_server "$WORK" || exit 1
FX=$HERE/fixtures/scale.cu
fail=0
no() { echo "llm_cmd: $*" >&2; fail=1; }
# run NAME EXPECTED-RC ARGS...: output in $WORK/NAME.out (stdout and stderr)
run() {
    name=$1 want=$2
    shift 2
    "$CL1CC" llm-propose "$@" >"$WORK/$name.out" 2>&1
    got=$?
    [ "$got" -eq "$want" ] || { no "$name: exit $got, wanted $want"; cat "$WORK/$name.out" >&2; }
}

export CL1CC_LLM_API_KEY="$KEY"
run normal 0 "$FX" scale --cl1-llm-url "$SERVER_URL/s/normal/v1" --cl1-llm-model fake-model
grep -q '^// ==== llm:fake-model #1$' "$WORK/normal.out" || no "normal: no proposal printed"
grep -q '__ldg(&in\[i\])' "$WORK/normal.out" || no "normal: not the recorded kernel"

CL1CC_VERBOSE=1 run verbose 0 "$FX" scale --cl1-llm-url="$SERVER_URL/s/multi/v1" \
    --cl1-llm-model=fake-model -n 3 --arch sm_90 --gpu "NVIDIA H200"
grep -q 'API key from \$CL1CC_LLM_API_KEY' "$WORK/verbose.out" || no "verbose: no word on the key"
grep -q 'llm:fake-model #2 failed: no code in the reply' "$WORK/verbose.out" || no "verbose: no refusal"

unset CL1CC_LLM_API_KEY
MY_LLM_KEY="$KEY" CL1CC_VERBOSE=1 run unauthorized 1 "$FX" scale -n 2 \
    --cl1-llm-url "$SERVER_URL/s/unauthorized/v1" --cl1-llm-model fake-model \
    --cl1-llm-key-env MY_LLM_KEY
grep -q 'HTTP 401 from http://127.0.0.1:[0-9]*/s/unauthorized/v1/chat/completions: Incorrect API key provided: \[redacted\]' \
    "$WORK/unauthorized.out" || no "unauthorized: no clear 401 line"
[ "$(grep -c '"scenario": "unauthorized"' "$SERVER_LOG")" -eq 1 ] || no "unauthorized: retried"
grep '"scenario": "unauthorized"' "$SERVER_LOG" | grep -q '"auth": "ok"' || no "unauthorized: key not sent"

export CL1CC_LLM_API_KEY="$KEY"
CL1CC_VERBOSE=1 run no_model 2 "$FX" scale --cl1-llm-url "$SERVER_URL/s/normal/v1"
grep -q 'cl1-llm-model' "$WORK/no_model.out" || no "no_model: no reason"
run typo 2 "$FX" scale --cl1-llm-modle x
grep -q "unknown option '--cl1-llm-modle'" "$WORK/typo.out" || no "typo: no reason"
run bad_value 2 "$FX" scale --cl1-llm-attempts=0
run no_kernel 2 "$FX" nosuch --cl1-llm-url "$SERVER_URL/s/normal/v1" --cl1-llm-model m
CL1CC_LLM_API_KEY="$KEY
x" CL1CC_VERBOSE=1 run key_break 2 "$FX" scale --cl1-llm-url "$SERVER_URL/s/normal/v1" \
    --cl1-llm-model m
grep -q 'line break' "$WORK/key_break.out" || no "key_break: no reason"
CL1CC_VERBOSE=1 run down 1 "$FX" scale --cl1-llm-url "$SERVER_URL/s/always_503/v1" \
    --cl1-llm-model m --cl1-llm-attempts 2 --cl1-llm-backoff 0.01

run prompt 0 "$FX" scale --print-prompt --arch sm_90 --gpu "NVIDIA H200"
if ! cmp -s "$WORK/prompt.out" "$HERE/expected/prompt_scale_cu.txt"; then
    no "prompt: differs from expected/prompt_scale_cu.txt"
    diff "$HERE/expected/prompt_scale_cu.txt" "$WORK/prompt.out" >&2
fi

for f in "$WORK"/*.out; do
    if grep -F -e "$KEY" "$f" >/dev/null; then
        no "the API key appears in $(basename "$f")"
    fi
done
[ $fail -eq 0 ] && echo "llm_cmd: all passed"
exit $fail
