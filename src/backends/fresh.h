/*
 * fresh.h - the inputs of a timed CUDA sample, drawn fresh at that sample
 * (red team 16), and the worker's pool that draws them ahead.
 *
 * A timed sample in stream mode (timing.batch 1, sealed and trust: host)
 * reads inputs that are the problem's own fill of the sample's
 * distribution under a seed of its own, both derived from the sample's
 * secret key (getrandom, in the worker; it travels with the sample to the
 * parent and the checker): distribution evs_sample_dist(key, n_dists,
 * mask), seed fresh_seed(key, j) for launch j (one-way: below), rounded to the dtype
 * (problem_fill_rounded) and packed as the harness's upload would
 * (problem_pack: exact, the values are representable).  No value is
 * reused across samples, so nothing a kernel can remember between
 * launches (a `__device__` dictionary of the values it saw) tells a
 * timing sample from a stress one.  Before, every input element was one
 * of two base values per distribution, filled once per worker and mixed
 * on the device (scramble.h evs_mix_bit): a finite codebook whose
 * frequencies gave the class away after ~24 launches (docs/redteam16-cuda.md).
 * Graph mode (batch > 1, trust: host) and the warm-up keep that mix
 * (cheap on the device; the warm-up is untimed, its values are never a
 * timed sample's).
 *
 * One function says what a fresh sample's inputs are (fresh_inputs_fill);
 * the worker's pool and the checker both call it.
 *
 * The pool (struct fresh_pool) fills the next samples' inputs on a few
 * host threads while the GPU runs, in sample order, each under a key its
 * draw callback gives it (the worker's draw: fresh randomness a sample,
 * scramble.h evs_sample_dist), at most n_slots sets in flight.  Its threads make no
 * CUDA call and live from fresh_pool_start to fresh_pool_stop (the
 * harness counts the process's threads around every sample: they must
 * not come and go).  The keys drawn ahead sit in the worker's heap, which
 * a sealed worker's kernel has no way to read (its host code never runs
 * there; its device code has no pointer into the heap); under trust: host
 * the kernel's host code shares the process, as it did with the current
 * sample's key before.
 */
#ifndef EVIDENT_BACKENDS_FRESH_H
#define EVIDENT_BACKENDS_FRESH_H

#include <pthread.h>
#include <stddef.h>
#include <stdint.h>

#include "backends/problem.h"

struct job;

/* Does a timed sample of this job read fresh inputs (1), or the device
 * mix of two base sets per distribution (0: graph mode, batch > 1)?  The
 * worker and the checker both ask here. */
int fresh_job_timed(const struct job *job);

/*
 * The inputs of launch j of the timed sample of key `key`: the problem's
 * fill of distribution evs_sample_dist(key, n_dists, timing dists) under
 * seed fresh_seed(key, j), rounded to dtype, into in[t] (the
 * problem's numel floats each, the caller's).  Returns the distribution,
 * or -1 after error() (a fill whose value is not finite at dtype).
 * *seed_out (may be NULL) gets the seed.
 */
/*
 * The fill seed of launch j of the sample of key: the first 8 bytes of
 * SHA-256 over a label, the key and j.  One-way, so that a kernel that
 * recovers the seed from its inputs learns nothing of the key, and so
 * nothing of the sample's distribution (evs_sample_dist reads the key).
 * Until red team 28 it was evs_mix64 of the key, a bijection: a sealed
 * fp32 gemm recovered the seed from the smallest |A| in at most 4.2M
 * candidates, inverted the mix to the key and named every timed sample's
 * distribution (178 of 178 at 1024^3, rt28_key_sim.c), so it could pass
 * `cancel`'s entry-by-entry checks and compute in TF32 elsewhere.
 */
uint64_t fresh_seed(uint64_t key, uint32_t j);

int fresh_inputs_fill(const struct problem *pr, const long long *shape, uint64_t key, uint32_t j, int dtype,
		      float **in, uint64_t *seed_out);

/* One sample's inputs, packed as the device reads them. */
struct fresh_set {
	long long k;          /* the timed sample it is for (0, 1, ...) */
	uint64_t key;
	int dist;
	void *data[4];        /* input t: bytes[t] bytes at the dtype */
	double fill_cpu_s;    /* the filling thread's CPU seconds for it */
	int state;            /* internal */
};

/* Draw timed sample k's key: called in order k = 0, 1, 2 ... under the
 * pool's lock, from its threads. */
typedef uint64_t (*fresh_draw_fn)(void *ctx, long long k);

struct fresh_pool {
	const struct problem *pr;
	const long long *shape;
	int dtype, n_in;
	size_t numel[4], bytes[4];
	int n_slots, n_threads;
	struct fresh_set *slot;
	pthread_t *thread;
	int n_started;
	float **scratch;      /* n_threads x n_in float buffers (NULL for fp32: filled in place) */
	pthread_mutex_t mu;
	pthread_cond_t cv;
	long long next_fill, next_take;
	int stop, failed;
	char why[512];        /* the first failure */
	fresh_draw_fn draw;
	void *draw_ctx;
	/* what the consumer saw */
	long long taken;
	double fill_cpu_s, wait_s; /* summed over the sets taken; time take() waited */
};

/*
 * The pool's size for sets of set_bytes at the dtype and float_bytes as
 * floats (each thread's scratch, none for fp32): threads (at most
 * max_threads and FRESH_MAX_THREADS, at least 1) and slots (one more than
 * threads where it fits, else as many), the whole under max_bytes where it
 * can be (one thread and one slot otherwise).  Attention fp16 at iter1's
 * shape (6.3 MB a set) gets 7 threads and 8 sets; at B32 H32 S512 D64
 * (201 MB) 3 threads and 4 sets under 2 GiB.
 */
#define FRESH_MAX_THREADS 7
void fresh_pool_size(size_t set_bytes, size_t float_bytes, int dtype_is_f32, int max_threads, size_t max_bytes,
		     int *n_threads, int *n_slots);

/*
 * Start filling: the sets for samples 0, 1, ... under keys draw(ctx, k).
 * pr and shape must outlive the pool.  0, or -1 after error() (memory or
 * threads); fresh_pool_stop is still to be called either way.
 */
int fresh_pool_start(struct fresh_pool *fp, const struct problem *pr, const long long *shape, int dtype,
		     int n_threads, int n_slots, fresh_draw_fn draw, void *ctx);
/* The next sample's set, in order, waiting for it; NULL when a fill
 * failed (the reason in fp->why).  Hand it back with fresh_pool_put. */
struct fresh_set *fresh_pool_take(struct fresh_pool *fp);
void fresh_pool_put(struct fresh_pool *fp, struct fresh_set *s);
/* Stop the threads (each ends its current fill), clear and free every
 * buffer.  Safe on a pool that failed to start, and twice. */
void fresh_pool_stop(struct fresh_pool *fp);

#endif /* EVIDENT_BACKENDS_FRESH_H */
