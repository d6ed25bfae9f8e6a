/*
 * tunedb_admin.c: what `cl1cc db` does to the tuning database: counts,
 * listing and showing entries, removing them, and export and import as
 * readable JSON (the merge of several databases), and the fingerprint that
 * ccache's compiler_check hashes (`cl1cc --cl1-db-stamp`).
 */
#include "tunedb.h"
#include "tunedb_private.h"

#include <cjson/cJSON.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define EXPORT_FORMAT 1
#define VARIANT_SELECT                                                          \
    "SELECT id, kernel_key, kernel_name, arch, source, launch_edits, hash, "    \
    "policy, transforms, verified, baseline_ms, variant_ms, spread_ms, speedup, "\
    "gpu_name, created_at, instances FROM variants"
#define APPLICABLE "verified = 1 AND speedup > 1.0"

static int fail(tunedb *db, const char *what, strbuf *err)
{
    sb_printf(err, "tuning database %s: %s: %s", tunedb_path(db), what,
              sqlite3_errmsg(tunedb_sqlite(db)));
    return -1;
}

static sqlite3_stmt *prepare(tunedb *db, const char *sql, const char *what, strbuf *err)
{
    sqlite3_stmt *st = NULL;
    if (sqlite3_prepare_v2(tunedb_sqlite(db), sql, -1, &st, NULL) != SQLITE_OK) {
        fail(db, what, err);
        return NULL;
    }
    return st;
}

static const char *text_at(sqlite3_stmt *st, int i, arena *a)
{
    if (sqlite3_column_type(st, i) == SQLITE_NULL)
        return NULL;
    const unsigned char *t = sqlite3_column_text(st, i);
    return t ? arena_strndup(a, (const char *)t, (size_t)sqlite3_column_bytes(st, i)) : NULL;
}

static double double_at(sqlite3_stmt *st, int i)
{
    return sqlite3_column_type(st, i) == SQLITE_NULL ? NAN : sqlite3_column_double(st, i);
}

static void variant_at(sqlite3_stmt *st, arena *a, tunedb_variant *v)
{
    v->id = sqlite3_column_int64(st, 0);
    v->kernel_key = text_at(st, 1, a);
    v->kernel_name = text_at(st, 2, a);
    v->arch = text_at(st, 3, a);
    v->source = text_at(st, 4, a);
    v->launch_edits = text_at(st, 5, a);
    v->hash = text_at(st, 6, a);
    v->policy = text_at(st, 7, a);
    v->transforms = text_at(st, 8, a);
    v->verified = sqlite3_column_int64(st, 9) == 1;
    v->baseline_ms = double_at(st, 10);
    v->variant_ms = double_at(st, 11);
    v->spread_ms = double_at(st, 12);
    v->speedup = double_at(st, 13);
    v->gpu_name = text_at(st, 14, a);
    v->created_at = text_at(st, 15, a);
    v->instances = text_at(st, 16, a);
}

/* a query of one number */
static int count_of(tunedb *db, const char *sql, long long *out, strbuf *err)
{
    sqlite3_stmt *st = prepare(db, sql, "counting", err);
    if (!st)
        return -1;
    int rc = sqlite3_step(st) == SQLITE_ROW ? 0 : fail(db, "counting", err);
    if (rc == 0)
        *out = sqlite3_column_int64(st, 0);
    sqlite3_finalize(st);
    return rc;
}

