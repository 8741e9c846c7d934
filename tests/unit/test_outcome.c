/*
 * test_outcome.c - unit tests of outcome classification (run/outcome.c):
 * the order of evidence (build, tampering, protocol, the worker's own
 * failure, timeouts before signals, the judge, correctness over seeds,
 * timed launches and the extra shape, escapes, the physical floor), a
 * worker that claims an outcome it cannot know, and how far a worker that
 * died had got (the parent's protocol parser fed the worker's messages).
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <math.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "run/outcome.h"

static struct rec_check chk(const char *phase, int pass, int nan, int unw)
{
	struct rec_check c;
	memset(&c, 0, sizeof(c));
	c.phase = phase;
	c.pass = pass;
	c.nan_count = nan;
	c.unwritten = unw;
	c.mismatches = pass ? 0 : 3;
	c.first_mismatch = pass ? -1 : 0;
	c.sample = !strcmp(phase, "timed") ? 7 : -1;
	return c;
}

/* A report of a worker that exited 0 after done, with checks c[0..n). */
static struct job_report base(const struct run_result *rr, const struct proto *p, const struct rec_check *c,
			      size_t n)
{
	struct job_report r;
	memset(&r, 0, sizeof(r));
	r.build_attempted = r.build_ok = 1;
	r.worker = rr;
	r.proto = p;
	r.checker_ran = 1;
	r.checks = c;
	r.n_checks = n;
	r.floor_us = r.median_us = NAN;
	return r;
}

static const char *cls(const struct job_report *r)
{
	static char buf[64];
	enum outcome o;
	char *why;
	outcome_classify(r, &o, &why);
	snprintf(buf, sizeof(buf), "%s", outcome_name(o));
	free(why);
	return buf;
}

/* The two GPU clocks' bound: red team 80's rt80_tsclock (a CUPTI clock
 * of its own at 0.96 of real time, H200: events 405.89 us, kernel clock
 * 387.24 us) is past it (it was not under 8 us + 5%), and the widest honest
 * gaps in the store are not: cuBLAS attention's 7.68 us at 38 us of events,
 * cuDNN SDPA's 9.82 us at 20 us (one sample; 7.27 us its tenth-worst), the
 * trust: host content_memo's 11.55 us at 550 us, a 7.3 ms sealed grid's
 * 4.3 us (scripts/clock-gap-margin.py) */
static void test_clock_gap(void **state)
{
	(void)state;
	assert_true(outcome_clock_gap_past(405.89, 387.24));
	assert_false(outcome_clock_gap_past(38.11, 30.43));
	assert_false(outcome_clock_gap_past(17.57, 10.30));
	assert_false(outcome_clock_gap_past(550.0, 538.45));
	assert_false(outcome_clock_gap_past(7352.45, 7348.22));
	assert_true(outcome_clock_gap_past(433.66, 9.54)); /* cdp_launch */
	assert_false(outcome_clock_gap_past(NAN, 1.0));
	assert_false(outcome_clock_gap_past(100.0, NAN));
}

/* The ruler (outcome.h CLOCK_RULER_*): red team 80's tsfit fitted its
 * CPU clock to read 8.65 us of 9.82, inside the events' bound; its ruler
 * read 0.889 on an H200 (S40), clock_disagree, and the honest rate (the
 * record 0.99 us longer than the spin: 1.0198 at 50 us) is not.  Samples without a ruler do not count, and fewer than
 * CLOCK_RULER_MIN_N judge nothing. */
