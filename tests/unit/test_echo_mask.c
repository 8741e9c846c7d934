/*
 * test_echo_mask.c - the echo-neutral identity's hash of assembly text
 * (backends/echo_mask.h): a parameter's EV_PARAM echo in read-only string
 * data is masked whatever its value's length (a string of 31 bytes or more
 * moves to .rodata.str1.8), and nothing else is: code, a string in an
 * executable section, a name that only begins like a parameter's, text
 * with inline asm (red team 125: the identity must be of the object that
 * runs, with nothing a kernel can steer).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backends/echo_mask.h"

/* gcc -O2 -S of a kernel echoing its parameters (the tail of its text):
 * %s is the string section's lines and the echo */
static const char head[] = "\t.file\t\"k.c\"\n\t.text\n\t.p2align 4\n\t.type\tl, @function\nl:\n"
			   "\tmovl\t$%s, %%eax\n\tret\n";
static const char str1[] = "\t.section\t.rodata.str1.1,\"aMS\",@progbits,1\n.LC0:\n\t.string\t\"k\"\n";

static void hash_of(const char *code, const char *strings, const char *const *names, const char *const *values,
		    size_t n, char hex[SHA256_HEX_LEN + 1])
{
	struct param p[4];
	for (size_t i = 0; i < n; i++) {
		p[i].name = (char *)names[i];
		p[i].value = (char *)values[i];
	}
	char *h = xstrfmt(head, code);
	char *t = xstrfmt("%s%s%s\t.ident\t\"GCC: 12.2.0\"\n", h, str1, strings);
	echo_mask_hash(t, strlen(t), p, n, hex);
	free(h);
	free(t);
}

static int same(const char *code_a, const char *str_a, const char *code_b, const char *str_b,
		const char *const *names, size_t n)
{
	const char *va[4] = { "a", "a", "a", "a" }, *vb[4] = { "b", "b", "b", "b" };
	char ha[SHA256_HEX_LEN + 1], hb[SHA256_HEX_LEN + 1];
	hash_of(code_a, str_a, names, va, n, ha);
	hash_of(code_b, str_b, names, vb, n, hb);
	return !strcmp(ha, hb);
}

static const char *const salt[] = { "SALT" };
static const char *const two[] = { "A", "B" };

static void test_echo_masked(void **state)
{
	(void)state;
	/* one value, another of the same and of another length */
	assert_true(same("1", ".LC1:\n\t.string\t\"SALT=1\"\n", "1", ".LC1:\n\t.string\t\"SALT=2\"\n", salt, 1));
	assert_true(same("1", ".LC1:\n\t.string\t\"SALT=1\"\n", "1", ".LC1:\n\t.string\t\"SALT=1000\"\n", salt, 1));
	/* two parameters in one echo, whatever is between them */
	assert_true(same("1", ".LC1:\n\t.string\t\"A=1 B=2\"\n", "1", ".LC1:\n\t.string\t\"A=10 B=3e-5\"\n", two, 2));
	/* a value of 31 bytes or more: gcc moves the string to .rodata.str1.8,
	 * aligned, and switches back for the next one */
	assert_true(same("1", ".LC1:\n\t.string\t\"SALT=1\"\n.LC2:\n\t.string\t\"x\"\n", "1",
			 "\t.section\t.rodata.str1.8\n\t.align 8\n.LC1:\n\t.string\t\"SALT=12345678901234567890123456789\"\n"
			 "\t.section\t.rodata.str1.1\n.LC2:\n\t.string\t\"x\"\n",
			 salt, 1));
	/* an echo split over .ascii lines is one run of data */
	assert_true(same("1", ".LC1:\n\t.ascii\t\"SAL\"\n\t.string\t\"T=1\"\n", "1",
			 ".LC1:\n\t.ascii\t\"SALT=\"\n\t.string\t\"22\"\n", salt, 1));
	/* gas's escapes decode before the mask (an octal NUL ends a string) */
	assert_true(same("1", ".LC1:\n\t.ascii\t\"SALT=1\\000\"\n", "1", ".LC1:\n\t.string\t\"SALT=7\"\n", salt, 1));
}

