/*
 * html.c: the HTML report, one self-contained page: inline CSS, inline SVG
 * bar charts of the speedup and the times of each kernel, the table and the
 * patch.  No script, no external asset: it opens from a CI artifact as is.
 */
#include "report.h"

#include <math.h>
#include <string.h>

#define CHART_WIDTH 1000
#define LABEL_WIDTH 320
#define BAR_LEFT (LABEL_WIDTH + 10)
#define BAR_RIGHT (CHART_WIDTH - 70)
#define ROW 28

static void esc(strbuf *out, const char *s)
{
    for (const char *p = s ? s : ""; *p; p++) {
        switch (*p) {
        case '&': sb_puts(out, "&amp;"); break;
        case '<': sb_puts(out, "&lt;"); break;
        case '>': sb_puts(out, "&gt;"); break;
        case '"': sb_puts(out, "&quot;"); break;
        case '\'': sb_puts(out, "&#39;"); break;
        default: sb_putc(out, *p);
        }
    }
}

static void esc_n(strbuf *out, const char *s, size_t n)
{
    char *copy = xmalloc(n + 1);
    memcpy(copy, s, n);
    copy[n] = '\0';
    esc(out, copy);
    free(copy);
}

/* "kernel (file)" cut to fit the label column (at a character, not inside
 * a UTF-8 sequence), the whole of it in a title (the tooltip) */
static void chart_label(strbuf *out, const tune_kernel *k, const char *root)
{
    strbuf l;
    sb_init(&l);
    const char *file = report_display_path(k->file, root);
    const char *slash = strrchr(file, '/');
    sb_printf(&l, "%s (%s)", k->kernel ? k->kernel : "?", slash ? slash + 1 : file);
    if (l.len > 44) {
        size_t cut = 41;
        while (cut > 0 && ((unsigned char)l.data[cut] & 0xc0) == 0x80)
            cut--;
        sb_puts(out, "<title>");
        esc(out, sb_str(&l));
        sb_puts(out, "</title>");
        esc_n(out, l.data, cut);
        sb_puts(out, "...");
    } else {
        esc(out, sb_str(&l));
    }
    sb_free(&l);
}

/* a round upper end for an axis */
static double axis_max(double v)
{
    if (!(v > 0))
        return 1;
    double step = pow(10, floor(log10(v)));
    for (int m = 1; m <= 10; m++)
        if (m * step >= v * 1.05)
            return m * step;
    return 10 * step;
}

static double bar_x(double v, double vmax)
{
    return BAR_LEFT + (v / vmax) * (BAR_RIGHT - BAR_LEFT);
}

static void axis(strbuf *out, double vmax, int height, const char *unit)
{
    for (int i = 0; i <= 4; i++) {
        double v = vmax * i / 4;
        double x = bar_x(v, vmax);
        sb_printf(out, "<line x1=\"%.1f\" y1=\"24\" x2=\"%.1f\" y2=\"%d\" stroke=\"#d1d9e0\"/>", x, x,
                  height - 22);
        sb_printf(out, "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\" class=\"tick\">%g%s</text>", x,
                  height - 6, v, unit);
    }
}

