/*
 * macro_launch.h (harness-internal): a launch written by a function-like or
 * object-like macro, expanded one level by hand (parameters replaced by the
 * invocation's arguments) so that capture can put the instrumented launch
 * in place of the macro's invocation.
 */
#ifndef CL1CC_MACRO_LAUNCH_H
#define CL1CC_MACRO_LAUNCH_H

#include "core.h"
#include "model.h"

typedef struct hn_macro_launch {
    const char *before;  /* the expansion's text before the launch */
    const char *callee;  /* the kernel, a plain identifier */
    const char *grid, *block, *shmem, *stream; /* shmem, stream: NULL if absent */
    const char **args;
    size_t n_args;
    const char *after;   /* the expansion's text after the launch */
} hn_macro_launch;

/* The launch l (made by a macro invoked in the main file at l->range) as
 * the macro's body with the invocation's arguments in place of its
 * parameters, when that body holds exactly one launch, of the kernel
 * named `name` as a plain identifier.  Strings in a.  0, or -1 with why
 * (a macro of no user file or defined twice, # or ## in its body, another
 * macro's expansion making the launch, ...). */
int hn_macro_launch_expand(const tu_model *m, const launch_site *l, const char *name, arena *a,
                           hn_macro_launch *out, const char **why);

#endif
