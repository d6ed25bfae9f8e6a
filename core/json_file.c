/*
 * json_file.c: a cJSON tree written to a file atomically, the one way every
 * stage writes its JSON (judgements, tune summaries, the chooser's model).
 */
#include <cjson/cJSON.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "core.h"

int json_write_file(struct cJSON *root, const char *path, int formatted, strbuf *err)
{
    char *text = formatted ? cJSON_Print(root) : cJSON_PrintUnformatted(root);
    cJSON_Delete(root);
    if (!text) {
        sb_printf(err, "%s: out of memory writing JSON", path);
        return -1;
    }
    strbuf body;
    sb_init(&body);
    sb_puts(&body, text);
    sb_puts(&body, "\n");
    cJSON_free(text);
    int rc = file_write_atomic(path, sb_str(&body), body.len);
    if (rc != 0)
        sb_printf(err, "%s: %s", path, strerror(errno));
    sb_free(&body);
    return rc;
}
