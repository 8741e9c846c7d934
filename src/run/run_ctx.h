/*
 * run_ctx.h - what the stages of one `evident run` share (the run layer's
 * own header; nothing outside src/run/ includes it).  The stages follow
 * the data:
 *
 *   plan.c      the spec -> the batch id, the variants and their builds,
 *               the jobs (variant x repeat) in a seeded interleaved order,
 *               their seeds, the problem plug-in and its tolerance
 *   executor.c  the seam that gets every planned job executed: one after
 *               another (executor_local); pool.c: a slot per GPU (or CPU),
 *               repeat r of every variant on slot r % n (executor_pool)
 *   job.c       one planned job, start to record: build, worker, checker,
 *               extra shape, sanitizers, outcome, the run record
 *   gather.c    the batch's run records -> statistics over repeats,
 *               comparisons with the baseline, Holm, the batch record
 *   summary.c   the batch record -> the terminal table and notes
 *   run.c       the order of the above; returns success or failure (the
 *               command decides the exit code)
 */
#ifndef EVIDENT_RUN_CTX_H
#define EVIDENT_RUN_CTX_H

#include <sched.h>
#include <time.h>

#include "backends/backend.h"
#include "backends/build.h"
#include "backends/cpu_peak.h"
#include "base/runcmd.h"
#include "base/sandbox.h"
#include "record/record.h"
#include "backends/problem.h"
#include "backends/protocol.h"
#include "run/provenance.h"
#include "run/run.h"
#include "run/spec.h"
#include "store/store.h"

struct plan_variant {
	const struct spec_variant *v;
	int is_baseline;
	int build_state;             /* 0 not yet, 1 built (ok or failed), -1 could not attempt */
	struct build_result br;
	char so_sha256[SHA256_HEX_LEN + 1];
	json_t *sources;             /* code.sources with objects, once stored */
};

struct plan_job {
	size_t variant;              /* index into plan.variants */
	int repeat;
	unsigned long long seed0, timing_seed, scramble_seed;
	int first_set;
	char *run_id;                /* once its record is committed */
	enum outcome outcome;
	int done;
};

struct plan {
	char *batch_id;              /* printed and stored: one id */
	char started_utc[40];
	unsigned long long seed;
	/* the order of each repeat's jobs and their secret draws (scramble
	 * seeds, first input sets): OS randomness per batch, never the spec's
	 * seed (red team 89: with `correctness.seed` every batch of a spec
	 * ran one order, the same variant always before the same other, and a
	 * reproduction too); a Slurm task's is the submission's */
	unsigned long long order_seed;
	int repeats;
	struct plan_variant *variants;
	size_t n_variants, baseline;
	struct plan_job *jobs;       /* in execution order */
	size_t n_jobs;
	struct problem problem;      /* the plug-in, built and loaded (backends/problem.h) */
	char judge_sha256[65];       /* problem_judge_sha256 at the spec's shape, "" none */
	char judge_run_sha256[65];   /* problem_judge_run_sha256 there, "" none */
	char plugin_object[65];      /* the plug-in's object in the store (plan_keep_plugin), "" none */
	json_t *judge_run_roles;     /* the same by shape: [{"role", "sha256"}] (plan.c), or NULL */
	struct ev_tolerance tol;     /* the checker's rule: the problem's by dtype, or the spec's */
	struct ev_tolerance tol_problem; /* the problem's own rule for the dtype, before the spec's */
	int dtype;
	int n_sets;                  /* rotating input sets per timed job */
	double flops, min_bytes;
	double floor_us;             /* the fastest time physics allows (peaks table), NAN unknown */
	const char *peak_source;
	char host_peak_source[160];  /* host: how peak_host_gflops derived the floor */
	struct rec_peak peak;        /* what every record's throughput is held against (plan_peak) */
	struct cpu_peak cpu;         /* host: the measured peak peak borrows from */
	char peak_why[320];          /* no peak: why (peak.why borrows it) */
	json_t *problem_sources;     /* the problem's sources [{path, sha256, object}] (plan.c) */
	struct rec_source *problem_src; /* the same for the records (strings borrowed from it) */
	size_t n_problem_src;
};

/* The slots of a pool (pool.c), resolved from --gpus / the spec's gpus. */
struct pool {
	int n;                       /* slots; 0: no pool (serial) */
	int *devices;                /* per slot: the device index it holds, or -1 (host slots by count) */
	int pin_cpus;                /* host backend with a list: slot k is pinned to CPU devices[k] */
};

/* The slot this process executes jobs in: what job.c records as the
 * run's executor, and the device whose state it reads. */
struct exec_slot {
	const char *kind;            /* "local" | "pool" | "slurm" */
	int index, n;                /* slot index, of n slots */
	int device;                  /* NVML index of its GPU, or the CPU it is pinned to; -1 none */
	char *pinned;                /* what pinned it (owned), or NULL */
	char *after;                 /* the variant of the job this slot ran last (owned: a
				      * copy, since eval's specs go before the context), or
				      * NULL before its first: job.c records it */
};

struct progress {
	int on;
	size_t i, n;
	const char *variant;
	int repeat, repeats;
	double t_start, per_job;
};

