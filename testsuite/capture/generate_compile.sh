#!/bin/sh
# generate_compile.sh HN_TOOL SHARE FIXTURES: the instrumented TUs and the
# replay drivers the harness generates compile with nvcc (no GPU needed),
# keep the user's line numbers, and instrument launches made by macros where
# the kernel is a plain identifier in the macro's expansion (the invocation
# replaced by the expansion), reporting the others.
set -u
tool=$1 share=$2 fx=$3
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail=0
for name in single multi_shared_device namespaces uses_header lambdas macros; do
    if ! "$tool" instrument "$fx/$name.cu" "$share/runtime/cl1cc_capture.cuh" >"$work/$name.cu" 2>"$work/$name.report"; then
        echo "FAIL: instrument $name: $(cat "$work/$name.report")"; fail=1; continue
    fi
    if ! nvcc -arch=sm_90 -c "$work/$name.cu" -I"$fx" -o "$work/$name.o" 2>"$work/$name.err"; then
        echo "FAIL: instrumented $name does not compile:"; head -5 "$work/$name.err"; fail=1; continue
    fi
    echo "ok: instrumented $name compiles ($(grep -c 'cl1cc capture of launch' "$work/$name.cu") launches)"
done
# template kernels: every launch whose instantiation is named (written, or
# deduced: outside a function template by the frontend, inside one by the
# kernel's twin) is instrumented, and compiles
for name in template_one template_two template_deduced macro_launch; do
    if ! "$tool" instrument "$here/fixtures/$name.cu" "$share/runtime/cl1cc_capture.cuh" >"$work/$name.cu" 2>"$work/$name.report"; then
        echo "FAIL: instrument $name: $(cat "$work/$name.report")"; fail=1; continue
    fi
    if ! nvcc -arch=sm_90 -c "$work/$name.cu" -I"$here/fixtures" -o "$work/$name.o" 2>"$work/$name.err"; then
        echo "FAIL: instrumented $name does not compile:"; head -5 "$work/$name.err"; fail=1; continue
    fi
    echo "ok: instrumented $name compiles ($(grep -c 'cl1cc capture of launch' "$work/$name.cu") launches)"
done
# every launch of template_deduced.cu is instrumented through a twin
# replay drivers of kernels that use __constant__ and __device__ variables:
# the table of variables a capture restores compiles, and names them
for k in apply:weights squares:hits; do
    name=${k%%:*}
    if "$tool" replay "$fx/multi_shared_device.cu" "$name" "$share/runtime/cl1cc_replay.cuh" \
        >"$work/replay_$name.cu" 2>"$work/replay_$name.err" &&
       nvcc -arch=sm_90 -I"$fx" "$work/replay_$name.cu" -o "$work/replay_$name" 2>>"$work/replay_$name.err" &&
       grep -q "{\"${k#*:}\", (const void \*)&::${k#*:}, sizeof ::${k#*:}}" "$work/replay_$name.cu"; then
        echo "ok: the replay driver of $name restores ${k#*:} and compiles"
    else
        echo "FAIL: replay driver of $name:"; head -5 "$work/replay_$name.err"; fail=1
    fi
done
if [ "$(grep -c 'cl1cc capture of launch' "$work/template_deduced.cu")" = 4 ] &&
   [ "$(grep -c 'cl1cc twin of launch' "$work/template_deduced.cu")" = 4 ] && [ ! -s "$work/template_deduced.report" ]; then
    echo "ok: template_deduced.cu: 4 deduced launches in function templates instrumented"
else
    echo "FAIL: template_deduced.cu: $(cat "$work/template_deduced.report")"; fail=1
