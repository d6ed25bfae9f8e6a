/*
 * test_compare.c: hn_compare on synthetic buffers of every dtype: exact
 * integers, float tolerance, NaN and inf rules, -0.0, size mismatches,
 * unaligned buffers, fp16/bf16 decoding, a 10-million-element buffer, and
 * random bytes as every dtype (no crash, no UB, self-compare passes).
 */
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "harness.h"

#include "check.h"

static const hn_dtype all_dtypes[] = {
    HN_BYTES, HN_I8, HN_U8, HN_I16, HN_U16, HN_I32, HN_U32,
    HN_I64, HN_U64, HN_F16, HN_BF16, HN_F32, HN_F64,
};
#define N_DTYPES (sizeof all_dtypes / sizeof all_dtypes[0])

static hn_compare_result cmp(hn_dtype t, const void *want, size_t want_len,
                             const void *got, size_t got_len)
{
    hn_compare_result r;
    hn_compare(t, hn_default_tolerance(t), want, want_len, got, got_len, &r);
    return r;
}

/* one float per buffer, f32 */
static hn_compare_result cmp_f32(float want, float got)
{
    return cmp(HN_F32, &want, sizeof want, &got, sizeof got);
}

static hn_compare_result cmp_f64(double want, double got)
{
    return cmp(HN_F64, &want, sizeof want, &got, sizeof got);
}

static hn_compare_result cmp_u16(hn_dtype t, uint16_t want, uint16_t got)
{
    return cmp(t, &want, sizeof want, &got, sizeof got);
}

static void test_names(void)
{
    for (size_t i = 0; i < N_DTYPES; i++) {
        hn_dtype t = all_dtypes[i], back = HN_BYTES;
        CHECK(hn_dtype_parse(hn_dtype_name(t), &back) == 0);
        CHECK(back == t);
        CHECK(hn_dtype_size(t) >= 1 && hn_dtype_size(t) <= 8);
    }
    hn_dtype t = HN_BYTES;
    CHECK(hn_dtype_parse("float", &t) == 0 && t == HN_F32);
    CHECK(hn_dtype_parse("__nv_bfloat16", &t) == 0 && t == HN_BF16);
    CHECK(hn_dtype_parse("__half", &t) == 0 && t == HN_F16);
    CHECK(hn_dtype_parse("uint64_t", &t) == 0 && t == HN_U64);
    t = HN_I32;
    CHECK(hn_dtype_parse("f33", &t) == -1 && t == HN_I32);
    CHECK(hn_dtype_parse("", &t) == -1);
    CHECK(hn_dtype_parse("F32", &t) == -1);
    CHECK(hn_dtype_parse(NULL, &t) == -1);
    CHECK(strcmp(hn_dtype_name((hn_dtype)99), "unknown") == 0);
    CHECK(hn_dtype_size((hn_dtype)99) == 0);
    CHECK(hn_dtype_size(HN_BYTES) == 1 && hn_dtype_size(HN_F16) == 2 &&
          hn_dtype_size(HN_BF16) == 2 && hn_dtype_size(HN_F32) == 4 &&
          hn_dtype_size(HN_I64) == 8 && hn_dtype_size(HN_U8) == 1);
    hn_tolerance tol = hn_default_tolerance(HN_I32);
    CHECK(tol.rtol == 0 && tol.atol == 0);
    tol = hn_default_tolerance(HN_F32);
    CHECK(tol.rtol == 1e-5 && tol.atol == 1e-6);
    tol = hn_default_tolerance(HN_F64);
    CHECK(tol.rtol == 1e-12 && tol.atol == 1e-14);
    tol = hn_default_tolerance(HN_BF16);
    CHECK(tol.rtol == 1e-2 && tol.atol == 1e-2);
}

/* Equal buffers of every dtype pass; one changed byte in the low byte of an
 * element fails for the exact types. */
