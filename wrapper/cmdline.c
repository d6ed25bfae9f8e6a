/*
 * cmdline.c: reads an nvcc command line into an nvcc_cmdline: which option
 * each argument is (by nvcc's own table), the phase, the inputs and their
 * languages, and the normalized flags the frontend and the cache key need.
 */
#include "wrapper_internal.h"

#include <string.h>

#define DEFAULT_GPU_ARCH "sm_75" /* nvcc 13.0 without -arch: compute_75 + sm_75 */

typedef struct parser {
    nvcc_cmdline *c;
    int lang_override; /* the last -x: an nvcc_lang, or -1 */
    int from_env;      /* parsing NVCC_PREPEND_FLAGS / NVCC_APPEND_FLAGS */
    int info;          /* --help/--version seen: that phase wins */
    int phase_rank;    /* rank of the phase option that won so far */
    int device_c;      /* -dc seen */
    const char *last_arch;  /* -arch: the last one counts */
    cstr_vec code_values;   /* -code: they add up */
    cstr_vec gencode_codes; /* code= of every -gencode */
} parser;

const char *nvcc_phase_name(nvcc_phase p)
{
    static const char *const names[] = {
        "link", "compile", "device-c", "device-link", "preprocess", "ptx", "cubin",
        "fatbin", "deps-only", "lib", "run", "info", "other"};
    return (unsigned)p < sizeof names / sizeof names[0] ? names[p] : "?";
}

const char *nvcc_lang_name(nvcc_lang l)
{
    static const char *const names[] = {"cu",    "cpp",   "c",      "object", "library",
                                        "ptx",   "cubin", "fatbin", "other"};
    return (unsigned)l < sizeof names / sizeof names[0] ? names[l] : "?";
}

static nvcc_lang lang_of_path(const char *path)
{
    const char *slash = strrchr(path, '/');
    const char *base = slash ? slash + 1 : path;
    const char *dot = strrchr(base, '.');
    if (!dot)
        return NVCC_LANG_OTHER;
    const char *s = dot + 1;
    if (!strcmp(s, "cu"))
        return NVCC_LANG_CU;
    if (!strcmp(s, "cpp") || !strcmp(s, "cc") || !strcmp(s, "cxx") || !strcmp(s, "C") ||
        !strcmp(s, "c++") || !strcmp(s, "cp") || !strcmp(s, "CPP"))
        return NVCC_LANG_CPP;
    if (!strcmp(s, "c"))
        return NVCC_LANG_C;
    if (!strcmp(s, "o") || !strcmp(s, "obj"))
        return NVCC_LANG_OBJECT;
    if (!strcmp(s, "a") || !strcmp(s, "so") || !strcmp(s, "lib") || strstr(base, ".so."))
        return NVCC_LANG_LIBRARY;
    if (!strcmp(s, "ptx"))
        return NVCC_LANG_PTX;
    if (!strcmp(s, "cubin"))
        return NVCC_LANG_CUBIN;
    if (!strcmp(s, "fatbin"))
        return NVCC_LANG_FATBIN;
    return NVCC_LANG_OTHER;
}

/* ---- finding the option an argument is ---------------------------------- */

static const wr_option *find_long(const char *name, size_t len)
{
    for (size_t i = 0; i < wr_option_count; i++) {
        const char *l = wr_options[i].long_name;
        if (l && strlen(l) == len && !strncmp(l, name, len))
            return &wr_options[i];
    }
    return NULL;
}

static const wr_option *find_short(const char *name, size_t len)
{
    for (size_t i = 0; i < wr_option_count; i++) {
        const char *s = wr_options[i].short_name;
        if (s && strlen(s) == len && !strncmp(s, name, len))
            return &wr_options[i];
    }
    return NULL;
}

/* The option arg spells, or NULL when nvcc would not know it.  *inline_value
 * is set for "=value" and for the few short options nvcc lets carry their
 * value attached (-Idir -DX -UX -O3 -lm -Ldir -t4; never -ofile). */
