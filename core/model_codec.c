/*
 * model_codec.c: a tu_model as bytes and back, so the frontend can parse in
 * a child process (where a crash of libclang cannot take cl1cc down) and
 * hand the model to its parent.  The format is private to one cl1cc binary:
 * both ends are the same build, so it carries no version.
 */
#include "model.h"

#include <string.h>

/* ---- writing ------------------------------------------------------------ */

static void put_u64(strbuf *b, uint64_t v)
{
    unsigned char bytes[8];
    for (int i = 0; i < 8; i++)
        bytes[i] = (unsigned char)(v >> (8 * i));
    sb_append(b, (const char *)bytes, 8);
}

static void put_i64(strbuf *b, int64_t v) { put_u64(b, (uint64_t)v); }

static void put_double(strbuf *b, double d)
{
    uint64_t v;
    memcpy(&v, &d, sizeof v);
    put_u64(b, v);
}

/* NULL and "" differ: NULL is written as the length UINT64_MAX */
static void put_bytes(strbuf *b, const char *s, size_t len)
{
    if (!s) {
        put_u64(b, UINT64_MAX);
        return;
    }
    put_u64(b, len);
    sb_append(b, s, len);
}

static void put_str(strbuf *b, const char *s) { put_bytes(b, s, s ? strlen(s) : 0); }

static void put_range(strbuf *b, const src_range *r)
{
    put_str(b, r->file);
    put_u64(b, r->begin);
    put_u64(b, r->end);
    put_u64(b, r->line);
    put_u64(b, r->col);
    put_u64(b, r->end_line);
    put_u64(b, r->end_col);
    put_i64(b, r->in_macro);
    put_i64(b, r->present);
}

static void put_body_node(strbuf *b, const body_node *n)
{
    put_i64(b, n->kind);
    put_range(b, &n->range);
    put_i64(b, n->parent);
    put_i64(b, n->loop_depth);
    put_str(b, n->loop_kind);
    put_str(b, n->loop_var);
    put_range(b, &n->loop_body);
    put_i64(b, n->has_inner_loop);
    put_str(b, n->op);
    put_range(b, &n->target);
    put_str(b, n->base);
    put_range(b, &n->index);
    put_i64(b, n->is_write);
    put_str(b, n->callee);
    put_str(b, n->loop_lower);
    put_str(b, n->loop_cmp);
    put_str(b, n->loop_bound);
    put_str(b, n->loop_step);
    put_i64(b, n->flops);
    put_str(b, n->expr);
}

static void put_kernel(strbuf *b, const kernel *k)
{
    put_str(b, k->name);
    put_str(b, k->qualified_name);
    put_str(b, k->mangled);
    put_str(b, k->usr);
    put_str(b, k->signature);
    put_u64(b, k->template_params.len);
    for (size_t i = 0; i < k->template_params.len; i++) {
        put_str(b, k->template_params.items[i].kind);
        put_str(b, k->template_params.items[i].name);
        put_str(b, k->template_params.items[i].type);
    }
    put_u64(b, k->params.len);
    for (size_t i = 0; i < k->params.len; i++) {
        const kernel_param *p = &k->params.items[i];
        put_str(b, p->name);
        put_str(b, p->type);
        put_str(b, p->canonical_type);
        put_i64(b, p->is_pointer);
        put_i64(b, p->pointee_const);
        put_i64(b, p->is_restrict);
        put_i64(b, p->size_bytes);
        put_range(b, &p->range);
    }
    put_range(b, &k->decl_range);
    put_range(b, &k->body_range);
    put_range(b, &k->name_range);
    put_str(b, k->launch_bounds);
    put_i64(b, k->is_template);
    put_i64(b, k->is_specialization);
    put_i64(b, k->is_static);
    put_i64(b, k->is_extern_c);
    put_i64(b, k->is_definition);
    put_u64(b, k->deps.len);
    for (size_t i = 0; i < k->deps.len; i++)
        put_u64(b, k->deps.items[i]);
    put_u64(b, k->body.len);
    for (size_t i = 0; i < k->body.len; i++)
        put_body_node(b, &k->body.items[i]);
    put_i64(b, k->body_in_macro);
    put_i64(b, k->body_flops);
}

static void put_launch_arg(strbuf *b, const launch_arg *a)
{
    put_str(b, a->text);
    put_range(b, &a->range);
}

static void put_launch(strbuf *b, const launch_site *l)
{
    put_str(b, l->kernel_name);
    put_str(b, l->kernel_usr);
    put_i64(b, l->kernel_index);
    put_str(b, l->template_args);
    put_str(b, l->caller);
    put_range(b, &l->range);
    put_range(b, &l->config_range);
    put_launch_arg(b, &l->grid);
    put_launch_arg(b, &l->block);
    put_launch_arg(b, &l->shmem);
    put_launch_arg(b, &l->stream);
    put_u64(b, l->args.len);
    for (size_t i = 0; i < l->args.len; i++)
        put_launch_arg(b, &l->args.items[i]);
    put_i64(b, l->in_macro);
}

