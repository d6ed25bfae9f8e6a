/*
 * marker.c: puts verified variants into a user's file behind a marker
 * comment that records where each came from and holds the original bytes,
 * and takes them out again byte for byte.  Pure: text in, text out.  The
 * format is documented in docs/REWRITE.md; rw_is_rewritten, rw_revert and
 * rw_apply must agree on it.
 */
#include "rewrite.h"

#include <ctype.h>
#include <string.h>
#include <zlib.h>

#define MARK_BEGIN "/* cl1cc-optimized:"
#define MARK_END "cl1cc-optimized-end */"
#define LAUNCH_BEGIN "/* cl1cc-launch "
#define LAUNCH_END " */"
#define BASE64_LINE 72 /* characters of base64 per marker line */

/* ---- base64 ---------------------------------------------------------------- */

static const char base64_chars[] =
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

static void base64_encode(const unsigned char *p, size_t n, strbuf *out)
{
    for (size_t i = 0; i < n; i += 3) {
        unsigned v = (unsigned)p[i] << 16;
        if (i + 1 < n)
            v |= (unsigned)p[i + 1] << 8;
        if (i + 2 < n)
            v |= p[i + 2];
        sb_putc(out, base64_chars[(v >> 18) & 63]);
        sb_putc(out, base64_chars[(v >> 12) & 63]);
        sb_putc(out, i + 1 < n ? base64_chars[(v >> 6) & 63] : '=');
        sb_putc(out, i + 2 < n ? base64_chars[v & 63] : '=');
    }
}

static int base64_value(char c)
{
    const char *p = c ? strchr(base64_chars, c) : NULL;
    return p ? (int)(p - base64_chars) : -1;
}

/* s holds base64 characters only (padding included); 0 or -1 */
static int base64_decode(const char *s, size_t n, strbuf *out)
{
    if (n % 4)
        return -1;
    for (size_t i = 0; i < n; i += 4) {
        int v[4];
        for (int j = 0; j < 4; j++) {
            v[j] = s[i + j] == '=' ? 0 : base64_value(s[i + j]);
            if (v[j] < 0 || (s[i + j] == '=' && (i + 4 < n || j < 2)))
                return -1;
        }
        unsigned w = (unsigned)v[0] << 18 | (unsigned)v[1] << 12 | (unsigned)v[2] << 6 |
                     (unsigned)v[3];
        sb_putc(out, (char)(w >> 16));
        if (s[i + 2] != '=')
            sb_putc(out, (char)(w >> 8));
        if (s[i + 3] != '=')
            sb_putc(out, (char)w);
        if (s[i + 2] == '=' && s[i + 3] != '=')
            return -1;
    }
    return 0;
}

/* ---- small helpers ----------------------------------------------------------- */

/* line endings of what is inserted follow the file's own (the majority) */
static int file_is_crlf(const char *text, size_t len)
{
    size_t crlf = 0, lf = 0;
    for (size_t i = 0; i < len; i++)
        if (text[i] == '\n') {
            if (i && text[i - 1] == '\r')
                crlf++;
            else
                lf++;
        }
    return crlf > lf;
}

static void put_converted(strbuf *out, const char *s, size_t n, int crlf)
{
    for (size_t i = 0; i < n; i++) {
        if (crlf && s[i] == '\n' && (i == 0 || s[i - 1] != '\r'))
            sb_putc(out, '\r');
        sb_putc(out, s[i]);
    }
}

/* characters a marker may sit before on the kernel's line: indentation,
 * `extern "C"`, `static`, `inline` */
static int prefix_char(char c)
{
    return isalnum((unsigned char)c) || c == '_' || c == ' ' || c == '\t' || c == '"';
}

static size_t line_start(const char *text, size_t offset)
{
    while (offset > 0 && text[offset - 1] != '\n')
        offset--;
    return offset;
}

static unsigned line_of(const char *text, size_t offset)
{
    unsigned line = 1;
    for (size_t i = 0; i < offset; i++)
        line += text[i] == '\n';
    return line;
}

