/*
 * deduced_launch.h (harness-internal): a template kernel's launch whose
 * template arguments are deduced where no instantiation can be named (inside
 * a function template).  Capture declares a "twin" of the kernel: a host
 * function template with the kernel's template header and parameter types,
 * never defined, whose return type names the instantiation a call deduces
 * (cl1cc_capture::kernel_tag<decltype(&k<T, N>), &k<T, N>>), so that
 * decltype(twin(args...)) at the launch gives the instantiation's pointer.
 */
#ifndef CL1CC_DEDUCED_LAUNCH_H
#define CL1CC_DEDUCED_LAUNCH_H

#include "core.h"
#include "model.h"

typedef struct hn_twin {
    size_t at;        /* where the declaration goes, a byte of the launch's file */
    const char *decl; /* the declaration, in the kernel's namespace */
    const char *call; /* its name from anywhere: "::dk::cl1cc_twin_scale_0" */
} hn_twin;

/* The twin for launch number index (l, of the template kernel k): placed
 * right after k's definition when k is defined in the launch's file before the
 * launch, else (k of a header) before the top-level declaration that holds
 * the launch, in k's namespaces opened again.  Strings in a.  0, or -1 with
 * why (an unnamed template parameter, one neither deduced nor defaulted in
 * the definition, k defined after the launch, ...). */
int hn_twin_make(const tu_model *m, const launch_site *l, size_t index, arena *a, hn_twin *out,
                 const char **why);

/* whether a launch argument is a lambda expression ("[=] __device__ (...)
 * {...}"): its type is its own, so capture evaluates it once, before the
 * twin's call names its type */
int hn_arg_is_lambda(const char *text);

#endif
