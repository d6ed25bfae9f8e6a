/*
 * instrument.c: rewrites the launch sites of a TU so each launch of a
 * capturable kernel goes through cl1cc_capture::launch (runtime/
 * cl1cc_capture.cuh): arguments evaluated once, converted to the kernel's
 * parameter types, saved with the memory they point into, then launched.
 * A launch a macro makes is instrumented in the macro's expansion, written
 * in place of its invocation, where the kernel is a plain identifier there.
 */
#include "harness.h"

#include <string.h>

#include "deduced_launch.h"
#include "frontend.h"
#include "macro_launch.h"
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
 * with why when neither names it (a type that cannot be spelled there), or
 * NULL and no why when the arguments are deduced where no instantiation can
 * be named (inside a function template: the twin names it). */
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
    if (!l->template_args)
        return NULL;
    if (strstr(l->template_args, "(anonymous") || strstr(l->template_args, "(lambda") ||
        strstr(l->template_args, "(unnamed")) {
        *why = "a deduced template argument cannot be named at the launch";
        return NULL;
    }
    return arena_printf(a, "%s<%s>", callee, l->template_args);
}

/* whether the launch passes an argument for each of k's parameters (a
 * trailing parameter pack takes any number) */
static int args_fit(const kernel *k, const launch_site *l)
{
    size_t n = k->params.len;
    const char *last = n ? k->params.items[n - 1].type : "";
    size_t len = strlen(last);
    if (k->is_template && len >= 3 && strcmp(last + len - 3, "...") == 0)
        return l->args.len + 1 >= n;
    return l->args.len == n;
}

/* The kernel's __constant__ and __device__ variables that the launch at l
 * sees, handed to the capture (which saves them beside the allocations,
 * for a launch it captures) by the names that reach them from anywhere */
static void put_state_vars(strbuf *out, const tu_model *m, const kernel *k, const launch_site *l,
                           arena *a)
{
    const dependency *vars[HN_MAX_STATE_VARS];
    size_t n = hn_state_vars(m, k, vars, HN_MAX_STATE_VARS);
    int opened = 0;
    for (size_t i = 0; i < n; i++) {
        if (!hn_state_var_visible_at(vars[i], &l->range))
            continue;
        if (!opened)
            sb_puts(out, "if (cl1_l.eligible) { ");
        opened = 1;
        const char *e = hn_state_var_expr(vars[i], a);
        sb_printf(out, "cl1_l.symbol(\"%s\", (const void *)&::%s, sizeof ::%s); ", e, e, e);
    }
    if (opened)
        sb_puts(out, "} ");
}

/* a template kernel's launch: the arguments converted to the parameter
 * types of the instantiation (through its pointer), which the capture
 * records beside the launch.  The instantiation is inst, or (inst NULL)
 * the one the twin's call deduces from the arguments: cl1_t::fn. */
static void put_template_launch(strbuf *out, const tu_model *m, const launch_site *l,
                                size_t index, const char *tag, const char *inst,
                                const hn_twin *twin, arena *a)
{
    const kernel *k = &m->kernels.items[l->kernel_index];
    const char **args = arena_alloc(a, (l->args.len + 1) * sizeof *args);
    sb_puts(out, "([&]() { ");
    sb_printf(out, "dim3 cl1_grid = (%s); dim3 cl1_block = (%s); ", l->grid.text, l->block.text);
    sb_printf(out, "size_t cl1_shmem = (%s); ", l->shmem.range.present ? l->shmem.text : "0");
    sb_printf(out, "cudaStream_t cl1_stream = (%s); ", l->stream.range.present ? l->stream.text : "0");
    for (size_t i = 0; i < l->args.len; i++)
        args[i] = arena_printf(a, "(%s)", l->args.items[i].text);
    const char *fn, *fn_type;
    if (inst) {
        fn = arena_printf(a, "&%s", inst);
        fn_type = arena_printf(a, "decltype(&%s)", inst);
    } else {
        /* a lambda's type is its own: evaluated once, named by its variable */
        for (size_t i = 0; i < l->args.len; i++)
            if (hn_arg_is_lambda(l->args.items[i].text)) {
                sb_printf(out, "auto cl1_v%zu = %s; ", i, args[i]);
                args[i] = arena_printf(a, "cl1_v%zu", i);
            }
        sb_printf(out, "typedef decltype(%s(", twin->call);
        for (size_t i = 0; i < l->args.len; i++)
            sb_printf(out, "%s%s", i ? ", " : "", args[i]);
        sb_puts(out, ")) cl1_t; ");
        fn = "cl1_t::fn";
        fn_type = "typename cl1_t::type";
    }
    sb_printf(out, "auto cl1_f = %s; ", fn);
    for (size_t i = 0; i < l->args.len; i++)
        sb_printf(out, "auto cl1_a%zu = cl1cc_capture::arg_as<%zu>(cl1_f, %s); ", i, i, args[i]);
    sb_printf(out, "cl1cc_capture::launch cl1_l(\"%s\", \"%s\", %ld, cl1_grid, cl1_block, cl1_shmem, cl1_stream, "
                   "cl1cc_capture::instance_text<%s, %s>()); ",
              tag, k->qualified_name, l->kernel_index, fn_type, fn);
    for (size_t i = 0; i < l->args.len; i++)
        sb_printf(out, "cl1_l.arg((const void *)&cl1_a%zu, sizeof cl1_a%zu, cl1cc_capture::is_pointer(cl1_a%zu)); ",
                  i, i, i);
    put_state_vars(out, m, k, l, a);
    sb_printf(out, "cl1_l.before(); %s<<<cl1_grid, cl1_block, cl1_shmem, cl1_stream>>>(", inst ? inst : fn);
    for (size_t i = 0; i < l->args.len; i++)
        sb_printf(out, "%scl1_a%zu", i ? ", " : "", i);
    sb_printf(out, "); cl1_l.after(); }() /* cl1cc capture of launch %zu */)", index);
}

