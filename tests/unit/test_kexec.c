/*
 * test_kexec.c - which kernel executor runs each phase of a job
 * (run/kexec.h): a sealed cuda variant is planned and replayed for its
 * main phase and for its extra shape (red team 3, rt3_capture_dispatch:
 * an extra shape run in process checks other code than the plan that is
 * timed); the host backend's timed phase keeps the parent's clock; the
 * planner's job carries none of the parent's seeds; and the parent's draw
 * of timed checks gives every input distribution its share.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <string.h>

#include "backends/backend.h"
#include "run/kexec.h"
#include "backends/scramble.h"

/* every distribution a timing one: the classes (first + i) % strata */
#define ALL 0xffu

static struct job job_of(const char *phase, int timing)
{
	struct job j;
	memset(&j, 0, sizeof(j));
	j.phase = phase;
	j.timing = timing;
	return j;
}

static void test_cuda_executors(void **state)
{
	(void)state;
	struct job main_j = job_of("main", 1), shape = job_of("shape", 0), san = job_of("sanitize", 0);
	assert_ptr_equal(kexec_for(&backend_cuda, &main_j, "sealed"), &kexec_sealed);
	/* the extra shape checks what is timed: sealed too */
	assert_ptr_equal(kexec_for(&backend_cuda, &shape, "sealed"), &kexec_sealed);
	assert_ptr_equal(kexec_for(&backend_cuda, &san, "sealed"), &kexec_in_process);
	assert_ptr_equal(kexec_for(&backend_cuda, &main_j, "host"), &kexec_in_process);
	assert_ptr_equal(kexec_for(&backend_cuda, &shape, "host"), &kexec_in_process);
	assert_ptr_equal(kexec_for(&backend_cuda, &shape, NULL), &kexec_in_process);
}

static void test_host_executors(void **state)
{
	(void)state;
	struct job main_j = job_of("main", 1), shape = job_of("shape", 0);
	assert_ptr_equal(kexec_for(&backend_host, &main_j, "sealed"), &kexec_parent_clock);
	assert_ptr_equal(kexec_for(&backend_host, &shape, "sealed"), &kexec_in_process);
}

static void test_planner_job(void **state)
{
	(void)state;
	struct job w = job_of("shape", 0), p;
	w.seeds = 4;
	w.seed0 = 11;
	w.timing_seed = 12;
	w.scramble_seed = 13;
	w.first_set = 5;
	w.n_sets = 64;
	w.shape[2] = 99;
	w.kernel_so = "k.so";
	kexec_planner_job(&w, &p);
	assert_string_equal(p.phase, "plan");
	assert_int_equal(p.seeds, 0);
	assert_int_equal(p.timing, 0);
	/* the kernel's host code runs in the planner: no seed of the parent's */
	assert_int_equal(p.seed0, 0);
	assert_int_equal(p.timing_seed, 0);
	assert_int_equal(p.scramble_seed, 0);
	assert_int_equal(p.first_set, 0);
	/* what it needs to plan: the shape and the object */
	assert_int_equal(p.shape[2], 99);
	assert_string_equal(p.kernel_so, "k.so");
}

/* a deterministic uniform in [0, 1) */
static double uni(unsigned long long *st)
{
	*st = *st * 6364136223846793005ULL + 1442695040888963407ULL;
	return (double)(*st >> 11) * (1.0 / 9007199254740992.0);
}

/* Every draw checks exactly `want` samples, each class its share: with the
 * CUDA inputs rotating through 4 distributions, none goes unchecked. */
static void test_check_draw_strata(void **state)
{
	(void)state;
	unsigned long long st = 1;
	long long hits[200] = { 0 };
	for (int trial = 0; trial < 2000; trial++) {
		struct check_draw d;
		int per_class[4] = { 0 }, total = 0;
		long long first = trial % 7;
		check_draw_init(&d, 200, 10, 4, ALL, first);
		long long share[4], sum = 0;
		for (int c = 0; c < 4; c++) {
			share[c] = d.left[c];
			sum += share[c];
			assert_true(share[c] == 2 || share[c] == 3); /* 10 over 4 classes of 49 or 50 */
		}
		assert_int_equal(sum, 10);
		for (long long i = 0; i < 200; i++) {
			int p = check_draw_pick(&d, i, uni(&st));
			assert_true(!p || i < 199); /* the last is keep_sample's, always */
			if (p) {
				per_class[(first + i) % 4]++;
				hits[i]++;
				total++;
			}
		}
		assert_int_equal(total, 10);
		for (int c = 0; c < 4; c++)
			assert_int_equal(per_class[c], share[c]);
	}
	/* and every sample is as likely as any other: about 2000 * 10 / 199 each */
	for (int i = 0; i < 199; i++)
		assert_true(hits[i] > 50 && hits[i] < 160);
	assert_int_equal(hits[199], 0);
}

