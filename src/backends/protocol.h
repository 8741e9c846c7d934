/*
 * protocol.h - the worker protocol, both ends, in one place.
 *
 * The worker is the process that loads the kernel under test, so it is the
 * adversary's process: anything it says may be forged.  It talks to the
 * parent on two channels opened before the kernel is loaded (runcmd's
 * on_chan): it writes on fd 3 and reads the parent's answers on fd 4.
 * Its stdout and stderr are logs, never evidence.  The parent checks every
 * message against one strict sequence and turns the first deviation into
 * the outcome `protocol_violation`, with what was wrong:
 *
 *   hello {protocol, pid, box}          then the worker waits for one byte,
 *                                       'g', on fd 4: the parent writes it
 *                                       once it has judged the box the
 *                                       hello describes (job.c on_chan), so
 *                                       no kernel or problem code loads in
 *                                       a box the parent refused
 *   device {info}                       what it runs on
 *   kernel {name, compiled_params, threads}
 *   output {phase: "seed", index: i, bytes: N} + N raw bytes,
 *                                       for i = 0 .. seeds-1 in order
 *   (timed jobs)
 *   warmup {samples, ms, ...}           at most once; warm-up samples count
 *                                       in the sample index, so timed
 *                                       sample k is global sample
 *                                       samples + k (its input set and
 *                                       scramble follow the global index)
 *   (or, host backend: timing_ready {bytes}, after which the parent drives
 *   the samples itself, see worker.h's HOST_*, then fini; a timed host
 *   job's worker first sends calibrate_ready, right after the parent's go
 *   and before device: the parent's null rounds, HOST_NULL until HOST_END,
 *   measure the handshake before any object of the problem's or the
 *   kernel's is loaded)
 *   sample {i, set, us, ...}            i = 0, 1, 2 ... ; each followed by
 *   output {phase: "timed", index: i, bytes: N} + N raw bytes: every timed
 *                                       sample's outputs; after the frame
 *                                       the parent writes one byte, 'g',
 *                                       on fd 4, and the worker goes on
 *   timing {n, method}                  exactly once, n = samples sent
 *   (phase "plan", the sealed planner)
 *   plan_data {bytes: N} + N raw bytes  at most once, 1 <= N <= 16 MiB: the
 *                                       contents the plan's runs point into
 *   plan {plan}                         once; its line carries no contents
 *                                       of its own
 *   fini                                after the kernel's fini() returned
 *   done                                last; then end of file
 *   failure {outcome, error, reason, phase} may replace the rest at any point
 *
 * Anything else - a line that is not one JSON object, an unknown message,
 * one out of order or repeated, an output of the wrong size or for a
 * sample not asked for, a message after done - is a violation.  The
 * decision which samples are checked is the parent's, made after the
 * sample's outputs arrived, with its own random numbers, and never told
 * to the worker: every sample costs the worker the same download and the
 * same transfer, and the parent keeps every frame in the same reserved,
 * already touched room, whether it is checked or not (red team 5,
 * rt5_check_count: when only checked samples were downloaded, device code
 * timed the gaps between launches, counted the checks and skipped the
 * samples it knew would not be).  The kept frames reach the capture file
 * once the samples end.
 */
#ifndef EVIDENT_PROTOCOL_H
#define EVIDENT_PROTOCOL_H

#include <jansson.h>
#include <stddef.h>
#include <stdint.h>

#include "base/util.h"

#define PROTOCOL_VERSION 6
#define PROTO_OUT_FD 3
#define PROTO_IN_FD 4

/* ---- the worker's end ------------------------------------------------- */

/* Check that fds 3 and 4 are the parent's channels; 0 or -1 (then the
 * worker was not started by evident and prints why on stderr). */
int proto_w_open(void);
/* Send one message (steals msg; adds "msg": name). */
/* The longest message line the parent takes (a longer one is a protocol
 * violation): a worker that would send more refuses with a reason
 * instead (a sealed plan at every limit of its contents is longer: red
 * team 36's honest bigplan) */
#define PROTO_LINE_MAX (1u << 20)
/* The bytes of msg's line as proto_w_send would write it, newline included
 * (0: it cannot be written); msg is the caller's still. */
