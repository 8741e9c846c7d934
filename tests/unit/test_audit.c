/*
 * test_audit.c - the auditor against a hand-made store (deterministic, no
 * timing): number parsing, each claim kind's verdicts where real runs
 * cannot be relied on (no-difference supported), the CI / tolerance /
 * precision rules of value claims and the cap on tolerances, which checks
 * `validated` requires (sanitizers, re-check, a check phase it has never
 * heard of; for evident-run/2 records made by the record module's writer:
 * seeds, timed launches, the extra shape and its status, the float64
 * reference check), contradicted claims staying contradicted after a code
 * change, which numbers a claim traces, `reproduced` claims against
 * batches of `evident reproduce` written by the record module, a
 * comparison of two non-baseline variants made by repeat, not pooled,
 * claims on one process a side never supported (stats.h, rule 0), and red
 * team 41's: no-difference needs the CI inside the band, widened over the
 * tries (rule 5), and `validated` asks every run the problem's tolerance;
 * red team 45's: a row of the claimed code that did not run cleanly is a
 * rerun that does not give the verdict.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "record/record.h"
#include "report/audit.h"
#include "report/audit_errata.h"
#include "store/store.h"

#include <git2.h>

static char dir[] = "/tmp/evident-test-audit.XXXXXX";

/*
 * Red team 295 row 3: a run that records neither its problem's code nor a
 * commit ran a problem whose code is unknown, and is current for no claim
 * (store/query.c query_sources_current).  So a hand-built run record
 * stands for a run since problem provenance the way a real one does: it
 * records its problem's code (problem.sources [{path, sha256}], as
 * run/plan.c problem_sources writes it), here PROBLEM_CODE, written by
 * setup and never changed.  with_problem_code adds it to run record m
 * unless m names its problem's code or a commit already (judged by those:
 * red team 294 row 2's fixtures), or put_before_provenance is set (a
 * record of an evident older than problem provenance).
 */
#define PROBLEM_CODE "problem_code.c"
static char problem_sha[SHA256_HEX_LEN + 1];
static int put_before_provenance;

static void with_problem_code(json_t *m)
{
	json_t *pr = json_object_get(m, "problem"), *git = json_object_get(json_object_get(m, "code"), "git");
	if (put_before_provenance || json_object_get(pr, "sources") ||
	    json_string_value(json_object_get(git, "commit")))
		return;
	if (!pr) {
		pr = json_object();
		json_object_set_new(m, "problem", pr);
	}
	assert_true(*problem_sha);
	json_object_set_new(pr, "sources", json_pack("[{s:s, s:s}]", "path", PROBLEM_CODE, "sha256", problem_sha));
}

/* A variant record; extra (may be NULL, stolen) is merged over it, "correctness" member by member. */
static void put_variant_x(struct store *st, const char *id, const char *variant, const char *sha,
			  const char *samples, const char *outcome, json_t *extra)
{
	char hex[SHA256_HEX_LEN + 1];
	int ok = !strcmp(outcome, "ok");
	assert_int_equal(store_put(st, samples, strlen(samples), hex), 0);
	json_t *m = json_pack("{s:s, s:s, s:s, s:s, s:s, s:s,"
			      " s:{s:b, s:i, s:[{s:b, s:I, s:f}, {s:b, s:I, s:f}], s:[{s:b, s:I}], s:f},"
			      " s:{s:[{s:s, s:s}]}, s:{s:s, s:{s:s, s:i}}, s:{s:s}, s:s, s:s, s:[]}",
			      "kind", "variant", "format", "evident-run/1", "experiment", "e", "variant", variant,
			      "batch_id", "B1", "outcome", outcome, "correctness", "pass", ok, "seeds", 2, "results",
			      "pass", ok, "seed", (json_int_t)11, "max_abs_err", 0.001, "pass", ok, "seed",
			      (json_int_t)12, "max_abs_err", 0.001, "recheck", "pass", ok, "seed", (json_int_t)12,
			      "atol", 1e-3, "code", "sources", "path", "k.c", "sha256", sha, "timing", "samples_object",
			      hex, "method", "cache", "cold", "samples_requested", 3, "device", "name",
			      "NVIDIA H100 80GB HBM3", "backend", "cuda", "started_utc", "2026-01-01T00:00:00.000Z",
			      "sanitize");
	assert_non_null(m);
	if (extra) {
		const char *k;
		json_t *v;
		json_object_foreach(extra, k, v)
		{
			if (!strcmp(k, "correctness"))
				json_object_update(json_object_get(m, "correctness"), v);
			else
				json_object_set(m, k, v);
		}
		json_decref(extra);
	}
	with_problem_code(m);
	assert_int_equal(store_commit(st, id, m), 0);
	json_decref(m);
}

/* A clean evident-run/2 record of experiment e, variant variant, kernel
 * k.c at sha (*src is its source, the caller's) with checks[0..n), the
 * caller's to fill further and commit (v2_commit). */
static void v2_base(struct run_record *r, struct rec_source *src, const char *variant, const char *sha,
		    const struct rec_check *checks, size_t n)
{
	*src = (struct rec_source){ "k.c", sha, NULL, 0 };
	memset(r, 0, sizeof(*r));
	r->experiment = "e";
	r->variant = variant;
	r->kernel = "k.c";
	r->backend = "cuda";
	r->outcome = OUTCOME_OK;
	r->repeats = 1;
	r->gpu_slot = -1;
	r->wall_s = NAN;
	r->problem.flops = r->problem.min_bytes = NAN;
	r->sources = src;
	r->n_sources = 1;
	r->correctness_pass = 1;
	r->atol = r->rtol = r->rel_l2 = 1e-3;
	r->problem_atol = r->problem_rtol = r->problem_rel_l2 = NAN; /* none stated (0 is an exact rule) */
	r->checks = (struct rec_check *)checks;
	r->n_checks = n;
	r->throttled = -1;
	r->cost.wall_s = r->cost.gpu_s = r->cost.usd = NAN;
}

static void v2_commit(struct store *st, const char *id, const struct run_record *r)
{
	json_t *m = record_run_json(r);
	with_problem_code(m);
	assert_int_equal(store_commit(st, id, m), 0);
	json_decref(m);
}

/* An evident-run/2 record through record_run_json: checks[0..n), the extra
 * shape's status, the float64 reference check (borrowed). */
static void put_v2(struct store *st, const char *id, const char *variant, const char *sha,
		   const struct rec_check *checks, size_t n, const char *shape_status, const char *shape_reason,
		   json_t *ref)
{
	struct rec_source src;
	struct run_record r;
	v2_base(&r, &src, variant, sha, checks, n);
	r.extra_shape_status = shape_status;
	r.extra_shape_reason = shape_reason;
	r.reference_check = ref;
	v2_commit(st, id, &r);
}

/* An evident-run/2 record of experiment e checked under the spec
 * tolerance spec (atol, rtol and rel_l2 alike) where the problem's own is
 * own, its three seed checks at rel L2 rel_l2 (red team 41's tol_coin: the
 * spec at 9.9x the problem's, some worker processes on an imprecise exp). */
static void put_v2_tol(struct store *st, const char *id, const char *variant, const char *sha, double spec,
		       double own, double rel_l2)
{
	struct rec_check ck[3];
	for (int i = 0; i < 3; i++)
		ck[i] = (struct rec_check){ .phase = "seed", .seed = i + 1, .dist = "uniform", .sample = -1,
					    .max_abs_err = 1e-9, .rel_l2 = rel_l2, .ref_scale = 1, .pass = 1 };
	struct rec_source src;
	struct run_record r;
	v2_base(&r, &src, variant, sha, ck, 3);
	r.atol = r.rtol = r.rel_l2 = spec;
	r.problem_atol = r.problem_rtol = r.problem_rel_l2 = own;
	r.extra_shape_status = "checked";
	v2_commit(st, id, &r);
}

/*
 * A batch of experiment r through record_batch_json; with of non-NULL, a
 * batch of `evident reproduce` of batch `of` whose verdicts are
 * verdicts[0..n) (variants v0, v1, ...).
 */
static double put_repro_band = 0.01; /* the noise band put_repro's reproductions used */
static const char *const *put_repro_verdicts; /* NULL, or the rows' verdicts against v0 (v0's NULL) */

static void put_repro(struct store *st, const char *id, const char *of, const enum repro_verdict *verdicts, size_t n)
{
	static const char *const names[] = { "v0", "v1", "v2" };
	struct batch_row rows[3];
	struct rec_repro_row rr[3];
	struct batch_record b;
	memset(&b, 0, sizeof(b));
	memset(rows, 0, sizeof(rows));
	memset(rr, 0, sizeof(rr));
	b.run_id = b.batch_id = id;
	b.experiment = "r";
	b.baseline = "v0";
	b.repeats = 1;
	b.problem.flops = b.problem.min_bytes = NAN;
	b.holm_alpha = b.holm_threshold = b.t_wall_s = b.t_gpu_s = b.t_usd = NAN;
	b.rows = rows;
	b.n_rows = n ? n : 1;
	for (size_t i = 0; i < b.n_rows; i++) {
		rows[i].variant = names[i];
		rows[i].outcome = OUTCOME_OK;
		rows[i].mde = NAN;
		if (put_repro_verdicts && put_repro_verdicts[i]) {
			rows[i].have_cmp = 1;
			rows[i].cmp.verdict = put_repro_verdicts[i];
			rows[i].cmp.ka = rows[i].cmp.kb = 3; /* one process a side reads inconclusive */
		}
	}
	if (of) {
		int all = 1;
		for (size_t i = 0; i < n; i++) {
			rr[i].variant = names[i];
			rr[i].verdict = verdicts[i];
			rr[i].reason = verdicts[i] == REPRO_REPRODUCED ? NULL : "median 100.000 us then, 500.000 us now (5.00x)";
			rr[i].recorded.outcome = rr[i].now.outcome = OUTCOME_OK;
			rr[i].recorded.have_stats = rr[i].now.have_stats = 1;
			rr[i].recorded.median_us = 100;
			rr[i].now.median_us = verdicts[i] == REPRO_REPRODUCED ? 100.5 : 500;
			rr[i].recorded.ci[0] = 99, rr[i].recorded.ci[1] = 101;
			rr[i].now.ci[0] = rr[i].now.median_us - 1, rr[i].now.ci[1] = rr[i].now.median_us + 1;
			all &= verdicts[i] == REPRO_REPRODUCED;
		}
		b.repro.have = 1;
		b.repro.of = of;
		b.repro.commit = "0123456789abcdef0123456789abcdef01234567";
		b.repro.threshold = put_repro_band;
		b.repro.reproduced = all;
		b.repro.rows = rr;
		b.repro.n_rows = n;
	}
	json_t *m = record_batch_json(&b);
	assert_int_equal(store_commit(st, id, m), 0);
	json_decref(m);
}

static void put_variant(struct store *st, const char *id, const char *variant, const char *sha,
			const char *samples, const char *outcome)
{
	put_variant_x(st, id, variant, sha, samples, outcome, NULL);
}

/*
 * Red team 42 fixtures.  A host-backend run of experiment exp, variant
 * var, in batch bid (may be NULL), of kernel file path (content sha),
 * binary bin, built by "cc -O2 path", at parameter COIN=coin (NULL: none),
 * for problem p2; outcome as given.
 */
static void put_host_run(struct store *st, const char *id, const char *exp, const char *var, const char *bid,
			 const char *path, const char *sha, const char *bin, const char *coin, const char *outcome)
{
	json_t *x = json_pack("{s:s, s:s, s:{s:[{s:s, s:s}], s:s, s:{s:[s, s, s], s:s}}, s:{s:s, s:s, s:{s:i}, s:[s]}}",
			      "experiment", exp, "backend", "host", "code", "sources", "path", path, "sha256", sha,
			      "binary_sha256", bin, "compiler", "argv", "cc", "-O2", path, "version", "cc 1", "problem",
			      "name", "p2", "dtype", "fp32", "shape", "N", 256, "dims", "N");
	json_object_set_new(x, "batch_id", json_string(bid ? bid : id));
	if (coin)
		json_object_set_new(x, "params", json_pack("{s:s}", "COIN", coin));
	put_variant_x(st, id, var, sha, "# us\n100\n", outcome, x);
}

/* put_host_run's record with a loaded image's hash (code.load_sha256) */
static void put_host_run_load(struct store *st, const char *id, const char *exp, const char *var, const char *path,
			      const char *sha, const char *bin, const char *load, const char *outcome)
{
	json_t *x = json_pack("{s:s, s:s, s:{s:[{s:s, s:s}], s:s, s:s, s:{s:[s, s, s], s:s}}, s:{s:s, s:s, s:{s:i}, "
			      "s:[s]}, s:s}",
			      "experiment", exp, "backend", "host", "code", "sources", "path", path, "sha256", sha,
			      "binary_sha256", bin, "load_sha256", load, "compiler", "argv", "cc", "-O2", path, "version",
			      "cc 1", "problem", "name", "p2", "dtype", "fp32", "shape", "N", 256, "dims", "N", "batch_id",
			      id);
	put_variant_x(st, id, var, sha, "# us\n100\n", outcome, x);
}

/* A batch row of variant var (run id), its recorded comparison with the
 * baseline (verdict NULL: the baseline's row). */
static json_t *host_row(const char *var, const char *id, const char *coin, const char *verdict, double ratio,
			double lo, double hi, double p)
{
	json_t *row = verdict ? json_pack("{s:s, s:s, s:s, s:{s:{s:f, s:[f, f]}, s:{s:f, s:f}, s:s, s:[i, i]}}",
					  "variant", var, "run_id", id, "outcome", "ok", "comparison", "speedup", "ratio",
					  ratio, "ci", lo, hi, "mann_whitney", "p", p, "p_adjusted", p, "verdict", verdict,
					  "repeats", 3, 3)
			      : json_pack("{s:s, s:s, s:s, s:n}", "variant", var, "run_id", id, "outcome", "ok", "comparison");
	if (coin)
		json_object_set_new(row, "params", json_pack("{s:s}", "COIN", coin));
	return row;
}

/* A batch of experiment exp (baseline z) with rows (stolen) and notes
 * (stolen; NULL: none), for problem p2. */
static void put_host_batch_notes(struct store *st, const char *id, const char *exp, json_t *rows, json_t *notes);

/* A batch of experiment exp (baseline z) with rows (stolen), for problem p2. */
static void put_host_batch(struct store *st, const char *id, const char *exp, json_t *rows)
{
	put_host_batch_notes(st, id, exp, rows, NULL);
}

static void put_host_batch_notes(struct store *st, const char *id, const char *exp, json_t *rows, json_t *notes)
{
	json_t *b = json_pack("{s:s, s:s, s:s, s:s, s:s, s:{s:{s:s, s:b}}, s:{s:I, s:f, s:f}, s:{s:s, s:s, s:{s:i}, "
			      "s:[s]}, s:o}",
			      "kind", "batch", "format", "evident-batch/1", "experiment", exp, "batch_id", id, "baseline",
			      "z", "code", "git", "commit", "0123456789abcdef", "dirty", 0, "holm", "comparisons",
			      (json_int_t)(json_array_size(rows) - 1), "alpha", 0.05, "threshold", 0.01, "problem", "name",
			      "p2", "dtype", "fp32", "shape", "N", 256, "dims", "N", "variants", rows);
	if (notes)
		json_object_set_new(b, "notes", notes);
	assert_int_equal(store_commit(st, id, b), 0);
	json_decref(b);
}

/*
 * A batch of experiment exp: z (dz.c, whose sha is dzsha) at 700 us
 * [650, 760], beside va from exp.c (written here), whose row is va_row
 * (stolen; its run id must be 20260126T0000201Z-<exp>-va).
 */
static void put_z700_pair(struct store *st, const char *exp, const char *dzsha, json_t *va_row)
{
	char vsha[SHA256_HEX_LEN + 1];
	char *path = xstrfmt("%s.c", exp), *bin = xstrfmt("%sbin", exp);
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	fprintf(f, "int %s;\n", exp);
	fclose(f);
	assert_int_equal(sha256_file_hex(path, vsha), 0);
	char *bid = xstrfmt("20260126T0000209Z-%s-0-batch", exp), *zid = xstrfmt("20260126T0000200Z-%s-z", exp),
	     *aid = xstrfmt("20260126T0000201Z-%s-va", exp);
	put_host_run(st, zid, exp, "z", bid, "dz.c", dzsha, "dzbin", NULL, "ok");
	put_host_run(st, aid, exp, "va", bid, path, vsha, bin, NULL, "ok");
	json_t *zr = host_row("z", zid, NULL, NULL, 0, 0, 0, 0);
	json_object_set_new(zr, "stats", json_pack("{s:i, s:f, s:[f, f], s:i}", "n", 90, "median", 700.0, "median_ci",
						   650.0, 760.0, "repeats", 3));
	put_host_batch(st, bid, exp, json_pack("[o, o]", zr, va_row));
	free(path);
	free(bin);
	free(bid);
	free(zid);
	free(aid);
}


/* A batch of `evident reproduce` (experiment exp, baseline z) that
 * reproduced batch of, with rows (stolen), for problem p2; its verdicts
 * are not read by `validated`, its runs are. */
static void put_host_repro(struct store *st, const char *id, const char *exp, const char *of, json_t *rows)
{
	json_t *b = json_pack("{s:s, s:s, s:s, s:s, s:s, s:{s:{s:s, s:b}}, s:{s:I, s:f, s:f}, s:{s:s, s:s, s:{s:i}, "
			      "s:[s]}, s:o, s:{s:s, s:s, s:f, s:b, s:[]}}",
			      "kind", "batch", "format", "evident-batch/1", "experiment", exp, "batch_id", id, "baseline",
			      "z", "code", "git", "commit", "0123456789abcdef", "dirty", 0, "holm", "comparisons",
			      (json_int_t)0, "alpha", 0.05, "threshold", 0.01, "problem", "name", "p2", "dtype", "fp32",
			      "shape", "N", 256, "dims", "N", "variants", rows, "reproduction", "of", of, "commit",
			      "0123456789abcdef0123456789abcdef01234567", "threshold", 0.01, "reproduced", 0, "variants");
	assert_non_null(b);
	assert_int_equal(store_commit(st, id, b), 0);
	json_decref(b);
}

/*
 * Red team 49 fixtures: batch bid of experiment exp (a reproduction of
 * batch `of` when of is non-NULL; baseline z, fz.c) with a row of var
 * that ran kernel path (content sha) as binary bin, its echo-neutral
 * object neutral (NULL: none), at parameter SLOW=slow (NULL: none),
 * written by runner commit commit (NULL: none), its timing median (CI
 * [lo, hi]), mean and min in us.
 */
static void put_rate_batch_load(struct store *st, const char *bid, const char *exp, const char *of, const char *var,
				const char *path, const char *sha, const char *bin, const char *neutral, const char *load,
				const char *slow, const char *commit, double median, double lo, double hi, double mean,
				double min)
{
	char zsha[SHA256_HEX_LEN + 1];
	FILE *f = fopen("fz.c", "a");
	fclose(f);
	assert_int_equal(sha256_file_hex("fz.c", zsha), 0);
	char *zid = xstrfmt("%.16s-%s-z", bid, exp), *aid = xstrfmt("%.16s-%s-%s", bid, exp, var);
	put_host_run(st, zid, exp, "z", bid, "fz.c", zsha, "fzbin", NULL, "ok");
	json_t *code = json_pack("{s:[{s:s, s:s}], s:s, s:{s:[s, s, s], s:s}}", "sources", "path", path, "sha256", sha,
				 "binary_sha256", bin, "compiler", "argv", "cc", "-O2", path, "version", "cc 1");
	if (neutral)
		json_object_set_new(code, "echo_neutral_sha256", json_string(neutral));
	if (load)
		json_object_set_new(code, "load_sha256", json_string(load));
	if (commit)
		json_object_set_new(code, "git", json_pack("{s:s, s:b}", "commit", commit, "dirty", 0));
	json_t *x = json_pack("{s:s, s:s, s:o, s:{s:s, s:s, s:{s:i}, s:[s]}, s:s}", "experiment", exp, "backend", "host",
			      "code", code, "problem", "name", "p2", "dtype", "fp32", "shape", "N", 256, "dims", "N",
			      "batch_id", bid);
	if (slow)
		json_object_set_new(x, "params", json_pack("{s:s}", "SLOW", slow));
	put_variant_x(st, aid, var, sha, "# us\n100\n", "ok", x);
	json_t *row = host_row(var, aid, NULL, NULL, 0, 0, 0, 0);
	if (slow)
		json_object_set_new(row, "params", json_pack("{s:s}", "SLOW", slow));
	json_object_set_new(row, "stats", json_pack("{s:i, s:f, s:[f, f], s:f, s:f}", "n", 80, "median", median,
						    "median_ci", lo, hi, "mean", mean, "min", min));
	json_t *rows = json_pack("[o, o]", host_row("z", zid, NULL, NULL, 0, 0, 0, 0), row);
	if (of)
		put_host_repro(st, bid, exp, of, rows);
	else
		put_host_batch(st, bid, exp, rows);
	free(zid);
	free(aid);
}

static void put_rate_batch(struct store *st, const char *bid, const char *exp, const char *of, const char *var,
			   const char *path, const char *sha, const char *bin, const char *neutral, const char *slow,
			   const char *commit, double median, double lo, double hi, double mean, double min)
{
	put_rate_batch_load(st, bid, exp, of, var, path, sha, bin, neutral, NULL, slow, commit, median, lo, hi, mean,
			    min);
}

/* A file path holding text; its content hash into sha. */
static void put_file(const char *path, const char *text, char *sha)
{
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
	assert_int_equal(sha256_file_hex(path, sha), 0);
}

/* Red team 87: a host run record of experiment exp, variant var in batch
 * bid with sources (stolen: [{path, sha256[, loaded]}], the kernel file
 * first), binary bin and loaded image load, at TILE=tile (NULL: none). */
static void put_rt87_run(struct store *st, const char *id, const char *exp, const char *var, const char *bid,
			 json_t *sources, const char *bin, const char *load, const char *tile, const char *outcome)
{
	const char *path = json_string_value(json_object_get(json_array_get(sources, 0), "path"));
	const char *sha = json_string_value(json_object_get(json_array_get(sources, 0), "sha256"));
	json_t *x = json_pack("{s:s, s:s, s:{s:o, s:s, s:s, s:{s:[s, s, s], s:s}}, s:{s:s, s:s, s:{s:i}, s:[s]}, s:s}",
			      "experiment", exp, "backend", "host", "code", "sources", sources, "binary_sha256", bin,
			      "load_sha256", load, "compiler", "argv", "cc", "-O2", path, "version", "cc 1", "problem",
			      "name", "p2", "dtype", "fp32", "shape", "N", 256, "dims", "N", "batch_id", bid);
	assert_non_null(x);
	if (tile)
		json_object_set_new(x, "params", json_pack("{s:s}", "TILE", tile));
	put_variant_x(st, id, var, sha, "# us\n100\n", outcome, x);
}

/* [{path, sha}] (a kernel file alone) */
static json_t *one_source(const char *path, const char *sha)
{
	return json_pack("[{s:s, s:s}]", "path", path, "sha256", sha);
}

/* Red team 87: batch bid of experiment exp, its baseline z (run zid:
 * sources zsrc, stolen; binary zbin, loaded image zload) at median zmed
 * us [zlo, zhi], beside va (vv.c) faster 6x, or z alone when no_va. */
static void put_rt87_zbatch(struct store *st, const char *bid, const char *exp, const char *zid, json_t *zsrc,
			    const char *zbin, const char *zload, const char *zoutcome, double zmed, double zlo, double zhi,
			    int no_va)
{
	put_rt87_run(st, zid, exp, "z", bid, zsrc, zbin, zload, NULL, zoutcome);
	json_t *zr = host_row("z", zid, NULL, NULL, 0, 0, 0, 0);
	json_object_set_new(zr, "outcome", json_string(zoutcome));
	if (!strcmp(zoutcome, "ok"))
		json_object_set_new(zr, "stats", json_pack("{s:i, s:f, s:[f, f], s:i}", "n", 90, "median", zmed,
							   "median_ci", zlo, zhi, "repeats", 3));
	json_t *rows = json_pack("[o]", zr);
	if (!no_va) {
		char vsha[SHA256_HEX_LEN + 1];
		put_file("vv.c", "int vv;\n", vsha);
		char *aid = xstrfmt("%.16s-%s-va", bid, exp);
		put_host_run(st, aid, exp, "va", bid, "vv.c", vsha, "vvbin", NULL, "ok");
		json_array_append_new(rows, host_row("va", aid, NULL, "faster", 6.0, 5.0, 7.0, 0.001));
		free(aid);
	}
	put_host_batch(st, bid, exp, rows);
}

/*
 * Red team 126's stop hunt: a host run of experiment exp, variant quick,
 * of kernel path (content sha) as binary bin, in batch bid, its own
 * median median us (outcome as given: "aborted" for a run the stop cut).
 */
static const char *put_hunt_reason; /* put_hunt_run's reason, where set */
static void put_hunt_run(struct store *st, const char *id, const char *exp, const char *bid, const char *path,
			 const char *sha, const char *bin, double median, const char *outcome)
{
	char hex[SHA256_HEX_LEN + 1];
	char *samples = xstrfmt("# us\n%.1f\n", median);
	assert_int_equal(store_put(st, samples, strlen(samples), hex), 0);
	json_t *x = json_pack("{s:s, s:s, s:{s:[{s:s, s:s}], s:s, s:{s:[s, s, s], s:s}}, s:{s:s, s:s, s:{s:i}, s:[s]}, "
			      "s:s, s:{s:s, s:{s:s, s:i}, s:{s:i, s:f, s:[f, f]}}}",
			      "experiment", exp, "backend", "host", "code", "sources", "path", path, "sha256", sha,
			      "binary_sha256", bin, "compiler", "argv", "cc", "-O2", path, "version", "cc 1", "problem",
			      "name", "p2", "dtype", "fp32", "shape", "N", 256, "dims", "N", "batch_id", bid, "timing",
			      "samples_object", hex, "method", "cache", "cold", "samples_requested", 3, "stats", "n", 30,
			      "median", median, "median_ci", median - 1, median + 1);
	assert_non_null(x);
	if (put_hunt_reason)
		json_object_set_new(x, "reason", json_string(put_hunt_reason));
	put_variant_x(st, id, "quick", sha, samples, outcome, x);
	free(samples);
}

/* A batch (evident-batch/2) of experiment exp whose one row, quick, ran
 * runs ids[0..n) with the row's median (CI [lo, hi]); interrupted as
 * given. */
static void put_hunt_batch(struct store *st, const char *bid, const char *exp, const char *const *ids, size_t n,
			   double median, double lo, double hi, int interrupted)
{
	json_t *runs = json_array();
	for (size_t i = 0; i < n; i++)
		json_array_append_new(runs, json_string(ids[i]));
	json_t *row = json_pack("{s:s, s:s, s:s, s:o, s:{s:i, s:f, s:[f, f], s:i}, s:n}", "variant", "quick", "run_id",
				ids[0], "outcome", "ok", "runs", runs, "stats", "n", 30, "median", median, "median_ci", lo,
				hi, "repeats", (int)n, "comparison");
	json_t *b = json_pack("{s:s, s:s, s:s, s:s, s:s, s:{s:{s:s, s:b}}, s:{s:I, s:f, s:f}, s:{s:s, s:s, s:{s:i}, "
			      "s:[s]}, s:[o], s:b, s:{s:i}}",
			      "kind", "batch", "format", RECORD_BATCH_FORMAT, "experiment", exp, "batch_id", bid,
			      "baseline", "quick", "code", "git", "commit", "0123456789abcdef", "dirty", 0, "holm",
			      "comparisons", (json_int_t)0, "alpha", 0.05, "threshold", 0.01, "problem", "name", "p2",
			      "dtype", "fp32", "shape", "N", 256, "dims", "N", "variants", row, "interrupted", interrupted,
			      "plan", "repeats", 3);
	assert_non_null(b);
	assert_int_equal(store_commit(st, bid, b), 0);
	json_decref(b);
}

/*
 * Red team 126, finding 2: a hunt sent SIGINT to every try of mode.c
 * (slow 7 processes in 8) as soon as one process came out slow.  ih.c:
 * batch ih-0, interrupted, its quick row 2 ok runs (2410, 3430 us) and
 * one aborted, reads 2600 [2400, 3500]; ih-1..ih-3, interrupted, 1 run
 * each at 3600 us; ih-4, interrupted, 1 run at 3000 us (inside ih-0's
 * band).  ig.c: a finished batch ig-0 (3000 [2900, 3100]) and an
 * interrupted try ig-1 of one run at 3050 us (its way).
 */
static void put_stop_hunt(struct store *st)
{
	char ihsha[SHA256_HEX_LEN + 1], igsha[SHA256_HEX_LEN + 1];
	put_file("ih.c", "int ih;\n", ihsha);
	put_file("ig.c", "int ig;\n", igsha);
	const char *ids0[] = { "20260128T000000Z-ih-q0a", "20260128T000001Z-ih-q0b", "20260128T000002Z-ih-q0c" };
	put_hunt_run(st, ids0[0], "ih", "20260128T000003Z-ih-0-batch", "ih.c", ihsha, "ihbin", 2410, "ok");
	put_hunt_run(st, ids0[1], "ih", "20260128T000003Z-ih-0-batch", "ih.c", ihsha, "ihbin", 3430, "ok");
	put_hunt_run(st, ids0[2], "ih", "20260128T000003Z-ih-0-batch", "ih.c", ihsha, "ihbin", 0, "aborted");
	put_hunt_batch(st, "20260128T000003Z-ih-0-batch", "ih", ids0, 3, 2600, 2400, 3500, 1);
	for (int i = 1; i <= 4; i++) {
		char *id = xstrfmt("20260128T00001%dZ-ih-q%d", i, i), *bid = xstrfmt("20260128T00002%dZ-ih-%d-batch", i, i);
		double m = i == 4 ? 3000 : 3600;
		put_hunt_run(st, id, "ih", bid, "ih.c", ihsha, "ihbin", m, "ok");
		const char *ids[] = { id };
		put_hunt_batch(st, bid, "ih", ids, 1, m, m - 10, m + 10, 1);
		free(id);
		free(bid);
	}
	const char *g0[] = { "20260128T000030Z-ig-q0a", "20260128T000031Z-ig-q0b", "20260128T000032Z-ig-q0c" };
	static const double g0m[] = { 2950, 3000, 3050 };
	for (int i = 0; i < 3; i++)
		put_hunt_run(st, g0[i], "ig", "20260128T000033Z-ig-0-batch", "ig.c", igsha, "igbin", g0m[i], "ok");
	put_hunt_batch(st, "20260128T000033Z-ig-0-batch", "ig", g0, 3, 3000, 2900, 3100, 0);
	const char *g1[] = { "20260128T000040Z-ig-q1" };
	put_hunt_run(st, g1[0], "ig", "20260128T000041Z-ig-1-batch", "ig.c", igsha, "igbin", 3050, "ok");
	put_hunt_batch(st, "20260128T000041Z-ig-1-batch", "ig", g1, 1, 3050, 3040, 3060, 1);
}

/*
 * Red team 130, hole 3: red team 126's hunt with SIGKILL for SIGINT.  kh.c:
 * a finished batch kh-0 (runs 2410, 2600, 3430 us; 2600 [2400, 3500]);
 * killed tries kh-1..kh-3 (runs, no batch record), two runs each at 3600
 * and 4100 us; kh-4, two runs inside kh-0's band (2500, 3000 us); kh-5, a
 * run of another code (kx.c) at 9000 us alone.
 */
static void put_kill_hunt(struct store *st)
{
	char khsha[SHA256_HEX_LEN + 1], kxsha[SHA256_HEX_LEN + 1];
	put_file("kh.c", "int kh;\n", khsha);
	put_file("kx.c", "int kx;\n", kxsha);
	const char *ids0[] = { "20260129T000000Z-kh-q0a", "20260129T000001Z-kh-q0b", "20260129T000002Z-kh-q0c" };
	static const double m0[] = { 2410, 2600, 3430 };
	for (int i = 0; i < 3; i++)
		put_hunt_run(st, ids0[i], "kh", "20260129T000003Z-kh-0-batch", "kh.c", khsha, "khbin", m0[i], "ok");
	put_hunt_batch(st, "20260129T000003Z-kh-0-batch", "kh", ids0, 3, 2600, 2400, 3500, 0);
	for (int i = 1; i <= 4; i++) {
		char *bid = xstrfmt("20260129T00001%dZ-kh-%d-batch", i, i);
		for (int j = 0; j < 2; j++) {
			char *id = xstrfmt("20260129T00002%dZ-kh-q%d%c", i, i, 'a' + j);
			put_hunt_run(st, id, "kh", bid, "kh.c", khsha, "khbin", i == 4 ? 2500 + 500 * j : 3600 + 500 * j,
				     "ok");
			free(id);
		}
		free(bid);
	}
	put_hunt_run(st, "20260129T000030Z-kh-q5", "kh", "20260129T000031Z-kh-5-batch", "kx.c", kxsha, "kxbin", 9000,
		     "ok");
}