static void test_check_draw_edges(void **state)
{
	(void)state;
	unsigned long long st = 7;
	struct check_draw d;
	/* fewer samples than checks: every sample but the last */
	check_draw_init(&d, 5, 10, 4, ALL, 2);
	for (long long i = 0; i < 4; i++)
		assert_int_equal(check_draw_pick(&d, i, uni(&st)), 1);
	assert_int_equal(check_draw_pick(&d, 4, 0.0), 0);
	/* one class: the plain draw of exactly `want` */
	check_draw_init(&d, 100, 7, 1, ALL, 5);
	int total = 0;
	for (long long i = 0; i < 100; i++)
		total += check_draw_pick(&d, i, uni(&st));
	assert_int_equal(total, 7);
	/* more classes than the draw keeps: one */
	check_draw_init(&d, 100, 7, CHECK_MAX_STRATA + 1, ALL, 5);
	assert_int_equal(d.strata, 1);
}

/* fewer checks than classes: every class still gets one (red team 4,
 * cuda-redteam4-checks.yaml: timed_checks 2 of 4 distributions left
 * large_scores unchecked but for the last sample's luck) */
static void test_check_draw_few(void **state)
{
	(void)state;
	unsigned long long st = 3;
	for (long long want = 0; want <= 3; want++)
		for (int trial = 0; trial < 200; trial++) {
			struct check_draw d;
			int per_class[4] = { 0 };
			long long first = trial % 5;
			check_draw_init(&d, 200, want, 4, ALL, first);
			for (long long i = 0; i < 200; i++)
				if (check_draw_pick(&d, i, uni(&st)))
					per_class[(first + i) % 4]++;
			for (int c = 0; c < 4; c++)
				assert_int_equal(per_class[c], 1);
		}
	/* one class and no checks wanted: none (the last is keep_sample's) */
	struct check_draw d;
	check_draw_init(&d, 50, 0, 1, ALL, 0);
	for (long long i = 0; i < 50; i++)
		assert_int_equal(check_draw_pick(&d, i, uni(&st)), 0);
}

/* A draw of a fixed count is exact, so it tells whoever sees it when a
 * class's checks are spent: once its share came, no later sample of the
 * class is picked.  That is why no worker may see it (protocol.h; red
 * team 5, rt5_check_count, saw it from device code when only checked
 * samples were downloaded; test_protocol test_draw_unseen). */
static void test_check_draw_exact_share(void **state)
{
	(void)state;
	unsigned long long st = 11;
	for (int trial = 0; trial < 4000; trial++) {
		struct check_draw d;
		int seen[4] = { 0 };
		long long first = trial % 3;
		check_draw_init(&d, 200, 10, 4, ALL, first);
		long long shares[4];
		for (int c = 0; c < 4; c++)
			shares[c] = d.left[c];
		for (long long i = 0; i < 200; i++) {
			int c = (int)((first + i) % 4), share = (int)shares[c];
			int q = check_draw_pick(&d, i, uni(&st));
			assert_true(!q || i < 199);
			if (seen[c] >= share)
				assert_int_equal(q, 0);
			seen[c] += q;
		}
		for (int c = 0; c < 4; c++)
			assert_int_equal(seen[c], shares[c]);
	}
}

/* The memoryless draw (kexec.h, insurance): every sample keeps at least
 * its class's starting chance whatever was drawn before, the share still
 * comes, and the last sample stays keep_sample's. */
