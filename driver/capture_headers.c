/*
 * capture_headers.c: launches written in project headers, instrumented
 * for capture.  A header the main file includes itself, once, is read in
 * place of its #include with its launches instrumented, as the wrapper
 * splices a header kernel (apply_header.c); a launch of any other file
 * stays not_captured.
 */
#include "splice_tu.h"

#include <string.h>

#include "apply.h"
#include "harness.h"

static int listed_in(const cstr_vec *v, const char *s)
{
    for (size_t i = 0; i < v->len; i++)
        if (strcmp(v->items[i], s) == 0)
            return 1;
    return 0;
}

/* header f's launches instrumented, its text in place of its #include into
 * extra; the number instrumented, or -1 (why logged) */
static int instrument_header(const tu_model *m, const nvcc_cmdline *cl, const char *f,
                             const char *tag, arena *a, text_edit_vec *extra, strbuf *report)
{
    apply_include inc;
    const char *why = NULL;
    if (apply_header_include(m, f, cl, a, &inc, &why) != 0) {
        log_verbose("capture: the launches of %s: not instrumented (%s)", f, why);
        return -1;
    }
    text_edit_vec edits = {0};
    strbuf lines, text, text_why;
    sb_init(&lines);
    sb_init(&text);
    sb_init(&text_why);
    int n = hn_instrument_edits(m, f, tag, a, &edits, &lines);
    if (apply_header_text(m, f, &inc, edits.items, edits.len, a, &text, &text_why) != 0) {
        log_verbose("capture: the launches of %s: not instrumented (%s)", f, sb_str(&text_why));
        n = -1;
    } else {
        text_edit e = {inc.begin, inc.end, arena_strndup(a, sb_str(&text), text.len), 0};
        vec_push(extra, e);
        sb_puts(report, sb_str(&lines));
    }
    vec_free(&edits);
    sb_free(&lines);
    sb_free(&text);
    sb_free(&text_why);
    return n;
}

int capture_header_edits(const tu_model *m, const nvcc_cmdline *cl, const char *tag, arena *a,
                         text_edit_vec *extra, strbuf *report)
{
    cstr_vec tried = {0}, done = {0};
    int total = 0;
    for (size_t i = 0; i < m->launches.len; i++) {
        const char *f = m->launches.items[i].range.file;
        if (!f || strcmp(f, m->main_file) == 0 || listed_in(&tried, f) || !model_file(m, f))
            continue;
        vec_push(&tried, f);
        int n = instrument_header(m, cl, f, tag, a, extra, report);
        if (n >= 0) {
            vec_push(&done, f);
            total += n;
        }
    }
    hn_report_other_files(m, (const char *const *)done.items, done.len, report);
    vec_free(&tried);
    vec_free(&done);
    return total;
}
