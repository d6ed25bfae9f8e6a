/*
 * transform_ldg.c: `ldg`: every read through a pointer parameter the kernel
 * only reads becomes __ldg(&p[i]), a load through the read-only data
 * cache.  The same aliasing preconditions as `restrict`: nothing may write
 * that memory while the kernel runs.
 */
#include <string.h>

#include "internal.h"

/* the element types __ldg has an overload for */
static int ldg_type(const char *t)
{
    static const char *const types[] = {
        "char", "signed char", "unsigned char", "short", "unsigned short", "int", "unsigned int",
        "unsigned", "long", "unsigned long", "long long", "unsigned long long", "float", "double",
        "float2", "float4", "double2", "int2", "int4", "uint2", "uint4", NULL};
    for (int i = 0; types[i]; i++)
        if (strcmp(t, types[i]) == 0)
            return 1;
    return 0;
}

int pol_transform_ldg(const tu_model *m, const kernel *k, const pol_facts *f, arena *a,
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
    size_t len, edits = 0;
    const char *text = pol_file_text(m, &k->decl_range, &len);
    for (size_t i = 0; text && i < k->body.len; i++) {
        const body_node *s = &k->body.items[i];
        if (s->kind != BODY_SUBSCRIPT || !s->base || s->is_write || s->range.in_macro)
            continue;
        const kernel_param *p = pol_param(k, s->base);
        const char *type = p ? pol_pointee_type(p, a) : NULL;
        if (!type || !ldg_type(type) || !pol_param_read_only(m, k, p->name))
            continue;
        /* &p[i] takes an address: no load to replace */
        size_t before = s->range.begin;
        while (before > 0 && (text[before - 1] == ' ' || text[before - 1] == '\t'))
            before--;
        if (before > 0 && text[before - 1] == '&')
            continue;
        /* insertions only, so nested reads (p[q[i]]) nest too */
        pol_edit open = {s->range.begin, s->range.begin, "__ldg(&", 2};
        pol_edit close = {s->range.end, s->range.end, ")", -1};
        vec_push(out, open);
        vec_push(out, close);
        edits++;
    }
    if (!edits) {
        *why = "no read through a read-only pointer parameter of a type __ldg takes";
        return 1;
    }
    return 0;
}