static void speedup_chart(strbuf *out, const report_input *in)
{
    const tune_run *run = in->run;
    double top = 1;
    for (size_t i = 0; i < run->kernels.len; i++)
        if (!isnan(run->kernels.items[i].speedup) && run->kernels.items[i].speedup > top)
            top = run->kernels.items[i].speedup;
    double vmax = axis_max(top);
    int height = 30 + ROW * (int)run->kernels.len + 28;
    sb_printf(out, "<svg class=\"chart\" role=\"img\" aria-label=\"speedup per kernel\" "
                   "viewBox=\"0 0 %d %d\" width=\"%d\" height=\"%d\" "
                   "xmlns=\"http://www.w3.org/2000/svg\">\n",
              CHART_WIDTH, height, CHART_WIDTH, height);
    axis(out, vmax, height, "×");
    for (size_t i = 0; i < run->kernels.len; i++) {
        const tune_kernel *k = &run->kernels.items[i];
        int y = 30 + ROW * (int)i;
        sb_printf(out, "<text x=\"%d\" y=\"%d\" text-anchor=\"end\" class=\"label\">", LABEL_WIDTH,
                  y + 15);
        chart_label(out, k, in->display_root);
        sb_puts(out, "</text>");
        if (isnan(k->speedup) || k->speedup <= 0) {
            sb_printf(out, "<text x=\"%d\" y=\"%d\" class=\"none\">", BAR_LEFT + 6, y + 15);
            esc(out, k->status);
            sb_puts(out, "</text>\n");
            continue;
        }
        int improved = strcmp(k->status, "improved") == 0;
        double x = bar_x(k->speedup, vmax);
        sb_printf(out, "<rect x=\"%d\" y=\"%d\" width=\"%.1f\" height=\"%d\" rx=\"3\" fill=\"%s\">"
                       "<title>%.2f× (%s)</title></rect>",
                  BAR_LEFT, y + 2, x - BAR_LEFT, ROW - 8, improved ? "#2da44e" : "#8c959f",
                  k->speedup, improved ? "improved" : "not applied");
        sb_printf(out, "<text x=\"%.1f\" y=\"%d\" class=\"value\">%.2f×</text>\n", x + 6, y + 15,
                  k->speedup);
    }
    double one = bar_x(1.0, vmax);
    sb_printf(out, "<line x1=\"%.1f\" y1=\"18\" x2=\"%.1f\" y2=\"%d\" stroke=\"#cf222e\" "
                   "stroke-dasharray=\"5,4\" stroke-width=\"1.5\"/>"
                   "<text x=\"%.1f\" y=\"14\" text-anchor=\"middle\" class=\"tick\">1× (original)</text>\n",
              one, one, height - 22, one);
    sb_puts(out, "</svg>\n");
}

static void time_chart(strbuf *out, const report_input *in)
{
    const tune_run *run = in->run;
    double top = 0;
    size_t rows = 0;
    for (size_t i = 0; i < run->kernels.len; i++) {
        const tune_kernel *k = &run->kernels.items[i];
        if (isnan(k->baseline_ms))
            continue;
        rows++;
        if (k->baseline_ms > top)
            top = k->baseline_ms;
        if (!isnan(k->best_ms) && k->best_ms > top)
            top = k->best_ms;
    }
    if (!rows) {
        sb_puts(out, "<p class=\"sub\">No kernel was timed.</p>\n");
        return;
    }
    double vmax = axis_max(top);
    int height = 30 + ROW * (int)rows + 28;
    sb_printf(out, "<svg class=\"chart\" role=\"img\" aria-label=\"time per kernel\" "
                   "viewBox=\"0 0 %d %d\" width=\"%d\" height=\"%d\" "
                   "xmlns=\"http://www.w3.org/2000/svg\">\n",
              CHART_WIDTH, height, CHART_WIDTH, height);
    axis(out, vmax, height, " ms");
    size_t row = 0;
    for (size_t i = 0; i < run->kernels.len; i++) {
        const tune_kernel *k = &run->kernels.items[i];
        if (isnan(k->baseline_ms))
            continue;
        int y = 30 + ROW * (int)row++;
        sb_printf(out, "<text x=\"%d\" y=\"%d\" text-anchor=\"end\" class=\"label\">", LABEL_WIDTH,
                  y + 15);
        chart_label(out, k, in->display_root);
        sb_puts(out, "</text>");
        sb_printf(out, "<rect x=\"%d\" y=\"%d\" width=\"%.1f\" height=\"10\" fill=\"#8c959f\">"
                       "<title>original %.4f ms</title></rect>",
                  BAR_LEFT, y + 2, bar_x(k->baseline_ms, vmax) - BAR_LEFT, k->baseline_ms);
        if (!isnan(k->best_ms))
            sb_printf(out, "<rect x=\"%d\" y=\"%d\" width=\"%.1f\" height=\"10\" fill=\"#2da44e\">"
                           "<title>best %.4f ms</title></rect>",
                      BAR_LEFT, y + 13, bar_x(k->best_ms, vmax) - BAR_LEFT, k->best_ms);
        double right = isnan(k->best_ms) || k->best_ms < k->baseline_ms ? k->baseline_ms : k->best_ms;
        sb_printf(out, "<text x=\"%.1f\" y=\"%d\" class=\"value\">%.3g", bar_x(right, vmax) + 6,
                  y + 16, k->baseline_ms);
        if (!isnan(k->best_ms))
            sb_printf(out, " → %.3g", k->best_ms);
        sb_puts(out, " ms</text>\n");
    }
    sb_puts(out, "</svg>\n<p class=\"legend\"><span class=\"swatch\" style=\"background:#8c959f\">"
                 "</span>original <span class=\"swatch\" style=\"background:#2da44e\"></span>best "
                 "verified variant</p>\n");
}