struct run_ctx {
	const struct spec *s;
	const struct run_options *o;
	const struct backend *be;
	struct store st;
	struct plan plan;
	struct rec_git git;          /* strings owned by the prov_git below */
	struct prov_git prov;
	/* the runner that writes every record (code.runner, red team 279):
	 * strings owned by runner_id, filled by run_open */
	struct rec_runner runner;
	struct prov_runner runner_id;
	json_t *machine, *device_info;
	char spec_object[SHA256_HEX_LEN + 1];
	char *exe;                   /* this executable (a Slurm task's, run/slurm_submit.c) */
	char *worker_exe;            /* what a job's worker and checker exec: evident-worker, or exe (run.c) */
	char *tmp_dir;               /* the store's tmp/ */
	struct sandbox sb;           /* the box for every process that runs kernel code */
	json_t *judge_sandbox;       /* sandbox_describe(&sb), for every record */
	struct progress prog;
	int interrupted;
	int box_refused;             /* a worker's box showed no filter or PID namespace (job.c): the run
				      * stops, as where no box could be made (an environment error) */
	struct pool pool;
	struct exec_slot slot;
	/* What interrupted this runner, when it can tell (a Slurm task reads
	 * slurmstepd's kill line): the reason of the job it aborts; NULL
	 * function or result: the signal's name. */
	const char *(*why_interrupted)(struct run_ctx *c);
	json_t *slurm;               /* a Slurm task's {job_id, array_job_id, ...} for its records, or NULL */
	double wall_s;               /* > 0: the batch's wall time (Slurm: submission to last task end) */
	/* The sealed plans' identities this runner has seen (kexec.c
	 * plan_same): {"OBJECT|SHAPE": {"identity", "launches"}}, for the
	 * runner's life (an eval session's every batch); a pool slot's copy
	 * is its own, and gather.c compares a batch's runs across slots. */
	json_t *plan_ids;
	/* A Slurm task's end (epoch seconds; 0: none; slurm_task.c): a job
	 * starts only with all its workers' timeouts before it, so a kernel
	 * that hangs is the runner's `timeout`, judged, not Slurm's kill,
	 * `aborted`, which claims leave out (red team 83's hang_coin:
	 * validated read only the processes that did not hang) */
	double end_epoch;
};
/* seconds a Slurm task keeps after its last job's timeout, to record it */
#define JOB_END_MARGIN_S 20
/* The seconds a job of spec s may take at most, every worker at its
 * timeout: 2 (the main and the extra shape; 4 when a GPU's sealed
 * kernels are planned first) x timeout_s, and each sanitizer tool's run at
 * its longer limit (SANITIZE_TIMEOUT_FACTOR x timeout_s).  A Slurm task
 * starts a job only with this and JOB_END_MARGIN_S before its end
 * (slurm_task.c). */
double slurm_job_need_s(const struct spec *s, int gpu);

/* host_clock.c: the host backend's samples, timed by the parent (see
 * the file's top).  The caller (job.c run_worker) fills pr, job, shm, off,
 * deadline, boxed; runcmd's on_start gives child and chan_fd; the drive
 * is protocol.h's proto.drive with this as drive_ctx. */