/* a value for the marker's first line: no quote, no comment end, no line
 * break, printable ASCII (a GPU's name, a kernel's qualified name) */
static void put_field(strbuf *out, const char *s)
{
    if (!s || !*s)
        s = "unknown";
    for (const char *p = s; *p; p++) {
        unsigned char c = (unsigned char)*p;
        if (c < 0x20 || c >= 0x7f || c == '"' || (c == '*' && p[1] == '/'))
            sb_putc(out, '_');
        else
            sb_putc(out, (char)c);
    }
}

static const char *find(const char *text, size_t from, size_t len, const char *needle)
{
    if (from >= len)
        return NULL;
    return memmem(text + from, len - from, needle, strlen(needle));
}

/* ---- applying ---------------------------------------------------------------- */

static int put_kernel_edit(const char *text, size_t len, const rw_kernel_change *c,
                           int crlf, arena *a, rw_edit *edit, strbuf *err)
{
    const char *eol = crlf ? "\r\n" : "\n";
    if (c->begin > c->end || c->end > len || !c->variant) {
        sb_printf(err, "kernel %s: range [%zu,%zu) lies outside the file (%zu bytes)",
                  c->prov.kernel ? c->prov.kernel : "?", c->begin, c->end, len);
        return -1;
    }
    /* blanks around the variant's definition are no part of it: the marker
     * must touch the kernel, and the text after it stays as it was */
    const char *v = c->variant, *v_end = v + strlen(v);
    while (v < v_end && isspace((unsigned char)*v))
        v++;
    while (v_end > v && isspace((unsigned char)v_end[-1]))
        v_end--;
    if (v == v_end) {
        sb_printf(err, "kernel %s: the variant is empty", c->prov.kernel ? c->prov.kernel : "?");
        return -1;
    }
    /* the marker starts the kernel's line when only indentation and words
     * like `extern "C"` precede the kernel there; else right before it */
    size_t bol = line_start(text, c->begin), region = bol;
    for (size_t i = bol; i < c->begin; i++)
        if (!prefix_char(text[i]))
            region = c->begin;
    size_t indent_end = region;
    while (indent_end < c->begin && (text[indent_end] == ' ' || text[indent_end] == '\t'))
        indent_end++;
    strbuf indent, tail, packed, rep;
    sb_init(&indent);
    sb_init(&tail);
    sb_init(&packed);
    sb_init(&rep);
    sb_append(&indent, text + region, indent_end - region);
    sb_puts(&tail, eol);
    sb_append(&tail, text + region, c->begin - region);
    put_converted(&tail, v, (size_t)(v_end - v), crlf);

    const char *original = text + region;
    size_t original_len = c->end - region;
    uLongf zlen = compressBound((uLong)original_len);
    unsigned char *z = xmalloc(zlen);
    int zrc = compress2(z, &zlen, (const Bytef *)original, (uLong)original_len, 9);
    if (zrc != Z_OK) {
        sb_printf(err, "kernel %s: zlib failed (%d)", c->prov.kernel, zrc);
        free(z);
        sb_free(&indent);
        sb_free(&tail);
        return -1;
    }
    base64_encode(z, zlen, &packed);
    free(z);
    char tail_sha[65], original_sha[65];
    sha256_hex(tail.data, tail.len, tail_sha);
    sha256_hex(original, original_len, original_sha);

    const char *in = sb_str(&indent);
    sb_printf(&rep, "%s" MARK_BEGIN " kernel=", in);
    put_field(&rep, c->prov.kernel);
    sb_printf(&rep, " speedup=%.2f arch=", c->prov.speedup);
    put_field(&rep, c->prov.arch);
    sb_puts(&rep, " gpu=\"");
    put_field(&rep, c->prov.gpu_name);
    sb_puts(&rep, "\" date=");
    put_field(&rep, c->prov.date);
    sb_printf(&rep, "%s%s * key=", eol, in);
    put_field(&rep, c->prov.key);
    sb_printf(&rep, "%s%s * variant=", eol, in);
    put_field(&rep, c->prov.variant_hash);
    sb_printf(&rep, "%s%s * replaced=%zu sha256=%s launch-edits=%zu%s", eol, in, tail.len,
              tail_sha, c->n_launches, eol);
    sb_printf(&rep, "%s * original=%zu sha256=%s zlib-base64:%s", in, original_len,
              original_sha, eol);
    for (size_t i = 0; i < packed.len; i += BASE64_LINE) {
        size_t n = packed.len - i < BASE64_LINE ? packed.len - i : BASE64_LINE;
        sb_printf(&rep, "%s * %.*s%s", in, (int)n, packed.data + i, eol);
    }
    sb_printf(&rep, "%s * " MARK_END, in);
    sb_append(&rep, tail.data, tail.len);

    edit->begin = region;
    edit->end = c->end;
    edit->text = arena_strndup(a, sb_str(&rep), rep.len);
    sb_free(&indent);
    sb_free(&tail);
    sb_free(&packed);
    sb_free(&rep);
    return 0;
}

