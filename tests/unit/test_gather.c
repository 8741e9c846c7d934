/*
 * test_gather.c - unit tests of what the batch record says about the
 * machine a comparison ran on (run/gather.c): every run records the
 * 1-minute load average and the CPU count at the start and end of its
 * worker (load.before, load.after), and a comparison whose repeats, on
 * either side, saw a load above the CPU count gets a note saying so,
 * naming the variant, repeat and moment, and the verdict it may have
 * bent.  A quiet machine gets no note.  (The note reaches the summary,
 * `show` and PAPER.md as every batch note does; the load of a real run
 * cannot be set by a test, so the rule is tested here.)  A row timed by
 * another clock than its baseline is not compared with it, and a verdict
 * between two variants of one program is named an A/A pair's (red team
 * 110).
 */
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>

#include "run/run_ctx.h"
#include "run/work_compare.h"
#include "stats/stats.h"

/* A run record with only what the note reads: variant, repeat and load. */
static struct run_record run_with_load(const char *variant, int repeat, double before, double after, int cpus)
{
	struct run_record r;
	memset(&r, 0, sizeof(r));
	r.variant = variant;
	r.repeat = repeat;
	r.load = json_pack("{s:{s:f, s:i}, s:{s:f, s:i}}", "before", "loadavg_1m", before, "cpus", cpus, "after",
			   "loadavg_1m", after, "cpus", cpus);
	assert_non_null(r.load);
	return r;
}

static void test_quiet_machine_no_note(void **state)
{
	(void)state;
	struct run_record b[3], v[3];
	const struct run_record *pb[3], *pv[3];
	for (int i = 0; i < 3; i++) {
		b[i] = run_with_load("base", i, 0.4, 1.1, 2);
		v[i] = run_with_load("fast", i, 1.0, 2.0, 2); /* at the CPU count: not above */
		pb[i] = &b[i];
		pv[i] = &v[i];
	}
	assert_null(gather_busy_note(pb, 3, pv, 3, "base", "fast", "faster"));
	assert_null(gather_busy_note(pb, 3, NULL, 0, "base", NULL, NULL));
	for (int i = 0; i < 3; i++) {
		json_decref(b[i].load);
		json_decref(v[i].load);
	}
}

/* red team 110: a verdict between two variants of one program is named
 * an A/A pair's false positive; another binary, loaded image or object
 * file, or no verdict, gets no note.  Red team 180: never by the loaded
 * image or the echo-neutral object alone (copies one image apart by a
 * section of their own, each fast or slow by its name, got the note) */
static void test_same_code_named(void **state)
{
	(void)state;
	struct code_sig b = { "bin1", "load1", "k.c", "file1" }, same = { "bin1", "load1", "k.c", "file1" },
			other = { "bin2", "load2", "k.c", "file2" }, copy = { "bin1", "load1", "j.c", "file1" },
			load = { "bin1", "load2", "k.c", "file1" }, noload = { "bin1", NULL, "k.c", NULL },
			files = { "bin1", "load1", "k.c", "file9" }, image = { "bin9", "load1", "j.c", "file9" };
	char *n = gather_same_code_note("a2", "faster", "a1", &same, &b);
	assert_non_null(n);
	assert_non_null(strstr(n, "a2: faster than a1, but both are one program (the same kernel file and binary)"));
	assert_non_null(strstr(n, "an A/A pair"));
	free(n);
	n = gather_same_code_note("a2", "slower", "a1", &noload, &b);
	assert_non_null(n);
	free(n);
	/* a byte-identical copy under another name: one stripped object */
	n = gather_same_code_note("a2", "faster", "a1", &copy, &b);
	assert_non_null(n);
	assert_non_null(strstr(n, "both are one program (the same object file, copies of one source)"));
	free(n);
	assert_null(gather_same_code_note("a2", "faster", "a1", &other, &b));
	assert_null(gather_same_code_note("a2", "faster", "a1", &load, &b));
	/* a CUDA object: one device code (bin) in two files */
	assert_null(gather_same_code_note("a2", "faster", "a1", &files, &b));
	/* one loaded image, two files (red team 180's nametag) */
	assert_null(gather_same_code_note("a2", "faster", "a1", &image, &b));
	assert_null(gather_same_code_note("a2", "inconclusive", "a1", &same, &b));
	assert_null(gather_same_code_note("a2", "no_difference", "a1", &same, &b));
}

