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
#include <math.h>
#include <string.h>

#include "backends/backend.h"
#include "run/kexec.h"
#include "backends/scramble.h"

/* every distribution a timing one: each class equally likely */
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

/* A sample's class as the parent learns it after the sample ran: the
 * distribution drawn from its key (scramble.h evs_sample_dist). */
static int draw_cls(unsigned long long *st, int strata, unsigned mask)
{
	*st = *st * 6364136223846793005ULL + 1442695040888963407ULL;
	return evs_sample_dist(*st, strata, mask);
}

/* Each class is drawn at random per sample, so its count is random: every
 * class that had a sample gets a check (the first of it), the total is
 * `want` on average, and every sample but the first few (a class's first
 * is always checked) is as likely as any other to be checked, early or
 * late. */
static void test_check_draw_strata(void **state)
{
	(void)state;
	unsigned long long st = 1, ks = 99;
	long long hits[200] = { 0 }, total = 0;
	enum { TRIALS = 4000 };
	for (int trial = 0; trial < TRIALS; trial++) {
		struct check_draw d;
		int per_class[4] = { 0 }, n_class[4] = { 0 };
		check_draw_init(&d, 200, 10, 4, ALL);
		long long share[4], sum = 0;
		for (int c = 0; c < 4; c++) {
			share[c] = d.left[c];
			sum += share[c];
			assert_true(share[c] == 2 || share[c] == 3); /* 10 over 4 equal classes */
		}
		assert_int_equal(sum, 10);
		for (long long i = 0; i < 200; i++) {
			int c = draw_cls(&ks, 4, ALL);
			int p = check_draw_pick(&d, i, c, uni(&st));
			assert_true(!p || i < 199); /* the last is keep_sample's, always */
			n_class[c] += i < 199;
			if (p) {
				per_class[c]++;
				hits[i]++;
				total++;
			}
		}
		for (int c = 0; c < 4; c++)
			assert_true(per_class[c] >= (n_class[c] > 0));
	}
	/* about want a draw */
	assert_true(total > TRIALS * 9.5 && total < TRIALS * 10.5);
	/* every later sample about as likely as any other: (10 - 4) / (199 -
	 * 4) a sample, 4000 of them: about 123 each */
	long long early = 0, late = 0;
	for (int i = 20; i < 199; i++) {
		assert_true(hits[i] > 70 && hits[i] < 190);
		early += i < 110 ? hits[i] : 0;
		late += i >= 110 ? hits[i] : 0;
	}
	assert_true(late < early * 1.15 && early < late * 1.15);
	assert_int_equal(hits[199], 0);
}

static void test_check_draw_edges(void **state)
{
	(void)state;
	unsigned long long st = 7, ks = 3;
	struct check_draw d;
	/* fewer samples than checks: every sample but the last */
	check_draw_init(&d, 5, 10, 4, ALL);
	for (long long i = 0; i < 4; i++)
		assert_int_equal(check_draw_pick(&d, i, draw_cls(&ks, 4, ALL), uni(&st)), 1);
	assert_int_equal(check_draw_pick(&d, 4, 0, 0.0), 0);
	/* one class: the plain draw of exactly `want` */
	check_draw_init(&d, 100, 7, 1, ALL);
	int total = 0;
	for (long long i = 0; i < 100; i++)
		total += check_draw_pick(&d, i, 0, uni(&st));
	assert_int_equal(total, 7);
	/* more classes than the draw keeps: one */
	check_draw_init(&d, 100, 7, CHECK_MAX_STRATA + 1, ALL);
	assert_int_equal(d.strata, 1);
	/* a class out of range is never picked */
	check_draw_init(&d, 100, 7, 4, ALL);
	assert_int_equal(check_draw_pick(&d, 0, 4, 0.0), 0);
	assert_int_equal(check_draw_pick(&d, 0, -1, 0.0), 0);
	/* a class that never comes (a short run): its share is not drawn
	 * elsewhere, the others have their first */
	check_draw_init(&d, 100, 8, 4, ALL);
	int per[4] = { 0 };
	for (long long i = 0; i < 100; i++)
		per[i % 3] += check_draw_pick(&d, i, (int)(i % 3), uni(&st));
	assert_int_equal(per[3], 0);
	assert_int_equal(d.left[3], 2);
	for (int c = 0; c < 3; c++)
		assert_true(per[c] >= 1);
}

/* fewer checks than classes: every class that came still gets one (red
 * team 4, cuda-redteam4-checks.yaml: timed_checks 2 of 4 distributions
 * left large_scores unchecked but for the last sample's luck) */
