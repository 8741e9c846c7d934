/*
 * test_scramble.c - unit tests of the output scramble stream (src/backends/scramble.h),
 * its C side: the CUDA harness fills output buffers with these bits on the
 * device, and the checker recomputes them here to find unwritten elements,
 * so the CPU function must be exactly the published generator, deterministic,
 * and give a different stream to every (seed, sample, launch, output).
 * tests/gpu/harness_check.c checks that the device kernel writes the same
 * bytes.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "backends/scramble.h"

/* SplitMix64 seeded with 0: the first outputs of the reference generator
 * (Vigna's splitmix64.c, state += gamma, then the mixer). */
static void test_splitmix_reference(void **state)
{
	(void)state;
	assert_true(evs_word(0, 0) == 0xe220a8397b1dcdafULL);
	assert_true(evs_word(0, 1) == 0x6e789e6aa1b965f4ULL);
	assert_true(evs_word(0, 2) == 0x06c45d188009454fULL);
}

static void test_deterministic(void **state)
{
	unsigned char a[1000], b[1000];
	(void)state;
	assert_true(evs_key(42, 7, 3, 1) == evs_key(42, 7, 3, 1));
	evs_fill(a, sizeof(a), evs_key(42, 7, 3, 1));
	evs_fill(b, sizeof(b), evs_key(42, 7, 3, 1));
	assert_memory_equal(a, b, sizeof(a));
}

/* Byte layout: byte b is byte b % 8 of word b / 8, little-endian; a fill
 * of a length that is no multiple of 8 is the prefix of a longer fill. */
static void test_layout_and_tail(void **state)
{
	unsigned char a[64], b[13];
	uint64_t key = evs_key(1, 2, 3, 4);
	(void)state;
	evs_fill(a, sizeof(a), key);
	for (size_t i = 0; i < sizeof(a); i++) {
		assert_int_equal(a[i], evs_byte(key, i));
		assert_int_equal(a[i], (unsigned char)(evs_word(key, i / 8) >> (8 * (i % 8))));
	}
	memset(b, 0, sizeof(b));
	evs_fill(b, sizeof(b), key);
	assert_memory_equal(a, b, sizeof(b));
}

/* Every (seed, i, j, o) in a grid has its own key, and no two of the
 * streams share their first word; swapping j and o changes the stream. */
static void test_distinct_streams(void **state)
{
	enum { NS = 3, NI = 40, NJ = 8, NO = 3, N = NS * NI * NJ * NO };
	uint64_t *keys = malloc(N * sizeof(uint64_t)), *first = malloc(N * sizeof(uint64_t));
	size_t n = 0;
	(void)state;
	assert_non_null(keys);
	assert_non_null(first);
	for (uint64_t s = 0; s < NS; s++)
		for (uint64_t i = 0; i < NI; i++)
			for (uint32_t j = 0; j < NJ; j++)
				for (uint32_t o = 0; o < NO; o++) {
					keys[n] = evs_key(s, i, j, o);
					first[n] = evs_word(keys[n], 0);
					n++;
				}
	for (size_t x = 0; x < n; x++)
		for (size_t y = x + 1; y < n; y++) {
			assert_true(keys[x] != keys[y]);
			assert_true(first[x] != first[y]);
		}
	assert_true(evs_key(0, 0, 1, 2) != evs_key(0, 0, 2, 1));
	assert_true(evs_key(0, 1, 0, 0) != evs_key(1, 0, 0, 0));
	free(keys);
	free(first);
}

/* About half the bits are set, and bit positions are used evenly. */
static void test_balance(void **state)
{
	uint64_t key = evs_key(9, 0, 0, 0);
	long ones = 0, per_bit[64] = {0};
	const long nw = 1 << 16;
	(void)state;
	for (long w = 0; w < nw; w++) {
		uint64_t v = evs_word(key, (uint64_t)w);
		ones += __builtin_popcountll(v);
		for (int b = 0; b < 64; b++)
			per_bit[b] += (v >> b) & 1;
	}
	/* mean 32 nw, sd sqrt(16 nw) = 1024: well within 5 sd */
	assert_true(labs(ones - 32 * nw) < 5 * 1024);
	for (int b = 0; b < 64; b++) /* mean nw/2, sd 128 */
		assert_true(labs(per_bit[b] - nw / 2) < 5 * 128);
}

/* The checker's use: a buffer filled with the stream and then partly
 * written reports exactly the elements left alone. */
static void test_count_unwritten(void **state)
{
	enum { N = 1001 };
	uint16_t h[N];
	uint64_t key = evs_key(5, 17, 2, 0);
	size_t first = 0;
	(void)state;
	evs_fill(h, sizeof(h), key);
	assert_int_equal(evs_count_unwritten(h, sizeof(h), 2, key, &first), N);
	assert_int_equal(first, 0);
	for (size_t e = 0; e < 500; e++)
		h[e] = (uint16_t)(h[e] ^ 0x8000); /* written: differs from the stream */
	assert_int_equal(evs_count_unwritten(h, sizeof(h), 2, key, &first), N - 500);
	assert_int_equal(first, 500);
	for (size_t e = 500; e < N; e++)
		h[e] = (uint16_t)(h[e] ^ 1);
	assert_int_equal(evs_count_unwritten(h, sizeof(h), 2, key, &first), 0);
	assert_int_equal(first, N);
	/* one byte of a 4-byte element differing is a written element */
	{
		uint32_t f[16];
		evs_fill(f, sizeof(f), key);
		((unsigned char *)f)[4 * 3 + 2] ^= 0x10;
		assert_int_equal(evs_count_unwritten(f, sizeof(f), 4, key, NULL), 15);
	}
	/* another key does not match a filled buffer */
	evs_fill(h, sizeof(h), key);
	assert_true(evs_count_unwritten(h, sizeof(h), 2, evs_key(5, 18, 2, 0), NULL) < 5);
}

/* The set rule the harness, the protocol check and the checker share: in
 * graph mode a sample replays one of at most EVS_MAX_GRAPHS graphs, each
 * launch of it on its own set (the H100 run that treated graph samples like
 * stream samples saw "sample 0 used input set 56, not the scheduled 49"). */
static void test_sample_set(void **state)
{
	(void)state;
	/* stream mode: one set per sample, rotating from first_set */
	assert_int_equal(evs_sample_set(5, 64, 1, 0, 0), 5);
	assert_int_equal(evs_sample_set(5, 64, 1, 60, 0), 1);
	/* graph mode, batch 8, 64 sets: 8 graphs; sample i replays graph i % 8 */
	assert_int_equal(evs_sample_set(49, 64, 8, 0, 0), 49);
	assert_int_equal(evs_sample_set(49, 64, 8, 1, 0), (49 + 8) % 64);
	assert_int_equal(evs_sample_set(49, 64, 8, 8, 0), 49);       /* graph 0 again */
	assert_int_equal(evs_sample_set(49, 64, 8, 9, 3), (49 + 8 + 3) % 64);
	/* fewer sets than graphs: G = n_sets */
	assert_int_equal(evs_sample_set(0, 2, 4, 3, 1), (1 * 4 + 1) % 2);
	assert_int_equal(evs_sample_set(0, 0, 4, 3, 1), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_splitmix_reference),
		cmocka_unit_test(test_deterministic),
		cmocka_unit_test(test_layout_and_tail),
		cmocka_unit_test(test_distinct_streams),
		cmocka_unit_test(test_balance),
		cmocka_unit_test(test_count_unwritten),
		cmocka_unit_test(test_sample_set),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
