/*
 * splice_dir.h: the private folder where the wrapper compiles a spliced
 * copy: CACHE/splice/<hash of the source's path>, the same name on every
 * build of that source (so -lineinfo and -G name the same copy), held under
 * a lock; folders left by killed processes are removed by the next wrapper.
 */
#ifndef CL1CC_SPLICE_DIR_H
#define CL1CC_SPLICE_DIR_H

#include "core.h"

typedef struct splice_dir {
    char *root; /* NULL when not open */
    int lock_fd;
} splice_dir;

/* Waits for the folder of this source (a concurrent compile of the same
 * file holds it), empties it; 0, or -1 with a message. */
int splice_dir_open(const char *source, splice_dir *d, strbuf *err);
/* Writes the spliced text of input i as root/s<i>/<source's name>; its
 * path, or NULL with a message.  A UTF-8 byte-order mark moves to the
 * start of the file, where compilers accept it. */
const char *splice_dir_write_copy(splice_dir *d, size_t i, const char *original,
                                  const char *text, arena *a, strbuf *err);
/* root/out/<name> */
const char *splice_dir_output(const splice_dir *d, const char *name, arena *a);
/* Removes the folder's contents and releases it; safe on a zeroed d. */
void splice_dir_close(splice_dir *d);

#endif
