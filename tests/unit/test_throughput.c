/*
 * test_throughput.c - unit tests of record_throughput (src/record/
 * throughput.c), the one computation of GFLOP/s, GB/s and the fraction of
 * peak behind the summary, show, export, paper and the records: known
 * FLOPs, bytes and time give the numbers by hand; an unknown peak gives no
 * fraction (NAN, never 0), and a missing time or problem size no rate.
 * The records' `throughput` objects hold what the function computes, and
 * read back; record_stat's rates are the function's; an older record gets
 * its peak when read, from the machine it names (the GPU table, the CPU
 * cache of this machine), never a guess.  And the CPU measurement itself:
 * positive rates, its method said, its cache read back, a damaged cache
 * file refused with its name.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "backends/cpu_peak.h"
#include "record/record.h"

/* 2 GFLOP and 8 MB at 100 us: 20 TFLOP/s and 80 GB/s */
static struct rec_problem problem(void)
{
	struct rec_problem pr;
	memset(&pr, 0, sizeof(pr));
	pr.name = "attention_fwd";
	pr.dtype = "fp16";
	pr.flops = 2e9;
	pr.min_bytes = 8e6;
	return pr;
}

static struct rec_peak known_peak(double gflops, double gbps)
{
	struct rec_peak pk;
	memset(&pk, 0, sizeof(pk));
	pk.state = PEAK_KNOWN;
	pk.gflops = gflops;
	pk.gbps = gbps;
	pk.dtype = "fp16";
	pk.scope = "GPU";
	pk.device = "Test GPU";
	pk.source = "a datasheet (read 2026-11-25)";
	pk.method = "the vendor's datasheet";
	return pk;
}

/* Remove the cache directories a test made under dir (the files are gone). */
static void rm_cache_dirs(const char *dir)
{
	char *a = xstrfmt("%s/evident/cpu-peaks", dir), *b = xstrfmt("%s/evident", dir);
	assert_int_equal(rmdir(a), 0);
	assert_int_equal(rmdir(b), 0);
	assert_int_equal(rmdir(dir), 0);
	free(a);
	free(b);
}

static void near(double got, double want)
{
	if (!(fabs(got - want) <= 1e-12 * fabs(want)))
		fprintf(stderr, "got %.17g, want %.17g\n", got, want);
	assert_true(fabs(got - want) <= 1e-12 * fabs(want));
}

static void test_known_numbers(void **state)
{
	(void)state;
	struct rec_problem pr = problem();
	struct rec_peak pk = known_peak(40000, 160);
	struct rec_tput t;
	record_throughput(&pr, 100, &pk, &t);
	near(t.gflops, 20000);
	near(t.tflops, 20);
	near(t.gbps, 80);
	near(t.frac_compute, 0.5);
	near(t.frac_bandwidth, 0.5);
	/* the same expressions as the paper's cells always had: bit for bit */
	assert_true(t.gflops == pr.flops / 100.0 / 1e3);
	assert_true(t.tflops == pr.flops / 100.0 / 1e6);
	assert_true(t.gbps == pr.min_bytes / 100.0 / 1e3);

	struct strbuf sb = STRBUF_INIT;
	record_tput_text(&sb, &t);
	assert_string_equal(sb.buf, "20.0 TFLOP/s (50.0% of peak), 80.0 GB/s (50.0% of peak)");
	strbuf_reset(&sb);
	record_peak_text(&sb, &pk);
	assert_string_equal(sb.buf, "40.0 TFLOP/s fp16 and 160 GB/s, GPU Test GPU (a datasheet (read 2026-11-25))");
	strbuf_reset(&sb);
	record_throughput(&pr, 1e6, &pk, &t); /* a second: 2 GFLOP/s */
	record_tput_text(&sb, &t);
	assert_string_equal(sb.buf, "2.00 GFLOP/s (0.00500% of peak), 0.00800 GB/s (0.00500% of peak)");
	strbuf_release(&sb);
}