static const wr_option *match_option(const char *arg, const char **inline_value)
{
    *inline_value = NULL;
    if (arg[1] == '-') {
        const char *name = arg + 2;
        const char *eq = strchr(name, '=');
        size_t len = eq ? (size_t)(eq - name) : strlen(name);
        const wr_option *o = find_long(name, len);
        if (!o || (eq && !o->takes_value))
            return NULL;
        if (eq)
            *inline_value = eq + 1;
        return o;
    }
    const char *name = arg + 1;
    const wr_option *o = find_short(name, strlen(name));
    if (o)
        return o;
    const char *eq = strchr(name, '=');
    if (eq) {
        o = find_short(name, (size_t)(eq - name));
        if (o && o->takes_value) {
            *inline_value = eq + 1;
            return o;
        }
    }
    if (name[0] && strchr("IDUOlLt", name[0]) && name[1]) {
        o = find_short(name, 1);
        if (o && o->takes_value) {
            *inline_value = name + 1;
            return o;
        }
    }
    return NULL;
}

/* ---- recording ----------------------------------------------------------- */

static void push_str(nvcc_cmdline *c, cstr_vec *v, const char *s)
{
    vec_push(v, arena_strdup(&c->strings, s));
}

static void push_codegen(parser *p, const char *name, const char *value)
{
    if (p->from_env)
        return; /* covered by the env: entry */
    if (value)
        vec_push(&p->c->codegen_flags, arena_printf(&p->c->strings, "--%s=%s", name, value));
    else
        vec_push(&p->c->codegen_flags, arena_printf(&p->c->strings, "--%s", name));
}

/* Calls fn for each comma-separated element of value (empty ones skipped). */
static void each_element(parser *p, const char *value,
                         void (*fn)(parser *, const char *, const void *), const void *arg)
{
    const char *s = value;
    for (;;) {
        const char *comma = strchr(s, ',');
        size_t l = comma ? (size_t)(comma - s) : strlen(s);
        if (l)
            fn(p, arena_strndup(&p->c->strings, s, l), arg);
        if (!comma)
            break;
        s = comma + 1;
    }
}

static void add_frontend(parser *p, const char *v, const void *arg)
{
    const char *kind = arg;
    nvcc_cmdline *c = p->c;
    if (!strcmp(kind, "-isystem") || !strcmp(kind, "-include")) {
        push_str(c, &c->frontend_flags, kind);
        push_str(c, &c->frontend_flags, v);
    } else {
        vec_push(&c->frontend_flags, arena_printf(&c->strings, "%s%s", kind, v));
    }
    if (!strcmp(kind, "-D"))
        push_codegen(p, "define-macro", v);
    else if (!strcmp(kind, "-U"))
        push_codegen(p, "undefine-macro", v);
    else if (!strcmp(kind, "-include"))
        push_codegen(p, "pre-include", v);
}

static void add_code_value(parser *p, const char *v, const void *arg)
{
    vec_push(&p->code_values, v);
}

/* "-gencode arch=compute_90,code=[sm_90,compute_90]": the commas inside
 * brackets or quotes belong to the value; a piece without "key=" continues
 * the key before it ("code=sm_90,compute_90"). */
