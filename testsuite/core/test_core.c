/*
 * test_core.c: the shared core: string buffers, arenas, vectors, SHA-256
 * against FIPS test vectors, atomic file writes, expression text, launch
 * rules.
 */
#include "core.h"
#include "launch_rule.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check.h"

static void test_strbuf(void)
{
    strbuf sb;
    sb_init(&sb);
    CHECK(strcmp(sb_str(&sb), "") == 0);
    for (int i = 0; i < 1000; i++)
        sb_printf(&sb, "%d,", i);
    CHECK(strncmp(sb_str(&sb), "0,1,2,", 6) == 0);
    CHECK(sb.len == strlen(sb.data));
    char *s = sb_take(&sb);
    CHECK(sb.len == 0 && sb.data == NULL);
    free(s);
}

static void test_arena_vec(void)
{
    arena a;
    arena_init(&a);
    for (int i = 0; i < 10000; i++) {
        char *p = arena_printf(&a, "item %d", i);
        CHECK(strncmp(p, "item ", 5) == 0);
    }
    char *big = arena_alloc(&a, 1 << 20);
    CHECK(big[0] == 0 && big[(1 << 20) - 1] == 0);
    arena_free(&a);

    VEC(int) v = {0};
    for (int i = 0; i < 100000; i++)
        vec_push(&v, i);
    CHECK(v.len == 100000 && v.items[99999] == 99999);
    vec_free(&v);
}

