/*
 * test_device_peaks.c: judges of one run share the GPU's peaks: the first
 * runs the driver's `@device` measurement and leaves DIR/<GPU name>.peaks,
 * the next reads it without running anything; another GPU model measures
 * its own; without a peaks_dir every judge measures.  The "driver" here is
 * a script that writes fixed peaks and counts its runs.
 */
#include "judge_int.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "check.h"
#include "test_util.h"

int main(int argc, char **argv)
{
    char root[512];
    snprintf(root, sizeof root, "%s/device-peaks", argc > 1 ? argv[1] : "/tmp");
    char cmd[1700];
    snprintf(cmd, sizeof cmd, "rm -rf %s && mkdir -p %s/work %s/shared", root, root, root);
    CHECK(system(cmd) == 0);
    char exe[600], counter[600], script[1600];
    snprintf(exe, sizeof exe, "%s/driver.sh", root);
    snprintf(counter, sizeof counter, "%s/runs", root);
    snprintf(script, sizeof script,
             "#!/bin/sh\n[ \"$1\" = @device ] || exit 2\necho run >>%s\n"
             "printf 'copy_bytes_per_s 3.0e12\\nsms 132\\nclock_khz 1980000\\ncc 9 0\\n' >\"$2\"\n",
             counter);
    CHECK(file_write_atomic(exe, script, strlen(script)) == 0 && chmod(exe, 0755) == 0);
    hn_judge_request rq;
    memset(&rq, 0, sizeof rq);
    hn_judge_settings_init(&rq.settings);
    char work[600], shared[600];
    snprintf(work, sizeof work, "%s/work", root);
    snprintf(shared, sizeof shared, "%s/shared", root);
    rq.work_dir = work;
    arena a;
    arena_init(&a);
    strbuf err = {0};
    hn_device_peaks p;
    /* no peaks_dir: measured every time */
    CHECK(judge_device_peaks(&rq, exe, "NVIDIA H100 80GB HBM3", &p, &a, &err) == 0);
    CHECK(judge_device_peaks(&rq, exe, "NVIDIA H100 80GB HBM3", &p, &a, &err) == 0);
    CHECK(file_line_count(counter) == 2 && p.copy_bytes_per_s == 3.0e12 && p.fp32_flops_per_s > 6e13);
    /* shared: measured once per GPU model */
    rq.peaks_dir = shared;
    CHECK(judge_device_peaks(&rq, exe, "NVIDIA H100 80GB HBM3", &p, &a, &err) == 0);
    CHECK(file_line_count(counter) == 3);
    char path[700];
    snprintf(path, sizeof path, "%s/NVIDIA_H100_80GB_HBM3.peaks", shared);
    struct stat st;
    CHECK(stat(path, &st) == 0);
    memset(&p, 0, sizeof p);
    CHECK(judge_device_peaks(&rq, exe, "NVIDIA H100 80GB HBM3", &p, &a, &err) == 0);
    CHECK(file_line_count(counter) == 3 && p.copy_bytes_per_s == 3.0e12);
    CHECK(judge_device_peaks(&rq, exe, "NVIDIA H200", &p, &a, &err) == 0);
    CHECK(file_line_count(counter) == 4);
    /* a damaged shared file is measured again and replaced */
    CHECK(file_write_atomic(path, "junk\n", 5) == 0);
    CHECK(judge_device_peaks(&rq, exe, "NVIDIA H100 80GB HBM3", &p, &a, &err) == 0);
    CHECK(file_line_count(counter) == 5 && p.copy_bytes_per_s == 3.0e12);
    CHECK(judge_device_peaks(&rq, exe, "NVIDIA H100 80GB HBM3", &p, &a, &err) == 0);
    CHECK(file_line_count(counter) == 5);
    /* a driver that fails: an error, nothing guessed */
    snprintf(path, sizeof path, "%s/false.sh", root);
    CHECK(file_write_atomic(path, "#!/bin/sh\nexit 1\n", 17) == 0 && chmod(path, 0755) == 0);
    sb_clear(&err);
    CHECK(judge_device_peaks(&rq, path, "Some other GPU", &p, &a, &err) == -1 && err.len > 0);
    arena_free(&a);
    sb_free(&err);
    snprintf(cmd, sizeof cmd, "rm -rf %s", root);
    CHECK(system(cmd) == 0);
    return CHECK_REPORT("test_device_peaks");
}
