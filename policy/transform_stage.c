/*
 * transform_stage.c: `stage` (shared-memory staging of row reads).  A
 * thread that walks its own row of a matrix ("A[i*N+j]" inside "for j",
 * with i the thread's index along x or y) makes every warp load touch one
 * row per lane: uncoalesced.  The block instead loads a tile of its rows
 * (TK columns at a time) cooperatively and coalesced into shared memory,
 * and each thread reads its row from there.  Elements the loop updates at a
 * fixed index are kept in registers as `regacc` does.  The staged path runs
 * only for the block shape the captures showed; any other launch runs the
 * original statement.  Barriers need every thread of the block: the guard
 * "if (i < N)" becomes a flag, and threads outside it load but do not
 * compute.
 */
#include <stdio.h>
#include <string.h>

#include "internal.h"
#include "stage_plan.h"

static int element_size(const char *type)
{
    if (strcmp(type, "float") == 0 || strcmp(type, "int") == 0 || strcmp(type, "unsigned") == 0 ||
        strcmp(type, "unsigned int") == 0)
        return 4;
    if (strcmp(type, "double") == 0 || strcmp(type, "long long") == 0)
        return 8;
    return 0;
}



void stage_find_thread_vars(const tu_model *m, const kernel *k, stage_plan *p, arena *a)
{
    static const char dims[] = "xyz";
    for (size_t i = 0; i < k->body.len; i++) {
        const body_node *b = &k->body.items[i];
        if (b->kind != BODY_ASSIGN || strcmp(b->op, "decl") != 0 || b->parent != -1)
            continue;
        const char *name = pol_squeeze(pol_text(m, &b->target, a), a);
        const char *s = pol_squeeze(pol_text(m, &b->range, a), a);
        const char *eq = strchr(s, '=');
        if (!eq || pol_assignments(m, k, name, a) != 1)
            continue;
        for (int d = 0; d < 3; d++) {
            char forms[4][96];
            snprintf(forms[0], 96, "blockIdx.%c*blockDim.%c+threadIdx.%c", dims[d], dims[d], dims[d]);
            snprintf(forms[1], 96, "blockDim.%c*blockIdx.%c+threadIdx.%c", dims[d], dims[d], dims[d]);
            snprintf(forms[2], 96, "threadIdx.%c+blockIdx.%c*blockDim.%c", dims[d], dims[d], dims[d]);
            snprintf(forms[3], 96, "threadIdx.%c+blockDim.%c*blockIdx.%c", dims[d], dims[d], dims[d]);
            for (int f = 0; f < 4; f++)
                if (strcmp(eq + 1, forms[f]) == 0 && !p->thread_var[d])
                    p->thread_var[d] = name;
        }
    }
}

static int thread_dim(const stage_plan *p, const char *name)
{
    for (int d = 0; d < 3; d++)
        if (p->thread_var[d] && strcmp(p->thread_var[d], name) == 0)
            return d;
    return -1;
}

/* split s at top-level occurrences of sep (one char, or "&&") */
size_t stage_split_top(const char *s, const char *sep, arena *a, const char **parts, size_t max)
{
    size_t n = 0, start = 0, seplen = strlen(sep);
    int depth = 0;
    for (size_t i = 0; s[i]; i++) {
        if (s[i] == '(' || s[i] == '[')
            depth++;
        else if (s[i] == ')' || s[i] == ']')
            depth--;
        else if (depth == 0 && strncmp(s + i, sep, seplen) == 0) {
            if (n == max)
                return max + 1;
            parts[n++] = arena_printf(a, "%.*s", (int)(i - start), s + start);
            start = i + seplen;
            i += seplen - 1;
        }
    }
    if (n == max)
        return max + 1;
    parts[n++] = arena_printf(a, "%s", s + start);
    return n;
}

/* index "R*S+k" (either order of either operator) with R a thread index
 * and S uniform: fills dim, thread var and stride */
static int row_index(const tu_model *m, const kernel *k, const stage_plan *p, const char *sq,
                     staged *out, arena *a)
{
    const char *terms[3], *factors[3];
    if (stage_split_top(sq, "+", a, terms, 2) != 2 || strchr(sq, '-'))
        return 0;
    int kt = strcmp(terms[0], p->loop_var) == 0 ? 0 : strcmp(terms[1], p->loop_var) == 0 ? 1 : -1;
    if (kt < 0 || stage_split_top(terms[1 - kt], "*", a, factors, 2) != 2)
        return 0;
    for (int f = 0; f < 2; f++) {
        int d = thread_dim(p, factors[f]);
        if (d >= 0 && pol_block_uniform(m, k, factors[1 - f], a) && !pol_mentions(factors[1 - f], p->loop_var)) {
            out->dim = d;
            out->thread_var = factors[f];
            out->stride = factors[1 - f];
            return 1;
        }
    }
    return 0;
}

