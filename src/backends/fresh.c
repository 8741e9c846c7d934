/*
 * fresh.c - fresh inputs for every timed CUDA sample, and the pool of
 * host threads that fills them ahead (contract and reasons in fresh.h).
 *
 * The pool is a ring of n_slots sets.  A thread takes the next sample
 * number under the lock, draws its key there (so keys are drawn in sample
 * order, so that each key goes with its sample), fills outside the lock,
 * and marks the set ready; the consumer takes sets strictly in sample
 * order and hands each back once uploaded, which frees its slot for
 * sample k + n_slots.
 */
#include "backends/fresh.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "backends/job.h"
#include "backends/scramble.h"
#include "base/util.h"

enum { SLOT_EMPTY = 0, SLOT_FILLING, SLOT_READY, SLOT_TAKEN };

int fresh_job_timed(const struct job *job)
{
	return job && job->backend && !strcmp(job->backend, "cuda") && job->k.batch <= 1;
}

uint64_t fresh_seed(uint64_t key, uint32_t j)
{
	static const char label[] = "evident fresh seed v1"; /* 22 bytes with its NUL */
	unsigned char msg[sizeof(label) + 12];
	memcpy(msg, label, sizeof(label));
	for (int b = 0; b < 8; b++)
		msg[sizeof(label) + b] = (unsigned char)(key >> (8 * b));
	for (int b = 0; b < 4; b++)
		msg[sizeof(label) + 8 + b] = (unsigned char)(j >> (8 * b));
	char hex[SHA256_HEX_LEN + 1];
	if (sha256_hex(msg, sizeof(msg), hex) < 0)
		die("SHA-256 failed (OpenSSL): cannot derive a fresh sample's seed");
	uint64_t seed = 0;
	for (int i = 0; i < 16; i++)
		seed = seed << 4 | (uint64_t)(hex[i] <= '9' ? hex[i] - '0' : hex[i] - 'a' + 10);
	return seed;
}

int fresh_inputs_fill(const struct problem *pr, const long long *shape, uint64_t key, uint32_t j, int dtype,
		      float **in, uint64_t *seed_out)
{
	int n_dists = pr->desc->n_dists > 0 ? pr->desc->n_dists : 1;
	int dist = evs_sample_dist(key, n_dists, problem_timing_dists(pr));
	uint64_t seed = fresh_seed(key, j);
	if (seed_out)
		*seed_out = seed;
	if (problem_fill_rounded(pr, shape, dist, seed, dtype, in) < 0)
		return -1;
	return dist;
}

void fresh_pool_size(size_t set_bytes, size_t float_bytes, int dtype_is_f32, int max_threads, size_t max_bytes,
		     int *n_threads, int *n_slots)
{
	size_t scratch = dtype_is_f32 ? 0 : float_bytes;
	if (max_threads < 1)
		max_threads = 1;
	/* one slot more than threads, so that one set uploads while every
	 * thread fills: at most FRESH_MAX_THREADS threads, one slot more */
	for (int nt = max_threads < FRESH_MAX_THREADS ? max_threads : FRESH_MAX_THREADS; nt >= 1; nt--) {
		int ns = nt + 1;
		for (; ns >= nt; ns--)
			if ((double)ns * (double)set_bytes + (double)nt * (double)scratch <= (double)max_bytes) {
				*n_threads = nt;
				*n_slots = ns;
				return;
			}
	}
	*n_threads = 1;
	*n_slots = 1;
}

static double thread_cpu_s(void)
{
	struct timespec ts;
	if (clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts) < 0)
		return 0;
	return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

struct fill_arg {
	struct fresh_pool *fp;
	int id;
};

static void *fill_thread(void *p)
{
	struct fill_arg *a = p;
	struct fresh_pool *fp = a->fp;
	float **f = fp->scratch ? fp->scratch + (size_t)a->id * fp->n_in : NULL;
	free(a);
	pthread_mutex_lock(&fp->mu);
	for (;;) {
		struct fresh_set *s = NULL;
		while (!fp->stop && !fp->failed &&
		       (s = &fp->slot[fp->next_fill % fp->n_slots])->state != SLOT_EMPTY)
			pthread_cond_wait(&fp->cv, &fp->mu);
		if (fp->stop || fp->failed)
			break;
		s->state = SLOT_FILLING;
		s->k = fp->next_fill++;
		s->key = fp->draw(fp->draw_ctx, s->k);
		pthread_mutex_unlock(&fp->mu);

		double c0 = thread_cpu_s();
		float *in[4];
		for (int t = 0; t < fp->n_in; t++)
			in[t] = f ? f[t] : (float *)s->data[t];
		int dist = fresh_inputs_fill(fp->pr, fp->shape, s->key, 0, fp->dtype, in, NULL);
		if (dist >= 0 && f)
			for (int t = 0; t < fp->n_in; t++)
				problem_pack(f[t], s->data[t], fp->numel[t], fp->dtype);
		double c1 = thread_cpu_s();

		pthread_mutex_lock(&fp->mu);
		if (dist < 0) {
			if (!fp->failed)
				snprintf(fp->why, sizeof(fp->why),
					 "the problem's fill of sample %lld's inputs failed (a value not finite at the "
					 "dtype: see the worker's stderr)",
					 s->k);
			fp->failed = 1;
			pthread_cond_broadcast(&fp->cv);
			break;
		}
		s->dist = dist;
		s->fill_cpu_s = c1 - c0;
		s->state = SLOT_READY;
		pthread_cond_broadcast(&fp->cv);
	}
	pthread_mutex_unlock(&fp->mu);
	return NULL;
}