static void test_equal_and_exact(void)
{
    unsigned char a[64], b[64];
    for (size_t i = 0; i < sizeof a; i++)
        a[i] = (unsigned char)(i * 37 + 11);
    for (size_t i = 0; i < N_DTYPES; i++) {
        hn_dtype t = all_dtypes[i];
        hn_compare_result r = cmp(t, a, sizeof a, a, sizeof a);
        CHECK(r.mismatches == 0 && !r.size_mismatch);
        CHECK(r.elements == sizeof a / hn_dtype_size(t));
        CHECK(r.max_abs_error == 0 && r.max_rel_error == 0);
        if (t == HN_F16 || t == HN_BF16 || t == HN_F32 || t == HN_F64)
            continue;
        memcpy(b, a, sizeof a);
        b[17] ^= 1;
        r = cmp(t, a, sizeof a, b, sizeof b);
        CHECK(r.mismatches == 1);
        CHECK(r.first_mismatch == 17 / hn_dtype_size(t));
        CHECK(r.max_abs_error > 0);
    }
    /* integers are exact even when a tolerance is given */
    int32_t want = 1000, got = 1001;
    hn_compare_result r;
    hn_compare(HN_I32, (hn_tolerance){0.5, 10}, &want, 4, &got, 4, &r);
    CHECK(r.mismatches == 1 && r.max_abs_error == 1 && r.max_rel_error == 1e-3);
}

static void test_int_errors(void)
{
    int64_t w64 = INT64_MIN, g64 = INT64_MAX;
    hn_compare_result r = cmp(HN_I64, &w64, 8, &g64, 8);
    CHECK(r.mismatches == 1);
    CHECK(r.max_abs_error == 18446744073709551615.0);
    uint64_t uw = 0, ug = UINT64_MAX;
    r = cmp(HN_U64, &uw, 8, &ug, 8);
    CHECK(r.mismatches == 1 && r.max_abs_error == 18446744073709551615.0);
    CHECK(isinf(r.max_rel_error));
    int8_t w8[3] = {-128, 5, 127}, g8[3] = {127, 5, -128};
    r = cmp(HN_I8, w8, 3, g8, 3);
    CHECK(r.mismatches == 2 && r.first_mismatch == 0 && r.max_abs_error == 255);
    /* signed: the distance crosses zero */
    int16_t w16 = -1, g16 = 1;
    r = cmp(HN_I16, &w16, 2, &g16, 2);
    CHECK(r.mismatches == 1 && r.max_abs_error == 2 && r.max_rel_error == 2);
    uint16_t uw16 = 0xffff, ug16 = 1;
    r = cmp(HN_U16, &uw16, 2, &ug16, 2);
    CHECK(r.mismatches == 1 && r.max_abs_error == 65534);
    uint32_t uw32 = 7, ug32 = 7;
    r = cmp(HN_U32, &uw32, 4, &ug32, 4);
    CHECK(r.mismatches == 0);
}

