/*
 * test_wrapper_args.c: golden cases for the nvcc command-line parser (each a
 * command line and the canonical summary it must give), the option table
 * against `nvcc --help`, and the default output names for the nvcc test.
 */
#include "check.h"
#include "wrapper.h"
#include "wrapper_internal.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void put_arg(strbuf *sb, const char *s)
{
    sb_printf(sb, " [%s]", s);
}

static void put_list(strbuf *sb, const char *name, const char *const *items, size_t len)
{
    if (!len)
        return;
    sb_puts(sb, name);
    for (size_t i = 0; i < len; i++)
        put_arg(sb, items[i]);
    sb_putc(sb, '\n');
}
#define PUT_LIST(sb, name, v) put_list(sb, name, (const char *const *)(v)->items, (v)->len)

/* The canonical summary a case's expected lines are compared with. */
static void summarize(const nvcc_cmdline *c, strbuf *sb)
{
    sb_printf(sb, "phase %s (%s)\n", nvcc_phase_name(c->phase),
              c->phase_option ? c->phase_option : "-");
    if (c->output && c->output_index == SIZE_MAX)
        sb_printf(sb, "output [%s] @-\n", c->output);
    else if (c->output) {
        sb_printf(sb, "output [%s] @%zu\n", c->output, c->output_index);
        CHECK(c->output_index < c->argv.len);
    }
    sb_printf(sb, "flags dryrun=%d verbose=%d rdc=%d unknown=%zu\n", c->dryrun, c->verbose,
              c->relocatable, c->unknown_count);
    if (c->dep_generate || c->dep_file || c->dep_target)
        sb_printf(sb, "deps gen=%d compile=%d file=%s target=%s\n", c->dep_generate,
                  c->dep_with_compile, c->dep_file ? c->dep_file : "-",
                  c->dep_target ? c->dep_target : "-");
    arena a;
    arena_init(&a);
    for (size_t i = 0; i < c->inputs.len; i++) {
        const nvcc_input *in = &c->inputs.items[i];
        const char *def = nvcc_default_output(c, i, &a);
        sb_printf(sb, "input [%s] %s @%zu default=%s\n", in->path, nvcc_lang_name(in->lang),
                  in->arg_index, def ? def : "-");
        CHECK(in->arg_index < c->argv.len && !strcmp(c->argv.items[in->arg_index], in->path));
    }
    if (!c->inputs.len) {
        const char *def = nvcc_default_output(c, 0, &a);
        if (def)
            sb_printf(sb, "default %s\n", def);
    }
    arena_free(&a);
    PUT_LIST(sb, "frontend", &c->frontend_flags);
    PUT_LIST(sb, "codegen", &c->codegen_flags);
    PUT_LIST(sb, "archs", &c->gpu_archs);
    PUT_LIST(sb, "argv", &c->argv);
}

/* Words of a case's command line: split on blanks, '...' quotes a word. */
static void split_cmd(const char *s, str_vec *out)
{
    while (*s) {
        while (*s == ' ' || *s == '\t')
            s++;
        if (!*s)
            break;
        strbuf w;
        sb_init(&w);
        while (*s && *s != ' ' && *s != '\t') {
            if (*s == '\'') {
                s++;
                while (*s && *s != '\'')
                    sb_putc(&w, *s++);
                if (*s)
                    s++;
            } else {
                sb_putc(&w, *s++);
            }
        }
        vec_push(out, xstrdup(sb_str(&w)));
        sb_free(&w);
    }
}

typedef struct test_case {
    int line;
    char *name;
    str_vec env;   /* NAME=value */
    str_vec files; /* name, content, name, content ... */
    char *cmd;
    strbuf expect;
} test_case;

static void case_free(test_case *tc)
{
    free(tc->name);
    free(tc->cmd);
    for (size_t i = 0; i < tc->env.len; i++)
        free(tc->env.items[i]);
    for (size_t i = 0; i < tc->files.len; i++)
        free(tc->files.items[i]);
    vec_free(&tc->env);
    vec_free(&tc->files);
    sb_free(&tc->expect);
}

