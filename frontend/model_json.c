/*
 * model_json.c: the JSON view of a tu_model, as `cl1cc inspect` prints it
 * and as prompts and reports consume it, and the text of a model's range.
 */
#include <cjson/cJSON.h>

#include "frontend.h"

const char *fe_range_text(const tu_model *m, const src_range *r, arena *a)
{
    const source_file *sf = model_file(m, r->file);
    if (!sf || r->end > sf->len || r->begin > r->end)
        return NULL;
    return arena_strndup(a, sf->text + r->begin, r->end - r->begin);
}

static cJSON *range_json(const src_range *r)
{
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "file", r->file ? r->file : "");
    cJSON_AddNumberToObject(o, "begin", r->begin);
    cJSON_AddNumberToObject(o, "end", r->end);
    cJSON_AddNumberToObject(o, "line", r->line);
    cJSON_AddNumberToObject(o, "col", r->col);
    cJSON_AddNumberToObject(o, "end_line", r->end_line);
    cJSON_AddNumberToObject(o, "end_col", r->end_col);
    cJSON_AddBoolToObject(o, "in_macro", r->in_macro);
    return o;
}

static void add_opt_string(cJSON *o, const char *key, const char *value)
{
    if (value)
        cJSON_AddStringToObject(o, key, value);
    else
        cJSON_AddNullToObject(o, key);
}

static cJSON *launch_arg_json(const launch_arg *a)
{
    if (!a->range.present)
        return cJSON_CreateNull();
    cJSON *o = range_json(&a->range);
    cJSON_AddStringToObject(o, "text", a->text ? a->text : "");
    return o;
}

static cJSON *kernel_json(const tu_model *m, const kernel *k, int with_text, arena *a)
{
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "name", k->name);
    cJSON_AddStringToObject(o, "qualified_name", k->qualified_name);
    cJSON_AddStringToObject(o, "mangled", k->mangled);
    cJSON_AddStringToObject(o, "usr", k->usr);
    cJSON_AddStringToObject(o, "signature", k->signature);
    cJSON_AddBoolToObject(o, "is_template", k->is_template);
    cJSON_AddBoolToObject(o, "is_specialization", k->is_specialization);
    cJSON_AddBoolToObject(o, "is_static", k->is_static);
    cJSON_AddBoolToObject(o, "is_extern_c", k->is_extern_c);
    cJSON_AddBoolToObject(o, "is_definition", k->is_definition);
    add_opt_string(o, "launch_bounds", k->launch_bounds);
    cJSON *tps = cJSON_AddArrayToObject(o, "template_params");
    for (size_t i = 0; i < k->template_params.len; i++) {
        const template_param *tp = &k->template_params.items[i];
        cJSON *t = cJSON_CreateObject();
        cJSON_AddStringToObject(t, "kind", tp->kind);
        cJSON_AddStringToObject(t, "name", tp->name);
        add_opt_string(t, "type", tp->type);
        cJSON_AddItemToArray(tps, t);
    }
    cJSON *ps = cJSON_AddArrayToObject(o, "params");
    for (size_t i = 0; i < k->params.len; i++) {
        const kernel_param *p = &k->params.items[i];
        cJSON *j = cJSON_CreateObject();
        cJSON_AddStringToObject(j, "name", p->name);
        cJSON_AddStringToObject(j, "type", p->type);
        cJSON_AddStringToObject(j, "canonical_type", p->canonical_type);
        cJSON_AddBoolToObject(j, "is_pointer", p->is_pointer);
        cJSON_AddBoolToObject(j, "pointee_const", p->pointee_const);
        cJSON_AddBoolToObject(j, "is_restrict", p->is_restrict);
        cJSON_AddNumberToObject(j, "size_bytes", (double)p->size_bytes);
        cJSON_AddItemToObject(j, "range", range_json(&p->range));
        cJSON_AddItemToArray(ps, j);
    }
    cJSON_AddItemToObject(o, "decl_range", range_json(&k->decl_range));
    cJSON_AddItemToObject(o, "body_range", range_json(&k->body_range));
    cJSON_AddItemToObject(o, "name_range", range_json(&k->name_range));
    cJSON *deps = cJSON_AddArrayToObject(o, "deps");
    for (size_t i = 0; i < k->deps.len; i++)
        cJSON_AddItemToArray(deps, cJSON_CreateNumber((double)k->deps.items[i]));
    if (with_text) {
        const char *text = fe_range_text(m, &k->decl_range, a);
        add_opt_string(o, "text", text);
    }
    return o;
}

