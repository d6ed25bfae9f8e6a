/*
 * test_splice.c: rw_splice keeps every byte outside the edits, refuses
 * overlapping or out-of-range edits, and with #line directives keeps the
 * original line numbers for the text after each replacement.
 */
#include <string.h>

#include "rewrite.h"

#include "check.h"

static const char source[] =
    "// header\r\n"
    "__global__ void a(float *x)\t{ x[0] = 1; } // é UTF-8\n"
    "\n"
    "__global__ void b(float *x) {\n"
    "    x[1] = 2;\n"
    "}\n"
    "int main() { return 0; }\n";

static size_t find(const char *needle)
{
    return (size_t)(strstr(source, needle) - source);
}

static void test_plain_splice(void)
{
    rw_edit edits[2];
    size_t b_begin = find("__global__ void b"), b_end = find("}\nint main") + 1;
    edits[0] = (rw_edit){b_begin, b_end, "__global__ void b(float *x) { x[1] = 3; }", 0};
    size_t a_body = find("{ x[0] = 1; }");
    edits[1] = (rw_edit){a_body, a_body + strlen("{ x[0] = 1; }"), "{ x[0] = 9; }", 0};
    strbuf out, err;
    sb_init(&out);
    sb_init(&err);
    CHECK(rw_splice(source, strlen(source), "t.cu", edits, 2, 0, &out, &err) == RW_OK);
    const char *want =
        "// header\r\n"
        "__global__ void a(float *x)\t{ x[0] = 9; } // é UTF-8\n"
        "\n"
        "__global__ void b(float *x) { x[1] = 3; }\n"
        "int main() { return 0; }\n";
    CHECK(strcmp(sb_str(&out), want) == 0);
    /* no edits: the same bytes */
    sb_clear(&out);
    CHECK(rw_splice(source, strlen(source), "t.cu", NULL, 0, 0, &out, &err) == RW_OK);
    CHECK(strcmp(sb_str(&out), source) == 0);
    sb_free(&out);
    sb_free(&err);
}

static void test_bad_edits(void)
{
    strbuf out, err;
    sb_init(&out);
    sb_init(&err);
    rw_edit overlap[2] = {{10, 20, "x", 0}, {15, 25, "y", 0}};
    CHECK(rw_splice(source, strlen(source), "t.cu", overlap, 2, 0, &out, &err) == RW_BAD_EDITS);
    CHECK(strstr(sb_str(&err), "overlap") != NULL);
    sb_clear(&err);
    rw_edit outside[1] = {{10, 100000, "x", 0}};
    CHECK(rw_splice(source, strlen(source), "t.cu", outside, 1, 0, &out, &err) == RW_BAD_EDITS);
    CHECK(strstr(sb_str(&err), "outside") != NULL);
    sb_free(&out);
    sb_free(&err);
}

static void test_line_directives(void)
{
    size_t b_begin = find("__global__ void b"), b_end = find("}\nint main") + 1;
    rw_edit e = {b_begin, b_end, "__global__ void b(float *x)\n{\n    x[1] = 3;\n    x[2] = 4;\n}", 0};
    strbuf out, err;
    sb_init(&out);
    sb_init(&err);
    CHECK(rw_splice(source, strlen(source), "/src/t \"q\".cu", &e, 1, 1, &out, &err) == RW_OK);
    const char *s = sb_str(&out);
    CHECK(strncmp(s, "#line 1 \"/src/t \\\"q\\\".cu\"\n// header", 34) == 0);
    /* the replacement reports as line 4, where b began; main stays at 7 */
    CHECK(strstr(s, "#line 4 \"/src/t \\\"q\\\".cu\"\n__global__ void b") != NULL);
    CHECK(strstr(s, "x[2] = 4;\n}\n#line 6 \"/src/t \\\"q\\\".cu\"\n ") != NULL);
    const char *tail = strstr(s, "#line 6");
    CHECK(tail && strstr(tail, "\nint main()") != NULL);
    sb_free(&out);
    sb_free(&err);
}

int main(void)
{
    test_plain_splice();
    test_bad_edits();
    test_line_directives();
    return CHECK_REPORT("test_splice");
}
