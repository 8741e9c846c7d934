/*
 * seal_move.h - where the sealed planner puts a launch's tensors for its
 * moved capture (red team 276; src/backends/cuda/seal.cu
 * moved_tensors_check): a second placement of the same tensors in which
 * no pair lies as far apart as in the planner's own, so that a launch()
 * parameter derived from two tensors' addresses (an offset between them,
 * a tagged pointer) changes while every relocated one does not.
 *
 * The tensors go into one block in reverse order, each in a slot of
 * whole SEAL_MOVE_ALIGN units, at its old address's offset within a unit
 * (so any alignment up to 2 MiB that a launch() may branch on is kept),
 * with at least SEAL_MOVE_TAIL bytes after it (one past its end is no
 * other tensor's start); where a pair would still lie as far apart as
 * before, one more unit goes before the later slot of the pair.
 *
 * One header for C (the unit tests) and CUDA C++ (seal.cu); static
 * inline, nothing allocates: the caller gives at[n] and frees nothing.
 */
#ifndef EVIDENT_SEAL_MOVE_H
#define EVIDENT_SEAL_MOVE_H

#include <stddef.h>
#include <stdint.h>

#define SEAL_MOVE_ALIGN ((uint64_t)2 << 20)
#define SEAL_MOVE_TAIL 1024u
#define SEAL_MOVE_MAX 16

/*
 * The offsets at[k] from a SEAL_MOVE_ALIGN-aligned block of the n tensors
 * (base[k], bytes[k]: the planner's placement), and the block's size in
 * *total.  0, or -1 where n is over SEAL_MOVE_MAX or no placement was
 * found within its tries (then at[] is not to be used).
 */
static inline int seal_move_layout(const uint64_t *base, const uint64_t *bytes, size_t n, uint64_t *at,
				   uint64_t *total)
{
	uint64_t gap[SEAL_MOVE_MAX];
	if (n > SEAL_MOVE_MAX)
		return -1;
	for (size_t k = 0; k < n; k++)
		gap[k] = 0;
	for (int tries = 0; tries <= 4 * (int)n + 4; tries++) {
		uint64_t pos = 0;
		for (size_t k = 0; k < n; k++) { /* slot k holds tensor n - 1 - k */
			size_t t = n - 1 - k;
			uint64_t lead = base[t] % SEAL_MOVE_ALIGN;
			pos += gap[k] * SEAL_MOVE_ALIGN;
			at[t] = pos + lead;
			pos += (lead + bytes[t] + SEAL_MOVE_TAIL + SEAL_MOVE_ALIGN - 1) / SEAL_MOVE_ALIGN * SEAL_MOVE_ALIGN;
		}
		*total = pos;
		/* tensor i < j lies in a later slot than j: a unit before i's
		 * slot moves i alone of the two */
		size_t same = n;
		for (size_t i = 0; i < n && same == n; i++)
			for (size_t j = i + 1; j < n; j++)
				if (at[i] - at[j] == base[i] - base[j]) { /* mod 2^64: the signed distance */
					same = i;
					break;
				}
		if (same == n)
			return 0;
		gap[n - 1 - same]++;
	}
	return -1;
}

#endif
