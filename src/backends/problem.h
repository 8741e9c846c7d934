/*
 * problem.h - problems define inputs, the reference answer, the work done
 * and how an answer is judged, once, in C, for every backend.
 *
 * A problem (today: "attention_fwd", O = softmax(Q K^T / sqrt(D)) V over
 * [B, H, S, D] tensors) knows how to draw inputs from a seeded RNG (never
 * zeros), compute a float64 CPU reference, count FLOPs and the fewest
 * bytes moved, and compare an output against a reference: max |err|,
 * relative L2 error, NaNs, elements left unwritten (still holding the
 * poison pattern), the first mismatch, pass/fail under atol/rtol.
 */
#ifndef EVIDENT_PROBLEM_H
#define EVIDENT_PROBLEM_H

#include <stddef.h>
#include <stdint.h>

#include "../../kernels/evident_kernel.h"

/* Shape of attention_fwd. */
struct attn_shape {
	long long B, H, S, D;
};

/* Is `name` a known problem?  Fills the list of its shape keys. */
int problem_known(const char *name);
/* The shape keys problem `name` needs, NULL-terminated ({"B","H","S","D"}). */
const char *const *problem_shape_keys(const char *name);

/* Elements in one [B,H,S,D] tensor. */
size_t attn_numel(const struct attn_shape *s);
/* 4*B*H*S*S*D (two GEMMs) - the usual FlashAttention count. */
double attn_flops(const struct attn_shape *s);
/* Q, K, V read once, O written once, at elem_bytes per element. */
double attn_min_bytes(const struct attn_shape *s, size_t elem_bytes);

/* dtype name -> enum ev_dtype, and element size; 0 if unknown. */
int dtype_from_name(const char *name);
size_t dtype_size(int dtype);
const char *dtype_name(int dtype);

/*
 * Fill q, k, v (numel floats each) from seed: uniform in [-1, 1), with no
 * exact zeros, SplitMix64 so that every platform draws the same numbers.
 * If round_to is EV_F16 or EV_BF16, values are rounded to that type first
 * (so the reference sees exactly what the kernel sees).
 */
void attn_fill_inputs(const struct attn_shape *s, uint64_t seed, int round_to,
		      float *q, float *k, float *v);

/* float64 CPU reference: out (numel doubles) = softmax(scale Q K^T) V. */
void attn_reference_cpu(const struct attn_shape *s, const float *q, const float *k,
			const float *v, double *out);

/* The poison bit patterns written into outputs before each launch. */
#define POISON_F32 0x7fc0deadu
#define POISON_F16 0x7e5bu
#define POISON_BF16 0x7fdeu
/* Fill out (numel elements of dtype) with the poison pattern. */
void poison_fill(void *out, int dtype, size_t numel);

struct check_result {
	double max_abs_err;
	double rel_l2;           /* ||out - ref|| / ||ref|| over written, non-NaN elements */
	long long nan_count;     /* NaN/Inf that are not the poison pattern */
	long long unwritten;     /* elements still equal to the poison pattern */
	long long first_mismatch; /* index of first element out of tolerance, -1 if none */
	long long mismatches;    /* elements out of tolerance */
	int pass;
};

/*
 * Compare out (numel elements of dtype, raw as the kernel wrote them)
 * against ref (doubles or floats: exactly one of ref_d, ref_f non-NULL).
 * An element passes when |out - ref| <= atol + rtol * |ref|.  pass needs
 * no NaN, nothing unwritten and no mismatch.
 */
void problem_check(const void *out, int dtype, const double *ref_d, const float *ref_f,
		   size_t numel, double atol, double rtol, struct check_result *res);

/* fp16/bf16 <-> float conversions (round to nearest even). */
uint16_t f32_to_f16(float f);
float f16_to_f32(uint16_t h);
uint16_t f32_to_bf16(float f);
float bf16_to_f32(uint16_t h);

#endif /* EVIDENT_PROBLEM_H */
