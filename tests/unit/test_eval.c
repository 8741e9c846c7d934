/*
 * test_eval.c - unit tests of evident eval's input side (run/eval.h): a
 * candidate object checked key by key (kernel, source, params against the
 * spec's declared parameters, lineage text, bounds), each refusal naming
 * what and where, and a line of input read as one JSON object.  The judge
 * itself (a batch through job.c) is exercised end to end by
 * tests/cli/t0130-eval.sh; which earlier batches weigh a resubmitted
 * candidate (eval_pool_batches) on a store of hand-made records here, and
 * end to end by t0134.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/runcmd.h"
#include "report/code_identity.h"
#include "run/eval.h"
#include "store/store.h"

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

/* ---- a resubmission is the same evidence (eval_pool_batches) ------------------- */

/* A host run record id of variant var in batch bid: kernel file path
 * (content sha), binary bin, echo-neutral object neutral (NULL: none), at
 * shape N=n; outcome as given. */
static void put_run(struct store *st, const char *id, const char *var, const char *bid, const char *path,
		    const char *sha, const char *bin, const char *neutral, int n, const char *outcome)
{
	char hex[SHA256_HEX_LEN + 1];
	const char *samples = "# us\n100\n";
	assert_int_equal(store_put(st, samples, strlen(samples), hex), 0);
	json_t *m = json_pack("{s:s, s:s, s:s, s:s, s:s, s:s, s:s, s:{s:b, s:i, s:[]},"
			      " s:{s:[{s:s, s:s}], s:s, s:{s:[s, s, s], s:s}}, s:{s:s, s:{s:s}, s:i},"
			      " s:{s:s}, s:{s:s, s:s, s:{s:i}, s:[s]}, s:s}",
			      "kind", "variant", "format", "evident-run/1", "experiment", "ev", "variant", var, "batch_id",
			      bid, "outcome", outcome, "backend", "host", "correctness", "pass", 1, "seeds", 0, "results",
			      "code", "sources", "path", path, "sha256", sha, "binary_sha256", bin, "compiler", "argv", "cc",
			      "-O2", path, "version", "cc 1", "timing", "samples_object", hex, "method", "cache", "hot",
			      "samples_requested", 1, "device", "name", "AMD EPYC", "problem", "name", "p2", "dtype", "fp32",
			      "shape", "N", n, "dims", "N", "started_utc", "2026-01-01T00:00:00.000Z");
	assert_non_null(m);
	if (neutral)
		json_object_set_new(json_object_get(m, "code"), "echo_neutral_sha256", json_string(neutral));
	assert_int_equal(store_commit(st, id, m), 0);
	json_decref(m);
}

/* A batch row of var (run id), outcome, and its verdict against the
 * baseline (NULL: the baseline's own row). */
static json_t *row_of(const char *var, const char *id, const char *outcome, const char *verdict)
{
	if (!verdict)
		return json_pack("{s:s, s:s, s:s, s:n}", "variant", var, "run_id", id, "outcome", outcome, "comparison");
	return json_pack("{s:s, s:s, s:s, s:{s:{s:f, s:[f, f]}, s:{s:f, s:f}, s:s, s:[i, i]}}", "variant", var,
			 "run_id", id, "outcome", outcome, "comparison", "speedup", "ratio", 2.0, "ci", 1.5, 2.5,
			 "mann_whitney", "p", 0.01, "p_adjusted", 0.01, "verdict", verdict, "repeats", 3, 3);
}

/*
 * Batch i (id 20260201T0000<i>9Z-ev-<i>-batch): the reference's code
 * (ref.c, refbin) as `ref` against a row `c` of (path, sha, bin, neutral),
 * its outcome and verdict; baseline `ref` unless ref_not_base (then the
 * candidate's row is the baseline, and the reference's row carries the
 * verdict turned round); a reproduction of batch 1 when repro;
 * at shape N=n.
 */
static void put_pair(struct store *st, int i, const char *path, const char *sha, const char *bin, const char *neutral,
		     const char *outcome, const char *verdict, int n, int ref_not_base, int repro)
{
	char refsha[SHA256_HEX_LEN + 1];
	sha256_hex("ref", 3, refsha);
	char *bid = xstrfmt("20260201T0000%02d9Z-ev-%d-batch", i, i), *rid = xstrfmt("20260201T0000%02d0Z-ev-ref", i),
	     *cid = xstrfmt("20260201T0000%02d1Z-ev-c", i);
	put_run(st, rid, "ref", bid, "ref.c", refsha, "refbin", NULL, n, "ok");
	put_run(st, cid, "c", bid, path, sha, bin, neutral, n, outcome);
	/* the candidate the baseline: the reference's verdict is its, turned round */
	const char *rv = !ref_not_base ? NULL
			 : !strcmp(verdict, "faster") ? "slower"
			 : !strcmp(verdict, "slower") ? "faster"
						      : verdict;
	json_t *rows = json_pack("[o, o]", row_of("ref", rid, "ok", rv),
				 row_of("c", cid, outcome, ref_not_base ? NULL : verdict));
	json_t *b = json_pack("{s:s, s:s, s:s, s:s, s:s, s:{s:{s:s, s:b}}, s:{s:I, s:f, s:f}, s:{s:s, s:s, s:{s:i}, "
			      "s:[s]}, s:o}",
			      "kind", "batch", "format", "evident-batch/1", "experiment", "ev", "batch_id", bid, "baseline",
			      ref_not_base ? "c" : "ref", "code", "git", "commit", "0123456789abcdef", "dirty", 0, "holm",
			      "comparisons", (json_int_t)1, "alpha", 0.05, "threshold", 0.01, "problem", "name", "p2",
			      "dtype", "fp32", "shape", "N", n, "dims", "N", "variants", rows);
	assert_non_null(b);
	if (repro)
		json_object_set_new(b, "reproduction",
				    json_pack("{s:s, s:s, s:f, s:b, s:[]}", "of", "20260201T0000019Z-ev-1-batch", "commit",
					      "0123456789abcdef0123456789abcdef01234567", "threshold", 0.01, "reproduced",
					      0, "variants"));
	assert_int_equal(store_commit(st, bid, b), 0);
	json_decref(b);
	free(bid);
	free(rid);
	free(cid);
}

/* Run id of the store at root: its kernel file renamed to path (content
 * its name's hash), its binary bin, its loaded image load, its echo-
 * neutral object neutral (each NULL: kept). */
static void set_run_code(const char *root, const char *id, const char *path, const char *bin, const char *load,
			 const char *neutral)
{
	char *f = xstrfmt("%s/runs/%s.json", root, id);
	json_error_t je;
	json_t *r = json_load_file(f, 0, &je);
	assert_non_null(r);
	json_t *code = json_object_get(r, "code");
	if (path) {
		char sha[SHA256_HEX_LEN + 1];
		sha256_hex(path, strlen(path), sha);
		json_t *src = json_array_get(json_object_get(code, "sources"), 0);
		json_object_set_new(src, "path", json_string(path));
		json_object_set_new(src, "sha256", json_string(sha));
		json_object_set_new(r, "kernel", json_string(path));
	}
	if (bin)
		json_object_set_new(code, "binary_sha256", json_string(bin));
	if (load)
		json_object_set_new(code, "load_sha256", json_string(load));
	if (neutral)
		json_object_set_new(code, "echo_neutral_sha256", json_string(neutral));
	assert_int_equal(json_dump_file(r, f, JSON_INDENT(1)), 0);
	json_decref(r);
	free(f);
}

/* Run id: a library at path (content: the hash of text) among its
 * sources, marked loaded when marked (build.c object_libraries); one
 * there already is replaced. */
static void add_run_library(const char *root, const char *id, const char *path, const char *text, int marked)
{
	char *f = xstrfmt("%s/runs/%s.json", root, id);
	json_error_t je;
	json_t *r = json_load_file(f, 0, &je);
	assert_non_null(r);
	json_t *srcs = json_object_get(json_object_get(r, "code"), "sources");
	if (json_array_size(srcs) > 1)
		json_array_remove(srcs, 1);
	char sha[SHA256_HEX_LEN + 1];
	sha256_hex(text, strlen(text), sha);
	json_t *e = json_pack("{s:s, s:s}", "path", path, "sha256", sha);
	if (marked)
		json_object_set_new(e, "loaded", json_true());
	json_array_append_new(srcs, e);
	assert_int_equal(json_dump_file(r, f, JSON_INDENT(1)), 0);
	json_decref(r);
	free(f);
}

/* The reference row of batch bid in the store at root: its stats (median
 * and median CI, us), written into the committed batch record. */
static void set_row_stats(const char *root, const char *bid, size_t row_i, double med, double lo, double hi);
static void set_ref_stats(const char *root, const char *bid, double med, double lo, double hi)
{
	set_row_stats(root, bid, 0, med, lo, hi);
}

/* Row row_i of batch bid (0 the reference, 1 the candidate): its stats. */
static void set_row_stats(const char *root, const char *bid, size_t row_i, double med, double lo, double hi)
{
	char *path = xstrfmt("%s/runs/%s.json", root, bid);
	json_error_t je;
	json_t *b = json_load_file(path, 0, &je);
	assert_non_null(b);
	json_t *row = json_array_get(json_object_get(b, "variants"), row_i);
	assert_non_null(row);
	json_object_set_new(row, "stats", json_pack("{s:i, s:f, s:[f, f], s:i}", "n", 90, "median", med, "median_ci",
						     lo, hi, "repeats", 3));
	assert_int_equal(json_dump_file(b, path, JSON_INDENT(1)), 0);
	json_decref(b);
	free(path);
}

/* Run id of the store at root: its timing statistics' median (us), written
 * into the committed run record. */
static void set_run_median(const char *root, const char *id, double med)
{
	char *path = xstrfmt("%s/runs/%s.json", root, id);
	json_error_t je;
	json_t *r = json_load_file(path, 0, &je);
	assert_non_null(r);
	json_object_set_new(json_object_get(r, "timing"), "stats",
			    json_pack("{s:i, s:f, s:[f, f]}", "n", 30, "median", med, "median_ci", med * 0.95, med * 1.05));
	assert_int_equal(json_dump_file(r, path, JSON_INDENT(1)), 0);
	json_decref(r);
	free(path);
}

/* The reference row of batch bid: its outcome, written into the batch record. */
static void set_ref_outcome(const char *root, const char *bid, const char *outcome)
{
	char *path = xstrfmt("%s/runs/%s.json", root, bid);
	json_error_t je;
	json_t *b = json_load_file(path, 0, &je);
	assert_non_null(b);
	json_object_set_new(json_array_get(json_object_get(b, "variants"), 0), "outcome", json_string(outcome));
	assert_int_equal(json_dump_file(b, path, JSON_INDENT(1)), 0);
	json_decref(b);
	free(path);
}

/* Run id of the store at root: outcome crashed with no statistics, and
 * n timed samples at us each (its samples object). */
static void set_run_crashed(const char *root, const char *id, int n, double us)
{
	struct store st;
	struct strbuf sb = STRBUF_INIT;
	char hex[SHA256_HEX_LEN + 1];
	strbuf_addstr(&sb, "# us\n");
	for (int i = 0; i < n; i++)
		strbuf_addf(&sb, "%g\n", us + i);
	assert_int_equal(store_open(&st, root, 1), 0);
	assert_int_equal(store_put(&st, strbuf_str(&sb), sb.len, hex), 0);
	store_release(&st);
	strbuf_release(&sb);
	char *path = xstrfmt("%s/runs/%s.json", root, id);
	json_error_t je;
	json_t *r = json_load_file(path, 0, &je);
	assert_non_null(r);
	json_object_set_new(r, "outcome", json_string("crashed"));
	json_t *t = json_object_get(r, "timing");
	json_object_set_new(t, "samples_object", json_string(hex));
	json_object_set_new(t, "stats", json_null());
	assert_int_equal(json_dump_file(r, path, JSON_INDENT(1)), 0);
	json_decref(r);
	free(path);
}

