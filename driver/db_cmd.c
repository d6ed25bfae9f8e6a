/*
 * db_cmd.c: `cl1cc db`, the tuning database and the caches beside it, in
 * the spirit of `ccache -s/-C/-M`: stats, list, show, rm, export, import
 * (the merge of databases), trim and clean; and `cl1cc --cl1-db-stamp`,
 * the fingerprint ccache's compiler_check hashes (docs/WRAPPER.md).
 */
#include <dirent.h>
#include <errno.h>
#include <ftw.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "config.h"
#include "core.h"
#include "driver.h"
#include "tunedb.h"

#define DEFAULT_CAPTURES_MB 1024
#define DEFAULT_PCH_MB 256
#define RECENT_APPLICATIONS 10

/* ---- the caches: folders of units, least recently used out ------------------ */

static unsigned long long walk_bytes;
static int add_size(const char *path, const struct stat *st, int flag, struct FTW *f)
{
    (void)path, (void)f;
    if (flag == FTW_F)
        walk_bytes += (unsigned long long)st->st_size;
    return 0;
}

static unsigned long long tree_bytes(const char *path)
{
    walk_bytes = 0;
    if (nftw(path, add_size, 16, FTW_PHYS) != 0)
        return 0; /* no such folder: empty */
    return walk_bytes;
}

static int remove_one(const char *path, const struct stat *st, int flag, struct FTW *f)
{
    (void)st, (void)f;
    if ((flag == FTW_DP ? rmdir(path) : unlink(path)) != 0 && errno != ENOENT)
        log_warn("db: cannot remove %s: %s", path, strerror(errno));
    return 0;
}

static void remove_tree(const char *path)
{
    nftw(path, remove_one, 16, FTW_DEPTH | FTW_PHYS);
}

typedef struct cache_unit {
    const char *path;
    time_t used;
    unsigned long long bytes;
} cache_unit;
typedef VEC(cache_unit) unit_vec;

static int older_first(const void *x, const void *y)
{
    const cache_unit *a = x, *b = y;
    return a->used < b->used ? -1 : a->used > b->used;
}

/* the units of a cache: depth 1 entries (pch) or depth 2 (captures: a
 * folder per file, one per kernel in it) */
static void list_units(const char *dir, int depth, arena *a, unit_vec *out)
{
    DIR *d = opendir(dir);
    if (!d)
        return;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        if (e->d_name[0] == '.')
            continue;
        const char *path = arena_printf(a, "%s/%s", dir, e->d_name);
        struct stat st;
        if (lstat(path, &st) != 0)
            continue;
        if (depth > 1 && S_ISDIR(st.st_mode)) {
            list_units(path, depth - 1, a, out);
            continue;
        }
        cache_unit u = {path, st.st_mtime, tree_bytes(path)};
        vec_push(out, u);
    }
    closedir(d);
}

/* removes the least recently used units until dir is within cap bytes;
 * the bytes removed */
static unsigned long long trim_cache(const char *dir, int depth, unsigned long long cap, arena *a)
{
    unit_vec units = {0};
    list_units(dir, depth, a, &units);
    unsigned long long total = 0, removed = 0;
    for (size_t i = 0; i < units.len; i++)
        total += units.items[i].bytes;
    qsort(units.items, units.len, sizeof *units.items, older_first);
    for (size_t i = 0; i < units.len && total > cap; i++) {
        remove_tree(units.items[i].path);
        total -= units.items[i].bytes;
        removed += units.items[i].bytes;
    }
    vec_free(&units);
    return removed;
}

typedef struct db_places {
    const char *db, *captures, *pch, *log;
} db_places;

static int places(arena *a, db_places *p)
{
    p->db = tunedb_default_path(a);
    if (!p->db) {
        log_error("db: no tuning database: set CL1CC_DB, CL1CC_CACHE_DIR or HOME");
        return -1;
    }
    char *dir = arena_strdup(a, p->db);
    char *slash = strrchr(dir, '/');
    if (slash)
        *slash = '\0';
    else
        dir = ".";
    p->captures = arena_printf(a, "%s/captures", dir);
    const char *cache = config_cache_dir(a);
    p->pch = cache ? arena_printf(a, "%s/pch", cache) : NULL;
    p->log = tunedb_applied_log_path(p->db, a);
    return 0;
}