int tunedb_get_stats(tunedb *db, arena *a, tunedb_stats *out, strbuf *err)
{
    memset(out, 0, sizeof *out);
    if (count_of(db, "SELECT count(*) FROM kernels", &out->kernels, err) != 0 ||
        count_of(db, "SELECT count(*) FROM variants", &out->variants, err) != 0 ||
        count_of(db, "SELECT count(*) FROM variants WHERE verified = 1", &out->verified, err) != 0 ||
        count_of(db, "SELECT count(*) FROM variants WHERE " APPLICABLE, &out->applicable, err) != 0 ||
        count_of(db, "SELECT count(*) FROM evaluations", &out->evaluations, err) != 0)
        return -1;
    sqlite3_stmt *st = prepare(db, "SELECT arch, count(*) FROM variants WHERE " APPLICABLE
                                   " GROUP BY arch ORDER BY arch", "counting", err);
    if (!st)
        return -1;
    strbuf lines;
    sb_init(&lines);
    int rc;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW)
        sb_printf(&lines, "%s %lld\n", sqlite3_column_text(st, 0), sqlite3_column_int64(st, 1));
    out->applicable_by_arch = arena_strdup(a, sb_str(&lines));
    sb_free(&lines);
    sqlite3_finalize(st);
    return rc == SQLITE_DONE ? 0 : fail(db, "counting", err);
}

int tunedb_all_variants(tunedb *db, int applicable_only, arena *a, tunedb_variant_list *out,
                        strbuf *err)
{
    out->items = NULL;
    out->len = 0;
    sqlite3_stmt *st = prepare(db, applicable_only ? VARIANT_SELECT " WHERE " APPLICABLE " ORDER BY id"
                                                   : VARIANT_SELECT " ORDER BY id",
                               "listing variants", err);
    if (!st)
        return -1;
    VEC(tunedb_variant) rows = {0};
    int rc;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        tunedb_variant v;
        variant_at(st, a, &v);
        vec_push(&rows, v);
    }
    sqlite3_finalize(st);
    if (rc != SQLITE_DONE) {
        vec_free(&rows);
        return fail(db, "listing variants", err);
    }
    out->items = arena_alloc(a, (rows.len + 1) * sizeof *rows.items);
    if (rows.len)
        memcpy(out->items, rows.items, rows.len * sizeof *rows.items);
    out->len = rows.len;
    vec_free(&rows);
    return 0;
}

int tunedb_variant_by_id(tunedb *db, long long id, arena *a, tunedb_variant *out, strbuf *err)
{
    sqlite3_stmt *st = prepare(db, VARIANT_SELECT " WHERE id = ?1", "reading a variant", err);
    if (!st)
        return -1;
    sqlite3_bind_int64(st, 1, id);
    int rc = sqlite3_step(st);
    if (rc == SQLITE_ROW)
        variant_at(st, a, out);
    sqlite3_finalize(st);
    return rc == SQLITE_ROW ? 1 : rc == SQLITE_DONE ? 0 : fail(db, "reading a variant", err);
}

int tunedb_kernel_by_key(tunedb *db, const char *key, arena *a, tunedb_kernel_info *out,
                         strbuf *err)
{
    memset(out, 0, sizeof *out);
    sqlite3_stmt *st = prepare(db, "SELECT key, name, file, created_at, last_seen FROM kernels"
                                   " WHERE key = ?1", "reading a kernel", err);
    if (!st)
        return -1;
    sqlite3_bind_text(st, 1, key, -1, SQLITE_TRANSIENT);
    int rc = sqlite3_step(st);
    if (rc == SQLITE_ROW) {
        out->key = text_at(st, 0, a);
        out->name = text_at(st, 1, a);
        out->file = text_at(st, 2, a);
        out->created_at = text_at(st, 3, a);
        out->last_seen = text_at(st, 4, a);
    }
    sqlite3_finalize(st);
    return rc == SQLITE_ROW ? 1 : rc == SQLITE_DONE ? 0 : fail(db, "reading a kernel", err);
}

/* ---- writes: one transaction each ---------------------------------------- */

static int exec(tunedb *db, const char *sql, const char *what, strbuf *err)
{
    char *msg = NULL;
    if (sqlite3_exec(tunedb_sqlite(db), sql, NULL, NULL, &msg) != SQLITE_OK) {
        sb_printf(err, "tuning database %s: %s: %s", tunedb_path(db), what,
                  msg ? msg : sqlite3_errmsg(tunedb_sqlite(db)));
        sqlite3_free(msg);
        return -1;
    }
    return 0;
}