/* Run id of the store at root: `passed` timed checks that passed and
 * `failed` that failed, written into its record. */
static void set_run_checks(const char *root, const char *id, int passed, int failed)
{
	char *path = xstrfmt("%s/runs/%s.json", root, id);
	json_error_t je;
	json_t *r = json_load_file(path, 0, &je);
	assert_non_null(r);
	json_t *checks = json_array();
	for (int i = 0; i < passed + failed; i++)
		json_array_append_new(checks, json_pack("{s:s, s:I, s:s, s:I, s:b, s:f, s:f, s:f, s:i, s:i, s:i, s:i}",
							"phase", "timed", "seed", (json_int_t)(i + 1), "dist",
							"uniform", "sample", (json_int_t)i, "pass", i < passed,
							"max_abs_err", i < passed ? 0.0 : 9.0, "rel_l2",
							i < passed ? 0.0 : 0.7, "ref_scale", 1.0, "nan_count", 0,
							"unwritten", 0, "mismatches", i < passed ? 0 : 512,
							"first_mismatch", i < passed ? -1 : 0));
	json_t *c = json_object_get(r, "correctness");
	if (!c) {
		c = json_object();
		json_object_set_new(r, "correctness", c);
	}
	json_object_set_new(c, "checks", checks);
	assert_int_equal(json_dump_file(r, path, JSON_INDENT(1)), 0);
	json_decref(r);
	free(path);
}

/* Run id of the store at root: judge.timed_checks.owed set to owed. */
static void set_run_owed(const char *root, const char *id, int owed)
{
	char *path = xstrfmt("%s/runs/%s.json", root, id);
	json_error_t je;
	json_t *r = json_load_file(path, 0, &je);
	assert_non_null(r);
	json_t *j = json_object_get(r, "judge");
	if (!j) {
		j = json_object();
		json_object_set_new(r, "judge", j);
	}
	json_object_set_new(j, "timed_checks", json_pack("{s:i, s:i, s:i}", "asked", 1, "wanted", 10, "owed", owed));
	assert_int_equal(json_dump_file(r, path, JSON_INDENT(1)), 0);
	json_decref(r);
	free(path);
}

/* Run id of the store at root: its judge asked for `wanted` timed checks
 * (judge.timed_checks.wanted, a spec's `timed_checks`) by the draw `draw`
 * ("fixed" or "adaptive"). */
static void set_run_judge(const char *root, const char *id, int wanted, const char *draw)
{
	char *path = xstrfmt("%s/runs/%s.json", root, id);
	json_error_t je;
	json_t *r = json_load_file(path, 0, &je);
	assert_non_null(r);
	json_object_set_new(r, "judge", json_pack("{s:{s:i, s:i, s:i, s:s}}", "timed_checks", "asked", wanted, "wanted",
						  wanted, "owed", 0, "draw", draw));
	assert_int_equal(json_dump_file(r, path, JSON_INDENT(1)), 0);
	json_decref(r);
	free(path);
}

/* Run id of the store at root: the tolerance it was checked with (atol)
 * beside the problem's own (problem_atol). */
static void set_run_tolerance(const char *root, const char *id, double atol, double problem_atol)
{
	char *path = xstrfmt("%s/runs/%s.json", root, id);
	json_error_t je;
	json_t *r = json_load_file(path, 0, &je);
	assert_non_null(r);
	json_t *c = json_object_get(r, "correctness");
	if (!c) {
		c = json_object();
		json_object_set_new(r, "correctness", c);
	}
	json_object_set_new(c, "tolerance", json_pack("{s:f, s:f, s:f, s:{s:f, s:f, s:f}}", "atol", atol, "rtol", 1e-5,
						      "rel_l2", 1e-5, "problem", "atol", problem_atol, "rtol", 1e-5,
						      "rel_l2", 1e-5));
	assert_int_equal(json_dump_file(r, path, JSON_INDENT(1)), 0);
	json_decref(r);
	free(path);
}

/* Run id of the store at root: its judge's member key set to value
 * (stolen), the rest of its judge kept. */
static void set_run_judge_key(const char *root, const char *id, const char *key, json_t *value)
{
	char *path = xstrfmt("%s/runs/%s.json", root, id);
	json_error_t je;
	json_t *r = json_load_file(path, 0, &je);
	assert_non_null(r);
	json_t *j = json_object_get(r, "judge");
	if (!j) {
		j = json_object();
		json_object_set_new(r, "judge", j);
	}
	json_object_set_new(j, key, value);
	assert_int_equal(json_dump_file(r, path, JSON_INDENT(1)), 0);
	json_decref(r);
	free(path);
}

/* Run id: judge.timed_checks.wanted set to wanted. */
static void set_run_wanted(const char *root, const char *id, int wanted)
{
	set_run_judge_key(root, id, "timed_checks", json_pack("{s:i}", "wanted", wanted));
}

/* Run id: judge.sandbox.tool set to tool (its timed_checks kept). */
static void set_run_sandbox(const char *root, const char *id, const char *tool)
{
	set_run_judge_key(root, id, "sandbox", json_pack("{s:s}", "tool", tool));
}

/* Run id of the store at root: judge.sandbox.binary_verified {done: done}
 * (its tool kept, bubblewrap where none). */
static void set_run_verified(const char *root, const char *id, const char *done)
{
	char *path = xstrfmt("%s/runs/%s.json", root, id);
	json_error_t je;
	json_t *r = json_load_file(path, 0, &je);
	assert_non_null(r);
	json_t *j = json_object_get(r, "judge");
	if (!j) {
		j = json_object();
		json_object_set_new(r, "judge", j);
	}
	json_t *sb = json_object_get(j, "sandbox");
	if (!sb) {
		sb = json_pack("{s:s}", "tool", "bubblewrap");
		json_object_set_new(j, "sandbox", sb);
	}
	json_object_set_new(sb, "binary_verified", json_pack("{s:s}", "done", done));
	assert_int_equal(json_dump_file(r, path, JSON_INDENT(1)), 0);
	json_decref(r);
	free(path);
}

/* Run id of the store at root: problem.plugin_sha256 set to hash. */
static void set_run_plugin(const char *root, const char *id, const char *hash)
{
	char *path = xstrfmt("%s/runs/%s.json", root, id);
	json_error_t je;
	json_t *r = json_load_file(path, 0, &je);
	assert_non_null(r);
	json_object_set_new(json_object_get(r, "problem"), "plugin_sha256", json_string(hash));
	assert_int_equal(json_dump_file(r, path, JSON_INDENT(1)), 0);
	json_decref(r);
	free(path);
}

/* Run id of the store at root: `escaped` samples on another stream, of
 * `timing` samples of the timing distribution and `stress` of a stress
 * one (timing.by_dist). */
static void set_run_escapes(const char *root, const char *id, int escaped, int timing, int stress)
{
	char *path = xstrfmt("%s/runs/%s.json", root, id);
	json_error_t je;
	json_t *r = json_load_file(path, 0, &je);
	assert_non_null(r);
	json_t *t = json_object_get(r, "timing");
	assert_non_null(t);
	json_object_set_new(t, "escapes", json_pack("{s:i}", "other_stream", escaped));
	json_object_set_new(t, "by_dist", json_pack("{s:{s:i, s:b}, s:{s:i, s:b}}", "uniform", "n", timing, "timing", 1,
						      "cancel", "n", stress, "timing", 0));
	assert_int_equal(json_dump_file(r, path, JSON_INDENT(1)), 0);
	json_decref(r);
	free(path);
}

/* Pool batch cur of the store at root (candidate c, reference ref) and
 * check the reference's fastest batch elsewhere is want (its median
 * want_us, unless NAN). */
static void assert_ref_best(const char *root, const char *cur, const char *want, double want_us)
{
	struct query q = QUERY_INIT;
	struct eval_pooled d = EVAL_POOLED_INIT;
	assert_int_equal(query_open(&q, root), 0);
	assert_int_equal(eval_pool_batches(&q, NULL, cur, "c", "ref", &d), 0);
	assert_string_equal(d.ref_best_batch, want);
	if (!isnan(want_us))
		assert_true(d.ref_best_median == want_us);
	strbuf_release(&d.others);
	query_release(&q);
}

/* Batch i (as put_pair's ids) whose ref row has three repeats: run 0
 * crashed, with no timing at all (it failed before its first timed
 * sample) unless r0_timed, then runs 1 and 2 of outcomes o1, o2, each
 * timed by the host clock, hot; the row's outcome row_oc.  Run k's
 * samples: 9 of us0, us1 or us2 (an ok run gets it as its median). */
static void put_ref_repeats(const char *root, int i, const char *row_oc, int r0_timed, double us0, const char *o1,
			    double us1, const char *o2, double us2)
{
	char refsha[SHA256_HEX_LEN + 1];
	sha256_hex("ref", 3, refsha);
	struct store st;
	assert_int_equal(store_open(&st, root, 1), 0);
	char *bid = xstrfmt("20260201T0000%02d9Z-ev-%d-batch", i, i);
	char *ids[3];
	const char *oc[3] = { "crashed", o1, o2 };
	double us[3] = { us0, us1, us2 };
	for (int k = 0; k < 3; k++) {
		ids[k] = xstrfmt("20260201T0000%02d%dZ-ev-ref%d", i, k + 2, k);
		put_run(&st, ids[k], "ref", bid, "ref.c", refsha, "refbin", NULL, 262144, oc[k]);
	}
	json_t *row = json_pack("{s:s, s:s, s:s, s:[s, s, s], s:n}", "variant", "ref", "run_id", ids[0], "outcome",
				row_oc, "runs", ids[0], ids[1], ids[2], "comparison");
	json_t *b = json_pack("{s:s, s:s, s:s, s:s, s:s, s:{s:{s:s, s:b}}, s:{s:I, s:f, s:f}, s:{s:s, s:s, s:{s:i}, "
			      "s:[s]}, s:[o]}",
			      "kind", "batch", "format", "evident-batch/1", "experiment", "ev", "batch_id", bid, "baseline",
			      "ref", "code", "git", "commit", "0123456789abcdef", "dirty", 0, "holm", "comparisons",
			      (json_int_t)1, "alpha", 0.05, "threshold", 0.01, "problem", "name", "p2", "dtype", "fp32",
			      "shape", "N", 262144, "dims", "N", "variants", row);
	assert_int_equal(store_commit(&st, bid, b), 0);
	json_decref(b);
	for (int k = 0; k < 3; k++) {
		char hex[SHA256_HEX_LEN + 1];
		struct strbuf sb = STRBUF_INIT;
		strbuf_addstr(&sb, "# us\n");
		for (int j = 0; j < 9; j++)
			strbuf_addf(&sb, "%g\n", us[k]);
		assert_int_equal(store_put(&st, strbuf_str(&sb), sb.len, hex), 0);
		strbuf_release(&sb);
		char *path = xstrfmt("%s/runs/%s.json", root, ids[k]);
		json_error_t je;
		json_t *r = json_load_file(path, 0, &je);
		assert_non_null(r);
		if (k == 0 && !r0_timed) {
			json_object_del(r, "timing");
		} else {
			json_t *t = json_object_get(r, "timing");
			json_object_set_new(t, "samples_object", json_string(hex));
			json_object_set_new(t, "clock", json_string("host"));
			json_object_set_new(t, "cache", json_string("hot"));
			json_object_set_new(t, "stats", strcmp(oc[k], "ok") ? json_null()
									    : json_pack("{s:i, s:f, s:[f, f]}", "n", 9,
											"median", us[k], "median_ci",
											us[k], us[k]));
		}
		assert_int_equal(json_dump_file(r, path, JSON_INDENT(1)), 0);
		json_decref(r);
		free(path);
		free(ids[k]);
	}
	store_release(&st);
	free(bid);
}

