/*
 * apply_launch.c: apply_plan, how a chosen variant goes at its place with
 * its launch edits: none (the definition replaced), a core/launch_rule.h
 * rule (the kernel kept, a copy after it, driver/splice_launch.h), or edits
 * of launch sites' text (docs/REWRITE.md).
 */
#include "apply.h"

#include <cjson/cJSON.h>
#include <stdlib.h>
#include <string.h>

#include "launch_rule.h"
#include "splice_launch.h"

typedef VEC(rw_launch_change) launch_change_vec;

static int by_position(const void *a, const void *b)
{
    const launch_site *x = *(const launch_site *const *)a, *y = *(const launch_site *const *)b;
    return x->range.begin < y->range.begin ? -1 : x->range.begin > y->range.begin;
}

/* The range of one site edit ({"site": N, "field": F, "text": T}) among
 * the kernel's launches in its file, sorted; NULL with the reason in why. */
static const src_range *site_edit_range(const cJSON *e, size_t index, const launch_site *const *sites,
                                        size_t n_sites, const char **text, strbuf *why)
{
    const cJSON *site = cJSON_GetObjectItemCaseSensitive(e, "site");
    const cJSON *field = cJSON_GetObjectItemCaseSensitive(e, "field");
    const cJSON *t = cJSON_GetObjectItemCaseSensitive(e, "text");
    if (!cJSON_IsNumber(site) || !cJSON_IsString(field) || !cJSON_IsString(t) ||
        site->valuedouble < 0 || site->valuedouble != (double)(long)site->valuedouble) {
        sb_printf(why, "launch edit %zu lacks a site number, a field or a text", index);
        return NULL;
    }
    long n = (long)site->valuedouble;
    if ((size_t)n >= n_sites) {
        sb_printf(why, "launch edit %zu names launch site %ld of %zu", index, n, n_sites);
        return NULL;
    }
    const launch_site *l = sites[n];
    const char *f = field->valuestring;
    const src_range *r = strcmp(f, "grid") == 0     ? &l->grid.range
                         : strcmp(f, "block") == 0  ? &l->block.range
                         : strcmp(f, "shmem") == 0  ? &l->shmem.range
                         : strcmp(f, "stream") == 0 ? &l->stream.range
                         : strcmp(f, "config") == 0 ? &l->config_range
                                                    : NULL;
    *text = t->valuestring;
    size_t tl = strlen(*text);
    if (!r) {
        sb_printf(why, "launch edit %zu: unknown field '%s'", index, f);
    } else if (!r->present || r->in_macro || l->in_macro) {
        sb_printf(why, "launch edit %zu: the %s of the launch at line %u is %s", index, f,
                  l->range.line, !r->present ? "not written (absent)" : "made by a macro");
        r = NULL;
    } else if (!tl || (strcmp(f, "config") == 0 &&
                       (tl < 6 || strncmp(*text, "<<<", 3) != 0 ||
                        strcmp(*text + tl - 3, ">>>") != 0))) {
        sb_printf(why, "launch edit %zu: '%s' is no %s", index, *text, f);
        r = NULL;
    }
    return r;
}

/* The site edits of json (site counts the launches of this kernel in its
 * file from 0, in source order) appended to out.  0, or -1 with the reason
 * in why (the kernel is then left alone: a variant that needs a new launch
 * configuration is wrong without it). */