static void parse_gencode(parser *p, const char *spec)
{
    int in_code = 0;
    const char *s = spec;
    while (*s) {
        const char *start = s;
        int depth = 0, quote = 0;
        while (*s && (depth > 0 || quote || *s != ',')) {
            if (*s == '"')
                quote = !quote;
            else if (!quote && *s == '[')
                depth++;
            else if (!quote && *s == ']' && depth > 0)
                depth--;
            s++;
        }
        size_t len = (size_t)(s - start);
        const char *piece = arena_strndup(&p->c->strings, start, len);
        if (*s == ',')
            s++;
        const char *value = piece;
        if (!strncmp(piece, "code=", 5)) {
            in_code = 1;
            value = piece + 5;
        } else if (!strncmp(piece, "arch=", 5)) {
            in_code = 0;
            continue;
        } else if (strchr(piece, '=')) {
            in_code = 0;
            continue;
        }
        if (!in_code)
            continue;
        /* strip brackets and quotes, then split the list */
        strbuf clean;
        sb_init(&clean);
        for (const char *q = value; *q; q++)
            if (*q != '[' && *q != ']' && *q != '"')
                sb_putc(&clean, *q);
        const char *list = arena_strdup(&p->c->strings, sb_str(&clean));
        sb_free(&clean);
        const char *e = list;
        for (;;) {
            const char *comma = strchr(e, ',');
            size_t l = comma ? (size_t)(comma - e) : strlen(e);
            if (l)
                vec_push(&p->gencode_codes, arena_strndup(&p->c->strings, e, l));
            if (!comma)
                break;
            e = comma + 1;
        }
    }
}

/* nvcc picks the phase by rank, not by order: with several phase options the
 * one that stops earliest in its pipeline wins (-M over -E over -ptx over
 * -cubin over -fatbin over -cuda over -c over -dlink over -lib/-link/-run;
 * checked with nvcc 13.0.88).  Equal ranks nvcc rejects, or they agree. */
static int phase_rank(const char *option)
{
    static const struct {
        const char *name;
        int rank;
    } ranks[] = {{"generate-dependencies", 0},
                 {"generate-nonsystem-dependencies", 0},
                 {"preprocess", 1},
                 {"optix-ir", 2},
                 {"ltoir", 3},
                 {"ptx", 3},
                 {"cubin", 4},
                 {"fatbin", 5},
                 {"cuda", 6},
                 {"compile", 7},
                 {"device-c", 7},
                 {"device-w", 7},
                 {"device-link", 8},
                 {"lib", 9},
                 {"link", 9},
                 {"run", 9}};
    for (size_t i = 0; i < sizeof ranks / sizeof ranks[0]; i++)
        if (!strcmp(ranks[i].name, option))
            return ranks[i].rank;
    return 10;
}

static void set_phase(parser *p, nvcc_phase ph, const char *option)
{
    int rank = phase_rank(option);
    if (p->info || rank >= p->phase_rank)
        return;
    p->phase_rank = rank;
    p->c->phase = ph;
    p->c->phase_option = option;
}

/* nvcc 13 allows c, c++ and cu; it rejects "none" ("Value 'none' is not
 * defined for option 'x'"), which is taken here as "by suffix again". */
static int lang_from_x(const char *v)
{
    if (!strcmp(v, "cu"))
        return NVCC_LANG_CU;
    if (!strcmp(v, "c++"))
        return NVCC_LANG_CPP;
    if (!strcmp(v, "c"))
        return NVCC_LANG_C;
    return -1; /* "none" and anything else: back to suffixes */
}

/* Options whose value (or presence) changes the generated code. */
static const char *const codegen_options[] = {
    "gpu-architecture", "gpu-code", "generate-code", "optimize", "Ofast-compile", "dopt",
    "debug", "device-debug", "generate-line-info", "use_fast_math", "ftz", "prec-div",
    "prec-sqrt", "fmad", "maxrregcount", "ptxas-options", "relocatable-device-code", "std",
    "extended-lambda", "expt-relaxed-constexpr", "compiler-options", "compiler-bindir",
    "default-stream", "extra-device-vectorization", "restrict", "dlink-time-opt", "lto",
    "gen-opt-lto", "machine", "no-exceptions", "relocatable-ptx", "device-stack-protector",
    "sanitize", "entries", "keep-device-functions", "static-global-template-stub",
    "device-entity-has-hidden-visibility", "jump-table-density",
    "no-host-device-initializer-list", "no-host-device-move-forward", "profile",
    "allow-unsupported-compiler", "nvlink-options", "Xcicc", "Xcudafe", "Xfatbin", NULL};

