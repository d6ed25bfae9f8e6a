/* launch_rule.c: the launch rule a variant's first line states */
#include "launch_rule.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int launch_rule_grid_y(const char *source)
{
    size_t n = strlen(CL1_GRID_Y_MARKER);
    if (!source || strncmp(source, CL1_GRID_Y_MARKER, n) != 0)
        return 1;
    char *end;
    long f = strtol(source + n, &end, 10);
    if (end == source + n || strncmp(end, " */", 3) != 0 || f < 2 || f > 1024)
        return 1;
    return (int)f;
}

const char *launch_rule_edits(const char *source, char buf[LAUNCH_RULE_EDITS_MAX])
{
    int f = launch_rule_grid_y(source);
    if (f <= 1)
        return NULL;
    snprintf(buf, LAUNCH_RULE_EDITS_MAX, "[{\"grid_y\": %d}]", f);
    return buf;
}

int launch_rule_edits_grid_y(const char *launch_edits)
{
    if (!launch_edits)
        return 1;
    const char *s = launch_edits;
    while (*s == ' ' || *s == '\t' || *s == '\n')
        s++;
    if (strcmp(s, "[]") == 0 || strcmp(s, "null") == 0 || !*s)
        return 1;
    int f = 0, used = 0;
    if (sscanf(s, "[{\"grid_y\": %d}]%n", &f, &used) == 1 && s[used] == '\0' && f >= 2 && f <= 1024)
        return f;
    return 0;
}
