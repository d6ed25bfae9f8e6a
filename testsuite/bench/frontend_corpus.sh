#!/bin/bash
# frontend_corpus.sh [manifest|inspect] [OPTIONS]: the frontend (`cl1cc inspect`)
# against a real-world corpus (issue #27): every TU nvcc 13 compiles for sm_90
# out of HeCBench's src/*-cuda and cuda-samples v13's non-graphics samples.
#
#   manifest  finds each candidate TU's nvcc command, runs `nvcc -c` on it (nice,
#             300 s timeout, 2 at a time) and writes a manifest TSV (dir, tu,
#             flags for cl1cc, nvcc seconds, ok|fail|skip|nocmd, note); results of the
#             existing manifest or of an interrupted run are reused for the same dir,
#             tu and flags (only new or changed commands compile) unless --refresh.
#   inspect   (default when the manifest exists) runs `cl1cc inspect TU --summary
#             -- FLAGS` from the TU's dir for every TU nvcc compiled (120 s timeout:
#             a crash or hang is a failure), compares its kernels and launches with
#             the TU's source text, prints the table and writes per-TU TSV (--out).
#
# Options: --corpus DIR (default /work/corpus; holds hecbench/src and cuda-samples)
#   --manifest FILE (default CORPUS/manifest.tsv)  --refresh  --cl1cc PATH (or $CL1CC;
#   default build/release/bin/cl1cc of this repo)  --out FILE (default
#   CORPUS/inspect-DATE.tsv)  -j N (inspect jobs, default 2)  --filter REGEX (dir/tu)
#   --cache DIR (PCH cache kept across runs; default a fresh one per run, so the
#   parse times include building each flag set's PCH once, as a first build would).
#
# Candidates and flags:
# - HeCBench: in each src/NAME-cuda with a Makefile, `make -n -B ARCH=sm_90`; every
#   nvcc line (continuations joined, `make -C` directories followed) with a .cu input
#   gives one TU per .cu input, with that line's flags minus -c/-o X/-l/-L/other inputs
#   (-dc becomes -rdc=true; a line that compiles and links is compiled with -c).
#   Arch values are forced to sm_90/compute_90 (some Makefiles hard-code an arch
#   nvcc 13 dropped, ans-cuda spells sm_sm_90) and -arch=sm_90 is added when the line
#   has none. The first command of a (dir, tu) wins. Directories without a Makefile
#   or whose make -n gives no nvcc -c of a .cu are listed as nocmd.
# - cuda-samples: every .cu under Samples/, its sample being the nearest directory
#   with a CMakeLists.txt; compiled as `nvcc -O3 -arch=sm_90 -std=c++17 -ICommon
#   -ISAMPLE [-ISAMPLE/inc] [--extended-lambda] [-rdc=true]` from the .cu's directory
#   (the last two when the sample's CMakeLists asks for them). Skipped ("non-graphics"
#   rule): a sample any of whose files includes a GL/GLES/GLFW/GLUT/EGL/Vulkan/D3D/
#   DXGI/NvSci/VDPAU header (or helper_gl.h, rendercheck_*.h, cuda_gl_interop.h,
#   cudaEGL.h), and a sample linking CUDA::nvrtc (its .cu are NVRTC's input at run time).
#
# Counting (grep-level, per TU and the project headers it includes): comments and
# string literals removed; conditionals decided only for `#if 0`/`#if 1` and for
# #ifdef/#ifndef/#if [!]defined(X) where X (no leading _) appears in no -D and no
# #define of those files; every other branch is kept. Project headers: #include
# "..." resolved against the including file's dir then the -I dirs, <...> against
# the -I dirs, and -include files, transitively, kept only if under the corpus dir
# (CUDA and system headers never count). A kernel definition is a kept `__global__`
# outside a preprocessor line followed by `{` before any `;`; a launch site is a
# kept `<<<` (one per #define that holds one). "Read with all kernels": exit 0 and
# kernels found >= definitions. The parse-time ratio is inspect seconds / nvcc
# seconds (both wall time under nice, up to 2 jobs at once: noisy on a shared machine).
set -u
self=$(readlink -f "$0")
repo=$(cd "$(dirname "$self")/../.." && pwd)
nvcc=${NVCC:-/usr/local/cuda/bin/nvcc}
now() { date +%s.%N; }

