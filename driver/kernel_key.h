/*
 * kernel_key.h: the tuning-database key of one kernel as compiled: its exact
 * text, the text of everything it depends on, the target arch and the flags
 * that change code.  The wrapper (reading) and the tuner (writing) both use
 * this, so an entry is found exactly when nothing that matters has changed.
 */
#ifndef CL1CC_KERNEL_KEY_H
#define CL1CC_KERNEL_KEY_H

#include "model.h"

void kernel_key(const tu_model *m, const kernel *k, const char *arch,
                const char *const *codegen_flags, size_t n_flags, char out[65]);

#endif
