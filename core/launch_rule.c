/*
 * launch_rule.c: the launch rule a variant's first line states: parsed from
 * and printed as its marker text, to and from the tuning database's
 * launch_edits, and the launches it makes as text (the wrapper's copy and
 * the replay driver's rows).
 */
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

/* ---- the launches a rule makes, as text ------------------------------------ */

const char *launch_rule_copy_suffix(const launch_rule *r)
{
    return r->grid_y > 1        ? "__cl1cc_tall"
           : r->grid_x_div > 1 ? "__cl1cc_strided"
           : r->grid_sm        ? "__cl1cc_persistent"
                               : "__cl1cc_reshaped";
}

/* the host function beside a "grid.x sm" copy that sizes its grid: the
 * copy's name and this */
#define SIZER_SUFFIX "_grid"

/* the "grid.x sm" copy on a grid sized at run time, the original grid's x
 * passed last; NULL when the block or shared memory may not be evaluated
 * twice, or the launch does not end in ")" */
static const char *sm_site_launch(const launch_rule_site *s, const char *g, arena *a)
{
    if (!s->block || !s->shmem_repeatable || !s->open_args)
        return NULL;
    const char *b = arena_printf(a, "dim3(%s)", s->block);
    const char *shmem = s->shmem ? arena_printf(a, "(size_t)(%s)", s->shmem) : "0";
    return arena_printf(a, "%s<<<dim3(%s%s(%s, %s, %s), %s.y, %s.z)%s%s%s.x)", s->callee, s->callee,
                        SIZER_SUFFIX, g, b, shmem, g, g, s->open_args, s->has_args ? ", " : "", g);
}

/* one dimension of the reshaped grid (block: 0) or block (1): "g.x / 2u",
 * "b.y * 4u", "g.z" */
static const char *reshaped_dim(const char *v, char dim, int mul, int div, int block, arena *a)
{
    int times = block ? mul : div, by = block ? div : mul;
    return arena_printf(a, "%s.%c%s%s", v, dim, by > 1 ? arena_printf(a, " / %du", by) : "",
                        times > 1 ? arena_printf(a, " * %du", times) : "");
}

const char *launch_rule_site_launch(const launch_rule *r, const launch_rule_site *s, arena *a)
{
    /* dim3(g), not helpers: a helper defined beside a kernel in a
     * namespace would not be seen from a launch outside it */
    const char *g = arena_printf(a, "dim3(%s)", s->grid);
    if (r->grid_y > 1)
        return arena_printf(a, "(%s.y == 1 && %s.z == 1 ? %s<<<dim3(%s.x, %s.y * %du, %s.z)%s : %s)",
                            g, g, s->callee, g, g, r->grid_y, g, s->after_grid, s->original);
    if (r->grid_x_div > 1)
        return arena_printf(a, "(%s.x %% %du == 0 ? %s<<<dim3(%s.x / %du, %s.y, %s.z)%s : %s)", g,
                            r->grid_x_div, s->callee, g, r->grid_x_div, g, g, s->after_grid,
                            s->original);
    if (r->grid_sm)
        return sm_site_launch(s, g, a);
    if (!s->block || !s->after_block)
        return NULL;
    const char *b = arena_printf(a, "dim3(%s)", s->block);
    strbuf c;
    sb_init(&c);
    if (r->x_mul > 1)
        sb_printf(&c, " && %s.x %% %du == 0", g, r->x_mul);
    if (r->y_mul > 1)
        sb_printf(&c, " && %s.y %% %du == 0", g, r->y_mul);
    if (r->x_div > 1)
        sb_printf(&c, " && %s.x %% %du == 0 && %s.x <= 0x7fffffffu / %du", b, r->x_div, g, r->x_div);
    if (r->y_div > 1)
        sb_printf(&c, " && %s.y %% %du == 0 && %s.y <= 65535u / %du", b, r->y_div, g, r->y_div);
    const char *bx = reshaped_dim(b, 'x', r->x_mul, r->x_div, 1, a);
    const char *by = reshaped_dim(b, 'y', r->y_mul, r->y_div, 1, a);
    if (r->x_mul > 1 || r->y_mul > 1)
        sb_printf(&c, " && (%s) * (%s) * %s.z <= 1024u", bx, by, b);
    const char *launch = arena_printf(
        a, "(%s ? %s<<<dim3(%s, %s, %s.z), dim3(%s, %s, %s.z)%s : %s)", sb_str(&c) + 4, s->callee,
        reshaped_dim(g, 'x', r->x_mul, r->x_div, 0, a), reshaped_dim(g, 'y', r->y_mul, r->y_div, 0, a),
        g, bx, by, b, s->after_block, s->original);
    sb_free(&c);
    return launch;
}

const char *launch_rule_copy_text(const launch_rule *r, const char *kernel_name,
                                  const char *copy_name, const char *copy_text, arena *a)
{
    char rule[LAUNCH_RULE_TEXT_MAX];
    if (r->grid_y > 1)
        return arena_printf(a, "\n\n/* cl1cc: a copy of %s for grids %d times as tall */\n%s",
                            kernel_name, r->grid_y, copy_text);
    if (r->grid_x_div > 1)
        return arena_printf(a, "\n\n/* cl1cc: a copy of %s for grids %d times narrower */\n%s",
                            kernel_name, r->grid_x_div, copy_text);
    if (r->grid_sm)
        return arena_printf(
            a, "\n\n/* cl1cc: a copy of %s for grids as wide as the GPU holds at once, and the "
               "function that sizes them */\n%s\n" LAUNCH_SM_GRID_X_FORMAT,
            kernel_name, copy_text, arena_printf(a, "%s%s", copy_name, SIZER_SUFFIX), copy_name);
    return arena_printf(a, "\n\n/* cl1cc: a copy of %s for reshaped blocks (%s) */\n%s",
                        kernel_name, launch_rule_text(r, rule), copy_text);
}

const char *launch_rule_replay_row(const launch_rule *r, arena *a)
{
    return arena_printf(a, "{%d, %d, %d, %d, %d, %d}", r->grid_y, r->x_mul, r->x_div, r->y_mul,
                        r->y_div, r->grid_x_div);
}

const char *launch_rule_replay_sizer(const launch_rule *r, const char *name, const char *kernel,
                                     arena *a)
{
    return r->grid_sm ? arena_printf(a, LAUNCH_SM_GRID_X_FORMAT, name, kernel) : NULL;
}
