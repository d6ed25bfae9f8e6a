#!/bin/sh
# llm_client.sh PYTHON TEST-PROGRAM WORKDIR: runs test_llm_client against
# the fake server with a fresh secret key, then checks that the key appears
# nowhere in what the program printed (verbose logging on), while the
# server's log shows it was sent.
set -u
PYTHON=$1 PROGRAM=$2 WORK=$3
HERE=$(cd "$(dirname "$0")" && pwd)
if ! command -v "$PYTHON" >/dev/null 2>&1; then
    echo "llm_client: no python3; skipped" >&2
    exit 77
fi
. "$HERE/server.sh"
rm -rf "$WORK" && mkdir -p "$WORK" || exit 1
trap stop_server EXIT
KEY="sk-cl1cc-test-$(od -An -N8 -tx1 /dev/urandom | tr -d ' \n')"
export FAKE_LLM_EXPECTED_KEY="$KEY"
start_server "$WORK" || exit 1
CL1CC_TEST_LLM_KEY="$KEY" CL1CC_VERBOSE=1 "$PROGRAM" "$SERVER_URL" "$SERVER_LOG" \
    >"$WORK/output.txt" 2>&1
rc=$?
cat "$WORK/output.txt"
if grep -F -e "$KEY" "$WORK/output.txt" >/dev/null; then
    echo "llm_client: the API key appears in the output" >&2
    rc=1
fi
if ! grep -F '"auth": "ok"' "$SERVER_LOG" >/dev/null; then
    echo "llm_client: the server never got the key" >&2
    rc=1
fi
exit $rc