/* the for statement: init, condition and step in the forms the tiling keeps */
static int parse_for(const tu_model *m, const kernel *k, stage_plan *p, const body_node *L,
                     arena *a, const char **why)
{
    const char *t = p->text;
    size_t i = L->range.begin + 3;
    i = ctext_skip_blanks(t, p->len, i);
    size_t close = t[i] == '(' ? ctext_close_bracket(t, p->len, i) : 0;
    if (strncmp(t + L->range.begin, "for", 3) != 0 || !close || !L->loop_var) {
        *why = "the loop is not a for loop with one induction variable";
        return 1;
    }
    const char *header = arena_printf(a, "%.*s", (int)(close - i - 1), t + i + 1);
    const char *parts[3];
    if (stage_split_top(header, ";", a, parts, 3) != 3) {
        *why = "the for header is not init; condition; step";
        return 1;
    }
    const char *v = p->loop_var = L->loop_var;
    const char *eq = strchr(parts[0], '=');
    const char *lhs = eq ? pol_trim(parts[0], (size_t)(eq - parts[0]), a) : "";
    size_t vl = strlen(v), ll = strlen(lhs);
    if (!eq || ll < vl || strcmp(lhs + ll - vl, v) != 0) {
        *why = "the loop's init is not var = lower";
        return 1;
    }
    p->var_type = ll > vl ? pol_trim(lhs, ll - vl, a) : NULL;
    p->lower = pol_trim(eq + 1, strlen(eq + 1), a);
    const char *cond = parts[1], *lt = strchr(cond, '<');
    if (!lt || lt[1] == '=' || lt[1] == '<' ||
        strcmp(pol_squeeze(arena_printf(a, "%.*s", (int)(lt - cond), cond), a), v) != 0) {
        *why = "the loop's condition is not var < upper";
        return 1;
    }
    p->upper = pol_trim(lt + 1, strlen(lt + 1), a);
    const char *step = pol_squeeze(parts[2], a);
    if (strcmp(step, arena_printf(a, "%s++", v)) != 0 && strcmp(step, arena_printf(a, "++%s", v)) != 0 &&
        strcmp(step, arena_printf(a, "%s+=1", v)) != 0) {
        *why = "the loop's step is not var++";
        return 1;
    }
    if (!pol_block_uniform(m, k, p->lower, a) || !pol_block_uniform(m, k, p->upper, a)) {
        *why = "the loop's bounds differ between threads";
        return 1;
    }
    p->body_begin = close + 1;
    return 0;
}

/* where a statement without braces ends: after its ';' */
static size_t statement_end(const char *t, size_t len, size_t end)
{
    if (end > 0 && (t[end - 1] == '}' || t[end - 1] == ';'))
        return end;
    while (end < len && t[end] != ';')
        end++;
    return end < len ? end + 1 : end;
}

static int forbidden_words(const char *s)
{
    static const char *const words[] = {"return", "break", "continue", "goto", "asm", NULL};
    for (int i = 0; words[i]; i++)
        if (pol_mentions(s, words[i]))
            return 1;
    return strstr(s, "//") || strstr(s, "/*") || strchr(s, '#');
}

/* "return" ";" at i, or "{" "return" ";" "}": the offset of its last
 * character, else 0 */
static size_t lone_return(const char *t, size_t len, size_t i)
{
    int braced = i < len && t[i] == '{';
    if (braced)
        i = ctext_skip_blanks(t, len, i + 1);
    if (i + 6 > len || strncmp(t + i, "return", 6) != 0)
        return 0;
    i = ctext_skip_blanks(t, len, i + 6);
    if (i >= len || t[i] != ';')
        return 0;
    if (!braced)
        return i;
    i = ctext_skip_blanks(t, len, i + 1);
    return i < len && t[i] == '}' ? i : 0;
}

/* the guard's condition for an early return "if (C) return;": C's negation,
 * "C1 || C2" as "!(C1) && !(C2)" (a conjunction, as the guard's form has) */
static const char *negated(const char *c, arena *a)
{
    const char *parts[9];
    size_t n = stage_split_top(c, "||", a, parts, 8);
    if (n > 8 || strchr(c, '?'))
        return arena_printf(a, "!(%s)", c);
    strbuf sb;
    sb_init(&sb);
    for (size_t i = 0; i < n; i++)
        sb_printf(&sb, "%s!(%s)", i ? " && " : "", pol_trim(parts[i], strlen(parts[i]), a));
    const char *out = arena_strdup(a, sb_str(&sb));
    sb_free(&sb);
    return out;
}