static void test_clock_ruler(void **state)
{
	(void)state;
	long long n = -1;
	double fit[6] = { 44.1, 44.0, NAN, 44.2, 43.9, 44.0 }, gt[6] = { 50.0, 50.0, 50.0, 50.0, 50.0, 50.0 };
	double rate = outcome_ruler_rate(fit, gt, 6, &n);
	assert_int_equal(n, 5);
	assert_true(fabs(rate - 0.88) < 1e-9);
	assert_true(outcome_ruler_off(rate, n));
	double honest[5] = { 50.4, 50.6, 50.5, 50.3, 50.7 };
	rate = outcome_ruler_rate(honest, gt, 5, &n);
	assert_int_equal(n, 5);
	assert_false(outcome_ruler_off(rate, n));
	assert_false(outcome_ruler_off(0.5, CLOCK_RULER_MIN_N - 1)); /* too few to judge */
	assert_true(outcome_ruler_off(0.985, CLOCK_RULER_MIN_N));   /* a 1.5% gain is off */
	assert_true(outcome_ruler_off(0.998, CLOCK_RULER_MIN_N));   /* under the spin itself */
	assert_false(outcome_ruler_off(1.0099, CLOCK_RULER_MIN_N)); /* honest at 100 us */
	assert_true(outcome_ruler_off(1.2, 100));                     /* fast: not the device's either */
	assert_false(outcome_ruler_off(NAN, 100));
	assert_true(isnan(outcome_ruler_rate(fit, gt, 0, &n)) && n == 0);

	/* in the order of evidence: an otherwise ok run is clock_disagree */
	struct run_result ok = { .started = 1, .exited = 1 };
	struct proto p;
	proto_init(&p);
	struct rec_check good[2] = { chk("seed", 1, 0, 0), chk("timed", 1, 0, 0) };
	struct job_report r = base(&ok, &p, good, 2);
	r.ruler_rate = 0.88;
	r.n_rulers = 100;
	assert_string_equal(cls(&r), "clock_disagree");
	r.ruler_rate = 1.01;
	assert_string_equal(cls(&r), "ok");
	proto_release(&p);
}

