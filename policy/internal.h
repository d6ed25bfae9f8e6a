/*
 * internal.h: what the built-in policy's files share (text helpers over a
 * kernel's source).  Not part of the public face (builtin.h).
 */
#ifndef CL1CC_POL_INTERNAL_H
#define CL1CC_POL_INTERNAL_H

#include "builtin.h"
#include "cuda_text.h"
#include "launch_rule.h"

/* ---- the catalogue's table (catalogue.c) ---------------------------------- */

/* the launch a transform's variant may state (core/launch_rule.h) */
typedef enum pol_launch_kind {
    POL_LAUNCH_SAME = 0,        /* the launch as captured */
    POL_LAUNCH_TALLER_GRID,     /* "grid.y xF" */
    POL_LAUNCH_RESHAPED_BLOCKS, /* "block x*M y/D" */
    POL_LAUNCH_NARROWER_GRID,   /* "grid.x /F" */
    POL_LAUNCH_SM_GRID          /* "grid.x sm" */
} pol_launch_kind;

enum {
    POL_REWRITES_LOOP = 1,     /* rewrites the loop (or its reads) whole: one such
                                  transform in a combination at most */
    POL_WITH_LOOP_REWRITE = 2, /* may join a POL_REWRITES_LOOP transform */
    POL_WITH_RESHAPE = 4       /* may join a block reshape or grid-stride loop:
                                  writes no new text naming threadIdx, blockIdx,
                                  blockDim or gridDim */
};

/* a transform's function: factor and factor2 are its row's */
typedef int pol_transform_fn(const tu_model *m, const kernel *k, const pol_facts *f, int factor,
                             int factor2, arena *a, pol_edit_vec *out, const char **why);

typedef struct pol_catalogue_entry {
    const char *name;       /* "unroll4" */
    const char *family;     /* "unroll": members differ in their factors only */
    unsigned flags;         /* POL_REWRITES_LOOP, ... */
    pol_launch_kind launch; /* the launch rule its variants may state */
    pol_transform_fn *run;
    int factor, factor2;
} pol_catalogue_entry;

/* row i (i < pol_transform_count()), or NULL */
const pol_catalogue_entry *pol_catalogue_at(size_t i);
/* the row named name, or NULL */
const pol_catalogue_entry *pol_catalogue_find(const char *name);
/* the row of the n bytes at name, or -1 */
long pol_transform_index(const char *name, size_t n);

/* ---- text helpers ----------------------------------------------------------- */

/* c can be part of an identifier (a letter, a digit, '_') */
int pol_ident_char(int c);
/* the file's bytes, or NULL */
const char *pol_file_text(const tu_model *m, const src_range *r, size_t *len);
/* the text of r in a ("" when unavailable) */
const char *pol_text(const tu_model *m, const src_range *r, arena *a);
/* how often name occurs as a whole identifier in text [begin, end) of the
 * file, comments and strings included (a conservative count) */
size_t pol_count_identifier(const char *text, size_t begin, size_t end, const char *name);
/* pol_count_identifier without member names ("v.x", "p->x"): the
 * occurrences that can be a variable of that name */
size_t pol_count_variable(const char *text, size_t begin, size_t end, const char *name);
/* name (NULL: none) occurs in text as a whole identifier */
int pol_mentions(const char *text, const char *name);
/* the n bytes at s without leading and trailing blanks, in a */
const char *pol_trim(const char *s, size_t n, arena *a);
/* the identifiers of s, each once, in a */
size_t pol_identifiers(const char *s, arena *a, const char ***out);
/* s without whitespace, in a: for comparing expressions */
const char *pol_squeeze(const char *s, arena *a);
/* how many assignments (and declarations) of k's body have name as their
 * target */
size_t pol_assignments(const tu_model *m, const kernel *k, const char *name, arena *a);
/* expr is the same in every thread of a block: no thread index, nothing
 * the kernel assigns, no memory read, no ++ or -- */
int pol_block_uniform(const tu_model *m, const kernel *k, const char *expr, arena *a);
/* offset of the start of the line holding offset, and whether only blanks
 * stand between it and offset */
