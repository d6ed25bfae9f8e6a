/*
 * launch_rule.h: how a variant says it needs another launch configuration.
 * Its first line states the rule (without the blanks inside the comment
 * markers):
 *
 *     / * cl1cc-launch: grid.y x32 * /        a grid 32 times as tall
 *     / * cl1cc-launch: block x*2 y/2 * /     blocks twice as wide and half
 *                                           as tall, grid.x halved and
 *                                           grid.y doubled
 *     / * cl1cc-launch: grid.x /4 * /         a grid a quarter as wide, each
 *                                           block taking 4 of the
 *                                           original's in turn (a
 *                                           grid-stride loop)
 *     / * cl1cc-launch: grid.x sm * /         a grid as wide as the GPU holds
 *                                           at once, sized at run time
 *                                           (LAUNCH_SM_GRID_X_FORMAT below), each
 *                                           block taking the original's
 *                                           blocks in turn; the variant has
 *                                           one more parameter, last: an
 *                                           unsigned int, the original
 *                                           grid's x
 *
 * A block rule reshapes blocks without changing the threads: along each
 * dimension the block is multiplied (x*M: M blocks side by side become one,
 * the grid M times smaller) or divided (x/D: a block split into D, the grid
 * D times larger); z is left alone.  The variant finds its thread's
 * coordinates in the original launch from the new ones.
 *
 * The judge replays it on such launches, the tuning database records the
 * rule in launch_edits ([{"grid_y": F}], [{"block": "x*2 y/2"}],
 * [{"grid_x_div": F}] or [{"grid_x": "sm"}]), and the
 * nvcc wrapper launches a copy of it under another name where the launch
 * meets the rule's conditions (driver/splice_launch.c).
 */
#ifndef CL1_LAUNCH_RULE_H
#define CL1_LAUNCH_RULE_H

#include "core.h"

#define CL1_LAUNCH_MARKER "/* cl1cc-launch: "

typedef struct launch_rule {
    int grid_y;       /* grid.y times this, the block as it is (1: no) */
    int grid_x_div;   /* grid.x divided by this, the block as it is (1: no) */
    int grid_sm;      /* 1: grid.x from the SM count, the original's x passed last */
    int x_mul, x_div; /* block.x times x_mul and divided by x_div (one is 1) */
    int y_mul, y_div; /* the same along y */
} launch_rule;

/* the rule that changes nothing */
launch_rule launch_rule_none(void);
int launch_rule_is_none(const launch_rule *r);
/* the rule of the variant's first line; launch_rule_none() when it has none
 * (or a bad one) */
launch_rule launch_rule_of(const char *source);

enum { LAUNCH_RULE_TEXT_MAX = 64, LAUNCH_RULE_EDITS_MAX = 64 };
/* "grid.y x32", "grid.x /4", "grid.x sm" or "block x*2 y/2" into buf ("" for
 * none) */
const char *launch_rule_text(const launch_rule *r, char buf[LAUNCH_RULE_TEXT_MAX]);
/* the tuning database's launch_edits for the variant, written into buf, or
 * NULL when it needs none */
const char *launch_rule_edits(const char *source, char buf[LAUNCH_RULE_EDITS_MAX]);
/* the rule of launch_edits: 1 and *r set (none for NULL, "[]", "null"), or
 * 0 for anything else (edits the caller does not know how to apply) */
int launch_rule_from_edits(const char *launch_edits, launch_rule *r);

/* ---- the launches a rule makes, as text -------------------------------------
 * The wrapper's and `cl1cc rewrite`'s launch of a copy of the variant
 * (driver/splice_launch.c) and the replay driver's launches
 * (harness/replay_gen.c) are written here, so a new rule is added in this
 * file (and the transform that states it). */

/* the suffix of the name of a kernel's copy made for launches under r
 * ("__cl1cc_tall") */
const char *launch_rule_copy_suffix(const launch_rule *r);

