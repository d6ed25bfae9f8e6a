/*
 * gpu_lock.c: several judges on one GPU (`cl1cc tune --judges-per-gpu`).
 * A run that checks outputs takes the GPU's lock shared, so judges check
 * at once; a run that times (or measures the GPU) takes it exclusive, so
 * no other judge's run is on that GPU while a timing runs.  The lock is a
 * file per CUDA_VISIBLE_DEVICES value (flock), CL1CC_GPU_LOCK when set.
 *
 * A timing goes before checks asked later: flock lets shared holders
 * starve an exclusive one, and with eight judges checking back to back a
 * timing of 0.2 s waited 30 s for a moment with no check on the GPU
 * (HeCBench's is: every kernel's first verdict came after every judge's
 * checks).  So an exclusive taker first holds a gate (the lock's path plus
 * ".gate") while it waits; a shared taker passes the gate (takes it shared
 * and lets go) before it asks, and so queues behind a waiting timing.
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

/* flock, again after a signal; 0, or -1 */
static int flock_retrying(int fd, int op)
{
    while (flock(fd, op) != 0)
        if (errno != EINTR)
            return -1;
    return 0;
}

int hn_gpu_lock(hn_gpu_use use)
{
    char path[4200], gate_path[4300];
    lock_path(path, sizeof path);
    snprintf(gate_path, sizeof gate_path, "%s.gate", path);
    double asked = clock_now();
    taken_at = asked;
    int fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0600);
    if (fd < 0)
        return -1; /* no lock: runs as if alone (one judge per GPU) */
    int exclusive = use == HN_GPU_TIME || checks_exclusive;
    /* no gate (a read-only folder): the lock alone, as flock orders it */
    int gate = open(gate_path, O_RDWR | O_CREAT | O_CLOEXEC, 0600);
    if (gate >= 0 && flock_retrying(gate, exclusive ? LOCK_EX : LOCK_SH) != 0) {
        close(gate);
        gate = -1;
    }
    if (gate >= 0 && !exclusive) {
        close(gate); /* passed: a shared taker never waits holding it */
        gate = -1;
    }
    int rc = flock_retrying(fd, exclusive ? LOCK_EX : LOCK_SH);
    if (gate >= 0)
        close(gate); /* the lock is held: the next in line may wait at it */
    if (rc != 0) {
        close(fd);
        return -1;
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