static void test_float_tolerance(void)
{
    /* one ulp passes for every float type */
    CHECK(cmp_f32(1.0f, nextafterf(1.0f, 2.0f)).mismatches == 0);
    CHECK(cmp_f32(-3e5f, nextafterf(-3e5f, 0.0f)).mismatches == 0);
    CHECK(cmp_f64(1.0, nextafter(1.0, 2.0)).mismatches == 0);
    CHECK(cmp_f64(-7e100, nextafter(-7e100, 0.0)).mismatches == 0);
    CHECK(cmp_u16(HN_F16, 0x3C00, 0x3C01).mismatches == 0);
    CHECK(cmp_u16(HN_BF16, 0x3F80, 0x3F81).mismatches == 0);

    /* beyond tolerance fails */
    hn_compare_result r = cmp_f32(1.0f, 1.0001f);
    CHECK(r.mismatches == 1 && r.first_mismatch == 0);
    CHECK(fabs(r.max_abs_error - 1e-4) < 1e-7);
    CHECK(fabs(r.max_rel_error - 1e-4) < 1e-7);
    CHECK(cmp_f64(1.0, 1.0 + 1e-11).mismatches == 1);
    CHECK(cmp_u16(HN_F16, 0x3C00, 0x3C20).mismatches == 1);   /* 1.03125 */
    CHECK(cmp_u16(HN_BF16, 0x3F80, 0x3F84).mismatches == 1);  /* 1.03125 */

    /* exactly at the boundary: atol + rtol*|want| passes */
    r = cmp_f64(0.0, 1e-14);
    CHECK(r.mismatches == 0);
    CHECK(isinf(r.max_rel_error));
    CHECK(cmp_f64(0.0, 2e-14).mismatches == 1);
    /* close to zero atol dominates */
    CHECK(cmp_f32(0.0f, 5e-7f).mismatches == 0);
    CHECK(cmp_f32(0.0f, 5e-6f).mismatches == 1);
    /* -0.0 equals 0.0 */
    r = cmp_f32(-0.0f, 0.0f);
    CHECK(r.mismatches == 0 && r.max_abs_error == 0 && r.max_rel_error == 0);
    CHECK(cmp_f64(0.0, -0.0).mismatches == 0);
    CHECK(cmp_u16(HN_F16, 0x8000, 0x0000).mismatches == 0);
    CHECK(cmp_u16(HN_BF16, 0x0000, 0x8000).mismatches == 0);
    /* opposite signs of a large value */
    CHECK(cmp_f32(5.0f, -5.0f).mismatches == 1);
    /* finite f64 values whose difference overflows */
    r = cmp_f64(DBL_MAX, -DBL_MAX);
    CHECK(r.mismatches == 1 && isinf(r.max_abs_error));
    CHECK(cmp_f64(DBL_MAX, DBL_MAX).mismatches == 0);

    /* a tolerance that is NaN or negative does not loosen anything */
    float w = 1.0f, g = 1.5f;
    hn_compare(HN_F32, (hn_tolerance){NAN, NAN}, &w, 4, &g, 4, &r);
    CHECK(r.mismatches == 1);
    hn_compare(HN_F32, (hn_tolerance){NAN, NAN}, &w, 4, &w, 4, &r);
    CHECK(r.mismatches == 0);
    hn_compare(HN_F32, (hn_tolerance){-1, -1}, &w, 4, &w, 4, &r);
    CHECK(r.mismatches == 0);
    hn_compare(HN_F32, (hn_tolerance){-1, -1}, &w, 4, &g, 4, &r);
    CHECK(r.mismatches == 1);
    /* a wide tolerance given by the caller is honoured */
    hn_compare(HN_F32, (hn_tolerance){0.6, 0}, &w, 4, &g, 4, &r);
    CHECK(r.mismatches == 0 && r.max_abs_error == 0.5 && r.max_rel_error == 0.5);
    /* but never for NaN or inf */
    float nan_value = NAN, inf_value = INFINITY;
    hn_compare(HN_F32, (hn_tolerance){INFINITY, INFINITY}, &w, 4, &nan_value, 4, &r);
    CHECK(r.mismatches == 1);
    hn_compare(HN_F32, (hn_tolerance){INFINITY, INFINITY}, &w, 4, &inf_value, 4, &r);
    CHECK(r.mismatches == 1);
}

