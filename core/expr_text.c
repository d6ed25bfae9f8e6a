/* expr_text.c: what the text of a C expression may do */
#include "core.h"

#include <ctype.h>
#include <string.h>

static int ident_char(char c)
{
    return isalnum((unsigned char)c) || c == '_';
}

/* the '=' at c is part of ==, !=, <= or >= (not of =, <<=, >>=, +=, ...) */
static int comparison(const char *s, const char *c)
{
    if (c[1] == '=' || (c > s && (c[-1] == '=' || c[-1] == '!')))
        return 1;
    return c > s && (c[-1] == '<' || c[-1] == '>') && !(c - 1 > s && c[-2] == c[-1]);
}

static int known_call(const char *start, size_t n, const char *const *calls)
{
    for (size_t i = 0; calls && calls[i]; i++)
        if (strlen(calls[i]) == n && strncmp(start, calls[i], n) == 0)
            return 1;
    return 0;
}

int expr_text_without_effects(const char *s, const char *const *calls)
{
    if (strstr(s, "++") || strstr(s, "--") || strstr(s, "->*") || strchr(s, '"'))
        return 0;
    for (const char *c = s; *c; c++) {
        if (*c == '=' && !comparison(s, c))
            return 0;
        if (*c != '(')
            continue;
        const char *end = c;
        while (end > s && isspace((unsigned char)end[-1]))
            end--;
        const char *start = end;
        while (start > s && ident_char(start[-1]))
            start--;
        if (start != end && !known_call(start, (size_t)(end - start), calls))
            return 0;
    }
    return 1;
}