static int put_launch_edit(const char *text, size_t len, const rw_launch_change *lc,
                           int crlf, arena *a, rw_edit *edit, strbuf *err)
{
    if (lc->begin > lc->end || lc->end > len || !lc->text) {
        sb_printf(err, "launch edit [%zu,%zu) lies outside the file (%zu bytes)", lc->begin,
                  lc->end, len);
        return -1;
    }
    strbuf now, rep;
    sb_init(&now);
    sb_init(&rep);
    put_converted(&now, lc->text, strlen(lc->text), crlf);
    char sha[65];
    sha256_hex(now.data ? now.data : "", now.len, sha);
    sb_puts(&rep, LAUNCH_BEGIN "was=");
    base64_encode((const unsigned char *)text + lc->begin, lc->end - lc->begin, &rep);
    sb_printf(&rep, " len=%zu sha=%.8s" LAUNCH_END, now.len, sha);
    sb_append(&rep, sb_str(&now), now.len);
    edit->begin = lc->begin;
    edit->end = lc->end;
    edit->text = arena_strndup(a, sb_str(&rep), rep.len);
    sb_free(&now);
    sb_free(&rep);
    return 0;
}

rw_status rw_apply(const char *text, size_t len, const char *path,
                   const rw_kernel_change *changes, size_t n_changes, strbuf *out,
                   strbuf *err)
{
    int crlf = file_is_crlf(text, len);
    arena a;
    arena_init(&a);
    VEC(rw_edit) edits = {0};
    rw_status st = RW_OK;
    for (size_t i = 0; i < n_changes && st == RW_OK; i++) {
        rw_edit e = {0};
        if (put_kernel_edit(text, len, &changes[i], crlf, &a, &e, err) != 0) {
            st = RW_BAD_EDITS;
            break;
        }
        vec_push(&edits, e);
        for (size_t j = 0; j < changes[i].n_launches; j++) {
            if (put_launch_edit(text, len, &changes[i].launches[j], crlf, &a, &e, err) != 0) {
                st = RW_BAD_EDITS;
                break;
            }
            vec_push(&edits, e);
        }
    }
    if (st == RW_OK)
        st = rw_splice(text, len, path, edits.items, edits.len, 0, out, err);
    vec_free(&edits);
    arena_free(&a);
    return st;
}

int rw_is_rewritten(const char *text, size_t len, size_t offset)
{
    if (offset > len)
        return 0;
    size_t p = offset;
    while (p > 0 && text[p - 1] != '\n' && prefix_char(text[p - 1]))
        p--;
    if (p == 0 || text[p - 1] != '\n')
        return 0;
    p--;
    if (p > 0 && text[p - 1] == '\r')
        p--;
    size_t m = strlen(MARK_END);
    return p >= m && memcmp(text + p - m, MARK_END, m) == 0;
}

/* ---- reverting ------------------------------------------------------------------ */

