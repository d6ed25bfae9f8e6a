/*
 * tunedb_key.c: the kernel key and the variant hash, SHA-256 over versioned,
 * length-prefixed serializations.  Pure functions: no database involved.
 * Changing a serialization changes every key: bump TUNEDB_KEY_FORMAT.
 */
#include "tunedb.h"

#include <string.h>

/* 8 bytes little-endian, the same on every host */
static void put_u64(sha256_ctx *c, uint64_t n)
{
    unsigned char b[8];
    for (int i = 0; i < 8; i++)
        b[i] = (unsigned char)(n >> (8 * i));
    sha256_update(c, b, sizeof b);
}

/* NULL and "" are the same: a caller passing either must find the entry the
 * other one wrote */
static void put_str(sha256_ctx *c, const char *s)
{
    size_t n = s ? strlen(s) : 0;
    put_u64(c, (uint64_t)n);
    sha256_update(c, s ? s : "", n);
}

/* the count first, so items cannot move from one list to the next */
static void put_list(sha256_ctx *c, const char *const *items, size_t n)
{
    put_u64(c, (uint64_t)n);
    for (size_t i = 0; i < n; i++)
        put_str(c, items ? items[i] : NULL);
}

void tunedb_kernel_key(const tunedb_key_input *in, char out[65])
{
    sha256_ctx c;
    sha256_init(&c);
    put_str(&c, "cl1cc-kernel-key");
    put_u64(&c, TUNEDB_KEY_FORMAT);
    put_str(&c, in->kernel_source);
    put_list(&c, in->dep_sources, in->n_deps);
    put_str(&c, in->arch);
    put_list(&c, in->codegen_flags, in->n_flags);
    put_str(&c, in->launch_signature);
    sha256_final_hex(&c, out);
}

void tunedb_variant_hash(const char *source, const char *launch_edits, char out[65])
{
    sha256_ctx c;
    sha256_init(&c);
    put_str(&c, "cl1cc-variant");
    put_u64(&c, TUNEDB_KEY_FORMAT);
    put_str(&c, source);
    put_str(&c, launch_edits);
    sha256_final_hex(&c, out);
}

int tunedb_is_key(const char *s)
{
    if (!s)
        return 0;
    size_t i = 0;
    for (; s[i]; i++)
        if (!((s[i] >= '0' && s[i] <= '9') || (s[i] >= 'a' && s[i] <= 'f')))
            return 0;
    return i == 64;
}