/*
 * Red team 130, killhunt rerun on the fixed build: the evidence a lucky
 * batch of one fast process and two slow (kw-0: 2497, 3577, 3826 us;
 * 3577 [2536, 4799]), a second lucky finished batch kw-1 (2550, 2600,
 * 3500 us; 2600 [2500, 3500]) and a finished one that excludes the claim
 * (kw-2: 3500 [3450, 3600]); killed tries kw-3..kw-7 (runs, no batch
 * record), two slow runs each inside kw-0's CI (3467-4711 us), the kind
 * the hunter kills; kw-8 killed with two runs near 2600 (2560, 2650 us).
 * kc.c, the honest control: one finished batch kc-0 (3000 [2900, 3100])
 * and a try killed for real with runs at 2950 and 3080 us.
 */
static void put_wide_hunt(struct store *st)
{
	char kwsha[SHA256_HEX_LEN + 1], kcsha[SHA256_HEX_LEN + 1];
	put_file("kw.c", "int kw;\n", kwsha);
	put_file("kc.c", "int kc;\n", kcsha);
	static const double fin[3][3] = { { 2497, 3577, 3826 }, { 2550, 2600, 3500 }, { 3450, 3500, 3600 } };
	static const double med[3][3] = { { 3577, 2536, 4799 }, { 2600, 2500, 3500 }, { 3500, 3450, 3600 } };
	for (int b = 0; b < 3; b++) {
		char *bid = xstrfmt("20260130T00000%dZ-kw-%d-batch", b, b);
		char *ids[3];
		for (int i = 0; i < 3; i++) {
			ids[i] = xstrfmt("20260130T0000%d%dZ-kw-q%d%c", b + 1, i, b, 'a' + i);
			put_hunt_run(st, ids[i], "kw", bid, "kw.c", kwsha, "kwbin", fin[b][i], "ok");
		}
		const char *cids[] = { ids[0], ids[1], ids[2] };
		put_hunt_batch(st, bid, "kw", cids, 3, med[b][0], med[b][1], med[b][2], 0);
		for (int i = 0; i < 3; i++)
			free(ids[i]);
		free(bid);
	}
	static const double killed[6][2] = { { 3486, 4711 }, { 3503, 4000 }, { 3655, 4316 },
					     { 3649, 3793 }, { 3467, 4106 }, { 2560, 2650 } };
	for (int k = 0; k < 6; k++) {
		char *bid = xstrfmt("20260130T00010%dZ-kw-%d-batch", k, k + 3);
		for (int j = 0; j < 2; j++) {
			char *id = xstrfmt("20260130T00011%dZ-kw-q%d%c", k, k + 3, 'a' + j);
			put_hunt_run(st, id, "kw", bid, "kw.c", kwsha, "kwbin", killed[k][j], "ok");
			free(id);
		}
		free(bid);
	}
	const char *c0[] = { "20260130T000200Z-kc-q0a", "20260130T000201Z-kc-q0b", "20260130T000202Z-kc-q0c" };
	static const double c0m[] = { 2950, 3000, 3050 };
	for (int i = 0; i < 3; i++)
		put_hunt_run(st, c0[i], "kc", "20260130T000203Z-kc-0-batch", "kc.c", kcsha, "kcbin", c0m[i], "ok");
	put_hunt_batch(st, "20260130T000203Z-kc-0-batch", "kc", c0, 3, 3000, 2900, 3100, 0);
	put_hunt_run(st, "20260130T000210Z-kc-q1a", "kc", "20260130T000211Z-kc-1-batch", "kc.c", kcsha, "kcbin", 2950,
		     "ok");
	put_hunt_run(st, "20260130T000212Z-kc-q1b", "kc", "20260130T000211Z-kc-1-batch", "kc.c", kcsha, "kcbin", 3080,
		     "ok");
	/* io.c: one batch, interrupted after two runs (2600, 2650 us; 2625
	 * [2550, 2700]), nothing else of the code */
	char iosha[SHA256_HEX_LEN + 1];
	put_file("io.c", "int io;\n", iosha);
	const char *o0[] = { "20260130T000300Z-io-q0a", "20260130T000301Z-io-q0b" };
	put_hunt_run(st, o0[0], "io", "20260130T000302Z-io-0-batch", "io.c", iosha, "iobin", 2600, "ok");
	put_hunt_run(st, o0[1], "io", "20260130T000302Z-io-0-batch", "io.c", iosha, "iobin", 2650, "ok");
	put_hunt_batch(st, "20260130T000302Z-io-0-batch", "io", o0, 2, 2625, 2550, 2700, 1);
}

/*
 * Red team 130, hole 3: `evident reproduce` runs killed before their
 * batch record.  r-old5 has one recorded reproduction that reproduced
 * (rep7) and one begun and never recorded (its begun marker, naming
 * old5, left behind); rep7's marker left behind too (killed between its
 * batch record and the marker's removal) is no unfinished one.  r-old6
 * has none recorded and one killed.
 */
static void put_killed_repros(struct store *st)
{
	const enum repro_verdict ok2[] = { REPRO_REPRODUCED, REPRO_REPRODUCED };
	put_repro(st, "20260102T000011Z-r-old5-batch", NULL, NULL, 2);
	put_repro(st, "20260102T000012Z-r-rep7-batch", "20260102T000011Z-r-old5-batch", ok2, 2);
	assert_int_equal(store_pending_begin_run_batch(st, "20260102T000012Z-r-rep7-batch", "r", json_array(),
						       "20260102T000011Z-r-old5-batch"),
			 0);
	assert_int_equal(store_pending_begin_run_batch(st, "20260102T000013Z-r-rep8-batch", "r", json_array(),
						       "20260102T000011Z-r-old5-batch"),
			 0);
	put_repro(st, "20260102T000014Z-r-old6-batch", NULL, NULL, 2);
	assert_int_equal(store_pending_begin_run_batch(st, "20260102T000015Z-r-rep9-batch", "r", json_array(),
						       "20260102T000014Z-r-old6-batch"),
			 0);
	/* evident run's own marker of another try names no reproduction */
	assert_int_equal(store_pending_begin_run_batch(st, "20260102T000016Z-r-run-batch", "r", json_array(), NULL), 0);
}

/*
 * Red team 132, gap 2: a hunt that SIGKILLs each try as soon as a process
 * of the code shows slow, before its run record.  kb.c: a finished batch
 * kb-0 (2950, 3000, 3050 us; 3000 [2900, 3100]); tries kb-1 and kb-2
 * killed while a job of quick ran (their batch's begun marker naming
 * kbbin as quick and listing the job, its problem and dims:
 * store_pending_batch_begun; no run record).  Tries that say nothing of kb.c: kb-3's job was of
 * another variant of the batch (other, kobin), kb-4's job at another
 * shape (N 512).  kd.c, the honest control: a finished batch kd-0 (3000
 * [2900, 3100]) and a try killed before any job of it began (its batch
 * marker alone).
 */
static void put_begun_job(struct store *st, const char *jid, const char *var, const char *bid, long long n)
{
	json_t *more = json_pack("{s:s, s:[I]}", "problem", "p2", "dims", (json_int_t)n);
	assert_int_equal(store_pending_batch_begun(st, bid, jid, var, more), 0);
}

static void put_begun_batch(struct store *st, const char *bid, const char *exp, const char *bin, const char *obin)
{
	static const char *const nolibs = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855";
	json_t *vs = json_pack("[{s:s, s:s, s:s}, {s:s, s:s, s:s}]", "name", "quick", "binary_sha256", bin, "libs",
			       nolibs, "name", "other", "binary_sha256", obin, "libs", nolibs);
	assert_int_equal(store_pending_begin_run_batch(st, bid, exp, vs, NULL), 0);
}

static void put_begun_hunt(struct store *st)
{
	char kbsha[SHA256_HEX_LEN + 1], kdsha[SHA256_HEX_LEN + 1];
	put_file("kb.c", "int kb;\n", kbsha);
	put_file("kd.c", "int kd;\n", kdsha);
	static const double m0[] = { 2950, 3000, 3050 };
	const char *b0[] = { "20260131T000000Z-kb-q0a", "20260131T000001Z-kb-q0b", "20260131T000002Z-kb-q0c" };
	const char *d0[] = { "20260131T000100Z-kd-q0a", "20260131T000101Z-kd-q0b", "20260131T000102Z-kd-q0c" };
	for (int i = 0; i < 3; i++) {
		put_hunt_run(st, b0[i], "kb", "20260131T000003Z-kb-0-batch", "kb.c", kbsha, "kbbin", m0[i], "ok");
		put_hunt_run(st, d0[i], "kd", "20260131T000103Z-kd-0-batch", "kd.c", kdsha, "kdbin", m0[i], "ok");
	}
	put_hunt_batch(st, "20260131T000003Z-kb-0-batch", "kb", b0, 3, 3000, 2900, 3100, 0);
	put_hunt_batch(st, "20260131T000103Z-kd-0-batch", "kd", d0, 3, 3000, 2900, 3100, 0);
	for (int k = 1; k <= 4; k++) {
		char *bid = xstrfmt("20260131T00001%dZ-kb-%d-batch", k, k), *jid = xstrfmt("20260131T00002%dZ-kb-j%d", k, k);
		put_begun_batch(st, bid, "kb", "kbbin", "kobin");
		put_begun_job(st, jid, k == 3 ? "other" : "quick", bid, k == 4 ? 512 : 256);
		free(bid);
		free(jid);
	}
	put_begun_batch(st, "20260131T000110Z-kd-1-batch", "kd", "kdbin", "kobin");
	/* ki.c: a finished batch ki-0 (3000 [2900, 3100]) and ki-1,
	 * interrupted (SIGINT) while its second job of quick ran: one run ok
	 * at 3000 us, one aborted, "interrupted by SIGINT" */
	char kisha[SHA256_HEX_LEN + 1];
	put_file("ki.c", "int ki;\n", kisha);
	const char *i0[] = { "20260131T000200Z-ki-q0a", "20260131T000201Z-ki-q0b", "20260131T000202Z-ki-q0c" };
	for (int i = 0; i < 3; i++)
		put_hunt_run(st, i0[i], "ki", "20260131T000203Z-ki-0-batch", "ki.c", kisha, "kibin", m0[i], "ok");
	put_hunt_batch(st, "20260131T000203Z-ki-0-batch", "ki", i0, 3, 3000, 2900, 3100, 0);
	const char *i1[] = { "20260131T000210Z-ki-q1a", "20260131T000211Z-ki-q1b" };
	put_hunt_run(st, i1[0], "ki", "20260131T000212Z-ki-1-batch", "ki.c", kisha, "kibin", 3000, "ok");
	put_hunt_reason = "interrupted by SIGINT: worker killed by SIGKILL during init or correctness seed 0";
	put_hunt_run(st, i1[1], "ki", "20260131T000212Z-ki-1-batch", "ki.c", kisha, "kibin", 0, "aborted");
	put_hunt_reason = NULL;
	put_hunt_batch(st, "20260131T000212Z-ki-1-batch", "ki", i1, 2, 3000, 2990, 3010, 1);
}

