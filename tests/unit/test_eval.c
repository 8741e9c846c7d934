/*
 * test_eval.c - unit tests of evident eval's input side (run/eval.h): a
 * candidate object checked key by key (kernel, source, params against the
 * spec's declared parameters, lineage text, bounds), each refusal naming
 * what and where, and a line of input read as one JSON object.  The judge
 * itself (a batch through job.c) is exercised end to end by
 * tests/cli/t0130-eval.sh.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>

#include "run/eval.h"

static const char *const declared[] = { "BLOCK_M", "BLOCK_N", NULL };
static const struct eval_rules rules = { "naive", declared, ".c", 64 };

/* Parse text as a candidate: 0 with rq filled, or -1 with why and at. */
static int parse(const char *text, struct eval_request *rq, char **why, char **at)
{
	char *perr = NULL;
	json_t *j = eval_parse_line(text, strlen(text), &perr);
	assert_non_null(j);
	assert_null(perr);
	int rc = eval_request_parse(j, &rules, rq, why, at);
	json_decref(j);
	return rc;
}

/* text is refused at `at` with a message containing msg. */
static void refused(const char *text, const char *at_want, const char *msg)
{
	struct eval_request rq;
	char *why = NULL, *at = NULL;
	assert_int_equal(parse(text, &rq, &why, &at), -1);
	assert_non_null(why);
	if (!strstr(why, msg))
		fail_msg("'%s': got '%s', wanted '%s'", text, why, msg);
	assert_string_equal(at, at_want);
	free(why);
	free(at);
	eval_request_release(&rq);
}

static void test_full_request(void **state)
{
	(void)state;
	struct eval_request rq;
	char *why = NULL, *at = NULL;
	assert_int_equal(parse("{\"source\": \"int x;\", \"params\": {\"BLOCK_N\": 32, \"BLOCK_M\": \"16\"},"
			       " \"name\": \"c1\", \"parent\": \"20261125T000000.000Z-ev-00000000\","
			       " \"origin\": \"model-x\", \"mutation\": \"BLOCK_M 8->16\"}",
			       &rq, &why, &at),
			 0);
	assert_null(why);
	assert_string_equal(rq.source, "int x;");
	assert_int_equal(rq.source_len, 6);
	assert_null(rq.kernel);
	assert_string_equal(rq.name, "c1");
	assert_string_equal(rq.parent, "20261125T000000.000Z-ev-00000000");
	assert_string_equal(rq.origin, "model-x");
	assert_string_equal(rq.mutation, "BLOCK_M 8->16");
	/* sorted by name, numbers as text */
	assert_int_equal(rq.n_params, 2);
	assert_string_equal(rq.params[0].name, "BLOCK_M");
	assert_string_equal(rq.params[0].value, "16");
	assert_string_equal(rq.params[1].name, "BLOCK_N");
	assert_string_equal(rq.params[1].value, "32");
	eval_request_release(&rq);
}

static void test_kernel_and_params_only(void **state)
{
	(void)state;
	struct eval_request rq;
	char *why = NULL, *at = NULL;
	assert_int_equal(parse("{\"kernel\": \"kernels/host/attn_blocked.c\"}", &rq, &why, &at), 0);
	assert_string_equal(rq.kernel, "kernels/host/attn_blocked.c");
	assert_null(rq.source);
	assert_null(rq.name);
	eval_request_release(&rq);
	/* params alone: the reference's kernel; a real in the fewest digits */
	assert_int_equal(parse("{\"params\": {\"BLOCK_M\": 0.5, \"BLOCK_N\": -3}}", &rq, &why, &at), 0);
	assert_null(rq.kernel);
	assert_null(rq.source);
	assert_string_equal(rq.params[0].value, "0.5");
	assert_string_equal(rq.params[1].value, "-3");
	eval_request_release(&rq);
}