fi
# deduced launches in function templates: a kernel of an anonymous
# namespace, a lambda argument, a class template's member and a generic
# lambda are instrumented and compile; what no twin can name is reported
cat >"$work/deduced_edges.cu" <<'EOF2'
#include <cuda_runtime.h>
namespace {
template <typename T> __global__ void anon_k(T *p, int n) { if (n) p[0] = T(); }
}
template <typename T, typename = void> __global__ void unnamed_k(T *p) {}
template <typename T, int B = 64> __global__ void nodef_k(T *p);
template <typename T, int B> __global__ void nodef_k(T *p) { p[0] = T(B); }
template <typename T> __global__ void late_k(T *p);
template <typename F> __global__ void apply_k(int n, F f) { f(n); }
template <typename T> struct holder {
    void go(T *p) { anon_k<<<1, 1>>>(p, 1); }
};
template <typename T>
void run(T *p, int n)
{
    anon_k<<<1, 1>>>(p, n);
    unnamed_k<<<1, 1>>>(p);
    nodef_k<<<1, 1>>>(p);
    late_k<<<1, 1>>>(p);
    apply_k<<<1, 1>>>(n, [=] __device__ (int i) { p[0] = T(i); });
    auto g = [&](auto q) { anon_k<<<1, 1>>>(q, n); };
    g(p);
    holder<T>().go(p);
}
template <typename T> __global__ void late_k(T *p) { p[0] = T(); }
int main()
{
    run((float *)0, 1);
    run((double *)0, 2);
    return 0;
}
EOF2
r=$work/deduced_edges.report
if "$tool" instrument "$work/deduced_edges.cu" "$share/runtime/cl1cc_capture.cuh" >"$work/deduced_edges_inst.cu" 2>"$r" &&
   nvcc -arch=sm_90 --extended-lambda -c "$work/deduced_edges_inst.cu" -o "$work/deduced_edges.o" 2>"$work/deduced_edges.err" &&
   [ "$(grep -c 'cl1cc capture of launch' "$work/deduced_edges_inst.cu")" = 4 ] &&
   grep -q "launch of unnamed_k not_captured: an unnamed template parameter" "$r" &&
   grep -q "launch of nodef_k not_captured: a template parameter neither deduced nor defaulted in the kernel's definition" "$r" &&
   grep -q "launch of late_k not_captured: its template arguments are deduced in a function template before the kernel's definition" "$r" &&
   [ "$(wc -l <"$r")" = 3 ]; then
    echo "ok: deduced launches: anonymous namespace, lambda argument, member, generic lambda instrumented; 3 reported"
else
    echo "FAIL: deduced launch edges:"; cat "$r"; head -5 "$work/deduced_edges.err"; fail=1
fi
# the instantiation a capture records, as the host compiler names it (run
# on the host: no CUDA call), also deduced inside a function template
# through a twin as capture declares it
cat >"$work/instance.cu" <<'EOF2'
#include "cl1cc_capture.cuh"
namespace tk { template <int B, typename T> __global__ void scale(T *, T, int) {} }
template <typename T> __global__ void fill(const T *, int) {}
template <typename T> const char *in_template() { return cl1cc_capture::instance_text<decltype(&fill<T>), &fill<T>>(); }
namespace dk { constexpr int kB = 128; template <typename T, int B = kB> __global__ void scale(const T *, T *, T, int) {}
template <typename T, int B = kB> ::cl1cc_capture::kernel_tag<decltype(&scale<T, B>), &scale<T, B>> twin(const T *, T *, T, int); }
template <typename T> const char *deduced(T *p, T a) { typedef decltype(::dk::twin((p), (p), (a), (1))) t; return cl1cc_capture::instance_text<typename t::type, t::fn>(); }
int main()
{
    char out[256];
    cl1cc_capture::instance_name(deduced((float *)0, 1.0f), out, sizeof out);
    printf("%s\n", out);
    cl1cc_capture::instance_name(deduced((double *)0, 1.0), out, sizeof out);
    printf("%s\n", out);
    cl1cc_capture::instance_name(cl1cc_capture::instance_text<decltype(&tk::scale<128, float>), &tk::scale<128, float>>(), out, sizeof out);
    printf("%s\n", out);
    cl1cc_capture::instance_name(in_template<unsigned>(), out, sizeof out);
    printf("%s\n", out);
    return 0;
}
EOF2
if nvcc -arch=sm_90 -I"$share/runtime" "$work/instance.cu" -o "$work/instance" 2>"$work/instance.err" &&
   [ "$("$work/instance")" = "$(printf 'dk::scale<float, 128>\ndk::scale<double, 128>\ntk::scale<128, float>\nfill<unsigned int>')" ]; then
    echo "ok: a capture names its instantiation"
else
    echo "FAIL: instantiation names: $("$work/instance" 2>&1) $(head -3 "$work/instance.err")"; fail=1
fi
# launches by macros: instrumented in the macro's expansion where the kernel
# is a plain identifier there; the others reported and left as they were
if grep -q 'cl1_l("macros.cu-[0-9a-f]*", "fill_zero", 0' "$work/macros.cu" &&
   ! grep -q "LAUNCH(fill_zero, p)" "$work/macros.cu" && ! grep -q "not_captured" "$work/macros.report"; then
    echo "ok: macros.cu: LAUNCH(fill_zero, p) is instrumented in its expansion"
else
    echo "FAIL: macros.cu's macro launches: $(cat "$work/macros.report")"; fail=1
