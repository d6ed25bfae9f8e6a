/*
 * param_dtypes.h: how the judge compares the allocation behind each kernel
 * parameter (param_dtypes.c).
 */
#ifndef CL1CC_PARAM_DTYPES_H
#define CL1CC_PARAM_DTYPES_H

#include "harness.h"
#include "model.h"

/* the pointee's type of a pointer parameter; HN_BYTES for a value or a
 * type not known */
hn_dtype driver_pointee_dtype(const kernel_param *p);
/* out[i] for k's parameters (at most max): the pointee's type; for a
 * template kernel's `T *` the type every one of the instantiations names
 * ("k<float, 256>") gives T, when they agree */
void driver_param_dtypes(const kernel *k, const char *const *instances, size_t n_instances,
                         hn_dtype *out, size_t max);

#endif