size_t proto_w_line_bytes(const char *name, json_t *msg);
void proto_w_send(const char *name, json_t *msg);
/* Send an output frame: header then the bytes. */
void proto_w_output(const char *phase, long long index, const void *data, size_t bytes);
/*
 * The planner's plan contents (a sealed plan's scratch and module global
 * runs, evident_cuda.h EVC_PLAN_MAX_CONTENTS): a "plan_data" header, then
 * the bytes, once, just before the "plan" line whose runs point into them.
 * The parent puts them in that plan as "contents" (lower-case hex): the
 * record's plan object and the worker's plan memfd then hold them.
 */
#define PROTO_PLAN_DATA_MAX ((size_t)16 << 20) /* = EVC_PLAN_MAX_CONTENTS (cuda_worker.c asserts it) */
void proto_w_plan_data(const void *data, size_t bytes);
void proto_w_failure(const char *outcome, const char *error_name, const char *reason,
		     const char *phase);
/* Wait for the parent's go after a timed sample's output: 0, or -1 when
 * the parent is gone or answered anything else. */
int proto_w_wait_go(void);

/* ---- the parent's end -------------------------------------------------- */

/* What one timed sample reported. */
struct proto_sample {
	double us;          /* the clock the record prefers (kernel clock, else events, else host) */
	double event_us;    /* CUDA events (NAN on host) */
	double kernel_us;   /* CUPTI (NAN when off) */
	double host_us;     /* host time of the launch() call */
	int set;
	unsigned long long key;  /* fresh CUDA inputs: the sample's mixing key (0: none) */
	int other_stream, late, threads_delta, block_timeout, throttled;
	double drain_us;    /* the device-wide synchronise after the stop event (host wall), or NAN */
	double ruler_us, ruler_gt_us; /* CUDA under CUPTI: the ruler's record and its %globaltimer
				       * interval (evident_cuda.h), or NAN */
	int incomplete;     /* CUDA: the sample's device records were not all attributed */
	double clock_mhz;
	int dist;           /* its inputs' distribution (scramble.h evs_sample_dist: CUDA from
			     * the key, the host clock's its own draw); -1 unknown */
	double cpu_us;      /* the host clock: the CPU the worker used from the go to its stop,
			     * every thread's (a preempted sample's is its work, not its wait);
			     * NAN elsewhere */
	double busy_us;     /* the host clock, for the stress gate: the sample's time less what its
			     * leader waited on a run queue for another process (host_clock_busy:
			     * a sleep counts, a preemption does not, its own threads' crowding
			     * does); NAN elsewhere or where schedstat is unread */
	double work_us;     /* the host clock: rules 4b/4c's work, the time less every thread's
			     * and the parent's run-queue wait down to the least time its CPU
			     * needs on the worker's CPUs, or that least time where a thread
			     * that ran in the sample was gone by its freeze (its wait cannot
			     * be read); NAN elsewhere */
	double work_hi_us;  /* the host clock: rules 4b/4c's work at its most, the sample's time
			     * itself (no wait taken off: a kernel's threads can make their own,
			     * red teams 219-221); NAN elsewhere */
};

/* An output the worker shipped, copied into the parent's capture file
 * (seed outputs as they arrive; kept timed outputs once the samples end). */
struct proto_capture {
	int timed;          /* 0: seed launch, 1: timed sample */
	long long index;    /* seed index or timed sample index */
	long long global;   /* timed: the global sample index (warm-up first): the scramble's i */
	int set;            /* timed: the rotation set of its launch 0 (the parent's schedule) */
	int batch;          /* launches in the frame (graph mode: batch, else 1) */
	int fresh;          /* timed, parent-timed host: inputs drawn for this sample alone */
	unsigned long long seed;  /* fresh: the inputs' seed (the parent's, drawn at the sample) */
	int dist;           /* fresh: the inputs' distribution (index in the problem's list) */
	unsigned long long scramble; /* fresh: the key of the bits the parent wrote into the outputs
				      * before the go (drawn at the sample, never in the worker's
				      * job: red team 170); 0: the job's scramble_seed */
	unsigned long long mix_key; /* timed CUDA: the sample's key; its inputs mix the pair of base
				     * sets of its distribution (scramble.h evs_mix_bit,
				     * evs_sample_dist); 0: the set as it is */
	long long offset;   /* in the capture file */
	size_t bytes;
};

/* Chooses whether the parent wants sample i shipped (last: the worker
 * says it stops after this one). */
