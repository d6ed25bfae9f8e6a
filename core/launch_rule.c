/* launch_rule.c: the launch rule a variant's first line states */
#include "launch_rule.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { FACTOR_MAX = 1024 };

launch_rule launch_rule_none(void)
{
    launch_rule r = {1, 1, 0, 1, 1, 1, 1};
    return r;
}

int launch_rule_is_none(const launch_rule *r)
{
    return r->grid_y == 1 && r->grid_x_div == 1 && !r->grid_sm && r->x_mul == 1 && r->x_div == 1 &&
           r->y_mul == 1 && r->y_div == 1;
}

static int factor_ok(long f) { return f >= 2 && f <= FACTOR_MAX; }

/* " x*2", " y/4": one dimension's term; the rest after it in *end */
static int parse_term(const char *s, launch_rule *r, const char **end)
{
    if (s[0] != ' ' || (s[1] != 'x' && s[1] != 'y') || (s[2] != '*' && s[2] != '/'))
        return 0;
    char *after;
    long f = strtol(s + 3, &after, 10);
    if (after == s + 3 || !factor_ok(f) || (s[3] < '0' || s[3] > '9'))
        return 0;
    int *mul = s[1] == 'x' ? &r->x_mul : &r->y_mul, *div = s[1] == 'x' ? &r->x_div : &r->y_div;
    if (*mul != 1 || *div != 1)
        return 0; /* a dimension twice */
    *(s[2] == '*' ? mul : div) = (int)f;
    *end = after;
    return 1;
}

/* "grid.y x32" or "grid.x /4": the factor after prefix, ending at stop */
static int grid_factor(const char *s, const char *stop, const char *prefix, int *out)
{
    size_t n = strlen(prefix);
    char *after;
    if (strncmp(s, prefix, n) != 0 || s[n] < '0' || s[n] > '9')
        return 0;
    long f = strtol(s + n, &after, 10);
    if (!factor_ok(f) || after != stop)
        return 0;
    *out = (int)f;
    return 1;
}

/* the rule text after the marker, up to its closing blank and star-slash:
 * "grid.y x32", "grid.x /4", "grid.x sm" or "block x*2 y/2" */
static int parse_rule(const char *s, const char *stop, launch_rule *r)
{
    *r = launch_rule_none();
    if (stop - s == 9 && strncmp(s, "grid.x sm", 9) == 0)
        return r->grid_sm = 1;
    if (strncmp(s, "grid.", 5) == 0)
        return grid_factor(s, stop, "grid.y x", &r->grid_y) ||
               grid_factor(s, stop, "grid.x /", &r->grid_x_div);
    if (strncmp(s, "block", 5) != 0)
        return 0;
    const char *p = s + 5;
    while (p < stop)
        if (!parse_term(p, r, &p))
            return 0;
    return p == stop && !launch_rule_is_none(r);
}

launch_rule launch_rule_of(const char *source)
{
    launch_rule r = launch_rule_none();
    size_t n = strlen(CL1_LAUNCH_MARKER);
    if (!source || strncmp(source, CL1_LAUNCH_MARKER, n) != 0)
        return r;
    const char *stop = strstr(source + n, " */");
    const char *nl = strchr(source, '\n');
    if (!stop || (nl && nl < stop) || !parse_rule(source + n, stop, &r))
        return launch_rule_none();
    return r;
}

static void put_term(char *buf, size_t size, char dim, int mul, int div)
{
    size_t used = strlen(buf);
    if (mul > 1)
        snprintf(buf + used, size - used, " %c*%d", dim, mul);
    else if (div > 1)
        snprintf(buf + used, size - used, " %c/%d", dim, div);
}

const char *launch_rule_text(const launch_rule *r, char buf[LAUNCH_RULE_TEXT_MAX])
{
    buf[0] = '\0';
    if (r->grid_y > 1) {
        snprintf(buf, LAUNCH_RULE_TEXT_MAX, "grid.y x%d", r->grid_y);
    } else if (r->grid_x_div > 1) {
        snprintf(buf, LAUNCH_RULE_TEXT_MAX, "grid.x /%d", r->grid_x_div);
    } else if (r->grid_sm) {
        snprintf(buf, LAUNCH_RULE_TEXT_MAX, "grid.x sm");
    } else if (!launch_rule_is_none(r)) {
        snprintf(buf, LAUNCH_RULE_TEXT_MAX, "block");
        put_term(buf, LAUNCH_RULE_TEXT_MAX, 'x', r->x_mul, r->x_div);
        put_term(buf, LAUNCH_RULE_TEXT_MAX, 'y', r->y_mul, r->y_div);
    }
    return buf;
}

const char *launch_rule_edits(const char *source, char buf[LAUNCH_RULE_EDITS_MAX])
{
    launch_rule r = launch_rule_of(source);
    if (launch_rule_is_none(&r))
        return NULL;
    char text[LAUNCH_RULE_TEXT_MAX];
    if (r.grid_y > 1)
        snprintf(buf, LAUNCH_RULE_EDITS_MAX, "[{\"grid_y\": %d}]", r.grid_y);
    else if (r.grid_x_div > 1)
        snprintf(buf, LAUNCH_RULE_EDITS_MAX, "[{\"grid_x_div\": %d}]", r.grid_x_div);
    else if (r.grid_sm)
        snprintf(buf, LAUNCH_RULE_EDITS_MAX, "[{\"grid_x\": \"sm\"}]");
    else
        snprintf(buf, LAUNCH_RULE_EDITS_MAX, "[{\"block\": \"%s\"}]",
                 launch_rule_text(&r, text) + strlen("block "));
    return buf;
}

int launch_rule_from_edits(const char *launch_edits, launch_rule *r)
{
    *r = launch_rule_none();
    if (!launch_edits)
        return 1;
    const char *s = launch_edits;
    while (*s == ' ' || *s == '\t' || *s == '\n')
        s++;
    if (strcmp(s, "[]") == 0 || strcmp(s, "null") == 0 || !*s)
        return 1;
    int f = 0, used = 0;
    if (sscanf(s, "[{\"grid_y\": %d}]%n", &f, &used) == 1 && s[used] == '\0' && factor_ok(f)) {
        r->grid_y = f;
        return 1;
    }
    if (sscanf(s, "[{\"grid_x_div\": %d}]%n", &f, &used) == 1 && s[used] == '\0' && factor_ok(f)) {
        r->grid_x_div = f;
        return 1;
    }
    if (strcmp(s, "[{\"grid_x\": \"sm\"}]") == 0) {
        r->grid_sm = 1;
        return 1;
    }
    static const char block[] = "[{\"block\": \"";
    size_t n = strlen(block);
    if (strncmp(s, block, n) != 0)
        return 0;
    const char *stop = strchr(s + n, '"');
    if (!stop || strcmp(stop, "\"}]") != 0)
        return 0;
    char text[LAUNCH_RULE_TEXT_MAX];
    int len = snprintf(text, sizeof text, "block %.*s", (int)(stop - s - n), s + n);
    if (len < 0 || (size_t)len >= sizeof text || !parse_rule(text, text + len, r)) {
        *r = launch_rule_none();
        return 0;
    }
    return 1;
}