static void test_busy_period_named(void **state)
{
	(void)state;
	struct run_record b[3], v[3];
	const struct run_record *pb[3], *pv[3];
	for (int i = 0; i < 3; i++) {
		b[i] = run_with_load("base", i, 0.5, 0.7, 2);
		v[i] = run_with_load("fast", i, 0.9, 1.2, 2);
		pb[i] = &b[i];
		pv[i] = &v[i];
	}
	json_decref(v[1].load);
	v[1] = run_with_load("fast", 1, 1.5, 4.25, 2); /* a neighbour's build, mid-comparison */
	char *note = gather_busy_note(pb, 3, pv, 3, "base", "fast", "faster");
	assert_non_null(note);
	assert_string_equal(note, "fast vs base: the comparison spans a busy period: load average up to 4.25 on 2 "
				  "CPUs (read at the end of fast's repeat 1; the machine's 1-minute average, whoever "
				  "made it, this batch's own kernels included), above the CPU count: times may be slow "
				  "and noisy, and the verdict (faster) may reflect the load rather than the kernels");
	free(note);
	/* on the baseline's side too */
	json_decref(b[2].load);
	b[2] = run_with_load("base", 2, 9.0, 3.0, 8);
	json_decref(v[1].load);
	v[1] = run_with_load("fast", 1, 1.5, 1.7, 2);
	note = gather_busy_note(pb, 3, pv, 3, "base", "fast", "inconclusive");
	assert_non_null(note);
	assert_non_null(strstr(note, "load average up to 9.00 on 8 CPUs (read at the start of base's repeat 2;"));
	assert_non_null(strstr(note, "the verdict (inconclusive) may reflect the load"));
	free(note);
	/* a lone variant (no comparison) */
	note = gather_busy_note(pb, 3, NULL, 0, "base", NULL, NULL);
	assert_non_null(note);
	assert_non_null(strstr(note, "base: ran in a busy period: load average 9.00 on 8 CPUs (repeat 2, at its start)"));
	free(note);
	/* a run without a load record (older records, a run that never started) is no evidence either way */
	json_decref(v[0].load);
	v[0].load = NULL;
	json_decref(b[2].load);
	b[2] = run_with_load("base", 2, 0.1, 0.1, 8);
	assert_null(gather_busy_note(pb, 3, pv, 3, "base", "fast", "faster"));
	for (int i = 0; i < 3; i++) {
		json_decref(b[i].load);
		json_decref(v[i].load);
	}
}

/* Other processes on the GPU at a run's start or end are named; the
 * runner's own entry ("self") and a GPU to itself are not. */
static void test_gpu_shared_note(void **state)
{
	(void)state;
	struct run_record r[2];
	const struct run_record *pr[2] = { &r[0], &r[1] };
	memset(r, 0, sizeof(r));
	r[0].repeat = 0;
	r[1].repeat = 1;
	r[0].gpu_state = json_pack("{s:{s:[{s:i, s:b}]}, s:{s:[]}}", "before", "compute_processes", "pid", 7, "self",
				   1, "after", "compute_processes");
	r[1].gpu_state = json_pack("{s:{s:[]}}", "before", "compute_processes");
	assert_null(gather_gpu_shared_note(pr, 2, "base"));
	json_decref(r[1].gpu_state);
	r[1].gpu_state = json_pack("{s:{s:[]}, s:{s:[{s:i, s:s}, {s:i}]}}", "before", "compute_processes", "after",
				   "compute_processes", "pid", 4242, "name", "python3", "pid", 99);
	char *note = gather_gpu_shared_note(pr, 2, "base");
	assert_non_null(note);
	assert_non_null(strstr(note, "base: WARNING: 2 other processes used the GPU after repeat 1 ran "
				     "(pid 4242 (python3), pid 99; gpu_state.after"));
	free(note);
	/* an interrupted run's "after" may list its own dying worker */
	r[1].outcome = OUTCOME_ABORTED;
	assert_null(gather_gpu_shared_note(pr, 2, "base"));
	r[1].outcome = OUTCOME_OK;
	/* older records without a GPU state are no evidence either way */
	json_decref(r[1].gpu_state);
	r[1].gpu_state = NULL;
	assert_null(gather_gpu_shared_note(pr, 2, "base"));
	json_decref(r[0].gpu_state);
}

