/*
 * test_run_retry.c: a check run of the replay driver that ran out of GPU
 * memory beside other judges runs once more with the GPU to itself; any
 * other failure, and a second out-of-memory, stand.  The "driver" is a
 * script that counts its runs and fails as told.
 */
#include "judge_int.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "check.h"
#include "test_util.h"

/* a driver script at root/name.sh: `fails` runs fail with message, then
 * it succeeds */
static const char *driver(const char *root, const char *name, int fails, const char *message,
                          char *path, size_t len)
{
    snprintf(path, len, "%s/%s.sh", root, name);
    char script[2048];
    snprintf(script, sizeof script,
             "#!/bin/sh\necho run >>%s/%s.runs\nn=$(wc -l <%s/%s.runs)\n"
             "if [ \"$n\" -le %d ]; then echo 'cl1cc-replay: %s' >&2; exit 3; fi\nexit 0\n",
             root, name, root, name, fails, message);
    CHECK(file_write_atomic(path, script, strlen(script)) == 0 && chmod(path, 0755) == 0);
    return path;
}

int main(int argc, char **argv)
{
    char root[512], cmd[1200], counter[700], exe[700];
    snprintf(root, sizeof root, "%s/run-retry", argc > 1 ? argv[1] : "/tmp");
    snprintf(cmd, sizeof cmd, "rm -rf %s && mkdir -p %s", root, root);
    CHECK(system(cmd) == 0);
    /* out of memory once: run again, alone, and it passes */
    driver(root, "oom_once", 1, "cudaMalloc: out of memory", exe, sizeof exe);
    run_outcome r = judge_run_driver(exe, 0, "meta", "in", "out", 0, 10);
    snprintf(counter, sizeof counter, "%s/oom_once.runs", root);
    CHECK(r.ok && file_line_count(counter) == 2);
    /* out of memory every time: one retry, then the failure stands */
    driver(root, "oom_always", 5, "cudaMalloc: out of memory", exe, sizeof exe);
    r = judge_run_driver(exe, 0, "meta", "in", "out", 0, 10);
    snprintf(counter, sizeof counter, "%s/oom_always.runs", root);
    CHECK(!r.ok && r.verdict == VERDICT_CRASH && strstr(r.detail, "out of memory") && file_line_count(counter) == 2);
    /* another failure: no retry */
    driver(root, "crash", 1, "kernel: an illegal memory access was encountered", exe, sizeof exe);
    r = judge_run_driver(exe, 0, "meta", "in", "out", 0, 10);
    snprintf(counter, sizeof counter, "%s/crash.runs", root);
    CHECK(!r.ok && r.verdict == VERDICT_CRASH && file_line_count(counter) == 1);
    /* a timed run holds the GPU alone already: no retry */
    driver(root, "timed", 1, "cudaMalloc: out of memory", exe, sizeof exe);
    r = judge_run_driver(exe, 0, "meta", "in", "out", 3, 10);
    snprintf(counter, sizeof counter, "%s/timed.runs", root);
    CHECK(!r.ok && file_line_count(counter) == 1);
    snprintf(cmd, sizeof cmd, "rm -rf %s", root);
    CHECK(system(cmd) == 0);
    return CHECK_REPORT("test_run_retry");
}
