/*
 * compdb.c: a file's compile command from a build's compile_commands.json
 * (CMake's and Bear's format: objects with directory, file, and arguments or
 * a shell-quoted command), read with cJSON so that no libclang is needed.
 */
#include <cjson/cJSON.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "frontend.h"

/* Splits a command as a POSIX shell would split words: blanks separate,
 * single quotes keep everything, double quotes keep all but \" \\ \$ \`,
 * a backslash outside quotes keeps the next character. */
static void split_command(const char *s, arena *a, str_vec *out)
{
    strbuf word;
    sb_init(&word);
    int in_word = 0;
    for (const char *p = s; *p; p++) {
        if (*p == ' ' || *p == '\t' || *p == '\n') {
            if (in_word) {
                vec_push(out, arena_strdup(a, sb_str(&word)));
                sb_clear(&word);
                in_word = 0;
            }
            continue;
        }
        in_word = 1;
        if (*p == '\'') {
            for (p++; *p && *p != '\''; p++)
                sb_putc(&word, *p);
            if (!*p)
                break;
        } else if (*p == '"') {
            for (p++; *p && *p != '"'; p++) {
                if (*p == '\\' && p[1] && strchr("\"\\$`", p[1]))
                    p++;
                sb_putc(&word, *p);
            }
            if (!*p)
                break;
        } else if (*p == '\\' && p[1]) {
            sb_putc(&word, *++p);
        } else {
            sb_putc(&word, *p);
        }
    }
    if (in_word)
        vec_push(out, arena_strdup(a, sb_str(&word)));
    sb_free(&word);
}

static int same_file(const char *directory, const char *entry_file, const char *want)
{
    char path[PATH_MAX], resolved[PATH_MAX];
    if (entry_file[0] == '/')
        snprintf(path, sizeof path, "%s", entry_file);
    else
        snprintf(path, sizeof path, "%s/%s", directory, entry_file);
    if (!realpath(path, resolved))
        snprintf(resolved, sizeof resolved, "%s", path);
    return strcmp(resolved, want) == 0;
}

int fe_compdb_command(const char *build_dir, const char *file, arena *a, str_vec *args,
                      const char **directory, strbuf *err)
{
    const char *path = arena_printf(a, "%s/compile_commands.json", build_dir);
    char *text = NULL;
    size_t len = 0;
    if (file_read_all(path, (size_t)256 << 20, &text, &len) != 0) {
        sb_printf(err, "%s: no readable compile_commands.json", build_dir);
        return -1;
    }
    cJSON *root = cJSON_ParseWithLength(text, len);
    free(text);
    if (!cJSON_IsArray(root)) {
        sb_printf(err, "%s: not a JSON array of compile commands", path);
        cJSON_Delete(root);
        return -1;
    }
    char want[PATH_MAX];
    if (!realpath(file, want))
        snprintf(want, sizeof want, "%s", file);
    int found = -1;
    const cJSON *entry;
    cJSON_ArrayForEach(entry, root) {
        const char *dir = cJSON_GetStringValue(cJSON_GetObjectItem(entry, "directory"));
        const char *f = cJSON_GetStringValue(cJSON_GetObjectItem(entry, "file"));
        if (!dir || !f || !same_file(dir, f, want))
            continue;
        str_vec words = {0};
        const cJSON *arguments = cJSON_GetObjectItem(entry, "arguments");
        const char *command = cJSON_GetStringValue(cJSON_GetObjectItem(entry, "command"));
        if (cJSON_IsArray(arguments)) {
            const cJSON *w;
            cJSON_ArrayForEach(w, arguments) {
                if (cJSON_IsString(w))
                    vec_push(&words, arena_strdup(a, w->valuestring));
            }
        } else if (command) {
            split_command(command, a, &words);
        }
        for (size_t i = 1; i < words.len; i++) /* 0 is the compiler */
            vec_push(args, words.items[i]);
        vec_free(&words);
        *directory = arena_strdup(a, dir);
        found = 0;
        break;
    }
    cJSON_Delete(root);
    if (found != 0)
        sb_printf(err, "%s: %s is not in %s", file, file, path);
    return found;
}
