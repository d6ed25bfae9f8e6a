/*
 * splice_tu.c: see splice_tu.h.  Everything here that fails returns an
 * error up to the wrapper, which falls back to plain nvcc.
 */
#include "splice_tu.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "apply.h"
#include "config.h"
#include "driver.h"
#include "frontend.h"
#include "harness.h"
#include "proc.h"
#include "rewrite.h"
#include "splice_launch.h"
#include "tempfiles.h"
#include "tunedb.h"

/* The edits of one file: the main file's (file NULL), or a header's, with
 * the directive that brings it in and its kernels' launch edits (in the
 * main file). */
typedef struct file_edits {
    const char *file;
    apply_include include;
    rw_edit_vec edits;
    rw_edit_vec launches;
    size_t applied;
} file_edits;
typedef VEC(file_edits) file_edits_vec;

static file_edits *group_of(file_edits_vec *groups, const apply_place *p)
{
    const char *file = p->in_header ? p->file : NULL;
    for (size_t i = 0; i < groups->len; i++) {
        const char *f = groups->items[i].file;
        if ((!f && !file) || (f && file && strcmp(f, file) == 0))
            return &groups->items[i];
    }
    file_edits g;
    memset(&g, 0, sizeof g);
    g.file = file;
    g.include = p->include;
    vec_push(groups, g);
    return &groups->items[groups->len - 1];
}

/* The edits that put the variant chosen for kernel i into the TU (or into
 * the header that defines it), added to its file's group; 0 (applied or
 * left out, said in verbose mode), or -1 on a database error. */
static int plan_kernel(tunedb *db, const tu_model *m, size_t i, const nvcc_cmdline *cl,
                       const char *path, arena *a, file_edits_vec *groups, strbuf *msg)
{
    const kernel *k = &m->kernels.items[i];
    apply_place place;
    const char *unreachable = NULL;
    /* a variant verified with another launch configuration may be wrong
     * with this one: the wrapper applies the rules of core/launch_rule.h
     * only, never edits of the launches' text */
    switch (apply_place_of_kernel(&place, m, i, cl, (const char *const *)cl->gpu_archs.items,
                                  cl->gpu_archs.len, APPLY_LAUNCH_RULES | APPLY_HEADER_KERNELS,
                                  a, &unreachable)) {
    case APPLY_NOT_A_PLACE:
        return 0;
    case APPLY_REWRITTEN:
        log_verbose("%s: kernel %s: rewritten by cl1cc rewrite: not spliced again", path,
                    k->qualified_name);
        return 0;
    case APPLY_UNREACHABLE:
        break;
    case APPLY_HERE:
        break;
    }
    apply_choice choice;
    int rc = apply_choose(db, &place, a, &choice, msg);
    if (rc <= 0)
        return rc;
    const tunedb_variant *v = &choice.variant;
    if (unreachable) {
        log_verbose("%s: kernel %s of %s: verified variant %lld: not spliced (%s)", path,
                    k->qualified_name, place.file, v->id, unreachable);
        return 0;
    }
    apply_edits ed;
    strbuf why;
    sb_init(&why);
    apply_plan_status st = apply_plan(&place, v, a, &ed, &why);
    if (st == APPLY_NOT_TAKEN)
        log_verbose("%s: kernel %s: verified variant %lld needs launch edits: not spliced "
                    "(cl1cc rewrite applies it)", path, k->qualified_name, v->id);
    else if (st == APPLY_CANNOT)
        log_verbose("%s: kernel %s: verified variant %lld needs another launch "
                    "configuration: not spliced (%s)", path, k->qualified_name, v->id,
                    sb_str(&why));
    sb_free(&why);
    if (st != APPLY_PLANNED)
        return 0;
    file_edits *g = group_of(groups, &place);
    rw_edit_vec *launches = place.in_header ? &g->launches : &g->edits;
    for (size_t j = 0; j < ed.n_launches; j++) {
        rw_edit e = {ed.launches[j].begin, ed.launches[j].end, ed.launches[j].text, 0};
        vec_push(launches, e);
    }
    if (ed.definition) {
        rw_edit e = {ed.begin, ed.end, ed.definition, 0};
        vec_push(&g->edits, e);
    }
    if (ed.after) {
        rw_edit e = {ed.end, ed.end, ed.after, 0};
        vec_push(&g->edits, e);
    }
    g->applied++;
    tunedb_log_applied(db, v, path); /* for `cl1cc db stats` */
    log_verbose("%s: kernel %s%s%s: verified variant %lld (x%.2f on %s) applies", path,
                k->qualified_name, place.in_header ? " of " : "",
                place.in_header ? place.file : "", v->id, v->speedup, v->arch);
    return 0;
}

