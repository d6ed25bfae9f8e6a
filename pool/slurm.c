/*
 * slurm.c: the Slurm backend.  Each attempt of a job is one batch job
 * (`sbatch --parsable --wrap 'exec ARGV'`, never requeued by Slurm itself);
 * squeue polls their states, scontrol (or sacct) gives the exit codes, sinfo
 * says which nodes can run anything.  Cancelled, timed-out and node-failed
 * attempts are submitted again (away from the failed node); jobs that wait
 * with no usable node, or run past their limit, are cancelled by the pool.
 */
#include "pool_int.h"

#include <errno.h>
#include <math.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "config.h"
#include "proc.h"

enum { WAITING, QUEUED, RUNNING, FINISHED };
enum { CANCEL_NONE, CANCEL_TIMEOUT, CANCEL_STUCK };

typedef struct slurm_job {
    int state;
    char id[32];
    double run_since;   /* monotonic, when it began to run; 0 not seen running */
    int cancel_why;     /* the pool's own scancel */
    double stuck_since; /* pending with no usable node since; 0 not stuck */
    const char *stuck_text;
    int missing;        /* polls in a row that found no trace of it */
    strbuf exclude;     /* nodes it failed on, comma-separated */
} slurm_job;

typedef struct node_info {
    const char *name, *partition, *avail, *state;
    int is_default;
} node_info;

typedef struct slurm_pool {
    pool_ctx *c;
    slurm_job *sj;
    const char *bin_dir; /* NULL: PATH */
    const char *cwd;     /* the caller's, for --chdir and relative paths */
    VEC(node_info) nodes;
    int nodes_fetched; /* this poll's sinfo is in nodes */
    double squeue_failing_since;
    strbuf last_error;
} slurm_pool;

/* ---- running the Slurm commands ------------------------------------------ */

static const char *tool_path(slurm_pool *sp, const char *tool)
{
    return sp->bin_dir ? arena_printf(&sp->c->a, "%s/%s", sp->bin_dir, tool) : tool;
}

/* Runs TOOL ARGS...; returns its shell status (0 success), output in out and
 * err.  The stop signals stay blocked meanwhile (a command is short), so
 * that an interrupt never leaves a submitted job unknown to the pool. */
static int run_tool(slurm_pool *sp, const char *tool, const cstr_vec *args, strbuf *out,
                    strbuf *err)
{
    cstr_vec argv = {0};
    vec_push(&argv, tool_path(sp, tool));
    for (size_t i = 0; i < args->len; i++)
        vec_push(&argv, args->items[i]);
    vec_push(&argv, (const char *)NULL);
    proc_options po;
    memset(&po, 0, sizeof po);
    po.capture_stdout = 1;
    po.capture_stderr = 1;
    po.stdin_path = "/dev/null";
    po.new_process_group = 1;
    po.limits.wall_seconds = sp->c->o->slurm_cmd_timeout_s > 0 ? sp->c->o->slurm_cmd_timeout_s : 60;
    proc_result r;
    proc_run(argv.items, &po, &r);
    int status = proc_shell_status(&r);
    sb_clear(out);
    sb_clear(err);
    sb_append(out, sb_str(&r.out), r.out.len);
    if (r.spawn_failed)
        sb_printf(err, "cannot run %s: %s", argv.items[0], strerror(r.spawn_errno));
    else if (r.timed_out)
        sb_printf(err, "%s took longer than %g s", tool, po.limits.wall_seconds);
    else
        sb_append(err, sb_str(&r.err), r.err.len);
    if (status != 0)
        log_verbose("pool: %s: status %d: %s", tool, status, sb_str(err));
    proc_result_free(&r);
    vec_free(&argv);
    return status;
}

/* the first non-empty line of text, trimmed, in the arena */
static const char *first_line(arena *a, const char *text)
{
    while (*text == '\n' || *text == ' ' || *text == '\r')
        text++;
    size_t n = strcspn(text, "\r\n");
    return n ? arena_strndup(a, text, n) : "no message";
}

/* ---- what is submitted ------------------------------------------------------ */

static void shell_quote(strbuf *sb, const char *word)
{
    sb_putc(sb, '\'');
    for (const char *p = word; *p; p++) {
        if (*p == '\'')
            sb_puts(sb, "'\\''");
        else
            sb_putc(sb, *p);
    }
    sb_putc(sb, '\'');
}

