#!/bin/sh
# html.sh CL1CC RWC_PUT HERE: the HTML report of `cl1cc ci` opens in headless
# Chromium, self-contained (no script, no external asset), and renders: the
# screenshot is a 1200x900 PNG that is not blank and shows the green bars of
# the speedup chart.  A report with a 60-character kernel name keeps it
# inside an 800-pixel-wide page: a script added to a copy reports (through
# --dump-dom) every name whose box ends past the viewport, and whether the
# page scrolls sideways; a control page that does overflow is caught.
# Skipped (77) only when chromium is not installed.
set -u
cl1cc=$(readlink -f "$1") put=$(readlink -f "$2")
browser=$(command -v chromium || command -v chromium-browser || true)
if [ -z "$browser" ]; then
    echo "SKIPPED: chromium is not installed (apt-get install chromium)"
    exit 77
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work" || exit 1
export CL1CC_DB="$work/tuning.db" HOME="$work"
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
__global__ void shift(float *x, int n) { int i = threadIdx.x; if (i < n) x[i] += 1.0f; }
CU
cat >v.cu <<'CU'
__global__ void scale(float *x, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        x[i] = x[i] + x[i];
}
CU
"$put" k.cu scale v.cu 3.2 --gpu "NVIDIA H200" -- -O3 -arch=sm_90 >/dev/null || { bad "db_put"; exit 1; }
cat >tune.json <<JSON
{"cl1cc_version": "0.1.0", "arch": "sm_90", "gpu_name": "NVIDIA H200", "ran_on_gpu": true,
 "budget": {"seconds": 600, "evaluations": 64}, "wall_seconds": 321.5,
 "kernels": [
  {"file": "$work/k.cu", "kernel": "scale", "status": "improved", "baseline_ms": 1.9, "best_ms": 0.59, "speedup": 3.2,
   "best_label": "regacc+restrict", "variants_tried": 12, "variants_passed": 9, "detail": "<script>alert(1)</script> & more"},
  {"file": "$work/k.cu", "kernel": "shift", "status": "no_gain", "baseline_ms": 0.8, "best_ms": 0.79, "speedup": 1.01},
  {"file": "$work/other.cu", "kernel": "mm2_kernel1", "status": "not_captured"},
  {"file": "$work/other.cu", "kernel": "mm2_kernel2", "status": "error", "detail": "nvcc failed"}
 ]}
JSON
"$cl1cc" ci --from-json tune.json --out out -- -O3 -arch=sm_90 >ci.out 2>ci.err; rc=$?
[ $rc -eq 3 ] && [ -s out/report.html ] && ok "ci --from-json: status 3, report.html written" || { bad "ci: rc=$rc"; cat ci.err; }
if grep -qi '<script\|src=\|href=\|@import\|url(' out/report.html; then bad "report.html refers to something outside itself or runs script"; else ok "report.html: no script, no external reference"; fi
grep -q '&lt;script&gt;alert(1)&lt;/script&gt; &amp; more' out/report.html && ok "report.html escapes the tuner's text" || bad "report.html escaping"
[ "$(grep -c '<svg' out/report.html)" = 2 ] && ok "report.html: two inline SVG charts" || bad "report.html: SVG charts"

timeout 180 "$browser" --headless --no-sandbox --disable-gpu --disable-dev-shm-usage --no-first-run \
    --user-data-dir="$work/profile" --hide-scrollbars --screenshot="$work/out.png" --window-size=1200,900 \
    "file://$work/out/report.html" >chromium.log 2>&1
rc=$?
if [ $rc -ne 0 ] || [ ! -s out.png ]; then bad "chromium: status $rc, no screenshot"; tail -5 chromium.log; exit 1; fi
python3 - out.png <<'PY' && ok "screenshot: 1200x900, not blank, the green bars are there" || bad "screenshot check"
import struct, sys, zlib
data = open(sys.argv[1], "rb").read()
assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
pos, idat, ihdr = 8, b"", None
while pos < len(data):
    n, kind = struct.unpack(">I4s", data[pos:pos + 8])
    body = data[pos + 8:pos + 8 + n]
    if kind == b"IHDR":
        ihdr = struct.unpack(">IIBBBBB", body)
    elif kind == b"IDAT":
        idat += body
    pos += 12 + n
