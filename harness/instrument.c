/*
 * instrument.c: rewrites the launch sites of a TU so each launch of a
 * capturable kernel goes through cl1cc_capture::launch (runtime/
 * cl1cc_capture.cuh): arguments evaluated once, converted to the kernel's
 * parameter types, saved with the memory they point into, then launched.
 */
#include "harness.h"

#include <string.h>

#include "frontend.h"
#include "rewrite.h"

int hn_kernel_capturable(const kernel *k, const char **why)
{
    if (!k->is_definition) {
        *why = "defined in another translation unit";
        return 0;
    }
    /* a template's dependent parameters get their size per instantiation */
    for (size_t i = 0; i < k->params.len && !k->is_template; i++)
        if (k->params.items[i].size_bytes < 0) {
            *why = "a parameter of unknown size";
            return 0;
        }
    if (k->params.len > 64) {
        *why = "more than 64 parameters";
        return 0;
    }
    return 1;
}

/* The instantiation a template kernel's launch names, as an expression
 * (`ns::k<256, float>`): the callee as written when it has its template
 * arguments, else the callee and the arguments the frontend deduced; NULL
 * with why when neither names it (arguments deduced inside a function
 * template, or a type that cannot be spelled there). */
static const char *instance_expr(const tu_model *m, const launch_site *l, arena *a,
                                 const char **why)
{
    const source_file *sf = model_file(m, l->range.file);
    if (!sf || !l->config_range.present || l->config_range.begin < l->range.begin ||
        l->config_range.begin > sf->len) {
        *why = "the launch's text is not known";
        return NULL;
    }
    size_t b = l->range.begin, e = l->config_range.begin;
    while (b < e && (sf->text[b] == ' ' || sf->text[b] == '\t'))
        b++;
    while (e > b && (sf->text[e - 1] == ' ' || sf->text[e - 1] == '\t' || sf->text[e - 1] == '\n'))
        e--;
    const char *callee = arena_printf(a, "%.*s", (int)(e - b), sf->text + b);
    if (strchr(callee, '<'))
        return callee;
    if (!l->template_args) {
        *why = "its template arguments are deduced inside a function template";
        return NULL;
    }
    if (strstr(l->template_args, "(anonymous") || strstr(l->template_args, "(lambda") ||
        strstr(l->template_args, "(unnamed")) {
        *why = "a deduced template argument cannot be named at the launch";
        return NULL;
    }
    return arena_printf(a, "%s<%s>", callee, l->template_args);
}

/* a template kernel's launch: the arguments converted to the parameter
 * types of the instantiation (through its pointer), which the capture
 * records beside the launch */
static void put_template_launch(strbuf *out, const tu_model *m, const launch_site *l,
                                size_t index, const char *tag, const char *inst)
{
    const kernel *k = &m->kernels.items[l->kernel_index];
    sb_puts(out, "([&]() { ");
    sb_printf(out, "dim3 cl1_grid = (%s); dim3 cl1_block = (%s); ", l->grid.text, l->block.text);
    sb_printf(out, "size_t cl1_shmem = (%s); ", l->shmem.range.present ? l->shmem.text : "0");
    sb_printf(out, "cudaStream_t cl1_stream = (%s); ", l->stream.range.present ? l->stream.text : "0");
    sb_printf(out, "auto cl1_f = &%s; ", inst);
    for (size_t i = 0; i < l->args.len; i++)
        sb_printf(out, "auto cl1_a%zu = cl1cc_capture::arg_as<%zu>(cl1_f, (%s)); ", i, i,
                  l->args.items[i].text);
    sb_printf(out, "cl1cc_capture::launch cl1_l(\"%s\", \"%s\", %ld, cl1_grid, cl1_block, cl1_shmem, cl1_stream, "
                   "cl1cc_capture::instance_text<decltype(&%s), &%s>()); ",
              tag, k->qualified_name, l->kernel_index, inst, inst);
    for (size_t i = 0; i < l->args.len; i++)
        sb_printf(out, "cl1_l.arg((const void *)&cl1_a%zu, sizeof cl1_a%zu, cl1cc_capture::is_pointer(cl1_a%zu)); ",
                  i, i, i);
    sb_printf(out, "cl1_l.before(); %s<<<cl1_grid, cl1_block, cl1_shmem, cl1_stream>>>(", inst);
    for (size_t i = 0; i < l->args.len; i++)
        sb_printf(out, "%scl1_a%zu", i ? ", " : "", i);
    sb_printf(out, "); cl1_l.after(); }() /* cl1cc capture of launch %zu */)", index);
}