/*
 * Red team 48's resubmission: the same code sent until one batch says
 * faster.  This batch (9) is faster; the earlier batches of the same code
 * against the reference's are inconclusive (1), slower (2), faster
 * in a reproduction of 1 (3), crashed (7), a twin that shares only the
 * echo-neutral object is slower (6), and the candidate as the baseline,
 * which the reference beat (8: red team 140's swapped batches, left out
 * before): 2 of 7 faster, not promoted.  Left out: another shape (4), a
 * twin of the echo-neutral object alone that is faster (5: that build can
 * be told apart, so it only counts against).  A batch alone decides for
 * itself: 1 of 1.
 */
static void test_pool_resubmissions(void **state)
{
	(void)state;
	char dir[] = "/tmp/evident-test-eval.XXXXXX", csha[SHA256_HEX_LEN + 1], tsha[SHA256_HEX_LEN + 1];
	assert_non_null(mkdtemp(dir));
	char *root = xstrfmt("%s/store", dir);
	struct store st = STORE_INIT;
	assert_int_equal(store_open(&st, root, 1), 0);
	sha256_hex("cand", 4, csha);
	sha256_hex("twin", 4, tsha);
	put_pair(&st, 1, "c.c", csha, "cbin", "cneutral", "ok", "inconclusive", 256, 0, 0);
	put_pair(&st, 2, "c.c", csha, "cbin", "cneutral", "ok", "slower", 256, 0, 0);
	put_pair(&st, 3, "c.c", csha, "cbin", "cneutral", "ok", "faster", 256, 0, 1);
	put_pair(&st, 4, "c.c", csha, "cbin", "cneutral", "ok", "faster", 512, 0, 0);
	put_pair(&st, 5, "t.c", tsha, "tbin", "cneutral", "ok", "faster", 256, 0, 0);
	put_pair(&st, 6, "t.c", tsha, "tbin", "cneutral", "ok", "slower", 256, 0, 0);
	put_pair(&st, 7, "c.c", csha, "cbin", "cneutral", "crashed", NULL, 256, 0, 0);
	put_pair(&st, 8, "c.c", csha, "cbin", "cneutral", "ok", "slower", 256, 1, 0);
	put_pair(&st, 9, "c.c", csha, "cbin", "cneutral", "ok", "faster", 256, 0, 0);
	put_pair(&st, 10, "c.c", csha, "cbin2", "cneutral", "ok", "faster", 1024, 0, 0);
	store_release(&st);

	struct query q = QUERY_INIT;
	struct eval_pooled w = EVAL_POOLED_INIT;
	assert_int_equal(query_open(&q, root), 0);
	assert_int_equal(eval_pool_batches(&q, NULL, "20260201T0000099Z-ev-9-batch", "c", "ref", &w), 0);
	assert_int_equal(w.n, 7);
	assert_int_equal(w.k, 2);
	assert_int_equal(w.n_earlier, 6);
	assert_non_null(strstr(w.others.buf, "slower (20260201T0000089Z-ev-8-batch)"));
	assert_non_null(strstr(w.others.buf, "crashed (20260201T0000079Z-ev-7-batch)"));
	assert_non_null(strstr(w.others.buf, "slower (20260201T0000069Z-ev-6-batch)"));
	assert_non_null(strstr(w.others.buf, "slower (20260201T0000029Z-ev-2-batch)"));
	assert_non_null(strstr(w.others.buf, "inconclusive (20260201T0000019Z-ev-1-batch)"));
	assert_null(strstr(w.others.buf, "-ev-4-"));
	strbuf_release(&w.others);
	/* alone at its shape: 1 of 1; a session's pool reads each batch once
	 * and weighs the same from what it kept */
	struct eval_pool *pool = eval_pool_new();
	struct eval_pooled w1 = EVAL_POOLED_INIT;
	assert_int_equal(eval_pool_batches(&q, pool, "20260201T0000109Z-ev-10-batch", "c", "ref", &w1), 0);
	assert_int_equal(w1.n, 1);
	assert_int_equal(w1.k, 1);
	assert_int_equal(w1.n_earlier, 0);
	strbuf_release(&w1.others);
	struct eval_pooled w3 = EVAL_POOLED_INIT;
	assert_int_equal(eval_pool_batches(&q, pool, "20260201T0000099Z-ev-9-batch", "c", "ref", &w3), 0);
	assert_true(w3.n == 7 && w3.k == 2 && w3.n_earlier == 6);
	strbuf_release(&w3.others);
	/* red team 134: an earlier batch's faster verdict on boxes an
	 * unverified bubblewrap made (either side), or on no box, decides
	 * nothing (it counted toward the majority: 2 of 6); a slower one on
	 * such runs still counts against; verified runs count as before */
	const char *faster_earlier[] = { "20260201T0000031Z-ev-c", "20260201T0000030Z-ev-ref" };
	for (int side = 0; side < 3; side++) {
		if (side < 2)
			set_run_verified(root, faster_earlier[side], "no");
		else
			set_run_sandbox(root, faster_earlier[0], "none");
		set_run_verified(root, "20260201T0000021Z-ev-c", "no");
		struct query qu = QUERY_INIT;
		struct eval_pooled wu = EVAL_POOLED_INIT;
		assert_int_equal(query_open(&qu, root), 0);
		assert_int_equal(eval_pool_batches(&qu, NULL, "20260201T0000099Z-ev-9-batch", "c", "ref", &wu), 0);
		assert_int_equal(wu.n, 6);
		assert_int_equal(wu.k, 1);
		assert_non_null(strstr(wu.others.buf, "slower (20260201T0000029Z-ev-2-batch)"));
		strbuf_release(&wu.others);
		query_release(&qu);
		set_run_verified(root, faster_earlier[side < 2 ? side : 0], "yes");
		if (side == 2)
			set_run_sandbox(root, faster_earlier[0], "bubblewrap");
	}
	set_run_verified(root, "20260201T0000021Z-ev-c", "yes");
	/* red team 138: a faster verdict of runs asked for fewer than 10
	 * timed checks (timed_checks 0: promoted 16.238x) decides nothing
	 * either; at 10 it counts again */
	for (int want = 0; want <= 10; want += 10) {
		set_run_wanted(root, "20260201T0000031Z-ev-c", want);
		struct query qt = QUERY_INIT;
		struct eval_pooled wt = EVAL_POOLED_INIT;
		assert_int_equal(query_open(&qt, root), 0);
		assert_int_equal(eval_pool_batches(&qt, NULL, "20260201T0000099Z-ev-9-batch", "c", "ref", &wt), 0);
		assert_int_equal(wt.n, want ? 7 : 6);
		assert_int_equal(wt.k, want ? 2 : 1);
		strbuf_release(&wt.others);
		query_release(&qt);
	}
	/* red team 136: a batch of another problem plug-in (its runs' hash:
	 * batches keep none) is no rerun of this one's (batch 3's faster
	 * counted, from a rowsum whose timing distribution was another) */
	for (int i = 1; i <= 9; i++) {
		char *r0 = xstrfmt("20260201T0000%02d0Z-ev-ref", i), *r1 = xstrfmt("20260201T0000%02d1Z-ev-c", i);
		set_run_plugin(root, r0, i == 3 ? "pluginB" : "pluginA");
		set_run_plugin(root, r1, i == 3 ? "pluginB" : "pluginA");
		free(r0);
		free(r1);
	}
	struct query qp = QUERY_INIT;
	struct eval_pooled wp = EVAL_POOLED_INIT;
	assert_int_equal(query_open(&qp, root), 0);
	assert_int_equal(eval_pool_batches(&qp, NULL, "20260201T0000099Z-ev-9-batch", "c", "ref", &wp), 0);
	assert_true(wp.n == 6 && wp.k == 1);
	strbuf_release(&wp.others);
	query_release(&qp);
	set_run_plugin(root, "20260201T0000030Z-ev-ref", "pluginA");
	set_run_plugin(root, "20260201T0000031Z-ev-c", "pluginA");
	struct query qv = QUERY_INIT;
	struct eval_pooled wv = EVAL_POOLED_INIT;
	assert_int_equal(query_open(&qv, root), 0);
	assert_int_equal(eval_pool_batches(&qv, NULL, "20260201T0000099Z-ev-9-batch", "c", "ref", &wv), 0);
	assert_true(wv.n == 7 && wv.k == 2);
	strbuf_release(&wv.others);
	query_release(&qv);
	/* neither code the baseline (a sweep around a third code, b3): only
	 * against.  Batch 70: the candidate's median CI wholly under the
	 * reference's decides nothing (red team 141: counted faster, one-
	 * process sweeps promoted a candidate the reference had beaten);
	 * batch 71: wholly above counts against (red team 140's sweeps) */
	assert_int_equal(store_open(&st, root, 1), 0);
	for (int i = 70; i <= 71; i++) {
		char refsha[SHA256_HEX_LEN + 1], osha[SHA256_HEX_LEN + 1];
		sha256_hex("ref", 3, refsha);
		sha256_hex("other", 5, osha);
		char *bid = xstrfmt("20260201T0000%02d9Z-ev-%d-batch", i, i), *oid = xstrfmt("20260201T0000%02d2Z-ev-b3", i),
		     *rid = xstrfmt("20260201T0000%02d0Z-ev-ref", i), *cid = xstrfmt("20260201T0000%02d1Z-ev-c", i);
		put_run(&st, oid, "b3", bid, "other.c", osha, "obin", NULL, 256, "ok");
		put_run(&st, rid, "ref", bid, "ref.c", refsha, "refbin", NULL, 256, "ok");
		put_run(&st, cid, "c", bid, "c.c", csha, "cbin", "cneutral", 256, "ok");
		json_t *rows = json_pack("[o, o, o]", row_of("b3", oid, "ok", NULL), row_of("ref", rid, "ok", "inconclusive"),
					 row_of("c", cid, "ok", "inconclusive"));
		json_t *b = json_pack("{s:s, s:s, s:s, s:s, s:s, s:{s:{s:s, s:b}}, s:{s:I, s:f, s:f}, s:{s:s, s:s, "
				      "s:{s:i}, s:[s]}, s:o}",
				      "kind", "batch", "format", "evident-batch/1", "experiment", "ev", "batch_id", bid,
				      "baseline", "b3", "code", "git", "commit", "0123456789abcdef", "dirty", 0, "holm",
				      "comparisons", (json_int_t)2, "alpha", 0.05, "threshold", 0.01, "problem", "name", "p2",
				      "dtype", "fp32", "shape", "N", 256, "dims", "N", "variants", rows);
		assert_int_equal(store_commit(&st, bid, b), 0);
		json_decref(b);
		free(bid);
		free(oid);
		free(rid);
		free(cid);
	}
	store_release(&st);
	for (int i = 70; i <= 71; i++) /* the plug-in of batches 1-9 (set above) */
		for (int k = 0; k < 3; k++) {
			char *id = xstrfmt("20260201T0000%02d%dZ-ev-%s", i, k, k == 0 ? "ref" : k == 1 ? "c" : "b3");
			set_run_plugin(root, id, "pluginA");
			free(id);
		}
	set_row_stats(root, "20260201T0000709Z-ev-70-batch", 1, 100, 95, 105);
	set_row_stats(root, "20260201T0000709Z-ev-70-batch", 2, 10, 9, 11);
	set_row_stats(root, "20260201T0000719Z-ev-71-batch", 1, 100, 95, 105);
	set_row_stats(root, "20260201T0000719Z-ev-71-batch", 2, 200, 190, 210);
	struct query qs = QUERY_INIT;
	struct eval_pooled ws = EVAL_POOLED_INIT;
	assert_int_equal(query_open(&qs, root), 0);
	assert_int_equal(eval_pool_batches(&qs, NULL, "20260201T0000099Z-ev-9-batch", "c", "ref", &ws), 0);
	assert_int_equal(ws.n, 8);
	assert_int_equal(ws.k, 2);
	assert_non_null(strstr(ws.others.buf, "-ev-71-batch"));
	assert_null(strstr(ws.others.buf, "-ev-70-batch"));
	strbuf_release(&ws.others);
	query_release(&qs);
	/* the reference renamed to a byte-identical copy (one object file,
	 * objects being linked stripped) still counts, against (red team
	 * 142: batch 2, slower, was left out, 7 of 7 weighed); a copy whose
	 * file differs where the loader does not map (the same load_sha256,
	 * another binary) is another program, which can read its own file
	 * (red team 180's nametag), and is left out */
	set_run_code(root, "20260201T0000090Z-ev-ref", NULL, NULL, "refload", NULL);
	set_run_code(root, "20260201T0000020Z-ev-ref", "refcopy.c", NULL, "refload", NULL);
	for (int distinct = 0; distinct < 2; distinct++) {
		if (distinct)
			set_run_code(root, "20260201T0000020Z-ev-ref", NULL, "refbin2", NULL, NULL);
		struct query ql = QUERY_INIT;
		struct eval_pooled wl = EVAL_POOLED_INIT;
		assert_int_equal(query_open(&ql, root), 0);
		assert_int_equal(eval_pool_batches(&ql, NULL, "20260201T0000099Z-ev-9-batch", "c", "ref", &wl), 0);
		assert_int_equal(wl.n, distinct ? 7 : 8);
		assert_int_equal(wl.k, 2);
		if (distinct)
			assert_null(strstr(wl.others.buf, "-ev-2-batch"));
		else
			assert_non_null(strstr(wl.others.buf, "slower (20260201T0000029Z-ev-2-batch)"));
		strbuf_release(&wl.others);
		query_release(&ql);
	}
	set_run_code(root, "20260201T0000020Z-ev-ref", NULL, "refbin", NULL, NULL);
	/* batch 72: two rows of the candidate's one code beside the
	 * reference (the baseline), the first faster, the second slower: one
	 * vote, not faster (red team 143: pool_row_of weighed the first row
	 * alone, so a spec's row order chose the batch's vote) */
	assert_int_equal(store_open(&st, root, 1), 0);
	{
		char refsha[SHA256_HEX_LEN + 1];
		sha256_hex("ref", 3, refsha);
		const char *bid = "20260201T0000729Z-ev-72-batch", *rid = "20260201T0000720Z-ev-ref",
			   *cid = "20260201T0000721Z-ev-c", *c2id = "20260201T0000722Z-ev-c2";
		put_run(&st, rid, "ref", bid, "ref.c", refsha, "refbin", NULL, 256, "ok");
		put_run(&st, cid, "c", bid, "c.c", csha, "cbin", "cneutral", 256, "ok");
		put_run(&st, c2id, "c2", bid, "c.c", csha, "cbin", "cneutral", 256, "ok");
		json_t *rows = json_pack("[o, o, o]", row_of("ref", rid, "ok", NULL), row_of("c", cid, "ok", "faster"),
					 row_of("c2", c2id, "ok", "slower"));
		json_t *b = json_pack("{s:s, s:s, s:s, s:s, s:s, s:{s:{s:s, s:b}}, s:{s:I, s:f, s:f}, s:{s:s, s:s, "
				      "s:{s:i}, s:[s]}, s:o}",
				      "kind", "batch", "format", "evident-batch/1", "experiment", "ev", "batch_id", bid,
				      "baseline", "ref", "code", "git", "commit", "0123456789abcdef", "dirty", 0, "holm",
				      "comparisons", (json_int_t)2, "alpha", 0.05, "threshold", 0.01, "problem", "name", "p2",
				      "dtype", "fp32", "shape", "N", 256, "dims", "N", "variants", rows);
		assert_int_equal(store_commit(&st, bid, b), 0);
		json_decref(b);
	}
	store_release(&st);
	set_run_plugin(root, "20260201T0000720Z-ev-ref", "pluginA");
	set_run_plugin(root, "20260201T0000721Z-ev-c", "pluginA");
	set_run_plugin(root, "20260201T0000722Z-ev-c2", "pluginA");
	set_run_code(root, "20260201T0000720Z-ev-ref", NULL, NULL, "refload", NULL);
	struct query qd = QUERY_INIT;
	struct eval_pooled wd = EVAL_POOLED_INIT;
	assert_int_equal(query_open(&qd, root), 0);
	assert_int_equal(eval_pool_batches(&qd, NULL, "20260201T0000099Z-ev-9-batch", "c", "ref", &wd), 0);
	assert_int_equal(wd.n, 9);
	assert_int_equal(wd.k, 2);
	assert_non_null(strstr(wd.others.buf, "not faster in every row of the code (20260201T0000729Z-ev-72-batch)"));
	strbuf_release(&wd.others);
	query_release(&qd);
	/* no such batch */
	struct eval_pooled w2 = EVAL_POOLED_INIT;
	assert_int_equal(eval_pool_batches(&q, pool, "20260201T0000999Z-ev-x-batch", "c", "ref", &w2), -1);
	assert_int_equal(w2.n, 0);
	strbuf_release(&w2.others);
	eval_pool_free(pool);
	query_release(&q);
	/* red team 51: the reference ran 8x slower than in its first batch
	 * (a kernel counting its own runs): drifted, whatever the verdict */
	assert_int_equal(store_open(&st, root, 1), 0);
	put_pair(&st, 11, "c.c", csha, "cbin", "cneutral", "ok", "faster", 2048, 0, 0);
	put_pair(&st, 12, "c.c", csha, "cbin", "cneutral", "ok", "faster", 2048, 0, 0);
	put_pair(&st, 13, "c.c", csha, "cbin", "cneutral", "ok", "faster", 2048, 0, 0);
	store_release(&st);
	set_ref_stats(root, "20260201T0000119Z-ev-11-batch", 75.0, 70.0, 80.0);
	set_ref_stats(root, "20260201T0000129Z-ev-12-batch", 79.0, 74.0, 85.0); /* within the margin */
	set_ref_stats(root, "20260201T0000139Z-ev-13-batch", 630.0, 600.0, 660.0);
	assert_int_equal(query_open(&q, root), 0);
	struct eval_pooled d12 = EVAL_POOLED_INIT, d13 = EVAL_POOLED_INIT, d11 = EVAL_POOLED_INIT;
	assert_int_equal(eval_pool_batches(&q, NULL, "20260201T0000129Z-ev-12-batch", "c", "ref", &d12), 0);
	assert_int_equal(eval_pool_batches(&q, NULL, "20260201T0000139Z-ev-13-batch", "c", "ref", &d13), 0);
	assert_int_equal(eval_pool_batches(&q, NULL, "20260201T0000119Z-ev-11-batch", "c", "ref", &d11), 0);
	assert_false(d12.ref_drifted);
	assert_true(d13.ref_drifted);
	assert_false(d11.ref_drifted); /* the fastest is its own batch (12 is not faster) */
	assert_string_equal(d13.ref_best_batch, "20260201T0000119Z-ev-11-batch");
	assert_true(d13.ref_best_median == 75.0 && d13.ref_median == 630.0);
	assert_false(d13.cand_beats_ref_best); /* the candidate has no statistics */
	query_release(&q);
	/* red team 62 d: a candidate whose median CI lies wholly under the
	 * reference's fastest median (75 us) is faster than the reference's
	 * code ever ran: the drift does not hold it; one whose median alone
	 * lies under it is held */
	set_row_stats(root, "20260201T0000139Z-ev-13-batch", 1, 40.0, 35.0, 45.0);
	assert_int_equal(query_open(&q, root), 0);
	struct eval_pooled d13b = EVAL_POOLED_INIT;
	assert_int_equal(eval_pool_batches(&q, NULL, "20260201T0000139Z-ev-13-batch", "c", "ref", &d13b), 0);
	assert_true(d13b.ref_drifted && d13b.cand_beats_ref_best);
	strbuf_release(&d13b.others);
	query_release(&q);
	set_row_stats(root, "20260201T0000139Z-ev-13-batch", 1, 70.0, 60.0, 90.0);
	assert_int_equal(query_open(&q, root), 0);
	struct eval_pooled d13c = EVAL_POOLED_INIT;
	assert_int_equal(eval_pool_batches(&q, NULL, "20260201T0000139Z-ev-13-batch", "c", "ref", &d13c), 0);
	assert_true(d13c.ref_drifted && !d13c.cand_beats_ref_best);
	strbuf_release(&d13c.others);
	strbuf_release(&d11.others);
	strbuf_release(&d12.others);
	strbuf_release(&d13.others);
	query_release(&q);
	/* red team 59: a fast batch with one slow process of three has a CI
	 * up to the slow speed (14), and the reference's fast row beside
	 * another baseline (17): both are its fastest, by their medians */
	assert_int_equal(store_open(&st, root, 1), 0);
	put_pair(&st, 14, "c.c", csha, "cbin", "cneutral", "ok", "faster", 4096, 0, 0);
	put_pair(&st, 15, "c.c", csha, "cbin", "cneutral", "ok", "faster", 4096, 0, 0);
	put_pair(&st, 17, "c.c", csha, "cbin", "cneutral", "ok", "faster", 8192, 1, 0);
	put_pair(&st, 18, "c.c", csha, "cbin", "cneutral", "ok", "faster", 8192, 0, 0);
	store_release(&st);
	set_ref_stats(root, "20260201T0000149Z-ev-14-batch", 97.19, 57.06, 737.65);
	set_ref_stats(root, "20260201T0000159Z-ev-15-batch", 687.3, 627.0, 740.0);
	set_ref_stats(root, "20260201T0000179Z-ev-17-batch", 116.34, 73.01, 173.34);
	set_ref_stats(root, "20260201T0000189Z-ev-18-batch", 700.0, 650.0, 760.0);
	assert_int_equal(query_open(&q, root), 0);
	struct eval_pooled d15 = EVAL_POOLED_INIT, d18 = EVAL_POOLED_INIT;
	assert_int_equal(eval_pool_batches(&q, NULL, "20260201T0000159Z-ev-15-batch", "c", "ref", &d15), 0);
	assert_true(d15.ref_drifted);
	assert_string_equal(d15.ref_best_batch, "20260201T0000149Z-ev-14-batch");
	assert_int_equal(eval_pool_batches(&q, NULL, "20260201T0000189Z-ev-18-batch", "c", "ref", &d18), 0);
	assert_true(d18.ref_drifted);
	assert_string_equal(d18.ref_best_batch, "20260201T0000179Z-ev-17-batch");
	struct eval_fastest f;
	assert_int_equal(eval_fastest_elsewhere(&q, NULL, "20260201T0000189Z-ev-18-batch", "ref", &f), 0);
	assert_true(f.best_median == 116.34 && f.now_median == 700.0);
	assert_int_equal(eval_fastest_elsewhere(&q, NULL, "20260201T0000189Z-ev-18-batch", "nosuch", &f), -1);
	strbuf_release(&d15.others);
	strbuf_release(&d18.others);
	query_release(&q);
	/* red team 60: a reference slow in most of its launches and not in
	 * the rest has a CI whose low end is under the margin (554.83 against
	 * 1.25 x 445.69) while its median is 2x: the median decides */
	assert_int_equal(store_open(&st, root, 1), 0);
	put_pair(&st, 19, "c.c", csha, "cbin", "cneutral", "ok", "faster", 16384, 0, 0);
	put_pair(&st, 20, "c.c", csha, "cbin", "cneutral", "ok", "faster", 16384, 0, 0);
	store_release(&st);
	set_ref_stats(root, "20260201T0000199Z-ev-19-batch", 445.69, 400.0, 500.0);
	set_ref_stats(root, "20260201T0000209Z-ev-20-batch", 900.0, 554.83, 944.82);
	assert_int_equal(query_open(&q, root), 0);
	struct eval_pooled d20 = EVAL_POOLED_INIT;
	assert_int_equal(eval_pool_batches(&q, NULL, "20260201T0000209Z-ev-20-batch", "c", "ref", &d20), 0);
	assert_true(d20.ref_drifted);
	strbuf_release(&d20.others);
	query_release(&q);
	/* red team 61: the reference's fast batch was flaky (half its
	 * processes crashed on purpose): no statistics of the row's own, but
	 * its ok run was timed at 400 us, and that is its speed */
	assert_int_equal(store_open(&st, root, 1), 0);
	put_pair(&st, 21, "c.c", csha, "cbin", "cneutral", "ok", "faster", 65536, 0, 0);
	put_pair(&st, 22, "c.c", csha, "cbin", "cneutral", "ok", "faster", 65536, 0, 0);
	store_release(&st);
	set_ref_outcome(root, "20260201T0000219Z-ev-21-batch", "flaky");
	set_run_median(root, "20260201T0000210Z-ev-ref", 400.0);
	set_ref_stats(root, "20260201T0000229Z-ev-22-batch", 900.0, 850.0, 950.0);
	assert_int_equal(query_open(&q, root), 0);
	struct eval_pooled d22 = EVAL_POOLED_INIT;
	assert_int_equal(eval_pool_batches(&q, NULL, "20260201T0000229Z-ev-22-batch", "c", "ref", &d22), 0);
	assert_true(d22.ref_drifted);
	assert_string_equal(d22.ref_best_batch, "20260201T0000219Z-ev-21-batch");
	assert_true(d22.ref_best_median == 400.0);
	strbuf_release(&d22.others);
	query_release(&q);
	/* red team 62: every process of the reference's fast batch crashed
	 * after its timed samples (no ok run, no statistics): the samples
	 * each reported are its speed (23: 9 samples from 300 us, median
	 * 304); a run with fewer than QUERY_SPEED_MIN_SAMPLES says nothing
	 * (25: 4 samples from 100 us) */
	assert_int_equal(store_open(&st, root, 1), 0);
	put_pair(&st, 23, "c.c", csha, "cbin", "cneutral", "ok", "faster", 131072, 0, 0);
	put_pair(&st, 24, "c.c", csha, "cbin", "cneutral", "ok", "faster", 131072, 0, 0);
	put_pair(&st, 25, "c.c", csha, "cbin", "cneutral", "ok", "faster", 131072, 0, 0);
	store_release(&st);
	set_ref_outcome(root, "20260201T0000239Z-ev-23-batch", "crashed");
	set_run_crashed(root, "20260201T0000230Z-ev-ref", 9, 300.0);
	set_ref_outcome(root, "20260201T0000259Z-ev-25-batch", "crashed");
	set_run_crashed(root, "20260201T0000250Z-ev-ref", 4, 100.0);
	set_ref_stats(root, "20260201T0000249Z-ev-24-batch", 900.0, 850.0, 950.0);
	/* red team 66: a crashed run none of whose timed checks passed (none
	 * drawn, or every one failed) is no speed: nothing shows its samples
	 * did the work */
	assert_int_equal(query_open(&q, root), 0);
	struct eval_pooled d24u = EVAL_POOLED_INIT;
	assert_int_equal(eval_pool_batches(&q, NULL, "20260201T0000249Z-ev-24-batch", "c", "ref", &d24u), 0);
	assert_false(d24u.ref_drifted);
	strbuf_release(&d24u.others);
	query_release(&q);
	set_run_checks(root, "20260201T0000230Z-ev-ref", 0, 1);
	assert_int_equal(query_open(&q, root), 0);
	struct eval_pooled d24w = EVAL_POOLED_INIT;
	assert_int_equal(eval_pool_batches(&q, NULL, "20260201T0000249Z-ev-24-batch", "c", "ref", &d24w), 0);
	assert_false(d24w.ref_drifted);
	strbuf_release(&d24w.others);
	query_release(&q);
	/* one of its drawn checks passed: its samples did the work */
	set_run_checks(root, "20260201T0000230Z-ev-ref", 1, 0);
	assert_int_equal(query_open(&q, root), 0);
	struct eval_pooled d24 = EVAL_POOLED_INIT;
	assert_int_equal(eval_pool_batches(&q, NULL, "20260201T0000249Z-ev-24-batch", "c", "ref", &d24), 0);
	assert_true(d24.ref_drifted);
	assert_string_equal(d24.ref_best_batch, "20260201T0000239Z-ev-23-batch");
	assert_true(d24.ref_best_median == 304.0);
	strbuf_release(&d24.others);
	query_release(&q);
	/* red team 63: (b) a flaky row whose crashed repeats the kernel
	 * slowed (2000 us) beside an ok 300 us: its speed is its fastest
	 * run's, not their median; (a) then a row whose repeat 0 crashed at
	 * a correctness seed (no timing: no cache or clock) and whose repeats
	 * 1 and 2 ran ok at 250 and 260 us: the same code timed the same way,
	 * by its timed runs */
	assert_int_equal(store_open(&st, root, 1), 0);
	put_pair(&st, 27, "c.c", csha, "cbin", "cneutral", "ok", "faster", 262144, 0, 0);
	store_release(&st);
	set_ref_stats(root, "20260201T0000279Z-ev-27-batch", 900.0, 850.0, 950.0);
	{
		/* the current batch's reference run timed as the repeats are */
		char *path = xstrfmt("%s/runs/20260201T0000270Z-ev-ref.json", root);
		json_error_t je;
		json_t *r = json_load_file(path, 0, &je);
		assert_non_null(r);
		json_object_set_new(json_object_get(r, "timing"), "clock", json_string("host"));
		json_object_set_new(json_object_get(r, "timing"), "cache", json_string("hot"));
		assert_int_equal(json_dump_file(r, path, JSON_INDENT(1)), 0);
		json_decref(r);
		free(path);
	}
	put_ref_repeats(root, 28, "flaky", 1, 2000.0, "ok", 300.0, "crashed", 2000.0);
	assert_int_equal(query_open(&q, root), 0);
	struct eval_pooled d27 = EVAL_POOLED_INIT;
	assert_int_equal(eval_pool_batches(&q, NULL, "20260201T0000279Z-ev-27-batch", "c", "ref", &d27), 0);
	assert_true(d27.ref_drifted);
	assert_string_equal(d27.ref_best_batch, "20260201T0000289Z-ev-28-batch");
	assert_true(d27.ref_best_median == 300.0);
	strbuf_release(&d27.others);
	query_release(&q);
	put_ref_repeats(root, 26, "flaky", 0, 0.0, "ok", 250.0, "ok", 260.0);
	assert_int_equal(query_open(&q, root), 0);
	struct eval_pooled d27a = EVAL_POOLED_INIT;
	assert_int_equal(eval_pool_batches(&q, NULL, "20260201T0000279Z-ev-27-batch", "c", "ref", &d27a), 0);
	assert_string_equal(d27a.ref_best_batch, "20260201T0000269Z-ev-26-batch");
	assert_true(d27a.ref_best_median == 250.0);
	strbuf_release(&d27a.others);
	query_release(&q);
	/* red team 64: a run whose timed checks failed (wrong_output at 100
	 * us, 0 of 12 passed) is no speed of the code; nor, since red teams
	 * 67 and 68, one wrong in 1 of 12 (a kernel that passes the stress
	 * distributions' checks kept fewer failed than passed) */
	put_ref_repeats(root, 29, "flaky", 1, 2000.0, "ok", 900.0, "wrong_output", 100.0);
	set_run_checks(root, "20260201T0000294Z-ev-ref2", 0, 12);
	assert_ref_best(root, "20260201T0000279Z-ev-27-batch", "20260201T0000269Z-ev-26-batch", 250.0);
	set_run_checks(root, "20260201T0000294Z-ev-ref2", 11, 1);
	assert_ref_best(root, "20260201T0000279Z-ev-27-batch", "20260201T0000269Z-ev-26-batch", 250.0);
	/* every check passed: its samples are its speed */
	set_run_checks(root, "20260201T0000294Z-ev-ref2", 12, 0);
	assert_ref_best(root, "20260201T0000279Z-ev-27-batch", "20260201T0000299Z-ev-29-batch", 100.0);
	/* red team 67: a run that did not end ok while its draw still owed
	 * checks (no held sample left to give them to) is no speed, its one
	 * passed check aside */
	set_run_checks(root, "20260201T0000294Z-ev-ref2", 1, 0);
	set_run_owed(root, "20260201T0000294Z-ev-ref2", 9);
	assert_ref_best(root, "20260201T0000279Z-ev-27-batch", "20260201T0000269Z-ev-26-batch", NAN);
	set_run_owed(root, "20260201T0000294Z-ev-ref2", 0);
	/* red team 68: escapes count against the samples that are the time,
	 * not the stress distributions' (10 escaped of 12 timing samples and
	 * 30 stress ones: refuted) */
	set_run_escapes(root, "20260201T0000294Z-ev-ref2", 10, 12, 30);
	assert_ref_best(root, "20260201T0000279Z-ev-27-batch", "20260201T0000269Z-ev-26-batch", NAN);
	/* (5 of 12 escaped: under half, its speed stands) */
	set_run_escapes(root, "20260201T0000294Z-ev-ref2", 5, 12, 30);
	assert_ref_best(root, "20260201T0000279Z-ev-27-batch", "20260201T0000299Z-ev-29-batch", NAN);
	/* red team 69: an ok run whose judge asked for no timed check speaks
	 * for nothing, nor its ok row (batch 26's 250 us run: the 260 us one
	 * of the same row now reads through the row's runs) */
	set_run_escapes(root, "20260201T0000294Z-ev-ref2", 12, 12, 30);
	assert_ref_best(root, "20260201T0000279Z-ev-27-batch", "20260201T0000269Z-ev-26-batch", 250.0);
	set_run_judge(root, "20260201T0000263Z-ev-ref1", 0, "fixed");
	assert_ref_best(root, "20260201T0000279Z-ev-27-batch", "20260201T0000269Z-ev-26-batch", 260.0);
	/* nor one asked for fewer than REC_TIMED_CHECKS_MIN (1 of 26 runs at
	 * one check kept a fake speed); ten vouch for it */
	set_run_judge(root, "20260201T0000263Z-ev-ref1", 3, "fixed");
	assert_ref_best(root, "20260201T0000279Z-ev-27-batch", "20260201T0000269Z-ev-26-batch", 260.0);
	set_run_judge(root, "20260201T0000263Z-ev-ref1", 10, "fixed");
	assert_ref_best(root, "20260201T0000279Z-ev-27-batch", "20260201T0000269Z-ev-26-batch", 250.0);
	/* red team 71: a run judged by a weaker judge than the default is no
	 * speed: a tolerance looser than the problem's (tolzero), no box
	 * (forkpre, --unsandboxed) */
	set_run_tolerance(root, "20260201T0000263Z-ev-ref1", 1.0, 1e-5);
	assert_ref_best(root, "20260201T0000279Z-ev-27-batch", "20260201T0000269Z-ev-26-batch", 260.0);
	set_run_tolerance(root, "20260201T0000263Z-ev-ref1", 1e-5, 1e-5);
	assert_ref_best(root, "20260201T0000279Z-ev-27-batch", "20260201T0000269Z-ev-26-batch", 250.0);
	set_run_sandbox(root, "20260201T0000263Z-ev-ref1", "none");
	assert_ref_best(root, "20260201T0000279Z-ev-27-batch", "20260201T0000269Z-ev-26-batch", 260.0);
	set_run_sandbox(root, "20260201T0000263Z-ev-ref1", "bubblewrap");
	assert_ref_best(root, "20260201T0000279Z-ev-27-batch", "20260201T0000269Z-ev-26-batch", 250.0);
	/* red team 69's adaptcrash: a run of the adaptive draw that did not
	 * end ok stopped where the kernel chose (the 100 us wrong_output run
	 * of batch 29, its checks all passed) */
	set_run_escapes(root, "20260201T0000294Z-ev-ref2", 0, 12, 30);
	assert_ref_best(root, "20260201T0000279Z-ev-27-batch", "20260201T0000299Z-ev-29-batch", 100.0);
	set_run_judge(root, "20260201T0000294Z-ev-ref2", 10, "adaptive");
	assert_ref_best(root, "20260201T0000279Z-ev-27-batch", "20260201T0000269Z-ev-26-batch", 250.0);
	/* red team 87's drift: the reference's fast batch ran a comment-only
	 * copy of it (another file name and content, one object: linked
	 * stripped, red team 178): its history all the same (before: not
	 * drifted, built identity only); the same loaded image in another
	 * binary is another program, which reads its own file (red team 180's
	 * nametag held honest challengers by such a copy's fast row): no
	 * history of it */
	assert_int_equal(store_open(&st, root, 1), 0);
	put_pair(&st, 40, "c.c", csha, "cbin", "cneutral", "ok", "faster", 5000, 0, 0);
	put_pair(&st, 41, "c.c", csha, "cbin", "cneutral", "ok", "faster", 5000, 0, 0);
	store_release(&st);
	set_ref_stats(root, "20260201T0000409Z-ev-40-batch", 100.0, 95.0, 105.0);
	set_ref_stats(root, "20260201T0000419Z-ev-41-batch", 700.0, 650.0, 760.0);
	set_run_code(root, "20260201T0000400Z-ev-ref", "refg.c", "refbin", "refload", NULL);
	set_run_code(root, "20260201T0000410Z-ev-ref", NULL, NULL, "refload", NULL);
	assert_int_equal(query_open(&q, root), 0);
	struct eval_pooled d41 = EVAL_POOLED_INIT;
	assert_int_equal(eval_pool_batches(&q, NULL, "20260201T0000419Z-ev-41-batch", "c", "ref", &d41), 0);
	assert_true(d41.ref_drifted);
	assert_string_equal(d41.ref_best_batch, "20260201T0000409Z-ev-40-batch");
	strbuf_release(&d41.others);
	query_release(&q);
	set_run_code(root, "20260201T0000400Z-ev-ref", NULL, "refgbin", NULL, NULL);
	assert_int_equal(query_open(&q, root), 0);
	struct eval_pooled d41b = EVAL_POOLED_INIT;
	assert_int_equal(eval_pool_batches(&q, NULL, "20260201T0000419Z-ev-41-batch", "c", "ref", &d41b), 0);
	assert_false(d41b.ref_drifted);
	strbuf_release(&d41b.others);
	query_release(&q);
	set_run_code(root, "20260201T0000400Z-ev-ref", NULL, "refbin", NULL, NULL);
	/* red team 87's lib: one object (binary and loaded image) with two
	 * versions of the library it loads is two codes: the reference with
	 * the library at 1 pass is no history of it at 40 (before: drifted,
	 * eval held 3 of 3 honest candidates); a library by its "loaded" mark
	 * and, in records from before it, by a shared object's name */
	for (int named = 0; named < 2; named++) {
		int i = 42 + 2 * named, n = 5100 + named;
		char *b0 = xstrfmt("20260201T0000%d9Z-ev-%d-batch", i, i), *b1 = xstrfmt("20260201T0000%d9Z-ev-%d-batch", i + 1, i + 1);
		char *r0 = xstrfmt("20260201T0000%d0Z-ev-ref", i), *r1 = xstrfmt("20260201T0000%d0Z-ev-ref", i + 1);
		const char *lib = named ? "/tmp/lib/librt.so.1" : "/tmp/lib/rtpass";
		assert_int_equal(store_open(&st, root, 1), 0);
		put_pair(&st, i, "c.c", csha, "cbin", "cneutral", "ok", "faster", n, 0, 0);
		put_pair(&st, i + 1, "c.c", csha, "cbin", "cneutral", "ok", "faster", n, 0, 0);
		store_release(&st);
		set_ref_stats(root, b0, 100.0, 95.0, 105.0);
		set_ref_stats(root, b1, 700.0, 650.0, 760.0);
		set_run_code(root, r0, NULL, NULL, "refload", NULL);
		set_run_code(root, r1, NULL, NULL, "refload", NULL);
		add_run_library(root, r0, lib, "pass1", !named);
		add_run_library(root, r1, lib, "pass40", !named);
		assert_int_equal(query_open(&q, root), 0);
		struct eval_pooled dl = EVAL_POOLED_INIT;
		assert_int_equal(eval_pool_batches(&q, NULL, b1, "c", "ref", &dl), 0);
		assert_false(dl.ref_drifted);
		strbuf_release(&dl.others);
		query_release(&q);
		/* the same library both times: one code, drifted */
		add_run_library(root, r0, lib, "pass40", !named);
		assert_int_equal(query_open(&q, root), 0);
		struct eval_pooled ds = EVAL_POOLED_INIT;
		assert_int_equal(eval_pool_batches(&q, NULL, b1, "c", "ref", &ds), 0);
		assert_true(ds.ref_drifted);
		strbuf_release(&ds.others);
		query_release(&q);
		free(b0);
		free(b1);
		free(r0);
		free(r1);
	}
	const char *const rm[] = { "rm", "-rf", dir, NULL };
	struct run_opts o = { .argv = rm };
	struct run_result r;
	assert_int_equal(run_command(&o, &r), 0);
	assert_true(r.exited && r.exit_code == 0);
	free(root);
}