/* the first top-level if as an early return before every top-level loop:
 * the guard then runs from after its return to the kernel's end (p->open
 * its last character, p->close the kernel's '}'); 1 when it is one */
static int early_return_guard(const kernel *k, stage_plan *p, size_t c, size_t cclose, arena *a)
{
    const char *t = p->text;
    const body_node *G = &k->body.items[p->guard];
    size_t end = lone_return(t, p->len, ctext_skip_blanks(t, p->len, cclose + 1));
    if (!end || G->range.in_macro)
        return 0;
    for (size_t i = 0; i < k->body.len; i++)
        if (k->body.items[i].parent == -1 && k->body.items[i].kind == BODY_LOOP &&
            k->body.items[i].range.begin < G->range.begin)
            return 0;
    size_t after = ctext_skip_blanks(t, p->len, end + 1);
    if (after + 4 <= p->len && strncmp(t + after, "else", 4) == 0)
        return 0;
    p->early_return = 1;
    p->open = end;
    p->close = k->body_range.end - 1;
    p->guard_end = p->close;
    p->cond = negated(pol_trim(t + c + 1, cclose - c - 1, a), a);
    return t[p->close] == '}';
}

int stage_in_guard(const kernel *k, const stage_plan *p, size_t node)
{
    const body_node *b = &k->body.items[node];
    if (p->early_return)
        return b->parent == -1 && (long)node != p->guard && b->range.begin > p->open;
    return b->parent == p->guard;
}

int stage_find_shape(const tu_model *m, const kernel *k, stage_plan *p, int after, arena *a,
                     const char **why)
{
    const char *t = p->text;
    p->guard = p->loop = -1;
    p->early_return = 0;
    int ifs = 0;
    for (size_t i = 0; i < k->body.len; i++) {
        const body_node *b = &k->body.items[i];
        if (b->kind == BODY_IF && b->parent == -1 && ifs++ == 0)
            p->guard = (long)i;
    }
    if (p->guard < 0) {
        *why = "no guard 'if (...) { ... }' around the loop";
        return 1;
    }
    const body_node *G = &k->body.items[p->guard];
    size_t c = ctext_skip_blanks(t, p->len, G->range.begin + 2);
    size_t cclose = strncmp(t + G->range.begin, "if", 2) == 0 && t[c] == '(' ? ctext_close_bracket(t, p->len, c) : 0;
    if (cclose && early_return_guard(k, p, c, cclose, a)) {
        /* "if (C) return; REST": REST is the guard's body, C's negation
         * its condition */
    } else if (ifs > 1) {
        *why = "more than one top-level if";
        return 1;
    } else {
        p->early_return = 0;
        p->open = cclose ? ctext_skip_blanks(t, p->len, cclose + 1) : 0;
        p->close = p->open && t[p->open] == '{' ? ctext_close_bracket(t, p->len, p->open) : 0;
        if (!p->close || G->range.in_macro) {
            *why = "the guard is not 'if (...) { ... }' (nor 'if (...) return;' before the loop)";
            return 1;
        }
        p->guard_end = p->close + 1;
        /* nothing but blanks after it: no else, no other statement */
        if (ctext_skip_blanks(t, p->len, p->guard_end) != k->body_range.end - 1) {
            *why = "statements or an else after the guard";
            return 1;
        }
        p->cond = pol_trim(t + c + 1, cclose - c - 1, a);
    }
    for (size_t i = 0; i < k->body.len; i++) {
        const body_node *b = &k->body.items[i];
        if (b->kind == BODY_SYNC) {
            *why = "the kernel has barriers of its own";
            return 1;
        }
        if (!stage_in_guard(k, p, i) || (b->kind != BODY_LOOP && b->kind != BODY_IF))
            continue;
        if ((after & (b->kind == BODY_IF ? STAGE_SHAPE_IFS_AFTER : STAGE_SHAPE_LOOPS_AFTER)) &&
            p->loop >= 0 && b->range.begin >= k->body.items[p->loop].range.end)
            continue;
        if (b->kind == BODY_IF || p->loop >= 0) {
            *why = "the guard holds more than one loop, or an if";
            return 1;
        }
        p->loop = (long)i;
    }
    if (p->loop < 0) {
        *why = "no loop in the guard";
        return 1;
    }
    const body_node *L = &k->body.items[p->loop];
    if (L->has_inner_loop || L->range.in_macro) {
        *why = "the loop has an inner loop, or comes from a macro";
        return 1;
    }
    return stage_parse_loop(m, k, p, p->loop, a, why);
}

