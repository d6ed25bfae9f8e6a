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

int cmd_llm_propose(int argc, char **argv)
{
    pol_llm_config cfg;
    pol_llm_config_init(&cfg);
    const char *file = NULL, *kernel_name = NULL, *arch = NULL, *gpu = NULL;
    int n = 1, print_prompt = 0, nvcc_from = argc;
    strbuf err;
    sb_init(&err);
    for (int i = 0; i < argc; i++) {
        int used = 0;
        int r = pol_llm_parse_option(&cfg, argv[i], i + 1 < argc ? argv[i + 1] : NULL, &used, &err);
        if (r < 0) {
            log_error("llm-propose: %s", sb_str(&err));
            sb_free(&err);
            return 2;
        }
        if (r > 0) {
            i += used - 1;
        } else if (strcmp(argv[i], "--") == 0) {
            nvcc_from = i + 1;
            break;
        } else if (strcmp(argv[i], "-n") == 0 && i + 1 < argc) {
            char *end;
            long v = strtol(argv[++i], &end, 10);
            if (*end || v < 1 || v > 64) {
                log_error("llm-propose: -n takes a number from 1 to 64");
                sb_free(&err);
                return 2;
            }
            n = (int)v;
        } else if (strcmp(argv[i], "--arch") == 0 && i + 1 < argc) {
            arch = argv[++i];
        } else if (strcmp(argv[i], "--gpu") == 0 && i + 1 < argc) {
            gpu = argv[++i];
        } else if (strcmp(argv[i], "--print-prompt") == 0) {
            print_prompt = 1;
        } else if (strcmp(argv[i], "-h") == 0 || strcmp(argv[i], "--help") == 0) {
            driver_usage("llm-propose", stderr);
            sb_free(&err);
            return 0;
        } else if (argv[i][0] == '-') {
            log_error("llm-propose: unknown option '%s'", argv[i]);
            driver_usage("llm-propose", stderr);
            sb_free(&err);
            return 2;
        } else if (!file) {
            file = argv[i];
        } else if (!kernel_name) {
            kernel_name = argv[i];
        } else {
            log_error("llm-propose: one file and one kernel ('%s' is one too many)", argv[i]);
            sb_free(&err);
            return 2;
        }
    }
    sb_free(&err);
    if (!file || !kernel_name) {
        driver_usage("llm-propose", stderr);
        return 2;
    }

    nvcc_cmdline cl;
    sb_init(&err);
    if (nvcc_cmdline_parse(argc - nvcc_from, argv + nvcc_from, &cl, &err) != 0) {
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
    fe_status st = fe_parse(file, &opt, &m, &diags);
    size_t index = 0;
    const kernel *k = st == FE_OK ? find_kernel(&m, kernel_name, &index) : NULL;
    if (st != FE_OK) {
        fputs(sb_str(&diags), stderr);
        rc = 3;
    } else if (!k) {
        log_error("llm-propose: %s defines no kernel '%s'", file, kernel_name);
        rc = 2;
    } else {
        pol_context ctx;
        memset(&ctx, 0, sizeof ctx);
        ctx.model = &m;
        ctx.kernel_index = index;
        ctx.kernel_source = fe_range_text(&m, &k->decl_range, &a);
        ctx.context_source = context_text(&m, k, &a);
        ctx.launch_summary = launch_text(&m, index, &a);
        ctx.arch = arch;
        ctx.gpu_name = gpu;
        ctx.max_proposals = n;
        rc = ctx.kernel_source ? propose(&cfg, &ctx, print_prompt, &a) : 3;
    }
    arena_free(&a);
    sb_free(&diags);
    model_free(&m);
    vec_free(&flags);
    nvcc_cmdline_free(&cl);
    return rc;
}