# ---- internal: one nvcc compile, one manifest row appended to $FC_PART -------------
if [ "${1:-}" = _nvcc ]; then
    IFS=$'\t' read -r dir tu flags _ <<<"$2"
    tmp=$(mktemp -d)
    cd "$dir" || exit 0
    eval "set -- $flags"
    t0=$(now)
    nice -n 10 timeout 300 "$nvcc" "$@" -c "$tu" -o "$tmp/o.o" >"$tmp/log" 2>&1
    rc=$?
    t1=$(now)
    secs=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.3f", b - a }')
    if [ $rc = 0 ]; then st=ok note=""
    elif [ $rc = 124 ]; then st=fail note="timeout (300 s)"
    else st=fail; note=$(grep -m1 -E 'error|fatal' "$tmp/log" || head -n1 "$tmp/log"); fi
    note=$(printf '%s' "$note" | tr '\t\r' '  ' | cut -c1-300)
    printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$dir" "$tu" "$flags" "$secs" "$st" "$note" >>"$FC_PART"
    rm -rf "$tmp"
    exit 0
fi

# ---- internal: one cl1cc inspect, one raw row appended to $FC_RAW ------------------
if [ "${1:-}" = _inspect ]; then
    IFS=$'\t' read -r dir tu flags _ <<<"$2"
    tmp=$(mktemp -d)
    cd "$dir" || exit 0
    eval "set -- $flags"
    t0=$(now)
    nice -n 10 timeout 120 "$FC_CL1CC" inspect "$tu" --summary -- "$@" >"$tmp/out" 2>"$tmp/err"
    rc=$?
    t1=$(now)
    secs=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.3f", b - a }')
    line=$(grep -m1 '^file .*: [0-9]* kernels, [0-9]* launches' "$tmp/out")
    k=$(printf '%s' "$line" | sed -n 's/^file .*: \([0-9]*\) kernels, \([0-9]*\) launches.*/\1/p')
    l=$(printf '%s' "$line" | sed -n 's/^file .*: \([0-9]*\) kernels, \([0-9]*\) launches.*/\2/p')
    if [ $rc = 124 ]; then err="timeout (120 s)"
    elif [ $rc -gt 128 ]; then err="killed by signal $((rc - 128))"
    elif [ $rc != 0 ]; then err=$(grep -m1 -E 'error|fatal' "$tmp/err" || head -n1 "$tmp/err")
    elif [ -z "$line" ]; then err="no summary line"
    else err=""; fi
    err=$(printf '%s' "$err" | tr '\t\r' '  ' | cut -c1-300)
    printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$dir" "$tu" "$rc" "$secs" "${k:--}" "${l:--}" "$err" >>"$FC_RAW"
    rm -rf "$tmp"
    exit 0
fi

# ---- the Python half: candidates (phase 1) and the report (phase 2) ---------------
read -r -d '' PY <<'EOF'
import os, re, shlex, subprocess, sys, statistics, collections

ARCH_OPTS = {'-arch', '--gpu-architecture', '-code', '--gpu-code', '-gencode', '--generate-code'}
VALUE_OPTS = ARCH_OPTS | {'-I', '-D', '-U', '-isystem', '-include', '-x', '-Xcompiler', '-Xptxas',
    '-Xcudafe', '-Xarchive', '-ccbin', '-std', '-maxrregcount', '-t', '--threads', '--compiler-bindir',
    '--include-path', '--pre-include', '--define-macro', '--undefine-macro', '--system-include', '--x',
    '--compiler-options', '--ptxas-options', '--std', '-rdc', '--relocatable-device-code', '-m',
    '--machine', '-Werror', '-diag-suppress', '--diag-suppress', '-Xfatbin', '-idirafter',
    '-default-stream', '--default-stream', '-cudart', '--cudart', '-cudadevrt', '--cudadevrt',
    '-ftz', '--ftz', '-prec-div', '--prec-div', '-prec-sqrt', '--prec-sqrt', '-fmad', '--fmad',
    '-maxrregcount', '--maxrregcount', '-keep-dir', '--keep-dir', '-split-compile', '--split-compile'}
