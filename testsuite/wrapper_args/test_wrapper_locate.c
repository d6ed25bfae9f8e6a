/*
 * test_wrapper_locate.c: nvcc_locate_real in a temporary tree of fake nvccs:
 * this test program itself plays cl1cc, installed as "nvcc" by symlink, hard
 * link, copy and by name; PATH and CL1CC_NVCC choose among them.
 */
#include "check.h"
#include "wrapper.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static char root[PATH_MAX];
static char self[PATH_MAX];
static str_vec created; /* files and directories to remove, in order made */

static const char *at(const char *rel)
{
    /* four at a time are enough for any call below */
    static char buf[4][PATH_MAX + 256];
    static int next;
    char *b = buf[next++ % 4];
    snprintf(b, sizeof buf[0], "%s/%.200s", root, rel);
    return b;
}

static void made(const char *path)
{
    vec_push(&created, xstrdup(path));
}

static void make_dir(const char *rel)
{
    CHECK(mkdir(at(rel), 0755) == 0);
    made(at(rel));
}

static void write_file(const char *rel, const char *text, int mode)
{
    FILE *f = fopen(at(rel), "w");
    CHECK(f != NULL);
    if (!f)
        return;
    CHECK(fputs(text, f) >= 0);
    CHECK(fclose(f) == 0);
    CHECK(chmod(at(rel), (mode_t)mode) == 0);
    made(at(rel));
}

static void copy_self(const char *rel)
{
    char *data;
    size_t len;
    CHECK(file_read_all(self, 0, &data, &len) == 0);
    FILE *f = fopen(at(rel), "wb");
    CHECK(f != NULL);
    if (f) {
        CHECK(fwrite(data, 1, len, f) == len);
        CHECK(fclose(f) == 0);
        CHECK(chmod(at(rel), 0755) == 0);
        made(at(rel));
    }
    free(data);
}

static void link_to(const char *target, const char *rel)
{
    CHECK(symlink(target, at(rel)) == 0);
    made(at(rel));
}

/* PATH from ':'-separated names relative to root ("" stays empty). */
static void set_path(const char *dirs)
{
    strbuf p;
    sb_init(&p);
    const char *s = dirs;
    for (;;) {
        const char *colon = strchr(s, ':');
        size_t l = colon ? (size_t)(colon - s) : strlen(s);
        if (l)
            sb_printf(&p, "%s/%.*s", root, (int)l, s);
        if (!colon)
            break;
        sb_putc(&p, ':');
        s = colon + 1;
    }
    CHECK(setenv("PATH", sb_str(&p), 1) == 0);
    sb_free(&p);
}

/* Expects nvcc_locate_real to give want (NULL: fail with a message holding
 * want_err). */
static void expect(int line, const char *self_exe, const char *want, const char *want_err)
{
    strbuf out, err;
    sb_init(&out);
    sb_init(&err);
    int rc = nvcc_locate_real(self_exe, &out, &err);
    if (want) {
        if (rc != 0 || strcmp(sb_str(&out), want) != 0) {
            fprintf(stderr, "line %d: got rc=%d '%s' (%s), want '%s'\n", line, rc, sb_str(&out),
                    sb_str(&err), want);
            failures++;
        }
    } else if (rc == 0 || !strstr(sb_str(&err), want_err)) {
        fprintf(stderr, "line %d: got rc=%d '%s' / '%s', want an error with '%s'\n", line, rc,
                sb_str(&out), sb_str(&err), want_err);
        failures++;
    }
    sb_free(&out);
    sb_free(&err);
}
#define EXPECT(self_exe, want) expect(__LINE__, self_exe, want, NULL)
#define EXPECT_ERR(self_exe, msg) expect(__LINE__, self_exe, NULL, msg)

static int executable(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISREG(st.st_mode) && access(path, X_OK) == 0;
}

