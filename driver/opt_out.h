/*
 * opt_out.h: a kernel the user keeps away from cl1cc with a comment, as
 * `// NOLINT` is for clang-tidy: `// cl1cc: off` (or the block comment) on
 * the line before the kernel or on its first line.  The tuner, the nvcc
 * wrapper and `cl1cc rewrite` ask this one predicate.
 */
#ifndef CL1CC_OPT_OUT_H
#define CL1CC_OPT_OUT_H

#include "model.h"

/* 1 when kernel k of m is marked off (its text from m's files), else 0. */
int kernel_opted_out(const tu_model *m, const kernel *k);
/* The same on raw text: the kernel's definition starts at byte begin. */
int text_opts_out(const char *text, size_t len, size_t begin);

#endif
