/*
 * rewrite_plan.c: see rewrite_plan.h.  The variants and their edits come
 * from apply.h (the wrapper's decision); here they are written into the
 * user's files behind markers, as a patch, or only counted.
 */
#include "rewrite_plan.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "apply.h"
#include "driver.h"
#include "frontend.h"
#include "proc.h"
#include "rewrite.h"
#include "tunedb.h"

/* ---- where and for what ------------------------------------------------- */

static const char *git_toplevel(void)
{
    static char top[PATH_MAX];
    static int done;
    if (done)
        return top[0] ? top : NULL;
    done = 1;
    const char *argv[] = {"git", "rev-parse", "--show-toplevel", NULL};
    proc_options po;
    memset(&po, 0, sizeof po);
    po.capture_stdout = po.capture_stderr = 1;
    po.stdin_path = "/dev/null";
    po.limits.wall_seconds = 30;
    proc_result r;
    if (proc_run(argv, &po, &r) == 0 && r.exited && r.exit_code == 0) {
        const char *s = sb_str(&r.out);
        size_t n = strcspn(s, "\r\n");
        char given[PATH_MAX];
        snprintf(given, sizeof given, "%.*s", (int)n, s);
        if (!realpath(given, top))
            top[0] = '\0';
    }
    proc_result_free(&r);
    return top[0] ? top : NULL;
}

static const char *relative_to(const char *path, const char *dir)
{
    size_t n = strlen(dir);
    if (n == 1 && dir[0] == '/')
        return path + 1;
    if (strncmp(path, dir, n) == 0 && path[n] == '/')
        return path + n + 1;
    return NULL;
}

const char *rewrite_patch_path(const char *file, arena *a)
{
    char real[PATH_MAX], cwd[PATH_MAX], real_cwd[PATH_MAX];
    if (!realpath(file, real))
        return arena_strdup(a, file);
    const char *top = git_toplevel();
    const char *rel = top ? relative_to(real, top) : NULL;
    if (!rel && getcwd(cwd, sizeof cwd) && realpath(cwd, real_cwd))
        rel = relative_to(real, real_cwd);
    return arena_strdup(a, rel ? rel : file);
}

/* the day of the rewrite, UTC; SOURCE_DATE_EPOCH (reproducible builds)
 * fixes it */
static const char *today(arena *a)
{
    time_t now = time(NULL);
    const char *epoch = getenv("SOURCE_DATE_EPOCH");
    if (epoch && *epoch) {
        char *end;
        errno = 0;
        long long v = strtoll(epoch, &end, 10);
        if (!errno && !*end && v >= 0)
            now = (time_t)v;
        else
            log_warn("SOURCE_DATE_EPOCH=%s is not a number of seconds: using today", epoch);
    }
    struct tm tm;
    char day[32];
    if (!gmtime_r(&now, &tm) || strftime(day, sizeof day, "%Y-%m-%d", &tm) == 0)
        return "unknown";
    return arena_strdup(a, day);
}

/* ---- planning one file ------------------------------------------------------- */

typedef VEC(rw_kernel_change) kernel_change_vec;
typedef struct span {
    size_t begin, end;
} span;
typedef VEC(span) span_vec;

/* A project header whose kernels get variants: edited once, after every
 * file of the request was planned, however many of them include it. */
typedef struct header_plan {
    const char *path; /* as the first TU's model names it */
    const char *real;
    source_file text; /* as parsed (and on disk then) */
    kernel_change_vec changes;
    span_vec taken;
    VEC(rewrite_kernel_info) infos;
} header_plan;

typedef struct plan_state {
    const rewrite_request *rq;
    tunedb *db;
    rewrite_result *res;
    const char *date;
    cstr_vec names; /* kernels with something to apply on some arch */
    VEC(header_plan) headers;
    arena header_strings; /* the header plans' texts and edits */
} plan_state;