static void test_refusals(void **state)
{
	(void)state;
	refused("{\"source\": \"x\", \"parms\": {}}", "parms", "unknown key 'parms' (did you mean 'params'?)");
	refused("{\"source\": \"x\", \"colour\": 1}", "colour",
		"unknown key 'colour'; a candidate's keys are name, source, kernel, params, parent, origin, mutation");
	refused("{\"source\": \"x\", \"trust\": \"host\"}", "trust", "always judged as an adversary");
	refused("{\"source\": \"x\", \"expect\": \"crashed\"}", "expect", "must end ok");
	refused("{}", "", "the candidate names no code");
	refused("{\"source\": \"\"}", "source", "'source' is empty");
	refused("{\"source\": 3}", "source", "'source' must be a string, not an integer");
	refused("{\"source\": \"x\", \"kernel\": \"k.c\"}", "kernel", "not both");
	refused("{\"kernel\": \"/abs/k.c\"}", "kernel", "a path relative to the repository root");
	refused("{\"kernel\": \"kernels/../../k.c\"}", "kernel", "climbs out with '..'");
	refused("{\"kernel\": \"kernels/k.cu\"}", "kernel", "is not a .c file");
	refused("{\"source\": \"x\", \"name\": \"naive\"}", "name", "is the reference's");
	refused("{\"source\": \"x\", \"name\": \"a/b\"}", "name", "may only hold letters, digits and _ . -");
	refused("{\"source\": \"x\", \"params\": [1]}", "params", "'params' must be an object");
	refused("{\"source\": \"x\", \"params\": {\"BLOCK_Q\": 1}}", "params.BLOCK_Q",
		"parameter 'BLOCK_Q' is not declared by the spec (did you mean 'BLOCK_M'?); its variants declare "
		"BLOCK_M, BLOCK_N");
	refused("{\"source\": \"x\", \"params\": {\"BLOCK_M\": \"1 2\"}}", "params.BLOCK_M",
		"value '1 2' may only hold letters, digits and _ . + -");
	refused("{\"source\": \"x\", \"params\": {\"BLOCK_M\": true}}", "params.BLOCK_M",
		"must be a string or a number, not a boolean");
	/* the bound of rules (64 bytes) */
	refused("{\"source\": \"0123456789012345678901234567890123456789012345678901234567890123456789\"}",
		"source", "'source' is 70 bytes, more than the 64 accepted");
}

static void test_undeclared_when_none(void **state)
{
	(void)state;
	static const char *const none[] = { NULL };
	struct eval_rules r = rules;
	r.declared = none;
	char *perr = NULL, *why = NULL, *at = NULL;
	json_t *j = eval_parse_line("{\"source\": \"x\", \"params\": {\"A\": 1}}", 35, &perr);
	assert_non_null(j);
	struct eval_request rq;
	assert_int_equal(eval_request_parse(j, &r, &rq, &why, &at), -1);
	assert_non_null(strstr(why, "it declares none"));
	free(why);
	free(at);
	eval_request_release(&rq);
	json_decref(j);
}

static void test_lines(void **state)
{
	(void)state;
	char *why = NULL;
	assert_null(eval_parse_line("{\"a\": ", 6, &why));
	assert_non_null(strstr(why, "malformed JSON at column"));
	free(why);
	assert_null(eval_parse_line("[1, 2]", 6, &why));
	assert_string_equal(why, "expected one JSON object per line, got an array");
	free(why);
	assert_null(eval_parse_line("{\"a\": 1} {\"b\": 2}", 17, &why));
	assert_non_null(strstr(why, "malformed JSON"));
	free(why);
	assert_null(eval_parse_line("{\"a\": 1, \"a\": 2}", 16, &why));
	assert_non_null(strstr(why, "duplicate"));
	free(why);
	/* a NUL in a string (jansson refuses it: a C string would end there) */
	assert_null(eval_parse_line("{\"source\": \"x\\u0000y\"}", 22, &why));
	assert_non_null(strstr(why, "malformed JSON"));
	free(why);
	json_t *j = eval_parse_line("{\"a\": 1}trailing", 8, &why);
	assert_non_null(j);
	assert_null(why);
	json_decref(j);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_full_request),
		cmocka_unit_test(test_kernel_and_params_only),
		cmocka_unit_test(test_refusals),
		cmocka_unit_test(test_undeclared_when_none),
		cmocka_unit_test(test_lines),
	};
	return cmocka_run_group_tests_name("eval", tests, NULL, NULL);
}
