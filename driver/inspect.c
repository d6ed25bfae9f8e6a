/*
 * inspect.c: `cl1cc inspect FILE.cu [--json|--summary] [-p DIR] [-- NVCC-FLAGS]`
 * parses one translation unit and prints the frontend's model: JSON for
 * tools, a short summary for people.
 */
#include <cjson/cJSON.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "compdb.h"
#include "core.h"
#include "driver.h"
#include "frontend.h"
#include "model.h"
#include "wrapper.h"

/* paths shown relative to the main file's folder, as written or absolute */
static const char *display_path(const char *path, const char *main_dir)
{
    static char real_dir[PATH_MAX];
    size_t n = strlen(main_dir);
    if (n && strncmp(path, main_dir, n) == 0 && path[n] == '/')
        return path + n + 1;
    if (path[0] == '/' && realpath(n ? main_dir : ".", real_dir)) {
        n = strlen(real_dir);
        if (strncmp(path, real_dir, n) == 0 && path[n] == '/')
            return path + n + 1;
    }
    return path;
}

static void print_arg(const char *label, const launch_arg *a)
{
    if (a->range.present && a->range.in_macro)
        printf(" %s=(macro)", label);
    else if (a->range.present)
        printf(" %s=\"%s\"", label, a->text);
    else
        printf(" %s=-", label);
}

static const char *body_kind_name(body_kind k)
{
    switch (k) {
    case BODY_LOOP: return "loop";
    case BODY_IF: return "if";
    case BODY_ASSIGN: return "assign";
    case BODY_SUBSCRIPT: return "subscript";
    case BODY_CALL: return "call";
    case BODY_SYNC: return "sync";
    }
    return "?";
}

static void print_body(const tu_model *m, const kernel *k)
{
    arena a;
    arena_init(&a);
    for (size_t i = 0; i < k->body.len; i++) {
        const body_node *n = &k->body.items[i];
        printf("  body #%zu %s line %u depth %d parent %ld", i, body_kind_name(n->kind),
               n->range.line, n->loop_depth, n->parent);
        if (n->kind == BODY_LOOP)
            printf(" %s var=%s%s", n->loop_kind, n->loop_var ? n->loop_var : "-",
                   n->has_inner_loop ? " outer" : " innermost");
        if (n->kind == BODY_ASSIGN) {
            const char *t = fe_range_text(m, &n->target, &a);
            printf(" %s target=\"%s\"", n->op, t ? t : "?");
        }
        if (n->kind == BODY_SUBSCRIPT) {
            const char *t = fe_range_text(m, &n->index, &a);
            printf(" base=%s index=\"%s\"%s", n->base ? n->base : "-", t ? t : "?",
                   n->is_write ? " write" : "");
        }
        if (n->kind == BODY_CALL || n->kind == BODY_SYNC)
            printf(" %s", n->callee);
        printf("\n");
    }
    arena_free(&a);
}