/* eval's "the reference's code" by an object's hash (binary,
 * echo-neutral, loaded image) asks for the same libraries too, as the
 * audit's code_identity does (a reviewer's note: one object with another
 * library was refused promotion as the reference's own code); unknown
 * identities leave the hashes alone */
/* Red team 153: a stress cost held in an earlier batch of the candidate's
 * code is held in every later one it votes in (a kernel slow on stress in
 * a fifth of its processes, resent until a batch drew none, was promoted
 * "faster in 3 of 3" with two held batches among them) */
static void test_pool_stress_held(void **state)
{
	(void)state;
	char dir[] = "/tmp/evident-test-eval.XXXXXX", csha[SHA256_HEX_LEN + 1];
	assert_non_null(mkdtemp(dir));
	char *root = xstrfmt("%s/store", dir);
	struct store st = STORE_INIT;
	assert_int_equal(store_open(&st, root, 1), 0);
	sha256_hex("cand", 4, csha);
	put_pair(&st, 1, "c.c", csha, "cbin", "cneutral", "ok", "faster", 256, 0, 0);
	put_pair(&st, 2, "c.c", csha, "cbin", "cneutral", "ok", "faster", 256, 0, 0);
	put_pair(&st, 3, "c.c", csha, "cbin", "cneutral", "ok", "faster", 256, 0, 0);
	store_release(&st);
	struct query q = QUERY_INIT;
	struct eval_pooled w = EVAL_POOLED_INIT;
	assert_int_equal(query_open(&q, root), 0);
	assert_int_equal(eval_pool_batches(&q, NULL, "20260201T0000039Z-ev-3-batch", "c", "ref", &w), 0);
	assert_true(w.n == 3 && w.k == 3 && w.stress_x == 0);
	strbuf_release(&w.others);
	query_release(&q);
	/* the first batch's row held a stress cost of 7.5x */
	char *f = xstrfmt("%s/runs/20260201T0000019Z-ev-1-batch.json", root);
	json_error_t je;
	json_t *b = json_load_file(f, 0, &je);
	assert_non_null(b);
	json_object_set_new(json_array_get(json_object_get(b, "variants"), 1), "stress_slow", json_real(7.5));
	assert_int_equal(json_dump_file(b, f, 0), 0);
	json_decref(b);
	free(f);
	struct query q2 = QUERY_INIT;
	struct eval_pooled w2 = EVAL_POOLED_INIT;
	assert_int_equal(query_open(&q2, root), 0);
	assert_int_equal(eval_pool_batches(&q2, NULL, "20260201T0000039Z-ev-3-batch", "c", "ref", &w2), 0);
	assert_true(w2.n == 3 && w2.k == 3 && w2.stress_x == 7.5);
	assert_string_equal(w2.stress_batch, "20260201T0000019Z-ev-1-batch");
	strbuf_release(&w2.others);
	query_release(&q2);
	/* red team 156: the same kernel file built otherwise (a parameter that
	 * salts its binary) is another configuration, not the same code: its
	 * held batch holds this one too */
	struct store st2 = STORE_INIT;
	assert_int_equal(store_open(&st2, root, 1), 0);
	put_pair(&st2, 4, "c.c", csha, "cbin-salted", "cneutral-salted", "ok", "faster", 256, 0, 0);
	store_release(&st2);
	struct query q3 = QUERY_INIT;
	struct eval_pooled w4 = EVAL_POOLED_INIT;
	assert_int_equal(query_open(&q3, root), 0);
	assert_int_equal(eval_pool_batches(&q3, NULL, "20260201T0000049Z-ev-4-batch", "c", "ref", &w4), 0);
	assert_true(w4.n == 1 && w4.configs == 2 && w4.stress_x == 7.5);
	assert_non_null(strstr(w4.stress_batch, "20260201T0000019Z-ev-1-batch (another configuration of its kernel)"));
	strbuf_release(&w4.others);
	query_release(&q3);
	const char *const rm[] = { "rm", "-rf", dir, NULL };
	struct run_opts o = { .argv = rm };
	struct run_result r;
	assert_int_equal(run_command(&o, &r), 0);
	assert_true(r.exited && r.exit_code == 0);
	free(root);
}