static int setup(void **state)
{
	assert_non_null(mkdtemp(dir));
	assert_int_equal(chdir(dir), 0);
	FILE *f = fopen(PROBLEM_CODE, "w");
	fputs("int problem_code;\n", f);
	fclose(f);
	assert_int_equal(sha256_file_hex(PROBLEM_CODE, problem_sha), 0);
	f = fopen("k.c", "w");
	fputs("int k;\n", f);
	fclose(f);
	char sha[SHA256_HEX_LEN + 1];
	assert_int_equal(sha256_file_hex("k.c", sha), 0);
	struct store st = STORE_INIT;
	assert_int_equal(store_open(&st, "store", 1), 0);
	put_variant(&st, "20260101T000000Z-e-base", "base", sha, "# us\n100\n99\n101\n", "ok");
	put_variant(&st, "20260101T000001Z-e-twin", "twin", sha, "# us\n100\n100.5\n99.5\n", "ok");
	/* variants outside the batch, for `validated`: every check a record holds must pass */
	put_variant_x(&st, "20260101T000003Z-e-racy", "racy", sha, "# us\n1\n", "ok",
		      json_pack("{s:[{s:s, s:b, s:i}, {s:s, s:b, s:i, s:s}]}", "sanitize", "tool", "memcheck",
				"passed", 1, "errors", 0, "tool", "racecheck", "passed", 0, "errors", 1, "exit", "exit 86"));
	put_variant_x(&st, "20260101T000004Z-e-timed", "timed", sha, "# us\n1\n", "ok",
		      json_pack("{s:{s:[{s:s, s:b}, {s:s, s:b}]}}", "correctness", "checks", "phase", "timed_launches",
				"pass", 1, "phase", "timed_launches", "pass", 0));
	put_variant_x(&st, "20260101T000005Z-e-rech", "rech", sha, "# us\n1\n", "ok",
		      json_pack("{s:{s:[{s:b, s:I}]}}", "correctness", "recheck", "pass", 0, "seed", (json_int_t)12));
	put_variant_x(&st, "20260101T000006Z-e-clean", "clean", sha, "# us\n1\n", "ok",
		      json_pack("{s:[{s:s, s:b, s:i}], s:{s:[{s:s, s:b}]}}", "sanitize", "tool", "memcheck", "passed", 1,
				"errors", 0, "correctness", "checks", "phase", "timed_launches", "pass", 1));
	/* evident-run/2 records, written by the record module */
	struct rec_check ok3[] = {
		{ .phase = "seed", .seed = 1, .dist = "uniform", .sample = -1, .max_abs_err = 1e-6, .pass = 1 },
		{ .phase = "seed", .seed = 2, .dist = "peaked", .sample = -1, .max_abs_err = 2e-6, .pass = 1 },
		{ .phase = "seed", .seed = 3, .dist = "large_scores", .sample = -1, .max_abs_err = 3e-6, .pass = 1 },
		{ .phase = "timed", .seed = 99, .dist = "uniform", .sample = 4, .max_abs_err = 1e-6, .pass = 1 },
		{ .phase = "timed", .seed = 99, .dist = "uniform", .sample = 7, .max_abs_err = 0.5, .pass = 1 },
		{ .phase = "shape", .seed = 1, .dist = "uniform", .sample = -1, .max_abs_err = 1e-6, .pass = 1 },
	};
	json_t *ref_ok = json_pack("{s:b, s:b, s:f, s:f}", "done", 1, "pass", 1, "max_abs_diff", 1e-9, "rel_l2", 1e-9);
	json_t *ref_bad = json_pack("{s:b, s:b, s:f, s:f}", "done", 1, "pass", 0, "max_abs_diff", 0.1, "rel_l2", 0.01);
	put_v2(&st, "20260101T000007Z-e-v2ok", "v2ok", sha, ok3, 6, "checked", NULL, ref_ok);
	put_v2(&st, "20260101T000008Z-e-v2spec", "v2spec", sha, ok3, 3, "specialised", "init refused S=193", ref_ok);
	put_v2(&st, "20260101T000009Z-e-v2ref", "v2ref", sha, ok3, 6, "checked", NULL, ref_bad);
	ok3[4].pass = 0;
	put_v2(&st, "20260101T000010Z-e-v2timed", "v2timed", sha, ok3, 6, "checked", NULL, ref_ok);
	json_decref(ref_ok);
	json_decref(ref_bad);
	/* the comparison as one of 3 repeats a side would record it (one
	 * repeat a side reads as inconclusive: stats.h, rule 0; batch B3) */
	json_t *b = json_pack(
		"{s:s, s:s, s:s, s:s, s:s, s:{s:{s:s, s:b}}, s:{s:I},"
		" s:[{s:s, s:s, s:s, s:{s:f, s:[f, f], s:i}, s:n},"
		"    {s:s, s:s, s:s, s:{s:f, s:[f, f], s:i}, s:{s:{s:f, s:[f, f]}, s:{s:f, s:f}, s:s, s:[i, i]}}]}",
		"kind", "batch", "format", "evident-batch/1", "experiment", "e", "batch_id", "B1", "baseline",
		"base", "code", "git", "commit", "0123456789abcdef", "dirty", 0, "holm", "comparisons",
		(json_int_t)1, "variants", "variant", "base", "run_id", "20260101T000000Z-e-base", "outcome",
		"ok", "stats", "median", 100.0, "median_ci", 99.0, 101.0, "n", 3, "comparison", "variant",
		"twin", "run_id", "20260101T000001Z-e-twin", "outcome", "ok", "stats", "median", 100.0,
		"median_ci", 99.5, 100.5, "n", 3, "comparison", "speedup", "ratio", 1.0, "ci", 0.995, 1.005,
		"mann_whitney", "p", 0.8, "p_adjusted", 0.8, "verdict", "no_difference", "repeats", 3, 3);
	assert_int_equal(store_commit(&st, "20260101T000002Z-e-x-batch", b), 0);
	json_decref(b);
	/* experiment o: one process a side, recorded "faster" by an evident
	 * before rule 0 (as the first landing's and clock batches were), and a
	 * pair of variants, neither the baseline, of one repeat each */
	put_variant_x(&st, "20260104T000000Z-o-base", "base", sha, "# us\n200\n201\n199\n200.5\n199.5\n", "ok",
		      json_pack("{s:s, s:s}", "experiment", "o", "batch_id", "B3"));
	put_variant_x(&st, "20260104T000001Z-o-fast", "fast", sha, "# us\n100\n101\n99\n100.5\n99.5\n", "ok",
		      json_pack("{s:s, s:s}", "experiment", "o", "batch_id", "B3"));
	put_variant_x(&st, "20260104T000002Z-o-slow", "slow", sha, "# us\n400\n401\n399\n400.5\n399.5\n", "ok",
		      json_pack("{s:s, s:s}", "experiment", "o", "batch_id", "B3"));
	b = json_pack("{s:s, s:s, s:s, s:s, s:s, s:{s:{s:s, s:b}}, s:{s:I},"
		      " s:[{s:s, s:s, s:s, s:n}, {s:s, s:s, s:s, s:{s:{s:f, s:[f, f]}, s:{s:f, s:f}, s:s}},"
		      "    {s:s, s:s, s:s, s:n}]}",
		      "kind", "batch", "format", "evident-batch/1", "experiment", "o", "batch_id", "B3", "baseline", "base",
		      "code", "git", "commit", "0123456789abcdef", "dirty", 0, "holm", "comparisons", (json_int_t)1,
		      "variants", "variant", "base", "run_id", "20260104T000000Z-o-base", "outcome", "ok", "comparison",
		      "variant", "fast", "run_id", "20260104T000001Z-o-fast", "outcome", "ok", "comparison", "speedup",
		      "ratio", 2.0, "ci", 1.98, 2.02, "mann_whitney", "p", 0.008, "p_adjusted", 0.008, "verdict", "faster",
		      "variant", "slow", "run_id", "20260104T000002Z-o-slow", "outcome", "ok", "comparison");
	assert_int_equal(store_commit(&st, "20260104T000003Z-o-x-batch", b), 0);
	json_decref(b);
	/* experiment d: x is steady at 95 us in each of 3 repeats; y's repeats
	 * drift (80, 100, 120 us).  Pooled as independent samples, x beats y
	 * (median 95 against 100, Mann-Whitney p tiny); by repeat, nothing
	 * is shown.  Neither is the baseline, so the audit compares them. */
	static const char *const drift_ids[3][3] = {
		{ "20260103T000000Z-d-base0", "20260103T000001Z-d-base1", "20260103T000002Z-d-base2" },
		{ "20260103T000003Z-d-x0", "20260103T000004Z-d-x1", "20260103T000005Z-d-x2" },
		{ "20260103T000006Z-d-y0", "20260103T000007Z-d-y1", "20260103T000008Z-d-y2" },
	};
	static const char *const drift_names[3] = { "base", "x", "y" };
	static const double drift_center[3][3] = { { 100, 100, 100 }, { 95, 95, 95 }, { 80, 100, 120 } };
	json_t *dv = json_array();
	for (int v = 0; v < 3; v++) {
		json_t *runs = json_array();
		for (int r = 0; r < 3; r++) {
			struct strbuf sm = STRBUF_INIT;
			strbuf_addstr(&sm, "# us\n");
			for (int i = 0; i < 30; i++)
				strbuf_addf(&sm, "%.2f\n", drift_center[v][r] - 0.5 + i / 29.0);
			put_variant_x(&st, drift_ids[v][r], drift_names[v], sha, sm.buf, "ok",
				      json_pack("{s:s, s:s}", "experiment", "d", "batch_id", "B2"));
			strbuf_release(&sm);
			json_array_append_new(runs, json_string(drift_ids[v][r]));
		}
		json_array_append_new(dv, json_pack("{s:s, s:s, s:s, s:o}", "variant", drift_names[v], "run_id",
						    drift_ids[v][0], "outcome", "ok", "runs", runs));
	}
	b = json_pack("{s:s, s:s, s:s, s:s, s:s, s:{s:{s:s, s:b}}, s:{s:I, s:f, s:f}, s:o}", "kind", "batch", "format",
		      "evident-batch/1", "experiment", "d", "batch_id", "B2", "baseline", "base", "code", "git", "commit",
		      "0123456789abcdef", "dirty", 0, "holm", "comparisons", (json_int_t)2, "alpha", 0.05, "threshold",
		      0.01, "variants", dv);
	assert_int_equal(store_commit(&st, "20260103T000009Z-d-x-batch", b), 0);
	json_decref(b);
	/* experiment sh: the pair (fast, base) of two kernels (sources k.c
	 * and f.c), recorded faster at p 0.03 (S 64) and p 0.001 (S 128), and
	 * a third batch at S 64 where fast has a parameter TRY=1 (another
	 * configuration of the same kernels, no_difference); experiment aa:
	 * two binaries of one source (a byte-identical copy under another
	 * name), recorded faster */
	f = fopen("f.c", "w");
	fputs("int f;\n", f);
	fclose(f);
	char fsha[SHA256_HEX_LEN + 1];
	assert_int_equal(sha256_file_hex("f.c", fsha), 0);
	static const struct {
		const char *exp, *batch, *ids[2], *bins[2], *src_fast, *try_;
		int s;
		double p;
		const char *verdict;
	} sb[] = {
		/* src_fast: fast's source is f.c (else k.c, base's) */
		{ "sh", "20260105T000002Z-sh-x-batch", { "20260105T000000Z-sh-base", "20260105T000001Z-sh-fast" },
		  { "aaaa", "bbbb" }, "f00d", NULL, 64, 0.03, "faster" },
		{ "sh", "20260105T000005Z-sh-y-batch", { "20260105T000003Z-sh-base", "20260105T000004Z-sh-fast" },
		  { "aaaa", "bbbb" }, "f00d", NULL, 128, 0.001, "faster" },
		{ "sh", "20260105T000011Z-sh-z-batch", { "20260105T000009Z-sh-base", "20260105T000010Z-sh-fast" },
		  { "aaaa", "bbbe" }, "f00d", "1", 64, 0.5, "no_difference" },
		{ "aa", "20260105T000008Z-aa-x-batch", { "20260105T000006Z-aa-base", "20260105T000007Z-aa-fast" },
		  { "cccc", "dddd" }, NULL, NULL, 64, 0.001, "faster" },
	};
	for (size_t i = 0; i < ARRAY_SIZE(sb); i++) {
		json_t *rows = json_array();
		for (int v = 0; v < 2; v++) {
			int other = v && sb[i].src_fast;
			put_variant_x(&st, sb[i].ids[v], v ? "fast" : "base", sha, "# us\n100\n", "ok",
				      json_pack("{s:s, s:s, s:{s:[{s:s, s:s}], s:s}, s:{s:s, s:s, s:{s:i}, s:[s]}}",
						"experiment", sb[i].exp, "batch_id", sb[i].batch, "code", "sources", "path",
						other ? "f.c" : "k.c", "sha256", other ? fsha : sha, "binary_sha256",
						sb[i].bins[v], "problem", "name",
						"p", "dtype", "fp16", "shape", "S", sb[i].s, "dims", "S"));
			json_t *row = v ? json_pack("{s:s, s:s, s:s, s:{s:{s:f, s:[f, f]}, s:{s:f, s:f}, s:s, s:[i, i]}}",
						    "variant", "fast", "run_id", sb[i].ids[v], "outcome", "ok",
						    "comparison", "speedup", "ratio", 1.5, "ci", 1.3, 1.7, "mann_whitney",
						    "p", sb[i].p, "p_adjusted", sb[i].p, "verdict", sb[i].verdict, "repeats",
						    3, 3)
					: json_pack("{s:s, s:s, s:s, s:n}", "variant", "base", "run_id", sb[i].ids[v],
						    "outcome", "ok", "comparison");
			if (v && sb[i].try_)
				json_object_set_new(row, "params", json_pack("{s:s}", "TRY", sb[i].try_));
			json_array_append_new(rows, row);
		}
		b = json_pack("{s:s, s:s, s:s, s:s, s:s, s:{s:{s:s, s:b}}, s:{s:I, s:f, s:f}, s:{s:s, s:s, s:{s:i}, "
			      "s:[s]}, s:o}",
			      "kind", "batch", "format", "evident-batch/1", "experiment", sb[i].exp, "batch_id", sb[i].batch,
			      "baseline", "base", "code", "git", "commit", "0123456789abcdef", "dirty", 0, "holm",
			      "comparisons", (json_int_t)1, "alpha", 0.05, "threshold", 0.01, "problem", "name", "p", "dtype",
			      "fp16", "shape", "S", sb[i].s, "dims", "S", "variants", rows);
		assert_int_equal(store_commit(&st, sb[i].batch, b), 0);
		json_decref(b);
	}
	/* experiment pl: a 12-repeat batch finds fast slower (0.416x [0.370,
	 * 0.487], p 1e-6) and three 2-repeat pilots of the same code were
	 * inconclusive around the same slowdown (red team 37); experiment fl
	 * (another compiler version): fast built with -DTWICE is slower (p
	 * 0.001), and two batches of it built without the flag (another code,
	 * the same files) found nothing */
	static const struct {
		const char *exp, *batch, *ids[2], *bins[2], *flag, *verdict;
		double ratio, lo, hi, p;
	} pb[] = {
		{ "pl", "20260106T000002Z-pl-a-batch", { "20260106T000000Z-pl-base", "20260106T000001Z-pl-fast" },
		  { "p0", "p1" }, NULL, "slower", 0.416, 0.370, 0.487, 1e-6 },
		{ "pl", "20260106T000005Z-pl-b-batch", { "20260106T000003Z-pl-base", "20260106T000004Z-pl-fast" },
		  { "p0", "p1" }, NULL, "inconclusive", 0.48, 0.30, 0.90, 0.2 },
		{ "pl", "20260106T000008Z-pl-c-batch", { "20260106T000006Z-pl-base", "20260106T000007Z-pl-fast" },
		  { "p0", "p1" }, NULL, "inconclusive", 0.51, 0.25, 1.10, 0.3 },
		{ "pl", "20260106T000011Z-pl-d-batch", { "20260106T000009Z-pl-base", "20260106T000010Z-pl-fast" },
		  { "p0", "p1" }, NULL, "inconclusive", 0.60, 0.35, 1.05, 0.25 },
		{ "fl", "20260107T000002Z-fl-a-batch", { "20260107T000000Z-fl-base", "20260107T000001Z-fl-fast" },
		  { "q0", "q1" }, "-DTWICE", "slower", 0.5, 0.45, 0.55, 0.001 },
		{ "fl", "20260107T000005Z-fl-b-batch", { "20260107T000003Z-fl-base", "20260107T000004Z-fl-fast" },
		  { "q0", "q2" }, NULL, "no_difference", 1.0, 0.995, 1.005, 0.8 },
		{ "fl", "20260107T000008Z-fl-c-batch", { "20260107T000006Z-fl-base", "20260107T000007Z-fl-fast" },
		  { "q0", "q2" }, NULL, "no_difference", 1.0, 0.995, 1.005, 0.8 },
	};
	/* their own kernel files (g.c, h.c): no other experiment's configurations */
	char gsha[SHA256_HEX_LEN + 1], hsha[SHA256_HEX_LEN + 1];
	f = fopen("g.c", "w");
	fputs("int g;\n", f);
	fclose(f);
	f = fopen("h.c", "w");
	fputs("int h;\n", f);
	fclose(f);
	assert_int_equal(sha256_file_hex("g.c", gsha), 0);
	assert_int_equal(sha256_file_hex("h.c", hsha), 0);
	for (size_t i = 0; i < ARRAY_SIZE(pb); i++) {
		json_t *rows = json_array();
		for (int v = 0; v < 2; v++) {
			json_t *argv = json_pack("[s, s]", "cc", "-O2");
			if (v && pb[i].flag)
				json_array_append_new(argv, json_string(pb[i].flag));
			json_array_append_new(argv, json_string(v ? "h.c" : "g.c"));
			put_variant_x(&st, pb[i].ids[v], v ? "fast" : "base", sha, "# us\n100\n", "ok",
				      json_pack("{s:s, s:s, s:{s:[{s:s, s:s}], s:s, s:{s:o, s:s}}, s:{s:s, s:s, s:{s:i}, s:[s]}}",
						"experiment", pb[i].exp, "batch_id", pb[i].batch, "code", "sources", "path",
						v ? "h.c" : "g.c", "sha256", v ? hsha : gsha, "binary_sha256", pb[i].bins[v],
						"compiler", "argv", argv, "version", pb[i].exp[0] == 'f' ? "cc 2" : "cc 1",
						"problem", "name", "p", "dtype",
						"fp16", "shape", "S", 64, "dims", "S"));
			json_array_append_new(
				rows, v ? json_pack("{s:s, s:s, s:s, s:{s:{s:f, s:[f, f]}, s:{s:f, s:f}, s:s, s:[i, i]}}",
						    "variant", "fast", "run_id", pb[i].ids[v], "outcome", "ok",
						    "comparison", "speedup", "ratio", pb[i].ratio, "ci", pb[i].lo, pb[i].hi,
						    "mann_whitney", "p", pb[i].p, "p_adjusted", pb[i].p, "verdict",
						    pb[i].verdict, "repeats", 3, 3)
					: json_pack("{s:s, s:s, s:s, s:n}", "variant", "base", "run_id", pb[i].ids[v],
						    "outcome", "ok", "comparison"));
		}
		b = json_pack("{s:s, s:s, s:s, s:s, s:s, s:{s:{s:s, s:b}}, s:{s:I, s:f, s:f}, s:{s:s, s:s, s:{s:i}, "
			      "s:[s]}, s:o}",
			      "kind", "batch", "format", "evident-batch/1", "experiment", pb[i].exp, "batch_id", pb[i].batch,
			      "baseline", "base", "code", "git", "commit", "0123456789abcdef", "dirty", 0, "holm",
			      "comparisons", (json_int_t)1, "alpha", 0.05, "threshold", 0.01, "problem", "name", "p", "dtype",
			      "fp16", "shape", "S", 64, "dims", "S", "variants", rows);
		assert_int_equal(store_commit(&st, pb[i].batch, b), 0);
		json_decref(b);
	}
	/* experiment sw: one kernel file (s.c) both sides, a claim between two
	 * of its knob values (BM 128 against the baseline's BM 64, p 0.01);
	 * another batch compares two rows that differ in STAGES (not a try of
	 * this claim), a third BM 256 against BM 64 (one) (red team 38) */
	char ssha[SHA256_HEX_LEN + 1];
	f = fopen("s.c", "w");
	fputs("int s;\n", f);
	fclose(f);
	assert_int_equal(sha256_file_hex("s.c", ssha), 0);
	static const struct {
		const char *batch, *ids[2], *bins[2], *kb[2], *vb[2];
		double p;
	} sw[] = {
		{ "20260108T000002Z-sw-a-batch", { "20260108T000000Z-sw-base", "20260108T000001Z-sw-fast" },
		  { "s0", "s1" }, { "BM", "BM" }, { "64", "128" }, 0.01 },
		{ "20260108T000005Z-sw-b-batch", { "20260108T000003Z-sw-base", "20260108T000004Z-sw-fast" },
		  { "s2", "s3" }, { "STAGES", "STAGES" }, { "1", "2" }, 0.5 },
		{ "20260108T000008Z-sw-c-batch", { "20260108T000006Z-sw-base", "20260108T000007Z-sw-fast" },
		  { "s0", "s4" }, { "BM", "BM" }, { "64", "256" }, 0.5 },
	};
	for (size_t i = 0; i < ARRAY_SIZE(sw); i++) {
		json_t *rows = json_array();
		for (int v = 0; v < 2; v++) {
			put_variant_x(&st, sw[i].ids[v], v ? "fast" : "base", sha, "# us\n100\n", "ok",
				      json_pack("{s:s, s:s, s:{s:[{s:s, s:s}], s:s}, s:{s:s}, s:{s:s, s:s, s:{s:i}, s:[s]}}",
						"experiment", "sw", "batch_id", sw[i].batch, "code", "sources", "path", "s.c",
						"sha256", ssha, "binary_sha256", sw[i].bins[v], "params", sw[i].kb[v],
						sw[i].vb[v], "problem", "name", "p", "dtype", "fp16", "shape", "S", 64, "dims",
						"S"));
			json_t *row = v ? json_pack("{s:s, s:s, s:s, s:{s:{s:f, s:[f, f]}, s:{s:f, s:f}, s:s, s:[i, i]}}",
						    "variant", "fast", "run_id", sw[i].ids[v], "outcome", "ok",
						    "comparison", "speedup", "ratio", 1.5, "ci", 1.3, 1.7, "mann_whitney",
						    "p", sw[i].p, "p_adjusted", sw[i].p, "verdict",
						    sw[i].p < 0.05 ? "faster" : "no_difference", "repeats", 3, 3)
					: json_pack("{s:s, s:s, s:s, s:n}", "variant", "base", "run_id", sw[i].ids[v],
						    "outcome", "ok", "comparison");
			json_object_set_new(row, "params", json_pack("{s:s}", sw[i].kb[v], sw[i].vb[v]));
			json_array_append_new(rows, row);
		}
		b = json_pack("{s:s, s:s, s:s, s:s, s:s, s:{s:{s:s, s:b}}, s:{s:I, s:f, s:f}, s:{s:s, s:s, s:{s:i}, "
			      "s:[s]}, s:o}",
			      "kind", "batch", "format", "evident-batch/1", "experiment", "sw", "batch_id", sw[i].batch,
			      "baseline", "base", "code", "git", "commit", "0123456789abcdef", "dirty", 0, "holm",
			      "comparisons", (json_int_t)1, "alpha", 0.05, "threshold", 0.01, "problem", "name", "p", "dtype",
			      "fp16", "shape", "S", 64, "dims", "S", "variants", rows);
		assert_int_equal(store_commit(&st, sw[i].batch, b), 0);
		json_decref(b);
	}
	/* red team 41, finding 5: coin's older run checked above the
	 * problem's rel L2 (5.4e-5 against 1e-5) under a spec at 9.9x, its
	 * newest run clean; steady's two runs both clean */
	put_v2_tol(&st, "20260101T000011Z-e-coin", "coin", sha, 9.9e-5, 1e-5, 5.4e-5);
	put_v2_tol(&st, "20260101T000012Z-e-coin", "coin", sha, 9.9e-5, 1e-5, 1e-7);
	put_v2_tol(&st, "20260101T000013Z-e-steady", "steady", sha, 9.9e-5, 1e-5, 1e-7);
	put_v2_tol(&st, "20260101T000014Z-e-steady", "steady", sha, 9.9e-5, 1e-5, 2e-7);
	/* red team 138, finding 1: an exact problem rule (0) loosened by the
	 * spec; its checks are close, not exact (another kernel: exact.c) */
	put_v2_tol(&st, "20260101T000015Z-e-exact", "exact",
		   "e0e0e0e0e0e0e0e0e0e0e0e0e0e0e0e0e0e0e0e0e0e0e0e0e0e0e0e0e0e0e0e0", 1e-5, 0, 1e-7);
	/* red team 41, finding 4: experiment nd, slow (10% more work) recorded
	 * no_difference at 1.005x [0.794, 1.269], p 0.9, 3 repeats a side, by
	 * an evident before the equivalence rule (stats.h, rule 5) */
	put_variant_x(&st, "20260109T000000Z-nd-base", "base", sha, "# us\n100\n", "ok",
		      json_pack("{s:s, s:s}", "experiment", "nd", "batch_id", "B9"));
	put_variant_x(&st, "20260109T000001Z-nd-slow", "slow", sha, "# us\n100\n", "ok",
		      json_pack("{s:s, s:s}", "experiment", "nd", "batch_id", "B9"));
	b = json_pack("{s:s, s:s, s:s, s:s, s:s, s:{s:{s:s, s:b}}, s:{s:I, s:f, s:f},"
		      " s:[{s:s, s:s, s:s, s:n}, {s:s, s:s, s:s, s:{s:{s:f, s:[f, f]}, s:{s:f, s:f}, s:s, s:[i, i]}}]}",
		      "kind", "batch", "format", "evident-batch/1", "experiment", "nd", "batch_id", "B9", "baseline", "base",
		      "code", "git", "commit", "0123456789abcdef", "dirty", 0, "holm", "comparisons", (json_int_t)1, "alpha",
		      0.05, "threshold", 0.01, "variants", "variant", "base", "run_id", "20260109T000000Z-nd-base", "outcome",
		      "ok", "comparison", "variant", "slow", "run_id", "20260109T000001Z-nd-slow", "outcome", "ok",
		      "comparison", "speedup", "ratio", 1.005, "ci", 0.794, 1.269, "mann_whitney", "p", 0.9, "p_adjusted",
		      0.9, "verdict", "no_difference", "repeats", 3, 3);
	assert_int_equal(store_commit(&st, "20260109T000002Z-nd-x-batch", b), 0);
	json_decref(b);
	/* experiment nt: two kernels of their own (m.c, n.c) at three shapes,
	 * each batch no_difference inside the band: a no-difference claim on
	 * one of them is one of 3 tries (red team 41: each try is one more
	 * draw of a CI into the band) */
	char msha[SHA256_HEX_LEN + 1], nsha[SHA256_HEX_LEN + 1];
	f = fopen("m.c", "w");
	fputs("int m;\n", f);
	fclose(f);
	f = fopen("n.c", "w");
	fputs("int n;\n", f);
	fclose(f);
	assert_int_equal(sha256_file_hex("m.c", msha), 0);
	assert_int_equal(sha256_file_hex("n.c", nsha), 0);
	static const struct {
		const char *batch, *ids[2];
		int s;
		double lo, hi;
	} nt[] = {
		{ "20260110T000002Z-nt-a-batch", { "20260110T000000Z-nt-base", "20260110T000001Z-nt-fast" }, 64, 0.991,
		  1.009 },
		{ "20260110T000005Z-nt-b-batch", { "20260110T000003Z-nt-base", "20260110T000004Z-nt-fast" }, 128, 0.998,
		  1.002 },
		{ "20260110T000008Z-nt-c-batch", { "20260110T000006Z-nt-base", "20260110T000007Z-nt-fast" }, 256, 0.998,
		  1.002 },
	};
	for (size_t i = 0; i < ARRAY_SIZE(nt); i++) {
		json_t *rows = json_array();
		for (int v = 0; v < 2; v++) {
			put_variant_x(&st, nt[i].ids[v], v ? "fast" : "base", sha, "# us\n100\n", "ok",
				      json_pack("{s:s, s:s, s:{s:[{s:s, s:s}], s:s}, s:{s:s, s:s, s:{s:i}, s:[s]}}",
						"experiment", "nt", "batch_id", nt[i].batch, "code", "sources", "path",
						v ? "n.c" : "m.c", "sha256", v ? nsha : msha, "binary_sha256",
						v ? "nn" : "mm", "problem", "name", "p", "dtype", "fp16", "shape", "S", nt[i].s,
						"dims", "S"));
			json_array_append_new(
				rows, v ? json_pack("{s:s, s:s, s:s, s:{s:{s:f, s:[f, f]}, s:{s:f, s:f}, s:s, s:[i, i]}}",
						    "variant", "fast", "run_id", nt[i].ids[v], "outcome", "ok",
						    "comparison", "speedup", "ratio", 1.0, "ci", nt[i].lo, nt[i].hi,
						    "mann_whitney", "p", 0.8, "p_adjusted", 0.8, "verdict", "no_difference",
						    "repeats", 3, 3)
					: json_pack("{s:s, s:s, s:s, s:n}", "variant", "base", "run_id", nt[i].ids[v],
						    "outcome", "ok", "comparison"));
		}
		b = json_pack("{s:s, s:s, s:s, s:s, s:s, s:{s:{s:s, s:b}}, s:{s:I, s:f, s:f}, s:{s:s, s:s, s:{s:i}, "
			      "s:[s]}, s:o}",
			      "kind", "batch", "format", "evident-batch/1", "experiment", "nt", "batch_id", nt[i].batch,
			      "baseline", "base", "code", "git", "commit", "0123456789abcdef", "dirty", 0, "holm",
			      "comparisons", (json_int_t)1, "alpha", 0.05, "threshold", 0.01, "problem", "name", "p", "dtype",
			      "fp16", "shape", "S", nt[i].s, "dims", "S", "variants", rows);
		assert_int_equal(store_commit(&st, nt[i].batch, b), 0);
		json_decref(b);
	}
	/* red team 42, finding 1: w.c (one binary) wrong in some processes,
	 * under names w_a, w_b (experiment vc) and w_c (experiment vc2); solo
	 * (x.c) is another code, clean */
	char wsha[SHA256_HEX_LEN + 1], xsha[SHA256_HEX_LEN + 1], csha[SHA256_HEX_LEN + 1];
	f = fopen("w.c", "w");
	fputs("int w;\n", f);
	fclose(f);
	f = fopen("x.c", "w");
	fputs("int x;\n", f);
	fclose(f);
	f = fopen("c.c", "w");
	fputs("int c;\n", f);
	fclose(f);
	assert_int_equal(sha256_file_hex("w.c", wsha), 0);
	assert_int_equal(sha256_file_hex("x.c", xsha), 0);
	assert_int_equal(sha256_file_hex("c.c", csha), 0);
	put_host_run(&st, "20260111T000000Z-vc-wa", "vc", "w_a", NULL, "w.c", wsha, "wbin", NULL, "wrong_output");
	put_host_run(&st, "20260111T000001Z-vc-wb", "vc", "w_b", NULL, "w.c", wsha, "wbin", NULL, "ok");
	put_host_run(&st, "20260111T000002Z-vc2-wc", "vc2", "w_c", NULL, "w.c", wsha, "wbin", NULL, "ok");
	put_host_run(&st, "20260111T000003Z-vc-solo", "vc", "solo", NULL, "x.c", xsha, "xbin", NULL, "ok");
	/* red team 42, finding 2: experiment sp, c.c at COIN 1 as four rows
	 * c1..c4 against z (c.c at COIN 0): c1 no_difference, c2 slower, c3
	 * and c4 inconclusive; experiment sv: three other kernels (w.c, x.c,
	 * c.c at COIN 2) against z, v1 no_difference [0.991, 1.009] */
	static const struct {
		const char *var, *coin, *verdict;
		double ratio, lo, hi, p;
	} sp[] = {
		{ "z", "0", NULL, 0, 0, 0, 0 },
		{ "c1", "1", "no_difference", 1.001, 0.999, 1.003, 0.6 },
		{ "c2", "1", "slower", 0.771, 0.760, 0.780, 0.001 },
		{ "c3", "1", "inconclusive", 0.85, 0.70, 1.05, 0.2 },
		{ "c4", "1", "inconclusive", 0.88, 0.72, 1.04, 0.2 },
	};
	json_t *rows = json_array();
	for (size_t i = 0; i < ARRAY_SIZE(sp); i++) {
		char *id = xstrfmt("20260112T00000%zuZ-sp-%s", i, sp[i].var);
		put_host_run(&st, id, "sp", sp[i].var, "20260112T000009Z-sp-x-batch", "c.c", csha,
			     i ? "cbin1" : "cbin0", sp[i].coin, "ok");
		json_array_append_new(rows, host_row(sp[i].var, id, sp[i].coin, sp[i].verdict, sp[i].ratio, sp[i].lo,
						     sp[i].hi, sp[i].p));
		free(id);
	}
	put_host_batch(&st, "20260112T000009Z-sp-x-batch", "sp", rows);
	/* red team 143's 2': experiment dv, c.c at COIN 5 against z (COIN 0)
	 * in four batches: batch 0 five rows d1..d5 of that one code, each
	 * faster; batches 1 and 2 one row, slower; batch 3 one row, faster */
	for (int bi = 0; bi < 4; bi++) {
		char *bid = xstrfmt("20260112T10000%dZ-dv-%d-batch", bi, bi);
		int nd = bi == 0 ? 5 : 1;
		rows = json_array();
		for (int i = 0; i <= nd; i++) {
			char *var = i ? xstrfmt("d%d", i) : xstrfmt("z");
			char *id = xstrfmt("20260112T1000%d%dZ-dv-%s", bi, i, var);
			int slow = bi == 1 || bi == 2;
			put_host_run(&st, id, "dv", var, bid, "c.c", csha, i ? "cbin5" : "cbin0", i ? "5" : "0", "ok");
			json_array_append_new(rows, host_row(var, id, i ? "5" : "0", i ? (slow ? "slower" : "faster") : NULL,
							     slow ? 0.5 : 2.0, slow ? 0.45 : 1.9, slow ? 0.55 : 2.1, 0.001));
			free(var);
			free(id);
		}
		put_host_batch(&st, bid, "dv", rows);
		free(bid);
	}
	rows = json_array();
	static const char *const sv_var[] = { "z", "v1", "v2", "v3" };
	for (size_t i = 0; i < 4; i++) {
		char *id = xstrfmt("20260113T00000%zuZ-sv-%s", i, sv_var[i]);
		const char *path = i == 1 ? "w.c" : i == 2 ? "x.c" : "c.c";
		const char *sha_i = i == 1 ? wsha : i == 2 ? xsha : csha;
		static const char *const bins[] = { "cbin0", "wbin", "xbin", "cbin2" };
		put_host_run(&st, id, "sv", sv_var[i], "20260113T000009Z-sv-x-batch", path, sha_i, bins[i],
			     i == 0 ? "0" : i == 3 ? "2" : NULL, "ok");
		json_array_append_new(rows, i == 1 ? host_row("v1", id, NULL, "no_difference", 1.0, 0.991, 1.009, 0.8)
					   : i ? host_row(sv_var[i], id, i == 3 ? "2" : NULL, "inconclusive", 0.9, 0.7,
							  1.1, 0.3)
					       : host_row("z", id, "0", NULL, 0, 0, 0, 0));
		free(id);
	}
	put_host_batch(&st, "20260113T000009Z-sv-x-batch", "sv", rows);
	/* red team 45, finding 2: fa.c against fz.c (experiment fl) in six
	 * batches: fa's row ok and "faster 4.536x" in fl-0 only, flaky in fl-1
	 * to fl-3 (pick_fast failed its own slow processes), crashed in fl-4,
	 * launch_failed with no check recorded in fl-5 (a configuration's
	 * refusal before any output: no rerun) */
	char fasha[SHA256_HEX_LEN + 1], fzsha[SHA256_HEX_LEN + 1];
	f = fopen("fa.c", "w");
	fputs("int fa;\n", f);
	fclose(f);
	f = fopen("fz.c", "w");
	fputs("int fz;\n", f);
	fclose(f);
	assert_int_equal(sha256_file_hex("fa.c", fasha), 0);
	assert_int_equal(sha256_file_hex("fz.c", fzsha), 0);
	static const char *const fl_outcome[] = { "ok", "flaky", "flaky", "flaky", "crashed", "launch_failed" };
	for (size_t i = 0; i < ARRAY_SIZE(fl_outcome); i++) {
		char *bid = xstrfmt("20260115T0000%zu9Z-fl-%zu-batch", i, i);
		char *zid = xstrfmt("20260115T0000%zu0Z-fl-z", i), *aid = xstrfmt("20260115T0000%zu1Z-fl-fa", i);
		put_host_run(&st, zid, "fl", "z", bid, "fz.c", fzsha, "fzbin", NULL, "ok");
		json_t *x = json_pack("{s:s, s:s, s:s, s:{s:[{s:s, s:s}], s:s, s:{s:[s, s, s], s:s}}, s:{s:s, s:s, "
				      "s:{s:i}, s:[s]}}",
				      "experiment", "fl", "batch_id", bid, "backend", "host", "code", "sources", "path",
				      "fa.c", "sha256", fasha, "binary_sha256", "fabin", "compiler", "argv", "cc", "-O2",
				      "fa.c", "version", "cc 1", "problem", "name", "p2", "dtype", "fp32", "shape", "N",
				      256, "dims", "N");
		if (!strcmp(fl_outcome[i], "launch_failed"))
			json_object_set_new(x, "correctness", json_pack("{s:[], s:[], s:[]}", "results", "checks", "recheck"));
		put_variant_x(&st, aid, "fa", fasha, "# us\n100\n", fl_outcome[i], x);
		json_t *fa_row = i ? host_row("fa", aid, NULL, NULL, 0, 0, 0, 0)
				   : host_row("fa", aid, NULL, "faster", 4.536, 3.304, 8.851, 0.001);
		json_object_set_new(fa_row, "outcome", json_string(fl_outcome[i]));
		put_host_batch(&st, bid, "fl", json_pack("[o, o]", host_row("z", zid, NULL, NULL, 0, 0, 0, 0), fa_row));
		free(bid);
		free(zid);
		free(aid);
	}
	/* red team 46, finding 4: en.c echoes COIN only (en1, en2: one
	 * echo-neutral object) except at COIN=3, where it reaches the code */
	char ensha[SHA256_HEX_LEN + 1];
	f = fopen("en.c", "w");
	fputs("int en;\n", f);
	fclose(f);
	assert_int_equal(sha256_file_hex("en.c", ensha), 0);
	static const struct {
		const char *var, *coin, *neutral, *outcome;
	} en[] = { { "en1", "1", "ennone", "ok" }, { "en2", "2", "ennone", "wrong_output" },
		   { "en3", "3", "enreach", "wrong_output" } };
	for (size_t i = 0; i < ARRAY_SIZE(en); i++) {
		char *id = xstrfmt("20260118T00000%zuZ-en-%s", i, en[i].var), *bin = xstrfmt("enbin%zu", i);
		json_t *x = json_pack("{s:s, s:s, s:{s:[{s:s, s:s}], s:s, s:s, s:{s:[s, s, s], s:s}}, s:{s:s, s:s, "
				      "s:{s:i}, s:[s]}, s:{s:s}}",
				      "experiment", "en", "backend", "host", "code", "sources", "path", "en.c", "sha256",
				      ensha, "binary_sha256", bin, "echo_neutral_sha256", en[i].neutral, "compiler", "argv",
				      "cc", "-O2", "en.c", "version", "cc 1", "problem", "name", "p2", "dtype", "fp32",
				      "shape", "N", 256, "dims", "N", "params", "COIN", en[i].coin);
		json_object_set_new(x, "batch_id", json_string(id));
		put_variant_x(&st, id, en[i].var, ensha, "# us\n100\n", en[i].outcome, x);
		free(id);
		free(bin);
	}
	/* red team 38, finding 1: ea.c's z and a differ in TRY, which only
	 * the echo reads (binaries differ, echo-neutral objects do not); one
	 * batch reads a faster */
	{
		const char *bid = "20260119T000009Z-ea-x-batch";
		char easha[SHA256_HEX_LEN + 1];
		f = fopen("ea.c", "w");
		fputs("int ea;\n", f);
		fclose(f);
		assert_int_equal(sha256_file_hex("ea.c", easha), 0);
		static const char *const ea_var[] = { "z", "a" }, *const ea_try[] = { "1", "2" };
		json_t *rows = json_array();
		for (int i = 0; i < 2; i++) {
			char *id = xstrfmt("20260119T00000%dZ-ea-%s", i, ea_var[i]), *bin = xstrfmt("eabin%d", i);
			json_t *x = json_pack("{s:s, s:s, s:{s:[{s:s, s:s}], s:s, s:s, s:{s:[s, s, s], s:s}}, s:{s:s, "
					      "s:s, s:{s:i}, s:[s]}, s:{s:s}, s:s}",
					      "experiment", "ea", "backend", "host", "code", "sources", "path", "ea.c",
					      "sha256", easha, "binary_sha256", bin, "echo_neutral_sha256", "eanone",
					      "compiler", "argv", "cc", "-O2", "ea.c", "version", "cc 1", "problem", "name",
					      "p2", "dtype", "fp32", "shape", "N", 256, "dims", "N", "params", "TRY", ea_try[i],
					      "batch_id", bid);
			put_variant_x(&st, id, ea_var[i], easha, "# us\n100\n", "ok", x);
			json_t *row = i ? host_row("a", id, NULL, "faster", 1.5, 1.4, 1.6, 0.001)
					: host_row("z", id, NULL, NULL, 0, 0, 0, 0);
			json_object_set_new(row, "params", json_pack("{s:s}", "TRY", ea_try[i]));
			json_array_append_new(rows, row);
			free(id);
			free(bin);
		}
		put_host_batch(&st, bid, "ea", rows);
	}
	/* red team 83: lz.c and its comment-only copy la.c under another name
	 * (other contents, one object: linked stripped, red team 178) on the
	 * two sides of one batch, which reads a faster */
	{
		const char *bid = "20260127T000030Z-ls-x-batch";
		static const char *const ls_var[] = { "z", "a" }, *const ls_path[] = { "lz.c", "la.c" };
		static const char *const ls_text[] = { "int ls;\n", "/* a copy */\nint ls;\n" };
		json_t *rows = json_array();
		for (int i = 0; i < 2; i++) {
			char lssha[SHA256_HEX_LEN + 1];
			char *id = xstrfmt("20260127T00003%dZ-ls-%s", i, ls_var[i]), *bin = xstrdup("lsbin");
			put_file(ls_path[i], ls_text[i], lssha);
			json_t *x = json_pack("{s:s, s:s, s:{s:[{s:s, s:s}], s:s, s:s, s:{s:[s, s, s], s:s}}, s:{s:s, "
					      "s:s, s:{s:i}, s:[s]}, s:s}",
					      "experiment", "ls", "backend", "host", "code", "sources", "path", ls_path[i],
					      "sha256", lssha, "binary_sha256", bin, "load_sha256", "lsload", "compiler",
					      "argv", "cc", "-O2", ls_path[i], "version", "cc 1", "problem", "name", "p2",
					      "dtype", "fp32", "shape", "N", 256, "dims", "N", "batch_id", bid);
			put_variant_x(&st, id, ls_var[i], lssha, "# us\n100\n", "ok", x);
			json_array_append_new(rows, i ? host_row("a", id, NULL, "faster", 1.5, 1.4, 1.6, 0.001)
						      : host_row("z", id, NULL, NULL, 0, 0, 0, 0));
			free(id);
			free(bin);
		}
		put_host_batch(&st, bid, "ls", rows);
	}
	/* red team 47, finding 1: vb.c's speed is set per process; its
	 * median_us is 190 us [180, 240] in batch vb-0 and about 1300 us in
	 * vb-1..vb-3 (the same code); vb-4 ran other code (vo.c) at 190 us */
	char vbsha[SHA256_HEX_LEN + 1], vosha[SHA256_HEX_LEN + 1];
	f = fopen("vb.c", "w");
	fputs("int vb;\n", f);
	fclose(f);
	f = fopen("vo.c", "w");
	fputs("int vo;\n", f);
	fclose(f);
	assert_int_equal(sha256_file_hex("vb.c", vbsha), 0);
	assert_int_equal(sha256_file_hex("vo.c", vosha), 0);
	for (int i = 0; i < 5; i++) {
		char *bid = xstrfmt("20260117T00000%dZ-vb-%d-batch", i, i);
		char *zid = xstrfmt("20260117T00000%dZ-vb-z%d", i, i), *aid = xstrfmt("20260117T00000%dZ-vb-c%d", i, i);
		put_host_run(&st, zid, "vb", "z", bid, "fz.c", fzsha, "fzbin", NULL, "ok");
		put_host_run(&st, aid, "vb", "coin", bid, i == 4 ? "vo.c" : "vb.c", i == 4 ? vosha : vbsha,
			     i == 4 ? "vobin" : "vbbin", NULL, "ok");
		json_t *row = host_row("coin", aid, NULL, NULL, 0, 0, 0, 0);
		int fast = i == 0 || i == 4;
		json_object_set_new(row, "stats", json_pack("{s:i, s:f, s:[f, f]}", "n", 80, "median", fast ? 190.0 : 1300.0,
							    "median_ci", fast ? 180.0 : 1280.0, fast ? 240.0 : 1320.0));
		put_host_batch(&st, bid, "vb", json_pack("[o, o]", host_row("z", zid, NULL, NULL, 0, 0, 0, 0), row));
		free(bid);
		free(zid);
		free(aid);
	}
	/* red team 49, finding 1: nc.c's speed is set per process, its
	 * mean_us and min_us (no CI) 262 and 182 us in batch nc-0, about
	 * 1500 and 1200 in nc-1..nc-3 */
	{
		char ncsha[SHA256_HEX_LEN + 1];
		put_file("nc.c", "int nc;\n", ncsha);
		for (int i = 0; i < 4; i++) {
			char *bid = xstrfmt("20260121T00000%dZ-nc-%d-batch", i, i);
			put_rate_batch(&st, bid, "nc", NULL, "coin", "nc.c", ncsha, "ncbin", NULL, NULL, NULL,
				       i ? 1300.0 : 190.0, i ? 1280.0 : 180.0, i ? 1320.0 : 240.0, i ? 1500.0 : 262.0,
				       i ? 1200.0 : 182.0);
			free(bid);
		}
	}
	/* red team 49, finding 2: rq.c ran once (batch rq-0, slow) and was
	 * reproduced 3 times, fast in rq-r1 alone; rt.c ran twice, fast in
	 * rt-0, slow in rt-1 */
	{
		char rqsha[SHA256_HEX_LEN + 1], rtsha[SHA256_HEX_LEN + 1];
		put_file("rq.c", "int rq;\n", rqsha);
		put_file("rt.c", "int rt;\n", rtsha);
		put_rate_batch(&st, "20260122T000000Z-rq-0-batch", "rq", NULL, "coin", "rq.c", rqsha, "rqbin", NULL, NULL,
			       NULL, 1300, 1280, 1320, 1500, 1200);
		for (int i = 1; i <= 3; i++) {
			char *bid = xstrfmt("20260122T00000%dZ-rq-r%d-batch", i, i);
			put_rate_batch(&st, bid, "rq", "20260122T000000Z-rq-0-batch", "coin", "rq.c", rqsha, "rqbin", NULL,
				       NULL, NULL, i == 1 ? 190 : 1300, i == 1 ? 180 : 1280, i == 1 ? 240 : 1320, 262,
				       182);
			free(bid);
		}
		put_rate_batch(&st, "20260122T000010Z-rt-0-batch", "rt", NULL, "coin", "rt.c", rtsha, "rtbin", NULL, NULL,
			       NULL, 190, 180, 240, 262, 182);
		put_rate_batch(&st, "20260122T000011Z-rt-1-batch", "rt", NULL, "coin", "rt.c", rtsha, "rtbin", NULL, NULL,
			       NULL, 1300, 1280, 1320, 1500, 1200);
	}
	/* red team 49, finding 4: nt.c at SLOW=75 (ntbin, fast in nt-0 only
	 * of 3 batches) and its twin at SLOW=0 (ntwin, fast in its 4
	 * batches) share an echo-neutral object, the kernel having told the
	 * neutral build apart */
	{
		char ntsha[SHA256_HEX_LEN + 1];
		put_file("nt.c", "int nt;\n", ntsha);
		for (int i = 0; i < 7; i++) {
			char *bid = xstrfmt("20260123T00000%dZ-nt-%d-batch", i, i);
			int twin = i >= 3, fast = i == 0 || twin;
			put_rate_batch(&st, bid, "nt", NULL, twin ? "twin" : "coin", "nt.c", ntsha, twin ? "ntwin" : "ntbin",
				       "ntneutral", twin ? "0" : "75", NULL, fast ? 190 : 1300, fast ? 180 : 1280,
				       fast ? 240 : 1320, fast ? 262 : 1500, fast ? 182 : 1200);
			free(bid);
		}
	}
	/* red team 83: rate_coin (an honest kernel whose speed is a coin per
	 * process) and 7 comment-only copies under other names (lc0.c ..
	 * lc7.c: other contents, one object "lcbin": linked stripped),
	 * each in a batch of its own; lc0's drew fast (190 us), lc1..lc5's
	 * slow, lc6's and lc7's fast.  lo.c is another code (its own loaded
	 * image) that drew slow in two batches. */
	{
		for (int i = 0; i < 8; i++) {
			char lsha[SHA256_HEX_LEN + 1];
			char *path = xstrfmt("lc%d.c", i), *text = xstrfmt("int lc; /* copy %d */\n", i);
			char *bid = xstrfmt("20260127T00000%dZ-lc-%d-batch", i, i), *bin = xstrdup("lcbin");
			int fast = i == 0 || i >= 6;
			put_file(path, text, lsha);
			put_rate_batch_load(&st, bid, "lc", NULL, "coin", path, lsha, bin, NULL, "lcload", NULL, NULL,
					    fast ? 190 : 1300, fast ? 180 : 1280, fast ? 240 : 1320, fast ? 262 : 1500,
					    fast ? 182 : 1200);
			free(path);
			free(text);
			free(bid);
			free(bin);
		}
		char losha[SHA256_HEX_LEN + 1];
		put_file("lo.c", "int lo;\n", losha);
		for (int i = 0; i < 3; i++) {
			char *bid = xstrfmt("20260127T00001%dZ-lo-%d-batch", i, i);
			put_rate_batch_load(&st, bid, "lo", NULL, "coin", "lo.c", losha, "lobin", NULL, "loload", NULL, NULL,
					    i ? 1300 : 190, i ? 1280 : 180, i ? 1320 : 240, i ? 1500 : 262,
					    i ? 1200 : 182);
			free(bid);
		}
		/* red team 83's twin: coin_wrong and its comment-only copies
		 * (lt_a.c, lt_g.c: one object "ltbin", linked stripped), a's run
		 * wrong_output, g's ok; lt_o.c, another code, ok */
		const char *const lt[][4] = { { "a", "lt_a.c", "int lt; /* a */\n", "wrong_output" },
					      { "g", "lt_g.c", "int lt; /* g */\n", "ok" },
					      { "o", "lt_o.c", "int lt_other;\n", "ok" } };
		for (int i = 0; i < 3; i++) {
			char ltsha[SHA256_HEX_LEN + 1];
			char *id = xstrfmt("20260127T00002%dZ-lt-%s", i, lt[i][0]),
			     *bin = xstrdup(i == 2 ? "ltbino" : "ltbin");
			put_file(lt[i][1], lt[i][2], ltsha);
			put_host_run_load(&st, id, "lt", lt[i][0], lt[i][1], ltsha, bin, i == 2 ? "ltother" : "ltload",
					  lt[i][3]);
			free(id);
			free(bin);
		}
	}
	/* red team 87 */
	{
		/* fam: rf.c right at TILE=64, wrong at TILE=32; rf_g.c its
		 * comment-only copy (one object with rf.c at 64: linked stripped), run at
		 * 64 only.  famre: variant rfr/g ran rf.c at 64, then rf_g.c */
		char fsha[SHA256_HEX_LEN + 1], gsha[SHA256_HEX_LEN + 1];
		put_file("rf.c", "int rf;\n", fsha);
		put_file("rf_g.c", "/* a copy */\nint rf;\n", gsha);
		put_rt87_run(&st, "20260128T000000Z-rf-a64", "rf", "a64", "20260128T000000Z-rf-a64",
			     one_source("rf.c", fsha), "rfbin64", "rfload64", "64", "ok");
		put_rt87_run(&st, "20260128T000001Z-rf-a32", "rf", "a32", "20260128T000001Z-rf-a32",
			     one_source("rf.c", fsha), "rfbin32", "rfload32", "32", "wrong_output");
		put_rt87_run(&st, "20260128T000002Z-rfc-g", "rfc", "g", "20260128T000002Z-rfc-g",
			     one_source("rf_g.c", gsha), "rfbin64", "rfload64", "64", "ok");
		put_rt87_run(&st, "20260128T000003Z-rfr-g", "rfr", "g", "20260128T000003Z-rfr-g",
			     one_source("rf.c", fsha), "rfbin64", "rfload64", "64", "ok");
		put_rt87_run(&st, "20260128T000004Z-rfr-g", "rfr", "g", "20260128T000004Z-rfr-g",
			     one_source("rf_g.c", gsha), "rfbin64", "rfload64", "64", "ok");
		/* long: vl_g.c (a comment-only copy of vl.c) ok at 42.6 us in
		 * its batch; vl.c crashed in two */
		char lsha[SHA256_HEX_LEN + 1], lgsha[SHA256_HEX_LEN + 1];
		put_file("vl.c", "int vl;\n", lsha);
		put_file("vl_g.c", "/* a copy */\nint vl;\n", lgsha);
		put_rt87_zbatch(&st, "20260128T000010Z-vls-0-batch", "vls", "20260128T000010Z-vls-z",
				one_source("vl_g.c", lgsha), "vlbin", "vlload", "ok", 42.6, 38.0, 53.4, 1);
		for (int i = 1; i < 3; i++) {
			char *bid = xstrfmt("20260128T00001%dZ-vll-%d-batch", i, i), *zid = xstrfmt("20260128T00001%dZ-vll-z", i);
			put_rt87_zbatch(&st, bid, "vll", zid, one_source("vl.c", lsha), "vlbin", "vlload", "crashed", 0, 0,
					0, 1);
			free(bid);
			free(zid);
		}
		/* drift: dl.c at 100 us in a batch of its own; its comment-only
		 * copy dl_g.c at 700 us [650, 760] as z beside va, faster */
		char dsha[SHA256_HEX_LEN + 1], dgsha[SHA256_HEX_LEN + 1];
		put_file("dl.c", "int dl;\n", dsha);
		put_file("dl_g.c", "/* a copy */\nint dl;\n", dgsha);
		put_rt87_zbatch(&st, "20260128T000020Z-dlh-0-batch", "dlh", "20260128T000020Z-dlh-z",
				one_source("dl.c", dsha), "dlbin", "dlload", "ok", 100.0, 95.0, 105.0, 1);
		put_rt87_zbatch(&st, "20260128T000021Z-dl-0-batch", "dl", "20260128T000021Z-dl-z",
				one_source("dl_g.c", dgsha), "dlbin", "dlload", "ok", 700.0, 650.0, 760.0, 0);
		/* lib: lb.c, one object (binary, loaded image), with its library
		 * at 1 pass (100 us, a batch of its own) and at 40 (700 us, as z
		 * beside va): by the "loaded" mark (lb) and, a record from
		 * before it, by a shared object's name (lbn) */
		char bsha[SHA256_HEX_LEN + 1], l1sha[SHA256_HEX_LEN + 1], l40sha[SHA256_HEX_LEN + 1];
		put_file("lb.c", "int lb;\n", bsha);
		sha256_hex("pass1", 5, l1sha);
		for (int named = 0; named < 2; named++) {
			const char *lib = named ? "librtn.so.1" : "rtlib";
			put_file(lib, "pass40", l40sha);
			const char *hb = named ? "20260128T000032Z-lbnh-0-batch" : "20260128T000030Z-lbh-0-batch";
			const char *cb = named ? "20260128T000033Z-lbn-0-batch" : "20260128T000031Z-lb-0-batch";
			json_t *s1 = json_pack("[{s:s, s:s}, {s:s, s:s}]", "path", "lb.c", "sha256", bsha, "path", lib,
					       "sha256", l1sha);
			json_t *s40 = json_pack("[{s:s, s:s}, {s:s, s:s}]", "path", "lb.c", "sha256", bsha, "path", lib,
						"sha256", l40sha);
			if (!named) {
				json_object_set_new(json_array_get(s1, 1), "loaded", json_true());
				json_object_set_new(json_array_get(s40, 1), "loaded", json_true());
			}
			char *hz = xstrfmt("%.16s-%s-z", hb, named ? "lbnh" : "lbh"), *cz = xstrfmt("%.16s-%s-z", cb, named ? "lbn" : "lb");
			put_rt87_zbatch(&st, hb, named ? "lbnh" : "lbh", hz, s1, "lbbin", "lbload", "ok", 100.0, 95.0, 105.0, 1);
			put_rt87_zbatch(&st, cb, named ? "lbn" : "lb", cz, s40, "lbbin", "lbload", "ok", 700.0, 650.0, 760.0, 0);
			free(hz);
			free(cz);
		}
	}
	/* red team 44, finding 3: rp.c's s1 ran clean in batch rp-x, and
	 * wrong_output when `evident reproduce` rebuilt it (batch rp-rx) */
	char rpsha[SHA256_HEX_LEN + 1];
	f = fopen("rp.c", "w");
	fputs("int rp;\n", f);
	fclose(f);
	assert_int_equal(sha256_file_hex("rp.c", rpsha), 0);
	put_host_run(&st, "20260114T000000Z-rp-s1", "rp", "s1", "20260114T000002Z-rp-x-batch", "rp.c", rpsha, "rpbin",
		     NULL, "ok");
	put_host_batch(&st, "20260114T000002Z-rp-x-batch", "rp",
		       json_pack("[o]", host_row("s1", "20260114T000000Z-rp-s1", NULL, NULL, 0, 0, 0, 0)));
	put_host_run(&st, "20260114T000004Z-rp-s1r", "rp", "s1", "20260114T000005Z-rp-rx-batch", "rp.c", rpsha, "rpbin",
		     NULL, "wrong_output");
	put_host_repro(&st, "20260114T000005Z-rp-rx-batch", "rp", "20260114T000002Z-rp-x-batch",
		       json_pack("[o]", host_row("s1", "20260114T000004Z-rp-s1r", NULL, NULL, 0, 0, 0, 0)));
	/* red team 44, finding 1: sl.c, a kernel that echoes a parameter
	 * COIN (another code at each value), clean at COIN 1, wrong at 2,
	 * refused by the compiler at 3 */
	char slsha[SHA256_HEX_LEN + 1];
	f = fopen("sl.c", "w");
	fputs("int sl;\n", f);
	fclose(f);
	assert_int_equal(sha256_file_hex("sl.c", slsha), 0);
	put_host_run(&st, "20260115T000000Z-sl-s1", "sl", "s1", NULL, "sl.c", slsha, "slbin1", "1", "ok");
	put_host_run(&st, "20260115T000001Z-sl-s2", "sl", "s2", NULL, "sl.c", slsha, "slbin2", "2", "wrong_output");
	put_host_run(&st, "20260115T000002Z-sl-s3", "sl", "s3", NULL, "sl.c", slsha, "slbin3", "3", "build_failed");
	/* red team 44's coin_nodev: a host kernel that said no_device itself
	 * (recorded so before the runner refused it) in one of its runs */
	char ndsha[SHA256_HEX_LEN + 1];
	f = fopen("nd.c", "w");
	fputs("int nd;\n", f);
	fclose(f);
	assert_int_equal(sha256_file_hex("nd.c", ndsha), 0);
	put_host_run(&st, "20260116T000000Z-nd-a", "nd", "nd", NULL, "nd.c", ndsha, "ndbin", NULL, "ok");
	put_host_run(&st, "20260116T000001Z-nd-b", "nd", "nd", NULL, "nd.c", ndsha, "ndbin", NULL, "no_device");
	/* fix50: verdict claims against reruns of one code (vt.c, vr.c and
	 * vo.c, each against fz.c).  vt: a batch faster 4.5x, another no_difference; a tie.
	 * vr: a batch no_difference, reproduced 3 times (faster once,
	 * no_difference twice); a claim pinned to the faster reproduction.
	 * vo: one batch, faster: 1 of 1. */
	static const struct {
		const char *exp, *of, *verdict;
		double ratio, lo, hi, p;
	} vt[] = { { "vt", NULL, "faster", 4.536, 3.304, 8.851, 0.001 },
		   { "vt", NULL, "no_difference", 1.001, 0.996, 1.006, 0.8 },
		   { "vr", NULL, "no_difference", 1.001, 0.996, 1.006, 0.8 },
		   { "vr", "20260125T000029Z-vr-2-batch", "faster", 4.536, 3.304, 8.851, 0.001 },
		   { "vr", "20260125T000029Z-vr-2-batch", "no_difference", 0.999, 0.994, 1.004, 0.7 },
		   { "vr", "20260125T000029Z-vr-2-batch", "no_difference", 1.002, 0.997, 1.007, 0.6 },
		   { "vo", NULL, "faster", 4.536, 3.304, 8.851, 0.001 } };
	for (size_t i = 0; i < ARRAY_SIZE(vt); i++) {
		char *bid = xstrfmt("20260125T0000%zu9Z-%s-%zu-batch", i, vt[i].exp, i);
		char *zid = xstrfmt("20260125T0000%zu0Z-%s-z", i, vt[i].exp);
		char *aid = xstrfmt("20260125T0000%zu1Z-%s-va", i, vt[i].exp);
		put_host_run(&st, zid, vt[i].exp, "z", bid, "fz.c", fzsha, "fzbin", NULL, "ok");
		/* a kernel file per experiment: vt.c, vr.c, vo.c (no rerun or
		 * try of the others) */
		char *path = xstrfmt("%s.c", vt[i].exp), *bin = xstrfmt("%sbin", vt[i].exp), vsha[SHA256_HEX_LEN + 1];
		f = fopen(path, "w");
		fprintf(f, "int %s;\n", vt[i].exp);
		fclose(f);
		assert_int_equal(sha256_file_hex(path, vsha), 0);
		put_host_run(&st, aid, vt[i].exp, "va", bid, path, vsha, bin, NULL, "ok");
		free(path);
		free(bin);
		json_t *rows = json_pack("[o, o]", host_row("z", zid, NULL, NULL, 0, 0, 0, 0),
					 host_row("va", aid, NULL, vt[i].verdict, vt[i].ratio, vt[i].lo, vt[i].hi, vt[i].p));
		if (vt[i].of)
			put_host_repro(&st, bid, vt[i].exp, vt[i].of, rows);
		else
			put_host_batch(&st, bid, vt[i].exp, rows);
		free(bid);
		free(zid);
		free(aid);
	}
	/* red team 59: experiment dr, its baseline z (dz.c) at 100 us in its
	 * first batch and 700 us [650, 760] in its second, va (dv.c) faster
	 * in both */
	{
		char dzsha[SHA256_HEX_LEN + 1], dvsha[SHA256_HEX_LEN + 1];
		f = fopen("dz.c", "w");
		fputs("int dz;\n", f);
		fclose(f);
		f = fopen("dv.c", "w");
		fputs("int dv;\n", f);
		fclose(f);
		assert_int_equal(sha256_file_hex("dz.c", dzsha), 0);
		assert_int_equal(sha256_file_hex("dv.c", dvsha), 0);
		static const double zst[2][3] = { { 100.0, 95.0, 105.0 }, { 700.0, 650.0, 760.0 } };
		for (int i = 0; i < 2; i++) {
			char *bid = xstrfmt("20260126T00000%d9Z-dr-%d-batch", i, i);
			char *zid = xstrfmt("20260126T00000%d0Z-dr-z", i), *aid = xstrfmt("20260126T00000%d1Z-dr-va", i);
			put_host_run(&st, zid, "dr", "z", bid, "dz.c", dzsha, "dzbin", NULL, "ok");
			put_host_run(&st, aid, "dr", "va", bid, "dv.c", dvsha, "dvbin", NULL, "ok");
			json_t *zr = host_row("z", zid, NULL, NULL, 0, 0, 0, 0);
			json_object_set_new(zr, "stats", json_pack("{s:i, s:f, s:[f, f], s:i}", "n", 90, "median", zst[i][0],
								   "median_ci", zst[i][1], zst[i][2], "repeats", 3));
			json_t *rows = json_pack("[o, o]", zr, host_row("va", aid, NULL, "faster", 6.0, 5.0, 7.0, 0.001));
			put_host_batch(&st, bid, "dr", rows);
			free(bid);
			free(zid);
			free(aid);
		}
		/* red team 62 (f): experiment dn, z (dz.c: 100 us in dr's first
		 * batch) at 700 us beside dn.c, "no difference" */
		put_z700_pair(&st, "dn", dzsha, host_row("va", "20260126T0000201Z-dn-va", NULL, "no_difference", 1.0, 0.996,
							 1.004, 0.9));
		/* red team 62 (d): experiment dp, z (dz.c) at 700 us again beside
		 * dp.c, whose median CI [40, 60] us lies under z's fastest
		 * median (100 us, dr's first batch) */
		json_t *ar = host_row("va", "20260126T0000201Z-dp-va", NULL, "faster", 14.0, 11.0, 17.0, 0.001);
		json_object_set_new(ar, "stats", json_pack("{s:i, s:f, s:[f, f], s:i}", "n", 90, "median", 50.0, "median_ci",
							   40.0, 60.0, "repeats", 3));
		put_z700_pair(&st, "dp", dzsha, ar);
		/* red team 61: experiment df, the same two files, its baseline's
		 * first row flaky (no statistics of its own) but its ok run timed
		 * at 100 us, its second at 700 us (kernels of their own: ez.c; in
		 * the first batch beside another kernel, ew.c, so that it is no
		 * rerun of the claim's pair) */
		char ezsha[SHA256_HEX_LEN + 1], ewsha[SHA256_HEX_LEN + 1];
		f = fopen("ez.c", "w");
		fputs("int ez;\n", f);
		fclose(f);
		f = fopen("ew.c", "w");
		fputs("int ew;\n", f);
		fclose(f);
		assert_int_equal(sha256_file_hex("ez.c", ezsha), 0);
		assert_int_equal(sha256_file_hex("ew.c", ewsha), 0);
		for (int i = 0; i < 2; i++) {
			char *bid = xstrfmt("20260127T00000%d9Z-df-%d-batch", i, i);
			char *zid = xstrfmt("20260127T00000%d0Z-df-z", i), *aid = xstrfmt("20260127T00000%d1Z-df-va", i);
			put_host_run(&st, zid, "df", "z", bid, "ez.c", ezsha, "ezbin", NULL, "ok");
			if (i == 0)
				put_host_run(&st, aid, "df", "va", bid, "ew.c", ewsha, "ewbin", NULL, "ok");
			else
				put_host_run(&st, aid, "df", "va", bid, "dv.c", dvsha, "dvbin", NULL, "ok");
			json_t *zr = host_row("z", zid, NULL, NULL, 0, 0, 0, 0);
			if (i == 0) {
				json_object_set_new(zr, "outcome", json_string("flaky"));
				char *path = xstrfmt("store/runs/%s.json", zid);
				json_error_t je;
				json_t *r = json_load_file(path, 0, &je);
				assert_non_null(r);
				json_object_set_new(json_object_get(r, "timing"), "stats",
						    json_pack("{s:i, s:f, s:[f, f]}", "n", 30, "median", 100.0, "median_ci", 95.0,
							      105.0));
				assert_int_equal(json_dump_file(r, path, JSON_INDENT(1)), 0);
				json_decref(r);
				free(path);
			} else
				json_object_set_new(zr, "stats", json_pack("{s:i, s:f, s:[f, f], s:i}", "n", 90, "median", 700.0,
									   "median_ci", 650.0, 760.0, "repeats", 3));
			json_t *rows = json_pack("[o, o]", zr, host_row("va", aid, NULL, "faster", 6.0, 5.0, 7.0, 0.001));
			put_host_batch(&st, bid, "df", rows);
			free(bid);
			free(zid);
			free(aid);
		}
		/* red team 145's stress kernel for the audit: experiment ds, va
		 * (sv.c) faster 2.7x than z (sz.c) by its time, its row's
		 * stress_slow 43.5 (a stress distribution 43.5x its timing
		 * median); experiment dt, the same in a batch before the row's
		 * field (its notes alone say it); experiment du, two batches of
		 * the same code, the earlier with stress_slow 12 (red team 153:
		 * a claim on the clean later one was supported) */
		for (int i = 0; i < 4; i++) {
			const char *ex = i == 0 ? "ds" : i == 1 ? "dt" : "du";
			char zsha[SHA256_HEX_LEN + 1], vsha[SHA256_HEX_LEN + 1];
			char *zp = xstrfmt("%s_z.c", ex), *vp = xstrfmt("%s_v.c", ex);
			f = fopen(zp, "w");
			fprintf(f, "int %s_z;\n", ex);
			fclose(f);
			f = fopen(vp, "w");
			fprintf(f, "int %s_v;\n", ex);
			fclose(f);
			assert_int_equal(sha256_file_hex(zp, zsha), 0);
			assert_int_equal(sha256_file_hex(vp, vsha), 0);
			char *bid = xstrfmt("20260128T00000%d9Z-%s-0-batch", i, ex);
			char *zid = xstrfmt("20260128T00000%d0Z-%s-z", i, ex), *aid = xstrfmt("20260128T00000%d1Z-%s-va", i, ex);
			char *zb = xstrfmt("%szbin", ex), *vb = xstrfmt("%svbin", ex);
			put_host_run(&st, zid, ex, "z", bid, zp, zsha, zb, NULL, "ok");
			put_host_run(&st, aid, ex, "va", bid, vp, vsha, vb, NULL, "ok");
			json_t *zr = host_row("z", zid, NULL, NULL, 0, 0, 0, 0);
			json_object_set_new(zr, "stats", json_pack("{s:i, s:f, s:[f, f], s:i}", "n", 90, "median", 270.0,
								   "median_ci", 260.0, 280.0, "repeats", 3));
			json_t *vr = host_row("va", aid, NULL, "faster", 2.7, 2.5, 2.9, 0.001);
			json_object_set_new(vr, "stats", json_pack("{s:i, s:f, s:[f, f], s:i}", "n", 90, "median", 100.0,
								   "median_ci", 95.0, 105.0, "repeats", 3));
			if (!i)
				json_object_set_new(vr, "stress_slow", json_real(43.5));
			if (i == 2)
				json_object_set_new(vr, "stress_slow", json_real(12.0));
			if (i == 3)
				json_object_set_new(vr, "stress_slow", json_real(0));
			json_t *notes = i == 3 ? json_array()
					       : json_pack("[s]", "va: cancel 43.50x of uniform's median: speed depends on "
								  "the input; not in the time (timing.by_dist; the time is "
								  "the timing distributions' alone)");
			put_host_batch_notes(&st, bid, ex, json_pack("[o, o]", zr, vr), notes);
			free(zp);
			free(vp);
			free(bid);
			free(zid);
			free(aid);
			free(zb);
			free(vb);
		}
	}
	/* batches of experiment r and their reproductions, oldest first */
	const enum repro_verdict ok2[] = { REPRO_REPRODUCED, REPRO_REPRODUCED };
	const enum repro_verdict bad2[] = { REPRO_REPRODUCED, REPRO_NOT_REPRODUCED };
	const enum repro_verdict nobuild[] = { REPRO_COULD_NOT_REBUILD, REPRO_REPRODUCED };
	put_repro(&st, "20260102T000000Z-r-old1-batch", NULL, NULL, 2);
	put_repro(&st, "20260102T000001Z-r-old2-batch", NULL, NULL, 2);
	put_repro(&st, "20260102T000002Z-r-alone-batch", NULL, NULL, 2);
	put_repro(&st, "20260102T000003Z-r-rep1-batch", "20260102T000000Z-r-old1-batch", bad2, 2);
	put_repro(&st, "20260102T000004Z-r-rep2-batch", "20260102T000000Z-r-old1-batch", ok2, 2);
	put_repro(&st, "20260102T000005Z-r-rep3-batch", "20260102T000001Z-r-old2-batch", ok2, 2);
	put_repro(&st, "20260102T000006Z-r-rep4-batch", "20260102T000001Z-r-old2-batch", bad2, 2);
	put_repro(&st, "20260102T000007Z-r-old3-batch", NULL, NULL, 2);
	put_repro(&st, "20260102T000008Z-r-rep5-batch", "20260102T000007Z-r-old3-batch", nobuild, 2);
	/* reproduced, but only at a 90% band the writer chose (red team 70) */
	put_repro(&st, "20260102T000009Z-r-old4-batch", NULL, NULL, 2);
	put_repro_band = 0.9;
	put_repro(&st, "20260102T000010Z-r-rep6-batch", "20260102T000009Z-r-old4-batch", ok2, 2);
	put_repro_band = 0.01;
	/* reproduced by each variant's median, but v1's verdict turned round
	 * (red team 140: reproduce judges each median alone) */
	static const char *const was_faster[] = { NULL, "faster" }, *const now_slower[] = { NULL, "slower" };
	put_repro_verdicts = was_faster;
	put_repro(&st, "20260102T000020Z-r-old7-batch", NULL, NULL, 2);
	put_repro_verdicts = now_slower;
	put_repro(&st, "20260102T000021Z-r-rep9-batch", "20260102T000020Z-r-old7-batch", ok2, 2);
	put_repro_verdicts = NULL;
	put_stop_hunt(&st);
	put_kill_hunt(&st);
	put_wide_hunt(&st);
	put_killed_repros(&st);
	put_begun_hunt(&st);
	/* experiment th (red team 151): a sealed baseline, a kernel of the
	 * spec's run trust: host and a reference run so, each recorded
	 * faster at 2x over 3 repeats a side: the kernel's times are its own
	 * process's word (stats.h rule 0c), the reference's are the problem's */
	{
		static const char *const th[4][3] = { { "th_b.c", "base", "sealed" },
						      { "th_h.c", "host", "in_process" },
						      { "th_r.c", "ref", "in_process" },
						      { "th_n.c", "host2", "in_process" } };
		static const char *const th_us[4] = { "# us\n200\n201\n199\n", "# us\n100\n101\n99\n",
						      "# us\n100\n100.5\n99.5\n", "# us\n100\n101.5\n99\n" };
		for (int i = 0; i < 4; i++) {
			char tsha[SHA256_HEX_LEN + 1], id[64];
			FILE *tf = fopen(th[i][0], "w");
			fprintf(tf, "int th_%d;\n", i);
			fclose(tf);
			assert_int_equal(sha256_file_hex(th[i][0], tsha), 0);
			snprintf(id, sizeof(id), "20260105T00000%dZ-th-%s", i, th[i][1]);
			put_variant_x(&st, id, th[i][1], tsha, th_us[i], "ok",
				      json_pack("{s:s, s:s, s:{s:s}, s:{s:[{s:s, s:s}]}}", "experiment", "th", "batch_id",
						"B9", "judge", "executor", th[i][2], "code", "sources", "path", th[i][0],
						"sha256", tsha));
		}
		json_t *tb = json_pack(
			"{s:s, s:s, s:s, s:s, s:s, s:{s:{s:s, s:b}}, s:{s:I}, s:[{s:s, s:s, s:s, s:n},"
			" {s:s, s:s, s:s, s:{s:{s:f, s:[f, f]}, s:{s:f, s:f}, s:s, s:[i, i]}},"
			" {s:s, s:s, s:s, s:b, s:{s:{s:f, s:[f, f]}, s:{s:f, s:f}, s:s, s:[i, i]}},"
			" {s:s, s:s, s:s, s:{s:{s:f, s:[f, f]}, s:{s:f, s:f}, s:s, s:s, s:[i, i]}}]}",
			"kind", "batch", "format", "evident-batch/1", "experiment", "th", "batch_id", "B9", "baseline",
			"base", "code", "git", "commit", "0123456789abcdef", "dirty", 0, "holm", "comparisons",
			(json_int_t)3, "variants", "variant", "base", "run_id", "20260105T000000Z-th-base", "outcome", "ok",
			"comparison", "variant", "host", "run_id", "20260105T000001Z-th-host", "outcome", "ok",
			"comparison", "speedup", "ratio", 2.0, "ci", 1.98, 2.02, "mann_whitney", "p", 0.008, "p_adjusted",
			0.008, "verdict", "faster", "repeats", 3, 3, "variant", "ref", "run_id",
			"20260105T000002Z-th-ref", "outcome", "ok", "is_reference", 1, "comparison", "speedup", "ratio",
			2.0, "ci", 1.98, 2.02, "mann_whitney", "p", 0.008, "p_adjusted", 0.008, "verdict", "faster",
			"repeats", 3, 3, "variant", "host2", "run_id", "20260105T000003Z-th-host2", "outcome", "ok",
			"comparison", "speedup", "ratio", 2.0, "ci", 1.98, 2.02, "mann_whitney", "p", 0.008,
			"p_adjusted", 0.008, "verdict", "inconclusive", "verdict_reason", "trust: host", "repeats", 3, 3);
		assert_non_null(tb);
		assert_int_equal(store_commit(&st, "20260105T000004Z-th-x-batch", tb), 0);
		json_decref(tb);
	}
	store_release(&st);
	(void)state;
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	char *cmd = xstrfmt("rm -rf '%s'", dir);
	assert_int_equal(system(cmd), 0);
	free(cmd);
	return 0;
}