/* The main file's edits: its own, and for each header with edits the
 * directive that includes it replaced by the header's spliced text (and
 * its kernels' launch edits; the header's name, a line, to headers).  The
 * number of variants applied. */
static size_t main_file_edits(const tu_model *m, const char *path, file_edits_vec *groups,
                              arena *a, rw_edit_vec *out, strbuf *headers)
{
    size_t applied = 0;
    for (size_t i = 0; i < groups->len; i++) {
        file_edits *g = &groups->items[i];
        if (g->file) {
            strbuf text, why;
            sb_init(&text);
            sb_init(&why);
            int rc = apply_header_text(m, g->file, &g->include, g->edits.items, g->edits.len,
                                       a, &text, &why);
            if (rc == 0) {
                rw_edit e = {g->include.begin, g->include.end,
                             arena_strndup(a, sb_str(&text), text.len), 0};
                vec_push(out, e);
                for (size_t j = 0; j < g->launches.len; j++)
                    vec_push(out, g->launches.items[j]);
                applied += g->applied;
                sb_printf(headers, "%s\n", g->include.spelled);
            } else {
                log_verbose("%s: the kernels of %s: not spliced (%s)", path, g->file,
                            sb_str(&why));
            }
            sb_free(&text);
            sb_free(&why);
        } else {
            for (size_t j = 0; j < g->edits.len; j++)
                vec_push(out, g->edits.items[j]);
            applied += g->applied;
        }
        vec_free(&g->edits);
        vec_free(&g->launches);
    }
    return applied;
}

/* A TU the frontend could not read: one line for the fallback's warning
 * (its first diagnostic), all of them with CL1CC_VERBOSE=1. */
static void say_unread(const char *path, const strbuf *diags, strbuf *msg)
{
    const char *first = sb_str(diags);
    const char *nl = strchr(first, '\n');
    sb_printf(msg, "%s: the frontend could not read it (%.*s)", path,
              (int)(nl ? (size_t)(nl - first) : strlen(first)), first);
    log_verbose("%s: the frontend's diagnostics:\n%s", path, first);
}

static splice_status plan_input(tunedb *db, const nvcc_cmdline *cl, const nvcc_input *in,
                                splice_plan *plan, strbuf *msg)
{
    fe_options opt = driver_frontend_options(cl);
    tu_model m;
    model_init(&m);
    strbuf diags;
    sb_init(&diags);
    fe_status fs = fe_parse(in->path, &opt, &m, &diags);
    if (fs != FE_OK) {
        say_unread(in->path, &diags, msg);
        sb_free(&diags);
        model_free(&m);
        return SPLICE_ERROR;
    }
    sb_free(&diags);

    file_edits_vec groups = {0};
    splice_status st = SPLICE_NOTHING;
    for (size_t i = 0; i < m.kernels.len; i++)
        if (plan_kernel(db, &m, i, cl, in->path, &plan->strings, &groups, msg) < 0) {
            st = SPLICE_ERROR;
            break;
        }
    rw_edit_vec edits = {0};
    strbuf headers;
    sb_init(&headers);
    size_t applied = main_file_edits(&m, in->path, &groups, &plan->strings, &edits, &headers);
    vec_free(&groups);
    if (st != SPLICE_ERROR && edits.len) {
        const source_file *sf = model_file(&m, m.main_file);
        strbuf text;
        sb_init(&text);
        if (!sf || rw_splice(sf->text, sf->len, in->path, edits.items, edits.len, 1,
                             &text, msg) != RW_OK) {
            if (!sf)
                sb_printf(msg, "%s: its text was not kept by the frontend", in->path);
            st = SPLICE_ERROR;
        } else {
            spliced_input si;
            si.arg_index = in->arg_index;
            si.original = in->path;
            si.text = arena_strndup(&plan->strings, sb_str(&text), text.len);
            si.n_variants = applied;
            si.headers = headers.len ? arena_strdup(&plan->strings, sb_str(&headers)) : NULL;
            vec_push(&plan->inputs, si);
            st = SPLICE_OK;
        }
        sb_free(&text);
    }
    vec_free(&edits);
    sb_free(&headers);
    model_free(&m);
    return st;
}

