/*
 * text.c: small text helpers over a kernel's source for the transforms.
 */
#include <ctype.h>
#include <string.h>

#include "internal.h"
#include "launch_rule.h"

int pol_ident_char(int c)
{
    return c == '_' || isalnum((unsigned char)c);
}

const char *pol_file_text(const tu_model *m, const src_range *r, size_t *len)
{
    const source_file *sf = model_file(m, r->file);
    if (!sf)
        return NULL;
    *len = sf->len;
    return sf->text;
}

const char *pol_text(const tu_model *m, const src_range *r, arena *a)
{
    const source_file *sf = model_file(m, r->file);
    if (!sf || r->end > sf->len || r->begin > r->end)
        return "";
    return arena_strndup(a, sf->text + r->begin, r->end - r->begin);
}

/* is the identifier at text[i] a member name ("v.x", "p->x")? */
static int member_name(const char *text, size_t begin, size_t i)
{
    while (i > begin && (text[i - 1] == ' ' || text[i - 1] == '\t'))
        i--;
    return i > begin && (text[i - 1] == '.' || (text[i - 1] == '>' && i - 1 > begin && text[i - 2] == '-'));
}

/* whole-identifier occurrences of name in text [begin, end), member names
 * left out when skip_members is set */
static size_t count_name(const char *text, size_t begin, size_t end, const char *name,
                         int skip_members)
{
    size_t n = strlen(name), count = 0;
    for (size_t i = begin; n && i + n <= end; i++) {
        if (memcmp(text + i, name, n) != 0 || (i > 0 && pol_ident_char(text[i - 1])) ||
            (i + n < end && pol_ident_char(text[i + n])))
            continue;
        count += !(skip_members && member_name(text, begin, i));
    }
    return count;
}

size_t pol_count_identifier(const char *text, size_t begin, size_t end, const char *name)
{
    return count_name(text, begin, end, name, 0);
}

size_t pol_count_variable(const char *text, size_t begin, size_t end, const char *name)
{
    return count_name(text, begin, end, name, 1);
}

int pol_mentions(const char *text, const char *name)
{
    return name && pol_count_identifier(text, 0, strlen(text), name) > 0;
}

const char *pol_trim(const char *s, size_t n, arena *a)
{
    while (n && (*s == ' ' || *s == '\t' || *s == '\n' || *s == '\r'))
        s++, n--;
    while (n && (s[n - 1] == ' ' || s[n - 1] == '\t' || s[n - 1] == '\n' || s[n - 1] == '\r'))
        n--;
    return arena_printf(a, "%.*s", (int)n, s);
}

size_t pol_identifiers(const char *s, arena *a, const char ***out)
{
    VEC(const char *) ids = {0};
    for (size_t i = 0; s[i];) {
        if (pol_ident_char(s[i]) && !isdigit((unsigned char)s[i])) {
            size_t j = i;
            while (pol_ident_char(s[j]))
                j++;
            const char *id = arena_strndup(a, s + i, j - i);
            int seen = 0;
            for (size_t k = 0; k < ids.len && !seen; k++)
                seen = strcmp(ids.items[k], id) == 0;
            if (!seen)
                vec_push(&ids, id);
            i = j;
        } else if (isdigit((unsigned char)s[i])) {
            while (pol_ident_char(s[i]) || s[i] == '.')
                i++;
        } else {
            i++;
        }
    }
    const char **copy = arena_alloc(a, (ids.len ? ids.len : 1) * sizeof *copy);
    if (ids.len)
        memcpy(copy, ids.items, ids.len * sizeof *copy);
    *out = copy;
    size_t n = ids.len;
    vec_free(&ids);
    return n;
}

const char *pol_squeeze(const char *s, arena *a)
{
    size_t n = strlen(s), j = 0;
    char *out = arena_alloc(a, n + 1);
    for (size_t i = 0; i < n; i++)
        if (!isspace((unsigned char)s[i]))
            out[j++] = s[i];
    out[j] = '\0';
    return out;
}