static cJSON *launch_json(const launch_site *l)
{
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "kernel", l->kernel_name ? l->kernel_name : "");
    cJSON_AddNumberToObject(o, "kernel_index", (double)l->kernel_index);
    add_opt_string(o, "template_args", l->template_args);
    add_opt_string(o, "caller", l->caller);
    cJSON_AddBoolToObject(o, "in_macro", l->in_macro);
    cJSON_AddItemToObject(o, "range", range_json(&l->range));
    cJSON_AddItemToObject(o, "config_range", range_json(&l->config_range));
    cJSON_AddItemToObject(o, "grid", launch_arg_json(&l->grid));
    cJSON_AddItemToObject(o, "block", launch_arg_json(&l->block));
    cJSON_AddItemToObject(o, "shmem", launch_arg_json(&l->shmem));
    cJSON_AddItemToObject(o, "stream", launch_arg_json(&l->stream));
    cJSON *args = cJSON_AddArrayToObject(o, "args");
    for (size_t i = 0; i < l->args.len; i++)
        cJSON_AddItemToArray(args, launch_arg_json(&l->args.items[i]));
    return o;
}

cJSON *fe_model_to_json(const tu_model *m, int with_text)
{
    arena scratch;
    arena_init(&scratch);
    cJSON *root = cJSON_CreateObject();
    cJSON_AddStringToObject(root, "file", m->main_file ? m->main_file : "");
    cJSON_AddNumberToObject(root, "parse_seconds", m->parse_seconds);
    cJSON *ks = cJSON_AddArrayToObject(root, "kernels");
    for (size_t i = 0; i < m->kernels.len; i++)
        cJSON_AddItemToArray(ks, kernel_json(m, &m->kernels.items[i], with_text, &scratch));
    cJSON *ls = cJSON_AddArrayToObject(root, "launches");
    for (size_t i = 0; i < m->launches.len; i++)
        cJSON_AddItemToArray(ls, launch_json(&m->launches.items[i]));
    cJSON *ds = cJSON_AddArrayToObject(root, "decls");
    for (size_t i = 0; i < m->decls.len; i++) {
        const dependency *d = &m->decls.items[i];
        cJSON *o = cJSON_CreateObject();
        cJSON_AddNumberToObject(o, "index", (double)i);
        cJSON_AddStringToObject(o, "kind", model_decl_kind_name(d->kind));
        cJSON_AddStringToObject(o, "name", d->name);
        cJSON_AddStringToObject(o, "space", d->space ? d->space : "");
        cJSON_AddBoolToObject(o, "is_extern", d->is_extern);
        cJSON_AddItemToObject(o, "range", range_json(&d->range));
        if (with_text)
            add_opt_string(o, "text", fe_range_text(m, &d->range, &scratch));
        cJSON_AddItemToArray(ds, o);
    }
    cJSON *sk = cJSON_AddArrayToObject(root, "skipped_kernels");
    for (size_t i = 0; i < m->skipped.len; i++) {
        cJSON *o = cJSON_CreateObject();
        cJSON_AddStringToObject(o, "name", m->skipped.items[i].name);
        cJSON_AddItemToObject(o, "decl_range", range_json(&m->skipped.items[i].decl_range));
        cJSON_AddStringToObject(o, "reason", m->skipped.items[i].reason);
        cJSON_AddItemToArray(sk, o);
    }
    cJSON_AddNumberToObject(root, "ignored_errors", m->ignored_errors);
    add_opt_string(root, "first_ignored_error", m->first_ignored_error);
    arena_free(&scratch);
    return root;
}
