/*
 * file.c: reading and writing whole files, directories, and where the
 * running executable lives.
 */
#include "core.h"

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int file_read_all(const char *path, size_t max_size, char **out, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return -1;
    strbuf sb;
    sb_init(&sb);
    char chunk[65536];
    size_t n;
    while ((n = fread(chunk, 1, sizeof chunk, f)) > 0) {
        if (max_size && sb.len + n > max_size) {
            sb_free(&sb);
            fclose(f);
            errno = EFBIG;
            return -1;
        }
        sb_append(&sb, chunk, n);
    }
    int failed = ferror(f);
    fclose(f);
    if (failed) {
        sb_free(&sb);
        errno = EIO;
        return -1;
    }
    if (len)
        *len = sb.len;
    *out = sb_take(&sb);
    return 0;
}

/* The process's umask without changing it (/proc/self/status has it since
 * Linux 4.7); else the classic set-and-restore. */
static mode_t current_umask(void)
{
    FILE *f = fopen("/proc/self/status", "r");
    char line[256];
    unsigned mask = 0;
    int found = 0;
    while (f && !found && fgets(line, sizeof line, f))
        found = sscanf(line, "Umask: %o", &mask) == 1;
    if (f)
        fclose(f);
    if (found)
        return (mode_t)mask;
    mode_t m = umask(022);
    umask(m);
    return m;
}

int file_write_atomic(const char *path, const char *data, size_t len)
{
    size_t n = strlen(path);
    char *tmp = xmalloc(n + 16);
    snprintf(tmp, n + 16, "%s.XXXXXX", path);
    int fd = mkstemp(tmp);
    if (fd < 0) {
        free(tmp);
        return -1;
    }
    size_t done = 0;
    while (done < len) {
        ssize_t w = write(fd, data + done, len - done);
        if (w < 0) {
            if (errno == EINTR)
                continue;
            goto fail;
        }
        done += (size_t)w;
    }
    /* keep the mode of the file being replaced; a new file gets what
     * open(O_CREAT, 0666) would give under the user's umask, not
     * mkstemp's 0600 */
    struct stat st;
    mode_t mode = stat(path, &st) == 0 ? st.st_mode & 07777 : 0666 & ~current_umask();
    if (fchmod(fd, mode) != 0)
        goto fail;
    if (close(fd) != 0) {
        fd = -1;
        goto fail;
    }
    if (rename(tmp, path) != 0) {
        fd = -1;
        goto fail;
    }
    free(tmp);
    return 0;
fail:;
    int saved = errno;
    if (fd >= 0)
        close(fd);
    unlink(tmp);
    free(tmp);
    errno = saved;
    return -1;
}

int file_exists(const char *path) { return access(path, F_OK) == 0; }

int dir_create_all(const char *path, int mode)
{
    char *p = xstrdup(path);
    for (char *s = p + 1; *s; s++) {
        if (*s != '/')
            continue;
        *s = '\0';
        if (mkdir(p, (mode_t)mode) != 0 && errno != EEXIST) {
            free(p);
            return -1;
        }
        *s = '/';
    }
    int rc = mkdir(p, (mode_t)mode);
    free(p);
    if (rc != 0 && errno != EEXIST)
        return -1;
    return 0;
}

const char *self_exe_dir(void)
{
    static char dir[PATH_MAX];
    if (dir[0])
        return dir;
    ssize_t n = readlink("/proc/self/exe", dir, sizeof dir - 1);
    if (n <= 0) {
        strcpy(dir, ".");
        return dir;
    }
    dir[n] = '\0';
    char *slash = strrchr(dir, '/');
    if (slash && slash != dir)
        *slash = '\0';
    return dir;
}

uint64_t hash_fnv1a(const void *data, size_t len, uint64_t seed)
{
    const unsigned char *p = data;
    uint64_t h = seed;
    for (size_t i = 0; i < len; i++) {
        h ^= p[i];
        h *= 0x100000001b3ULL;
    }
    return h;
}