static void test_order_of_evidence(void **state)
{
	(void)state;
	struct run_result ok = { .started = 1, .exited = 1 };
	struct run_result seg = { .started = 1, .signaled = 1, .signo = 11 };
	struct run_result to = { .started = 1, .timed_out = 1 };
	struct run_result exit3 = { .started = 1, .exited = 1, .exit_code = 3 };
	struct proto p;
	proto_init(&p);
	struct rec_check good[3] = { chk("seed", 1, 0, 0), chk("seed", 1, 0, 0), chk("timed", 1, 0, 0) };
	struct rec_check some[3] = { chk("seed", 1, 0, 0), chk("seed", 1, 0, 0), chk("timed", 0, 0, 0) };
	struct rec_check seeds_mixed[2] = { chk("seed", 1, 0, 0), chk("seed", 0, 0, 0) };
	struct rec_check by_dist[2] = { chk("seed", 1, 0, 0), chk("seed", 0, 1, 0) };
	by_dist[0].dist = "uniform";
	by_dist[1].dist = "large_scores";
	struct rec_check nan[2] = { chk("seed", 0, 1, 0), chk("seed", 0, 0, 0) };
	struct rec_check unw[1] = { chk("seed", 0, 0, 4) };
	struct rec_check wrong[1] = { chk("seed", 0, 0, 0) };

	struct job_report r = base(&ok, &p, good, 3);
	assert_string_equal(cls(&r), "ok");
	r = base(&ok, &p, some, 3);
	assert_string_equal(cls(&r), "wrong_output"); /* a timed launch checked after it ran failed */
	r = base(&ok, &p, seeds_mixed, 2);
	assert_string_equal(cls(&r), "flaky");
	r = base(&ok, &p, by_dist, 2);
	assert_string_equal(cls(&r), "nan"); /* fails on one distribution, always: not chance */
	r = base(&ok, &p, nan, 2);
	assert_string_equal(cls(&r), "nan");
	r = base(&ok, &p, unw, 1);
	assert_string_equal(cls(&r), "unwritten_output");
	r = base(&ok, &p, wrong, 1);
	assert_string_equal(cls(&r), "wrong_output");
	/* a wrong fp16 output equals the scramble bits by chance in a few of
	 * 10^5 elements (ref_read on the H100): still wrong, not unwritten */
	struct rec_check chance[1] = { chk("seed", 0, 0, 2) };
	chance[0].mismatches = 129231;
	r = base(&ok, &p, chance, 1);
	assert_string_equal(cls(&r), "wrong_output");
	r = base(&seg, &p, good, 3);
	assert_string_equal(cls(&r), "crashed");
	r = base(&to, &p, good, 3);
	assert_string_equal(cls(&r), "timeout");
	r = base(&exit3, &p, good, 3);
	assert_string_equal(cls(&r), "crashed");
	r = base(&ok, &p, NULL, 0);
	assert_string_equal(cls(&r), "crashed"); /* nothing shipped */

	/* the judge itself */
	r = base(&ok, &p, good, 3);
	r.checker_error = "cannot read the captured outputs";
	assert_string_equal(cls(&r), "reference_failed");
	r = base(&ok, &p, good, 3);
	r.reference_failed = "the GPU reference disagreed";
	assert_string_equal(cls(&r), "reference_failed");

	/* build and tampering come first */
	r = base(&ok, &p, good, 3);
	r.build_ok = 0;
	assert_string_equal(cls(&r), "build_failed");
	r = base(&ok, &p, good, 3);
	r.tampered = "kernel.so changed";
	assert_string_equal(cls(&r), "tampered");

	/* a box that took over 30 s to exit after its kill (red team 50's
	 * late_exit): the job after it would have run beside that exit */
	{
		struct run_result slow_exit = ok;
		slow_exit.box_exit_s = 41.5;
		slow_exit.box_exit_late = 1;
		r = base(&slow_exit, &p, good, 3);
		assert_string_equal(cls(&r), "protocol_violation");
		slow_exit.box_exit_late = 0;
		slow_exit.box_exit_s = 2.9; /* red team 45's heavy_exit: waited for, fine */
		r = base(&slow_exit, &p, good, 3);
		assert_string_equal(cls(&r), "ok");
	}

	/* escapes and the floor, only once the answers are right */
	r = base(&ok, &p, good, 3);
	r.other_stream = 4;
	assert_string_equal(cls(&r), "escaped_work");
	r = base(&ok, &p, good, 3);
	r.host_threads = 1;
	assert_string_equal(cls(&r), "escaped_work");
	/* a CUDA sample whose records were not all attributed (red team 23) */
	r = base(&ok, &p, good, 3);
	r.incomplete = 1;
	assert_string_equal(cls(&r), "escaped_work");
	/* a trust: host GPU kernel whose device drained slowly after the stop
	 * event in more than an eighth of its samples (red team 26: records
	 * turned off around a side-stream launch): late, and the reason says
	 * the drain showed it */
	assert_false(outcome_drain_judged(1, 4));   /* one slow synchronise is the host's */
	assert_false(outcome_drain_judged(12, 96)); /* an eighth: not more than it */
	assert_true(outcome_drain_judged(13, 96));
	assert_true(outcome_drain_judged(2, 8));
	assert_false(outcome_drain_judged(0, 0));
	r = base(&ok, &p, good, 3);
	r.late = r.drain_late = r.drain_late_judged = 13;
	assert_string_equal(cls(&r), "escaped_work");
	{
		enum outcome o;
		char *why = NULL;
		outcome_classify(&r, &o, &why);
		assert_non_null(strstr(why, "13 of them seen only as the device's drain"));
		free(why);
	}
	/* host work inside a trust: host launch() (no GPU clock counts it):
	 * its median host time against 4x the device median + 100 us */
	r = base(&ok, &p, good, 3);
	outcome_host_launch(&r, 47.0, 12.0); /* cuDNN's SDPA on an H200 */
	assert_string_equal(cls(&r), "ok");
	outcome_host_launch(&r, 900.0, 5.6); /* half the rows summed on the host */
	assert_string_equal(cls(&r), "escaped_work");
	{
		enum outcome o;
		char *why = NULL;
		outcome_classify(&r, &o, &why);
		assert_non_null(strstr(why, "launch() ran 900.0 us on the host"));
		free(why);
	}
	outcome_host_launch(&r, NAN, NAN); /* not watched */
	assert_string_equal(cls(&r), "ok");
	r = base(&ok, &p, wrong, 1);
	r.other_stream = 4; /* the escape explains the wrong answer */
	assert_string_equal(cls(&r), "escaped_work");
	r = base(&ok, &p, good, 3);
	r.floor_us = 3.0;
	r.median_us = 1.3;
	assert_string_equal(cls(&r), "below_floor");
	r.median_us = 13.0;
	assert_string_equal(cls(&r), "ok");
	proto_release(&p);
}