static int begin(tunedb *db, const char *what, strbuf *err)
{
    if (!tunedb_writable(db)) {
        sb_printf(err, "tuning database %s: %s: it was opened read-only", tunedb_path(db), what);
        return -1;
    }
    return exec(db, "BEGIN IMMEDIATE", what, err);
}

static int finish(tunedb *db, int ok, const char *what, strbuf *err)
{
    if (ok)
        return exec(db, "COMMIT", what, err);
    strbuf ignored;
    sb_init(&ignored);
    exec(db, "ROLLBACK", what, &ignored);
    sb_free(&ignored);
    return -1;
}

/* runs sql with ?1 bound to text (or int64 id when text is NULL); the rows
 * it changed, or -1 */
static long long run1(tunedb *db, const char *sql, const char *text, long long id,
                      const char *what, strbuf *err)
{
    sqlite3_stmt *st = prepare(db, sql, what, err);
    if (!st)
        return -1;
    if (text)
        sqlite3_bind_text(st, 1, text, -1, SQLITE_TRANSIENT);
    else
        sqlite3_bind_int64(st, 1, id);
    int rc = sqlite3_step(st);
    sqlite3_finalize(st);
    if (rc != SQLITE_DONE)
        return fail(db, what, err);
    return sqlite3_changes(tunedb_sqlite(db));
}

int tunedb_remove_variant(tunedb *db, long long id, strbuf *err)
{
    const char *what = "removing a variant";
    if (begin(db, what, err) != 0)
        return -1;
    long long n = run1(db, "DELETE FROM variants WHERE id = ?1", NULL, id, what, err);
    if (finish(db, n >= 0, what, err) != 0)
        return -1;
    return n > 0 ? 1 : 0;
}

int tunedb_remove_kernels(tunedb *db, const char *key_or_name, long long *removed, strbuf *err)
{
    const char *what = "removing a kernel";
    *removed = 0;
    size_t n = strlen(key_or_name);
    int by_key = n >= 8 && n <= 64 && strspn(key_or_name, "0123456789abcdef") == n;
    /* the kernels: by key prefix, or by name (the recorded one, or the
     * variants' when nobody recorded the kernel) */
    const char *match =
        by_key ? "(SELECT key FROM kernels WHERE substr(key, 1, length(?1)) = ?1)"
               : "(SELECT key FROM kernels WHERE name = ?1 UNION "
                 "SELECT kernel_key FROM variants WHERE kernel_name = ?1)";
    if (begin(db, what, err) != 0)
        return -1;
    arena a;
    arena_init(&a);
    long long v = run1(db, arena_printf(&a, "DELETE FROM variants WHERE kernel_key IN %s", match),
                       key_or_name, 0, what, err);
    long long e = v < 0 ? -1 : run1(db, arena_printf(&a, "DELETE FROM evaluations WHERE kernel_key IN %s", match),
                                    key_or_name, 0, what, err);
    long long k = e < 0 ? -1 : run1(db, by_key ? "DELETE FROM kernels WHERE substr(key, 1, length(?1)) = ?1"
                                               : "DELETE FROM kernels WHERE name = ?1",
                                    key_or_name, 0, what, err);
    arena_free(&a);
    if (finish(db, k >= 0, what, err) != 0)
        return -1;
    *removed = k > 0 ? k : (v > 0 ? 1 : 0);
    return 0;
}

