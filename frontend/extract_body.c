/*
 * extract_body.c: the statements of each kernel's body that the built-in
 * transformations reason about (loops, ifs, assignments, subscripts, calls,
 * barriers), flattened in source order with the loop or if around each.
 */
#include <string.h>

#include "internal.h"

typedef struct body_walk {
    fe_context *cx;
    kernel *k;
    long parent;
    int loop_depth;
    long owner; /* the innermost loop or if, which counts the flops; -1 */
} body_walk;

static cursor_vec children_of(CXCursor c);

static enum CXChildVisitResult collect_child(CXCursor c, CXCursor parent, CXClientData data)
{
    (void)parent;
    cursor_vec *v = data;
    vec_push(v, c);
    return CXChildVisit_Continue;
}

static cursor_vec children_of(CXCursor c)
{
    cursor_vec v = {0};
    clang_visitChildren(c, collect_child, &v);
    return v;
}

static int is_assignment_op(const char *op)
{
    static const char *ops[] = {"=", "+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=",
                                "<<=", ">>=", NULL};
    for (int i = 0; op && ops[i]; i++)
        if (strcmp(op, ops[i]) == 0)
            return 1;
    return 0;
}

/* a plain identifier, possibly behind implicit casts and parentheses */
static const char *identifier_text(fe_context *cx, CXCursor c)
{
    const char *t = fe_cursor_text(cx, c);
    size_t n = strlen(t);
    if (n == 0 || !(t[0] == '_' || (t[0] >= 'a' && t[0] <= 'z') || (t[0] >= 'A' && t[0] <= 'Z')))
        return NULL;
    for (size_t i = 0; i < n; i++)
        if (!(t[i] == '_' || (t[i] >= 'a' && t[i] <= 'z') || (t[i] >= 'A' && t[i] <= 'Z') ||
              (t[i] >= '0' && t[i] <= '9')))
            return NULL;
    return t;
}

/* "for (k = 0; ..." and "for (int k = 0; ...": the name before the first
 * '=' of the header's first clause */
static const char *for_loop_variable(fe_context *cx, const src_range *loop, const src_range *body)
{
    src_range header = *loop;
    header.end = body->begin > loop->begin ? body->begin : loop->end;
    const char *t = fe_text_of(cx, &header);
    const char *open = strchr(t, '(');
    if (!open)
        return NULL;
    const char *semi = strchr(open, ';');
    const char *eq = strchr(open, '=');
    if (!semi || !eq || eq > semi || eq[1] == '=')
        return NULL;
    const char *end = eq;
    while (end > open && (end[-1] == ' ' || end[-1] == '\t'))
        end--;
    const char *begin = end;
    while (begin > open && (begin[-1] == '_' || (begin[-1] >= 'a' && begin[-1] <= 'z') ||
                            (begin[-1] >= 'A' && begin[-1] <= 'Z') ||
                            (begin[-1] >= '0' && begin[-1] <= '9')))
        begin--;
    if (begin == end)
        return NULL;
    return arena_strndup(cx->strings, begin, (size_t)(end - begin));
}

static int is_float_type(CXType t)
{
    switch (clang_getCanonicalType(t).kind) {
    case CXType_Float: case CXType_Double: case CXType_LongDouble: case CXType_Half:
    case CXType_Float16:
        return 1;
    default:
        return 0;
    }
}

/* n floating-point operations, to the innermost loop or if around them */
static void count_flops(body_walk *w, long n)
{
    if (w->owner >= 0)
        w->k->body.items[w->owner].flops += n;
    else
        w->k->body_flops += n;
}

static int is_flop_op(const char *op)
{
    static const char *const ops[] = {"+", "-", "*", "/", "+=", "-=", "*=", "/="};
    for (size_t i = 0; op && i < sizeof ops / sizeof ops[0]; i++)
        if (strcmp(op, ops[i]) == 0)
            return 1;
    return 0;
}

/* a math function's operations: fma 2, the others 1 (docs/HARNESS.md,
 * "Roofline"); 0 for anything else */