static void run_case(const test_case *tc, strbuf *got)
{
    for (size_t i = 0; i < tc->files.len; i += 2) {
        char *slash = strrchr(tc->files.items[i], '/');
        if (slash) {
            *slash = '\0';
            CHECK(dir_create_all(tc->files.items[i], 0777) == 0);
            *slash = '/';
        }
        FILE *f = fopen(tc->files.items[i], "w");
        CHECK(f != NULL);
        if (!f)
            continue;
        fputs(tc->files.items[i + 1], f);
        CHECK(fclose(f) == 0);
    }
    for (size_t i = 0; i < tc->env.len; i++) {
        char *eq = strchr(tc->env.items[i], '=');
        *eq = '\0';
        CHECK(setenv(tc->env.items[i], eq + 1, 1) == 0);
        *eq = '=';
    }
    str_vec words = {0};
    split_cmd(tc->cmd, &words);
    nvcc_cmdline c;
    strbuf err;
    sb_init(&err);
    if (nvcc_cmdline_parse((int)words.len, words.items, &c, &err) != 0)
        sb_printf(got, "error %s\n", sb_str(&err));
    else
        summarize(&c, got);
    nvcc_cmdline_free(&c);
    sb_free(&err);
    for (size_t i = 0; i < words.len; i++)
        free(words.items[i]);
    vec_free(&words);
    for (size_t i = 0; i < tc->env.len; i++) {
        char *eq = strchr(tc->env.items[i], '=');
        *eq = '\0';
        CHECK(unsetenv(tc->env.items[i]) == 0);
        *eq = '=';
    }
    for (size_t i = 0; i < tc->files.len; i += 2) {
        CHECK(unlink(tc->files.items[i]) == 0);
        char *slash = strrchr(tc->files.items[i], '/');
        if (slash) {
            *slash = '\0';
            CHECK(rmdir(tc->files.items[i]) == 0);
            *slash = '/';
        }
    }
}

/* Prints both sides of a mismatch, line by line. */
static void show_diff(const test_case *tc, const char *want, const char *got)
{
    fprintf(stderr, "case '%s' (line %d) differs:\n--- expected\n%s--- got\n%s", tc->name,
            tc->line, want, got);
}

/* The cases file: "case: NAME", then optional "env: NAME=value" and
 * "file: NAME" ... "endfile" blocks, then "cmd: ARGS", the expected summary
 * lines, and "end".  Lines starting with '#' between cases are comments. */
static int run_cases(const char *path, int regen)
{
    char *text;
    size_t len;
    if (file_read_all(path, 0, &text, &len) != 0) {
        fprintf(stderr, "%s: %s\n", path, strerror(errno));
        return 1;
    }
    char tmpl[] = "/tmp/cl1cc-wrapper-args-XXXXXX";
    char *dir = mkdtemp(tmpl);
    char cwd[4096];
    CHECK(dir && getcwd(cwd, sizeof cwd));
    if (!dir || chdir(dir) != 0)
        return 1;
    int ncases = 0;
    test_case tc;
    memset(&tc, 0, sizeof tc);
    enum { OUTSIDE, HEADER, FILEBODY, EXPECT } state = OUTSIDE;
    strbuf body;
    sb_init(&body);
    int lineno = 0;
    for (char *line = text, *next; line && *line; line = next) {
        char *nl = strchr(line, '\n');
        next = nl ? nl + 1 : NULL;
        if (nl)
            *nl = '\0';
        lineno++;
        switch (state) {
        case OUTSIDE:
            if (regen)
                printf("%s\n", line);
            if (!strncmp(line, "case: ", 6)) {
                memset(&tc, 0, sizeof tc);
                tc.name = xstrdup(line + 6);
                tc.line = lineno;
                state = HEADER;
            }
            break;
        case HEADER:
            if (regen && strncmp(line, "cmd: ", 5) != 0)
                printf("%s\n", line);
            if (!strncmp(line, "env: ", 5)) {
                vec_push(&tc.env, xstrdup(line + 5));
            } else if (!strncmp(line, "file: ", 6)) {
                vec_push(&tc.files, xstrdup(line + 6));
                sb_clear(&body);
                state = FILEBODY;
            } else if (!strncmp(line, "cmd: ", 5)) {
                if (regen)
                    printf("%s\n", line);
                tc.cmd = xstrdup(line + 5);
                sb_init(&tc.expect);
                state = EXPECT;
            }
            break;
        case FILEBODY:
            if (regen)
                printf("%s\n", line);
            if (!strcmp(line, "endfile")) {
                vec_push(&tc.files, xstrdup(sb_str(&body)));
                state = HEADER;
            } else {
                sb_printf(&body, "%s\n", line);
            }
            break;
        case EXPECT:
            if (!strcmp(line, "end")) {
                strbuf got;
                sb_init(&got);
                run_case(&tc, &got);
                if (regen)
                    printf("%send\n", sb_str(&got));
                else if (strcmp(sb_str(&got), sb_str(&tc.expect)) != 0) {
                    show_diff(&tc, sb_str(&tc.expect), sb_str(&got));
                    failures++;
                }
                sb_free(&got);
                case_free(&tc);
                ncases++;
                state = OUTSIDE;
            } else {
                sb_printf(&tc.expect, "%s\n", line);
            }
            break;
        }
    }
    CHECK(state == OUTSIDE);
    if (state != OUTSIDE)
        case_free(&tc);
    sb_free(&body);
    free(text);
    CHECK(chdir(cwd) == 0);
    CHECK(rmdir(dir) == 0);
    if (!regen)
        printf("%d cases\n", ncases);
    CHECK(ncases > 0);
    return 0;
}