/* a launch of a kernel that is no template, from the texts of its callee,
 * configuration (shmem and stream NULL when absent) and arguments */
static void put_launch_texts(strbuf *out, const tu_model *m, const launch_site *l,
                             long kernel_index, const char *callee, const char *grid, const char *block,
                             const char *shmem, const char *stream, const char *const *args,
                             size_t n_args, size_t index, const char *tag)
{
    const kernel *k = &m->kernels.items[kernel_index];
    sb_puts(out, "([&]() { ");
    sb_printf(out, "dim3 cl1_grid = (%s); dim3 cl1_block = (%s); ", grid, block);
    sb_printf(out, "size_t cl1_shmem = (%s); ", shmem ? shmem : "0");
    sb_printf(out, "cudaStream_t cl1_stream = (%s); ", stream ? stream : "0");
    for (size_t i = 0; i < n_args; i++)
        sb_printf(out, "%s cl1_a%zu = (%s); ", k->params.items[i].type, i, args[i]);
    sb_printf(out, "cl1cc_capture::launch cl1_l(\"%s\", \"%s\", %ld, cl1_grid, cl1_block, cl1_shmem, cl1_stream); ",
              tag, k->qualified_name, kernel_index);
    for (size_t i = 0; i < n_args; i++)
        sb_printf(out, "cl1_l.arg((const void *)&cl1_a%zu, sizeof cl1_a%zu, %d); ", i, i,
                  k->params.items[i].is_pointer);
    arena a;
    arena_init(&a);
    put_state_vars(out, m, k, l, &a);
    arena_free(&a);
    sb_printf(out, "cl1_l.before(); %s<<<cl1_grid, cl1_block, cl1_shmem, cl1_stream>>>(", callee);
    for (size_t i = 0; i < n_args; i++)
        sb_printf(out, "%scl1_a%zu", i ? ", " : "", i);
    sb_printf(out, "); cl1_l.after(); }() /* cl1cc capture of launch %zu */)", index);
}

static void put_launch(strbuf *out, const tu_model *m, const launch_site *l, size_t index,
                       const char *tag, arena *a)
{
    const char **args = arena_alloc(a, (l->args.len + 1) * sizeof *args);
    for (size_t i = 0; i < l->args.len; i++)
        args[i] = l->args.items[i].text;
    put_launch_texts(out, m, l, l->kernel_index, l->kernel_name, l->grid.text, l->block.text,
                     l->shmem.range.present ? l->shmem.text : NULL,
                     l->stream.range.present ? l->stream.text : NULL, args, l->args.len, index,
                     tag);
}

/* A launch a macro makes, where the kernel is a plain identifier in the
 * macro's expansion: the invocation becomes the expansion with the launch
 * instrumented (macro_launch.c).  NULL with why otherwise. */