size_t pol_line_start(const char *text, size_t offset, int *only_blanks);
/* the leading blanks of the line starting at line_start, in a */
const char *pol_indent(const char *text, size_t line_start, arena *a);
/* the element type a pointer parameter points to, without const or
 * restrict ("float"); NULL when it is not a plain pointer */
const char *pol_pointee_type(const kernel_param *p, arena *a);
/* the parameter named name, or NULL */
const kernel_param *pol_param(const kernel *k, const char *name);
/* the loop around node i (its nearest BODY_LOOP ancestor), or -1; with
 * direct set, only when no BODY_IF stands between */
long pol_enclosing_loop(const kernel *k, size_t i, int direct);
/* 1 when node j lies inside node i's range */
int pol_node_inside(const kernel *k, size_t j, size_t i);
/* "\r\n" when the line holding offset ends so (a CRLF file), else "\n" */
const char *pol_newline(const char *text, size_t len, size_t offset);
/* the text from the line before offset back to its line start: is it a
 * #pragma line? */
int pol_pragma_before(const char *text, size_t line_start);

/* the body reads through the pointer parameter name (at least once) and
 * does nothing else with it: no write, no address taken, no arithmetic,
 * no call */
int pol_param_read_only(const tu_model *m, const kernel *k, const char *name);
/* no launch site of k passes the same expression for two pointers */
int pol_launch_sites_distinct(const tu_model *m, const kernel *k);

/* the top-level declaration "T v = blockIdx.D * blockDim.D + threadIdx.D"
 * (dim 'x', 'y' or 'z'; the terms in any order): its body node, *name and
 * *initializer (the file offset just after its '='), or -1
 * (thread_index.c) */
long pol_thread_index_decl(const tu_model *m, const kernel *k, char dim, arena *a,
                           const char **name, size_t *initializer);
/* the edit that makes a variant's first line state the taller-grid rule
 * (core/launch_rule.h): grid.y times factor */
pol_edit pol_grid_y_marker(const tu_model *m, const kernel *k, int factor, arena *a);
/* which block of the original grid, and which of its `factor` slices, a
 * block of the taller grid takes: *bx and *by name them in the text the
 * caller renders.  Where nothing in k but its index declaration reads
 * blockIdx (pol_other_thread_identity), sb gets declarations that, on a
 * grid exactly `factor` times as tall, give consecutive blocks in launch
 * order consecutive slices of one original block, so that neighbouring
 * data is read at the same time, as by the original's blocks (on a 64 MB
 * matrix, testsuite/bench/sums_check.cu on an H100: col_split8 57% -> 60%
 * of the copy bandwidth, wide_rows_vec 80% -> 81%; what the hand-written
 * sums' 82% and 91% had beside was no loop of one trip, which the
 * transforms now leave out on that grid, testsuite/bench/sums_parts.cu);
 * on any other
 * height, and for other kernels, blockIdx.x and blockIdx.y (text.c) */
void pol_taller_block_ids(const tu_model *m, const kernel *k, int factor, strbuf *sb, const char **bx,
                          const char **by);
/* NULL when nothing in k tells its threads apart but `decls` such
 * declarations (no other threadIdx, blockIdx, blockDim, gridDim, shared
 * memory, warp intrinsics, asm, and no call but to math functions, atomics
 * and "__" intrinsics, since a device function could read them); else the
 * first identifier that does */
const char *pol_other_thread_identity(const tu_model *m, const kernel *k, size_t decls);
/* 1 for CUDA's math library (float forms with a trailing 'f') and
 * min/max/abs: calls with no effect but their value (thread_index.c) */
int pol_math_call(const char *callee);
/* NULL when the threads of k share nothing but memory: no shared memory,
 * warp intrinsic, asm, or call but to math functions, atomics and "__"
 * intrinsics (barriers are the caller's to check); else the first thing
 * that is shared */
const char *pol_block_sharing(const tu_model *m, const kernel *k);
/* the edit that makes a variant's first line state a launch rule
 * (core/launch_rule.h) */
pol_edit pol_launch_marker(const tu_model *m, const kernel *k, const launch_rule *r, arena *a);

