/*
 * kexec.h - kernel executors: how the kernel under test runs for one
 * worker process of a job, behind one interface, so that the job's phases
 * (job.c) never ask which backend or which trust they serve.
 *
 *   in_process    the kernel's host code runs in the worker (sandboxed),
 *                 which reports its samples: the host backend's
 *                 correctness-only phases (extra shape), and cuda
 *                 variants that say `trust: host` (library references,
 *                 data-dependent launches), their sanitizers too
 *   parent_clock  host backend, timed: the worker runs the kernel but the
 *                 parent times every sample in memory it shares with the
 *                 worker, with inputs it draws (host_clock.c)
 *   sealed        cuda, the default, for the main phase and the extra
 *                 shape: a planner process (sandboxed, the kernel's host
 *                 code) records one launch as a plan; the worker never
 *                 loads the kernel's host code and replays the plan from
 *                 the object's device code (backends/seal.h, cuda/seal.cu)
 *   sealed_replay cuda, sealed, phase "sanitize": the sealed worker under
 *                 compute-sanitizer, replaying the plan the main phase
 *                 timed (no planner: the caller sets w->plan)
 *
 * (Not to be confused with executor.c's executors, which decide where a
 * batch's jobs run: one after another, a GPU pool, Slurm.)
 *
 * An executor's prepare() runs before the worker starts: it may set up
 * what the worker needs (shared memory, the plan at SEAL_PLAN_FD) or end
 * the worker's part itself (a planner that failed: its evidence becomes
 * the worker's).  release() frees what prepare() made.
 */
#ifndef EVIDENT_KEXEC_H
#define EVIDENT_KEXEC_H

#include <jansson.h>

#include "backends/job.h"
#include "backends/protocol.h"
#include "base/runcmd.h"
#include "base/util.h"
#include "run/run_ctx.h"

/*
 * The parent's draw of the timed samples to have shipped and checked
 * (job.c): of a fixed count n, `want` among samples 0 .. n-2 (the last is
 * always checked), by selection sampling (Knuth's Algorithm S), each
 * sample decided only once it has run, with a uniform u the worker cannot
 * read or predict, every sample with the same chance whatever its class
 * (its input distribution, drawn at the sample: scramble.h), so each class
 * gets checks in proportion to its samples.  At the end, each class that
 * had samples but no check gets one among its skipped samples the parent
 * holds (the cover, job.c late_checks; `covered` counts them), so no
 * distribution of the timed samples goes unchecked and none of its
 * samples is known safe beforehand (a draw that always checked each
 * class's first sample let red team 14's first_skip compute that one and
 * skip most of the rest); since red team 29, each class that had samples
 * gets at least CHECK_MIN_PER_CLASS checks in all where checks were asked
 * (a defect only a stress distribution's check sees met about want/8 of
 * them).  strata only names the classes for the cover.
 * A fixed count tells a worker that sees the draw's effects when the
 * checks are spent, so nothing a worker can see may depend on the draw:
 * every timed sample's outputs reach the parent the same way (protocol.h,
 * the kept room; red team 5, rt5_check_count, timed the downloads of
 * checked samples alone from device code).
 */
#define CHECK_MAX_STRATA 16
/* the cover's least checks a class (where any were asked): red team 29 */
#define CHECK_MIN_PER_CLASS 3
struct check_draw {
	long long n;
	long long want;                   /* the checks asked */
	int strata;
	int all;                          /* want >= n - 1: every sample */
	long long left;                   /* checks still to draw */
	double floor;                     /* each sample's least chance (check_draw_memoryless) */
	long long checked[CHECK_MAX_STRATA]; /* checks drawn, per class (the cover's too) */
	long long covered;                /* the cover's checks at the end (job.c late_checks) */
};
/* n: the fixed count; want: the checks asked; strata: the classes (input
 * distributions) the cover looks after. */