/* Whether the file's text holds any of the names as a word.  A file that
 * cannot be read is said to: the parser will say what is wrong. */
static int file_mentions_any(const char *path, const cstr_vec *names)
{
    if (!names->len)
        return 0;
    char *text;
    size_t len;
    if (file_read_all(path, 0, &text, &len) != 0)
        return 1;
    int found = apply_mentions_any(text, names);
    free(text);
    return found;
}

splice_status splice_plan_make(const nvcc_cmdline *cl, splice_plan *plan, strbuf *msg)
{
    memset(plan, 0, sizeof *plan);
    arena_init(&plan->strings);
    if (!cl->gpu_archs.len) {
        sb_puts(msg, "no GPU arch to look variants up for: plain nvcc");
        return SPLICE_NOTHING;
    }
    const char *path = tunedb_default_path(&plan->strings);
    if (!path) {
        sb_puts(msg, "no place for a tuning database (set CL1CC_DB or HOME): plain nvcc");
        return SPLICE_NOTHING;
    }
    tunedb *db = NULL;
    int rc = tunedb_open(path, TUNEDB_READONLY, &db, msg);
    if (rc == 1) {
        sb_printf(msg, "no tuning database at %s: plain nvcc", path);
        return SPLICE_NOTHING;
    }
    if (rc != 0)
        return SPLICE_ERROR;
    /* names of kernels with something to apply: a TU that mentions none of
     * them is not parsed at all */
    cstr_vec names = {0};
    if (apply_kernel_names(db, (const char *const *)cl->gpu_archs.items, cl->gpu_archs.len,
                           &plan->strings, &names, msg) != 0) {
        vec_free(&names);
        tunedb_close(db);
        return SPLICE_ERROR;
    }
    splice_status overall = SPLICE_NOTHING;
    for (size_t i = 0; i < cl->inputs.len; i++) {
        const nvcc_input *in = &cl->inputs.items[i];
        if (in->lang != NVCC_LANG_CU || !file_mentions_any(in->path, &names))
            continue;
        splice_status st = plan_input(db, cl, in, plan, msg);
        if (st == SPLICE_ERROR) {
            overall = SPLICE_ERROR;
            break;
        }
        if (st == SPLICE_OK)
            overall = SPLICE_OK;
    }
    vec_free(&names);
    tunedb_close(db);
    if (overall == SPLICE_NOTHING && !msg->len)
        sb_puts(msg, "no verified variant applies to these kernels: plain nvcc");
    return overall;
}

void splice_plan_free(splice_plan *plan)
{
    vec_free(&plan->inputs);
    arena_free(&plan->strings);
}

/* compiling the plan: splice_compile.c */

/* ---- capture builds ---------------------------------------------------------- */

static int listed(const char *list, const char *path)
{
    char resolved[4096];
    if (!realpath(path, resolved))
        return 0;
    size_t n = strlen(resolved);
    for (const char *p = list; p && *p;) {
        const char *end = strchr(p, ':');
        size_t len = end ? (size_t)(end - p) : strlen(p);
        if (len == n && strncmp(p, resolved, n) == 0)
            return 1;
        p = end ? end + 1 : NULL;
    }
    return 0;
}

