/*
 * apply_specialize.c: a template kernel's variant as explicit
 * specializations of the template, one per instantiation it was verified
 * on, right after the template.  Used where some launch of the kernel
 * names no instantiation (its template arguments deduced inside a
 * function template): no launch edit can pick a copy there, while a
 * specialization is what every launch of that instantiation runs, and
 * every other instantiation still runs the template.
 */
#include "apply.h"

#include <ctype.h>
#include <string.h>

#include "cuda_text.h"

/* the parts of a kernel template's text: [head_end, name) what comes
 * between its template header and its name, the parameter list's
 * brackets, and the body's */
typedef struct template_text {
    size_t head_end, name, params_open, params_close, body_open, body_close;
} template_text;

static int is_ident(char c)
{
    return isalnum((unsigned char)c) || c == '_';
}

/* the end of "template <...>" at the start of t (just past its '>') */
static size_t header_end(const char *t, size_t len)
{
    size_t i = ctext_skip_blanks(t, len, 0);
    if (len - i < 8 || strncmp(t + i, "template", 8) != 0)
        return 0;
    i = ctext_skip_blanks(t, len, i + 8);
    if (i >= len || t[i] != '<')
        return 0;
    int depth = 0;
    for (; i < len; i++) {
        size_t skipped = ctext_skip_comment(t, len, i);
        if (skipped == i)
            skipped = ctext_skip_literal(t, len, i);
        if (skipped != i) {
            i = skipped - 1;
        } else if (t[i] == '(' || t[i] == '[' || t[i] == '{') {
            size_t close = ctext_close_bracket(t, len, i);
            if (!close)
                return 0;
            i = close;
        } else if (t[i] == '<') {
            depth++;
        } else if (t[i] == '>' && --depth == 0) {
            return i + 1;
        }
    }
    return 0;
}

static int split_template(const char *t, const char *name, template_text *out)
{
    size_t len = strlen(t), n = strlen(name);
    memset(out, 0, sizeof *out);
    out->head_end = header_end(t, len);
    if (!out->head_end)
        return -1;
    for (size_t i = out->head_end; i + n <= len; i++) {
        size_t skipped = ctext_skip_comment(t, len, i);
        if (skipped == i)
            skipped = ctext_skip_literal(t, len, i);
        if (skipped != i) {
            i = skipped - 1;
            continue;
        }
        if (strncmp(t + i, name, n) != 0 || (i > 0 && is_ident(t[i - 1])) || is_ident(t[i + n]))
            continue;
        size_t open = ctext_skip_blanks(t, len, i + n);
        if (open >= len || t[open] != '(')
            continue;
        out->name = i;
        out->params_open = open;
        out->params_close = ctext_close_bracket(t, len, open);
        if (!out->params_close)
            return -1;
        const char *brace = strchr(t + out->params_close, '{');
        if (!brace)
            return -1;
        out->body_open = (size_t)(brace - t);
        out->body_close = ctext_close_bracket(t, len, out->body_open);
        return out->body_close ? 0 : -1;
    }
    return -1;
}

/* the template arguments of "ns::k<float, 128>" (ctext_template_args),
 * none for an instantiation of a type no code can name; the count, or -1 */
static int instance_args(const char *inst, size_t n, arena *a, const char **args, int max)
{
    if (memmem(inst, n, "(anonymous", 10) || memmem(inst, n, "(lambda", 7))
        return -1;
    return ctext_template_args(inst, n, a, args, max);
}

/* text with each word that names a template parameter replaced by its
 * argument (a value's in parentheses) */