/* Audits text with the errata e (NULL: none); returns the findings (caller frees). */
static char *audit_with(const char *text, struct audit_counts *c, const struct audit_errata *e)
{
	struct query q = QUERY_INIT;
	struct audit_opts o = { 1, 1, e, "errata.txt" };
	struct strbuf out = STRBUF_INIT;
	memset(c, 0, sizeof(*c));
	assert_int_equal(query_open(&q, "store"), 0);
	assert_int_equal(audit_text(&q, "t.md", text, strlen(text), &o, &out, c), 0);
	query_release(&q);
	if (getenv("AUDIT_TEST_DEBUG"))
		fputs(out.buf ? out.buf : "", stderr);
	return strbuf_detach(&out, NULL);
}

/* Audits text; returns the findings (caller frees). */
static char *audit(const char *text, struct audit_counts *c)
{
	return audit_with(text, c, NULL);
}

static void test_parse_number(void **state)
{
	double v, ulp;
	const char *u;
	size_t ul;
	(void)state;
	assert_int_equal(audit_parse_number("1,234.5 us.", &v, &u, &ul, &ulp), 10);
	assert_true(fabs(v - 1234.5) < 1e-9 && fabs(ulp - 0.05) < 1e-12);
	assert_int_equal(ul, 2);
	assert_int_equal(audit_parse_number("1.42x faster", &v, &u, &ul, &ulp), 5);
	assert_int_equal(audit_parse_number("5 warps", &v, &u, &ul, &ulp), 1);
	assert_int_equal(ul, 0);
	assert_int_equal(audit_parse_number("128x64", &v, &u, &ul, &ulp), 3);
	assert_int_equal(ul, 0);
	assert_int_equal(audit_parse_number("3 \xc2\xb5s", &v, &u, &ul, &ulp), 5);
	assert_int_equal(audit_parse_number("12%", &v, &u, &ul, &ulp), 3);
	assert_int_equal(audit_parse_number("1,850 GB/s", &v, &u, &ul, &ulp), 10);
	assert_int_equal(audit_parse_number("x1", &v, &u, &ul, &ulp), 0);
	/* red team 86's spellings */
	assert_int_equal(audit_parse_number("41.7 (ms)", &v, &u, &ul, &ulp), 9);
	assert_int_equal(audit_parse_number("41.7 [ms]", &v, &u, &ul, &ulp), 9);
	assert_int_equal(audit_parse_number("41.7-ms", &v, &u, &ul, &ulp), 7);
	assert_int_equal(audit_parse_number("41.7 (ms", &v, &u, &ul, &ulp), 4);
	assert_int_equal(audit_parse_number("2.84X", &v, &u, &ul, &ulp), 5);
	assert_int_equal(audit_parse_number("54 per cent", &v, &u, &ul, &ulp), 11);
	assert_int_equal(audit_parse_number("1-minute", &v, &u, &ul, &ulp), 1);
	assert_int_equal(audit_parse_number("1.5x 2.5x", &v, &u, &ul, &ulp), 4);
	assert_int_equal(audit_parse_number("64 x N", &v, &u, &ul, &ulp), 2);
	assert_int_equal(audit_parse_number("12.5 Gb/s", &v, &u, &ul, &ulp), 9);
	assert_int_equal(audit_parse_number("12.5 gb/s", &v, &u, &ul, &ulp), 4); /* sizes keep their case */
}

static void test_no_difference_supported(void **state)
{
	struct audit_counts c;
	(void)state;
	char *f = audit("Twin ties. <!-- claim: no-difference experiment=e a=twin b=base -->\n"
			"Twin wins. <!-- claim: faster experiment=e a=twin b=base -->\n", &c);
	assert_non_null(strstr(f, "t.md:1: supported: no-difference twin vs base: speedup of twin over base 1.000x"));
	assert_non_null(strstr(f, "t.md:2: contradicted: faster twin vs base"));
	assert_int_equal(c.supported, 1);
	assert_int_equal(c.contradicted, 1);
	free(f);
}

/*
 * Rule 0 in the audit: a claim whose evidence is one process a side is
 * not supported, whatever the record says ("faster" here, as evident
 * recorded before the rule) and whether the audit compares the pair
 * itself (fast and slow, neither the baseline): the message says why.
 */
static void test_one_process_claims(void **state)
{
	struct audit_counts c;
	(void)state;
	char *f = audit("Fast wins. <!-- claim: faster experiment=o a=fast b=base -->\n"
			"Base loses. <!-- claim: slower experiment=o a=base b=fast -->\n"
			"Slow loses. <!-- claim: slower experiment=o a=slow b=fast -->\n",
			&c);
	assert_non_null(strstr(f, "t.md:1: contradicted: faster fast vs base: speedup of fast over base 2.000x "
				  "[1.980, 2.020], verdict inconclusive (1 repeat a side: the variance between processes "
				  "is unknown; recorded as faster; runs "));
	assert_non_null(strstr(f, "t.md:2: contradicted: slower base vs fast: "));
	assert_non_null(strstr(f, "verdict inconclusive (1 repeat a side: the variance between processes is unknown; "
				  "recorded as slower; runs "));
	assert_non_null(strstr(f, "t.md:3: contradicted: slower slow vs fast: speedup of slow over fast 0.250x"));
	assert_non_null(strstr(f, "verdict inconclusive (1 repeat a side: the variance between processes is unknown; "
				  "runs 20260104T000002Z-o-slow, 20260104T000001Z-o-fast)"));
	assert_int_equal(c.contradicted, 3);
	assert_int_equal(c.supported, 0);
	free(f);
}

/* Rule 0c in the audit: a faster claim on a kernel of the spec's run
 * trust: host is not supported whatever its batch recorded (red team 151's
 * forge: ok, 19.99x faster with honest work); a reference run so (the
 * problem's cuDNN, cuBLAS) keeps its verdict. */
static void test_trust_host_claims(void **state)
{
	struct audit_counts c;
	(void)state;
	char *f = audit("Host wins. <!-- claim: faster experiment=th a=host b=base -->\n"
			"Ref wins. <!-- claim: faster experiment=th a=ref b=base -->\n"
			"Host2 wins. <!-- claim: faster experiment=th a=host2 b=base -->\n",
			&c);
	assert_non_null(strstr(f, "t.md:1: contradicted: faster host vs base: "));
	assert_non_null(strstr(f, "but host is a kernel of the spec's that ran trust: host: its host code shared the "
				  "timing worker's process"));
	assert_non_null(strstr(f, "t.md:2: supported: faster ref vs base: "));
	/* a batch recorded under the rule (inconclusive) says why as well */
	const char *l3 = strstr(f, "t.md:3: contradicted: faster host2 vs base: ");
	assert_non_null(l3);
	assert_non_null(strstr(l3, "verdict inconclusive"));
	assert_non_null(strstr(l3, "but host2 is a kernel of the spec's that ran trust: host"));
	assert_int_equal(c.contradicted, 2);
	assert_int_equal(c.supported, 1);
	free(f);
}

static void test_value_rules(void **state)
{
	struct audit_counts c;
	(void)state;
	char *f = audit("<!-- claim: value experiment=e variant=base stat=median_us value=100.9us -->\n"
			"<!-- claim: value experiment=e variant=base stat=median_us value=0.1ms -->\n"
			"<!-- claim: value experiment=e variant=base stat=median_us value=105 -->\n"
			"<!-- claim: value experiment=e variant=base stat=median_us value=105 tol=5% -->\n"
			"<!-- claim: value experiment=e variant=twin stat=speedup value=1.2x -->\n"
			"<!-- claim: value experiment=e variant=base stat=bogus value=1 -->\n",
			&c);
	assert_non_null(strstr(f, "t.md:1: supported: value e/base median_us=100.9us: recorded 100, within the 95% CI"));
	assert_non_null(strstr(f, "t.md:2: supported: value e/base median_us=0.1ms"));
	assert_non_null(strstr(f, "t.md:3: contradicted: value e/base median_us=105: recorded 100, outside the 95% CI"));
	assert_non_null(strstr(f, "t.md:4: supported: value e/base median_us=105: recorded 100, within the stated tolerance"));
	assert_non_null(strstr(f, "t.md:5: contradicted: value e/twin speedup=1.2x"));
	assert_non_null(strstr(f, "t.md:6: error: claim 'value': unknown stat 'bogus'"));
	free(f);
}

static void test_measured_on_and_stale(void **state)
{
	struct audit_counts c;
	(void)state;
	const char *t = "<!-- claim: measured-on experiment=e gpu=\"H100\" -->\n"
			"<!-- claim: measured-on experiment=e gpu=\"A100\" -->\n"
			"<!-- claim: validated experiment=e variant=twin -->\n"
			"<!-- claim: validated experiment=e variant=nope -->\n";
	char *f = audit(t, &c);
	assert_non_null(strstr(f, "t.md:1: supported: measured-on e \"H100\": 2 run(s) on NVIDIA H100 80GB HBM3"));
	assert_non_null(strstr(f, "t.md:2: contradicted: measured-on e \"A100\": base ran on NVIDIA H100"));
	assert_non_null(strstr(f, "t.md:3: supported: validated e/twin"));
	assert_non_null(strstr(f, "t.md:4: unsupported: validated e/nope: no recorded run"));
	free(f);
	/* whole words: a part of a name, or no name at all, is not the
	 * device (red team 70: gpu=" " and gpu=":" were supported) */
	f = audit("<!-- claim: measured-on experiment=e gpu=\"H10\" -->\n"
		  "<!-- claim: measured-on experiment=e gpu=\" \" -->\n"
		  "<!-- claim: measured-on experiment=e gpu=\"nvidia h100\" -->\n",
		  &c);
	assert_non_null(strstr(f, "t.md:1: contradicted: measured-on e \"H10\""));
	assert_non_null(strstr(f, "t.md:2: contradicted: measured-on e \" \""));
	assert_non_null(strstr(f, "t.md:3: supported: measured-on e \"nvidia h100\""));
	free(f);
	FILE *k = fopen("k.c", "a");
	fputs("/* edit */\n", k);
	fclose(k);
	f = audit(t, &c);
	assert_non_null(strstr(f, "t.md:1: stale: measured-on e \"H100\": 'k.c' changed since run"));
	assert_non_null(strstr(f, "t.md:2: contradicted: measured-on e \"A100\": base ran on NVIDIA H100"));
	assert_non_null(strstr(f, "t.md:3: stale: validated e/twin"));
	assert_int_equal(c.stale, 2);
	assert_int_equal(c.contradicted, 1);
	assert_int_equal(c.unsupported, 1);
	free(f);
	k = fopen("k.c", "w");
	fputs("int k;\n", k);
	fclose(k);
}