static void number_cell(strbuf *out, double v, const char *fmt)
{
    sb_puts(out, "<td class=\"n\">");
    if (isnan(v))
        sb_puts(out, "–");
    else
        sb_printf(out, fmt, v);
    sb_puts(out, "</td>");
}

/* the speedup, and under it the original's and the best variant's
 * percentage of the roofline limit ("25.0% → 50.0% of limit", the limit in
 * the tooltip) when known: no column more, so the table still fits */
static void speedup_cell(strbuf *out, const tune_kernel *k)
{
    int roofline = isfinite(k->limit_ms) && isfinite(k->original_pct_of_limit);
    if (!roofline) {
        number_cell(out, k->speedup, "%.2f×");
        return;
    }
    sb_printf(out, "<td class=\"n\" title=\"roofline limit %.4f ms\">", k->limit_ms);
    if (isnan(k->speedup))
        sb_puts(out, "–");
    else
        sb_printf(out, "%.2f×", k->speedup);
    sb_printf(out, "<br><small>%.1f%%", k->original_pct_of_limit);
    if (isfinite(k->best_pct_of_limit))
        sb_printf(out, " → %.1f%%", k->best_pct_of_limit);
    sb_puts(out, " of limit</small></td>");
}

static void kernel_table(strbuf *out, const report_input *in)
{
    sb_puts(out, "<table>\n<thead><tr><th>kernel</th><th>file</th><th>status</th>"
                 "<th class=\"n\">baseline ms</th><th class=\"n\">best ms</th>"
                 "<th class=\"n\">speedup</th><th>best variant</th><th class=\"n\">passed / tried</th>"
                 "<th>detail</th></tr></thead>\n<tbody>\n");
    for (size_t i = 0; i < in->run->kernels.len; i++) {
        const tune_kernel *k = &in->run->kernels.items[i];
        sb_puts(out, "<tr><td><code>");
        esc(out, k->kernel ? k->kernel : "?");
        sb_puts(out, "</code></td><td><code>");
        esc(out, report_display_path(k->file, in->display_root));
        sb_puts(out, "</code></td><td class=\"");
        sb_puts(out, strcmp(k->status, "improved") == 0 ? "improved"
                     : strcmp(k->status, "error") == 0  ? "error"
                                                        : "plain");
        sb_puts(out, "\">");
        esc(out, k->status);
        sb_puts(out, "</td>");
        number_cell(out, k->baseline_ms, "%.4f");
        number_cell(out, k->best_ms, "%.4f");
        speedup_cell(out, k);
        sb_puts(out, "<td>");
        esc(out, k->best_label ? k->best_label : "–");
        sb_puts(out, "</td><td class=\"n\">");
        if (k->variants_tried >= 0)
            sb_printf(out, "%ld / %ld", k->variants_passed < 0 ? 0 : k->variants_passed,
                      k->variants_tried);
        else
            sb_puts(out, "–");
        sb_puts(out, "</td><td>");
        esc(out, k->detail ? k->detail : "");
        if (k->far_reason) { /* under 10% of its limit: why */
            sb_printf(out, "%s<small>%.1f%% of its limit: ", k->detail && *k->detail ? "<br>" : "",
                      k->best_pct_of_limit);
            esc(out, k->far_reason);
            sb_puts(out, "</small>");
        }
        sb_puts(out, "</td></tr>\n");
    }
    sb_puts(out, "</tbody>\n</table>\n");
}