static void test_sha256(void)
{
    char out[65];
    sha256_hex("", 0, out);
    CHECK(strcmp(out, "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855") == 0);
    sha256_hex("abc", 3, out);
    CHECK(strcmp(out, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad") == 0);
    const char *two = "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq";
    sha256_hex(two, strlen(two), out);
    CHECK(strcmp(out, "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1") == 0);
    sha256_ctx c;
    sha256_init(&c);
    char block[1000];
    memset(block, 'a', sizeof block);
    for (int i = 0; i < 1000; i++)
        sha256_update(&c, block, sizeof block);
    sha256_final_hex(&c, out);
    CHECK(strcmp(out, "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0") == 0);
}

static void test_files(void)
{
    char dir[] = "/tmp/cl1cc-core-XXXXXX";
    CHECK(mkdtemp(dir) != NULL);
    char path[256];
    snprintf(path, sizeof path, "%s/a/b/c", dir);
    CHECK(dir_create_all(path, 0755) == 0);
    snprintf(path, sizeof path, "%s/a/f.txt", dir);
    CHECK(file_write_atomic(path, "hello\n", 6) == 0);
    char *data;
    size_t len;
    CHECK(file_read_all(path, 0, &data, &len) == 0 && len == 6 &&
          strcmp(data, "hello\n") == 0);
    free(data);
    CHECK(file_read_all(path, 3, &data, &len) == -1);
    CHECK(file_read_all("/nonexistent/x", 0, &data, &len) == -1);
    /* a new file gets the user's umask (reports are shared, not 0600);
     * a replaced one keeps its mode */
    struct stat st;
    mode_t old = umask(022);
    snprintf(path, sizeof path, "%s/a/report.html", dir);
    CHECK(file_write_atomic(path, "x", 1) == 0 && stat(path, &st) == 0 &&
          (st.st_mode & 0777) == 0644);
    umask(027);
    snprintf(path, sizeof path, "%s/a/other.html", dir);
    CHECK(file_write_atomic(path, "x", 1) == 0 && stat(path, &st) == 0 &&
          (st.st_mode & 0777) == 0640);
    CHECK(chmod(path, 0604) == 0 && file_write_atomic(path, "y", 1) == 0 &&
          stat(path, &st) == 0 && (st.st_mode & 0777) == 0604);
    umask(old);
    char cmd[300];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    CHECK(system(cmd) == 0);
}

static void test_expr_text(void)
{
    static const char *const calls[] = {"sqrt", "dim3", NULL};
    CHECK(expr_text_without_effects("a[i * n + k] * (float)b[i] / sqrt(x)", calls));
    CHECK(expr_text_without_effects("dim3(grid).x", calls));
    CHECK(expr_text_without_effects("a <= b && c >= d && e == f && g != h", calls));
    CHECK(!expr_text_without_effects("a = b", calls));
    CHECK(!expr_text_without_effects("a += b", calls));
    CHECK(!expr_text_without_effects("a <<= 2", calls));
    CHECK(!expr_text_without_effects("a >>= 2", calls));
    CHECK(!expr_text_without_effects("i++", calls));
    CHECK(!expr_text_without_effects("f(x)", calls));
    CHECK(!expr_text_without_effects("next_grid ()", calls));
    CHECK(!expr_text_without_effects("p->*q", calls));
    CHECK(!expr_text_without_effects("g(\"s\")", NULL));
}

static int edits_grid_y(const char *edits)
{
    launch_rule r;
    return launch_rule_from_edits(edits, &r) ? r.grid_y : 0;
}

static void test_launch_rule(void)
{
    CHECK(launch_rule_of("/* cl1cc-launch: grid.y x32 */\n__global__ void k() {}").grid_y == 32);
    CHECK(launch_rule_of("__global__ void k() {}").grid_y == 1);
    CHECK(launch_rule_of(NULL).grid_y == 1);
    /* a marker anywhere but the first line, or a bad factor, is none */
    CHECK(launch_rule_of(" /* cl1cc-launch: grid.y x32 */").grid_y == 1);
    CHECK(launch_rule_of("/* cl1cc-launch: grid.y x1 */").grid_y == 1);
    CHECK(launch_rule_of("/* cl1cc-launch: grid.y x99999 */").grid_y == 1);
    CHECK(launch_rule_of("/* cl1cc-launch: grid.y x32*/").grid_y == 1);
    CHECK(launch_rule_of("/* cl1cc-launch: grid.y x32\n */").grid_y == 1);
    char buf[LAUNCH_RULE_EDITS_MAX];
    const char *e = launch_rule_edits("/* cl1cc-launch: grid.y x32 */\n", buf);
    CHECK(e && strcmp(e, "[{\"grid_y\": 32}]") == 0);
    CHECK(launch_rule_edits("__global__ void k() {}", buf) == NULL);
    CHECK(edits_grid_y(e) == 32);
    CHECK(edits_grid_y(NULL) == 1);
    CHECK(edits_grid_y("[]") == 1);
    CHECK(edits_grid_y("null") == 1);
    /* anything else is edits the wrapper does not know: 0, never spliced */
    CHECK(edits_grid_y("[{\"site\": 0, \"field\": \"grid\", \"text\": \"4\"}]") == 0);
    CHECK(edits_grid_y("[{\"grid_y\": 32}, {\"site\": 0}]") == 0);
    CHECK(edits_grid_y("[{\"grid_y\": 1}]") == 0);

    /* block reshapes: each dimension multiplied or divided, at most once */
    launch_rule r = launch_rule_of("/* cl1cc-launch: block x*2 y/2 */\n__global__ void k() {}");
    CHECK(r.grid_y == 1 && r.x_mul == 2 && r.x_div == 1 && r.y_mul == 1 && r.y_div == 2);
    r = launch_rule_of("/* cl1cc-launch: block x/4 */\n");
    CHECK(r.x_div == 4 && r.x_mul == 1 && r.y_mul == 1 && r.y_div == 1);
    char text[LAUNCH_RULE_TEXT_MAX];
    CHECK(strcmp(launch_rule_text(&r, text), "block x/4") == 0);
    static const char *const bad[] = {
        "/* cl1cc-launch: block */", "/* cl1cc-launch: block x*1 */",
        "/* cl1cc-launch: block x*2 x/2 */", "/* cl1cc-launch: block z*2 */",
        "/* cl1cc-launch: block x*2y/2 */", "/* cl1cc-launch: block x*-2 */",
        "/* cl1cc-launch: block x*2 y/2*/", "/* cl1cc-launch: block x*2 extra */", NULL};
    for (int i = 0; bad[i]; i++) {
        r = launch_rule_of(bad[i]);
        CHECK(launch_rule_is_none(&r));
    }
    e = launch_rule_edits("/* cl1cc-launch: block x*2 y/2 */\n", buf);
    CHECK(e && strcmp(e, "[{\"block\": \"x*2 y/2\"}]") == 0);
    CHECK(launch_rule_from_edits(e, &r) && r.x_mul == 2 && r.y_div == 2 && r.grid_y == 1);
    CHECK(!launch_rule_from_edits("[{\"block\": \"x*2 q\"}]", &r));
    CHECK(!launch_rule_from_edits("[{\"block\": \"\"}]", &r));
    CHECK(!launch_rule_from_edits("[{\"block\": \"x*2\"}, {}]", &r));
    CHECK(edits_grid_y("[{\"block\": \"x/2\"}]") == 1);

    /* a grid-stride rule: the grid's x divided */
    r = launch_rule_of("/* cl1cc-launch: grid.x /4 */\n");
    CHECK(r.grid_x_div == 4 && r.grid_y == 1 && r.x_mul == 1);
    CHECK(strcmp(launch_rule_text(&r, text), "grid.x /4") == 0);
    e = launch_rule_edits("/* cl1cc-launch: grid.x /16 */\n", buf);
    CHECK(e && strcmp(e, "[{\"grid_x_div\": 16}]") == 0);
    CHECK(launch_rule_from_edits(e, &r) && r.grid_x_div == 16);
    r = launch_rule_of("/* cl1cc-launch: grid.x /1 */");
    CHECK(launch_rule_is_none(&r));
    r = launch_rule_of("/* cl1cc-launch: grid.x x4 */");
    CHECK(launch_rule_is_none(&r));
    CHECK(!launch_rule_from_edits("[{\"grid_x_div\": 0}]", &r));

    /* a grid sized from the SM count at run time */
    r = launch_rule_of("/* cl1cc-launch: grid.x sm */\n__global__ void k(int n, unsigned int g)");
    CHECK(r.grid_sm == 1 && r.grid_x_div == 1 && r.grid_y == 1 && !launch_rule_is_none(&r));
    CHECK(strcmp(launch_rule_text(&r, text), "grid.x sm") == 0);
    e = launch_rule_edits("/* cl1cc-launch: grid.x sm */\n", buf);
    CHECK(e && strcmp(e, "[{\"grid_x\": \"sm\"}]") == 0);
    CHECK(launch_rule_from_edits(e, &r) && r.grid_sm == 1 && r.grid_x_div == 1);
    static const char *const bad_sm[] = {"/* cl1cc-launch: grid.x sm2 */", "/* cl1cc-launch: grid.x smx */",
                                         "/* cl1cc-launch: grid.y sm */", "/* cl1cc-launch: grid.x  sm */",
                                         NULL};
    for (int i = 0; bad_sm[i]; i++) {
        r = launch_rule_of(bad_sm[i]);
        CHECK(launch_rule_is_none(&r));
    }
    CHECK(!launch_rule_from_edits("[{\"grid_x\": \"sm2\"}]", &r));
    r = launch_rule_none();
    CHECK(r.grid_sm == 0 && launch_rule_is_none(&r));
}

/* the launches a rule makes, as text (core/launch_rule.c) */
static void test_launch_text(void)
{
    arena a;
    arena_init(&a);
    launch_rule_site s = {"k__cl1cc_tall", "k<<<g, b>>>(x)", "g", "b", 1, NULL,
                          ", b>>>(x)", ">>>(x)", ", b>>>(x", 1};
    launch_rule r = launch_rule_of("/* cl1cc-launch: grid.y x32 */\n");
    CHECK(strcmp(launch_rule_copy_suffix(&r), "__cl1cc_tall") == 0);
    const char *t = launch_rule_site_launch(&r, &s, &a);
    CHECK(t && strcmp(t, "(dim3(g).y == 1 && dim3(g).z == 1 ? k__cl1cc_tall<<<dim3(dim3(g).x, "
                         "dim3(g).y * 32u, dim3(g).z), b>>>(x) : k<<<g, b>>>(x))") == 0);
    CHECK(strcmp(launch_rule_replay_row(&r, &a), "{32, 1, 1, 1, 1, 1}") == 0);
    CHECK(launch_rule_replay_sizer(&r, "f", "k", &a) == NULL);
    CHECK(strstr(launch_rule_copy_text(&r, "k", "k__cl1cc_tall", "COPY", &a),
                 "for grids 32 times as tall */\nCOPY") != NULL);
    /* a block rule needs the block's text after the grid's */
    r = launch_rule_of("/* cl1cc-launch: block x*2 y/2 */\n");
    s.callee = "k__cl1cc_reshaped";
    t = launch_rule_site_launch(&r, &s, &a);
    CHECK(t && strstr(t, "k__cl1cc_reshaped<<<dim3(dim3(g).x / 2u, dim3(g).y * 2u, dim3(g).z), "
                         "dim3(dim3(b).x * 2u, dim3(b).y / 2u, dim3(b).z)>>>(x) : k<<<g, b>>>(x))"));
    s.after_block = NULL;
    CHECK(launch_rule_site_launch(&r, &s, &a) == NULL);
    CHECK(strcmp(launch_rule_replay_row(&r, &a), "{1, 2, 1, 1, 2, 1}") == 0);
    /* grid.x sm: its sizer beside the copy, the original x passed last */
    r = launch_rule_of("/* cl1cc-launch: grid.x sm */\n");
    s.callee = "k__cl1cc_persistent";
    t = launch_rule_site_launch(&r, &s, &a);
    CHECK(t && strcmp(t, "k__cl1cc_persistent<<<dim3(k__cl1cc_persistent_grid(dim3(g), dim3(b), 0), "
                         "dim3(g).y, dim3(g).z), b>>>(x, dim3(g).x)") == 0);
    s.shmem_repeatable = 0;
    CHECK(launch_rule_site_launch(&r, &s, &a) == NULL);
    CHECK(strstr(launch_rule_replay_sizer(&r, "f", "k", &a), "static unsigned f(dim3 grid") != NULL);
    CHECK(strstr(launch_rule_copy_text(&r, "k", "k__cl1cc_persistent", "COPY", &a),
                 "static unsigned k__cl1cc_persistent_grid(") != NULL);
    arena_free(&a);
}

static void test_error_line(void)
{
    char out[128];
    log_error_line("nvcc warning\ncl1cc: error: judge: the original failed: exit status 1:\n"
                   "child says why\n",
                   out, sizeof out);
    CHECK(strcmp(out, "cl1cc: error: judge: the original failed: exit status 1: / child says why") ==
          0);
    log_error_line("cl1cc: error: first\ncl1cc: error: second\n", out, sizeof out);
    CHECK(strcmp(out, "cl1cc: error: second") == 0);
    log_error_line("just some\nlines\n\n", out, sizeof out);
    CHECK(strcmp(out, "lines") == 0);
    log_error_line("", out, sizeof out);
    CHECK(strcmp(out, "") == 0);
    char tiny[8];
    log_error_line("cl1cc: error: long", tiny, sizeof tiny);
    CHECK(strlen(tiny) < sizeof tiny);
}

int main(void)
{
    test_strbuf();
    test_arena_vec();
    test_sha256();
    test_files();
    test_expr_text();
    test_launch_rule();
    test_launch_text();
    test_error_line();
    return CHECK_REPORT("test_core");
}
