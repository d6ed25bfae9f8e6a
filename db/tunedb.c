/*
 * tunedb.c: the tuning database on SQLite.  Many processes share one file:
 * WAL mode, every write one BEGIN IMMEDIATE transaction retried on
 * SQLITE_BUSY until the busy timeout, every statement prepared at open.
 */
#include "tunedb.h"
#include "tunedb_private.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <sqlite3.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "config.h"

#define DEFAULT_BUSY_MS 5000
#define NOW_SQL "strftime('%Y-%m-%dT%H:%M:%fZ','now')"
#define XSTR_(x) #x
#define XSTR(x) XSTR_(x)

/* Version 2 (version 1 lacked variants.instances: migrate_v1 adds it).  A
 * later version adds a migration from each older one; a file of a newer
 * version than this cl1cc knows is refused, never guessed at. */
static const char schema_sql[] =
    "CREATE TABLE kernels (\n"
    "  key TEXT PRIMARY KEY NOT NULL CHECK (length(key) = 64),\n"
    "  name TEXT,\n"
    "  file TEXT,\n"
    "  original_source TEXT,\n"
    "  features_json TEXT,\n"
    "  created_at TEXT NOT NULL,\n"
    "  last_seen TEXT NOT NULL\n"
    ");\n"
    "CREATE TABLE variants (\n"
    "  id INTEGER PRIMARY KEY AUTOINCREMENT,\n"
    "  kernel_key TEXT NOT NULL REFERENCES kernels(key) ON DELETE CASCADE,\n"
    "  kernel_name TEXT,\n"
    "  arch TEXT NOT NULL,\n"
    "  source TEXT NOT NULL,\n"
    "  launch_edits TEXT,\n"
    "  hash TEXT NOT NULL,\n"
    "  policy TEXT,\n"
    "  transforms TEXT NOT NULL DEFAULT '',\n"
    "  verified INTEGER NOT NULL CHECK (verified IN (0, 1)),\n"
    "  baseline_ms REAL,\n"
    "  variant_ms REAL,\n"
    "  spread_ms REAL,\n"
    "  speedup REAL,\n"
    "  gpu_name TEXT,\n"
    "  created_at TEXT NOT NULL,\n"
    "  instances TEXT\n"
    ");\n"
    "CREATE INDEX variants_best ON variants(kernel_key, arch, verified, speedup);\n"
    "CREATE TABLE evaluations (\n"
    "  id INTEGER PRIMARY KEY AUTOINCREMENT,\n"
    "  kernel_key TEXT NOT NULL REFERENCES kernels(key) ON DELETE CASCADE,\n"
    "  variant_hash TEXT NOT NULL,\n"
    "  verdict TEXT NOT NULL CHECK (verdict <> ''),\n"
    "  ms REAL,\n"
    "  detail TEXT,\n"
    "  created_at TEXT NOT NULL\n"
    ");\n"
    "CREATE INDEX evaluations_key ON evaluations(kernel_key, variant_hash);\n"
    "PRAGMA application_id = " XSTR(TUNEDB_APPLICATION_ID) ";\n"
    "PRAGMA user_version = " XSTR(TUNEDB_SCHEMA_VERSION) ";\n";

#define VARIANT_COLUMNS                                                      \
    "id, kernel_key, kernel_name, arch, source, launch_edits, hash, policy, "\
    "transforms, verified, baseline_ms, variant_ms, spread_ms, speedup, "    \
    "gpu_name, created_at, instances"

enum {
    ST_BEGIN,
    ST_COMMIT,
    ST_ROLLBACK,
    ST_FIRST_DATA, /* those above exist before the schema does */
    ST_KERNEL_UPSERT = ST_FIRST_DATA,
    ST_KERNEL_ENSURE,
    ST_VARIANT_INSERT,
    ST_EVAL_INSERT,
    ST_BEST,
    ST_LIST,
    ST_EVAL_LIST,
    ST_APPLICABLE_NAMES,
    ST_KERNELS_WITH_FEATURES,
    ST_JSON_VALID,
    ST_COUNT
};

static const char *const statement_sql[ST_COUNT] = {
    [ST_BEGIN] = "BEGIN IMMEDIATE",
    [ST_COMMIT] = "COMMIT",
    [ST_ROLLBACK] = "ROLLBACK",
    /* a later record keeps what an earlier one knew and this one does not */
    [ST_KERNEL_UPSERT] =
        "INSERT INTO kernels(key, name, file, original_source, features_json,"
        " created_at, last_seen)"
        " VALUES (?1, ?2, ?3, ?4, ?5, " NOW_SQL ", " NOW_SQL ")"
        " ON CONFLICT(key) DO UPDATE SET"
        " name = coalesce(excluded.name, name),"
        " file = coalesce(excluded.file, file),"
        " original_source = coalesce(excluded.original_source, original_source),"
        " features_json = coalesce(excluded.features_json, features_json),"
        " last_seen = excluded.last_seen",
    /* the row a variant or an evaluation refers to, when nobody recorded it */
    [ST_KERNEL_ENSURE] =
        "INSERT INTO kernels(key, name, created_at, last_seen)"
        " VALUES (?1, ?2, " NOW_SQL ", " NOW_SQL ") ON CONFLICT(key) DO NOTHING",
    [ST_VARIANT_INSERT] =
        "INSERT INTO variants(kernel_key, kernel_name, arch, source, launch_edits,"
        " hash, policy, transforms, verified, baseline_ms, variant_ms, spread_ms,"
        " speedup, gpu_name, created_at, instances)"
        " VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, "
        NOW_SQL ", ?15)",
    [ST_EVAL_INSERT] =
        "INSERT INTO evaluations(kernel_key, variant_hash, verdict, ms, detail,"
        " created_at) VALUES (?1, ?2, ?3, ?4, ?5, " NOW_SQL ")",
    /* ids only grow (AUTOINCREMENT): of equal speedups the higher is newer */
    [ST_BEST] = "SELECT " VARIANT_COLUMNS " FROM variants"
                " WHERE kernel_key = ?1 AND arch = ?2 AND verified = 1"
                " AND speedup > 1.0 ORDER BY speedup DESC, id DESC LIMIT 1",
    [ST_LIST] = "SELECT " VARIANT_COLUMNS " FROM variants"
                " WHERE kernel_key = ?1 AND (?2 IS NULL OR arch = ?2) ORDER BY id",
    [ST_EVAL_LIST] = ("SELECT id, kernel_key, variant_hash, verdict, ms, detail,"
                      " created_at FROM evaluations WHERE kernel_key = ?1 ORDER BY id"),
    [ST_APPLICABLE_NAMES] = "SELECT DISTINCT kernel_name FROM variants"
                            " WHERE arch = ?1 AND verified = 1 AND speedup > 1.0"
                            " AND kernel_name IS NOT NULL",
    /* not a CHECK in the schema: with an untrusted schema (as we open
     * every file) SQLite refuses json_valid() there */
    [ST_KERNELS_WITH_FEATURES] = "SELECT key, name, features_json FROM kernels"
                                 " WHERE features_json IS NOT NULL AND ?1 IS NOT NULL ORDER BY key",
    [ST_JSON_VALID] = "SELECT json_valid(?1)",
};

