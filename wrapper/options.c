/*
 * options.c: nvcc's option table, from nvcc_options.def (generated from the
 * installed nvcc's --help).  Whether an option takes a value decides whether
 * the argument after it is that value or an input file.
 */
#include "wrapper_internal.h"

const wr_option wr_options[] = {
#define OPT(l, s, v, c) {l, s, v, c},
#include "nvcc_options.def"
#undef OPT
};
const size_t wr_option_count = sizeof wr_options / sizeof wr_options[0];
