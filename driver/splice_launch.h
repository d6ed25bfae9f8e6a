/*
 * splice_launch.h: how the wrapper applies a variant made for a taller grid
 * (core/launch_rule.h).  The user's kernel stays as it is (another file, a
 * function pointer or a launch this cannot edit still gets it); the variant
 * goes in after it as a copy under another name, and each launch site it
 * can edit picks the copy, on a grid F times as tall, when the grid is one
 * block high and deep, and the original otherwise:
 *
 *     k<<<g, b>>>(x)   becomes
 *     (dim3(g).y == 1 && dim3(g).z == 1
 *          ? k__cl1cc_tall<<<dim3(dim3(g).x, dim3(g).y * 32u, dim3(g).z), b>>>(x)
 *          : k<<<g, b>>>(x))
 */
#ifndef CL1CC_SPLICE_LAUNCH_H
#define CL1CC_SPLICE_LAUNCH_H

#include "core.h"
#include "model.h"
#include "rewrite.h"

typedef VEC(rw_edit) rw_edit_vec;

/* Appends to out the edits for kernel kernel_index of m (its definition in
 * the main file) and the variant (for a grid f times as tall): the copy
 * after the definition, and the launch sites.  Returns how many sites were
 * edited; 0 (why says so) when none could be and nothing was appended. */
size_t splice_taller_grid(const tu_model *m, size_t kernel_index, const char *variant, int f,
                          arena *a, rw_edit_vec *out, strbuf *why);

#endif