/* the value of " name=" (or "name=" at b) within [b, e): its start, and
 * its length up to the next blank; NULL when absent */
static const char *field_value(const char *b, const char *e, const char *name, size_t *n)
{
    size_t nl = strlen(name);
    for (const char *p = b; p + nl + 1 <= e; p++) {
        if ((p == b || p[-1] == ' ') && memcmp(p, name, nl) == 0 && p[nl] == '=') {
            const char *v = p + nl + 1, *end = v;
            while (end < e && !isspace((unsigned char)*end))
                end++;
            *n = (size_t)(end - v);
            return v;
        }
    }
    return NULL;
}

static int size_value(const char *b, const char *e, const char *name, size_t *out)
{
    size_t n;
    const char *v = field_value(b, e, name, &n);
    if (!v || !n || n > 18)
        return -1;
    size_t x = 0;
    for (size_t i = 0; i < n; i++) {
        if (!isdigit((unsigned char)v[i]))
            return -1;
        x = x * 10 + (size_t)(v[i] - '0');
    }
    *out = x;
    return 0;
}

static int hex_matches(const char *b, const char *e, const char *name, const char *want,
                       size_t digits)
{
    size_t n;
    const char *v = field_value(b, e, name, &n);
    return v && n == digits && memcmp(v, want, digits) == 0;
}

typedef struct revert_state {
    const char *text;
    size_t len;
    const char *path;
    arena *a;
    strbuf *err;
} revert_state;

static int fail_at(const revert_state *rs, size_t offset, const char *msg)
{
    sb_printf(rs->err, "%s:%u: %s", rs->path, line_of(rs->text, offset), msg);
    return -1;
}

/* a kernel marker at s: the edit that restores it, and where scanning goes on */
static int revert_kernel(const revert_state *rs, size_t s, rw_edit *edit, size_t *next)
{
    const char *text = rs->text;
    const char *end = find(text, s, rs->len, MARK_END);
    if (!end)
        return fail_at(rs, s, "a cl1cc marker without its end line (cl1cc-optimized-end)");
    const char *b = text + s;
    size_t comment_end = (size_t)(end - text) + strlen(MARK_END);
    size_t replaced, original_len;
    const char *data = memmem(b, (size_t)(end - b), "zlib-base64:", 12);
    const char *original_line = memmem(b, (size_t)(end - b), " original=", 10);
    if (size_value(b, end, "replaced", &replaced) != 0 || !original_line || !data ||
        size_value(original_line, end, "original", &original_len) != 0)
        return fail_at(rs, s, "a damaged cl1cc marker (no replaced= or original= field)");
    if (replaced > rs->len - comment_end)
        return fail_at(rs, s, "the text after this cl1cc marker is shorter than it records: "
                              "edited since cl1cc rewrote it; revert it by hand");
    char sha[65];
    sha256_hex(text + comment_end, replaced, sha);
    const char *replaced_line = memmem(b, (size_t)(end - b), " replaced=", 10);
    if (!replaced_line || replaced_line > original_line ||
        !hex_matches(replaced_line, original_line, "sha256", sha, 64))
        return fail_at(rs, s, "the kernel after this cl1cc marker was edited since cl1cc "
                              "rewrote it: not reverted (the original is in the marker)");
    /* the base64 text, without the " * " that starts each marker line */
    strbuf packed, z;
    sb_init(&packed);
    sb_init(&z);
    int bad = 0;
    for (const char *p = data + 12; p < end; p++) {
        if (*p == ' ' || *p == '\t' || *p == '*' || *p == '\r' || *p == '\n')
            continue;
        if (*p != '=' && base64_value(*p) < 0) {
            bad = 1;
            break;
        }
        sb_putc(&packed, *p);
    }
    if (bad || base64_decode(sb_str(&packed), packed.len, &z) != 0) {
        sb_free(&packed);
        sb_free(&z);
        return fail_at(rs, s, "a damaged cl1cc marker (its base64 text does not decode)");
    }
    char *original = arena_alloc(rs->a, original_len + 1);
    uLongf got = (uLongf)original_len;
    int zrc = uncompress((Bytef *)original, &got, (const Bytef *)sb_str(&z), (uLong)z.len);
    sb_free(&packed);
    sb_free(&z);
    original[original_len] = '\0';
    if (zrc != Z_OK || got != original_len)
        return fail_at(rs, s, "a damaged cl1cc marker (its original text does not inflate)");
    sha256_hex(original, original_len, sha);
    if (!hex_matches(original_line, data, "sha256", sha, 64) ||
        memchr(original, '\0', original_len))
        return fail_at(rs, s, "a damaged cl1cc marker (the original's SHA-256 does not match)");
    /* the marker began the line when only indentation precedes it */
    size_t bol = line_start(text, s), region = bol;
    for (size_t i = bol; i < s; i++)
        if (text[i] != ' ' && text[i] != '\t')
            region = s;
    edit->begin = region;
    edit->end = comment_end + replaced;
    edit->text = original;
    *next = edit->end;
    return 0;
}