static void patch_block(strbuf *out, const char *patch)
{
    sb_puts(out, "<pre class=\"patch\">");
    for (const char *line = patch; *line;) {
        const char *nl = strchr(line, '\n');
        size_t n = nl ? (size_t)(nl - line) : strlen(line);
        const char *cls = NULL;
        if (!strncmp(line, "+++", 3) || !strncmp(line, "---", 3) || !strncmp(line, "diff ", 5))
            cls = "file";
        else if (line[0] == '+')
            cls = "add";
        else if (line[0] == '-')
            cls = "del";
        else if (line[0] == '@')
            cls = "hunk";
        if (cls)
            sb_printf(out, "<span class=\"%s\">", cls);
        esc_n(out, line, n);
        if (cls)
            sb_puts(out, "</span>");
        sb_putc(out, '\n');
        line = nl ? nl + 1 : line + n;
    }
    sb_puts(out, "</pre>\n");
}

static void card(strbuf *out, const char *label, const char *value)
{
    sb_puts(out, "<div class=\"card\"><b>");
    esc(out, value);
    sb_puts(out, "</b>");
    esc(out, label);
    sb_puts(out, "</div>\n");
}

/* the page's head and style, up to the first line under the title */
static void page_head(strbuf *out)
{
    sb_puts(out,
            "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
            "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
            "<title>cl1cc optimization report</title>\n<style>\n"
            "body{font-family:system-ui,-apple-system,\"Segoe UI\",Roboto,\"DejaVu Sans\",sans-serif;"
            "margin:1.5rem auto;max-width:1040px;padding:0 1rem;color:#1f2328;background:#fff}\n"
            "h1{font-size:1.6rem;margin:0 0 .2rem}h2{font-size:1.15rem;margin:1.6rem 0 .5rem}\n"
            ".sub{color:#59636e;margin:.2rem 0}.error-banner{background:#ffebe9;border:1px solid #cf222e;"
            "padding:.5rem 1rem;border-radius:6px}\n"
            ".cards{display:flex;gap:.8rem;flex-wrap:wrap;margin:1rem 0}\n"
            ".card{border:1px solid #d1d9e0;border-radius:8px;padding:.6rem 1rem;min-width:9rem;color:#59636e}\n"
            ".card b{display:block;font-size:1.5rem;color:#1f2328}\n"
            ".chart{max-width:100%;height:auto}.chart text{font-size:13px;fill:#1f2328}\n"
            ".chart .tick{fill:#59636e;font-size:11px}.chart .none{fill:#8c959f;font-style:italic}\n"
            ".legend{color:#59636e;font-size:.85rem}.swatch{display:inline-block;width:.8rem;height:.8rem;"
            "margin:0 .3rem 0 .8rem;vertical-align:middle}\n"
            "table{border-collapse:collapse;width:100%;font-size:.88rem}\n"
            "th,td{border-bottom:1px solid #d1d9e0;padding:.35rem .5rem;text-align:left;vertical-align:top}\n"
            "th{background:#f6f8fa}.n{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}\n"
            /* long kernel names, paths and notes wrap inside the page */
            "td,li,.sub,h2{overflow-wrap:anywhere}\n"
            ".improved{color:#1a7f37;font-weight:600}.error{color:#cf222e}\n"
            "pre.patch{background:#f6f8fa;padding:1rem;overflow:auto;font-size:.78rem;border-radius:6px}\n"
            ".add{color:#1a7f37}.del{color:#cf222e}.hunk{color:#8250df}.file{font-weight:600}\n"
            "</style>\n</head>\n<body>\n<h1>cl1cc optimization report</h1>\n<p class=\"sub\">");
}