/* NaN at each position combination, in every float type. */
static void test_nan(void)
{
    /* a quiet NaN, a payload NaN and a number, per type */
    const uint16_t f16_nans[] = {0x7E00, 0xFC01, 0x7D55};
    const uint16_t bf16_nans[] = {0x7FC0, 0xFF81, 0x7F81};
    for (int k = 0; k < 3; k++) {
        hn_compare_result r;
        /* NaN / number */
        r = cmp_u16(HN_F16, f16_nans[k], 0x3C00);
        CHECK(r.mismatches == 1 && r.nan_in_want == 1 && isinf(r.max_abs_error));
        /* number / NaN */
        r = cmp_u16(HN_F16, 0x3C00, f16_nans[k]);
        CHECK(r.mismatches == 1 && r.nan_in_want == 0 && isinf(r.max_abs_error));
        /* NaN / NaN, payloads may differ */
        r = cmp_u16(HN_F16, f16_nans[k], f16_nans[(k + 1) % 3]);
        CHECK(r.mismatches == 0 && r.nan_in_want == 1 && r.max_abs_error == 0);
        r = cmp_u16(HN_BF16, bf16_nans[k], 0x3F80);
        CHECK(r.mismatches == 1 && r.nan_in_want == 1);
        r = cmp_u16(HN_BF16, 0x3F80, bf16_nans[k]);
        CHECK(r.mismatches == 1 && r.nan_in_want == 0);
        r = cmp_u16(HN_BF16, bf16_nans[k], bf16_nans[(k + 2) % 3]);
        CHECK(r.mismatches == 0 && r.nan_in_want == 1);
        /* NaN against inf fails both ways */
        CHECK(cmp_u16(HN_F16, f16_nans[k], 0x7C00).mismatches == 1);
        CHECK(cmp_u16(HN_F16, 0x7C00, f16_nans[k]).mismatches == 1);
        CHECK(cmp_u16(HN_BF16, bf16_nans[k], 0x7F80).mismatches == 1);
    }
    CHECK(cmp_f32(NAN, 1.0f).mismatches == 1);
    CHECK(cmp_f32(1.0f, NAN).mismatches == 1);
    CHECK(cmp_f32(NAN, NAN).mismatches == 0);
    CHECK(cmp_f32(NAN, -NAN).mismatches == 0);
    CHECK(cmp_f32(NAN, 0.0f).mismatches == 1);
    CHECK(cmp_f64(NAN, 1.0).mismatches == 1);
    CHECK(cmp_f64(0.0, NAN).mismatches == 1);
    hn_compare_result r = cmp_f64(NAN, NAN);
    CHECK(r.mismatches == 0 && r.nan_in_want == 1);
    /* a signalling NaN bit pattern is a NaN too */
    uint32_t snan_bits = 0x7F800001;
    float snan, one = 1.0f;
    memcpy(&snan, &snan_bits, 4);
    CHECK(cmp(HN_F32, &snan, 4, &one, 4).mismatches == 1);
    CHECK(cmp(HN_F32, &one, 4, &snan, 4).mismatches == 1);

    /* positions: want {N, 1, N, 2, N}, got {N, 1, 3, N, N} */
    float want[5] = {NAN, 1, NAN, 2, NAN}, got[5] = {NAN, 1, 3, NAN, NAN};
    r = cmp(HN_F32, want, sizeof want, got, sizeof got);
    CHECK(r.mismatches == 2 && r.first_mismatch == 2 && r.nan_in_want == 3);
    CHECK(r.elements == 5);
    /* all NaN on both sides passes but the caller sees nan_in_want */
    float all_nan[4] = {NAN, NAN, NAN, NAN};
    r = cmp(HN_F32, all_nan, sizeof all_nan, all_nan, sizeof all_nan);
    CHECK(r.mismatches == 0 && r.nan_in_want == 4);
}

static void test_inf(void)
{
    CHECK(cmp_f32(INFINITY, INFINITY).mismatches == 0);
    CHECK(cmp_f32(-INFINITY, -INFINITY).mismatches == 0);
    hn_compare_result r = cmp_f32(INFINITY, -INFINITY);
    CHECK(r.mismatches == 1 && isinf(r.max_abs_error) && isinf(r.max_rel_error));
    CHECK(cmp_f32(-INFINITY, INFINITY).mismatches == 1);
    CHECK(cmp_f32(INFINITY, FLT_MAX).mismatches == 1);
    CHECK(cmp_f32(FLT_MAX, INFINITY).mismatches == 1);
    CHECK(cmp_f32(-FLT_MAX, -INFINITY).mismatches == 1);
    CHECK(cmp_f64(INFINITY, INFINITY).mismatches == 0);
    CHECK(cmp_f64(INFINITY, -INFINITY).mismatches == 1);
    CHECK(cmp_f64(-INFINITY, 0.0).mismatches == 1);
    CHECK(cmp_u16(HN_F16, 0x7C00, 0x7C00).mismatches == 0);
    CHECK(cmp_u16(HN_F16, 0x7C00, 0xFC00).mismatches == 1);
    CHECK(cmp_u16(HN_F16, 0xFC00, 0xFBFF).mismatches == 1); /* -65504 */
    CHECK(cmp_u16(HN_BF16, 0xFF80, 0xFF80).mismatches == 0);
    CHECK(cmp_u16(HN_BF16, 0x7F80, 0xFF80).mismatches == 1);
    CHECK(cmp_u16(HN_BF16, 0x7F7F, 0x7F80).mismatches == 1);
}