struct host_clock {
	char cgroup[1024];           /* the runner's /proc/thread-self/cgroup, the worker's unless moved (attach_worker) */
	const struct problem *pr;
	const struct job *job;
	unsigned char *shm;          /* the shared memory (parent's mapping) */
	size_t shm_bytes, off[8];    /* worker_shm_layout */
	int child, chan_fd;          /* the spawned process, its channel's read end */
	int boxed;                   /* 1: child is bubblewrap, the worker its child */
	int pid;                     /* the worker (found by the drive) */
	unsigned long long scramble; /* the key of the bits prepare() last wrote into the outputs (OS
				      * randomness at each sample; the checker gets it with the capture) */
	double thread_cost_us;       /* what each parked thread adds to a round, measured in the
				      * worker's box before it loaded anything (host_clock.c
				      * calibrate_threads), NAN: not yet */
	double handshake_us;         /* the handshake's cost before the worker loaded any object of the
				      * problem's or the kernel's (host_clock_calibrate), NAN: not yet */
	double deadline;             /* mono_now() past which the worker has timed out */
	int timed_out, interrupted;  /* why the drive stopped, when it was not the worker */
	int worker_gone;             /* the channel closed mid-sample: the worker died */
	size_t flush_bytes;          /* cache: cold, the bytes of lines flushed a sample (host_clock.c
				      * flush_lines), 0: hot */
	unsigned long long frozen_ns; /* the worker's threads' run time when last confirmed stopped */
	int have_runtime;            /* 1: /proc gives that run time (schedstat) */
	double frozen_cpu_us;        /* its process CPU clock then (threads that ended included), NAN: none */
	int wchan_misses, wchan_mute; /* this worker's freezes that waited out a wchan of "0" (host_clock_freeze) */
	long long freezes[3];        /* freezes settled: every thread off the CPU (wchan), two equal run
				      * times alone, no run time in /proc */
	clockid_t cpu_clock;         /* the worker's process CPU clock (clock_getcpuclockid) */
	int have_cpu_clock;          /* 1: cpu_clock reads */
	int *st_ids;                 /* the worker's threads other than its leader at a sample's done line, */
	unsigned long long *st_ns;   /* and each one's time on the CPU then (schedstat, ns): round_trip's; */
	size_t st_cap;               /* freed by host_clock_drive */
	unsigned long long *go_ns;   /* each thread known at a sample's go: its time on the CPU then (go_baselines), */
	unsigned long long *go_wait; /* and its run-queue wait then (schedstat, ns); */
	size_t go_cap;               /* both freed by host_clock_drive */
	unsigned char *snap;         /* the outputs as they were at a sample's done line (round_trip), */
	size_t snap_bytes;           /* compared with them once the worker is stopped; freed by host_clock_drive */
	unsigned long long snap_order; /* the sample's secret order of the copy's chunks (prepare: OS randomness) */
	unsigned char *wake;         /* the outputs' lines (all of them, or HOST_WAKE_LINES drawn in secret) */
	size_t *wake_at;             /* as the parent found them when its poll woke for the done line, their */
	size_t wake_n;               /* offsets among the outputs and count (host_clock.c wake_print) */
	struct problem_filler *filler; /* a described problem's fill box (problem_box.c: the problem's), or NULL */
	double fill_out0;              /* its CPU outside its fills when the worker attached (problem_filler_outside_us) */
	double fill_wait0;             /* and its stop waits then (problem_filler_stop_wait_us) */
	long long lead_off_seen;     /* samples whose leader the parent saw off its CPU after the end (host_clock.c lead_off_watch) */
	int threads_max;             /* the most threads the worker had at a timed sample's go or done line
				      * (the method's threads_max: a fraction of one core's peak above 1
				      * is possible only with more than one) */
};
/*
 * CPU time a worker may use between its done line and its stop, in us,
 * before the sample counts as work after the done line (red team 11,
 * vfork_after: the parent's clock stops at the done line, and a thread
 * that holds off the SIGSTOP, such as one waiting on its vfork, lets
 * another compute the whole sample before the freeze sees the worker
 * stopped).  An honest worker returns from its write into its read and
 * takes the stop: a median of 4 to 9 us a sample on the project's 2-CPU
 * machine at load 6, past 50 us in at most 5 of 300 samples (85 us at
 * most: the host's own work charged to whatever runs); each more thread
 * wakes to take the stop too, and is credited what it measurably used
 * from the done line to the stop (its own schedstat), up to
 * HOST_LATE_CPU_THREAD_US: a flat credit per thread gave a kernel with 15
 * threads idle in pause() 30 to 55 us a sample of room beyond what their
 * stops cost (red team 12, idle_t15).  The leader takes the group stop and
 * wakes every other thread into it (about 0.8 to 0.9 us a thread: red
 * team 13's stop_cost; an honest kernel with 32 idle threads was
 * escaped_work in 4 of 6 repeats before the leader had a credit), and,
 * its stop sent first, does no user work after it; what its own
 * schedstat says it used since its baseline is all credited (until this
 * session up to 1 us a thread): a slice it was still running when the
 * baselines were read, booked only at its stop, is CPU from before the
 * done line (an honest single-threaded kernel was escaped_work 6 of 6 in
 * a burst of VM steal under make test's load; host_clock.c
 * threads_credit).  Where /proc has no per-thread
 * schedstat the credit is the flat one, for at most HOST_LATE_CPU_THREADS
 * threads, and the record says which (timing.method.after_done.credit).  HOST_LATE_FRAC or more of the timed
 * samples past the bound, and at least HOST_LATE_MIN of them (since red team 19's session; min(HOST_LATE_MIN, n/2 + 1) before, or all of
 * fewer), is escaped_work (host_clock_late_escaped); exactly half is too
 * since red team 193 (of an even count, the median is the mean of the two
 * middle samples, so a cheat fast in exactly half moved it halfway).  A cheat that moves
 * the median must do so in over half of the samples, so a quarter catches
 * every such cheat (vfork_after: all 300), while the CPU clock's spikes on
 * a loaded machine (interrupts charged to whatever runs) stay below it:
 * with a tenth and no floor, make test at load 7 failed 7 honest runs of
 * 8 to 40 samples on one or two slow stops (sleepy, tiny.yaml, the
 * build-box and lineage specs), and with a tenth and a floor of three,
 * the sanitized pass's tiny paper run (20 samples) once more.
 */
/* The most the leader's unbooked slice is credited (host_clock.c
 * lead_room) where it left its CPU during the sample: it may have slept,
 * which books nothing, and a sleeping leader's room was the whole sample
 * (red team 26's leader_nap).  200 us, not 50: an honest leader that joins
 * its worker thread and then writes the done line was escaped_work in 1 of
 * 6 repeats under load at 50 (red team 19's laststop c100_join: its slice
 * since the join, still unbooked when the parent read it, 75 to 215 us).
 * A leader that sleeps may hide that much kernel-side work a sample. */
#define HOST_LEAD_ROOM_SLEPT_US 200.0
/* Red team 288 row 1: that room let early2m's slept leader zero its next
 * 2 MiB accumulator in a pread after every done line (ok 9 of 9, ~120-140
 * us a sample off the clock).  Now the parent watches the leader's state
 * right after the sample's end until it is seen off its CPU (booked
 * then), at most HOST_LEAD_OFF_POLL_US, and charges what it ran from the
 * end to that look (host_clock.c lead_off_watch); the room is the rule
 * only where the watch's first look came later than HOST_LEAD_OFF_TIGHT_US
 * after the end or the leader was not seen off within the watch. */
#define HOST_LEAD_OFF_POLL_US 1000.0
#define HOST_LEAD_OFF_TIGHT_US 100.0
/* The leader's credit for each other thread it wakes into the group stop
 * (red team 13's stop_cost: about 0.8 to 0.9 us a thread). */
#define HOST_LATE_LEADER_PER_THREAD_US 1.0
#define HOST_LATE_CPU_US 50.0
/* A thread gone by a sample's freeze: the worker's CPU over the sample
 * (exact: stopped at both ends) exceeds what the threads listed then ran
 * in it (schedstat) by more than this, plus HOST_GONE_CPU_REL of it (the
 * two clocks agree to a few microseconds; host_clock.c work_us). */