INPUT_EXT = ('.cu', '.c', '.cc', '.cpp', '.cxx', '.C', '.o', '.obj', '.a', '.so', '.lib', '.ptx',
    '.cubin', '.fatbin', '.f', '.f90', '.s', '.S')
DROP_VALUE = {'-o', '--output-file', '-l', '--library', '-L', '--library-path', '-Xlinker',
    '--linker-options', '-Xnvlink', '--nvlink-options', '-odir', '--output-directory', '-MF', '-MT'}
DROP = {'-c', '--compile', '-shared', '--shared', '-link', '--link', '-lib', '--lib', '-MD', '-MMD'}
SEPS = {'&&', '||', ';', '|', '>', '>>', '2>&1', '&', '2>', '<'}

def fix_arch(v):
    v = v.replace('sm_sm_', 'sm_').replace('compute_sm_', 'compute_')
    v = re.sub(r'sm_\d+[af]?', 'sm_90', v)
    return re.sub(r'compute_\d+[af]?', 'compute_90', v)

def parse_nvcc(args):
    """(flags, cu inputs) of one nvcc argument list."""
    flags, cus, has_arch, i = [], [], False, 0
    while i < len(args):
        a = args[i]
        if a in DROP_VALUE:
            i += 2; continue
        if a in DROP or re.match(r'(-o|-l|-L|--output-file=|--library=|--library-path=|-Wl,)', a):
            i += 1; continue
        if a in ('-dc', '--device-c'):
            flags.append('-rdc=true'); i += 1; continue
        if a in VALUE_OPTS and i + 1 < len(args):
            v = args[i + 1]
            if a in ARCH_OPTS:
                v, has_arch = fix_arch(v), True
            flags += [a, v]; i += 2; continue
        if a.startswith('-'):
            if re.match(r'(-arch|--gpu-architecture|-code|--gpu-code|-gencode|--generate-code)=', a):
                a, has_arch = fix_arch(a), True
            flags.append(a); i += 1; continue
        if a.endswith('.cu'):
            cus.append(a)
        elif not a.endswith(INPUT_EXT):
            flags.append(a)     # the value of an option not listed above
        i += 1
    if not has_arch:
        flags.append('-arch=sm_90')
    return flags, cus

def makefile_rows(d):
    try:
        p = subprocess.run(['make', '-n', '-B', 'ARCH=sm_90'], cwd=d, capture_output=True,
                           text=True, timeout=60, errors='replace')
    except subprocess.TimeoutExpired:
        return [], 'make -n timed out'
    text = re.sub(r'\\\n', ' ', p.stdout + '\n' + p.stderr)
    stack, rows = [d], []
    for line in text.split('\n'):
        m = re.match(r"make\[\d+\]: (Entering|Leaving) directory '(.*)'", line)
        if m:
            if m.group(1) == 'Entering': stack.append(m.group(2))
            elif len(stack) > 1: stack.pop()
            continue
        try:
            toks = shlex.split(line)
        except ValueError:
            continue
        cwd, j = stack[-1], 0
        while j < len(toks):
            if toks[j] == 'cd' and j + 2 < len(toks) and toks[j + 2] == '&&':
                cwd = os.path.normpath(os.path.join(cwd, toks[j + 1])); j += 3; continue
            if os.path.basename(toks[j]) == 'nvcc':
                k = j + 1
                while k < len(toks) and toks[k] not in SEPS: k += 1
                flags, cus = parse_nvcc(toks[j + 1:k])
                rows += [(cwd, cu, flags) for cu in cus]
                j = k; continue
            j += 1
    err = ''
    if p.returncode != 0:
        e = [l for l in p.stderr.split('\n') if '***' in l or 'rror' in l]
        err = 'make -n failed: ' + (e[0] if e else p.stderr.strip().split('\n')[-1]).replace('make: *** ', '')
    return rows, err

