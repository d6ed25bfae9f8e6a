/*
 * splice_launch.h: how the wrapper and `cl1cc rewrite` apply a variant made
 * for a taller grid (core/launch_rule.h).  The user's kernel stays as it is (another file, a
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

/* The plan for kernel kernel_index of m (its definition in the main file)
 * and the variant (for a grid f times as tall): appends to sites the edit
 * of each launch site that can pick the copy, and sets *copy to the text
 * that goes right after the kernel's definition (blank lines, a comment,
 * the copy).  Returns how many sites; 0 (why says so) when none could be
 * edited, and then nothing was appended. */
size_t taller_grid_plan(const tu_model *m, size_t kernel_index, const char *variant, int f,
                        arena *a, rw_edit_vec *sites, const char **copy, strbuf *why);

/* The wrapper's form: the sites' edits and the copy's insertion, appended to
 * out.  Returns what taller_grid_plan returns. */
size_t splice_taller_grid(const tu_model *m, size_t kernel_index, const char *variant, int f,
                          arena *a, rw_edit_vec *out, strbuf *why);

#endif