static void apply(parser *p, const wr_option *o, const char *v, size_t index)
{
    nvcc_cmdline *c = p->c;
    const char *key = o->long_name ? o->long_name : o->short_name;
#define IS(k) (!strcmp(key, k))
    /* phases */
    if (IS("cuda") || IS("optix-ir") || IS("ltoir"))
        set_phase(p, NVCC_PHASE_OTHER, key);
    else if (IS("cubin"))
        set_phase(p, NVCC_PHASE_CUBIN, key);
    else if (IS("fatbin"))
        set_phase(p, NVCC_PHASE_FATBIN, key);
    else if (IS("ptx"))
        set_phase(p, NVCC_PHASE_PTX, key);
    else if (IS("preprocess"))
        set_phase(p, NVCC_PHASE_PREPROCESS, key);
    else if (IS("generate-dependencies") || IS("generate-nonsystem-dependencies")) {
        set_phase(p, NVCC_PHASE_DEPS_ONLY, key);
        c->dep_generate = 1;
    } else if (IS("generate-dependencies-with-compile") ||
               IS("generate-nonsystem-dependencies-with-compile")) {
        c->dep_generate = 1;
        c->dep_with_compile = 1;
    } else if (IS("dependency-output"))
        c->dep_file = v;
    else if (IS("dependency-target-name"))
        c->dep_target = v;
    else if (IS("compile") || IS("device-w"))
        set_phase(p, NVCC_PHASE_COMPILE, key);
    else if (IS("device-c")) {
        set_phase(p, NVCC_PHASE_COMPILE, key);
        p->device_c = 1;
        push_codegen(p, "relocatable-device-code", "true");
    } else if (IS("device-link"))
        set_phase(p, NVCC_PHASE_DEVICE_LINK, key);
    else if (IS("link"))
        set_phase(p, NVCC_PHASE_LINK, key);
    else if (IS("lib"))
        set_phase(p, NVCC_PHASE_LIB, key);
    else if (IS("run"))
        set_phase(p, NVCC_PHASE_RUN, key);
    else if (IS("help") || IS("version") || IS("list-gpu-code") || IS("list-gpu-arch")) {
        c->phase = NVCC_PHASE_INFO;
        c->phase_option = key;
        p->info = 1;
    }
    /* output and modes */
    else if (IS("output-file")) {
        c->output = v;
        c->output_index = p->from_env ? SIZE_MAX : index;
    } else if (IS("dryrun"))
        c->dryrun = 1;
    else if (IS("verbose"))
        c->verbose = 1;
    else if (IS("x")) {
        p->lang_override = lang_from_x(v);
        push_codegen(p, key, v); /* the language changes the code */
    }
    /* frontend */
    else if (IS("include-path"))
        each_element(p, v, add_frontend, "-I");
    else if (IS("system-include"))
        each_element(p, v, add_frontend, "-isystem");
    else if (IS("define-macro"))
        each_element(p, v, add_frontend, "-D");
    else if (IS("undefine-macro"))
        each_element(p, v, add_frontend, "-U");
    else if (IS("pre-include"))
        each_element(p, v, add_frontend, "-include");
    else if (IS("std")) {
        vec_push(&c->frontend_flags, arena_printf(&c->strings, "-std=%s", v));
        push_codegen(p, "std", v);
    }
    /* architectures */
    else if (IS("gpu-architecture")) {
        p->last_arch = v;
        push_codegen(p, key, v);
    } else if (IS("gpu-code")) {
        each_element(p, v, add_code_value, NULL);
        push_codegen(p, key, v);
    } else if (IS("generate-code")) {
        parse_gencode(p, v);
        push_codegen(p, key, v);
    } else if (IS("relocatable-device-code")) {
        c->relocatable = !strcmp(v, "true"); /* nvcc: the last value counts */
        push_codegen(p, key, v);
    } else if (IS("expt-extended-lambda"))
        push_codegen(p, "extended-lambda", NULL);
    else if (IS("m64"))
        push_codegen(p, "machine", "64");
    else {
        for (size_t i = 0; codegen_options[i]; i++)
            if (IS(codegen_options[i])) {
                push_codegen(p, key, o->takes_value ? v : NULL);
                break;
            }
    }
#undef IS
}