static void test_check_draw_memoryless(void **state)
{
	(void)state;
	unsigned long long st = 11;
	long long after = 0, picked_after = 0;
	for (int trial = 0; trial < 4000; trial++) {
		struct check_draw d, plain;
		int per_class[4] = { 0 }, seen[4] = { 0 };
		long long first = trial % 3;
		check_draw_init(&d, 200, 10, 4, ALL, first);
		check_draw_memoryless(&d);
		check_draw_init(&plain, 200, 10, 4, ALL, first);
		long long shares[4];
		for (int c = 0; c < 4; c++)
			shares[c] = plain.left[c];
		for (long long i = 0; i < 200; i++) {
			int c = (int)((first + i) % 4), share = (int)shares[c];
			double u = uni(&st);
			int p = check_draw_pick(&d, i, u), q = check_draw_pick(&plain, i, u);
			assert_true(!p || i < 199);
			/* the plain draw: nothing once the share came */
			if (seen[c] >= share)
				assert_int_equal(q, 0);
			seen[c] += q;
			if (per_class[c] >= share && i < 199) {
				after++;
				picked_after += p;
			}
			per_class[c] += p;
		}
		for (int c = 0; c < 4; c++)
			assert_true(per_class[c] >= shares[c]);
	}
	/* after the share, about the class's starting chance (2 or 3 in 50) */
	double rate = (double)picked_after / (double)after;
	assert_true(after > 10000);
	assert_true(rate > 0.035 && rate < 0.065);
	/* no checks wanted in one class: none, floor or not */
	struct check_draw d;
	check_draw_init(&d, 50, 0, 1, ALL, 0);
	check_draw_memoryless(&d);
	for (long long i = 0; i < 50; i++)
		assert_int_equal(check_draw_pick(&d, i, uni(&st)), 0);
}

/* Classes under the 3:1 schedule (one timing distribution of four): each
 * class is the distribution its samples are of, the stress classes (a
 * sample in four) get their share too, in proportion to their samples
 * with one at least, and the draw's pools count them right (every share
 * is drawn exactly). */
static void test_check_draw_schedule(void **state)
{
	(void)state;
	unsigned long long st = 5;
	for (int trial = 0; trial < 500; trial++) {
		struct check_draw d;
		int per_class[4] = { 0 }, n_class[4] = { 0 };
		long long first = trial % 13;
		check_draw_init(&d, 300, 12, 4, 1u, first);
		assert_int_equal(d.period, 12);
		for (long long i = 0; i < 300; i++) {
			int c = evs_sample_dist(first % 12 + i, 4, 1u);
			n_class[c] += i < 299;
			if (check_draw_pick(&d, i, uni(&st)))
				per_class[c]++;
		}
		assert_true(n_class[0] > 3 * (n_class[1] + n_class[2] + n_class[3]) - 8);
		/* one each, the other 8 in proportion (224 or 225 of 299
		 * uniform, about 25 each stress): 7 and 1 + 0 or 1 */
		assert_int_equal(per_class[0], 7);
		assert_int_equal(per_class[1] + per_class[2] + per_class[3], 5);
		for (int c = 1; c < 4; c++)
			assert_true(per_class[c] == 1 || per_class[c] == 2);
	}
}

/* Red team 9, ring_outrun: a skipped frame that leaves the spill ring can
 * never be drawn late, so it is checked as it goes with a chance that is
 * never below want over the samples a run that let it go must have. */
static void test_evicted_frames_checked(void **state)
{
	(void)state;
	assert_true(check_evict_chance(0, 64, 10) >= 10.0 / 65 - 1e-12);
	for (long long i = 0; i < 5000; i += 7)
		assert_true(check_evict_chance(i, 64, 10) * (double)(i + 65) >= 10 - 1e-9);
	assert_true(check_evict_chance(0, 2, 10) == 1);
	assert_true(check_evict_chance(100, 64, 0) == 0);
	/* the attack's 80 early frames, ring 64: escape all eviction checks
	 * with chance below 0.1% */
	double escape = 1;
	for (long long i = 0; i < 80; i++)
		escape *= 1 - check_evict_chance(i, 64, 10);
	assert_true(escape < 1e-3);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_check_draw_strata),
		cmocka_unit_test(test_check_draw_few),
		cmocka_unit_test(test_check_draw_exact_share),
		cmocka_unit_test(test_check_draw_memoryless),
		cmocka_unit_test(test_check_draw_schedule),
		cmocka_unit_test(test_check_draw_edges),
		cmocka_unit_test(test_cuda_executors),
		cmocka_unit_test(test_host_executors),
		cmocka_unit_test(test_planner_job),
		cmocka_unit_test(test_evicted_frames_checked),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
