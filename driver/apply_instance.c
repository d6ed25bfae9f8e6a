/*
 * apply_instance.c: how a template kernel's variant goes in: never over the
 * template (other instantiations would get it), but as a renamed copy of the
 * rewritten template after it, and each launch site in the file whose
 * instantiation the variant was verified on names the copy instead (where a
 * launch deduces its instantiation inside a function template, explicit
 * specializations instead: apply_specialize.c).
 */
#include "apply.h"

#include <string.h>

#include "harness.h"

/* text without blanks, a leading "::" gone, in a */
static const char *squeezed(const char *text, size_t n, arena *a)
{
    char *out = arena_alloc(a, n + 1);
    size_t k = 0;
    for (size_t i = 0; i < n; i++)
        if (text[i] != ' ' && text[i] != '\t' && text[i] != '\n' && text[i] != '\r')
            out[k++] = text[i];
    out[k] = '\0';
    return out[0] == ':' && out[1] == ':' ? out + 2 : out;
}

/* the template arguments of an instantiation as the captures name it
 * ("tk::scale<128, float>" -> "128,float"), or NULL */
static const char *instance_args(const char *inst, size_t n, arena *a)
{
    const char *lt = memchr(inst, '<', n);
    if (!lt || inst[n - 1] != '>')
        return NULL;
    return squeezed(lt + 1, (size_t)(inst + n - 1 - (lt + 1)), a);
}

/* whether args (squeezed) is one of the instantiations, one a line */
static int verified_on(const char *instances, const char *args, arena *a)
{
    for (const char *p = instances; p && *p;) {
        size_t n = strcspn(p, "\n");
        const char *ia = n ? instance_args(p, n, a) : NULL;
        if (ia && strcmp(ia, args) == 0)
            return 1;
        p += n + (p[n] == '\n');
    }
    return 0;
}

int apply_instance_edits(const apply_place *p, const tunedb_variant *v, arena *a,
                         const char **copy_out, rw_launch_change **launches, size_t *n_launches,
                         strbuf *why)
{
    const tu_model *m = p->model;
    const kernel *k = &m->kernels.items[p->kernel_index];
    const source_file *sf = model_file(m, m->main_file);
    if (!v->instances || !*v->instances) {
        sb_puts(why, "a template kernel's variant verified on no named instantiation");
        return -1;
    }
    if (apply_has_deduced_launch(m, p->kernel_index)) {
        /* a launch no edit can point at the copy: specializations instead */
        *launches = NULL;
        *n_launches = 0;
        return apply_specializations(p, v, a, copy_out, why);
    }
    const char *copy_name = arena_printf(a, "%s__cl1cc_inst", k->name);
    const char *copy = hn_rename_kernel(v->source, k->name, copy_name, a);
    if (!sf || !copy) {
        sb_puts(why, "the variant names no __global__ of the kernel's name");
        return -1;
    }
    VEC(rw_launch_change) out = {0};
    for (size_t i = 0; i < m->launches.len; i++) {
        const launch_site *s = &m->launches.items[i];
        if (s->kernel_index != (long)p->kernel_index || s->in_macro || s->range.in_macro ||
            !s->range.file || strcmp(s->range.file, m->main_file) != 0 ||
            s->range.begin < (p->in_header ? p->include.end : k->decl_range.end) ||
            !s->config_range.present ||
            s->config_range.begin > sf->len || s->config_range.begin <= s->range.begin ||
            !s->template_args)
            continue; /* this site keeps launching the template */
        /* the callee as written: "tk::scale<128, float>" or "fill" */
        size_t b = s->range.begin, e = s->config_range.begin;
        while (e > b && (sf->text[e - 1] == ' ' || sf->text[e - 1] == '\t'))
            e--;
        const char *callee = arena_printf(a, "%.*s", (int)(e - b), sf->text + b);
        const char *lt = strchr(callee, '<');
        /* the instantiation this site runs, as the frontend resolved it;
         * written arguments must say the same */
        const char *args = squeezed(s->template_args, strlen(s->template_args), a);
        if (lt) {
            size_t cl = strlen(callee);
            if (callee[cl - 1] != '>' ||
                strcmp(squeezed(lt + 1, cl - (size_t)(lt - callee) - 2, a), args) != 0)
                continue;
        }
        if (!verified_on(v->instances, args, a))
            continue; /* verified on other instantiations only */
        /* the name's last component becomes the copy's */
        size_t name_end = lt ? (size_t)(lt - callee) : strlen(callee);
        while (name_end > 0 && (callee[name_end - 1] == ' ' || callee[name_end - 1] == '\t'))
            name_end--;
        size_t kn = strlen(k->name);
        if (name_end < kn || strncmp(callee + name_end - kn, k->name, kn) != 0)
            continue;
        const char *text = arena_printf(a, "%.*s%s%s%s%s", (int)(name_end - kn), callee,
                                        copy_name, lt ? lt : "<", lt ? "" : s->template_args,
                                        lt ? "" : ">");
        rw_launch_change c = {b, e, text};
        vec_push(&out, c);
    }
    if (!out.len) {
        vec_free(&out);
        sb_puts(why, "no launch site after the template launches an instantiation the variant "
                     "was verified on");
        return -1;
    }
    *launches = arena_alloc(a, out.len * sizeof **launches);
    memcpy(*launches, out.items, out.len * sizeof **launches);
    *n_launches = out.len;
    vec_free(&out);
    *copy_out = arena_printf(a, "\n%s", copy);
    return 0;
}
