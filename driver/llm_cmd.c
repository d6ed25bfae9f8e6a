/*
 * llm_cmd.c: `cl1cc llm-propose FILE.cu KERNEL --cl1-llm-url URL ...
 * [-- NVCC-FLAGS]`, for trying the LLM policy by hand: parses the file, asks
 * the model once for -n proposals and prints each new kernel (or why it
 * failed).  --print-prompt shows the prompt and sends nothing.
 */
#include <stdlib.h>
#include <string.h>

#include "core.h"
#include "driver.h"
#include "frontend.h"
#include "llm.h"
#include "model.h"
#include "wrapper.h"

static const kernel *find_kernel(const tu_model *m, const char *name, size_t *index)
{
    for (size_t i = 0; i < m->kernels.len; i++) {
        const kernel *k = &m->kernels.items[i];
        if (k->is_definition && (strcmp(k->name, name) == 0 || strcmp(k->qualified_name, name) == 0)) {
            *index = i;
            return k;
        }
    }
    return NULL;
}

/* The kernel's dependencies in source order (the frontend sorts them). */
static const char *context_text(const tu_model *m, const kernel *k, arena *a)
{
    strbuf sb;
    sb_init(&sb);
    for (size_t i = 0; i < k->deps.len; i++) {
        const dependency *d = &m->decls.items[k->deps.items[i]];
        const char *text = fe_range_text(m, &d->range, a);
        if (!text)
            continue;
        if (sb.len)
            sb_puts(&sb, "\n\n");
        /* a macro's range starts at its name */
        if (d->kind == DECL_MACRO && text[0] != '#')
            sb_puts(&sb, "#define ");
        sb_puts(&sb, text);
    }
    const char *out = sb.len ? arena_strdup(a, sb_str(&sb)) : NULL;
    sb_free(&sb);
    return out;
}

static const char *arg_text(const launch_arg *arg)
{
    return arg->text && *arg->text ? arg->text : "?";
}

static const char *launch_text(const tu_model *m, size_t index, arena *a)
{
    strbuf sb;
    sb_init(&sb);
    for (size_t i = 0; i < m->launches.len; i++) {
        const launch_site *l = &m->launches.items[i];
        if (l->kernel_index < 0 || (size_t)l->kernel_index != index)
            continue;
        sb_printf(&sb, "%s<<<%s, %s", l->kernel_name, arg_text(&l->grid), arg_text(&l->block));
        if (l->shmem.range.present)
            sb_printf(&sb, ", %s", arg_text(&l->shmem));
        if (l->stream.range.present)
            sb_printf(&sb, ", %s", arg_text(&l->stream));
        sb_puts(&sb, ">>>(");
        for (size_t j = 0; j < l->args.len; j++)
            sb_printf(&sb, "%s%s", j ? ", " : "", arg_text(&l->args.items[j]));
        sb_printf(&sb, ")%s%s\n", l->caller ? " in " : "", l->caller ? l->caller : "");
    }
    const char *out = sb.len ? arena_strdup(a, sb_str(&sb)) : NULL;
    sb_free(&sb);
    return out;
}

static int propose(const pol_llm_config *cfg, pol_context *ctx, int print_prompt, arena *a)
{
    if (print_prompt) {
        pol_llm_prompt p;
        pol_llm_build_prompt(ctx, cfg->prompt_budget, a, &p);
        printf("=== system\n%s\n=== user\n%s", p.system, p.user);
        return 0;
    }
    pol_proposal_vec props = {0};
    strbuf err;
    sb_init(&err);
    int n = pol_llm_propose(cfg, ctx, a, &props, &err);
    int rc = 1;
    if (n < 0) {
        log_error("llm-propose: %s", sb_str(&err));
        rc = 2;
    }
    for (size_t i = 0; i < props.len; i++) {
        const pol_proposal *p = &props.items[i];
        if (p->source) {
            printf("// ==== %s\n%s\n", p->label, p->source);
            rc = 0;
        } else {
            log_warn("%s failed: %s", p->label, p->failure);
        }
    }
    vec_free(&props);
    sb_free(&err);
    return rc;
}

typedef struct llm_cli {
    pol_llm_config cfg;
    const char *file, *kernel_name, *arch, *gpu;
    int n, print_prompt;
    int nvcc_from; /* argv index after "--" (argc when none) */
} llm_cli;

/* argv[*i], one of the command's own options or a positional; -1 to go
 * on, else the exit code (after the usage or a message) */