/* A row timed on CUDA events is not compared with a kernel-clock baseline
 * (the events hold the launch overhead and see no work outside them), nor
 * a row whose repeats mixed clocks; one clock on both sides is compared. */
static void test_clocks_must_agree(void **state)
{
	(void)state;
	struct batch_row base, row;
	memset(&base, 0, sizeof(base));
	memset(&row, 0, sizeof(row));
	base.variant = "honest";
	base.clock = "cupti";
	row.variant = "nocupti";
	row.clock = "cupti";
	json_t *notes = json_array();
	assert_int_equal(gather_same_clock(&base, &row, notes), 1);
	assert_int_equal(json_array_size(notes), 0);
	row.clock = "cuda_events";
	assert_int_equal(gather_same_clock(&base, &row, notes), 0);
	assert_int_equal(json_array_size(notes), 1);
	const char *n = json_string_value(json_array_get(notes, 0));
	assert_non_null(strstr(n, "nocupti: not compared with the baseline honest"));
	assert_non_null(strstr(n, "(cuda_events against cupti)"));
	row.clock = "cupti";
	row.clock_mixed = 1;
	assert_int_equal(gather_same_clock(&base, &row, notes), 0);
	assert_int_equal(json_array_size(notes), 2);
	assert_non_null(strstr(json_string_value(json_array_get(notes, 1)), "different clocks"));
	json_decref(notes);
}

/* batch_notes_stress_slow reads the note dist_speed_notes writes: the
 * variant's stress distribution over 3x its timing median (red team 145:
 * eval promoted a kernel 43x slower on rowsum's cancel and positive
 * beside that note); a fast stress note, another variant's, a prefix of
 * the name, or a ratio under 3 are not it */
static void test_stress_slow_note(void **state)
{
	(void)state;
	json_t *notes = json_pack("[s, s, s, s, s]",
				  "stress: cancel 43.47x of uniform's median: speed depends on the input; not in the time "
				  "(timing.by_dist; the time is the timing distributions' alone)",
				  "stress: positive 43.55x of uniform's median: speed depends on the input; not in the time",
				  "large_once: large 0.31x of uniform's median: speed depends on the input; not in the time",
				  "mild: cancel 2.50x of uniform's median: speed depends on the input; not in the time",
				  "stressed: cancel 9.00x of uniform's median: speed depends on the input; not in the time");
	assert_true(batch_notes_stress_slow(notes, "stress") > 43.5 && batch_notes_stress_slow(notes, "stress") < 43.6);
	assert_true(batch_notes_stress_slow(notes, "large_once") == 0);
	assert_true(batch_notes_stress_slow(notes, "mild") == 0);
	assert_true(batch_notes_stress_slow(notes, "stres") == 0);
	assert_true(batch_notes_stress_slow(notes, "nobody") == 0);
	assert_true(batch_notes_stress_slow(NULL, "stress") == 0);
	/* a row's own stress_slow (batches since 2026-12-03) wins over the
	 * notes; NAN (a batch before it) reads the notes */
	struct batch_record b = { 0 };
	b.notes = notes;
	struct batch_row row = { 0 };
	row.variant = "stress";
	row.stress_slow = NAN;
	assert_true(batch_row_stress_slow(&b, &row) > 43.5 && batch_row_stress_slow(&b, &row) < 43.6);
	row.stress_slow = 0;
	assert_true(batch_row_stress_slow(&b, &row) == 0);
	row.stress_slow = 2.9; /* under the ratio: no hold, whatever the notes */
	assert_true(batch_row_stress_slow(&b, &row) == 0);
	row.variant = "nobody";
	row.stress_slow = 7.25;
	assert_true(batch_row_stress_slow(&b, &row) == 7.25);
	assert_true(batch_row_stress_slow(NULL, &row) == 7.25);
	assert_true(batch_row_stress_slow(&b, NULL) == 0);
	json_decref(notes);
}

