/*
 * tunedb_private.h: what the db module's other files (tunedb_admin.c,
 * applied_log.c) need of tunedb.c's handle; not for other modules.
 */
#ifndef CL1CC_TUNEDB_PRIVATE_H
#define CL1CC_TUNEDB_PRIVATE_H

#include <sqlite3.h>

#include "tunedb.h"

sqlite3 *tunedb_sqlite(tunedb *db);
/* the path the database was opened with */
const char *tunedb_path(tunedb *db);
int tunedb_writable(tunedb *db);

#endif
