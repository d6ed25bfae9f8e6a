/*
 * apply.h: which verified variant of the tuning database applies to a
 * kernel at one place, and the edits that put it there.  One decision for
 * the nvcc wrapper (splice_tu.c), `cl1cc rewrite` and `cl1cc ci`
 * (rewrite_cmd.c): a kernel gets the same entry, launch edits included,
 * whichever of them looks.
 *
 * A place is described by a struct (apply_place): a kernel defined in the
 * main file of a parsed TU, or (APPLY_HEADER_KERNELS) in a project header
 * the main file includes directly (apply_header.c).  A template kernel's
 * variant applies to the instantiations it was verified on only
 * (tunedb_variant.instances): the launches of those name a renamed copy,
 * the template stays.
 */
#ifndef CL1CC_APPLY_H
#define CL1CC_APPLY_H

#include "core.h"
#include "model.h"
#include "rewrite.h"
#include "tunedb.h"
#include "wrapper.h"

/* ---- the place ---------------------------------------------------------- */

/* The launch edits a place can take (docs/REWRITE.md, "Launch edits"). */
enum {
    /* core/launch_rule.h rules ([{"grid_y": 32}] ...): the kernel stays,
     * a copy of the variant goes after it, editable launches pick it */
    APPLY_LAUNCH_RULES = 1u << 0,
    /* edits of launch sites' text ([{"site": N, "field": F, "text": T}]):
     * only where the user sees them (a rewritten file), never in a build */
    APPLY_LAUNCH_SITES = 1u << 1,
    /* not a launch edit: kernels of project headers the main file includes
     * directly are places too (the edits then go into the header's text) */
    APPLY_HEADER_KERNELS = 1u << 8
};

/* The main file's #include directive that brings a header in. */
typedef struct apply_include {
    size_t begin, end;  /* the directive's line in the main file, no newline */
    const char *spelled;/* the header's path as the compiler names it
                           ("inc/k.cuh": the main file's folder and the
                           directive's name), for #line */
} apply_include;

typedef struct apply_place {
    const tu_model *model;
    size_t kernel_index;       /* in model->kernels */
    const char *const *archs;  /* every arch the compile targets */
    size_t n_archs;
    const char *const *codegen_flags; /* nvcc_cmdline's, normalised */
    size_t n_flags;
    unsigned launch_edits;     /* APPLY_LAUNCH_* this place can take */
    const char *file;          /* the file the kernel is defined in */
    int in_header;             /* file is not the main file */
    apply_include include;     /* in_header: the directive that brings it */
} apply_place;

typedef enum apply_where {
    APPLY_HERE,          /* a place a variant can go */
    APPLY_NOT_A_PLACE,   /* a declaration, made by a macro, in another file, or
                            marked `// cl1cc: off` (opt_out.h) */
    APPLY_REWRITTEN,     /* `cl1cc rewrite` put a variant here already */
    APPLY_UNREACHABLE    /* a header kernel whose header cannot be replaced
                            in this TU (*why says why) */
} apply_where;

/* Fills *p for kernel i of m compiled with cl for archs, and says whether a
 * variant can go there at all (strings in a; why: APPLY_UNREACHABLE's
 * reason). */
apply_where apply_place_of_kernel(apply_place *p, const tu_model *m, size_t i,
                                  const nvcc_cmdline *cl, const char *const *archs,
                                  size_t n_archs, unsigned launch_edits, arena *a,
                                  const char **why);

/* ---- the entry ---------------------------------------------------------- */

typedef struct apply_choice {
    tunedb_variant variant; /* the best verified one for every arch */
    const char *key;        /* the kernel's key for the first arch */
} apply_choice;

/* The variant that applies at p: the best verified one of each arch, and
 * the same for every arch (its source and its launch edits: a variant
 * verified on sm_90 says nothing about sm_80).  1 found (strings in a), 0
 * none, -1 database error. */
int apply_choose(tunedb *db, const apply_place *p, arena *a, apply_choice *out, strbuf *err);

/* The last components of the names of kernels with a variant on any of the
 * archs, appended to out (strings in a): a TU that mentions none of them as
 * a word needs no parsing.  0 or -1. */
int apply_kernel_names(tunedb *db, const char *const *archs, size_t n_archs, arena *a,
                       cstr_vec *out, strbuf *err);
