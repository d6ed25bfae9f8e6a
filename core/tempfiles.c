/*
 * tempfiles.c: registered temporary paths, removed by tempfiles_cleanup, at
 * exit and from SIGINT/SIGTERM/SIGHUP/SIGPIPE handlers.  The removal uses only
 * async-signal-safe calls (openat, getdents64, unlinkat) and no allocation.
 */
#include "tempfiles.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#define MAX_DEPTH 64

/* Mutated only with the handled signals blocked, so a handler never sees a
 * half-updated list.  Register from one thread. */
static str_vec registered;
static pid_t owner_pid;       /* a forked child that exits must not remove them */
static int handlers_installed;
static const int handled_signals[] = {SIGINT, SIGTERM, SIGHUP, SIGPIPE};

struct linux_dirent64 {
    unsigned long long d_ino;
    long long d_off;
    unsigned short d_reclen;
    unsigned char d_type;
    char d_name[];
};

/* Empties the directory open as dirfd; returns 0 when it is empty. */
static int empty_dir(int dirfd, int depth)
{
    char buf[4096] __attribute__((aligned(8)));
    for (;;) {
        int removed = 0, left = 0;
        if (lseek(dirfd, 0, SEEK_SET) < 0)
            return -1;
        for (;;) {
            long n = syscall(SYS_getdents64, dirfd, buf, sizeof buf);
            if (n < 0 && errno == EINTR)
                continue;
            if (n < 0)
                return -1;
            if (n == 0)
                break;
            for (long off = 0; off < n;) {
                struct linux_dirent64 *d = (struct linux_dirent64 *)(buf + off);
                off += d->d_reclen;
                const char *name = d->d_name;
                if (name[0] == '.' && (name[1] == '\0' || (name[1] == '.' && name[2] == '\0')))
                    continue;
                if (unlinkat(dirfd, name, 0) == 0) {
                    removed++;
                    continue;
                }
                if (errno != EISDIR && errno != EPERM) {
                    left++;
                    continue;
                }
                if (unlinkat(dirfd, name, AT_REMOVEDIR) == 0) {
                    removed++;
                    continue;
                }
                int sub = depth < MAX_DEPTH
                              ? openat(dirfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
                              : -1;
                if (sub >= 0) {
                    empty_dir(sub, depth + 1);
                    close(sub);
                    if (unlinkat(dirfd, name, AT_REMOVEDIR) == 0) {
                        removed++;
                        continue;
                    }
                }
                left++;
            }
        }
        /* entries removed while reading may hide others: read again */
        if (!left)
            return 0;
        if (!removed)
            return -1;
    }
}

/* rm -rf path, async-signal-safe. */
static void remove_tree(const char *path)
{
    if (unlink(path) == 0 || errno == ENOENT)
        return;
    if (rmdir(path) == 0 || errno == ENOENT)
        return;
    int fd = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (fd < 0)
        return;
    empty_dir(fd, 0);
    close(fd);
    rmdir(path);
}

static void block_signals(sigset_t *old)
{
    sigset_t set;
    sigemptyset(&set);
    for (size_t i = 0; i < sizeof handled_signals / sizeof *handled_signals; i++)
        sigaddset(&set, handled_signals[i]);
    sigprocmask(SIG_BLOCK, &set, old);
}

static void restore_signals(const sigset_t *old)
{
    sigprocmask(SIG_SETMASK, old, NULL);
}

int tempfiles_register(const char *path)
{
    if (!path || !*path) {
        errno = EINVAL;
        return -1;
    }
    char *copy = strdup(path);
    if (!copy)
        return -1;
    sigset_t old;
    block_signals(&old);
    if (!owner_pid)
        owner_pid = getpid();
    vec_push(&registered, copy);
    restore_signals(&old);
    return 0;
}

void tempfiles_unregister(const char *path)
{
    sigset_t old;
    block_signals(&old);
    for (size_t i = 0; i < registered.len; i++) {
        if (strcmp(registered.items[i], path) == 0) {
            char *gone = registered.items[i];
            registered.items[i] = registered.items[--registered.len];
            free(gone);
            break;
        }
    }
    restore_signals(&old);
}

void tempfiles_remove_now(const char *path)
{
    tempfiles_unregister(path);
    remove_tree(path);
}

/* The part both the handler and tempfiles_cleanup run: no allocation. */
static void remove_registered(void)
{
    if (owner_pid && getpid() != owner_pid)
        return;
    for (size_t i = registered.len; i-- > 0;)
        remove_tree(registered.items[i]);
}

void tempfiles_cleanup(void)
{
    sigset_t old;
    block_signals(&old);
    remove_registered();
    for (size_t i = 0; i < registered.len; i++)
        free(registered.items[i]);
    vec_free(&registered);
    restore_signals(&old);
}

static void on_signal(int sig)
{
    int saved = errno;
    remove_registered();
    struct sigaction dfl;
    memset(&dfl, 0, sizeof dfl);
    dfl.sa_handler = SIG_DFL;
    sigemptyset(&dfl.sa_mask);
    sigaction(sig, &dfl, NULL);
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, sig);
    sigprocmask(SIG_UNBLOCK, &set, NULL);
    raise(sig);
    errno = saved; /* reached only if the signal did not end the process */
}

void tempfiles_install_handlers(void)
{
    if (handlers_installed)
        return;
    handlers_installed = 1;
    if (!owner_pid)
        owner_pid = getpid();
    if (atexit(tempfiles_cleanup) != 0)
        log_warn("cannot register the temporary-file cleanup at exit");
    for (size_t i = 0; i < sizeof handled_signals / sizeof *handled_signals; i++) {
        int sig = handled_signals[i];
        struct sigaction old, sa;
        if (sigaction(sig, NULL, &old) != 0)
            continue;
        if (old.sa_handler == SIG_IGN) /* nohup, or a background job: keep it */
            continue;
        memset(&sa, 0, sizeof sa);
        sa.sa_handler = on_signal;
        sigfillset(&sa.sa_mask); /* no second signal while removing */
        if (sigaction(sig, &sa, NULL) != 0)
            log_warn("cannot install a handler for signal %d: %s", sig, strerror(errno));
    }
}

int tempfiles_make_dir(const char *prefix, strbuf *path_out)
{
    const char *tmp = getenv("TMPDIR");
    if (!tmp || !*tmp)
        tmp = "/tmp";
    sb_clear(path_out);
    sb_printf(path_out, "%s/%sXXXXXX", tmp, prefix ? prefix : "cl1cc-");
    if (!mkdtemp(path_out->data))
        return -1;
    if (tempfiles_register(path_out->data) != 0) {
        int e = errno;
        rmdir(path_out->data);
        errno = e;
        return -1;
    }
    return 0;
}