/* One launch site, as text: "k<<<g, b, s>>>(x, n)". */
typedef struct launch_rule_site {
    const char *callee;      /* the copy's name, spelled as the site names it */
    const char *original;    /* the whole launch */
    const char *grid;        /* "g" (it may be evaluated twice) */
    const char *block;       /* "b"; NULL when it may not be evaluated twice */
    int shmem_repeatable;    /* no shared memory size, or one that may be
                                evaluated twice */
    const char *shmem;       /* "s", NULL when none */
    const char *after_grid;  /* ", b, s>>>(x, n)" */
    const char *after_block; /* ", s>>>(x, n)"; NULL when the block's text
                                does not follow the grid's */
    const char *open_args;   /* ", b, s>>>(x, n": the launch after the grid
                                without its closing ')'; NULL when it does
                                not end in ')' */
    int has_args;            /* the launch passes arguments */
} launch_rule_site;

/* The site's launch picking the copy where the launch meets r's conditions,
 * and the original otherwise (shown in driver/splice_launch.h); NULL when
 * this site cannot pick it. */
const char *launch_rule_site_launch(const launch_rule *r, const launch_rule_site *s, arena *a);

/* What goes right after the kernel's definition: blank lines, a comment,
 * the copy (copy_text, named copy_name) and what it needs beside it. */
const char *launch_rule_copy_text(const launch_rule *r, const char *kernel_name,
                                  const char *copy_name, const char *copy_text, arena *a);

/* The replay driver's row for r in its cl1cc_launch_rules table
 * (harness/runtime/cl1cc_replay.cuh: "{grid.y times, block.x times, block.x
 * divided by, block.y times, block.y divided by, grid.x divided by}"), and
 * the function named name that sizes the grid of the variant `kernel` at
 * run time, or NULL when r needs none. */
const char *launch_rule_replay_row(const launch_rule *r, arena *a);
const char *launch_rule_replay_sizer(const launch_rule *r, const char *name, const char *kernel,
                                     arena *a);

/* How the replay driver and the wrapper's launches size a "grid.x sm"
 * grid, as C++ text (one function for both, so the judge times the grid the
 * build launches): the blocks of `kernel` that the current GPU's SMs hold at
 * once (its occupancy for the block and dynamic shared memory), spread
 * over grid.y·grid.z, at most grid.x and at least 1; grid.x itself when any
 * of those queries fails.  NAME is the function's name, KERNEL the kernel's
 * expression. */
#define LAUNCH_SM_GRID_X_FORMAT                                                                    \
    "static unsigned %s(dim3 grid, dim3 block, size_t shmem)\n"                                    \
    "{\n"                                                                                          \
    "    /* the last answer, per host thread: a launch costs no query */\n"                        \
    "    static thread_local int device = -1, threads = 0, fit = 0;\n"                             \
    "    static thread_local size_t bytes = 0;\n"                                                  \
    "    int now = 0, t = (int)(block.x * block.y * block.z);\n"                                   \
    "    if (cudaGetDevice(&now) != cudaSuccess)\n"                                                \
    "        return grid.x;\n"                                                                     \
    "    if (now != device || t != threads || shmem != bytes) {\n"                                 \
    "        int sms = 0, per_sm = 0;\n"                                                           \
    "        if (cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, now) != cudaSuccess ||\n" \
    "            cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, %s, t, shmem) != cudaSuccess)\n" \
    "            return grid.x;\n"                                                                 \
    "        device = now, threads = t, bytes = shmem, fit = sms * per_sm;\n"                      \
    "    }\n"                                                                                      \
    "    unsigned long long others = (unsigned long long)grid.y * grid.z;\n"                       \
    "    unsigned long long x = fit > 0 && others ? (unsigned long long)fit / others : grid.x;\n"  \
    "    return x < 1 ? 1u : x < grid.x ? (unsigned)x : grid.x;\n"                                 \
    "}\n"

#endif
