/*
 * ci.h: what `cl1cc ci`'s files share (ci_cmd.c runs the job,
 * ci_changes.c finds the files a change touched).
 */
#ifndef CL1CC_CI_H
#define CL1CC_CI_H

#include "core.h"

/* git ARGS in cwd (NULL: here), its output into out; 0, or -1 with err */
int ci_git(const char *const *args, const char *cwd, strbuf *out, strbuf *err);
/* s appended to v (a copy in a) unless v holds it */
void ci_push_unique(cstr_vec *v, const char *s, arena *a);
/* The .cu files of the repository at top that BASE...HEAD changed, and
 * those including a changed .cuh, into out; base_opt NULL: origin/main
 * when it exists, else HEAD~1 (*base_out says which); 0, or -1 with err */
int ci_changed_files(const char *base_opt, const char *top, arena *a, const char **base_out,
                     cstr_vec *out, strbuf *err);

#endif