static int math_call_flops(const char *name)
{
    static const char *const math[] = {
        "sqrt", "rsqrt", "cbrt", "exp", "exp2", "exp10", "expm1", "log", "log2", "log10",
        "log1p", "sin", "cos", "tan", "sinh", "cosh", "tanh", "asin", "acos", "atan", "atan2",
        "pow", "fabs", "fmin", "fmax", "hypot", "erf", "erfc", "floor", "ceil", "trunc",
        "round", "fdivide", "__expf", "__logf", "__sinf", "__cosf", "__powf", "__fdividef",
        "__exp10f", "__log2f", "__tanf"};
    char base[64];
    snprintf(base, sizeof base, "%s", name);
    size_t n = strlen(base);
    if (strcmp(base, "fma") == 0 || strcmp(base, "fmaf") == 0 || strncmp(base, "__fmaf_", 7) == 0)
        return 2;
    for (size_t i = 0; i < sizeof math / sizeof math[0]; i++)
        if (strcmp(base, math[i]) == 0 ||
            (n == strlen(math[i]) + 1 && base[n - 1] == 'f' && strncmp(base, math[i], n - 1) == 0))
            return 1;
    return 0;
}

static long add_node(body_walk *w, body_kind kind, CXCursor c)
{
    body_node n;
    memset(&n, 0, sizeof n);
    n.kind = kind;
    n.range = fe_cursor_range(w->cx, c);
    n.parent = w->parent;
    n.loop_depth = w->loop_depth;
    if (n.range.in_macro)
        w->k->body_in_macro = 1;
    vec_push(&w->k->body, n);
    return (long)w->k->body.len - 1;
}

static enum CXChildVisitResult visit_statement(CXCursor c, CXCursor parent, CXClientData data);

static void visit_nested(body_walk *w, CXCursor c, long node, int is_loop)
{
    body_walk inner = {w->cx, w->k, node, w->loop_depth + is_loop, node};
    clang_visitChildren(c, visit_statement, &inner);
}

static void mark_inner_loop(kernel *k, long parent)
{
    for (long p = parent; p >= 0; p = k->body.items[p].parent)
        if (k->body.items[p].kind == BODY_LOOP)
            k->body.items[p].has_inner_loop = 1;
}

/* the first value of a for loop's variable: `int k = E` or `k = E` */
static const char *loop_lower(fe_context *cx, const char *var, CXCursor init)
{
    cursor_vec kids = children_of(init);
    const char *out = NULL;
    enum CXCursorKind kind = clang_getCursorKind(init);
    if (kind == CXCursor_DeclStmt) {
        for (size_t i = 0; i < kids.len && !out; i++) {
            const char *name = fe_string(cx, clang_getCursorSpelling(kids.items[i]));
            cursor_vec parts = children_of(kids.items[i]);
            if (strcmp(name, var) == 0 && parts.len > 0)
                out = fe_expr_text(cx, parts.items[parts.len - 1]);
            vec_free(&parts);
        }
    } else if (kind == CXCursor_BinaryOperator && kids.len == 2) {
        src_range lhs = fe_cursor_range(cx, kids.items[0]);
        const char *op = fe_operator_after(cx, init, lhs.end);
        const char *target = fe_expr_text(cx, kids.items[0]);
        if (op && strcmp(op, "=") == 0 && target && strcmp(target, var) == 0)
            out = fe_expr_text(cx, kids.items[1]);
    }
    vec_free(&kids);
    return out;
}

/* `k < E` (or `E > k`): the comparison with k on the left, and E */
static void loop_condition(fe_context *cx, body_node *n, CXCursor cond)
{
    cursor_vec kids = children_of(cond);
    if (clang_getCursorKind(cond) == CXCursor_BinaryOperator && kids.len == 2) {
        src_range lhs = fe_cursor_range(cx, kids.items[0]);
        const char *op = fe_operator_after(cx, cond, lhs.end);
        const char *l = fe_expr_text(cx, kids.items[0]);
        const char *r = fe_expr_text(cx, kids.items[1]);
        static const char *const ops[][2] = {{"<", ">"}, {"<=", ">="}, {">", "<"},
                                             {">=", "<="}, {"!=", "!="}};
        for (size_t i = 0; op && l && r && i < sizeof ops / sizeof ops[0]; i++) {
            if (strcmp(op, ops[i][0]) != 0)
                continue;
            if (strcmp(l, n->loop_var) == 0)
                n->loop_cmp = ops[i][0], n->loop_bound = r;
            else if (strcmp(r, n->loop_var) == 0)
                n->loop_cmp = ops[i][1], n->loop_bound = l;
        }
    }
    vec_free(&kids);
}