/* the transforms (transform_*.c): 0 applied, 1 refused (*why) */
int pol_transform_restrict(const tu_model *m, const kernel *k, const pol_facts *f, arena *a,
                           pol_edit_vec *out, const char **why);
int pol_transform_regacc(const tu_model *m, const kernel *k, const pol_facts *f, arena *a,
                         pol_edit_vec *out, const char **why);
int pol_transform_unroll(const tu_model *m, const kernel *k, int factor, arena *a,
                         pol_edit_vec *out, const char **why);
/* min_blocks > 0: "__launch_bounds__(threads, min_blocks)", asking the
 * compiler to fit that many blocks on an SM (fewer registers a thread) */
int pol_transform_launch_bounds(const tu_model *m, const kernel *k, const pol_facts *f,
                                int min_blocks, arena *a, pol_edit_vec *out, const char **why);
int pol_transform_ldg(const tu_model *m, const kernel *k, const pol_facts *f, arena *a,
                      pol_edit_vec *out, const char **why);
int pol_transform_fast_math(const tu_model *m, const kernel *k, const pol_facts *f, arena *a,
                            pol_edit_vec *out, const char **why);

int pol_transform_stage(const tu_model *m, const kernel *k, const pol_facts *f, arena *a,
                        pol_edit_vec *out, const char **why);
/* rows: how many rows a warp sums at once (1, 4, 8): more loads in flight */
int pol_transform_warp_rows(const tu_model *m, const kernel *k, const pol_facts *f, int rows,
                            arena *a, pol_edit_vec *out, const char **why);
/* warp_rows with a warp per row on a grid 32 times as tall (the variant
 * states the launch rule, core/launch_rule.h); vec: the row's float reads
 * 16 bytes a lane (wide_rows_vec) */
int pol_transform_wide_rows(const tu_model *m, const kernel *k, const pol_facts *f, int vec, arena *a,
                            pol_edit_vec *out, const char **why);
/* a lone thread's sum over a loop (the guard "tid == 0") split over its block */
int pol_transform_block_reduce(const tu_model *m, const kernel *k, const pol_facts *f, arena *a,
                               pol_edit_vec *out, const char **why);
/* atomicAdd statements on a pointer parameter aggregated over the warp */
int pol_transform_atomic_warp(const tu_model *m, const kernel *k, const pol_facts *f, arena *a,
                              pol_edit_vec *out, const char **why);
/* the grid's two implicit loops interchanged: lanes take neighbouring j */
int pol_transform_interchange(const tu_model *m, const kernel *k, const pol_facts *f, arena *a,
                              pol_edit_vec *out, const char **why);
/* a one-dimensional kernel's threads spread over a grid F times as tall
 * (F = threads per block / 32): blocks on more SMs */
int pol_transform_spread(const tu_model *m, const kernel *k, const pol_facts *f, arena *a,
                         pol_edit_vec *out, const char **why);
/* the thread's outer loop of independent iterations handed out over a
 * grid factor times as tall (iteration y, y + F, ... to slice y) */
int pol_transform_split_loop(const tu_model *m, const kernel *k, const pol_facts *f, int factor,
                             arena *a, pol_edit_vec *out, const char **why);
/* register blocking of a two-dimensional loop nest (matrix multiply): each
 * thread computes ry x rx outputs of the blocks folded into its own */
int pol_transform_regblock(const tu_model *m, const kernel *k, const pol_facts *f, int ry, int rx,
                           arena *a, pol_edit_vec *out, const char **why);
/* a column's sum split over the block: width columns by threads/width row
 * phases, partial sums meeting in shared memory (a grid block.x/width times
 * as tall when that is more than 1) */
int pol_transform_col_split(const tu_model *m, const kernel *k, const pol_facts *f, int width,
                            arena *a, pol_edit_vec *out, const char **why);
/* a thread's sequential walk (one loop of array assignments at indices
 * that move with the loop variable) run `steps` steps at a time, every
 * step's loads issued first, the earlier steps' stores forwarded */