static int site_edits(const tu_model *m, size_t kernel_index, const char *json, arena *a,
                      launch_change_vec *out, strbuf *why)
{
    cJSON *root = cJSON_Parse(json);
    if (!root || (!cJSON_IsArray(root) && !cJSON_IsNull(root))) {
        sb_puts(why, "its launch_edits are not a JSON array");
        cJSON_Delete(root);
        return -1;
    }
    VEC(const launch_site *) sites = {0};
    for (size_t i = 0; i < m->launches.len; i++) {
        const launch_site *l = &m->launches.items[i];
        if (l->kernel_index == (long)kernel_index && l->range.file &&
            strcmp(l->range.file, m->main_file) == 0)
            vec_push(&sites, l);
    }
    if (sites.len)
        qsort(sites.items, sites.len, sizeof *sites.items, by_position);
    int rc = 0;
    size_t index = 0;
    const cJSON *e;
    cJSON_ArrayForEach(e, root)
    {
        const char *text = NULL;
        const src_range *r = site_edit_range(e, index, sites.items, sites.len, &text, why);
        if (!r) {
            rc = -1;
            break;
        }
        rw_launch_change c = {r->begin, r->end, arena_strdup(a, text)};
        for (size_t j = 0; j < out->len; j++)
            if (c.begin < out->items[j].end && out->items[j].begin < c.end) {
                sb_printf(why, "launch edits %zu and %zu overlap", j, index);
                rc = -1;
            }
        if (rc != 0)
            break;
        vec_push(out, c);
        index++;
    }
    vec_free(&sites);
    cJSON_Delete(root);
    return rc;
}

/* A variant for another launch configuration: the kernel stays and the
 * copy goes in after it; each launch site that can pick the copy is an
 * edit of the whole launch.  0, or -1 with the reason in why. */
static int rule_edits(const tu_model *m, size_t kernel_index, const char *variant,
                      const launch_rule *r, arena *a, const char **copy,
                      launch_change_vec *out, strbuf *why)
{
    rw_edit_vec sites = {0};
    if (!launch_copy_plan(m, kernel_index, variant, r, a, &sites, copy, why)) {
        vec_free(&sites);
        return -1;
    }
    for (size_t i = 0; i < sites.len; i++) {
        rw_launch_change c = {sites.items[i].begin, sites.items[i].end,
                              sites.items[i].text};
        vec_push(out, c);
    }
    vec_free(&sites);
    return 0;
}

apply_plan_status apply_plan(const apply_place *p, const tunedb_variant *v, arena *a,
                             apply_edits *out, strbuf *why)
{
    const tu_model *m = p->model;
    const kernel *k = &m->kernels.items[p->kernel_index];
    memset(out, 0, sizeof *out);
    out->begin = k->decl_range.begin;
    out->end = k->decl_range.end;
    launch_rule rule;
    int is_rule = launch_rule_from_edits(v->launch_edits, &rule);
    unsigned needs = !is_rule                      ? APPLY_LAUNCH_SITES
                     : launch_rule_is_none(&rule) ? 0
                                                  : APPLY_LAUNCH_RULES;
    if (needs & ~p->launch_edits)
        return APPLY_NOT_TAKEN;
    if (p->in_header && needs) {
        /* its launches are in every TU that includes it */
        sb_puts(why, "a header kernel's variant with launch edits");
        return APPLY_CANNOT;
    }
    if (k->is_template) {
        /* never over the template: only the verified instantiations' launches */
        if (needs) {
            sb_puts(why, "a template kernel's variant with launch edits");
            return APPLY_CANNOT;
        }
        return apply_instance_edits(p, v, a, &out->after, &out->launches, &out->n_launches,
                                    why) == 0
                   ? APPLY_PLANNED
                   : APPLY_CANNOT;
    }
    launch_change_vec launches = {0};
    int rc = 0;
    if (needs == APPLY_LAUNCH_RULES) {
        rc = rule_edits(m, p->kernel_index, v->source, &rule, a, &out->after, &launches, why);
    } else {
        out->definition = v->source;
        if (needs == APPLY_LAUNCH_SITES)
            rc = site_edits(m, p->kernel_index, v->launch_edits, a, &launches, why);
    }
    if (rc == 0 && launches.len) {
        out->launches = arena_alloc(a, launches.len * sizeof *out->launches);
        memcpy(out->launches, launches.items, launches.len * sizeof *out->launches);
        out->n_launches = launches.len;
    }
    vec_free(&launches);
    return rc == 0 ? APPLY_PLANNED : APPLY_CANNOT;
}