struct tunedb {
    sqlite3 *conn;
    char *path; /* as the caller named it: every message carries it */
    tunedb_mode mode;
    int busy_ms;
    int legacy_v1; /* a version 1 file opened read-only: no instances column */
    sqlite3_stmt *stmt[ST_COUNT];
};

/* ---- paths ------------------------------------------------------------- */

const char *tunedb_default_path(arena *a)
{
    return config_db_path(a);
}

/* ---- small helpers ------------------------------------------------------ */

static int busy_timeout_from_env(void)
{
    return config_db_busy_ms(DEFAULT_BUSY_MS);
}

static double now_ms(void)
{
    struct timespec ts;
    if (clock_gettime(CLOCK_MONOTONIC, &ts) != 0)
        return 0; /* cannot fail for CLOCK_MONOTONIC */
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

static int is_busy(int rc)
{
    rc &= 0xff;
    return rc == SQLITE_BUSY || rc == SQLITE_LOCKED;
}

/* 1..32 ms, growing with the attempt, jittered so that writers do not
 * retry in step */
static void backoff(int attempt)
{
    long ms = 1L << (attempt < 5 ? attempt : 5);
    struct timespec now;
    if (clock_gettime(CLOCK_MONOTONIC, &now) == 0)
        ms += (now.tv_nsec / 1000) % (ms + 1);
    struct timespec ts = {0, ms * 1000000L};
    while (nanosleep(&ts, &ts) != 0 && errno == EINTR)
        ;
}

/* Steps a statement that returns no rows, then resets it for the next use.
 * The reset repeats the step's error, which is already in rc. */
static int step_done(sqlite3_stmt *st)
{
    int rc = sqlite3_step(st);
    sqlite3_reset(st);
    sqlite3_clear_bindings(st);
    return rc;
}

static int bind_text(sqlite3_stmt *st, int i, const char *s)
{
    return s ? sqlite3_bind_text(st, i, s, -1, SQLITE_STATIC) : sqlite3_bind_null(st, i);
}

/* NaN (not measured) is stored as NULL */
static int bind_double(sqlite3_stmt *st, int i, double d)
{
    return isnan(d) ? sqlite3_bind_null(st, i) : sqlite3_bind_double(st, i, d);
}

/* NULL for SQL NULL; anything else as text, exactly its bytes */
static const char *column_text(sqlite3_stmt *st, int i, arena *a)
{
    if (sqlite3_column_type(st, i) == SQLITE_NULL)
        return NULL;
    const unsigned char *t = sqlite3_column_text(st, i);
    if (!t)
        return NULL; /* out of memory inside sqlite: read as absent */
    return arena_strndup(a, (const char *)t, (size_t)sqlite3_column_bytes(st, i));
}

static double column_double(sqlite3_stmt *st, int i)
{
    return sqlite3_column_type(st, i) == SQLITE_NULL ? NAN : sqlite3_column_double(st, i);
}

static int bad_key(tunedb *db, const char *what, const char *key, strbuf *err)
{
    sb_printf(err, "tuning database %s: %s: \"%s\" is not a kernel key (64 hex digits)",
              db->path, what, key ? key : "(null)");
    return -1;
}

/* ---- transactions -------------------------------------------------------- */

/* A write body runs inside BEGIN IMMEDIATE.  It returns SQLITE_DONE, or the
 * failing sqlite code, with a message in why when sqlite's is not the one. */
typedef int (*write_body)(tunedb *db, void *ctx, strbuf *why);

static int run_write(tunedb *db, write_body body, void *ctx, const char *what, strbuf *err)
{
    if (db->mode != TUNEDB_READWRITE) {
        sb_printf(err, "tuning database %s: %s: it was opened read-only", db->path, what);
        return -1;
    }
    double deadline = now_ms() + db->busy_ms;
    strbuf why;
    sb_init(&why);
    for (int attempt = 0;; attempt++) {
        sb_clear(&why);
        int rc = step_done(db->stmt[ST_BEGIN]);
        if (rc == SQLITE_DONE) {
            rc = body(db, ctx, &why);
            if (rc == SQLITE_DONE) {
                rc = step_done(db->stmt[ST_COMMIT]);
                if (rc == SQLITE_DONE) {
                    sb_free(&why);
                    return 0;
                }
            }
            if (!why.len)
                sb_puts(&why, sqlite3_errmsg(db->conn));
            /* a failed statement or COMMIT may leave the transaction open */
            if (!sqlite3_get_autocommit(db->conn)) {
                int rb = step_done(db->stmt[ST_ROLLBACK]);
                if (rb != SQLITE_DONE && !sqlite3_get_autocommit(db->conn)) {
                    sb_printf(err, "tuning database %s: %s: %s; and the rollback failed: %s",
                              db->path, what, sb_str(&why), sqlite3_errmsg(db->conn));
                    sb_free(&why);
                    return -1;
                }
            }
        } else {
            sb_puts(&why, sqlite3_errmsg(db->conn));
        }
        if (is_busy(rc) && now_ms() < deadline) {
            backoff(attempt);
            continue;
        }
        sb_printf(err, "tuning database %s: %s: %s", db->path, what, sb_str(&why));
        if (is_busy(rc))
            sb_printf(err, " (after waiting %d ms; CL1CC_DB_BUSY_MS sets how long)",
                      db->busy_ms);
        sb_free(&why);
        return -1;
    }
}

/* Reads one row into the collection; -1 (with why) when the row is damaged. */
typedef int (*row_reader)(sqlite3_stmt *st, arena *a, void *rows, strbuf *why);

/* Runs a SELECT already bound, handing up to max rows (0: all) to read.
 * A busy reader starts again from scratch (*rows_len = 0) until the
 * deadline.  Leaves the statement reset and unbound.  0 or -1. */
static int run_read(tunedb *db, sqlite3_stmt *st, size_t max, row_reader read, void *rows,
                    size_t *rows_len, arena *a, const char *what, strbuf *err)
{
    double deadline = now_ms() + db->busy_ms;
    strbuf why;
    sb_init(&why);
    for (int attempt = 0;; attempt++) {
        *rows_len = 0;
        int rc;
        while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
            if (read(st, a, rows, &why) != 0) {
                rc = SQLITE_CORRUPT;
                break;
            }
            if (max && *rows_len == max) {
                rc = SQLITE_DONE;
                break;
            }
        }
        if (rc == SQLITE_DONE) {
            sqlite3_reset(st);
            sqlite3_clear_bindings(st);
            sb_free(&why);
            return 0;
        }
        if (!why.len)
            sb_puts(&why, sqlite3_errmsg(db->conn));
        sqlite3_reset(st); /* repeats the step's error */
        if (is_busy(rc) && now_ms() < deadline) {
            sb_clear(&why);
            backoff(attempt);
            continue;
        }
        sqlite3_clear_bindings(st);
        *rows_len = 0;
        sb_printf(err, "tuning database %s: %s: %s", db->path, what, sb_str(&why));
        sb_free(&why);
        return -1;
    }
}

