/*
 * test_options.c - unit tests of the option parser (cli/options.h): both
 * value forms, '--', options and positionals in any order, repeated list
 * options, strict numbers, unknown options with a did-you-mean, a missing
 * value, and the help written from the table.  Each case parses a fresh
 * argv against one table and checks the values, the positionals, and what
 * the parser printed (stdout and stderr are captured through temp files).
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/util.h"
#include "cli/options.h"

/* The values one table writes; reset before each parse. */
static struct vals {
	const char *store, *out;
	int json, quiet, repeats, progress;
	unsigned long seed;
	double alpha, band;
	struct opt_list only;
} v;

static int parse_band(const struct option *opt, const char *arg)
{
	double d;
	if (opt_parse_number(arg, &d) < 0 || d < 0)
		return error("--band: '%s' is not a fraction", arg);
	*(double *)opt->value = d;
	return 0;
}

static const struct opt_usage usage = {
	"t", "usage: evident t [options] FILE...\n\nA test command.\n", "exit codes: 0, 2\n"
};

/* What the last parse printed. */
static char out_text[8192], err_text[8192];

static void slurp(FILE *f, char *buf, size_t n)
{
	fflush(f);
	rewind(f);
	size_t k = fread(buf, 1, n - 1, f);
	buf[k] = '\0';
	fclose(f);
}

/* Parses the NULL-terminated words after "t" against the test table;
 * positionals land in words[0..rc). */
static int parse(const char **words)
{
	opt_list_release(&v.only);
	memset(&v, 0, sizeof(v));
	v.progress = 1;
	v.alpha = 0.05;
	const struct option opts[] = {
		OPT_STORE(&v.store),
		OPT_STRING("out", &v.out, "DIR", "the output directory"),
		OPT_BOOL("json", &v.json, "print JSON"),
		OPT_BOOL_SHORT('q', "quiet", &v.quiet, "say less"),
		OPT_INT("repeats", &v.repeats, "N", "[1, 1000]", "worker processes\nper variant"),
		OPT_ULONG("seed", &v.seed, "S", "[0, 4294967295]", "a seed"),
		OPT_DOUBLE("alpha", &v.alpha, "X", "(0, 1)", "significance level"),
		OPT_CALLBACK("band", &v.band, "T", parse_band, "a noise band"),
		OPT_STRING_LIST("only", &v.only, "NAME", "only NAME (repeatable)"),
		OPT_NO_PROGRESS(&v.progress),
		OPT_END(),
	};
	const char *argv[32] = { "t" };
	int argc = 1;
	while (words[argc - 1])
		argv[argc] = words[argc - 1], argc++;
	argv[argc] = NULL;
	fflush(stdout);
	fflush(stderr);
	FILE *fo = tmpfile(), *fe = tmpfile();
	assert_non_null(fo);
	assert_non_null(fe);
	int so = dup(1), se = dup(2);
	dup2(fileno(fo), 1);
	dup2(fileno(fe), 2);
	int rc = parse_options(argc, argv, opts, &usage);
	fflush(stdout);
	fflush(stderr);
	dup2(so, 1);
	dup2(se, 2);
	close(so);
	close(se);
	slurp(fo, out_text, sizeof(out_text));
	slurp(fe, err_text, sizeof(err_text));
	for (int i = 0; i <= (rc > 0 ? rc : -1); i++)
		words[i] = argv[i];
	return rc;
}

#define W(...) ((const char *[]){ __VA_ARGS__, NULL })

static void test_both_forms(void **state)
{
	(void)state;
	const char **w = W("--store", "s1", "--out=o1", "--repeats", "7", "--seed=42", "--alpha", "0.01");
	assert_int_equal(parse(w), 0);
	assert_string_equal(v.store, "s1");
	assert_string_equal(v.out, "o1");
	assert_int_equal(v.repeats, 7);
	assert_int_equal(v.seed, 42);
	assert_true(v.alpha == 0.01);
	w = W("--store=s2", "--out", "o2", "--repeats=8", "--seed", "4294967295", "--alpha=0.5", "--band", "0.02");
	assert_int_equal(parse(w), 0);
	assert_string_equal(v.store, "s2");
	assert_string_equal(v.out, "o2");
	assert_int_equal(v.repeats, 8);
	assert_int_equal(v.seed, 4294967295UL);
	assert_true(v.alpha == 0.5 && v.band == 0.02);
	assert_string_equal(err_text, "");
	/* the next word is the value, even one that starts with '-'; a value may hold '=' */
	w = W("--store", "-odd", "--out=a=b");
	assert_int_equal(parse(w), 0);
	assert_string_equal(v.store, "-odd");
	assert_string_equal(v.out, "a=b");
	/* given twice, the last one wins */
	w = W("--store", "a", "--store=b");
	assert_int_equal(parse(w), 0);
	assert_string_equal(v.store, "b");
}

