/*
 * roofline_int.h: what the roofline's files share inside the harness (its
 * public face is harness.h's "roofline" part): evaluating the frontend's
 * expression text (roofline_eval.c).
 */
#ifndef CL1CC_ROOFLINE_INT_H
#define CL1CC_ROOFLINE_INT_H

#include "harness.h"

/* the value of name[0..len) into *out; 0, or -1 when unknown */
typedef int (*rl_lookup)(void *data, const char *name, size_t len, double *out);

/* text's value; 0, or -1 when it does not parse or a name is unknown */
int rl_eval(const char *text, rl_lookup lookup, void *data, double *out);
/* text (its outer parentheses dropped) split at sep outside parentheses,
 * each part unwrapped too, strings in a; how many (0 when over max) */
size_t rl_split(const char *text, const char *sep, const char **parts, size_t max, arena *a);
/* rl_split applied again to each part: "(a && b) && c" gives a, b, c */
size_t rl_flatten(const char *text, const char *sep, const char **parts, size_t max, arena *a);

#endif