static void test_untraced(void **state)
{
	struct audit_counts c;
	(void)state;
	char *f = audit("Median 100 us and 1.5x. <!-- claim: value experiment=e variant=base stat=median_us value=100us -->\n"
			"\n"
			"Another 100 us here; `7 us`; <!-- evident:value experiment=e variant=base run=latest stat=median_us -->100.00 us<!-- /evident:value -->.\n",
			&c);
	assert_non_null(strstr(f, "t.md:1: untraced: '1.5x'"));
	assert_null(strstr(f, "t.md:1: untraced: '100 us'"));
	assert_non_null(strstr(f, "t.md:3: untraced: '100 us'"));
	assert_non_null(strstr(f, "t.md:3: untraced: '7 us' (a figure quoted as code)"));
	assert_null(strstr(f, "100.00 us"));
	assert_int_equal(c.untraced, 3);
	free(f);
}

/*
 * Red team 105: a claim traced a number of a paragraph about another
 * experiment or variant ("The tagged copy (experiment rt105-bh, variant
 * aa) is 1.39x faster", claimed on rt105-sleep fast vs slow).  A claim
 * traces a number only where its paragraph names no experiment of the
 * store, nor a variant of one, that the claim is not about (a `setting`
 * is about its experiment's every variant).  Store: experiments e (base,
 * twin, ...), o (base, fast, slow), d (base, x, y).
 */
static void test_untraced_names_other(void **state)
{
	struct audit_counts c;
	(void)state;
	const char *claim = " <!-- claim: value experiment=e variant=base stat=median_us value=100us -->\n";
	struct {
		const char *prose;
		const char *want; /* NULL: traced */
	} cases[] = {
		{ "In experiment e, `base` runs in 100 us.", NULL },
		{ "In experiment d, the copy runs in 100 us.", "its paragraph names experiment d, and the claim on line 1 is about experiment e, variant base" },
		{ "`twin` runs in 100 us.", "its paragraph names variant twin (of experiment e)" },
		{ "The x variant runs in 100 us.", "its paragraph names variant x (of experiment d)" },
		{ "The copy is `x`, of `d`. It runs in 100 us.", "its paragraph names variant x (of experiment d)" },
		{ "The copy is `x`, of `d`.\nIt runs in 100 us.", "its paragraph names variant x (of experiment d)" },
		/* names as words: a plain word names a variant only in code or next to "variant"/"experiment" */
		{ "The twin pass and one more: base runs in 100 us, x-ray and d-day aside; it's fine.", NULL },
		{ "`base` in `d.x` runs in 100 us.", NULL },
		/* another variant of the claim's experiment, cited by a claim of its own: a comparison */
		{ "`twin` <!-- claim: validated experiment=e variant=twin --> is a copy; `base` runs in 100 us.", NULL },
		{ "`twin` is a copy; `base` runs in 100 us <!-- evident:value experiment=e variant=twin stat=median_us -->100.00 us<!-- /evident:value -->.", NULL },
		/* ... but not another experiment's variant, claimed or not */
		{ "`x` <!-- claim: validated experiment=d variant=x --> passes; `base` runs in 100 us.", "its paragraph names variant x (of experiment d)" },
		/* a name spelt with letters drawn like its own (red team 108): fullwidth, Cyrillic */
		{ "In experiment \xef\xbd\x84, the copy runs in 100 us.", "its paragraph names experiment d, and the claim on line 1 is about experiment e, variant base" },
		{ "In experiment \xd4\x81, the copy runs in 100 us.", "its paragraph names experiment d, and the claim on line 1 is about experiment e, variant base" },
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct strbuf t = STRBUF_INIT;
		strbuf_addstr(&t, cases[i].prose);
		strbuf_addstr(&t, claim);
		char *f = audit(strbuf_str(&t), &c);
		if (!cases[i].want) {
			if (c.untraced)
				fail_msg("case %zu: %s", i, f);
		} else if (c.untraced != 1 || !strstr(f, "untraced: '100 us' is stated by a claim, but ") ||
			   !strstr(f, cases[i].want)) {
			fail_msg("case %zu: %s", i, f);
		}
		free(f);
		strbuf_release(&t);
	}
	/* a generated value names its row, but not against its own sentence
	 * (red team 108's genvalue): another experiment named there is
	 * untraced; in the sentence before, or a variant of its own
	 * experiment, it is not */
	{
		const char *gv = "<!-- evident:value experiment=e variant=base stat=median_us -->100.00 us<!-- /evident:value -->";
		struct strbuf t = STRBUF_INIT;
		strbuf_addf(&t, "The copy (experiment `d`, variant `x`) runs in %s.\n", gv);
		char *g = audit(strbuf_str(&t), &c);
		assert_int_equal(c.untraced, 1);
		assert_non_null(strstr(g, "its sentence names experiment d"));
		free(g);
		strbuf_release(&t);
		strbuf_addf(&t, "Experiment `d` is another story. `twin` aside, `base` runs in %s.\n", gv);
		g = audit(strbuf_str(&t), &c);
		assert_int_equal(c.untraced, 0);
		free(g);
		strbuf_release(&t);
		/* a sentence that names nothing before its value is about the
		 * paragraph's last name (red team 108's residue) */
		strbuf_addf(&t, "The copy is `x`, of experiment `d`. It runs in %s.\n", gv);
		g = audit(strbuf_str(&t), &c);
		assert_int_equal(c.untraced, 1);
		assert_non_null(strstr(g, "the sentence before it names experiment d, another row's, and its own sentence names nothing before it"));
		free(g);
		strbuf_release(&t);
		strbuf_addf(&t, "The copy is `x`, of experiment `d`. Experiment `e` runs in %s.\n", gv);
		g = audit(strbuf_str(&t), &c);
		assert_int_equal(c.untraced, 0);
		free(g);
		strbuf_release(&t);
		strbuf_addf(&t, "Experiment `d` ran first; `base` of `e` came later. It runs in %s.\n", gv);
		g = audit(strbuf_str(&t), &c);
		assert_int_equal(c.untraced, 0);
		free(g);
		strbuf_release(&t);
	}
	/* a paragraph of its own: the name before the blank line does not count */
	char *f = audit("The copy is `x`, of experiment `d`.\n\nIt runs in 100 us. <!-- claim: value experiment=e variant=base stat=median_us value=100us -->\n", &c);
	assert_int_equal(c.untraced, 0);
	free(f);
	/* a setting is about every variant of its experiment, not another experiment's */
	f = audit("`twin` and `racy` ran with `samples: 3`. <!-- claim: setting experiment=e key=timing.samples value=3 -->\n"
		  "\n"
		  "`fast` (experiment `o`) ran with `samples: 3`. <!-- claim: setting experiment=e key=timing.samples value=3 -->\n",
		  &c);
	assert_int_equal(c.untraced, 1);
	assert_non_null(strstr(f, "t.md:3: untraced: '3' (named 'samples' in code) is stated by a claim, but its paragraph names variant fast (of experiment "));
	assert_non_null(strstr(f, "), and the claim on line 3 is about experiment e, all its variants"));
	free(f);
	/* a comparison: a= and b= are what it is about */
	f = audit("`fast` is 2.0x faster than `base` in experiment `o`; `slow` is not. <!-- claim: faster experiment=o a=fast b=base speedup=2.0 -->\n"
		  "\n"
		  "`fast` is 2.0x faster than `base` in experiment `o`. <!-- claim: faster experiment=o a=fast b=base speedup=2.0 -->\n",
		  &c);
	assert_int_equal(c.untraced, 1);
	assert_non_null(strstr(f, "t.md:1: untraced: '2.0x' is stated by a claim, but its paragraph names variant slow (of experiment o), and the claim on line 1 is about experiment o, fast vs base"));
	free(f);
}

/* red team 86: the scan reads what a reader sees, each spelling class one line */
static void test_untraced_rendered(void **state)
{
	struct audit_counts c;
	(void)state;
	char *f = audit("Wrapped: the kernel runs in 41.7\nus here.\n"
			"\n"
			"Spaces: 41.8  ms, 41.9\tms.\n"
			"\n"
			"Separators: 42.1-ms, 42.2 (ms), 42.3 [ms].\n"
			"\n"
			"Emphasis: **2.84**x and _42.4_ ms and ~~42.5 ms~~.\n"
			"\n"
			"Entities and tags: 42.6&nbsp;us, 2.85&times;, 2.86<!-- -->x, 2.87<b></b>x, 42.7&#160;us, <span class=\"a\">42.01</span> ms, <x 42.02 ms>.\n"
			"\n"
			"Case and words: 2.88X, 2.89 X, 2.90 x faster, 54 percent, 55 per cent, 56 pct, 42.8 MS, 42.9 uS, 43.1 USEC.\n"
			"\n"
			"More units: 12.5 Gbit/s, 3.1 TFLOP, 3.2 GFLOP/sec, 43.2 \xce\xbcsec, 43.3 msecs, \xe2\x82\xac" "0.16, 0.17 dollars, 0.18 EUR.\n"
			"\n"
			"Unknown: 43.4 cycles.\n"
			"\n"
			"Not results: p < 0.05 and [0.99, 1.01], a 1-minute load, 16 times the warps, 64 x N, sm_90, 4*4, 0.8 leaves it, 1e-5 x sum.\n"
			"\n"
			"> Quoted: it runs in 43.5\n> ms; a hard break 43.6\\\nms; unseen 43.7\xe2\x80\x8bms, 43.8&#8203;ms, 43.9&shy;ms.\n"
			"\n"
			"Named: a speedup of 1.54 over a, the median is 25.7; p of 0.03, a load average of 1.5.\n",
			&c);
	static const char *const want[] = {
		"t.md:1: untraced: '41.7 us'", "t.md:4: untraced: '41.8 ms'", "t.md:4: untraced: '41.9 ms'",
		"t.md:6: untraced: '42.1-ms'", "t.md:6: untraced: '42.2 (ms)'", "t.md:6: untraced: '42.3 [ms]'",
		"t.md:8: untraced: '2.84x'", "t.md:8: untraced: '42.4 ms'", "t.md:8: untraced: '42.5 ms'",
		"t.md:10: untraced: '42.6 us'", "t.md:10: untraced: '2.85\xc3\x97'", "t.md:10: untraced: '2.86x'",
		"t.md:10: untraced: '2.87x'", "t.md:10: untraced: '42.7 us'",
		"t.md:10: untraced: '42.01 ms'", "t.md:10: untraced: '42.02 ms'",
		"t.md:12: untraced: '2.88X'", "t.md:12: untraced: '2.89 X'", "t.md:12: untraced: '2.90 x'",
		"t.md:12: untraced: '54 percent'", "t.md:12: untraced: '55 per cent'", "t.md:12: untraced: '56 pct'",
		"t.md:12: untraced: '42.8 MS'", "t.md:12: untraced: '42.9 uS'", "t.md:12: untraced: '43.1 USEC'",
		"t.md:14: untraced: '12.5 Gbit/s'", "t.md:14: untraced: '3.1 TFLOP'", "t.md:14: untraced: '3.2 GFLOP/sec'",
		"t.md:14: untraced: '43.2 \xce\xbcsec'", "t.md:14: untraced: '43.3 msecs'",
		"t.md:14: untraced: '\xe2\x82\xac" "0.16'", "t.md:14: untraced: '0.17 dollars'", "t.md:14: untraced: '0.18 EUR'",
		"t.md:16: untraced: '43.4 cycles' ('cycles' reads as a unit the scan does not know)",
		"t.md:20: untraced: '43.5 ms'", "t.md:21: untraced: '43.6 ms'", "t.md:22: untraced: '43.7ms'",
		"t.md:22: untraced: '43.8ms'", "t.md:22: untraced: '43.9ms'",
		"t.md:24: untraced: '1.54' (a result: 'a speedup of' before it)",
		"t.md:24: untraced: '25.7' (a result: 'the median is' before it)",
		/* red team 88: a decimal in prose is a result unless a name, a
		 * version or a setting: a verb after it no longer excuses it */
		"t.md:18: untraced: '0.8' (a decimal in prose: a result unless it is a name, a version or a setting)",
	};
	for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++)
		if (!strstr(f, want[i]))
			fail_msg("missing: %s\nin:\n%s", want[i], f);
	assert_int_equal(c.untraced, (int)(sizeof(want) / sizeof(want[0])));
	free(f);
}

/*
 * Red team 88, holes 1 and 4: a number a reader reads as a result is one,
 * however it is written: digits of other scripts, a result in words, a
 * decimal in prose anywhere but a name, a version or a setting, an
 * integer the words before it name as a result, TeX math, an HTML table's
 * cells, a header of any length or with "(n=8)"; a '](' with no ')' hides
 * nothing.  And versions, settings and a statistic's parameter are not.
 */
static void test_untraced_rt88_forms(void **state)
{
	struct audit_counts c;
	(void)state;
	static const char *const forms[] = {
		/* 0 other digits */
		"b runs in \xef\xbc\x92\xef\xbc\x95.\xef\xbc\x97 us.",
		"b runs in \xef\xbc\x92\xef\xbc\x95\xef\xbc\x8e\xef\xbc\x97 \xce\xbcs.",
		"b runs in \xd9\xa2\xd9\xa5\xd9\xab\xd9\xa7 us.",
		"b runs in \xe0\xa5\xa8\xe0\xa5\xab.\xe0\xa5\xad us.",
		"b runs in \xf0\x9d\x9f\x90\xf0\x9d\x9f\x93.\xf0\x9d\x9f\x95 us.",
		/* 5 words */
		"b runs in twenty-five point seven microseconds.",
		"b is two and a half times faster than a.",
		"b halves a's time.",
		"b takes \xe2\x85\x94 of a's time.",
		"b cuts a's time by thirty-one per cent.",
		/* 10 decimals in prose */
		"b's median time came out at 25.7 on this host.",
		"The speedup of b over a is 1.54 here.",
		"b's time over a's is 25.7/39.6.",
		"In microseconds, b takes 25.7 and a 39.6.",
		"We timed b in microseconds. It came to 25.7.",
		"- b: 25.7",
		"## b's median came out at 25.7",
		/* 17 integers */
		"b's median is 26, against 40 for a.",
		"b takes 26 cycles where a takes 40.",
		"a speedup of 2 over a.",
		/* 20 tables, HTML, math, links */
		"| variant | median (n=8) |\n|---|---|\n| b | 25.7 |",
		"| variant | speedup, p |\n|---|---|\n| b | 1.54 |",
		"| variant | vs a |\n|---|---|\n| b | 1.54 |",
		"| variant | b's median time over the runs |\n|---|---|\n| b | 25.7 |",
		"<table><tr><td>b</td><td>25.7</td></tr></table>",
		"$t_b = 25.7\\,\\mu s$.",
		"$25.7\\,\\mu\\text{s}$",
		"See [the results](#results and b runs in 25.7 us.",
		"The table row reads `b 25.7 39.6`.",
		/* 29 superscript digits standing alone, keycaps */
		"b runs in \xc2\xb2\xe2\x81\xb5.\xe2\x81\xb7 us.",
		"b runs in 2\xef\xb8\x8f\xe2\x83\xa3" "5\xef\xb8\x8f\xe2\x83\xa3.7 us.",
		/* 31 a list after a setting holds numbers of its size */
		"Its p was 0.01 and 25.7 on this host.",
		/* 32 red team 122: a whole number before a rate, a digit
		 * fraction of something, "per-cent" */
		"b completes 371 calls per second.",
		"b completes 371 calls/s.",
		"b runs at 371 Hz.",
		"b runs at 371 it/s.",
		"b handles 1.2M tokens per second.",
		"b completes 371 launches a second.",
		"b takes 7/10 of a's time.",
		"b takes 71/100 of the time.",
		"b is 40 per-cent faster.",
	};
	static const char *const honest[] = {
		"It needs CUDA 12.4 toolkit headers.", "The host runs Ubuntu 22.04 LTS.",
		"Install Python 3.11 packages first.", "GCC 13.2 compilers warn here.", "Section 4.1 explains why.",
		"Compute capability 9.0 devices only.", "An sm 8.9 GPU.", "The threshold stays 0.5 throughout.",
		"We use alpha 0.05 everywhere.", "Evident 0.9 adds audits.", "A time step of 0.1 suffices.",
		"A learning rate of 0.01 works.", "Dropout rate 0.1 helps.", "Whiskers reach 1.5 IQR past the box.",
		"No difference at lags one and two (p 0.89 and 0.12).", "A speedup CI outside [0.99, 1.01] and a p.",
		"The median of 3 runs, a load average of 1.5, about three times slower, six hours later.",
		"with a did-you-mean (exit 2), and red team 12's table.",
		"We use 10\xc2\xb2 samples of x\xe2\x82\x82, nvcc/ptxas 13.0 and Slurm 22.05.",
		"| field | value |\n|---|---|\n| schema | 2.1 |",
		"Run `evident run --alpha 0.05` or set `x = 0.5` and `1 - 0.05/tries`.",
		"Each worker takes 3 requests per batch, 2 tiles per block and 4 calls a run.",
	};
	struct strbuf text = STRBUF_INIT;
	size_t nf = ARRAY_SIZE(forms), nh = ARRAY_SIZE(honest);
	for (size_t i = 0; i < nf; i++)
		strbuf_addf(&text, "P%zu\n%s\n\n", i, forms[i]);
	for (size_t i = 0; i < nh; i++)
		strbuf_addf(&text, "H%zu\n%s\n\n", i, honest[i]);
	char *f = audit(text.buf, &c);
	/* each form's paragraph has a finding; no honest one has */
	size_t line = 1;
	const char *p = text.buf;
	for (size_t i = 0; i < nf + nh; i++) {
		size_t first = line;
		const char *e = strstr(p, "\n\n");
		for (const char *q = p; q < e; q++)
			line += *q == '\n';
		line += 2;
		p = e + 2;
		int found = 0;
		for (size_t l = first; l < line; l++) {
			char tag[48];
			snprintf(tag, sizeof(tag), "t.md:%zu: untraced", l);
			found |= strstr(f, tag) != NULL;
		}
		if (i < nf && !found)
			fail_msg("form %zu not flagged: %s\n%s", i, forms[i], f);
		if (i >= nf && found)
			fail_msg("honest %zu flagged: %s\n%s", i - nf, honest[i - nf], f);
	}
	strbuf_release(&text);
	free(f);
	/* the unit of a range's or an uncertainty's second number is the
	 * first's; thousands parted by a space are one number */
	f = audit("b runs in 25.7 \xc2\xb1 0.3 us. <!-- claim: value experiment=e variant=base stat=median_us value=25.7us -->\n"
		  "\n"
		  "b runs in 4 to 9 us, and the suite took 1 959 s.\n",
		  &c);
	assert_null(strstr(f, "'25.7"));
	assert_non_null(strstr(f, "t.md:3: untraced: '4' (unit 'us' from the number after it)"));
	assert_non_null(strstr(f, "t.md:3: untraced: '1 959 s'"));
	free(f);
}

/* red team 86: a claim on a best case traces a number only where the text names it */
static void test_untraced_statistic_named(void **state)
{
	struct audit_counts c;
	(void)state;
	char *f = audit("It runs in 80 us. <!-- claim: value experiment=e variant=base stat=min_us value=80us -->\n"
			"\n"
			"Its fastest sample took 80 us. <!-- claim: value experiment=e variant=base stat=min_us value=80us -->\n"
			"\n"
			"The mean is 90 us, the p95 110 us, and a run takes 120 us. <!-- claim: value experiment=e variant=base stat=mean_us value=90us --> <!-- claim: value experiment=e variant=base stat=p95_us value=110us --> <!-- claim: value experiment=e variant=base stat=max_us value=120us -->\n"
			"\n"
			"It runs in 100 us. <!-- claim: value experiment=e variant=base stat=median_us value=100us -->\n"
			"\n"
			"Its fastest sample took 100 us. <!-- claim: value experiment=e variant=base stat=median_us value=100us -->\n"
			"\n"
			"Unlike the fastest kernel, it runs in 80 us. <!-- claim: value experiment=e variant=base stat=min_us value=80us -->\n"
			"\n"
			"The median is 100 us and the fastest 80 us. <!-- claim: value experiment=e variant=base stat=min_us value=80us --> <!-- claim: value experiment=e variant=base stat=median_us value=100us -->\n",
			&c);
	assert_non_null(strstr(f, "t.md:1: untraced: '80 us' (a claim states it as 'min_us', which the text before it does not name"));
	assert_null(strstr(f, "t.md:3: untraced"));
	assert_non_null(strstr(f, "t.md:5: untraced: '120 us' (a claim states it as 'max_us'"));
	assert_null(strstr(f, "'90 us'"));
	assert_null(strstr(f, "'110 us'"));
	assert_null(strstr(f, "t.md:7: untraced"));
	assert_non_null(strstr(f, "t.md:9: untraced: '100 us' (a claim states it as 'median_us', but the words before it say 'fastest')"));
	assert_non_null(strstr(f, "t.md:11: untraced: '80 us' (a claim states it as 'min_us', which the text before it does not name"));
	assert_null(strstr(f, "t.md:13: untraced"));
	assert_int_equal(c.untraced, 4);
	free(f);
}

/* Red team 88, hole 2: a statistic word names the number's statistic
 * only where it modifies the number (its last 3 words), and never where a
 * variant noun follows it ("the fastest variant", "our best kernel"). */
static void test_untraced_stat_modifies(void **state)
{
	struct audit_counts c;
	(void)state;
	char *f = audit("b is the fastest variant here and runs in 80 us. <!-- claim: value experiment=e variant=base stat=min_us value=80us -->\n"
			"\n"
			"The best kernel b runs in 80 us. <!-- claim: value experiment=e variant=base stat=min_us value=80us -->\n"
			"\n"
			"Unlike the fastest kernel it replaces b runs in 80 us. <!-- claim: value experiment=e variant=base stat=min_us value=80us -->\n"
			"\n"
			"The slowest variant b runs in 100 us. <!-- claim: value experiment=e variant=base stat=median_us value=100us -->\n"
			"\n"
			"Our best kernel a runs in 100 us. <!-- claim: value experiment=e variant=base stat=median_us value=100us -->\n"
			"\n"
			"Its fastest sample took 80 us. <!-- claim: value experiment=e variant=base stat=min_us value=80us -->\n"
			"\n"
			"Our best kernel's fastest sample took 80 us. <!-- claim: value experiment=e variant=base stat=min_us value=80us -->\n"
			"\n"
			"The fastest kernel's best run took 100 us. <!-- claim: value experiment=e variant=base stat=median_us value=100us -->\n",
			&c);
	assert_non_null(strstr(f, "t.md:1: untraced: '80 us' (a claim states it as 'min_us', which the text before it does not name"));
	assert_non_null(strstr(f, "t.md:3: untraced: '80 us' (a claim states it as 'min_us'"));
	assert_non_null(strstr(f, "t.md:5: untraced: '80 us' (a claim states it as 'min_us'"));
	assert_null(strstr(f, "t.md:7: untraced"));
	assert_null(strstr(f, "t.md:9: untraced"));
	assert_null(strstr(f, "t.md:11: untraced"));
	assert_null(strstr(f, "t.md:13: untraced"));
	assert_non_null(strstr(f, "t.md:15: untraced: '100 us' (a claim states it as 'median_us', but the words before it say 'best')"));
	assert_int_equal(c.untraced, 4);
	free(f);
}

/* red team 86: a column whose header names a result makes its unitless cells results */
static void test_untraced_result_columns(void **state)
{
	struct audit_counts c;
	(void)state;
	char *f = audit("| variant | median | speedup | time | runs | max rel error |\n"
			"|---|---|---|---|---|---|\n"
			"| b | 25.7 | 1.54 | 100 | 3 | 0.5 |\n"
			"\n"
			"| variant | min | median/us |\n"
			"|---|---|---|\n"
			"| base | 80 | 100 |\n"
			"<!-- claim: value experiment=e variant=base stat=min_us value=80us --> <!-- claim: value experiment=e variant=base stat=median_us value=100us -->\n"
			"\n"
			"| metric | value | unit |\n"
			"|---|---|---|\n"
			"| b | 41.7 | ms |\n"
			"| median (us) | 41.8 | |\n"
			"| median | 41.9 | |\n"
			"| fastest | 80 | |\n"
			"| runs | 3 | |\n"
			"<!-- claim: value experiment=e variant=base stat=min_us value=80us -->\n",
			&c);
	assert_non_null(strstr(f, "t.md:3: untraced: '25.7' (a result under its column 'median')"));
	assert_non_null(strstr(f, "t.md:3: untraced: '1.54' (a result under its column 'speedup')"));
	assert_non_null(strstr(f, "t.md:3: untraced: '100' (a result under its column 'time')"));
	assert_null(strstr(f, "t.md:7: untraced"));
	assert_non_null(strstr(f, "t.md:12: untraced: '41.7' (unit 'ms' from the cell after it)"));
	assert_non_null(strstr(f, "t.md:13: untraced: '41.8' (unit 'us' from its row's first cell)"));
	assert_non_null(strstr(f, "t.md:14: untraced: '41.9' (a result named by its row 'median')"));
	assert_null(strstr(f, "t.md:15: untraced"));
	assert_null(strstr(f, "t.md:16: untraced"));
	assert_int_equal(c.untraced, 6);
	free(f);
}

static void test_parse_signed_and_exponent(void **state)
{
	double v, ulp;
	const char *u;
	size_t ul;
	(void)state;
	assert_int_equal(audit_parse_number("-0.27", &v, &u, &ul, &ulp), 5);
	assert_true(fabs(v + 0.27) < 1e-12);
	assert_int_equal(audit_parse_number("\xe2\x88\x92" "5%", &v, &u, &ul, &ulp), 5); /* −5% */
	assert_true(fabs(v + 5) < 1e-12 && ul == 1);
	assert_int_equal(audit_parse_number("6.0e-99", &v, &u, &ul, &ulp), 7);
	assert_true(fabs(v / 6.0e-99 - 1) < 1e-9 && fabs(ulp / 0.5e-100 - 1) < 1e-9);
	assert_int_equal(audit_parse_number("2 hours", &v, &u, &ul, &ulp), 7);
	assert_int_equal(ul, 5);
	assert_int_equal(audit_parse_number("5 seeds", &v, &u, &ul, &ulp), 7);
	assert_int_equal(audit_parse_number("5 stages", &v, &u, &ul, &ulp), 1);
}

/* 1: a tolerance is bounded; a wider one is a malformed claim, not a pass */
static void test_tolerance_bounded(void **state)
{
	struct audit_counts c;
	(void)state;
	char *f = audit("<!-- claim: value experiment=e variant=base stat=median_us value=321us tol=200% -->\n"
			"<!-- claim: value experiment=e variant=base stat=median_us value=104us tol=5% -->\n"
			"<!-- claim: value experiment=e variant=base stat=median_us value=104us tol=6% -->\n"
			"<!-- claim: value experiment=e variant=base stat=median_us value=104us tol=6us -->\n"
			"<!-- claim: value experiment=e variant=base stat=median_us value=104us tol=5.2us -->\n"
			"<!-- claim: value experiment=e variant=base stat=median_us value=104us tol=1x -->\n"
			"<!-- claim: no-difference experiment=e a=twin b=base tol=1% -->\n"
			"<!-- claim: no-difference experiment=e a=twin b=base speedup=1.0 tol=50% -->\n"
			"<!-- claim: value experiment=e variant=base stat=median_us value=100x -->\n",
			&c);
	assert_non_null(strstr(f, "t.md:1: error: claim 'value': tol=200% is wider than the 5% a claim may allow"));
	assert_non_null(strstr(f, "t.md:2: supported: value e/base median_us=104us: recorded 100, within the stated tolerance [95, 105]"));
	assert_non_null(strstr(f, "t.md:3: error: claim 'value': tol=6% is wider than the 5%"));
	assert_non_null(strstr(f, "t.md:4: error: claim 'value': tol=6us is more than 5% of the stated value"));
	assert_non_null(strstr(f, "t.md:5: supported: value e/base median_us=104us"));
	assert_non_null(strstr(f, "t.md:6: error: claim 'value': tol='1x' is not a positive percentage (5%) or amount of a time"));
	assert_non_null(strstr(f, "t.md:7: error: claim 'no-difference': tol= needs speedup=X"));
	assert_non_null(strstr(f, "t.md:8: error: claim 'no-difference': tol=50% is wider"));
	assert_non_null(strstr(f, "t.md:9: error: claim 'value': value='100x' has a unit of another kind; it should be a time"));
	assert_int_equal(c.errors, 7);
	assert_int_equal(c.supported, 2);
	free(f);
}

/* 2: a claim traces only numbers of its own quantity in its paragraph */
static void test_same_quantity(void **state)
{
	struct audit_counts c;
	(void)state;
	char *f = audit("n is 3, not 3 us or 3x or 3 ms. <!-- claim: value experiment=e variant=base stat=n value=3 -->\n"
			"\n"
			"It takes 100 us (0.1 ms), not 100x. <!-- claim: value experiment=e variant=base stat=median_us value=100us -->\n"
			"\n"
			"Speedup 1.0x, not 1.0 us. <!-- claim: no-difference experiment=e a=twin b=base speedup=1.0 -->\n"
			"\n"
			"With `samples: 3` and `median_us: 100`, not `seeds: 3`. <!-- claim: setting experiment=e key=timing.samples value=3 --> <!-- claim: value experiment=e variant=base stat=median_us value=100 -->\n",
			&c);
	assert_non_null(strstr(f, "t.md:1: untraced: '3 us'"));
	assert_non_null(strstr(f, "t.md:1: untraced: '3x'"));
	assert_non_null(strstr(f, "t.md:1: untraced: '3 ms'"));
	assert_non_null(strstr(f, "t.md:3: untraced: '100x'"));
	assert_null(strstr(f, "'100 us'"));
	assert_null(strstr(f, "'0.1 ms'"));
	assert_non_null(strstr(f, "t.md:5: untraced: '1.0 us'"));
	assert_null(strstr(f, "'1.0x'"));
	assert_non_null(strstr(f, "t.md:7: untraced: '3' (named 'seeds' in code)"));
	assert_int_equal(c.untraced, 6);
	assert_int_equal(c.supported, 5);
	free(f);
}

/* 3: validated means every check a run recorded passed, and says which ran */
static void test_validated_every_check(void **state)
{
	struct audit_counts c;
	(void)state;
	char *f = audit("<!-- claim: validated experiment=e variant=racy -->\n"
			"<!-- claim: validated experiment=e variant=timed -->\n"
			"<!-- claim: validated experiment=e variant=rech -->\n"
			"<!-- claim: validated experiment=e variant=clean -->\n"
			"<!-- claim: validated experiment=e variant=base -->\n",
			&c);
	assert_non_null(strstr(f, "t.md:1: contradicted: validated e/racy: 1 of 1 run(s) of the current source failed a check: run 20260101T000003Z-e-racy: racecheck found 1 error(s)\n"));
	assert_non_null(strstr(f, "t.md:2: contradicted: validated e/timed: 1 of 1 run(s) of the current source failed a check: run 20260101T000004Z-e-timed: 'timed_launches' check: 1 of 2 failed\n"));
	assert_non_null(strstr(f, "t.md:3: contradicted: validated e/rech: 1 of 1 run(s) of the current source failed a check: run 20260101T000005Z-e-rech: re-check after timing: 1 of 1 failed (seed 12"));
	assert_non_null(strstr(f, "t.md:4: supported: validated e/clean: 1 run(s) of the current source passed every check that ran: 2 seeds, re-check after timing, 'timed_launches' check, memcheck (latest 20260101T000006Z-e-clean)"));
	assert_non_null(strstr(f, "t.md:5: supported: validated e/base: 1 run(s) of the current source passed every check that ran: 2 seeds, re-check after timing (latest"));
	assert_int_equal(c.contradicted, 3);
	free(f);
}