void check_draw_init(struct check_draw *d, long long n, long long want, int strata);
/*
 * Insurance for whatever may still tell a worker which samples were
 * checked: with an exact count, once a class's share was drawn none of its
 * later samples is checked, so any such channel makes the rest of the class
 * free to skip (red team 5's rt5_check_count, red team 6's rt6_slot_count,
 * both closed at their cause).  check_draw_memoryless gives every later
 * sample of a class at least the chance its class started with (share /
 * its samples), whatever was drawn before: at least the share in all,
 * about one check more per class on average, and no sample a worker could
 * know unchecked.  keep_sample (run/job.c) uses it for every fixed count.
 */
void check_draw_memoryless(struct check_draw *d);
/* The chance that skipped sample i of a fixed count is checked as it
 * leaves a spill ring of `ring` slots (job.c evict_check): want / (i +
 * ring + 1), at most 1; 0 when want is 0. */
double check_evict_chance(long long i, size_t ring, int want);
/* 1 when sample i (0 <= i < n - 1, in order), of class cls, is to be
 * checked. */
int check_draw_pick(struct check_draw *d, long long i, int cls, double u);
/* The cover at the end of a fixed count: of the n held skipped samples
 * (cls[k]: each one's class; pick[k]: already picked), more, each chosen
 * with uniform(ctx) in [0, 1), for each class with fewer checks than
 * CHECK_MIN_PER_CLASS (one where none were asked) while it has a held
 * sample not picked. */
void check_draw_cover(struct check_draw *d, const int *cls, size_t n, char *pick, double (*uniform)(void *),
		      void *ctx);

/*
 * The samples the reported time is made of (job.c job_samples, the one
 * place the record's samples are assembled): sample i's inputs were of
 * distribution dist[i] (scramble.h evs_sample_dist; -1 unknown: an
 * unscheduled run), and it stays (keep[i] = 1) when that is one of the
 * problem's timing distributions under mask, or unknown, or the problem
 * has one distribution.  Returns how many stay.  Stress samples are timed
 * and checked, never the time (red team 12, cancel_half).
 */
size_t timing_keep(const int *dist, size_t n, int n_dists, unsigned mask, char *keep);
/*
 * The record's timing.by_dist (record.h struct rec_dist): out[d] for each
 * of the n_dists distributions (at most REC_MAX_DISTS; names: the
 * problem's, borrowed), from the samples x[i] of distribution dist[i]
 * (NAN samples left out): count, median (NAN when none), whether it is a
 * timing distribution under mask, and how many of its samples are over
 * BATCH_STRESS_SLOW_RATIO << l times the fastest timing distribution's
 * median (n_over[l]; 0 when no timing distribution has a median), by the
 * lesser of x[i] and busy[i] where busy (NULL: none) has a finite one
 * (the host clock's host_clock_busy: a preemption's wait taken off, a
 * sleep kept), else by the lesser of x[i] and cpu[i] where cpu (NULL:
 * none) has a finite one.  Returns how many it wrote.
 */
/* Sample i's work (rec_dist work_ratio_mean, n_over): its time x[i], or
 * less: on the host the time less its leader's runqueue wait (busy), else
 * its process CPU (cpu), where known and lower. */
double sample_work(const double *x, const double *cpu, const double *busy, size_t i);
/* Rules 4b/4c's work of sample i: work[i] (the host clock's work_us: busy,
 * or where a thread gone by the freeze took its wait with it, the least
 * time the sample's CPU needs) where finite, at most x[i]; else fallback
 * (sample_work's). */
double sample_rule_work(const double *x, const double *work, double fallback, size_t i);
size_t timing_by_dist(const double *x, const double *cpu, const double *busy, const double *work, const int *dist,
		      size_t n, int n_dists, const char *const *names, unsigned mask, struct rec_dist *out);

struct sanitize_window;