static void test_same_object_libraries(void **state)
{
	(void)state;
	json_t *ci = json_pack("{s:s, s:s, s:s}", "binary_sha256", "b1", "echo_neutral_sha256", "n1", "load_sha256", "l1");
	json_t *ri = json_deep_copy(ci);
	struct code_id ic, ir;
	memset(&ic, 0, sizeof(ic));
	memset(&ir, 0, sizeof(ir));
	snprintf(ic.libs, sizeof(ic.libs), "%s", "libs-one");
	snprintf(ir.libs, sizeof(ir.libs), "%s", "libs-two");
	int b = -1, e = -1, l = -1;
	eval_same_object(ci, ri, &ic, &ir, &b, &e, &l);
	assert_int_equal(b, 0);
	assert_int_equal(e, 0);
	assert_int_equal(l, 0);
	snprintf(ir.libs, sizeof(ir.libs), "%s", "libs-one");
	eval_same_object(ci, ri, &ic, &ir, &b, &e, &l);
	assert_int_equal(b, 1);
	assert_int_equal(e, 1);
	assert_int_equal(l, 1);
	eval_same_object(ci, ri, NULL, NULL, &b, &e, &l);
	assert_int_equal(b + e + l, 3);
	/* a comment-only copy: another binary and echo-neutral object, one
	 * loaded image, the same libraries */
	json_object_set_new(ri, "binary_sha256", json_string("b2"));
	json_object_set_new(ri, "echo_neutral_sha256", json_string("n2"));
	eval_same_object(ci, ri, &ic, &ir, &b, &e, &l);
	assert_int_equal(b, 0);
	assert_int_equal(e, 0);
	assert_int_equal(l, 1);
	/* a CUDA object: its binary hash is its device code's; the same
	 * device image with other host code (another loaded image) is not
	 * the reference's binary (red team 60) */
	json_object_set_new(ri, "binary_sha256", json_string("b1"));
	json_object_set_new(ri, "load_sha256", json_string("l2"));
	eval_same_object(ci, ri, &ic, &ir, &b, &e, &l);
	assert_int_equal(b, 0);
	assert_int_equal(l, 0);
	json_decref(ci);
	json_decref(ri);
}