static void put_launch(strbuf *out, const tu_model *m, const launch_site *l, size_t index,
                       const char *tag)
{
    const kernel *k = &m->kernels.items[l->kernel_index];
    sb_puts(out, "([&]() { ");
    sb_printf(out, "dim3 cl1_grid = (%s); dim3 cl1_block = (%s); ", l->grid.text, l->block.text);
    sb_printf(out, "size_t cl1_shmem = (%s); ", l->shmem.range.present ? l->shmem.text : "0");
    sb_printf(out, "cudaStream_t cl1_stream = (%s); ", l->stream.range.present ? l->stream.text : "0");
    for (size_t i = 0; i < l->args.len; i++)
        sb_printf(out, "%s cl1_a%zu = (%s); ", k->params.items[i].type, i, l->args.items[i].text);
    sb_printf(out, "cl1cc_capture::launch cl1_l(\"%s\", \"%s\", %ld, cl1_grid, cl1_block, cl1_shmem, cl1_stream); ",
              tag, k->qualified_name, l->kernel_index);
    for (size_t i = 0; i < l->args.len; i++)
        sb_printf(out, "cl1_l.arg((const void *)&cl1_a%zu, sizeof cl1_a%zu, %d); ", i, i,
                  k->params.items[i].is_pointer);
    sb_printf(out, "cl1_l.before(); %s<<<cl1_grid, cl1_block, cl1_shmem, cl1_stream>>>(",
              l->kernel_name);
    for (size_t i = 0; i < l->args.len; i++)
        sb_printf(out, "%scl1_a%zu", i ? ", " : "", i);
    sb_printf(out, "); cl1_l.after(); }() /* cl1cc capture of launch %zu */)", index);
}

int hn_instrument(const tu_model *m, const char *runtime_header, const char *tag,
                  strbuf *out, strbuf *report, strbuf *err)
{
    const source_file *sf = model_file(m, m->main_file);
    if (!sf) {
        sb_printf(err, "%s: the frontend kept no text", m->main_file);
        return -1;
    }
    VEC(rw_edit) edits = {0};
    arena a;
    arena_init(&a);
    int instrumented = 0;
    for (size_t i = 0; i < m->launches.len; i++) {
        const launch_site *l = &m->launches.items[i];
        const char *why = NULL, *inst = NULL;
        const kernel *k = l->kernel_index >= 0 ? &m->kernels.items[l->kernel_index] : NULL;
        if (!k)
            why = "the kernel is not resolved";
        else if (l->in_macro || l->range.in_macro)
            why = "launched from a macro";
        else if (strcmp(l->range.file, m->main_file) != 0)
            why = "the launch is in another file";
        else if (!hn_kernel_capturable(k, &why))
            ;
        else if (l->args.len != k->params.len)
            why = "default arguments at the launch";
        else if (k->is_template)
            inst = instance_expr(m, l, &a, &why);
        if (why) {
            sb_printf(report, "%s:%u: launch of %s not_captured: %s\n", l->range.file,
                      l->range.line, l->kernel_name, why);
            continue;
        }
        strbuf text;
        sb_init(&text);
        if (inst)
            put_template_launch(&text, m, l, i, tag, inst);
        else
            put_launch(&text, m, l, i, tag);
        rw_edit e = {l->range.begin, l->range.end, arena_strdup(&a, sb_str(&text)), 0};
        sb_free(&text);
        vec_push(&edits, e);
        instrumented++;
    }
    /* the runtime comes first; #line keeps the user's line numbers */
    sb_printf(out, "#include \"%s\"\n", runtime_header);
    rw_status st = rw_splice(sf->text, sf->len, m->main_file, edits.items, edits.len, 1, out, err);
    vec_free(&edits);
    arena_free(&a);
    return st == RW_OK ? instrumented : -1;
}
