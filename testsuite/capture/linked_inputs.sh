#!/bin/sh
# linked_inputs.sh RUNTIME_DIR: the capture runtime writes an allocation's
# bytes once.  A file of 1 MiB or more whose bytes equal a file written
# before is a hard link to it (HeCBench's accuracy saves one 328 MB input
# four times); equal bytes under 1 MiB, different bytes of the same size,
# and a file whose earlier twin changed on disk since are written apart,
# each holding its own bytes.  The fingerprint that tells large device
# allocations apart (computed on the GPU; its host twin here) changes in
# both lanes with any one word, with two words swapped, and with a byte
# past the last whole word; a file remembered by its fingerprint is linked
# to by an equal one only.  No GPU needed: host code of
# harness/runtime/cl1cc_capture.cuh, compiled with nvcc
# (gpu_capture_fingerprint runs the GPU's part).
set -u
runtime=$1
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
cat >"$t/linked.cu" <<'CU'
#include "cl1cc_capture.cuh"
#include <string>
#include <vector>
static std::vector<unsigned char> bytes(size_t n, unsigned seed)
{
    std::vector<unsigned char> v(n);
    for (size_t i = 0; i < n; i++)
        v[i] = (unsigned char)((i * 2654435761u + seed * 40503u) >> 7);
    return v;
}
static ino_t inode(const char *dir, const char *name)
{
    char p[4200];
    snprintf(p, sizeof p, "%s/%s", dir, name);
    struct stat st;
    return stat(p, &st) == 0 ? st.st_ino : 0;
}
static int holds(const char *dir, const char *name, const std::vector<unsigned char> &v)
{
    char p[4200];
    snprintf(p, sizeof p, "%s/%s", dir, name);
    return cl1cc_capture::file_holds(p, v.data(), v.size());
}
static int put(const char *dir, const char *name, const std::vector<unsigned char> &v)
{
    char p[4200];
    snprintf(p, sizeof p, "%s/%s", dir, name);
    return cl1cc_capture::write_alloc_file(p, v.data(), v.size());
}
int main(int argc, char **argv)
{
    const char *d = argv[1];
    int bad = 0;
#define CHECK(cond, what) do { int ok_ = (cond); printf("%s %s\n", ok_ ? "ok" : "FAIL", what); bad |= !ok_; } while (0)
    std::vector<unsigned char> big = bytes(3 << 20, 1), other = bytes(3 << 20, 2), small = bytes(4096, 3);
    other[(3 << 20) - 1] ^= 1; /* the same size, one byte apart at the end */
    CHECK(put(d, "a.in", big) == 0 && put(d, "b.in", big) == 0, "two equal 3 MiB files written");
    CHECK(inode(d, "a.in") && inode(d, "a.in") == inode(d, "b.in"), "the second is a hard link to the first");
    CHECK(holds(d, "b.in", big), "the link holds the bytes");
    CHECK(put(d, "c.in", other) == 0 && inode(d, "c.in") != inode(d, "a.in") && holds(d, "c.in", other),
          "a file of the same size one byte apart is written apart, with its own bytes");
    CHECK(put(d, "s1.in", small) == 0 && put(d, "s2.in", small) == 0 && inode(d, "s1.in") != inode(d, "s2.in") &&
              holds(d, "s2.in", small), "equal files under 1 MiB are written apart");
    /* the earlier twin changed on disk: its fingerprint still matches, its bytes not */
    std::vector<unsigned char> third = bytes(2 << 20, 4);
    CHECK(put(d, "t1.in", third) == 0, "a 2 MiB file written");
    std::vector<unsigned char> changed = third;
    changed[12345] ^= 0x40;
    char p[4200];
    snprintf(p, sizeof p, "%s/t1.in", d);
    unlink(p);
    CHECK(cl1cc_capture::write_file(p, changed.data(), changed.size()) == 0, "its file replaced behind the runtime");
    CHECK(put(d, "t2.in", third) == 0 && inode(d, "t2.in") != inode(d, "t1.in") && holds(d, "t2.in", third),
          "an equal hash over different bytes on disk: written apart, with its own bytes");

    /* the fingerprint: any one word, a swap, a tail byte */
    using cl1cc_capture::fingerprint;
    using cl1cc_capture::host_fingerprint;
    std::vector<unsigned char> w = bytes((1 << 20) + 5, 5);
    fingerprint f0 = host_fingerprint(w.data(), w.size());
    int every_lane = 1;
    for (size_t at : {(size_t)0, (size_t)8, (size_t)12345, (size_t)(1 << 20) - 1}) {
        std::vector<unsigned char> x = w;
        x[at] ^= 0x01;
        fingerprint f = host_fingerprint(x.data(), x.size());
        every_lane &= f.lane[0] != f0.lane[0] && f.lane[1] != f0.lane[1];
    }
    CHECK(every_lane, "a bit flipped in any word changes both lanes of the fingerprint");
    std::vector<unsigned char> sw = w;
    for (int k = 0; k < 8; k++)
        std::swap(sw[16 + k], sw[800 + k]);
    fingerprint fs = host_fingerprint(sw.data(), sw.size());
    CHECK(sw != w && fs.lane[0] != f0.lane[0] && fs.lane[1] != f0.lane[1], "two words swapped change it");
    std::vector<unsigned char> tail = w;
    tail[(1 << 20) + 4] ^= 0x80;
    fingerprint ft = host_fingerprint(tail.data(), tail.size());
    CHECK(ft.lane[0] != f0.lane[0] && ft.lane[1] != f0.lane[1], "a byte past the last whole word changes it");
    std::vector<unsigned char> zeros(1 << 20, 0), zeros2((1 << 20) + 8, 0);
    fingerprint z1 = host_fingerprint(zeros.data(), zeros.size()), z2 = host_fingerprint(zeros2.data(), zeros2.size());
    CHECK(z1.lane[0] != z2.lane[0], "zeros of two lengths differ");
    /* a file known by its fingerprint: linked to by an equal one only */
    CHECK(put(d, "p1.in", big) == 0, "a file written");
    cl1cc_capture::remember_written((std::string(d) + "/p1.in").c_str(), big.size(), f0);
    char q[4200];
    snprintf(q, sizeof q, "%s/p2.in", d);
    CHECK(cl1cc_capture::link_written(q, big.size(), f0, 0) == 0 && inode(d, "p2.in") == inode(d, "p1.in"),
          "an equal fingerprint and size: a hard link");
    snprintf(q, sizeof q, "%s/p3.in", d);
    CHECK(cl1cc_capture::link_written(q, big.size(), ft, 0) != 0 && !inode(d, "p3.in"), "another fingerprint: no link");
    CHECK(cl1cc_capture::link_written(q, big.size() + 8, f0, 0) != 0 && !inode(d, "p3.in"), "another size: no link");
    return bad;
}
CU
nvcc -std=c++17 -I"$runtime" -o "$t/linked" "$t/linked.cu" >"$t/build.log" 2>&1 ||
    { echo "FAIL the runtime's host code did not compile"; cat "$t/build.log"; exit 1; }
mkdir -p "$t/out"
"$t/linked" "$t/out"