#define HOST_GONE_CPU_US 10.0
#define HOST_GONE_CPU_REL 0.01
/* ... or a hundredth of the sample's round trip where that is more: work
 * hidden after the done line under it moves the time by at most 1%, and
 * an honest 35 ms kernel (tiny.yaml's slow, under the sanitized pass of
 * make test at load 7, 2026-12-01) booked a median 191 us (at most 643
 * us) after its done lines in one run, 10 of 15 samples past 50 us: a
 * burst of VM steal charged to whatever ran (the 5 runs before and 36
 * after it at load 7: 0.0 us) */
#define HOST_LATE_REL 0.01
#define HOST_LATE_CPU_THREAD_US 5.0
#define HOST_LATE_CPU_THREADS 15
/* A half since red team 19's session (a quarter before): the CPU read
 * after the stops lags a thread that was still on its CPU, so on a VM
 * whose vCPUs the host takes away (steal) an honest kernel's compute shows
 * after its done line in bursts: 17 to 26 of ~93 samples for an honest
 * softmax and an OpenMP one (escaped_work once).  A cheat that moves the
 * median still needs over half its samples late, work late in every
 * sample shows in every sample, and the exact CPU floor
 * (host_clock_cpu_floor) charges what ran after the done line on the
 * CPUs the worker has. */
#define HOST_LATE_FRAC 0.5
/* 5, not 3: short honest runs (10 to 20 samples) had 3 or 4 samples past
 * the bound under make test's load (evo, t0122; tiny, t0006), and a cheat
 * that moves the median needs over half its samples late.  Runs of fewer
 * than 2 x HOST_LATE_MIN timing samples once needed only over half of
 * them; see host_clock_late_escaped */
#define HOST_LATE_MIN 5
/* A busy period (the host's load average above its CPUs at the start or
 * the end of the samples) once made the fraction a half, for honest short
 * runs under make test's load (3 of 10 past the bound in t0006, 5 of 10 in
 * t0065's zombie_lead), when the CPU was read at the done line and a
 * running thread's last slice, booked late, showed after it.  A kernel's
 * own threads raise the load (red team 18: 1000 threads woken by every
 * stop, load 1.2 to 145, the half for itself and the other variants), and
 * the CPU is now read after the stops are sent: honest kernels with 0 to
 * 32 idle threads at load 5 had 0 or 1 of about 75 samples past the bound.
 * The load is recorded (after_done.load_busy), the fraction is one. */
/* 1 when n_late of n timed samples past the bound are escaped work (the
 * rule above), else 0. */
int host_clock_late_escaped(size_t n_late, size_t n);
/* A timed sample's bound on the CPU its worker used after the done line:
 * HOST_LATE_CPU_US, or HOST_LATE_REL of the sample's round trip
 * (sample_us) where that is more. */
double host_clock_late_bound(double sample_us);
/*
 * The CPUs a host worker may run on: the parent's own affinity (the
 * worker inherits it, and a pinned runner's box refuses sched_setaffinity:
 * sandbox.h sandbox_runner_pinned), at least 1.
 */
int host_clock_cpus(void);
/*
 * The CPUs the floor divides by for one sample: cpus (host_clock_cpus),
 * or fewer where every thread of the worker's at its stop (after[0..na),
 * as host_clock_threads lists them) may run on fewer of the parent's
 * CPUs, with each thread of the go's listing (before[0..nb)) gone by the
 * stop counted by its CPUs at the go (before_sets[i], read while the
 * worker was stopped; NULL: not read, and then one gone thread gives
 * cpus).  A worker that widens a thread's set between its go and its
 * stop only gets today's divisor.  set (NULL: not wanted) gets those CPUs:
 * the union of the threads' sets within the parent's, or the parent's
 * own where the count is cpus.
 */
int host_clock_worker_cpus(const int *before, const cpu_set_t *before_sets, int nb, const int *after, int na,
			   int cpus, cpu_set_t *set);
/*
 * The least time (us) a sample can have taken that used cpu_us of CPU
 * from its go to its stop on at most cpus CPUs, allow_us of it being the
 * stop's own cost: (cpu_us - allow_us) / cpus, or NAN when cpu_us or
 * allow_us is not finite or cpus < 1.  The CPU clock is exact there (the
 * worker stopped at both ends), unlike at the done line, where a running
 * thread's last slice is not yet booked: so an honest sample never
 * exceeds its wall time by this floor (C <= cpus x wall + its stop), and
 * a sample that does did work after its done line, which the host clock
 * charges to its time.
 */
double host_clock_cpu_floor(double cpu_us, double allow_us, int cpus);
/*
 * The floor where a thread ran in the sample that neither listing saw (made
 * and gone within it: its CPUs are unknown) and the listed threads' CPUs
 * are fewer than the runner's: the work may have run outside them, but
 * only as far as anyone ran there, and only as far as the listed threads
 * did not account for it.  outside_us: what every task ran on the
 * runner's CPUs outside the listed threads' (percpu_ran_us), less the
 * parent's own CPU in the sample (parent_us, which may have run there),
 * and at most unlisted_us, the worker's CPU its listed threads did not
 * run (red team 263: others' load on the other CPU is not the gone
 * thread's work); the floor is the larger of the work over every CPU and the work less
 * that over the listed threads' own_cpus.  NAN where outside_us does not
 * read: the caller keeps the listed threads' floor (red team 193's
 * narrowing stays charged).  Red team 260's pinsplit: a caller pinned to
 * CPU 0 and a helper a launch pinned to CPU 1, made and joined, had 4 to
 * 25 of 40 samples charged as if on one CPU, 18 of 18 runs.
 */
double host_clock_cpu_floor_gone(double cpu_us, double allow_us, int own_cpus, int cpus, double outside_us,
				 double parent_us, double unlisted_us);
