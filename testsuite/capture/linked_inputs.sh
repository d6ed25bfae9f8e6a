#!/bin/sh
# linked_inputs.sh RUNTIME_DIR: the capture runtime writes an allocation's
# bytes once.  A file of 1 MiB or more whose bytes equal a file written
# before is a hard link to it (HeCBench's accuracy saves one 328 MB input
# four times); equal bytes under 1 MiB, different bytes of the same size,
# and a file whose earlier twin changed on disk since are written apart,
# each holding its own bytes.  No GPU needed: host code of
# harness/runtime/cl1cc_capture.cuh, compiled with nvcc.
set -u
runtime=$1
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
cat >"$t/linked.cu" <<'CU'
#include "cl1cc_capture.cuh"
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
#define CHECK(cond, what) do { printf("%s %s\n", (cond) ? "ok" : "FAIL", what); bad |= !(cond); } while (0)
    std::vector<unsigned char> big = bytes(3 << 20, 1), other = bytes(3 << 20, 2), small = bytes(4096, 3);
    other[(3 << 20) - 1] ^= 1; /* the same size, one byte apart at the end */
    CHECK(put(d, "a.in", big) == 0 && put(d, "b.in", big) == 0, "two equal 3 MiB files written");
    CHECK(inode(d, "a.in") && inode(d, "a.in") == inode(d, "b.in"), "the second is a hard link to the first");
    CHECK(holds(d, "b.in", big), "the link holds the bytes");
    CHECK(put(d, "c.in", other) == 0 && inode(d, "c.in") != inode(d, "a.in") && holds(d, "c.in", other),
          "a file of the same size one byte apart is written apart, with its own bytes");
    CHECK(put(d, "s1.in", small) == 0 && put(d, "s2.in", small) == 0 && inode(d, "s1.in") != inode(d, "s2.in") &&
              holds(d, "s2.in", small), "equal files under 1 MiB are written apart");
    /* the earlier twin changed on disk: its hash still matches, its bytes not */
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
    return bad;
}
CU
nvcc -std=c++17 -I"$runtime" -o "$t/linked" "$t/linked.cu" >"$t/build.log" 2>&1 ||
    { echo "FAIL the runtime's host code did not compile"; cat "$t/build.log"; exit 1; }
mkdir -p "$t/out"
"$t/linked" "$t/out"
