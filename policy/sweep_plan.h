/*
 * sweep_plan.h: what sweep_plan.c finds in a kernel whose threads each walk
 * their own line one step after another, shared by the two variants of
 * such a walk: transform_sweep.c (T steps' loads in registers first),
 * transform_sweep_tile.c (a warp's lines staged through shared memory),
 * transform_sweep_lanes.c and transform_sweep_warp.c (a warp a walk).
 * Private to policy/.
 */
#ifndef CL1_POLICY_SWEEP_PLAN_H
#define CL1_POLICY_SWEEP_PLAN_H

#include <stdint.h>

#include "stage_plan.h"

enum { sweep_max_accesses = 24 };

/* one array access in the loop */
typedef struct sweep_access {
    size_t node;          /* its BODY_SUBSCRIPT */
    const char *base, *index, *type;
    int is_write;
    int write;            /* a read of a written array: that write's access; -1 */
    int distance;         /* the write's step minus this read's */
    int forwarded_now;    /* distance 0, after the write in the step: its value */
} sweep_access;

typedef struct sweep_plan {
    stage_plan p;
    sweep_access acc[sweep_max_accesses];
    size_t n;
} sweep_plan;

/* "t = blockIdx.x*blockDim.x + threadIdx.x; if (G) { for (int v = L; v < U;
 * v++) { W[..] = E; ... } }": the loop only assigns elements of pointer
 * parameters at indices that are sums of products of v, t, scalar
 * parameters, numbers and macros of one value, each moving with v; calls
 * nothing that may store; each array written once a step, its reads at a
 * fixed distance from the write.  s->acc in the order of their position
 * in the text.  1 with *why when refused */
int sweep_analyse(const tu_model *m, const kernel *k, const pol_facts *f, sweep_plan *s, arena *a,
                  const char **why);
/* the index expression at loop value v, every other name at trial's
 * random value; 0 when it is not a sum of products of names and numbers */
int sweep_eval_index(const char *index, const char *loop_var, uint64_t v, int trial, uint64_t *out);
/* the d in [-16, 16] with read(v) == write(v + d) at every trial, or 0
 * with *found 0 */
int sweep_distance(const char *read, const char *write, const char *loop_var, int *found);
/* the assignment whose target is the write subscript at body node w */
const body_node *sweep_assignment_of(const kernel *k, size_t w);
/* the loop body with access i's text replaced by text_of(s, i, ctx)
 * (NULL: left as written) */
const char *sweep_render_body(const kernel *k, const sweep_plan *s,
                              const char *(*text_of)(const sweep_plan *s, size_t i, void *ctx), void *ctx,
                              arena *a);

/* ---- a warp a walk (transform_sweep_lanes.c; sweep_lanes and sweep_warp) ---- */

/* 1 when the step's index moves one element a step (either way) */
int sweep_moves_one_element(const char *index, const char *loop_var);
/* the walk's plan in *s (sweep_analyse); refuses one a warp cannot take
 * (a write not along a row, a walk reading threadIdx or blockIdx, a block
 * not one-dimensional whole warps, a kernel reading blockIdx.y or
 * gridDim.y, a captured grid not flat), else starts sb (the caller frees
 * it) with the shape guard, the lane (cl1_lane), the warp's walks on a
 * grid *factor times as tall, the thread index set to the walk's, and
 * "if (GUARD) {": three braces for the caller to close.  1 with *why when
 * refused (sb not started) */
int sweep_open_warp_walk(const tu_model *m, const kernel *k, const pol_facts *f, sweep_plan *s,
                         strbuf *sb, arena *a, int *factor, const char **why);

#endif
