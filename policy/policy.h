/*
 * policy.h: what every policy (the built-in transformation catalogue, the
 * LLM client) is given and what it hands back.  A policy proposes new
 * definitions of one kernel; the tune loop (driver/tune_cmd.c) has the
 * harness verify and time them and feeds the measurements back as history.
 */
#ifndef CL1CC_POLICY_H
#define CL1CC_POLICY_H

#include "core.h"
#include "model.h"

/* One earlier evaluation of a variant of the same kernel. */
typedef struct pol_sample {
    const char *source;  /* the variant's kernel definition */
    const char *label;   /* what made it: "restrict+unroll4", "llm:model r2" */
    const char *verdict; /* "pass", "wrong", "build_error", "crash",
                            "timeout", "bad_reply", ... */
    double speedup;      /* over the original; NaN when not measured */
} pol_sample;

/* Everything a policy may look at for one kernel. */
typedef struct pol_context {
    const tu_model *model;       /* the parsed TU */
    size_t kernel_index;         /* into model->kernels */
    const char *kernel_source;   /* the original definition, exact bytes */
    const char *context_source;  /* the device functions, types, globals and
                                    macros it depends on, in source order */
    const char *launch_summary;  /* one line per launch site:
                                    "k<<<grid, block>>>(args) in main" */
    const char *arch;            /* "sm_90" */
    const char *gpu_name;        /* "NVIDIA H200", or NULL */
    const pol_sample *history;   /* earlier evaluations, oldest first */
    size_t n_history;
    int max_proposals;           /* at most this many proposals */
    int same_launch_only;        /* every variant keeps the launch as
                                    captured (no cl1cc-launch rule): the
                                    wrapper cannot edit the launches of a
                                    kernel defined in a header */
} pol_context;

/* One proposal.  source is a complete definition of the same __global__
 * kernel (same name, same parameters: the harness renames it), or NULL when
 * the proposal failed before it reached the harness; failure then says why
 * in one line ("no code in the reply", "HTTP 503 after 4 tries") and the
 * tune loop records it as a failed evaluation. */
typedef struct pol_proposal {
    const char *source;
    const char *label;
    const char *failure;
} pol_proposal;

typedef VEC(pol_proposal) pol_proposal_vec;

#endif