static double mib(unsigned long long bytes) { return (double)bytes / (1024.0 * 1024.0); }

/* ---- the commands --------------------------------------------------------------- */

static int open_db(const db_places *p, tunedb_mode mode, tunedb **db)
{
    strbuf err;
    sb_init(&err);
    int rc = tunedb_open(p->db, mode, db, &err);
    if (rc < 0)
        log_error("db: %s", sb_str(&err));
    sb_free(&err);
    return rc;
}

static void print_recent(const char *log_path)
{
    char *text;
    size_t len;
    if (!log_path || file_read_all(log_path, 0, &text, &len) != 0) {
        printf("applied in builds: none logged\n");
        return;
    }
    size_t lines = 0;
    for (size_t i = 0; i < len; i++)
        lines += text[i] == '\n';
    printf("applied in builds: %zu logged (%s)\n", lines, log_path);
    size_t start = len, seen = 0;
    while (start > 0 && seen <= RECENT_APPLICATIONS)
        if (text[--start] == '\n' && start + 1 < len)
            seen++;
    const char *p = text + (seen > RECENT_APPLICATIONS ? start + 1 : 0);
    while (*p) {
        const char *nl = strchr(p, '\n');
        size_t n = nl ? (size_t)(nl - p) : strlen(p);
        printf("  %.*s\n", (int)n, p);
        p += n + (nl ? 1 : 0);
    }
    free(text);
}

static int db_stats(const db_places *p, arena *a)
{
    tunedb *db;
    int rc = open_db(p, TUNEDB_READONLY, &db);
    if (rc < 0)
        return 1;
    printf("database: %s", p->db);
    struct stat st;
    if (rc == 1) {
        printf(" (none yet)\n");
    } else {
        printf(" (%.1f MiB)\n", stat(p->db, &st) == 0 ? mib((unsigned long long)st.st_size) : 0);
        tunedb_stats s;
        strbuf err;
        sb_init(&err);
        if (tunedb_get_stats(db, a, &s, &err) != 0) {
            log_error("db: %s", sb_str(&err));
            sb_free(&err);
            tunedb_close(db);
            return 1;
        }
        sb_free(&err);
        printf("kernels: %lld\nvariants: %lld (%lld verified, %lld applicable: verified and "
               "faster)\nevaluations: %lld\n",
               s.kernels, s.variants, s.verified, s.applicable, s.evaluations);
        for (const char *l = s.applicable_by_arch; *l;) {
            const char *nl = strchr(l, '\n');
            printf("  applicable on %.*s\n", (int)(nl - l), l);
            l = nl + 1;
        }
        tunedb_close(db);
    }
    print_recent(p->log);
    printf("captures: %s: %.1f MiB (cap %d MiB: cl1cc db trim)\n", p->captures,
           mib(tree_bytes(p->captures)), DEFAULT_CAPTURES_MB);
    if (p->pch)
        printf("pch: %s: %.1f MiB (cap %lld MiB, CL1CC_PCH_CACHE_MB)\n", p->pch,
               mib(tree_bytes(p->pch)), config_pch_cache_mb(DEFAULT_PCH_MB));
    return 0;
}

static void print_variant_line(const tunedb_variant *v)
{
    printf("%6lld  %-7s  x%-6.2f %-10s  %.12s  %s  %s\n", v->id, v->arch, v->speedup,
           v->verified ? "verified" : "unverified", v->hash ? v->hash : "?",
           v->created_at ? v->created_at : "?", v->kernel_name ? v->kernel_name : "?");
}

static int db_list(const db_places *p, int applicable, arena *a)
{
    tunedb *db;
    int rc = open_db(p, TUNEDB_READONLY, &db);
    if (rc != 0)
        return rc < 0 ? 1 : 0;
    tunedb_variant_list l;
    strbuf err;
    sb_init(&err);
    rc = tunedb_all_variants(db, applicable, a, &l, &err);
    if (rc != 0) {
        log_error("db: %s", sb_str(&err));
    } else {
        printf("%6s  %-7s  %-7s %-10s  %-12s  %-24s  %s\n", "id", "arch", "speedup", "state",
               "variant", "created", "kernel");
        for (size_t i = 0; i < l.len; i++)
            print_variant_line(&l.items[i]);
    }
    sb_free(&err);
    tunedb_close(db);
    return rc ? 1 : 0;
}