int stage_parse_loop(const tu_model *m, const kernel *k, stage_plan *p, long loop, arena *a,
                     const char **why)
{
    const body_node *L = &k->body.items[loop];
    if (parse_for(m, k, p, L, a, why))
        return 1;
    p->body_end = statement_end(p->text, p->len, L->range.end);
    const char *body = arena_printf(a, "%.*s", (int)(p->body_end - p->body_begin), p->text + p->body_begin);
    if (forbidden_words(body)) {
        *why = "the loop's body leaves it early, or holds comments or directives";
        return 1;
    }
    return 0;
}

static int read_only_param(const tu_model *m, const kernel *k, const char *base)
{
    const kernel_param *prm = pol_param(k, base);
    return prm && prm->is_pointer && pol_param_read_only(m, k, base);
}

size_t stage_subscripts_in(const tu_model *m, const kernel *k, long loop, const char *base,
                           const char *sq, arena *a, size_t *same)
{
    size_t uses = 0;
    *same = 0;
    for (size_t b = 0; b < k->body.len; b++) {
        const body_node *u = &k->body.items[b];
        if (u->kind == BODY_SUBSCRIPT && u->base && strcmp(u->base, base) == 0 &&
            pol_node_inside(k, b, (size_t)loop)) {
            uses++;
            *same += strcmp(pol_squeeze(pol_text(m, &u->index, a), a), sq) == 0;
        }
    }
    return uses;
}

/* what the loop reads by rows (tiles) and updates at a fixed index (accs) */
static int find_accesses(const tu_model *m, const kernel *k, stage_plan *p, int need_tiles,
                         arena *a, const char **why)
{
    const body_node *L = &k->body.items[p->loop];
    for (size_t j = 0; j < k->body.len; j++) {
        const body_node *s = &k->body.items[j];
        if (s->kind != BODY_SUBSCRIPT || !s->base || !pol_node_inside(k, j, (size_t)p->loop))
            continue;
        const char *sq = pol_squeeze(pol_text(m, &s->index, a), a);
        const kernel_param *prm = pol_param(k, s->base);
        const char *type = prm ? pol_pointee_type(prm, a) : NULL;
        if (!type || !element_size(type))
            continue;
        staged st = {s->base, sq, type, NULL, 0, NULL};
        if (!s->is_write && read_only_param(m, k, s->base) && row_index(m, k, p, sq, &st, a)) {
            int dup = 0;
            for (size_t t = 0; t < p->n_tiles; t++)
                dup |= strcmp(p->tiles[t].base, s->base) == 0 && strcmp(p->tiles[t].squeezed, sq) == 0;
            if (!dup && p->n_tiles < max_tiles)
                p->tiles[p->n_tiles++] = st;
            continue;
        }
        if (!s->is_write || prm->pointee_const || pol_mentions(sq, p->loop_var) || strchr(sq, '[') ||
            strchr(sq, '('))
            continue;
        const char **ids;
        size_t n = pol_identifiers(sq, a, &ids), moving = 0;
        for (size_t i = 0; i < n; i++)
            for (size_t b = 0; b < k->body.len; b++)
                if (k->body.items[b].kind == BODY_ASSIGN && pol_node_inside(k, b, (size_t)p->loop) &&
                    strcmp(pol_squeeze(pol_text(m, &k->body.items[b].target, a), a), ids[i]) == 0)
                    moving++;
        /* every use of the array in the loop is this one element */
        size_t same, uses = stage_subscripts_in(m, k, p->loop, s->base, sq, a, &same);
        int dup = 0;
        for (size_t c = 0; c < p->n_accs; c++)
            dup |= strcmp(p->accs[c].base, s->base) == 0;
        if (!moving && uses == same &&
            uses == pol_count_identifier(p->text, L->range.begin, L->range.end, s->base) && !dup &&
            p->n_accs < max_accs)
            p->accs[p->n_accs++] = (accum){s->base, pol_text(m, &s->index, a), sq, type};
    }
    if (need_tiles && !p->n_tiles) {
        *why = "no read of a row by the thread's own index (A[i*n+k] with k the loop variable)";
        return 1;
    }
    return 0;
}

