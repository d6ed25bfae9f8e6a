/*
 * splice.c: applies byte-range edits to a file's text, optionally with
 * #line directives that keep the user's line numbers for the compiler.
 */
#include "rewrite.h"

#include <stdlib.h>
#include <string.h>

static int edit_order(const void *a, const void *b)
{
    const rw_edit *x = a, *y = b;
    return x->begin < y->begin ? -1 : x->begin > y->begin;
}

static unsigned line_at(const char *text, size_t offset, size_t *cursor,
                        unsigned *line)
{
    for (; *cursor < offset; (*cursor)++)
        if (text[*cursor] == '\n')
            (*line)++;
    return *line;
}

static void put_line_directive(strbuf *out, unsigned line, const char *path)
{
    /* a #line must start a line of its own */
    if (out->len && out->data[out->len - 1] != '\n')
        sb_putc(out, '\n');
    sb_printf(out, "#line %u \"", line);
    for (const char *p = path; *p; p++) {
        if (*p == '"' || *p == '\\')
            sb_putc(out, '\\');
        sb_putc(out, *p);
    }
    sb_puts(out, "\"\n");
}

rw_status rw_splice(const char *text, size_t len, const char *path,
                    rw_edit *edits, size_t n_edits, int line_directives,
                    strbuf *out, strbuf *err)
{
    if (n_edits)
        qsort(edits, n_edits, sizeof *edits, edit_order);
    for (size_t i = 0; i < n_edits; i++) {
        if (edits[i].begin > edits[i].end || edits[i].end > len) {
            sb_printf(err, "%s: edit [%zu,%zu) lies outside the file (%zu bytes)",
                      path, edits[i].begin, edits[i].end, len);
            return RW_BAD_EDITS;
        }
        if (i && edits[i].begin < edits[i - 1].end) {
            sb_printf(err, "%s: edits [%zu,%zu) and [%zu,%zu) overlap", path,
                      edits[i - 1].begin, edits[i - 1].end, edits[i].begin,
                      edits[i].end);
            return RW_BAD_EDITS;
        }
    }
    size_t copied = 0, cursor = 0;
    unsigned line = 1;
    if (line_directives)
        put_line_directive(out, 1, path);
    for (size_t i = 0; i < n_edits; i++) {
        sb_append(out, text + copied, edits[i].begin - copied);
        if (line_directives) {
            /* the replacement reports as the lines of what it replaces */
            put_line_directive(out, line_at(text, edits[i].begin, &cursor, &line), path);
            /* keep the column of the first line: pad to where the range began */
            size_t bol = edits[i].begin;
            while (bol > 0 && text[bol - 1] != '\n')
                bol--;
            for (size_t c = bol; c < edits[i].begin; c++)
                sb_putc(out, text[c] == '\t' ? '\t' : ' ');
        }
        sb_puts(out, edits[i].replacement);
        copied = edits[i].end;
        if (line_directives) {
            unsigned end_line = line_at(text, edits[i].end, &cursor, &line);
            put_line_directive(out, end_line, path);
            /* the rest of the original line follows at its own column */
            size_t bol = edits[i].end;
            while (bol > 0 && text[bol - 1] != '\n')
                bol--;
            for (size_t c = bol; c < edits[i].end; c++)
                sb_putc(out, text[c] == '\t' ? '\t' : ' ');
        }
    }
    sb_append(out, text + copied, len - copied);
    return RW_OK;
}