int tunedb_stamp(tunedb *db, char out[65], strbuf *err)
{
    sqlite3_stmt *st = prepare(db, "SELECT id, kernel_key, arch, hash, speedup FROM variants"
                                   " WHERE " APPLICABLE " ORDER BY id", "fingerprinting", err);
    if (!st)
        return -1;
    sha256_ctx c;
    sha256_init(&c);
    static const char tag[] = "cl1cc-db-stamp-1";
    sha256_update(&c, tag, sizeof tag);
    int rc;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        char row[256];
        int n = snprintf(row, sizeof row, "%lld %s %s %s %.17g\n", sqlite3_column_int64(st, 0),
                         sqlite3_column_text(st, 1), sqlite3_column_text(st, 2),
                         sqlite3_column_text(st, 3), sqlite3_column_double(st, 4));
        sha256_update(&c, row, (size_t)n < sizeof row ? (size_t)n : sizeof row - 1);
    }
    sqlite3_finalize(st);
    if (rc != SQLITE_DONE)
        return fail(db, "fingerprinting", err);
    sha256_final_hex(&c, out);
    return 0;
}

/* ---- export ----------------------------------------------------------------- */

static void add_text(cJSON *o, const char *name, const char *text)
{
    if (text)
        cJSON_AddStringToObject(o, name, text);
    else
        cJSON_AddNullToObject(o, name);
}

static void add_num(cJSON *o, const char *name, double d)
{
    if (isnan(d))
        cJSON_AddNullToObject(o, name);
    else
        cJSON_AddNumberToObject(o, name, d);
}

static void add_column(cJSON *o, const char *name, sqlite3_stmt *st, int i, arena *a)
{
    add_text(o, name, text_at(st, i, a));
}

/* the rows of sql (?1: the kernel's key) as objects of the names given */
static int export_rows(tunedb *db, const char *sql, const char *key, const char *const *names,
                       const char *numbers, cJSON *into, arena *a, strbuf *err)
{
    sqlite3_stmt *st = prepare(db, sql, "exporting", err);
    if (!st)
        return -1;
    sqlite3_bind_text(st, 1, key, -1, SQLITE_TRANSIENT);
    int rc;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        cJSON *row = cJSON_CreateObject();
        for (int i = 0; names[i]; i++) {
            if (numbers[i] == 'n')
                add_num(row, names[i], double_at(st, i));
            else if (numbers[i] == 'b')
                cJSON_AddBoolToObject(row, names[i], sqlite3_column_int64(st, i) == 1);
            else
                add_column(row, names[i], st, i, a);
        }
        cJSON_AddItemToArray(into, row);
    }
    sqlite3_finalize(st);
    return rc == SQLITE_DONE ? 0 : fail(db, "exporting", err);
}

static const char *const variant_fields[] = {
    "arch", "kernel_name", "hash", "verified", "speedup", "baseline_ms", "variant_ms",
    "spread_ms", "gpu_name", "policy", "transforms", "created_at", "instances",
    "launch_edits", "source", NULL};
static const char variant_kinds[] = "sssbnnnnssssss"
                                    "s";
static const char *const evaluation_fields[] = {"variant_hash", "verdict", "ms", "detail",
                                                "created_at", NULL};
static const char evaluation_kinds[] = "ssnss";

