/*
 * report.c: the Markdown report (GitHub step summaries) and the JSON
 * summary of a tuning run and its patch, and what both count.
 */
#include "report.h"

#include <cjson/cJSON.h>
#include <math.h>
#include <string.h>

/* a patch longer than this is left to the artifact, not the summary page
 * (GitHub caps a step summary at 1 MiB) */
#define MARKDOWN_PATCH_MAX (64 * 1024)

void report_count(const tune_run *run, report_totals *t)
{
    memset(t, 0, sizeof *t);
    t->best_speedup = t->geomean_speedup = NAN;
    double log_sum = 0;
    size_t with_speedup = 0;
    for (size_t i = 0; i < run->kernels.len; i++) {
        const tune_kernel *k = &run->kernels.items[i];
        t->kernels++;
        if (strcmp(k->status, "improved") == 0) {
            t->improved++;
            if (!isnan(k->speedup) && k->speedup > 0) {
                log_sum += log(k->speedup);
                with_speedup++;
                if (isnan(t->best_speedup) || k->speedup > t->best_speedup)
                    t->best_speedup = k->speedup;
            }
        } else if (strcmp(k->status, "no_gain") == 0) {
            t->no_gain++;
        } else if (strcmp(k->status, "not_captured") == 0) {
            t->not_captured++;
        } else if (strcmp(k->status, "error") == 0) {
            t->errors++;
        } else if (strcmp(k->status, "skipped_no_gpu") == 0) {
            t->skipped++;
        } else {
            t->other++;
        }
    }
    if (with_speedup)
        t->geomean_speedup = exp(log_sum / (double)with_speedup);
}

const char *report_display_path(const char *path, const char *root)
{
    if (!path)
        return "?";
    size_t n = root ? strlen(root) : 0;
    while (n > 1 && root[n - 1] == '/')
        n--;
    if (n && strncmp(path, root, n) == 0 && path[n] == '/')
        return path + n + 1;
    return path;
}

/* ---- Markdown ------------------------------------------------------------ */

/* text for a table cell: no line breaks, '|' escaped, backquotes kept out of
 * code spans */
static void md_cell(strbuf *out, const char *s)
{
    for (const char *p = s ? s : ""; *p; p++) {
        if (*p == '|')
            sb_puts(out, "\\|");
        else if (*p == '\n' || *p == '\r')
            sb_putc(out, ' ');
        else if (*p == '<')
            sb_puts(out, "&lt;");
        else
            sb_putc(out, *p);
    }
}

static void md_code(strbuf *out, const char *s)
{
    if (!s || strchr(s, '`')) {
        md_cell(out, s);
        return;
    }
    sb_putc(out, '`');
    md_cell(out, s);
    sb_putc(out, '`');
}

static void md_number(strbuf *out, double v, const char *fmt)
{
    if (isnan(v))
        sb_puts(out, "–");
    else
        sb_printf(out, fmt, v);
}

static void md_gpu_line(strbuf *out, const tune_run *run)
{
    sb_printf(out, "on %s (%s)", run->gpu_name ? run->gpu_name : "an unknown GPU",
              run->arch ? run->arch : "arch unknown");
    if (run->ran_on_gpu == 0)
        sb_puts(out, " — **nothing was measured: no GPU**");
    if (!isnan(run->wall_seconds))
        sb_printf(out, " in %.1f s", run->wall_seconds);
    if (!isnan(run->budget_seconds) || run->budget_evaluations >= 0) {
        sb_puts(out, " (budget");
        if (!isnan(run->budget_seconds))
            sb_printf(out, " %.0f s", run->budget_seconds);
        if (run->budget_evaluations >= 0)
            sb_printf(out, "%s%ld evaluations", isnan(run->budget_seconds) ? " " : ", ",
                      run->budget_evaluations);
        sb_putc(out, ')');
    }
}

/* the first lines: how many improved, where, what the patch does */
static void md_heading(const report_input *in, const report_totals *t, strbuf *out)
{
    sb_puts(out, "## cl1cc optimization report\n\n");
    if (in->exit_code == 1 || in->exit_code == 2)
        sb_puts(out, "> **Error:** the optimization pass did not complete; see the notes below.\n\n");
    if (in->run->ran_on_gpu == 0)
        sb_puts(out, "> **Nothing was measured: no GPU.** This runner has no GPU: no variant was "
                     "verified or timed (exit status 4).\n\n");
    sb_printf(out, "**%zu of %zu kernel%s improved** ", t->improved, t->kernels,
              t->kernels == 1 ? "" : "s");
    md_gpu_line(out, in->run);
    sb_puts(out, ".");
    if (in->base_ref)
        sb_printf(out, " Files changed since `%s`.", in->base_ref);
    sb_puts(out, "\n\n");
    if (in->n_patched) {
        sb_printf(out, "The patch%s%s%s rewrites %zu kernel%s in %zu file%s with verified "
                       "faster variants: `git apply %s`, or `cl1cc rewrite --in-place` locally.\n\n",
                  in->patch_name ? " `" : "", in->patch_name ? in->patch_name : "",
                  in->patch_name ? "`" : "", in->n_patched, in->n_patched == 1 ? "" : "s",
                  in->n_patched_files, in->n_patched_files == 1 ? "" : "s",
                  in->patch_name ? in->patch_name : "PATCH");
    } else {
        sb_puts(out, "No verified faster variant to apply: nothing to change.\n\n");
    }
}

