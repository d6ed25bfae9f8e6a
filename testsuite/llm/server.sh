# server.sh: sourced by the LLM tests: start_server DIR starts
# fake_server.py on 127.0.0.1 and sets SERVER_URL, SERVER_LOG and
# SERVER_PID; stop_server ends that one process.  Needs $PYTHON and $HERE.

start_server() {
    dir=$1
    SERVER_LOG=$dir/server.log
    : >"$SERVER_LOG"
    rm -f "$dir/port"
    "$PYTHON" "$HERE/fake_server.py" "$HERE/server/scenarios.json" "$HERE/replies" \
        "$SERVER_LOG" "$dir/port" >"$dir/server.out" 2>&1 &
    SERVER_PID=$!
    tries=0
    while [ ! -s "$dir/port" ]; do
        tries=$((tries + 1))
        if [ $tries -gt 100 ] || ! kill -0 "$SERVER_PID" 2>/dev/null; then
            echo "the fake server did not start:" >&2
            cat "$dir/server.out" >&2
            return 1
        fi
        sleep 0.1
    done
    SERVER_URL="http://127.0.0.1:$(cat "$dir/port")"
    # the tests talk to loopback only: no proxy in between
    unset http_proxy https_proxy HTTP_PROXY HTTPS_PROXY ALL_PROXY all_proxy
    export NO_PROXY=127.0.0.1,localhost no_proxy=127.0.0.1,localhost
}

stop_server() {
    if [ -n "${SERVER_PID:-}" ]; then
        kill "$SERVER_PID" 2>/dev/null || true
        wait "$SERVER_PID" 2>/dev/null || true
        SERVER_PID=
    fi
}
