/*
 * test_echo_mask.c - the echo-neutral identity's hash of a relocatable
 * object (backends/echo_mask.h): a kernel compiled as the host backend
 * compiles it (cc -c, from the repository root, with kernels/ on the
 * include path) at two values of a parameter that reaches only its EV_PARAM
 * echo hashes alike whatever the values' lengths (a string of 31 bytes or
 * more moves to .rodata.str1.8 alone), and two programs never do: red team
 * 130's twins (a `#NO_APP` in an asm() and gas's `\9`; two files whose one
 * instruction byte differs; a gas macro that switches to .text behind a
 * `.section .rodata.str1.1` line), a parameter in the code, a second string
 * that spells the echo, and code that reads the echo's own string.  Skipped
 * where there is no cc.
 */
/* clang-format off */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
/* clang-format on */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "backends/echo_mask.h"

#define RT130 "tests/fixtures/adversary/host/redteam130"

static char dir[] = "/tmp/evident-test-echo-XXXXXX";

static int setup(void **state)
{
	(void)state;
	return mkdtemp(dir) ? 0 : -1;
}

static int teardown(void **state)
{
	(void)state;
	char *cmd = xstrfmt("rm -rf '%s'", dir);
	int rc = system(cmd);
	free(cmd);
	return rc;
}

static int have_cc(void)
{
	return system("cc --version >/dev/null 2>&1") == 0;
}

/* src compiled with name=value as the host backend compiles it, but -c;
 * the object's echo-neutral hash into hex (and its bytes' plain hash into
 * plain, where not NULL) */
static void hash_of(const char *src, const char *name, const char *value, char hex[SHA256_HEX_LEN + 1],
		    char plain[SHA256_HEX_LEN + 1])
{
	static int n;
	char *obj = xstrfmt("%s/o%d.o", dir, n++);
	char *cmd = xstrfmt("cc -O2 -std=c11 -shared -fPIC -Werror=date-time "
			    "-Ikernels '-D%s=%s' -c -o '%s' '%s'",
			    name, value, obj, src);
	assert_int_equal(system(cmd), 0);
	struct strbuf b = STRBUF_INIT;
	assert_true(read_file(obj, &b) >= 0);
	struct param p = {(char *)name, (char *)value};
	char *why = NULL;
	assert_int_equal(echo_mask_object((const unsigned char *)b.buf, b.len, NULL, 0, &p, 1, hex, &why), 0);
	assert_null(why);
	if (plain)
		sha256_hex(b.buf, b.len, plain);
	strbuf_release(&b);
	free(cmd);
	free(obj);
}

static int same(const char *src_a, const char *va, const char *src_b, const char *vb, const char *name)
{
	char a[SHA256_HEX_LEN + 1], b[SHA256_HEX_LEN + 1];
	hash_of(src_a, name, va, a, NULL);
	hash_of(src_b, name, vb, b, NULL);
	return !strcmp(a, b);
}

/* a rowsum kernel with `extra` at file scope and `use` in its launch */
static char *kernel(const char *file, const char *extra, const char *use)
{
	char *path = xstrfmt("%s/%s", dir, file);
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	fprintf(f,
		"#include \"evident_kernel.h\"\n%s\n"
		"static int k_launch(struct ev_launch *l)\n{\n"
		"\tconst long long R = l->inputs[0].dims[0], C = l->inputs[0].dims[1];\n"
		"\tconst float *X = l->inputs[0].data;\n\tfloat *Y = "
		"l->outputs[0].data;\n"
		"\tfor (long long r = 0; r < R; r++) {\n\t\tfloat acc = 0;\n"
		"\t\tfor (long long c = 0; c < C; c++)\n\t\t\tacc += X[r * C + c];\n"
		"\t\tY[r] = acc%s;\n\t}\n\treturn 0;\n}\n"
		"EVIDENT_DEFINE_KERNEL(\"rowsum_k_cpu\", \"host\", \"rowsum\", NULL, "
		"k_launch, NULL, EV_PARAM(SALT))\n",
		extra, use);
	assert_int_equal(fclose(f), 0);
	return path;
}