static void field(const char *name, const char *value)
{
    if (value && *value)
        printf("%-14s %s\n", name, value);
}

static void number_field(const char *name, double v, const char *unit)
{
    if (!isnan(v))
        printf("%-14s %.4g%s\n", name, v, unit);
}

static int db_show(const db_places *p, const char *which, arena *a)
{
    char *end;
    long long id = strtoll(which, &end, 10);
    if (*end || id <= 0) {
        log_error("db show: '%s' is not a variant id (cl1cc db list shows them)", which);
        return 2;
    }
    tunedb *db;
    int rc = open_db(p, TUNEDB_READONLY, &db);
    if (rc != 0) {
        if (rc == 1)
            log_error("db show: no tuning database at %s", p->db);
        return 1;
    }
    strbuf err;
    sb_init(&err);
    tunedb_variant v;
    tunedb_kernel_info k;
    rc = tunedb_variant_by_id(db, id, a, &v, &err);
    if (rc == 1 && tunedb_kernel_by_key(db, v.kernel_key, a, &k, &err) < 0)
        rc = -1;
    if (rc < 0)
        log_error("db: %s", sb_str(&err));
    else if (rc == 0)
        log_error("db show: no variant %lld", id);
    if (rc == 1) {
        printf("variant %lld of kernel %s\n", v.id, v.kernel_name ? v.kernel_name : "?");
        field("kernel key", v.kernel_key);
        field("file", k.file);
        field("arch", v.arch);
        field("state", v.verified ? "verified (the harness proved it equal)" : "not verified");
        number_field("speedup", v.speedup, "x");
        number_field("baseline", v.baseline_ms, " ms");
        number_field("variant", v.variant_ms, " ms");
        number_field("spread", v.spread_ms, " ms");
        field("GPU", v.gpu_name);
        field("policy", v.policy);
        field("transforms", v.transforms);
        field("created", v.created_at);
        field("hash", v.hash);
        field("instances", v.instances);
        field("launch edits", v.launch_edits);
        printf("source:\n%s%s", v.source, v.source[0] && v.source[strlen(v.source) - 1] == '\n' ? "" : "\n");
    }
    sb_free(&err);
    tunedb_close(db);
    return rc == 1 ? 0 : 1;
}

static int db_rm(const db_places *p, int argc, char **argv)
{
    tunedb *db;
    int rc = open_db(p, TUNEDB_READWRITE, &db);
    if (rc != 0)
        return 1;
    strbuf err;
    sb_init(&err);
    int status = 0;
    for (int i = 0; i < argc && status == 0; i++) {
        if (strcmp(argv[i], "--kernel") == 0 && i + 1 < argc) {
            long long n;
            if (tunedb_remove_kernels(db, argv[++i], &n, &err) != 0) {
                log_error("db: %s", sb_str(&err));
                status = 1;
            } else {
                printf("%s: %lld kernel(s) removed, with their variants and evaluations\n",
                       argv[i], n);
                status = n ? 0 : 1;
            }
            continue;
        }
        char *end;
        long long id = strtoll(argv[i], &end, 10);
        if (*end || id <= 0) {
            log_error("db rm: '%s' is not a variant id (or --kernel KEY|NAME)", argv[i]);
            status = 2;
        } else if ((rc = tunedb_remove_variant(db, id, &err)) < 0) {
            log_error("db: %s", sb_str(&err));
            status = 1;
        } else if (rc == 0) {
            log_error("db rm: no variant %lld", id);
            status = 1;
        } else {
            printf("variant %lld removed\n", id);
        }
    }
    sb_free(&err);
    tunedb_close(db);
    return status;
}

