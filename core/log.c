/*
 * log.c: the one place cl1cc writes its own messages.  Every line starts
 * with "cl1cc: " so users can tell them from nvcc's output.
 */
#include "core.h"

#include <stdlib.h>

static log_level current_level = LOG_NORMAL;

void log_set_level(log_level level) { current_level = level; }
log_level log_get_level(void) { return current_level; }

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
    log_line("error: ", fmt, ap);
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