/*
 * What a sample of wall_us took of the kernel's own doing: the wall time
 * less wait_us, what waited on a run queue, counted only up to wall_us -
 * cpu_us.  For the stress gate's counts (busy_us, job.c sample_work)
 * wait_us is the leader's and cpu_us the worker's whole CPU (the time its
 * threads did not run: red team 203's 48 spinning threads manufactured
 * waits that bought back a 30x nap where every thread's counted); for
 * rules 4b/4c's work (work_us) every thread's and the parent's wait
 * (host_clock_waited) down to cpu_us, the least time the sample's CPU
 * needs on the worker's CPUs.  A preempted sample's wait was another process's doing; a
 * sleep, a wait on a child or on a pipe, is the kernel's (red team 150's
 * nap slept 22x its sum on every stress launch, and by the CPU alone no
 * sample of it was over).  Its own threads crowding one another off the
 * CPUs fill them: their CPU closes the gap, and nothing is taken off.
 * NAN where any input is not finite.
 */
double host_clock_busy(double wall_us, double cpu_us, double wait_us);
/*
 * What a sample waited on a run queue: the sum of the leader's (lead_us:
 * from its go to its done line, at most the time it was off its CPU), the
 * other threads' (threads_us: each at most its own time off its CPU; red
 * team 202's loop on the CPU the baseline's helper was held to) and the
 * parent's own (parent_us: its clock runs until it reads the done line;
 * red team 197).  Waits side by side are counted twice here;
 * host_clock_busy's cap (the time the worker's CPU did not fill its CPUs)
 * bounds the sum.  Unread inputs (NAN) are left out; NAN when none is read.
 */
double host_clock_waited(double lead_us, double threads_us, double parent_us);
/*
 * The run-queue waits (waited_us, host_clock_waited) a sample's work may
 * take off: at most what other tasks ran on the CPUs its threads could use
 * in the sample, ran_us (percpu.h: every task's run time on those CPUs
 * from the go to the freeze) less the worker's own CPU (worker_us) and the
 * parent process's (parent_us).  A wait behind the kernel's own threads is
 * its work (red team 220: the launcher and a helper narrowed to one CPU
 * for the heavy launch, each waiting behind the other while the other CPU
 * idled, read half their wall: base4's exact work `faster` 1.65-1.76x in
 * 6 of 6 batches); one behind someone else's load is not, and someone
 * else's load ran on those CPUs for at least as long as any one thread
 * waited behind it.  waited_us itself where ran_us or worker_us is
 * unread (no per-CPU run time, as on cgroup v2 without schedstats: this
 * bound is the baseline's side of a faster verdict, where a wait taken
 * off too many only holds a verdict back, and none taken off would let
 * load aimed at the baseline through: red teams 197, 202); 0 where
 * waited_us is NAN; never negative.
 */
double host_clock_wait_credit(double waited_us, double ran_us, double worker_us, double parent_us);
/* Copy bytes from src to dst by 64 KiB chunks in the order `order` draws
 * (a start and a stride coprime with the chunk count: each chunk once),
 * the copy of a sample's outputs at its done line (host_clock.c). */
void host_clock_snap_copy(unsigned char *dst, const unsigned char *src, size_t bytes, unsigned long long order);
/*
 * The floor's allowance for each thread other than the leader, on top of
 * HOST_LATE_CPU_US and the measured credit: a thread asleep at the done
 * line still wakes at SIGCONT and again to take its stop, and the credit
 * sees only what it used after its baseline (read after the stops are
 * sent).  Red team 19: honest kernels with 100 and 300 idle threads were
 * raised to the floor in up to 27 of ~75 samples, by up to 1.5 ms (about
 * 5 us a thread past the credit on one CPU, 10 on two, at load 3 to 13).
 * Under make test's load (the sanitized pass, one CPU) 100 idle threads
 * still overran 20 us a thread (2 samples, 2.5 ms), so it is 100 us, for
 * the threads that existed at the sample's go only: the first stops reach
 * those at once (the process SIGSTOP and a tgkill each), so the room is
 * their stop's latency, not work; a thread made during the sample gets
 * none (it runs until the listing finds it).
 */
#define HOST_FLOOR_THREAD_US 100.0
int host_clock_drive(struct proto *p, void *ctx, int reply_fd);
/* struct proto's calibrate for the host backend: the handshake's null
 * rounds at the worker's calibrate_ready, before its problem or kernel
 * loads, into hc->handshake_us; then HOST_END lets the worker go on. */
int host_clock_calibrate(struct proto *p, void *ctx, int reply_fd);
/* struct proto's drive for the host extra shape's worker: HOST_END at its
 * timing_ready, no sample (red team 282: the worker is not told it is
 * untimed before then). */
int host_clock_end(struct proto *p, void *ctx, int reply_fd);

/* Stop hc->pid and wait until every thread is stopped and its run time is
 * final (noted in hc->frozen_ns); 0, or -1 when it did not stop within
 * 2 s or by hc->deadline (when > 0; then hc->timed_out is set).
 * host_clock_drive's, declared for its unit test. */
int host_clock_freeze(struct host_clock *hc);
/* Every thread of pid, however many: their count, or -1 when /proc does
 * not say; their ids, sorted, in *ids (grown with realloc, *cap its room:
 * start both at NULL and 0; the caller frees *ids). */
int host_clock_threads(int pid, int **ids, size_t *cap);
/* 1 when worker pid has more threads (*n, from /proc/PID/status) than
 * the runner follows (*max: 4 a CPU online, at least 512; red team 211),
 * whose task list is then never read (host_clock_threads answers -1). */
