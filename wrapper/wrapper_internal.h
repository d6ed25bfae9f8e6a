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

/* How a text becomes words, after the program that would read it. */
typedef enum wr_split_mode {
    WR_SPLIT_SHELL, /* "@file": POSIX shell quoting ('...', "...", \), as GCC and CMake */
    WR_SPLIT_OPTF,  /* nvcc -optf: "..." and \ quote, a ' is an ordinary byte */
    WR_SPLIT_ENV    /* NVCC_*_FLAGS: blanks split outside "..." and after \; all kept */
} wr_split_mode;

void wr_split_words(const char *text, size_t len, wr_split_mode mode, arena *a,
                    str_vec *words);
/* Appends argv to out with response files expanded in place (at_files: also
 * "@file", which nvcc itself never expands).  0, or -1 with a message. */
int wr_expand_args(int argc, char **argv, int at_files, arena *strings, str_vec *out,
                   strbuf *err);

#endif