/* ---- open / close --------------------------------------------------------- */

/* Runs one statement (a pragma) to completion with busy retries.  The
 * first n_ints columns of its first row go to ints, its first column to
 * first_text, when asked for; later rows go to more_text, one a line. */
static int exec_one(tunedb *db, const char *sql, long long *ints, int n_ints,
                    char *first_text, size_t text_size, strbuf *more_text, strbuf *why)
{
    double deadline = now_ms() + db->busy_ms;
    for (int attempt = 0;; attempt++) {
        sqlite3_stmt *st = NULL;
        int rc = sqlite3_prepare_v2(db->conn, sql, -1, &st, NULL);
        int rows = 0;
        if (rc == SQLITE_OK) {
            while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
                const unsigned char *t = sqlite3_column_text(st, 0);
                if (rows++ == 0) {
                    for (int i = 0; i < n_ints; i++)
                        ints[i] = sqlite3_column_int64(st, i);
                    if (first_text)
                        snprintf(first_text, text_size, "%s", t ? (const char *)t : "");
                } else if (more_text && rows <= 20) {
                    sb_printf(more_text, "%s\n", t ? (const char *)t : "");
                }
            }
        }
        if (rc == SQLITE_DONE) {
            rc = sqlite3_finalize(st);
            if (rc == SQLITE_OK)
                return 0;
        }
        sb_clear(why);
        sb_puts(why, sqlite3_errmsg(db->conn));
        sqlite3_finalize(st); /* repeats the error already in rc */
        if (is_busy(rc) && now_ms() < deadline) {
            backoff(attempt);
            continue;
        }
        return -1;
    }
}

typedef struct schema_ctx {
    long long found_version;
} schema_ctx;

/* Creates the schema unless another process did it first: the check and
 * the creation are one write transaction. */
static int create_schema(tunedb *db, void *ctx, strbuf *why)
{
    schema_ctx *sc = ctx;
    long long version = 0, objects = 0;
    if (exec_one(db, "PRAGMA user_version", &version, 1, NULL, 0, NULL, why) != 0 ||
        exec_one(db, "SELECT count(*) FROM sqlite_master", &objects, 1, NULL, 0, NULL, why) != 0) {
        int code = sqlite3_errcode(db->conn);
        return code == SQLITE_OK || code == SQLITE_DONE ? SQLITE_ERROR : code;
    }
    sc->found_version = version;
    if (version != 0)
        return SQLITE_DONE;
    if (objects != 0) {
        sb_puts(why, "it is an SQLite database of something else (tables but no "
                     "cl1cc schema version)");
        return SQLITE_ERROR;
    }
    char *msg = NULL;
    int rc = sqlite3_exec(db->conn, schema_sql, NULL, NULL, &msg);
    if (rc != SQLITE_OK) {
        sb_puts(why, msg ? msg : sqlite3_errstr(rc));
        sqlite3_free(msg);
        return rc;
    }
    sc->found_version = TUNEDB_SCHEMA_VERSION;
    return SQLITE_DONE;
}

/* Version 1 to 2: the instantiations a variant was verified on.  Another
 * process may have migrated first: the version is read inside the write. */
static int migrate_v1(tunedb *db, void *ctx, strbuf *why)
{
    (void)ctx;
    long long version = 0;
    if (exec_one(db, "PRAGMA user_version", &version, 1, NULL, 0, NULL, why) != 0)
        return SQLITE_ERROR;
    if (version != 1)
        return SQLITE_DONE;
    char *msg = NULL;
    int rc = sqlite3_exec(db->conn,
                          "ALTER TABLE variants ADD COLUMN instances TEXT;\n"
                          "PRAGMA user_version = 2;\n",
                          NULL, NULL, &msg);
    if (rc != SQLITE_OK) {
        sb_puts(why, msg ? msg : sqlite3_errstr(rc));
        sqlite3_free(msg);
        return rc;
    }
    return SQLITE_DONE;
}

static int make_parent_dirs(const char *path, strbuf *err)
{
    const char *slash = strrchr(path, '/');
    if (!slash || slash == path)
        return 0;
    char *dir = xstrdup(path);
    dir[slash - path] = '\0';
    int rc = dir_create_all(dir, 0777);
    if (rc != 0)
        sb_printf(err, "tuning database %s: cannot create the folder %s: %s", path, dir,
                  strerror(errno));
    free(dir);
    return rc;
}

