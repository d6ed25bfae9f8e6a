/*
 * model.h: the plain structs the stages hand each other.  The frontend fills
 * a tu_model from a translation unit; the policy turns kernels into variants;
 * the harness measures them; the rewriter splices them back.  No stage
 * reaches into another's internals: they meet here.
 */
#ifndef CL1CC_MODEL_H
#define CL1CC_MODEL_H

#include "core.h"

/* A byte range [begin, end) in one file, as the user wrote it (expansion
 * locations).  in_macro is set when either end lies inside a macro
 * expansion: such a range is reported but never rewritten. */
typedef struct src_range {
    const char *file;
    unsigned begin, end;
    unsigned line, col;         /* 1-based, of begin */
    unsigned end_line, end_col; /* 1-based, of end */
    int in_macro;
    int present; /* 0: absent (a defaulted launch argument, say) */
} src_range;

typedef struct kernel_param {
    const char *name;           /* "" for an unnamed parameter */
    const char *type;           /* as spelled: "const float *__restrict__" */
    const char *canonical_type; /* after typedefs and macros */
    int is_pointer;
    int pointee_const;
    int is_restrict;
    long long size_bytes; /* sizeof the parameter; -1 if dependent */
    src_range range;
} kernel_param;

typedef struct template_param {
    const char *kind; /* "type", "value" or "template" */
    const char *name;
    const char *type; /* the value's type for "value"; NULL otherwise */
} template_param;

typedef enum decl_kind {
    DECL_FUNCTION, /* __device__ (or __host__ __device__) function */
    DECL_TYPE,     /* struct, class, union, enum, typedef, alias */
    DECL_VARIABLE, /* __constant__, __device__, __shared__ or host global */
    DECL_MACRO,    /* a user #define */
    DECL_KERNEL    /* another __global__ a kernel refers to */
} decl_kind;

/* Something a kernel needs besides itself: its text comes along when the
 * kernel is moved into a standalone driver or given to a policy. */
typedef struct dependency {
    decl_kind kind;
    const char *name;
    const char *usr;   /* libclang's unified symbol resolution; macros: "" */
    const char *space; /* "device", "host device", "global", "constant",
                          "shared", "host" or "" */
    int is_extern;     /* extern __shared__ arrays and the like */
    src_range range;
} dependency;

/* The statements of a kernel's body that the built-in transformations
 * reason about (filled only when fe_options.with_bodies is set), in source
 * order.  Ranges are in the kernel's file. */
typedef enum body_kind {
    BODY_LOOP,      /* for, while, do */
    BODY_IF,        /* if, and the conditional operator's statements */
    BODY_ASSIGN,    /* =, op=, ++ and --; a variable's declaration ("decl") */
    BODY_SUBSCRIPT, /* a[i] */
    BODY_CALL,      /* f(...) */
    BODY_SYNC       /* __syncthreads() and the other barriers */
} body_kind;

typedef struct body_node {
    body_kind kind;
    src_range range;
    long parent;        /* enclosing BODY_LOOP or BODY_IF node, -1: none */
    int loop_depth;     /* loops around it */
    /* BODY_LOOP */
    const char *loop_kind; /* "for", "while", "do" */
    const char *loop_var;  /* the for loop's induction variable, or NULL */
    src_range loop_body;
    int has_inner_loop;
    /* a for loop's header as expression text (frontend/extract_expr.c:
     * after macro expansion, integer constants folded, fully
     * parenthesised), each NULL when the header is not of that shape */
    const char *loop_lower; /* loop_var's first value */
    const char *loop_cmp;   /* "<", "<=", ">", ">=" or "!=", loop_var left */
    const char *loop_bound; /* what loop_var is compared with */
    const char *loop_step;  /* added to loop_var each iteration ("1", "-1") */
    /* BODY_LOOP and BODY_IF: floating-point + - * / (compound ones too)
     * and math calls directly in it, not in a nested loop or if */
    long flops;
    /* BODY_IF: its condition; BODY_ASSIGN "=" and "decl": the value; as
     * expression text like the loop header's, NULL when not expressible */
    const char *expr;
    /* BODY_ASSIGN */
    const char *op;     /* "=", "+=", "++" ..., "decl" */
    src_range target;   /* what is assigned */
    /* BODY_SUBSCRIPT */
    const char *base;   /* the array's name when it is a plain identifier */
    src_range index;
    int is_write;       /* the subscript is an assignment's target */
    /* BODY_CALL */
    const char *callee;
} body_node;

typedef VEC(body_node) body_node_vec;

typedef VEC(kernel_param) kernel_param_vec;
typedef VEC(template_param) template_param_vec;
typedef VEC(size_t) index_vec;