/* no peak: no fraction, and NAN - never 0, which would read as "0% of peak" */
static void test_unknown_peak_is_no_fraction(void **state)
{
	(void)state;
	struct rec_problem pr = problem();
	struct rec_tput t;
	record_throughput(&pr, 100, NULL, &t);
	near(t.gflops, 20000);
	assert_true(isnan(t.frac_compute) && isnan(t.frac_bandwidth));

	struct rec_peak none;
	memset(&none, 0, sizeof(none));
	none.state = PEAK_NONE;
	none.why = "GPU 'Test GPU' is not in 'data/gpu-peaks.yaml'";
	record_throughput(&pr, 100, &none, &t);
	assert_true(isnan(t.frac_compute) && isnan(t.frac_bandwidth));
	near(t.gbps, 80);
	struct strbuf sb = STRBUF_INIT;
	record_tput_text(&sb, &t);
	assert_string_equal(sb.buf, "20.0 TFLOP/s, 80.0 GB/s");
	strbuf_reset(&sb);
	record_peak_text(&sb, &none);
	assert_string_equal(sb.buf, "none: GPU 'Test GPU' is not in 'data/gpu-peaks.yaml'");
	strbuf_release(&sb);

	struct rec_peak unset;
	memset(&unset, 0, sizeof(unset)); /* PEAK_UNSET, even with numbers in it */
	unset.gflops = 1;
	unset.gbps = 1;
	record_throughput(&pr, 100, &unset, &t);
	assert_true(isnan(t.frac_compute) && isnan(t.frac_bandwidth));

	/* a GPU without a rate for the dtype (fp8 on A100): bandwidth only */
	struct rec_peak half = known_peak(NAN, 160);
	record_throughput(&pr, 100, &half, &t);
	assert_true(isnan(t.frac_compute));
	near(t.frac_bandwidth, 0.5);
}

/* no time, a time of 0, no problem size: no rate (and no fraction) */
static void test_nothing_to_divide(void **state)
{
	(void)state;
	struct rec_problem pr = problem();
	struct rec_peak pk = known_peak(40000, 160);
	struct rec_tput t;
	double times[] = { NAN, 0, -1, INFINITY };
	for (size_t i = 0; i < sizeof(times) / sizeof(times[0]); i++) {
		record_throughput(&pr, times[i], &pk, &t);
		assert_true(isnan(t.gflops) && isnan(t.tflops) && isnan(t.gbps));
		assert_true(isnan(t.frac_compute) && isnan(t.frac_bandwidth));
	}
	pr.flops = NAN;
	record_throughput(&pr, 100, &pk, &t);
	assert_true(isnan(t.gflops) && isnan(t.frac_compute));
	near(t.gbps, 80);
	record_throughput(NULL, 100, &pk, &t);
	assert_true(isnan(t.gflops) && isnan(t.gbps));
	struct strbuf sb = STRBUF_INIT;
	record_tput_text(&sb, &t);
	assert_string_equal(strbuf_str(&sb), "");
	strbuf_release(&sb);
}

/* A run record as the runner writes it: median 100 us on peak pk. */
static json_t *run_json(const struct rec_peak *pk)
{
	struct run_record r;
	memset(&r, 0, sizeof(r));
	r.experiment = "e";
	r.variant = "v";
	r.backend = "cuda";
	r.outcome = OUTCOME_OK;
	r.repeats = 1;
	r.gpu_slot = -1;
	r.wall_s = NAN;
	r.problem = problem();
	r.have_timing = 1;
	r.have_stats = 1;
	r.stats.n = 10;
	r.stats.median = 100;
	r.stats.median_ci[0] = 90;
	r.stats.median_ci[1] = 110;
	r.throttled = -1;
	r.cost.wall_s = r.cost.gpu_s = r.cost.usd = NAN;
	r.peak = *pk;
	return record_run_json(&r);
}

static void test_run_record_carries_it(void **state)
{
	(void)state;
	struct rec_peak pk = known_peak(40000, 160);
	json_t *m = run_json(&pk);
	json_t *t = json_object_get(m, "throughput");
	assert_true(json_is_object(t));
	near(json_number_value(json_object_get(t, "gflops")), 20000);
	near(json_number_value(json_object_get(t, "gbps")), 80);
	near(json_number_value(json_object_get(t, "frac_compute_peak")), 0.5);
	near(json_number_value(json_object_get(t, "frac_bandwidth_peak")), 0.5);
	json_t *p = json_object_get(t, "peak");
	assert_string_equal(json_string_value(json_object_get(p, "source")), "a datasheet (read 2026-11-25)");
	assert_true(json_is_null(json_object_get(t, "no_peak")));
	json_object_set_new(m, "kind", json_string("variant"));
	json_object_set_new(m, "format", json_string(RECORD_RUN_FORMAT));
	struct run_record r;
	assert_int_equal(record_run_read(m, &r), 0);
	struct rec_peak back;
	record_run_peak(&r, &back);
	assert_int_equal(back.state, PEAK_KNOWN);
	assert_int_equal(back.at_read, 0);
	near(back.gflops, 40000);
	assert_string_equal(back.device, "Test GPU");
	run_record_release(&r);
	json_decref(m);

	/* no peak: null and why, read back as such */
	struct rec_peak none;
	memset(&none, 0, sizeof(none));
	none.state = PEAK_NONE;
	none.why = "GPU 'X' is not in 'data/gpu-peaks.yaml'";
	m = run_json(&none);
	t = json_object_get(m, "throughput");
	assert_true(json_is_null(json_object_get(t, "peak")));
	assert_true(json_is_null(json_object_get(t, "frac_compute_peak")));
	assert_string_equal(json_string_value(json_object_get(t, "no_peak")), none.why);
	near(json_number_value(json_object_get(t, "gflops")), 20000);
	assert_int_equal(record_run_read(m, &r), 0);
	record_run_peak(&r, &back);
	assert_int_equal(back.state, PEAK_NONE);
	assert_string_equal(back.why, none.why);
	run_record_release(&r);
	json_decref(m);
}