static const char *substitute(const char *text, size_t len, const kernel *k,
                              const char *const *args, arena *a)
{
    strbuf out;
    sb_init(&out);
    for (size_t i = 0; i < len;) {
        if (!is_ident(text[i])) {
            sb_putc(&out, text[i++]);
            continue;
        }
        size_t e = i;
        while (e < len && is_ident(text[e]))
            e++;
        int done = 0;
        for (size_t p = 0; p < k->template_params.len && !done && !isdigit((unsigned char)text[i]);
             p++) {
            const template_param *tp = &k->template_params.items[p];
            if (tp->name && strlen(tp->name) == e - i && strncmp(text + i, tp->name, e - i) == 0) {
                sb_printf(&out, strcmp(tp->kind, "value") == 0 ? "(%s)" : "%s", args[p]);
                done = 1;
            }
        }
        if (!done)
            sb_printf(&out, "%.*s", (int)(e - i), text + i);
        i = e;
    }
    const char *s = arena_strdup(a, sb_str(&out));
    sb_free(&out);
    return s;
}

/* the variant's parameter declarations (the text between its brackets,
 * split at top-level commas, blanks trimmed) into decls; the count, or -1 */
static int split_params(const char *t, size_t open, size_t close, arena *a, const char **decls,
                        int max)
{
    int count = 0, depth = 0;
    size_t start = open + 1;
    for (size_t i = open + 1; i <= close; i++) {
        char c = t[i];
        if (i < close && (c == '<' || c == '(' || c == '[' || c == '{'))
            depth++;
        else if (i < close && (c == '>' || c == ')' || c == ']' || c == '}'))
            depth--;
        else if (i == close || (c == ',' && depth == 0)) {
            size_t b = start, e = i;
            while (b < e && isspace((unsigned char)t[b]))
                b++;
            while (e > b && isspace((unsigned char)t[e - 1]))
                e--;
            if (e > b || i != close || count) {
                if (count == max)
                    return -1;
                decls[count++] = arena_strndup(a, t + b, e - b);
            }
            start = i + 1;
        }
    }
    return count;
}

/* whether a parameter declaration names its parameter: its last word is
 * no type word (an unnamed "int" or "const T *" declares no local) */
static int names_parameter(const char *decl, const kernel *k)
{
    size_t e = strlen(decl), b = e;
    while (b > 0 && is_ident(decl[b - 1]))
        b--;
    if (b == e || b == 0)
        return 0;
    static const char *const type_words[] = {"int", "float", "double", "char", "unsigned",
                                             "long", "short", "bool", "signed", "void",
                                             "size_t", "__restrict__", "const", "volatile"};
    for (size_t i = 0; i < sizeof type_words / sizeof type_words[0]; i++)
        if (strlen(type_words[i]) == e - b && strncmp(decl + b, type_words[i], e - b) == 0)
            return 0;
    for (size_t i = 0; i < k->template_params.len; i++) {
        const char *n = k->template_params.items[i].name;
        if (n && strlen(n) == e - b && strncmp(decl + b, n, e - b) == 0)
            return 0;
    }
    return 1;
}

/* a parameter declaration as a local's ("__grid_constant__ " dropped) */
static const char *as_local(const char *decl, arena *a)
{
    const char *g = strstr(decl, "__grid_constant__");
    if (!g)
        return decl;
    return arena_printf(a, "%.*s%s", (int)(g - decl), decl, g + strlen("__grid_constant__"));
}

/* The specialization of the variant's template t for inst.  Its
 * parameters are the template's own types (a specialization must match
 * the template's declaration exactly: the host stub nvcc makes for it is
 * matched on them), named cl1cc_pN; the body first declares the variant's
 * parameters as locals initialised from them (their __restrict__ and
 * const kept), and the template's parameters as typedefs and constants. */
