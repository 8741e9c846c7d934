/*
 * scramble.h - the pseudo-random bits written into every output buffer
 * before every launch, outside the timed region.  A kernel that skips its
 * work leaves them there, and no two launches see the same bits, so
 * nothing tells a checked launch from another and a fixed "poison" cannot
 * be recognised.  The bits are a counter-based function of (seed, stream,
 * word), so the checker recomputes them on the CPU to tell an unwritten
 * element from a wrong one, and the CUDA harness computes the same bits on
 * the device.  Header-only, C and CUDA.
 *
 * Streams: a correctness launch i uses scramble_stream_seed(i, output);
 * timed sample i, launch j of a batch, output o uses
 * scramble_stream_timed(i, j, o).
 */
#ifndef EVIDENT_SCRAMBLE_H
#define EVIDENT_SCRAMBLE_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#ifdef __CUDACC__
#define SCRAMBLE_HD __host__ __device__
#else
#define SCRAMBLE_HD
#endif

static inline SCRAMBLE_HD uint64_t scramble_word(uint64_t seed, uint64_t stream, uint64_t w)
{
	uint64_t z = seed ^ (stream * 0xd1b54a32d192ed03ULL) ^ ((w + 1) * 0x9e3779b97f4a7c15ULL);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static inline SCRAMBLE_HD uint64_t scramble_stream_seed(uint64_t launch, uint64_t output)
{
	return (1ULL << 62) | (launch << 8) | output;
}

static inline SCRAMBLE_HD uint64_t scramble_stream_timed(uint64_t sample, uint64_t launch, uint64_t output)
{
	return (sample << 24) ^ (launch << 8) ^ output;
}

/* Fill bytes of dst (host memory): word w little-endian, the tail from the
 * last word. */
static inline void scramble_fill(void *dst, size_t bytes, uint64_t seed, uint64_t stream)
{
	unsigned char *p = (unsigned char *)dst;
	size_t words = bytes / 8;
	for (size_t w = 0; w < words; w++) {
		uint64_t x = scramble_word(seed, stream, w);
		memcpy(p + 8 * w, &x, 8);
	}
	if (bytes % 8) {
		uint64_t x = scramble_word(seed, stream, words);
		memcpy(p + 8 * words, &x, bytes % 8);
	}
}

#endif /* EVIDENT_SCRAMBLE_H */