/* code_identity.c same_bin: a CUDA row's binary hash is its device
 * code's; two rows with one device image and other loaded bytes (host
 * code) are not the same code by it (red team 60: a graph variant and its
 * plain twin, device-identical, were "the same code" to the audit, which
 * then called a true 0.606x the machine's); without load hashes (older
 * records) the binary decides as before */
static void test_code_same_device_image(void **state)
{
	(void)state;
	struct code_id x, y;
	memset(&x, 0, sizeof(x));
	memset(&y, 0, sizeof(y));
	x.bin = y.bin = "dev1";
	x.load = "load1";
	y.load = "load2";
	snprintf(x.code, sizeof(x.code), "%s", "codeA");
	snprintf(y.code, sizeof(y.code), "%s", "codeB");
	assert_int_equal(code_same(&x, &y), 0);
	assert_int_equal(code_same_built(&x, &y), 0);
	y.load = "load1";
	assert_int_equal(code_same(&x, &y), 1);
	x.load = y.load = NULL;
	assert_int_equal(code_same(&x, &y), 1);

	/* one code hash (sources, flags, parameters: not the file's name),
	 * two binaries and two loaded images: a byte-identical copy under
	 * another name, whose __BASE_FILE__ is in its bytes (red team 143's
	 * ref_slow.c, 8x slower, weighed as ref.c): not the same code built,
	 * though it still counts against the side that made it (code_same;
	 * never the incumbent's: red team 180's linktag, a `-Wl,-z,now` build
	 * of one source, held honest challengers as the plain build's fast
	 * history); with one loaded image, or none recorded, the code hash
	 * decides as before */
	x.bin = "binA";
	y.bin = "binB";
	snprintf(y.code, sizeof(y.code), "%s", "codeA");
	x.load = "loadA";
	y.load = "loadB";
	assert_int_equal(code_same_built(&x, &y), 0);
	assert_int_equal(code_same(&x, &y), 1);
	y.load = "loadA";
	assert_int_equal(code_same_built(&x, &y), 1);
	x.load = y.load = NULL;
	assert_int_equal(code_same_built(&x, &y), 1);
	/* host objects (bin_whole) of one code and one loaded image whose
	 * files differ (red team 145's ondisk.h read its own .symtab's FILE
	 * symbol from disk): not the same code built; with one file, or a
	 * CUDA object's bin (its device code alone), as before */
	x.load = y.load = "loadA";
	x.bin_whole = y.bin_whole = 1;
	assert_int_equal(code_same_built(&x, &y), 0);
	y.bin = "binA";
	assert_int_equal(code_same_built(&x, &y), 1);
	y.bin = "binB";
	x.bin_whole = y.bin_whole = 0;
	assert_int_equal(code_same_built(&x, &y), 1);
	/* CUDA objects (bin: the device code) of one code, one device image
	 * and one loaded image whose files differ (code.file_sha256: nvcc's
	 * .symtab names the source, so a trust: host twin could read which
	 * copy it is from disk): neither the same code built nor the same
	 * binary; one file, or none recorded (records before it), as before */
	x.bin = y.bin = "dev1";
	x.file = "fileA";
	y.file = "fileB";
	assert_int_equal(code_same_built(&x, &y), 0);
	snprintf(y.code, sizeof(y.code), "%s", "codeB");
	assert_int_equal(code_same_built(&x, &y), 0);
	/* the loaded image only against the side that made the copy (red
	 * team 181's minute copies: one image, two files, a copy's lost
	 * batch weighed against the next) */
	assert_int_equal(code_same(&x, &y), 1);
	assert_int_equal(code_same_program(&x, &y), 1);
	y.file = "fileA";
	assert_int_equal(code_same_built(&x, &y), 1);
	assert_int_equal(code_same(&x, &y), 1);
	y.file = NULL;
	snprintf(y.code, sizeof(y.code), "%s", "codeA");
	assert_int_equal(code_same_built(&x, &y), 1);
}

