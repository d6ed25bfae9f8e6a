/*
 * state_vars.c: the __constant__ and __device__ variables a kernel uses
 * besides its arguments (its own or through the device functions it
 * calls): state a capture of the arguments does not hold.  The capture
 * saves them beside the allocations and the replay driver restores them
 * (runtime/cl1cc_capture.cuh, cl1cc_replay.cuh), by the name that reaches
 * them at namespace scope.
 */
#include "harness.h"

#include <string.h>

size_t hn_state_vars(const tu_model *m, const kernel *k, const dependency **out, size_t max)
{
    size_t n = 0;
    for (size_t i = 0; i < k->deps.len && n < max; i++) {
        const dependency *d = &m->decls.items[k->deps.items[i]];
        if (d->kind != DECL_VARIABLE || !d->space || d->is_extern || !d->name ||
            strchr(d->name, '<'))
            continue;
        if (strcmp(d->space, "constant") == 0 || strcmp(d->space, "device") == 0)
            out[n++] = d;
    }
    return n;
}

const char *hn_state_var_expr(const dependency *d, arena *a)
{
    strbuf sb;
    sb_init(&sb);
    for (const char *q = d->name; *q;) {
        const char *sep = strstr(q, "::");
        size_t len = sep ? (size_t)(sep - q) : strlen(q);
        if (!(sep && len == 11 && strncmp(q, "(anonymous)", 11) == 0))
            sb_printf(&sb, "%s%.*s", sb.len ? "::" : "", (int)len, q);
        q = sep ? sep + 2 : q + len;
    }
    const char *expr = arena_strdup(a, sb_str(&sb));
    sb_free(&sb);
    return expr;
}

int hn_state_var_visible_at(const dependency *d, const src_range *at)
{
    if (!d->range.present || !d->range.file || !at->file)
        return 0;
    if (strcmp(d->range.file, at->file) == 0)
        return d->range.end <= at->begin;
    return 1; /* a header's: included before the launch that reaches its kernel */
}
