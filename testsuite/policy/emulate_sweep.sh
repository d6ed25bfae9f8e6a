#!/bin/sh
# emulate_sweep.sh POL_TOOL SRC_DIR: the sweep8 and sweep16 variants (and
# sweep8_spread, sweep16_spread on grids 1 to 3 high; sweep_tile16_spread,
# sweep_tile32_spread (the next tile prefetched) and sweep_tile64_spread,
# warps run as coroutines, on grids 1 to 3 high:
# the tiles on 2, the original loop on the others; sweep_lanes and
# sweep_lanes4 on adi's backward sweep and a walk reading ahead, lanes as
# coroutines run first to last and last to first, on grids 1, 2, 3 and 32
# high; sweep_warp, likewise, on those two, adi's forward sweep (a chain one
# step back) and a row read two steps back) of
# fixtures/sweeps.cu (adi's forward and backward row sweeps, a row read
# two steps back beside a read-only row one step each way, a column walk
# reading two steps back and the same step's store) give the original's
# bits, element for element, on lines whose length the steps divide and do
# not (the last T cut short), with threads past the guard; a read that
# moves at another pace than its array's write is refused, sweep_lanes
# refuses a chain (a read one step back) and a column walk, sweep_warp a
# column walk, and both a walk reading blockIdx.x.  Run on the CPU
# through emulate.h.
set -u
tool=$1 src=$2
. "$(dirname "$0")/emulate_lib.sh"
variant() { # KERNEL COMBO: the variant renamed KERNEL_COMBO
    "$tool" "$src/fixtures/sweeps.cu" "$1" "$2" --distinct --shape 64,1,1 --flat-grid >"$tmp/v.cu" || exit 1
    if grep -q '^refused: ' "$tmp/v.cu"; then echo "FAIL: $1 $2: $(cat "$tmp/v.cu")"; exit 1; fi
    sed "s/void $1(/void ${1}_$2(/" "$tmp/v.cu"
}
fail=0
refused() { # KERNEL COMBO WHY: COMBO refuses KERNEL, saying WHY (a glob)
    out=$("$tool" "$src/fixtures/sweeps.cu" "$1" "$2" --distinct --shape 64,1,1 --flat-grid)
    # shellcheck disable=SC2254
    case $out in
    "refused: "$3) echo "ok: $1 refused by $2" ;;
    *) echo "FAIL: $1 $2: $out"; fail=1 ;;
    esac
}
refused stride_two sweep8 "a read of a written array is no fixed number of steps from its write"
refused calls_store sweep8 "the loop calls a function that may write memory"
refused col_sweep sweep_tile32_spread "an array is not walked along a row*"
refused row_sweep sweep_lanes "a step reads an element an earlier step wrote: the steps are a chain"
refused col_sweep sweep_lanes4 "a write does not move one element a step: the walk is not along a row"
refused col_sweep sweep_warp "a write does not move one element a step: the walk is not along a row"
refused block_sweep sweep_warp "the walk reads threadIdx or blockIdx, which a warp a walk changes"
refused block_sweep sweep_lanes "the walk reads threadIdx or blockIdx, which a warp a walk changes"
{
    echo '#include "emulate.h"'
    cat "$src/fixtures/sweeps.cu"
    for t in sweep8 sweep16 sweep8_spread sweep16_spread; do
        for kernel in row_sweep back_sweep col_sweep; do variant $kernel $t; done
    done
    for t in sweep_lanes sweep_lanes4; do
        for kernel in back_sweep ahead_sweep; do variant $kernel $t; done
    done
    for kernel in row_sweep back_sweep two_back ahead_sweep; do variant $kernel sweep_warp; done
    for t in sweep8 sweep_tile16_spread sweep_tile32_spread sweep_tile64_spread; do
        for kernel in row_sweep back_sweep two_back; do
            [ $t = sweep8 ] && [ $kernel != two_back ] && continue
            variant $kernel $t
        done
    done
    cat <<'CPP'
/* row sweeps: n lines of W floats; the original and the variant on the same
 * inputs, blocks of 64 over n + 40 threads (some past the guard) */
template <class K0, class K1>
static int check_rows(const char *name, int n, K0 original, K1 variant, unsigned height = 1,
                      bool synced = false)
{
    size_t len = (size_t)(n + 40) * W;
    float *a = new float[len], *b0 = new float[len], *b1 = new float[len], *x0 = new float[len], *x1 = new float[len];
    emu_fill(a, len, 41), emu_fill(b0, len, 42), emu_fill(x0, len, 43);
    for (size_t i = 0; i < len; i++)
        b0[i] = b0[i] * 0.25f + 2.0f; /* away from 0: a divisor */
    memcpy(b1, b0, len * sizeof *b0), memcpy(x1, x0, len * sizeof *x0);
    emu_dim3 grid = {(unsigned)(n + 40 + 63) / 64, 1, 1};
    emu_launch(grid, {64, 1, 1}, [&] { original(n, a, b0, x0); });
    if (synced)
        emu_launch_synced({grid.x, height, 1}, {64, 1, 1}, [&] { variant(n, a, b1, x1); });
    else
        emu_launch({grid.x, height, 1}, {64, 1, 1}, [&] { variant(n, a, b1, x1); });
    char what[96];
    snprintf(what, sizeof what, "%s, n %d, grid %u high", name, n, height);
    int bad = emu_same(what, x0, x1, len * sizeof *x0) | emu_same(what, b0, b1, len * sizeof *b0);
    delete[] a, delete[] b0, delete[] b1, delete[] x0, delete[] x1;
    return bad;
}
template <class K0, class K1>
static int check_cols(const char *name, int n, int rows, K0 original, K1 variant, unsigned height = 1)
{
    size_t len = (size_t)rows * n;
    float *c = new float[len], *y0 = new float[len], *y1 = new float[len], *z0 = new float[len], *z1 = new float[len];
    emu_fill(c, len, 51), emu_fill(y0, len, 52), emu_fill(z0, len, 53);
    memcpy(y1, y0, len * sizeof *y0), memcpy(z1, z0, len * sizeof *z0);
    emu_dim3 grid = {(unsigned)(n + 63) / 64 + 1, 1, 1};
    emu_launch(grid, {64, 1, 1}, [&] { original(n, rows, c, y0, z0); });
    emu_launch({grid.x, height, 1}, {64, 1, 1}, [&] { variant(n, rows, c, y1, z1); });
    char what[96];
    snprintf(what, sizeof what, "%s, %d columns of %d, grid %u high", name, n, rows, height);
    int bad = emu_same(what, y0, y1, len * sizeof *y0) | emu_same(what, z0, z1, len * sizeof *z0);
    delete[] c, delete[] y0, delete[] y1, delete[] z0, delete[] z1;
    return bad;
}
int main()
{
    int bad = 0, runs = 0;
    const int ns[] = {3, 4, 5, 8, 9, 17, 33, 64, 90, 96};
    for (int n : ns) {
        bad |= check_rows("row_sweep sweep8", n, row_sweep, row_sweep_sweep8);
        bad |= check_rows("row_sweep sweep16", n, row_sweep, row_sweep_sweep16);
        bad |= check_rows("back_sweep sweep8", n, back_sweep, back_sweep_sweep8);
        bad |= check_rows("back_sweep sweep16", n, back_sweep, back_sweep_sweep16);
        bad |= check_rows("two_back sweep8", n, two_back, two_back_sweep8);
        runs += 5;
        /* on spread's grid (2 high for blocks of 64) and on others */
        for (unsigned h : {1u, 2u, 3u}) {
            bad |= check_rows("row_sweep sweep8_spread", n, row_sweep, row_sweep_sweep8_spread, h);
            bad |= check_rows("back_sweep sweep16_spread", n, back_sweep, back_sweep_sweep16_spread, h);
            bad |= check_rows("row_sweep sweep_tile32_spread", n, row_sweep, row_sweep_sweep_tile32_spread, h, true);
            bad |= check_rows("back_sweep sweep_tile32_spread", n, back_sweep, back_sweep_sweep_tile32_spread, h,
                              true);
            bad |= check_rows("row_sweep sweep_tile16_spread", n, row_sweep, row_sweep_sweep_tile16_spread, h, true);
            bad |= check_rows("back_sweep sweep_tile16_spread", n, back_sweep, back_sweep_sweep_tile16_spread, h,
                              true);
            bad |= check_rows("row_sweep sweep_tile64_spread", n, row_sweep, row_sweep_sweep_tile64_spread, h, true);
            bad |= check_rows("back_sweep sweep_tile64_spread", n, back_sweep, back_sweep_sweep_tile64_spread, h,
                              true);
            bad |= check_rows("two_back sweep_tile16_spread", n, two_back, two_back_sweep_tile16_spread, h, true);
            bad |= check_rows("two_back sweep_tile32_spread", n, two_back, two_back_sweep_tile32_spread, h, true);
            bad |= check_rows("two_back sweep_tile64_spread", n, two_back, two_back_sweep_tile64_spread, h, true);
            runs += 11;
        }
        /* a warp a walk: the taller grid is 32 high for blocks of 64 */
        for (unsigned h : {1u, 2u, 3u, 32u})
            for (bool reverse : {false, true}) {
                emu_reverse_order = reverse;
                bad |= check_rows("back_sweep sweep_lanes", n, back_sweep, back_sweep_sweep_lanes, h, true);
                bad |= check_rows("back_sweep sweep_lanes4", n, back_sweep, back_sweep_sweep_lanes4, h, true);
                bad |= check_rows("ahead_sweep sweep_lanes", n, ahead_sweep, ahead_sweep_sweep_lanes, h, true);
                bad |= check_rows("ahead_sweep sweep_lanes4", n, ahead_sweep, ahead_sweep_sweep_lanes4, h, true);
                bad |= check_rows("row_sweep sweep_warp", n, row_sweep, row_sweep_sweep_warp, h, true);
                bad |= check_rows("back_sweep sweep_warp", n, back_sweep, back_sweep_sweep_warp, h, true);
                bad |= check_rows("two_back sweep_warp", n, two_back, two_back_sweep_warp, h, true);
                bad |= check_rows("ahead_sweep sweep_warp", n, ahead_sweep, ahead_sweep_sweep_warp, h, true);
                emu_reverse_order = false;
                runs += 8;
            }
    }
    const int rows[] = {2, 3, 10, 16, 17, 50};
    for (int r : rows)
        for (int n : {1, 70}) {
            bad |= check_cols("col_sweep sweep8", n, r, col_sweep, col_sweep_sweep8);
            bad |= check_cols("col_sweep sweep16", n, r, col_sweep, col_sweep_sweep16);
            runs += 2;
            for (unsigned h : {1u, 2u, 3u}) {
                bad |= check_cols("col_sweep sweep16_spread", n, r, col_sweep, col_sweep_sweep16_spread, h);
                runs++;
            }
        }
    printf("sweep: %d emulated runs\n", runs);
    return bad;
}
CPP
} >"$tmp/sweeps.cpp"
emu_run sweeps -O1 || fail=1
exit $fail