GRAPHICS = re.compile(r'#\s*include\s*[<"]([^">]*/)?(GL/|GLES|GLFW|glfw|GLUT|freeglut|vulkan|EGL|'
    r'd3d|D3D|dxgi|nvscibuf|nvscisync|nvsci|cudaEGL|cuda_egl|cuda_gl_interop|cudaGL|cuda_d3d|'
    r'vdpau|cuda_vdpau|helper_gl|rendercheck_)')
SRC_EXT = ('.cu', '.cuh', '.c', '.cpp', '.cc', '.cxx', '.h', '.hpp', '.hxx', '.inl')

def sample_skip(sd):
    cm = open(os.path.join(sd, 'CMakeLists.txt'), errors='replace').read()
    if 'CUDA::nvrtc' in cm:
        return 'skip: NVRTC sample (links CUDA::nvrtc)'
    for root, _, files in os.walk(sd):
        for f in files:
            if f.endswith(SRC_EXT):
                m = GRAPHICS.search(open(os.path.join(root, f), errors='replace').read())
                if m:
                    return 'skip: graphics (%s includes %s...)' % (f, m.group(0)[m.group(0).find(m.group(2)):])
    return ''

def candidates(corpus):
    out = []
    def row(d, tu, flags, st, note):
        out.append('\t'.join([d, tu, shlex.join(flags), '-', st, note.replace('\t', ' ')[:300]]))
    hec = os.path.join(corpus, 'hecbench', 'src')
    for name in sorted(os.listdir(hec)) if os.path.isdir(hec) else []:
        d = os.path.join(hec, name)
        if not name.endswith('-cuda') or not os.path.isdir(d):
            continue
        if not any(os.path.exists(os.path.join(d, m)) for m in ('Makefile', 'makefile', 'GNUmakefile')):
            row(d, '*', [], 'nocmd', 'no Makefile'); continue
        rows, err = makefile_rows(d)
        seen = set()
        for cwd, tu, flags in rows:
            key = os.path.normpath(os.path.join(cwd, tu))
            if key in seen: continue
            seen.add(key)
            row(cwd, tu, flags, 'cand', '')
        if not rows:
            row(d, '*', [], 'nocmd', err or 'make -n prints no nvcc command compiling a .cu')
    sam = os.path.join(corpus, 'cuda-samples')
    common = os.path.join(sam, 'Common')
    skips = {}
    for root, dirs, files in sorted(os.walk(os.path.join(sam, 'Samples'))):
        dirs.sort()
        for f in sorted(files):
            if not f.endswith('.cu'): continue
            sd = root
            while not os.path.exists(os.path.join(sd, 'CMakeLists.txt')) and sd != sam:
                sd = os.path.dirname(sd)
            if sd not in skips: skips[sd] = sample_skip(sd)
            if skips[sd]:
                row(root, f, [], 'skip', skips[sd]); continue
            cm = open(os.path.join(sd, 'CMakeLists.txt'), errors='replace').read()
            flags = ['-O3', '-arch=sm_90', '-std=c++17', '-I' + common, '-I' + sd]
            if os.path.isdir(os.path.join(sd, 'inc')): flags.append('-I' + os.path.join(sd, 'inc'))
            if '--extended-lambda' in cm: flags.append('--extended-lambda')
            if re.search(r'CUDA_SEPARABLE_COMPILATION\s+ON', cm): flags.append('-rdc=true')
            row(root, f, flags, 'cand', '')
    sys.stdout.write('\n'.join(out) + '\n')

# ---------------------------------------------------------------- counting ------
LEX = re.compile(r'//[^\n]*|/\*.*?\*/|"(?:\\.|[^"\\\n])*"|\'(?:\\.|[^\'\\\n])*\'', re.S)
INCLUDE = re.compile(r'^[ \t]*#[ \t]*include[ \t]*([<"])([^>"\n]+)[>"]', re.M)

DIRECTIVE = re.compile(r'#\s*(\w+)\s*(.*)')
DEFINE = re.compile(r'^[ \t]*#[ \t]*define[ \t]+(\w+)', re.M)

