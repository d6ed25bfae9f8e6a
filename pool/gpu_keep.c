/*
 * gpu_keep.c: while the local pool runs GPU jobs, one child per GPU holds a
 * CUDA context open on it (`EXE --cl1-keep-gpu`, pool_options.keep_gpus_exe).
 * Every judge run is a process of its own, and a process starts CUDA in
 * about 0.32 s on an H100 when nothing else holds the GPU, 0.17 s while
 * another process holds a context (persistence mode on or off:
 * testsuite/bench/cuda_startup.cu, docs/BENCHMARKS.md); a kernel's checks
 * are a dozen such runs or more.  The keeper launches nothing: an idle
 * context takes no time from the jobs' kernels, only its memory (a few
 * hundred MB of the GPU's).  It reaches the driver through dlopen, so
 * cl1cc links nothing of CUDA, and without a driver it just ends.
 */
#include "pool_int.h"

#include <dlfcn.h>
#include <signal.h>
#include <string.h>
#include <sys/prctl.h>
#include <unistd.h>

#include "proc.h"

/* CUresult cuInit(unsigned), cuDeviceGet(CUdevice *, int),
 * cuDevicePrimaryCtxRetain(CUcontext *, CUdevice) */
typedef int (*cu_init_fn)(unsigned);
typedef int (*cu_device_get_fn)(int *, int);
typedef int (*cu_retain_fn)(void **, int);

int pool_gpu_keep_main(void)
{
    pid_t parent = getppid();
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (getppid() != parent)
        return 0; /* the pool already ended */
    void *lib = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!lib)
        return 0;
    cu_init_fn init = (cu_init_fn)dlsym(lib, "cuInit");
    cu_device_get_fn device_get = (cu_device_get_fn)dlsym(lib, "cuDeviceGet");
    cu_retain_fn retain = (cu_retain_fn)dlsym(lib, "cuDevicePrimaryCtxRetain");
    int device = 0;
    void *ctx = NULL;
    if (!init || !device_get || !retain || init(0) != 0 || device_get(&device, 0) != 0 ||
        retain(&ctx, device) != 0)
        return 0;
    for (;;)
        pause(); /* until the pool kills it, or its parent dies */
}

void pool_gpu_keepers_start(const char *exe, const char *const *gpus, size_t n,
                            pool_gpu_keepers *k, arena *a)
{
    memset(k, 0, sizeof *k);
    if (!exe || !n)
        return;
    k->children = arena_alloc(a, n * sizeof *k->children);
    for (size_t i = 0; i < n; i++) {
        int seen = 0;
        for (size_t j = 0; j < i; j++)
            seen |= strcmp(gpus[i], gpus[j]) == 0;
        if (seen)
            continue; /* several slots of one GPU: one keeper */
        const char *env[2] = {arena_printf(a, "CUDA_VISIBLE_DEVICES=%s", gpus[i]), NULL};
        const char *argv[] = {exe, "--cl1-keep-gpu", NULL};
        proc_options po;
        memset(&po, 0, sizeof po);
        po.env_set = env;
        po.stdin_path = "/dev/null";
        po.stdout_path = "/dev/null";
        po.stderr_path = "/dev/null";
        po.new_process_group = 1;
        proc_child *child = &k->children[k->n];
        memset(child, 0, sizeof *child);
        child->pidfd = -1;
        int spawn_errno = 0;
        if (proc_spawn(argv, &po, child, &spawn_errno) == 0)
            k->n++;
        else
            log_verbose("pool: no CUDA context keeper for GPU %s: %s", gpus[i], strerror(spawn_errno));
    }
}

void pool_gpu_keepers_stop(pool_gpu_keepers *k)
{
    for (size_t i = 0; i < k->n; i++) {
        proc_child *child = &k->children[i];
        if (child->pid <= 0)
            continue;
        proc_child_signal(child, SIGKILL);
        proc_result r;
        while (proc_child_poll(child, &r) == 0) {
            proc_result_free(&r);
            proc_wait_children(&child, 1, 0.05, NULL);
        }
        proc_result_free(&r);
    }
    k->n = 0;
}
