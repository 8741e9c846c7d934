/*
 * job.h - what one worker process (and the checker after it) is asked to
 * do: the typed JOB.json, the seam between the run path (src/run/), which
 * plans and judges, and the backends, which load and launch a kernel.
 *
 * A job is one phase of one repeat of one variant:
 *   main      correctness launches on `seeds` fresh inputs (seed i = seed0
 *             + i, the problem's distribution i mod its count), then the
 *             timed samples (inputs rotating through n_sets sets, outputs
 *             scrambled before every launch), then fini;
 *   shape     the same correctness launches at the extra shape, no timing;
 *   sanitize  the main phase's own job under compute-sanitizer: its seeds,
 *             n_sets, rotation, samples and as many warm-up samples as
 *             the main worker made (warmup_samples), so that every launch
 *             count, grid number and buffer layout its device code can see
 *             is a timed run's (red team 57); the times are thrown away;
 *   plan      (cuda, sealed) load the kernel, init, capture one launch and
 *             send its plan (backends/seal.h), no correctness, no timing.
 * `exec` says how the kernel runs: "in_process" (its host code in the
 * worker, sandboxed) or "sealed" (the worker never loads its host code:
 * it replays the plan the parent hands it at fd SEAL_PLAN_FD).
 * The parent chooses every seed, the rotation and the scramble seed, and
 * keeps its own copy: the checker is given the parent's job, never a file
 * the worker could have rewritten.
 *
 * Ownership: job_from_json fills strings borrowed from the json object,
 * which must outlive the job.  job_to_json returns a new reference.
 */
#ifndef EVIDENT_JOB_H
#define EVIDENT_JOB_H

#include <jansson.h>

#include "backends/knobs.h"

#define JOB_MAX_DIMS 8

struct job {
	const char *phase;               /* "main" | "shape" | "sanitize" */
	const char *backend;             /* "host" | "cuda" */
	const char *kernel_so;           /* the built kernel object */
	const char *problem;             /* its name */
	const char *problem_so;          /* the built problem plug-in */
	const char *problem_gpu_so;      /* its GPU reference object, or NULL */
	int n_dims;
	long long shape[JOB_MAX_DIMS];   /* in the problem's key order */
	const char *dtype;               /* "fp32" | "fp16" | "bf16" */
	struct knobs k;
	int seeds;                       /* correctness launches in this phase */
	unsigned long long seed0;
	int timing;                      /* 1: take timed samples (main phase) */
	unsigned long long timing_seed;  /* cuda: base set b holds seed timing_seed + b of distribution b / 2 (scramble.h) */
	int n_sets;
	int first_set;                   /* sample i uses set (first_set + i) % n_sets */
	long long warmup_samples;        /* > 0: exactly this many warm-up samples, not warmup_ms of
					  * them (phase "sanitize": the main worker's count) */
	unsigned long long scramble_seed;
	int device;                      /* CUDA device ordinal */
	const char *exec;                /* "in_process" (default) | "sealed" */
	int modwatch_off;                /* phase "plan": 1 skips the planner's watch over the modules
					  * its process loads (backends/modwatch.h); the runner sets it
					  * from EVIDENT_MODWATCH=off in its own environment, a kill
					  * switch for a driver that hands CUPTI other bytes than
					  * expected.  JOB.json carries it only when set. */
};

/* The sealed worker reads its plan (JSON) at /proc/self/fd/SEAL_PLAN_FD. */
#define SEAL_PLAN_FD 8

json_t *job_to_json(const struct job *j);
/* 0, or -1 after error() naming what is wrong. */
int job_from_json(json_t *o, struct job *j);
/* Read JOB.json at path into j; *holder keeps the strings (caller decrefs). */
int job_load(const char *path, struct job *j, json_t **holder);

#endif /* EVIDENT_JOB_H */