int tunedb_export_json(tunedb *db, strbuf *out, strbuf *err)
{
    sqlite3_stmt *st = prepare(db, "SELECT key, name, file, features_json, original_source,"
                                   " created_at, last_seen FROM kernels ORDER BY key",
                               "exporting", err);
    if (!st)
        return -1;
    arena a;
    arena_init(&a);
    cJSON *root = cJSON_CreateObject();
    cJSON_AddNumberToObject(root, "cl1cc_tuning_db", EXPORT_FORMAT);
    cJSON_AddNumberToObject(root, "key_format", TUNEDB_KEY_FORMAT);
    cJSON *kernels = cJSON_AddArrayToObject(root, "kernels");
    int rc, bad = 0;
    while (!bad && (rc = sqlite3_step(st)) == SQLITE_ROW) {
        const char *key = text_at(st, 0, &a);
        if (!key)
            continue;
        cJSON *k = cJSON_CreateObject();
        cJSON_AddItemToArray(kernels, k);
        cJSON_AddStringToObject(k, "key", key);
        add_column(k, "name", st, 1, &a);
        add_column(k, "file", st, 2, &a);
        const char *features = text_at(st, 3, &a);
        cJSON *parsed = features ? cJSON_Parse(features) : NULL;
        if (parsed)
            cJSON_AddItemToObject(k, "features", parsed);
        else
            add_text(k, "features", features);
        add_column(k, "created_at", st, 5, &a);
        add_column(k, "last_seen", st, 6, &a);
        add_column(k, "original_source", st, 4, &a);
        bad = export_rows(db, "SELECT arch, kernel_name, hash, verified, speedup, baseline_ms,"
                              " variant_ms, spread_ms, gpu_name, policy, transforms, created_at,"
                              " instances, launch_edits, source FROM variants WHERE kernel_key = ?1"
                              " ORDER BY created_at, arch, hash, id",
                          key, variant_fields, variant_kinds, cJSON_AddArrayToObject(k, "variants"),
                          &a, err) != 0 ||
              export_rows(db, "SELECT variant_hash, verdict, ms, detail, created_at FROM evaluations"
                              " WHERE kernel_key = ?1 ORDER BY created_at, variant_hash, verdict, id",
                          key, evaluation_fields, evaluation_kinds,
                          cJSON_AddArrayToObject(k, "evaluations"), &a, err) != 0;
    }
    sqlite3_finalize(st);
    if (!bad && rc != SQLITE_DONE)
        bad = fail(db, "exporting", err) != 0;
    char *text = bad ? NULL : cJSON_Print(root);
    if (text) {
        sb_puts(out, text);
        sb_putc(out, '\n');
        cJSON_free(text);
    } else if (!bad) {
        sb_puts(err, "exporting: out of memory");
        bad = 1;
    }
    cJSON_Delete(root);
    arena_free(&a);
    return bad ? -1 : 0;
}

/* ---- import ----------------------------------------------------------------- */

static const char *str_of(const cJSON *o, const char *name)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, name);
    return cJSON_IsString(v) ? v->valuestring : NULL;
}

static double num_of(const cJSON *o, const char *name)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, name);
    return cJSON_IsNumber(v) && isfinite(v->valuedouble) ? v->valuedouble : NAN;
}

static void bind_str(sqlite3_stmt *st, int i, const char *s)
{
    if (s)
        sqlite3_bind_text(st, i, s, -1, SQLITE_TRANSIENT);
    else
        sqlite3_bind_null(st, i);
}

static void bind_num(sqlite3_stmt *st, int i, double d)
{
    if (isnan(d))
        sqlite3_bind_null(st, i);
    else
        sqlite3_bind_double(st, i, d);
}

/* one step of a prepared insert; the rows it added, or -1 */
static long long step_insert(tunedb *db, sqlite3_stmt *st, const char *what, strbuf *err)
{
    int rc = sqlite3_step(st);
    sqlite3_reset(st);
    sqlite3_clear_bindings(st);
    if (rc != SQLITE_DONE)
        return fail(db, what, err);
    return sqlite3_changes(tunedb_sqlite(db));
}