/* The cost of a stress distribution: the larger of the median run's
 * ratio and the mean over runs weighted by their samples (red team 146's
 * minority.c: 30x on stress in one process of three, its deciding batch
 * 0.96, 1.2 and 12.09 by run: a median of 1.2 and no hold, eval promoted
 * 3.020x); an honest kernel with one slow run (red team 21's softmax
 * honest, `peaked`: 4.43 in one of three runs, 2.09 the store's weighted
 * mean) stays under 3 */
static void test_stress_cost(void **state)
{
	(void)state;
	double q;
	const double minority[] = { 0.96, 1.2, 12.09 };
	const long long n5[] = { 5, 6, 5 };
	double c = gather_stress_cost(minority, n5, 3, &q);
	assert_true(q == 1.2);
	assert_true(c > 4.5 && c < 4.6); /* (4.8 + 7.2 + 60.45) / 16 */
	const double honest[] = { 1.52, 0.9, 4.43 };
	const long long nh[] = { 6, 6, 4 };
	c = gather_stress_cost(honest, nh, 3, &q);
	assert_true(q == 1.52);
	assert_true(c > 2.0 && c < 2.1);
	const double all[] = { 13.7, 10.6, 12.0 };
	c = gather_stress_cost(all, n5, 3, &q);
	assert_true(q == 12.0 && c > 12.0 && c < 12.2);
	/* a fast stress speed is the median's: the mean never lowers it */
	const double fast[] = { 0.3, 0.31, 2.0 };
	c = gather_stress_cost(fast, n5, 3, &q);
	assert_true(q == 0.31 && c > 0.31);
	/* an honest naive rowsum under load (make test's sanitized t0194):
	 * `positive` 1 or 2 samples a run, one of them preempted (a 2-sample
	 * run's median 9.4x): runs of under 3 samples are no cost, the median
	 * decides */
	const double preempted[] = { 1.27, 9.42, 1.06, 1.14 };
	const long long np[] = { 1, 2, 1, 2 };
	c = gather_stress_cost(preempted, np, 4, &q);
	assert_true(c < 1.3 && c == q);
	assert_true(isnan(gather_stress_cost(NULL, NULL, 0, &q)) && isnan(q));
}

/* A run record of ok runs' timing.by_dist alone: uniform (timing),
 * then positive (stress): counts, medians and over-3x counts, the same at
 * every level up to the level before hi (0 above; -1 at 3x: an older
 * record without them). */
static struct rec_dist dist_over(const char *name, long long n, double med, int timing, long long over, int hi)
{
	struct rec_dist d = { name, n, n ? med : NAN, timing, { 0 }, 0 };
	for (int l = 0; l < REC_OVER_LEVELS && l < hi; l++)
		d.n_over[l] = over;
	return d;
}

static struct run_record run_by_dist(long long nu, double mu, long long ou, long long np, double mp, long long op)
{
	struct run_record r;
	memset(&r, 0, sizeof(r));
	r.outcome = OUTCOME_OK;
	r.n_by_dist = 2;
	r.by_dist[0] = dist_over("uniform", nu, mu, 1, ou, 1);
	r.by_dist[1] = dist_over("positive", np, mp, 0, op, 2);
	return r;
}

/* The over-3x..48x test: the one-sided Fisher p of a stress
 * distribution's samples over each level against the timing ones',
 * least over the levels times their number, at the counts of CI's failed
 * t0194 (2026-12-03), of red team 146's minority.c, and of a timing tail
 * just over 3x that would hide it at 3x alone */