int pol_transform_sweep(const tu_model *m, const kernel *k, const pol_facts *f, int steps,
                        arena *a, pol_edit_vec *out, const char **why);
/* the same walk where no step reads what an earlier step wrote, a warp a
 * walk on a grid 32 times as tall, the lanes taking consecutive steps,
 * per_lane each at a time (transform_sweep_lanes.c) */
int pol_transform_sweep_lanes(const tu_model *m, const kernel *k, const pol_facts *f, int per_lane,
                              arena *a, pol_edit_vec *out, const char **why);
/* the same walk, a chain included (a step reading what an earlier one
 * wrote), a warp a walk: lanes load and store 32 steps' elements, every lane
 * runs the steps in order, values passed by __shfl_sync
 * (transform_sweep_warp.c) */
int pol_transform_sweep_warp(const tu_model *m, const kernel *k, const pol_facts *f, arena *a,
                             pol_edit_vec *out, const char **why);
/* the same walk along rows, a warp's 32 rows staged `steps` steps at a
 * time through shared memory (coalesced loads and stores; with prefetch,
 * the next tile's loads in flight while a tile's steps run); its text
 * needs spread's edits (transform_spread.c) beside it */
int pol_transform_sweep_tile(const tu_model *m, const kernel *k, const pol_facts *f, int steps,
                             int prefetch, arena *a, pol_edit_vec *out, const char **why);
/* a thread's loop reading read-only float (double) arrays at E + j (or
 * storing to one at E + j) takes 4 (2) iterations a step with 16-byte
 * loads and stores, bodies run in order */
int pol_transform_vec_loads(const tu_model *m, const kernel *k, const pol_facts *f, arena *a,
                            pol_edit_vec *out, const char **why);
/* the launch's blocks reshaped (factor > 0: factor times as wide, < 0:
 * -factor times narrower; the thread count kept for 2-D blocks), the
 * kernel's coordinates in the original launch computed from the new ones */
int pol_transform_reshape(const tu_model *m, const kernel *k, const pol_facts *f, int factor,
                          arena *a, pol_edit_vec *out, const char **why);
/* a grid-stride loop: the grid factor times narrower along x, each block
 * running factor of the original's blocks in turn */
int pol_transform_grid_stride(const tu_model *m, const kernel *k, const pol_facts *f, int factor,
                              arena *a, pol_edit_vec *out, const char **why);
/* a two-dimensional stencil's reads of a read-only array through a shared
 * tile of the block's own elements (transform_stencil.c) */
int pol_transform_stencil_tile(const tu_model *m, const kernel *k, const pol_facts *f, arena *a,
                               pol_edit_vec *out, const char **why);
/* a grid-stride loop on a grid sized from the SM count at run time
 * ("grid.x sm"): the original grid's width as one more parameter, last */
int pol_transform_grid_sm(const tu_model *m, const kernel *k, const pol_facts *f, arena *a,
                          pol_edit_vec *out, const char **why);
/* block and register tiling of a thread-per-output dot product (gemm,
 * syrk, transposed operands): tile x tile outputs a block (32: 2 x 2 a
 * thread, 64: 4 x 4, 128: 8 x 8), double-buffered shared stages, the
 * launch kept; split 4: the sum split over four groups of the block's
 * threads (32: 4 x 4 a thread, 64: 8 x 8), for outputs too small to give
 * every SM tiles; ahead 2: the global loads two stages ahead of the one
 * summed, not one (transform_tile_dot.c) */
int pol_transform_tile_dot(const tu_model *m, const kernel *k, const pol_facts *f, int tile, int split,
                           int ahead, arena *a, pol_edit_vec *out, const char **why);
/* `tile_pairs64`: a thread-per-row kernel whose outer loop sums a column
 * product for each pair (covariance), tiled over the pairs on a grid
 * factor times taller; split 4: tile_dot's split shape, 8 x 8 pairs a
 * thread; ahead 2: the loads two stages ahead (transform_tile_pairs.c) */
int pol_transform_tile_pairs(const tu_model *m, const kernel *k, const pol_facts *f, int factor, int split, int ahead,
                             arena *a, pol_edit_vec *out, const char **why);

#endif