int host_clock_too_many_threads(int pid, int *n, int *max);
/* How many of after's na ids are not among before's nb (both sorted, as
 * host_clock_threads gives them): the threads a sample started. */
int host_clock_new_threads(const int *before, int nb, const int *after, int na);
/* The same, their ids written to out (room for na; NULL: the count alone). */
int host_clock_new_thread_ids(const int *before, int nb, const int *after, int na, int *out);
/* What became of thread id, which a timed sample started, by a later
 * freeze: HOST_FRESH_GONE (not among now's nn, sorted, or its CPU time
 * ns1 did not read: exiting), HOST_FRESH_WORKED (ran more than min_ns
 * since: ns0 is its CPU time, schedstat ns, at the last freeze, ns1 now)
 * or HOST_FRESH_ASLEEP (still watched).  What the watch finds is recorded
 * (escapes.host_threads), never an outcome on the host (job.c). */
enum { HOST_FRESH_GONE, HOST_FRESH_ASLEEP, HOST_FRESH_WORKED };
int host_clock_fresh_state(int id, unsigned long long ns0, unsigned long long ns1, const int *now, int nn,
			   unsigned long long min_ns);
/*
 * The threads timed samples started and left alive, each with its CPU
 * time at the last freeze and its sample's index, watched at every later
 * freeze: one that ran more than HOST_FRESH_THREAD_RAN_NS between two
 * freezes (each interval on its own: the few microseconds each freeze's
 * stop costs an idle thread add up over many, red team 7's thread_crowd)
 * counts for its sample's threads_delta and leaves; one gone leaves; one
 * asleep through HOST_FRESH_WATCH_SAMPLES later samples leaves (a kernel
 * that leaves an idle thread per sample costs the parent a bounded number
 * of schedstat reads per freeze).  At most HOST_FRESH_WATCH_MAX are
 * watched: one that cannot be watched counts as working (decoys made to
 * push a working thread out of the watch make their samples count).
 * host_watch_judge: ns_now[i] is tid[i]'s CPU now (0: it did not read,
 * gone), now the sorted thread list, now_sample the index of the
 * sample just frozen.  host_watch_add: ids' n threads with their CPU ns,
 * started by sample origin.  samples' threads_delta is what is counted.
 * The arrays are host_watch_free's.
 */
struct host_watch {
	int *tid;
	unsigned long long *ns;
	size_t *origin;
	size_t n, cap;
};
struct proto_sample;
void host_watch_judge(struct host_watch *w, const unsigned long long *ns_now, const int *now, int nn,
		      size_t now_sample, struct proto_sample *samples);
void host_watch_add(struct host_watch *w, const int *ids, const unsigned long long *ns, int n, size_t origin,
		    struct proto_sample *samples);
void host_watch_free(struct host_watch *w);
#define HOST_FRESH_WATCH_MAX 256
#define HOST_FRESH_WATCH_SAMPLES 64
/* What a thread the sample started may run, between its sample's freeze
 * and the next one's, before it counts as working on (a detached helper
 * waking from its keep-alive timeout to exit: red team 36's lazy_pool). */
#define HOST_FRESH_THREAD_RAN_NS (50ull * 1000)

/* run.c: the stages every executor shares, up to the plan (probe: check
 * the backend can run here; a Slurm submit or gather host need not).
 * 0, or -1 after error() with *err set.  run_close releases it either way. */
int run_open(struct run_ctx *c, const struct spec *s, const struct run_options *o, int probe,
	     enum run_error *err);
void run_close(struct run_ctx *c);

/* plan.c: plan_make is plan_problem then plan_batch.  A runner that
 * plans many batches of one spec's problem (evident eval, run/eval.h)
 * calls plan_problem once (the plug-in, tolerance, FLOPs, floor, the
 * problem's sources) and plan_batch per batch (its id, seed, variants and
 * jobs, from c->s), with plan_batch_release between: it frees what
 * plan_batch made and keeps the problem.  plan_release frees both. */
int plan_make(struct run_ctx *c);
/* The peak of the machine the jobs run on, into c->plan.peak: the GPU's
 * from the table, or one core's, measured once per machine (cpu_peak.h).
 * Only a process that executes jobs calls it (a gatherer takes the runs'). */
void plan_peak(struct run_ctx *c);
int plan_problem(struct run_ctx *c);
/*
 * How many input sets the timed samples rotate through: cold, enough of
 * set_bytes each to exceed rotation_bytes (2 to 64); hot, 2; and never
 * fewer than `launches`, the launches of one sample that each read a set
 * of their own (graph mode's batch on the GPU, else 1).
 */
int plan_rotation_sets(int cold, int launches, double rotation_bytes, double set_bytes);
/* The device buffers a CUDA worker holds for that rotation: the live
 * sets, each launch's outputs, a pair of base sets per input
 * distribution (the plan refuses more than the harness's
 * EVC_MAX_BUFFERS, and more sets than EVC_MAX_SETS). */
long long plan_device_buffers(int n_sets, int launches, int n_inputs, int n_outputs, int n_dists);
/*
 * The order of a batch's jobs, variant indices into order[n_variants x
 * repeats] (the caller's), in blocks of n_variants jobs, block r run on
 * pool slot r % slots (slots < 1 is one): randomised blocks, block r a
 * permutation of the variants drawn from order_seed, begun by the variant
 * that ended block r - slots (the block before it on its slot), so that
 * each variant follows each variant, itself included, about equally
 * often (red team 123: free blocks put a job after another variant's 3
 * times in 4 with 2 variants).  With 2 variants that chaining left one
 * order (ABBA... or BAAB..., red team 126), so there a slot's blocks go in
 * pairs (r, r + slots): four jobs, each variant twice, the first the
 * variant that ended the slot's block before (random for the slot's
 * first), the other three shuffled (xxyy, xyxy or xyyx: the same balance
 * on average); a slot's odd last block is chained as above.  A block then
 * holds a variant twice or not at all: plan_order_repeats says whose
 * repeat each job is.
 */
