/*
 * gpu_lock.c: several judges on one GPU (`cl1cc tune --judges-per-gpu`).
 * A run that checks outputs takes the GPU's lock shared, so judges check
 * at once; a run that times (or measures the GPU) takes it exclusive, so
 * no other judge's run is on that GPU while a timing runs.  The lock is a
 * file per CUDA_VISIBLE_DEVICES value (flock), CL1CC_GPU_LOCK when set.
 */
#include "harness.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <time.h>
#include <unistd.h>

static int checks_exclusive;
/* this process's seconds waiting for the lock and holding it (the runs on
 * the GPU), its holds and the longest since the mark, and when it last
 * took it */
static hn_gpu_lock_stats totals;
static double taken_at;

static double clock_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

void hn_gpu_lock_totals(hn_gpu_lock_stats *out)
{
    *out = totals;
}

void hn_gpu_lock_mark(void)
{
    totals.slowest = 0;
}

void hn_gpu_lock_checks_exclusive(int on)
{
    checks_exclusive = on;
}

/* the lock file's path: a name per visible GPU set, characters other
 * than letters, digits, '-' made '_' */
static void lock_path(char *out, size_t len)
{
    const char *set = getenv("CL1CC_GPU_LOCK");
    if (set && *set) {
        snprintf(out, len, "%s", set);
        return;
    }
    const char *cvd = getenv("CUDA_VISIBLE_DEVICES");
    char name[128];
    snprintf(name, sizeof name, "%s", cvd && *cvd ? cvd : "all");
    for (char *p = name; *p; p++)
        if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') ||
              *p == '-'))
            *p = '_';
    snprintf(out, len, "/tmp/cl1cc-gpu-%u-%s.lock", (unsigned)getuid(), name);
}

int hn_gpu_lock(hn_gpu_use use)
{
    char path[4200];
    lock_path(path, sizeof path);
    double asked = clock_now();
    taken_at = asked;
    int fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0600);
    if (fd < 0)
        return -1; /* no lock: runs as if alone (one judge per GPU) */
    int op = use == HN_GPU_TIME || checks_exclusive ? LOCK_EX : LOCK_SH;
    while (flock(fd, op) != 0) {
        if (errno != EINTR) {
            close(fd);
            return -1;
        }
    }
    taken_at = clock_now();
    totals.waited += taken_at - asked;
    return fd;
}

void hn_gpu_unlock(int fd)
{
    double held = clock_now() - taken_at;
    totals.held += held;
    totals.runs++;
    if (held > totals.slowest)
        totals.slowest = held;
    if (fd >= 0)
        close(fd); /* releases the flock */
}
