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
    if (k->is_template) {
        *why = "a template kernel (captured per instantiation: not yet)";
        return 0;
    }
    if (!k->is_definition) {
        *why = "defined in another translation unit";
        return 0;
    }
    for (size_t i = 0; i < k->params.len; i++)
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
        const char *why = NULL;
        if (l->kernel_index < 0)
            why = "the kernel is not resolved";
        else if (l->in_macro || l->range.in_macro)
            why = "the launch is written by a macro";
        else if (strcmp(l->range.file, m->main_file) != 0)
            why = "the launch is in another file";
        else if (!hn_kernel_capturable(&m->kernels.items[l->kernel_index], &why))
            ;
        else if (l->args.len != m->kernels.items[l->kernel_index].params.len)
            why = "default arguments at the launch";
        if (why) {
            sb_printf(report, "%s:%u: launch of %s not captured: %s\n", l->range.file,
                      l->range.line, l->kernel_name, why);
            continue;
        }
        strbuf text;
        sb_init(&text);
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