static void print_summary(const tu_model *m, int with_body)
{
    char main_dir[PATH_MAX];
    snprintf(main_dir, sizeof main_dir, "%s", m->main_file);
    char *slash = strrchr(main_dir, '/');
    if (slash)
        *slash = '\0';
    else
        main_dir[0] = '\0';
    printf("file %s: %zu kernels, %zu launches, %zu dependencies\n",
           display_path(m->main_file, main_dir), m->kernels.len,
           m->launches.len, m->decls.len);
    for (size_t i = 0; i < m->kernels.len; i++) {
        const kernel *k = &m->kernels.items[i];
        printf("kernel #%zu %s%s%s%s%s%s at %s:%u:%u\n", i, k->qualified_name,
               k->is_template ? " template" : "",
               k->is_specialization ? " specialization" : "",
               k->is_static ? " static" : "",
               k->is_extern_c ? " extern-C" : "",
               k->decl_range.in_macro ? " from-macro" : "",
               display_path(k->decl_range.file, main_dir), k->decl_range.line,
               k->decl_range.col);
        printf("  mangled %s\n", k->mangled);
        printf("  decl [%u,%u) lines %u-%u, body [%u,%u)%s\n", k->decl_range.begin,
               k->decl_range.end, k->decl_range.line, k->decl_range.end_line,
               k->body_range.begin, k->body_range.end,
               k->is_definition ? "" : " (declaration only)");
        if (k->launch_bounds)
            printf("  __launch_bounds__%s\n", k->launch_bounds);
        for (size_t t = 0; t < k->template_params.len; t++) {
            const template_param *tp = &k->template_params.items[t];
            printf("  template-param %s %s%s%s\n", tp->kind, tp->name,
                   tp->type ? " : " : "", tp->type ? tp->type : "");
        }
        for (size_t p = 0; p < k->params.len; p++) {
            const kernel_param *kp = &k->params.items[p];
            printf("  param %s : %s%s%s%s\n", kp->name, kp->type,
                   kp->is_pointer ? " [pointer]" : "",
                   kp->pointee_const ? " [const pointee]" : "",
                   kp->is_restrict ? " [restrict]" : "");
        }
        for (size_t d = 0; d < k->deps.len; d++) {
            const dependency *dep = &m->decls.items[k->deps.items[d]];
            printf("  needs %s %s%s%s%s at %s:%u\n", model_decl_kind_name(dep->kind), dep->name,
                   dep->space && *dep->space ? " (" : "",
                   dep->space && *dep->space ? dep->space : "",
                   dep->space && *dep->space ? ")" : "",
                   display_path(dep->range.file, main_dir), dep->range.line);
        }
        if (with_body)
            print_body(m, k);
    }
    for (size_t i = 0; i < m->launches.len; i++) {
        const launch_site *l = &m->launches.items[i];
        printf("launch %s at %s:%u:%u", l->kernel_name,
               display_path(l->range.file, main_dir), l->range.line, l->range.col);
        if (l->kernel_index >= 0)
            printf(" -> kernel #%ld", l->kernel_index);
        else
            printf(" -> unresolved");
        if (l->template_args)
            printf(" <%s>", l->template_args);
        if (l->caller)
            printf(" in %s", l->caller);
        if (l->in_macro)
            printf(" from-macro");
        printf("\n ");
        print_arg("grid", &l->grid);
        print_arg("block", &l->block);
        print_arg("shmem", &l->shmem);
        print_arg("stream", &l->stream);
        printf(" args=[");
        for (size_t a = 0; a < l->args.len; a++)
        {
            const launch_arg *arg = &l->args.items[a];
            if (arg->range.in_macro)
                printf("%s(macro)", a ? ", " : "");
            else
                printf("%s\"%s\"", a ? ", " : "", arg->text);
        }
        printf("]\n");
    }
    for (size_t i = 0; i < m->skipped.len; i++) {
        const skipped_kernel *sk = &m->skipped.items[i];
        printf("skipped kernel %s at %s:%u:%u: left alone: %s\n", sk->name,
               display_path(sk->decl_range.file, main_dir), sk->decl_range.line,
               sk->decl_range.col, sk->reason);
    }
    if (m->ignored_errors)
        printf("note: ignored %u error%s in code no kernel needs (clang rejects what nvcc "
               "accepts); the first: %s\n",
               m->ignored_errors, m->ignored_errors == 1 ? "" : "s", m->first_ignored_error);
}

typedef struct inspect_cli {
    const char *file, *build_dir;
    int json, summary, with_text, with_body;
    int nvcc_from; /* argv index after "--" (argc when none) */
} inspect_cli;

