/*
 * tune_setup.c: `cl1cc tune` before its rounds: where things go (cl1cc
 * itself, the database, the captures, the work folder), the capture (`cl1cc
 * capture` runs the user's program), and the GPU here.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "config.h"
#include "core.h"
#include "harness.h"
#include "proc.h"
#include "tempfiles.h"
#include "tune.h"
#include "tunedb.h"

static const char *self_path(arena *a)
{
    char self[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
    if (n <= 0)
        return NULL;
    self[n] = '\0';
    return arena_strdup(a, self);
}

/* where things go: cl1cc itself, the database and its folder, the
 * captures, the work folder for Slurm; 0, or -1 */
int tune_find_places(tune_session *s)
{
    tune_loop *loop = &s->loop;
    loop->self = self_path(&s->a);
    /* a CUDA context held open on each GPU while the judges run there */
    if (!config_no_gpu_keeper())
        s->o.pool.keep_gpus_exe = loop->self;
    loop->db_path = tunedb_default_path(&s->a);
    if (!loop->self || !loop->db_path) {
        log_error("tune: cannot find cl1cc itself or a place for the tuning database");
        return -1;
    }
    char *db_dir = arena_strdup(&s->a, loop->db_path);
    char *slash = strrchr(db_dir, '/');
    if (slash)
        *slash = '\0';
    s->db_dir = db_dir;
    s->captures = s->o.captures ? s->o.captures : arena_printf(&s->a, "%s/captures", db_dir);
    if (s->o.work)
        loop->work = s->o.work;
    else if (s->o.pool.backend == POOL_SLURM) /* the nodes must see it: not TMPDIR */
        loop->work = arena_printf(&s->a, "%s/work/tune-%ld", db_dir, (long)getpid());
    return 0;
}

/* 1. capture: `cl1cc capture` runs the user's program; 0, or -1 */
int tune_capture(tune_session *s)
{
    const tune_options *o = &s->o;
    if (!o->run_cmd)
        return 0;
    cstr_vec cap = {0};
    const char *fixed[] = {s->loop.self, "capture", "--run", o->run_cmd};
    for (size_t i = 0; i < sizeof fixed / sizeof fixed[0]; i++)
        vec_push(&cap, fixed[i]);
    if (o->build_cmd) {
        vec_push(&cap, "--build");
        vec_push(&cap, o->build_cmd);
    }
    vec_push(&cap, "--out");
    vec_push(&cap, s->captures);
    vec_push(&cap, "--limit");
    vec_push(&cap, arena_printf(&s->a, "%d", o->limit));
    for (size_t i = 0; i < o->n_files; i++)
        vec_push(&cap, o->files[i]);
    vec_push(&cap, NULL);
    printf("tune: capturing launches: %s\n", o->run_cmd);
    fflush(stdout);
    proc_result res;
    int started = proc_run(cap.items, NULL, &res);
    int status = proc_shell_status(&res);
    proc_result_free(&res);
    vec_free(&cap);
    if (started != 0 || status != 0) {
        log_error("tune: capturing failed (status %d): see above", status);
        return -1;
    }
    return 0;
}

/* the GPU here (the pool's judges say which ran where) */
void tune_detect_gpu(tune_session *s)
{
    char gpu_arch[16] = "", gpu_name[128] = "";
    int have_gpu = hn_gpu_detect(gpu_arch, sizeof gpu_arch, gpu_name, sizeof gpu_name);
    s->loop.arch = have_gpu ? arena_strdup(&s->a, gpu_arch) : "none";
    s->loop.gpu_name = have_gpu ? arena_strdup(&s->a, gpu_name) : NULL;
}

/* the kernels' keys; without a GPU, what tune will and will not do */
void tune_key_targets(tune_session *s)
{
    if (!s->loop.gpu_name && s->o.pool.backend == POOL_LOCAL)
        printf("tune: no GPU on this machine: variants of the captured kernels are proposed and "
               "compiled only; nothing is verified, timed or recorded.\n");
    for (size_t i = 0; i < s->targets.len; i++)
        tune_key_kernel(&s->loop, &s->targets.items[i]);
}

int tune_make_work_dir(tune_session *s)
{
    if (s->loop.work) {
        if (dir_create_all(s->loop.work, 0755) == 0)
            return 0;
        log_error("tune: %s: %s", s->loop.work, strerror(errno));
        return -1;
    }
    strbuf work;
    sb_init(&work);
    if (tempfiles_make_dir("cl1cc-tune", &work) != 0) {
        log_error("tune: cannot make a work folder: %s", strerror(errno));
        sb_free(&work);
        return -1;
    }
    tempfiles_install_handlers();
    s->loop.work = arena_strdup(&s->a, sb_str(&work));
    sb_free(&work);
    return 0;
}

/* --judges-per-gpu N: each local GPU given to the pool N times, so N
 * judges run on it at once; their checks share it, their timings take it
 * alone (harness/gpu_lock.c) */
void tune_share_gpus(tune_session *s)
{
    if (s->o.pool.backend != POOL_LOCAL || s->o.judges_per_gpu <= 1)
        return;
    cstr_vec gpus = {0};
    const char *source = NULL;
    pool_local_gpus(&s->o.pool, &s->a, &gpus, &source);
    strbuf list;
    sb_init(&list);
    for (size_t g = 0; g < gpus.len; g++)
        for (int n = 0; n < s->o.judges_per_gpu; n++)
            sb_printf(&list, "%s%s", list.len ? "," : "", gpus.items[g]);
    if (gpus.len)
        s->o.pool.gpus = arena_strdup(&s->a, sb_str(&list));
    sb_free(&list);
    vec_free(&gpus);
}