static void test_over_p(void **state)
{
	(void)state;
	int l = -1;
	/* two of six over, none of 37: C(6,2)/C(43,2) = 15/903, at 3x and 6x */
	const long long ci[] = { 2, 2, 0, 0, 0 }, none[] = { 0, 0, 0, 0, 0 };
	assert_true(fabs(stats_fisher_greater(2, 6, 0, 37) - 15.0 / 903.0) < 1e-12);
	assert_true(fabs(stats_fisher_greater(3, 6, 0, 37) - 20.0 / 12341.0) < 1e-12);
	assert_true(fabs(gather_over_p(ci, 6, none, 37, &l) - 5 * 15.0 / 903.0) < 1e-12 && l == 0);
	/* the same rate on both sides is no evidence */
	const long long s2[] = { 2, 0, 0, 0, 0 }, t7[] = { 7, 0, 0, 0, 0 };
	assert_true(gather_over_p(s2, 20, t7, 70, NULL) == 1);
	/* minority.c's slow process: 8 of its 26 stress samples over 24x, the
	 * timing tail (22 of 100 at 3.2x) under 6x */
	const long long mi[] = { 8, 8, 8, 8, 0 }, tail[] = { 22, 0, 0, 0, 0 };
	assert_true(gather_over_p(mi, 26, tail, 100, &l) < 1e-4 && l == 1);
	assert_true(gather_over_p(mi, 26, none, 60, &l) < 1e-3 && l == 0);
	/* at 3x alone the tail hides it */
	assert_true(stats_fisher_greater(8, 26, 22, 100) > 0.05);
	const long long bad[] = { 3, -1, 30, 0, 0 };
	assert_true(gather_over_p(none, 9, none, 60, NULL) == 1);
	assert_true(gather_over_p(bad, 2, none, 60, NULL) == 1);
}

/* A stress cost stands only where its samples over 3x outnumber the
 * timing ones' beyond chance: CI's t0194 (an honest naive rowsum under
 * load, one run's `positive` at 7.61x from 3 samples, two of them over)
 * held nothing after it (a note says within chance), red team 146's
 * minority (one process of three, all 9 stress samples over) and an
 * everywhere-slow kernel hold, and records older than the counts keep the
 * rule before it */
static void test_stress_gated(void **state)
{
	(void)state;
	json_t *notes = json_array();
	struct run_record ci[] = {
		run_by_dist(6, 117.1, 0, 2, 114.4, 0), run_by_dist(4, 188.0, 0, 3, 1430.9, 2),
		run_by_dist(9, 132.6, 0, 0, 0, 0),     run_by_dist(8, 153.5, 0, 1, 189.5, 0),
		run_by_dist(10, 146.1, 0, 0, 0, 0),
	};
	assert_true(gather_dist_speed_notes("naive", ci, 5, NULL, notes) == 0);
	assert_int_equal(json_array_size(notes), 1);
	const char *t = json_string_value(json_array_get(notes, 0));
	assert_non_null(strstr(t, "naive: positive 7.61x of uniform's median by its runs, but only 2 of its 6"));
	assert_non_null(strstr(t, "within chance (one-sided Fisher p 0.0831, the least of 5 levels"));
	assert_true(batch_notes_stress_slow(notes, "naive") == 0);
	/* the same runs before the counts: held, as before */
	for (size_t i = 0; i < 5; i++)
		ci[i].by_dist[0].n_over[0] = ci[i].by_dist[1].n_over[0] = -1;
	json_array_clear(notes);
	assert_true(gather_dist_speed_notes("naive", ci, 5, NULL, notes) > 7.6);
	/* minority: one process of three slow on every stress sample */
	struct run_record mi[] = {
		run_by_dist(20, 100, 0, 9, 96, 0),
		run_by_dist(20, 100, 0, 8, 120, 0),
		run_by_dist(20, 100, 0, 9, 1209, 9),
	};
	json_array_clear(notes);
	double c = gather_dist_speed_notes("minority", mi, 3, NULL, notes);
	assert_true(c > 4.5 && c < 5);
	assert_true(batch_notes_stress_slow(notes, "minority") > 4.5);
	/* slow everywhere, even with noise on the timing side */
	struct run_record al[] = {
		run_by_dist(8, 100, 1, 3, 1300, 3),
		run_by_dist(7, 100, 0, 2, 1100, 2),
	};
	json_array_clear(notes);
	assert_true(gather_dist_speed_notes("all", al, 2, NULL, notes) > 11);
	json_decref(notes);
}

