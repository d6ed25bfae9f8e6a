/*
 * nvcc_flags.c: picks out of an nvcc command line the flags that decide
 * what the parser sees (include paths, macros, forced includes, the C++
 * dialect) and spells them for clang.  Everything else nvcc takes is about
 * code generation or linking and is ignored here.
 */
#include "frontend.h"

#include <string.h>

typedef struct flag_form {
    const char *nvcc;  /* nvcc spelling */
    const char *clang; /* clang spelling of the same flag */
    int joined;        /* clang takes the value attached ("-Idir") */
} flag_form;

static const flag_form forms[] = {
    {"-I", "-I", 1},           {"--include-path", "-I", 1},
    {"-D", "-D", 1},           {"--define-macro", "-D", 1},
    {"-U", "-U", 1},           {"--undefine-macro", "-U", 1},
    {"-isystem", "-isystem", 0}, {"--system-include", "-isystem", 0},
    {"-include", "-include", 0}, {"--pre-include", "-include", 0},
    {"-std", "-std=", 1},      {"--std", "-std=", 1},
};

static void emit(const flag_form *f, const char *value, arena *a, cstr_vec *out)
{
    if (f->joined) {
        vec_push(out, arena_printf(a, "%s%s", f->clang, value));
    } else {
        vec_push(out, f->clang);
        vec_push(out, arena_strdup(a, value));
    }
}

size_t fe_flags_from_nvcc(int argc, char **argv, arena *a, cstr_vec *out)
{
    size_t before = out->len;
    for (int i = 0; i < argc; i++) {
        const char *arg = argv[i];
        for (size_t f = 0; f < sizeof forms / sizeof forms[0]; f++) {
            const flag_form *form = &forms[f];
            size_t n = strlen(form->nvcc);
            if (strncmp(arg, form->nvcc, n) != 0)
                continue;
            const char *rest = arg + n;
            int short_form = form->nvcc[1] != '-';
            if (*rest == '\0') { /* value in the next argument */
                if (i + 1 < argc)
                    emit(form, argv[++i], a, out);
                break;
            }
            if (*rest == '=') {
                emit(form, rest + 1, a, out);
                break;
            }
            /* "-Idir", "-DX=1": attached values exist for the one-letter
             * forms only ("-isystemdir" is not nvcc's) */
            if (short_form && n == 2) {
                emit(form, rest, a, out);
                break;
            }
        }
    }
    return out->len - before;
}