int main(void)
{
    CHECK(realpath("/proc/self/exe", self) != NULL);
    char tmpl[] = "/tmp/cl1cc-wrapper-locate-XXXXXX";
    CHECK(mkdtemp(tmpl) != NULL);
    CHECK(realpath(tmpl, root) != NULL);
    char cwd[PATH_MAX];
    CHECK(getcwd(cwd, sizeof cwd) != NULL);
    const char *old_path = getenv("PATH");
    char *saved_path = old_path ? xstrdup(old_path) : NULL;
    CHECK(unsetenv("CL1CC_NVCC") == 0);

    const char *script = "#!/bin/sh\nexit 0\n";
    make_dir("self_link");
    link_to(self, "self_link/nvcc");
    make_dir("real");
    write_file("real/nvcc", script, 0755);
    make_dir("copy");
    copy_self("copy/nvcc");
    make_dir("named");
    write_file("named/cl1cc-wrapper", script, 0755);
    link_to("cl1cc-wrapper", "named/nvcc");
    make_dir("noexec");
    write_file("noexec/nvcc", script, 0644);
    make_dir("isdir");
    make_dir("isdir/nvcc");
    make_dir("other");
    write_file("other/nvcc", script, 0755);

    /* a symlink named nvcc to the running program comes first on PATH */
    set_path("self_link:real");
    EXPECT(NULL, at("real/nvcc"));
    EXPECT(self, at("real/nvcc"));
    /* a hard link is the same inode (skipped when /tmp is another device) */
    make_dir("hard");
    if (link(self, at("hard/nvcc")) == 0) {
        made(at("hard/nvcc"));
        set_path("hard:real");
        EXPECT(NULL, at("real/nvcc"));
    } else {
        printf("hard link to %s: %s (case skipped)\n", self, strerror(errno));
    }
    /* a copy: another inode, same bytes */
    set_path("copy:real");
    EXPECT(NULL, at("real/nvcc"));
    /* a link to any file whose real name starts with cl1cc */
    set_path("named:real");
    EXPECT(NULL, at("real/nvcc"));
    /* not executable, a directory: not candidates */
    set_path("noexec:isdir:real");
    EXPECT(NULL, at("real/nvcc"));
    /* the first good one wins */
    set_path("self_link:other:real");
    EXPECT(NULL, at("other/nvcc"));
    /* self_exe names the program too: here it says real/nvcc is us */
    set_path("real:other");
    EXPECT(at("real/nvcc"), at("other/nvcc"));
    /* an empty PATH entry is the current directory */
    CHECK(chdir(at("real")) == 0);
    set_path("self_link:");
    EXPECT(NULL, "./nvcc");
    CHECK(chdir(cwd) == 0);

    /* only cl1cc on PATH, or no PATH: the CUDA default, if there is one */
    set_path("self_link:copy:named");
    if (executable("/usr/local/cuda/bin/nvcc"))
        EXPECT(NULL, "/usr/local/cuda/bin/nvcc");
    else
        EXPECT_ERR(NULL, "no nvcc found");
    CHECK(unsetenv("PATH") == 0);
    if (executable("/usr/local/cuda/bin/nvcc"))
        EXPECT(NULL, "/usr/local/cuda/bin/nvcc");
    else
        EXPECT_ERR(NULL, "no nvcc found");

    /* CL1CC_NVCC wins over PATH; it must be a real, executable nvcc */
    set_path("self_link:real");
    CHECK(setenv("CL1CC_NVCC", at("other/nvcc"), 1) == 0);
    EXPECT(NULL, at("other/nvcc"));
    CHECK(setenv("CL1CC_NVCC", at("self_link/nvcc"), 1) == 0);
    EXPECT_ERR(NULL, "is cl1cc itself");
    CHECK(setenv("CL1CC_NVCC", at("copy/nvcc"), 1) == 0);
    EXPECT_ERR(NULL, "is cl1cc itself");
    CHECK(setenv("CL1CC_NVCC", at("named/nvcc"), 1) == 0);
    EXPECT_ERR(NULL, "is cl1cc itself");
    CHECK(setenv("CL1CC_NVCC", at("missing/nvcc"), 1) == 0);
    EXPECT_ERR(NULL, "No such file");
    CHECK(setenv("CL1CC_NVCC", at("noexec/nvcc"), 1) == 0);
    EXPECT_ERR(NULL, "Permission denied");
    CHECK(setenv("CL1CC_NVCC", at("isdir/nvcc"), 1) == 0);
    EXPECT_ERR(NULL, "directory");
    /* a bare name is looked up on PATH, cl1cc skipped */
    CHECK(setenv("CL1CC_NVCC", "nvcc", 1) == 0);
    EXPECT(NULL, at("real/nvcc"));
    set_path("self_link");
    EXPECT_ERR(NULL, "not found on PATH");
    /* empty means unset */
    CHECK(setenv("CL1CC_NVCC", "", 1) == 0);
    set_path("real");
    EXPECT(NULL, at("real/nvcc"));

    CHECK(unsetenv("CL1CC_NVCC") == 0);
    if (saved_path)
        CHECK(setenv("PATH", saved_path, 1) == 0);
    free(saved_path);
    for (size_t i = created.len; i-- > 0;) {
        struct stat st;
        if (lstat(created.items[i], &st) == 0 && S_ISDIR(st.st_mode))
            CHECK(rmdir(created.items[i]) == 0);
        else
            CHECK(unlink(created.items[i]) == 0);
        free(created.items[i]);
    }
    vec_free(&created);
    CHECK(rmdir(root) == 0);
    return CHECK_REPORT("wrapper_args_locate");
}