/* The language comes from the suffix here; the last -x of the whole command
 * line overrides it for every input afterwards (see finish_inputs). */
static void add_input(parser *p, const char *path, size_t index)
{
    nvcc_input in;
    in.path = path;
    in.lang = lang_of_path(path);
    in.arg_index = index;
    vec_push(&p->c->inputs, in);
}

/* nvcc 13.0.88 is not positional about -x, whatever its documentation of
 * older versions says: the last -x anywhere (NVCC_APPEND_FLAGS included)
 * applies to every input, before or after it, objects and libraries too
 * ("nvcc -c a.cu -x c++ b.cpp" compiles a.cu as C++; "-x cu" makes cudafe++
 * read a .o).  Checked with --dryrun. */
static void finish_inputs(parser *p)
{
    if (p->lang_override < 0)
        return;
    for (size_t i = 0; i < p->c->inputs.len; i++)
        p->c->inputs.items[i].lang = (nvcc_lang)p->lang_override;
}

/* args are either cl->argv (indices recorded) or words from the environment */
static void parse_words(parser *p, char **args, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        const char *a = args[i];
        if (a[0] != '-' || a[1] == '\0') {
            if (!p->from_env)
                add_input(p, a, i);
            continue;
        }
        const char *value = NULL;
        const wr_option *o = match_option(a, &value);
        if (!o) {
            if (!p->from_env)
                p->c->unknown_count++;
            continue;
        }
        size_t at = i;
        if (o->takes_value && !value) {
            if (i + 1 >= n) {
                /* nvcc: "argument expected"; leave the failure to nvcc */
                if (!p->from_env)
                    p->c->unknown_count++;
                continue;
            }
            value = args[++i];
        }
        apply(p, o, value, at);
    }
}

static void add_arch(nvcc_cmdline *c, const char *arch)
{
    for (size_t i = 0; i < c->gpu_archs.len; i++)
        if (!strcmp(c->gpu_archs.items[i], arch))
            return;
    push_str(c, &c->gpu_archs, arch);
}

static int is_real(const char *a)
{
    return !strncmp(a, "sm_", 3);
}

/* Real targets: those of the last -arch, or of the -code values when there
 * are any (then -arch is virtual), then each -gencode's code= list: nvcc
 * builds for both when -arch and -gencode are given. */
static void finish_archs(parser *p)
{
    nvcc_cmdline *c = p->c;
    if (!p->last_arch && !p->code_values.len && !p->gencode_codes.len) {
        add_arch(c, DEFAULT_GPU_ARCH);
        return;
    }
    if (p->code_values.len) {
        for (size_t i = 0; i < p->code_values.len; i++)
            if (is_real(p->code_values.items[i]))
                add_arch(c, p->code_values.items[i]);
    } else if (p->last_arch) {
        /* -arch alone: a real arch is its own code; a virtual one gives PTX
         * only; native/all/all-major depend on the machine and the nvcc */
        const char *a = p->last_arch;
        if (is_real(a) || !strcmp(a, "native") || !strcmp(a, "all") || !strcmp(a, "all-major"))
            add_arch(c, a);
    }
    for (size_t i = 0; i < p->gencode_codes.len; i++)
        if (is_real(p->gencode_codes.items[i]))
            add_arch(c, p->gencode_codes.items[i]);
}

/* nvcc reads NVCC_PREPEND_FLAGS before the command line and
 * NVCC_APPEND_FLAGS after it, expanding -optf there too (not "@file"). */
