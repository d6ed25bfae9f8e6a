/*
 * extract_expr.c: an integer expression of a kernel's body as text the
 * roofline can evaluate (harness/roofline_eval.c): read from the AST, so
 * after macro expansion; integer constants folded; names, the built-in
 * index variables, + - * / % comparisons && || and unary minus, fully
 * parenthesised; every part of integer (or bool) type.  Anything else
 * makes the whole expression NULL.
 */
#include <stdio.h>
#include <string.h>

#include "internal.h"

static int is_builtin_index(const char *t)
{
    static const char *const names[] = {"threadIdx.", "blockIdx.", "blockDim.", "gridDim."};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        size_t n = strlen(names[i]);
        if (strncmp(t, names[i], n) == 0 && t[n] >= 'x' && t[n] <= 'z' && t[n + 1] == '\0')
            return 1;
    }
    return 0;
}

static int is_integer_type(CXType t)
{
    switch (clang_getCanonicalType(t).kind) {
    case CXType_Bool: case CXType_Char_U: case CXType_UChar: case CXType_UShort:
    case CXType_UInt: case CXType_ULong: case CXType_ULongLong: case CXType_Char_S:
    case CXType_SChar: case CXType_Short: case CXType_Int: case CXType_Long:
    case CXType_LongLong:
        return 1;
    default:
        return 0;
    }
}

/* the value of a constant integer expression into out; 0, or -1 */
static int folded(CXCursor c, char *out, size_t size)
{
    if (!is_integer_type(clang_getCursorType(c)))
        return -1;
    CXEvalResult r = clang_Cursor_Evaluate(c);
    if (!r)
        return -1;
    int ok = clang_EvalResult_getKind(r) == CXEval_Int;
    if (ok) {
        if (clang_EvalResult_isUnsignedInt(r))
            snprintf(out, size, "%llu", clang_EvalResult_getAsUnsigned(r));
        else
            snprintf(out, size, "%lld", clang_EvalResult_getAsLongLong(r));
    }
    clang_EvalResult_dispose(r);
    return ok ? 0 : -1;
}

/* c's extent between the expansion locations of its ends: where an operand
 * ends inside a macro ("k < _PB_NK", _PB_NK a function-like macro), the
 * raw extent's end lies in the macro's definition and tokenizes to
 * nothing */
static CXSourceRange expanded_extent(fe_context *cx, CXCursor c)
{
    CXSourceRange raw = clang_getCursorExtent(c);
    CXFile begin_file = NULL, end_file = NULL;
    unsigned begin, end;
    clang_getExpansionLocation(clang_getRangeStart(raw), &begin_file, NULL, NULL, &begin);
    clang_getExpansionLocation(clang_getRangeEnd(raw), &end_file, NULL, NULL, &end);
    if (!begin_file || !clang_File_isEqual(begin_file, end_file) || end < begin)
        return raw;
    return clang_getRange(clang_getLocationForOffset(cx->tu, begin_file, begin),
                          clang_getLocationForOffset(cx->tu, begin_file, end));
}

const char *fe_operator_after(fe_context *cx, CXCursor c, unsigned offset)
{
    CXToken *tokens = NULL;
    unsigned n = 0;
    clang_tokenize(cx->tu, expanded_extent(cx, c), &tokens, &n);
    const char *op = NULL;
    for (unsigned i = 0; i < n && !op; i++) {
        if (clang_getTokenKind(tokens[i]) != CXToken_Punctuation)
            continue;
        unsigned off;
        clang_getSpellingLocation(clang_getTokenLocation(cx->tu, tokens[i]), NULL, NULL, NULL,
                                  &off);
        if (off >= offset)
            op = fe_string(cx, clang_getTokenSpelling(cx->tu, tokens[i]));
    }
    if (tokens)
        clang_disposeTokens(cx->tu, tokens, n);
    return op;
}

static int allowed_binary(const char *op)
{
    static const char *const ops[] = {"+", "-", "*", "/", "%", "<", "<=", ">", ">=",
                                      "==", "!=", "&&", "||"};
    for (size_t i = 0; op && i < sizeof ops / sizeof ops[0]; i++)
        if (strcmp(op, ops[i]) == 0)
            return 1;
    return 0;
}

static enum CXChildVisitResult collect(CXCursor c, CXCursor parent, CXClientData data)
{
    (void)parent;
    vec_push((cursor_vec *)data, c);
    return CXChildVisit_Continue;
}

static const char *binary_text(fe_context *cx, CXCursor c, const cursor_vec *kids, int depth);

static const char *expr_text(fe_context *cx, CXCursor c, int depth)
{
    char number[32];
    if (depth > 64)
        return NULL;
    const char *text = fe_cursor_text(cx, c);
    if (text && is_builtin_index(text))
        return text;
    if (!is_integer_type(clang_getCursorType(c)))
        return NULL;
    if (folded(c, number, sizeof number) == 0)
        return arena_strdup(cx->strings, number);
    cursor_vec kids = {0};
    clang_visitChildren(c, collect, &kids);
    const char *out = NULL;
    switch (clang_getCursorKind(c)) {
    case CXCursor_DeclRefExpr:
        out = fe_string(cx, clang_getCursorSpelling(c));
        break;
    case CXCursor_ParenExpr:
    case CXCursor_UnexposedExpr:
    case CXCursor_CStyleCastExpr:
        /* parentheses, implicit and explicit casts: the operand (a cast's
         * last child; its first may name the type) */
        if (kids.len >= 1)
            out = expr_text(cx, kids.items[kids.len - 1], depth + 1);
        break;
    case CXCursor_BinaryOperator:
        if (kids.len == 2)
            out = binary_text(cx, c, &kids, depth);
        break;
    case CXCursor_UnaryOperator:
        if (kids.len == 1 && text && text[0] == '-' && text[1] != '-') {
            const char *x = expr_text(cx, kids.items[0], depth + 1);
            out = x ? arena_printf(cx->strings, "(-%s)", x) : NULL;
        }
        break;
    default:
        break;
    }
    vec_free(&kids);
    return out;
}

static const char *binary_text(fe_context *cx, CXCursor c, const cursor_vec *kids, int depth)
{
    src_range lhs = fe_cursor_range(cx, kids->items[0]);
    const char *op = fe_operator_after(cx, c, lhs.end);
    if (!allowed_binary(op))
        return NULL;
    const char *l = expr_text(cx, kids->items[0], depth + 1);
    const char *r = l ? expr_text(cx, kids->items[1], depth + 1) : NULL;
    return r ? arena_printf(cx->strings, "(%s %s %s)", l, op, r) : NULL;
}

const char *fe_expr_text(fe_context *cx, CXCursor c)
{
    return expr_text(cx, c, 0);
}