/* record_stat's gflops, tflops, gbps and fractions are the function's */
static void test_record_stat_is_the_function(void **state)
{
	(void)state;
	struct batch_record b;
	struct batch_row row;
	memset(&b, 0, sizeof(b));
	memset(&row, 0, sizeof(row));
	b.version = 2;
	b.backend = "cuda";
	b.problem = problem();
	b.peak = known_peak(40000, 160);
	row.variant = "v";
	row.outcome = OUTCOME_OK;
	row.have_stats = 1;
	row.stats.median = 100;
	row.stats.median_ci[0] = 80;
	row.stats.median_ci[1] = 125;
	struct rec_tput t;
	record_throughput(&b.problem, 100, &b.peak, &t);
	const char *stats[] = { "gflops", "tflops", "gbps", "frac_compute_peak", "frac_bandwidth_peak" };
	double want[] = { t.gflops, t.tflops, t.gbps, t.frac_compute, t.frac_bandwidth };
	for (size_t i = 0; i < 5; i++) {
		double v, ci[2];
		int have_ci;
		struct strbuf why = STRBUF_INIT;
		assert_int_equal(record_stat(&b, &row, NULL, 0, stats[i], &v, ci, &have_ci, &why), 0);
		assert_true(v == want[i]);
		if (i < 3) { /* a rate's CI: the median CI's ends, the slower end the lower rate */
			assert_true(have_ci);
			near(ci[0], want[i] * 100 / 125);
			near(ci[1], want[i] * 100 / 80);
		}
		strbuf_release(&why);
	}
	/* no peak: the fractions are no number, with the reason */
	memset(&b.peak, 0, sizeof(b.peak));
	b.peak.state = PEAK_NONE;
	b.peak.why = "GPU 'X' is not in 'data/gpu-peaks.yaml'";
	double v, ci[2];
	int have_ci;
	struct strbuf why = STRBUF_INIT;
	assert_int_equal(record_stat(&b, &row, NULL, 0, "frac_compute_peak", &v, ci, &have_ci, &why), -1);
	assert_true(isnan(v));
	assert_non_null(strstr(why.buf, "no peak"));
	assert_non_null(strstr(why.buf, "not in 'data/gpu-peaks.yaml'"));
	strbuf_release(&why);
}