static void test_protocol_and_claims(void **state)
{
	(void)state;
	struct run_result ok = { .started = 1, .exited = 1 };
	struct rec_check good[1] = { chk("seed", 1, 0, 0) };
	struct proto p;
	proto_init(&p);
	p.violation = xstrdup("two timing messages");
	struct job_report r = base(&ok, &p, good, 1);
	assert_string_equal(cls(&r), "protocol_violation");
	proto_release(&p);

	/* a worker may say it crashed, not that it was right */
	proto_init(&p);
	p.failure = json_pack("{s:s}", "outcome", "ok");
	r = base(&ok, &p, good, 1);
	assert_string_equal(cls(&r), "protocol_violation");
	json_decref(p.failure);
	p.failure = json_pack("{s:s, s:s, s:s}", "outcome", "crashed", "error", "cudaErrorMisalignedAddress",
			      "reason", "misaligned address");
	r = base(&ok, &p, good, 1);
	assert_string_equal(cls(&r), "crashed");
	proto_release(&p);

	/* no_device takes a run out of every verdict: only a GPU worker's
	 * harness may say it, before its device opened (no kernel code yet);
	 * red team 44's coin_nodev wrote it from a host kernel */
	proto_init(&p);
	p.failure = json_pack("{s:s}", "outcome", "no_device");
	r = base(&ok, &p, good, 1);
	assert_string_equal(cls(&r), "protocol_violation");
	p.gpu = 1;
	r = base(&ok, &p, good, 1);
	assert_string_equal(cls(&r), "no_device");
	p.device = json_pack("{s:s}", "name", "NVIDIA H100");
	r = base(&ok, &p, good, 1);
	assert_string_equal(cls(&r), "crashed");
	proto_release(&p);

	/* launch_failed before any output: a configuration it refused; after
	 * an output it shipped (red team 45's wrong_refuse: wrong seeds, then
	 * launch() returned non-zero), crashed */
	proto_init(&p);
	p.failure = json_pack("{s:s}", "outcome", "launch_failed");
	r = base(&ok, &p, good, 1);
	assert_string_equal(cls(&r), "launch_failed");
	p.next_seed = 1;
	r = base(&ok, &p, good, 1);
	assert_string_equal(cls(&r), "crashed");
	json_decref(p.failure);
	p.failure = json_pack("{s:s}", "outcome", "init_failed");
	r = base(&ok, &p, good, 1);
	assert_string_equal(cls(&r), "crashed");
	proto_release(&p);

	/* a library loaded by name at run time is in no box: the reason says
	 * how to give it one (red team 57's honest dlopen_blas), boxed only */
	proto_init(&p);
	p.failure = json_pack("{s:s, s:s, s:s}", "outcome", "init_failed", "error", "init",
			      "reason", "dlopen libblas.so.3: libblas.so.3: cannot open shared object file");
	for (int boxed = 0; boxed < 2; boxed++) {
		r = base(&ok, &p, good, 1);
		r.boxed = boxed;
		enum outcome o;
		char *why = NULL;
		outcome_classify(&r, &o, &why);
		assert_int_equal(o, OUTCOME_INIT_FAILED);
		assert_non_null(strstr(why, "cannot open shared object file"));
		assert_int_equal(strstr(why, "-Wl,--no-as-needed") != NULL, boxed);
		free(why);
	}
	proto_release(&p);
}

static void test_extra_shape(void **state)
{
	(void)state;
	struct run_result ok = { .started = 1, .exited = 1 };
	struct proto p;
	proto_init(&p);
	struct rec_check good[1] = { chk("seed", 1, 0, 0) };
	struct rec_check shape_bad[2] = { chk("shape", 1, 0, 0), chk("shape", 0, 0, 0) };
	struct job_report r = base(&ok, &p, good, 1);
	r.shape_checks = shape_bad;
	r.n_shape_checks = 2;
	r.shape_text = "S=397";
	/* right at the spec's shape, wrong at another: wrong, not flaky */
	assert_string_equal(cls(&r), "wrong_output");
	/* the failed check named by its seed ("seed N", not "shape N") */
	enum outcome o;
	char *why = NULL;
	outcome_classify(&r, &o, &why);
	assert_non_null(why);
	assert_non_null(strstr(why, "seed "));
	assert_null(strstr(why, "shape 0"));
	free(why);
	r = base(&ok, &p, good, 1);
	r.shape_failure = "worker killed by SIGSEGV";
	r.shape_outcome = OUTCOME_CRASHED;
	assert_string_equal(cls(&r), "crashed");
	proto_release(&p);
}

/* A sealed run whose replay passed every check and whose planner's own
 * process, running launch() as is on seeds of its own, computed wrong
 * outputs (red team 67's cupti_off: a side kernel no plan holds spoils
 * them): wrong_output, naming the planner; mixed within the planner's
 * seeds of one distribution: flaky (a race); all pass: ok. */
