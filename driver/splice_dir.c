/*
 * splice_dir.c: see splice_dir.h.  A folder is in use while its lock file
 * (splice/<hash>.lock) is locked with flock: the kernel releases the lock
 * when its process dies, even by SIGKILL, so an unlocked folder is stale.
 */
#include "splice_dir.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "config.h"
#include "tempfiles.h"

static const char *base_dir(arena *a)
{
    const char *cache = config_cache_dir(a);
    if (cache)
        return arena_printf(a, "%s/splice", cache);
    const char *tmp = getenv("TMPDIR");
    return arena_printf(a, "%s/cl1cc-%ld/splice", tmp && *tmp ? tmp : "/tmp", (long)getuid());
}

/* Folders whose lock no process holds: left by a killed wrapper. */
static void sweep_stale(const char *base, const char *mine)
{
    DIR *dir = opendir(base);
    if (!dir)
        return;
    struct dirent *e;
    strbuf path;
    sb_init(&path);
    while ((e = readdir(dir))) {
        size_t n = strlen(e->d_name);
        if (n <= 5 || strcmp(e->d_name + n - 5, ".lock") != 0 ||
            strncmp(e->d_name, mine, n - 5) == 0)
            continue;
        sb_clear(&path);
        sb_printf(&path, "%s/%s", base, e->d_name);
        int fd = open(sb_str(&path), O_RDONLY | O_CLOEXEC);
        if (fd < 0)
            continue;
        if (flock(fd, LOCK_EX | LOCK_NB) == 0) {
            path.len -= 5;
            path.data[path.len] = '\0';
            struct stat st;
            if (lstat(sb_str(&path), &st) == 0 && S_ISDIR(st.st_mode))
                tempfiles_remove_now(sb_str(&path));
        }
        close(fd);
    }
    closedir(dir);
    sb_free(&path);
}

int splice_dir_open(const char *source, splice_dir *d, strbuf *err)
{
    memset(d, 0, sizeof *d);
    d->lock_fd = -1;
    arena a;
    arena_init(&a);
    const char *base = base_dir(&a);
    char resolved[PATH_MAX];
    const char *key = realpath(source, resolved) ? resolved : source;
    char hex[65];
    sha256_hex(key, strlen(key), hex);
    hex[16] = '\0';
    int rc = -1;
    if (dir_create_all(base, 0700) != 0) {
        sb_printf(err, "cannot write a spliced copy of %s: %s: %s", source, base, strerror(errno));
        goto out;
    }
    sweep_stale(base, hex);
    const char *lock = arena_printf(&a, "%s/%s.lock", base, hex);
    d->lock_fd = open(lock, O_RDWR | O_CREAT | O_CLOEXEC, 0600);
    if (d->lock_fd < 0) {
        sb_printf(err, "cannot write a spliced copy of %s: %s: %s", source, lock, strerror(errno));
        goto out;
    }
    while (flock(d->lock_fd, LOCK_EX) != 0) {
        if (errno != EINTR) {
            sb_printf(err, "cannot lock %s: %s", lock, strerror(errno));
            goto out;
        }
    }
    const char *root = arena_printf(&a, "%s/%s", base, hex);
    tempfiles_remove_now(root); /* a killed process's */
    const char *out = arena_printf(&a, "%s/out", root);
    if (mkdir(root, 0700) != 0 || tempfiles_register(root) != 0 || mkdir(out, 0700) != 0) {
        sb_printf(err, "cannot write a spliced copy of %s: %s: %s", source, root, strerror(errno));
        goto out;
    }
    d->root = xstrdup(root);
    rc = 0;
out:
    if (rc != 0 && d->lock_fd >= 0) {
        close(d->lock_fd);
        d->lock_fd = -1;
    }
    arena_free(&a);
    return rc;
}

static int write_all(int fd, const char *p, size_t len)
{
    while (len) {
        ssize_t w = write(fd, p, len);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            return -1;
        p += w;
        len -= (size_t)w;
    }
    return 0;
}

const char *splice_dir_write_copy(splice_dir *d, size_t i, const char *original,
                                  const char *text, arena *a, strbuf *err)
{
    const char *slash = strrchr(original, '/');
    const char *sub = arena_printf(a, "%s/s%zu", d->root, i);
    const char *path = arena_printf(a, "%s/%s", sub, slash ? slash + 1 : original);
    const char *fault = config_test_fault();
    if (fault && strcmp(fault, "tempfile") == 0) {
        sb_printf(err, "cannot write a spliced copy of %s: %s", original, strerror(EACCES));
        return NULL;
    }
    int fd = mkdir(sub, 0700) == 0 ? open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600)
                                   : -1;
    if (fd < 0) {
        sb_printf(err, "cannot write a spliced copy of %s: %s", original, strerror(errno));
        return NULL;
    }
    /* "#line 1 ..." then the user's text: a byte-order mark there would be
     * an error; at the very start it is what the user's file had */
    static const char bom[] = "\xEF\xBB\xBF";
    size_t len = strlen(text), head = 0;
    const char *nl = strchr(text, '\n');
    int moved = !strncmp(text, "#line ", 6) && nl && !strncmp(nl + 1, bom, 3);
    if (moved)
        head = (size_t)(nl + 1 - text);
    int rc = moved ? write_all(fd, bom, 3) | write_all(fd, text, head) |
                         write_all(fd, text + head + 3, len - head - 3)
                   : write_all(fd, text, len);
    int e = errno;
    if (close(fd) != 0 && rc == 0) {
        rc = -1;
        e = errno;
    }
    if (rc != 0) {
        sb_printf(err, "cannot write a spliced copy of %s: %s", original, strerror(e));
        return NULL;
    }
    return path;
}

const char *splice_dir_output(const splice_dir *d, const char *name, arena *a)
{
    return arena_printf(a, "%s/out/%s", d->root, name);
}

void splice_dir_close(splice_dir *d)
{
    if (d->root) {
        tempfiles_remove_now(d->root);
        free(d->root);
        d->root = NULL;
    }
    if (d->lock_fd >= 0)
        close(d->lock_fd);
    d->lock_fd = -1;
}
