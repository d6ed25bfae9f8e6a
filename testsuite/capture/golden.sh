#!/bin/sh
# golden.sh HN_TOOL SHARE SRC: the instrumented TUs and the replay drivers the
# harness generates for a few fixtures are compared byte for byte with
# testsuite/capture/expected/*.golden (the generator's stderr report too).
# What differs between checkouts is normalised before the comparison: the
# share directory (runtime headers) becomes @SHARE@, the source tree (the
# fixture paths in #line directives and reports) @SRC@, and the path hash
# in capture tags (NAME.cu-1234abcd) @HASH@.
# CL1CC_UPDATE_GOLDEN=1 rewrites the expected files from the current output.
set -u
tool=$1
share=$(cd "$2" && pwd -P)
src=$(cd "$3" && pwd -P)
here=$src/testsuite/capture
expected=$here/expected
fx=$src/testsuite/frontend/fixtures
ex=$src/testsuite/example
jv=$src/testsuite/judge/variants
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail=0

# a path as a basic regular expression
quote() { printf '%s' "$1" | sed 's/[]\/$*.^[]/\\&/g'; }
share_re=$(quote "$share")
src_re=$(quote "$src")
# the share directory may lie inside the source tree (build/...): it goes first
normalise() {
    sed -e "s/$share_re/@SHARE@/g" -e "s/$src_re/@SRC@/g" \
        -e 's/\("[A-Za-z0-9_.+-]*\.cu\)-[0-9a-f]\{8\}"/\1-@HASH@"/g' "$1"
}

# check NAME: compare $work/NAME.out and NAME.report with the expected files
# (a report with no expected file is expected to be empty)
check() {
    for part in out report; do
        case $part in out) golden=$expected/$1.golden ;; report) golden=$expected/$1.report.golden ;; esac
        normalise "$work/$1.$part" >"$work/$1.$part.norm"
        if [ "${CL1CC_UPDATE_GOLDEN:-0}" = 1 ]; then
            mkdir -p "$expected"
            if [ $part = report ] && [ ! -s "$work/$1.$part.norm" ]; then
                rm -f "$golden"
            else
                cp "$work/$1.$part.norm" "$golden"
                echo "updated: ${golden#"$src"/}"
            fi
            continue
        fi
        if [ $part = report ] && [ ! -f "$golden" ]; then
            golden=/dev/null
        elif [ ! -f "$golden" ]; then
            echo "FAIL: $1: no expected file ${golden#"$src"/} (CL1CC_UPDATE_GOLDEN=1 writes it)"; fail=1
            continue
        fi
        if cmp -s "$golden" "$work/$1.$part.norm"; then
            echo "ok: $1 ($part) matches"
        else
            echo "FAIL: $1 ($part) differs from ${golden#"$src"/}:"
            diff -u "$golden" "$work/$1.$part.norm" | head -40
            fail=1
        fi
    done
}

# instrument NAME FILE
instrument() {
    if ! "$tool" instrument "$2" "$share/runtime/cl1cc_capture.cuh" >"$work/$1.out" 2>"$work/$1.report"; then
        echo "FAIL: instrument $1: $(cat "$work/$1.report")"; fail=1; return
    fi
    check "$1"
}

# replay NAME FILE KERNEL VARIANT...
replay() {
    name=$1 file=$2 kernel=$3
    shift 3
    if ! "$tool" replay "$file" "$kernel" "$share/runtime/cl1cc_replay.cuh" "$@" >"$work/$name.out" 2>"$work/$name.report"; then
        echo "FAIL: replay $name: $(cat "$work/$name.report")"; fail=1; return
    fi
    check "$name"
}

instrument instrument_namespaces "$fx/namespaces.cu"
instrument instrument_multi_shared_device "$fx/multi_shared_device.cu"
instrument instrument_macros "$fx/macros.cu"
instrument instrument_vector_scale "$ex/vector_scale.cu"
instrument instrument_template_one "$here/fixtures/template_one.cu"
instrument instrument_template_two "$here/fixtures/template_two.cu"
instrument instrument_macro_launch "$here/fixtures/macro_launch.cu"
instrument instrument_template_deduced "$here/fixtures/template_deduced.cu"
instrument instrument_header_kernel_a "$fx/header_kernel_a.cu"
instrument instrument_header_kernel_b "$fx/header_kernel_b.cu"
replay replay_vector_scale_scale_clamp "$ex/vector_scale.cu" scale_clamp \
    "$jv/scale_clamp.correct.cu" "$jv/scale_clamp.caches.cu"
replay replay_vector_scale_row_sums "$ex/vector_scale.cu" row_sums "$jv/row_sums.correct_unrolled.cu"
replay replay_namespaces_bump "$fx/namespaces.cu" outer::inner::bump "$here/variants/bump_twice.cu"
# a template kernel: a row per captured instantiation
replay replay_template_two_scale "$here/fixtures/template_two.cu" tk::scale \
    "instance=tk::scale<128, float>" "instance=tk::scale<256, float>" "$here/variants/scale_template_guarded.cu"
replay replay_template_one_add_one "$here/fixtures/template_one.cu" add_one "instance=add_one<256>"
# instantiations deduced inside function templates, as the captures name them
replay replay_template_deduced_scale "$here/fixtures/template_deduced.cu" dk::scale \
    "instance=dk::scale<float, 128>" "instance=dk::scale<double, 128>"
# a kernel that uses a __device__ variable (and its device function a
# __constant__ one): the driver's table of the variables a capture restores
replay replay_multi_shared_device_squares "$fx/multi_shared_device.cu" squares "$here/variants/squares_guarded.cu"
replay replay_multi_shared_device_apply "$fx/multi_shared_device.cu" apply
# a kernel of a header: its variants at the end of the TU that includes it
replay replay_header_kernel_b_scale_all "$fx/header_kernel_b.cu" scale_all "$here/variants/scale_all_restrict.cu"
exit $fail