static void test_flags(void **state)
{
	(void)state;
	const char **w = W("--json", "-q", "--no-progress");
	assert_int_equal(parse(w), 0);
	assert_true(v.json && v.quiet && !v.progress);
	w = W("--quiet");
	assert_int_equal(parse(w), 0);
	assert_true(v.quiet && !v.json && v.progress);
	w = W("--json=1");
	assert_int_equal(parse(w), -1);
	assert_non_null(strstr(err_text, "error: option '--json' takes no value\n"));
	assert_false(v.json);
}

static void test_positionals_interleaved(void **state)
{
	(void)state;
	const char **w = W("x", "--json", "y", "--store", "s", "-", "--only=a", "z");
	assert_int_equal(parse(w), 4);
	assert_string_equal(w[0], "x");
	assert_string_equal(w[1], "y");
	assert_string_equal(w[2], "-");
	assert_string_equal(w[3], "z");
	assert_null(w[4]);
	assert_true(v.json);
	assert_string_equal(v.store, "s");
	assert_int_equal(v.only.n, 1);
}

static void test_double_dash(void **state)
{
	(void)state;
	const char **w = W("a", "--", "--json", "-q", "--", "b");
	assert_int_equal(parse(w), 5);
	assert_string_equal(w[0], "a");
	assert_string_equal(w[1], "--json");
	assert_string_equal(w[2], "-q");
	assert_string_equal(w[3], "--");
	assert_string_equal(w[4], "b");
	assert_false(v.json || v.quiet);
	/* --help after -- is a positional too */
	w = W("--", "--help");
	assert_int_equal(parse(w), 1);
	assert_string_equal(w[0], "--help");
	assert_string_equal(out_text, "");
}

static void test_list_repeated(void **state)
{
	(void)state;
	const char **w = W("--only", "a", "p", "--only=b", "--only", "c");
	assert_int_equal(parse(w), 1);
	assert_int_equal(v.only.n, 3);
	assert_string_equal(v.only.v[0], "a");
	assert_string_equal(v.only.v[1], "b");
	assert_string_equal(v.only.v[2], "c");
	assert_null(v.only.v[3]);
	w = W("p");
	assert_int_equal(parse(w), 1);
	assert_int_equal(v.only.n, 0);
	assert_null(v.only.v);
}

static void test_unknown_did_you_mean(void **state)
{
	(void)state;
	const char **w = W("--stor", "x");
	assert_int_equal(parse(w), -1);
	assert_string_equal(err_text, "error: unknown option '--stor' for 'evident t'; did you mean '--store'?\n"
				      "usage: evident t [options] FILE...\n");
	w = W("--no-prog");
	assert_int_equal(parse(w), -1);
	assert_non_null(strstr(err_text, "unknown option '--no-prog' for 'evident t'; did you mean '--no-progress'?"));
	w = W("--jsno=1");
	assert_int_equal(parse(w), -1);
	assert_non_null(strstr(err_text, "unknown option '--jsno' for 'evident t'; did you mean '--json'?"));
	w = W("--frobnicate");
	assert_int_equal(parse(w), -1);
	assert_non_null(strstr(err_text, "unknown option '--frobnicate' for 'evident t'; see 'evident t --help'\n"));
	w = W("-x");
	assert_int_equal(parse(w), -1);
	assert_non_null(strstr(err_text, "unknown option '-x' for 'evident t'"));
	/* no bundling of short flags */
	w = W("-qq");
	assert_int_equal(parse(w), -1);
	assert_non_null(strstr(err_text, "unknown option '-qq'"));
}

static void test_missing_value(void **state)
{
	(void)state;
	const char **w = W("p", "--store");
	assert_int_equal(parse(w), -1);
	assert_string_equal(err_text, "error: option '--store' needs a value (--store DIR)\n"
				      "usage: evident t [options] FILE...\n");
	w = W("--repeats=");
	assert_int_equal(parse(w), -1);
	assert_non_null(strstr(err_text, "error: option '--repeats' has an empty value; give N\n"));
	w = W("--store", "");
	assert_int_equal(parse(w), -1);
	assert_non_null(strstr(err_text, "has an empty value"));
}

