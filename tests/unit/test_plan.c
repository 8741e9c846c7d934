/*
 * test_plan.c - the plan's rotation of timed input sets (run_ctx.h
 * plan_rotation_sets): enough sets to leave any cache cold, two when hot,
 * and never fewer than the launches of one sample, which must each read
 * inputs of their own (red team 4, rt4_batch_reuse: graph mode with a hot
 * cache and batch 8 had two sets, so launches 2..7 of every sample read
 * what launches 0 and 1 had read, and a kernel copied their answers).
 */
#include <math.h>
#include <stdlib.h>
#include <stdarg.h>
#include <stddef.h>
#include <string.h>
#include <setjmp.h>
#include <cmocka.h>

#include "backends/cuda/evident_cuda.h"
#include "run/run_ctx.h"

#define MIB (1024.0 * 1024.0)

static void test_rotation_cold(void **state)
{
	(void)state;
	/* 256 MiB over sets of 1 MiB: 64 at most; of 100 MiB: 3; of 1 GiB: 2 */
	assert_int_equal(plan_rotation_sets(1, 1, 256 * MIB, 1 * MIB), 64);
	assert_int_equal(plan_rotation_sets(1, 1, 256 * MIB, 100 * MIB), 3);
	assert_int_equal(plan_rotation_sets(1, 1, 256 * MIB, 1024 * MIB), 2);
	assert_int_equal(plan_rotation_sets(1, 1, 256 * MIB, 0), 2);
}

static void test_rotation_hot(void **state)
{
	(void)state;
	assert_int_equal(plan_rotation_sets(0, 1, 256 * MIB, 1 * MIB), 2);
	assert_int_equal(plan_rotation_sets(0, 1, 256 * MIB, 1024 * MIB), 2);
}

static void test_rotation_per_launch(void **state)
{
	(void)state;
	/* graph mode: a set for every launch of a sample, hot or cold */
	assert_int_equal(plan_rotation_sets(0, 8, 256 * MIB, 1 * MIB), 8);
	assert_int_equal(plan_rotation_sets(0, 10, 256 * MIB, 1 * MIB), 10);
	assert_int_equal(plan_rotation_sets(1, 8, 256 * MIB, 100 * MIB), 8);
	assert_int_equal(plan_rotation_sets(1, 100, 256 * MIB, 1 * MIB), 100);
	/* more sets than launches already: unchanged */
	assert_int_equal(plan_rotation_sets(1, 8, 256 * MIB, 1 * MIB), 64);
	assert_int_equal(plan_rotation_sets(0, 2, 256 * MIB, 1 * MIB), 2);
}

/* what the worker will hold, against the harness's room: batch 8 of
 * attention (3 inputs, 1 output, 4 distributions) fits, batch 3000 not */

/* The job order (plan_order): every variant runs every repeat once, repeat
 * r on slot r % slots (plan_order_repeats), and a variant follows each
 * variant, itself included, about equally often (red team 123: with free
 * blocks a job followed another variant's 3 times in 4 with 2 variants
 * and its own once in 4, so a candidate's leftover hit the baseline 72%
 * of the time and itself 22%); with 2 slots, on each slot's own sequence
 * of blocks.  With 3 variants or more each block is one repeat, each
 * variant once; with 2, a slot's blocks go in pairs, each variant twice
 * in a pair, so a variant's repeat r and the other's are at most 3 jobs
 * of the slot apart. */