/* the honest case (t0219's): SALT reaches only the echo */
static void test_echo_only(void **state)
{
	(void)state;
	if (!have_cc())
		skip();
	char *k = kernel("salt.c", "", "");
	char h1[SHA256_HEX_LEN + 1], h10[SHA256_HEX_LEN + 1], hl[SHA256_HEX_LEN + 1];
	char p1[SHA256_HEX_LEN + 1], p10[SHA256_HEX_LEN + 1];
	hash_of(k, "SALT", "1", h1, p1);
	hash_of(k, "SALT", "10", h10, p10);
	hash_of(k, "SALT", "12345678901234567890123456789", hl, NULL); /* .rodata.str1.8, alone */
	assert_string_not_equal(p1, p10);			       /* the echo is in the object */
	assert_string_equal(h1, h10);
	assert_string_equal(h1, hl);
	/* and with a string of its own in .rodata.str1.8 and one after the echo's */
	char *k2 = kernel("salt2.c",
			  "const char *k_tag(int i);\nconst char *k_tag(int i) { return i ? "
			  "\"a string of more than thirty-one bytes, in .rodata.str1.8\" : "
			  "\"z\"; }",
			  "");
	assert_true(same(k2, "1", k2, "10", "SALT"));
	assert_true(same(k2, "1", k2, "12345678901234567890123456789", "SALT"));
	free(k);
	free(k2);
}

/* a parameter anywhere but the echo is another hash */
static void test_param_in_code(void **state)
{
	(void)state;
	if (!have_cc())
		skip();
	/* in the code */
	char *k = kernel("code.c", "", " * SALT");
	assert_false(same(k, "1", k, "2", "SALT"));
	/* in a second string that spells the echo, read by the code */
	char *s = kernel("str.c",
			 "const char *k_log(void);\nconst char *k_log(void) { return "
			 "\"SALT=\" EV_STR(SALT); }",
			 "");
	assert_false(same(s, "1", s, "2", "SALT"));
	/* the echo's own string, read by the code (gcc makes the two
	 * literals one): not masked */
	char *r = kernel("read.c",
			 "const char *k_echo(void);\nconst char *k_echo(void) { "
			 "return EV_PARAM(SALT); }",
			 "");
	assert_false(same(r, "1", r, "2", "SALT"));
	/* a descriptor pointing into the middle of a string the code reads */
	char *path = xstrfmt("%s/mid.c", dir);
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	fputs("#include \"evident_kernel.h\"\n"
	      "const char *k_all(void);\n"
	      "const char *k_all(void) { return \"XYZ\" EV_PARAM(SALT); }\n"
	      "static int k_launch(struct ev_launch *l) { return l->n_inputs == 0; }\n"
	      "static const struct ev_kernel_desc ev_kernel_desc_ = { EVIDENT_ABI_VERSION,\n"
	      "\tsizeof(struct ev_kernel_desc), \"k\", \"host\", \"rowsum\", NULL, k_launch, NULL,\n"
	      "\t\"XYZ\" EV_PARAM(SALT) + 3 };\n"
	      "__attribute__((visibility(\"default\"))) const struct ev_kernel_desc *evident_kernel(void)\n"
	      "{ return &ev_kernel_desc_; }\n",
	      f);
	assert_int_equal(fclose(f), 0);
	assert_false(same(path, "1", path, "2", "SALT"));
	free(path);
	/* code that reaches the echo by a PC-relative reference to the string
	 * before it (`leaq rt_pre+3(%rip)`: the relocation reads rt_pre - 1) */
	path = xstrfmt("%s/pcrel.c", dir);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs("#include \"evident_kernel.h\"\n"
	      "__asm__(\".section .rodata.str1.1,\\\"aMS\\\",@progbits,1\\n\"\n"
	      "\t\"rt_pre: .string \\\"ab\\\"\\n\"\n"
	      "\t\"rt_echo: .string \\\"SALT=\" EV_STR(SALT) \"\\\"\\n\"\n"
	      "\t\".text\\n\"\n"
	      "\t\"rt_get: leaq rt_pre+3(%rip), %rax\\n ret\\n\");\n"
	      "extern const char rt_echo[];\n"
	      "const char *rt_get(void);\n"
	      "static int k_launch(struct ev_launch *l) { return rt_get()[5] == '1' && l; }\n"
	      "static const struct ev_kernel_desc ev_kernel_desc_ = { EVIDENT_ABI_VERSION,\n"
	      "\tsizeof(struct ev_kernel_desc), \"k\", \"host\", \"rowsum\", NULL, k_launch, NULL, rt_echo };\n"
	      "__attribute__((visibility(\"default\"))) const struct ev_kernel_desc *evident_kernel(void)\n"
	      "{ return &ev_kernel_desc_; }\n",
	      f);
	assert_int_equal(fclose(f), 0);
	assert_false(same(path, "1", path, "2", "SALT"));
	free(path);
	free(k);
	free(s);
	free(r);
}

