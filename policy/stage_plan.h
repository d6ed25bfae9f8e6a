/*
 * stage_plan.h: what transform_stage.c finds in a kernel whose threads each
 * walk their own row (the guard, the loop, the staged reads, the
 * accumulators), shared with transform_warp_rows.c, which maps the same
 * loop onto a warp per row instead.  Private to policy/.
 */
#ifndef CL1_POLICY_STAGE_PLAN_H
#define CL1_POLICY_STAGE_PLAN_H

#include "internal.h"

enum { max_tiles = 4, max_accs = 4 };

typedef struct staged {
    const char *base, *squeezed, *type, *stride; /* stride: S of R*S+k */
    int dim;                                     /* 0 x, 1 y, 2 z */
    const char *thread_var;
} staged;

typedef struct accum {
    const char *base, *index, *squeezed, *type;
} accum;

typedef struct stage_plan {
    const char *text;
    size_t len;
    long guard, loop;
    size_t guard_end, open, close;    /* the guard's compound: '{' and '}';
                                         an early return's: its last
                                         character and the kernel's '}' */
    int early_return;                 /* the guard is "if (C) return;" and
                                         the statements after it */
    const char *cond;                 /* the guard's condition (C's negation
                                         for an early return) */
    const char *loop_var, *var_type;  /* var_type: declared in the for, or NULL */
    const char *lower, *upper;
    size_t body_begin, body_end;      /* the loop's statement after ')' */
    const char *thread_var[3];        /* i = blockIdx.D*blockDim.D+threadIdx.D */
    staged tiles[max_tiles];
    size_t n_tiles;
    accum accs[max_accs];
    size_t n_accs;
} stage_plan;

/* stage_analyse's flags: refuse a loop that reads no row by the thread's
 * own index; take the statements after the loop as one text (ifs and
 * blocks allowed, in *post; *post_decls stays empty); with that, loops
 * after the loop allowed too (the caller decides what to do with them);
 * sums kept in a variable declared before the loop ("float s = 0; for
 * (...) s += E;") as accumulators whose index is NULL, their declarations
 * in *pre_decls (only for callers that write "s = s + partial") */
enum { STAGE_NEED_TILES = 1, STAGE_RAW_AFTER = 2, STAGE_LOOPS_AFTER = 4, STAGE_SCALAR_SUMS = 8 };
/* what every transform built on the plan needs first: one block shape in
 * the captures, distinct pointers, the kernel's text without our names;
 * sets p (zeroed) text, len and thread_var; 1 with *why when refused */
int stage_prepare(const tu_model *m, const kernel *k, const pol_facts *f, stage_plan *p, arena *a,
                  const char **why);
/* the preconditions both transforms share; fills p and the statements
 * before (declarations apart) and after the loop; 1 with *why when refused */
int stage_analyse(const tu_model *m, const kernel *k, const pol_facts *f, int flags, arena *a,
                  stage_plan *p, strbuf *pre_decls, strbuf *pre, strbuf *post_decls, strbuf *post,
                  const char **why);
/* every statement of the rendered loop body is "cl1_accN += EXPR" with EXPR
 * free of the accumulators: a sum whose terms may be split among threads */
int stage_sums_only(const char *body, arena *a);
/* the text before the loop (pre) is nothing but "BASE[INDEX] = E;" for
 * p's indexed accumulators, once each, E free of calls, assignments and the
 * accumulated arrays (the loop writes nothing else, so E may be evaluated
 * after it): the element's reset, the barrier after it and the read-back
 * can go, the sum starting from 0 and E joining it at the end.  1 with
 * seeds[c] = E (NULL for an accumulator pre does not reset); 0, every
 * seed NULL, when pre is empty or anything else */
int stage_reset_seeds(const stage_plan *p, const char *pre, arena *a, const char **seeds);
/* the statement that ends accumulator c's sum acc: "OUT = (SEED) + ACC;"
 * with a seed, else "OUT = OUT + ACC;" (OUT: BASE[INDEX], or BASE) */
const char *stage_sum_store(const stage_plan *p, size_t c, const char *seed, const char *acc, arena *a);
/* the loop body with accumulators (and, with tiles, the staged reads)
 * replaced */
const char *stage_render_body(const tu_model *m, const kernel *k, const stage_plan *p, int tiles,
                              arena *a);