/* one kernel's row of the table */
static void md_kernel_row(const report_input *in, const tune_kernel *k, strbuf *out)
{
    sb_puts(out, "| ");
    md_code(out, k->kernel ? k->kernel : "?");
    sb_puts(out, " | ");
    md_code(out, report_display_path(k->file, in->display_root));
    sb_puts(out, " | ");
    md_cell(out, k->status);
    sb_puts(out, " | ");
    md_number(out, k->baseline_ms, "%.4f");
    sb_puts(out, " | ");
    md_number(out, k->best_ms, "%.4f");
    sb_puts(out, " | ");
    if (strcmp(k->status, "improved") == 0 && !isnan(k->speedup))
        sb_printf(out, "**%.2f×**", k->speedup);
    else
        md_number(out, k->speedup, "%.2f×");
    sb_puts(out, " | ");
    md_cell(out, k->best_label ? k->best_label : "–");
    sb_puts(out, " | ");
    if (k->variants_tried >= 0)
        sb_printf(out, "%ld / %ld", k->variants_passed < 0 ? 0 : k->variants_passed,
                  k->variants_tried);
    else
        sb_puts(out, "–");
    sb_puts(out, " |\n");
}

/* the table of kernels, then their details (folded) */
static void md_kernels(const report_input *in, strbuf *out)
{
    const tune_run *run = in->run;
    sb_puts(out, "| kernel | file | status | baseline ms | best ms | speedup | best variant | passed / tried |\n"
                 "| --- | --- | --- | ---: | ---: | ---: | --- | ---: |\n");
    for (size_t i = 0; i < run->kernels.len; i++)
        md_kernel_row(in, &run->kernels.items[i], out);
    sb_putc(out, '\n');
    int any_detail = 0;
    for (size_t i = 0; i < run->kernels.len; i++) {
        const tune_kernel *k = &run->kernels.items[i];
        int has_detail = k->detail && *k->detail;
        if (!has_detail && !k->far_reason)
            continue;
        if (!any_detail++)
            sb_puts(out, "<details><summary>Details per kernel</summary>\n\n");
        sb_puts(out, "- ");
        md_code(out, k->kernel ? k->kernel : "?");
        sb_puts(out, ": ");
        if (has_detail)
            md_cell(out, k->detail);
        if (k->far_reason) { /* under 10% of its limit: why */
            char far[64];
            snprintf(far, sizeof far, "%s%.1f%% of its limit: ", has_detail ? "; " : "",
                     k->best_pct_of_limit);
            md_cell(out, far);
            md_cell(out, k->far_reason);
        }
        sb_putc(out, '\n');
    }
    if (any_detail)
        sb_puts(out, "\n</details>\n\n");
}

/* the patch itself (folded), or a word that it is too long to show */
static void md_patch(const char *patch_text, strbuf *out)
{
    size_t len = strlen(patch_text);
    if (len > MARKDOWN_PATCH_MAX) {
        sb_printf(out, "The patch (%zu bytes) is too long to show here: see the artifact.\n", len);
        return;
    }
    /* a fence longer than any run of backquotes in the patch */
    size_t run_len = 0, longest = 0;
    for (const char *p = patch_text; *p; p++) {
        run_len = *p == '`' ? run_len + 1 : 0;
        if (run_len > longest)
            longest = run_len;
    }
    size_t fence = longest >= 3 ? longest + 1 : 3;
    sb_puts(out, "<details><summary>The patch</summary>\n\n");
    for (size_t i = 0; i < fence; i++)
        sb_putc(out, '`');
    sb_puts(out, "diff\n");
    sb_puts(out, patch_text);
    if (patch_text[len - 1] != '\n')
        sb_putc(out, '\n');
    for (size_t i = 0; i < fence; i++)
        sb_putc(out, '`');
    sb_puts(out, "\n\n</details>\n");
}

void report_markdown(const report_input *in, strbuf *out)
{
    report_totals t;
    report_count(in->run, &t);
    md_heading(in, &t, out);
    if (t.kernels)
        md_kernels(in, out);
    if (in->n_notes) {
        sb_puts(out, "**Notes**\n\n");
        for (size_t i = 0; i < in->n_notes; i++) {
            sb_puts(out, "- ");
            md_cell(out, in->notes[i]);
            sb_putc(out, '\n');
        }
        sb_putc(out, '\n');
    }
    if (in->patch_text && *in->patch_text)
        md_patch(in->patch_text, out);
}