/* src at SALT=value compiled with -c and linked with ldflag, the object's
 * hash with the shared object beside it into hex */
static void hash_linked(const char *src, const char *value, const char *ldflag, char hex[SHA256_HEX_LEN + 1])
{
	char *obj = xstrfmt("%s/l.o", dir), *so = xstrfmt("%s/l.so", dir);
	char *cmd = xstrfmt("cc -O2 -std=c11 -fPIC -Ikernels -DSALT=%s -c -o '%s' '%s' && "
			    "cc -O2 -shared -fPIC %s -o '%s' '%s'",
			    value, obj, src, ldflag, so, obj);
	assert_int_equal(system(cmd), 0);
	struct strbuf b = STRBUF_INIT, l = STRBUF_INIT;
	assert_true(read_file(obj, &b) >= 0);
	assert_true(read_file(so, &l) >= 0);
	struct param p = { "SALT", (char *)value };
	char *why = NULL;
	assert_int_equal(echo_mask_object((const unsigned char *)b.buf, b.len, (const unsigned char *)l.buf, l.len,
					  &p, 1, hex, &why),
			 0);
	strbuf_release(&b);
	strbuf_release(&l);
	free(cmd);
	free(obj);
	free(so);
}

/* an echo the shared object maps executable (`-z noseparate-code` puts
 * .rodata in the code's segment) is not masked: code could run into it */
static void test_echo_executable(void **state)
{
	(void)state;
	if (!have_cc())
		skip();
	char *k = kernel("exec.c", "", "");
	char a[SHA256_HEX_LEN + 1], b[SHA256_HEX_LEN + 1];
	hash_linked(k, "1", "", a);
	hash_linked(k, "10", "", b);
	assert_string_equal(a, b);
	hash_linked(k, "1", "-Wl,-z,noseparate-code", a);
	hash_linked(k, "10", "-Wl,-z,noseparate-code", b);
	assert_string_not_equal(a, b);
	free(k);
}

/* red team 130: text tricks on the old masker of -S text */
static void test_rt130_twins(void **state)
{
	(void)state;
	if (!have_cc())
		skip();
	/* a `#NO_APP` hid the asm() from the inline-asm guard, and `\9`
	 * (gas: 0x09, or) read as '9' (0x39, cmp) */
	assert_false(same(RT130 "/twin.c", "1", RT130 "/twin.c", "64", "K"));
	/* two files of one basename, no masking at all: the escape alone */
	assert_false(same(RT130 "/twin_app.c", "1", RT130 "/inv/twin_app.c", "1", "K"));
	/* a gas macro that switches to .text behind a .section line */
	assert_false(same(RT130 "/twin_mac.c", "1", RT130 "/twin_mac.c", "64", "K"));
}

/* what is not a relocatable object is no hash */
static void test_not_object(void **state)
{
	(void)state;
	char hex[SHA256_HEX_LEN + 1], *why = NULL;
	static const unsigned char junk[] = "\t.text\n\tret\n";
	assert_int_equal(echo_mask_object(junk, sizeof(junk), NULL, 0, NULL, 0, hex, &why), -1);
	assert_non_null(why);
	free(why);
	why = NULL;
	/* an ELF header that claims sections past the end */
	unsigned char h[64] = {0x7f, 'E', 'L', 'F', 2, 1, 1};
	h[16] = 1;		    /* ET_REL */
	h[40] = 0xff, h[41] = 0xff; /* e_shoff far away */
	h[58] = 64, h[60] = 3;	    /* e_shentsize 64, e_shnum 3 */
	assert_int_equal(echo_mask_object(h, sizeof(h), NULL, 0, NULL, 0, hex, &why), -1);
	assert_non_null(why);
	free(why);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_echo_only),
		cmocka_unit_test(test_param_in_code),
		cmocka_unit_test(test_echo_executable),
		cmocka_unit_test(test_rt130_twins),
		cmocka_unit_test(test_not_object),
	};
	return cmocka_run_group_tests_name("echo_mask", tests, setup, teardown);
}
