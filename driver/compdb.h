/*
 * compdb.h: a file's compile flags from a build's compile_commands.json
 * (`-p BUILD` of inspect, tune, rewrite and ci), so that the flags that key
 * the tuning database come from the build and are never retyped.
 */
#ifndef CL1CC_COMPDB_H
#define CL1CC_COMPDB_H

#include "core.h"

/* Appends to out the nvcc arguments BUILD/compile_commands.json gives for
 * file: the compiler, the file itself, its output (-o), -c and the
 * dependency-file flags left out, -dc spelled -rdc=true (the same code),
 * relative paths of -I, -isystem, -include and -optf made absolute through
 * the command's directory.  Strings in a.  0, or -1 with a message in err
 * (no readable database, the file not in it). */
int compdb_flags(const char *build_dir, const char *file, arena *a, cstr_vec *out, strbuf *err);

/* The flags of every .cu file of files (compdb_flags; headers have no
 * command of their own), then the explicit ones, when all of them compile
 * with the same; else -1 with a message naming two that differ.  Strings
 * in a. */
int compdb_common_flags(const char *build_dir, const char *const *files, size_t n_files,
                        char *const *explicit_flags, size_t n_explicit, arena *a,
                        cstr_vec *out, strbuf *err);

#endif
