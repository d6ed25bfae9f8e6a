/*
 * compare.c: the verdict on a variant's output.  Compares the buffer a
 * rewritten kernel wrote with the original's, element by element for the
 * buffer's dtype, strictly enough that a wrong variant cannot pass.
 */
#include <float.h>
#include <math.h>
#include <string.h>

#include "harness.h"

/* bf16 is decoded through binary32 and the rest through double: both must
 * be IEEE 754 formats. */
_Static_assert(sizeof(float) == 4 && FLT_MANT_DIG == 24 && FLT_MAX_EXP == 128,
               "float must be IEEE binary32");
_Static_assert(sizeof(double) == 8 && DBL_MANT_DIG == 53 && DBL_MAX_EXP == 1024,
               "double must be IEEE binary64");

static const struct {
    const char *name;
    hn_dtype type;
} dtype_names[] = {
    /* canonical names first: hn_dtype_name returns these */
    {"bytes", HN_BYTES}, {"i8", HN_I8},   {"u8", HN_U8},     {"i16", HN_I16},
    {"u16", HN_U16},     {"i32", HN_I32}, {"u32", HN_U32},   {"i64", HN_I64},
    {"u64", HN_U64},     {"f16", HN_F16}, {"bf16", HN_BF16}, {"f32", HN_F32},
    {"f64", HN_F64},
    /* aliases: the C/CUDA spellings of the same types */
    {"int8_t", HN_I8},   {"uint8_t", HN_U8},   {"int16_t", HN_I16},
    {"uint16_t", HN_U16}, {"int32_t", HN_I32}, {"uint32_t", HN_U32},
    {"int64_t", HN_I64}, {"uint64_t", HN_U64}, {"half", HN_F16},
    {"__half", HN_F16},  {"float16", HN_F16},  {"bfloat16", HN_BF16},
    {"__nv_bfloat16", HN_BF16}, {"float", HN_F32}, {"float32", HN_F32},
    {"double", HN_F64},  {"float64", HN_F64},
    /* C's integer types as clang spells them canonically (LP64, CUDA's) */
    {"char", HN_I8},     {"signed char", HN_I8}, {"unsigned char", HN_U8}, {"bool", HN_U8},
    {"short", HN_I16},   {"unsigned short", HN_U16}, {"int", HN_I32},
    {"unsigned int", HN_U32}, {"long", HN_I64}, {"unsigned long", HN_U64},
    {"long long", HN_I64}, {"unsigned long long", HN_U64},
};

hn_tolerance hn_default_tolerance(hn_dtype t)
{
    switch (t) {
    case HN_F16:
    case HN_BF16:
        return (hn_tolerance){1e-2, 1e-2};
    case HN_F32:
        return (hn_tolerance){1e-5, 1e-6};
    case HN_F64:
        return (hn_tolerance){1e-12, 1e-14};
    default:
        return (hn_tolerance){0, 0};
    }
}

const char *hn_dtype_name(hn_dtype t)
{
    for (size_t i = 0; i <= HN_F64; i++)
        if (dtype_names[i].type == t)
            return dtype_names[i].name;
    return "unknown";
}

int hn_dtype_parse(const char *name, hn_dtype *out)
{
    if (!name)
        return -1;
    for (size_t i = 0; i < sizeof dtype_names / sizeof dtype_names[0]; i++)
        if (strcmp(dtype_names[i].name, name) == 0) {
            *out = dtype_names[i].type;
            return 0;
        }
    return -1;
}

size_t hn_dtype_size(hn_dtype t)
{
    switch (t) {
    case HN_BYTES: case HN_I8: case HN_U8: return 1;
    case HN_I16: case HN_U16: case HN_F16: case HN_BF16: return 2;
    case HN_I32: case HN_U32: case HN_F32: return 4;
    case HN_I64: case HN_U64: case HN_F64: return 8;
    }
    return 0;
}

/* ---- decoding ------------------------------------------------------------ */

/* IEEE binary16: 1 sign, 5 exponent (bias 15), 10 fraction bits.  Every
 * value is exact in double. */
static double f16_to_double(uint16_t h)
{
    unsigned exponent = (h >> 10) & 0x1f, fraction = h & 0x3ff;
    double v;
    if (exponent == 0x1f)
        v = fraction ? NAN : INFINITY;
    else if (exponent == 0)
        v = ldexp((double)fraction, -24); /* subnormal: 0.fraction * 2^-14 */
    else
        v = ldexp((double)(fraction | 0x400), (int)exponent - 25);
    return (h & 0x8000) ? -v : v;
}