static void test_order_balanced(void **state)
{
	(void)state;
	const int shapes[][3] = { { 2, 8, 1 }, { 2, 3, 1 }, { 3, 6, 1 }, { 4, 5, 1 }, { 2, 8, 2 }, { 2, 7, 2 }, { 2, 4, 1 } };
	for (size_t t = 0; t < sizeof(shapes) / sizeof(shapes[0]); t++) {
		size_t k = (size_t)shapes[t][0];
		int R = shapes[t][1], slots = shapes[t][2];
		size_t order[64];
		int rep[64];
		double pairs[4][4] = { { 0 } };
		double n_pairs = 0;
		for (uint64_t seed = 1; seed <= 20000; seed++) {
			plan_order(seed * 0x9e3779b97f4a7c15ULL, k, R, slots, order);
			plan_order_repeats(k, R, slots, order, rep);
			int seen[4][16] = { { 0 } };
			int at[4][16];
			for (int r = 0; r < R; r++) {
				int in_block[4] = { 0 };
				for (size_t i = 0; i < k; i++) {
					size_t j = (size_t)r * k + i, v = order[j];
					assert_true(v < k);
					assert_true(rep[j] >= 0 && rep[j] < R);
					/* repeat r runs on slot r % slots (pool.c) */
					assert_int_equal(rep[j] % slots, r % slots);
					seen[v][rep[j]]++;
					/* its place in its slot's sequence */
					at[v][rep[j]] = (r / slots) * (int)k + (int)i;
					in_block[v]++;
				}
				if (k > 2)
					for (size_t v = 0; v < k; v++)
						assert_int_equal(in_block[v], 1);
			}
			for (size_t v = 0; v < k; v++)
				for (int r = 0; r < R; r++)
					assert_int_equal(seen[v][r], 1);
			/* a repeat's jobs stay close: one block, or with 2
			 * variants one pair of blocks (4 jobs of the slot) */
			for (int r = 0; r < R; r++)
				for (size_t v = 1; v < k; v++) {
					int d = abs(at[v][r] - at[0][r]);
					assert_true(k > 2 ? d < (int)k : d <= 3);
				}
			/* each slot's sequence: blocks s, s + slots, ... */
			for (int sl = 0; sl < slots; sl++) {
				long prev = -1;
				for (int r = sl; r < R; r += slots)
					for (size_t i = 0; i < k; i++) {
						size_t v = order[(size_t)r * k + i];
						if (prev >= 0) {
							pairs[prev][v]++;
							n_pairs++;
						}
						prev = (long)v;
					}
			}
		}
		/* every block after a slot's first begins with the variant that
		 * ended the one before it: R - slots self pairs of the
		 * R k - slots (with 2 variants so on average: a pair's three
		 * inner joins hold one self pair on average, its join to the
		 * block before one), each variant's alike, and the cross pairs
		 * alike (each within 10% of its kind's mean) */
		double self = 0, cross = 0;
		for (size_t a = 0; a < k; a++)
			for (size_t b = 0; b < k; b++)
				*(a == b ? &self : &cross) += pairs[a][b];
		double want_self = (double)(R - slots) / (double)(R * (int)k - slots);
		if (k > 2)
			assert_true(fabs(self / n_pairs - want_self) < 1e-9);
		else
			assert_true(fabs(self / n_pairs - want_self) < 0.01);
		for (size_t a = 0; a < k; a++)
			for (size_t b = 0; b < k; b++) {
				double want = a == b ? self / (double)k : cross / (double)(k * (k - 1));
				if (fabs(pairs[a][b] - want) > 0.1 * want)
					print_error("k %zu R %d slots %d: pair %zu->%zu %.0f times, want %.0f\n", k, R,
						    slots, a, b, pairs[a][b], want);
				assert_true(fabs(pairs[a][b] - want) <= 0.1 * want);
			}
		/* red team 123's case: variant 1's leftover falls on variant
		 * 0's jobs about as often as on its own (free blocks: 72% and
		 * 22% at 8 repeats) */
		if (k == 2 && R == 8 && slots == 1) {
			double on0 = pairs[1][0] / (pairs[0][0] + pairs[1][0]), on1 = pairs[1][1] / (pairs[0][1] + pairs[1][1]);
			assert_true(fabs(on0 - on1) < 0.1);
		}
	}
}

/*
 * Red team 126: with 2 variants, blocks of one repeat each begun by the
 * variant that ended the block before left 2 orders (ABBAABBA... or
 * BAABBAAB...) at any repeats, 4 with 2 slots, and a job's successor
 * followed from its predecessor: first in its block (its predecessor
 * itself), the other variant next, else itself, 100%.  Pairs of blocks:
 * 6 orders at 3 repeats, 162 at 8 (2 slots: 324); a job whose predecessor
 * was itself is followed by itself a third of the time, one whose
 * predecessor was the other two thirds, save a variant's last repeat
 * (only the other variant's jobs are left after it).
 */
