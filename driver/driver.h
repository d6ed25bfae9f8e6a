/*
 * driver.h: the cl1cc command's subcommands.  main.c dispatches; each
 * subcommand lives in its own file and returns the process exit code.
 */
#ifndef CL1CC_DRIVER_H
#define CL1CC_DRIVER_H

int cmd_inspect(int argc, char **argv);
int cmd_wrap_nvcc(int argc, char **argv);

#endif
