/*
 * splice_launch.h: how the wrapper and `cl1cc rewrite` apply a variant made
 * for another launch configuration (core/launch_rule.h: a taller grid,
 * reshaped blocks, or a narrower grid).  The user's kernel stays as it is (another file, a
 * function pointer or a launch this cannot edit still gets it); the variant
 * goes in after it as a copy under another name, and each launch site it
 * can edit picks the copy where the launch meets the rule's conditions, and
 * the original otherwise (the launches' text is written by core/launch_rule.c,
 * launch_rule_site_launch; this file decides which sites can take it):
 *
 *     k<<<g, b>>>(x)   becomes, for "grid.y x32",
 *     (dim3(g).y == 1 && dim3(g).z == 1
 *          ? k__cl1cc_tall<<<dim3(dim3(g).x, dim3(g).y * 32u, dim3(g).z), b>>>(x)
 *          : k<<<g, b>>>(x))
 *
 *     and for "block x*2 y/2",
 *     (dim3(g).x % 2u == 0 && dim3(b).y % 2u == 0 && dim3(g).y <= 65535u / 2u
 *          && (dim3(b).x * 2u) * (dim3(b).y / 2u) * dim3(b).z <= 1024u
 *          ? k__cl1cc_reshaped<<<dim3(dim3(g).x / 2u, dim3(g).y * 2u, dim3(g).z),
 *                                dim3(dim3(b).x * 2u, dim3(b).y / 2u, dim3(b).z)>>>(x)
 *          : k<<<g, b>>>(x))
 *
 *     and for "grid.x /4",
 *     (dim3(g).x % 4u == 0 ? k__cl1cc_strided<<<dim3(dim3(g).x / 4u, dim3(g).y, dim3(g).z), b>>>(x)
 *          : k<<<g, b>>>(x))
 *
 *     and for "grid.x sm" (any grid: the copy loops over the original's
 *     blocks, whose number it is passed; its sizing function, beside it,
 *     is core/launch_rule.h's LAUNCH_SM_GRID_X_FORMAT),
 *     k__cl1cc_persistent<<<dim3(k__cl1cc_persistent_grid(dim3(g), dim3(b), 0),
 *                                dim3(g).y, dim3(g).z), b>>>(x, dim3(g).x)
 */
#ifndef CL1CC_SPLICE_LAUNCH_H
#define CL1CC_SPLICE_LAUNCH_H

#include "core.h"
#include "launch_rule.h"
#include "model.h"
#include "rewrite.h"

typedef VEC(rw_edit) rw_edit_vec;

/* The plan for kernel kernel_index of m (its definition in the main file)
 * and the variant (made for launches under rule r): appends to sites the
 * edit of each launch site that can pick the copy, and sets *copy to the
 * text that goes right after the kernel's definition (blank lines, a
 * comment, the copy).  Returns how many sites; 0 (why says so) when none
 * could be edited, and then nothing was appended. */
size_t launch_copy_plan(const tu_model *m, size_t kernel_index, const char *variant,
                        const launch_rule *r, arena *a, rw_edit_vec *sites, const char **copy,
                        strbuf *why);

/* The wrapper's form: the sites' edits and the copy's insertion, appended to
 * out.  Returns what launch_copy_plan returns. */
size_t splice_launch_copy(const tu_model *m, size_t kernel_index, const char *variant,
                          const launch_rule *r, arena *a, rw_edit_vec *out, strbuf *why);

#endif
