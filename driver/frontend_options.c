/*
 * frontend_options.c: the frontend's options for a TU from the user's nvcc
 * command line (its -I, -D, -std, ... as wrapper/ parsed them): one place
 * for the wrapper, capture, tune and rewrite.
 */
#include "driver.h"

#include <string.h>

fe_options driver_frontend_options(const nvcc_cmdline *cl)
{
    fe_options opt;
    memset(&opt, 0, sizeof opt);
    opt.flags = (const char *const *)cl->frontend_flags.items;
    opt.n_flags = cl->frontend_flags.len;
    return opt;
}
