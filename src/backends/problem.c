/*
 * problem.c - the attention_fwd problem, defined once for every backend
 * (contract in problem.h): seeded inputs, the float64 CPU reference, FLOP
 * and byte counts, output poisoning and the tolerance check.
 */
#include "backends/problem.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"

static const char *const attn_keys[] = { "B", "H", "S", "D", NULL };

int problem_known(const char *name)
{
	return name && !strcmp(name, "attention_fwd");
}

const char *const *problem_shape_keys(const char *name)
{
	return problem_known(name) ? attn_keys : NULL;
}

size_t attn_numel(const struct attn_shape *s)
{
	return (size_t)s->B * (size_t)s->H * (size_t)s->S * (size_t)s->D;
}

double attn_flops(const struct attn_shape *s)
{
	return 4.0 * (double)s->B * (double)s->H * (double)s->S * (double)s->S * (double)s->D;
}

double attn_min_bytes(const struct attn_shape *s, size_t elem_bytes)
{
	return 4.0 * (double)attn_numel(s) * (double)elem_bytes;
}

int dtype_from_name(const char *name)
{
	if (!name)
		return 0;
	if (!strcmp(name, "fp32") || !strcmp(name, "float32"))
		return EV_F32;
	if (!strcmp(name, "fp16") || !strcmp(name, "float16"))
		return EV_F16;
	if (!strcmp(name, "bf16") || !strcmp(name, "bfloat16"))
		return EV_BF16;
	if (!strcmp(name, "fp64") || !strcmp(name, "float64"))
		return EV_F64;
	return 0;
}

size_t dtype_size(int dtype)
{
	switch (dtype) {
	case EV_F32: return 4;
	case EV_F16: return 2;
	case EV_BF16: return 2;
	case EV_F64: return 8;
	default: return 0;
	}
}

const char *dtype_name(int dtype)
{
	switch (dtype) {
	case EV_F32: return "fp32";
	case EV_F16: return "fp16";
	case EV_BF16: return "bf16";
	case EV_F64: return "fp64";
	default: return "unknown";
	}
}

uint16_t f32_to_f16(float f)
{
	uint32_t x;
	memcpy(&x, &f, 4);
	uint32_t sign = (x >> 16) & 0x8000u;
	uint32_t exp = (x >> 23) & 0xffu;
	uint32_t man = x & 0x7fffffu;
	if (exp == 0xff) /* inf or nan */
		return (uint16_t)(sign | 0x7c00u | (man ? 0x200u | (man >> 13) : 0));
	int e = (int)exp - 127 + 15;
	if (e >= 31)
		return (uint16_t)(sign | 0x7c00u);
	if (e <= 0) {
		if (e < -10)
			return (uint16_t)sign;
		man |= 0x800000u;
		int shift = 14 - e;
		uint32_t half = man >> shift;
		uint32_t rem = man & ((1u << shift) - 1);
		uint32_t mid = 1u << (shift - 1);
		if (rem > mid || (rem == mid && (half & 1)))
			half++;
		return (uint16_t)(sign | half);
	}
	uint32_t half = sign | ((uint32_t)e << 10) | (man >> 13);
	uint32_t rem = man & 0x1fffu;
	if (rem > 0x1000u || (rem == 0x1000u && (half & 1)))
		half++; /* may carry into the exponent: that is correct rounding */
	return (uint16_t)half;
}

float f16_to_f32(uint16_t h)
{
	uint32_t sign = (uint32_t)(h & 0x8000u) << 16;
	uint32_t exp = (h >> 10) & 0x1fu;
	uint32_t man = h & 0x3ffu;
	uint32_t x;
	if (exp == 0) {
		if (!man) {
			x = sign;
		} else { /* subnormal: normalise */
			int e = -1;
			do {
				e++;
				man <<= 1;
			} while (!(man & 0x400u));
			x = sign | ((uint32_t)(127 - 15 - e) << 23) | ((man & 0x3ffu) << 13);
		}
	} else if (exp == 31) {
		x = sign | 0x7f800000u | (man << 13);
	} else {
		x = sign | ((exp - 15 + 127) << 23) | (man << 13);
	}
	float f;
	memcpy(&f, &x, 4);
	return f;
}

uint16_t f32_to_bf16(float f)
{
	uint32_t x;
	memcpy(&x, &f, 4);
	if ((x & 0x7fffffffu) > 0x7f800000u)
		return (uint16_t)((x >> 16) | 0x40u); /* quiet nan */
	uint32_t rounding = 0x7fffu + ((x >> 16) & 1u);
	return (uint16_t)((x + rounding) >> 16);
}

float bf16_to_f32(uint16_t h)
{
	uint32_t x = (uint32_t)h << 16;
	float f;
	memcpy(&f, &x, 4);
	return f;
}