static void test_not_masked(void **state)
{
	(void)state;
	/* the parameter reaches the code */
	assert_false(same("1", ".LC1:\n\t.string\t\"SALT=1\"\n", "64", ".LC1:\n\t.string\t\"SALT=64\"\n", salt, 1));
	/* no parameter of that name: an echo of the kernel's own constant */
	assert_false(same("1", ".LC1:\n\t.string\t\"SALT=1\"\n", "1", ".LC1:\n\t.string\t\"SALT=2\"\n", salt, 0));
	/* a name that only begins with the parameter's */
	assert_false(same("1", ".LC1:\n\t.string\t\"XSALT=1\"\n", "1", ".LC1:\n\t.string\t\"XSALT=2\"\n", salt, 1));
	/* a string in an executable section (its bytes could be run) */
	assert_false(same("1", "\t.section\t.rodata.x,\"ax\",@progbits\n\t.string\t\"SALT=1\"\n", "1",
			  "\t.section\t.rodata.x,\"ax\",@progbits\n\t.string\t\"SALT=2\"\n", salt, 1));
	assert_false(same("1", "\t.text\n\t.string\t\"SALT=1\"\n", "1", "\t.text\n\t.string\t\"SALT=2\"\n", salt, 1));
	/* a string section that another line declared executable first */
	const char *xs = "\t.section\t.rodata.str1.4,\"ax\",@progbits\n\t.text\n"
			 "\t.section\t.rodata.str1.4,\"aMS\",@progbits,1\n.LC9:\n\t.string\t\"SALT=%d\"\n";
	char *x1 = xstrfmt(xs, 1), *x2 = xstrfmt(xs, 2);
	assert_false(same("1", x1, "1", x2, salt, 1));
	free(x1);
	free(x2);
	/* writable data, and a section line of several statements */
	assert_false(same("1", "\t.data\n\t.string\t\"SALT=1\"\n", "1", "\t.data\n\t.string\t\"SALT=2\"\n", salt, 1));
	assert_false(same("1", "\t.section\t.rodata; .text\n\t.string\t\"SALT=1\"\n", "1",
			  "\t.section\t.rodata; .text\n\t.string\t\"SALT=2\"\n", salt, 1));
	/* a label that holds the value */
	assert_false(same("1", ".LCSALT1:\n\t.string\t\"SALT=1\"\n", "1", ".LCSALT2:\n\t.string\t\"SALT=2\"\n", salt, 1));
}

/* inline asm that holds more than comments could switch sections behind
 * the lines' backs (a macro, an .if 0 around gcc's .section): nothing is
 * masked in that text; an empty asm (a compiler barrier) changes nothing */
static void test_inline_asm(void **state)
{
	(void)state;
	const char *barrier = "#APP\n# 12 \"k.c\" 1\n\t\n# 0 \"\" 2\n#NO_APP\n";
	char *a = xstrfmt("%s.LC1:\n\t.string\t\"SALT=1\"\n", barrier), *b = xstrfmt("%s.LC1:\n\t.string\t\"SALT=2\"\n", barrier);
	assert_true(same("1", a, "1", b, salt, 1));
	free(a);
	free(b);
	const char *iff = "#APP\n# 12 \"k.c\" 1\n\t.if 0\n# 0 \"\" 2\n#NO_APP\n";
	a = xstrfmt("%s\t.section\t.rodata.str1.1\n.LC1:\n\t.string\t\"SALT=1\"\n", iff);
	b = xstrfmt("%s\t.section\t.rodata.str1.1\n.LC1:\n\t.string\t\"SALT=2\"\n", iff);
	assert_false(same("1", a, "1", b, salt, 1));
	free(a);
	free(b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_echo_masked),
		cmocka_unit_test(test_not_masked),
		cmocka_unit_test(test_inline_asm),
	};
	return cmocka_run_group_tests_name("echo_mask", tests, NULL, NULL);
}