static double f16_value(uint16_t bits)
{
    /* decode through hn_compare: 1 element against itself reports nothing,
     * so compare with +0 and read the absolute error, which is |x| */
    uint16_t zero = 0;
    hn_compare_result r;
    hn_compare(HN_F16, (hn_tolerance){0, INFINITY}, &zero, 2, &bits, 2, &r);
    return (bits & 0x8000) ? -r.max_abs_error : r.max_abs_error;
}

static double bf16_value(uint16_t bits)
{
    uint16_t zero = 0;
    hn_compare_result r;
    hn_compare(HN_BF16, (hn_tolerance){0, INFINITY}, &zero, 2, &bits, 2, &r);
    return (bits & 0x8000) ? -r.max_abs_error : r.max_abs_error;
}

static void test_half_decoding(void)
{
    CHECK(f16_value(0x3C00) == 1.0);
    CHECK(f16_value(0xC000) == -2.0);
    CHECK(f16_value(0x3555) == 0x1.554p-2);          /* 0.333251953125 */
    CHECK(f16_value(0x7BFF) == 65504.0);             /* largest normal */
    CHECK(f16_value(0x0400) == ldexp(1.0, -14));     /* smallest normal */
    CHECK(f16_value(0x0001) == ldexp(1.0, -24));     /* smallest subnormal */
    CHECK(fabs(f16_value(0x0001) - 5.96e-8) < 1e-10);
    CHECK(f16_value(0x03FF) == ldexp(1023.0, -24));  /* largest subnormal */
    CHECK(f16_value(0x8001) == -ldexp(1.0, -24));
    CHECK(f16_value(0x3800) == 0.5);
    CHECK(isinf(f16_value(0x7C00)) && f16_value(0x7C00) > 0);
    CHECK(isinf(f16_value(0xFC00)) && f16_value(0xFC00) < 0);
    CHECK(bf16_value(0x3F80) == 1.0);
    CHECK(bf16_value(0xC000) == -2.0);
    CHECK(bf16_value(0x4049) == 3.140625);
    CHECK(bf16_value(0x7F7F) == 0x1.FEp127);         /* largest finite */
    CHECK(bf16_value(0x0080) == ldexp(1.0, -126));   /* smallest normal */
    CHECK(bf16_value(0x0001) == ldexp(1.0, -133));   /* smallest subnormal */
    CHECK(bf16_value(0x8001) == -ldexp(1.0, -133));
    CHECK(isinf(bf16_value(0x7F80)) && bf16_value(0x7F80) > 0);
    CHECK(isinf(bf16_value(0xFF80)) && bf16_value(0xFF80) < 0);
    /* subnormals one ulp apart: told apart when the tolerance is zero, and
     * the distance is the smallest subnormal exactly */
    uint16_t a = 0x0001, b = 0x0002;
    hn_compare_result r;
    hn_compare(HN_F16, (hn_tolerance){0, 0}, &a, 2, &b, 2, &r);
    CHECK(r.mismatches == 1 && r.max_abs_error == ldexp(1.0, -24));
    /* the non-negative finite values rise strictly with the bit pattern;
     * bf16 agrees with the binary32 it is the top half of */
    double prev = -1;
    int monotonic = 1;
    for (uint32_t bits = 0; bits < 0x7C00; bits++) {
        double v = f16_value((uint16_t)bits);
        if (!(v > prev))
            monotonic = 0;
        prev = v;
    }
    CHECK(monotonic);
    CHECK(prev == 65504.0);
    prev = -1;
    monotonic = 1;
    for (uint32_t bits = 0; bits < 0x7F80; bits++) {
        double v = bf16_value((uint16_t)bits);
        float f;
        uint32_t f_bits = bits << 16;
        memcpy(&f, &f_bits, 4);
        if (!(v > prev) || v != (double)f)
            monotonic = 0;
        prev = v;
    }
    CHECK(monotonic);
}