/* 3b: for evident-run/2, validated reads the checks by phase, the extra shape's status and the float64 reference */
static void test_validated_v2(void **state)
{
	struct audit_counts c;
	(void)state;
	char *f = audit("<!-- claim: validated experiment=e variant=v2ok -->\n"
			"<!-- claim: validated experiment=e variant=v2spec -->\n"
			"<!-- claim: validated experiment=e variant=v2ref -->\n"
			"<!-- claim: validated experiment=e variant=v2timed -->\n"
			"<!-- claim: validated experiment=e variant=v2ok run=20260101T00000 -->\n"
			"<!-- claim: validated experiment=e variant=v2ok run=20260101T000007 -->\n"
			"<!-- claim: validated experiment=e variant=v2ok run=20260101T000008 -->\n",
			&c);
	assert_non_null(strstr(f, "t.md:1: supported: validated e/v2ok: 1 run(s) of the current source passed every check that ran: 3 seeds, 2 timed launches, extra shape, float64 reference (latest 20260101T000007Z-e-v2ok)\n"));
	assert_non_null(strstr(f, "t.md:2: contradicted: validated e/v2spec: 1 of 1 run(s) of the current source failed a check: run 20260101T000008Z-e-v2spec: extra shape: specialised (init refused S=193)\n"));
	assert_non_null(strstr(f, "t.md:3: contradicted: validated e/v2ref: 1 of 1 run(s) of the current source failed a check: run 20260101T000009Z-e-v2ref: the float64 reference check did not pass (rel L2 0.01)\n"));
	assert_non_null(strstr(f, "t.md:4: contradicted: validated e/v2timed: 1 of 1 run(s) of the current source failed a check: run 20260101T000010Z-e-v2timed: 2 timed launches: 1 of 2 failed (seed 99, uniform inputs, sample 7, max |err| 0.5)\n"));
	/* a run id prefix that names several runs is no evidence; one that names a run of another variant neither */
	assert_non_null(strstr(f, "t.md:5: unsupported: validated e/v2ok: run id '20260101T00000' is ambiguous (20260101T000000Z-e-base, "));
	assert_non_null(strstr(f, "t.md:6: supported: validated e/v2ok: 1 run(s)"));
	assert_non_null(strstr(f, "t.md:7: unsupported: validated e/v2ok: no recorded run with that run id"));
	assert_int_equal(c.contradicted, 3);
	assert_int_equal(c.supported, 2);
	free(f);
}

/* 4: after a code change, what the runs contradict is contradicted (and stale), the rest stale */
static void test_stale_keeps_contradicted(void **state)
{
	struct audit_counts c;
	(void)state;
	FILE *k = fopen("k.c", "a");
	fputs("/* edit */\n", k);
	fclose(k);
	char *f = audit("<!-- claim: measured-on experiment=e gpu=\"L4\" -->\n"
			"<!-- claim: faster experiment=e a=twin b=base -->\n"
			"<!-- claim: no-difference experiment=e a=twin b=base -->\n"
			"<!-- claim: validated experiment=e variant=racy -->\n"
			"<!-- claim: setting experiment=e key=timing.samples value=4 -->\n",
			&c);
	assert_non_null(strstr(f, "t.md:1: contradicted: measured-on e \"L4\": base ran on NVIDIA H100 80GB HBM3"));
	assert_non_null(strstr(f, "; also stale: 'k.c' changed since run '20260101T000000Z-e-base'; rerun the experiment\n"));
	assert_non_null(strstr(f, "t.md:2: contradicted: faster twin vs base: speedup of twin over base 1.000x"));
	assert_non_null(strstr(f, "t.md:3: stale: no-difference twin vs base: 'k.c' changed since run"));
	assert_non_null(strstr(f, "t.md:4: contradicted: validated e/racy: 1 of 1 run(s) of the last recorded code failed a check"));
	assert_non_null(strstr(f, "t.md:5: contradicted: setting e timing.samples=4: 2 of 2 run(s) recorded another value"));
	assert_int_equal(c.contradicted, 4);
	assert_int_equal(c.stale, 1);
	free(f);
	k = fopen("k.c", "w");
	fputs("int k;\n", k);
	fclose(k);
}

/* reproduced: every reproduction of the batch counts (red team 70: a
 * reader's that did not reproduce was passed over for a later one); none
 * is unsupported */
static void test_reproduced(void **state)
{
	struct audit_counts c;
	(void)state;
	char *f = audit("<!-- claim: reproduced run=20260102T000000Z-r-old1-batch -->\n"
			"<!-- claim: reproduced run=20260102T000001Z-r-old2 -->\n"
			"<!-- claim: reproduced run=20260102T000002Z-r-alone-batch -->\n"
			"<!-- claim: reproduced run=20260102T000007Z-r-old3-batch experiment=r -->\n"
			"<!-- claim: reproduced run=nope -->\n"
			"<!-- claim: reproduced run=20260102T000000Z-r-old1-batch experiment=e -->\n"
			"<!-- claim: reproduced experiment=r -->\n"
			"<!-- claim: reproduced run=20260102T000009Z-r-old4-batch -->\n"
			"<!-- claim: reproduced run=20260102T000009Z-r-old4-batch threshold=90% -->\n"
			"<!-- claim: reproduced run=20260102T000020Z-r-old7-batch -->\n"
			"<!-- claim: reproduced run=20260102T000020Z-r-old7-batch threshold=5% -->\n",
			&c);
	/* a band past 50% is no claim's to state (red team 140:
	 * threshold=99% supported a reproduction 1.67x slower) */
	assert_non_null(strstr(f, "t.md:8: unsupported: reproduced 20260102T000009Z-r-old4-batch: reproduced only within "
				  "a noise band of 90%, wider than the 50% a claim may allow; run 'evident reproduce "
				  "--threshold' at 0.5 or less"));
	assert_non_null(strstr(f, "t.md:9: unsupported: reproduced 20260102T000009Z-r-old4-batch: threshold=90% is wider "
				  "than the 50% a claim may allow"));
	/* a verdict lost does not reproduce, whatever the medians */
	assert_non_null(strstr(f, "t.md:10: contradicted: reproduced 20260102T000020Z-r-old7-batch: 1 of 1 "
				  "reproduction(s) did not reproduce; the latest of them, batch 20260102T000021Z-r-rep9-batch, "
				  "lost a verdict: v1 read faster then and slower now"));
	assert_non_null(strstr(f, "t.md:11: contradicted: reproduced 20260102T000020Z-r-old7-batch"));
	/* an earlier reproduction failed, the latest reproduced: the failure
	 * stands, named */
	assert_non_null(strstr(f, "t.md:1: contradicted: reproduced 20260102T000000Z-r-old1-batch: 1 of 2 reproduction(s) "
				  "did not reproduce; the latest of them, batch 20260102T000003Z-r-rep1-batch, did not "
				  "reproduce"));
	/* the other way round: the latest did not, and it says which and why */
	assert_non_null(strstr(f, "t.md:2: contradicted: reproduced 20260102T000001Z-r-old2: 1 of 2 reproduction(s) did "
				  "not reproduce; the latest of them, batch 20260102T000006Z-r-rep4-batch, did not reproduce "
				  "1 of 2 variant(s): v1 not_reproduced: median 100.000 us then, 500.000 us now (5.00x)"));
	assert_non_null(strstr(f, "t.md:3: unsupported: reproduced 20260102T000002Z-r-alone-batch: batch "
				  "20260102T000002Z-r-alone-batch has no reproduction in the store; run 'evident reproduce"));
	assert_non_null(strstr(f, "t.md:4: contradicted: reproduced 20260102T000007Z-r-old3-batch: 1 of 1 "
				  "reproduction(s) did not reproduce; the latest of them, batch 20260102T000008Z-r-rep5-batch, "
				  "did not reproduce 1 of 2 variant(s): v0 could_not_rebuild"));
	assert_non_null(strstr(f, "t.md:5: unsupported: reproduced nope: no run 'nope' in the store"));
	assert_non_null(strstr(f, "t.md:6: unsupported: reproduced 20260102T000000Z-r-old1-batch: run "
				  "'20260102T000000Z-r-old1-batch' is of experiment 'r', not 'e'"));
	assert_non_null(strstr(f, "t.md:7: error: claim 'reproduced'"));
	assert_int_equal(c.supported, 0);
	assert_int_equal(c.contradicted, 5);
	assert_int_equal(c.unsupported, 5);
	assert_int_equal(c.errors, 1);
	free(f);
}

/*
 * faster, between two variants neither of which is the baseline: compared
 * by repeat, as the batch compares with its baseline.  Pooling y's
 * drifting repeats as independent samples supported "x is faster" (p far
 * below 0.05); by repeat it is inconclusive, so the claim is contradicted.
 * x against the baseline (this hand-made batch recorded no comparisons,
 * so it is judged the same way) is a real difference and stays supported,
 * its p adjusted over the batch's 3 pairs too.
 */
static void test_pair_by_repeat(void **state)
{
	struct audit_counts c;
	(void)state;
	char *f = audit("<!-- claim: faster experiment=d a=x b=y -->\n"
			"<!-- claim: slower experiment=d a=y b=x -->\n"
			"<!-- claim: faster experiment=d a=x b=base -->\n",
			&c);
	assert_non_null(strstr(f, "t.md:1: contradicted: faster x vs y: speedup of x over y "));
	/* its p adjusted over the batch's 3 pairs (red team 34) */
	assert_non_null(strstr(f, "verdict inconclusive (3 and 3 repeats, two-level, p "));
	assert_non_null(strstr(f, " adjusted over the batch's 3 pairs; runs "
				  "20260103T000003Z-d-x0, 20260103T000006Z-d-y0)"));
	assert_non_null(strstr(f, "t.md:2: contradicted: slower y vs x"));
	assert_non_null(strstr(f, "t.md:3: supported: faster x vs base: speedup of x over base 1.05"));
	assert_int_equal(c.contradicted, 2);
	assert_int_equal(c.supported, 1);
	free(f);
}

/*
 * Red team 88, hole 3: the pair memo kept pc->used pointing at the sc of
 * the frame that first compared the pair (pair_unpoint looked at the memo
 * copy's address), so a claim that hit the memo from another frame read
 * a dead stack frame: its verdict depended on the claims before it (ASan
 * with detect_stack_use_after_return=1: stack-use-after-return).  Batch
 * B2 recorded no comparisons, so every pair is compared here (pc->sc):
 * the verdict claim reads the same alone and after claims on the pair,
 * whose frames stored it (before: ASan stack-use-after-return).
 */
static void test_pair_memo_frames(void **state)
{
	struct audit_counts c;
	(void)state;
	char *alone = audit("<!-- claim: faster experiment=d a=x b=base -->\n", &c);
	char *after = audit("<!-- claim: faster experiment=d a=x b=y -->\n"
			    "<!-- claim: faster experiment=d a=x b=base -->\n"
			    "<!-- claim: faster experiment=d a=x b=base -->\n",
			    &c);
	const char *l1 = strstr(alone, "t.md:1: ");
	assert_non_null(l1);
	size_t n1 = strcspn(l1 + 8, "\n");
	for (int k = 2; k <= 3; k++) {
		char tag[32];
		snprintf(tag, sizeof(tag), "t.md:%d: ", k);
		const char *l2 = strstr(after, tag);
		assert_non_null(l2);
		assert_int_equal(strcspn(l2 + 8, "\n"), n1);
		assert_memory_equal(l1 + 8, l2 + 8, n1);
	}
	free(alone);
	free(after);
}

/* A verdict picked from many configurations of two kernels (shapes,
 * parameters) is adjusted over them, and one code on both sides never
 * supports faster (red teams 35 and 36). */
static void test_tries_and_same_code(void **state)
{
	struct audit_counts c;
	(void)state;
	char *f = audit("<!-- claim: faster experiment=sh a=fast b=base run=20260105T000002Z-sh-x-batch -->\n"
			"<!-- claim: faster experiment=sh a=fast b=base run=20260105T000005Z-sh-y-batch -->\n"
			"<!-- claim: faster experiment=aa a=fast b=base -->\n"
			"<!-- claim: slower experiment=aa a=base b=fast -->\n",
			&c);
	assert_non_null(strstr(f, "t.md:1: contradicted: faster fast vs base: "));
	assert_non_null(strstr(f, "but the two kernels were tried in 3 configurations (shapes, parameters, batches), any "
				  "of which could have been cited: with p adjusted over them (0.09) the verdict is "
				  "inconclusive"));
	assert_non_null(strstr(f, "t.md:2: supported: faster fast vs base: "));
	assert_non_null(strstr(f, "; p 0.003 adjusted over the 3 configurations the two kernels were tried in"));
	assert_non_null(strstr(f, "t.md:3: contradicted: faster fast vs base: "));
	assert_non_null(strstr(f, "but both sides ran the same code (binary dddd"));
	assert_non_null(strstr(f, "t.md:4: contradicted: slower base vs fast: "));
	assert_int_equal(c.contradicted, 3);
	assert_int_equal(c.supported, 1);
	free(f);
}

/* Red team 37: undecided pilots whose CIs hold the claim's estimate do
 * not outvote it, and a build with another flag is another code, not a
 * rerun (it is another try). */
static void test_pilots_and_flags(void **state)
{
	struct audit_counts c;
	(void)state;
	char *f = audit("<!-- claim: slower experiment=pl a=fast b=base run=20260106T000002Z-pl-a-batch -->\n"
			"<!-- claim: slower experiment=fl a=fast b=base run=20260107T000002Z-fl-a-batch -->\n",
			&c);
	assert_non_null(strstr(f, "t.md:1: supported: slower fast vs base: "));
	assert_non_null(strstr(f, "; 3 more undecided, their CIs holding this estimate"));
	assert_non_null(strstr(f, "t.md:2: supported: slower fast vs base: "));
	/* the same files under another compiler (pl's batches, and fl's
	 * without the flag) are two other configurations of the same kernels */
	assert_non_null(strstr(f, "; p 0.003 adjusted over the 3 configurations the two kernels were tried in"));
	assert_int_equal(c.supported, 2);
	free(f);
}

/* A claim between two knob values of one kernel file counts as other
 * tries only pairs of its rows that differ in the same knobs (red team
 * 38: every sweep of the file counted). */
static void test_tries_same_knobs(void **state)
{
	struct audit_counts c;
	(void)state;
	char *f = audit("<!-- claim: faster experiment=sw a=fast b=base run=20260108T000002Z-sw-a-batch -->\n", &c);
	assert_non_null(strstr(f, "t.md:1: supported: faster fast vs base: "));
	assert_non_null(strstr(f, "; p 0.02 adjusted over the 2 configurations the two kernels were tried in"));
	free(f);
}

/*
 * Red team 41, finding 4: "no difference" is an equivalence statement.
 * A recorded no_difference whose CI allows +27% reads inconclusive
 * (stats.h rule 5, on records written before it), and a no-difference
 * claim picked from several configurations of two kernels has its CI
 * widened over them (Bonferroni) before it must lie in the band.
 */
static void test_no_difference_equivalence(void **state)
{
	struct audit_counts c;
	(void)state;
	char *f = audit("<!-- claim: no-difference experiment=nd a=slow b=base -->\n"
			"<!-- claim: no-difference experiment=nt a=fast b=base run=20260110T000002Z-nt-a-batch -->\n"
			"<!-- claim: no-difference experiment=nt a=fast b=base run=20260110T000005Z-nt-b-batch -->\n",
			&c);
	assert_non_null(strstr(f, "t.md:1: contradicted: no-difference slow vs base: speedup of slow over base 1.005x "
				  "[0.794, 1.269], verdict inconclusive (Holm-adjusted over the sweep; recorded as "
				  "no_difference, but its CI reaches beyond the noise band; runs "));
	assert_non_null(strstr(f, "t.md:2: contradicted: no-difference fast vs base: speedup of fast over base 1.000x "
				  "[0.991, 1.009], verdict no_difference"));
	assert_non_null(strstr(f, "; but the two kernels were tried in 3 configurations (shapes, parameters, batches), "
				  "any of which could have been cited: the speedup CI widened to 98.33% over them, "
				  "[0.989, 1.011], reaches beyond the noise band [0.99, 1.01]"));
	assert_non_null(strstr(f, "t.md:3: supported: no-difference fast vs base: speedup of fast over base 1.000x "
				  "[0.998, 1.002], verdict no_difference"));
	assert_non_null(strstr(f, "; its CI widened to 98.33% over the 3 configurations the two kernels were tried in, "
				  "[0.998, 1.002], is inside the noise band"));
	assert_int_equal(c.contradicted, 2);
	assert_int_equal(c.supported, 1);
	free(f);
}

/*
 * Red team 41, finding 5: `validated` asks the problem's own tolerance of
 * every run it rests on, not of the newest passing one (coin's newest
 * run is clean, its older one fails the problem's rel L2).
 */
static void test_validated_every_run_tolerance(void **state)
{
	struct audit_counts c;
	(void)state;
	char *f = audit("<!-- claim: validated experiment=e variant=coin -->\n"
			"<!-- claim: validated experiment=e variant=steady -->\n"
			"<!-- claim: validated experiment=e variant=coin run=20260101T000012Z-e-coin -->\n"
			"<!-- claim: validated experiment=e variant=exact -->\n",
			&c);
	assert_non_null(strstr(f, "t.md:1: unsupported: validated e/coin: checked under a spec tolerance looser than the "
				  "problem's, and 1 of 2 run(s) of the current source would have failed by the "
				  "problem's own rule (the spec's atol 9.9e-05, rtol 9.9e-05, rel_l2 9.9e-05 against "
				  "the problem's 1e-05, 1e-05, 1e-05; a seed check at rel L2 5.4e-05"));
	assert_non_null(strstr(f, ", run 20260101T000011Z-e-coin)\n"));
	assert_non_null(strstr(f, "t.md:2: supported: validated e/steady: 2 run(s) of the current source passed"));
	/* pinned to the clean run: a pin says which code, and the code's
	 * other run is read too (red team 42; before, the pin was the whole
	 * evidence: supported on 1 run) */
	assert_non_null(strstr(f, "t.md:3: unsupported: validated e/coin: checked under a spec tolerance looser than the "
				  "problem's, and 1 of 2 run(s) of the current source would have failed"));
	/* an exact rule is a rule: before, recorded as none, supported */
	assert_non_null(strstr(f, "t.md:4: unsupported: validated e/exact: checked under a spec tolerance looser than the "
				  "problem's"));
	assert_int_equal(c.unsupported, 3);
	assert_int_equal(c.supported, 1);
	free(f);
}

/*
 * Red team 42, finding 1: `validated` is a claim about code, so its
 * evidence is every run of that code (code identity), under any variant
 * name or experiment: neither a pin to the one clean run nor the name
 * whose run drew clean leaves out w_a's wrong_output (4 runs of w.c:
 * w_a, w_b, w_c and sv's v1); another code (solo, and sv's v2) is not
 * contaminated.
 */
static void test_validated_by_code(void **state)
{
	struct audit_counts c;
	(void)state;
	char *f = audit("<!-- claim: validated experiment=vc variant=w_b -->\n"
			"<!-- claim: validated experiment=vc variant=w_b run=20260111T000001Z-vc-wb -->\n"
			"<!-- claim: validated experiment=vc2 variant=w_c -->\n"
			"<!-- claim: validated experiment=vc variant=solo -->\n",
			&c);
	assert_non_null(strstr(f, "t.md:1: contradicted: validated vc/w_b: 1 of 4 run(s) of the current source failed a "
				  "check: run 20260111T000000Z-vc-wa (the same code as vc/w_a): wrong_output"));
	assert_non_null(strstr(f, "t.md:2: contradicted: validated vc/w_b: 1 of 4 run(s) of the current source failed a "
				  "check: run 20260111T000000Z-vc-wa (the same code as vc/w_a): wrong_output"));
	assert_non_null(strstr(f, "t.md:3: contradicted: validated vc2/w_c: 1 of 4 run(s)"));
	assert_non_null(strstr(f, "t.md:4: supported: validated vc/solo: 2 run(s) of the current source passed every "
				  "check that ran"));
	assert_non_null(strstr(f, "; 3 of the runs are the same code under another name or experiment\n"));
	assert_non_null(strstr(f, "; 1 of the runs are the same code under another name or experiment\n"));
	assert_int_equal(c.contradicted, 3);
	assert_int_equal(c.supported, 1);
	free(f);
}

/* A host run's no_device is the kernel's own word (a host has no device
 * to miss): it counts against validated, where a GPU run's is skipped */
static void test_validated_host_no_device(void **state)
{
	struct audit_counts c;
	(void)state;
	char *f = audit("<!-- claim: validated experiment=nd variant=nd -->\n", &c);
	assert_non_null(strstr(f, "t.md:1: contradicted: validated nd/nd: 1 of 2 run(s)"));
	assert_int_equal(c.contradicted, 1);
	free(f);
}

/*
 * Red team 42, finding 2: rows of the claim's own batch that ran the
 * claim's code on both sides are reruns (c1..c4 against z: 1 of 4 reads
 * no_difference, 1 of 4 slower: neither claim holds), and a
 * no-difference claim's CI is widened over its batch's comparisons (v1
 * is one of 3 rows against z: [0.991, 1.009] reaches beyond the band
 * once widened to 98.33%).
 */
static void test_reruns_in_batch(void **state)
{
	struct audit_counts c;
	(void)state;
	char *f = audit("<!-- claim: no-difference experiment=sp a=c1 b=z -->\n"
			"<!-- claim: slower experiment=sp a=c2 b=z run=20260112T000009Z-sp-x-batch -->\n"
			"<!-- claim: no-difference experiment=sv a=v1 b=z -->\n",
			&c);
	assert_non_null(strstr(f, "t.md:1: contradicted: no-difference c1 vs z: speedup of c1 over z 1.001x"));
	assert_non_null(strstr(f, "; but only 1 of 4 comparisons of the same code (every pair of its rows, in 1 batch) "
				  "on NVIDIA H100 80GB HBM3 give no_difference, the others: slower "
				  "(c2 vs z), inconclusive (c3 vs z), inconclusive (c4 vs z)"));
	assert_non_null(strstr(f, "t.md:2: contradicted: slower c2 vs z: "));
	assert_non_null(strstr(f, "but only 1 of 4 comparisons of the same code"));
	assert_non_null(strstr(f, "t.md:3: contradicted: no-difference v1 vs z: speedup of v1 over z 1.000x [0.991, 1.009]"));
	assert_non_null(strstr(f, "; but the claim is one of 3 comparisons (3 of its batch, 0 other configurations of the "
				  "two kernels), any of which could have been cited: the speedup CI widened to 98.33% over "
				  "them"));
	assert_int_equal(c.contradicted, 3);
	free(f);
}

/*
 * Red team 143's 2': a batch gives a verdict claim one vote however many
 * rows of the two codes it holds (each pair that disagrees still counts
 * against): five rows of d's code faster in one batch read "6 of 8" and
 * supported where the four batches split two and two.
 */
static void test_reruns_one_vote_a_batch(void **state)
{
	struct audit_counts c;
	(void)state;
	char *f = audit("<!-- claim: faster experiment=dv a=d1 b=z run=20260112T100003Z-dv-3-batch -->\n", &c);
	assert_null(strstr(f, "t.md:1: supported"));
	assert_non_null(strstr(f, "2 of 4"));
	assert_int_equal(c.supported, 0);
	free(f);
}

/*
 * Red team 45, finding 2: a kernel that fails its own slow processes
 * leaves flaky rows, and a verdict claim on its one ok batch was weighed
 * against that batch alone (reruns counted ok rows only).  A row of the
 * claim's code that did not run cleanly is a rerun that does not give
 * the verdict: 1 of 5 (three flaky, one crashed); the launch_failed row
 * with no check recorded is a configuration's refusal and not counted.
 */
static void test_reruns_not_clean(void **state)
{
	struct audit_counts c;
	(void)state;
	char *f = audit("<!-- claim: faster experiment=fl a=fa b=z run=20260115T000009Z-fl-0-batch -->\n", &c);
	assert_non_null(strstr(f, "t.md:1: contradicted: faster fa vs z: speedup of fa over z 4.536x [3.304, 8.851], "
				  "verdict faster"));
	assert_non_null(strstr(f, "; but only 1 of 5 batches of the same code on NVIDIA H100 80GB HBM3 give faster (4 did "
				  "not run cleanly, which gives no verdict), the others: fa did not run cleanly: crashed "
				  "(20260115T000049Z-fl-4-batch), fa did not run cleanly: flaky "
				  "(20260115T000039Z-fl-3-batch)"));
	assert_null(strstr(f, "fl-5-batch"));
	assert_int_equal(c.contradicted, 1);
	free(f);
}

/*
 * fix50: the verdict rule is the value rule's (red team 49, findings 2
 * and its "not reached"): reproductions are reruns of the same code, and
 * a verdict stands only when more than half of the deciding reruns give
 * it.  vt: faster in one batch of two, no_difference in the other: a tie,
 * unsupported (before: "1 of 2 ... give faster", supported).  vr: pinned
 * to the one reproduction of four batches of the code that says faster
 * (before: supported: the reproductions, the claim's own among them, were
 * left out, and the original alone was 1 comparison, too few to count).
 * vo: faster in its only batch, 1 of 1: supported.
 */
static void test_verdict_reruns_majority(void **state)
{
	struct audit_counts c;
	(void)state;
	char *f = audit("<!-- claim: faster experiment=vt a=va b=z run=20260125T000009Z-vt-0-batch -->\n"
			"<!-- claim: faster experiment=vr a=va b=z run=20260125T000039Z-vr-3-batch -->\n"
			"<!-- claim: faster experiment=vo a=va b=z -->\n"
			"<!-- claim: no-difference experiment=vr a=va b=z -->\n",
			&c);
	assert_non_null(strstr(f, "t.md:1: unsupported: faster va vs z: speedup of va over z 4.536x [3.304, 8.851], "
				  "verdict faster"));
	assert_non_null(strstr(f, "; but only 1 of 2 batches of the same code on "));
	assert_non_null(strstr(f, " give faster, the others: no_difference (20260125T000019Z-vt-1-batch): exactly half, "
				  "no majority of the reruns"));
	assert_non_null(strstr(f, "t.md:2: contradicted: faster va vs z: speedup of va over z 4.536x"));
	assert_non_null(strstr(f, "; but only 1 of 4 batches of the same code on "));
	assert_non_null(strstr(f, "no_difference (20260125T000059Z-vr-5-batch), no_difference "
				  "(20260125T000049Z-vr-4-batch), no_difference (20260125T000029Z-vr-2-batch)"));
	assert_non_null(strstr(f, "t.md:3: supported: faster va vs z: speedup of va over z 4.536x"));
	/* the newest batch of vr that is no reproduction: 3 of 4 */
	assert_non_null(strstr(f, "t.md:4: supported: no-difference va vs z: "));
	assert_non_null(strstr(f, "; 3 of 4 batches of the same code on "));
	assert_int_equal(c.unsupported, 1);
	assert_int_equal(c.contradicted, 1);
	assert_int_equal(c.supported, 2);
	free(f);
}

/* Red team 59: a faster claim whose slower side ran slower than the
 * fastest its code was recorded at in the store (by CODE_DRIFT_MARGIN) is
 * contradicted, naming that batch; in the batch where the baseline ran at
 * its fastest, the same claim stands. */
static void test_slower_side_drifted(void **state)
{
	struct audit_counts c;
	(void)state;
	char *f = audit("<!-- claim: faster experiment=dr a=va b=z -->\n"
			"<!-- claim: faster experiment=dr a=va b=z run=20260126T0000009Z-dr-0-batch -->\n",
			&c);
	assert_non_null(strstr(f, "t.md:1: contradicted: faster va vs z: "));
	assert_non_null(strstr(f, "but z, the side it says is slower, ran 7.00x slower here than the fastest its code was "
				  "recorded at in the store (batch 20260126T0000009Z-dr-0-batch: median 100 us there, 700 us "
				  "here)"));
	assert_non_null(strstr(f, "t.md:2: supported: faster va vs z: "));
	assert_int_equal(c.contradicted, 1);
	assert_int_equal(c.supported, 1);
	free(f);
	/* red team 62 (f): no difference, one side slower than its history */
	f = audit("<!-- claim: no-difference experiment=dn a=va b=z -->\n", &c);
	assert_non_null(strstr(f, "t.md:1: contradicted: no-difference va vs z: "));
	assert_non_null(strstr(f, "but z, one of the two sides it says do not differ, ran 7.00x slower here than the "
				  "fastest its code was recorded at in the store"));
	free(f);
	/* red team 62 (d): the faster side's CI under the slower side's
	 * fastest recorded median: faster than that code ever ran */
	f = audit("<!-- claim: faster experiment=dp a=va b=z -->\n", &c);
	assert_non_null(strstr(f, "t.md:1: supported: faster va vs z: "));
	assert_non_null(strstr(f, "z ran 7.00x slower here than the fastest its code was recorded at in the store "
				  "(batch 20260126T0000009Z-dr-0-batch: median 100 us there), but the other side's median "
				  "CI [40, 60] us lies under even that"));
	free(f);
	/* red team 65: its batch's 14x carries z's drift; the store stands
	 * behind 100 us over va's [40, 60], 2x [1.667, 2.5] */
	f = audit("<!-- claim: faster experiment=dp a=va b=z speedup=14 -->\n", &c);
	assert_non_null(strstr(f, "t.md:1: contradicted: faster va vs z: "));
	assert_non_null(strstr(f, "but the stated speedup 14 is more than the store stands behind: against the slower "
				  "side's code at its fastest (100 us) the faster side is 2.000x [1.667, 2.500]"));
	free(f);
	/* red team 61: a flaky row's ok runs are its speed too */
	f = audit("<!-- claim: faster experiment=df a=va b=z -->\n", &c);
	assert_non_null(strstr(f, "t.md:1: contradicted: faster va vs z: "));
	assert_non_null(strstr(f, "(batch 20260127T0000009Z-df-0-batch: median 100 us there, 700 us here)"));
	free(f);	/* red team 145 (its 5): a kernel 43x slower on a stress distribution
	 * (checked, never timed) is faster only on the timing inputs: eval
	 * and a search hold it, and the audit contradicts a speed claim; the
	 * row's stress_slow, or a batch's notes before it */
	f = audit("<!-- claim: faster experiment=ds a=va b=z -->\n"
		  "<!-- claim: slower experiment=ds a=z b=va -->\n"
		  "<!-- claim: faster experiment=dt a=va b=z -->\n"
		  "<!-- claim: value experiment=dt variant=va stat=speedup value=2.7 -->\n",
		  &c);
	assert_non_null(strstr(f, "t.md:1: contradicted: faster va vs z: "));
	assert_non_null(strstr(f, "but va, the side it says is faster, ran a stress distribution of the problem 43.50x "
				  "slower than its timing median in batch 20260128T0000009Z-ds-0-batch"));
	assert_non_null(strstr(f, "t.md:2: contradicted: slower z vs va: "));
	assert_non_null(strstr(f, "t.md:3: contradicted: faster va vs z: "));
	assert_non_null(strstr(f, "t.md:4: contradicted: "));
	assert_int_equal(c.contradicted, 4);
	free(f);
	/* red team 153: the stress cost of a rerun of the same code */
	f = audit("<!-- claim: faster experiment=du a=va b=z -->\n", &c);
	assert_non_null(strstr(f, "t.md:1: contradicted: faster va vs z: "));
	assert_non_null(strstr(f, "ran a stress distribution of the problem 12.00x slower than its timing median in batch "
				  "20260128T0000029Z-du-0-batch, a rerun of the same code"));
	free(f);
}

/* A commit of an empty tree in the repository at ".", on parent (NULL:
 * none), its id into out (41 bytes). */
static void make_commit_with(git_repository *repo, const git_oid *parent_id, const char *msg, const char *file,
			     char *out);

static void make_commit(git_repository *repo, const git_oid *parent_id, const char *msg, char *out)
{
	make_commit_with(repo, parent_id, msg, NULL, out);
}

/* The same, with file (a path under the work tree, NULL: none) written
 * with msg as its content and added to the index first. */
static void make_commit_with(git_repository *repo, const git_oid *parent_id, const char *msg, const char *file,
			     char *out)
{
	git_index *idx;
	git_oid tree_id, id;
	git_tree *tree;
	git_signature *sig;
	git_commit *parent = NULL;
	assert_int_equal(git_repository_index(&idx, repo), 0);
	if (file) {
		mkdir("src", 0755);
		mkdir("src/x", 0755); /* src/<dir>/ *.c: what the Makefile compiles */
		FILE *f = fopen(file, "w");
		assert_non_null(f);
		fputs(msg, f);
		fclose(f);
		assert_int_equal(git_index_add_bypath(idx, file), 0);
		assert_int_equal(git_index_write(idx), 0);
	}
	assert_int_equal(git_index_write_tree(&tree_id, idx), 0);
	assert_int_equal(git_tree_lookup(&tree, repo, &tree_id), 0);
	assert_int_equal(git_signature_new(&sig, "t", "t@t", 1767225600, 0), 0);
	if (parent_id)
		assert_int_equal(git_commit_lookup(&parent, repo, parent_id), 0);
	const git_commit *parents[1] = { parent };
	assert_int_equal(git_commit_create(&id, repo, "HEAD", sig, sig, NULL, msg, tree, parent ? 1 : 0, parents), 0);
	git_oid_tostr(out, GIT_OID_HEXSZ + 1, &id);
	git_commit_free(parent);
	git_signature_free(sig);
	git_tree_free(tree);
	git_index_free(idx);
}

/* A host run of er.c (experiment er), recorded by runner commit commit. */
static void put_er_run(struct store *st, const char *id, const char *var, const char *sha, const char *commit,
		       const char *outcome)
{
	json_t *x = json_pack("{s:s, s:s, s:{s:[{s:s, s:s}], s:s, s:{s:[s, s, s], s:s}, s:{s:s, s:b}}, s:{s:s, s:s, "
			      "s:{s:i}, s:[s]}}",
			      "experiment", "er", "backend", "host", "code", "sources", "path", "er.c", "sha256", sha,
			      "binary_sha256", "erbin", "compiler", "argv", "cc", "-O2", "er.c", "version", "cc 1", "git",
			      "commit", commit, "dirty", 0, "problem", "name", "p2", "dtype", "fp32", "shape", "N", 256,
			      "dims", "N");
	json_object_set_new(x, "batch_id", json_string(id));
	put_variant_x(st, id, var, sha, "# us\n100\n", outcome, x);
}