const char *stage_substitute(const char *expr, const char *name, const char *with, arena *a)
{
    strbuf sb;
    sb_init(&sb);
    size_t n = strlen(name);
    for (const char *s = expr; *s;) {
        int starts = strncmp(s, name, n) == 0 && (s == expr || !(s[-1] == '_' || s[-1] == '.' ||
                                                                 (s[-1] >= '0' && s[-1] <= '9') ||
                                                                 ((s[-1] | 32) >= 'a' && (s[-1] | 32) <= 'z')));
        char after = s[n];
        if (starts && !(after == '_' || (after >= '0' && after <= '9') ||
                        ((after | 32) >= 'a' && (after | 32) <= 'z'))) {
            sb_puts(&sb, with);
            s += n;
        } else {
            sb_append(&sb, s, 1);
            s++;
        }
    }
    const char *out = arena_strdup(a, sb_str(&sb));
    sb_free(&sb);
    return out;
}

/* a row of the tile may be loaded when the guard's conditions on its
 * thread index hold (conditions on other indices belong to other threads) */
const char *stage_row_condition(const stage_plan *p, const staged *st, arena *a, const char **why)
{
    const char *conj[9];
    size_t n = stage_split_top(p->cond, "&&", a, conj, 8);
    if (n > 8 || strchr(p->cond, '?') || strstr(p->cond, "||")) {
        *why = "the guard is not a conjunction of simple conditions";
        return NULL;
    }
    strbuf sb;
    sb_init(&sb);
    sb_puts(&sb, "1");
    for (size_t i = 0; i < n; i++) {
        int mine = pol_mentions(conj[i], st->thread_var), others = pol_mentions(conj[i], "threadIdx");
        for (int d = 0; d < 3; d++)
            if (d != st->dim && p->thread_var[d] && pol_mentions(conj[i], p->thread_var[d]))
                others = 1;
        if (mine && others) {
            sb_free(&sb);
            *why = "a condition of the guard mixes two thread indices";
            return NULL;
        }
        if (!others) {
            const char *row = stage_substitute(conj[i], st->thread_var, "cl1_row", a);
            sb_printf(&sb, " && (%s)", pol_trim(row, strlen(row), a));
        }
    }
    const char *out = arena_strdup(a, sb_str(&sb));
    sb_free(&sb);
    return out;
}

/* P or Q, the straight-line statements around the loop: declarations
 * without initializer hoisted before the flag, the rest run by threads
 * inside the guard */
static int split_statements(const char *s, int allow_decls, strbuf *decls, strbuf *stmts, arena *a)
{
    if (forbidden_words(s) || strchr(s, '{') || strchr(s, '}'))
        return 1;
    const char *parts[65];
    size_t n = stage_split_top(s, ";", a, parts, 64);
    if (n > 64)
        return 1;
    static const char *const types[] = {"int", "unsigned", "long", "float", "double", "size_t",
                                        "short", "char", "bool", NULL};
    for (size_t i = 0; i < n; i++) {
        const char *st = pol_trim(parts[i], strlen(parts[i]), a);
        if (!*st)
            continue;
        int is_decl = 0;
        for (int t = 0; types[t]; t++)
            is_decl |= strncmp(st, types[t], strlen(types[t])) == 0 &&
                       (st[strlen(types[t])] == ' ' || st[strlen(types[t])] == '\t');
        if (is_decl && (!allow_decls || strchr(st, '=') || strchr(st, '(') || strchr(st, '[')))
            return 1;
        sb_printf(is_decl ? decls : stmts, " %s;", st);
    }
    return 0;
}

/* the loop body with tile reads and accumulators in place of the accesses */
const char *stage_render_body(const tu_model *m, const kernel *k, const stage_plan *p, int tiles,
                              arena *a)
{
    static const char dims[] = "xyz";
    strbuf sb;
    sb_init(&sb);
    size_t at = p->body_begin;
    for (;;) {
        /* the next access to replace, in source order */
        long next = -1;
        const char *with = NULL;
        for (size_t j = 0; j < k->body.len; j++) {
            const body_node *s = &k->body.items[j];
            if (s->kind != BODY_SUBSCRIPT || !s->base || s->range.begin < at ||
                s->range.end > p->body_end || (next >= 0 && s->range.begin >= k->body.items[next].range.begin))
                continue;
            const char *sq = pol_squeeze(pol_text(m, &s->index, a), a);
            for (size_t t = 0; tiles && t < p->n_tiles; t++)
                if (!s->is_write && strcmp(p->tiles[t].base, s->base) == 0 &&
                    strcmp(p->tiles[t].squeezed, sq) == 0) {
                    next = (long)j;
                    with = arena_printf(a, "cl1_tile%zu[threadIdx.%c][%s - cl1_k0]", t,
                                        dims[p->tiles[t].dim], p->loop_var);
                }
            for (size_t c = 0; c < p->n_accs; c++)
                if (strcmp(p->accs[c].base, s->base) == 0) {
                    next = (long)j;
                    with = arena_printf(a, "cl1_acc%zu", c);
                }
        }
        if (next < 0)
            break;
        const body_node *s = &k->body.items[next];
        sb_append(&sb, p->text + at, s->range.begin - at);
        sb_puts(&sb, with);
        at = s->range.end;
    }
    sb_append(&sb, p->text + at, p->body_end - at);
    const char *out = arena_strdup(a, sb_str(&sb));
    sb_free(&sb);
    /* the sums kept in variables (STAGE_SCALAR_SUMS) */
    for (size_t c = 0; c < p->n_accs; c++)
        if (!p->accs[c].index)
            out = stage_substitute(out, p->accs[c].base, arena_printf(a, "cl1_acc%zu", c), a);
    return out;
}