static int revert_launch(const revert_state *rs, size_t s, rw_edit *edit, size_t *next)
{
    const char *text = rs->text;
    const char *end = find(text, s + strlen(LAUNCH_BEGIN), rs->len, LAUNCH_END);
    const char *nl = find(text, s, rs->len, "\n");
    if (!end || (nl && nl < end))
        return fail_at(rs, s, "a damaged cl1cc-launch comment");
    const char *b = text + s;
    size_t comment_end = (size_t)(end - text) + strlen(LAUNCH_END), now_len, was_n;
    const char *was = field_value(b, end, "was", &was_n);
    if (!was || size_value(b, end, "len", &now_len) != 0)
        return fail_at(rs, s, "a damaged cl1cc-launch comment (no was= or len=)");
    char sha[65];
    if (now_len > rs->len - comment_end ||
        (sha256_hex(text + comment_end, now_len, sha), !hex_matches(b, end, "sha", sha, 8)))
        return fail_at(rs, s, "the launch argument after this cl1cc-launch comment was "
                              "edited since cl1cc rewrote it: not reverted");
    strbuf original;
    sb_init(&original);
    if (base64_decode(was, was_n, &original) != 0 || memchr(sb_str(&original), '\0', original.len)) {
        sb_free(&original);
        return fail_at(rs, s, "a damaged cl1cc-launch comment (was= does not decode)");
    }
    edit->begin = s;
    edit->end = comment_end + now_len;
    edit->text = arena_strndup(rs->a, sb_str(&original), original.len);
    sb_free(&original);
    *next = edit->end;
    return 0;
}

long rw_revert(const char *text, size_t len, const char *path, strbuf *out, strbuf *err)
{
    arena a;
    arena_init(&a);
    revert_state rs = {text, len, path, &a, err};
    VEC(rw_edit) edits = {0};
    long rc = 0;
    size_t at = 0;
    for (;;) {
        const char *k = find(text, at, len, MARK_BEGIN);
        const char *l = find(text, at, len, LAUNCH_BEGIN);
        if (!k && !l)
            break;
        size_t s = (size_t)((k && (!l || k < l) ? k : l) - text);
        rw_edit e = {0};
        size_t next;
        int r = (k && (!l || k < l)) ? revert_kernel(&rs, s, &e, &next)
                                     : revert_launch(&rs, s, &e, &next);
        if (r != 0) {
            rc = -1;
            break;
        }
        vec_push(&edits, e);
        at = next;
    }
    if (rc == 0) {
        strbuf tmp;
        sb_init(&tmp);
        if (rw_splice(text, len, path, edits.items, edits.len, 0, &tmp, err) != RW_OK) {
            rc = -1;
        } else {
            sb_append(out, sb_str(&tmp), tmp.len);
            rc = (long)edits.len;
        }
        sb_free(&tmp);
    }
    vec_free(&edits);
    arena_free(&a);
    return rc;
}
