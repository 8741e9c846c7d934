/*
 * scramble.h - the pseudo-random bits every output buffer holds before a
 * kernel writes it, computable on the GPU and on the CPU alike.
 *
 * Before every timed sample and every correctness launch, the CUDA harness
 * (src/backends/cuda/harness.cu) fills each output buffer with fresh bits,
 * so that no launch can find the previous launch's answer in its output,
 * and so that an element the kernel did not write is recognisable: the
 * checker recomputes the very same bits here, on the CPU, and an element
 * still equal to them was (almost surely) never written.  The bits are a
 * counter-based stream, nothing is stored: byte b of output o of launch j
 * of sample i is
 *
 *     byte (b % 8) of evs_word(evs_key(seed, i, j, o), b / 8)
 *
 * in little-endian order, where evs_word is SplitMix64's output for the
 * state key + (w + 1) * golden gamma (so evs_word(k, 0, 1, ...) is exactly
 * SplitMix64 seeded with k), and evs_key chains the mixer over the seed, the
 * sample, then (launch, output), each step a bijection of its input.
 *
 * One header for C (gcc, -std=c11) and CUDA (nvcc): the functions are
 * static inline, __host__ __device__ under nvcc.  Nothing here allocates.
 */
#ifndef EVIDENT_SCRAMBLE_H
#define EVIDENT_SCRAMBLE_H

#include <stddef.h>
#include <stdint.h>

#ifdef __CUDACC__
#define EVS_FN static inline __host__ __device__
#else
#define EVS_FN static inline
#endif

#define EVS_GAMMA 0x9e3779b97f4a7c15ULL

/* The sample index i of correctness launch n (timed samples use 0, 1, 2
 * ...; correctness launches live far above them). */
#define SCRAMBLE_SEED_LAUNCH(n) ((1ULL << 62) + (n))

/* SplitMix64's finaliser (Steele, Lea, Flood 2014; the constants of
 * Stafford's variant 13), a bijection of 64-bit words. */
