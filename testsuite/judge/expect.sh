# expect.sh: sourced by the judge's GPU tests.  expect TABLE VARIANT-FILE
# VERDICT: the verdict `cl1cc judge` printed for the variant in TABLE is
# VERDICT (an "ok:" line), else a "FAIL:" line and fail=1.
expect() {
    got=$(awk -v v="$2" '$1 == v { print $2 }' "$1")
    if [ "$got" = "$3" ]; then
        echo "ok: $(basename "$2" .cu): $got"
    else
        echo "FAIL: $(basename "$2" .cu): expected $3, got '${got:-nothing}'"; fail=1
    fi
}