/* What to call a failure to read the file at all. */
static const char *damage_name(tunedb *db)
{
    int code = sqlite3_errcode(db->conn) & 0xff;
    return code == SQLITE_NOTADB    ? "not a tuning database (not an SQLite file)"
           : code == SQLITE_CORRUPT ? "the database is corrupt"
                                    : "cannot read it";
}

static int config_connection(tunedb *db, strbuf *why)
{
    /* a file from elsewhere may carry a crafted schema: no writes to it
     * through pragmas, no functions with side effects in its views */
    int on = -1;
    if (sqlite3_db_config(db->conn, SQLITE_DBCONFIG_DEFENSIVE, 1, &on) != SQLITE_OK) {
        sb_puts(why, sqlite3_errmsg(db->conn));
        return -1;
    }
#ifdef SQLITE_DBCONFIG_TRUSTED_SCHEMA
    if (sqlite3_db_config(db->conn, SQLITE_DBCONFIG_TRUSTED_SCHEMA, 0, &on) != SQLITE_OK) {
        sb_puts(why, sqlite3_errmsg(db->conn));
        return -1;
    }
#endif
    if (sqlite3_extended_result_codes(db->conn, 1) != SQLITE_OK ||
        sqlite3_busy_timeout(db->conn, db->busy_ms) != SQLITE_OK) {
        sb_puts(why, sqlite3_errmsg(db->conn));
        return -1;
    }
    return 0;
}

/* a version 1 file read as it is: its variants have no instances (NULL) */
static char *legacy_sql(const char *sql)
{
    const char *col = ", instances FROM";
    const char *p = strstr(sql, col);
    if (!p)
        return NULL;
    strbuf sb;
    sb_init(&sb);
    sb_printf(&sb, "%.*s, NULL FROM%s", (int)(p - sql), sql, p + strlen(col));
    char *out = xstrdup(sb_str(&sb));
    sb_free(&sb);
    return out;
}

static int prepare_statements(tunedb *db, int from, int to, strbuf *why)
{
    for (int i = from; i < to; i++) {
        if (db->legacy_v1 && i == ST_VARIANT_INSERT) {
            db->stmt[i] = NULL; /* read-only: never written */
            continue;
        }
        char *legacy = db->legacy_v1 ? legacy_sql(statement_sql[i]) : NULL;
        int prc = sqlite3_prepare_v3(db->conn, legacy ? legacy : statement_sql[i], -1,
                                     SQLITE_PREPARE_PERSISTENT, &db->stmt[i], NULL);
        free(legacy);
        if (prc != SQLITE_OK) {
            if (i == ST_JSON_VALID) {
                /* an SQLite built without JSON: the texts go unchecked */
                db->stmt[i] = NULL;
                continue;
            }
            sb_clear(why);
            sb_puts(why, sqlite3_errmsg(db->conn));
            return -1;
        }
    }
    return 0;
}

/* Classifies the header: 0 ours (or empty, *empty set), -1 with why. */
static int check_header(tunedb *db, int *empty, strbuf *why, const char **what,
                        long long *version_out)
{
    long long version = 0, app = 0, objects = 0;
    *empty = 0;
    *what = NULL;
    /* One statement, so one snapshot: read apart, the three could straddle
     * another process's creation of the schema.  The first read of the
     * file: "file is not a database" shows here. */
    long long header[3] = {0, 0, 0};
    if (exec_one(db, "SELECT (SELECT user_version FROM pragma_user_version),"
                     " (SELECT application_id FROM pragma_application_id),"
                     " (SELECT count(*) FROM sqlite_master)",
                 header, 3, NULL, 0, NULL, why) != 0) {
        *what = damage_name(db);
        return -1;
    }
    version = header[0];
    *version_out = version;
    app = header[1];
    objects = header[2];
    sb_clear(why);
    if (version > TUNEDB_SCHEMA_VERSION) {
        sb_printf(why, "schema version %lld is newer than this cl1cc knows (%d): "
                       "upgrade cl1cc, or set CL1CC_DB to another file", version,
                  TUNEDB_SCHEMA_VERSION);
        return -1;
    }
    if (version == 0 && app == 0 && objects == 0) {
        *empty = 1; /* created but never written, or being created right now */
        return 0;
    }
    if (version < 1 || app != TUNEDB_APPLICATION_ID) {
        sb_printf(why, "it is an SQLite database of something else (application_id %#llx, "
                       "user_version %lld)", (unsigned long long)app, version);
        return -1;
    }
    return 0;
}

/* Before SQLite sees a non-empty file: it must start like an SQLite
 * database, so that a read-write open never writes a schema over someone's
 * file that SQLite takes for an empty one (it does for a few bytes), and
 * its size must be whole pages, so that a truncated file is refused even
 * where the lost bytes lie inside a page. */
static int check_file_header(const char *path, const struct stat *sst, strbuf *err)
{
    unsigned char header[100];
    FILE *f = fopen(path, "rb");
    if (!f) {
        sb_printf(err, "tuning database %s: %s", path, strerror(errno));
        return -1;
    }
    size_t got = fread(header, 1, sizeof header, f);
    int read_error = ferror(f);
    if (fclose(f) != 0 || read_error) {
        sb_printf(err, "tuning database %s: reading it: %s", path, strerror(errno));
        return -1;
    }
    if (got < sizeof header || memcmp(header, "SQLite format 3", 16) != 0) {
        sb_printf(err, "tuning database %s: not a tuning database (not an SQLite file)", path);
        return -1;
    }
    unsigned page = (unsigned)header[16] << 8 | header[17];
    if (page == 1)
        page = 65536;
    if (page < 512 || (page & (page - 1)) != 0) {
        sb_printf(err, "tuning database %s: the database is corrupt (page size %u)", path,
                  page);
        return -1;
    }
    if (sst->st_size % page != 0) {
        sb_printf(err, "tuning database %s: the database is corrupt (truncated: %lld bytes "
                       "is not a whole number of %u-byte pages)", path,
                  (long long)sst->st_size, page);
        return -1;
    }
    return 0;
}