/* -1 to go on, else the exit code (after the usage or a message) */
static int parse_args(int argc, char **argv, inspect_cli *c)
{
    c->json = !isatty(STDOUT_FILENO);
    c->nvcc_from = argc;
    for (int i = 0; i < argc; i++) {
        if (strcmp(argv[i], "--") == 0) {
            c->nvcc_from = i + 1;
            break;
        } else if (strcmp(argv[i], "--json") == 0) {
            c->json = 1;
        } else if (strcmp(argv[i], "--summary") == 0) {
            c->summary = 1;
            c->json = 0;
        } else if (strcmp(argv[i], "--text") == 0) {
            c->with_text = 1;
        } else if (strcmp(argv[i], "--body") == 0) {
            c->with_body = 1;
        } else if (strcmp(argv[i], "-p") == 0 && i + 1 < argc) {
            c->build_dir = argv[++i];
        } else if (strcmp(argv[i], "-h") == 0 || strcmp(argv[i], "--help") == 0) {
            driver_usage("inspect", stderr);
            return 0;
        } else if (argv[i][0] == '-') {
            log_error("inspect: unknown option '%s'", argv[i]);
            driver_usage("inspect", stderr);
            return 2;
        } else if (!c->file) {
            c->file = argv[i];
        } else {
            log_error("inspect: one file at a time ('%s' and '%s')", c->file, argv[i]);
            return 2;
        }
    }
    if (!c->file) {
        driver_usage("inspect", stderr);
        return 2;
    }
    return -1;
}

/* clang's flags for the file: -p's compile_commands.json, then those
 * after "--"; 0, or 2 after a message */
static int frontend_flags(const inspect_cli *c, int argc, char **argv, cstr_vec *flags, arena *a)
{
    cstr_vec nvcc_args = {0};
    strbuf err;
    sb_init(&err);
    if (c->build_dir && compdb_flags(c->build_dir, c->file, a, &nvcc_args, &err) != 0) {
        log_error("inspect: %s", sb_str(&err));
        sb_free(&err);
        vec_free(&nvcc_args);
        return 2;
    }
    for (int i = c->nvcc_from; i < argc; i++)
        vec_push(&nvcc_args, argv[i]);
    nvcc_cmdline cl;
    int rc = 0;
    if (nvcc_cmdline_parse((int)nvcc_args.len, (char **)nvcc_args.items, &cl, &err) != 0) {
        log_error("inspect: %s", sb_str(&err));
        rc = 2;
    } else {
        /* the strings outlive cl: into the arena */
        for (size_t i = 0; i < cl.frontend_flags.len; i++)
            vec_push(flags, arena_strdup(a, cl.frontend_flags.items[i]));
    }
    sb_free(&err);
    nvcc_cmdline_free(&cl);
    vec_free(&nvcc_args);
    return rc;
}

/* the model as JSON on stdout; 0, or 3 */
static int print_json(const tu_model *m, int with_text)
{
    int rc = 0;
    cJSON *root = fe_model_to_json(m, with_text);
    char *text = cJSON_Print(root);
    if (text) {
        puts(text);
        cJSON_free(text);
    } else {
        log_error("inspect: could not format JSON");
        rc = 3;
    }
    cJSON_Delete(root);
    return rc;
}

int cmd_inspect(int argc, char **argv)
{
    inspect_cli c;
    memset(&c, 0, sizeof c);
    int parsed = parse_args(argc, argv, &c);
    if (parsed >= 0)
        return parsed;
    arena a;
    arena_init(&a);
    cstr_vec flags = {0};
    if (frontend_flags(&c, argc, argv, &flags, &a) != 0) {
        vec_free(&flags);
        arena_free(&a);
        return 2;
    }
    fe_options opt;
    memset(&opt, 0, sizeof opt);
    opt.flags = flags.items;
    opt.n_flags = flags.len;
    opt.with_bodies = c.with_body;
    tu_model m;
    model_init(&m);
    strbuf diags;
    sb_init(&diags);
    fe_status st = fe_parse(c.file, &opt, &m, &diags);
    int rc = 0;
    if (st != FE_OK) {
        fputs(sb_str(&diags), stderr);
        rc = st == FE_USER_ERROR ? 1 : 3;
    } else if (c.json) {
        rc = print_json(&m, c.with_text);
    } else {
        print_summary(&m, c.with_body);
    }
    if (!c.json && st == FE_OK && !c.summary)
        fprintf(stderr, "cl1cc: parsed in %.3f s\n", m.parse_seconds);
    sb_free(&diags);
    model_free(&m);
    vec_free(&flags);
    arena_free(&a);
    return rc;
}
