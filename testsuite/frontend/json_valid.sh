#!/bin/sh
# json_valid.sh CL1CC FIXTURE: `inspect --json --text` prints one valid JSON
# document whose kernel texts are the exact bytes of the file at the
# reported offsets.
set -u
cl1cc=$1 fixture=$2
"$cl1cc" inspect --json --text "$fixture" | python3 -c '
import json, sys
doc = json.load(sys.stdin)
src = open(sys.argv[1], "rb").read()
assert doc["kernels"], "no kernels"
for k in doc["kernels"]:
    r = k["decl_range"]
    if r["file"] == doc["file"] and not r["in_macro"]:
        assert src[r["begin"]:r["end"]].decode() == k["text"], k["name"]
        b = k["body_range"]
        assert src[b["begin"]:b["begin"]+1] == b"{" and src[b["end"]-1:b["end"]] == b"}", k["name"]
for l in doc["launches"]:
    r = l["range"]
    if not r["in_macro"]:
        assert b"<<<" in src[r["begin"]:r["end"]], l["kernel"]
print("ok: %d kernels, %d launches" % (len(doc["kernels"]), len(doc["launches"])))
' "$fixture"