/* the edit replacing the guard statement with "REPLACEMENT else GUARD"
 * ("REPLACEMENT else if (ELSE_COND) GUARD" when else_cond is given), its
 * new lines indented like the guard */
void stage_replace_guard(const kernel *k, const stage_plan *p, const char *replacement,
                         const char *else_cond, arena *a, pol_edit_vec *out);

/* the pieces stage_analyse is made of, for the transforms that need fewer
 * preconditions: "int i = blockIdx.x * blockDim.x + threadIdx.x" makes i
 * the thread's index along x (p->thread_var; p->text must be set) */
void stage_find_thread_vars(const tu_model *m, const kernel *k, stage_plan *p, arena *a);
/* stage_find_shape's `after`: ifs (loops) after the loop are allowed */
enum { STAGE_SHAPE_IFS_AFTER = 1, STAGE_SHAPE_LOOPS_AFTER = 2 };
/* the one top-level guard "if (G) { ... }" ending the body, or an early
 * return "if (C) return;" before every top-level loop with the statements
 * after it (G being C's negation), its one for loop (var = lower; var <
 * upper; var++, bounds the same in every thread), no barrier, no inner
 * loop, no if (with `after`: none before the loop or in it): fills guard,
 * early_return, loop, open, close, cond, loop_var, var_type, lower, upper,
 * body_begin, body_end */
int stage_find_shape(const tu_model *m, const kernel *k, stage_plan *p, int after, arena *a,
                     const char **why);
/* 1 when statement st (trimmed, no ';') is "T NAME = INIT" (T float,
 * double or int; NAME not the loop variable) and p's loop only adds to
 * NAME ("NAME += E;" statements, E free of NAME): a sum kept in a
 * variable; *type, *name and *init (trimmed) set.  INIT is not checked */
int stage_summed_declaration(const stage_plan *p, const char *st, arena *a, const char **type,
                             const char **name, const char **init);
/* 1 when body node `node` is a statement of the guard's body (its child;
 * after an early return, a top-level statement after it) */
int stage_in_guard(const kernel *k, const stage_plan *p, size_t node);
/* the for loop at body node `loop` in the forms stage_find_shape accepts:
 * fills loop_var, var_type, lower, upper, body_begin, body_end of p (its
 * text set) */
int stage_parse_loop(const tu_model *m, const kernel *k, stage_plan *p, long loop, arena *a,
                     const char **why);
/* before the guard only the thread indices are declared (a value computed
 * from one would be the thread's), and nothing in the guard reads threadIdx */
int stage_only_thread_vars_before(const kernel *k, const stage_plan *p, arena *a);
/* TK, the columns of every tile (32, 16 or 8), the most for which tiles of
 * rows[t] x (TK + 1) elements fit in 40 KB of shared memory; 0 when none do */
int stage_tile_columns(const stage_plan *p, const int *rows);
/* the condition under which row cl1_row of tile st may be loaded: the
 * guard's conditions on st's thread index, with cl1_row for it; NULL
 * (*why) when a condition mixes two indices */
const char *stage_row_condition(const stage_plan *p, const staged *st, arena *a, const char **why);
/* s split at its top-level (outside brackets) occurrences of sep ("+",
 * "&&", ...) into parts; how many, or max + 1 when there are more */
size_t stage_split_top(const char *s, const char *sep, arena *a, const char **parts, size_t max);
/* the subscripts of base inside body node `loop`; *same: those whose
 * squeezed index is sq */
size_t stage_subscripts_in(const tu_model *m, const kernel *k, long loop, const char *base,
                           const char *sq, arena *a, size_t *same);
/* opens the rewritten path, taken only when blockDim is the captured
 * shape: "if (blockDim.x == X && blockDim.y == Y && blockDim.z == Z) {" */
void stage_open_shape_guard(strbuf *sb, const pol_facts *f);
/* the read-only float arrays p's loop reads at "E + var" (E free of the
 * loop variable), as transform_vec_loads.c finds them: their bases and
 * squeezed indices, at most max; 0 when none, or when the loop also stores
 * by the variable or reads doubles so */
size_t vec_loads_unit_reads(const tu_model *m, const kernel *k, const stage_plan *p, const char **bases,
                            const char **indices, size_t max, arena *a);
/* expr with the identifier name replaced by with */
const char *stage_substitute(const char *expr, const char *name, const char *with, arena *a);

#endif