enum { IMP_KERNEL, IMP_VARIANT, IMP_EVAL, IMP_DEL_V, IMP_DEL_E, IMP_COUNT };
static const char *const import_sql[IMP_COUNT] = {
    [IMP_KERNEL] = "INSERT INTO kernels(key, name, file, original_source, features_json,"
                   " created_at, last_seen) VALUES (?1, ?2, ?3, ?4, ?5,"
                   " coalesce(?6, strftime('%Y-%m-%dT%H:%M:%fZ','now')),"
                   " coalesce(?7, strftime('%Y-%m-%dT%H:%M:%fZ','now')))"
                   " ON CONFLICT(key) DO UPDATE SET"
                   " name = coalesce(excluded.name, name), file = coalesce(excluded.file, file),"
                   " original_source = coalesce(excluded.original_source, original_source),"
                   " features_json = coalesce(excluded.features_json, features_json),"
                   " last_seen = max(last_seen, excluded.last_seen)",
    [IMP_VARIANT] = "INSERT INTO variants(kernel_key, kernel_name, arch, source, launch_edits,"
                    " hash, policy, transforms, verified, baseline_ms, variant_ms, spread_ms,"
                    " speedup, gpu_name, created_at, instances)"
                    " SELECT ?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16"
                    " WHERE NOT EXISTS (SELECT 1 FROM variants WHERE kernel_key = ?1 AND arch = ?3"
                    " AND hash = ?6 AND created_at = ?15 AND gpu_name IS ?14)",
    [IMP_EVAL] = "INSERT INTO evaluations(kernel_key, variant_hash, verdict, ms, detail, created_at)"
                 " SELECT ?1, ?2, ?3, ?4, ?5, ?6 WHERE NOT EXISTS (SELECT 1 FROM evaluations"
                 " WHERE kernel_key = ?1 AND variant_hash = ?2 AND verdict = ?3 AND created_at = ?6)",
    [IMP_DEL_V] = "DELETE FROM variants WHERE kernel_key = ?1",
    [IMP_DEL_E] = "DELETE FROM evaluations WHERE kernel_key = ?1",
};

static int import_kernel(tunedb *db, sqlite3_stmt **st, const cJSON *k, int replace,
                         tunedb_import_counts *c, strbuf *err)
{
    const char *what = "importing";
    const char *key = str_of(k, "key");
    if (!key || !tunedb_is_key(key)) {
        sb_printf(err, "a kernel without a valid \"key\" (64 hex digits)");
        return -1;
    }
    const cJSON *features = cJSON_GetObjectItemCaseSensitive(k, "features");
    char *features_text = cJSON_IsString(features) ? NULL
                          : features && !cJSON_IsNull(features) ? cJSON_PrintUnformatted(features)
                                                                : NULL;
    bind_str(st[IMP_KERNEL], 1, key);
    bind_str(st[IMP_KERNEL], 2, str_of(k, "name"));
    bind_str(st[IMP_KERNEL], 3, str_of(k, "file"));
    bind_str(st[IMP_KERNEL], 4, str_of(k, "original_source"));
    bind_str(st[IMP_KERNEL], 5, features_text ? features_text : str_of(k, "features"));
    bind_str(st[IMP_KERNEL], 6, str_of(k, "created_at"));
    bind_str(st[IMP_KERNEL], 7, str_of(k, "last_seen"));
    long long n = step_insert(db, st[IMP_KERNEL], what, err);
    cJSON_free(features_text);
    if (n < 0)
        return -1;
    c->kernels++;
    if (replace) {
        for (int d = IMP_DEL_V; d <= IMP_DEL_E; d++) {
            bind_str(st[d], 1, key);
            if (step_insert(db, st[d], what, err) < 0)
                return -1;
        }
    }
    const cJSON *v;
    cJSON_ArrayForEach(v, cJSON_GetObjectItemCaseSensitive(k, "variants")) {
        const char *arch = str_of(v, "arch"), *source = str_of(v, "source");
        const char *edits = str_of(v, "launch_edits"), *created = str_of(v, "created_at");
        if (!arch || !source || !created) {
            sb_printf(err, "kernel %.16s...: a variant without arch, source or created_at", key);
            return -1;
        }
        cJSON *parsed_edits = edits ? cJSON_Parse(edits) : NULL;
        if (edits && !parsed_edits) {
            sb_printf(err, "kernel %.16s...: launch_edits is not JSON", key);
            return -1;
        }
        cJSON_Delete(parsed_edits);
        char hash[65];
        tunedb_variant_hash(source, edits, hash); /* the identity, from the content */
        const cJSON *verified = cJSON_GetObjectItemCaseSensitive(v, "verified");
        sqlite3_stmt *s = st[IMP_VARIANT];
        bind_str(s, 1, key);
        bind_str(s, 2, str_of(v, "kernel_name"));
        bind_str(s, 3, arch);
        bind_str(s, 4, source);
        bind_str(s, 5, edits);
        bind_str(s, 6, hash);
        bind_str(s, 7, str_of(v, "policy"));
        bind_str(s, 8, str_of(v, "transforms") ? str_of(v, "transforms") : "");
        sqlite3_bind_int(s, 9, cJSON_IsTrue(verified));
        bind_num(s, 10, num_of(v, "baseline_ms"));
        bind_num(s, 11, num_of(v, "variant_ms"));
        bind_num(s, 12, num_of(v, "spread_ms"));
        bind_num(s, 13, num_of(v, "speedup"));
        bind_str(s, 14, str_of(v, "gpu_name"));
        bind_str(s, 15, created);
        bind_str(s, 16, str_of(v, "instances"));
        long long added = step_insert(db, s, what, err);
        if (added < 0)
            return -1;
        c->variants += added;
        c->variants_present += added ? 0 : 1;
    }
    const cJSON *e;
    cJSON_ArrayForEach(e, cJSON_GetObjectItemCaseSensitive(k, "evaluations")) {
        const char *vh = str_of(e, "variant_hash"), *verdict = str_of(e, "verdict");
        const char *created = str_of(e, "created_at");
        if (!vh || !verdict || !*verdict || !created) {
            sb_printf(err, "kernel %.16s...: an evaluation without variant_hash, verdict or "
                           "created_at", key);
            return -1;
        }
        sqlite3_stmt *s = st[IMP_EVAL];
        bind_str(s, 1, key);
        bind_str(s, 2, vh);
        bind_str(s, 3, verdict);
        bind_num(s, 4, num_of(e, "ms"));
        bind_str(s, 5, str_of(e, "detail"));
        bind_str(s, 6, created);
        long long added = step_insert(db, s, what, err);
        if (added < 0)
            return -1;
        c->evaluations += added;
    }
    return 0;
}