int fresh_pool_start(struct fresh_pool *fp, const struct problem *pr, const long long *shape, int dtype,
		     int n_threads, int n_slots, fresh_draw_fn draw, void *ctx)
{
	memset(fp, 0, sizeof(*fp));
	pthread_mutex_init(&fp->mu, NULL);
	pthread_cond_init(&fp->cv, NULL);
	fp->pr = pr;
	fp->shape = shape;
	fp->dtype = dtype;
	fp->n_in = pr->n_inputs;
	fp->n_threads = n_threads < 1 ? 1 : n_threads;
	fp->n_slots = n_slots < 1 ? 1 : n_slots;
	fp->draw = draw;
	fp->draw_ctx = ctx;
	for (int t = 0; t < fp->n_in; t++) {
		fp->numel[t] = problem_tensor_numel(pr, t, shape);
		fp->bytes[t] = fp->numel[t] * dtype_size(dtype);
	}
	int f32 = dtype_size(dtype) == sizeof(float) && dtype != EV_F64;
	fp->slot = calloc((size_t)fp->n_slots, sizeof(*fp->slot));
	fp->thread = calloc((size_t)fp->n_threads, sizeof(*fp->thread));
	if (!fp->slot || !fp->thread)
		return error("fresh inputs: out of memory");
	for (int s = 0; s < fp->n_slots; s++)
		for (int t = 0; t < fp->n_in; t++)
			/* floats when filled in place, else the dtype's bytes */
			if (!(fp->slot[s].data[t] = malloc((f32 ? fp->numel[t] * sizeof(float) : fp->bytes[t]) + 1)))
				return error("fresh inputs: out of memory for %d sets", fp->n_slots);
	if (!f32) {
		fp->scratch = calloc((size_t)fp->n_threads * (size_t)fp->n_in, sizeof(float *));
		if (!fp->scratch)
			return error("fresh inputs: out of memory");
		for (int i = 0; i < fp->n_threads * fp->n_in; i++)
			if (!(fp->scratch[i] = malloc(fp->numel[i % fp->n_in] * sizeof(float) + 1)))
				return error("fresh inputs: out of memory for the fill threads");
	}
	for (int i = 0; i < fp->n_threads; i++) {
		struct fill_arg *a = malloc(sizeof(*a));
		if (!a)
			return error("fresh inputs: out of memory");
		a->fp = fp;
		a->id = i;
		if (pthread_create(&fp->thread[i], NULL, fill_thread, a)) {
			free(a);
			return error("fresh inputs: cannot start fill thread %d", i);
		}
		fp->n_started++;
	}
	return 0;
}

struct fresh_set *fresh_pool_take(struct fresh_pool *fp)
{
	double t0 = mono_now();
	pthread_mutex_lock(&fp->mu);
	struct fresh_set *s = &fp->slot[fp->next_take % fp->n_slots];
	while (!fp->failed && !(s->state == SLOT_READY && s->k == fp->next_take))
		pthread_cond_wait(&fp->cv, &fp->mu);
	if (fp->failed && !(s->state == SLOT_READY && s->k == fp->next_take))
		s = NULL;
	else {
		s->state = SLOT_TAKEN;
		fp->next_take++;
		fp->taken++;
		fp->fill_cpu_s += s->fill_cpu_s;
	}
	fp->wait_s += mono_now() - t0;
	pthread_mutex_unlock(&fp->mu);
	return s;
}

void fresh_pool_put(struct fresh_pool *fp, struct fresh_set *s)
{
	pthread_mutex_lock(&fp->mu);
	s->state = SLOT_EMPTY;
	pthread_cond_broadcast(&fp->cv);
	pthread_mutex_unlock(&fp->mu);
}

void fresh_pool_stop(struct fresh_pool *fp)
{
	if (!fp->slot && !fp->thread)
		return;
	pthread_mutex_lock(&fp->mu);
	fp->stop = 1;
	pthread_cond_broadcast(&fp->cv);
	pthread_mutex_unlock(&fp->mu);
	for (int i = 0; i < fp->n_started; i++)
		pthread_join(fp->thread[i], NULL);
	fp->n_started = 0;
	int f32 = dtype_size(fp->dtype) == sizeof(float) && fp->dtype != EV_F64;
	/* the sets not yet used are future samples' inputs: cleared */
	for (int s = 0; fp->slot && s < fp->n_slots; s++)
		for (int t = 0; t < fp->n_in; t++)
			clear_free(fp->slot[s].data[t], f32 ? fp->numel[t] * sizeof(float) : fp->bytes[t]);
	for (int i = 0; fp->scratch && i < fp->n_threads * fp->n_in; i++)
		clear_free(fp->scratch[i], fp->numel[i % fp->n_in] * sizeof(float));
	free(fp->scratch);
	free(fp->slot);
	free(fp->thread);
	fp->scratch = NULL;
	fp->slot = NULL;
	fp->thread = NULL;
	pthread_cond_destroy(&fp->cv);
	pthread_mutex_destroy(&fp->mu);
}
