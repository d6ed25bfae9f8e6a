/*
 * tune_tree.c: the private copy of the user's tree that `cl1cc capture
 * --build` (and so `cl1cc tune --build`) builds and runs in, so that the
 * instrumented objects and binary never land in the user's tree.  Files keep
 * their modes and times (a clone where the file system can, else a copy);
 * .git and the folders the caller names (the captures, the cache) stay out.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/fs.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "config.h"
#include "core.h"
#include "tempfiles.h"
#include "tune.h"

typedef struct tree_walk {
    const char *const *skip; /* absolute folders left out */
    const char *copy;        /* the copy itself, left out too */
    int counting;            /* 1: only count what a copy would take */
    long long files, bytes, max_bytes;
    strbuf *err;
} tree_walk;

static int skipped(const tree_walk *w, const char *path)
{
    for (size_t i = 0; w->skip && w->skip[i]; i++)
        if (strcmp(w->skip[i], path) == 0)
            return 1;
    return w->copy && strcmp(w->copy, path) == 0;
}

static int say(tree_walk *w, const char *what, const char *path)
{
    sb_printf(w->err, "%s %s: %s", what, path, strerror(errno));
    return -1;
}

/* the bytes of src into dst: a clone, else copy_file_range, else read/write */
static int copy_bytes(int in, int out)
{
    if (ioctl(out, FICLONE, in) == 0)
        return 0;
    ssize_t n;
    while ((n = copy_file_range(in, NULL, out, NULL, 1 << 30, 0)) > 0)
        ;
    if (n == 0)
        return 0;
    if (errno != EXDEV && errno != ENOSYS && errno != EINVAL && errno != EOPNOTSUPP)
        return -1;
    char buf[1 << 16];
    while ((n = read(in, buf, sizeof buf)) > 0)
        for (ssize_t done = 0; done < n;) {
            ssize_t put = write(out, buf + done, (size_t)(n - done));
            if (put < 0)
                return -1;
            done += put;
        }
    return n < 0 ? -1 : 0;
}

static int copy_file(tree_walk *w, const char *src, const char *dst, const struct stat *st)
{
    int in = open(src, O_RDONLY | O_CLOEXEC);
    if (in < 0)
        return say(w, "cannot read", src);
    int out = open(dst, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
    if (out < 0) {
        close(in);
        return say(w, "cannot make", dst);
    }
    struct timespec times[2] = {st->st_atim, st->st_mtim};
    int rc = copy_bytes(in, out) != 0 || fchmod(out, st->st_mode & 07777) != 0 ||
                     futimens(out, times) != 0
                 ? say(w, "cannot copy to", dst)
                 : 0;
    close(in);
    if (close(out) != 0 && rc == 0)
        rc = say(w, "cannot write", dst);
    return rc;
}

static int copy_link(tree_walk *w, const char *src, const char *dst, const struct stat *st)
{
    char target[PATH_MAX];
    ssize_t n = readlink(src, target, sizeof target - 1);
    if (n < 0)
        return say(w, "cannot read the link", src);
    target[n] = '\0';
    struct timespec times[2] = {st->st_atim, st->st_mtim};
    if (symlink(target, dst) != 0 || utimensat(AT_FDCWD, dst, times, AT_SYMLINK_NOFOLLOW) != 0)
        return say(w, "cannot make the link", dst);
    return 0;
}

static int walk_dir(tree_walk *w, const char *src, const char *dst);

/* one entry of a folder: counted, or copied */
static int walk_entry(tree_walk *w, const char *src, const char *dst)
{
    struct stat st;
    if (lstat(src, &st) != 0)
        return say(w, "cannot read", src);
    if (S_ISDIR(st.st_mode)) {
        if (skipped(w, src))
            return 0;
        if (!w->counting && mkdir(dst, 0700) != 0)
            return say(w, "cannot make", dst);
        if (walk_dir(w, src, dst) != 0)
            return -1;
        struct timespec times[2] = {st.st_atim, st.st_mtim};
        if (!w->counting && (chmod(dst, st.st_mode & 07777) != 0 ||
                             utimensat(AT_FDCWD, dst, times, 0) != 0))
            return say(w, "cannot set the mode of", dst);
        return 0;
    }
    if (!S_ISREG(st.st_mode) && !S_ISLNK(st.st_mode))
        return 0; /* sockets, pipes, devices: nothing a build reads */
    w->files++;
    w->bytes += S_ISREG(st.st_mode) ? st.st_size : 0;
    if (w->counting) {
        if (w->bytes > w->max_bytes) {
            sb_printf(w->err, "the tree holds more than %lld MB: too much to copy", w->max_bytes >> 20);
            return -1;
        }
        return 0;
    }
    return S_ISLNK(st.st_mode) ? copy_link(w, src, dst, &st) : copy_file(w, src, dst, &st);
}

static int walk_dir(tree_walk *w, const char *src, const char *dst)
{
    DIR *d = opendir(src);
    if (!d)
        return say(w, "cannot read", src);
    struct dirent *e;
    int rc = 0;
    while (rc == 0 && (e = readdir(d)) != NULL) {
        if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0 ||
            strcmp(e->d_name, ".git") == 0)
            continue;
        char s[PATH_MAX], t[PATH_MAX];
        if ((size_t)snprintf(s, sizeof s, "%s/%s", src, e->d_name) >= sizeof s ||
            (size_t)snprintf(t, sizeof t, "%s/%s", dst, e->d_name) >= sizeof t) {
            sb_printf(w->err, "a path under %s is too long", src);
            rc = -1;
        } else {
            rc = walk_entry(w, s, t);
        }
    }
    closedir(d);
    return rc;
}

