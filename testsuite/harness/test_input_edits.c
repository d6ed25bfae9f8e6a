/*
 * test_input_edits.c: the judge's input sets (judge_edit_inputs): perturbed
 * and absolute copies change the float allocations and leave the others
 * as one file with the captured inputs (a gigabyte of integer counters is
 * not read and written again for nothing); poison touches only the pure
 * outputs it is given; in place, an untouched allocation keeps its file.
 */
#include "judge_int.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check.h"

static ino_t inode(const char *dir, int al)
{
    char path[512];
    snprintf(path, sizeof path, "%s/alloc%d.in", dir, al);
    struct stat st;
    return stat(path, &st) == 0 ? st.st_ino : 0;
}

static int same_bytes(const char *a_dir, const char *b_dir, int al, size_t size)
{
    unsigned char *a = NULL, *b = NULL;
    strbuf err = {0};
    int same = hn_alloc_read(a_dir, al, "in", size, &a, &err) == 0 &&
               hn_alloc_read(b_dir, al, "in", size, &b, &err) == 0 && memcmp(a, b, size) == 0;
    free(a);
    free(b);
    sb_free(&err);
    return same;
}

int main(int argc, char **argv)
{
    char root[512];
    snprintf(root, sizeof root, "%s/input-edits", argc > 1 ? argv[1] : "/tmp");
    char cmd[600];
    snprintf(cmd, sizeof cmd, "rm -rf %s", root);
    CHECK(system(cmd) == 0);
    char cap[600], set[600], absd[600];
    snprintf(cap, sizeof cap, "%s/cap", root);
    snprintf(set, sizeof set, "%s/set", root);
    snprintf(absd, sizeof absd, "%s/abs", root);
    CHECK(dir_create_all(cap, 0755) == 0 && dir_create_all(set, 0755) == 0 &&
          dir_create_all(absd, 0755) == 0);
    /* alloc 0: floats (arg 0, f32); alloc 1: counters (arg 1, u64) */
    enum { N = 1024 };
    float f[N];
    unsigned long long u[N];
    for (int i = 0; i < N; i++) {
        f[i] = (float)(i % 17) - 8.5f;
        u[i] = (unsigned long long)i * 3;
    }
    strbuf err = {0};
    CHECK(hn_alloc_write(cap, 0, "in", f, sizeof f, &err) == 0);
    CHECK(hn_alloc_write(cap, 1, "in", u, sizeof u, &err) == 0);
    hn_capture c;
    memset(&c, 0, sizeof c);
    snprintf(c.dir, sizeof c.dir, "%s", cap);
    c.nallocs = 2;
    c.alloc_size[0] = sizeof f;
    c.alloc_size[1] = sizeof u;
    c.nargs = 2;
    c.arg_alloc[0] = 0;
    c.arg_alloc[1] = 1;
    hn_judge_request rq;
    memset(&rq, 0, sizeof rq);
    rq.param_dtypes[0] = HN_F32;
    rq.param_dtypes[1] = HN_U64;
    rq.n_param_dtypes = 2;

    /* a copy links both */
    CHECK(judge_edit_inputs(&rq, &c, cap, set, INPUTS_COPY, 0, NULL, &err) == 0);
    CHECK(inode(set, 0) == inode(cap, 0) && inode(set, 1) == inode(cap, 1));
    /* perturbed in place: the floats change (a file of their own), the
     * counters stay the captured file */
    CHECK(judge_edit_inputs(&rq, &c, set, set, INPUTS_PERTURB, 7, NULL, &err) == 0);
    CHECK(inode(set, 0) != inode(cap, 0) && !same_bytes(cap, set, 0, sizeof f));
    CHECK(inode(set, 1) == inode(cap, 1));
    /* absolute copy: floats rewritten without signs, counters linked */
    CHECK(judge_edit_inputs(&rq, &c, cap, absd, INPUTS_ABSOLUTE, 0, NULL, &err) == 0);
    float back[N];
    unsigned char *data = NULL;
    CHECK(hn_alloc_read(absd, 0, "in", sizeof f, &data, &err) == 0);
    memcpy(back, data, sizeof back);
    free(data);
    int signs = 0;
    for (int i = 0; i < N; i++)
        signs += back[i] < 0 || back[i] != (f[i] < 0 ? -f[i] : f[i]);
    CHECK(signs == 0);
    CHECK(inode(absd, 1) == inode(cap, 1));
    /* poison of the counters alone (a pure output): floats untouched */
    int pure[2] = {0, 1};
    ino_t floats_before = inode(set, 0);
    CHECK(judge_edit_inputs(&rq, &c, set, set, INPUTS_POISON, 1, pure, &err) == 0);
    CHECK(inode(set, 0) == floats_before && inode(set, 1) != inode(cap, 1));
    CHECK(hn_alloc_read(set, 1, "in", sizeof u, &data, &err) == 0);
    CHECK(data[0] == 0xff && data[sizeof u - 1] == 0xff);
    free(data);
    /* which edits change something: the floats perturb, the counters
     * poison only where pure */
    int none[2] = {0, 0};
    CHECK(judge_edit_changes_any(&rq, &c, INPUTS_PERTURB, NULL) == 1);
    CHECK(judge_edit_changes_any(&rq, &c, INPUTS_POISON, pure) == 1);
    CHECK(judge_edit_changes_any(&rq, &c, INPUTS_POISON, none) == 0);
    CHECK(judge_edit_changes_any(&rq, &c, INPUTS_COPY, NULL) == 0);
    /* a byte allocation (dtype unknown) perturbed: linked, never changed */
    rq.param_dtypes[0] = HN_BYTES;
    /* a capture of integers and bytes alone: its perturbed sets are the
     * captured one (the judge runs no original on them) */
    CHECK(judge_edit_changes_any(&rq, &c, INPUTS_PERTURB, NULL) == 0);
    char raw[600];
    snprintf(raw, sizeof raw, "%s/raw", root);
    CHECK(dir_create_all(raw, 0755) == 0);
    CHECK(judge_edit_inputs(&rq, &c, cap, raw, INPUTS_PERTURB, 3, NULL, &err) == 0);
    CHECK(inode(raw, 0) == inode(cap, 0));
    sb_free(&err);
    CHECK(system(cmd) == 0);
    return CHECK_REPORT("test_input_edits");
}