static int open_fail(tunedb *db, strbuf *err, const char *what, strbuf *why)
{
    sb_printf(err, "tuning database %s: %s%s%s", db->path, what, why->len ? ": " : "",
              sb_str(why));
    sb_free(why);
    tunedb_close(db);
    return -1;
}

/* Whether this process may write the file and make files beside it (the
 * journal, WAL and shared-memory files), or must anyway: a -wal file with
 * commits in it. */
static int can_write_beside(const char *path)
{
    /* with a -wal file holding commits, immutable would miss them */
    char *wal = xmalloc(strlen(path) + 5);
    sprintf(wal, "%s-wal", path);
    struct stat st;
    int wal_data = stat(wal, &st) == 0 && st.st_size > 0;
    free(wal);
    if (wal_data)
        return 1;
    if (access(path, W_OK) != 0)
        return 0;
    const char *slash = strrchr(path, '/');
    if (!slash)
        return access(".", W_OK) == 0;
    char *dir = xstrdup(path);
    dir[slash == path ? 1 : (size_t)(slash - path)] = '\0';
    int ok = access(dir, W_OK) == 0;
    free(dir);
    return ok;
}

int tunedb_open(const char *path, tunedb_mode mode, tunedb **out, strbuf *err)
{
    CL_ASSERT(out != NULL);
    *out = NULL;
    if (!path || !*path) {
        if (mode == TUNEDB_READONLY)
            return 1;
        sb_puts(err, "tuning database: no path (set CL1CC_DB, XDG_CACHE_HOME or HOME)");
        return -1;
    }
    struct stat sst;
    if (stat(path, &sst) == 0) {
        if (!S_ISREG(sst.st_mode)) {
            sb_printf(err, "tuning database %s: not a regular file", path);
            return -1;
        }
        if (mode == TUNEDB_READONLY && sst.st_size == 0)
            return 1; /* created, not yet written: skip the open altogether */
        if (sst.st_size > 0 && check_file_header(path, &sst, err) != 0)
            return -1;
    } else if (errno == ENOENT && mode == TUNEDB_READONLY) {
        return 1;
    } else if (errno != ENOENT) {
        sb_printf(err, "tuning database %s: %s", path, strerror(errno));
        return -1;
    } else if (make_parent_dirs(path, err) != 0) {
        return -1;
    }

    tunedb *db = xcalloc(1, sizeof *db);
    db->path = xstrdup(path);
    db->mode = mode;
    db->busy_ms = busy_timeout_from_env();
    strbuf why;
    sb_init(&why);
    /* where URIs are enabled globally, a name "file:..." would be one */
    strbuf name;
    sb_init(&name);
    int flags = mode == TUNEDB_READONLY ? SQLITE_OPEN_READONLY
                                        : SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE;
    if (mode == TUNEDB_READONLY && !can_write_beside(path)) {
        /* a WAL database needs its -shm file, which a reader without write
         * access cannot make: nobody writes where we cannot, so read it as
         * an immutable file */
        sb_puts(&name, "file:");
        for (const char *c = path; *c; c++) {
            if (*c == '%' || *c == '?' || *c == '#')
                sb_printf(&name, "%%%02X", (unsigned char)*c);
            else
                sb_putc(&name, *c);
        }
        sb_puts(&name, "?immutable=1");
        flags |= SQLITE_OPEN_URI;
    } else {
        if (strncmp(path, "file:", 5) == 0)
            sb_puts(&name, "./");
        sb_puts(&name, path);
    }
    int rc = sqlite3_open_v2(sb_str(&name), &db->conn, flags, NULL);
    sb_free(&name);
    if (rc != SQLITE_OK) {
        sb_puts(&why, db->conn ? sqlite3_errmsg(db->conn) : sqlite3_errstr(rc));
        return open_fail(db, err, "cannot open it", &why);
    }
    if (config_connection(db, &why) != 0)
        return open_fail(db, err, "configuring the connection", &why);
    if (mode == TUNEDB_READWRITE && sqlite3_db_readonly(db->conn, "main") != 0)
        return open_fail(db, err, "cannot write to it (the file is read-only)", &why);

    int empty = 0;
    const char *what = NULL;
    long long version = 0;
    if (check_header(db, &empty, &why, &what, &version) != 0)
        return open_fail(db, err, what ? what : "cannot use it", &why);
    if (empty && mode == TUNEDB_READONLY) {
        sb_free(&why);
        tunedb_close(db);
        return 1;
    }
    if (mode == TUNEDB_READWRITE) {
        char journal[16] = "";
        if (exec_one(db, "PRAGMA journal_mode=WAL", NULL, 0, journal, sizeof journal, NULL,
                     &why) != 0)
            return open_fail(db, err, damage_name(db), &why);
        /* WAL lets readers run beside a writer.  Without it (a file system
         * without shared memory) the rollback journal is as safe, only slower */
        if (strcmp(journal, "wal") == 0) {
            /* in WAL mode NORMAL survives a killed process; only a power cut
             * may lose the last commits, which the harness measures again */
            if (exec_one(db, "PRAGMA synchronous=NORMAL", NULL, 0, NULL, 0, NULL, &why) != 0)
                return open_fail(db, err, "setting synchronous", &why);
        } else {
            log_verbose("tuning database %s: journal mode %s, not WAL", path, journal);
        }
    }
    long long fk = 0;
    if (exec_one(db, "PRAGMA foreign_keys=ON", NULL, 0, NULL, 0, NULL, &why) != 0 ||
        exec_one(db, "PRAGMA foreign_keys", &fk, 1, NULL, 0, NULL, &why) != 0)
        return open_fail(db, err, "enabling foreign keys", &why);
    if (fk != 1) {
        sb_puts(&why, "this SQLite does not enforce them");
        return open_fail(db, err, "enabling foreign keys", &why);
    }
    if (prepare_statements(db, 0, ST_FIRST_DATA, &why) != 0)
        return open_fail(db, err, damage_name(db), &why);
    if (empty) {
        schema_ctx sc = {0};
        strbuf serr;
        sb_init(&serr);
        if (run_write(db, create_schema, &sc, "creating the schema", &serr) != 0) {
            sb_puts(err, sb_str(&serr));
            sb_free(&serr);
            sb_free(&why);
            tunedb_close(db);
            return -1;
        }
        sb_free(&serr);
        /* another process may have created it first, in another version */
        if (sc.found_version != TUNEDB_SCHEMA_VERSION &&
            check_header(db, &empty, &why, &what, &version) != 0)
            return open_fail(db, err, what ? what : "cannot use it", &why);
    }
    if (!empty && version == 1) {
        if (mode == TUNEDB_READONLY) {
            db->legacy_v1 = 1;
        } else {
            strbuf merr;
            sb_init(&merr);
            if (run_write(db, migrate_v1, NULL, "migrating schema version 1 to 2", &merr) != 0) {
                sb_puts(err, sb_str(&merr));
                sb_free(&merr);
                sb_free(&why);
                tunedb_close(db);
                return -1;
            }
            sb_free(&merr);
        }
    }
    /* preparing reads the whole schema: a damaged one shows here */
    if (prepare_statements(db, ST_FIRST_DATA, ST_COUNT, &why) != 0)
        return open_fail(db, err, damage_name(db), &why);
    sb_free(&why);
    *out = db;
    return 0;
}