void plan_order(uint64_t order_seed, size_t n_variants, int repeats, int slots, size_t *order);
/* The repeat of each job of order (plan_order's) into repeat_of[n_variants
 * x repeats]: on each slot, a variant's first job is repeat s (the slot),
 * its next s + slots, and so on, so that repeat r still runs on slot
 * r % slots (pool.c) and every variant runs each repeat once; with 3
 * variants or more, block r's jobs are repeat r. */
void plan_order_repeats(size_t n_variants, int repeats, int slots, const size_t *order, int *repeat_of);
int plan_batch(struct run_ctx *c);
void plan_batch_release(struct plan *p);
void plan_release(struct plan *p);
void plan_prebuild(struct run_ctx *c);
/* run.c: a spec variant's name that an eval candidate of other code holds
 * in the store (its kernel file, parameters) or a session holds now is
 * refused (error(), -1); else 0 with the names claimed in *claims (the
 * caller drops them once its batch is recorded).  run_headers_held: the
 * same after the builds, by every source a variant's build read. */
struct store_claims;
int run_names_held(struct run_ctx *c, struct store_claims **claims);
int run_headers_held(struct run_ctx *c);
/* Variant vi's code as built, for a begun marker: {binary_sha256,
 * echo_neutral_sha256, load_sha256, libs}; NULL when it did not build. */
json_t *run_variant_code(struct run_ctx *c, size_t vi);
/* Build variant vi if not yet (cache); 0, or -1 when it could not be attempted. */
int plan_build(struct run_ctx *c, size_t vi);

/* executor.c: get every job of the plan executed (job_execute each). */
int executor_local(struct run_ctx *c);
/* Pin a run on one GPU (a plain run, a Slurm task) to it, as a pool slot
 * is: every process it starts sees that GPU alone as device 0 (o->device
 * becomes 0) and its boxes bind only that GPU's node; where the GPU cannot
 * be told, every node, and judge.sandbox.gpu_nodes says why.  Nothing to
 * do without a box or a GPU.  0, or -1 after error(). */
int run_pin_local(struct run_ctx *c, struct run_options *o);

/* pool.c: the pool executor and its slots. */
/* Parse gpus ("all", "N", "0,2,5") against a host of `count` devices
 * (`what`: "GPU" or "CPU", for messages); *devices (caller frees) gets a
 * device index per slot, -1 where a count names no particular device.
 * allow_more: a count may exceed `count` (CPU slots).  Returns the number
 * of slots, or -1 with the reason in why. */
int pool_parse(const char *gpus, int count, const char *what, int allow_more, int **devices, struct strbuf *why);
/* The slot that executes repeat r in a pool of n slots: r % n. */
int pool_slot_of(int repeat, int n);
/* Resolve c->o->gpus into c->pool (0, or -1 after error()). */
int pool_resolve(struct run_ctx *c);
void pool_release(struct pool *p);
/* Build every variant here, then fork a process per slot, each running
 * job_execute on its repeats; gather their results.  0, or -1 when a
 * slot could not record (the store failed). */
int executor_pool(struct run_ctx *c);

/* job.c: one job start to record.  0, or -1 when its record could not be
 * written (the store failed). */
int job_execute(struct run_ctx *c, struct plan_job *pj);
/* A record that says job pj was never run to the end: outcome aborted,
 * reason why (a Slurm task killed before its turn came); no build, no
 * evidence.  0, or -1 when the store failed. */
int job_record_aborted(struct run_ctx *c, struct plan_job *pj, const char *why);

/* gather.c: the batch record from the batch's runs; commits it (commit
 * = 1; 0: a Slurm batch with runs missing, shown but not committed) and
 * fills *b (released by the caller) and the totals. */
int gather_batch(struct run_ctx *c, struct batch_record *b, struct run_totals *t, int commit);
/* The variant counts of t (variants, ok, failed, expected failures,
 * unexpected) from b's rows, by outcome_as_expected: for a batch just
 * gathered and for one gathered before (evident wait, slurm.c).  The
 * other fields of t are left as they are. */
void gather_count(const struct batch_record *b, struct run_totals *t);

/*
 * gather.c, for its tests: the note of a comparison that spans a busy
 * period, from the load its runs recorded (load.before and load.after:
 * loadavg_1m and cpus): the highest 1-minute load average above the CPU
 * count, relative to it, among the runs of both sides, naming the variant,
 * repeat and moment (start or end); NULL when none was above.  var_name
 * NULL: the note of a lone variant (base[] its runs, nv 0).  Caller frees.
 */
char *gather_busy_note(const struct run_record *const *base, size_t nb, const struct run_record *const *var,
		       size_t nv, const char *base_name, const char *var_name, const char *verdict);

/*
 * gather.c, for its tests: the note of a variant whose GPU had other
 * processes on it (gpu_state.before/after compute_processes, taken with
 * no worker of this run alive, so every process but the runner itself is
 * someone else's): their kernels share the GPU with the timed samples,
 * so a time, and a late or escaped-work count, may be theirs.  Names the
 * first such repeat, the moment and the processes; NULL when none had
 * any.  An interrupted (aborted) run is left out: its worker may not be
 * gone yet when its "after" is taken.  Caller frees.
 */