static void test_planner_checks(void **state)
{
	(void)state;
	struct run_result ok = { .started = 1, .exited = 1 };
	struct proto p;
	proto_init(&p);
	struct rec_check good[2] = { chk("seed", 1, 0, 0), chk("timed", 1, 0, 0) };
	struct rec_check plan_bad[2] = { chk("plan", 0, 0, 0), chk("plan", 0, 0, 0) };
	struct rec_check plan_mixed[2] = { chk("plan", 1, 0, 0), chk("plan", 0, 0, 0) };
	struct rec_check plan_good[2] = { chk("plan", 1, 0, 0), chk("plan", 1, 0, 0) };
	struct job_report r = base(&ok, &p, good, 2);
	r.plan_checks = plan_bad;
	r.n_plan_checks = 2;
	enum outcome o;
	char *why = NULL;
	outcome_classify(&r, &o, &why);
	assert_string_equal(outcome_name(o), "wrong_output");
	assert_non_null(strstr(why, "launch()'s own process"));
	free(why);
	r.plan_checks = plan_mixed;
	assert_string_equal(cls(&r), "flaky");
	r.plan_checks = plan_good;
	assert_string_equal(cls(&r), "ok");
	/* the replay's own wrong checks come first: they say what was timed */
	struct rec_check timed_bad[2] = { chk("seed", 1, 0, 0), chk("timed", 0, 0, 0) };
	r = base(&ok, &p, timed_bad, 2);
	r.plan_checks = plan_bad;
	r.n_plan_checks = 2;
	outcome_classify(&r, &o, &why);
	assert_string_equal(outcome_name(o), "wrong_output");
	assert_null(strstr(why, "launch()'s own process"));
	free(why);
	proto_release(&p);
}

/* Interrupted (SIGTERM, a Slurm task killed): whatever was cut short is
 * aborted with what stopped it, never a fault of the kernel; ok stays ok. */
static void test_interrupted(void **state)
{
	(void)state;
	struct run_result ok = { .started = 1, .exited = 1 };
	struct run_result killed = { .started = 1, .signaled = 1, .signo = 9 };
	struct proto p;
	proto_init(&p);
	struct rec_check good[1] = { chk("seed", 1, 0, 0) };
	struct job_report r = base(&killed, &p, NULL, 0);
	assert_string_equal(cls(&r), "crashed");
	r.interrupted = 1;
	assert_string_equal(cls(&r), "aborted");
	/* the checker killed under it: not reference_failed */
	r = base(&ok, &p, NULL, 0);
	r.checker_ran = 0;
	assert_string_equal(cls(&r), "reference_failed");
	r.interrupted = 1;
	r.interrupted_why = "slurm: CANCELLED DUE TO TIME LIMIT";
	enum outcome o;
	char *why;
	outcome_classify(&r, &o, &why);
	assert_int_equal(o, OUTCOME_ABORTED);
	assert_non_null(strstr(why, "slurm: CANCELLED DUE TO TIME LIMIT"));
	assert_non_null(strstr(why, "reference_failed"));
	free(why);
	r = base(&ok, &p, good, 1);
	r.interrupted = 1;
	assert_string_equal(cls(&r), "ok");
	proto_release(&p);
}

/* Feed the parent's parser one message line (and, for an output, its
 * bytes), as the worker writes them. */
static void say(struct proto *p, int fd, const char *line, size_t bytes)
{
	struct strbuf sb = STRBUF_INIT;
	strbuf_addf(&sb, "%s\n", line);
	for (size_t i = 0; i < bytes; i++)
		strbuf_addch(&sb, 0);
	int rc_ = proto_feed(p, strbuf_str(&sb), sb.len, fd);
	if (rc_)
		print_error("%s: %s\n", line, p->violation ? p->violation : "?");
	assert_int_equal(rc_, 0);
	assert_null(p->violation);
	strbuf_release(&sb);
}

/* The reason of a worker killed by SIGSEGV (or, timeout = 1, by us)
 * after the messages fed so far. */
static char *died(const struct proto *p, int timeout)
{
	struct run_result seg = { .started = 1, .signaled = 1, .signo = 11 };
	struct run_result to = { .started = 1, .timed_out = 1, .seconds = 3 };
	struct job_report r = base(timeout ? &to : &seg, p, NULL, 0);
	enum outcome o;
	char *why;
	outcome_classify(&r, &o, &why);
	assert_int_equal(o, timeout ? OUTCOME_TIMEOUT : OUTCOME_CRASHED);
	return why;
}

#define EXPECT_DIED(p, timeout, want)                 \
	do {                                           \
		char *why_ = died(p, timeout);         \
		assert_string_equal(why_, want);       \
		free(why_);                            \
	} while (0)

