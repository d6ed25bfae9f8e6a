/*
 * applied_log.c: the log of variants the nvcc wrapper spliced into builds,
 * one tab-separated line each, beside the database (`cl1cc db stats` shows
 * the recent ones).  Appending is one write() with O_APPEND: lines of many
 * compiles at once do not interleave.
 */
#include "tunedb.h"
#include "tunedb_private.h"

#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define LOG_MAX_BYTES (1L << 20)

const char *tunedb_applied_log_path(const char *db_path, arena *a)
{
    return db_path ? arena_printf(a, "%s-applied.log", db_path) : NULL;
}

/* past the limit, the newer half stays: rewritten beside it, renamed over */
static void cut_log(const char *path, long size)
{
    FILE *in = fopen(path, "rb");
    if (!in)
        return;
    char tmp[4096 + 16];
    snprintf(tmp, sizeof tmp, "%.4096s.%ld", path, (long)getpid());
    FILE *out = fopen(tmp, "wb");
    int ok = out && fseek(in, size / 2, SEEK_SET) == 0;
    int c;
    while (ok && (c = getc(in)) != EOF && c != '\n') /* to a line's start */
        ;
    char buf[65536];
    size_t n;
    while (ok && (n = fread(buf, 1, sizeof buf, in)) > 0)
        ok = fwrite(buf, 1, n, out) == n;
    fclose(in);
    if (out && fclose(out) != 0)
        ok = 0;
    if (!ok || rename(tmp, path) != 0)
        unlink(tmp);
}

void tunedb_log_applied(tunedb *db, const tunedb_variant *v, const char *file)
{
    if (!db || !v)
        return;
    arena a;
    arena_init(&a);
    const char *path = tunedb_applied_log_path(tunedb_path(db), &a);
    char when[32] = "";
    time_t now = time(NULL);
    struct tm tm;
    if (gmtime_r(&now, &tm))
        strftime(when, sizeof when, "%Y-%m-%dT%H:%M:%SZ", &tm);
    const char *line = arena_printf(&a, "%s\t%s\tx%.2f\t%lld\t%.12s\t%s\t%s\n", when,
                                    v->arch ? v->arch : "?", v->speedup, v->id,
                                    v->hash ? v->hash : "?", v->kernel_name ? v->kernel_name : "?",
                                    file ? file : "?");
    int fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0666);
    if (fd >= 0) {
        size_t len = strlen(line);
        ssize_t w = write(fd, line, len);
        struct stat st;
        int big = w == (ssize_t)len && fstat(fd, &st) == 0 && st.st_size > LOG_MAX_BYTES;
        close(fd);
        if (big)
            cut_log(path, (long)st.st_size);
    }
    arena_free(&a);
}