int tunedb_import_json(tunedb *db, const char *json, int replace, tunedb_import_counts *counts,
                       strbuf *err)
{
    memset(counts, 0, sizeof *counts);
    cJSON *root = cJSON_Parse(json);
    const cJSON *format = cJSON_GetObjectItemCaseSensitive(root, "cl1cc_tuning_db");
    const cJSON *key_format = cJSON_GetObjectItemCaseSensitive(root, "key_format");
    const cJSON *kernels = cJSON_GetObjectItemCaseSensitive(root, "kernels");
    if (!root || !cJSON_IsNumber(format) || !cJSON_IsArray(kernels)) {
        sb_puts(err, "not an export of a cl1cc tuning database (`cl1cc db export`)");
        cJSON_Delete(root);
        return -1;
    }
    if (format->valuedouble > EXPORT_FORMAT || !cJSON_IsNumber(key_format) ||
        key_format->valuedouble != TUNEDB_KEY_FORMAT) {
        sb_printf(err, "an export of format %g with kernel keys of format %g: this cl1cc reads "
                       "format %d with keys of format %d",
                  format->valuedouble, cJSON_IsNumber(key_format) ? key_format->valuedouble : -1.0,
                  EXPORT_FORMAT, TUNEDB_KEY_FORMAT);
        cJSON_Delete(root);
        return -1;
    }
    sqlite3_stmt *st[IMP_COUNT] = {0};
    int ok = begin(db, "importing", err) == 0;
    int began = ok;
    for (int i = 0; ok && i < IMP_COUNT; i++)
        ok = (st[i] = prepare(db, import_sql[i], "importing", err)) != NULL;
    const cJSON *k;
    cJSON_ArrayForEach(k, kernels) {
        if (ok && import_kernel(db, st, k, replace, counts, err) != 0)
            ok = 0;
    }
    for (int i = 0; i < IMP_COUNT; i++)
        sqlite3_finalize(st[i]);
    cJSON_Delete(root);
    if (!began)
        return -1;
    return finish(db, ok, "importing", err);
}
