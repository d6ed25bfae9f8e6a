/*
 * opt_out.c: opt_out.h.  A comment of the line before the kernel's first
 * line, or of that line itself, saying "cl1cc: off" (any spacing around the
 * colon, any case), marks the kernel off.
 */
#include "opt_out.h"

#include <ctype.h>
#include <string.h>

/* whether [from, to) holds a comment whose text says "cl1cc: off" */
static int line_says_off(const char *from, const char *to)
{
    for (const char *p = from; p + 1 < to; p++) {
        if (p[0] != '/' || (p[1] != '/' && p[1] != '*'))
            continue;
        for (const char *q = p + 2; q + 5 <= to; q++) {
            if (strncasecmp(q, "cl1cc", 5) != 0)
                continue;
            const char *r = q + 5;
            while (r < to && (*r == ' ' || *r == '\t'))
                r++;
            if (r >= to || *r != ':')
                continue;
            r++;
            while (r < to && (*r == ' ' || *r == '\t'))
                r++;
            if (to - r >= 3 && strncasecmp(r, "off", 3) == 0 &&
                (to - r == 3 || !isalnum((unsigned char)r[3])))
                return 1;
        }
        return 0; /* the rest of the line is that comment */
    }
    return 0;
}

int text_opts_out(const char *text, size_t len, size_t begin)
{
    if (!text || begin > len)
        return 0;
    size_t line = begin;
    while (line > 0 && text[line - 1] != '\n')
        line--;
    size_t end = begin;
    while (end < len && text[end] != '\n')
        end++;
    if (line_says_off(text + line, text + end))
        return 1;
    if (line == 0)
        return 0;
    size_t prev_end = line - 1; /* the '\n' ending the line before */
    size_t prev = prev_end;
    while (prev > 0 && text[prev - 1] != '\n')
        prev--;
    return line_says_off(text + prev, text + prev_end);
}

int kernel_opted_out(const tu_model *m, const kernel *k)
{
    if (!k->decl_range.file)
        return 0;
    const source_file *sf = model_file(m, k->decl_range.file);
    return sf && text_opts_out(sf->text, sf->len, k->decl_range.begin);
}