_files = {}
def scan(path):
    """(includes, #defined names, logical lines with comments and strings blanked) of a file."""
    if path in _files: return _files[path]
    try: text = open(path, errors='replace').read()
    except OSError: text = ''
    def sub(m):
        s = m.group(0)
        if s.startswith('//'): return ' '
        if s.startswith('/*'): return ' ' + '\n' * s.count('\n')
        return s if keep else s[0] + s[0]
    keep = True
    nocomment = LEX.sub(sub, text)
    keep = False
    code = LEX.sub(sub, text).replace('\\\n', ' ')
    r = ([(m.group(1), m.group(2).strip()) for m in INCLUDE.finditer(nocomment)],
         set(DEFINE.findall(code)), code.split('\n'))
    _files[path] = r
    return r

def cond_of(kind, arg, known):
    """T, F or U (unknown) for #if/#ifdef/#ifndef ARG: only #if 0/1 and names that no
    -D and no #define of the TU's project files mention are decided."""
    def undefined(n): return n not in known and not n.startswith('_')
    if kind == 'ifdef': return 'F' if undefined(arg.split()[0] if arg.split() else '_') else 'U'
    if kind == 'ifndef': return 'T' if undefined(arg.split()[0] if arg.split() else '_') else 'U'
    a = arg.strip()
    if re.fullmatch(r'0+', a): return 'F'
    if re.fullmatch(r'[1-9]\d*', a): return 'T'
    m = re.fullmatch(r'(!?)\s*defined\s*\(?\s*(\w+)\s*\)?', a)
    if m and undefined(m.group(2)): return 'T' if m.group(1) else 'F'
    return 'U'

def count_file(path, known):
    """(kernel definitions, <<< sites) in the lines of path that the conditionals keep."""
    _, _, lines = scan(path)
    stack, active, kept, launches = [], True, [], 0   # frames: (parent active, taken, branch cond)
    for line in lines:
        m = DIRECTIVE.match(line.strip())
        if m and line.lstrip().startswith('#'):
            d, arg = m.group(1), m.group(2)
            if d in ('if', 'ifdef', 'ifndef'):
                c = cond_of(d, arg, known)
                stack.append([active, c, c]); active = active and c != 'F'
            elif d in ('elif', 'else') and stack:
                f = stack[-1]
                taken = f[1]
                c = 'T' if d == 'else' else cond_of('if', arg, known)
                c = 'F' if taken == 'T' else (c if taken == 'F' else ('F' if c == 'F' else 'U'))
                f[1] = 'T' if (taken == 'F' and c == 'T') else ('U' if c != 'F' and taken != 'T' else taken)
                f[2] = c; active = f[0] and c != 'F'
            elif d == 'endif' and stack:
                active = stack.pop()[0]
            elif active:
                launches += line.count('<<<')
            continue
        if active:
            kept.append(line); launches += line.count('<<<')
    body, kernels = '\n'.join(kept), 0
    for m in re.finditer(r'\b__global__\b', body):
        b, s = body.find('{', m.end()), body.find(';', m.end())
        if b >= 0 and (s < 0 or b < s): kernels += 1
    return kernels, launches

def include_dirs(cwd, flags):
    dirs, forced, defs, i = [], [], [], 0
    while i < len(flags):
        a = flags[i]
        v = flags[i + 1] if a in ('-D', '--define-macro') and i + 1 < len(flags) else \
            a[15:] if a.startswith('--define-macro=') else a[2:] if a.startswith('-D') else ''
        defs += [d.split('=')[0] for d in v.split(',') if d]
        for opt, lst in (('-I', dirs), ('--include-path', dirs), ('-include', forced), ('--pre-include', forced)):
            if a == opt and i + 1 < len(flags):
                lst.append(flags[i + 1]); i += 1; break
            if a.startswith(opt + '=') or (opt == '-I' and a.startswith('-I') and len(a) > 2):
                lst.append(a[len(opt) + (1 if a.startswith(opt + '=') else 0):]); break
        i += 1
    return [os.path.normpath(os.path.join(cwd, d)) for d in dirs], forced, defs

