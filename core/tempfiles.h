/*
 * tempfiles.h: temporary files and directories that are removed at exit and
 * when cl1cc is stopped by SIGINT, SIGTERM, SIGHUP or SIGPIPE.
 */
#ifndef CL1CC_TEMPFILES_H
#define CL1CC_TEMPFILES_H

#include "core.h"

/* A file or a directory (removed recursively); 0, or -1 with errno set. */
int tempfiles_register(const char *path);
void tempfiles_unregister(const char *path);
/* Removes path now (rm -rf) and forgets it if it was registered. */
void tempfiles_remove_now(const char *path);
/* Removes every registered path now and forgets them. */
void tempfiles_cleanup(void);
/* Idempotent: atexit plus SIGINT/SIGTERM/SIGHUP/SIGPIPE handlers that remove
 * the registered paths, then re-raise the signal with its default disposition
 * (so the exit status says which signal).  Signals already ignored (nohup)
 * stay ignored.  Only the process that registered removes: a forked child
 * that exits or is signalled leaves them. */
void tempfiles_install_handlers(void);
/* mkdtemp "<$TMPDIR or /tmp>/<prefix>XXXXXX", registered; 0 or -1. */
int tempfiles_make_dir(const char *prefix, strbuf *path_out);

#endif