static void test_size_mismatch(void)
{
    float a[4] = {1, 2, 3, 4}, b[4] = {1, 2, 3, 4};
    hn_compare_result r = cmp(HN_F32, a, 16, b, 12);
    CHECK(r.size_mismatch && r.mismatches == 1 && r.first_mismatch == 3);
    CHECK(r.elements == 4 && isinf(r.max_abs_error));
    r = cmp(HN_F32, a, 8, b, 16);
    CHECK(r.size_mismatch && r.mismatches == 2 && r.first_mismatch == 2);
    r = cmp(HN_F32, a, 0, b, 16);
    CHECK(r.size_mismatch && r.mismatches == 4 && r.first_mismatch == 0);
    r = cmp(HN_F32, NULL, 0, NULL, 0);
    CHECK(!r.size_mismatch && r.mismatches == 0 && r.elements == 0);
    /* a mismatch inside the common part comes first */
    b[1] = 9;
    r = cmp(HN_F32, a, 16, b, 8);
    CHECK(r.mismatches == 3 && r.first_mismatch == 1);
    b[1] = 2;
    /* one extra byte: a partial element, which is a mismatch */
    unsigned char bytes[17];
    memcpy(bytes, a, 16);
    bytes[16] = 0;
    r = cmp(HN_F32, a, 16, bytes, 17);
    CHECK(r.size_mismatch && r.mismatches == 1 && r.first_mismatch == 4 && r.elements == 5);
    /* both have a partial element: compared as bytes */
    unsigned char x[7] = {0, 0, 0x80, 0x3F, 1, 2, 3}, y[7] = {0, 0, 0x80, 0x3F, 1, 2, 3};
    r = cmp(HN_F32, x, 7, y, 7);
    CHECK(!r.size_mismatch && r.mismatches == 0 && r.elements == 2);
    y[6] = 4;
    r = cmp(HN_F32, x, 7, y, 7);
    CHECK(r.mismatches == 1 && r.first_mismatch == 1);
    /* partial elements of different lengths */
    y[6] = 3;
    r = cmp(HN_F32, x, 7, y, 6);
    CHECK(r.size_mismatch && r.mismatches == 1 && r.first_mismatch == 1 && r.elements == 2);
    /* a NaN in the want-only tail is still counted */
    float nans[3] = {1, NAN, NAN};
    r = cmp(HN_F32, nans, 12, nans, 4);
    CHECK(r.mismatches == 2 && r.nan_in_want == 2);
    /* every dtype: a shorter got always mismatches */
    for (size_t i = 0; i < N_DTYPES; i++) {
        unsigned char z[16] = {0};
        r = cmp(all_dtypes[i], z, 16, z, 15);
        CHECK(r.size_mismatch && r.mismatches == 1);
        CHECK(r.first_mismatch == 15 / hn_dtype_size(all_dtypes[i]));
    }
    /* a dtype outside the enum compares bytes exactly */
    float one = 1.0f, near_one = nextafterf(1.0f, 2.0f);
    hn_compare(
        (hn_dtype)99, (hn_tolerance){1, 1}, &one, 4, &near_one, 4, &r);
    CHECK(r.mismatches == 1 && r.elements == 4);
}