static struct run_record run_hi(long long nu, long long ou, int hu, long long np, double mp, long long op, int hp)
{
	struct run_record r = run_by_dist(nu, 500, ou, np, mp, op);
	r.by_dist[0] = dist_over("uniform", nu, 500, 1, ou, hu);
	r.by_dist[1] = dist_over("positive", np, mp, 0, op, hp);
	return r;
}

/* Red team 150: a cost on under half of each run's stress samples (every5d:
 * every 5th launch 48x; each run's median the fast path's) stands by the
 * least mean its samples over 3x..48x allow; padded timing overs of the
 * variant's own (pad15: 13 of 103 timing samples over, 9 of 21 stress in
 * its slow process) do not hide a minority where the batch's timing
 * samples are over less often; and one sample at 48x of ten is chance */
static void test_stress_rt150(void **state)
{
	(void)state;
	json_t *notes = json_array();
	struct run_record ev[5];
	for (int i = 0; i < 5; i++)
		ev[i] = run_hi(20, 0, 1, 5, 510, 1, REC_OVER_LEVELS);
	double c = gather_dist_speed_notes("every5d", ev, 5, NULL, notes);
	assert_true(c > 10.3 && c < 10.5); /* (5 x 48 + 20 x 1) / 25 */
	assert_int_equal(json_array_size(notes), 1);
	const char *t = json_string_value(json_array_get(notes, 0));
	assert_non_null(strstr(t, "every5d: positive 10.40x of uniform's median: speed depends on the input"));
	assert_non_null(strstr(t, "at least 10.40x by its samples over 3x to 48x the timing median (5 of 25 over 3x, "
				  "5 over 48x), 1.02x the median of its 5 runs"));
	/* one such sample in ten: said, not held */
	struct run_record one[] = { run_hi(20, 0, 1, 5, 510, 1, REC_OVER_LEVELS), run_hi(20, 0, 1, 5, 500, 0, 0) };
	json_array_clear(notes);
	assert_true(gather_dist_speed_notes("honest", one, 2, NULL, notes) == 0);
	assert_int_equal(json_array_size(notes), 1);
	assert_non_null(strstr(json_string_value(json_array_get(notes, 0)), "by its samples, but only 1 of its 10"));
	/* pad15: against its own timing overs, within chance (p 0.0135) */
	struct run_record pad[] = {
		run_hi(35, 5, 4, 7, 8000, 7, 3),
		run_hi(34, 4, 4, 7, 500, 1, 3),
		run_hi(34, 4, 4, 7, 500, 1, 3),
	};
	json_array_clear(notes);
	assert_true(gather_dist_speed_notes("pad15", pad, 3, NULL, notes) == 0);
	assert_non_null(strstr(json_string_value(json_array_get(notes, 0)),
			       "only 9 of its 21 samples over 3x the timing median against 13 of 103 timing samples: "
			       "within chance (one-sided Fisher p 0.0135"));
	/* ... and against the batch's (an honest baseline's 346 samples, none
	 * over, beside its own): held */
	struct run_record base[] = { run_hi(116, 0, 0, 10, 500, 0, 0), run_hi(115, 0, 0, 10, 500, 0, 0),
				     run_hi(115, 0, 0, 10, 500, 0, 0) };
	struct over_pool pool = { .counted = 1 };
	gather_over_pool_add(&pool, pad, 3);
	gather_over_pool_add(&pool, base, 3);
	assert_true(pool.n == 449 && pool.k[0] == 13 && pool.k[3] == 13 && pool.k[4] == 0);
	json_array_clear(notes);
	assert_true(gather_dist_speed_notes("pad15", pad, 3, &pool, notes) > 5.9);
	/* the baseline, over less often than the batch, is weighed against
	 * its own: nothing to say */
	json_array_clear(notes);
	assert_true(gather_dist_speed_notes("base", base, 3, &pool, notes) == 0);
	assert_int_equal(json_array_size(notes), 0);
	/* an older run without the counts: the pool is not counted */
	struct run_record old = run_hi(20, 0, 1, 5, 500, 0, 0);
	old.by_dist[0].n_over[0] = -1;
	gather_over_pool_add(&pool, &old, 1);
	assert_int_equal(pool.counted, 0);
	json_decref(notes);
}