char *gather_gpu_shared_note(const struct run_record *const *runs, size_t n, const char *variant);
/* What identifies a variant's program for gather_same_code_note (strings
 * borrowed; NULL where not recorded). */
struct code_sig {
	const char *binary, *load, *kernel; /* binary_sha256, load_sha256, kernel file */
	const char *file;                   /* file_sha256 (a CUDA object's whole file) */
};

/*
 * The batch note for a faster or slower verdict between two variants of
 * one program (x and the baseline b: the same binary, and the same loaded
 * image and object file where both recorded them, whatever the kernel
 * files' names: red team 117's byte-identical copy is one file since
 * objects are linked stripped): the verdict is an A/A pair's false
 * positive (red team 110), kept for make bench-aa and named.  Never by
 * the loaded image or the echo-neutral object alone: a kernel can read
 * its own file and its echo (red team 180's nametag and bidtag got the
 * note with a 5-7x gap the kernels chose).
 * NULL when x and b differ or the verdict is neither; else a string the
 * caller frees.
 */
char *gather_same_code_note(const char *variant, const char *verdict, const char *base, const struct code_sig *x,
			    const struct code_sig *b);

/*
 * 1 when a row and its baseline were timed by one clock (each row's
 * repeats by one); else 0, after appending to notes (a JSON array) a note
 * that names the variant, the baseline and the two clocks: the batch does
 * not compare them (gather.c, red team 25's follow-up: a worker whose
 * CUPTI would not start is timed on events under clock: auto).
 */
int gather_same_clock(const struct batch_row *base, const struct batch_row *row, json_t *notes);
/*
 * What a stress distribution costs a variant over its timing median
 * (gather.c gather_dist_speed_notes): ratio[i] its median over the timing
 * median in run i, n[i] its samples there; the larger of the median run's
 * ratio (into *median where not NULL) and the mean over the runs of 3
 * samples or more weighted by their samples, so that a cost paid in a
 * minority of processes counts (red team 146) and one preempted sample
 * does not.  NAN for m 0.
 */
double gather_stress_cost(const double *ratio, const long long *n, size_t m, double *median);
/* The one-sided Fisher p that a stress distribution's ks[l] of ns samples
 * over 3 << l times the run's timing median outnumber the timing samples'
 * kt[l] of nt by chance alone, least over the REC_OVER_LEVELS levels
 * times their number (Bonferroni; at most 1), the level it came from
 * into *level where not NULL; a level whose counts cannot be is skipped. */
double gather_over_p(const long long *ks, long long ns, const long long *kt, long long nt, int *level);
/* The timing samples over 3 << l times their run's timing median
 * (rec_dist n_over) of a batch's ok runs, every variant's: the machine's
 * rate, which one variant's own padding does not move much (red team 150's
 * pad15: 15% of its timing launches 20x, and its stress minority read as
 * chance against them).  counted 0: a run did not record them. */
struct over_pool {
	long long k[REC_OVER_LEVELS], n;
	int counted;
};
/* Add runs' (n_runs) ok timing distributions to pool (zeroed, counted 1, first). */
void gather_over_pool_add(struct over_pool *pool, const struct run_record *runs, size_t n_runs);
/*
 * The notes on variant's speed by distribution from its runs[0..n_runs)
 * (their ok ones' timing.by_dist), appended to notes (a JSON array): a
 * stress distribution faster than 0.67x of the timing median (a speed no
 * timing input has) or slower than BATCH_STRESS_SLOW_RATIO by
 * gather_stress_cost, or by the least mean its samples over 3x..48x
 * allow (red team 150's every5d: slow on every 5th stress launch, under
 * half of each run's samples), where its samples over that outnumber the
 * timing ones' beyond chance (gather_over_p).  Returns the largest
 * standing slow ratio (the row's stress_slow), else 0.  batch: the
 * batch's timing over counts (gather_over_pool_add), or NULL; the Fisher
 * test is against the variant's own timing samples, or the batch's where
 * those are over less often in all.
 */
double gather_dist_speed_notes(const char *variant, const struct run_record *runs, size_t n_runs,
			       const struct over_pool *batch, json_t *notes);

/*
 * plan.c: -1 (with the error printed) when the spec asks graph mode
 * (timing.batch > 1 on a GPU backend) of a variant judged sealed: every
 * launch's inputs exist before the first runs, so one launch could do the
 * others' work (red team 4, rt4_graph_batch).  Such a variant must be
 * trust: host, or batch 1.
 */
int plan_graph_trust(const struct spec *s, const struct backend *be);

/* summary.c */
void summary_print(const struct run_ctx *c, const struct batch_record *b);

/* slurm.c, for its tests: one line of `squeue -o '%K %A %T %r %N'` or of
 * `sacct -P -o JobID,State,NodeList` per task; *out (caller frees). */
struct slurm_task_info {
	int task;
	char job[32], state[32], reason[128], node[128];
};
int slurm_parse_squeue(const char *text, struct slurm_task_info **out);
int slurm_parse_sacct(const char *text, struct slurm_task_info **out);
/* "JOB 8 ON node CANCELLED AT T DUE TO TIME LIMIT" from the last kill
 * line slurmstepd wrote into a task's stderr text, or NULL (malloc'd). */
char *slurm_kill_line(const char *text);
/* s quoted for sh: 'it'\''s' (malloc'd). */
char *slurm_sh_quote(const char *s);

/* progress (run.c) */
void progress_show(struct progress *p, const char *phase);
void progress_clear(struct progress *p);

#endif /* EVIDENT_RUN_CTX_H */
