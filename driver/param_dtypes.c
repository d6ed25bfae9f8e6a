/*
 * param_dtypes.c: how the judge compares the allocation behind each kernel
 * parameter: the pointee's type ("const float *__restrict" -> f32).  A
 * template kernel's parameter whose pointee is one of its type parameters
 * (`Type *std`) takes the type that the captured instantiations give it
 * ("sopKernel<float, int, 256, 32>"), when they all give the same;
 * otherwise, like any type not known, it is compared byte for byte.
 */
#include <stdio.h>
#include <string.h>

#include "cuda_text.h"
#include "param_dtypes.h"

/* "const float *__restrict" -> "float", into out */
static void pointee_name(const char *type, char *out, size_t len)
{
    snprintf(out, len, "%s", type ? type : "");
    char *star = strrchr(out, '*');
    if (star)
        *star = '\0';
    char *s = out;
    if (strncmp(s, "const ", 6) == 0)
        s += 6;
    if (strncmp(s, "volatile ", 9) == 0)
        s += 9;
    memmove(out, s, strlen(s) + 1);
    size_t n = strlen(out);
    while (n && (out[n - 1] == ' ' || out[n - 1] == '*'))
        out[--n] = '\0';
    char *c = strstr(out, " const");
    if (c)
        *c = '\0';
}

hn_dtype driver_pointee_dtype(const kernel_param *p)
{
    if (!p->is_pointer)
        return HN_BYTES;
    char base[256];
    pointee_name(p->canonical_type, base, sizeof base);
    hn_dtype t;
    return hn_dtype_parse(base, &t) == 0 ? t : HN_BYTES;
}

/* the index-th template argument of instance ("ns::k<Foo<int, 2>, float>",
 * 1 -> "float", ctext_template_args) into out; 0, or -1 */
static int template_arg(const char *instance, int index, char *out, size_t len)
{
    size_t n = strlen(instance);
    while (n && instance[n - 1] == ' ')
        n--;
    enum { MAX_ARGS = 64 };
    const char *args[MAX_ARGS];
    arena a;
    arena_init(&a);
    int count = ctext_template_args(instance, n, &a, args, MAX_ARGS);
    int rc = index >= 0 && index < count ? 0 : -1;
    if (rc == 0)
        snprintf(out, len, "%s", args[index]);
    arena_free(&a);
    return rc;
}

/* the index of k's type parameter that p points to, or -1: clang's
 * canonical "type-parameter-0-I", else the spelled name */
static int type_param_index(const kernel *k, const kernel_param *p)
{
    char base[256];
    pointee_name(p->canonical_type, base, sizeof base);
    int depth, index;
    if (sscanf(base, "type-parameter-%d-%d", &depth, &index) == 2)
        return depth == 0 && (size_t)index < k->template_params.len ? index : -1;
    pointee_name(p->type, base, sizeof base);
    for (size_t i = 0; i < k->template_params.len; i++) {
        const template_param *tp = &k->template_params.items[i];
        if (tp->kind && strcmp(tp->kind, "type") == 0 && tp->name && strcmp(tp->name, base) == 0)
            return (int)i;
    }
    return -1;
}

/* p's dtype in every instantiation named, when they agree; else HN_BYTES */
static hn_dtype instantiated_dtype(const kernel *k, const kernel_param *p,
                                   const char *const *instances, size_t n_instances)
{
    int index = type_param_index(k, p);
    if (index < 0 || !n_instances)
        return HN_BYTES;
    hn_dtype agreed = HN_BYTES;
    for (size_t i = 0; i < n_instances; i++) {
        char arg[256], base[256];
        hn_dtype t;
        if (!instances[i] || template_arg(instances[i], index, arg, sizeof arg) != 0)
            return HN_BYTES;
        pointee_name(arg, base, sizeof base); /* "const float" -> "float" */
        if (hn_dtype_parse(base, &t) != 0 || (i > 0 && t != agreed))
            return HN_BYTES;
        agreed = t;
    }
    return agreed;
}

void driver_param_dtypes(const kernel *k, const char *const *instances, size_t n_instances,
                         hn_dtype *out, size_t max)
{
    for (size_t i = 0; i < k->params.len && i < max; i++) {
        const kernel_param *p = &k->params.items[i];
        out[i] = driver_pointee_dtype(p);
        if (out[i] == HN_BYTES && p->is_pointer && k->is_template)
            out[i] = instantiated_dtype(k, p, instances, n_instances);
    }
}