static void test_unaligned(void)
{
    enum { N = 33 };
    double values[N];
    for (int i = 0; i < N; i++)
        values[i] = i * 0.1 - 1.5;
    for (size_t t = 0; t < N_DTYPES; t++) {
        for (size_t offset = 1; offset < 8; offset++) {
            unsigned char want[N * 8 + 8], got[N * 8 + 8];
            size_t len = N * hn_dtype_size(all_dtypes[t]);
            for (size_t i = 0; i < len; i++)
                want[offset + i] = (unsigned char)(i * 13 + 7);
            if (all_dtypes[t] == HN_F64) /* real numbers so tolerance applies */
                memcpy(want + offset, values, sizeof values);
            memcpy(got + (8 - offset), want + offset, len);
            hn_compare_result r = cmp(all_dtypes[t], want + offset, len,
                                      got + (8 - offset), len);
            CHECK(r.mismatches == 0 && r.elements == N);
            got[(8 - offset) + len - 1] ^= 0x40; /* high byte of the last element */
            r = cmp(all_dtypes[t], want + offset, len, got + (8 - offset), len);
            CHECK(r.mismatches == 1 && r.first_mismatch == N - 1);
        }
    }
}

static void test_ten_million(void)
{
    const size_t n = 10 * 1000 * 1000, wrong = 7654321;
    float *want = xmalloc(n * sizeof *want), *got = xmalloc(n * sizeof *got);
    for (size_t i = 0; i < n; i++) {
        want[i] = (float)((double)(i % 1000) * 0.25 - 100.0);
        got[i] = want[i];
    }
    /* within tolerance everywhere but one place */
    got[12345] = nextafterf(got[12345], 1e9f);
    got[n - 1] = nextafterf(got[n - 1], -1e9f);
    got[wrong] = want[wrong] + 1.0f;
    hn_compare_result r = cmp(HN_F32, want, n * sizeof *want, got, n * sizeof *got);
    CHECK(r.elements == n);
    CHECK(r.mismatches == 1);
    CHECK(r.first_mismatch == wrong);
    CHECK(r.max_abs_error == 1.0);
    free(want);
    free(got);
}

/* xorshift64*: deterministic random bytes */
static uint64_t rng_state = 0x9E3779B97F4A7C15ULL;
static uint64_t rng(void)
{
    rng_state ^= rng_state >> 12;
    rng_state ^= rng_state << 25;
    rng_state ^= rng_state >> 27;
    return rng_state * 0x2545F4914F6CDD1DULL;
}

static void test_fuzz(void)
{
    enum { MAX = 200 };
    int ok = 1;
    for (int round = 0; round < 20000; round++) {
        unsigned char a[MAX + 8], b[MAX + 8];
        for (size_t i = 0; i < sizeof a; i++) {
            a[i] = (unsigned char)rng();
            b[i] = (rng() & 3) ? a[i] : (unsigned char)rng();
        }
        hn_dtype t = all_dtypes[rng() % N_DTYPES];
        size_t a_off = rng() % 8, b_off = rng() % 8;
        size_t a_len = rng() % MAX, b_len = (rng() & 1) ? a_len : rng() % MAX;
        hn_tolerance tol = hn_default_tolerance(t);
        if ((rng() & 7) == 0) /* odd tolerances too */
            tol = (hn_tolerance){(double)(int64_t)rng() / 1e18, (double)(int64_t)rng() / 1e18};
        hn_compare_result r;
        hn_compare(t, tol, a + a_off, a_len, b + b_off, b_len, &r);
        size_t size = hn_dtype_size(t);
        size_t longer = a_len > b_len ? a_len : b_len;
        if (r.elements != (longer + size - 1) / size || r.mismatches > r.elements ||
            (r.mismatches && r.first_mismatch >= r.elements) ||
            r.size_mismatch != (a_len != b_len) ||
            (r.size_mismatch && r.mismatches == 0) ||
            !(r.max_abs_error >= 0) || !(r.max_rel_error >= 0) ||
            r.nan_in_want > r.elements)
            ok = 0;
        /* equal bytes always pass */
        if (a_len == b_len && memcmp(a + a_off, b + b_off, a_len) == 0 && r.mismatches)
            ok = 0;
        /* self-compare always passes, whatever the bytes */
        hn_compare(t, tol, a + a_off, a_len, a + a_off, a_len, &r);
        if (r.mismatches || r.max_abs_error != 0 || r.size_mismatch)
            ok = 0;
    }
    CHECK(ok);
}

