#!/usr/bin/env python3
"""devset_table.py OUT: the table of devset_flow.sh's run.  Per program:
the user's kernels launched (the CUPTI census, each instantiation apart;
cub/thrust/CCCL kernels counted apart as library), captured (a capture's
kernel or instantiation names it), judged (captured, and tune gave its
kernel a verdict on variants: a template kernel's verdict covers every
instantiation its captures ran), the capture's seconds (all, and of them the instrumented
program's run) and tune's, seconds to the last kernel's first verdict (and
how long its judge waited for the GPU's lock: other programs' timings when
several run at once; net_s: each judged kernel's first verdict less its own
wait, the latest; a judge that gave up, on a nondeterministic original,
gives no verdict),
best speedup per kernel, the end-to-end time ratio (wrapped / plain, medians
of the alternating runs; '+' when every wrapped run was slower than every
plain one, '-' when every one was faster, '~' when they overlap: with two
runs each, chance alone gives '+' or '-' one time in three, so judge
"slower" on BENCH_RUNS=4 or more) and the self-checks."""
import json
import os
import re
import statistics
import sys

LIBRARY = re.compile(r"^(cub|thrust|cuda::|CUB_|at::|std::)|::cub::|::thrust::|\bcub::|\bthrust::")


def census(path):
    """(user, library): demangled kernel names the program launched"""
    user, lib = [], []
    if not os.path.exists(path):
        return None, None
    for line in open(path, errors="replace"):
        parts = line.rstrip("\n").split("\t", 1)
        if len(parts) != 2:
            continue
        name = re.sub(r"^void ", "", parts[1])
        name = name.split("(")[0] if "(" in name else name
        (lib if LIBRARY.search(name) else user).append(name)
    return user, lib


def captured(path):
    names = set()
    if os.path.exists(path):
        for line in open(path):
            m = re.search(r"kernel (\S+)(?:\s+instance (.+))?$", line.strip())
            if m:
                names.add((m.group(2) or m.group(1)).strip())
    return names


def base(n):
    """a launched or captured name without namespaces and template arguments"""
    return re.sub(r"\s+", "", n).split("<")[0].split("::")[-1]


def matches(launched, caps):
    """a launched name counts as captured when a captured name is it or
    its unqualified form (the capture's kernel name may lack namespaces),
    integer literals compared without their suffixes (the census's
    demangled `k<128u>` is the source's `k<128>`); an instantiation whose
    arguments are spelled apart (`(Phase)0`, `Phase::Prefill`) counts when
    it is its kernel's only one launched and that kernel was captured"""
    def norm(n):
        n = re.sub(r"\s+", "", n)
        return re.sub(r"\b(\d+)(?:u|l|ul|lu|ll|ull|llu)\b", r"\1", n, flags=re.I)
    cap = {norm(c) for c in caps} | {norm(c).split("::")[-1] for c in caps}
    cap_bases = {base(c) for c in caps}
    per_base = {}
    for n in launched:
        per_base[base(n)] = per_base.get(base(n), 0) + 1
    return [n for n in launched
            if norm(n) in cap or norm(n).split("::")[-1] in cap
            or (per_base[base(n)] == 1 and base(n) in cap_bases)]


def runs(path):
    r = {"plain": [], "wrapped": [], "checks": {}, "tune_s": None, "capture_kb": None}
    if not os.path.exists(path):
        return r
    for line in open(path):
        f = line.split()
        if f[0] in ("plain", "wrapped", "census") and len(f) == 3:
            r["checks"].setdefault(f[0], []).append(f[1])
            # a run the bench's end cut short ("cut") has no time to compare
            if f[0] != "census" and f[1] != "cut":
                r[f[0]].append(float(f[2]))
        elif f[0] == "tune" and len(f) >= 4:
            r["tune_s"] = float(f[3])
        elif f[0] == "captures_kb":
            r["capture_kb"] = int(f[1])
    return r