/* an absolute path with Slurm's %-symbols escaped, for --output/--error */
static const char *output_path(slurm_pool *sp, const char *path)
{
    if (!path)
        return "/dev/null";
    strbuf sb;
    sb_init(&sb);
    if (path[0] != '/') {
        sb_puts(&sb, sp->cwd);
        sb_putc(&sb, '/');
    }
    for (const char *p = path; *p; p++) {
        if (*p == '%')
            sb_putc(&sb, '%');
        sb_putc(&sb, *p);
    }
    const char *s = arena_strdup(&sp->c->a, sb_str(&sb));
    sb_free(&sb);
    return s;
}

static const char *job_name(slurm_pool *sp, size_t i)
{
    const char *prefix = sp->c->o->slurm_job_prefix ? sp->c->o->slurm_job_prefix : "cl1cc";
    const char *label = pool_job_label(sp->c, i);
    strbuf sb;
    sb_init(&sb);
    sb_printf(&sb, "%s-", prefix);
    for (const char *p = label; *p && sb.len < 64; p++) {
        char ch = *p;
        int ok = (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9')
                 || ch == '-' || ch == '_' || ch == '.';
        sb_putc(&sb, ok ? ch : '_');
    }
    const char *s = arena_strdup(&sp->c->a, sb_str(&sb));
    sb_free(&sb);
    return s;
}

static void finish(slurm_pool *sp, size_t i, const char *status, int code, const char *why)
{
    sp->sj[i].state = FINISHED;
    pool_finish(sp->c, i, status, code, why);
}

static void retry(slurm_pool *sp, size_t i, const char *why)
{
    slurm_job *s = &sp->sj[i];
    s->state = WAITING;
    s->id[0] = '\0';
    s->run_since = 0;
    s->cancel_why = CANCEL_NONE;
    s->stuck_since = 0;
    s->missing = 0;
    log_verbose("pool: %s: %s; submitting again", pool_job_label(sp->c, i), why);
    pool_retry(sp->c, i, why);
}

static void submit(slurm_pool *sp, size_t i)
{
    pool_ctx *c = sp->c;
    const pool_options *o = c->o;
    pool_job *j = &c->jobs[i];
    slurm_job *s = &sp->sj[i];
    arena *a = &c->a;
    cstr_vec args = {0};
    vec_push(&args, "--parsable");
    vec_push(&args, "--no-requeue"); /* the pool retries, away from the failed node */
    vec_push(&args, "--open-mode=truncate");
    vec_push(&args, arena_printf(a, "--job-name=%s", job_name(sp, i)));
    vec_push(&args, arena_printf(a, "--output=%s", output_path(sp, j->stdout_path)));
    vec_push(&args, arena_printf(a, "--error=%s", output_path(sp, j->stderr_path)));
    vec_push(&args, arena_printf(a, "--chdir=%s", j->cwd ? j->cwd : sp->cwd));
    if (o->slurm_partition && *o->slurm_partition)
        vec_push(&args, arena_printf(a, "--partition=%s", o->slurm_partition));
    if (j->needs_gpu && o->slurm_gres && *o->slurm_gres)
        vec_push(&args, arena_printf(a, "--gres=%s", o->slurm_gres));
    if (o->slurm_cpus_per_task > 0)
        vec_push(&args, arena_printf(a, "--cpus-per-task=%d", o->slurm_cpus_per_task));
    double timeout = pool_job_timeout(c, j);
    if (timeout > 0) /* a backstop in whole minutes: the pool cancels at the limit itself */
        vec_push(&args, arena_printf(a, "--time=%.0f", ceil(timeout / 60.0) + 1));
    if (s->exclude.len)
        vec_push(&args, arena_printf(a, "--exclude=%s", sb_str(&s->exclude)));
    for (const char *const *e = o->slurm_sbatch_args; e && *e; e++)
        vec_push(&args, *e);
    strbuf cmd;
    sb_init(&cmd);
    sb_puts(&cmd, "exec");
    for (size_t k = 0; k < j->argc; k++) {
        sb_putc(&cmd, ' ');
        shell_quote(&cmd, j->argv[k]);
    }
    vec_push(&args, arena_printf(a, "--wrap=%s", sb_str(&cmd)));
    sb_free(&cmd);

    strbuf out, err;
    sb_init(&out);
    sb_init(&err);
    j->attempts++;
    int status = run_tool(sp, "sbatch", &args, &out, &err);
    vec_free(&args);
    size_t digits = strspn(sb_str(&out), "0123456789");
    if (status == 0 && digits > 0 && digits < sizeof s->id) {
        memcpy(s->id, sb_str(&out), digits);
        s->id[digits] = '\0';
        snprintf(j->backend_id, sizeof j->backend_id, "%s", s->id);
        snprintf(j->where, sizeof j->where, "slurm");
        s->state = QUEUED;
        log_verbose("pool: %s submitted as Slurm job %s", pool_job_label(c, i), s->id);
        pool_emit(c, POOL_EV_SUBMITTED, i);
    } else {
        const char *msg = status == 0 ? arena_printf(a, "sbatch printed no job id: %s",
                                                     first_line(a, sb_str(&out)))
                                      : first_line(a, sb_str(&err));
        snprintf(j->where, sizeof j->where, "slurm");
        j->backend_id[0] = '\0';
        if (s->exclude.len) /* the cluster has no node left for it */
            finish(sp, i, "node_fail", -1,
                   arena_printf(a, "cannot submit again without %s: %s", sb_str(&s->exclude), msg));
        else if (j->attempts < c->max_attempts)
            retry(sp, i, arena_printf(a, "sbatch failed: %s", msg));
        else
            finish(sp, i, "not_run", -1, arena_printf(a, "sbatch failed: %s", msg));
    }
    sb_free(&out);
    sb_free(&err);
}

/* ---- the cluster's nodes ------------------------------------------------- */

static void fetch_nodes(slurm_pool *sp)
{
    if (sp->nodes_fetched)
        return;
    sp->nodes_fetched = 1;
    sp->nodes.len = 0;
    cstr_vec args = {0};
    vec_push(&args, "--noheader");
    vec_push(&args, "--Node");
    vec_push(&args, "--format=%N|%P|%a|%T");
    strbuf out, err;
    sb_init(&out);
    sb_init(&err);
    if (run_tool(sp, "sinfo", &args, &out, &err) == 0) {
        char *text = arena_strdup(&sp->c->a, sb_str(&out));
        for (char *line = strtok(text, "\n"); line; line = strtok(NULL, "\n")) {
            char *f[4];
            int k = 0;
            for (char *p = line; k < 4; k++) {
                f[k] = p;
                char *bar = strchr(p, '|');
                if (!bar) {
                    k++;
                    break;
                }
                *bar = '\0';
                p = bar + 1;
            }
            if (k < 4)
                continue;
            node_info ni = {f[0], f[1], f[2], f[3], 0};
            size_t plen = strlen(f[1]);
            if (plen && f[1][plen - 1] == '*') {
                f[1][plen - 1] = '\0';
                ni.is_default = 1;
            }
            vec_push(&sp->nodes, ni);
        }
    }
    vec_free(&args);
    sb_free(&out);
    sb_free(&err);
}

/* A node that runs nothing new: down, drained or draining, failing, not
 * responding ("*"), not yet registered. */
static int state_unusable(const char *state)
{
    static const char *const bad[] = {"down", "drain", "fail", "future", "inval", "unk", "maint"};
    for (size_t k = 0; k < sizeof bad / sizeof *bad; k++)
        if (strncmp(state, bad[k], strlen(bad[k])) == 0)
            return 1;
    return strchr(state, '*') != NULL;
}

static int in_list(const char *list, const char *name)
{
    size_t n = strlen(name);
    for (const char *p = list; *p;) {
        size_t len = strcspn(p, ",");
        if (len == n && strncmp(p, name, n) == 0)
            return 1;
        p += len;
        if (*p == ',')
            p++;
    }
    return 0;
}

/* How many nodes of the job's partition, not excluded, can run it now;
 * *why describes the others ("n1 down"). */
static size_t usable_nodes(slurm_pool *sp, const slurm_job *s, const char **why)
{
    fetch_nodes(sp);
    const char *part = sp->c->o->slurm_partition;
    strbuf text;
    sb_init(&text);
    size_t usable = 0, seen = 0;
    for (size_t k = 0; k < sp->nodes.len; k++) {
        const node_info *ni = &sp->nodes.items[k];
        if (part && *part ? strcmp(ni->partition, part) != 0 : !ni->is_default)
            continue;
        seen++;
        const char *bad = NULL;
        if (in_list(sb_str(&s->exclude), ni->name))
            bad = "failed before";
        else if (strcmp(ni->avail, "up") != 0)
            bad = arena_printf(&sp->c->a, "partition %s", ni->avail);
        else if (state_unusable(ni->state))
            bad = ni->state;
        if (!bad) {
            usable++;
        } else if (text.len < 160) {
            sb_printf(&text, "%s%s %s", text.len ? ", " : "", ni->name, bad);
        }
    }
    if (!seen)
        sb_printf(&text, "sinfo lists no node in partition %s", part && *part ? part : "(default)");
    *why = arena_strdup(&sp->c->a, sb_str(&text));
    sb_free(&text);
    return usable;
}

static int node_unusable(slurm_pool *sp, const char *name)
{
    fetch_nodes(sp);
    for (size_t k = 0; k < sp->nodes.len; k++)
        if (strcmp(sp->nodes.items[k].name, name) == 0 && state_unusable(sp->nodes.items[k].state))
            return 1;
    return 0;
}

/* ---- job states ----------------------------------------------------------- */

typedef struct job_state {
    const char *state, *nodes, *reason;
    double elapsed_s; /* -1 unknown */
    int exit_code, exit_signal, have_exit;
} job_state;

/* "[D-]HH:MM:SS", "MM:SS", "SS"; -1 when not a time */
static double parse_duration(const char *s)
{
    if (!s || !*s || strcmp(s, "INVALID") == 0 || strcmp(s, "UNLIMITED") == 0)
        return -1;
    double days = 0;
    const char *dash = strchr(s, '-');
    if (dash) {
        days = strtod(s, NULL);
        s = dash + 1;
    }
    double part[3] = {0, 0, 0};
    int n = 0;
    for (const char *p = s; *p && n < 3;) {
        char *end;
        part[n++] = strtod(p, &end);
        if (end == p)
            return -1;
        p = *end == ':' ? end + 1 : end;
        if (*end != ':' )
            break;
    }
    double secs = n == 3 ? part[0] * 3600 + part[1] * 60 + part[2]
                : n == 2 ? part[0] * 60 + part[1] : part[0];
    return days * 86400 + secs;
}

/* the value of KEY= in scontrol's one-line output, up to the next space */
static const char *field(arena *a, const char *line, const char *key)
{
    size_t klen = strlen(key);
    for (const char *p = line; (p = strstr(p, key)) != NULL; p += klen) {
        if ((p == line || p[-1] == ' ') && p[klen] == '=') {
            const char *v = p + klen + 1;
            return arena_strndup(a, v, strcspn(v, " \n"));
        }
    }
    return NULL;
}

static void parse_exit(job_state *js, const char *text)
{
    int code, sig;
    if (text && sscanf(text, "%d:%d", &code, &sig) == 2) {
        js->exit_code = code;
        js->exit_signal = sig;
        js->have_exit = 1;
    }
}

/* Details of an ended job: scontrol while slurmctld remembers it, else
 * sacct (where accounting is on).  0 when found. */
static int ended_details(slurm_pool *sp, const char *id, job_state *js)
{
    arena *a = &sp->c->a;
    cstr_vec args = {0};
    strbuf out, err;
    sb_init(&out);
    sb_init(&err);
    int found = -1;
    vec_push(&args, "--oneliner");
    vec_push(&args, "show");
    vec_push(&args, "job");
    vec_push(&args, id);
    if (run_tool(sp, "scontrol", &args, &out, &err) == 0) {
        const char *line = arena_strdup(a, sb_str(&out));
        const char *state = field(a, line, "JobState");
        if (state) {
            js->state = state;
            const char *nodes = field(a, line, "NodeList");
            if (nodes && *nodes && strcmp(nodes, "(null)") != 0)
                js->nodes = nodes;
            js->elapsed_s = parse_duration(field(a, line, "RunTime"));
            parse_exit(js, field(a, line, "ExitCode"));
            found = 0;
        }
    }
    if (found != 0) {
        args.len = 0;
        vec_push(&args, "--noheader");
        vec_push(&args, "--parsable2");
        vec_push(&args, "--allocations");
        vec_push(&args, arena_printf(a, "--jobs=%s", id));
        vec_push(&args, "--format=State,ExitCode,NodeList,ElapsedRaw");
        if (run_tool(sp, "sacct", &args, &out, &err) == 0 && out.len) {
            char *line = arena_strndup(a, sb_str(&out), strcspn(sb_str(&out), "\n"));
            char *f[4] = {line, NULL, NULL, NULL};
            for (int k = 1; k < 4 && f[k - 1]; k++) {
                char *bar = strchr(f[k - 1], '|');
                if (bar) {
                    *bar = '\0';
                    f[k] = bar + 1;
                }
            }
            if (f[3]) {
                f[0][strcspn(f[0], " ")] = '\0'; /* "CANCELLED by 0" */
                js->state = f[0];
                parse_exit(js, f[1]);
                if (*f[2] && strcmp(f[2], "None assigned") != 0)
                    js->nodes = f[2];
                js->elapsed_s = strtod(f[3], NULL);
                found = 0;
            }
        }
    }
    vec_free(&args);
    sb_free(&out);
    sb_free(&err);
    return found;
}

static int is_one_of(const char *s, const char *const *list)
{
    for (; *list; list++)
        if (strcmp(s, *list) == 0)
            return 1;
    return 0;
}

static const char *const terminal_states[] = {
    "COMPLETED", "FAILED", "CANCELLED", "TIMEOUT", "NODE_FAIL", "BOOT_FAIL", "PREEMPTED",
    "OUT_OF_MEMORY", "DEADLINE", "REVOKED", "SPECIAL_EXIT", NULL};
static const char *const running_states[] = {"RUNNING", "COMPLETING", "SIGNALING", "STAGE_OUT",
                                              "CONFIGURING", "SUSPENDED", "STOPPED", NULL};

static void noted_running(slurm_pool *sp, size_t i, const char *nodes, double elapsed)
{
    pool_job *j = &sp->c->jobs[i];
    slurm_job *s = &sp->sj[i];
    if (s->run_since > 0)
        return;
    s->run_since = proc_now_seconds() - (elapsed > 0 ? elapsed : 0);
    s->state = RUNNING;
    snprintf(j->where, sizeof j->where, "node %s", nodes && *nodes ? nodes : "?");
    pool_emit(sp->c, POOL_EV_STARTED, i);
}

static void add_exclude(slurm_job *s, const char *nodes)
{
    if (!nodes || !*nodes || in_list(sb_str(&s->exclude), nodes))
        return;
    if (s->exclude.len)
        sb_putc(&s->exclude, ',');
    sb_puts(&s->exclude, nodes);
}

/* An attempt ended in js: retry it or finish the job. */
static void attempt_ended(slurm_pool *sp, size_t i, job_state *js)
{
    pool_ctx *c = sp->c;
    pool_job *j = &c->jobs[i];
    slurm_job *s = &sp->sj[i];
    arena *a = &c->a;
    if (js->nodes) /* it had a node: it ran, if only briefly */
        noted_running(sp, i, js->nodes, js->elapsed_s);
    if (js->elapsed_s >= 0)
        j->wall_s = js->elapsed_s;
    else if (s->run_since > 0)
        j->wall_s = proc_now_seconds() - s->run_since;
    const char *st = js->state;
    int shell = js->exit_signal ? 128 + js->exit_signal : js->exit_code;
    const char *node = js->nodes ? js->nodes : "";
    int can_retry = j->attempts < c->max_attempts;

    if (strcmp(st, "COMPLETED") == 0) {
        finish(sp, i, "done", 0, "exit 0");
        return;
    }
    if (s->cancel_why == CANCEL_STUCK) {
        finish(sp, i, "node_fail", -1, s->stuck_text);
        return;
    }
    int timeout = s->cancel_why == CANCEL_TIMEOUT || strcmp(st, "TIMEOUT") == 0
                  || strcmp(st, "DEADLINE") == 0;
    if (timeout) {
        const char *why = s->cancel_why == CANCEL_TIMEOUT
                              ? arena_printf(a, "ran past its %g s limit, cancelled",
                                             pool_job_timeout(c, j))
                              : arena_printf(a, "Slurm ended it at its time limit (%s)", st);
        if (c->o->retry_timeouts && can_retry)
            retry(sp, i, why);
        else
            finish(sp, i, "timeout", 124, why);
        return;
    }
    /* the node's fault: a failed node, or a failure on a node now unusable */
    int node_fault = strcmp(st, "NODE_FAIL") == 0 || strcmp(st, "BOOT_FAIL") == 0
                     || (strcmp(st, "FAILED") == 0 && *node && node_unusable(sp, node));
    if (node_fault) {
        const char *why = strcmp(st, "FAILED") == 0
                              ? arena_printf(a, "failed (exit %d) on node %s, now unusable",
                                             shell, node)
                              : arena_printf(a, "%s on node %s", st, node);
        add_exclude(s, node);
        if (can_retry)
            retry(sp, i, why);
        else
            finish(sp, i, "node_fail", -1, why);
        return;
    }
    if (strcmp(st, "CANCELLED") == 0 || strcmp(st, "PREEMPTED") == 0) {
        const char *why = strcmp(st, "PREEMPTED") == 0 ? "preempted"
                                                       : "cancelled outside cl1cc (scancel)";
        if (can_retry)
            retry(sp, i, why);
        else
            finish(sp, i, "cancelled", js->exit_signal ? shell : -1, why);
        return;
    }
    if (strcmp(st, "FAILED") == 0 && js->exit_signal) {
        const char *why = pool_signal_text(a, js->exit_signal);
        if (can_retry)
            retry(sp, i, why);
        else
            finish(sp, i, "failed", shell, why);
        return;
    }
    if (strcmp(st, "OUT_OF_MEMORY") == 0)
        finish(sp, i, "failed", shell ? shell : 137, "out of memory");
    else if (strcmp(st, "FAILED") == 0 && js->have_exit && shell != 0)
        finish(sp, i, "failed", shell, arena_printf(a, "exit %d", shell));
    else
        finish(sp, i, "failed", shell ? shell : 1,
               arena_printf(a, "Slurm state %s%s%s", st, js->reason ? ": " : "",
                            js->reason ? js->reason : ""));
}

static void cancel_jobs(slurm_pool *sp, const cstr_vec *ids)
{
    if (!ids->len)
        return;
    strbuf out, err;
    sb_init(&out);
    sb_init(&err);
    if (run_tool(sp, "scancel", ids, &out, &err) != 0)
        log_warn("pool: scancel: %s", first_line(&sp->c->a, sb_str(&err)));
    sb_free(&out);
    sb_free(&err);
}

static void cancel_one(slurm_pool *sp, size_t i, int why)
{
    cstr_vec ids = {0};
    vec_push(&ids, sp->sj[i].id);
    sp->sj[i].cancel_why = why;
    cancel_jobs(sp, &ids);
    vec_free(&ids);
}

/* one squeue line: "ID|STATE|NODES|ELAPSED|REASON" */
static int parse_squeue_line(char *line, const char **id, job_state *js)
{
    char *f[5];
    int k = 0;
    char *p = line;
    for (; k < 4; k++) {
        char *bar = strchr(p, '|');
        if (!bar)
            return -1;
        *bar = '\0';
        f[k] = p;
        p = bar + 1;
    }
    f[4] = p;
    *id = f[0];
    js->state = f[1];
    js->nodes = *f[2] ? f[2] : NULL;
    js->elapsed_s = parse_duration(f[3]);
    js->reason = *f[4] && strcmp(f[4], "None") != 0 ? f[4] : NULL;
    return 0;
}

static void poll_jobs(slurm_pool *sp)
{
    pool_ctx *c = sp->c;
    arena *a = &c->a;
    sp->nodes_fetched = 0;
    strbuf ids;
    sb_init(&ids);
    for (size_t i = 0; i < c->n; i++)
        if (sp->sj[i].state == QUEUED || sp->sj[i].state == RUNNING)
            sb_printf(&ids, "%s%s", ids.len ? "," : "", sp->sj[i].id);
    if (!ids.len) {
        sb_free(&ids);
        return;
    }
    cstr_vec args = {0};
    vec_push(&args, "--noheader");
    vec_push(&args, "--states=all");
    vec_push(&args, arena_printf(a, "--jobs=%s", sb_str(&ids)));
    vec_push(&args, "--format=%i|%T|%N|%M|%r");
    sb_free(&ids);
    strbuf out, err;
    sb_init(&out);
    sb_init(&err);
    int status = run_tool(sp, "squeue", &args, &out, &err);
    vec_free(&args);
    double now = proc_now_seconds();
    if (status != 0) {
        /* the controller may be restarting: keep polling, up to a limit */
        sb_clear(&sp->last_error);
        sb_puts(&sp->last_error, first_line(a, sb_str(&err)));
        if (sp->squeue_failing_since == 0)
            sp->squeue_failing_since = now;
        double limit = c->o->slurm_stuck_s > 0 ? c->o->slurm_stuck_s : 300;
        if (now - sp->squeue_failing_since >= limit)
            for (size_t i = 0; i < c->n; i++)
                if (sp->sj[i].state == QUEUED || sp->sj[i].state == RUNNING)
                    finish(sp, i, "failed", -1,
                           arena_printf(a, "lost track of Slurm job %s for %g s: squeue: %s",
                                        sp->sj[i].id, limit, sb_str(&sp->last_error)));
        sb_free(&out);
        sb_free(&err);
        return;
    }
    sp->squeue_failing_since = 0;
    char *text = arena_strdup(a, sb_str(&out));
    sb_free(&out);
    sb_free(&err);
    /* squeue's lines, matched to our jobs by id */
    job_state *seen = arena_alloc(a, c->n * sizeof *seen);
    unsigned char *listed = arena_alloc(a, c->n);
    memset(listed, 0, c->n);
    for (char *line = strtok(text, "\n"); line; line = strtok(NULL, "\n")) {
        const char *id;
        job_state js;
        memset(&js, 0, sizeof js);
        if (parse_squeue_line(line, &id, &js) != 0)
            continue;
        for (size_t i = 0; i < c->n; i++)
            if ((sp->sj[i].state == QUEUED || sp->sj[i].state == RUNNING)
                && strcmp(sp->sj[i].id, id) == 0) {
                seen[i] = js;
                listed[i] = 1;
            }
    }
    double stuck_limit = c->o->slurm_stuck_s > 0 ? c->o->slurm_stuck_s : 300;
    for (size_t i = 0; i < c->n; i++) {
        slurm_job *s = &sp->sj[i];
        if (s->state != QUEUED && s->state != RUNNING)
            continue;
        job_state js = seen[i];
        if (!listed[i]) {
            memset(&js, 0, sizeof js);
            js.elapsed_s = -1;
            if (ended_details(sp, s->id, &js) != 0) {
                if (++s->missing >= 3)
                    finish(sp, i, "failed", -1,
                           arena_printf(a, "Slurm job %s left the queue with no trace", s->id));
                continue;
            }
        }
        s->missing = 0;
        if (is_one_of(js.state, terminal_states)) {
            job_state full = js;
            if (ended_details(sp, s->id, &full) == 0) /* the exit code */
                js = full;
            attempt_ended(sp, i, &js);
        } else if (is_one_of(js.state, running_states)) {
            noted_running(sp, i, js.nodes, js.elapsed_s);
            double timeout = pool_job_timeout(c, &c->jobs[i]);
            if (timeout > 0 && s->cancel_why == CANCEL_NONE && now - s->run_since >= timeout)
                cancel_one(sp, i, CANCEL_TIMEOUT);
        } else if (s->cancel_why == CANCEL_NONE) {
            /* pending (or held): does any node remain that could run it? */
            const char *why;
            if (usable_nodes(sp, s, &why) > 0) {
                s->stuck_since = 0;
            } else if (s->stuck_since == 0) {
                s->stuck_since = now;
            } else if (now - s->stuck_since >= stuck_limit) {
                /* Slurm's reason helps only when it is not the usual queueing */
                const char *reason = js.reason && strcmp(js.reason, "Priority") != 0
                                             && strcmp(js.reason, "Resources") != 0
                                         ? js.reason
                                         : NULL;
                s->stuck_text = arena_printf(
                    a, "waited %.0f s with no usable node (%s)%s%s", now - s->stuck_since, why,
                    reason ? "; Slurm says: " : "", reason ? reason : "");
                cancel_one(sp, i, CANCEL_STUCK);
            }
        }
    }
}

/* Interrupted or out of time: scancel everything in the queue. */
static void stop_everything(slurm_pool *sp)
{
    pool_ctx *c = sp->c;
    const char *why = pool_stop_reason(c, &c->a);
    cstr_vec ids = {0};
    for (size_t i = 0; i < c->n; i++)
        if (sp->sj[i].state == QUEUED || sp->sj[i].state == RUNNING)
            vec_push(&ids, sp->sj[i].id);
    cancel_jobs(sp, &ids);
    vec_free(&ids);
    for (size_t i = 0; i < c->n; i++) {
        slurm_job *s = &sp->sj[i];
        if (s->state == FINISHED)
            continue;
        if (s->state == WAITING && c->jobs[i].attempts == 0)
            finish(sp, i, "not_run", -1, why);
        else
            finish(sp, i, "cancelled", -1,
                   arena_printf(&c->a, "%s: %s", s->state == WAITING ? "not retried" : "scancelled",
                                why));
    }
}

/* sleeps poll_s (less before the deadline); a stop signal ends it early */
static void pause_between_polls(slurm_pool *sp)
{
    pool_ctx *c = sp->c;
    double wait_s = c->o->poll_s > 0 ? c->o->poll_s : 5.0;
    if (c->deadline > 0) {
        double left = c->deadline - proc_now_seconds();
        if (left < wait_s)
            wait_s = left > 0 ? left : 0;
    }
    proc_wait_children(NULL, 0, wait_s, &c->wait_mask);
}

/* sbatch's directory from the options or $CL1CC_SLURM_BIN_DIR; checks that
 * sbatch is there (or on PATH) */
static int find_tools(slurm_pool *sp, strbuf *err)
{
    const char *dir = sp->c->o->slurm_bin_dir;
    if (!dir || !*dir)
        dir = config_slurm_bin_dir();
    sp->bin_dir = dir && *dir ? dir : NULL;
    if (sp->bin_dir) {
        const char *sbatch = tool_path(sp, "sbatch");
        if (access(sbatch, X_OK) != 0) {
            sb_printf(err, "pool: no sbatch in %s (CL1CC_SLURM_BIN_DIR): %s", sp->bin_dir,
                      strerror(errno));
            return -1;
        }
        return 0;
    }
    const char *path = getenv("PATH");
    strbuf candidate;
    sb_init(&candidate);
    for (const char *p = path ? path : ""; *p;) {
        size_t len = strcspn(p, ":");
        sb_clear(&candidate);
        sb_append(&candidate, p, len);
        sb_puts(&candidate, "/sbatch");
        if (len && access(sb_str(&candidate), X_OK) == 0) {
            sb_free(&candidate);
            return 0;
        }
        p += len;
        if (*p == ':')
            p++;
    }
    sb_free(&candidate);
    sb_puts(err, "pool: sbatch not found on PATH (install Slurm's client tools, or set "
                 "CL1CC_SLURM_BIN_DIR)");
    return -1;
}

int pool_slurm_run(pool_ctx *c, strbuf *err)
{
    slurm_pool sp;
    memset(&sp, 0, sizeof sp);
    sp.c = c;
    sb_init(&sp.last_error);
    if (find_tools(&sp, err) != 0) {
        for (size_t i = 0; i < c->n; i++)
            snprintf(c->jobs[i].detail, sizeof c->jobs[i].detail, "%s", sb_str(err));
        sb_free(&sp.last_error);
        return -1;
    }
    char *cwd = getcwd(NULL, 0);
    if (!cwd) {
        sb_printf(err, "pool: getcwd: %s", strerror(errno));
        sb_free(&sp.last_error);
        return -1;
    }
    sp.cwd = arena_strdup(&c->a, cwd);
    free(cwd);
    sp.sj = xcalloc(c->n, sizeof *sp.sj);
    for (size_t i = 0; i < c->n; i++) {
        sp.sj[i].state = WAITING;
        sb_init(&sp.sj[i].exclude);
    }
    size_t cap = c->o->slurm_max_queued > 0 ? (size_t)c->o->slurm_max_queued : c->n;

    for (;;) {
        if (pool_stop_signal() || pool_past_deadline(c, proc_now_seconds())) {
            stop_everything(&sp);
            break;
        }
        size_t active = 0, waiting = 0;
        for (size_t i = 0; i < c->n; i++) {
            active += sp.sj[i].state == QUEUED || sp.sj[i].state == RUNNING;
            waiting += sp.sj[i].state == WAITING;
        }
        for (size_t i = 0; i < c->n && active < cap && !pool_stop_signal(); i++) {
            if (sp.sj[i].state != WAITING)
                continue;
            submit(&sp, i);
            active += sp.sj[i].state == QUEUED;
        }
        if (!active && !waiting)
            break;
        /* with nothing queued, only failed submissions wait: not at once again */
        pause_between_polls(&sp);
        if (active && !pool_stop_signal() && !pool_past_deadline(c, proc_now_seconds()))
            poll_jobs(&sp);
    }
    for (size_t i = 0; i < c->n; i++)
        sb_free(&sp.sj[i].exclude);
    free(sp.sj);
    vec_free(&sp.nodes);
    sb_free(&sp.last_error);
    return 0;
}