/* the compile command, for building replay drivers with the same flags */
static void save_compile_args(const nvcc_cmdline *cl, const char *dir)
{
    strbuf sb;
    sb_init(&sb);
    for (size_t i = 0; i < cl->argv.len; i++)
        sb_printf(&sb, "%s\n", cl->argv.items[i]);
    char path[4200];
    snprintf(path, sizeof path, "%s/compile.args", dir);
    if (dir_create_all(dir, 0755) != 0 || file_write_atomic(path, sb_str(&sb), sb.len) != 0)
        log_warn("capture: cannot write %s: %s", path, strerror(errno));
    sb_free(&sb);
}

/* the mark that FILE went through cl1cc during the capture's build, for
 * `cl1cc tune` to say why a kernel was not captured: "instrumented N",
 * then the instrumenter's not_captured lines (harness/instrument.c) */
static void save_instrument_report(const char *dir, int n, const char *report)
{
    strbuf sb;
    sb_init(&sb);
    sb_printf(&sb, "instrumented %d\n%s", n, report);
    char path[4200];
    snprintf(path, sizeof path, "%s/" SPLICE_INSTRUMENT_REPORT, dir);
    if (dir_create_all(dir, 0755) != 0 || file_write_atomic(path, sb_str(&sb), sb.len) != 0)
        log_warn("capture: cannot write %s: %s", path, strerror(errno));
    sb_free(&sb);
}

splice_status splice_plan_capture(const nvcc_cmdline *cl, const char *files,
                                  const char *capture_dir, splice_plan *plan, strbuf *msg)
{
    memset(plan, 0, sizeof *plan);
    arena_init(&plan->strings);
    const char *header = arena_printf(&plan->strings, "%s/../share/cl1cc/runtime/cl1cc_capture.cuh",
                                      self_exe_dir());
    splice_status overall = SPLICE_NOTHING;
    for (size_t i = 0; i < cl->inputs.len; i++) {
        const nvcc_input *in = &cl->inputs.items[i];
        if (in->lang != NVCC_LANG_CU || !listed(files, in->path))
            continue;
        fe_options opt = driver_frontend_options(cl);
        tu_model m;
        model_init(&m);
        strbuf diags, text, report;
        sb_init(&diags);
        sb_init(&text);
        sb_init(&report);
        if (fe_parse(in->path, &opt, &m, &diags) != FE_OK) {
            say_unread(in->path, &diags, msg);
            overall = SPLICE_ERROR;
        } else {
            const char *tag = hn_capture_tag(in->path, &plan->strings);
            text_edit_vec headers = {0};
            int in_headers =
                capture_header_edits(&m, cl, tag, &plan->strings, &headers, &report);
            int n = hn_instrument(&m, header, tag, headers.items, headers.len, &text, &report, msg);
            vec_free(&headers);
            if (n >= 0)
                n += in_headers;
            fputs(sb_str(&report), stderr);
            if (n >= 0)
                save_instrument_report(arena_printf(&plan->strings, "%s/%s", capture_dir, tag), n,
                                       sb_str(&report));
            if (n < 0) {
                overall = SPLICE_ERROR;
            } else if (n > 0) {
                save_compile_args(cl, arena_printf(&plan->strings, "%s/%s", capture_dir, tag));
                spliced_input si = {in->arg_index, in->path,
                                    arena_strndup(&plan->strings, sb_str(&text), text.len),
                                    (size_t)n, NULL};
                vec_push(&plan->inputs, si);
                log_verbose("%s: %d launch(es) instrumented for capture", in->path, n);
                if (overall == SPLICE_NOTHING)
                    overall = SPLICE_OK;
            }
        }
        sb_free(&diags);
        sb_free(&text);
        sb_free(&report);
        model_free(&m);
        if (overall == SPLICE_ERROR)
            break;
    }
    return overall;
}