EVS_FN uint64_t evs_mix64(uint64_t z)
{
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/* The stream key of output o of launch j of sample i under seed. */
EVS_FN uint64_t evs_key(uint64_t seed, uint64_t i, uint32_t j, uint32_t o)
{
	uint64_t k = evs_mix64(seed + EVS_GAMMA);
	k = evs_mix64(k ^ i);
	return evs_mix64(k ^ (((uint64_t)j << 32) | o));
}

/* Graph mode captures at most this many graphs (the harness's
 * EVC_MAX_GRAPHS is the same number). */
#define EVS_MAX_GRAPHS 8

/*
 * The input set that launch j of the sample with global index `global`
 * (warm-up samples first) reads, so that the harness, the parent's
 * protocol check and the checker agree on it.  Stream mode (batch 1):
 * (first_set + global) % n_sets.  Graph mode (batch > 1): the sample
 * replays graph g = global % G, G = min(n_sets, EVS_MAX_GRAPHS), which was
 * captured with its launch j on set (first_set + g * batch + j) % n_sets.
 */
EVS_FN int evs_sample_set(int first_set, int n_sets, int batch, long long global, int j)
{
	if (n_sets <= 0)
		return 0;
	if (batch <= 1)
		return (int)(((long long)first_set + global) % n_sets);
	long long G = n_sets < EVS_MAX_GRAPHS ? n_sets : EVS_MAX_GRAPHS;
	return (int)(((long long)first_set + (global % G) * batch + j) % n_sets);
}

/*
 * Fresh inputs (the CUDA backend's timed samples): input t of a launch
 * that drew key is, element by element, the element of base set A or of
 * its partner B (the pair of its distribution, evs_sample_dist below): B
 * where this bit is 1.  For the
 * problems' independent element distributions the result has the same
 * distribution (for relations between elements, evs_mix_elem below), and with 2^N choices per sample no output can be kept
 * from one sample for another.  The harness mixes on the device, the
 * checker on the host, bit for bit the same.
 */
EVS_FN int evs_mix_bit(uint64_t key, uint32_t t, uint64_t k)
{
	return (int)((evs_mix64(key ^ ((uint64_t)t << 56) ^ ((k >> 6) * EVS_GAMMA)) >> (k & 63)) & 1);
}

/*
 * A distribution whose point is a relation between elements of one input
 * (gemm's `cancel`: column k + K/2 of A is column k times (1 + d)) loses
 * it when related elements come from different bases (red team 8,
 * rt8_mix_cancel: an fp16 accumulator that fails `cancel` as filled
 * passed every timed mix of it).  The problem's fold (evident_problem.h
 * mix_fold) names a dimension of the input and a modulus: elements whose
 * index along it agrees modulo the modulus take one bit, that of the
 * element at the index reduced.  The fold here: inner = elements per step
 * of the dimension (the product of the later dimensions), len = its
 * extent, mod = the modulus; mod 0 (or >= len) folds nothing.  Element k
 * of the input takes evs_mix_bit(key, t, evs_mix_elem(k, ...)).
 */
EVS_FN uint64_t evs_mix_elem(uint64_t k, uint64_t inner, uint64_t len, uint64_t mod)
{
	if (!mod || !inner || mod >= len)
		return k;
	uint64_t in = k % inner, c = (k / inner) % len, out = k / inner / len;
	return (out * len + c % mod) * inner + in;
}

/*
 * Which distribution each timed sample's inputs are of, for the CUDA
 * harness, the host's parent clock, the checker and the parent's check
 * draw alike (run/kexec.h check_draw).  Timed samples meet every
 * distribution of the problem, so that the code that is timed meets every
 * distribution the correctness seeds do (red team 3, rt3_dist_phase: a
 * kernel that told the seeds from the timed samples by their input
 * pointer was honest for the seeds and NaN on large scores while timed,
 * where only `uniform` was ever drawn).  But only the timing
 * distributions (problems/evident_timing_dists.h, a bit mask; bit 0
 * alone by default) make the reported time: a stress distribution can be
 * exactly structured, and a speed only it has is not the kernel's (red
 * team 12, cancel_half: gemm's `cancel` at half the FLOPs).
 *
 * The draw: every sample is of one distribution (a CUDA sample's `batch`
 * launches all of it), drawn from secret randomness of that sample alone:
 * with stress distributions, a timing one with probability
 * (EVS_STRESS_EVERY - 1) / EVS_STRESS_EVERY, else a stress one, uniformly
 * within each group; without any, a timing one, uniformly.  A fixed
 * rotation (g mod n, as until red team 13) let a kernel count its
 * launches and be honest exactly on the stress samples (rt13_fp16_sniff,
 * MODE 2); nothing a kernel can count predicts this draw.  The randomness
 * r: on CUDA the sample's key (the worker's getrandom, shipped with the
 * sample, so the parent's protocol and the checker derive the very same
 * distribution from it), on the host a word the parent draws (host_clock.c
 * os_seed).  A mask with no bit among the n_dists distributions means
 * distribution 0.
 *
 * CUDA inputs: the base sets come in one pair per distribution: bases 2d
 * and 2d + 1 hold the inputs of seeds timing_seed + 2d and timing_seed +
 * 2d + 1, both of distribution d, so that their element-wise mix is again
 * of distribution d (exactly so for distributions of independent
 * elements; related elements share a bit, evs_mix_elem).  Launch j of a
 * sample of key k mixes pair evs_sample_dist(k, n_dists, mask) under the
 * key evs_launch_key(k, j).
 */
#define EVS_STRESS_EVERY 4

/* The distributions of mask that are among n_dists (never none). */
EVS_FN unsigned evs_timing_mask(int n_dists, unsigned mask)
{
	unsigned all = n_dists >= 32 ? ~0u : n_dists > 0 ? (1u << n_dists) - 1 : 1u;
	return (mask & all) ? (mask & all) : 1u;
}

/* How many bits of m are set. */
EVS_FN int evs_bits(unsigned m)
{
	int n = 0;
	for (; m; m &= m - 1)
		n++;
	return n;
}

/* The index of the k-th set bit of m (k < evs_bits(m)). */
EVS_FN int evs_nth_bit(unsigned m, int k)
{
	for (int d = 0; d < 32; d++)
		if ((m >> d) & 1u) {
			if (!k)
				return d;
			k--;
		}
	return 0;
}

/* 1 when distribution d is a timing distribution under mask. */
EVS_FN int evs_dist_timing(int d, int n_dists, unsigned mask)
{
	return d >= 0 && d < 32 && ((evs_timing_mask(n_dists, mask) >> d) & 1u);
}

/* The chance that a sample is of distribution d under the draw above
 * (0 for a distribution outside n_dists); they sum to 1. */
EVS_FN double evs_dist_chance(int d, int n_dists, unsigned mask)
{
	if (n_dists <= 1)
		return d == 0 ? 1.0 : 0.0;
	if (d < 0 || d >= n_dists || d >= 32)
		return 0.0;
	unsigned t = evs_timing_mask(n_dists, mask);
	unsigned all = n_dists >= 32 ? ~0u : (1u << n_dists) - 1, s = all & ~t;
	double pt = s ? (double)(EVS_STRESS_EVERY - 1) / EVS_STRESS_EVERY : 1.0;
	if ((t >> d) & 1u)
		return pt / evs_bits(t);
	return (1.0 - pt) / evs_bits(s);
}

/* The distribution of a timed sample whose secret randomness is r (the
 * CUDA sample's key; the host parent's draw) under the draw above (mask:
 * the problem's timing distributions, problem.h problem_timing_dists).
 * r is hashed first, so that the key's own use as the mixing key (evs_mix_bit)
 * shares nothing visible with it. */
EVS_FN int evs_sample_dist(uint64_t r, int n_dists, unsigned mask)
{
	if (n_dists <= 1)
		return 0;
	unsigned t = evs_timing_mask(n_dists, mask);
	unsigned all = n_dists >= 32 ? ~0u : (1u << n_dists) - 1, s = all & ~t;
	uint64_t h = evs_mix64(evs_mix64(r + 0x64697374ULL * EVS_GAMMA)); /* "dist" */
	if (!s)
		return evs_nth_bit(t, (int)(h % (uint64_t)evs_bits(t)));
	uint64_t pick = h % EVS_STRESS_EVERY, rest = h / EVS_STRESS_EVERY;
	if (pick < EVS_STRESS_EVERY - 1)
		return evs_nth_bit(t, (int)(rest % (uint64_t)evs_bits(t)));
	return evs_nth_bit(s, (int)(rest % (uint64_t)evs_bits(s)));
}

/*
 * The one exception to that draw: the last sample of a fixed count of n
 * (sample k = n - 1) is a timing one when none before it was.  Else a run
 * of few samples could have no time at all: `samples: 4` draws four
 * stress samples in 1 run of 256, and CI's t0122 recorded a search's base
 * `ok` with no median.  The last sample of a fixed count is always checked
 * (run/kexec.h check_draw), so a kernel that foresaw it gains nothing.
 * timing_before: the timing samples among 0 .. k - 1.
 */
EVS_FN int evs_force_timing(long long k, long long n, long long timing_before)
{
	return n > 0 && k == n - 1 && timing_before == 0;
}

/* A timing distribution drawn from r, uniformly among them (the forced
 * last sample's, on the host; CUDA redraws its key instead, so that the
 * parent and the checker still read the distribution from the key). */
EVS_FN int evs_timing_dist(uint64_t r, int n_dists, unsigned mask)
{
	if (n_dists <= 1)
		return 0;
	unsigned t = evs_timing_mask(n_dists, mask);
	uint64_t h = evs_mix64(evs_mix64(r + 0x74696d65ULL * EVS_GAMMA)); /* "time" */
	return evs_nth_bit(t, (int)(h % (uint64_t)evs_bits(t)));
}

/*
 * A timed sample's class (timing or stress) depends on its own secret
 * word alone: every sample's is drawn afresh (the CUDA worker's
 * getrandom, the host parent's), independently of every other, so that
 * no class a kernel has seen tells it the class of the next.  Until red
 * team 17 the timed samples went in blocks of EVS_STRESS_EVERY with
 * exactly one stress sample each (so that `samples: 20` made exactly 15
 * timing samples): once honest work had shown a kernel its block's stress
 * sample (attention's large scores, in its own registers), it knew the
 * rest of the block were timing ones and took a cheaper path on those
 * alone, every check passing (rt17_phase_fp16qk, docs/redteam17-cuda.md).
 * Now `samples: 20` makes 15 timing samples on average (binomially).
 */

/* Launch j's mixing key within a sample of key `key` (launch 0: key itself),
 * so that no two launches of one sample hold the same inputs. */
EVS_FN uint64_t evs_launch_key(uint64_t key, uint32_t j)
{
	return j ? evs_mix64(key + (uint64_t)j * EVS_GAMMA) : key;
}

/* (A timed fresh sample's fill seed is fresh.h's fresh_seed: one-way,
 * so that the seed tells nothing of the key; red team 28.) */

/* Word w (bytes 8w .. 8w+7, little-endian) of the stream with key k. */
EVS_FN uint64_t evs_word(uint64_t key, uint64_t w)
{
	return evs_mix64(key + (w + 1) * EVS_GAMMA);
}

/* Byte b of the stream with key k. */
EVS_FN uint8_t evs_byte(uint64_t key, uint64_t b)
{
	return (uint8_t)(evs_word(key, b >> 3) >> (8 * (b & 7)));
}

/* Fill bytes of h_buf with the stream of key (CPU; the harness's device
 * kernel writes the same bytes). */
static inline void evs_fill(void *h_buf, size_t bytes, uint64_t key)
{
	unsigned char *p = (unsigned char *)h_buf;
	for (size_t w = 0; w * 8 < bytes; w++) {
		uint64_t v = evs_word(key, w);
		for (size_t k = 0; k < 8 && w * 8 + k < bytes; k++)
			p[w * 8 + k] = (unsigned char)(v >> (8 * k));
	}
}

/*
 * How many elements of elem_size bytes in h_buf (bytes long, a multiple of
 * elem_size) still hold the stream of key, i.e. were not written; the
 * index of the first such element goes to *first (bytes / elem_size when
 * none; first may be NULL).  A written element equals the stream by chance
 * with probability 2^-(8 elem_size): a handful among millions of fp16
 * elements is chance, a block of them is not.
 */
static inline size_t evs_count_unwritten(const void *h_buf, size_t bytes, size_t elem_size,
					 uint64_t key, size_t *first)
{
	const unsigned char *p = (const unsigned char *)h_buf;
	size_t n = elem_size ? bytes / elem_size : 0, count = 0;
	uint64_t cur_w = UINT64_MAX, cur_v = 0; /* one word computed per 8 bytes */
	if (first)
		*first = n;
	for (size_t e = 0; e < n; e++) {
		size_t k = 0;
		for (; k < elem_size; k++) {
			size_t b = e * elem_size + k;
			if ((b >> 3) != cur_w) {
				cur_w = b >> 3;
				cur_v = evs_word(key, cur_w);
			}
			if (p[b] != (unsigned char)(cur_v >> (8 * (b & 7))))
				break;
		}
		if (k == elem_size) {
			if (first && count == 0)
				*first = e;
			count++;
		}
	}
	return count;
}

#endif /* EVIDENT_SCRAMBLE_H */