void model_encode(const tu_model *m, strbuf *out)
{
    put_str(out, m->main_file);
    put_u64(out, m->files.len);
    for (size_t i = 0; i < m->files.len; i++) {
        put_str(out, m->files.items[i].path);
        put_bytes(out, m->files.items[i].text, m->files.items[i].len);
    }
    put_u64(out, m->kernels.len);
    for (size_t i = 0; i < m->kernels.len; i++)
        put_kernel(out, &m->kernels.items[i]);
    put_u64(out, m->launches.len);
    for (size_t i = 0; i < m->launches.len; i++)
        put_launch(out, &m->launches.items[i]);
    put_u64(out, m->decls.len);
    for (size_t i = 0; i < m->decls.len; i++) {
        const dependency *d = &m->decls.items[i];
        put_i64(out, d->kind);
        put_str(out, d->name);
        put_str(out, d->usr);
        put_str(out, d->space);
        put_i64(out, d->is_extern);
        put_range(out, &d->range);
    }
    put_u64(out, m->skipped.len);
    for (size_t i = 0; i < m->skipped.len; i++) {
        put_str(out, m->skipped.items[i].name);
        put_range(out, &m->skipped.items[i].decl_range);
        put_str(out, m->skipped.items[i].reason);
    }
    put_u64(out, m->ignored_errors);
    put_str(out, m->first_ignored_error);
    put_range(out, &m->main_function_name);
    put_double(out, m->parse_seconds);
}

/* ---- reading ------------------------------------------------------------ */

typedef struct reader {
    const unsigned char *p, *end;
    tu_model *m;
    int bad;
} reader;

static uint64_t get_u64(reader *r)
{
    if (r->bad || r->end - r->p < 8) {
        r->bad = 1;
        return 0;
    }
    uint64_t v = 0;
    for (int i = 0; i < 8; i++)
        v |= (uint64_t)r->p[i] << (8 * i);
    r->p += 8;
    return v;
}

static int64_t get_i64(reader *r) { return (int64_t)get_u64(r); }
static int get_int(reader *r) { return (int)get_i64(r); }
static unsigned get_unsigned(reader *r) { return (unsigned)get_u64(r); }

static double get_double(reader *r)
{
    uint64_t v = get_u64(r);
    double d;
    memcpy(&d, &v, sizeof d);
    return d;
}

/* a count of items of at least min_size bytes each: never more than the
 * bytes left could hold */
static size_t get_count(reader *r, size_t min_size)
{
    uint64_t n = get_u64(r);
    if (r->bad || n > (uint64_t)(r->end - r->p) / min_size) {
        r->bad = 1;
        return 0;
    }
    return (size_t)n;
}

static const char *get_bytes(reader *r, size_t *len)
{
    uint64_t n = get_u64(r);
    *len = 0;
    if (r->bad || n == UINT64_MAX)
        return NULL;
    if (n > (uint64_t)(r->end - r->p)) {
        r->bad = 1;
        return NULL;
    }
    char *s = arena_strndup(&r->m->strings, (const char *)r->p, (size_t)n);
    r->p += n;
    *len = (size_t)n;
    return s;
}

static const char *get_str(reader *r)
{
    size_t len;
    return get_bytes(r, &len);
}

/* paths point at the model's own file entries, as the frontend's do:
 * stages compare them by pointer */
static const char *get_path(reader *r)
{
    const char *s = get_str(r);
    const source_file *sf = model_file(r->m, s);
    return sf ? sf->path : s;
}

static src_range get_range(reader *r)
{
    src_range x;
    memset(&x, 0, sizeof x);
    x.file = get_path(r);
    x.begin = get_unsigned(r);
    x.end = get_unsigned(r);
    x.line = get_unsigned(r);
    x.col = get_unsigned(r);
    x.end_line = get_unsigned(r);
    x.end_col = get_unsigned(r);
    x.in_macro = get_int(r);
    x.present = get_int(r);
    return x;
}

static void get_body_node(reader *r, body_node *n)
{
    memset(n, 0, sizeof *n);
    n->kind = (body_kind)get_int(r);
    n->range = get_range(r);
    n->parent = (long)get_i64(r);
    n->loop_depth = get_int(r);
    n->loop_kind = get_str(r);
    n->loop_var = get_str(r);
    n->loop_body = get_range(r);
    n->has_inner_loop = get_int(r);
    n->op = get_str(r);
    n->target = get_range(r);
    n->base = get_str(r);
    n->index = get_range(r);
    n->is_write = get_int(r);
    n->callee = get_str(r);
    n->loop_lower = get_str(r);
    n->loop_cmp = get_str(r);
    n->loop_bound = get_str(r);
    n->loop_step = get_str(r);
    n->flops = (long)get_i64(r);
    n->expr = get_str(r);
}