static void test_check_draw_few(void **state)
{
	(void)state;
	unsigned long long st = 3, ks = 5;
	for (long long want = 0; want <= 3; want++)
		for (int trial = 0; trial < 200; trial++) {
			struct check_draw d;
			int per_class[4] = { 0 }, n_class[4] = { 0 };
			check_draw_init(&d, 200, want, 4, ALL);
			for (long long i = 0; i < 200; i++) {
				int c = draw_cls(&ks, 4, ALL);
				n_class[c] += i < 199;
				if (check_draw_pick(&d, i, c, uni(&st)))
					per_class[c]++;
			}
			for (int c = 0; c < 4; c++)
				assert_int_equal(per_class[c], n_class[c] > 0); /* no floor: one each */
		}
	/* one class and no checks wanted: none (the last is keep_sample's) */
	struct check_draw d;
	check_draw_init(&d, 50, 0, 1, ALL);
	for (long long i = 0; i < 50; i++)
		assert_int_equal(check_draw_pick(&d, i, 0, uni(&st)), 0);
}

/* The plain draw (one class, Algorithm S) is exact, so it tells whoever
 * sees it when the checks are spent: once `want` came, no later sample is
 * picked.  That is why no worker may see it (protocol.h; red team 5,
 * rt5_check_count, saw it from device code when only checked samples
 * were downloaded; test_protocol test_draw_unseen), and why keep_sample
 * adds the floor.  With classes, each later sample's chance is constant. */
static void test_check_draw_exact_share(void **state)
{
	(void)state;
	unsigned long long st = 11;
	for (int trial = 0; trial < 4000; trial++) {
		struct check_draw d;
		int seen = 0;
		check_draw_init(&d, 200, 10, 1, ALL);
		for (long long i = 0; i < 200; i++) {
			int q = check_draw_pick(&d, i, 0, uni(&st));
			assert_true(!q || i < 199);
			if (seen >= 10)
				assert_int_equal(q, 0);
			seen += q;
		}
		assert_int_equal(seen, 10);
	}
	struct check_draw d;
	check_draw_init(&d, 200, 10, 4, ALL);
	for (int c = 0; c < 4; c++) /* (share - 1) / (49.75 - 1) */
		assert_true(fabs(d.chance[c] - (double)(d.left[c] - 1) / 48.75) < 1e-9);
}

/* The memoryless draw (kexec.h, insurance): every sample keeps at least
 * its class's starting chance whatever was drawn before, and the last
 * sample stays keep_sample's. */
static void test_check_draw_memoryless(void **state)
{
	(void)state;
	unsigned long long st = 11;
	long long after = 0, picked_after = 0;
	for (int trial = 0; trial < 4000; trial++) {
		struct check_draw d;
		int per_class[4] = { 0 };
		check_draw_init(&d, 200, 10, 1, ALL);
		check_draw_memoryless(&d);
		long long shares[4];
		for (int c = 0; c < 1; c++)
			shares[c] = d.left[c];
		for (long long i = 0; i < 200; i++) {
			int c = 0, share = (int)shares[c];
			int p = check_draw_pick(&d, i, c, uni(&st));
			assert_true(!p || i < 199);
			if (per_class[c] >= share && i < 199) {
				after++;
				picked_after += p;
			}
			per_class[c] += p;
		}
	}
	/* after the share, about the starting chance (10 in 199) */
	double rate = (double)picked_after / (double)after;
	assert_true(after > 10000);
	assert_true(rate > 0.04 && rate < 0.06);
	/* no checks wanted in one class: none, floor or not */
	struct check_draw d;
	check_draw_init(&d, 50, 0, 1, ALL);
	check_draw_memoryless(&d);
	for (long long i = 0; i < 50; i++)
		assert_int_equal(check_draw_pick(&d, i, 0, uni(&st)), 0);
}

/* Classes under the 3:1 draw (one timing distribution of four): each class
 * is the distribution its samples are of; the stress classes (a sample in
 * four on average) get their share too, in proportion to their chance
 * with one at least: 12 checks = 4 + 8 in proportion to 3/4, 1/12 x 3:
 * uniform 1 + 6, each stress 1 + 0 or 1 (largest remainders, ties to the
 * first: 2/3 each, so the first two). */
static void test_check_draw_schedule(void **state)
{
	(void)state;
	unsigned long long st = 5, ks = 41;
	long long got[4] = { 0 };
	enum { TRIALS = 2000 };
	for (int trial = 0; trial < TRIALS; trial++) {
		struct check_draw d;
		int per_class[4] = { 0 }, n_class[4] = { 0 };
		check_draw_init(&d, 300, 12, 4, 1u);
		assert_int_equal(d.left[0], 7);
		assert_int_equal(d.left[1] + d.left[2] + d.left[3], 5);
		for (long long i = 0; i < 300; i++) {
			int c = draw_cls(&ks, 4, 1u);
			n_class[c] += i < 299;
			if (check_draw_pick(&d, i, c, uni(&st)))
				per_class[c]++;
		}
		for (int c = 0; c < 4; c++) {
			assert_true(per_class[c] >= (n_class[c] > 0));
			got[c] += per_class[c];
		}
	}
	/* on average the shares: 7, then 2, 2, 1 */
	assert_true(fabs((double)got[0] / TRIALS - 7) < 0.2);
	assert_true(fabs((double)got[1] / TRIALS - 2) < 0.15);
	assert_true(fabs((double)got[2] / TRIALS - 2) < 0.15);
	assert_true(fabs((double)got[3] / TRIALS - 1) < 0.15);
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
