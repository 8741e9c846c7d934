/*
 * test_elf.c - base/elf.c: an object's dynamic section read as data (the
 * libraries it names, no loader asked), its interpreter, a file that is
 * not ELF refused with a reason, and the hash of what a loader maps of an
 * object (elf_load_sha256).
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>

#include <ftw.h>
#include <stdio.h>
#include <unistd.h>

#include "base/elf.h"
#include "base/util.h"

/* this test's own executable: it needs libc and cmocka, has a loader */
static void test_own_executable(void **state)
{
	(void)state;
	struct elf_dyn d;
	char *why = NULL;
	assert_int_equal(elf_dyn_read("/proc/self/exe", &d, &why), 0);
	assert_null(why);
	int libc = 0, cmocka = 0;
	for (char **n = d.needed; *n; n++) {
		libc += !strcmp(*n, "libc.so.6");
		cmocka += !strncmp(*n, "libcmocka.so", 12);
	}
	assert_int_equal(libc, 1);
	assert_int_equal(cmocka, 1);
	assert_null(d.hook);
	elf_dyn_release(&d);
	char *interp = elf_interp("/proc/self/exe");
	assert_non_null(interp);
	assert_true(interp[0] == '/');
	free(interp);
	assert_null(elf_refuse_hooks("/proc/self/exe"));
}

/* not ELF: -1 and why; no interpreter; nothing to refuse */
static void test_not_elf(void **state)
{
	(void)state;
	struct elf_dyn d;
	char *why = NULL;
	assert_int_equal(elf_dyn_read("/proc/self/status", &d, &why), -1);
	assert_non_null(why);
	free(why);
	assert_null(elf_interp("/proc/self/status"));
	why = NULL;
	assert_int_equal(elf_dyn_read("/nonexistent/x.so", &d, &why), -1);
	assert_non_null(strstr(why, "cannot open"));
	free(why);
}

static int rm_one(const char *p, const struct stat *sb, int flag, struct FTW *ftw)
{
	(void)sb;
	(void)flag;
	(void)ftw;
	return remove(p);
}

static void write_text(const char *dir, const char *name, const char *text)
{
	char *path = xstrfmt("%s/%s", dir, name);
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	assert_int_equal(fclose(f), 0);
	free(path);
}

/* cc, as the host backend runs it (backend_host.c host_flags) plus
 * extra, in dir on src, into dir/out; the object's path, malloc'd */
static char *compile(const char *dir, const char *src, const char *out, const char *extra)
{
	char *so = xstrfmt("%s/%s", dir, out);
	char *cmd = xstrfmt("cd '%s' && cc -O2 -std=c11 -shared -fPIC -Werror=date-time %s -o '%s' '%s'", dir, extra,
			    so, src);
	assert_int_equal(system(cmd), 0);
	free(cmd);
	return so;
}

static void load_hash(const char *so, char hex[SHA256_HEX_LEN + 1])
{
	char *why = NULL;
	assert_int_equal(elf_load_sha256(so, hex, &why), 0);
	assert_null(why);
}

/*
 * Red team 83: a comment-only copy of a kernel under another file name
 * builds another object (its name in .symtab's STT_FILE, a build id over
 * it, debug information under -g), and was another code.  What the loader
 * maps is one: the copy, at -O2 and at -g, has the original's load hash
 * and another file hash; one constant changed (the same length of source)
 * changes it, and so does one string.
 */
static void test_load_hash(void **state)
{
	(void)state;
	if (system("cc --version >/dev/null 2>&1") != 0)
		skip();
	char tmpl[] = "/tmp/evident-test-elf-XXXXXX";
	char *dir = mkdtemp(tmpl);
	assert_non_null(dir);
	static const char *const body = "#include <stddef.h>\n"
					"static const char tag[] = \"rowsum\";\n"
					"int evident_k(const float *x, float *y, int n)\n"
					"{\n"
					"\tfloat s = 0;\n"
					"\tfor (int i = 0; i < n; i++)\n"
					"\t\ts += x[i] * 3.0f;\n"
					"\ty[0] = s;\n"
					"\treturn tag[n % 6];\n"
					"}\n";
	char *text = xstrfmt("%s", body);
	write_text(dir, "k.c", text);
	/* the copy: comments above and below, another name */
	char *copy = xstrfmt("/* a copy: another name, the same code */\n%s// one more line\n", body);
	write_text(dir, "k_copy_of_another_name.c", copy);
	/* one constant changed */
	char *other = xstrdup(body);
	*strstr(other, "3.0f") = '5';
	write_text(dir, "k_const.c", other);
	/* one string changed */
	char *str = xstrdup(body);
	memcpy(strstr(str, "rowsum"), "rowsun", 6);
	write_text(dir, "k_str.c", str);

	char a[SHA256_HEX_LEN + 1], b[SHA256_HEX_LEN + 1], c[SHA256_HEX_LEN + 1], d[SHA256_HEX_LEN + 1];
	char fa[SHA256_HEX_LEN + 1], fb[SHA256_HEX_LEN + 1];
	char *sa = compile(dir, "k.c", "k.so", ""), *sb = compile(dir, "k_copy_of_another_name.c", "kc.so", "");
	load_hash(sa, a);
	load_hash(sb, b);
	assert_int_equal(sha256_file_hex(sa, fa), 0);
	assert_int_equal(sha256_file_hex(sb, fb), 0);
	assert_string_not_equal(fa, fb); /* another binary, as recorded before */
	assert_string_equal(a, b);       /* the same loaded image */
	char *sc = compile(dir, "k_const.c", "k_const.so", ""), *sd = compile(dir, "k_str.c", "k_str.so", "");
	load_hash(sc, c);
	load_hash(sd, d);
	assert_string_not_equal(a, c);
	assert_string_not_equal(a, d);
	/* with debug information: line numbers and the file name there too */
	char *ga = compile(dir, "k.c", "k.g.so", "-g"), *gb = compile(dir, "k_copy_of_another_name.c", "kc.g.so", "-g");
	load_hash(ga, a);
	load_hash(gb, b);
	assert_int_equal(sha256_file_hex(ga, fa), 0);
	assert_int_equal(sha256_file_hex(gb, fb), 0);
	assert_string_not_equal(fa, fb);
	assert_string_equal(a, b);
	/* not ELF, or gone: -1 and why */
	char *why = NULL, *src = xstrfmt("%s/k.c", dir);
	assert_int_equal(elf_load_sha256(src, a, &why), -1);
	assert_non_null(why);
	free(why);
	free(src);
	why = NULL;
	assert_int_equal(elf_load_sha256("/nonexistent/x.so", a, &why), -1);
	assert_non_null(why);
	free(why);
	assert_int_equal(nftw(dir, rm_one, 16, FTW_DEPTH | FTW_PHYS), 0);
	free(sa);
	free(sb);
	free(sc);
	free(sd);
	free(ga);
	free(gb);
	free(text);
	free(copy);
	free(other);
	free(str);
}

