/*
 * splice_tu.h: the wrapper's work when the tuning database has verified
 * variants for kernels of the TUs being compiled: plan (parse, look up,
 * splice with #line directives) and compile the spliced copies in place of
 * the originals (splice_compile.c).
 */
#ifndef CL1CC_SPLICE_TU_H
#define CL1CC_SPLICE_TU_H

#include "core.h"
#include "model.h"
#include "text_edit.h"
#include "wrapper.h"

typedef struct spliced_input {
    size_t arg_index;     /* of the input in the nvcc argv */
    const char *original; /* the path as the user wrote it */
    char *text;           /* the TU with variants spliced in */
    size_t n_variants;
    const char *headers;  /* NULL, or the project headers whose text the
                             copy holds in place of their #include, each
                             followed by a newline (dependency files) */
} spliced_input;

typedef struct splice_plan {
    arena strings;
    VEC(spliced_input) inputs;
} splice_plan;

typedef enum splice_status {
    SPLICE_OK,      /* something to apply */
    SPLICE_NOTHING, /* nothing to apply: run nvcc unchanged, quietly */
    SPLICE_ERROR    /* our failure: warn and run nvcc unchanged */
} splice_status;

splice_status splice_plan_make(const nvcc_cmdline *cl, splice_plan *plan, strbuf *msg);
/* Runs nvcc on the user's arguments (argv, as written) and, when that
 * succeeds, compiles the spliced copies in a private folder with the same
 * arguments, only the inputs (and the output) replaced; their output
 * replaces nvcc's when that compile succeeds, else a warning says so.  The
 * status cl1cc exits with (nvcc's; a signal that stopped nvcc is raised
 * again), or -1 with err set when nothing ran: the caller runs plain nvcc. */
/* cl1cc ends as nvcc ends for a stop signal that reached it outside nvcc's
 * own run (reading the TU, its own compile of the spliced copy): SIGINT
 * with nvcc's status 2, the others by the signal; the temporaries go */
int splice_end_as_stopped(int sig);
int splice_plan_compile(const char *nvcc, int argc, char **argv, const nvcc_cmdline *cl,
                        const splice_plan *plan, strbuf *err);
void splice_plan_free(splice_plan *plan);
/* For `cl1cc capture`: the inputs among files (':'-separated absolute
 * paths) with their launch sites instrumented, compile flags saved under
 * capture_dir/<tag>/compile.args, and for every such input parsed
 * capture_dir/<tag>/instrumented: "instrumented N", then a line per launch
 * not instrumented ("FILE:LINE: launch of K not_captured: REASON"). */
#define SPLICE_INSTRUMENT_REPORT "instrumented"
/* The launches written in project headers m's main file includes itself,
 * once (capture_headers.c): each such header's text with its launches
 * instrumented, as an edit of the main file in place of its #include, into
 * extra (strings in a); a not_captured line to report for every launch of
 * another file.  Returns how many launches were instrumented. */
int capture_header_edits(const tu_model *m, const nvcc_cmdline *cl, const char *tag, arena *a,
                         text_edit_vec *extra, strbuf *report);
splice_status splice_plan_capture(const nvcc_cmdline *cl, const char *files,
                                  const char *capture_dir, splice_plan *plan, strbuf *msg);

#endif