/* SplitMix64: tiny, fast, identical everywhere. */
static uint64_t splitmix64(uint64_t *state)
{
	uint64_t z = (*state += 0x9e3779b97f4a7c15ull);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

static float draw(uint64_t *st, int round_to)
{
	for (;;) {
		/* 24 random bits -> [-1, 1) */
		float u = (float)(splitmix64(st) >> 40) * (1.0f / 8388608.0f) - 1.0f;
		if (round_to == EV_F16)
			u = f16_to_f32(f32_to_f16(u));
		else if (round_to == EV_BF16)
			u = bf16_to_f32(f32_to_bf16(u));
		if (u != 0.0f)
			return u;
	}
}

void attn_fill_inputs(const struct attn_shape *s, uint64_t seed, int round_to, float *q,
		      float *k, float *v)
{
	size_t n = attn_numel(s);
	uint64_t st = seed * 0x2545f4914f6cdd1dull + 1;
	for (size_t i = 0; i < n; i++)
		q[i] = draw(&st, round_to);
	for (size_t i = 0; i < n; i++)
		k[i] = draw(&st, round_to);
	for (size_t i = 0; i < n; i++)
		v[i] = draw(&st, round_to);
}

void attn_reference_cpu(const struct attn_shape *s, const float *q, const float *k,
			const float *v, double *out)
{
	long long S = s->S, D = s->D;
	double scale = 1.0 / sqrt((double)D);
	double *p = xmalloc((size_t)S * sizeof(double));
	for (long long bh = 0; bh < s->B * s->H; bh++) {
		const float *Q = q + bh * S * D, *K = k + bh * S * D, *V = v + bh * S * D;
		double *O = out + bh * S * D;
		for (long long i = 0; i < S; i++) {
			double m = -INFINITY;
			for (long long j = 0; j < S; j++) {
				double acc = 0;
				for (long long d = 0; d < D; d++)
					acc += (double)Q[i * D + d] * (double)K[j * D + d];
				p[j] = acc * scale;
				if (p[j] > m)
					m = p[j];
			}
			double sum = 0;
			for (long long j = 0; j < S; j++) {
				p[j] = exp(p[j] - m);
				sum += p[j];
			}
			for (long long d = 0; d < D; d++) {
				double acc = 0;
				for (long long j = 0; j < S; j++)
					acc += p[j] * (double)V[j * D + d];
				O[i * D + d] = acc / sum;
			}
		}
	}
	free(p);
}

void poison_fill(void *out, int dtype, size_t numel)
{
	if (dtype == EV_F32) {
		uint32_t *o = out, pat = POISON_F32;
		for (size_t i = 0; i < numel; i++)
			o[i] = pat;
	} else if (dtype == EV_F16 || dtype == EV_BF16) {
		uint16_t *o = out, pat = dtype == EV_F16 ? POISON_F16 : POISON_BF16;
		for (size_t i = 0; i < numel; i++)
			o[i] = pat;
	} else if (dtype == EV_F64) {
		uint64_t *o = out, pat = 0x7ff8deaddeaddeadull;
		for (size_t i = 0; i < numel; i++)
			o[i] = pat;
	}
}

/* Element i as double; *poisoned set when it still holds the pattern. */
static double load_elem(const void *out, int dtype, size_t i, int *poisoned)
{
	switch (dtype) {
	case EV_F32: {
		uint32_t bits = ((const uint32_t *)out)[i];
		*poisoned = bits == POISON_F32;
		float f;
		memcpy(&f, &bits, 4);
		return f;
	}
	case EV_F16: {
		uint16_t h = ((const uint16_t *)out)[i];
		*poisoned = h == POISON_F16;
		return f16_to_f32(h);
	}
	case EV_BF16: {
		uint16_t h = ((const uint16_t *)out)[i];
		*poisoned = h == POISON_BF16;
		return bf16_to_f32(h);
	}
	default: {
		uint64_t bits = ((const uint64_t *)out)[i];
		*poisoned = bits == 0x7ff8deaddeaddeadull;
		double d;
		memcpy(&d, &bits, 8);
		return d;
	}
	}
}

void problem_check(const void *out, int dtype, const double *ref_d, const float *ref_f,
		   size_t numel, double atol, double rtol, struct check_result *res)
{
	memset(res, 0, sizeof(*res));
	res->first_mismatch = -1;
	double num = 0, den = 0;
	for (size_t i = 0; i < numel; i++) {
		int poisoned;
		double o = load_elem(out, dtype, i, &poisoned);
		double r = ref_d ? ref_d[i] : (double)ref_f[i];
		den += r * r;
		if (poisoned) {
			res->unwritten++;
			if (res->first_mismatch < 0)
				res->first_mismatch = (long long)i;
			continue;
		}
		if (!isfinite(o)) {
			res->nan_count++;
			if (res->first_mismatch < 0)
				res->first_mismatch = (long long)i;
			continue;
		}
		double e = fabs(o - r);
		num += e * e;
		if (e > res->max_abs_err)
			res->max_abs_err = e;
		if (e > atol + rtol * fabs(r)) {
			res->mismatches++;
			if (res->first_mismatch < 0)
				res->first_mismatch = (long long)i;
		}
	}
	res->rel_l2 = den > 0 ? sqrt(num / den) : sqrt(num);
	res->pass = res->nan_count == 0 && res->unwritten == 0 && res->mismatches == 0;
}