/* k++, ++k, k--, k += E, k -= E, k = k + E: what each iteration adds */
static const char *loop_step(fe_context *cx, const char *var, CXCursor inc)
{
    cursor_vec kids = children_of(inc);
    enum CXCursorKind kind = clang_getCursorKind(inc);
    const char *out = NULL;
    const char *target = kids.len >= 1 ? fe_expr_text(cx, kids.items[0]) : NULL;
    if (target && strcmp(target, var) == 0) {
        src_range lhs = fe_cursor_range(cx, kids.items[0]);
        const char *op = kids.len == 2 ? fe_operator_after(cx, inc, lhs.end) : NULL;
        const char *text = fe_cursor_text(cx, inc);
        const char *rhs = kids.len == 2 ? fe_expr_text(cx, kids.items[1]) : NULL;
        if (kind == CXCursor_UnaryOperator && text && strstr(text, "++"))
            out = "1";
        else if (kind == CXCursor_UnaryOperator && text && strstr(text, "--"))
            out = "-1";
        else if (op && rhs && strcmp(op, "+=") == 0)
            out = rhs;
        else if (op && rhs && strcmp(op, "-=") == 0)
            out = arena_printf(cx->strings, "(-%s)", rhs);
        else if (op && rhs && strcmp(op, "=") == 0) {
            const char *prefix = arena_printf(cx->strings, "(%s + ", var);
            size_t np = strlen(prefix), nr = strlen(rhs);
            if (strncmp(rhs, prefix, np) == 0 && nr > np && rhs[nr - 1] == ')')
                out = arena_strndup(cx->strings, rhs + np, nr - np - 1);
        }
    }
    vec_free(&kids);
    return out;
}

/* a for loop's init, condition and increment (kids: those and the body) */
static void loop_header(fe_context *cx, body_node *n, const cursor_vec *kids)
{
    n->loop_lower = loop_lower(cx, n->loop_var, kids->items[0]);
    loop_condition(cx, n, kids->items[1]);
    n->loop_step = loop_step(cx, n->loop_var, kids->items[2]);
}

static void add_loop(body_walk *w, CXCursor c, enum CXCursorKind kind)
{
    long node = add_node(w, BODY_LOOP, c);
    cursor_vec kids = children_of(c);
    body_node *n = &w->k->body.items[node];
    n->loop_kind = kind == CXCursor_ForStmt ? "for" : kind == CXCursor_WhileStmt ? "while" : "do";
    if (kids.len > 0) {
        /* the body is the last child of for and while, the first of do */
        CXCursor body = kind == CXCursor_DoStmt ? kids.items[0] : kids.items[kids.len - 1];
        n->loop_body = fe_cursor_range(w->cx, body);
    }
    if (kind == CXCursor_ForStmt && kids.len > 0)
        n->loop_var = for_loop_variable(w->cx, &n->range, &n->loop_body);
    if (n->loop_var && kids.len == 4)
        loop_header(w->cx, n, &kids);
    vec_free(&kids);
    mark_inner_loop(w->k, w->parent);
    visit_nested(w, c, node, 1);
}

static void add_assignment(body_walk *w, CXCursor c, const char *op, CXCursor target)
{
    long node = add_node(w, BODY_ASSIGN, c);
    body_node *n = &w->k->body.items[node];
    n->op = op;
    n->target = fe_cursor_range(w->cx, target);
}

/* the value of `x = E`: E as expression text */
static void note_assigned_value(body_walk *w, CXCursor value)
{
    w->k->body.items[w->k->body.len - 1].expr = fe_expr_text(w->cx, value);
}

static void add_subscript(body_walk *w, CXCursor c)
{
    cursor_vec kids = children_of(c);
    long node = add_node(w, BODY_SUBSCRIPT, c);
    if (kids.len == 2) {
        body_node *n = &w->k->body.items[node];
        n->base = identifier_text(w->cx, kids.items[0]);
        n->index = fe_cursor_range(w->cx, kids.items[1]);
    }
    vec_free(&kids);
}

/* marks the subscripts that an assignment writes */
static void mark_writes(kernel *k)
{
    for (size_t i = 0; i < k->body.len; i++) {
        const body_node *a = &k->body.items[i];
        if (a->kind != BODY_ASSIGN)
            continue;
        for (size_t j = i + 1; j < k->body.len; j++) {
            body_node *s = &k->body.items[j];
            if (s->range.begin >= a->range.end)
                break;
            if (s->kind == BODY_SUBSCRIPT && s->range.begin == a->target.begin &&
                s->range.end == a->target.end)
                s->is_write = 1;
        }
    }
}

static void add_call(body_walk *w, CXCursor c)
{
    const char *name = fe_string(w->cx, clang_getCursorSpelling(c));
    int barrier = strcmp(name, "__syncthreads") == 0 || strncmp(name, "__syncthreads_", 14) == 0 ||
                  strcmp(name, "__syncwarp") == 0 || strcmp(name, "__threadfence") == 0;
    long node = add_node(w, barrier ? BODY_SYNC : BODY_CALL, c);
    w->k->body.items[node].callee = name;
    int flops = math_call_flops(name);
    if (flops && is_float_type(clang_getCursorType(c)))
        count_flops(w, flops);
}