fi
r=$work/macro_launch.report
if [ "$(grep -c 'cl1cc capture of launch' "$work/macro_launch.cu")" = 3 ] &&
   grep -q "launch of bump_all not_captured: launched from a macro that uses # or ##" "$r" &&
   [ "$(grep -c "launch of fill not_captured: launched from a macro" "$r")" = 3 ] &&
   grep -q "launch of scale not_captured: launched from a macro" "$r" &&
   grep -q "^    LAUNCH_PASTED(bump, n);$" "$work/macro_launch.cu" && grep -q "^    BOTH(n);$" "$work/macro_launch.cu"; then
    echo "ok: macro_launch.cu: 3 macro launches instrumented, the others reported and left alone"
else
    echo "FAIL: macro_launch.cu:"; cat "$r"; fail=1
fi
# line numbers: a warning after an instrumented launch still names line 19
sed 's/^    printf("done\\n");/    int unused_after_launch = 0;/' "$fx/single.cu" >"$work/lines.cu"
if ! "$tool" instrument "$work/lines.cu" "$share/runtime/cl1cc_capture.cuh" >"$work/lines_inst.cu" 2>"$work/lines.err" ||
   ! nvcc -arch=sm_90 -c "$work/lines_inst.cu" -o "$work/lines.o" 2>"$work/lines.err"; then
    echo "FAIL: the copy with a warning did not build:"; head -3 "$work/lines.err"; fail=1
elif grep -q "lines.cu(19): warning" "$work/lines.err"; then
    echo "ok: diagnostics keep the user's file and line"
else
    echo "FAIL: diagnostics lost the line:"; cat "$work/lines.err"; fail=1
fi
# a replay driver with one variant builds and links
if "$tool" replay "$fx/single.cu" saxpy "$share/runtime/cl1cc_replay.cuh" "$here/variants/saxpy_reordered.cu" >"$work/driver.cu" 2>"$work/driver.err" &&
   nvcc -arch=sm_90 "$work/driver.cu" -I"$fx" -o "$work/driver" 2>>"$work/driver.err"; then
    echo "ok: replay driver for saxpy builds"
else
    echo "FAIL: replay driver:"; head -5 "$work/driver.err"; fail=1
fi
# a template kernel's driver (a row per instantiation) and a header kernel's
# driver build and link
if "$tool" replay "$here/fixtures/template_two.cu" tk::scale "$share/runtime/cl1cc_replay.cuh" \
       "instance=tk::scale<128, float>" "instance=tk::scale<256, float>" \
       "$here/variants/scale_template_guarded.cu" >"$work/tdriver.cu" 2>"$work/tdriver.err" &&
   nvcc -arch=sm_90 "$work/tdriver.cu" -o "$work/tdriver" 2>>"$work/tdriver.err"; then
    echo "ok: replay driver for the template tk::scale builds"
else
    echo "FAIL: template replay driver:"; head -5 "$work/tdriver.err"; fail=1
fi
if "$tool" replay "$here/fixtures/template_deduced.cu" dk::scale "$share/runtime/cl1cc_replay.cuh" \
       "instance=dk::scale<float, 128>" "instance=dk::scale<double, 128>" >"$work/ddriver.cu" 2>"$work/ddriver.err" &&
   nvcc -arch=sm_90 "$work/ddriver.cu" -I"$here/fixtures" -o "$work/ddriver" 2>>"$work/ddriver.err"; then
    echo "ok: replay driver for the instantiations of dk::scale deduced in function templates builds"
else
    echo "FAIL: deduced template replay driver:"; head -5 "$work/ddriver.err"; fail=1
fi
if "$tool" replay "$fx/header_kernel_b.cu" scale_all "$share/runtime/cl1cc_replay.cuh" \
       "$here/variants/scale_all_restrict.cu" >"$work/hdriver.cu" 2>"$work/hdriver.err" &&
   nvcc -arch=sm_90 "$work/hdriver.cu" -I"$fx" -o "$work/hdriver" 2>>"$work/hdriver.err"; then
    echo "ok: replay driver for the header kernel scale_all builds"
else
    echo "FAIL: header kernel replay driver:"; head -5 "$work/hdriver.err"; fail=1
fi
# a template kernel with no instantiation is refused
if "$tool" replay "$here/fixtures/template_two.cu" tk::scale "$share/runtime/cl1cc_replay.cuh" \
       "$here/variants/scale_template_guarded.cu" >/dev/null 2>&1; then
    echo "FAIL: a template driver without instantiations was made"; fail=1
else
    echo "ok: a template driver needs its instantiations"
fi
# a variant without the kernel is refused
printf '__device__ int nothing() { return 0; }\n' >"$work/bad_variant.cu"
if "$tool" replay "$fx/single.cu" saxpy "$share/runtime/cl1cc_replay.cuh" "$work/bad_variant.cu" >/dev/null 2>&1; then
    echo "FAIL: a variant with no kernel was accepted"; fail=1
else
    echo "ok: a variant with no kernel is refused"
fi
exit $fail
