/*
 * test_gpu_lock.c: judges sharing a GPU (harness/gpu_lock.c): checks hold
 * the lock together, a timing waits for every check to end and no check
 * starts while it runs; a timing waiting for checks goes before checks
 * asked after it; checks of a large working set are exclusive.
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/file.h>
#include <sys/wait.h>
#include <unistd.h>

#include "check.h"
#include "harness.h"

/* 1 when a child process can take the lock as `use` within a moment */
static int child_gets(hn_gpu_use use)
{
    pid_t pid = fork();
    if (pid == 0) {
        alarm(1); /* blocked: killed by SIGALRM */
        int fd = hn_gpu_lock(use);
        _exit(fd >= 0 ? 0 : 2);
    }
    int status = 0;
    waitpid(pid, &status, 0);
    return WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

int main(void)
{
    char path[] = "/tmp/cl1cc-gpu-lock-test-XXXXXX";
    int tmp = mkstemp(path);
    CHECK(tmp >= 0);
    close(tmp);
    setenv("CL1CC_GPU_LOCK", path, 1);

    int check = hn_gpu_lock(HN_GPU_CHECK);
    CHECK(check >= 0);
    CHECK(child_gets(HN_GPU_CHECK) == 1); /* checks share */
    CHECK(child_gets(HN_GPU_TIME) == 0);  /* a timing waits for them */
    hn_gpu_unlock(check);
    CHECK(child_gets(HN_GPU_TIME) == 1);

    int timing = hn_gpu_lock(HN_GPU_TIME);
    CHECK(timing >= 0);
    CHECK(child_gets(HN_GPU_CHECK) == 0); /* nothing runs beside a timing */
    hn_gpu_unlock(timing);

    /* a timing waiting for a check holds off the checks asked after it,
     * and has the GPU as soon as the first check ends */
    check = hn_gpu_lock(HN_GPU_CHECK);
    int got[2];
    CHECK(pipe(got) == 0);
    pid_t waiter = fork();
    if (waiter == 0) {
        close(check); /* the parent's hold, not this child's (a run is exec'd: O_CLOEXEC) */
        alarm(5);
        int fd = hn_gpu_lock(HN_GPU_TIME);
        if (write(got[1], "t", 1) != 1)
            _exit(3);
        usleep(200000);
        hn_gpu_unlock(fd);
        _exit(fd >= 0 ? 0 : 2);
    }
    usleep(200000);                       /* the timing is waiting now */
    CHECK(child_gets(HN_GPU_CHECK) == 0); /* a later check queues behind it */
    hn_gpu_unlock(check);
    char c = 0;
    CHECK(read(got[0], &c, 1) == 1 && c == 't');
    int status = 0;
    waitpid(waiter, &status, 0);
    CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    close(got[0]);
    close(got[1]);
    CHECK(child_gets(HN_GPU_CHECK) == 1); /* and after it, checks share again */

    hn_gpu_lock_checks_exclusive(1); /* a working set too large to share */
    check = hn_gpu_lock(HN_GPU_CHECK);
    CHECK(child_gets(HN_GPU_CHECK) == 0);
    hn_gpu_unlock(check);
    hn_gpu_lock_checks_exclusive(0);

    /* the holds counted, the longest since the mark */
    hn_gpu_lock_stats before, after;
    hn_gpu_lock_mark();
    hn_gpu_lock_totals(&before);
    CHECK(before.slowest == 0 && before.runs == 4);
    check = hn_gpu_lock(HN_GPU_CHECK);
    usleep(50000);
    hn_gpu_unlock(check);
    hn_gpu_lock_totals(&after);
    CHECK(after.runs == before.runs + 1);
    CHECK(after.slowest >= 0.045 && after.held - before.held >= 0.045);
    hn_gpu_lock_mark();
    hn_gpu_lock_totals(&after);
    CHECK(after.slowest == 0 && after.runs == before.runs + 1);

    unlink(path);
    char gate[sizeof path + 8];
    snprintf(gate, sizeof gate, "%s.gate", path);
    unlink(gate);
    return CHECK_REPORT("test_gpu_lock");
}
