/*
 * rewrite_cmd.c: `cl1cc rewrite (--in-place|--patch|--check) FILES [--arch
 * sm_XX] [-- NVCC-FLAGS]` puts the best verified variant of each kernel
 * into the user's source behind a provenance marker, and `cl1cc revert
 * FILES` takes it out again, byte for byte.  The planning here (rewrite_plan.h)
 * serves `cl1cc ci` too.
 */
#include "rewrite_plan.h"

#include <cjson/cJSON.h>
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "driver.h"
#include "frontend.h"
#include "kernel_key.h"
#include "launch_rule.h"
#include "proc.h"
#include "rewrite.h"
#include "splice_launch.h"
#include "tunedb.h"

/* ---- where and for what ------------------------------------------------- */

int rewrite_gpu_arch(arena *a, const char **arch, const char **name, strbuf *err)
{
    const char *argv[] = {"nvidia-smi", "--query-gpu=compute_cap,name", "--format=csv,noheader",
                          NULL};
    proc_options po;
    memset(&po, 0, sizeof po);
    po.capture_stdout = po.capture_stderr = 1;
    po.stdin_path = "/dev/null";
    po.limits.wall_seconds = 30;
    proc_result r;
    int rc = proc_run(argv, &po, &r);
    int major = 0, minor = 0, used = 0;
    const char *out = sb_str(&r.out);
    if (rc != 0 || !r.exited || r.exit_code != 0 ||
        sscanf(out, " %d.%d ,%n", &major, &minor, &used) < 2 || major <= 0 || minor < 0) {
        sb_printf(err, "no GPU found (%s): give the arch to look variants up for, "
                       "e.g. --arch sm_90",
                  r.spawn_failed ? "nvidia-smi cannot be run" : "nvidia-smi reports none");
        proc_result_free(&r);
        return -1;
    }
    *arch = arena_printf(a, "sm_%d%d", major, minor);
    if (name) {
        const char *n = used ? out + used : "";
        size_t len = strcspn(n, "\r\n");
        while (len && isspace((unsigned char)n[len - 1]))
            len--;
        *name = len ? arena_strndup(a, n, len) : NULL;
    }
    proc_result_free(&r);
    return 0;
}

static int flags_name_arch(const nvcc_cmdline *cl)
{
    static const char *const options[] = {"--gpu-architecture=", "--gpu-code=",
                                          "--generate-code=", NULL};
    for (size_t i = 0; i < cl->codegen_flags.len; i++)
        for (size_t j = 0; options[j]; j++)
            if (strncmp(cl->codegen_flags.items[i], options[j], strlen(options[j])) == 0)
                return 1;
    return 0;
}

int rewrite_archs(const char *arch_option, const nvcc_cmdline *flags, const char *fallback,
                  arena *a, cstr_vec *out, strbuf *err)
{
    if (arch_option) {
        if (strncmp(arch_option, "sm_", 3) != 0 || !isdigit((unsigned char)arch_option[3])) {
            sb_printf(err, "--arch %s: not a real GPU arch (sm_80, sm_90, ...)", arch_option);
            return -1;
        }
        vec_push(out, arena_strdup(a, arch_option));
        return 0;
    }
    if (flags_name_arch(flags)) {
        for (size_t i = 0; i < flags->gpu_archs.len; i++) {
            const char *arch = flags->gpu_archs.items[i];
            if (strcmp(arch, "native") == 0) {
                if (rewrite_gpu_arch(a, &arch, NULL, err) != 0)
                    return -1;
            } else if (strncmp(arch, "sm_", 3) != 0) {
                sb_printf(err, "the flags target '%s': give the arch to look variants up for, "
                               "e.g. --arch sm_90",
                          arch);
                return -1;
            }
            vec_push(out, arch);
        }
        if (out->len)
            return 0;
    }
    if (fallback && *fallback)
        return rewrite_archs(fallback, flags, NULL, a, out, err);
    const char *arch;
    if (rewrite_gpu_arch(a, &arch, NULL, err) != 0)
        return -1;
    vec_push(out, arch);
    return 0;
}

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

typedef VEC(rw_launch_change) launch_change_vec;
typedef VEC(rw_kernel_change) kernel_change_vec;
typedef struct span {
    size_t begin, end;
} span;
typedef VEC(span) span_vec;