/* the line under the title: GPU, arch, time, budget, base, version */
static void sub_line(const report_input *in, strbuf *out)
{
    const tune_run *run = in->run;
    esc(out, run->gpu_name ? run->gpu_name : "unknown GPU");
    sb_puts(out, " · ");
    esc(out, run->arch ? run->arch : "arch unknown");
    if (!isnan(run->wall_seconds))
        sb_printf(out, " · tuned in %.1f s", run->wall_seconds);
    if (!isnan(run->budget_seconds))
        sb_printf(out, " · budget %.0f s", run->budget_seconds);
    if (run->budget_evaluations >= 0)
        sb_printf(out, ", %ld evaluations", run->budget_evaluations);
    if (in->base_ref) {
        sb_puts(out, " · changes since ");
        esc(out, in->base_ref);
    }
    if (run->cl1cc_version) {
        sb_puts(out, " · cl1cc ");
        esc(out, run->cl1cc_version);
    }
    sb_puts(out, "</p>\n");
}

/* the cards: improved, best speedup, geometric mean, the patch */
static void cards(const report_input *in, const report_totals *t, strbuf *out)
{
    char value[64];
    sb_puts(out, "<div class=\"cards\">\n");
    snprintf(value, sizeof value, "%zu / %zu", t->improved, t->kernels);
    card(out, "kernels improved", value);
    if (isnan(t->best_speedup))
        snprintf(value, sizeof value, "–");
    else
        snprintf(value, sizeof value, "%.2f×", t->best_speedup);
    card(out, "best speedup", value);
    if (isnan(t->geomean_speedup))
        snprintf(value, sizeof value, "–");
    else
        snprintf(value, sizeof value, "%.2f×", t->geomean_speedup);
    card(out, "geometric mean (improved)", value);
    snprintf(value, sizeof value, "%zu in %zu file%s", in->n_patched, in->n_patched_files,
             in->n_patched_files == 1 ? "" : "s");
    card(out, "kernels in the patch", value);
    sb_puts(out, "</div>\n");
}

void report_html(const report_input *in, strbuf *out)
{
    const tune_run *run = in->run;
    report_totals t;
    report_count(run, &t);
    page_head(out);
    sub_line(in, out);
    if (in->exit_code == 1 || in->exit_code == 2)
        sb_puts(out, "<p class=\"error-banner\">The optimization pass did not complete: see the notes.</p>\n");
    if (run->ran_on_gpu == 0)
        sb_puts(out, "<p class=\"error-banner\">Nothing was measured: no GPU. No variant was "
                     "verified or timed on this machine.</p>\n");
    cards(in, &t, out);
    if (run->kernels.len) {
        sb_puts(out, "<h2>Speedup per kernel</h2>\n");
        speedup_chart(out, in);
        sb_puts(out, "<h2>Time per kernel</h2>\n");
        time_chart(out, in);
        sb_puts(out, "<h2>Kernels</h2>\n");
        kernel_table(out, in);
    } else {
        sb_puts(out, "<p>No kernel was tuned.</p>\n");
    }
    if (in->n_notes) {
        sb_puts(out, "<h2>Notes</h2>\n<ul>\n");
        for (size_t i = 0; i < in->n_notes; i++) {
            sb_puts(out, "<li>");
            esc(out, in->notes[i]);
            sb_puts(out, "</li>\n");
        }
        sb_puts(out, "</ul>\n");
    }
    if (in->patch_text && *in->patch_text) {
        sb_puts(out, "<h2>Patch");
        if (in->patch_name) {
            sb_puts(out, " <code>");
            esc(out, in->patch_name);
            sb_puts(out, "</code>");
        }
        sb_puts(out, "</h2>\n");
        patch_block(out, in->patch_text);
    }
    sb_puts(out, "</body>\n</html>\n");
}