typedef int (*proto_keep_fn)(void *ctx, long long i, int last);
/* After the samples: which of the n skipped timed samples still held
 * (their indices in idx, in order) the parent checks after all; sets
 * pick[k] to 1 for those.  (proto_late_checks) */
typedef void (*proto_late_fn)(void *ctx, const long long *idx, size_t n, char *pick);
/* A skipped timed sample i about to leave the spill ring (a new frame
 * takes its slot; ring: the ring's slots): 1 when the parent checks it
 * after all (it moves into the room).  (proto_stash_slot) */
typedef int (*proto_evict_fn)(void *ctx, long long i, size_t ring);

struct proto {
	/* set by the caller */
	const char *phase;          /* the job's phase */
	int seeds;                  /* seed outputs expected */
	int timed;                  /* a timed job */
	size_t output_bytes;        /* bytes of one launch's outputs */
	int batch;                  /* launches per timed sample (frames of timed outputs hold batch x) */
	int capture_fd;             /* where shipped outputs go (parent-owned file) */
	int n_sets, first_set;      /* the rotation the parent scheduled */
	long long max_samples;      /* > 0: a fixed count, and a sample past it is a violation */
	size_t room_slots;          /* timed frames: the kept room reserved at warmup (proto_room_slots) */
	int fresh_keys;             /* 1: every timed sample must carry a key of its own (CUDA) */
	int n_dists;                /* fresh_keys: the problem's distributions, and */
	unsigned dist_mask;         /* its timing ones: a sample's dist is drawn from its key */
	proto_keep_fn keep;
	proto_late_fn late;         /* optional: checks owed when the samples ended early */
	proto_evict_fn evict;       /* optional: a skipped frame the ring is about to lose */
	void *keep_ctx;
	void (*progress)(void *ctx, const char *what); /* optional; gets keep_ctx */
	/* Parent-timed samples (the host backend): called on timing_ready,
	 * drives every sample itself (run/host_clock.c) and fills samples,
	 * caps, warmup, method and timing_n.  0: go on to fini; -1: stop (the
	 * violation, failure or the caller's own flag says why).  NULL:
	 * timing_ready is a violation.  With timed 0 (the host extra shape's
	 * worker, which must not be told from a timed one: red team 282),
	 * one timing_ready after the seeds is answered by drive too, which
	 * ends the job with no sample (host_clock_end). */
	int (*drive)(struct proto *p, void *ctx, int reply_fd);
	int untimed_ready;          /* 1: that untimed timing_ready came */
	void *drive_ctx;
	/* With drive: called on calibrate_ready, the host worker's first
	 * message after its go, before it loads the problem or the kernel:
	 * measures the handshake with null rounds (run/host_clock.c
	 * host_clock_calibrate; drive_ctx is its ctx too) and lets the worker
	 * go on.  0 or -1 as drive.  A timing_ready before it, or a second
	 * calibrate_ready, is a violation; NULL: calibrate_ready is one. */
	int (*calibrate)(struct proto *p, void *ctx, int reply_fd);
	int calibrated;             /* 1: calibrate ran */
	/* Non-NULL: the worker runs in a box this bubblewrap was asked to make;
	 * its hello's "box" (worker.h worker_box_seen) must show it
	 * (sandbox_seen_ok), else box_refused says why and nothing more is
	 * read (red team 131). */
	const char *box_tool;
	/* with box_tool: what the box's program answers the probes
	 * (base/sandbox.h sandbox_probe_expect, SANDBOX_PROBES of them), which
	 * the hello's "probes" must match wherever the program refuses
	 * (sandbox_probes_ok); NULL: not compared */
	const int *box_expect;
	/* with box_tool: the mounts its argv asked for (sandbox_mounts_expect),
	 * which the hello's "mounts" must show (sandbox_box_mounts_ok, judged
	 * by run/job.c after the PID namespace); owned by p (proto_release
	 * frees it), NULL: not compared */
	struct sandbox_mounts *box_mounts;
	json_t *hello_box;          /* the hello's "box", kept for the caller's checks */
	char *box_refused;
	long hello_pid;             /* the pid the worker's hello says it has (getpid() in its box) */