void stage_replace_guard(const kernel *k, const stage_plan *p, const char *replacement,
                         const char *else_cond, arena *a, pol_edit_vec *out)
{
    size_t guard_begin = k->body.items[p->guard].range.begin;
    int blanks;
    const char *indent = pol_indent(p->text, pol_line_start(p->text, guard_begin, &blanks), a);
    const char *nl = pol_newline(p->text, p->len, guard_begin);
    strbuf text;
    sb_init(&text);
    for (const char *c = replacement; *c; c++) {
        if (*c == '\n')
            sb_printf(&text, "%s%s", nl, blanks ? indent : "");
        else
            sb_putc(&text, *c);
    }
    const char *original = arena_printf(a, "%.*s", (int)(p->guard_end - guard_begin), p->text + guard_begin);
    /* an early return's guard runs to the kernel's end: braced whole */
    if (p->early_return)
        original = arena_printf(a, "{%s%s%s%s}%s", nl, blanks ? indent : "", pol_trim(original, strlen(original), a),
                                nl, nl);
    if (else_cond)
        sb_printf(&text, "} else if (%s) %s", else_cond, original);
    else
        sb_printf(&text, "} else %s", original);
    pol_edit e = {guard_begin, p->guard_end, arena_strdup(a, sb_str(&text)), 0};
    sb_free(&text);
    vec_push(out, e);
}

/* the loop's body, one statement "NAME += E;" after another (braces
 * around them allowed), E free of NAME: 1 when NAME is such a sum's */
static int only_summed(const char *body, const char *name, arena *a)
{
    const char *sq = pol_squeeze(body, a);
    size_t n = strlen(sq);
    while (n >= 2 && sq[0] == '{' && sq[n - 1] == '}')
        sq = arena_printf(a, "%.*s", (int)(n - 2), sq + 1), n -= 2;
    const char *parts[33];
    size_t np = stage_split_top(sq, ";", a, parts, 32);
    int sums = 0;
    for (size_t i = 0; np <= 32 && i < np; i++) {
        if (!*parts[i])
            continue;
        if (!pol_mentions(parts[i], name))
            continue;
        size_t l = strlen(name);
        if (strncmp(parts[i], name, l) != 0 || strncmp(parts[i] + l, "+=", 2) != 0 ||
            pol_mentions(parts[i] + l + 2, name))
            return 0;
        sums++;
    }
    return np <= 32 && sums > 0;
}

int stage_summed_declaration(const stage_plan *p, const char *st, arena *a, const char **type,
                             const char **name, const char **init)
{
    char t[16], id[64];
    int used = 0;
    if (sscanf(st, "%15s %63[A-Za-z0-9_] =%n", t, id, &used) != 2 || used == 0 ||
        (strcmp(t, "float") != 0 && strcmp(t, "double") != 0 && strcmp(t, "int") != 0) ||
        strcmp(id, p->loop_var) == 0)
        return 0;
    const char *body = arena_printf(a, "%.*s", (int)(p->body_end - p->body_begin), p->text + p->body_begin);
    if (!only_summed(body, id, a))
        return 0;
    *type = arena_strdup(a, t);
    *name = arena_strdup(a, id);
    *init = pol_trim(st + used, strlen(st + used), a);
    return 1;
}

/* STAGE_SCALAR_SUMS: the summed declarations of P (stage_summed_declaration)
 * whose INIT reads, calls and assigns nothing become accumulators without
 * an index (the variable itself), their declarations kept whole in
 * pre_decls; returns P without them */