size_t pol_line_start(const char *text, size_t offset, int *only_blanks)
{
    size_t i = offset;
    int blanks = 1;
    while (i > 0 && text[i - 1] != '\n') {
        if (text[i - 1] != ' ' && text[i - 1] != '\t')
            blanks = 0;
        i--;
    }
    if (only_blanks)
        *only_blanks = blanks;
    return i;
}

const char *pol_indent(const char *text, size_t line_start, arena *a)
{
    size_t j = line_start;
    while (text[j] == ' ' || text[j] == '\t')
        j++;
    return arena_strndup(a, text + line_start, j - line_start);
}

int pol_pragma_before(const char *text, size_t line_start)
{
    if (line_start == 0)
        return 0;
    size_t prev = pol_line_start(text, line_start - 1, NULL);
    while (text[prev] == ' ' || text[prev] == '\t')
        prev++;
    return strncmp(text + prev, "#pragma", 7) == 0 || strncmp(text + prev, "_Pragma", 7) == 0;
}

const char *pol_pointee_type(const kernel_param *p, arena *a)
{
    if (!p->is_pointer)
        return NULL;
    /* as spelled ("const T *", "DATA_TYPE *"): the names are in scope where
     * the kernel is; the canonical type only for a typedef'd pointer */
    const char *t = p->type;
    if (!strchr(t, '*'))
        t = p->canonical_type;
    if (strstr(t, "type-parameter"))
        return NULL;
    const char *star = strrchr(t, '*');
    if (!star || strchr(t, '*') != star || strchr(t, '(') || strchr(t, '['))
        return NULL;
    char *base = arena_strndup(a, t, (size_t)(star - t));
    /* drop const and volatile words, and trailing blanks */
    char *out = arena_alloc(a, strlen(base) + 1);
    out[0] = '\0';
    size_t n = 0;
    char *save = NULL;
    for (char *w = strtok_r(base, " \t", &save); w; w = strtok_r(NULL, " \t", &save)) {
        if (strcmp(w, "const") == 0 || strcmp(w, "volatile") == 0 ||
            strcmp(w, "__restrict__") == 0 || strcmp(w, "__restrict") == 0 ||
            strcmp(w, "restrict") == 0)
            continue;
        if (n++)
            strcat(out, " ");
        strcat(out, w);
    }
    return n ? out : NULL;
}

const kernel_param *pol_param(const kernel *k, const char *name)
{
    for (size_t i = 0; name && i < k->params.len; i++)
        if (strcmp(k->params.items[i].name, name) == 0)
            return &k->params.items[i];
    return NULL;
}

long pol_enclosing_loop(const kernel *k, size_t i, int direct)
{
    for (long p = k->body.items[i].parent; p >= 0; p = k->body.items[p].parent) {
        if (k->body.items[p].kind == BODY_LOOP)
            return p;
        if (direct && k->body.items[p].kind == BODY_IF)
            return -1;
    }
    return -1;
}

int pol_node_inside(const kernel *k, size_t j, size_t i)
{
    const src_range *a = &k->body.items[i].range, *b = &k->body.items[j].range;
    return b->begin >= a->begin && b->end <= a->end && j != i;
}

const char *pol_newline(const char *text, size_t len, size_t offset)
{
    while (offset < len && text[offset] != '\n')
        offset++;
    return offset < len && offset > 0 && text[offset - 1] == '\r' ? "\r\n" : "\n";
}