/* One worker process of a job, as the parent runs and watches it. */
struct wrun {
	struct job job;              /* the parent's own copy */
	const struct kexec *exec;    /* how it runs */
	int job_fd;                  /* the job as the worker reads it (a memfd at WORKER_JOB_FD) */
	int cap_fd;                  /* shipped outputs: a file with no name (O_TMPFILE) */
	struct proto proto;
	struct run_result rr;
	struct strbuf out, err;      /* the worker's stdout and stderr: logs only */
	/* which timed samples to have shipped: decided after each sample ran,
	 * with OS randomness the worker cannot read or predict */
	long long n_fixed;           /* > 0: a fixed sample count */
	struct check_draw draw;      /* fixed count: the draw, begun at sample 0 */
	int strata;                  /* its classes: the timed inputs' distributions, else 1 */
	unsigned dist_mask;          /* the problem's timing distributions (problem_timing_dists) */
	unsigned classes_seen;       /* adaptive: the classes a sample of which was checked */
	int checks_wanted;
	struct host_clock hc;        /* parent_clock: the parent's clock (host_clock.c) */
	int shm_fd;
	int plan_fd;                 /* sealed: the plan as the worker reads it (SEAL_PLAN_FD) */
	json_t *plan;                /* sealed: the planner's plan (owned) */
	char plan_identity[65];      /* sealed: seal_plan_identity of it, "" when the parent could not parse it */
	char plan_launches[65];      /* sealed: the same less what init() left in memory (seal.h) */
	int plan_kernels;            /* sealed: the plan's kernel steps (grids a replayed launch makes), 0 unknown */
	int plan_marked;             /* sealed: a kernel step's name holds the harness's mark
				      * (sanitize.h SANITIZE_HARNESS_MARK) */
	int plan_devlaunch;          /* sealed: its device code launches grids (or has code not readable
				      * here that could): grids no plan step names */
	double plan_seconds;         /* sealed: the planner's wall time */
	struct wrun *planner;        /* sealed, main phase: the planner, kept for its seed outputs (its
				      * captures and job: job.c job_judge checks them), or NULL; owned,
				      * wrun_release frees it */
	/* phase "sanitize": the worker runs under compute-sanitizer (the
	 * tool's path and name; NULL: not), in a relaxed box (the tool starts
	 * the worker), for this long; its channel is read to its exit, since
	 * the tool's report comes after the worker's last output */
	const char *sanitizer, *sanitize_tool;
	double sanitize_timeout_s;
	const struct sanitize_window *sanitize_window; /* the launches instrumented, NULL: all */
	const char *planner_end;     /* sealed: how the planner ended (static text), or NULL */
	int over;                    /* a planner whose plan is in: its later bytes are not read (job.c on_chan) */
	struct progress *prog;
	/* The worker's oom_score_adj as the parent read it from /proc while
	 * the worker ran (after each step of its protocol): the lowest value
	 * seen, the number of reads that succeeded (0: none), and the state
	 * of the protocol at the last read.  Recorded as
	 * judge.sandbox.oom_score_adj (red team 4, oom_undo). */
	int oom_score_adj, oom_reads, oom_state;
	int oom_first;               /* its floor: what the spawn set (SANDBOX_OOM_SCORE_ADJ) */
	int oom_pid;                 /* whose /proc entry that is: found once, 0 until then */
	int boxed;                   /* the worker runs in a box: bubblewrap's child is its pid 1 */
	int box_pid_seen;            /* the box's PID namespace was looked at (on_chan, at the hello) */
	int box_no_proc;             /* its box has no /proc (sandbox.h SANDBOX_VIEW_COPIES_NO_PROC): what
				      * the worker reads of its own there is read from outside (job.c box_outside) */
	int hello_answered;          /* the hello's 'g' was written: the box was judged (on_chan) */
	int box_filter_fd;           /* the program handed to its box, to read back at the hello (on_chan), or -1 */
	/* the descriptors its box's process may hold at its hello: stdio,
	 * the channel and what the spawn passed (job.c box_fds_ok) */
	int box_fds[RUN_MAX_PASS_FD + 5], n_box_fds;
	/* the kernel's object as its box shows it (its absolute path there)
	 * and the SHA-256 of the file the runner built, to compare at the
	 * hello (job.c box_object_ok); NULL: none */
	char *box_object;
	char box_object_sha[SHA256_HEX_LEN + 1];
	/* the argv that made its box (borrowed while it runs; NULL none): the
	 * files the runner asked the box to hold, which the worker's mappings
	 * at its hello must be among (job.c box_maps_ok) */
	char *const *box_argv;
	/* the inodes of the memfds the runner passed its box (its job, plan,
	 * shared memory, filter): the only ones its worker may map at its
	 * hello (job.c box_maps_hold) */
	unsigned long long box_memfds[8];
	int n_box_memfds;
	int gpu;                     /* its backend uses a GPU (job.c worker_finished) */
	/* What it did after its job's last output (job.c end_cpu_read): its
	 * process CPU clock (a strict box has threads only, so all its code)
	 * when the job was over and just before the end grace's kill, in us;
	 * end_looked: the clock was looked for (once, when the job was over);
	 * end_clock_ok: and it reads. */
	clockid_t end_clock;
	int end_looked, end_clock_ok;
	double over_cpu_us, kill_cpu_us;
	int end_pid;                 /* whose clock and memory those are */
	double over_user_s, kill_user_s; /* its user-mode CPU then (job.c user_cpu_s; NAN: unread) */
};