static void test_order_two_variants_random(void **state)
{
	(void)state;
	const int shapes[][3] = { { 3, 1, 6 }, { 8, 1, 162 }, { 8, 2, 324 }, { 4, 1, 18 } };
	for (size_t t = 0; t < sizeof(shapes) / sizeof(shapes[0]); t++) {
		int R = shapes[t][0], slots = shapes[t][1], want_orders = shapes[t][2];
		size_t order[32];
		int rep[32];
		/* the distinct orders, as bit strings of the 2 R jobs */
		unsigned char *seen = calloc((size_t)1 << 16, 1);
		assert_non_null(seen);
		int distinct = 0;
		double n[2] = { 0, 0 }, own_next[2] = { 0, 0 }; /* by predecessor: [0] other, [1] own */
		for (uint64_t seed = 1; seed <= 20000; seed++) {
			plan_order(seed * 0x9e3779b97f4a7c15ULL, 2, R, slots, order);
			plan_order_repeats(2, R, slots, order, rep);
			unsigned key = 0;
			for (int i = 0; i < 2 * R; i++)
				key = key << 1 | (unsigned)order[i];
			if (!seen[key]) {
				seen[key] = 1;
				distinct++;
			}
			for (int sl = 0; sl < slots; sl++) {
				size_t seq[32];
				int rs[32], m = 0;
				for (int r = sl; r < R; r += slots)
					for (int i = 0; i < 2; i++) {
						seq[m] = order[r * 2 + i];
						rs[m++] = rep[r * 2 + i];
					}
				for (int i = 1; i + 1 < m; i++) {
					if (rs[i] + slots >= R)
						continue; /* the variant's last repeat on the slot */
					int p = seq[i - 1] == seq[i];
					n[p]++;
					own_next[p] += seq[i + 1] == seq[i];
				}
			}
		}
		free(seen);
		if (distinct != want_orders)
			print_error("R %d slots %d: %d distinct orders, want %d\n", R, slots, distinct, want_orders);
		assert_int_equal(distinct, want_orders);
		assert_true(n[0] > 0 && n[1] > 0);
		assert_true(fabs(own_next[1] / n[1] - 1.0 / 3) < 0.02);
		assert_true(fabs(own_next[0] / n[0] - 2.0 / 3) < 0.02);
	}
}

static void test_device_buffers(void **state)
{
	(void)state;
	assert_int_equal(plan_device_buffers(8, 8, 3, 1, 4), 8 * 3 + 8 + 24);
	assert_int_equal(plan_device_buffers(64, 1, 3, 1, 4), 64 * 3 + 1 + 24);
	assert_int_equal(plan_device_buffers(2, 1, 2, 2, 0), 2 * 2 + 2 + 4);
	int n = plan_rotation_sets(0, 3000, 256 * MIB, 1 * MIB);
	assert_true(plan_device_buffers(n, 3000, 3, 1, 4) > EVC_MAX_BUFFERS);
	n = plan_rotation_sets(0, 8, 256 * MIB, 1 * MIB);
	assert_true(plan_device_buffers(n, 8, 3, 1, 4) <= EVC_MAX_BUFFERS);
}

/* A job's output scramble key and first timed set are secrets of their
 * own: the same batch planned twice from one order seed (a Slurm task's
 * way: seed_fixed) has the same order and fresh scramble keys.  They
 * were drawn from the order seed's stream, and a kernel reads its key
 * back out of the scramble in its output (SplitMix64 inverts), so the
 * device code of red team 78 had the batch's order seed and with it
 * which variant ran before it and which came next. */
static void test_scramble_not_from_order(void **state)
{
	(void)state;
	struct spec_variant vs[3];
	memset(vs, 0, sizeof(vs));
	vs[0].name = "a", vs[1].name = "b", vs[2].name = "c";
	struct spec sp;
	memset(&sp, 0, sizeof(sp));
	sp.name = "t";
	sp.baseline = "a";
	sp.variants = vs;
	sp.n_variants = 3;
	sp.k.repeats = 3;
	struct run_options o;
	memset(&o, 0, sizeof(o));
	o.seed_fixed = 1;
	o.seed = 7800;
	o.order_seed = 0x1234567887654321ULL;
	o.batch_id = "t-batch";
	o.started_utc = "2026-12-02T00:00:00Z";
	unsigned long long key[2][9];
	size_t var[2][9];
	for (int t = 0; t < 2; t++) {
		struct run_ctx *c = xcalloc(1, sizeof(*c));
		c->s = &sp;
		c->o = &o;
		c->pool.n = 1;
		c->plan.n_sets = 64;
		assert_int_equal(plan_batch(c), 0);
		assert_int_equal(c->plan.n_jobs, 9);
		for (size_t k = 0; k < 9; k++) {
			key[t][k] = c->plan.jobs[k].scramble_seed;
			var[t][k] = c->plan.jobs[k].variant;
			assert_true(key[t][k] != 0);
			assert_true(c->plan.jobs[k].first_set >= 0 && c->plan.jobs[k].first_set < 64);
		}
		plan_batch_release(&c->plan);
		free(c);
	}
	for (size_t k = 0; k < 9; k++) {
		assert_int_equal(var[0][k], var[1][k]); /* the order: the order seed's */
		assert_true(key[0][k] != key[1][k]);    /* the keys: never */
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rotation_cold),
		cmocka_unit_test(test_rotation_hot),
		cmocka_unit_test(test_rotation_per_launch),
		cmocka_unit_test(test_device_buffers),
		cmocka_unit_test(test_order_balanced),
		cmocka_unit_test(test_order_two_variants_random),
		cmocka_unit_test(test_scramble_not_from_order),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
