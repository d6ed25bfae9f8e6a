/*
 * cuda_text.h: the one scanner of CUDA source text: where comments, string
 * and character literals and bracketed groups end.  The policy's text
 * helpers, its reader of a model's replies and the launch-expression checks
 * use it instead of skipping comments and quotes each their own way.
 */
#ifndef CL1_CUDA_TEXT_H
#define CL1_CUDA_TEXT_H

#include <stddef.h>

/* The offset where the comment starting at t[i] ("//" or slash-star) ends:
 * a line comment at its newline (a backslash-newline continues it), a block
 * comment just past its star-slash; len when it does not end.  i when no
 * comment starts there. */
size_t ctext_skip_comment(const char *t, size_t len, size_t i);

/* The offset just past the string or character literal whose opening quote
 * is t[i] (escapes and backslash-newlines inside it), or the offset of the
 * newline (or len) where an unterminated one stops.  i when t[i] is no
 * quote. */
size_t ctext_skip_literal(const char *t, size_t len, size_t i);

/* The first offset from i on, below len, that is neither a blank nor in a
 * comment. */
size_t ctext_skip_blanks(const char *t, size_t len, size_t i);

/* The offset of the bracket closing the '(', '[' or '{' at open (brackets
 * in comments and in literals do not count, nor brackets of the other two
 * kinds), or 0 when it is not closed before len. */
size_t ctext_close_bracket(const char *t, size_t len, size_t open);

/* The template arguments of an instantiation's name ("ns::k<Foo<int, 2>,
 * float>", n bytes of it): its argument list split at top-level commas,
 * blanks trimmed, copies in a, into args (at most max); the count, or -1
 * when the name ends in no argument list or holds more than max. */
struct arena;
int ctext_template_args(const char *inst, size_t n, struct arena *a, const char **args, int max);

#endif