/* Whether text holds any of the names as a word (not part of a longer
 * identifier). */
int apply_mentions_any(const char *text, const cstr_vec *names);

/* ---- the edits ---------------------------------------------------------- */

typedef struct apply_edits {
    size_t begin, end;      /* the kernel's definition in its file (p->file) */
    const char *definition; /* what replaces it; NULL: it stays as it is */
    const char *after;      /* NULL, or what goes right after it (a copy) */
    rw_launch_change *launches; /* edits of launch sites (main file), in a */
    size_t n_launches;
} apply_edits;

typedef enum apply_plan_status {
    APPLY_PLANNED = 0,
    APPLY_CANNOT = -1,     /* the variant cannot go here (why says so) */
    APPLY_NOT_TAKEN = -2   /* its launch edits are of a kind p does not take */
} apply_plan_status;

/* How v goes at p: the kernel's new definition, or the kernel kept and a
 * copy after it, and the launch sites' edits.  Strings in a. */
apply_plan_status apply_plan(const apply_place *p, const tunedb_variant *v, arena *a,
                             apply_edits *out, strbuf *why);

/* A template kernel's variant (apply_instance.c): the template stays, the
 * variant goes after it renamed K__cl1cc_inst (*copy_out), and every launch
 * site in the main file after it (a header's template: after the directive
 * that includes the header) whose instantiation (the frontend's
 * resolved template arguments, the written ones saying the same) is one of
 * v->instances names the copy.  0, or -1 with why (no such site, or a
 * variant verified on no instantiation). */
int apply_instance_edits(const apply_place *p, const tunedb_variant *v, arena *a,
                         const char **copy_out, rw_launch_change **launches, size_t *n_launches,
                         strbuf *why);

/* Whether some launch of kernel kernel_index of m names no instantiation
 * (its template arguments deduced inside a function template). */
int apply_has_deduced_launch(const tu_model *m, size_t kernel_index);
/* A template kernel's variant as explicit specializations of the template
 * (apply_specialize.c), one per instantiation v->instances names, in
 * *after (they go right after the template; the template's parameters
 * typedef'd or constexpr in each body): what apply_instance_edits gives
 * where the kernel has a deduced launch.  0, or -1 with why. */
int apply_specializations(const apply_place *p, const tunedb_variant *v, arena *a,
                          const char **after, strbuf *why);

/* ---- header kernels (apply_header.c) ------------------------------------ */

/* The one #include directive of m's main file that brings header (a path as
 * the model names it) in, resolved as the compiler does (the main file's
 * folder for "...", then -I and -isystem of cl).  0, or -1 with why: none,
 * several, or another user file of the TU includes it too. */
int apply_header_include(const tu_model *m, const char *header, const nvcc_cmdline *cl,
                         arena *a, apply_include *out, const char **why);

/* The header's text with edits (its kernels' new text) as the compiler
 * reads it in place of the directive inc: #line directives naming
 * inc->spelled, #pragma once left out (the text is read once, in place),
 * and each "..." include the header's own folder holds named by its
 * absolute path (the text is read from elsewhere).  Appended to out;
 * 0, or -1 with why. */
int apply_header_text(const tu_model *m, const char *header, const apply_include *inc,
                      rw_edit *edits, size_t n_edits, arena *a, strbuf *out, strbuf *why);

/* The files the "..." #include directives of text (the file at path) name
 * beside it, as paths that open them, appended to out (strings in a):
 * `cl1cc revert FILE` restores the headers FILE includes too. */
void apply_local_includes(const char *path, const char *text, size_t len, arena *a,
                          cstr_vec *out);

/* ---- the archs ---------------------------------------------------------- */

/* The archs to look up outside a build: arch_option ("sm_90") when given;
 * else those the flags name (-arch, -code, -gencode), as the wrapper would,
 * "native" being the GPU's (none without a GPU), "all" and virtual archs
 * none; else fallback (may be NULL: the arch a tuning run reports); else
 * the GPU nvidia-smi reports; else nvcc's default arch (flags->gpu_archs).
 * An empty list means nothing applies.  The strings live in a.  0, or -1
 * for a malformed arch_option. */
int apply_archs(const char *arch_option, const nvcc_cmdline *flags, const char *fallback,
                arena *a, cstr_vec *out, strbuf *err);

#endif