/* code_identity.c code_same_history: the drift rule's history is the
 * same program timed the same way under the same job as the kernel reads
 * it (red team 180's knobtag: a side batch at warmup_ms 7, one object,
 * held honest challengers); an echo-neutral twin is not in it (it reads
 * its echo) though code_same merges it */
static void test_code_same_history(void **state)
{
	(void)state;
	struct code_id x, y;
	memset(&x, 0, sizeof(x));
	memset(&y, 0, sizeof(y));
	x.bin = y.bin = "binA";
	x.bin_whole = y.bin_whole = 1;
	x.load = y.load = "loadA";
	x.cache = y.cache = "hot";
	x.clock = y.clock = "host";
	snprintf(x.code, sizeof(x.code), "%s", "codeA");
	snprintf(y.code, sizeof(y.code), "%s", "codeA");
	snprintf(x.job, sizeof(x.job), "%s", "job1");
	snprintf(y.job, sizeof(y.job), "%s", "job1");
	assert_int_equal(code_same_history(&x, &y), 1);
	snprintf(y.job, sizeof(y.job), "%s", "job2");
	assert_int_equal(code_same_history(&x, &y), 0);
	assert_int_equal(code_same_built_timed(&x, &y), 1);
	/* a row whose runs were of two jobs (code_row_one_job: its job
	 * emptied, red team 189's midbatch) is no one's history, not even
	 * another such row's */
	y.job[0] = 0;
	assert_int_equal(code_same_history(&x, &y), 0);
	x.job[0] = 0;
	assert_int_equal(code_same_history(&x, &y), 0);
	snprintf(x.job, sizeof(x.job), "%s", "job1");
	snprintf(y.job, sizeof(y.job), "%s", "job1");
	y.cache = "cold";
	assert_int_equal(code_same_history(&x, &y), 0);
	y.cache = "hot";
	/* an echo-neutral twin: another binary, another code hash */
	y.bin = "binB";
	y.load = "loadB";
	snprintf(y.code, sizeof(y.code), "%s", "codeB");
	x.neutral = y.neutral = "neu1";
	assert_int_equal(code_same(&x, &y), 1);
	assert_int_equal(code_same_history(&x, &y), 0);
}

/* code_identity.c code_orphan_weight: how a try that left runs and no
 * batch record counts for "a faster than b" (red team 94: a third code's
 * run in it kept it out; the audit and eval's pool weigh it by this one
 * rule).  a is the candidate unless a_cand is 0. */
static void test_orphan_weight(void **state)
{
	(void)state;
	struct code_orphan t;
	memset(&t, 0, sizeof(t));
	t.med_a = t.med_b = t.lo_a = t.hi_a = t.lo_b = t.hi_b = NAN;
	/* no run of either code: not a try of them */
	t.n_other = 3;
	assert_int_equal(code_orphan_weight(&t, 1, "faster", 0.01), CODE_ORPHAN_NONE);
	/* the candidate's runs only, beside a third code's: a try by its
	 * marker; without one (a store before evident run's marker) not known
	 * to be one (PAPER.md's iter1 sweep) */
	t.n_a = 2;
	t.lo_a = t.hi_a = t.med_a = 10;
	assert_int_equal(code_orphan_weight(&t, 1, "faster", 0.01), CODE_ORPHAN_NONE);
	t.marker = 1;
	assert_int_equal(code_orphan_weight(&t, 1, "faster", 0.01), CODE_ORPHAN_AGAINST);
	/* alone at the shape: a try still (red team 93's rule) */
	t.marker = 0;
	t.n_other = 0;
	assert_int_equal(code_orphan_weight(&t, 1, "faster", 0.01), CODE_ORPHAN_AGAINST);
	/* the baseline's only: by the marker alone */
	assert_int_equal(code_orphan_weight(&t, 0, "faster", 0.01), CODE_ORPHAN_NONE);
	t.marker = 1;
	assert_int_equal(code_orphan_weight(&t, 0, "faster", 0.01), CODE_ORPHAN_AGAINST);
	/* both sides, every run of a faster than every run of b: left out,
	 * third code or not */
	t.marker = 0;
	t.n_other = 4;
	t.n_b = 2;
	t.lo_a = 9, t.hi_a = 11, t.med_a = 10;
	t.lo_b = 40, t.hi_b = 50, t.med_b = 45;
	assert_int_equal(code_orphan_weight(&t, 1, "faster", 0.01), CODE_ORPHAN_ITS_WAY);
	assert_int_equal(code_orphan_weight(&t, 1, "slower", 0.01), CODE_ORPHAN_AGAINST);
	assert_int_equal(code_orphan_weight(&t, 1, "no_difference", 0.01), CODE_ORPHAN_AGAINST);
	/* one fast run of b (red team 94's kill on the reference running
	 * fast): medians apart, runs not: against */
	t.lo_b = 10.5;
	assert_int_equal(code_orphan_weight(&t, 1, "faster", 0.01), CODE_ORPHAN_AGAINST);
	/* a run of either that did not end ok: against */
	t.lo_b = 40;
	t.unclean = 1;
	assert_int_equal(code_orphan_weight(&t, 1, "faster", 0.01), CODE_ORPHAN_AGAINST);
	/* slower, and no_difference inside the band */
	t.unclean = 0;
	assert_int_equal(code_orphan_weight(&t, 0, "slower", 0.01), CODE_ORPHAN_AGAINST);
	t.lo_a = 60, t.hi_a = 70, t.med_a = 65;
	assert_int_equal(code_orphan_weight(&t, 1, "slower", 0.01), CODE_ORPHAN_ITS_WAY);
	t.lo_a = 44, t.hi_a = 46, t.med_a = 45.2;
	assert_int_equal(code_orphan_weight(&t, 1, "no_difference", 0.01), CODE_ORPHAN_ITS_WAY);
	assert_int_equal(code_orphan_weight(&t, 1, "faster", 0.01), CODE_ORPHAN_AGAINST);
	/* no statistics on a side: against */
	t.lo_a = t.hi_a = t.med_a = NAN;
	assert_int_equal(code_orphan_weight(&t, 1, "faster", 0.01), CODE_ORPHAN_AGAINST);
}