static int db_export(const db_places *p, const char *to)
{
    tunedb *db;
    int rc = open_db(p, TUNEDB_READONLY, &db);
    if (rc < 0)
        return 1;
    strbuf out, err;
    sb_init(&out);
    sb_init(&err);
    if (rc == 1) /* no database yet: an empty export */
        sb_printf(&out, "{\n\t\"cl1cc_tuning_db\":\t1,\n\t\"key_format\":\t%d,\n\t\"kernels\":\t[]\n}\n",
                  TUNEDB_KEY_FORMAT);
    else if (tunedb_export_json(db, &out, &err) != 0)
        rc = -1;
    if (rc < 0) {
        log_error("db: %s", sb_str(&err));
    } else if (!to || strcmp(to, "-") == 0) {
        fwrite(sb_str(&out), 1, out.len, stdout);
        rc = fflush(stdout) == 0 ? 0 : -1;
    } else if (file_write_atomic(to, sb_str(&out), out.len) != 0) {
        log_error("db export: %s: %s", to, strerror(errno));
        rc = -1;
    }
    sb_free(&out);
    sb_free(&err);
    tunedb_close(db);
    return rc < 0 ? 1 : 0;
}

/* the text of an export: the file, or a tuning database's own export */
static int import_text(const char *path, strbuf *out, strbuf *err)
{
    char *text;
    size_t len;
    if (file_read_all(path, 1u << 30, &text, &len) != 0) {
        sb_printf(err, "%s: %s", path, strerror(errno));
        return -1;
    }
    int rc = 0;
    if (len >= 16 && memcmp(text, "SQLite format 3", 16) == 0) {
        tunedb *src;
        rc = tunedb_open(path, TUNEDB_READONLY, &src, err) == 0 ? tunedb_export_json(src, out, err)
                                                                 : -1;
        tunedb_close(src);
    } else {
        sb_append(out, text, len);
    }
    free(text);
    return rc;
}

static int db_import(const db_places *p, int argc, char **argv)
{
    int replace = 0, status = 0;
    tunedb *db = NULL;
    strbuf err;
    sb_init(&err);
    for (int i = 0; i < argc && status == 0; i++) {
        if (strcmp(argv[i], "--replace") == 0) {
            replace = 1;
            continue;
        }
        if (!db && open_db(p, TUNEDB_READWRITE, &db) != 0) {
            status = 1;
            break;
        }
        strbuf text;
        sb_init(&text);
        tunedb_import_counts c;
        if (import_text(argv[i], &text, &err) != 0 ||
            tunedb_import_json(db, sb_str(&text), replace, &c, &err) != 0) {
            log_error("db import: %s: %s", argv[i], sb_str(&err));
            status = 1;
        } else {
            printf("%s: %lld kernel(s), %lld variant(s) and %lld evaluation(s) added%s", argv[i],
                   c.kernels, c.variants, c.evaluations, c.variants_present ? "" : "\n");
            if (c.variants_present)
                printf(", %lld variant(s) already there\n", c.variants_present);
        }
        sb_free(&text);
    }
    if (!db && status == 0) {
        log_error("db import: no file to import");
        status = 2;
    }
    sb_free(&err);
    tunedb_close(db);
    return status;
}

static int parse_mb(const char *s, long long *out)
{
    char *end;
    long long v = strtoll(s, &end, 10);
    if (*end || v < 0) {
        log_error("db: '%s' is not a number of MiB", s);
        return -1;
    }
    *out = v;
    return 0;
}

static int db_trim(const db_places *p, int argc, char **argv, arena *a)
{
    long long captures_mb = DEFAULT_CAPTURES_MB, pch_mb = config_pch_cache_mb(DEFAULT_PCH_MB);
    for (int i = 0; i < argc; i++) {
        if (strcmp(argv[i], "--captures-mb") == 0 && i + 1 < argc) {
            if (parse_mb(argv[++i], &captures_mb) != 0)
                return 2;
        } else if (strcmp(argv[i], "--pch-mb") == 0 && i + 1 < argc) {
            if (parse_mb(argv[++i], &pch_mb) != 0)
                return 2;
        } else {
            log_error("db trim: unknown option '%s'", argv[i]);
            return 2;
        }
    }
    unsigned long long c = trim_cache(p->captures, 2, (unsigned long long)captures_mb << 20, a);
    printf("captures: %.1f MiB removed, %.1f MiB kept (cap %lld MiB)\n", mib(c),
           mib(tree_bytes(p->captures)), captures_mb);
    if (p->pch) {
        unsigned long long r = trim_cache(p->pch, 1, (unsigned long long)pch_mb << 20, a);
        printf("pch: %.1f MiB removed, %.1f MiB kept (cap %lld MiB)\n", mib(r),
               mib(tree_bytes(p->pch)), pch_mb);
    }
    return 0;
}