void tunedb_close(tunedb *db)
{
    if (!db)
        return;
    /* finalize returns the statement's last error, already reported */
    for (int i = 0; i < ST_COUNT; i++)
        sqlite3_finalize(db->stmt[i]);
    if (db->conn && sqlite3_close(db->conn) != SQLITE_OK)
        log_warn("tuning database %s: closing it: %s", db->path, sqlite3_errmsg(db->conn));
    free(db->path);
    free(db);
}

int tunedb_check(tunedb *db, strbuf *err)
{
    char first[256] = "";
    strbuf more, why;
    sb_init(&more);
    sb_init(&why);
    int rc = 0;
    if (exec_one(db, "PRAGMA integrity_check", NULL, 0, first, sizeof first, &more, &why) != 0) {
        sb_printf(err, "tuning database %s: integrity check: %s", db->path, sb_str(&why));
        rc = -1;
    } else if (strcmp(first, "ok") != 0) {
        sb_printf(err, "tuning database %s: integrity check: %s\n%s", db->path, first,
                  sb_str(&more));
        rc = -1;
    } else {
        long long orphans = 0;
        if (exec_one(db, "SELECT count(*) FROM pragma_foreign_key_check", &orphans, 1, NULL,
                     0, NULL, &why) != 0) {
            sb_printf(err, "tuning database %s: foreign key check: %s", db->path,
                      sb_str(&why));
            rc = -1;
        } else if (orphans) {
            sb_printf(err, "tuning database %s: %lld rows refer to kernels not recorded",
                      db->path, orphans);
            rc = -1;
        }
    }
    sb_free(&more);
    sb_free(&why);
    return rc;
}

/* ---- writes --------------------------------------------------------------- */

/* binds texts to ?1.. in order, stopping at the first failure */
static int bind_texts(sqlite3_stmt *st, const char *const *texts, int n)
{
    int rc = SQLITE_OK;
    for (int i = 0; i < n && rc == SQLITE_OK; i++)
        rc = bind_text(st, i + 1, texts[i]);
    return rc;
}

/* 0 when text is NULL or valid JSON; else -1 with a message naming field */
static int check_json(tunedb *db, const char *text, const char *field, const char *what,
                      strbuf *err)
{
    sqlite3_stmt *st = db->stmt[ST_JSON_VALID];
    if (!text || !st)
        return 0;
    int rc = bind_text(st, 1, text);
    int valid = 0;
    if (rc == SQLITE_OK && (rc = sqlite3_step(st)) == SQLITE_ROW)
        valid = sqlite3_column_int(st, 0) == 1;
    sqlite3_reset(st);
    sqlite3_clear_bindings(st);
    if (rc != SQLITE_ROW) {
        sb_printf(err, "tuning database %s: %s: checking %s: %s", db->path, what, field,
                  sqlite3_errmsg(db->conn));
        return -1;
    }
    if (!valid) {
        sb_printf(err, "tuning database %s: %s: %s is not valid JSON", db->path, what, field);
        return -1;
    }
    return 0;
}

typedef struct kernel_ctx {
    const char *fields[5]; /* key, name, file, source, features */
} kernel_ctx;

static int write_kernel(tunedb *db, void *ctx, strbuf *why)
{
    kernel_ctx *k = ctx;
    sqlite3_stmt *st = db->stmt[ST_KERNEL_UPSERT];
    int rc = bind_texts(st, k->fields, 5);
    if (rc != SQLITE_OK) {
        sqlite3_clear_bindings(st);
        return rc;
    }
    return step_done(st);
}

int tunedb_record_kernel(tunedb *db, const char *key, const char *kernel_name,
                         const char *file, const char *original_source,
                         const char *features_json, strbuf *err)
{
    if (!tunedb_is_key(key))
        return bad_key(db, "recording a kernel", key, err);
    if (check_json(db, features_json, "features_json", "recording a kernel", err) != 0)
        return -1;
    kernel_ctx k = {{key, kernel_name, file, original_source, features_json}};
    return run_write(db, write_kernel, &k, "recording a kernel", err);
}

static int ensure_kernel(tunedb *db, const char *key, const char *name)
{
    sqlite3_stmt *st = db->stmt[ST_KERNEL_ENSURE];
    const char *texts[2] = {key, name};
    int rc = bind_texts(st, texts, 2);
    if (rc != SQLITE_OK) {
        sqlite3_clear_bindings(st);
        return rc;
    }
    return step_done(st);
}

typedef struct variant_ctx {
    const tunedb_variant *v;
    char hash[65];
    long long id;
} variant_ctx;