typedef struct plan_state {
    const rewrite_request *rq;
    tunedb *db;
    rewrite_result *res;
    const char *date;
    cstr_vec names; /* kernels with something to apply on some arch */
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

/* whether text holds any of the names as a word: a file that names no
 * kernel with a variant is not parsed (as the wrapper does) */
static int mentions_any(const char *text, const cstr_vec *names)
{
    for (size_t i = 0; i < names->len; i++) {
        size_t n = strlen(names->items[i]);
        for (const char *p = text; n && (p = strstr(p, names->items[i])) != NULL; p += n) {
            int before = p > text && (isalnum((unsigned char)p[-1]) || p[-1] == '_');
            int after = isalnum((unsigned char)p[n]) || p[n] == '_';
            if (!before && !after)
                return 1;
        }
    }
    return 0;
}

/* The variant the wrapper would splice for k: the best verified one, the
 * same for every arch.  1 found, 0 none, -1 database error. */
static int choose_variant(plan_state *ps, const tu_model *m, const kernel *k, arena *a,
                          tunedb_variant *out, const char **key_out, strbuf *err)
{
    const nvcc_cmdline *cl = ps->rq->flags;
    for (size_t i = 0; i < ps->rq->n_archs; i++) {
        char key[65];
        kernel_key(m, k, ps->rq->archs[i], (const char *const *)cl->codegen_flags.items,
                   cl->codegen_flags.len, key);
        tunedb_variant v;
        int rc = tunedb_best_variant(ps->db, key, ps->rq->archs[i], a, &v, err);
        if (rc <= 0)
            return rc;
        if (i == 0)
            *key_out = arena_strdup(a, key);
        else if (strcmp(v.source, out->source) != 0 ||
                 strcmp(v.launch_edits ? v.launch_edits : "", out->launch_edits ? out->launch_edits : "") != 0)
            return 0;
        *out = v;
    }
    return ps->rq->n_archs ? 1 : 0;
}

static int by_position(const void *a, const void *b)
{
    const launch_site *x = *(const launch_site *const *)a, *y = *(const launch_site *const *)b;
    return x->range.begin < y->range.begin ? -1 : x->range.begin > y->range.begin;
}

/* The launch edits of a variant (docs/REWRITE.md):
 *   [{"site": N, "field": "grid"|"block"|"shmem"|"stream"|"config", "text": "..."}]
 * site counts the launches of this kernel in its file from 0, in source
 * order.  0, or -1 with the reason in why (the kernel is then left alone:
 * a variant that needs a new launch configuration is wrong without it). */
static int launch_changes(const tu_model *m, size_t kernel_index, const char *json, arena *a,
                          launch_change_vec *out, strbuf *why)
{
    if (!json || !*json)
        return 0;
    cJSON *root = cJSON_Parse(json);
    if (!root || (!cJSON_IsArray(root) && !cJSON_IsNull(root))) {
        sb_puts(why, "its launch_edits are not a JSON array");
        cJSON_Delete(root);
        return -1;
    }
    VEC(const launch_site *) sites = {0};
    for (size_t i = 0; i < m->launches.len; i++) {
        const launch_site *l = &m->launches.items[i];
        if (l->kernel_index == (long)kernel_index && l->range.file &&
            strcmp(l->range.file, m->main_file) == 0)
            vec_push(&sites, l);
    }
    if (sites.len)
        qsort(sites.items, sites.len, sizeof *sites.items, by_position);
    int rc = 0;
    size_t index = 0;
    const cJSON *e;
    cJSON_ArrayForEach(e, root)
    {
        const cJSON *site = cJSON_GetObjectItemCaseSensitive(e, "site");
        const cJSON *field = cJSON_GetObjectItemCaseSensitive(e, "field");
        const cJSON *text = cJSON_GetObjectItemCaseSensitive(e, "text");
        if (!cJSON_IsNumber(site) || !cJSON_IsString(field) || !cJSON_IsString(text) ||
            site->valuedouble < 0 || site->valuedouble != (double)(long)site->valuedouble) {
            sb_printf(why, "launch edit %zu lacks a site number, a field or a text", index);
            rc = -1;
            break;
        }
        long n = (long)site->valuedouble;
        if ((size_t)n >= sites.len) {
            sb_printf(why, "launch edit %zu names launch site %ld of %zu", index, n, sites.len);
            rc = -1;
            break;
        }
        const launch_site *l = sites.items[n];
        const char *f = field->valuestring;
        const src_range *r = strcmp(f, "grid") == 0     ? &l->grid.range
                             : strcmp(f, "block") == 0  ? &l->block.range
                             : strcmp(f, "shmem") == 0  ? &l->shmem.range
                             : strcmp(f, "stream") == 0 ? &l->stream.range
                             : strcmp(f, "config") == 0 ? &l->config_range
                                                        : NULL;
        const char *t = text->valuestring;
        size_t tl = strlen(t);
        if (!r) {
            sb_printf(why, "launch edit %zu: unknown field '%s'", index, f);
            rc = -1;
        } else if (!r->present || r->in_macro || l->in_macro) {
            sb_printf(why, "launch edit %zu: the %s of the launch at line %u is %s", index, f,
                      l->range.line, !r->present ? "not written (absent)" : "made by a macro");
            rc = -1;
        } else if (!*t || (strcmp(f, "config") == 0 &&
                           (tl < 6 || strncmp(t, "<<<", 3) != 0 || strcmp(t + tl - 3, ">>>") != 0))) {
            sb_printf(why, "launch edit %zu: '%s' is no %s", index, t, f);
            rc = -1;
        }
        if (rc != 0)
            break;
        rw_launch_change c = {r->begin, r->end, arena_strdup(a, t)};
        for (size_t j = 0; j < out->len; j++)
            if (c.begin < out->items[j].end && out->items[j].begin < c.end) {
                sb_printf(why, "launch edits %zu and %zu overlap", j, index);
                rc = -1;
            }
        if (rc != 0)
            break;
        vec_push(out, c);
        index++;
    }
    vec_free(&sites);
    cJSON_Delete(root);
    return rc;
}

/* A variant for another launch configuration (core/launch_rule.h), as the wrapper
 * applies it (driver/splice_launch.h): the kernel stays and the copy goes in
 * after it, so the "variant" that replaces the definition is the definition
 * itself and the copy; each launch site that can pick the copy is a launch
 * change of its own (the whole launch).  0, or -1 with the reason in why. */
static int launch_copy_changes(const tu_model *m, size_t kernel_index, const char *variant,
                               const launch_rule *r, arena *a, const char **replacement,
                               launch_change_vec *out, strbuf *why)
{
    const kernel *k = &m->kernels.items[kernel_index];
    const source_file *sf = model_file(m, m->main_file);
    rw_edit_vec sites = {0};
    const char *copy = NULL;
    if (!sf || !launch_copy_plan(m, kernel_index, variant, r, a, &sites, &copy, why)) {
        if (!sf)
            sb_puts(why, "its text was not kept by the frontend");
        vec_free(&sites);
        return -1;
    }
    *replacement = arena_printf(a, "%.*s%s", (int)(k->decl_range.end - k->decl_range.begin),
                                sf->text + k->decl_range.begin, copy);
    for (size_t i = 0; i < sites.len; i++) {
        rw_launch_change c = {sites.items[i].begin, sites.items[i].end,
                              sites.items[i].text};
        vec_push(out, c);
    }
    vec_free(&sites);
    return 0;
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

/* the kernels of one parsed file: the changes to make, recorded in res */
static int plan_kernels(plan_state *ps, const char *path, const char *real, const tu_model *m,
                        const source_file *sf, arena *a, kernel_change_vec *changes)
{
    span_vec taken = {0};
    strbuf err;
    sb_init(&err);
    int rc = 0;
    for (size_t i = 0; i < m->kernels.len; i++) {
        const kernel *k = &m->kernels.items[i];
        if (!k->is_definition || k->decl_range.in_macro || !k->decl_range.file ||
            strcmp(k->decl_range.file, m->main_file) != 0)
            continue;
        rewrite_kernel_info info;
        memset(&info, 0, sizeof info);
        info.file = arena_strdup(&ps->res->strings, real);
        info.kernel = arena_strdup(&ps->res->strings, k->qualified_name);
        info.line = k->decl_range.line;
        info.speedup = NAN;
        if (rw_is_rewritten(sf->text, sf->len, k->decl_range.begin)) {
            vec_push(&ps->res->already, info);
            log_verbose("%s:%u: kernel %s was rewritten by cl1cc before: left as it is", path,
                        info.line, k->qualified_name);
            continue;
        }
        tunedb_variant v;
        const char *key = NULL;
        int found = choose_variant(ps, m, k, a, &v, &key, &err);
        if (found < 0) {
            fprintf(stderr, "%s: error: the tuning database: %s\n", path, sb_str(&err));
            rc = -1;
            break;
        }
        if (found == 0)
            continue;
        launch_change_vec launches = {0};
        strbuf why;
        sb_init(&why);
        const char *replacement = v.source;
        launch_rule rule;
        int known = launch_rule_from_edits(v.launch_edits, &rule);
        int planned = known && !launch_rule_is_none(&rule)
                          ? launch_copy_changes(m, i, v.source, &rule, a, &replacement, &launches, &why)
                          : launch_changes(m, i, v.launch_edits, a, &launches, &why);
        if (planned != 0) {
            note(ps, "%s:%u: kernel %s: its verified variant is not applied: %s", path, info.line,
                 k->qualified_name, sb_str(&why));
            sb_free(&why);
            vec_free(&launches);
            continue;
        }
        sb_free(&why);
        int clash = overlaps_any(&taken, k->decl_range.begin, k->decl_range.end);
        for (size_t j = 0; j < launches.len && !clash; j++)
            clash = overlaps_any(&taken, launches.items[j].begin, launches.items[j].end);
        if (clash) {
            note(ps, "%s:%u: kernel %s: its variant's edits overlap another kernel's: "
                     "not applied this time",
                 path, info.line, k->qualified_name);
            vec_free(&launches);
            continue;
        }
        span s = {k->decl_range.begin, k->decl_range.end};
        vec_push(&taken, s);
        for (size_t j = 0; j < launches.len; j++) {
            span ls = {launches.items[j].begin, launches.items[j].end};
            vec_push(&taken, ls);
        }
        rw_launch_change *kept = NULL;
        if (launches.len) {
            kept = arena_alloc(a, launches.len * sizeof *kept);
            memcpy(kept, launches.items, launches.len * sizeof *kept);
        }
        rw_kernel_change c;
        memset(&c, 0, sizeof c);
        c.begin = k->decl_range.begin;
        c.end = k->decl_range.end;
        c.variant = replacement;
        c.prov.kernel = k->qualified_name;
        c.prov.speedup = v.speedup;
        strbuf archs;
        sb_init(&archs);
        for (size_t j = 0; j < ps->rq->n_archs; j++)
            sb_printf(&archs, "%s%s", j ? "+" : "", ps->rq->archs[j]);
        c.prov.arch = arena_strdup(a, sb_str(&archs));
        sb_free(&archs);
        c.prov.gpu_name = v.gpu_name;
        c.prov.date = ps->date;
        c.prov.key = key;
        c.prov.variant_hash = v.hash;
        c.launches = kept;
        c.n_launches = launches.len;
        vec_push(changes, c);
        vec_free(&launches);

        info.arch = arena_strdup(&ps->res->strings, c.prov.arch);
        info.key = arena_strdup(&ps->res->strings, key);
        info.variant_hash = arena_strdup(&ps->res->strings, v.hash);
        info.speedup = v.speedup;
        vec_push(&ps->res->applied, info);
    }
    vec_free(&taken);
    sb_free(&err);
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

static int plan_file(plan_state *ps, const char *path)
{
    char real[PATH_MAX];
    char *disk;
    size_t disk_len;
    if (!realpath(path, real) || file_read_all(path, 0, &disk, &disk_len) != 0) {
        report_file_error(path, "cannot read it", errno);
        return -1;
    }
    if (!ps->db || !mentions_any(disk, &ps->names)) {
        free(disk);
        return 0;
    }
    const nvcc_cmdline *cl = ps->rq->flags;
    fe_options opt;
    memset(&opt, 0, sizeof opt);
    opt.flags = (const char *const *)cl->frontend_flags.items;
    opt.n_flags = cl->frontend_flags.len;
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
    if (rc != 0) {
        /* nothing of this file counts as applied */
        ps->res->applied.len = first_applied;
    } else if (changes.len) {
        strbuf text, err;
        sb_init(&text);
        sb_init(&err);
        if (rw_apply(sf->text, sf->len, path, changes.items, changes.len, &text, &err) != RW_OK) {
            fprintf(stderr, "%s: error: not rewritten: %s\n", path, sb_str(&err));
            ps->res->applied.len = first_applied;
            rc = -1;
        } else if (ps->rq->mode == REWRITE_IN_PLACE) {
            /* the file as it is now, once more: what was parsed is what is replaced */
            char *again;
            size_t again_len;
            if (file_read_all(path, 0, &again, &again_len) != 0) {
                report_file_error(path, "cannot read it", errno);
                rc = -1;
            } else {
                if (again_len != disk_len || memcmp(again, disk, disk_len) != 0) {
                    fprintf(stderr, "%s: error: not rewritten: it changed while cl1cc worked on it\n",
                            path);
                    rc = -1;
                } else if (file_write_atomic(real, sb_str(&text), text.len) != 0) {
                    report_file_error(path, "not rewritten: cannot write it", errno);
                    rc = -1;
                }
                free(again);
            }
            if (rc != 0)
                ps->res->applied.len = first_applied;
        } else if (ps->rq->mode == REWRITE_PATCH) {
            rw_unified_diff(rewrite_patch_path(path, &a), sf->text, sf->len, sb_str(&text),
                            text.len, 3, &ps->res->patch);
        }
        if (rc == 0) {
            ps->res->files_changed++;
            say_applied(ps->res, first_applied, path, ps->rq->mode);
        }
        sb_free(&text);
        sb_free(&err);
    }
    vec_free(&changes);
    arena_free(&a);
    sb_free(&diags);
    model_free(&m);
    free(disk);
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
    for (size_t i = 0; ps.db && i < rq->n_archs; i++) {
        tunedb_name_list nl;
        if (tunedb_applicable_kernel_names(ps.db, rq->archs[i], &res->strings, &nl, &err) != 0) {
            log_error("%s", sb_str(&err));
            res->errors++;
            break;
        }
        for (size_t j = 0; j < nl.len; j++) {
            const char *last = strrchr(nl.items[j], ':');
            vec_push(&ps.names, last ? last + 1 : nl.items[j]);
        }
    }
    for (size_t i = 0; i < rq->n_files; i++)
        if (plan_file(&ps, rq->files[i]) != 0)
            res->errors++;
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

/* ---- the commands --------------------------------------------------------------- */

static void rewrite_usage(void)
{
    fprintf(stderr,
            "usage: cl1cc rewrite (--in-place | --patch | --check) [--arch sm_XX] FILES.cu...\n"
            "                     [-- NVCC-FLAGS... [FILES.cu...]]\n"
            "  --in-place  put the best verified variants into the files (atomically)\n"
            "  --patch     print a unified diff instead (for git apply)\n"
            "  --check     change nothing; exit 3 when a verified variant would apply\n"
            "  --arch      the GPU arch to look variants up for (default: the archs the\n"
            "              flags name, else the GPU nvidia-smi reports)\n"
            "  NVCC-FLAGS  the flags the files are compiled with: the keys depend on them\n"
            "exit status: 0 done (or nothing to apply), 3 --check found variants to apply,\n"
            "             1 a file could not be read, parsed or written, 2 usage\n"
            "usage: cl1cc revert [--in-place | --patch] FILES.cu...\n");
}


int cmd_rewrite(int argc, char **argv)
{
    int mode = -1, nvcc_from = argc;
    const char *arch = NULL;
    cstr_vec files = {0};
    for (int i = 0; i < argc; i++) {
        const char *arg = argv[i];
        if (strcmp(arg, "--") == 0) {
            nvcc_from = i + 1;
            break;
        } else if (strcmp(arg, "--in-place") == 0 || strcmp(arg, "-i") == 0) {
            mode = REWRITE_IN_PLACE;
        } else if (strcmp(arg, "--patch") == 0) {
            mode = REWRITE_PATCH;
        } else if (strcmp(arg, "--check") == 0) {
            mode = REWRITE_CHECK;
        } else if (strcmp(arg, "--arch") == 0 && i + 1 < argc) {
            arch = argv[++i];
        } else if (strncmp(arg, "--arch=", 7) == 0) {
            arch = arg + 7;
        } else if (strcmp(arg, "-h") == 0 || strcmp(arg, "--help") == 0) {
            rewrite_usage();
            vec_free(&files);
            return 0;
        } else if (arg[0] == '-') {
            log_error("rewrite: unknown option '%s'", arg);
            rewrite_usage();
            vec_free(&files);
            return 2;
        } else {
            vec_push(&files, arg);
        }
    }
    nvcc_cmdline cl;
    strbuf err;
    sb_init(&err);
    if (nvcc_cmdline_parse(argc - nvcc_from, argv + nvcc_from, &cl, &err) != 0) {
        log_error("rewrite: %s", sb_str(&err));
        nvcc_cmdline_free(&cl);
        sb_free(&err);
        vec_free(&files);
        return 2;
    }
    /* sources among the nvcc arguments are files too: pre-commit appends
     * the file names after the hook's own arguments */
    for (size_t i = 0; i < cl.inputs.len; i++)
        if (cl.inputs.items[i].lang == NVCC_LANG_CU)
            vec_push(&files, cl.inputs.items[i].path);
    int rc = 2;
    arena a;
    arena_init(&a);
    cstr_vec archs = {0};
    if (mode < 0 || !files.len) {
        if (mode < 0)
            log_error("rewrite: say --in-place, --patch or --check");
        else
            log_error("rewrite: no files");
        rewrite_usage();
    } else if (rewrite_archs(arch, &cl, NULL, &a, &archs, &err) != 0) {
        log_error("rewrite: %s", sb_str(&err));
    } else {
        rewrite_request rq;
        rq.files = files.items;
        rq.n_files = files.len;
        rq.flags = &cl;
        rq.archs = archs.items;
        rq.n_archs = archs.len;
        rq.mode = (rewrite_mode)mode;
        rewrite_result res;
        rc = rewrite_run(&rq, &res);
        if (mode == REWRITE_PATCH) {
            fwrite(sb_str(&res.patch), 1, res.patch.len, stdout);
            if (fflush(stdout) != 0) {
                log_error("rewrite: cannot write the patch: %s", strerror(errno));
                rc = 1;
            }
        } else if (mode == REWRITE_CHECK && rc == 0 && res.applied.len) {
            fprintf(stderr, "cl1cc: %zu kernel(s) in %zu file(s) can be rewritten with verified "
                            "faster variants: run cl1cc rewrite --in-place\n",
                    res.applied.len, res.files_changed);
            rc = 3;
        }
        rewrite_result_free(&res);
    }
    vec_free(&archs);
    arena_free(&a);
    nvcc_cmdline_free(&cl);
    sb_free(&err);
    vec_free(&files);
    return rc;
}

int cmd_revert(int argc, char **argv)
{
    int patch = 0, rc = 0;
    cstr_vec files = {0};
    for (int i = 0; i < argc; i++) {
        if (strcmp(argv[i], "--patch") == 0) {
            patch = 1;
        } else if (strcmp(argv[i], "--in-place") == 0 || strcmp(argv[i], "-i") == 0) {
            patch = 0;
        } else if (strcmp(argv[i], "-h") == 0 || strcmp(argv[i], "--help") == 0) {
            rewrite_usage();
            vec_free(&files);
            return 0;
        } else if (argv[i][0] == '-' && strcmp(argv[i], "--") != 0) {
            log_error("revert: unknown option '%s'", argv[i]);
            rewrite_usage();
            vec_free(&files);
            return 2;
        } else if (strcmp(argv[i], "--") != 0) {
            vec_push(&files, argv[i]);
        }
    }
    if (!files.len) {
        rewrite_usage();
        return 2;
    }
    arena a;
    arena_init(&a);
    strbuf diff;
    sb_init(&diff);
    for (size_t i = 0; i < files.len; i++) {
        const char *path = files.items[i];
        char real[PATH_MAX];
        char *text;
        size_t len;
        if (!realpath(path, real) || file_read_all(path, 0, &text, &len) != 0) {
            report_file_error(path, "cannot read it", errno);
            rc = 1;
            continue;
        }
        strbuf out, err;
        sb_init(&out);
        sb_init(&err);
        long n = rw_revert(text, len, path, &out, &err);
        if (n < 0) {
            /* "path:line: message" */
            const char *msg = sb_str(&err);
            size_t plen = strlen(path);
            const char *colon = strncmp(msg, path, plen) == 0 && msg[plen] == ':'
                                    ? strchr(msg + plen + 1, ':')
                                    : NULL;
            if (colon)
                fprintf(stderr, "%.*s: error:%s\n", (int)(colon - msg), msg, colon + 1);
            else
                fprintf(stderr, "%s: error: %s\n", path, msg);
            rc = 1;
        } else if (n > 0 && patch) {
            rw_unified_diff(rewrite_patch_path(path, &a), text, len, sb_str(&out), out.len, 3,
                            &diff);
        } else if (n > 0) {
            if (file_write_atomic(real, sb_str(&out), out.len) != 0) {
                report_file_error(path, "not reverted: cannot write it", errno);
                rc = 1;
            } else {
                fprintf(stderr, "%s: %ld cl1cc rewrite(s) reverted\n", path, n);
            }
        }
        sb_free(&out);
        sb_free(&err);
        free(text);
    }
    if (patch) {
        fwrite(sb_str(&diff), 1, diff.len, stdout);
        if (fflush(stdout) != 0)
            rc = 1;
    }
    sb_free(&diff);
    arena_free(&a);
    vec_free(&files);
    return rc;
}
