/*
 * split_loop.h: what transform_split_loop.c proves of a one-dimensional
 * kernel whose threads each run an outer loop of independent iterations
 * (the guard, the loop, the run-time bounds the proof needs) and the edits
 * that hand the iterations out over a taller grid; transform_tile_pairs.c
 * builds its tiles on the same proof and keeps split_loop's variant as the
 * path for other launches.  Private to policy/.
 */
#ifndef CL1_POLICY_SPLIT_LOOP_H
#define CL1_POLICY_SPLIT_LOOP_H

#include "internal.h"

typedef struct split_plan {
    const char *text;
    size_t len;
    const char *tvar;          /* the thread's index */
    long guard, loop;
    size_t open, close;        /* the guard's braces */
    const char *cond;          /* the guard's condition */
    const char *bound;         /* G of the guard's "tvar < G", or NULL */
    const char *lvar;          /* the loop's variable */
    const char *var_type;      /* its type when the for declares it, else NULL */
    size_t lower_begin, lower_end, step_begin, step_end;
    size_t loop_end;           /* past the loop statement (its ';' too) */
    const char *lower, *upper; /* trimmed */
    int lower_above_thread;    /* lower is "tvar + c", c >= 1 */
    int lower_per_thread;      /* lower uses tvar otherwise than "tvar" or
                                  "tvar + c": it may differ in sign within a block */
    const char *checks;        /* the bounds the proof needs, checked at run
                                  time ("" when none) */
} split_plan;

/* the preconditions and the proof that the loop's iterations (and the
 * guard's statements around the loop) touch no element in common; 1 with
 * *why when refused */
int split_loop_analyse(const tu_model *m, const kernel *k, const pol_facts *f, split_plan *p, arena *a,
                       const char **why);
/* the edits: the grid factor times taller, slice y taking iterations y,
 * y + factor, ...; before_guard (or NULL): text placed right before the
 * guard, after the slices' declarations (cl1cc_split when checks are
 * needed, cl1cc_y0, cl1cc_ystep); 1 with *why when refused */
int split_loop_emit(const tu_model *m, const kernel *k, const split_plan *p, int factor,
                    const char *before_guard, arena *a, pol_edit_vec *out, const char **why);

#endif