/* Every option line of `nvcc --help` ("--long <value>   (-short)") is in the
 * table, with the same short form and the same takes-a-value. */
static void check_table(const char *help_path)
{
    char *text;
    size_t len;
    if (file_read_all(help_path, 0, &text, &len) != 0) {
        fprintf(stderr, "%s: %s\n", help_path, strerror(errno));
        failures++;
        return;
    }
    int seen = 0;
    for (char *line = strtok(text, "\n"); line; line = strtok(NULL, "\n")) {
        if (strncmp(line, "--", 2) != 0)
            continue;
        seen++;
        char longname[256], rest[512];
        rest[0] = '\0';
        if (sscanf(line + 2, "%255s %511[^\n]", longname, rest) < 1)
            continue;
        int takes = rest[0] == '<' || rest[0] == '{' || rest[0] == '[' ||
                    !strncmp(rest, "entry,", 6);
        const char *paren = strstr(rest, "(-");
        char shortname[256] = "";
        if (paren)
            sscanf(paren + 2, "%255[^) ]", shortname);
        const wr_option *found = NULL;
        for (size_t i = 0; i < wr_option_count; i++)
            if (wr_options[i].long_name && !strcmp(wr_options[i].long_name, longname))
                found = &wr_options[i];
        if (!found) {
            fprintf(stderr, "option --%s of nvcc --help is not in the table\n", longname);
            failures++;
            continue;
        }
        /* the help text shows no value for these two, but nvcc wants one */
        if (!strcmp(longname, "dependency-output") || !strcmp(longname, "qpp-config"))
            takes = 1;
        CHECK(found->takes_value == takes);
        if (paren)
            CHECK(found->short_name && !strcmp(found->short_name, shortname));
    }
    printf("%d options of nvcc --help checked against %zu in the table\n", seen,
           wr_option_count);
    CHECK(seen > 100);
    free(text);
}

int main(int argc, char **argv)
{
    if (argc >= 3 && !strcmp(argv[1], "cases"))
        run_cases(argv[2], 0);
    else if (argc >= 3 && !strcmp(argv[1], "regen"))
        return run_cases(argv[2], 1);
    else if (argc >= 3 && !strcmp(argv[1], "table"))
        check_table(argv[2]);
    else if (argc >= 2 && !strcmp(argv[1], "default-output")) {
        /* prints the default output of each input, one a line */
        nvcc_cmdline c;
        strbuf err;
        sb_init(&err);
        int rc = nvcc_cmdline_parse(argc - 2, argv + 2, &c, &err);
        arena a;
        arena_init(&a);
        for (size_t i = 0; rc == 0 && i < (c.inputs.len ? c.inputs.len : 1); i++) {
            const char *o = nvcc_default_output(&c, i, &a);
            printf("%s\n", o ? o : "-");
        }
        arena_free(&a);
        nvcc_cmdline_free(&c);
        sb_free(&err);
        return rc ? 1 : 0;
    } else if (argc >= 2 && !strcmp(argv[1], "langs")) {
        /* prints the language of each input, one a line */
        nvcc_cmdline c;
        strbuf err;
        sb_init(&err);
        int rc = nvcc_cmdline_parse(argc - 2, argv + 2, &c, &err);
        for (size_t i = 0; rc == 0 && i < c.inputs.len; i++)
            printf("%s\n", nvcc_lang_name(c.inputs.items[i].lang));
        nvcc_cmdline_free(&c);
        sb_free(&err);
        return rc ? 1 : 0;
    } else {
        fprintf(stderr,
                "usage: %s cases FILE | regen FILE | table HELP | default-output ARGS | "
                "langs ARGS\n",
                argv[0]);
        return 2;
    }
    return CHECK_REPORT("wrapper_args");
}