/* Issue 23: a crash said "worker killed by SIGSEGV" and not where. */
static void test_phase_of_death(void **state)
{
	(void)state;
	int fd = open("/dev/null", O_WRONLY);
	assert_true(fd >= 0);
	struct proto p;
	proto_init(&p);
	p.seeds = 3;
	p.timed = 1;
	p.output_bytes = 4;
	p.batch = 1;
	p.n_sets = 1;
	p.capture_fd = fd;
	EXPECT_DIED(&p, 0, "worker killed by SIGSEGV during load (before the worker's hello)");
	char hello[80];
	snprintf(hello, sizeof(hello), "{\"msg\": \"hello\", \"protocol\": %d, \"pid\": 7}", PROTOCOL_VERSION);
	say(&p, fd, hello, 0);
	say(&p, fd, "{\"msg\": \"device\", \"info\": {}}", 0);
	EXPECT_DIED(&p, 0, "worker killed by SIGSEGV during load (the problem or the kernel; no kernel message yet)");
	say(&p, fd, "{\"msg\": \"kernel\", \"name\": \"k\"}", 0);
	EXPECT_DIED(&p, 0, "worker killed by SIGSEGV during init or correctness seed 0 (the kernel loaded; no seed "
			   "output yet)");
	say(&p, fd, "{\"msg\": \"output\", \"phase\": \"seed\", \"index\": 0, \"bytes\": 4}", 4);
	EXPECT_DIED(&p, 0, "worker killed by SIGSEGV during correctness seed 1 (seed 0 shipped)");
	EXPECT_DIED(&p, 1, "no result within 3.0 s; the worker was killed during correctness seed 1 (seed 0 shipped)");
	say(&p, fd, "{\"msg\": \"output\", \"phase\": \"seed\", \"index\": 1, \"bytes\": 4}", 4);
	EXPECT_DIED(&p, 0, "worker killed by SIGSEGV during correctness seed 2 (seeds 0-1 shipped)");
	say(&p, fd, "{\"msg\": \"output\", \"phase\": \"seed\", \"index\": 2, \"bytes\": 4}", 4);
	EXPECT_DIED(&p, 0, "worker killed by SIGSEGV during the timing warm-up (all 3 correctness seeds shipped)");
	say(&p, fd, "{\"msg\": \"warmup\", \"samples\": 3}", 0);
	EXPECT_DIED(&p, 0, "worker killed by SIGSEGV during timing (0 samples reported)");
	say(&p, fd, "{\"msg\": \"sample\", \"i\": 0, \"set\": 0, \"us\": 1.5}", 0);
	EXPECT_DIED(&p, 1, "no result within 3.0 s; the worker was killed during timing (1 sample reported)");
	say(&p, fd, "{\"msg\": \"output\", \"phase\": \"timed\", \"index\": 0, \"bytes\": 4}", 4);
	say(&p, fd, "{\"msg\": \"timing\", \"n\": 1, \"method\": {}}", 0);
	EXPECT_DIED(&p, 0, "worker killed by SIGSEGV during fini (every check and sample reported)");
	say(&p, fd, "{\"msg\": \"fini\"}", 0);
	EXPECT_DIED(&p, 0, "worker killed by SIGSEGV after fini, before done");
	say(&p, fd, "{\"msg\": \"done\"}", 0);
	EXPECT_DIED(&p, 0, "worker killed by SIGSEGV after its done message");
	/* an exit with an error status says the same */
	struct run_result exit3 = { .started = 1, .exited = 1, .exit_code = 3 };
	struct job_report r = base(&exit3, &p, NULL, 0);
	enum outcome o;
	char *why;
	outcome_classify(&r, &o, &why);
	assert_string_equal(why, "worker exited with status 3 after its done message");
	free(why);
	/* no protocol at all: the signal alone */
	EXPECT_DIED(NULL, 0, "worker killed by SIGSEGV");
	proto_release(&p);
	close(fd);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_clock_gap),
		cmocka_unit_test(test_clock_ruler),
		cmocka_unit_test(test_order_of_evidence),
		cmocka_unit_test(test_protocol_and_claims),
		cmocka_unit_test(test_extra_shape),
		cmocka_unit_test(test_planner_checks),
		cmocka_unit_test(test_interrupted),
		cmocka_unit_test(test_phase_of_death),
	};
	return cmocka_run_group_tests_name("outcome", tests, NULL, NULL);
}
