/*
 * check.h: the one assertion the C test programs share: it reports the
 * failed condition with file and line and counts it, without stopping.
 */
#ifndef CL1CC_TEST_CHECK_H
#define CL1CC_TEST_CHECK_H

#include <stdio.h>

static int failures;
#define CHECK(c)                                                             \
    do {                                                                     \
        if (!(c)) {                                                          \
            fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, \
                    #c);                                                     \
            failures++;                                                      \
        }                                                                    \
    } while (0)

/* the exit status of a test program: 0 when every CHECK held */
#define CHECK_REPORT(name)                                                   \
    (failures ? (fprintf(stderr, "%s: %d failures\n", name, failures), 1)    \
              : (printf("%s: all passed\n", name), 0))

#endif
