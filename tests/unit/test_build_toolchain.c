/*
 * test_build_toolchain.c - the toolchain's part of a build key and
 * manifest (backends/build_toolchain.h, red team 204): a name made in a
 * directory the key lists changes the key (a header only probed with
 * __has_include, a library or driver program put beside the compiler),
 * a file's kept hash follows its bytes, and the assembler's and linker's
 * make-rule lists read back as the files they name; what is kept for the
 * next process is taken only where nothing changed.  Runs from the
 * repository root (make test-unit); writes only under /tmp.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "backends/build_toolchain.h"
#include "base/util.h"

static int rm_one(const char *path, const struct stat *sb, int flag, struct FTW *ftw)
{
	(void)sb;
	(void)flag;
	(void)ftw;
	return remove(path);
}

static void put(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	assert_int_equal(fclose(f), 0);
}

/* the key over dir listed (no driver asked: host_cc NULL) */
static void key_of(const char *dir, char out[SHA256_HEX_LEN + 1])
{
	struct sha256_ctx *k = sha256_begin();
	const char *extra[] = { dir, NULL };
	toolchain_key(k, NULL, extra, NULL, NULL);
	sha256_end(k, out);
}

static void test_listing(void **state)
{
	(void)state;
	char tmpl[] = "/tmp/evident-test-tc-XXXXXX";
	char *root = mkdtemp(tmpl);
	assert_non_null(root);
	char *sub = xstrfmt("%s/sys", root), *h = xstrfmt("%s/sys/a.h", root), *m = xstrfmt("%s/sys/marker.h", root);
	assert_int_equal(mkdir(sub, 0755), 0);
	put(h, "#define A 1\n");
	char k1[SHA256_HEX_LEN + 1], k2[SHA256_HEX_LEN + 1], k3[SHA256_HEX_LEN + 1], k4[SHA256_HEX_LEN + 1];
	key_of(root, k1);
	key_of(root, k2);
	assert_string_equal(k1, k2); /* nothing changed: the same key (the kept listing) */
	put(m, "");                  /* a name made two levels down */
	key_of(root, k3);
	assert_string_not_equal(k1, k3);
	put(h, "#define A 2\n"); /* a file's bytes are the manifest's, not the listing's */
	key_of(root, k4);
	assert_string_equal(k3, k4);
	assert_int_equal(unlink(m), 0);
	key_of(root, k4);
	assert_string_equal(k1, k4);
	assert_int_equal(nftw(root, rm_one, 16, FTW_DEPTH | FTW_PHYS), 0);
	free(sub);
	free(h);
	free(m);
}

/* the key of the driver cc and dir, as a fresh process computes it */
static void fresh_key(const char *dir, char out[SHA256_HEX_LEN + 1])
{
	toolchain_forget();
	struct sha256_ctx *k = sha256_begin();
	const char *extra[] = { dir, NULL };
	const char *keep[] = { "PATH", NULL };
	toolchain_key(k, "cc", extra, keep, NULL);
	sha256_end(k, out);
}

/* The driver's answers and the listings kept in the user's cache for the
 * next process: taken where nothing changed, walked again where a
 * directory did (a new process sees the name made), never a torn file. */
static void test_kept_state(void **state)
{
	(void)state;
	char tmpl[] = "/tmp/evident-test-tc-XXXXXX";
	char *root = mkdtemp(tmpl);
	assert_non_null(root);
	char *xdg = xstrfmt("%s/cache", root), *dir = xstrfmt("%s/inc", root), *sub = xstrfmt("%s/inc/sys", root);
	char *m = xstrfmt("%s/inc/sys/marker.h", root);
	assert_int_equal(mkdir(dir, 0755), 0);
	assert_int_equal(mkdir(sub, 0755), 0);
	char *kept = xstrfmt("%s/evident/toolchain", xdg);
	char *mk = xstrfmt("mkdir -p %s && chmod 755 %s %s/evident %s", kept, xdg, xdg, kept);
	assert_int_equal(system(mk), 0);
	free(mk);
	toolchain_state_dir(kept);
	char k1[SHA256_HEX_LEN + 1], k2[SHA256_HEX_LEN + 1], k3[SHA256_HEX_LEN + 1], k4[SHA256_HEX_LEN + 1];
	fresh_key(dir, k1); /* asks, walks, keeps */
	struct stat st;
	assert_int_equal(stat(kept, &st), 0);
	fresh_key(dir, k2); /* takes what was kept */
	assert_string_equal(k1, k2);
	/* taken, not walked again: a kept digest edited (its directories as
	 * they were) is what the key holds */
	char *edit = xstrfmt("sed -i 's/^list \\([01]\\) \\([01]\\) [0-9a-f]* \\(.*\\/inc\\)$/list \\1 \\2 %064d \\3/' %s/*.txt",
			     0, kept);
	assert_int_equal(system(edit), 0);
	fresh_key(dir, k4);
	assert_string_not_equal(k1, k4);
	free(edit);
	put(m, "");
	fresh_key(dir, k3); /* a directory changed: walked again */
	assert_string_not_equal(k1, k3);
	/* a kept file cut short or garbled is not taken */
	char *cmd = xstrfmt("for f in %s/*.txt; do head -c 40 \"$f\" > \"$f.x\" && mv \"$f.x\" \"$f\"; done", kept);
	assert_int_equal(system(cmd), 0);
	fresh_key(dir, k4);
	assert_string_equal(k3, k4);
	/* a kept file others may write is not taken: its edited digest no
	 * longer reaches the key */
	char *edit2 = xstrfmt("sed -i 's/^list \\([01]\\) \\([01]\\) [0-9a-f]* \\(.*\\/inc\\)$/list \\1 \\2 %064d \\3/' %s/*.txt",
			      0, kept);
	assert_int_equal(system(edit2), 0);
	fresh_key(dir, k2);
	assert_string_not_equal(k2, k3); /* taken */
	char *open_up = xstrfmt("chmod 0666 %s/*.txt", kept);
	assert_int_equal(system(open_up), 0);
	fresh_key(dir, k4);
	assert_string_equal(k3, k4); /* not taken: others may write it */
	free(open_up);
	free(edit2);
	toolchain_forget();
	toolchain_state_dir(NULL);
	assert_int_equal(nftw(root, rm_one, 16, FTW_DEPTH | FTW_PHYS), 0);
	free(cmd);
	free(kept);
	free(xdg);
	free(dir);
	free(sub);
	free(m);
}

