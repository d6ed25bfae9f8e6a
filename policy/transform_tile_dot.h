/*
 * transform_tile_dot.h: what transform_tile_dot.c finds in a thread-per-
 * output dot-product kernel and what transform_tile_dot_emit.c writes from
 * it (the block-tiled, register-tiled loop).  Private to policy/.
 */
#ifndef CL1_POLICY_TILE_DOT_H
#define CL1_POLICY_TILE_DOT_H

#include "stage_plan.h"

/* one factor array of the product: X[o*S + k] (k_contiguous) or
 * X[k*S + o], o the output's row (side 0, the y index) or column (side 1,
 * the x index) */
typedef struct tile_operand {
    const char *base, *stride;
    int k_contiguous;
    const char *value; /* the value the product takes from it, cl1_v the
                          element read: "alpha * cl1_v" or "cl1_v" */
} tile_operand;

/* the products the sum adds a step: one (gemm), or two (syr2k's
 * "alpha*a[i][k]*b[j][k] + alpha*b[i][k]*a[j][k]") */
#define TILE_DOT_PRODUCTS 2

typedef struct tile_dot_plan {
    stage_plan p;              /* guard, loop, accumulator (stage_analyse) */
    int n_products;            /* 1 or 2: the terms of the sum a step */
    tile_operand op[TILE_DOT_PRODUCTS][2]; /* per product: [0] read by the row
                                              index, [1] by the column index;
                                              a side's layout the same in each */
    const char *pre_decls, *pre, *post;
    /* what tile_pairs (transform_tile_pairs.c) sets, NULL for tile_dot's
     * own: the tiled path's extra entry condition; the rows' and columns'
     * extents (else the grid's threads along y and x); the indices' types
     * (else decltype of the variable); statements run once at the path's
     * start; the sum's first value (else the output read after `pre`);
     * the statement storing an output's sum, cl1_s (else "OUT = cl1_s;") */
    const char *enter, *row_extent, *col_extent, *type[2], *prologue, *start, *finish;
} tile_dot_plan;

/* the tiles: BM x BN outputs a block, BK of the sum a stage, TM x TN
 * outputs a thread; KS (0 or 1: none) splits the sum inside the block: KS
 * groups of threads each sum BK/KS steps of every stage into TM x TN
 * outputs of their own, added together at the end ((BM/TM) * (BN/TN) * KS
 * = 256 threads); AHEAD (0 or 1: one, 2: two) how many stages ahead of
 * the one summed the global loads are issued */
typedef struct tile_dot_shape {
    int bm, bn, bk, tm, tn, ks, ahead;
} tile_dot_shape;

/* the preconditions; 1 with *why when refused */
int tile_dot_analyse(const tu_model *m, const kernel *k, const pol_facts *f, tile_dot_plan *t,
                     arena *a, const char **why);
/* the loop body "cl1_acc0 += F1 * F2 * ..." (stage_render_body's form),
 * or the sum of two such products: in each, two factors reading the
 * operands (t->op), the rest the same everywhere; t->p's loop and thread
 * variables set; 1 with *why when refused */
int tile_dot_parse_product(const tu_model *m, const kernel *k, tile_dot_plan *t, const char *body,
                           arena *a, const char **why);
/* a condition without calls, reads or assignments, which the tiles may
 * evaluate for outputs and rows the original never asked about */
int tile_dot_pure_condition(const char *c);
/* the shape of the tile x tile tiles (32, 64 or 128), the sum split over
 * `split` groups (4, or 0: none), the loads `ahead` stages ahead (1 or 2):
 * 256 threads load 4 elements of each operand a stage, BK = 1024 / BM;
 * split 4: 4 x 4 outputs a thread on 32 x 32 tiles, 8 x 8 on 64 x 64 */
tile_dot_shape tile_dot_shape_of(int tile, int split, int ahead);
/* the tiled path's text (the guard's replacement, "if (shape) { ... " left
 * open for stage_replace_guard) */
const char *tile_dot_emit(const tile_dot_plan *t, const tile_dot_shape *s, const pol_facts *f,
                          arena *a);

#endif