typedef struct kernel {
    const char *name;           /* "scale" */
    const char *qualified_name; /* "ns::scale" */
    const char *mangled;        /* host-side symbol, "_ZN2ns5scaleEPfi" */
    const char *usr;
    const char *signature;      /* "void (float *, int)" */
    template_param_vec template_params;
    kernel_param_vec params;
    src_range decl_range; /* whole definition, template header included */
    src_range body_range; /* the braces and what is between them */
    src_range name_range;
    const char *launch_bounds; /* "(256, 2)" or NULL */
    int is_template;
    int is_specialization; /* template<> __global__ void k<int>(...) */
    int is_static;
    int is_extern_c;
    int is_definition; /* 0 for a forward declaration only */
    index_vec deps;    /* indices into tu_model.decls, transitive */
    body_node_vec body; /* with fe_options.with_bodies only */
    int body_in_macro;  /* some statement of the body comes out of a macro */
    long body_flops;    /* floating-point operations outside every loop and
                           if (as body_node.flops) */
} kernel;

typedef struct launch_arg {
    const char *text;
    src_range range;
} launch_arg;
typedef VEC(launch_arg) launch_arg_vec;

typedef struct launch_site {
    const char *kernel_name;  /* as written at the call: "scale<float>" */
    const char *kernel_usr;   /* of the template when a specialization */
    long kernel_index;        /* into tu_model.kernels; -1 unresolved */
    const char *template_args;/* "float" for scale<float>; NULL if none */
    const char *caller;       /* enclosing function's name */
    src_range range;          /* the whole launch expression */
    src_range config_range;   /* from "<<<" to ">>>" inclusive */
    launch_arg grid, block, shmem, stream; /* shmem/stream may be absent */
    launch_arg_vec args;
    int in_macro;
} launch_site;

/* A file of the translation unit that holds user code (not a system
 * header), with its bytes exactly as the parser saw them. */
typedef struct source_file {
    const char *path;
    const char *text;
    size_t len;
} source_file;

/* A kernel the frontend found but leaves alone: clang reported an error in
 * its own text, in something it needs or in one of its launches.  No stage
 * tunes, captures or rewrites it. */
typedef struct skipped_kernel {
    const char *name;   /* qualified */
    src_range decl_range;
    const char *reason; /* the first such error, "file:line:col: error: ..." */
} skipped_kernel;

typedef VEC(kernel) kernel_vec;
typedef VEC(skipped_kernel) skipped_kernel_vec;
typedef VEC(launch_site) launch_vec;
typedef VEC(dependency) dependency_vec;
typedef VEC(source_file) source_file_vec;

typedef struct tu_model {
    arena strings; /* owns every string and path in the model */
    const char *main_file;
    kernel_vec kernels;
    launch_vec launches;
    dependency_vec decls;
    source_file_vec files; /* every user file a range can point into */
    skipped_kernel_vec skipped; /* kernels left alone (not in kernels) */
    /* errors clang reported that touch no kernel, nothing a kernel needs
     * and no launch (host code clang rejects and nvcc accepts): ignored */
    unsigned ignored_errors;
    const char *first_ignored_error;
    src_range main_function_name; /* "main" in the main file, if defined */
    double parse_seconds;
} tu_model;

/* What the judge (or the proposer, for bad_reply) concluded about one
 * variant.  verdict_name gives the text the database rows and the judge's
 * JSON carry; verdict_parse reads it back. */
typedef enum verdict_kind {
    VERDICT_PENDING,     /* "pending": not judged yet (never stored) */
    VERDICT_PASS,        /* "pass": equal outputs on every input set */
    VERDICT_WRONG,       /* "wrong": some output differs */
    VERDICT_BUILD_ERROR, /* "build_error": the variant did not compile */
    VERDICT_CRASH,       /* "crash": the run exited non-zero or on a signal */
    VERDICT_TIMEOUT,     /* "timeout": killed at the wall-time limit */
    VERDICT_SANITIZER,   /* "sanitizer": compute-sanitizer found an error */
    VERDICT_ERROR,       /* "error": the run could not start */
    VERDICT_NOT_RUN,     /* "not_run": built but not verified (no GPU) */
    VERDICT_BAD_REPLY,   /* "bad_reply": the proposal failed before the judge */
    VERDICT_UNKNOWN      /* "unknown": a spelling this version does not know */
} verdict_kind;

/* the text of v ("unknown" for a value outside the enum) */
const char *verdict_name(verdict_kind v);
/* 0 and *out, or -1 (and VERDICT_UNKNOWN) for a text that is none of them */
int verdict_parse(const char *text, verdict_kind *out);

void model_init(tu_model *m);
void model_free(tu_model *m);
/* "function", "type", "variable", "macro", "kernel" */
const char *model_decl_kind_name(decl_kind k);
/* The model as bytes (model_codec.c), for handing it between processes of
 * one cl1cc binary; decode fills an initialised model and returns 0, or -1
 * on malformed bytes (then free the model). */
void model_encode(const tu_model *m, strbuf *out);
int model_decode(const char *bytes, size_t len, tu_model *m);
/* The file a range points into, or NULL. */
const source_file *model_file(const tu_model *m, const char *path);

#endif
