/*
 * launch_census.c: which kernels a program launches, and how often, seen
 * by the CUDA driver whatever built them (cl1cc or not, cudart static or
 * shared): a CUPTI injection library.  Built on the GPU machine by
 * devset_flow.sh:
 *   gcc -shared -fPIC -I$CUDA/extras/CUPTI/include -I$CUDA/include \
 *       launch_census.c -o census.so -L$CUDA/extras/CUPTI/lib64 -lcupti
 * and used as CUDA_INJECTION64_PATH=census.so CL1CC_CENSUS_OUT=FILE ./app.
 * At exit FILE holds "COUNT<TAB>MANGLED-NAME" per kernel.
 */
#include <cupti.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { max_kernels = 4096 };

static struct {
    char *name;
    unsigned long long count;
} seen[max_kernels];
static int n_seen;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

static int is_launch(CUpti_CallbackId id)
{
    return id == CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel ||
           id == CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel_ptsz ||
           id == CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx ||
           id == CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx_ptsz ||
           id == CUPTI_DRIVER_TRACE_CBID_cuLaunchCooperativeKernel ||
           id == CUPTI_DRIVER_TRACE_CBID_cuLaunchCooperativeKernel_ptsz;
}

static void count(const char *name)
{
    pthread_mutex_lock(&lock);
    int i = 0;
    while (i < n_seen && strcmp(seen[i].name, name) != 0)
        i++;
    if (i == n_seen && n_seen < max_kernels) {
        seen[i].name = strdup(name);
        n_seen++;
    }
    if (i < n_seen)
        seen[i].count++;
    pthread_mutex_unlock(&lock);
}

static void CUPTIAPI on_driver_call(void *data, CUpti_CallbackDomain domain, CUpti_CallbackId id,
                                    const void *info)
{
    (void)data;
    const CUpti_CallbackData *cb = (const CUpti_CallbackData *)info;
    if (domain != CUPTI_CB_DOMAIN_DRIVER_API || !is_launch(id) ||
        cb->callbackSite != CUPTI_API_ENTER || !cb->symbolName)
        return;
    count(cb->symbolName);
}

static void write_census(void)
{
    const char *path = getenv("CL1CC_CENSUS_OUT");
    FILE *f = path ? fopen(path, "w") : NULL;
    if (!f)
        return;
    pthread_mutex_lock(&lock);
    for (int i = 0; i < n_seen; i++)
        fprintf(f, "%llu\t%s\n", seen[i].count, seen[i].name);
    pthread_mutex_unlock(&lock);
    fclose(f);
}

int InitializeInjection(void)
{
    CUpti_SubscriberHandle subscriber;
    if (cuptiSubscribe(&subscriber, on_driver_call, NULL) != CUPTI_SUCCESS)
        return 0;
    if (cuptiEnableDomain(1, subscriber, CUPTI_CB_DOMAIN_DRIVER_API) != CUPTI_SUCCESS)
        return 0;
    atexit(write_census);
    return 1;
}