/* a new folder for the copy: <cache>/builds/capture-XXXXXX, else one in
 * TMPDIR; registered for removal at exit */
static int make_copy_dir(strbuf *out, arena *a)
{
    const char *cache = config_cache_dir(a);
    const char *builds = cache ? arena_printf(a, "%s/builds", cache) : NULL;
    if (!builds || dir_create_all(builds, 0755) != 0)
        return tempfiles_make_dir("cl1cc-build", out);
    char *templ = arena_printf(a, "%s/capture-XXXXXX", builds);
    if (!mkdtemp(templ))
        return -1;
    sb_puts(out, templ);
    return tempfiles_register(templ);
}

int tune_tree_copy_make(const char *root, const char *const *skip, long long max_bytes,
                        tune_tree_copy *t, arena *a, strbuf *err)
{
    memset(t, 0, sizeof t[0]);
    char resolved[PATH_MAX];
    if (!realpath(root, resolved)) {
        sb_printf(err, "%s: %s", root, strerror(errno));
        return -1;
    }
    t->root = arena_strdup(a, resolved);
    tree_walk w = {skip, NULL, 1, 0, 0, max_bytes, err};
    if (walk_dir(&w, t->root, NULL) != 0)
        return -1;
    strbuf dir;
    sb_init(&dir);
    if (make_copy_dir(&dir, a) != 0 || !realpath(sb_str(&dir), resolved)) {
        sb_printf(err, "cannot make a folder for the copy: %s", strerror(errno));
        sb_free(&dir);
        return -1;
    }
    sb_free(&dir);
    tempfiles_install_handlers();
    t->copy = w.copy = arena_strdup(a, resolved);
    w.counting = 0;
    w.files = w.bytes = 0;
    if (walk_dir(&w, t->root, t->copy) != 0)
        return -1;
    t->files = w.files;
    t->bytes = w.bytes;
    return 0;
}

const char *tune_tree_copy_path(const tune_tree_copy *t, const char *path, arena *a)
{
    size_t n = strlen(t->root);
    if (strncmp(path, t->root, n) != 0 || path[n] != '/')
        return NULL;
    return arena_printf(a, "%s%s", t->copy, path + n);
}