/* Each word is refused for opt with the message "--opt: 'word' is not ..." */
static void refused(const char *opt, const char *word, const char *what)
{
	char msg[256];
	snprintf(msg, sizeof(msg), "error: --%s: '%s' is not %s\n", opt, word, what);
	char eq[128];
	snprintf(eq, sizeof(eq), "--%s=%s", opt, word);
	const char **w = W(eq);
	assert_int_equal(parse(w), -1);
	if (!strstr(err_text, msg))
		fail_msg("'%s': expected '%s', got '%s'", eq, msg, err_text);
	assert_non_null(strstr(err_text, "usage: evident t"));
}

static void test_bad_numbers(void **state)
{
	(void)state;
	const char *ints[] = { "0", "1001", "-1", "12x", " 5", "+5", "5 ", "1e2", "0x10", "3.0",
			       "99999999999999999999", "-", NULL };
	for (size_t i = 0; ints[i]; i++)
		refused("repeats", ints[i], "a whole number in [1, 1000]");
	const char *seeds[] = { "-1", "4294967296", NULL };
	for (size_t i = 0; seeds[i]; i++)
		refused("seed", seeds[i], "a whole number in [0, 4294967295]");
	const char *reals[] = { "0", "1", "1.5", "-0.1", "abc", "nan", "inf", "0.5x", " 0.5", "1e999", NULL };
	for (size_t i = 0; reals[i]; i++)
		refused("alpha", reals[i], "a number in (0, 1)");
	/* the bounds of a closed interval are in it */
	const char **w = W("--repeats", "1000");
	assert_int_equal(parse(w), 0);
	assert_int_equal(v.repeats, 1000);
	w = W("--repeats=1", "--alpha=.5", "--seed", "0");
	assert_int_equal(parse(w), 0);
	assert_true(v.repeats == 1 && v.alpha == 0.5 && v.seed == 0);
	/* a callback says its own message */
	w = W("--band", "-1");
	assert_int_equal(parse(w), -1);
	assert_non_null(strstr(err_text, "error: --band: '-1' is not a fraction\n"));
}

static void test_help_from_table(void **state)
{
	(void)state;
	const char **w = W("x", "--help", "--bogus");
	assert_int_equal(parse(w), OPT_HELP);
	assert_string_equal(err_text, "");
	assert_string_equal(out_text, "usage: evident t [options] FILE...\n"
				      "\n"
				      "A test command.\n"
				      "\n"
				      "options:\n"
				      "  --store DIR    the store (default: $EVIDENT_STORE, else store/)\n"
				      "  --out DIR      the output directory\n"
				      "  --json         print JSON\n"
				      "  -q, --quiet    say less\n"
				      "  --repeats N    worker processes\n"
				      "                 per variant\n"
				      "  --seed S       a seed\n"
				      "  --alpha X      significance level\n"
				      "  --band T       a noise band\n"
				      "  --only NAME    only NAME (repeatable)\n"
				      "  --no-progress  no progress line even on a terminal\n"
				      "\n"
				      "exit codes: 0, 2\n");
	w = W("-h");
	assert_int_equal(parse(w), OPT_HELP);
	assert_non_null(strstr(out_text, "options:\n"));
	/* an error before -h wins: options are read in order */
	w = W("--bogus", "-h");
	assert_int_equal(parse(w), -1);
	assert_string_equal(out_text, "");
}

static void test_usage_error(void **state)
{
	(void)state;
	fflush(stderr);
	FILE *fe = tmpfile();
	int se = dup(2);
	dup2(fileno(fe), 2);
	assert_int_equal(opt_usage_error(&usage, "one file at a time ('%s' and '%s')", "a", "b"), -1);
	fflush(stderr);
	dup2(se, 2);
	close(se);
	slurp(fe, err_text, sizeof(err_text));
	assert_string_equal(err_text, "error: one file at a time ('a' and 'b')\nusage: evident t [options] FILE...\n");
}

static int teardown(void **state)
{
	(void)state;
	opt_list_release(&v.only);
	return 0;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_both_forms),
		cmocka_unit_test(test_flags),
		cmocka_unit_test(test_positionals_interleaved),
		cmocka_unit_test(test_double_dash),
		cmocka_unit_test(test_list_repeated),
		cmocka_unit_test(test_unknown_did_you_mean),
		cmocka_unit_test(test_missing_value),
		cmocka_unit_test(test_bad_numbers),
		cmocka_unit_test(test_help_from_table),
		cmocka_unit_test(test_usage_error),
	};
	return cmocka_run_group_tests(tests, NULL, teardown);
}