w, h, depth, color, _, _, interlace = ihdr
assert (w, h) == (1200, 900), (w, h)
assert depth == 8 and color in (2, 6) and interlace == 0, ihdr
bpp = 3 if color == 2 else 4
raw = zlib.decompress(idat)
stride = w * bpp
prev = bytearray(stride)
pixels = 0
colors = set()
green = dark = 0
for y in range(h):
    f = raw[y * (stride + 1)]
    line = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
    for i in range(stride):
        a = line[i - bpp] if i >= bpp else 0
        b = prev[i]
        c = prev[i - bpp] if i >= bpp else 0
        if f == 1: line[i] = (line[i] + a) & 255
        elif f == 2: line[i] = (line[i] + b) & 255
        elif f == 3: line[i] = (line[i] + (a + b) // 2) & 255
        elif f == 4:
            p = a + b - c
            pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
            line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
    for x in range(0, stride, bpp):
        r, g, bl = line[x], line[x + 1], line[x + 2]
        colors.add((r, g, bl))
        if abs(r - 0x2d) < 12 and abs(g - 0xa4) < 12 and abs(bl - 0x4e) < 12:
            green += 1
        if r + g + bl < 200:
            dark += 1
    prev = line
print("distinct colours %d, green pixels %d, dark (text) pixels %d" % (len(colors), green, dark))
assert len(colors) > 20, "blank page"
assert green > 2000, "no green bar"
assert dark > 2000, "no text"
PY
# a 60-character kernel name in a page 800 pixels wide
long=an_extremely_long_templated_kernel_name_for_matrix_transpose
[ ${#long} -eq 60 ] || bad "the long name is ${#long} characters"
sed "s/\"kernel\": \"scale\"/\"kernel\": \"$long\"/" tune.json >long.json
"$cl1cc" ci --from-json long.json --out long -- -O3 -arch=sm_90 >/dev/null 2>&1
grep -q "$long" long/report.html && ok "report.html holds the 60-character name" || bad "long name missing"
probe='<script>
var w = document.documentElement.clientWidth, out = [];
if (document.documentElement.scrollWidth > w) out.push("page " + document.documentElement.scrollWidth + ">" + w);
document.querySelectorAll("code, td, svg text, div").forEach(function (e) {
  var r = e.getBoundingClientRect();
  if (r.right > w + 1) out.push(e.tagName + " " + e.textContent.slice(0, 24) + " right=" + Math.round(r.right));
});
document.title = out.length ? "OVERFLOW " + out.join("; ") : "FITS";
</script>'
for page in long control; do
    if [ $page = long ]; then cp long/report.html probe_long.html; else sed 's|<body>|<body><div style="width:3000px">wide</div>|' long/report.html >probe_control.html; fi
    printf '%s\n' "$probe" >>probe_$page.html
    timeout 180 "$browser" --headless --no-sandbox --disable-gpu --disable-dev-shm-usage --no-first-run \
        --user-data-dir="$work/profile2" --hide-scrollbars --window-size=800,900 --dump-dom \
        "file://$work/probe_$page.html" >dom_$page.html 2>chromium2.log
done
grep -q "<title>FITS</title>" dom_long.html && ok "800 px: every name ends inside the viewport, no sideways scroll" || { bad "800 px: $(grep -o '<title>[^<]*' dom_long.html)"; tail -3 chromium2.log; }
grep -q "<title>OVERFLOW page" dom_control.html && ok "the probe catches an overflowing page (control)" || bad "probe control: $(sed -n 's:.*<title>\(.*\)</title>.*:\1:p' dom_control.html)"
timeout 180 "$browser" --headless --no-sandbox --disable-gpu --disable-dev-shm-usage --no-first-run \
    --user-data-dir="$work/profile3" --hide-scrollbars --screenshot="$work/long.png" --window-size=800,900 \
    "file://$work/long/report.html" >chromium3.log 2>&1
python3 -c 'import struct,sys; d=open(sys.argv[1],"rb").read(); assert d[:8]==b"\x89PNG\r\n\x1a\n"; w,h=struct.unpack(">II",d[16:24]); assert (w,h)==(800,900),(w,h)' long.png \
    && ok "screenshot of the long-name report: 800x900" || bad "long-name screenshot"
umask 022
"$cl1cc" ci --from-json long.json --out shared -- -O3 -arch=sm_90 >/dev/null 2>&1
[ "$(stat -c %a shared/report.html)" = 644 ] && [ "$(stat -c %a shared/summary.json)" = 644 ] \
    && ok "reports are created with the user's umask (022: 644), not 0600" || bad "report mode $(stat -c %a shared/report.html)"
exit $fail