static void test_file_sha(void **state)
{
	(void)state;
	char tmpl[] = "/tmp/evident-test-tc-XXXXXX";
	char *root = mkdtemp(tmpl);
	assert_non_null(root);
	char *f = xstrfmt("%s/lib.a", root);
	put(f, "one");
	char a[SHA256_HEX_LEN + 1], b[SHA256_HEX_LEN + 1], want[SHA256_HEX_LEN + 1];
	struct toolchain_stat st;
	assert_int_equal(toolchain_file_sha(f, a, &st), 0);
	sha256_hex("one", 3, want);
	assert_string_equal(a, want);
	assert_true(toolchain_file_current(f, a, &st));
	put(f, "two"); /* rewritten in place: its ctime moves, the kept hash is not used */
	assert_int_equal(toolchain_file_sha(f, b, NULL), 0);
	sha256_hex("two", 3, want);
	assert_string_equal(b, want);
	assert_false(toolchain_file_current(f, a, &st));
	assert_true(toolchain_file_current(f, b, NULL));
	assert_int_equal(unlink(f), 0);
	assert_false(toolchain_file_current(f, b, NULL));
	assert_int_equal(toolchain_file_sha(f, b, NULL), -1);
	assert_int_equal(nftw(root, rm_one, 16, FTW_DEPTH | FTW_PHYS), 0);
	free(f);
}

/* the names a list gives, against want (NULL-terminated) */
static void names_are(char **v, const char *const *want)
{
	assert_non_null(v);
	size_t n = 0;
	for (; v[n]; n++) {
		assert_non_null(want[n]);
		assert_string_equal(v[n], want[n]);
		free(v[n]);
	}
	assert_null(want[n]);
	free(v);
}

static void test_trace_list(void **state)
{
	(void)state;
	char tmpl[] = "/tmp/evident-test-tc-XXXXXX";
	char *root = mkdtemp(tmpl);
	assert_non_null(root);
	char *p = xstrfmt("%s/ld.d", root), *q = xstrfmt("%s/as.d", root);
	/* as the linker writes it: the output's rule, a name a line as it is
	 * (a space, a colon: red team 205's spaced.sh and colon forms), then
	 * each input as a phony target */
	put(p, "out.so: \\\n  /usr/lib/x.o \\\n  /usr/lib/a b.a \\\n  /usr/lib/c.a: \\\n  /usr/lib/x.o\n\n"
	       "/usr/lib/x.o:\n\n/usr/lib/a b.a:\n\n/usr/lib/c.a::\n");
	const char *ld_want[] = { "/usr/lib/x.o", "/usr/lib/a b.a", "/usr/lib/c.a:", NULL };
	names_are(toolchain_ld_list(p), ld_want);
	/* as gas writes it: one rule, spaces escaped, a colon not (red team
	 * 205's gascolon) */
	put(q, "/tmp/cc1.o: k.c /tmp/cc2.s /usr/share/a\\ b.s /usr/share/x.s:\n");
	const char *as_want[] = { "k.c", "/tmp/cc2.s", "/usr/share/a b.s", "/usr/share/x.s:", NULL };
	names_are(toolchain_trace_list(q), as_want);
	assert_null(toolchain_trace_list("/nonexistent/as.d"));
	assert_null(toolchain_ld_list("/nonexistent/ld.d"));
	assert_int_equal(nftw(root, rm_one, 16, FTW_DEPTH | FTW_PHYS), 0);
	free(p);
	free(q);
}

static void test_tracers(void **state)
{
	(void)state;
	char **g = toolchain_tracers(0, 1, "/e/as.d", "/e/ld.d");
	assert_string_equal(g[0], "-Xassembler");
	assert_string_equal(g[1], "--MD=/e/as.d");
	assert_string_equal(g[2], "-Wl,--dependency-file=/e/ld.d");
	assert_null(g[3]);
	char **n = toolchain_tracers(1, 1, "/e/as.d", "/e/ld.d");
	assert_string_equal(n[0], "-Xlinker");
	assert_string_equal(n[1], "--dependency-file=/e/ld.d");
	assert_null(n[2]);
	for (int i = 0; g[i]; i++)
		free(g[i]);
	for (int i = 0; n[i]; i++)
		free(n[i]);
	free(g);
	free(n);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_listing),
		cmocka_unit_test(test_kept_state),
		cmocka_unit_test(test_file_sha),
		cmocka_unit_test(test_trace_list),
		cmocka_unit_test(test_tracers),
	};
	return cmocka_run_group_tests_name("build_toolchain", tests, NULL, NULL);
}