/* hn_compare_scaled: rtol scales the magnitude the original's run on
 * absolute inputs went through, capped at the buffer's largest |want| */
static void test_scaled(void)
{
    hn_tolerance tol = hn_default_tolerance(HN_F32); /* rtol 1e-5, atol 1e-6 */
    /* element 0: a sum of large terms that cancelled to 100; the reordered
     * sum is 2 away.  element 1 is large and exact. */
    float want[2] = {100, 4e6f}, got[2] = {102, 4e6f}, scale[2] = {1e6f, 4e6f};
    hn_compare_result r;
    hn_compare(HN_F32, tol, want, sizeof want, got, sizeof got, &r);
    CHECK(r.mismatches == 1 && r.first_mismatch == 0);
    hn_compare_scaled(HN_F32, tol, want, sizeof want, got, sizeof got, scale, sizeof scale, &r);
    CHECK(r.mismatches == 0);
    /* an error beyond rtol * scale still fails */
    got[0] = 120;
    hn_compare_scaled(HN_F32, tol, want, sizeof want, got, sizeof got, scale, sizeof scale, &r);
    CHECK(r.mismatches == 1 && r.first_mismatch == 0);
    /* the scale is capped at 1000 times the largest |want|: with 1000 the
     * largest, a huge scale opens no more than rtol * 1e6 = 10 */
    float want2[2] = {100, 1000}, got2[2] = {109.9f, 1000}, huge[2] = {1e30f, 1000};
    hn_compare_scaled(HN_F32, tol, want2, sizeof want2, got2, sizeof got2, huge, sizeof huge, &r);
    CHECK(r.mismatches == 0);
    got2[0] = 110.1f;
    hn_compare_scaled(HN_F32, tol, want2, sizeof want2, got2, sizeof got2, huge, sizeof huge, &r);
    CHECK(r.mismatches == 1);
    /* non-finite scale elements widen nothing; a scale of another length is ignored */
    float bad[2] = {NAN, INFINITY};
    got[0] = 102;
    hn_compare_scaled(HN_F32, tol, want, sizeof want, got, sizeof got, bad, sizeof bad, &r);
    CHECK(r.mismatches == 1);
    hn_compare_scaled(HN_F32, tol, want, sizeof want, got, sizeof got, scale, sizeof scale - 4, &r);
    CHECK(r.mismatches == 1);
    /* a scale smaller than |want| narrows nothing */
    float small[2] = {0, 0};
    got[0] = 100.0009f;
    hn_compare_scaled(HN_F32, tol, want, sizeof want, got, sizeof got, small, sizeof small, &r);
    CHECK(r.mismatches == 0);
    /* integers stay exact */
    int wi[1] = {5}, gi[1] = {6}, si[1] = {1000000};
    hn_compare_scaled(HN_I32, tol, wi, sizeof wi, gi, sizeof gi, si, sizeof si, &r);
    CHECK(r.mismatches == 1);
    /* NaN rules are unchanged */
    float wn[1] = {NAN}, gn[1] = {1}, sn[1] = {1e6f};
    hn_compare_scaled(HN_F32, tol, wn, sizeof wn, gn, sizeof gn, sn, sizeof sn, &r);
    CHECK(r.mismatches == 1);
}

int main(void)
{
    test_names();
    test_equal_and_exact();
    test_int_errors();
    test_float_tolerance();
    test_nan();
    test_inf();
    test_half_decoding();
    test_size_mismatch();
    test_unaligned();
    test_ten_million();
    test_fuzz();
    test_scaled();
    return CHECK_REPORT("test_compare");
}
