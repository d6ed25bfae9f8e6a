/*
 * log.c: the one place cl1cc writes its own messages.  Every line starts
 * with "cl1cc: " so users can tell them from nvcc's output.
 */
#include "core.h"

#include <stdlib.h>
#include <string.h>

static log_level current_level = LOG_NORMAL;

void log_set_level(log_level level) { current_level = level; }
log_level log_get_level(void) { return current_level; }

#define ERROR_KIND "error: "

static void log_line(const char *kind, const char *fmt, va_list ap)
{
    fputs("cl1cc: ", stderr);
    if (kind)
        fputs(kind, stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
}

void log_warn(const char *fmt, ...)
{
    if (current_level == LOG_QUIET)
        return;
    va_list ap;
    va_start(ap, fmt);
    log_line("warning: ", fmt, ap);
    va_end(ap);
}

void log_error(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    log_line(ERROR_KIND, fmt, ap);
    va_end(ap);
}

void log_verbose(const char *fmt, ...)
{
    if (current_level != LOG_VERBOSE)
        return;
    va_list ap;
    va_start(ap, fmt);
    log_line(NULL, fmt, ap);
    va_end(ap);
}

void log_bug(const char *file, int line, const char *msg)
{
    fprintf(stderr, "cl1cc: internal error at %s:%d: %s\n", file, line, msg);
    abort();
}

void log_error_line(const char *text, char *out, size_t size)
{
    static const char prefix[] = "cl1cc: " ERROR_KIND;
    if (!size)
        return;
    const char *from = NULL, *last = text;
    for (const char *p = text; *p;) {
        if (*p != '\n')
            last = p;
        if (strncmp(p, prefix, sizeof prefix - 1) == 0)
            from = p;
        const char *nl = strchr(p, '\n');
        p = nl ? nl + 1 : p + strlen(p);
    }
    if (!from)
        from = last;
    size_t n = 0;
    for (const char *p = from; *p && n + 4 < size; p++) {
        if (*p != '\n')
            out[n++] = *p;
        else if (p[1] && p[1] != '\n')
            n += (size_t)snprintf(out + n, size - n, " / ");
    }
    out[n < size ? n : size - 1] = '\0';
}