static int db_clean(const db_places *p, int argc, char **argv)
{
    int captures = 0, pch = 0;
    for (int i = 0; i < argc; i++) {
        if (strcmp(argv[i], "--captures") == 0)
            captures = 1;
        else if (strcmp(argv[i], "--pch") == 0)
            pch = 1;
        else if (strcmp(argv[i], "--all") == 0)
            captures = pch = 1;
        else {
            log_error("db clean: unknown option '%s'", argv[i]);
            return 2;
        }
    }
    if (!captures && !pch) {
        log_error("db clean: say --captures, --pch or --all (the database itself stays: "
                  "cl1cc db rm)");
        return 2;
    }
    if (captures) {
        remove_tree(p->captures);
        printf("removed %s\n", p->captures);
    }
    if (pch && p->pch) {
        remove_tree(p->pch);
        printf("removed %s\n", p->pch);
    }
    return 0;
}

int cmd_db(int argc, char **argv)
{
    if (argc < 1) {
        driver_usage("db", stderr);
        return 2;
    }
    arena a;
    arena_init(&a);
    db_places p;
    if (places(&a, &p) != 0) {
        arena_free(&a);
        return 1;
    }
    const char *what = argv[0];
    int rc;
    if (strcmp(what, "stats") == 0 || strcmp(what, "-s") == 0)
        rc = argc == 1 ? db_stats(&p, &a) : 2;
    else if (strcmp(what, "list") == 0)
        rc = argc == 1 || (argc == 2 && strcmp(argv[1], "--applicable") == 0)
                 ? db_list(&p, argc == 2, &a)
                 : 2;
    else if (strcmp(what, "show") == 0)
        rc = argc == 2 ? db_show(&p, argv[1], &a) : 2;
    else if (strcmp(what, "rm") == 0)
        rc = argc >= 2 ? db_rm(&p, argc - 1, argv + 1) : 2;
    else if (strcmp(what, "export") == 0)
        rc = argc <= 2 ? db_export(&p, argc == 2 ? argv[1] : NULL) : 2;
    else if (strcmp(what, "import") == 0)
        rc = db_import(&p, argc - 1, argv + 1);
    else if (strcmp(what, "trim") == 0)
        rc = db_trim(&p, argc - 1, argv + 1, &a);
    else if (strcmp(what, "clean") == 0)
        rc = db_clean(&p, argc - 1, argv + 1);
    else {
        log_error("db: unknown action '%s'", what);
        rc = 2;
    }
    if (rc == 2)
        driver_usage("db", stderr);
    arena_free(&a);
    return rc;
}

/* ---- the fingerprint for ccache ---------------------------------------------------- */

int cmd_db_stamp(void)
{
    arena a;
    arena_init(&a);
    strbuf nvcc, err;
    sb_init(&nvcc);
    sb_init(&err);
    /* the real nvcc's identity: ccache's default compiler_check sees
     * cl1cc's only */
    struct stat st;
    if (driver_find_nvcc(&nvcc, &err) == 0 && stat(sb_str(&nvcc), &st) == 0)
        printf("nvcc %s %lld %lld\n", sb_str(&nvcc), (long long)st.st_size, (long long)st.st_mtime);
    else
        printf("nvcc none\n");
    printf("disabled %d\n", config_disabled());
    const char *path = tunedb_default_path(&a);
    tunedb *db = NULL;
    int rc = 0;
    int opened = path ? tunedb_open(path, TUNEDB_READONLY, &db, &err) : 1;
    char stamp[65];
    if (opened == 1) {
        printf("db none\n");
    } else if (opened < 0 || tunedb_stamp(db, stamp, &err) != 0) {
        /* a damaged database: the build falls back to nvcc and says so;
         * nothing is cached as if tuned */
        log_error("%s", sb_str(&err));
        rc = 1;
    } else {
        printf("db %s\n", stamp);
    }
    tunedb_close(db);
    sb_free(&nvcc);
    sb_free(&err);
    arena_free(&a);
    return rc;
}
