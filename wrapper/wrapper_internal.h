/*
 * wrapper_internal.h: what the files of wrapper/ share and nothing else sees:
 * nvcc's option table, the word splitter and the response-file expander.
 */
#ifndef CL1CC_WRAPPER_INTERNAL_H
#define CL1CC_WRAPPER_INTERNAL_H

#include "wrapper.h"

typedef struct wr_option {
    const char *long_name;  /* spelled with "--"; NULL for hidden short-only options */
    const char *short_name; /* spelled with "-"; NULL when there is none */
    int takes_value;        /* the next argument (or "=v") is its value */
    int comma_list;         /* the value is a comma-separated list */
} wr_option;

extern const wr_option wr_options[];
extern const size_t wr_option_count;

void wr_split_words(const char *text, size_t len, arena *a, str_vec *words);
int wr_expand_response_files(int argc, char **argv, nvcc_cmdline *out, strbuf *err);

#endif