static void note(plan_state *ps, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void note(plan_state *ps, const char *fmt, ...)
{
    va_list ap;
    strbuf sb;
    sb_init(&sb);
    va_start(ap, fmt);
    sb_vprintf(&sb, fmt, ap);
    va_end(ap);
    log_warn("%s", sb_str(&sb));
    vec_push(&ps->res->notes, arena_strdup(&ps->res->strings, sb_str(&sb)));
    sb_free(&sb);
}

static int overlaps_any(const span_vec *taken, size_t begin, size_t end)
{
    for (size_t i = 0; i < taken->len; i++)
        if (begin < taken->items[i].end && taken->items[i].begin < end)
            return 1;
    return 0;
}

static void report_file_error(const char *path, const char *what, int errnum)
{
    fprintf(stderr, "%s: error: %s: %s\n", path, what, strerror(errnum));
}

/* the archs of the request, "sm_80+sm_90", for the marker */
static const char *archs_text(const rewrite_request *rq, arena *a)
{
    strbuf archs;
    sb_init(&archs);
    for (size_t j = 0; j < rq->n_archs; j++)
        sb_printf(&archs, "%s%s", j ? "+" : "", rq->archs[j]);
    const char *text = arena_strdup(a, sb_str(&archs));
    sb_free(&archs);
    return text;
}

/* The change that puts the chosen variant in, with its provenance; the
 * kernel's info filled (the caller records it as applied). */
static void add_change(plan_state *ps, const kernel *k, const apply_choice *choice,
                       const apply_edits *ed, const source_file *sf, arena *a,
                       kernel_change_vec *changes, rewrite_kernel_info *info)
{
    const tunedb_variant *v = &choice->variant;
    rw_kernel_change c;
    memset(&c, 0, sizeof c);
    c.begin = ed->begin;
    c.end = ed->end;
    /* the kernel kept, a copy after it: both are what replaces it */
    c.variant = ed->definition ? ed->definition
                               : arena_printf(a, "%.*s%s", (int)(ed->end - ed->begin),
                                              sf->text + ed->begin, ed->after ? ed->after : "");
    c.prov.kernel = arena_strdup(a, k->qualified_name);
    c.prov.speedup = v->speedup;
    c.prov.arch = archs_text(ps->rq, a);
    c.prov.gpu_name = v->gpu_name;
    c.prov.date = ps->date;
    c.prov.key = choice->key;
    c.prov.variant_hash = v->hash;
    c.launches = ed->launches;
    c.n_launches = ed->n_launches;
    vec_push(changes, c);

    info->arch = arena_strdup(&ps->res->strings, c.prov.arch);
    info->key = arena_strdup(&ps->res->strings, choice->key);
    info->variant_hash = arena_strdup(&ps->res->strings, v->hash);
    info->speedup = v->speedup;
}

static int is_requested(const plan_state *ps, const char *real)
{
    for (size_t i = 0; i < ps->rq->n_files; i++) {
        char r[PATH_MAX];
        if (realpath(ps->rq->files[i], r) && strcmp(r, real) == 0)
            return 1;
    }
    return 0;
}

/* The plan of the header a kernel of m is defined in (made on first
 * sight, its text as m holds it and as it is on disk), or NULL: a header
 * the request names itself (its own pass edits it), or one that cannot be
 * read or changed between the TUs that include it. */
static header_plan *header_of(plan_state *ps, const tu_model *m, const char *file)
{
    char real[PATH_MAX];
    const source_file *sf = model_file(m, file);
    if (!sf || !realpath(file, real) || is_requested(ps, real))
        return NULL;
    header_plan *hp = NULL;
    for (size_t i = 0; i < ps->headers.len && !hp; i++)
        if (strcmp(ps->headers.items[i].real, real) == 0)
            hp = &ps->headers.items[i];
    if (!hp) {
        char *disk;
        size_t len;
        if (file_read_all(file, 0, &disk, &len) != 0) {
            report_file_error(file, "cannot read it", errno);
            ps->res->errors++;
            return NULL;
        }
        int same = len == sf->len && memcmp(disk, sf->text, len) == 0;
        free(disk);
        header_plan h;
        memset(&h, 0, sizeof h);
        h.path = arena_strdup(&ps->header_strings, file);
        h.real = arena_strdup(&ps->header_strings, real);
        h.text.path = h.path;
        h.text.text = same ? arena_strndup(&ps->header_strings, sf->text, sf->len) : NULL;
        h.text.len = sf->len;
        if (!same)
            fprintf(stderr, "%s: error: not rewritten: it changed while cl1cc read it\n", file);
        vec_push(&ps->headers, h);
        hp = &ps->headers.items[ps->headers.len - 1];
        if (!same)
            ps->res->errors++;
    }
    if (!hp->text.text)
        return NULL;
    if (hp->text.len != sf->len || memcmp(hp->text.text, sf->text, sf->len) != 0) {
        fprintf(stderr, "%s: error: not rewritten: it changed while cl1cc read it\n", file);
        hp->text.text = NULL;
        ps->res->errors++;
        return NULL;
    }
    return hp;
}

static int listed_info(const rewrite_kernel_info *items, size_t n, const rewrite_kernel_info *info)
{
    for (size_t i = 0; i < n; i++)
        if (strcmp(items[i].file, info->file) == 0 &&
            strcmp(items[i].kernel, info->kernel) == 0 && items[i].line == info->line)
            return 1;
    return 0;
}

/* Kernel i of a parsed file: its change, if a variant applies and its edits
 * are clear of the others' (taken); a kernel of a project header goes to
 * that header's plan, once.  0, or -1 on a database error. */
static int plan_kernel(plan_state *ps, const char *path, const char *real, const tu_model *m,
                       size_t i, const source_file *sf, arena *a, span_vec *taken,
                       kernel_change_vec *changes)
{
    const kernel *k = &m->kernels.items[i];
    apply_place place;
    const char *unreachable = NULL;
    apply_where where = apply_place_of_kernel(
        &place, m, i, ps->rq->flags, ps->rq->archs, ps->rq->n_archs,
        APPLY_LAUNCH_RULES | APPLY_LAUNCH_SITES | APPLY_HEADER_KERNELS, a, &unreachable);
    if (where == APPLY_NOT_A_PLACE)
        return 0;
    header_plan *hp = NULL;
    if (place.in_header) {
        /* the header is edited itself: which directive brought it in does
         * not matter here */
        if (!(hp = header_of(ps, m, place.file)))
            return 0;
        for (size_t j = 0; j < hp->changes.len; j++)
            if (hp->changes.items[j].begin == k->decl_range.begin)
                return 0; /* another file of the request planned it */
        sf = &hp->text;
        taken = &hp->taken;
        changes = &hp->changes;
        real = hp->real;
        path = hp->path;
        if (where == APPLY_UNREACHABLE)
            where = APPLY_HERE;
    }
    rewrite_kernel_info info;
    memset(&info, 0, sizeof info);
    info.file = arena_strdup(&ps->res->strings, real);
    info.kernel = arena_strdup(&ps->res->strings, k->qualified_name);
    info.line = k->decl_range.line;
    info.speedup = NAN;
    if (where == APPLY_REWRITTEN) {
        if (!listed_info(ps->res->already.items, ps->res->already.len, &info))
            vec_push(&ps->res->already, info);
        log_verbose("%s:%u: kernel %s was rewritten by cl1cc before: left as it is", path,
                    info.line, k->qualified_name);
        return 0;
    }
    /* a header's changes outlive this file's arena */
    if (hp)
        a = &ps->header_strings;
    apply_choice choice;
    strbuf why;
    sb_init(&why);
    int found = apply_choose(ps->db, &place, a, &choice, &why);
    if (found < 0)
        fprintf(stderr, "%s: error: the tuning database: %s\n", path, sb_str(&why));
    apply_edits ed;
    if (found > 0 && apply_plan(&place, &choice.variant, a, &ed, &why) != APPLY_PLANNED) {
        note(ps, "%s:%u: kernel %s: its verified variant is not applied: %s", path, info.line,
             k->qualified_name, sb_str(&why));
        found = 0;
    } else if (found > 0 && hp && ed.n_launches) {
        /* its launches are in the TUs: the header's marker cannot hold them */
        note(ps, "%s:%u: kernel %s: its verified variant is not applied: a header kernel's "
                 "variant that edits launches (the wrapper applies a template's)",
             path, info.line, k->qualified_name);
        found = 0;
    }
    sb_free(&why);
    if (found <= 0)
        return found;
    int clash = overlaps_any(taken, ed.begin, ed.end);
    for (size_t j = 0; j < ed.n_launches && !clash; j++)
        clash = overlaps_any(taken, ed.launches[j].begin, ed.launches[j].end);
    if (clash) {
        note(ps, "%s:%u: kernel %s: its variant's edits overlap another kernel's: "
                 "not applied this time",
             path, info.line, k->qualified_name);
        return 0;
    }
    span s = {ed.begin, ed.end};
    vec_push(taken, s);
    for (size_t j = 0; j < ed.n_launches; j++) {
        span ls = {ed.launches[j].begin, ed.launches[j].end};
        vec_push(taken, ls);
    }
    add_change(ps, k, &choice, &ed, sf, a, changes, &info);
    if (hp)
        vec_push(&hp->infos, info);
    else
        vec_push(&ps->res->applied, info);
    return 0;
}

/* the kernels of one parsed file: the changes to make, recorded in res */
static int plan_kernels(plan_state *ps, const char *path, const char *real, const tu_model *m,
                        const source_file *sf, arena *a, kernel_change_vec *changes)
{
    span_vec taken = {0};
    int rc = 0;
    for (size_t i = 0; i < m->kernels.len && rc == 0; i++)
        rc = plan_kernel(ps, path, real, m, i, sf, a, &taken, changes);
    vec_free(&taken);
    return rc;
}

static void say_applied(const rewrite_result *res, size_t from, const char *path, rewrite_mode mode)
{
    for (size_t i = from; i < res->applied.len; i++) {
        const rewrite_kernel_info *k = &res->applied.items[i];
        const char *what = mode == REWRITE_IN_PLACE ? "rewritten with"
                           : mode == REWRITE_CHECK  ? "can be rewritten with"
                                                    : "patched with";
        if (mode == REWRITE_PATCH && log_get_level() != LOG_VERBOSE)
            continue;
        fprintf(stderr, "%s:%u: kernel %s %s a verified variant: x%.2f on %s (variant %.12s)\n",
                path, k->line, k->kernel, what, k->speedup, k->arch, k->variant_hash);
    }
}

/* the file as it is now, once more: what was parsed is what is replaced */
static int replace_file(const char *path, const char *real, const char *disk, size_t disk_len,
                        const strbuf *text)
{
    char *again;
    size_t again_len;
    if (file_read_all(path, 0, &again, &again_len) != 0) {
        report_file_error(path, "cannot read it", errno);
        return -1;
    }
    int rc = 0;
    if (again_len != disk_len || memcmp(again, disk, disk_len) != 0) {
        fprintf(stderr, "%s: error: not rewritten: it changed while cl1cc worked on it\n", path);
        rc = -1;
    } else if (file_write_atomic(real, sb_str(text), text->len) != 0) {
        report_file_error(path, "not rewritten: cannot write it", errno);
        rc = -1;
    }
    free(again);
    return rc;
}

/* the changes applied to the parsed text sf (disk: the file as read), as
 * the mode says: written, added to the patch, or only checked; 0 or -1 */
static int write_changes(plan_state *ps, const char *path, const char *real,
                         const source_file *sf, const char *disk, size_t disk_len,
                         const kernel_change_vec *changes, arena *a)
{
    strbuf text, err;
    sb_init(&text);
    sb_init(&err);
    int rc = 0;
    if (rw_apply(sf->text, sf->len, path, changes->items, changes->len, &text, &err) != RW_OK) {
        fprintf(stderr, "%s: error: not rewritten: %s\n", path, sb_str(&err));
        rc = -1;
    } else if (ps->rq->mode == REWRITE_IN_PLACE) {
        rc = replace_file(path, real, disk, disk_len, &text);
    } else if (ps->rq->mode == REWRITE_PATCH) {
        rw_unified_diff(rewrite_patch_path(path, a), sf->text, sf->len, sb_str(&text), text.len,
                        3, &ps->res->patch);
    }
    sb_free(&text);
    sb_free(&err);
    return rc;
}

static int plan_file(plan_state *ps, const char *path)
{
    char real[PATH_MAX];
    char *disk;
    size_t disk_len;
    if (!realpath(path, real) || file_read_all(path, 0, &disk, &disk_len) != 0) {
        report_file_error(path, "cannot read it", errno);
        return -1;
    }
    if (!ps->db || !apply_mentions_any(disk, &ps->names)) {
        free(disk);
        return 0;
    }
    const nvcc_cmdline *cl = ps->rq->flags;
    fe_options opt = driver_frontend_options(cl);
    tu_model m;
    model_init(&m);
    strbuf diags;
    sb_init(&diags);
    int rc = 0;
    arena a;
    arena_init(&a);
    kernel_change_vec changes = {0};
    size_t first_applied = ps->res->applied.len;
    const source_file *sf = NULL;
    if (fe_parse(path, &opt, &m, &diags) != FE_OK) {
        fputs(sb_str(&diags), stderr);
        if (diags.len && diags.data[diags.len - 1] != '\n')
            fputc('\n', stderr);
        fprintf(stderr, "%s: error: not rewritten: it does not parse\n", path);
        rc = -1;
    } else if (!(sf = model_file(&m, m.main_file)) || sf->len != disk_len ||
               memcmp(sf->text, disk, disk_len) != 0) {
        fprintf(stderr, "%s: error: not rewritten: it changed while cl1cc read it\n", path);
        rc = -1;
    } else {
        rc = plan_kernels(ps, path, real, &m, sf, &a, &changes);
    }
    if (rc == 0 && changes.len)
        rc = write_changes(ps, path, real, sf, disk, disk_len, &changes, &a);
    if (rc != 0) /* nothing of this file counts as applied */
        ps->res->applied.len = first_applied;
    else if (changes.len) {
        ps->res->files_changed++;
        say_applied(ps->res, first_applied, path, ps->rq->mode);
    }
    vec_free(&changes);
    arena_free(&a);
    sb_free(&diags);
    model_free(&m);
    free(disk);
    return rc;
}

/* a header's changes, planned from the files that include it, written
 * (or patched, or counted) once; 0 or -1 */
static int write_header(plan_state *ps, header_plan *hp)
{
    arena a;
    arena_init(&a);
    int rc = write_changes(ps, hp->path, hp->real, &hp->text, hp->text.text, hp->text.len,
                           &hp->changes, &a);
    if (rc == 0) {
        size_t first = ps->res->applied.len;
        for (size_t i = 0; i < hp->infos.len; i++)
            vec_push(&ps->res->applied, hp->infos.items[i]);
        ps->res->files_changed++;
        say_applied(ps->res, first, hp->path, ps->rq->mode);
    }
    arena_free(&a);
    return rc;
}

int rewrite_run(const rewrite_request *rq, rewrite_result *res)
{
    memset(res, 0, sizeof *res);
    arena_init(&res->strings);
    sb_init(&res->patch);
    plan_state ps;
    memset(&ps, 0, sizeof ps);
    ps.rq = rq;
    ps.res = res;
    ps.date = today(&res->strings);
    strbuf err;
    sb_init(&err);
    const char *db_path = tunedb_default_path(&res->strings);
    int rc = db_path ? tunedb_open(db_path, TUNEDB_READONLY, &ps.db, &err) : 1;
    if (rc < 0) {
        log_error("%s", sb_str(&err));
        res->errors++;
        sb_free(&err);
        return 1;
    }
    if (rc == 1)
        log_verbose("no tuning database at %s: nothing to apply", db_path ? db_path : "(none)");
    if (ps.db && apply_kernel_names(ps.db, rq->archs, rq->n_archs, &res->strings, &ps.names,
                                    &err) != 0) {
        log_error("%s", sb_str(&err));
        res->errors++;
    }
    arena_init(&ps.header_strings);
    for (size_t i = 0; i < rq->n_files; i++)
        if (plan_file(&ps, rq->files[i]) != 0)
            res->errors++;
    for (size_t i = 0; i < ps.headers.len; i++) {
        header_plan *hp = &ps.headers.items[i];
        if (hp->text.text && hp->changes.len && write_header(&ps, hp) != 0)
            res->errors++;
        vec_free(&hp->changes);
        vec_free(&hp->taken);
        vec_free(&hp->infos);
    }
    vec_free(&ps.headers);
    arena_free(&ps.header_strings);
    vec_free(&ps.names);
    tunedb_close(ps.db);
    sb_free(&err);
    return res->errors ? 1 : 0;
}

void rewrite_result_free(rewrite_result *res)
{
    vec_free(&res->applied);
    vec_free(&res->already);
    vec_free(&res->notes);
    sb_free(&res->patch);
    arena_free(&res->strings);
}
