/*
 * diff.c: unified diffs of one file's old and new text (Myers' O(ND) line
 * diff after trimming the common head and tail), in the form `git apply`
 * and `patch -p1` take: a/ and b/ paths, "\ No newline at end of file".
 */
#include "rewrite.h"

#include <string.h>

/* beyond this many differing lines a region is shown as one replacement
 * (still a correct patch), to keep memory at O(D^2) small */
#define MAX_EDIT_DISTANCE 4000

typedef struct text_line {
    const char *p;
    size_t n; /* with its '\n', when it has one */
    uint64_t hash;
} text_line;
typedef VEC(text_line) line_vec;
typedef VEC(char) op_vec; /* '=' both, '-' old only, '+' new only */

static void split_lines(const char *text, size_t len, line_vec *out)
{
    size_t start = 0;
    for (size_t i = 0; i < len; i++)
        if (text[i] == '\n' || i + 1 == len) {
            text_line l = {text + start, i + 1 - start, 0};
            l.hash = hash_fnv1a(l.p, l.n, HASH_FNV_SEED);
            vec_push(out, l);
            start = i + 1;
        }
}

static int same_line(const text_line *a, const text_line *b)
{
    return a->hash == b->hash && a->n == b->n && memcmp(a->p, b->p, a->n) == 0;
}

/* Myers' greedy forward search over a[0..n) and b[0..m), keeping each
 * round's V (k in [-d, d]) to walk back.  Appends the script reversed;
 * -1 when the distance passes MAX_EDIT_DISTANCE. */
static int myers(const text_line *a, size_t n, const text_line *b, size_t m, op_vec *rev)
{
    long N = (long)n, M = (long)m;
    long limit = N + M < MAX_EDIT_DISTANCE ? N + M : MAX_EDIT_DISTANCE;
    long **trace = xcalloc((size_t)limit + 1, sizeof *trace);
    long found = -1;
    for (long d = 0; d <= limit && found < 0; d++) {
        long *v = xmalloc((size_t)(2 * d + 1) * sizeof *v);
        trace[d] = v;
        const long *prev = d ? trace[d - 1] : NULL;
        for (long k = -d; k <= d; k += 2) {
            long x;
            if (d == 0)
                x = 0;
            else if (k == -d || (k != d && prev[k - 1 + (d - 1)] < prev[k + 1 + (d - 1)]))
                x = prev[k + 1 + (d - 1)];
            else
                x = prev[k - 1 + (d - 1)] + 1;
            long y = x - k;
            while (x < N && y < M && same_line(&a[x], &b[y]))
                x++, y++;
            v[k + d] = x;
            if (x >= N && y >= M) {
                found = d;
                break;
            }
        }
    }
    int rc = 0;
    if (found < 0) {
        rc = -1;
    } else {
        long x = N, y = M;
        for (long d = found; d > 0; d--) {
            const long *prev = trace[d - 1];
            long k = x - y, prev_k;
            int down = k == -d || (k != d && prev[k - 1 + (d - 1)] < prev[k + 1 + (d - 1)]);
            prev_k = down ? k + 1 : k - 1;
            long px = prev[prev_k + (d - 1)], py = px - prev_k;
            long sx = down ? px : px + 1, sy = down ? py + 1 : py;
            while (x > sx && y > sy) {
                vec_push(rev, '=');
                x--, y--;
            }
            vec_push(rev, down ? '+' : '-');
            x = px;
            y = py;
        }
        while (x > 0 && y > 0) {
            vec_push(rev, '=');
            x--, y--;
        }
    }
    for (long d = 0; d <= limit; d++)
        free(trace[d]);
    free(trace);
    return rc;
}

static void put_line(strbuf *out, char tag, const text_line *l)
{
    sb_putc(out, tag);
    sb_append(out, l->p, l->n);
    if (!l->n || l->p[l->n - 1] != '\n')
        sb_puts(out, "\n\\ No newline at end of file\n");
}

void rw_unified_diff(const char *path, const char *old_text, size_t old_len,
                     const char *new_text, size_t new_len, int context, strbuf *out)
{
    if (old_len == new_len && memcmp(old_text, new_text, old_len) == 0)
        return;
    line_vec a = {0}, b = {0};
    split_lines(old_text, old_len, &a);
    split_lines(new_text, new_len, &b);
    size_t head = 0, tail = 0;
    while (head < a.len && head < b.len && same_line(&a.items[head], &b.items[head]))
        head++;
    while (tail < a.len - head && tail < b.len - head &&
           same_line(&a.items[a.len - 1 - tail], &b.items[b.len - 1 - tail]))
        tail++;
    op_vec ops = {0}, rev = {0};
    for (size_t i = 0; i < head; i++)
        vec_push(&ops, '=');
    size_t na = a.len - head - tail, nb = b.len - head - tail;
    if (myers(a.items + head, na, b.items + head, nb, &rev) == 0) {
        for (size_t i = rev.len; i-- > 0;)
            vec_push(&ops, rev.items[i]);
    } else {
        for (size_t i = 0; i < na; i++)
            vec_push(&ops, '-');
        for (size_t i = 0; i < nb; i++)
            vec_push(&ops, '+');
    }
    for (size_t i = 0; i < tail; i++)
        vec_push(&ops, '=');

    /* the line each op starts at, in the old and in the new text */
    size_t n = ops.len;
    size_t *ai = xmalloc((n + 1) * sizeof *ai), *bi = xmalloc((n + 1) * sizeof *bi);
    ai[0] = bi[0] = 0;
    for (size_t i = 0; i < n; i++) {
        ai[i + 1] = ai[i] + (ops.items[i] != '+');
        bi[i + 1] = bi[i] + (ops.items[i] != '-');
    }
    sb_printf(out, "diff --git a/%s b/%s\n--- a/%s\n+++ b/%s\n", path, path, path, path);
    size_t c = (size_t)(context < 0 ? 0 : context), i = 0;
    while (i < n) {
        size_t first = i;
        while (first < n && ops.items[first] == '=')
            first++;
        if (first == n)
            break;
        size_t last = first, j = first;
        for (; j < n; j++) {
            if (ops.items[j] != '=')
                last = j;
            else if (j - last > 2 * c)
                break;
        }
        size_t start = first > i + c ? first - c : i;
        size_t end = last + 1 + c < n ? last + 1 + c : n;
        size_t a_count = ai[end] - ai[start], b_count = bi[end] - bi[start];
        sb_printf(out, "@@ -%zu,%zu +%zu,%zu @@\n", a_count ? ai[start] + 1 : ai[start], a_count,
                  b_count ? bi[start] + 1 : bi[start], b_count);
        for (size_t k = start; k < end; k++) {
            char op = ops.items[k];
            if (op == '+')
                put_line(out, '+', &b.items[bi[k]]);
            else
                put_line(out, op == '=' ? ' ' : '-', &a.items[ai[k]]);
        }
        i = end;
    }
    free(ai);
    free(bi);
    vec_free(&ops);
    vec_free(&rev);
    vec_free(&a);
    vec_free(&b);
}