/* The candidate's row of batch bid (row 1): its comparison's p, raw and
 * adjusted. */
static void set_cand_p(const char *root, const char *bid, double pv)
{
	char *path = xstrfmt("%s/runs/%s.json", root, bid);
	json_error_t je;
	json_t *b = json_load_file(path, 0, &je);
	assert_non_null(b);
	json_t *mw = json_object_get(json_object_get(json_array_get(json_object_get(b, "variants"), 1), "comparison"),
				     "mann_whitney");
	assert_non_null(mw);
	json_object_set_new(mw, "p", json_real(pv));
	json_object_set_new(mw, "p_adjusted", json_real(pv));
	assert_int_equal(json_dump_file(b, path, JSON_INDENT(1)), 0);
	json_decref(b);
	free(path);
}

/*
 * Red team 105: a candidate tried at a new configuration each time (a
 * B x H split of the same work, a new S, a cache mode) is weighed alone at
 * each, so the first lucky batch was promoted (an A/A copy of the naive
 * kernel, try 141: 1.051x, p 0.019).  The configurations the two kernels
 * were tried in are counted as the audit counts them (code_configs.c), and
 * the batch's p adjusted over them must still read faster.
 */
static void test_pool_configurations(void **state)
{
	(void)state;
	char dir[] = "/tmp/evident-test-eval.XXXXXX", csha[SHA256_HEX_LEN + 1], tsha[SHA256_HEX_LEN + 1];
	assert_non_null(mkdtemp(dir));
	char *root = xstrfmt("%s/store", dir);
	struct store st = STORE_INIT;
	assert_int_equal(store_open(&st, root, 1), 0);
	sha256_hex("cand", 4, csha);
	sha256_hex("twin", 4, tsha);
	/* the lucky batch, faster at p 0.019, alone in its configuration */
	put_pair(&st, 1, "c.c", csha, "cbin", NULL, "ok", "faster", 300, 0, 0);
	/* another kernel at another shape: not a try of the pair */
	put_pair(&st, 2, "t.c", tsha, "tbin", NULL, "ok", "inconclusive", 330, 0, 0);
	store_release(&st);
	const char *lucky = "20260201T0000019Z-ev-1-batch";
	set_cand_p(root, lucky, 0.019);
	struct query q = QUERY_INIT;
	struct eval_pooled w0 = EVAL_POOLED_INIT;
	assert_int_equal(query_open(&q, root), 0);
	assert_int_equal(eval_pool_batches(&q, NULL, lucky, "c", "ref", &w0), 0);
	assert_true(w0.n == 1 && w0.k == 1);
	assert_int_equal(w0.configs, 1);
	assert_non_null(w0.verdict_configs);
	assert_string_equal(w0.verdict_configs, "faster");
	assert_true(fabs(w0.p_configs - 0.019) < 1e-9);
	assert_true(eval_pooled_promotes(&w0));
	strbuf_release(&w0.others);
	query_release(&q);
	/* the same two kernels tried at 20 other shapes, each the first at
	 * its own (each weighed alone: 1 of 1), and one more rerun at
	 * another shape (N=301 twice: one configuration) */
	assert_int_equal(store_open(&st, root, 1), 0);
	for (int i = 0; i < 20; i++)
		put_pair(&st, 10 + i, "c.c", csha, "cbin", NULL, "ok", "inconclusive", 301 + i, 0, 0);
	put_pair(&st, 40, "c.c", csha, "cbin", NULL, "ok", "slower", 301, 0, 0);
	store_release(&st);
	struct eval_pooled w = EVAL_POOLED_INIT;
	assert_int_equal(query_open(&q, root), 0);
	assert_int_equal(eval_pool_batches(&q, NULL, lucky, "c", "ref", &w), 0);
	/* its own configuration's batches: this one, faster */
	assert_true(w.n == 1 && w.k == 1 && w.n_earlier == 0);
	/* 1 + 20 other configurations, p 0.019 x 21: no longer faster */
	assert_int_equal(w.configs, 21);
	assert_true(fabs(w.p_configs - 0.019 * 21) < 1e-9);
	assert_non_null(w.verdict_configs);
	assert_string_equal(w.verdict_configs, "inconclusive");
	assert_false(eval_pooled_promotes(&w));
	strbuf_release(&w.others);
	/* a batch at one of those shapes counts the lucky one's shape as one
	 * configuration among the others, its own shape's reruns not (N=301:
	 * 2 weighed, 20 others) */
	struct eval_pooled w1 = EVAL_POOLED_INIT;
	assert_int_equal(eval_pool_batches(&q, NULL, "20260201T0000409Z-ev-40-batch", "c", "ref", &w1), 0);
	assert_true(w1.n == 2 && w1.k == 0);
	assert_int_equal(w1.configs, 21);
	assert_non_null(w1.verdict_configs);
	assert_string_equal(w1.verdict_configs, "inconclusive"); /* slower at p 0.01 x 21 */
	strbuf_release(&w1.others);
	query_release(&q);
	/* another cache mode at the lucky batch's shape is another
	 * configuration too (the audit's config_key: the way is in it):
	 * batch 10 (N=301, where batch 40 still is) moved to N=300, cold */
	char *rid = xstrfmt("%s/runs/20260201T0000100Z-ev-ref.json", root);
	char *cid = xstrfmt("%s/runs/20260201T0000101Z-ev-c.json", root);
	json_error_t je;
	for (int k = 0; k < 2; k++) {
		const char *f = k ? cid : rid;
		json_t *r = json_load_file(f, 0, &je);
		assert_non_null(r);
		json_object_set_new(json_object_get(r, "timing"), "cache", json_string("cold"));
		json_object_set_new(json_object_get(r, "problem"), "shape", json_pack("{s:i}", "N", 300));
		json_object_set_new(json_object_get(r, "problem"), "dims", json_pack("[s]", "N"));
		assert_int_equal(json_dump_file(r, f, JSON_INDENT(1)), 0);
		json_decref(r);
	}
	free(rid);
	free(cid);
	char *bpath = xstrfmt("%s/runs/20260201T0000109Z-ev-10-batch.json", root);
	json_t *b = json_load_file(bpath, 0, &je);
	assert_non_null(b);
	json_object_set_new(json_object_get(b, "problem"), "shape", json_pack("{s:i}", "N", 300));
	assert_int_equal(json_dump_file(b, bpath, JSON_INDENT(1)), 0);
	json_decref(b);
	free(bpath);
	struct eval_pooled w2 = EVAL_POOLED_INIT;
	assert_int_equal(query_open(&q, root), 0);
	assert_int_equal(eval_pool_batches(&q, NULL, lucky, "c", "ref", &w2), 0);
	assert_true(w2.n == 1 && w2.k == 1);
	assert_int_equal(w2.configs, 22);
	assert_false(eval_pooled_promotes(&w2));
	strbuf_release(&w2.others);
	query_release(&q);
	free(root);
}

/*
 * Red team 108: a comment line edited before each try made every try's
 * kernel file new, each "tried in 1 configuration" though all built one
 * binary.  The configurations count knows the candidate by its program
 * too: 20 shapes of a comment-only copy (another file's content, the same
 * binary) count as 20 more configurations of the pair.
 */
static void test_pool_configurations_by_program(void **state)
{
	(void)state;
	char dir[] = "/tmp/evident-test-eval.XXXXXX", csha[SHA256_HEX_LEN + 1];
	assert_non_null(mkdtemp(dir));
	char *root = xstrfmt("%s/store", dir);
	struct store st = STORE_INIT;
	assert_int_equal(store_open(&st, root, 1), 0);
	sha256_hex("cand", 4, csha);
	put_pair(&st, 1, "c.c", csha, "cbin", NULL, "ok", "faster", 300, 0, 0);
	for (int i = 0; i < 20; i++) {
		char copy[SHA256_HEX_LEN + 1], *text = xstrfmt("cand /* try %d */", i);
		sha256_hex(text, strlen(text), copy);
		put_pair(&st, 10 + i, "c.c", copy, "cbin", NULL, "ok", "inconclusive", 301 + i, 0, 0);
		free(text);
	}
	store_release(&st);
	const char *lucky = "20260201T0000019Z-ev-1-batch";
	set_cand_p(root, lucky, 0.019);
	struct query q = QUERY_INIT;
	struct eval_pooled w = EVAL_POOLED_INIT;
	assert_int_equal(query_open(&q, root), 0);
	assert_int_equal(eval_pool_batches(&q, NULL, lucky, "c", "ref", &w), 0);
	assert_int_equal(w.configs, 21);
	assert_false(eval_pooled_promotes(&w));
	strbuf_release(&w.others);
	query_release(&q);
	free(root);
}

/* Red team 250, row 5: a faster verdict that rests on the work (rule 4c's
 * size_bound) is reported and promoted at the bound, not the median's
 * speedup; an unbounded one as recorded. */
static void test_bounded_comparison(void **state)
{
	(void)state;
	struct stats_comparison c;
	memset(&c, 0, sizeof(c));
	c.speedup = 3.009;
	c.speedup_ci[0] = 2.799;
	c.speedup_ci[1] = 3.132;
	c.size_bound = 1.929;
	struct stats_comparison b = eval_bounded_comparison(&c);
	assert_true(b.speedup == 1.929 && b.speedup_ci[0] == 1.929 && b.speedup_ci[1] == 1.929);
	c.speedup_ci[0] = 1.5;
	b = eval_bounded_comparison(&c);
	assert_true(b.speedup == 1.929 && b.speedup_ci[0] == 1.5 && b.speedup_ci[1] == 1.929);
	c.size_bound = 0.6; /* slower: at least the bound */
	c.speedup = 0.4;
	c.speedup_ci[0] = 0.35;
	c.speedup_ci[1] = 0.7;
	b = eval_bounded_comparison(&c);
	assert_true(b.speedup == 0.6 && b.speedup_ci[0] == 0.6 && b.speedup_ci[1] == 0.7);
	c.size_bound = NAN;
	b = eval_bounded_comparison(&c);
	assert_true(b.speedup == 0.4 && b.speedup_ci[0] == 0.35);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_full_request),
		cmocka_unit_test(test_kernel_and_params_only),
		cmocka_unit_test(test_refusals),
		cmocka_unit_test(test_undeclared_when_none),
		cmocka_unit_test(test_lines),
		cmocka_unit_test(test_pool_resubmissions),
		cmocka_unit_test(test_pool_stress_held),
		cmocka_unit_test(test_same_object_libraries),
		cmocka_unit_test(test_code_same_device_image),
		cmocka_unit_test(test_code_same_history),
		cmocka_unit_test(test_orphan_weight),
		cmocka_unit_test(test_pool_configurations),
		cmocka_unit_test(test_pool_configurations_by_program),
		cmocka_unit_test(test_bounded_comparison),
	};
	return cmocka_run_group_tests_name("eval", tests, NULL, NULL);
}