static const char *macro_launch_text(const tu_model *m, const launch_site *l, size_t index,
                                     const char *tag, arena *a, const char **why)
{
    const kernel *k = &m->kernels.items[l->kernel_index];
    /* one invocation making several launches, or one inside another's */
    for (size_t j = 0; j < m->launches.len; j++) {
        const launch_site *o = &m->launches.items[j];
        if (o != l && o->range.file && strcmp(o->range.file, l->range.file) == 0 &&
            o->range.begin < l->range.end && l->range.begin < o->range.end) {
            *why = "launched from a macro that makes several launches";
            return NULL;
        }
    }
    if (k->is_template) {
        *why = "launched from a macro";
        return NULL;
    }
    hn_macro_launch ml;
    const char *no = NULL;
    if (hn_macro_launch_expand(m, l, k->name, a, &ml, &no) != 0) {
        *why = no;
        return NULL;
    }
    if (ml.n_args != k->params.len) {
        *why = "default arguments at the launch";
        return NULL;
    }
    strbuf text;
    sb_init(&text);
    sb_puts(&text, ml.before);
    put_launch_texts(&text, m, l, l->kernel_index, ml.callee, ml.grid, ml.block, ml.shmem,
                     ml.stream, ml.args, ml.n_args, index, tag);
    sb_puts(&text, ml.after);
    const char *out = arena_strdup(a, sb_str(&text));
    sb_free(&text);
    return out;
}

int hn_instrument_edits(const tu_model *m, const char *file, const char *tag, arena *a,
                        text_edit_vec *edits, strbuf *report)
{
    int instrumented = 0;
    for (size_t i = 0; i < m->launches.len; i++) {
        const launch_site *l = &m->launches.items[i];
        if (!l->range.file || strcmp(l->range.file, file) != 0)
            continue;
        const char *why = NULL, *inst = NULL, *expanded = NULL;
        hn_twin twin = {0};
        int twinned = 0;
        const kernel *k = l->kernel_index >= 0 ? &m->kernels.items[l->kernel_index] : NULL;
        int by_macro = l->in_macro || l->range.in_macro;
        if (!k)
            why = "the kernel is not resolved";
        else if (!hn_kernel_capturable(k, &why))
            ;
        else if (by_macro)
            expanded = macro_launch_text(m, l, i, tag, a, &why);
        else if (!args_fit(k, l))
            why = "default arguments at the launch";
        else if (k->is_template && !(inst = instance_expr(m, l, a, &why)) && !why)
            twinned = hn_twin_make(m, l, i, a, &twin, &why) == 0;
        if (why) {
            sb_printf(report, "%s:%u: launch of %s not_captured: %s\n", l->range.file,
                      l->range.line, l->kernel_name, why);
            continue;
        }
        strbuf text;
        sb_init(&text);
        if (expanded)
            sb_puts(&text, expanded);
        else if (inst || twinned)
            put_template_launch(&text, m, l, i, tag, inst, &twin, a);
        else
            put_launch(&text, m, l, i, tag, a);
        text_edit e = {l->range.begin, l->range.end, arena_strdup(a, sb_str(&text)), 0};
        sb_free(&text);
        vec_push(edits, e);
        if (twinned) { /* insertions at one place in launch order */
            text_edit t = {twin.at, twin.at, twin.decl, (int)i};
            vec_push(edits, t);
        }
        instrumented++;
    }
    return instrumented;
}

void hn_report_other_files(const tu_model *m, const char *const *done, size_t n_done,
                           strbuf *report)
{
    for (size_t i = 0; i < m->launches.len; i++) {
        const launch_site *l = &m->launches.items[i];
        int handled = l->range.file && strcmp(l->range.file, m->main_file) == 0;
        for (size_t d = 0; d < n_done && !handled && l->range.file; d++)
            handled = strcmp(l->range.file, done[d]) == 0;
        if (handled)
            continue;
        int by_macro = l->in_macro || l->range.in_macro;
        sb_printf(report, "%s:%u: launch of %s not_captured: %s\n", l->range.file, l->range.line,
                  l->kernel_name,
                  by_macro ? "launched from a macro" : "the launch is in another file");
    }
}

int hn_instrument(const tu_model *m, const char *runtime_header, const char *tag,
                  const text_edit *extra, size_t n_extra, strbuf *out, strbuf *report,
                  strbuf *err)
{
    const source_file *sf = model_file(m, m->main_file);
    if (!sf) {
        sb_printf(err, "%s: the frontend kept no text", m->main_file);
        return -1;
    }
    text_edit_vec edits = {0};
    arena a;
    arena_init(&a);
    int instrumented = hn_instrument_edits(m, m->main_file, tag, &a, &edits, report);
    for (size_t i = 0; i < n_extra; i++)
        vec_push(&edits, extra[i]);
    /* the runtime comes first; #line keeps the user's line numbers */
    sb_printf(out, "#include \"%s\"\n", runtime_header);
    rw_status st = rw_splice(sf->text, sf->len, m->main_file, edits.items, edits.len, 1, out, err);
    vec_free(&edits);
    arena_free(&a);
    return st == RW_OK ? instrumented : -1;
}