/* run_hi with each distribution's work mean (rec_dist work_ratio_mean) */
static struct run_record run_work(long long nu, long long ou, int hu, double wu, long long np, long long op, int hp,
				  double wp)
{
	struct run_record r = run_hi(nu, ou, hu, np, 510, op, hp);
	r.by_dist[0].work_ratio_mean = wu;
	r.by_dist[1].work_ratio_mean = wp;
	return r;
}

/* Red team 153's giant: 1000 passes on 5% of the stress launches, so 2 of
 * 27 positive samples at about 1000x, each run's median the fast path's
 * and the ladder's least mean 4.56x, within chance by counts (p 0.0084
 * at 48x, times 5): the samples' work makes the cost, and work over 48x
 * the timing median at 4x the timing samples' rate there or more stands.
 * Not an honest accident under 3x by the mean, nor a stress rate that
 * the timing samples' own 48x rate reaches */
static void test_stress_rt153(void **state)
{
	(void)state;
	json_t *notes = json_array();
	struct run_record g[] = {
		run_work(45, 0, 0, 1.0, 9, 1, REC_OVER_LEVELS, (1000 + 8) / 9.0),
		run_work(41, 0, 0, 1.0, 9, 0, 0, 1.0),
		run_work(47, 0, 0, 1.0, 9, 1, REC_OVER_LEVELS, (1000 + 8) / 9.0),
	};
	double c = gather_dist_speed_notes("giant", g, 3, NULL, notes);
	assert_true(c > 74 && c < 76); /* (2 x 1000 + 25) / 27 */
	assert_int_equal(json_array_size(notes), 1);
	const char *t = json_string_value(json_array_get(notes, 0));
	assert_non_null(strstr(t, "by the mean of its 27 samples' work (2 of them over 48x the timing median, far over "
				  "any chance the timing samples show)"));
	/* two samples at 40x of 27 (a cost of 3.9x): over 24x, not 48x */
	struct run_record g40[] = {
		run_work(45, 0, 0, 1.0, 9, 1, 4, (40 + 8) / 9.0),
		run_work(41, 0, 0, 1.0, 9, 0, 0, 1.0),
		run_work(47, 0, 0, 1.0, 9, 1, 4, (40 + 8) / 9.0),
	};
	json_array_clear(notes);
	assert_true(gather_dist_speed_notes("g40", g40, 3, NULL, notes) > 3.8);
	assert_non_null(strstr(json_string_value(json_array_get(notes, 0)), "(2 of them over 24x the timing median, far over"));
	/* without the work means (older records): the ladder, within chance */
	for (int i = 0; i < 3; i++)
		g[i].by_dist[1].work_ratio_mean = 0;
	json_array_clear(notes);
	assert_true(gather_dist_speed_notes("giant", g, 3, NULL, notes) == 0);
	assert_non_null(strstr(json_string_value(json_array_get(notes, 0)), "within chance"));
	/* an honest accident: one sample at 50x of 27, a mean under 3x */
	struct run_record h[] = {
		run_work(45, 0, 0, 1.0, 9, 1, REC_OVER_LEVELS, (50 + 8) / 9.0),
		run_work(41, 0, 0, 1.0, 9, 0, 0, 1.0),
		run_work(47, 0, 0, 1.0, 9, 0, 0, 1.0),
	};
	json_array_clear(notes);
	assert_true(gather_dist_speed_notes("honest", h, 3, NULL, notes) == 0);
	assert_int_equal(json_array_size(notes), 0);
	/* timing samples over 48x at over a quarter of the stress rate (3 of
	 * 133 against 2 of 27): counts decide (and such a timing tail, a mean
	 * over 2x the median, is rule 4's to judge) */
	struct run_record tt[] = {
		run_work(45, 1, REC_OVER_LEVELS, 2.0, 9, 1, REC_OVER_LEVELS, (1000 + 8) / 9.0),
		run_work(41, 1, REC_OVER_LEVELS, 2.0, 9, 0, 0, 1.0),
		run_work(47, 1, REC_OVER_LEVELS, 2.0, 9, 1, REC_OVER_LEVELS, (1000 + 8) / 9.0),
	};
	json_array_clear(notes);
	assert_true(gather_dist_speed_notes("padded", tt, 3, NULL, notes) == 0);
	assert_non_null(strstr(json_string_value(json_array_get(notes, 0)), "within chance"));
	json_decref(notes);
}