static enum CXChildVisitResult visit_statement(CXCursor c, CXCursor parent, CXClientData data)
{
    (void)parent;
    body_walk *w = data;
    enum CXCursorKind kind = clang_getCursorKind(c);
    switch (kind) {
    case CXCursor_ForStmt:
    case CXCursor_WhileStmt:
    case CXCursor_DoStmt:
        add_loop(w, c, kind);
        return CXChildVisit_Continue;
    case CXCursor_IfStmt:
    case CXCursor_ConditionalOperator: {
        long node = add_node(w, BODY_IF, c);
        cursor_vec kids = children_of(c);
        if (kids.len > 0)
            w->k->body.items[node].expr = fe_expr_text(w->cx, kids.items[0]);
        vec_free(&kids);
        visit_nested(w, c, node, 0);
        return CXChildVisit_Continue;
    }
    case CXCursor_BinaryOperator:
    case CXCursor_CompoundAssignOperator: {
        cursor_vec kids = children_of(c);
        if (kids.len == 2) {
            src_range lhs = fe_cursor_range(w->cx, kids.items[0]);
            const char *op = fe_operator_after(w->cx, c, lhs.end);
            if (is_assignment_op(op))
                add_assignment(w, c, op, kids.items[0]);
            if (op && strcmp(op, "=") == 0)
                note_assigned_value(w, kids.items[1]);
            if (is_flop_op(op) && is_float_type(clang_getCursorType(c)))
                count_flops(w, 1);
        }
        vec_free(&kids);
        return CXChildVisit_Recurse;
    }
    case CXCursor_UnaryOperator: {
        cursor_vec kids = children_of(c);
        if (kids.len == 1) {
            src_range r = fe_cursor_range(w->cx, c);
            const char *t = fe_text_of(w->cx, &r);
            size_t n = strlen(t);
            const char *op = NULL;
            if (strncmp(t, "++", 2) == 0 || (n >= 2 && strcmp(t + n - 2, "++") == 0))
                op = "++";
            else if (strncmp(t, "--", 2) == 0 || (n >= 2 && strcmp(t + n - 2, "--") == 0))
                op = "--";
            if (op)
                add_assignment(w, c, op, kids.items[0]);
        }
        vec_free(&kids);
        return CXChildVisit_Recurse;
    }
    case CXCursor_ArraySubscriptExpr:
        add_subscript(w, c);
        return CXChildVisit_Recurse;
    case CXCursor_CallExpr:
        add_call(w, c);
        return CXChildVisit_Recurse;
    case CXCursor_VarDecl: {
        /* a declaration in a loop makes its name vary with the loop */
        long node = add_node(w, BODY_ASSIGN, c);
        w->k->body.items[node].op = "decl";
        w->k->body.items[node].target =
            fe_range_of(w->cx, clang_Cursor_getSpellingNameRange(c, 0, 0));
        cursor_vec kids = children_of(c);
        if (kids.len > 0 && clang_getCursorKind(kids.items[kids.len - 1]) != CXCursor_TypeRef)
            w->k->body.items[node].expr = fe_expr_text(w->cx, kids.items[kids.len - 1]);
        vec_free(&kids);
        return CXChildVisit_Recurse;
    }
    case CXCursor_LambdaExpr:
        return CXChildVisit_Continue;
    default:
        return CXChildVisit_Recurse;
    }
}

static enum CXChildVisitResult find_body(CXCursor c, CXCursor parent, CXClientData data)
{
    (void)parent;
    if (clang_getCursorKind(c) == CXCursor_CompoundStmt) {
        *(CXCursor *)data = c;
        return CXChildVisit_Break;
    }
    return CXChildVisit_Continue;
}

void fe_extract_bodies(fe_context *cx)
{
    for (size_t i = 0; i < cx->model->kernels.len; i++) {
        kernel *k = &cx->model->kernels.items[i];
        if (!k->is_definition)
            continue;
        CXCursor body = clang_getNullCursor();
        clang_visitChildren(cx->kernel_cursors.items[i], find_body, &body);
        if (clang_Cursor_isNull(body))
            continue;
        body_walk w = {cx, k, -1, 0, -1};
        clang_visitChildren(body, visit_statement, &w);
        mark_writes(k);
    }
}
