/*
 * transform_restrict.c: `restrict`: every pointer parameter gets
 * __restrict__, and const on what it points to when the kernel only reads
 * through it.  Only when the pointers cannot alias: the captured launches
 * passed pairwise distinct allocations and no launch site passes the same
 * expression twice.
 */
#include <string.h>

#include "internal.h"

int pol_transform_restrict(const tu_model *m, const kernel *k, const pol_facts *f, arena *a,
                           pol_edit_vec *out, const char **why)
{
    if (!f->pointers_distinct) {
        *why = "the captured launches do not show the pointers as distinct allocations";
        return 1;
    }
    if (!pol_launch_sites_distinct(m, k)) {
        *why = "a launch site passes the same pointer twice";
        return 1;
    }
    size_t len;
    const char *text = pol_file_text(m, &k->decl_range, &len);
    if (!text) {
        *why = "no source text";
        return 1;
    }
    size_t edits = 0;
    for (size_t i = 0; i < k->params.len; i++) {
        const kernel_param *p = &k->params.items[i];
        if (!p->is_pointer || p->range.in_macro || !p->name[0] || !pol_pointee_type(p, a))
            continue;
        /* the name is the last identifier of the parameter's text */
        size_t n = strlen(p->name), at = p->range.end;
        while (at >= p->range.begin + n && at > 0) {
            if (memcmp(text + at - n, p->name, n) == 0)
                break;
            at--;
        }
        if (at < p->range.begin + n)
            continue;
        at -= n;
        if (!p->is_restrict) {
            pol_edit e = {at, at, "__restrict__ ", 1};
            vec_push(out, e);
            edits++;
        }
        if (!p->pointee_const && pol_param_read_only(m, k, p->name)) {
            pol_edit e = {p->range.begin, p->range.begin, "const ", 0};
            vec_push(out, e);
            edits++;
        }
    }
    if (!edits) {
        *why = "no pointer parameter to qualify";
        return 1;
    }
    return 0;
}