/* the body reads through p and does nothing else with it */
int pol_param_read_only(const tu_model *m, const kernel *k, const char *name)
{
    size_t len;
    const char *text = pol_file_text(m, &k->body_range, &len);
    if (!text || k->body_range.end > len)
        return 0;
    size_t reads = 0;
    for (size_t i = 0; i < k->body.len; i++) {
        const body_node *n = &k->body.items[i];
        if (n->kind != BODY_SUBSCRIPT || !n->base || strcmp(n->base, name) != 0)
            continue;
        if (n->is_write)
            return 0;
        /* &p[i] takes an address (atomicAdd(&p[i], v) writes through it) */
        size_t before = n->range.begin;
        while (before > k->body_range.begin && (text[before - 1] == ' ' || text[before - 1] == '\t'))
            before--;
        if (before > k->body_range.begin && text[before - 1] == '&' &&
            (before < 2 || text[before - 2] != '&'))
            return 0;
        reads++;
    }
    return reads > 0 &&
           reads == pol_count_variable(text, k->body_range.begin, k->body_range.end, name);
}

int pol_launch_sites_distinct(const tu_model *m, const kernel *k)
{
    size_t self = (size_t)(k - m->kernels.items);
    for (size_t l = 0; l < m->launches.len; l++) {
        const launch_site *s = &m->launches.items[l];
        if (s->kernel_index != (long)self)
            continue;
        for (size_t i = 0; i < s->args.len && i < k->params.len; i++)
            for (size_t j = i + 1; j < s->args.len && j < k->params.len; j++)
                if (k->params.items[i].is_pointer && k->params.items[j].is_pointer &&
                    strcmp(s->args.items[i].text, s->args.items[j].text) == 0)
                    return 0;
    }
    return 1;
}


pol_edit pol_launch_marker(const tu_model *m, const kernel *k, const launch_rule *r, arena *a)
{
    size_t len;
    const char *text = pol_file_text(m, &k->decl_range, &len);
    char rule[LAUNCH_RULE_TEXT_MAX];
    pol_edit e = {k->decl_range.begin, k->decl_range.begin,
                  arena_printf(a, "%s%s */%s", CL1_LAUNCH_MARKER, launch_rule_text(r, rule),
                               text ? pol_newline(text, len, k->decl_range.begin) : "\n"),
                  0};
    return e;
}

pol_edit pol_grid_y_marker(const tu_model *m, const kernel *k, int factor, arena *a)
{
    launch_rule r = launch_rule_none();
    r.grid_y = factor;
    return pol_launch_marker(m, k, &r, a);
}

void pol_taller_block_ids(const tu_model *m, const kernel *k, int factor, strbuf *sb, const char **bx,
                          const char **by)
{
    *bx = "blockIdx.x", *by = "blockIdx.y";
    if (factor < 2 || pol_other_thread_identity(m, k, 1))
        return;
    sb_printf(sb,
              "\tconst long long cl1_lin = gridDim.y == %d ? (long long)blockIdx.y * gridDim.x + blockIdx.x : -1;\n"
              "\tconst int cl1_bx = cl1_lin >= 0 ? (int)(cl1_lin / %d) : (int)blockIdx.x;\n"
              "\tconst int cl1_by = cl1_lin >= 0 ? (int)(cl1_lin %% %d) : (int)blockIdx.y;\n",
              factor, factor, factor);
    *bx = "cl1_bx", *by = "cl1_by";
}

size_t pol_assignments(const tu_model *m, const kernel *k, const char *name, arena *a)
{
    size_t n = 0;
    for (size_t i = 0; i < k->body.len; i++) {
        const body_node *b = &k->body.items[i];
        if (b->kind == BODY_ASSIGN && strcmp(pol_squeeze(pol_text(m, &b->target, a), a), name) == 0)
            n++;
    }
    return n;
}

int pol_block_uniform(const tu_model *m, const kernel *k, const char *expr, arena *a)
{
    if (strchr(expr, '[') || strstr(expr, "++") || strstr(expr, "--") || pol_mentions(expr, "threadIdx"))
        return 0;
    const char **ids;
    size_t n = pol_identifiers(expr, a, &ids);
    for (size_t i = 0; i < n; i++)
        if (pol_assignments(m, k, ids[i], a))
            return 0;
    return 1;
}