/* As put_er_run, of rn.c (experiment rn), whose record names its runner
 * (code.runner: red team 279) built from runner_commit, started in a
 * checkout at git_commit. */
static void put_rn_run(struct store *st, const char *id, const char *var, const char *sha, const char *git_commit,
		       const char *runner_commit, const char *outcome)
{
	json_t *x = json_pack("{s:s, s:s, s:{s:[{s:s, s:s}], s:s, s:{s:[s, s, s], s:s}, s:{s:s, s:b}, s:{s:s, s:b, "
			      "s:s, s:s}}, s:{s:s, s:s, s:{s:i}, s:[s]}}",
			      "experiment", "rn", "backend", "host", "code", "sources", "path", "rn.c", "sha256", sha,
			      "binary_sha256", "rnbin", "compiler", "argv", "cc", "-O2", "rn.c", "version", "cc 1", "git",
			      "commit", git_commit, "dirty", 0, "runner", "commit", runner_commit, "dirty", 0, "sha256",
			      "aa", "worker_sha256", "bb", "problem", "name", "p2", "dtype", "fp32", "shape", "N", 256,
			      "dims", "N");
	json_object_set_new(x, "batch_id", json_string(id));
	put_variant_x(st, id, var, sha, "# us\n100\n", outcome, x);
}