def count_tu(corpus, cwd, tu, flags):
    dirs, forced, defs = include_dirs(cwd, flags)
    root = os.path.realpath(corpus) + os.sep
    todo = [os.path.normpath(os.path.join(cwd, tu))]
    for f in forced:
        for base in [cwd] + dirs:
            if os.path.isfile(os.path.join(base, f)): todo.append(os.path.normpath(os.path.join(base, f))); break
    seen = []
    while todo:
        p = todo.pop()
        if p in seen: continue
        seen.append(p)
        for kind, name in scan(p)[0]:
            for base in ([os.path.dirname(p)] if kind == '"' else []) + dirs:
                c = os.path.normpath(os.path.join(base, name))
                if os.path.isfile(c):
                    if os.path.realpath(c).startswith(root): todo.append(c)
                    break
    known = set(defs)
    for p in seen: known |= scan(p)[1]
    counts = [count_file(p, known) for p in seen]
    return sum(k for k, _ in counts), sum(l for _, l in counts)

def cause(err):
    e = re.sub(r'^\S*?(:\d+(:\d+)?:|\(\d+\):)\s*', '', err.strip())
    e = re.sub(r'^cl1cc( inspect)?:\s*', '', e)
    e = re.sub(r'^\S*?:\d+(:\d+)?:\s*', '', e)
    return e or '(no message)'