/* ---- JSON summary ---------------------------------------------------------- */

static void add_number(cJSON *o, const char *name, double v)
{
    if (isnan(v))
        cJSON_AddNullToObject(o, name);
    else
        cJSON_AddNumberToObject(o, name, v);
}

static void add_string(cJSON *o, const char *name, const char *v)
{
    if (v)
        cJSON_AddStringToObject(o, name, v);
    else
        cJSON_AddNullToObject(o, name);
}

void report_summary_json(const report_input *in, strbuf *out)
{
    const tune_run *run = in->run;
    report_totals t;
    report_count(run, &t);
    cJSON *root = cJSON_CreateObject();
    CL_ASSERT(root);
    add_string(root, "cl1cc_version", run->cl1cc_version);
    add_string(root, "arch", run->arch);
    add_string(root, "gpu_name", run->gpu_name);
    if (run->ran_on_gpu < 0)
        cJSON_AddNullToObject(root, "ran_on_gpu");
    else
        cJSON_AddBoolToObject(root, "ran_on_gpu", run->ran_on_gpu);
    add_number(root, "wall_seconds", run->wall_seconds);
    add_string(root, "base_ref", in->base_ref);
    const char *result = in->exit_code == 3   ? "improvements"
                         : in->exit_code == 0 ? "nothing_to_do"
                         : in->exit_code == 4 ? "nothing_measured"
                                              : "error";
    cJSON_AddStringToObject(root, "result", result);
    cJSON_AddNumberToObject(root, "exit_code", in->exit_code);
    cJSON *counts = cJSON_AddObjectToObject(root, "counts");
    cJSON_AddNumberToObject(counts, "kernels", (double)t.kernels);
    cJSON_AddNumberToObject(counts, "improved", (double)t.improved);
    cJSON_AddNumberToObject(counts, "no_gain", (double)t.no_gain);
    cJSON_AddNumberToObject(counts, "not_captured", (double)t.not_captured);
    cJSON_AddNumberToObject(counts, "error", (double)t.errors);
    cJSON_AddNumberToObject(counts, "skipped_no_gpu", (double)t.skipped);
    cJSON_AddNumberToObject(counts, "other", (double)t.other);
    add_number(root, "best_speedup", t.best_speedup);
    add_number(root, "geomean_speedup", t.geomean_speedup);
    cJSON *patch = cJSON_AddObjectToObject(root, "patch");
    add_string(patch, "path", in->n_patched ? in->patch_name : NULL);
    cJSON_AddNumberToObject(patch, "files", (double)in->n_patched_files);
    cJSON *patched = cJSON_AddArrayToObject(patch, "kernels");
    for (size_t i = 0; i < in->n_patched; i++) {
        cJSON *p = cJSON_CreateObject();
        add_string(p, "file", report_display_path(in->patched[i].file, in->display_root));
        add_string(p, "kernel", in->patched[i].kernel);
        add_string(p, "arch", in->patched[i].arch);
        add_number(p, "speedup", in->patched[i].speedup);
        cJSON_AddItemToArray(patched, p);
    }
    cJSON *notes = cJSON_AddArrayToObject(root, "notes");
    for (size_t i = 0; i < in->n_notes; i++)
        cJSON_AddItemToArray(notes, cJSON_CreateString(in->notes[i]));
    cJSON *kernels = cJSON_AddArrayToObject(root, "kernels");
    for (size_t i = 0; i < run->kernels.len; i++) {
        const tune_kernel *k = &run->kernels.items[i];
        cJSON *o = cJSON_CreateObject();
        add_string(o, "file", k->file ? report_display_path(k->file, in->display_root) : NULL);
        add_string(o, "kernel", k->kernel);
        add_string(o, "key", k->key);
        add_string(o, "status", k->status);
        add_number(o, "baseline_ms", k->baseline_ms);
        add_number(o, "best_ms", k->best_ms);
        add_number(o, "speedup", k->speedup);
        add_string(o, "best_label", k->best_label);
        int in_patch = 0;
        for (size_t j = 0; j < in->n_patched; j++)
            if (k->kernel && k->file && strcmp(in->patched[j].kernel, k->kernel) == 0 &&
                strcmp(in->patched[j].file, k->file) == 0)
                in_patch = 1;
        cJSON_AddBoolToObject(o, "in_patch", in_patch);
        cJSON_AddItemToArray(kernels, o);
    }
    char *text = cJSON_Print(root);
    CL_ASSERT(text);
    sb_puts(out, text);
    sb_putc(out, '\n');
    cJSON_free(text);
    cJSON_Delete(root);
}
