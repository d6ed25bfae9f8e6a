#!/usr/bin/env python3
"""tune_table.py SUMMARY.json...: one table over `cl1cc tune --json`
summaries: per-kernel speedup, the original's and the best variant's share
of the kernel's roofline limit, variants tried, tuning time and the time by
which 90% of the final speedup was reached; at the end the geomean speedup,
the geomean share of the limit over the kernels that are not launch-bound
(best time 10 us or more), and the kernels under 10% of their limit with
tune's reason."""
import json
import math
import sys

rows = []
for path in sys.argv[1:]:
    try:
        d = json.load(open(path))
    except (OSError, ValueError) as e:
        print(f"{path}: {e}", file=sys.stderr)
        continue
    for k in d.get("kernels", []):
        rows.append((path.rsplit("/", 1)[-1].removesuffix(".json"), k))

print(f"{'program':<14} {'kernel':<28} {'status':<14} {'orig_ms':>9} {'best_ms':>9} "
      f"{'speedup':>8} {'orig%':>6} {'best%':>6} {'tried':>5} {'tune_s':>7} {'t90_s':>6}  best")
logs, tried, secs, slower = [], 0, 0.0, 0
pct_logs, far = [], []
for prog, k in rows:
    sp = k.get("speedup")
    t90 = "-"
    prog_pts = k.get("progress") or []
    if sp and sp > 1 and prog_pts:
        target = 1 + 0.9 * (sp - 1)
        t90 = next((f"{t:.0f}" for t, s in prog_pts if s >= target), "-")
    if isinstance(sp, (int, float)) and sp > 0:
        logs.append(math.log(sp))
        slower += sp < 1
    tried += k.get("variants_tried", 0)
    secs += k.get("tune_seconds", 0)
    fmt = lambda v, f: f.format(v) if isinstance(v, (int, float)) else "-"
    best_pct = k.get("best_pct_of_limit")
    best_ms = k.get("best_ms") if isinstance(sp, (int, float)) and sp > 1 else k.get("baseline_ms")
    if isinstance(best_pct, (int, float)) and best_pct > 0 and isinstance(best_ms, (int, float)) \
            and best_ms >= 0.010:
        pct_logs.append(math.log(best_pct))
    if isinstance(best_pct, (int, float)) and best_pct < 10:
        far.append(f"{prog}/{k['kernel']}: {best_pct:.1f}%: {k.get('far_reason') or '-'}")
    print(f"{prog:<14} {k['kernel']:<28.28} {k['status']:<14} {fmt(k.get('baseline_ms'), '{:.4f}'):>9} "
          f"{fmt(k.get('best_ms'), '{:.4f}'):>9} {fmt(sp, '{:.2f}x'):>8} "
          f"{fmt(k.get('original_pct_of_limit'), '{:.1f}'):>6} {fmt(best_pct, '{:.1f}'):>6} "
          f"{k.get('variants_tried', 0):>5} "
          f"{k.get('tune_seconds', 0):>7.1f} {t90:>6}  {k.get('best_label') or k.get('detail', '')[:60]}")
if logs:
    print(f"geomean speedup over {len(logs)} measured kernels: {math.exp(sum(logs) / len(logs)):.2f}x; "
          f"{slower} slower than the original; {tried} variants tried; {secs:.0f} s of tuning")
if pct_logs:
    print(f"geomean share of the limit over {len(pct_logs)} kernels not launch-bound: "
          f"{math.exp(sum(pct_logs) / len(pct_logs)):.1f}%")
for line in far:
    print(f"under 10% of its limit: {line}")