/*
 * Red team 199: `-Wl,--build-id=uuid` wrote random bytes into a loaded
 * note at every link, which the load hash zeroes: one build key and one
 * load hash, and a kernel that read its id ran 8 passes or 1.  Sealed,
 * two links of one source are one file, the id is the load hash's first
 * bytes, the load hash is unchanged, and a second seal changes nothing; a
 * file that is not ELF is left as it is; one that starts as ELF and is
 * not an object is refused.
 */
static void test_seal_build_ids(void **state)
{
	(void)state;
	if (system("cc --version >/dev/null 2>&1") != 0)
		skip();
	char tmpl[] = "/tmp/evident-test-elf-XXXXXX";
	char *dir = mkdtemp(tmpl);
	assert_non_null(dir);
	write_text(dir, "k.c", "int evident_k(int n) { return n * 3; }\n");
	char *s1 = compile(dir, "k.c", "k1.so", "-Wl,--build-id=uuid");
	char *s2 = compile(dir, "k.c", "k2.so", "-Wl,--build-id=uuid");
	char f1[SHA256_HEX_LEN + 1], f2[SHA256_HEX_LEN + 1], l1[SHA256_HEX_LEN + 1], l2[SHA256_HEX_LEN + 1];
	assert_int_equal(sha256_file_hex(s1, f1), 0);
	assert_int_equal(sha256_file_hex(s2, f2), 0);
	assert_string_not_equal(f1, f2); /* the linker's coin */
	load_hash(s1, l1);
	int n = -1;
	char *why = NULL;
	assert_int_equal(elf_seal_build_ids(s1, &n, &why), 0);
	assert_null(why);
	assert_int_equal(n, 1);
	assert_int_equal(elf_seal_build_ids(s2, &n, &why), 0);
	assert_int_equal(n, 1);
	assert_int_equal(sha256_file_hex(s1, f1), 0);
	assert_int_equal(sha256_file_hex(s2, f2), 0);
	assert_string_equal(f1, f2);
	load_hash(s1, l2);
	assert_string_equal(l1, l2);
	/* the id is the load hash's first 16 bytes, as readelf shows it */
	char *cmd = xstrfmt("readelf -n '%s' | grep -q 'Build ID: %.32s$'", s1, l1);
	if (system("readelf --version >/dev/null 2>&1") == 0)
		assert_int_equal(system(cmd), 0);
	free(cmd);
	/* sealed again: the same file */
	assert_int_equal(elf_seal_build_ids(s1, &n, &why), 0);
	assert_int_equal(sha256_file_hex(s1, f2), 0);
	assert_string_equal(f1, f2);
	/* not ELF: left alone; ELF's magic and no object: refused */
	char *src = xstrfmt("%s/k.c", dir);
	assert_int_equal(elf_seal_build_ids(src, &n, &why), 0);
	assert_int_equal(n, 0);
	assert_null(why);
	write_text(dir, "bad.so", "\177ELF but nothing more");
	char *bad = xstrfmt("%s/bad.so", dir);
	assert_int_equal(elf_seal_build_ids(bad, &n, &why), -1);
	assert_non_null(why);
	free(why);
	assert_int_equal(nftw(dir, rm_one, 16, FTW_DEPTH | FTW_PHYS), 0);
	free(s1);
	free(s2);
	free(src);
	free(bad);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_own_executable),
		cmocka_unit_test(test_not_elf),
		cmocka_unit_test(test_load_hash),
		cmocka_unit_test(test_seal_build_ids),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