/* An older record (no throughput): its peak is looked up when read. */
static void test_older_record_gets_its_peak_when_read(void **state)
{
	(void)state;
	/* a GPU batch: the H100 from data/gpu-peaks.yaml, for the batch's dtype */
	struct batch_record b;
	memset(&b, 0, sizeof(b));
	b.backend = "cuda";
	b.problem = problem();
	b.machine = json_pack("{s:{s:s}, s:s}", "gpu", "name", "NVIDIA H100 80GB HBM3", "cpu", "Some CPU");
	struct rec_peak pk;
	record_batch_peak(&b, &pk);
	assert_int_equal(pk.state, PEAK_KNOWN);
	assert_int_equal(pk.at_read, 1);
	near(pk.gflops, 989500);
	near(pk.gbps, 3350);
	assert_string_equal(pk.dtype, "fp16");
	assert_non_null(strstr(pk.source, "Datasheet"));
	struct strbuf sb = STRBUF_INIT;
	record_peak_text(&sb, &pk);
	assert_non_null(strstr(sb.buf, "looked up when read"));
	strbuf_release(&sb);
	json_decref(b.machine);

	/* a GPU the table does not know: none, and why */
	b.machine = json_pack("{s:{s:s}}", "gpu", "name", "NVIDIA Imaginary 9000");
	record_batch_peak(&b, &pk);
	assert_int_equal(pk.state, PEAK_NONE);
	assert_non_null(strstr(pk.why, "'NVIDIA Imaginary 9000' is not in"));
	assert_non_null(strstr(pk.why, "predates recorded peaks"));
	json_decref(b.machine);

	/* the host: this machine's cached measurement of the CPU model, or none */
	char dir[] = "/tmp/evident-tput-XXXXXX";
	assert_non_null(mkdtemp(dir));
	setenv("XDG_CACHE_HOME", dir, 1);
	struct cpu_peak cp;
	memset(&cp, 0, sizeof(cp));
	snprintf(cp.model, sizeof(cp.model), "Test CPU 3000");
	cp.gflops = 100;
	cp.gbps = 20;
	snprintf(cp.method, sizeof(cp.method), "a test");
	snprintf(cp.host, sizeof(cp.host), "testhost");
	struct strbuf why = STRBUF_INIT;
	assert_int_equal(cpu_peak_save(&cp, &why), 0);
	b.backend = "host";
	b.problem.dtype = "fp32";
	b.machine = json_pack("{s:n, s:s, s:s}", "gpu", "cpu", "Test CPU 3000", "host", "elsewhere");
	record_batch_peak(&b, &pk);
	assert_int_equal(pk.state, PEAK_KNOWN);
	assert_int_equal(pk.at_read, 1);
	near(pk.gflops, 100);
	near(pk.gbps, 20);
	assert_string_equal(pk.scope, "one core");
	assert_non_null(strstr(pk.source, "testhost"));
	json_decref(b.machine);
	b.machine = json_pack("{s:s}", "cpu", "Never Measured CPU");
	record_batch_peak(&b, &pk);
	assert_int_equal(pk.state, PEAK_NONE);
	assert_non_null(strstr(pk.why, "no measurement of CPU 'Never Measured CPU'"));
	json_decref(b.machine);

	/* a damaged cache file: refused with its name, never read as a peak */
	char *path = cpu_peak_cache_path("Damaged CPU");
	assert_non_null(path);
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	fputs("{\"format\": \"evident-cpu-peak/1\", \"model\": \"Damaged CPU\", \"gflops\": 0}", f);
	fclose(f);
	strbuf_reset(&why);
	assert_int_equal(cpu_peak_cached("Damaged CPU", &cp, &why), -1);
	assert_non_null(strstr(why.buf, path));
	b.machine = json_pack("{s:s}", "cpu", "Damaged CPU");
	record_batch_peak(&b, &pk);
	assert_int_equal(pk.state, PEAK_NONE);
	assert_non_null(strstr(pk.why, path));
	json_decref(b.machine);
	unlink(path);
	free(path);
	path = cpu_peak_cache_path("Test CPU 3000");
	unlink(path);
	free(path);
	strbuf_release(&why);
	rm_cache_dirs(dir);
	unsetenv("XDG_CACHE_HOME");
}