static int parse_env(parser *p, const char *name, strbuf *err)
{
    const char *value = getenv(name);
    if (!value || !*value)
        return 0;
    nvcc_cmdline *c = p->c;
    str_vec words = {0}, expanded = {0};
    wr_split_words(value, strlen(value), WR_SPLIT_ENV, &c->strings, &words);
    strbuf why;
    sb_init(&why);
    int rc = wr_expand_args((int)words.len, words.items, 0, &c->strings, &expanded, &why);
    if (rc != 0) {
        sb_printf(err, "%s: %s", name, sb_str(&why));
    } else {
        p->from_env = 1;
        parse_words(p, expanded.items, expanded.len);
        p->from_env = 0;
        vec_push(&c->codegen_flags, arena_printf(&c->strings, "env:%s=%s", name, value));
    }
    sb_free(&why);
    vec_free(&words);
    vec_free(&expanded);
    return rc;
}

int nvcc_cmdline_parse(int argc, char **argv, nvcc_cmdline *out, strbuf *err)
{
    memset(out, 0, sizeof *out);
    arena_init(&out->strings);
    out->output_index = SIZE_MAX;
    out->phase = NVCC_PHASE_LINK;
    if (wr_expand_args(argc, argv, 1, &out->strings, &out->argv, err) != 0)
        return -1;
    parser p;
    memset(&p, 0, sizeof p);
    p.c = out;
    p.lang_override = -1;
    p.phase_rank = 100;
    int rc = parse_env(&p, "NVCC_PREPEND_FLAGS", err);
    if (rc == 0) {
        parse_words(&p, out->argv.items, out->argv.len);
        rc = parse_env(&p, "NVCC_APPEND_FLAGS", err);
    }
    /* -dc, or -c with -rdc=true: relocatable device code */
    if (p.device_c)
        out->relocatable = 1;
    if (out->phase == NVCC_PHASE_COMPILE && out->relocatable)
        out->phase = NVCC_PHASE_DEVICE_C;
    finish_inputs(&p);
    finish_archs(&p);
    vec_free(&p.code_values);
    vec_free(&p.gencode_codes);
    return rc;
}

void nvcc_cmdline_free(nvcc_cmdline *c)
{
    vec_free(&c->argv);
    vec_free(&c->inputs);
    vec_free(&c->frontend_flags);
    vec_free(&c->codegen_flags);
    vec_free(&c->gpu_archs);
    arena_free(&c->strings);
}

const char *nvcc_default_output(const nvcc_cmdline *c, size_t input_index, arena *a)
{
    const char *suffix = NULL;
    switch (c->phase) {
    case NVCC_PHASE_LINK:
    case NVCC_PHASE_RUN:
        return arena_strdup(a, "a.out");
    case NVCC_PHASE_LIB:
        return arena_strdup(a, "a.a");
    case NVCC_PHASE_DEVICE_LINK:
        return arena_strdup(a, "a_dlink.o");
    case NVCC_PHASE_COMPILE:
    case NVCC_PHASE_DEVICE_C:
        suffix = ".o";
        break;
    case NVCC_PHASE_PTX:
        suffix = ".ptx";
        break;
    case NVCC_PHASE_CUBIN:
        suffix = ".cubin";
        break;
    case NVCC_PHASE_FATBIN:
        suffix = ".fatbin";
        break;
    case NVCC_PHASE_OTHER:
        if (c->phase_option && !strcmp(c->phase_option, "cuda"))
            suffix = ".cu.cpp.ii";
        else if (c->phase_option && !strcmp(c->phase_option, "optix-ir"))
            suffix = ".optixir";
        else if (c->phase_option && !strcmp(c->phase_option, "ltoir"))
            suffix = ".ltoir";
        else
            return NULL;
        break;
    default:
        return NULL;
    }
    if (input_index >= c->inputs.len)
        return NULL;
    const char *path = c->inputs.items[input_index].path;
    /* stdin ("-") gives a name with a random tmpxft_ part */
    if (!strcmp(path, "-"))
        return NULL;
    const char *slash = strrchr(path, '/');
    const char *base = slash ? slash + 1 : path;
    if (!*base)
        return NULL;
    const char *dot = strrchr(base, '.');
    size_t stem = dot && dot != base ? (size_t)(dot - base) : strlen(base);
    return arena_printf(a, "%.*s%s", (int)stem, base, suffix);
}