static const char *scalar_sums(stage_plan *p, const char *P, strbuf *pre_decls, arena *a)
{
    const char *parts[65];
    size_t n = stage_split_top(P, ";", a, parts, 64);
    if (n > 64 || forbidden_words(P) || strchr(P, '{'))
        return P;
    strbuf rest;
    sb_init(&rest);
    for (size_t i = 0; i < n; i++) {
        const char *st = pol_trim(parts[i], strlen(parts[i]), a);
        const char *type, *name, *init;
        if (*st && p->n_accs < max_accs && stage_summed_declaration(p, st, a, &type, &name, &init) &&
            !strpbrk(init, "[(=?") && !strstr(init, "++") && !strstr(init, "--")) {
            p->accs[p->n_accs++] = (accum){name, NULL, name, type};
            sb_printf(pre_decls, " %s;", st);
        } else if (*st)
            sb_printf(&rest, "%s;", parts[i]);
    }
    const char *out = arena_strdup(a, sb_str(&rest));
    sb_free(&rest);
    return out;
}

int stage_prepare(const tu_model *m, const kernel *k, const pol_facts *f, stage_plan *p, arena *a,
                  const char **why)
{
    memset(p, 0, sizeof *p);
    if (f->block[0] <= 0 || f->block[1] <= 0 || f->block[2] <= 0) {
        *why = "the captured launches do not agree on one block shape";
        return 1;
    }
    if (!f->pointers_distinct || !pol_launch_sites_distinct(m, k)) {
        *why = "the captured launches do not show the pointers as distinct allocations";
        return 1;
    }
    p->text = pol_file_text(m, &k->body_range, &p->len);
    if (!p->text || k->decl_range.end > p->len ||
        memmem(p->text + k->decl_range.begin, k->decl_range.end - k->decl_range.begin, "cl1_", 4)) {
        *why = "no source text, or names of ours in use";
        return 1;
    }
    stage_find_thread_vars(m, k, p, a);
    return 0;
}

int stage_analyse(const tu_model *m, const kernel *k, const pol_facts *f, int flags, arena *a,
                  stage_plan *p, strbuf *pre_decls, strbuf *pre, strbuf *post_decls, strbuf *post,
                  const char **why)
{
    if (stage_prepare(m, k, f, p, a, why))
        return 1;
    int raw_after = flags & STAGE_RAW_AFTER;
    int after = raw_after ? STAGE_SHAPE_IFS_AFTER | (flags & STAGE_LOOPS_AFTER ? STAGE_SHAPE_LOOPS_AFTER : 0) : 0;
    if (stage_find_shape(m, k, p, after, a, why) ||
        find_accesses(m, k, p, flags & STAGE_NEED_TILES, a, why))
        return 1;
    const body_node *L = &k->body.items[p->loop];
    const char *P = arena_printf(a, "%.*s", (int)(L->range.begin - p->open - 1), p->text + p->open + 1);
    const char *Q = arena_printf(a, "%.*s", (int)(p->close - p->body_end), p->text + p->body_end);
    if (flags & STAGE_SCALAR_SUMS)
        P = scalar_sums(p, P, pre_decls, a);
    int q_bad = raw_after ? forbidden_words(Q) : split_statements(Q, 0, post_decls, post, a);
    if (raw_after && !q_bad)
        sb_puts(post, pol_trim(Q, strlen(Q), a));
    /* with loops after, the caller checks where the loop variable is read */
    int var_after = !(flags & STAGE_LOOPS_AFTER) && pol_mentions(Q, p->loop_var);
    if (split_statements(P, 1, pre_decls, pre, a) || q_bad || var_after) {
        *why = "the statements around the loop are not simple (declarations with values, "
               "blocks, comments, or the loop variable used after it)";
        return 1;
    }
    return 0;
}

void stage_open_shape_guard(strbuf *sb, const pol_facts *f)
{
    sb_printf(sb, "if (blockDim.x == %d && blockDim.y == %d && blockDim.z == %d) {\n", f->block[0],
              f->block[1], f->block[2]);
}

int stage_tile_columns(const stage_plan *p, const int *rows)
{
    for (int tk = 32; tk >= 8; tk /= 2) {
        long bytes = 0;
        for (size_t t = 0; t < p->n_tiles; t++)
            bytes += (long)rows[t] * (tk + 1) * element_size(p->tiles[t].type);
        if (bytes <= 40 * 1024)
            return tk;
    }
    return 0;
}

