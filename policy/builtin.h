/*
 * builtin.h: the built-in policy.  A catalogue of source-level rewrites of a
 * kernel, each refusing when its preconditions do not hold; the features of
 * a kernel the chooser learns from; the chooser (a pairwise model over
 * measured variants) that orders what to try; and the search that turns
 * the history of one kernel into the next proposals.  Pure: no GPU, no
 * database, no files except the chooser's own model file.
 */
#ifndef CL1CC_POL_BUILTIN_H
#define CL1CC_POL_BUILTIN_H

#include "core.h"
#include "model.h"
#include "policy.h"
#include "text_edit.h"

/* ---- source edits (edits.c) --------------------------------------------- */

/* An edit of the kernel's file (core/text_edit.h): [begin, end) replaced by
 * text; insertions (begin == end) at the same place are applied in
 * increasing order. */
typedef text_edit pol_edit;
typedef text_edit_vec pol_edit_vec;

/* The kernel's definition with edits applied (they must lie inside the
 * definition and not overlap, insertions aside); the string lives in a.
 * 0; 1 when two edits overlap; -1 otherwise; the reason in err. */
int pol_edits_render(const tu_model *m, const kernel *k, const pol_edit *edits, size_t n,
                     arena *a, const char **source_out, strbuf *err);

/* ---- what a transform may know besides the source ------------------------- */

typedef struct pol_facts {
    int block_threads;      /* threads per block seen at every captured
                               launch (the largest), 0 when unknown */
    int pointers_distinct;  /* 1 when every captured launch passed pointer
                               arguments into pairwise distinct allocations */
    int fast_math;          /* the user opted into fast intrinsics */
    int block[3];           /* the block shape (x, y, z) when every captured
                               launch used the same one, else 0s */
    int flat_grid;          /* 1 when every captured grid was one block
                               high and deep (y = z = 1) */
    unsigned grid_gcd[3];   /* the greatest common divisor of the captured
                               grids' x, y and z (0s when none known) */
    unsigned grid_max[3];   /* and their largest */
    double headroom;        /* 1 - the best time's fraction of the roofline
                               limit, 0..1 (docs/TUNING.md); 0 when unknown */
} pol_facts;

/* ---- the catalogue (catalogue.c and transform_*.c) ------------------------ */

/* Appends the edits of transform `name` for k to out.  0 applied; 1 refused
 * (*why says which precondition fails); -1 unknown transform. */
int pol_transform(const char *name, const tu_model *m, const kernel *k, const pol_facts *f,
                  arena *a, pol_edit_vec *out, const char **why);

/* The catalogue's transform names, in a fixed order ("restrict",
 * "regacc", "unroll2", ...). */
size_t pol_transform_count(void);
const char *pol_transform_name(size_t i);

/* A combination "a+b+c" (names in catalogue order) applied to k: the
 * rendered source in *source_out.  0; 1 refused (*why); -1 error (err). */
int pol_apply_combination(const char *combination, const tu_model *m, const kernel *k,
                          const pol_facts *f, arena *a, const char **source_out,
                          const char **why, strbuf *err);

/* ---- features (features.c) ------------------------------------------------ */

enum { POL_NFEATURES = 13, POL_FEATURE_HEADROOM = 12 };
const char *pol_feature_name(size_t i);
/* Needs k->body (fe_options.with_bodies). */
void pol_kernel_features(const tu_model *m, const kernel *k, const pol_facts *f,
                         double out[POL_NFEATURES]);

/* ---- the chooser (chooser.c) ----------------------------------------------- */

typedef struct pol_chooser pol_chooser;

pol_chooser *pol_chooser_new(void);
void pol_chooser_free(pol_chooser *c);
/* Reads a model written by pol_chooser_save.  0, or -1 (err names the
 * file); transforms or features the file does not know start at 0.  A
 * model with observations is fitted again on them (its weights follow
 * from them), so every transform of this build that they measured gets
 * its weights. */
int pol_chooser_load(const char *path, pol_chooser **out, strbuf *err);
int pol_chooser_save(const pol_chooser *c, const char *path, strbuf *err);

/* How promising a combination is for a kernel with these features: the sum
 * of its transforms' scores (higher first). */
double pol_chooser_score(const pol_chooser *c, const double features[POL_NFEATURES],
                         const char *combination);

/* 1 when every transform of the combination is in some variant the
 * chooser has measured (its observations) */
int pol_chooser_measured(const pol_chooser *c, const char *combination);

/* The order to try labels[0..n) in (rank.c): by score, higher first, ties
 * in the order given (c NULL: the order given); with diversify, each
 * family's best first (regblock2x2/4x2/4x4 are one family, as are
 * unroll2/4/8, warp_rows/4/8, split_loop/256; a combination's family is
 * its members'), then each family's second, ...  A label the chooser never
 * measured whose family has a measured label here (a new factor of a
 * known idea: col_split4 beside col_split8) scores as that family's best
 * and is tried beside it, in the first tier.  order[i] is an index into
 * labels.  0, or -1 out of memory. */
int pol_rank(const pol_chooser *c, const double features[POL_NFEATURES], const char *const *labels,
             size_t n, int diversify, size_t *order);
/* Whether two labels differ only in their transforms' factors. */
int pol_same_family(const char *a, const char *b);

/* One kernel's measured variants: combination and speedup (0 for a variant
 * that failed).  Learns from every pair with different speedups that the
 * faster one should score higher (a logistic loss on the score difference,
 * weighted by the log of the speedup ratio).  Returns pairs learned from. */
size_t pol_chooser_learn(pol_chooser *c, const double features[POL_NFEATURES],
                         const char *const *combinations, const double *speedups, size_t n);
size_t pol_chooser_pairs_seen(const pol_chooser *c);
/* What it has learned from, oldest first (for replays and reports): the
 * features, combinations and speedups of observation i; 0, or -1 past the
 * end.  The pointers stay valid until the chooser learns or is freed. */
size_t pol_chooser_observation_count(const pol_chooser *c);
int pol_chooser_observation(const pol_chooser *c, size_t i, const double **features,
                            const char *const **combinations, const double **speedups,
                            size_t *n);

/* ---- the search (search.c) ------------------------------------------------- */

typedef struct pol_search_options {
    const pol_chooser *chooser; /* NULL: catalogue order */
    int random_order;           /* ignore the chooser: a seeded shuffle */
    unsigned long long seed;
    pol_facts facts;
} pol_search_options;

/* The next proposals for one kernel given its history (labels are
 * combinations): first every single transform that applies, best-scored
 * first; then the best verified combination extended by each transform
 * that was not slower on its own.  Proposals whose source equals one already
 * tried are skipped.  Appends at most ctx->max_proposals to out (strings
 * in a) and returns how many; 0 when the search is over. */
size_t pol_builtin_propose(const pol_context *ctx, const pol_search_options *o, arena *a,
                           pol_proposal_vec *out);

#endif