/* bfloat16 is the upper half of a binary32. */
static double bf16_to_double(uint16_t b)
{
    uint32_t bits = (uint32_t)b << 16;
    float f;
    memcpy(&f, &bits, sizeof f);
    return (double)f;
}

static int is_float_type(hn_dtype t)
{
    return t == HN_F16 || t == HN_BF16 || t == HN_F32 || t == HN_F64;
}

static int is_signed_type(hn_dtype t)
{
    return t == HN_I8 || t == HN_I16 || t == HN_I32 || t == HN_I64;
}

/* Loads one element of a float type; p needs no alignment. */
static double load_float(hn_dtype t, const unsigned char *p)
{
    switch (t) {
    case HN_F16: {
        uint16_t h;
        memcpy(&h, p, sizeof h);
        return f16_to_double(h);
    }
    case HN_BF16: {
        uint16_t b;
        memcpy(&b, p, sizeof b);
        return bf16_to_double(b);
    }
    case HN_F32: {
        float f;
        memcpy(&f, p, sizeof f);
        return (double)f;
    }
    case HN_F64: {
        double d;
        memcpy(&d, p, sizeof d);
        return d;
    }
    default:
        log_bug(__FILE__, __LINE__, "not a float dtype");
    }
}

/* Loads an integer element widened to 64 bits: signed types sign-extended,
 * so the caller reinterprets the result as int64_t for them. */
static uint64_t load_int(hn_dtype t, const unsigned char *p)
{
    switch (t) {
    case HN_BYTES:
    case HN_U8:
        return p[0];
    case HN_I8: {
        int8_t v;
        memcpy(&v, p, sizeof v);
        return (uint64_t)(int64_t)v;
    }
    case HN_U16: {
        uint16_t v;
        memcpy(&v, p, sizeof v);
        return v;
    }
    case HN_I16: {
        int16_t v;
        memcpy(&v, p, sizeof v);
        return (uint64_t)(int64_t)v;
    }
    case HN_U32: {
        uint32_t v;
        memcpy(&v, p, sizeof v);
        return v;
    }
    case HN_I32: {
        int32_t v;
        memcpy(&v, p, sizeof v);
        return (uint64_t)(int64_t)v;
    }
    case HN_U64:
    case HN_I64: {
        uint64_t v;
        memcpy(&v, p, sizeof v);
        return v;
    }
    default:
        log_bug(__FILE__, __LINE__, "not an integer dtype");
    }
}

/* ---- comparing ----------------------------------------------------------- */

static void note_error(hn_compare_result *res, double abs_error, double rel_error)
{
    if (abs_error > res->max_abs_error)
        res->max_abs_error = abs_error;
    if (rel_error > res->max_rel_error)
        res->max_rel_error = rel_error;
}

static void note_mismatch(hn_compare_result *res, size_t index)
{
    if (res->mismatches++ == 0)
        res->first_mismatch = index;
}

/* A mismatch with no finite distance (NaN, inf, missing or partial element):
 * the errors become +inf so no caller can read them as small. */
static void note_unmeasurable(hn_compare_result *res, size_t index)
{
    note_mismatch(res, index);
    note_error(res, INFINITY, INFINITY);
}

/* How far the scale may exceed the buffer's largest |want|: cancellation
 * by a factor up to this is tolerated (float32 keeps about 4 digits
 * there); a larger scale is more likely a different path through the code
 * than a magnitude, and widens no further. */
#define SCALE_CAP_FACTOR 1000.0

/* The magnitude that rtol scales: |want|, or more where the original's
 * run on the absolute values of its inputs (scale) went through larger
 * values, as a sum with cancellation does, capped at SCALE_CAP_FACTOR
 * times the largest |want| of the buffer. */
static double tolerance_magnitude(double want, double scale, double want_max)
{
    double m = fabs(want);
    scale = fabs(scale);
    if (isfinite(scale)) {
        double cap = SCALE_CAP_FACTOR * want_max;
        double capped = scale < cap ? scale : cap;
        if (capped > m)
            m = capped;
    }
    return m;
}

static void compare_float(hn_dtype t, hn_tolerance tol, const unsigned char *w,
                          const unsigned char *g, const unsigned char *s,
                          double want_max, size_t index, hn_compare_result *res)
{
    double want = load_float(t, w), got = load_float(t, g);
    if (isnan(want) || isnan(got)) {
        if (isnan(want))
            res->nan_in_want++;
        if (!(isnan(want) && isnan(got)))
            note_unmeasurable(res, index);
        return;
    }
    if (isinf(want) || isinf(got)) {
        if (want != got)
            note_unmeasurable(res, index);
        return;
    }
    /* for f64 the difference of two finite values may overflow to +inf,
     * which then fails any finite tolerance */
    double abs_error = fabs(got - want), magnitude = fabs(want);
    double rel_error = abs_error == 0 ? 0 : magnitude == 0 ? INFINITY
                                                           : abs_error / magnitude;
    note_error(res, abs_error, rel_error);
    if (s)
        magnitude = tolerance_magnitude(want, load_float(t, s), want_max);
    if (!(abs_error <= tol.atol + tol.rtol * magnitude))
        note_mismatch(res, index);
}