static int write_variant(tunedb *db, void *ctx, strbuf *why)
{
    variant_ctx *vc = ctx;
    const tunedb_variant *v = vc->v;
    int rc = ensure_kernel(db, v->kernel_key, v->kernel_name);
    if (rc != SQLITE_DONE)
        return rc;
    sqlite3_stmt *st = db->stmt[ST_VARIANT_INSERT];
    const char *texts[8] = {v->kernel_key, v->kernel_name, v->arch, v->source,
                            v->launch_edits, vc->hash, v->policy,
                            v->transforms ? v->transforms : ""};
    rc = bind_texts(st, texts, 8);
    if (rc == SQLITE_OK) rc = sqlite3_bind_int(st, 9, v->verified);
    if (rc == SQLITE_OK) rc = bind_double(st, 10, v->baseline_ms);
    if (rc == SQLITE_OK) rc = bind_double(st, 11, v->variant_ms);
    if (rc == SQLITE_OK) rc = bind_double(st, 12, v->spread_ms);
    if (rc == SQLITE_OK) rc = bind_double(st, 13, v->speedup);
    if (rc == SQLITE_OK) rc = bind_text(st, 14, v->gpu_name);
    if (rc == SQLITE_OK) rc = bind_text(st, 15, v->instances);
    if (rc != SQLITE_OK) {
        sqlite3_clear_bindings(st);
        return rc;
    }
    rc = step_done(st);
    if (rc == SQLITE_DONE)
        vc->id = sqlite3_last_insert_rowid(db->conn);
    return rc;
}

int tunedb_record_variant(tunedb *db, const tunedb_variant *v, long long *id_out,
                          strbuf *err)
{
    const char *what = "recording a variant";
    if (!tunedb_is_key(v->kernel_key))
        return bad_key(db, what, v->kernel_key, err);
    const char *missing = !v->arch || !*v->arch ? "arch"
                          : !v->source          ? "source"
                                                : NULL;
    if (!missing && v->verified != 0 && v->verified != 1)
        missing = "verified as 0 or 1";
    if (!missing && (isinf(v->baseline_ms) || isinf(v->variant_ms) || isinf(v->spread_ms) ||
                     isinf(v->speedup)))
        missing = "finite timings (NaN for none)";
    if (missing) {
        sb_printf(err, "tuning database %s: %s of %s: it needs %s", db->path, what,
                  v->kernel_key, missing);
        return -1;
    }
    if (check_json(db, v->launch_edits, "launch_edits", what, err) != 0)
        return -1;
    variant_ctx vc;
    vc.v = v;
    vc.id = 0;
    tunedb_variant_hash(v->source, v->launch_edits, vc.hash);
    if (run_write(db, write_variant, &vc, what, err) != 0)
        return -1;
    if (id_out)
        *id_out = vc.id;
    return 0;
}

typedef struct eval_ctx {
    const char *texts[3]; /* key, variant hash, verdict */
    const char *detail;
    double ms;
} eval_ctx;

static int write_evaluation(tunedb *db, void *ctx, strbuf *why)
{
    eval_ctx *e = ctx;
    int rc = ensure_kernel(db, e->texts[0], NULL);
    if (rc != SQLITE_DONE)
        return rc;
    sqlite3_stmt *st = db->stmt[ST_EVAL_INSERT];
    rc = bind_texts(st, e->texts, 3);
    if (rc == SQLITE_OK) rc = bind_double(st, 4, e->ms);
    if (rc == SQLITE_OK) rc = bind_text(st, 5, e->detail);
    if (rc != SQLITE_OK) {
        sqlite3_clear_bindings(st);
        return rc;
    }
    return step_done(st);
}

int tunedb_record_evaluation(tunedb *db, const char *key, const char *variant_hash,
                             const char *verdict, double ms, const char *detail,
                             strbuf *err)
{
    const char *what = "recording an evaluation";
    if (!tunedb_is_key(key))
        return bad_key(db, what, key, err);
    if (!variant_hash || !*variant_hash || !verdict || !*verdict || isinf(ms)) {
        sb_printf(err, "tuning database %s: %s of %s: it needs a variant hash, a verdict "
                       "and a finite time (NaN for none)", db->path, what, key);
        return -1;
    }
    eval_ctx e = {{key, variant_hash, verdict}, detail, ms};
    return run_write(db, write_evaluation, &e, what, err);
}

/* ---- reads ---------------------------------------------------------------- */

typedef VEC(tunedb_variant) variant_rows;
typedef VEC(tunedb_evaluation) evaluation_rows;
typedef VEC(const char *) name_rows;

/* A damaged file can hold NULL where the schema says NOT NULL: such a row is
 * refused, so that no caller meets a NULL source or arch. */
static int read_variant(sqlite3_stmt *st, arena *a, void *rows, strbuf *why)
{
    tunedb_variant v;
    v.id = sqlite3_column_int64(st, 0);
    v.kernel_key = column_text(st, 1, a);
    v.kernel_name = column_text(st, 2, a);
    v.arch = column_text(st, 3, a);
    v.source = column_text(st, 4, a);
    v.launch_edits = column_text(st, 5, a);
    v.hash = column_text(st, 6, a);
    v.policy = column_text(st, 7, a);
    v.transforms = column_text(st, 8, a);
    long long verified = sqlite3_column_int64(st, 9);
    v.verified = verified == 1;
    v.baseline_ms = column_double(st, 10);
    v.variant_ms = column_double(st, 11);
    v.spread_ms = column_double(st, 12);
    v.speedup = column_double(st, 13);
    v.gpu_name = column_text(st, 14, a);
    v.created_at = column_text(st, 15, a);
    v.instances = column_text(st, 16, a);
    if (!v.kernel_key || !v.arch || !v.source || !v.hash || !v.created_at ||
        (verified != 0 && verified != 1)) {
        sb_printf(why, "variant %lld is damaged (a required field is missing)", v.id);
        return -1;
    }
    if (!v.transforms)
        v.transforms = "";
    vec_push((variant_rows *)rows, v);
    return 0;
}

static int read_evaluation(sqlite3_stmt *st, arena *a, void *rows, strbuf *why)
{
    tunedb_evaluation e;
    e.id = sqlite3_column_int64(st, 0);
    e.kernel_key = column_text(st, 1, a);
    e.variant_hash = column_text(st, 2, a);
    e.verdict = column_text(st, 3, a);
    e.ms = column_double(st, 4);
    e.detail = column_text(st, 5, a);
    e.created_at = column_text(st, 6, a);
    if (!e.kernel_key || !e.variant_hash || !e.verdict || !e.created_at) {
        sb_printf(why, "evaluation %lld is damaged (a required field is missing)", e.id);
        return -1;
    }
    vec_push((evaluation_rows *)rows, e);
    return 0;
}

