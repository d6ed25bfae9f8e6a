/*
 * tune_why.c: why no launch of a kernel was captured, one short phrase for
 * the table and the JSON's `not_captured`: from the mark the build leaves for
 * each file it compiled through cl1cc (driver/splice_tu.c: what was
 * instrumented, and each launch site it could not instrument, with the
 * instrumenter's reason) and what the run left under the kernel's folder.
 */
#include <dirent.h>
#include <stdlib.h>
#include <string.h>

#include "core.h"
#include "harness.h"
#include "splice_tu.h"
#include "tune.h"

static const char *base_name(const char *path)
{
    const char *s = strrchr(path, '/');
    return s ? s + 1 : path;
}

/* the instrumenter's reason for the launch at FILE:LINE (by FILE's base
 * name: the build may have compiled a copy), or NULL when it was
 * instrumented.  report: "PATH:LINE: launch of K not_captured: REASON" lines */
static const char *site_reason(const char *report, const char *file, unsigned line, arena *a)
{
    const char *base = base_name(file);
    for (const char *p = report; p && *p;) {
        const char *end = strchr(p, '\n');
        size_t len = end ? (size_t)(end - p) : strlen(p);
        char *text = arena_strndup(a, p, len);
        char *of = strstr(text, ": launch of ");
        char *why = strstr(text, " not_captured: ");
        if (of && why) {
            *of = '\0';
            char *colon = strrchr(text, ':');
            if (colon) {
                *colon = '\0';
                if (strtoul(colon + 1, NULL, 10) == line && strcmp(base_name(text), base) == 0)
                    return why + strlen(" not_captured: ");
            }
        }
        p = end ? end + 1 : NULL;
    }
    return NULL;
}

/* whether the run made a folder for one of the kernel's launches (the
 * capture runtime makes it before saving anything) */
static int launch_attempted(const char *kernel_dir)
{
    DIR *d = opendir(kernel_dir);
    if (!d)
        return 0;
    struct dirent *e;
    int found = 0;
    while (!found && (e = readdir(d)) != NULL)
        found = e->d_name[0] != '.';
    closedir(d);
    return found;
}

const char *tune_not_captured_reason(const tune_session *s, const tune_target *tk, arena *a)
{
    const tu_model *m = tk->model;
    const char *tag_dir = arena_printf(a, "%s/%s", s->captures, hn_capture_tag(m->main_file, a));
    char *mark = NULL;
    size_t len = 0;
    if (file_read_all(arena_printf(a, "%s/" SPLICE_INSTRUMENT_REPORT, tag_dir), 0, &mark, &len) != 0) {
        if (s->o.run_cmd) /* this run's build did not compile the file through cl1cc */
            return TUNE_WHY_NOT_BUILT;
        return tk->k->is_template
                   ? "no launch of it was captured (of a template: no launch named its instantiation)"
                   : "no launch of it was captured";
    }
    const char *report = arena_strdup(a, mark);
    free(mark);
    size_t sites = 0, instrumented = 0;
    strbuf reasons;
    sb_init(&reasons);
    for (size_t i = 0; i < m->launches.len; i++) {
        const launch_site *l = &m->launches.items[i];
        if (l->kernel_index < 0 || (size_t)l->kernel_index != tk->index)
            continue;
        sites++;
        const char *why = site_reason(report, l->range.file, l->range.line, a);
        if (!why) {
            instrumented++;
        } else if (!strstr(sb_str(&reasons), why)) {
            sb_printf(&reasons, "%s%s", reasons.len ? "; " : "", why);
        }
    }
    const char *out;
    if (sites == 0)
        out = arena_printf(a, TUNE_WHY_NEVER_LAUNCHED ": no launch of it in %s", base_name(m->main_file));
    else if (instrumented == 0)
        out = arena_strdup(a, sb_str(&reasons));
    else if (launch_attempted(tk->captures))
        out = s->loop.gpu_name ? "launched, but its capture failed (the program's messages say why)"
                               : "launched, but no GPU here to capture it on";
    else
        out = s->loop.gpu_name ? TUNE_WHY_NEVER_LAUNCHED
                               : TUNE_WHY_NEVER_LAUNCHED " (no GPU on this machine)";
    if (sites && instrumented && reasons.len)
        out = arena_printf(a, "%s; other launches: %s", out, sb_str(&reasons));
    sb_free(&reasons);
    return out;
}
