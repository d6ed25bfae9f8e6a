/*
 * driver.h: the cl1cc command's subcommands.  main.c dispatches through its
 * table (which holds each one's usage); each subcommand lives in its own
 * file and returns the process exit code.
 */
#ifndef CL1CC_DRIVER_H
#define CL1CC_DRIVER_H

#include "core.h"
#include "frontend.h"
#include "wrapper.h"

int cmd_inspect(int argc, char **argv);
int cmd_wrap_nvcc(int argc, char **argv);
int cmd_judge(int argc, char **argv);
int cmd_capture(int argc, char **argv);
int cmd_tune(int argc, char **argv);
int cmd_llm_propose(int argc, char **argv);
int cmd_pool_run(int argc, char **argv);
int cmd_rewrite(int argc, char **argv);
int cmd_revert(int argc, char **argv);
int cmd_ci(int argc, char **argv);
int cmd_db(int argc, char **argv);
/* `cl1cc --cl1-db-stamp` (db_cmd.c) */
int cmd_db_stamp(void);

/* the command's usage (main.c's table) */
void driver_usage(const char *command, FILE *to);

/* the real nvcc: $CL1CC_NVCC, else the first nvcc on PATH that is not
 * cl1cc, else /usr/local/cuda/bin/nvcc */
int driver_find_nvcc(strbuf *out, strbuf *err);
/* replaces this process with nvcc ARGS; returns only on failure (127) */
int driver_exec_nvcc(const char *nvcc, int argc, char **argv);

/* the frontend's options for cl's TU: its frontend flags, nothing else set
 * (frontend_options.c) */
fe_options driver_frontend_options(const nvcc_cmdline *cl);

#endif
