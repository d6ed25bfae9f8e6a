# fake_capture.sh: sourced by the tune tests that run without a GPU.
# fake_capture FILE CAPROOT [LAUNCH_MS [BYTES]] makes the capture `cl1cc
# capture` would leave for one launch of row_sums (testsuite/tune/row_sums.cu,
# copied to FILE) with n = 4: CAPROOT/<file tag>/k0/0 with its meta and
# zeroed buffers (the launch's wall time LAUNCH_MS, 0.05 by default; its
# first allocation BYTES long, 64 by default: a larger one is a sparse file).
fake_capture() {
    abs=$(readlink -f "$1")
    cap="$2/$(basename "$abs")-$(printf %s "$abs" | sha256sum | cut -c1-8)/k0/0"
    mkdir -p "$cap"
    printf 'cl1cc-capture 1\nkernel row_sums\nindex 0\ngrid 1 1 1\nblock 128 1 1\nshmem 0\nlaunch_ms %s\nallocs 2\nalloc 0 %s\nalloc 1 16\nargs 3\narg 0 value 4 04000000\narg 1 pointer 0 0\narg 2 pointer 1 0\nend\n' "${3:-0.050}" "${4:-64}" >"$cap/meta"
    truncate -s "${4:-64}" "$cap/alloc0.in" "$cap/alloc0.out"
    head -c 16 /dev/zero >"$cap/alloc1.in"; head -c 16 /dev/zero >"$cap/alloc1.out"
}