enum { KEXEC_GO = 0, KEXEC_ENDED = 1 };

struct kexec {
	const char *name;            /* recorded: judge.executor */
	const char *trust;           /* recorded: "sealed" or "host" */
	/* what its worker's GPU box shows (base/sandbox.h; a host box shows
	 * copies whatever this says): a sealed kernel's planner and timing
	 * worker copies only, a trust: host kernel's the system's software */
	enum sandbox_view view;
	/* KEXEC_GO: start the worker; KEXEC_ENDED: its evidence is already in
	 * w (proto, rr); -1 after error() (nothing could be started). */
	int (*prepare)(struct run_ctx *c, struct wrun *w);
};

extern const struct kexec kexec_in_process, kexec_host_in_process, kexec_parent_clock, kexec_sealed;
/* a sealed variant's sanitizers: the main phase's plan, replayed (w->plan set by the caller) */
extern const struct kexec kexec_replay;
/* the sealed path's planner: in process (its phase "plan"), in a box of copies */
extern const struct kexec kexec_planner;

/* The executor for a job of this phase of a variant of this trust
 * (spec_trust) on this backend. */
const struct kexec *kexec_for(const struct backend *be, const struct job *job, const char *trust);
/*
 * The sealed planner's job, from the job of the worker it plans for: phase
 * "plan", no timing, and none of the parent's seeds (timing_seed and
 * first_set 0): the kernel's host code runs in the planner.  For a main
 * phase with seeds, launch() also runs as is on seeds of the planner's
 * own (as many, and at least n_dists: one a distribution of the
 * problem's), seed0 and scramble_seed drawn here, never the worker's;
 * otherwise no seeds, seed0 and scramble_seed 0.  Strings are borrowed
 * from *of.
 */
void kexec_planner_job(const struct job *of, int n_dists, struct job *out);

/* job.c: run one worker process for w->job through w->exec.  0 when it
 * was started and waited for (however it ended) or its executor ended it,
 * -1 when it could not be started. */
int run_worker(struct run_ctx *c, struct wrun *w);
/* job.c: j as a sealed memfd for a child (offset 0: no more writes, no
 * resize; base/sandbox.h sandbox_memfd_seal), or -1 after error(). */
int json_memfd(json_t *j, const char *name);
void wrun_release(struct wrun *w);

#endif /* EVIDENT_KEXEC_H */