/* Writes text to errata.txt and loads it; returns audit_errata_load's rc. */
static int load_errata(const char *text, struct audit_errata *e, struct strbuf *err)
{
	FILE *f = fopen("errata.txt", "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
	strbuf_reset(err);
	return audit_errata_load("errata.txt", ".", e, err);
}

/*
 * The errata (data/errata.txt): an erratum names a runner commit and the
 * commit that fixed it, and sets aside every record that commit wrote
 * (er's clean er_a and wrong er_b at c1 alike), never a chosen run; the
 * finding says how many and why; the fix must be a later commit (it
 * descends from the defective one) in the repository.  Red team 44's
 * errata-coin.txt named the 5 failing runs of coin_wrong by run id, with
 * a made-up reason, and made `validated` supported: a run id is now a
 * malformed entry, as is a fix that is the defective commit itself (the
 * red team named the commit that recorded the runs as the fix), an
 * earlier one, or a commit the repository lacks.  (The old loader took
 * "ID REASON" and has another signature: this test does not build
 * against it; the CLI re-run of errata-coin.txt is the before/after.)
 */
/* A commit with the tree of commit tree_of, on parent p1 (and p2 where
 * not NULL), no ref moved; its id into out. */
static void commit_tree_of(git_repository *repo, const git_oid *tree_of, const git_oid *p1, const git_oid *p2,
			   const char *msg, char *out)
{
	git_commit *src, *a, *b = NULL;
	git_tree *t;
	git_signature *sg;
	git_oid id;
	assert_int_equal(git_commit_lookup(&src, repo, tree_of), 0);
	assert_int_equal(git_commit_tree(&t, src), 0);
	assert_int_equal(git_commit_lookup(&a, repo, p1), 0);
	if (p2)
		assert_int_equal(git_commit_lookup(&b, repo, p2), 0);
	assert_int_equal(git_signature_new(&sg, "t", "t@t", 1767225700, 0), 0);
	const git_commit *ps[2] = { a, b };
	assert_int_equal(git_commit_create(&id, repo, NULL, sg, sg, NULL, msg, t, p2 ? 2 : 1, ps), 0);
	git_oid_tostr(out, GIT_OID_HEXSZ + 1, &id);
	git_signature_free(sg);
	git_commit_free(b);
	git_commit_free(a);
	git_tree_free(t);
	git_commit_free(src);
}

static void test_errata(void **state)
{
	(void)state;
	struct audit_errata e;
	struct strbuf err = STRBUF_INIT;
	char c1[GIT_OID_HEXSZ + 1], c2[GIT_OID_HEXSZ + 1], c3[GIT_OID_HEXSZ + 1], sha[SHA256_HEX_LEN + 1];
	git_repository *repo;
	git_oid o1, o2;
	git_libgit2_init();
	assert_int_equal(git_repository_init(&repo, ".", 0), 0);
	/* the first commit holds the plug-in of the runs' problem p2, as it
	 * is in the work tree: runs that record no problem code are judged
	 * by their commit's (red team 294 row 2) */
	mkdir("problems", 0755);
	make_commit_with(repo, NULL, "one", "problems/p2.c", c1);
	git_oid_fromstr(&o1, c1);
	make_commit_with(repo, &o1, "two", "src/x/fix.c", c2); /* the runner's fix */
	git_oid_fromstr(&o2, c2);
	make_commit(repo, &o2, "three", c3);
	/* beside the fix, no ref moved: c1's code on c1 (a README-only
	 * commit: the defective runner), c2's code on c1 (the fix
	 * cherry-picked: not it), and c1's code merged with c2 as a parent
	 * (git merge -s ours: the defective runner) */
	char c1b[GIT_OID_HEXSZ + 1], cpick[GIT_OID_HEXSZ + 1], cours[GIT_OID_HEXSZ + 1];
	commit_tree_of(repo, &o1, &o1, NULL, "one, then its docs", c1b);
	commit_tree_of(repo, &o2, &o1, NULL, "two, cherry-picked onto one", cpick);
	commit_tree_of(repo, &o1, &o1, &o2, "merge two, keeping one's files", cours);
	git_oid o3;
	git_oid_fromstr(&o3, c3);
	char c4[GIT_OID_HEXSZ + 1], c5[GIT_OID_HEXSZ + 1], c6[GIT_OID_HEXSZ + 1], c7[GIT_OID_HEXSZ + 1],
		c8[GIT_OID_HEXSZ + 1];
	make_commit(repo, &o3, "four", c4); /* changes nothing */
	git_oid o4, o5, o6, o7;
	git_oid_fromstr(&o4, c4);
	/* src/fix.c's "two" given a comment and new layout (red team 47) */
	make_commit_with(repo, &o4, "\n  two /* five */ // \"six\"\n", "src/x/fix.c", c5);
	git_oid_fromstr(&o5, c5);
	make_commit_with(repo, &o5, "two \"/* x */\" - -y", "src/x/fix.c", c6);
	git_oid_fromstr(&o6, c6);
	/* a string literal's content is code, comment markers and all */
	make_commit_with(repo, &o6, "two \"/* y */\" - -y", "src/x/fix.c", c7);
	git_oid_fromstr(&o7, c7);
	/* so is the space that keeps "- -y" from reading "--y" */
	make_commit_with(repo, &o7, "two \"/* y */\" --y", "src/x/fix.c", c8);
	/* red team 49: a "fix" in the report's code (a plot colour), which
	 * no run reaches; then one in the runner's */
	char c9[GIT_OID_HEXSZ + 1], c10[GIT_OID_HEXSZ + 1];
	git_oid o8, o9;
	git_oid_fromstr(&o8, c8);
	mkdir("src", 0755);
	mkdir("src/report", 0755);
	mkdir("src/run", 0755);
	make_commit_with(repo, &o8, "int colour = 1;", "src/report/svg.c", c9);
	git_oid_fromstr(&o9, c9);
	make_commit_with(repo, &o9, "int fixed = 1;", "src/run/job.c", c10);
	/* red team 285 row 4a: adjacent string literals are one; not where
	 * the join would extend an escape ("\x1" "2" is not "\x12") */
	char c11[GIT_OID_HEXSZ + 1], c12[GIT_OID_HEXSZ + 1], c13[GIT_OID_HEXSZ + 1], c14[GIT_OID_HEXSZ + 1];
	git_oid o10, o11, o12, o13;
	git_oid_fromstr(&o10, c10);
	make_commit_with(repo, &o10, "char *s = \"a b\\x1\";", "src/x/fix.c", c11);
	git_oid_fromstr(&o11, c11);
	make_commit_with(repo, &o11, "char *s = \"a \" /* b */\n \"b\" \"\\x1\";", "src/x/fix.c", c12);
	git_oid_fromstr(&o12, c12);
	make_commit_with(repo, &o12, "char *s = \"a \" \"b\" \"\\x1\" \"2\";", "src/x/fix.c", c13);
	git_oid_fromstr(&o13, c13);
	make_commit_with(repo, &o13, "char *s = \"a b\\x12\";", "src/x/fix.c", c14);
	git_repository_free(repo);
	git_libgit2_shutdown();
	FILE *f = fopen("er.c", "w");
	fputs("int er;\n", f);
	fclose(f);
	assert_int_equal(sha256_file_hex("er.c", sha), 0);
	struct store st = STORE_INIT;
	assert_int_equal(store_open(&st, "store", 1), 0);
	put_er_run(&st, "20260116T000000Z-er-a", "er_a", sha, c1, "ok");
	put_er_run(&st, "20260116T000001Z-er-b", "er_b", sha, c1, "wrong_output");
	put_er_run(&st, "20260116T000002Z-er-c", "er_c", sha, c3, "ok");
	/* red team 279 row 1b: rn.c's ok run by the runner built from c1,
	 * started in a checkout at c3; its failing run by the runner built
	 * from c3, started in a checkout at c1 */
	char rnsha[SHA256_HEX_LEN + 1];
	put_file("rn.c", "int rn;\n", rnsha);
	put_rn_run(&st, "20260116T000003Z-rn-a", "rn_a", rnsha, c3, c1, "ok");
	put_rn_run(&st, "20260116T000004Z-rn-b", "rn_b", rnsha, c1, c3, "wrong_output");
	/* red team 49, finding 3: eq.c fast in eq-0 and slow in eq-1, both
	 * written at c1, and fast in eq-2 (c3) */
	char eqsha[SHA256_HEX_LEN + 1];
	put_file("eq.c", "int eq;\n", eqsha);
	put_rate_batch(&st, "20260124T000000Z-eq-0-batch", "eq", NULL, "coin", "eq.c", eqsha, "eqbin", NULL, NULL, c1, 190,
		       180, 240, 262, 182);
	put_rate_batch(&st, "20260124T000001Z-eq-1-batch", "eq", NULL, "coin", "eq.c", eqsha, "eqbin", NULL, NULL, c1,
		       1300, 1280, 1320, 1500, 1200);
	put_rate_batch(&st, "20260124T000002Z-eq-2-batch", "eq", NULL, "coin", "eq.c", eqsha, "eqbin", NULL, NULL, c3, 190,
		       180, 240, 262, 182);
	store_release(&st);
	struct audit_counts c;
	char *out = audit("<!-- claim: validated experiment=er variant=er_c -->\n", &c);
	assert_non_null(strstr(out, "t.md:1: contradicted: validated er/er_c: 1 of 3 run(s)"));
	free(out);
	char *text = xstrfmt("# a comment\n\n%.8s  %.10s the runner's defect\n", c1, c2);
	assert_int_equal(load_errata(text, &e, &err), 0);
	free(text);
	assert_int_equal((int)e.n, 1);
	assert_string_equal(e.commit[0], c1);
	assert_string_equal(e.fixed[0], c2);
	assert_int_equal(audit_errata_find(&e, c1), 0);
	assert_int_equal(audit_errata_find(&e, c2), -1);
	assert_int_equal(audit_errata_find(&e, NULL), -1);
	/* a later commit without the fix (red team 280: a README-only commit
	 * on the defective one) is covered; one with the fix is not */
	assert_int_equal(audit_errata_find(&e, c1b), -1); /* by name alone */
	assert_int_equal(audit_errata_find_later(&e, c1b), 0);
	assert_int_equal(audit_errata_find_later(&e, c1b), 0); /* cached */
	assert_int_equal(audit_errata_find_later(&e, c1), 0);
	assert_int_equal(audit_errata_find_later(&e, c3), -1);
	assert_int_equal(audit_errata_find_later(&e, cpick), -1);
	assert_int_equal(audit_errata_find_later(&e, cours), 0);
	assert_int_equal((int)e.n_unplaced, 0);
	assert_int_equal(audit_errata_find_later(&e, "0123456789012345678901234567890123456789"), -1); /* not in it */
	assert_int_equal((int)e.n_unplaced, 1);
	out = audit_with("<!-- claim: validated experiment=er variant=er_c -->\n"
			 "<!-- claim: validated experiment=er variant=er_a -->\n",
			 &c, &e);
	/* every record of c1, the clean one too */
	assert_non_null(strstr(out, "t.md:1: supported: validated er/er_c: 1 run(s) of the current source passed"));
	char *want = xstrfmt("; 2 run(s) of the code set aside by errata.txt (run 20260116T000001Z-er-b, runner commit "
			     "%.8s, fixed in %.8s: the runner's defect)", c1, c2);
	assert_non_null(strstr(out, want));
	free(want);
	assert_non_null(strstr(out, "t.md:2: supported: validated er/er_a: 1 run(s)"));
	assert_int_equal(c.supported, 2);
	free(out);
	/* the errata match the runner's build, not the checkout: rn-a (built
	 * at c1) is set aside, rn-b (started in c1's checkout, built at c3)
	 * counts, and its failure contradicts (before: the reverse, and
	 * supported by rn-a) */
	out = audit_with("<!-- claim: validated experiment=rn variant=rn_a -->\n", &c, &e);
	assert_non_null(strstr(out, "t.md:1: contradicted: validated rn/rn_a"));
	assert_int_equal(c.contradicted, 1);
	free(out);
	/* red team 49, finding 3: a value claim on a row the errata set
	 * aside (before: supported, "2 of 2", eq-1 left out silently); one
	 * on a row they keep says how many rows were set aside */
	out = audit_with("<!-- claim: value experiment=eq variant=coin stat=median_us value=190us "
			 "run=20260124T000000Z-eq-0-batch -->\n"
			 "<!-- claim: value experiment=eq variant=coin stat=median_us value=190us "
			 "run=20260124T000002Z-eq-2-batch -->\n",
			 &c, &e);
	want = xstrfmt("t.md:1: unsupported: value eq/coin median_us=190us: the row of coin (run "
		       "20260124T000000Z-eq-coin) was set aside by errata.txt (runner commit %.8s, fixed in %.8s: the "
		       "runner's defect): a runner's defect backs no claim", c1, c2);
	assert_non_null(strstr(out, want));
	free(want);
	assert_non_null(strstr(out, "t.md:2: supported: value eq/coin median_us=190us"));
	assert_non_null(strstr(out, "; 2 row(s) of the code set aside by errata.txt"));
	assert_int_equal(c.unsupported, 1);
	assert_int_equal(c.supported, 1);
	free(out);
	/* a verdict on a batch whose row is set aside: unsupported too */
	out = audit_with("<!-- claim: faster experiment=eq a=coin b=z run=20260124T000000Z-eq-0-batch -->\n", &c, &e);
	assert_non_null(strstr(out, "t.md:1: unsupported: faster coin vs z: the row of coin (run 20260124T000000Z-eq-coin) "
				    "was set aside by errata.txt"));
	assert_int_equal(c.unsupported, 1);
	free(out);
	audit_errata_release(&e);
	/* a run id (red team 44's errata-coin.txt) */
	assert_int_equal(load_errata("20260116T000001Z-er-b checker defect: a stale reference (fixed in abc)\n", &e, &err),
			 -1);
	assert_non_null(strstr(strbuf_str(&err), "errata.txt:1: an entry is \"COMMIT FIXED_IN REASON\""));
	assert_int_equal((int)e.n, 0);
	/* fixed in the defective commit itself, and in an earlier one */
	text = xstrfmt("%s %s stale reference\n", c1, c1);
	assert_int_equal(load_errata(text, &e, &err), -1);
	free(text);
	assert_non_null(strstr(strbuf_str(&err), "errata.txt:1: the fixing commit "));
	assert_non_null(strstr(strbuf_str(&err), "is not a later commit than the defective"));
	text = xstrfmt("%s %s ok\n%s %s stale reference\n", c1, c2, c3, c2);
	assert_int_equal(load_errata(text, &e, &err), -1);
	free(text);
	assert_non_null(strstr(strbuf_str(&err), "errata.txt:2: the fixing commit "));
	assert_int_equal((int)e.n, 0);
	/* a later commit that changes nothing under src/ (red team 46: a chain
	 * of empty commits, each "fixed in" the next) */
	text = xstrfmt("%s %s stale reference\n", c3, c4);
	assert_int_equal(load_errata(text, &e, &err), -1);
	free(text);
	assert_non_null(strstr(strbuf_str(&err), "errata.txt:1: the fixing commit "));
	assert_non_null(strstr(strbuf_str(&err), "changes nothing in the runner's sources (src/*/*.c, "));
	assert_int_equal((int)e.n, 0);
	/* a later commit that changes only comments and layout under src/
	 * (red team 47: the chain again, each link a one-line comment) */
	text = xstrfmt("%s %s stale reference\n", c4, c5);
	assert_int_equal(load_errata(text, &e, &err), -1);
	free(text);
	assert_non_null(strstr(strbuf_str(&err), "errata.txt:1: the fixing commit "));
	assert_non_null(strstr(strbuf_str(&err), "changes only comments and layout in the runner's sources since"));
	assert_int_equal((int)e.n, 0);
	/* a comment's markers inside a string literal are code; so is the
	 * space that keeps "- -y" from reading "--y" */
	text = xstrfmt("%s %s stale reference\n%s %s stale reference\n", c6, c7, c7, c8);
	assert_int_equal(load_errata(text, &e, &err), 0);
	free(text);
	assert_int_equal((int)e.n, 2);
	audit_errata_release(&e);
	/* a code change in src/report/ is the runner's code too (red team
	 * 285 row 4e: run.c, eval.c and search.c call into src/report/, all
	 * of it linked into bin/evident; red team 49's plot colour, real
	 * code, passes now, a comment there still does not); one in src/run is */
	text = xstrfmt("%s %s stale reference\n", c8, c9);
	assert_int_equal(load_errata(text, &e, &err), 0);
	free(text);
	audit_errata_release(&e);
	text = xstrfmt("%s %s stale reference\n", c8, c10);
	assert_int_equal(load_errata(text, &e, &err), 0);
	free(text);
	audit_errata_release(&e);
	text = xstrfmt("%s %s stale reference\n", c11, c12);
	assert_int_equal(load_errata(text, &e, &err), -1);
	free(text);
	assert_non_null(strstr(strbuf_str(&err), "changes only comments and layout in the runner's sources since"));
	text = xstrfmt("%s %s stale reference\n", c13, c14);
	assert_int_equal(load_errata(text, &e, &err), 0);
	free(text);
	audit_errata_release(&e);
	/* a commit the repository lacks; no reason */
	text = xstrfmt("deadbeef %s stale reference\n", c2);
	assert_int_equal(load_errata(text, &e, &err), -1);
	free(text);
	assert_non_null(strstr(strbuf_str(&err), "errata.txt:1: commit 'deadbeef' is not in the repository"));
	text = xstrfmt("%s %s\n", c1, c2);
	assert_int_equal(load_errata(text, &e, &err), -1);
	free(text);
	assert_non_null(strstr(strbuf_str(&err), "errata.txt:1: an entry is"));
	strbuf_release(&err);
	remove("errata.txt");
}

/*
 * Red team 44, finding 3: a reproduction's runs are runs of the code it
 * rebuilt, so `validated` reads them (s1 clean in its batch, wrong_output
 * in the reproduction of it: before, query_variant_runs left the
 * reproduction out and the claim was supported on 1 run).
 */
static void test_validated_reproduction(void **state)
{
	struct audit_counts c;
	(void)state;
	char *f = audit("<!-- claim: validated experiment=rp variant=s1 -->\n", &c);
	assert_non_null(strstr(f, "t.md:1: contradicted: validated rp/s1: 1 of 2 run(s) of the current source failed a "
				  "check: run 20260114T000004Z-rp-s1r (in reproduction 20260114T000005Z-rp-rx-batch): "
				  "wrong_output"));
	assert_int_equal(c.contradicted, 1);
	free(f);
}

/*
 * Red team 44, finding 1: `validated` is every run of the kernel file, at
 * any parameters (coin_salt echoed SALT, so each SALT was another code and
 * a clean slate): sl/s1 is contradicted by s2's wrong_output at COIN 2,
 * and s3's build_failed at COIN 3 is a configuration that refused itself,
 * counted but no failure.  params=COIN=1 narrows the claim to its
 * configuration, and the finding still says how many others failed; a
 * params= its runs did not run at is malformed.  Before: supported on
 * s1's one run.
 */
static void test_validated_by_family(void **state)
{
	struct audit_counts c;
	(void)state;
	char *f = audit("<!-- claim: validated experiment=sl variant=s1 -->\n"
			"<!-- claim: validated experiment=sl variant=s1 params=COIN=1 -->\n"
			"<!-- claim: validated experiment=sl variant=s1 params=COIN=2 -->\n"
			"<!-- claim: validated experiment=sl variant=s1 params=COIN -->\n",
			&c);
	assert_non_null(strstr(f, "t.md:1: contradicted: validated sl/s1: 1 of 2 run(s) of the current source failed a "
				  "check: run 20260115T000001Z-sl-s2 (sl/s2: the kernel file at COIN=2): wrong_output"));
	assert_non_null(strstr(f, "; 1 of the runs are its kernel file at other parameters, flags or headers (params="
				  "NAME=VALUE claims one configuration); 1 run(s) at other configurations refused them "
				  "(build_failed, init_failed or launch_failed: no output, nothing judged)\n"));
	assert_non_null(strstr(f, "t.md:2: supported: validated sl/s1: 1 run(s) of the current source passed every check"));
	assert_non_null(strstr(f, "; params=COIN=1: 2 run(s) of the kernel file in 2 other configuration(s) left out, 1 "
				  "of those configurations failed\n"));
	assert_non_null(strstr(f, "t.md:3: error: claim 'validated': params=COIN=2, but run 20260115T000000Z-sl-s1 of "
				  "sl/s1 ran at COIN=1"));
	assert_non_null(strstr(f, "t.md:4: error: claim 'validated': params='COIN' is not NAME=VALUE"));
	assert_int_equal(c.contradicted, 1);
	assert_int_equal(c.supported, 1);
	assert_int_equal(c.errors, 2);
	free(f);
}

/*
 * Red team 44, finding 4: a value claim on a comparison statistic is the
 * verdict it implies, weighed as a verdict claim is.  sh-x's speedup 1.5x
 * lies in its CI but its faster does not survive the tries (contradicted);
 * sh-y's holds (supported); o's fast is one process a side and e's twin
 * no_difference: neither decides faster or slower (unsupported, write a
 * verdict claim); aa's two sides are one code (contradicted).  Before:
 * all five supported, each number within its CI.
 */
static void test_value_comparison(void **state)
{
	struct audit_counts c;
	(void)state;
	char *f = audit("<!-- claim: value experiment=sh variant=fast run=20260105T000002Z-sh-x-batch stat=speedup value=1.5x -->\n"
			"<!-- claim: value experiment=sh variant=fast run=20260105T000005Z-sh-y-batch stat=speedup value=1.5x -->\n"
			"<!-- claim: value experiment=o variant=fast stat=speedup value=2x -->\n"
			"<!-- claim: value experiment=e variant=twin stat=p value=0.8 -->\n"
			"<!-- claim: value experiment=aa variant=fast stat=speedup value=1.5x -->\n",
			&c);
	assert_non_null(strstr(f, "t.md:1: contradicted: value sh/fast speedup=1.5x: recorded 1.5, within the 95% CI [1.25, "
				  "1.75] (run 20260105T000001Z-sh-fast); as a verdict against base: speedup 1.500x [1.300, "
				  "1.700], faster; but the two kernels were tried in 3 configurations"));
	assert_non_null(strstr(f, "t.md:2: supported: value sh/fast speedup=1.5x: "));
	assert_non_null(strstr(f, "as a verdict against base: speedup 1.500x [1.300, 1.700], faster; p 0.003 adjusted "
				  "over the 3 configurations the two kernels were tried in"));
	assert_non_null(strstr(f, "t.md:3: unsupported: value o/fast speedup=2x: recorded 2, within the 95% CI"));
	assert_non_null(strstr(f, "inconclusive (1 repeat a side: the variance between processes is unknown); a "
				  "comparison statistic stated as a value is a comparison, and this one decides no faster "
				  "or slower: write it as a verdict claim"));
	assert_non_null(strstr(f, "t.md:4: unsupported: value e/twin p=0.8: "));
	assert_non_null(strstr(f, "no_difference; a comparison statistic stated as a value"));
	assert_non_null(strstr(f, "t.md:5: contradicted: value aa/fast speedup=1.5x: "));
	assert_non_null(strstr(f, "but both sides ran the same code"));
	assert_int_equal(c.supported, 1);
	assert_int_equal(c.contradicted, 2);
	assert_int_equal(c.unsupported, 2);
	free(f);
}

/*
 * Red team 46, finding 4: `validated params=COIN=1` left out the runs of
 * the file at other COINs, though COIN=2 only changed the echo (the same
 * echo-neutral object, code.echo_neutral_sha256): that run is the same
 * code and its failure contradicts; COIN=3 reached the code (another
 * echo-neutral object) and stays another configuration.  Before:
 * supported.  Red team 38: a faster between two TRYs of one echo is the
 * same code on both sides (before: supported on the batch's verdict).
 */
static void test_validated_echo_only_params(void **state)
{
	struct audit_counts c;
	(void)state;
	char *f = audit("<!-- claim: validated experiment=en variant=en1 params=COIN=1 -->\n", &c);
	assert_non_null(strstr(f, "t.md:1: contradicted: validated en/en1: 1 of 2 run(s) of the current source failed a "
				  "check: run 20260118T000001Z-en-en2 (the same code as en/en2): wrong_output"));
	assert_non_null(strstr(f, "; params=COIN=1: 1 run(s) of the kernel file in 1 other configuration(s) left out, 1 "
				  "of those configurations failed"));
	assert_null(strstr(f, "en-en3"));
	assert_int_equal(c.contradicted, 1);
	free(f);
	/* red team 38: the two sides of a verdict differ only in an echoed knob */
	f = audit("<!-- claim: faster experiment=ea a=a b=z -->\n", &c);
	assert_non_null(strstr(f, "t.md:1: contradicted: faster a vs z: "));
	assert_non_null(strstr(f, "; but both sides ran the same code (their objects differ only in the EV_PARAM echo: "
				  "echo-neutral object eanone) the same way"));
	assert_int_equal(c.contradicted, 1);
	free(f);
}

/*
 * Red team 47, finding 1: a value claim on a time or rate pinned to the
 * one batch where the code drew fast was checked against that batch
 * alone.  Every batch of the same code holds the claim to its CI: 190 us
 * is inside 1 of 4 (vb-4 ran other code and is not counted), 1300 us
 * inside 3 of 4 (held to the CI, or to the tolerance stated).
 */
static void test_value_across_batches(void **state)
{
	struct audit_counts c;
	(void)state;
	char *f = audit("<!-- claim: value experiment=vb variant=coin stat=median_us value=190us "
			"run=20260117T000000Z-vb-0-batch -->\n"
			"<!-- claim: value experiment=vb variant=coin stat=median_us value=1300us "
			"run=20260117T000001Z-vb-1-batch -->\n"
			"<!-- claim: value experiment=vb variant=coin stat=median_us value=190us "
			"run=20260117T000004Z-vb-4-batch -->\n"
			"<!-- claim: value experiment=vb variant=coin stat=median_us value=1.3ms tol=5% "
			"run=20260117T000002Z-vb-2-batch -->\n",
			&c);
	assert_non_null(strstr(f, "t.md:1: contradicted: value vb/coin median_us=190us: recorded 190, within the 95% CI "
				  "[179.5, 240.5]"));
	assert_non_null(strstr(f, "; but only 1 of 4 batches of the same code on "));
	assert_non_null(strstr(f, " hold median_us=190, 3 exclude it: 1300 [1280, 1320] (20260117T000003Z-vb-3-batch)"));
	assert_non_null(strstr(f, "t.md:2: supported: value vb/coin median_us=1300us"));
	assert_non_null(strstr(f, "; 3 of 4 batches of the same code on "));
	assert_non_null(strstr(f, "t.md:3: supported: value vb/coin median_us=190us"));
	assert_non_null(strstr(f, "t.md:4: supported: value vb/coin median_us=1.3ms: recorded 1300, within the stated tolerance"));
	assert_int_equal(c.contradicted, 1);
	assert_int_equal(c.supported, 3);
	free(f);
}

/*
 * Red team 49, finding 1: a value claim on a stat with no CI (mean_us,
 * min_us) decided nothing across batches, and the pick of red team 47
 * worked unchanged (before: both supported on batch nc-0 alone).  Every
 * batch holds it to the precision written: 1 of 4 batches.
 */
static void test_value_no_ci_across_batches(void **state)
{
	struct audit_counts c;
	(void)state;
	char *f = audit("<!-- claim: value experiment=nc variant=coin stat=mean_us value=262us "
			"run=20260121T000000Z-nc-0-batch -->\n"
			"<!-- claim: value experiment=nc variant=coin stat=min_us value=182us "
			"run=20260121T000000Z-nc-0-batch -->\n"
			"<!-- claim: value experiment=nc variant=coin stat=mean_us value=1500us "
			"run=20260121T000001Z-nc-1-batch -->\n",
			&c);
	assert_non_null(strstr(f, "t.md:1: contradicted: value nc/coin mean_us=262us: recorded 262, within the "
				  "precision written"));
	assert_non_null(strstr(f, "; but only 1 of 4 batches of the same code on "));
	assert_non_null(strstr(f, " hold mean_us=262, 3 exclude it: 1500 [1500, 1500] (20260121T000003Z-nc-3-batch)"));
	assert_non_null(strstr(f, "t.md:2: contradicted: value nc/coin min_us=182us"));
	assert_non_null(strstr(f, "t.md:3: supported: value nc/coin mean_us=1500us"));
	assert_non_null(strstr(f, "; 3 of 4 batches of the same code on "));
	assert_int_equal(c.contradicted, 2);
	assert_int_equal(c.supported, 1);
	free(f);
}

/*
 * Red team 49, finding 2: reproductions were left out of the batches of
 * the code, so a value pinned to the luckiest of 3 reproductions of rq.c
 * was weighed against the original alone ("1 of 2", supported): now 1 of
 * 4.  And a claim needs more than half of the deciding batches: rt.c's 1
 * of 2 is no majority (unsupported; before: supported).
 */
static void test_value_reproductions_and_majority(void **state)
{
	struct audit_counts c;
	(void)state;
	char *f = audit("<!-- claim: value experiment=rq variant=coin stat=median_us value=190us "
			"run=20260122T000001Z-rq-r1-batch -->\n"
			"<!-- claim: value experiment=rt variant=coin stat=median_us value=190us "
			"run=20260122T000010Z-rt-0-batch -->\n",
			&c);
	assert_non_null(strstr(f, "t.md:1: contradicted: value rq/coin median_us=190us"));
	assert_non_null(strstr(f, "; but only 1 of 4 batches of the same code on "));
	assert_non_null(strstr(f, "t.md:2: unsupported: value rt/coin median_us=190us"));
	assert_non_null(strstr(f, "; but only 1 of 2 batches of the same code on "));
	assert_non_null(strstr(f, ": no majority of the batches"));
	assert_int_equal(c.contradicted, 1);
	assert_int_equal(c.unsupported, 1);
	free(f);
}

/*
 * Red team 126, finding 2 (put_stop_hunt): interrupted tries of the code
 * are weighed against a value claim as across_rerun weighs them against
 * a verdict: ih-1..ih-3's runs (3600 us) lie outside the band of the
 * claim's interrupted evidence (2600 [2400, 3500]), so they count against
 * it, whatever their repeats (before: no vote, fewer than 3 repeats, and
 * the claim supported on ih-0 alone); so does ih-4's run (3000 us): inside
 * the CI, but a try is held to the band cut even about the claim,
 * [2399.5, 2800.5] (value_try_band; before red team 130's killhunt fix,
 * left out).  ig-1's beside ig-0's finished batch is left out, neither
 * for nor against (an honest session stopped while its runs went the
 * claim's way).  ih-0 itself, interrupted, is left out of the count
 * (test_value_interrupted_only): 0 of 4.
 */
static void test_value_stopped_tries(void **state)
{
	struct audit_counts c;
	(void)state;
	char *f = audit("<!-- claim: value experiment=ih variant=quick stat=median_us value=2600us "
			"run=20260128T000003Z-ih-0-batch -->\n"
			"<!-- claim: value experiment=ig variant=quick stat=median_us value=3000us "
			"run=20260128T000033Z-ig-0-batch -->\n",
			&c);
	assert_non_null(strstr(f, "t.md:1: contradicted: value ih/quick median_us=2600us: recorded 2600, within the "
				  "95% CI [2399.5, 3500.5]"));
	assert_non_null(strstr(f, "; but only 0 of 4 batches of the same code on "));
	assert_non_null(strstr(f, " hold median_us=2600, 4 exclude it (4 of them interrupted tries with a run outside "
				  "its band or not ok): interrupted, a run at 3000 (20260128T000024Z-ih-4-batch), "
				  "interrupted, a run at 3600 (20260128T000023Z-ih-3-batch)"));
	assert_non_null(strstr(f, "; batch 20260128T000003Z-ih-0-batch itself interrupted, a stopped try: left out of "
				  "the count"));
	assert_null(strstr(f, "interrupted try of the code, every run inside [2399.5"));
	assert_null(strstr(f, "fewer than 3 repeats left out"));
	assert_non_null(strstr(f, "t.md:2: supported: value ig/quick median_us=3000us: recorded 3000, within the 95% "
				  "CI [2899.5, 3100.5]"));
	assert_non_null(strstr(f, "; 1 interrupted try of the code, every run inside [2899.5, 3100.5], left out"));
	assert_int_equal(c.contradicted, 1);
	assert_int_equal(c.supported, 1);
	free(f);
}

/*
 * Red team 130, hole 3 (put_kill_hunt): killed tries of the code, runs and
 * no batch record, are weighed against a value claim as interrupted ones
 * are: kh-1..kh-3's runs lie outside kh-0's band, 3 against it (before:
 * "recorded 2600, within the 95% CI", supported on kh-0 alone); kh-4's
 * run at 3000 us, inside kh-0's CI but outside the band cut even about
 * the claim ([2399.5, 2800.5], value_try_band), a fourth (before red team
 * 130's killhunt fix: left out); kh-5, another code's run, says nothing.
 */
static void test_value_killed_tries(void **state)
{
	struct audit_counts c;
	(void)state;
	char *f = audit("<!-- claim: value experiment=kh variant=quick stat=median_us value=2600us "
			"run=20260129T000003Z-kh-0-batch -->\n",
			&c);
	assert_non_null(strstr(f, "t.md:1: contradicted: value kh/quick median_us=2600us: recorded 2600, within the "
				  "95% CI [2399.5, 3500.5]"));
	assert_non_null(strstr(f, "; but only 1 of 5 batches of the same code on "));
	assert_non_null(strstr(f, " hold median_us=2600, 4 exclude it (4 of them killed tries (runs, no batch record) "
				  "with a run outside its band or not ok): killed, 2 of 2 run(s) outside its band, the "
				  "first at 3600 (20260129T000011Z-kh-1-batch: runs, no batch record)"));
	assert_non_null(strstr(f, "killed, 1 of 2 run(s) outside its band, the first at 3000 "
				  "(20260129T000014Z-kh-4-batch: runs, no batch record)"));
	assert_null(strstr(f, "left out"));
	assert_int_equal(c.contradicted, 1);
	free(f);
}

/*
 * Red team 130's killhunt on the fixed build (put_wide_hunt): a try is
 * held to the claim's band cut even about the stated value
 * (value_try_band), not to the evidence's whole CI.  kw's claim of 2600 us
 * on kw-0 (3577 [2536, 4799]) holds kw-3..kw-7's slow runs to [2536,
 * 2664]: 5 killed tries against, kw-8 (2560, 2650) left out, 1 of 3
 * finished batches beside them: contradicted (before: the slow runs lay
 * inside the CI, every killed try left out, "2 of 3 batches" supported).
 * The honest control kc (3000 on 3000 [2900, 3100]) keeps its band,
 * [2899.5, 3100.5]: the try killed for real at 2950 and 3080 us is left
 * out, and the claim supported.
 */
static void test_value_killed_wide_band(void **state)
{
	struct audit_counts c;
	(void)state;
	char *f = audit("<!-- claim: value experiment=kw variant=quick stat=median_us value=2600us "
			"run=20260130T000000Z-kw-0-batch -->\n"
			"<!-- claim: value experiment=kc variant=quick stat=median_us value=3000us "
			"run=20260130T000203Z-kc-0-batch -->\n",
			&c);
	assert_non_null(strstr(f, "t.md:1: contradicted: value kw/quick median_us=2600us: recorded 3577, within the "
				  "95% CI [2535.5, 4799.5]"));
	assert_non_null(strstr(f, "; but only 2 of 8 batches of the same code on "));
	assert_non_null(strstr(f, " hold median_us=2600, 6 exclude it (5 of them killed tries (runs, no batch record) "
				  "with a run outside its band or not ok): "));
	assert_non_null(strstr(f, "killed, 2 of 2 run(s) outside its band, the first at 3486 "
				  "(20260130T000100Z-kw-3-batch: runs, no batch record)"));
	assert_non_null(strstr(f, "; 1 killed try of the code (runs, no batch record), every run inside [2535.5, "
				  "2664.5], left out"));
	assert_non_null(strstr(f, "t.md:2: supported: value kc/quick median_us=3000us: recorded 3000, within the 95% "
				  "CI [2899.5, 3100.5]"));
	assert_non_null(strstr(f, "; 1 killed try of the code (runs, no batch record), every run inside [2899.5, "
				  "3100.5], left out"));
	assert_int_equal(c.contradicted, 1);
	assert_int_equal(c.supported, 1);
	free(f);
}

/*
 * Red team 132, gap 2 (put_begun_hunt): a job of the code begun and never
 * recorded, in a try with no batch record, counts against a value claim:
 * kb-1 and kb-2, 1 of 3, contradicted (before: supported on kb-0 alone,
 * the tries with no run of the code saying nothing); kb-3 (a job of
 * another variant) and kb-4 (another shape) say nothing.  The honest
 * control kd: a try killed before any job of its code began says
 * nothing, supported.  And ki-1, interrupted while a job of the code ran
 * (recorded aborted, "interrupted by SIGINT"): against, 1 of 2,
 * unsupported (before: supported, the aborted run not the code's and the
 * try's one ok run inside the band).
 */
static void test_value_begun_jobs(void **state)
{
	struct audit_counts c;
	(void)state;
	char *f = audit("<!-- claim: value experiment=kb variant=quick stat=median_us value=3000us -->\n"
			"<!-- claim: value experiment=kd variant=quick stat=median_us value=3000us -->\n"
			"<!-- claim: value experiment=ki variant=quick stat=median_us value=3000us -->\n",
			&c);
	assert_non_null(strstr(f, "t.md:1: contradicted: value kb/quick median_us=3000us: recorded 3000, within the "
				  "95% CI [2899.5, 3100.5]"));
	assert_non_null(strstr(f, "; but only 1 of 3 batches of the same code on "));
	assert_non_null(strstr(f, " hold median_us=3000, 2 exclude it (2 of them killed tries (runs or a begun job, no "
				  "batch record) with a run outside its band or not ok, or a job of the code begun and never "
				  "finished): killed, 1 job(s) of the code begun and never finished "
				  "(20260131T000011Z-kb-1-batch: begun marker, no batch record), killed, 1 job(s) of the "
				  "code begun and never finished (20260131T000012Z-kb-2-batch: begun marker, no batch "
				  "record): "));
	assert_non_null(strstr(f, "; 2 killed tries had a job of the code begun and never finished (its batch's begun "
				  "marker in pending/ lists it"));
	assert_non_null(strstr(f, "rerunning the experiment to finished batches, most of which must hold the "
				  "value"));
	assert_null(strstr(f, "kb-3-batch"));
	assert_null(strstr(f, "kb-4-batch"));
	assert_non_null(strstr(f, "t.md:2: supported: value kd/quick median_us=3000us: recorded 3000, within the 95% "
				  "CI [2899.5, 3100.5]"));
	/* ki-1's job cut short: against (before: aborted, not the code's,
	 * and ki-1's one ok run inside the band left it out, supported) */
	assert_non_null(strstr(f, "t.md:3: unsupported: value ki/quick median_us=3000us: "));
	assert_non_null(strstr(f, "; but only 1 of 2 batches of the same code on "));
	assert_non_null(strstr(f, "interrupted, a job of the code begun and never finished (aborted, interrupted) "
				  "(20260131T000212Z-ki-1-batch)"));
	assert_non_null(strstr(f, "; 1 interrupted try had a job of the code cut short (aborted, interrupted before it "
				  "finished), which counts against the claim"));
	assert_int_equal(c.contradicted, 1);
	assert_int_equal(c.supported, 1);
	assert_int_equal(c.unsupported, 1);
	free(f);
}

/*
 * README's "a claim whose only batch is an interrupted one is still read
 * from it" (put_wide_hunt's io): the claim's own batch interrupted is a
 * stopped try, never a vote for the claim, and with no other batch or
 * try of the code the claim is unsupported (before: supported, "recorded
 * 2625, within the 95% CI").  ih's claim, pinned to its interrupted
 * ih-0, reads 0 of 4 (test_value_stopped_tries).
 */
static void test_value_interrupted_only(void **state)
{
	struct audit_counts c;
	(void)state;
	char *f = audit("<!-- claim: value experiment=io variant=quick stat=median_us value=2600us -->\n", &c);
	assert_non_null(strstr(f, "t.md:1: unsupported: value io/quick median_us=2600us: recorded 2625, within the 95% "
				  "CI [2549.5, 2700.5] (run 20260130T000300Z-io-q0a); but batch "
				  "20260130T000302Z-io-0-batch was interrupted, a stopped try, which never counts for a "
				  "claim (its runner chose when it stopped), and no finished batch or other try of the "
				  "same code on "));
	assert_int_equal(c.unsupported, 1);
	free(f);
}

/*
 * Red team 130, hole 3 (put_killed_repros): a reproduction begun and never
 * recorded did not reproduce (before: old5 supported, "1 reproduction(s)
 * reproduced all 2 variant(s)"; old6 unsupported, no reproduction).
 */
static void test_reproduced_killed(void **state)
{
	struct audit_counts c;
	(void)state;
	char *f = audit("<!-- claim: reproduced run=20260102T000011Z-r-old5-batch -->\n"
			"<!-- claim: reproduced run=20260102T000014Z-r-old6-batch -->\n",
			&c);
	assert_non_null(strstr(f, "t.md:1: contradicted: reproduced 20260102T000011Z-r-old5-batch: 1 of 2 "
				  "reproduction(s) did not reproduce: 1 begun and never recorded (killed before their batch "
				  "record, or still running; the newest 20260102T000013Z-r-rep8-batch)"));
	assert_non_null(strstr(f, "t.md:2: contradicted: reproduced 20260102T000014Z-r-old6-batch: 1 of 1 "
				  "reproduction(s) did not reproduce: 1 begun and never recorded"));
	assert_null(strstr(f, "(null)"));
	assert_int_equal(c.contradicted, 2);
	free(f);
}

/*
 * Red team 49, finding 4: nt.c's twin (another binary, SLOW=0) shares
 * its echo-neutral object, and its 4 fast batches voted for nt.c's
 * (before: "5 of 7", supported).  The echo-neutral object only counts
 * against: 1 of 3 batches of nt.c's own binary hold 190 us; the twin's
 * batches, which hold it, are not counted for it.
 */
static void test_value_neutral_twin(void **state)
{
	struct audit_counts c;
	(void)state;
	char *f = audit("<!-- claim: value experiment=nt variant=coin stat=median_us value=190us "
			"run=20260123T000000Z-nt-0-batch -->\n",
			&c);
	assert_non_null(strstr(f, "t.md:1: contradicted: value nt/coin median_us=190us"));
	assert_non_null(strstr(f, "; but only 1 of 3 batches of the same code on "));
	assert_int_equal(c.contradicted, 1);
	free(f);
}

/*
 * Red team 83: comment-only copies of a kernel under other names are
 * other binaries and other codes, one loaded image (code.load_sha256).
 * validated on the copy whose run drew clean: the copy that failed is the
 * same program (before: supported, 1 run); another code is still its
 * own.  A value pinned to the one fast copy's batch: the copies' batches
 * that exclude it count (before: supported on its batch alone), those
 * that hold it do not (a kernel can tell load-equal objects apart), so 1
 * of 6; lo.c's own batches decide for lo.c, as before.  A copy and its
 * original on the two sides of a verdict are the same code (before: the
 * batch's faster supported).
 */
static void test_load_copies(void **state)
{
	struct audit_counts c;
	(void)state;
	char *f = audit("<!-- claim: validated experiment=lt variant=g -->\n"
			"<!-- claim: validated experiment=lt variant=o -->\n"
			"<!-- claim: value experiment=lc variant=coin stat=median_us value=190us "
			"run=20260127T000000Z-lc-0-batch -->\n"
			"<!-- claim: value experiment=lo variant=coin stat=median_us value=1300us -->\n"
			"<!-- claim: faster experiment=ls a=a b=z -->\n",
			&c);
	assert_non_null(strstr(f, "t.md:1: contradicted: validated lt/g: 1 of 2 run(s) of the current source failed a "
				  "check: run 20260127T000020Z-lt-a (the same code as lt/a): wrong_output"));
	assert_non_null(strstr(f, "t.md:2: supported: validated lt/o: 1 run(s) of the current source passed"));
	assert_non_null(strstr(f, "t.md:3: contradicted: value lc/coin median_us=190us"));
	assert_non_null(strstr(f, "; but only 3 of 8 batches of the same code on "));
	assert_non_null(strstr(f, "t.md:4: supported: value lo/coin median_us=1300us"));
	assert_non_null(strstr(f, "; 2 of 3 batches of the same code on "));
	assert_non_null(strstr(f, "t.md:5: contradicted: faster a vs z: "));
	assert_non_null(strstr(f, "; but both sides ran the same code (binary lsbin, sources and parameters "));
	assert_int_equal(c.contradicted, 3);
	assert_int_equal(c.supported, 2);
	free(f);
}

/*
 * Red team 87: where the load hash (code.load_sha256) counts against a
 * claim, and where the object's hashes are not the code.  fam: the copy
 * rf_g.c, run at TILE=64 only, answers for rf.c's TILE=32 (before:
 * supported, 4 runs: rfr's two are the same program too).  famre: a variant that ran rf.c, then its copy
 * (before: supported, rf.c's identity dropped as the copy's).  long: a
 * value of the copy's batch, where the original crashed in two (before:
 * supported).  drift: the copy slower than the original's history
 * (before: supported).  lib: one object with its library at 1 and at 40
 * passes is two codes (before: contradicted by the 1-pass history).
 */
static void test_rt87_load_identity(void **state)
{
	struct audit_counts c;
	(void)state;
	char *f = audit("<!-- claim: validated experiment=rfc variant=g -->\n"
			"<!-- claim: validated experiment=rfr variant=g -->\n"
			"<!-- claim: value experiment=vls variant=z stat=median_us value=42.6us "
			"run=20260128T000010Z-vls-0-batch -->\n"
			"<!-- claim: faster experiment=dl a=va b=z -->\n"
			"<!-- claim: faster experiment=lb a=va b=z -->\n"
			"<!-- claim: faster experiment=lbn a=va b=z -->\n",
			&c);
	assert_non_null(strstr(f, "t.md:1: contradicted: validated rfc/g: 1 of 5 run(s) of the current source failed a "
				  "check: run 20260128T000001Z-rf-a32 (rf/a32: the kernel file at TILE=32): wrong_output"));
	assert_non_null(strstr(f, "t.md:2: contradicted: validated rfr/g: "));
	assert_non_null(strstr(f, "run 20260128T000001Z-rf-a32 (rf/a32: the kernel file at TILE=32): wrong_output"));
	assert_non_null(strstr(f, "t.md:3: contradicted: value vls/z median_us=42.6us"));
	assert_non_null(strstr(f, "; but only 1 of 3 batches of the same code on "));
	assert_non_null(strstr(f, "z did not run cleanly: crashed (20260128T000012Z-vll-2-batch)"));
	assert_non_null(strstr(f, "t.md:4: contradicted: faster va vs z: "));
	assert_non_null(strstr(f, "but z, the side it says is slower, ran 7.00x slower here than the fastest its code was "
				  "recorded at in the store (batch 20260128T000020Z-dlh-0-batch: median 100 us there"));
	assert_non_null(strstr(f, "t.md:5: supported: faster va vs z: "));
	assert_non_null(strstr(f, "t.md:6: supported: faster va vs z: "));
	assert_int_equal(c.contradicted, 4);
	assert_int_equal(c.supported, 2);
	free(f);
}

/* A host run of experiment exp, variant var, in batch bid (NULL: its
 * own), of kernel path (content sha), for problem p2; with psha non-NULL
 * it recorded the problem's code as well (problem.sources: pmp.c at
 * psha), as runs since problem provenance do; without, a record older
 * than that. */
static void put_pm_run(struct store *st, const char *id, const char *exp, const char *var, const char *bid,
		       const char *path, const char *sha, const char *psha)
{
	json_t *pr = json_pack("{s:s, s:s, s:{s:i}, s:[s]}", "name", "p2", "dtype", "fp32", "shape", "N", 256, "dims", "N");
	if (psha)
		json_object_set_new(pr, "sources", one_source("pmp.c", psha));
	char *bin = xstrfmt("%sbin", path);
	json_t *x = json_pack("{s:s, s:s, s:s, s:{s:[{s:s, s:s}], s:s, s:{s:[s, s, s], s:s}}, s:o}", "experiment", exp,
			      "backend", "host", "batch_id", bid ? bid : id, "code", "sources", "path", path, "sha256",
			      sha, "binary_sha256", bin, "compiler", "argv", "cc", "-O2", path, "version", "cc 1", "problem",
			      pr);
	assert_non_null(x);
	put_before_provenance = !psha;
	put_variant_x(st, id, var, sha, "# us\n100\n", "ok", x);
	put_before_provenance = 0;
	free(bin);
}

/* Batch bid of experiment exp: z (EXPz.c) beside va (EXPv.c), recorded
 * faster 2x; their runs recorded the problem's code at psha (NULL: none,
 * before problem provenance); at day (a date, the runs' and batch's id). */
static void put_pm_batch(struct store *st, const char *exp, const char *day, const char *psha)
{
	char zsha[SHA256_HEX_LEN + 1], vsha[SHA256_HEX_LEN + 1];
	char *bid = xstrfmt("%sT000009Z-%s-0-batch", day, exp), *zid = xstrfmt("%sT000000Z-%s-z", day, exp),
	     *aid = xstrfmt("%sT000001Z-%s-va", day, exp), *zpath = xstrfmt("%sz.c", exp),
	     *vpath = xstrfmt("%sv.c", exp);
	assert_int_equal(sha256_file_hex(zpath, zsha), 0);
	assert_int_equal(sha256_file_hex(vpath, vsha), 0);
	put_pm_run(st, zid, exp, "z", bid, zpath, zsha, psha);
	put_pm_run(st, aid, exp, "va", bid, vpath, vsha, psha);
	json_t *zr = host_row("z", zid, NULL, NULL, 0, 0, 0, 0);
	json_object_set_new(zr, "stats", json_pack("{s:i, s:f, s:[f, f], s:i}", "n", 90, "median", 200.0, "median_ci",
						   198.0, 202.0, "repeats", 3));
	json_t *vr = host_row("va", aid, NULL, "faster", 2.0, 1.98, 2.02, 0.001);
	json_object_set_new(vr, "stats", json_pack("{s:i, s:f, s:[f, f], s:i}", "n", 90, "median", 100.0, "median_ci",
						   99.0, 101.0, "repeats", 3));
	put_host_batch(st, bid, exp, json_pack("[o, o]", zr, vr));
	free(bid);
	free(zid);
	free(aid);
	free(zpath);
	free(vpath);
}

/*
 * 0fabd81cb: a run that recorded no problem code (a record older than
 * problem provenance), older than a run of its experiment and problem
 * whose recorded problem code changed since, ran that problem or an older
 * one: not current.  pm: vo's one run (pmo.c, current) and batch 1 (z,
 * va faster) recorded none; batch 2 of pm, a day later, recorded pmp.c at
 * bytes it no longer holds.  Before, batch 2 read stale and `validated`
 * and run=latest fell back to the older records, read as current
 * (rowsum-cuda, 2026-12-07).  pn's batch 2 recorded pmp.c as it is.
 * Red team 295 row 3: the old records name no commit either, so the
 * problem they ran is unknown whether or not a newer run shows it moved
 * (an old build exported with `git archive` carries its own problems/):
 * stale from the start, before batch 2 is in the store (they read
 * supported there before the change), and after; pn's faster claim is
 * supported by its batch 2 alone.
 */
static void test_validated_old_run_problem_moved(void **state)
{
	struct audit_counts c;
	char sha[SHA256_HEX_LEN + 1], pold[SHA256_HEX_LEN + 1], pnow[SHA256_HEX_LEN + 1];
	(void)state;
	put_file("pmp.c", "int pmp_then;\n", pold);
	put_file("pmp.c", "int pmp_now;\n", pnow);
	assert_string_not_equal(pold, pnow);
	struct store st = STORE_INIT;
	assert_int_equal(store_open(&st, "store", 1), 0);
	for (int k = 0; k < 2; k++) {
		/* each experiment its own kernel files: no run is the other's code */
		const char *exp = k ? "pn" : "pm";
		static const char *const parts[] = { "z", "v", "o" };
		for (int j = 0; j < 3; j++) {
			char *path = xstrfmt("%s%s.c", exp, parts[j]), *text = xstrfmt("int %s%s;\n", exp, parts[j]);
			put_file(path, text, sha);
			free(path);
			free(text);
		}
		/* sha: EXPo.c's, written last */
		char *oid = xstrfmt("20260201T000002Z-%s-vo", exp), *opath = xstrfmt("%so.c", exp);
		put_pm_run(&st, oid, exp, "vo", NULL, opath, sha, NULL);
		put_pm_batch(&st, exp, "20260201", NULL);
		free(oid);
		free(opath);
	}
	store_release(&st);
	const char *t = "<!-- claim: validated experiment=pm variant=vo -->\n"
			"<!-- claim: faster experiment=pm a=va b=z run=latest -->\n"
			"<!-- claim: validated experiment=pn variant=vo -->\n"
			"<!-- claim: faster experiment=pn a=va b=z run=latest -->\n";
	/* no newer run of the problem: the old records are of an unknown
	 * problem all the same */
	char *f = audit(t, &c);
	assert_non_null(strstr(f, "t.md:1: stale: validated pm/vo: run '20260201T000002Z-pm-vo' recorded neither its "
				  "problem's code nor a commit: the code of the problem 'p2' it ran is unknown"));
	assert_non_null(strstr(f, "t.md:2: stale: faster va vs z: run '20260201T000000Z-pm-z' recorded neither its "
				  "problem's code nor a commit"));
	assert_non_null(strstr(f, "t.md:3: stale: validated pn/vo: run '20260201T000002Z-pn-vo' recorded neither"));
	assert_non_null(strstr(f, "t.md:4: stale: faster va vs z: run '20260201T000000Z-pn-z' recorded neither"));
	assert_int_equal(c.supported, 0);
	assert_int_equal(c.stale, 4);
	free(f);
	assert_int_equal(store_open(&st, "store", 1), 0);
	put_pm_batch(&st, "pm", "20260202", pold); /* pmp.c changed since */
	put_pm_batch(&st, "pn", "20260202", pnow); /* pmp.c as it is */
	store_release(&st);
	f = audit(t, &c);
	assert_non_null(strstr(f, "t.md:1: stale: validated pm/vo: run '20260201T000002Z-pm-vo' recorded neither its "
				  "problem's code nor a commit"));
	assert_null(strstr(f, "t.md:1: supported"));
	assert_non_null(strstr(f, "t.md:2: stale: faster va vs z"));
	assert_null(strstr(f, "t.md:2: supported"));
	assert_non_null(strstr(f, "t.md:3: stale: validated pn/vo: run '20260201T000002Z-pn-vo' recorded neither"));
	assert_non_null(strstr(f, "t.md:4: supported: faster va vs z: "));
	assert_int_equal(c.supported, 1);
	assert_int_equal(c.stale, 3);
	free(f);
}

/* A host run of EXPv.c (experiment exp, variant v), problem gp, that
 * recorded no problem code (a build before problem provenance), in a
 * checkout at commit (NULL: none named); diff: its tree's patch against
 * the commit, put into the store (NULL: a clean tree). */
static void put_gp_run(struct store *st, const char *exp, const char *commit, const char *diff)
{
	char sha[SHA256_HEX_LEN + 1];
	char *path = xstrfmt("%sv.c", exp), *text = xstrfmt("int %sv;\n", exp), *id = xstrfmt("20260301T000000Z-%s-v", exp),
	     *bin = xstrfmt("%sbin", exp);
	put_file(path, text, sha);
	json_t *x = json_pack("{s:s, s:s, s:{s:[{s:s, s:s}], s:s, s:{s:[s, s, s], s:s}}, s:{s:s, s:s, s:{s:i}, s:[s]}}",
			      "experiment", exp, "backend", "host", "code", "sources", "path", path, "sha256", sha,
			      "binary_sha256", bin, "compiler", "argv", "cc", "-O2", path, "version", "cc 1", "problem",
			      "name", "gp", "dtype", "fp32", "shape", "N", 256, "dims", "N");
	char dhex[SHA256_HEX_LEN + 1] = "";
	if (diff)
		assert_int_equal(store_put(st, diff, strlen(diff), dhex), 0);
	if (commit)
		json_object_set_new(json_object_get(x, "code"), "git",
				    json_pack("{s:b, s:s, s:b, s:i, s:s?}", "is_repo", 1, "commit", commit, "dirty", !!diff,
					      "n_changed", diff ? 1 : 0, "diff_object", diff ? dhex : NULL));
	json_object_set_new(x, "batch_id", json_string(id));
	put_before_provenance = 1;
	put_variant_x(st, id, "v", sha, "# us\n100\n", "ok", x);
	put_before_provenance = 0;
	free(path);
	free(text);
	free(id);
	free(bin);
}

/*
 * Red team 294 row 2: a run that recorded no problem code but names its
 * commit ran the problem's code at that commit (the plug-in
 * problems/gp.c and the header it includes), and is current only where
 * that code is the work tree's.  The red team's run: an evident build
 * older than problem provenance, under its commit's gemm.c (an fp32 rule
 * twice today's), whose gemm off by 2.4e-4 read ok; `validated` read
 * supported.  ga names commit A (gp.h changed since: stale), gb commit B
 * (gp.c and gp.h as they are: supported), gc a commit the repository
 * lacks (stale: the code it ran is unknown), gd none (red team 295 row
 * 3: neither problem code nor a commit, an unknown problem: stale; read
 * supported before that change); ge and gf name commit B from a dirty
 * tree, ge's recorded diff changing gp.h (stale), gf's only its kernel
 * (supported).  Before the change: 6 supported.
 */
static void test_validated_old_run_problem_at_commit(void **state)
{
	struct audit_counts c;
	char ca[GIT_OID_HEXSZ + 1], cb[GIT_OID_HEXSZ + 1], c0[GIT_OID_HEXSZ + 1];
	git_repository *repo;
	git_oid o;
	(void)state;
	git_libgit2_init();
	assert_int_equal(git_repository_init(&repo, ".", 0), 0); /* test_errata's, or a new one */
	mkdir("problems", 0755);
	git_oid *head = git_reference_name_to_id(&o, repo, "HEAD") == 0 ? &o : NULL;
	make_commit_with(repo, head, "int gp_h1;\n", "problems/gp.h", c0);
	git_oid_fromstr(&o, c0);
	make_commit_with(repo, &o, "#include \"gp.h\"\nint gp;\n", "problems/gp.c", ca);
	git_oid_fromstr(&o, ca);
	make_commit_with(repo, &o, "int gp_h2;\n", "problems/gp.h", cb); /* the work tree's */
	git_repository_free(repo);
	git_libgit2_shutdown();
	struct store st = STORE_INIT;
	assert_int_equal(store_open(&st, "store", 1), 0);
	put_gp_run(&st, "ga", ca, NULL);
	put_gp_run(&st, "gb", cb, NULL);
	put_gp_run(&st, "gc", "0123456789abcdef0123456789abcdef01234567", NULL);
	put_gp_run(&st, "gd", NULL, NULL);
	/* at commit B, whose code is the work tree's, but in a dirty tree:
	 * ge's diff changed problems/gp.h (stale), gf's only its kernel */
	put_gp_run(&st, "ge", cb,
		   "diff --git a/problems/gp.h b/problems/gp.h\n--- a/problems/gp.h\n+++ b/problems/gp.h\n"
		   "@@ -1 +1 @@\n-int gp_h2;\n+int gp_h3;\n");
	put_gp_run(&st, "gf", cb,
		   "diff --git a/gfv.c b/gfv.c\n--- a/gfv.c\n+++ b/gfv.c\n@@ -1 +1 @@\n-int x;\n+int gfv;\n");
	store_release(&st);
	char *f = audit("<!-- claim: validated experiment=ga variant=v -->\n"
			"<!-- claim: validated experiment=gb variant=v -->\n"
			"<!-- claim: validated experiment=gc variant=v -->\n"
			"<!-- claim: validated experiment=gd variant=v -->\n"
			"<!-- claim: validated experiment=ge variant=v -->\n"
			"<!-- claim: validated experiment=gf variant=v -->\n",
			&c);
	char *want = xstrfmt("t.md:1: stale: validated ga/v: run '20260301T000000Z-ga-v' recorded no problem code, and "
			     "the problem 'gp' of its commit is not the working tree's: 'problems/gp.h' changed since "
			     "commit %.12s",
			     ca);
	assert_non_null(strstr(f, want));
	free(want);
	assert_non_null(strstr(f, "t.md:2: supported: validated gb/v: 1 run(s) of the current source passed"));
	assert_non_null(strstr(f, "t.md:3: stale: validated gc/v: run '20260301T000000Z-gc-v' recorded no problem "
				  "code, and the problem 'gp' of its commit is not the working tree's: commit "
				  "0123456789ab is not in the repository"));
	assert_non_null(strstr(f, "t.md:4: stale: validated gd/v: run '20260301T000000Z-gd-v' recorded neither its "
				  "problem's code nor a commit: the code of the problem 'gp' it ran is unknown"));
	assert_non_null(strstr(f, "t.md:5: stale: validated ge/v: run '20260301T000000Z-ge-v' recorded no problem "
				  "code, and the problem 'gp' of its commit is not the working tree's: 'problems/gp.h' "
				  "differed from its commit in the run's tree (its recorded diff)"));
	assert_non_null(strstr(f, "t.md:6: supported: validated gf/v: 1 run(s) of the current source passed"));
	assert_int_equal(c.supported, 2);
	assert_int_equal(c.stale, 4);
	free(f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse_number),
		cmocka_unit_test(test_errata),
		cmocka_unit_test(test_no_difference_supported),
		cmocka_unit_test(test_one_process_claims),
		cmocka_unit_test(test_trust_host_claims),
		cmocka_unit_test(test_value_rules),
		cmocka_unit_test(test_measured_on_and_stale),
		cmocka_unit_test(test_untraced),
		cmocka_unit_test(test_untraced_names_other),
		cmocka_unit_test(test_untraced_rendered),
		cmocka_unit_test(test_untraced_rt88_forms),
		cmocka_unit_test(test_untraced_statistic_named),
		cmocka_unit_test(test_untraced_stat_modifies),
		cmocka_unit_test(test_untraced_result_columns),
		cmocka_unit_test(test_parse_signed_and_exponent),
		cmocka_unit_test(test_tolerance_bounded),
		cmocka_unit_test(test_same_quantity),
		cmocka_unit_test(test_validated_every_check),
		cmocka_unit_test(test_validated_v2),
		cmocka_unit_test(test_stale_keeps_contradicted),
		cmocka_unit_test(test_reproduced),
		cmocka_unit_test(test_pair_by_repeat),
		cmocka_unit_test(test_pair_memo_frames),
		cmocka_unit_test(test_tries_and_same_code),
		cmocka_unit_test(test_pilots_and_flags),
		cmocka_unit_test(test_tries_same_knobs),
		cmocka_unit_test(test_no_difference_equivalence),
		cmocka_unit_test(test_validated_every_run_tolerance),
		cmocka_unit_test(test_validated_by_code),
		cmocka_unit_test(test_validated_host_no_device),
		cmocka_unit_test(test_reruns_in_batch),
		cmocka_unit_test(test_reruns_one_vote_a_batch),
		cmocka_unit_test(test_reruns_not_clean),
		cmocka_unit_test(test_validated_reproduction),
		cmocka_unit_test(test_validated_by_family),
		cmocka_unit_test(test_value_comparison),
		cmocka_unit_test(test_value_across_batches),
		cmocka_unit_test(test_validated_echo_only_params),
		cmocka_unit_test(test_value_no_ci_across_batches),
		cmocka_unit_test(test_value_stopped_tries),
		cmocka_unit_test(test_value_killed_tries),
		cmocka_unit_test(test_value_killed_wide_band),
		cmocka_unit_test(test_value_interrupted_only),
		cmocka_unit_test(test_value_begun_jobs),
		cmocka_unit_test(test_reproduced_killed),
		cmocka_unit_test(test_value_reproductions_and_majority),
		cmocka_unit_test(test_value_neutral_twin),
		cmocka_unit_test(test_load_copies),
		cmocka_unit_test(test_rt87_load_identity),
		cmocka_unit_test(test_verdict_reruns_majority),
		cmocka_unit_test(test_slower_side_drifted),
		cmocka_unit_test(test_validated_old_run_problem_moved),
		cmocka_unit_test(test_validated_old_run_problem_at_commit),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