out = sys.argv[1]
print(f"{'program':<20} {'launched':>8} {'lib':>4} {'captured':>8} {'judged':>6} {'cap_s':>6} {'cap_run':>7} "
      f"{'first_s':>7} {'wait_s':>6} {'net_s':>6} {'tune_s':>6} {'e2e':>7}  {'checks':<22} best speedup per kernel")
tot_l = tot_c = tot_j = 0
for name in sorted(os.listdir(out)):
    d = os.path.join(out, name)
    if not os.path.isdir(d):
        continue
    user, lib = census(os.path.join(d, "census.tsv"))
    caps = captured(os.path.join(d, "captured.txt"))
    try:
        tj = json.load(open(os.path.join(d, "tune.json")))
    except (OSError, ValueError):
        tj = {}
    kernels = tj.get("kernels", [])
    judged = [k for k in kernels if k.get("variants_tried", 0) > 0]
    r = runs(os.path.join(d, "runs.tsv"))
    cap_s = tj.get("capture_seconds")
    # first verdicts: of kernels with one (improved, no_gain), not the time
    # at which a judge gave up (a nondeterministic original's error)
    verdicts = [k for k in kernels if k.get("status") in ("improved", "no_gain")
                and isinstance(k.get("first_verdict_seconds"), (int, float))]
    firsts = [k["first_verdict_seconds"] for k in verdicts]
    # of the last first verdict, the seconds its judge waited for the GPU's
    # lock (other programs' timings, with DEVSET_LANES); net: each kernel's
    # first verdict less its own wait, the latest of those
    last = max(verdicts, key=lambda k: k["first_verdict_seconds"], default=None)
    wait = (last or {}).get("judge_seconds", {}).get("lock_wait")
    nets = [k["first_verdict_seconds"] - (k.get("judge_seconds") or {}).get("lock_wait", 0) for k in verdicts
            if isinstance((k.get("judge_seconds") or {}).get("lock_wait", 0), (int, float))]
    e2e = "-"
    if r["plain"] and r["wrapped"]:
        e2e = f"{statistics.median(r['wrapped']) / statistics.median(r['plain']):.3f}"
        # slower ('+') or faster ('-') only when no run of one build is as
        # fast (slow) as any of the other's: short programs move 5-15%
        # from run to run ('~': the runs overlap)
        e2e += ("+" if min(r["wrapped"]) > max(r["plain"]) else
                "-" if max(r["wrapped"]) < min(r["plain"]) else "~")
    checks = ",".join(f"{w}:{'/'.join(sorted(set(v)))}" for w, v in sorted(r["checks"].items()))
    best = " ".join(f"{k['kernel']}={k['speedup']:.2f}x" for k in kernels
                    if isinstance(k.get("speedup"), (int, float)) and k.get("speedup", 0) > 0)
    n_l = len(user) if user is not None else None
    got = matches(user, caps) if user is not None else sorted(caps)
    n_c = len(got)
    judged_bases = {base(k["kernel"]) for k in judged}
    n_j = len([n for n in got if base(n) in judged_bases])
    tot_l += n_l or 0
    tot_c += n_c if user is not None else 0
    tot_j += n_j
    fmt = lambda v, f: f.format(v) if isinstance(v, (int, float)) else "-"
    print(f"{name:<20} {fmt(n_l, '{}'):>8} {fmt(len(lib) if lib is not None else None, '{}'):>4} "
          f"{n_c:>8} {n_j:>6} {fmt(cap_s, '{:.1f}'):>6} "
          f"{fmt(tj.get('capture_run_seconds'), '{:.1f}'):>7} "
          f"{fmt(max(firsts) if firsts else None, '{:.1f}'):>7} {fmt(wait, '{:.1f}'):>6} "
          f"{fmt(max(nets) if nets else None, '{:.1f}'):>6} "
          f"{fmt(r['tune_s'], '{:.0f}'):>6} "
          f"{e2e:>7}  {checks:<22} {best}")
if tot_l:
    print(f"user kernels launched {tot_l}; captured {tot_c} ({100 * tot_c / tot_l:.0f}%); "
          f"kernels judged {tot_j} ({100 * tot_j / tot_l:.0f}%)")