/* the measurement: positive rates, the method and source said, cached and read back */
static void test_cpu_measurement(void **state)
{
	(void)state;
	char dir[] = "/tmp/evident-tput-XXXXXX";
	assert_non_null(mkdtemp(dir));
	setenv("XDG_CACHE_HOME", dir, 1);
	struct cpu_peak p, q;
	struct strbuf why = STRBUF_INIT;
	int measured = 0;
	assert_int_equal(cpu_peak_here("Measured Test CPU", &p, &measured, &why), 0);
	assert_int_equal(measured, 1);
	assert_true(p.gflops > 0.1 && p.gflops < 1e5);
	assert_true(p.gbps > 0.1 && p.gbps < 1e4);
	/* about 0.5 s here; the budgets bound it on a crowded machine (10 s was
	 * seen at load 30 on 2 CPUs before they existed) */
	assert_true(isfinite(p.seconds) && p.seconds > 0); /* its wall time: no bound (60 s under a load of 100, make test 2026-11-30) */
	assert_non_null(strstr(p.method, "FMA loop"));
	assert_non_null(strstr(p.method, "triad"));
	assert_non_null(strstr(p.source, "measured on host"));
	/* the second time: the cache, the same numbers */
	assert_int_equal(cpu_peak_here("Measured Test CPU", &q, &measured, &why), 0);
	assert_int_equal(measured, 0);
	/* as cached, or raised to a spot check where the measurement ran
	 * under load and the spot did not (cpu_peak_here; red team 234) */
	assert_true(q.gflops >= p.gflops && q.gbps >= p.gbps);
	if (q.gflops != p.gflops || q.gbps != p.gbps)
		assert_non_null(strstr(q.source, "raised from the cache's"));
	assert_string_equal(q.method, p.method);
	char *path = cpu_peak_cache_path("Measured Test CPU");
	assert_non_null(strstr(path, dir));
	/* the record names what it read: the file and its sha256; a fresh
	 * measurement says so (red team 131) */
	assert_non_null(strstr(p.source, "measured by this run"));
	assert_non_null(strstr(q.source, "read from the cache file"));
	assert_non_null(strstr(q.source, path));
	assert_non_null(strstr(q.source, q.cache_sha256));
	assert_int_equal(strlen(q.cache_sha256), 64);
	/* this machine's band holds its own measurement, not red team 131's
	 * forged 0.05 GFLOP/s and 0.2 GB/s */
	double glo, ghi, blo, bhi;
	char band[512];
	if (cpu_peak_band(&glo, &ghi, &blo, &bhi, band, sizeof(band)) == 0) {
		assert_true(p.gflops >= glo && p.gflops <= ghi);
		assert_true(p.gbps >= blo && p.gbps <= bhi);
		assert_true(0.05 < glo && 0.2 < blo);
	}
	/* a cache that names another host: measured again, not read */
	{
		struct strbuf t = STRBUF_INIT;
		assert_int_equal(read_file(path, &t), 0);
		char *at = strstr(t.buf, "\"host\": \"");
		assert_non_null(at);
		FILE *f = fopen(path, "w");
		assert_non_null(f);
		fprintf(f, "%.*s\"host\": \"elsewhere-%s", (int)(at - t.buf), t.buf, at + 9);
		fclose(f);
		strbuf_release(&t);
		assert_int_equal(cpu_peak_here("Measured Test CPU", &q, &measured, &why), 0);
		assert_int_equal(measured, 1);
		assert_non_null(strstr(q.source, "measured by this run"));
	}
	unlink(path);
	free(path);
	strbuf_release(&why);
	rm_cache_dirs(dir);
	unsetenv("XDG_CACHE_HOME");
}

/* a fraction of one core's peak no run can reach: its threads x 1.25 */
static void test_frac_bound(void **state)
{
	(void)state;
	struct rec_peak pk;
	memset(&pk, 0, sizeof(pk));
	pk.state = PEAK_KNOWN;
	pk.gflops = 100;
	pk.gbps = 20;
	pk.scope = "one core";
	struct run_record r1, r2;
	memset(&r1, 0, sizeof(r1));
	memset(&r2, 0, sizeof(r2));
	r1.timing_method = json_pack("{s:i}", "threads_max", 1);
	r1.cache = "hot";
	r2.timing_method = json_pack("{s:i}", "threads_max", 4);
	r2.cache = "cold";
	const struct run_record *one[] = { &r1 }, *both[] = { &r1, &r2 };
	const char *why = NULL;
	near(record_frac_bound(&pk, one, 1, 0, &why), 1 + REC_PEAK_FRAC_TOL);
	assert_non_null(strstr(why, "1 thread"));
	near(record_frac_bound(&pk, both, 2, 0, &why), 4 * (1 + REC_PEAK_FRAC_TOL));
	/* bandwidth: only cold runs are bounded by the triad's peak */
	assert_true(isnan(record_frac_bound(&pk, one, 1, 1, &why)));
	const struct run_record *cold[] = { &r2 };
	near(record_frac_bound(&pk, cold, 1, 1, &why), 4 * (1 + REC_PEAK_FRAC_TOL));
	/* no threads recorded: the machine's CPUs */
	json_decref(r1.timing_method);
	r1.timing_method = json_object();
	r1.machine = json_pack("{s:i}", "cpus_online", 8);
	near(record_frac_bound(&pk, one, 1, 0, &why), 8 * (1 + REC_PEAK_FRAC_TOL));
	/* a GPU's peak: no bound */
	pk.scope = "GPU";
	assert_true(isnan(record_frac_bound(&pk, one, 1, 0, &why)));
	json_decref(r1.timing_method);
	json_decref(r1.machine);
	json_decref(r2.timing_method);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_known_numbers),
		cmocka_unit_test(test_unknown_peak_is_no_fraction),
		cmocka_unit_test(test_nothing_to_divide),
		cmocka_unit_test(test_run_record_carries_it),
		cmocka_unit_test(test_record_stat_is_the_function),
		cmocka_unit_test(test_older_record_gets_its_peak_when_read),
		cmocka_unit_test(test_cpu_measurement),
		cmocka_unit_test(test_frac_bound),
	};
	return cmocka_run_group_tests_name("throughput", tests, NULL, NULL);
}