def report(corpus, manifest, raw, out, filt):
    man = {}
    for line in open(manifest):
        f = line.rstrip('\n').split('\t')
        if len(f) >= 5 and re.search(filt, f[0] + '/' + f[1]): man[(f[0], f[1])] = f
    st = collections.Counter((f[4], '/hecbench/' in f[0]) for f in man.values())
    print('manifest: %d TUs nvcc compiles (%d HeCBench, %d samples), %d nvcc fails (%d, %d);'
          % (st['ok', 1] + st['ok', 0], st['ok', 1], st['ok', 0], st['fail', 1] + st['fail', 0],
             st['fail', 1], st['fail', 0]))
    print('          %d sample .cu skipped by rule, %d HeCBench dirs without an nvcc command\n'
          % (st['skip', 0], st['nocmd', 1]))
    rows = []
    for line in open(raw):
        d, tu, rc, secs, k, l, err = (line.rstrip('\n').split('\t') + [''] * 7)[:7]
        m = man.get((d, tu))
        flags = shlex.split(m[2]) if m else []
        kd, ld = count_tu(corpus, d, tu, flags)
        nv = float(m[3]) if m and m[3] not in ('-', '') else float('nan')
        ok = rc == '0' and k.isdigit()
        st = 'fail' if not ok else ('all' if int(k) >= kd else 'fewer')
        rows.append(dict(corpus='hecbench' if '/hecbench/' in d else 'cuda-samples', dir=d, tu=tu,
            nvcc=nv, rc=rc, secs=float(secs), k=int(k) if k.isdigit() else -1, kd=kd,
            l=int(l) if l.isdigit() else -1, ld=ld, st=st, err=err))
    rows.sort(key=lambda r: (r['dir'], r['tu']))
    with open(out, 'w') as o:
        o.write('corpus\tdir\ttu\tnvcc_s\tinspect_rc\tinspect_s\tratio\tkernels\tglobal_defs\tlaunches\tchevrons\tstatus\terror\n')
        for r in rows:
            o.write('%s\t%s\t%s\t%.3f\t%s\t%.3f\t%.3f\t%d\t%d\t%d\t%d\t%s\t%s\n' % (r['corpus'], r['dir'], r['tu'],
                r['nvcc'], r['rc'], r['secs'], r['secs'] / r['nvcc'] if r['nvcc'] > 0 else float('nan'),
                r['k'], r['kd'], r['l'], r['ld'], r['st'], r['err']))
    def pct(a, b): return '%5.1f%%' % (100.0 * a / b) if b else '   - '
    print('%-32s %10s %10s %10s' % ('', 'all', 'hecbench', 'samples'))
    groups = [rows, [r for r in rows if r['corpus'] == 'hecbench'], [r for r in rows if r['corpus'] != 'hecbench']]
    def line(label, f):
        print('%-32s %10s %10s %10s' % ((label,) + tuple(f(g) for g in groups)))
    line('TUs nvcc compiles', lambda g: len(g))
    line('TUs read (exit 0)', lambda g: sum(r['st'] != 'fail' for r in g))
    line('TUs read with all their kernels', lambda g: sum(r['st'] == 'all' for r in g))
    line('  share (target >= 99%)', lambda g: pct(sum(r['st'] == 'all' for r in g), len(g)))
    line('kernels found', lambda g: sum(max(r['k'], 0) for r in g))
    line('__global__ definitions', lambda g: sum(r['kd'] for r in g))
    line('  found/defined, TUs read', lambda g: '%d/%d' % (sum(r['k'] for r in g if r['st'] != 'fail'),
                                                         sum(r['kd'] for r in g if r['st'] != 'fail')))
    line('launches found', lambda g: sum(max(r['l'], 0) for r in g))
    line('<<< sites', lambda g: sum(r['ld'] for r in g))
    line('  found/sites, TUs read', lambda g: '%d/%d' % (sum(r['l'] for r in g if r['st'] != 'fail'),
                                                        sum(r['ld'] for r in g if r['st'] != 'fail')))
    def tot(g):
        g = [r for r in g if r['nvcc'] > 0]
        return '%.3f' % (sum(r['secs'] for r in g) / sum(r['nvcc'] for r in g)) if g else '-'
    def med(g):
        g = [r['secs'] / r['nvcc'] for r in g if r['nvcc'] > 0]
        return '%.3f' % statistics.median(g) if g else '-'
    line('parse-time ratio, total', tot)
    line('parse-time ratio, median', med)
    line('inspect seconds, total', lambda g: '%.0f' % sum(r['secs'] for r in g))
    line('nvcc seconds, total', lambda g: '%.0f' % sum(r['nvcc'] for r in g if r['nvcc'] > 0))
    fails = [r for r in rows if r['st'] == 'fail']
    if fails:
        print('\nfailures by cause (%d TUs):' % len(fails))
        by = collections.defaultdict(list)
        for r in fails: by[cause(r['err'])].append(r)
        for c, rs in sorted(by.items(), key=lambda kv: (-len(kv[1]), kv[0])):
            print('%5d  %s' % (len(rs), c))
            for r in rs[:8]:
                print('         %s/%s' % (os.path.relpath(r['dir'], corpus), r['tu']))
            if len(rs) > 8: print('         ... and %d more' % (len(rs) - 8))
    fewer = [r for r in rows if r['st'] == 'fewer']
    if fewer:
        print('\nread, but fewer kernels than __global__ definitions (%d TUs):' % len(fewer))
        for r in fewer:
            print('  %-60s %d of %d' % (os.path.relpath(os.path.join(r['dir'], r['tu']), corpus), r['k'], r['kd']))
    short = [r for r in rows if r['st'] != 'fail' and r['l'] < r['ld']]
    if short:
        print('\nread, but fewer launches than <<< sites (%d TUs):' % len(short))
        for r in short:
            print('  %-60s %d of %d' % (os.path.relpath(os.path.join(r['dir'], r['tu']), corpus), r['l'], r['ld']))
    nf = collections.Counter(cause(f[5] if len(f) > 5 else '') for f in man.values() if f[4] == 'fail')
    if nf:
        print('\nnvcc failures by cause (not counted above; the 15 commonest of %d causes):' % len(nf))
        for c, n in nf.most_common(15): print('%5d  %s' % (n, c[:150]))
    print('\nper-TU results: %s' % out)

if __name__ == '__main__':
    if sys.argv[1] == 'candidates': candidates(sys.argv[2])
    else: report(*sys.argv[2:7])
EOF

# ---- options -----------------------------------------------------------------------
phase="" corpus=/work/corpus manifest="" refresh=0 cl1cc=${CL1CC:-$repo/build/release/bin/cl1cc}
out="" jobs=2 filter="" cache=""
while [ $# -gt 0 ]; do
    case $1 in
    manifest|inspect) phase=$1 ;;
    --corpus) corpus=$2; shift ;;
    --manifest) manifest=$2; shift ;;
    --refresh) refresh=1 ;;
    --cl1cc) cl1cc=$2; shift ;;
    --out) out=$2; shift ;;
    -j) jobs=$2; shift ;;
    --filter) filter=$2; shift ;;
    --cache) cache=$2; shift ;;
    -h|--help) sed -n '2,/^set -u/p' "$self" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
    *) echo "frontend_corpus.sh: unknown argument $1" >&2; exit 2 ;;
    esac
    shift