	/* what arrived */
	json_t *device, *kernel, *warmup, *method, *failure;
	/* the worker's backend uses a GPU (job.c): only there can a device be
	 * missing, and only before one opened (outcome.c, no_device) */
	int gpu;
	json_t *plan;               /* phase "plan": the planner's plan (backends/seal.h), unchecked
				     * but for its contents: those of the plan_data frame before
				     * it, as "contents" hex (none in its own line) */
	unsigned char *plan_data;   /* that frame as it arrives (malloc'd; proto_release frees) */
	size_t plan_data_bytes;
	int frame_plan;             /* the frame arriving is the plan_data */
	struct proto_sample *samples;
	size_t n_samples, alloc;
	unsigned long long *keys;   /* fresh_keys: the keys seen (an open addressing set) */
	size_t n_keys, keys_cap;
	struct proto_capture *caps;
	size_t n_caps, caps_cap;
	/* the kept timed outputs, in memory until the samples end (then
	 * proto_store_kept writes them to capture_fd); kept.len is the end of
	 * the last kept frame, the room after it reserved and touched */
	struct strbuf kept;
	size_t kept_stored;         /* bytes of kept already in the capture file */
	long long timing_n;         /* from the timing message, -1 before */
	long long warmup_samples;   /* from the warmup message, 0 before */
	int got_hello, got_fini, got_done;
	char *violation;            /* the first deviation, or NULL */
	char *judge_failed;         /* the judge's own side failed (the problem's fill box: host_clock.c
				     * prepare), or NULL: the run says nothing of the kernel */

	/* parser state */
	int state;
	long long next_seed;
	long long wait_output;      /* sample index whose output must come next, or -1 */
	int wait_last;              /* that sample was the worker's last */
	int got_last;               /* a sample said it was the last: no more may come */
	size_t data_left;           /* bytes of a frame still to come */
	/* 1: nothing after the outputs is read (proto_feed stops at ST_FINI
	 * with no frame arriving): a worker killed at its last output (job.c
	 * no_grace), whose fini() may have written more in the same read */
	int stop_at_fini;
	struct proto_capture frame; /* the frame arriving */
	char *frame_to;             /* a timed frame: stage.buf (else NULL: to capture_fd) */
	/* every timed frame arrives here, the same touched bytes whatever was
	 * drawn before; a kept one is copied into kept's next slot only after
	 * the 'g' (red team 6, rt6_slot_count: frames received straight into
	 * the next free slot landed in fresh memory after a kept sample and in
	 * the slot just written after a skipped one, and the worker's gap two
	 * samples later showed the draw) */
	struct strbuf stage;
	/* where a skipped frame's bytes go (proto_stash_slot): a ring of
	 * touched memory, PROTO_SPILL_BYTES at least, so that a skipped frame
	 * is written to memory as cold as a kept frame's room slot (its pages
	 * may be a ring an earlier proto of this process released: protocol.c
	 * ring_take) */
	char *spill;
	size_t spill_bytes;
	size_t spill_frame, spill_slots, spill_next;
	struct proto_capture *spill_meta; /* what each ring slot holds (bytes 0: nothing) */
	size_t late_checks;         /* checks drawn after the samples ended early (proto_late_checks) */
	int late_done;              /* proto_late_checks ran (once a run) */
	size_t evict_checks;        /* skipped frames checked as the ring let them go (p->evict) */
	long long capture_size;
	struct strbuf line;
};

void proto_init(struct proto *p);
/* A box's report of itself (a worker's hello's or a checker's first
 * line's "box": worker.c worker_box_seen) into *seen; a field absent or
 * not an integer is -1. */