static void compare_int(hn_dtype t, const unsigned char *w, const unsigned char *g,
                        size_t index, hn_compare_result *res)
{
    uint64_t want = load_int(t, w), got = load_int(t, g);
    if (want == got)
        return;
    /* the distance is exact in 64 bits (mod 2^64 subtraction of the larger
     * minus the smaller); only its conversion to double rounds */
    uint64_t distance;
    double magnitude;
    if (is_signed_type(t)) {
        int64_t sw = (int64_t)want, sg = (int64_t)got;
        distance = sg > sw ? got - want : want - got;
        magnitude = fabs((double)sw);
    } else {
        distance = got > want ? got - want : want - got;
        magnitude = (double)want;
    }
    double abs_error = (double)distance;
    note_error(res, abs_error, magnitude == 0 ? INFINITY : abs_error / magnitude);
    note_mismatch(res, index);
}

/* NaN or a negative tolerance means none: a bad setting must not pass
 * anything that exact comparison would fail. */
static double sane_tolerance(double x)
{
    return x >= 0 ? x : 0;
}

/* Bytes of element i that a buffer of len bytes holds: size, fewer for a
 * trailing partial element, 0 beyond the end. */
static size_t element_bytes(size_t len, size_t size, size_t i)
{
    size_t begin = i * size;
    if (begin >= len)
        return 0;
    return len - begin < size ? len - begin : size;
}

/* the largest finite |want| over the first n elements */
static double largest_magnitude(hn_dtype t, const unsigned char *w, size_t n, size_t size)
{
    double m = 0;
    for (size_t i = 0; i < n; i++) {
        double v = fabs(load_float(t, w + i * size));
        if (isfinite(v) && v > m)
            m = v;
    }
    return m;
}

void hn_compare(hn_dtype t, hn_tolerance tol, const void *want, size_t want_len,
                const void *got, size_t got_len, hn_compare_result *res)
{
    hn_compare_scaled(t, tol, want, want_len, got, got_len, NULL, 0, res);
}

void hn_compare_scaled(hn_dtype t, hn_tolerance tol, const void *want, size_t want_len,
                       const void *got, size_t got_len, const void *scale, size_t scale_len,
                       hn_compare_result *res)
{
    CL_ASSERT(res != NULL);
    CL_ASSERT(want != NULL || want_len == 0);
    CL_ASSERT(got != NULL || got_len == 0);
    memset(res, 0, sizeof *res);
    size_t size = hn_dtype_size(t);
    if (size == 0) { /* not a dtype: the strictest comparison */
        t = HN_BYTES;
        size = 1;
    }
    tol.atol = sane_tolerance(tol.atol);
    tol.rtol = sane_tolerance(tol.rtol);
    const unsigned char *w = want, *g = got;
    int floating = is_float_type(t);

    res->size_mismatch = want_len != got_len;
    size_t full = (want_len < got_len ? want_len : got_len) / size;
    const unsigned char *sc = scale != NULL && scale_len == want_len ? scale : NULL;
    double want_max = floating && sc ? largest_magnitude(t, w, full, size) : 0;
    if (floating)
        for (size_t i = 0; i < full; i++)
            compare_float(t, tol, w + i * size, g + i * size, sc ? sc + i * size : NULL,
                          want_max, i, res);
    else
        for (size_t i = 0; i < full; i++)
            compare_int(t, w + i * size, g + i * size, i, res);

    /* The rest: the partial element of each buffer and the elements only
     * the longer one has.  Equal only when present and bytewise equal. */
    size_t want_elements = want_len / size + (want_len % size != 0);
    size_t got_elements = got_len / size + (got_len % size != 0);
    size_t total = want_elements > got_elements ? want_elements : got_elements;
    for (size_t i = full; i < total; i++) {
        size_t wn = element_bytes(want_len, size, i);
        size_t gn = element_bytes(got_len, size, i);
        if (floating && wn == size && isnan(load_float(t, w + i * size)))
            res->nan_in_want++;
        if (wn != gn || (wn > 0 && memcmp(w + i * size, g + i * size, wn) != 0))
            note_unmeasurable(res, i);
    }
    res->elements = total;
}
