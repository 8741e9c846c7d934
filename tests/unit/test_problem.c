/*
 * test_problem.c - unit tests of the attention_fwd definition: half
 * conversions, seeded inputs, the float64 reference on a case worked by
 * hand, poisoning and the checker's classification of errors.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "backends/problem.h"

static void test_f16_conversions(void **state)
{
	(void)state;
	assert_int_equal(f32_to_f16(1.0f), 0x3c00);
	assert_int_equal(f32_to_f16(-2.0f), 0xc000);
	assert_int_equal(f32_to_f16(65504.0f), 0x7bff);
	assert_int_equal(f32_to_f16(1e6f), 0x7c00);            /* overflow to inf */
	assert_int_equal(f32_to_f16(5.9604645e-8f), 0x0001);   /* smallest subnormal */
	assert_int_equal(f32_to_f16(1.0f + 1.0f / 2048), 0x3c00); /* tie to even */
	assert_int_equal(f32_to_f16(1.0f + 3.0f / 2048), 0x3c02);
	for (uint32_t h = 0; h < 0x7c00; h++) /* every finite positive half round-trips */
		assert_int_equal(f32_to_f16(f16_to_f32((uint16_t)h)), h);
	assert_true(isnan(f16_to_f32(0x7e00)));
	assert_int_equal(f32_to_bf16(1.0f), 0x3f80);
	assert_true(bf16_to_f32(f32_to_bf16(3.140625f)) == 3.140625f);
}

static void test_inputs_seeded_nonzero(void **state)
{
	(void)state;
	struct attn_shape s = { 1, 2, 16, 8 };
	size_t n = attn_numel(&s);
	float *a = malloc(3 * n * sizeof(float)), *b = malloc(3 * n * sizeof(float));
	attn_fill_inputs(&s, 42, EV_F16, a, a + n, a + 2 * n);
	attn_fill_inputs(&s, 42, EV_F16, b, b + n, b + 2 * n);
	assert_memory_equal(a, b, 3 * n * sizeof(float));
	attn_fill_inputs(&s, 43, EV_F16, b, b + n, b + 2 * n);
	assert_true(memcmp(a, b, 3 * n * sizeof(float)) != 0);
	for (size_t i = 0; i < 3 * n; i++) {
		assert_true(a[i] != 0.0f && a[i] >= -1.0f && a[i] < 1.0f);
		assert_true(f16_to_f32(f32_to_f16(a[i])) == a[i]); /* already fp16 */
	}
	free(a);
	free(b);
}

static void test_reference_by_hand(void **state)
{
	(void)state;
	/* S=2, D=1: q=[1,0], k=[1,0]... scores for row 0: [1*1, 1*0]/1 -> softmax [e/(e+1), 1/(e+1)] */
	struct attn_shape s = { 1, 1, 2, 1 };
	float q[2] = { 1, 0 }, k[2] = { 1, 0 }, v[2] = { 10, 20 };
	double o[2];
	attn_reference_cpu(&s, q, k, v, o);
	double e = exp(1.0);
	assert_true(fabs(o[0] - (10 * e / (e + 1) + 20 / (e + 1))) < 1e-12);
	assert_true(fabs(o[1] - 15.0) < 1e-12); /* row 1: scores equal */
	assert_true(attn_flops(&(struct attn_shape){ 4, 8, 512, 64 }) == 4.0 * 4 * 8 * 512 * 512 * 64);
}

static void test_check_classifies(void **state)
{
	(void)state;
	double ref[4] = { 1, 2, 3, 4 };
	uint16_t out[4];
	struct check_result r;
	for (int i = 0; i < 4; i++)
		out[i] = f32_to_f16((float)ref[i]);
	problem_check(out, EV_F16, ref, NULL, 4, 1e-3, 1e-3, &r);
	assert_true(r.pass);
	assert_int_equal(r.first_mismatch, -1);
	poison_fill(out + 2, EV_F16, 2);
	problem_check(out, EV_F16, ref, NULL, 4, 1e-3, 1e-3, &r);
	assert_false(r.pass);
	assert_int_equal(r.unwritten, 2);
	assert_int_equal(r.nan_count, 0); /* the poison NaN is not counted as a NaN */
	assert_int_equal(r.first_mismatch, 2);
	out[2] = 0x7e00; /* a real NaN */
	out[3] = f32_to_f16(4.5f);
	problem_check(out, EV_F16, ref, NULL, 4, 1e-3, 1e-3, &r);
	assert_int_equal(r.nan_count, 1);
	assert_int_equal(r.unwritten, 0);
	assert_int_equal(r.mismatches, 1);
	assert_true(fabs(r.max_abs_err - 0.5) < 1e-9);
}

/* The array rounding and packing (problem_round_n, problem_pack: F16C
 * where the CPU has it) give the scalar f32_to_f16's bits: at every fp16
 * value, every tie halfway between two neighbours and one float either
 * side of it, both signs, the overflow edge, and a million random
 * finite floats. */
static void test_f16_array_paths_match_scalar(void **state)
{
	(void)state;
	size_t cap = 65536 * 8 + (1u << 20) + 64, n = 0;
	float *x = malloc(cap * sizeof(float));
	assert_non_null(x);
	for (uint32_t h = 0; h < 0x7c00u; h++) {
		float a = f16_to_f32((uint16_t)h), b = f16_to_f32((uint16_t)(h + 1));
		float mid = (float)(((double)a + (double)b) / 2); /* exact: 11 bits in a float */
		float v[4] = { a, mid, nextafterf(mid, 0.0f), nextafterf(mid, INFINITY) };
		for (int k = 0; k < 4; k++) {
			x[n++] = v[k];
			x[n++] = -v[k];
		}
	}
	x[n++] = 65519.996f;
	x[n++] = 65520.0f;
	x[n++] = 1e30f;
	x[n++] = -INFINITY;
	uint64_t st = 12345;
	for (int i = 0; i < (1 << 20); i++) {
		st = st * 6364136223846793005ULL + 1442695040888963407ULL;
		uint32_t bits = (uint32_t)(st >> 32);
		float f;
		memcpy(&f, &bits, 4);
		if (isfinite(f))
			x[n++] = f;
	}
	float *r = malloc(n * sizeof(float));
	uint16_t *p = malloc(n * sizeof(uint16_t));
	assert_non_null(r);
	assert_non_null(p);
	memcpy(r, x, n * sizeof(float));
	problem_round_n(r, n, EV_F16);
	problem_pack(x, p, n, EV_F16);
	for (size_t i = 0; i < n; i++) {
		uint16_t want = f32_to_f16(x[i]);
		float wr = f16_to_f32(want);
		if (p[i] != want || memcmp(&r[i], &wr, 4))
			fail_msg("x = %a: pack 0x%04x, round %a; scalar 0x%04x, %a", (double)x[i], p[i], (double)r[i],
				 want, (double)wr);
	}
	free(x);
	free(r);
	free(p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_f16_conversions),
		cmocka_unit_test(test_f16_array_paths_match_scalar),
		cmocka_unit_test(test_inputs_seeded_nonzero),
		cmocka_unit_test(test_reference_by_hand),
		cmocka_unit_test(test_check_classifies),
	};
	return cmocka_run_group_tests_name("problem", tests, NULL, NULL);
}