static int one_arg(llm_cli *c, int argc, char **argv, int *i)
{
    const char *arg = argv[*i];
    if (strcmp(arg, "-n") == 0 && *i + 1 < argc) {
        char *end;
        long v = strtol(argv[++*i], &end, 10);
        if (*end || v < 1 || v > 64) {
            log_error("llm-propose: -n takes a number from 1 to 64");
            return 2;
        }
        c->n = (int)v;
    } else if (strcmp(arg, "--arch") == 0 && *i + 1 < argc) {
        c->arch = argv[++*i];
    } else if (strcmp(arg, "--gpu") == 0 && *i + 1 < argc) {
        c->gpu = argv[++*i];
    } else if (strcmp(arg, "--print-prompt") == 0) {
        c->print_prompt = 1;
    } else if (strcmp(arg, "-h") == 0 || strcmp(arg, "--help") == 0) {
        driver_usage("llm-propose", stderr);
        return 0;
    } else if (arg[0] == '-') {
        log_error("llm-propose: unknown option '%s'", arg);
        driver_usage("llm-propose", stderr);
        return 2;
    } else if (!c->file) {
        c->file = arg;
    } else if (!c->kernel_name) {
        c->kernel_name = arg;
    } else {
        log_error("llm-propose: one file and one kernel ('%s' is one too many)", arg);
        return 2;
    }
    return -1;
}

/* -1 to go on, else the exit code (after the usage or a message) */
static int parse_args(int argc, char **argv, llm_cli *c)
{
    pol_llm_config_init(&c->cfg);
    c->n = 1;
    c->nvcc_from = argc;
    strbuf err;
    sb_init(&err);
    int rc = -1;
    for (int i = 0; i < argc && rc < 0; i++) {
        int used = 0;
        int r = pol_llm_parse_option(&c->cfg, argv[i], i + 1 < argc ? argv[i + 1] : NULL, &used, &err);
        if (r < 0) {
            log_error("llm-propose: %s", sb_str(&err));
            rc = 2;
        } else if (r > 0) {
            i += used - 1;
        } else if (strcmp(argv[i], "--") == 0) {
            c->nvcc_from = i + 1;
            break;
        } else {
            rc = one_arg(c, argc, argv, &i);
        }
    }
    sb_free(&err);
    if (rc < 0 && (!c->file || !c->kernel_name)) {
        driver_usage("llm-propose", stderr);
        rc = 2;
    }
    return rc;
}

/* the kernel's proposals (or its prompt); the exit code */
static int propose_for(const llm_cli *c, const tu_model *m, const kernel *k, size_t index,
                       arena *a)
{
    pol_context ctx;
    memset(&ctx, 0, sizeof ctx);
    ctx.model = m;
    ctx.kernel_index = index;
    ctx.kernel_source = fe_range_text(m, &k->decl_range, a);
    ctx.context_source = context_text(m, k, a);
    ctx.launch_summary = launch_text(m, index, a);
    ctx.arch = c->arch;
    ctx.gpu_name = c->gpu;
    ctx.max_proposals = c->n;
    return ctx.kernel_source ? propose(&c->cfg, &ctx, c->print_prompt, a) : 3;
}

int cmd_llm_propose(int argc, char **argv)
{
    llm_cli c;
    memset(&c, 0, sizeof c);
    int parsed = parse_args(argc, argv, &c);
    if (parsed >= 0)
        return parsed;
    nvcc_cmdline cl;
    strbuf err;
    sb_init(&err);
    if (nvcc_cmdline_parse(argc - c.nvcc_from, argv + c.nvcc_from, &cl, &err) != 0) {
        log_error("llm-propose: %s", sb_str(&err));
        sb_free(&err);
        nvcc_cmdline_free(&cl);
        return 2;
    }
    sb_free(&err);
    cstr_vec flags = {0};
    for (size_t i = 0; i < cl.frontend_flags.len; i++)
        vec_push(&flags, cl.frontend_flags.items[i]);
    fe_options opt;
    memset(&opt, 0, sizeof opt);
    opt.flags = flags.items;
    opt.n_flags = flags.len;
    tu_model m;
    model_init(&m);
    strbuf diags;
    sb_init(&diags);
    arena a;
    arena_init(&a);
    int rc;
    fe_status st = fe_parse(c.file, &opt, &m, &diags);
    size_t index = 0;
    const kernel *k = st == FE_OK ? find_kernel(&m, c.kernel_name, &index) : NULL;
    if (st != FE_OK) {
        fputs(sb_str(&diags), stderr);
        rc = 3;
    } else if (!k) {
        log_error("llm-propose: %s defines no kernel '%s'", c.file, c.kernel_name);
        rc = 2;
    } else {
        rc = propose_for(&c, &m, k, index, &a);
    }
    arena_free(&a);
    sb_free(&diags);
    model_free(&m);
    vec_free(&flags);
    nvcc_cmdline_free(&cl);
    return rc;
}