struct sandbox_seen;
void proto_box_seen(json_t *box, struct sandbox_seen *seen);
/* Record the first deviation (later ones are dropped); returns -1. */
int proto_violate(struct proto *p, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/*
 * A worker's failure message as the parent keeps it (a new reference to
 * m, changed in place): every string in it is the kernel's to write
 * (init's err buffer is the reason; a kernel may forge the whole
 * message), so their control bytes become visible \xNN before they reach
 * a record, a summary or a terminal (util.h strbuf_add_printable; every
 * field but the reason kept to one line).  Violations (proto_violate) are
 * kept the same way: they may quote the worker.
 */
json_t *proto_failure_kept(json_t *m);
void proto_release(struct proto *p);
/*
 * Feed bytes from the worker's fd 3; answers go to reply_fd.  Returns 0,
 * or -1 once the protocol is violated (p->violation says how): the caller
 * kills the worker.  Never trusts a length or an index it did not expect.
 */
int proto_feed(struct proto *p, const char *buf, size_t n, int reply_fd);
/*
 * The kept room.  Nothing a worker can see between two samples may depend
 * on the parent's draw, so every timed sample's outputs go to the same
 * place: the CUDA frames to p->stage (then a kept one to the next free slot
 * of p->kept, after the 'g'), the host path's to the next free slot of
 * p->kept, reserved and touched before the
 * samples (red team 2's check_spy watched the disk fill with kept outputs,
 * red team 3's check_spy2 the page-fault counter jump when a kept sample
 * touched new pages).  proto_room_slots: the slots a job's draw needs
 * (fixed count: its checks and the last, never more than its samples;
 * adaptive: a first guess that grows, where a pick tells nothing about
 * the next).  proto_reserve_kept: room for `slots` more frames of
 * frame_bytes, in kept and in caps, every page touched now.
 * proto_kept_slot: the next free slot (growing the room by doubling when
 * a draw picked more than reserved).  proto_keep_slot: that slot becomes
 * sample i's capture.  proto_store_kept: the kept frames not yet stored,
 * written to capture_fd (0, or -1 with a violation).
 */
size_t proto_room_slots(long long samples, long long checks, int strata);
/*
 * proto_stash_slot: where a frame of frame_bytes goes once the draw is
 * known: keep, the room's next free slot (proto_kept_slot; the caller then
 * calls proto_keep_slot); else the next slot of the spill ring.  Both are
 * memory touched before the samples and not written since (the room's
 * slot) or not for PROTO_SPILL_BYTES of frames (the ring), out of the
 * core's own caches either way, so the copy into either costs about the
 * same (red team 6, rt6_slot_count: a skipped frame overwrote the slot
 * just written, in the core's cache, and a kept one went on to fresh
 * memory, and the worker saw the difference two samples later).  16 MiB
 * is eight times a 2 MiB L2; both destinations may sit in a last-level
 * cache larger than that (105 MiB on the CI host), or both not.
 */
#define PROTO_SPILL_BYTES ((size_t)16 << 20)
/*
 * With a fixed count the ring also holds every skipped frame, up to
 * PROTO_SPILL_MAX_BYTES, so that a run that ends before its count (the
 * time cap: a kernel that makes one sample take max_seconds ends the run
 * where it likes, and the checks the draw still owed were never drawn;
 * red team 7, rt7_cap_truncate) can still be checked where it was
 * skipped: proto_late_checks, at the end of the samples, hands the
 * skipped samples the ring still holds to p->late and moves those it
 * picks into the room (no worker is waiting then).  *meta, for a skipped
 * frame, is where its description goes (NULL for a kept one).
 *
 * Where the ring cannot hold every skipped frame (big frames, a long
 * count: 1 GiB / frame slots), a frame that leaves it could never be
 * drawn late, and a kernel that skips work early, then fills the ring
 * with honest samples and ends the run at the cap, leaves the late draw
 * honest frames only (red team 9, ring_outrun).  So a skipped timed frame
 * about to be overwritten goes to p->evict, and into the room when it
 * says so (before the new frame takes its slot; the worker is stopped).
 */
#define PROTO_SPILL_MAX_BYTES ((size_t)1 << 30)
char *proto_stash_slot(struct proto *p, size_t frame_bytes, int keep, struct proto_capture **meta);
void proto_late_checks(struct proto *p);
void proto_reserve_kept(struct proto *p, size_t frame_bytes, size_t slots);
char *proto_kept_slot(struct proto *p, size_t frame_bytes);
struct proto_capture *proto_keep_slot(struct proto *p, size_t frame_bytes);
int proto_store_kept(struct proto *p);
/* After end of file: complete?  Sets a violation for a worker that ended
 * mid-sequence without a failure message only when it exited 0 (a crash
 * is the crash's outcome). */
void proto_finish(struct proto *p, int exited_zero);
/* 1 when a job's outputs are all in, its seeds' and its timed samples'
 * (the protocol is at fini or later): what the worker still has to do is
 * its kernel's fini() and its own teardown (run/job.c job_over). */
int proto_samples_over(const struct proto *p);

#endif /* EVIDENT_PROTOCOL_H */