static const char *specialization(const kernel *k, const char *t, const template_text *tt,
                                  const char *inst, size_t inst_len, arena *a, strbuf *why)
{
    const char *args[64];
    int n = instance_args(inst, inst_len, a, args, 64);
    if (n < 0 || (size_t)n != k->template_params.len) {
        sb_printf(why, "the instantiation %.*s cannot be spelled as a specialization",
                  (int)inst_len, inst);
        return NULL;
    }
    const char *decls[64];
    int nd = split_params(t, tt->params_open, tt->params_close, a, decls, 64);
    if (nd < 0 || (size_t)nd != k->params.len) {
        sb_puts(why, "the variant's parameters are not the kernel's");
        return NULL;
    }
    for (size_t i = 0; i < k->params.len; i++) {
        const char *type = k->params.items[i].type;
        if (!type || strpbrk(type, "([") || strstr(type, "...")) {
            sb_puts(why, "a parameter type with a declarator around its name");
            return NULL;
        }
    }
    strbuf s;
    sb_init(&s);
    sb_printf(&s, "\ntemplate <> %.*s%s<", (int)(tt->name - tt->head_end), t + tt->head_end,
              k->name);
    for (int i = 0; i < n; i++)
        sb_printf(&s, "%s%s", i ? ", " : "", args[i]);
    sb_puts(&s, ">(");
    for (size_t i = 0; i < k->params.len; i++) {
        const char *type = k->params.items[i].type;
        sb_printf(&s, "%s%s cl1cc_p%zu", i ? ", " : "", substitute(type, strlen(type), k, args, a),
                  i);
    }
    sb_printf(&s, ")%.*s{", (int)(tt->body_open - tt->params_close - 1), t + tt->params_close + 1);
    /* the template's parameters, as the body names them */
    for (int i = 0; i < n; i++) {
        const template_param *tp = &k->template_params.items[i];
        if (strcmp(tp->kind, "type") == 0) {
            sb_printf(&s, " typedef %s %s; (void)sizeof(%s);", args[i], tp->name, tp->name);
        } else if (strcmp(tp->kind, "value") == 0 && tp->type) {
            const char *type = substitute(tp->type, strlen(tp->type), k, args, a);
            sb_printf(&s, " constexpr %s %s = (%s); (void)%s;", type, tp->name, args[i], tp->name);
        } else {
            sb_printf(why, "template parameter %s of %s is a template or of unknown type",
                      tp->name ? tp->name : "?", k->name);
            sb_free(&s);
            return NULL;
        }
    }
    for (int i = 0; i < nd; i++) {
        if (!names_parameter(decls[i], k))
            continue;
        const char *local = as_local(substitute(decls[i], strlen(decls[i]), k, args, a), a);
        sb_printf(&s, " %s = cl1cc_p%d;", local, i);
    }
    sb_printf(&s, "%.*s\n", (int)(tt->body_close - tt->body_open), t + tt->body_open + 1);
    const char *out = arena_strdup(a, sb_str(&s));
    sb_free(&s);
    return out;
}

int apply_has_deduced_launch(const tu_model *m, size_t kernel_index)
{
    for (size_t i = 0; i < m->launches.len; i++) {
        const launch_site *s = &m->launches.items[i];
        if (s->kernel_index == (long)kernel_index && !s->template_args && !s->in_macro &&
            !s->range.in_macro)
            return 1;
    }
    return 0;
}

int apply_specializations(const apply_place *p, const tunedb_variant *v, arena *a,
                          const char **after, strbuf *why)
{
    const kernel *k = &p->model->kernels.items[p->kernel_index];
    for (size_t i = 0; i < k->template_params.len; i++)
        if (!k->template_params.items[i].name || !*k->template_params.items[i].name ||
            strstr(k->template_params.items[i].name, "...")) {
            sb_puts(why, "an unnamed template parameter or a pack: no specialization");
            return -1;
        }
    template_text tt;
    if (split_template(v->source, k->name, &tt) != 0) {
        sb_puts(why, "the variant's template could not be read");
        return -1;
    }
    strbuf all;
    sb_init(&all);
    int rc = 0;
    for (const char *q = v->instances; q && *q && rc == 0;) {
        size_t n = strcspn(q, "\n");
        const char *spec = n ? specialization(k, v->source, &tt, q, n, a, why) : "";
        if (!spec)
            rc = -1;
        else
            sb_puts(&all, spec);
        q += n + (q[n] == '\n');
    }
    if (rc == 0 && !all.len) {
        sb_puts(why, "a template kernel's variant verified on no named instantiation");
        rc = -1;
    }
    if (rc == 0)
        *after = arena_strdup(a, sb_str(&all));
    sb_free(&all);
    return rc;
}