done
corpus=$(readlink -f "$corpus")
manifest=${manifest:-$corpus/manifest.tsv}
[ -n "$phase" ] || { [ -s "$manifest" ] && [ $refresh = 0 ] && phase=inspect || phase=manifest; }

keep() { if [ -n "$filter" ]; then awk -F'\t' -v re="$filter" '($1 "/" $2) ~ re'; else cat; fi; }

if [ $phase = manifest ]; then
    part=$manifest.part
    mkdir -p "$(dirname "$manifest")"
    if [ $refresh = 1 ]; then rm -f "$manifest" "$part"; fi
    work=$(mktemp -d)
    trap 'rm -rf "$work"' EXIT
    t0=$(now)
    python3 -c "$PY" candidates "$corpus" >"$work/cands"
    # results so far (the manifest, then an interrupted run's), keyed by dir, tu and flags
    cat "$manifest" "$part" 2>/dev/null | awk -F'\t' '$5 == "ok" || $5 == "fail"' >"$work/known"
    awk -F'\t' 'FILENAME == ARGV[1] { done[$1 FS $2 FS $3] = 1; next }
                $5 == "cand" && !done[$1 FS $2 FS $3]' "$work/known" "$work/cands" | keep >"$work/todo"
    echo "$(grep -c $'\tcand\t' "$work/cands") candidate TUs ($(grep -c $'\tskip\t' "$work/cands") .cu" \
         "skipped by rule, $(grep -c $'\tnocmd\t' "$work/cands") dirs without a command);" \
         "$(wc -l <"$work/todo") to compile, the others' results reused"
    export FC_PART=$part NVCC=$nvcc
    tr '\n' '\0' <"$work/todo" | xargs -0 -r -n1 -P2 bash "$self" _nvcc
    cat "$work/known" "$part" 2>/dev/null >"$work/results"
    awk -F'\t' 'FILENAME == ARGV[1] { r[$1 FS $2 FS $3] = $0; next }
                $5 != "cand" { print; next } ($1 FS $2 FS $3) in r { print r[$1 FS $2 FS $3] }' \
        "$work/results" "$work/cands" | sort -t$'\t' -k1,1 -k2,2 >"$manifest.tmp"
    mv "$manifest.tmp" "$manifest" && rm -f "$part"
    echo "manifest: $manifest ($(grep -c $'\tok\t' "$manifest") ok, $(grep -c $'\tfail\t' "$manifest") fail);" \
         "$(awk -v a="$t0" -v b="$(now)" 'BEGIN { printf "%.0f", b - a }') s"
    exit 0
fi

[ -s "$manifest" ] || { echo "no manifest $manifest: run the manifest phase first" >&2; exit 2; }
cl1cc=$(readlink -f "$cl1cc")
[ -x "$cl1cc" ] || { echo "no cl1cc at $cl1cc" >&2; exit 2; }
out=${out:-$corpus/inspect-$(date +%Y%m%d-%H%M%S).tsv}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export FC_CL1CC=$cl1cc FC_RAW=$work/raw CL1CC_CACHE_DIR=${cache:-$work/cache}
awk -F'\t' '$5 == "ok"' "$manifest" | keep >"$work/todo"
: >"$work/raw"
echo "inspect: $(wc -l <"$work/todo") TUs with $cl1cc, $jobs at a time" >&2
t0=$(now)
tr '\n' '\0' <"$work/todo" | xargs -0 -r -n1 -P"$jobs" bash "$self" _inspect
echo "inspect took $(awk -v a="$t0" -v b="$(now)" 'BEGIN { printf "%.0f", b - a }') s" >&2
python3 -c "$PY" report "$corpus" "$manifest" "$work/raw" "$out" "$filter"