static void get_kernel(reader *r, kernel *k)
{
    memset(k, 0, sizeof *k);
    k->name = get_str(r);
    k->qualified_name = get_str(r);
    k->mangled = get_str(r);
    k->usr = get_str(r);
    k->signature = get_str(r);
    size_t n = get_count(r, 24);
    for (size_t i = 0; i < n && !r->bad; i++) {
        template_param tp;
        tp.kind = get_str(r);
        tp.name = get_str(r);
        tp.type = get_str(r);
        vec_push(&k->template_params, tp);
    }
    n = get_count(r, 64);
    for (size_t i = 0; i < n && !r->bad; i++) {
        kernel_param p;
        p.name = get_str(r);
        p.type = get_str(r);
        p.canonical_type = get_str(r);
        p.is_pointer = get_int(r);
        p.pointee_const = get_int(r);
        p.is_restrict = get_int(r);
        p.size_bytes = get_i64(r);
        p.range = get_range(r);
        vec_push(&k->params, p);
    }
    k->decl_range = get_range(r);
    k->body_range = get_range(r);
    k->name_range = get_range(r);
    k->launch_bounds = get_str(r);
    k->is_template = get_int(r);
    k->is_specialization = get_int(r);
    k->is_static = get_int(r);
    k->is_extern_c = get_int(r);
    k->is_definition = get_int(r);
    n = get_count(r, 8);
    for (size_t i = 0; i < n && !r->bad; i++) {
        size_t d = (size_t)get_u64(r);
        vec_push(&k->deps, d);
    }
    n = get_count(r, 64);
    for (size_t i = 0; i < n && !r->bad; i++) {
        body_node node;
        get_body_node(r, &node);
        vec_push(&k->body, node);
    }
    k->body_in_macro = get_int(r);
    k->body_flops = (long)get_i64(r);
}

static launch_arg get_launch_arg(reader *r)
{
    launch_arg a;
    a.text = get_str(r);
    a.range = get_range(r);
    return a;
}

static void get_launch(reader *r, launch_site *l)
{
    memset(l, 0, sizeof *l);
    l->kernel_name = get_str(r);
    l->kernel_usr = get_str(r);
    l->kernel_index = (long)get_i64(r);
    l->template_args = get_str(r);
    l->caller = get_str(r);
    l->range = get_range(r);
    l->config_range = get_range(r);
    l->grid = get_launch_arg(r);
    l->block = get_launch_arg(r);
    l->shmem = get_launch_arg(r);
    l->stream = get_launch_arg(r);
    size_t n = get_count(r, 16);
    for (size_t i = 0; i < n && !r->bad; i++) {
        launch_arg a = get_launch_arg(r);
        vec_push(&l->args, a);
    }
    l->in_macro = get_int(r);
}

/* indices the stages follow must point inside the model */
static int indices_valid(const tu_model *m)
{
    for (size_t i = 0; i < m->kernels.len; i++)
        for (size_t d = 0; d < m->kernels.items[i].deps.len; d++)
            if (m->kernels.items[i].deps.items[d] >= m->decls.len)
                return 0;
    for (size_t i = 0; i < m->launches.len; i++) {
        long k = m->launches.items[i].kernel_index;
        if (k < -1 || (k >= 0 && (size_t)k >= m->kernels.len))
            return 0;
    }
    return 1;
}

int model_decode(const char *bytes, size_t len, tu_model *m)
{
    reader r = {(const unsigned char *)bytes, (const unsigned char *)bytes + len, m, 0};
    const char *main_file = get_str(&r);
    size_t n = get_count(&r, 16);
    for (size_t i = 0; i < n && !r.bad; i++) {
        source_file sf;
        sf.path = get_str(&r);
        sf.text = get_bytes(&r, &sf.len);
        if (!sf.path || !sf.text)
            r.bad = 1;
        else
            vec_push(&m->files, sf);
    }
    const source_file *main_sf = model_file(m, main_file);
    m->main_file = main_sf ? main_sf->path : main_file;
    n = get_count(&r, 64);
    for (size_t i = 0; i < n && !r.bad; i++) {
        kernel k;
        get_kernel(&r, &k);
        vec_push(&m->kernels, k);
    }
    n = get_count(&r, 64);
    for (size_t i = 0; i < n && !r.bad; i++) {
        launch_site l;
        get_launch(&r, &l);
        vec_push(&m->launches, l);
    }
    n = get_count(&r, 48);
    for (size_t i = 0; i < n && !r.bad; i++) {
        dependency d;
        d.kind = (decl_kind)get_int(&r);
        d.name = get_str(&r);
        d.usr = get_str(&r);
        d.space = get_str(&r);
        d.is_extern = get_int(&r);
        d.range = get_range(&r);
        vec_push(&m->decls, d);
    }
    n = get_count(&r, 24);
    for (size_t i = 0; i < n && !r.bad; i++) {
        skipped_kernel s;
        s.name = get_str(&r);
        s.decl_range = get_range(&r);
        s.reason = get_str(&r);
        vec_push(&m->skipped, s);
    }
    m->ignored_errors = get_unsigned(&r);
    m->first_ignored_error = get_str(&r);
    m->main_function_name = get_range(&r);
    m->parse_seconds = get_double(&r);
    if (r.bad || r.p != r.end || !m->main_file || !indices_valid(m))
        return -1;
    return 0;
}