/* binds key and arch (NULL: any) to ?1, ?2 */
static int bind_lookup(tunedb *db, sqlite3_stmt *st, const char *key, const char *arch,
                       const char *what, strbuf *err)
{
    int rc = bind_text(st, 1, key);
    if (rc == SQLITE_OK && sqlite3_bind_parameter_count(st) >= 2)
        rc = bind_text(st, 2, arch);
    if (rc != SQLITE_OK) {
        sb_printf(err, "tuning database %s: %s: %s", db->path, what, sqlite3_errmsg(db->conn));
        sqlite3_clear_bindings(st);
        return -1;
    }
    return 0;
}

int tunedb_best_variant(tunedb *db, const char *key, const char *arch, arena *a,
                        tunedb_variant *out, strbuf *err)
{
    const char *what = "looking up the best variant";
    if (!tunedb_is_key(key))
        return bad_key(db, what, key, err);
    if (!arch || !*arch) {
        sb_printf(err, "tuning database %s: %s of %s: no arch", db->path, what, key);
        return -1;
    }
    sqlite3_stmt *st = db->stmt[ST_BEST];
    if (bind_lookup(db, st, key, arch, what, err) != 0)
        return -1;
    variant_rows rows = {0};
    int rc = run_read(db, st, 1, read_variant, &rows, &rows.len, a, what, err);
    int found = rc == 0 && rows.len == 1;
    if (found)
        *out = rows.items[0];
    vec_free(&rows);
    return rc < 0 ? -1 : found;
}

/* a list's rows, copied into the caller's arena (NULL when there are none) */
static void *rows_to_arena(arena *a, const void *items, size_t len, size_t size)
{
    if (!len)
        return NULL;
    void *copy = arena_alloc(a, len * size);
    memcpy(copy, items, len * size);
    return copy;
}

int tunedb_list_variants(tunedb *db, const char *key, const char *arch, arena *a,
                         tunedb_variant_list *out, strbuf *err)
{
    const char *what = "listing variants";
    out->items = NULL;
    out->len = 0;
    if (!tunedb_is_key(key))
        return bad_key(db, what, key, err);
    sqlite3_stmt *st = db->stmt[ST_LIST];
    if (bind_lookup(db, st, key, arch, what, err) != 0)
        return -1;
    variant_rows rows = {0};
    int rc = run_read(db, st, 0, read_variant, &rows, &rows.len, a, what, err);
    if (rc == 0) {
        out->items = rows_to_arena(a, rows.items, rows.len, sizeof *rows.items);
        out->len = rows.len;
    }
    vec_free(&rows);
    return rc;
}

int tunedb_list_evaluations(tunedb *db, const char *key, arena *a,
                            tunedb_evaluation_list *out, strbuf *err)
{
    const char *what = "listing evaluations";
    out->items = NULL;
    out->len = 0;
    if (!tunedb_is_key(key))
        return bad_key(db, what, key, err);
    sqlite3_stmt *st = db->stmt[ST_EVAL_LIST];
    if (bind_lookup(db, st, key, NULL, what, err) != 0)
        return -1;
    evaluation_rows rows = {0};
    int rc = run_read(db, st, 0, read_evaluation, &rows, &rows.len, a, what, err);
    if (rc == 0) {
        out->items = rows_to_arena(a, rows.items, rows.len, sizeof *rows.items);
        out->len = rows.len;
    }
    vec_free(&rows);
    return rc;
}

static int read_name(sqlite3_stmt *st, arena *a, void *rows, strbuf *why)
{
    const char *name = column_text(st, 0, a);
    if (!name) {
        sb_puts(why, "a variant without a kernel name");
        return -1;
    }
    vec_push((name_rows *)rows, name);
    return 0;
}

int tunedb_applicable_kernel_names(tunedb *db, const char *arch, arena *a,
                                   tunedb_name_list *out, strbuf *err)
{
    const char *what = "listing kernels with variants to apply";
    out->items = NULL;
    out->len = 0;
    sqlite3_stmt *st = db->stmt[ST_APPLICABLE_NAMES];
    if (bind_lookup(db, st, arch, NULL, what, err) != 0) /* its one parameter is the arch */
        return -1;
    name_rows rows = {0};
    int rc = run_read(db, st, 0, read_name, &rows, &rows.len, a, what, err);
    if (rc == 0) {
        out->items = rows_to_arena(a, rows.items, rows.len, sizeof *rows.items);
        out->len = rows.len;
    }
    vec_free(&rows);
    return rc;
}

typedef VEC(tunedb_kernel_row) kernel_rows;

static int read_kernel_row(sqlite3_stmt *st, arena *a, void *rows, strbuf *why)
{
    tunedb_kernel_row r;
    r.key = column_text(st, 0, a);
    r.name = column_text(st, 1, a);
    r.features_json = column_text(st, 2, a);
    if (!r.key || !r.name || !r.features_json) {
        sb_puts(why, "a kernel row without key, name or features");
        return -1;
    }
    vec_push((kernel_rows *)rows, r);
    return 0;
}

int tunedb_list_kernels_with_features(tunedb *db, arena *a, tunedb_kernel_list *out,
                                      strbuf *err)
{
    const char *what = "listing kernels";
    out->items = NULL;
    out->len = 0;
    sqlite3_stmt *st = db->stmt[ST_KERNELS_WITH_FEATURES];
    if (bind_lookup(db, st, "", NULL, what, err) != 0)
        return -1;
    kernel_rows rows = {0};
    int rc = run_read(db, st, 0, read_kernel_row, &rows, &rows.len, a, what, err);
    if (rc == 0) {
        out->items = rows_to_arena(a, rows.items, rows.len, sizeof *rows.items);
        out->len = rows.len;
    }
    vec_free(&rows);
    return rc;
}

/* ---- for the module's other files (tunedb_private.h) -------------------- */

sqlite3 *tunedb_sqlite(tunedb *db) { return db->conn; }
const char *tunedb_path(tunedb *db) { return db->path; }
int tunedb_writable(tunedb *db) { return db->mode == TUNEDB_READWRITE; }
