/*
 * transform_restrict.c: `restrict`: every pointer parameter gets
 * __restrict__, and const on what it points to when the kernel only reads
 * through it.  Only when the pointers cannot alias: the captured launches
 * passed pairwise distinct allocations and no launch site passes the same
 * expression twice.
 */
#include <string.h>

#include "internal.h"

/* the body reads through p and does nothing else with it */
static int read_only(const tu_model *m, const kernel *k, const char *name)
{
    size_t len;
    const char *text = pol_file_text(m, &k->body_range, &len);
    if (!text || k->body_range.end > len)
        return 0;
    size_t reads = 0;
    for (size_t i = 0; i < k->body.len; i++) {
        const body_node *n = &k->body.items[i];
        if (n->kind != BODY_SUBSCRIPT || !n->base || strcmp(n->base, name) != 0)
            continue;
        if (n->is_write)
            return 0;
        reads++;
    }
    return reads > 0 &&
           reads == pol_count_identifier(text, k->body_range.begin, k->body_range.end, name);
}

static int launch_sites_distinct(const tu_model *m, const kernel *k)
{
    size_t self = (size_t)(k - m->kernels.items);
    for (size_t l = 0; l < m->launches.len; l++) {
        const launch_site *s = &m->launches.items[l];
        if (s->kernel_index != (long)self)
            continue;
        for (size_t i = 0; i < s->args.len && i < k->params.len; i++)
            for (size_t j = i + 1; j < s->args.len && j < k->params.len; j++)
                if (k->params.items[i].is_pointer && k->params.items[j].is_pointer &&
                    strcmp(s->args.items[i].text, s->args.items[j].text) == 0)
                    return 0;
    }
    return 1;
}

int pol_transform_restrict(const tu_model *m, const kernel *k, const pol_facts *f, arena *a,
                           pol_edit_vec *out, const char **why)
{
    if (!f->pointers_distinct) {
        *why = "the captured launches do not show the pointers as distinct allocations";
        return 1;
    }
    if (!launch_sites_distinct(m, k)) {
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
        if (!p->pointee_const && read_only(m, k, p->name)) {
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