int pol_transform_stage(const tu_model *m, const kernel *k, const pol_facts *f, arena *a,
                        pol_edit_vec *out, const char **why)
{
    static const char dims[] = "xyz";
    stage_plan p;
    strbuf pre_decls, pre, post_decls, post;
    sb_init(&pre_decls), sb_init(&pre), sb_init(&post_decls), sb_init(&post);
    int bad = stage_analyse(m, k, f, STAGE_NEED_TILES, a, &p, &pre_decls, &pre, &post_decls, &post, why);
    int tile_rows[max_tiles], tk = 0;
    for (size_t t = 0; !bad && t < p.n_tiles; t++)
        tile_rows[t] = f->block[p.tiles[t].dim];
    if (!bad && !(tk = stage_tile_columns(&p, tile_rows))) {
        *why = "the tiles do not fit in shared memory";
        bad = 1;
    }
    const char *rowconds[max_tiles];
    for (size_t t = 0; !bad && t < p.n_tiles; t++)
        bad = !(rowconds[t] = stage_row_condition(&p, &p.tiles[t], a, why));
    if (bad) {
        if (!*why)
            *why = "the statements around the loop are not simple (declarations with values, "
                   "blocks, comments, or the loop variable used after it)";
        sb_free(&pre_decls), sb_free(&pre), sb_free(&post_decls), sb_free(&post);
        return 1;
    }
    int nt = f->block[0] * f->block[1] * f->block[2];
    const char *body = stage_render_body(m, k, &p, 1, a);
    const char *v = p.loop_var, *decl = p.var_type ? arena_printf(a, "%s ", p.var_type) : "";
    strbuf sb;
    sb_init(&sb);
    stage_open_shape_guard(&sb, f);
    for (size_t t = 0; t < p.n_tiles; t++)
        sb_printf(&sb, "\t__shared__ %s cl1_tile%zu[%d][%d];\n", p.tiles[t].type, t,
                  f->block[p.tiles[t].dim], tk + 1);
    sb_printf(&sb, "\tconst bool cl1_in = (%s);\n", p.cond);
    if (pre_decls.len)
        sb_printf(&sb, "\t%s\n", sb_str(&pre_decls) + 1);
    if (pre.len)
        sb_printf(&sb, "\tif (cl1_in) {%s }\n", sb_str(&pre));
    for (size_t c = 0; c < p.n_accs; c++)
        sb_printf(&sb, "\t%s cl1_acc%zu = 0;\n\tif (cl1_in) cl1_acc%zu = %s[%s];\n", p.accs[c].type, c,
                  c, p.accs[c].base, p.accs[c].index);
    sb_printf(&sb, "\tconst int cl1_tid = threadIdx.x + %d * (threadIdx.y + %d * threadIdx.z);\n",
              f->block[0], f->block[1]);
    sb_printf(&sb, "\tfor (int cl1_k0 = (%s); cl1_k0 < (%s); cl1_k0 += %d) {\n\t\t__syncthreads();\n",
              p.lower, p.upper, tk);
    for (size_t t = 0; t < p.n_tiles; t++) {
        const staged *st = &p.tiles[t];
        int rows = f->block[st->dim];
        sb_printf(&sb,
                  "\t\tfor (int cl1_t = cl1_tid; cl1_t < %d; cl1_t += %d) {\n"
                  "\t\t\tconst int cl1_row = blockIdx.%c * %d + cl1_t / %d;\n"
                  "\t\t\tconst int cl1_kx = cl1_k0 + cl1_t %% %d;\n"
                  "\t\t\tcl1_tile%zu[cl1_t / %d][cl1_t %% %d] = (cl1_kx < (%s) && %s) ? "
                  "%s[(cl1_row) * (%s) + cl1_kx] : (%s)0;\n\t\t}\n",
                  rows * tk, nt, dims[st->dim], rows, tk, tk, t, tk, tk, p.upper, rowconds[t],
                  st->base, st->stride, st->type);
    }
    sb_printf(&sb,
              "\t\t__syncthreads();\n\t\tif (cl1_in) {\n"
              "\t\t\tif (cl1_k0 + %d <= (%s)) {\n\t\t\t\t#pragma unroll\n"
              "\t\t\t\tfor (%s%s = cl1_k0; %s < cl1_k0 + %d; %s++)%s\n"
              "\t\t\t} else {\n\t\t\t\tfor (%s%s = cl1_k0; %s < (%s); %s++)%s\n\t\t\t}\n\t\t}\n\t}\n",
              tk, p.upper, decl, v, v, tk, v, body, decl, v, v, p.upper, v, body);
    strbuf tail;
    sb_init(&tail);
    for (size_t c = 0; c < p.n_accs; c++)
        sb_printf(&tail, " %s[%s] = cl1_acc%zu;", p.accs[c].base, p.accs[c].index, c);
    sb_puts(&tail, sb_str(&post));
    if (tail.len)
        sb_printf(&sb, "\tif (cl1_in) {%s }\n", sb_str(&tail));
    stage_replace_guard(k, &p, sb_str(&sb), NULL, a, out);
    sb_free(&sb), sb_free(&tail);
    sb_free(&pre_decls), sb_free(&pre), sb_free(&post_decls), sb_free(&post);
    return 0;
}