/*
 * Red team 250, row 1: the audit's pair of two non-baseline rows
 * (audit_verdict.c pair_compare_now) reads its work with the function the
 * batch's comparisons use (run/work_compare.h).  b does a's exact mean work
 * (60% of its launches light, 40% heavy) with a median half a's: by the
 * samples alone faster; with the work filled in, stats_verdict holds it
 * (rules 4b/4c), work_speedup ~1.
 */
static void test_work_compare_pair(void **state)
{
	(void)state;
	enum { NR = 4, NS = 60 };
	struct run_record ra[NR], rb[NR];
	const struct run_record *pa[NR], *pb[NR];
	double xa[NR][NS], xb[NR][NS];
	const double *ga[NR], *gb[NR];
	size_t na[NR], nb[NR];
	unsigned long long seed = 250;
	for (int i = 0; i < NR; i++) {
		memset(&ra[i], 0, sizeof(ra[i]));
		memset(&rb[i], 0, sizeof(rb[i]));
		ra[i].outcome = rb[i].outcome = OUTCOME_OK;
		double sa = 0, sb = 0;
		for (int k = 0; k < NS; k++) {
			seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
			double j = 1 + (double)(seed >> 40) / (double)(1ULL << 24) * 0.04;
			xa[i][k] = 1700 * j;
			xb[i][k] = (k % 10 < 6 ? 850 : 2975) * j;
			sa += xa[i][k];
			sb += xb[i][k];
		}
		/* work_ratio_mean: the run's mean work over its median */
		double ma[NS], mb[NS];
		memcpy(ma, xa[i], sizeof(ma));
		memcpy(mb, xb[i], sizeof(mb));
		ra[i].work_ratio_mean = sa / NS / stats_median_inplace(ma, NS);
		rb[i].work_ratio_mean = sb / NS / stats_median_inplace(mb, NS);
		pa[i] = &ra[i];
		pb[i] = &rb[i];
		ga[i] = xa[i];
		gb[i] = xb[i];
		na[i] = nb[i] = NS;
	}
	struct stats_opts so = STATS_OPTS_INIT;
	struct stats_groups sga = { NR, ga, na }, sgb = { NR, gb, nb };
	struct stats_comparison c;
	assert_int_equal(stats_compare_groups(&sga, &sgb, &so, &c), 0);
	assert_true(c.speedup > 1.8);
	assert_string_equal(c.verdict, "faster"); /* the samples alone: the old pair */
	struct work_side wa = { pa, NR, ga, na, NR }, wb = { pb, NR, gb, nb, NR };
	work_compare_fill(&c, &wa, &wb);
	assert_true(fabs(c.work_speedup - 1) < 0.02);
	stats_verdict(&c, so.alpha, so.threshold);
	assert_string_not_equal(c.verdict, "faster");
	/* a side without work records: nothing filled, the verdict as before */
	ra[0].work_ratio_mean = 0;
	work_compare_fill(&c, &wa, &wb);
	assert_true(isnan(c.work_speedup));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_quiet_machine_no_note),
		cmocka_unit_test(test_busy_period_named),
		cmocka_unit_test(test_same_code_named),
		cmocka_unit_test(test_gpu_shared_note),
		cmocka_unit_test(test_clocks_must_agree),
		cmocka_unit_test(test_stress_slow_note),
		cmocka_unit_test(test_stress_cost),
		cmocka_unit_test(test_over_p),
		cmocka_unit_test(test_stress_gated),
		cmocka_unit_test(test_stress_rt150),
		cmocka_unit_test(test_stress_rt153),
		cmocka_unit_test(test_work_compare_pair),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
