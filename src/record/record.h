/*
 * record.h - the run and batch records, evident's product, and their one
 * owner (redis's rdb.c habit): this module is the only code that spells
 * the JSON of a record, in both directions.  Everything else - the run
 * path that writes records, and show, ls, paper, audit and export that
 * read them - works with the typed structs below and the named readers.
 *
 * Formats (README "Reading a record" documents every field):
 *   evident-run/2    one worker execution: one variant, one repeat (the
 *                    outcome, every check, every timing sample by each
 *                    clock, timing health, provenance, cost).  It carries
 *                    no comparison and no verdict: those need the other
 *                    variants and repeats, which the batch has.
 *   evident-batch/2  one `evident run`: per variant the runs of its
 *                    repeats, the two-level statistics, the comparison
 *                    with the baseline (Holm-adjusted over the sweep), the
 *                    verdict, notes and totals.
 *   evident-run/1, evident-batch/1 (read only): the first landing's
 *                    records, one run per variant; a /1 run carries a
 *                    comparison whose p_adjusted is the raw p, which
 *                    readers never show as adjusted.
 *
 * Embedded documents.  A record embeds a few documents verbatim whose
 * format another module owns, because that module measures them: the
 * machine (run/provenance.c), the device and its NVML state
 * (backends/gpu_nvml.c, the CUDA harness's device facts), the build's
 * resource report and the timing method (the backends).  The record
 * stores them as opaque json_t; facts the readers need from them are
 * parsed here once (device name, driver, throttled) or by their owner.
 *
 * Ownership.  record_run_read()/record_batch_read() keep a reference to
 * the manifest; every string in the struct is borrowed from it and lives
 * until *_release().  Writers borrow everything from the struct they are
 * given and return a new json_t the caller owns.
 *
 * Adding a field: add it to the struct, write it in record_run_json (or
 * record_batch_json), read it in record_run_read, document it in README;
 * a reader of an older record leaves it at its zero/NAN default.
 */
#ifndef EVIDENT_RECORD_H
#define EVIDENT_RECORD_H

#include <jansson.h>
#include <stddef.h>

#include "backends/backend.h"
#include "base/util.h"
#include "record/outcome_list.h"
#include "stats/stats.h"

#define RECORD_RUN_FORMAT "evident-run/2"
#define RECORD_BATCH_FORMAT "evident-batch/2"

/* ---- outcomes -------------------------------------------------------- */

#define OUTCOME_ENUM_(e, name, meaning) OUTCOME_##e,
enum outcome { OUTCOME_LIST(OUTCOME_ENUM_) OUTCOME_COUNT, OUTCOME_UNKNOWN = OUTCOME_COUNT };
#undef OUTCOME_ENUM_

const char *outcome_name(enum outcome o);       /* "ok"; "unknown" for OUTCOME_UNKNOWN */
const char *outcome_meaning(enum outcome o);
/* "crashed" -> OUTCOME_CRASHED; 0, or -1 when name is no outcome (o untouched). */
int outcome_parse(const char *name, enum outcome *o);
/* The list of names, comma-separated, for messages. */
const char *outcome_names(void);
/* Did-you-mean for a misspelled outcome, or NULL. */
const char *outcome_suggest(const char *name);
/*
 * The rule of a spec's `expect:`, in one place: 1 when outcome o is what
 * expect names (an outcome name; NULL means "ok"), else 0.  An outcome
 * this evident does not know (OUTCOME_UNKNOWN) is never as expected.
 * The run record's expect_met, the totals of run, gather and wait (Slurm
 * too) and the summary's notes all ask this.
 */
int outcome_as_expected(enum outcome o, const char *expect);

/* ---- pieces ----------------------------------------------------------- */

struct rec_git {
	int is_repo, dirty;
	const char *commit, *branch, *diff_object, *note;
	long long n_changed;
	json_t *untracked;           /* array of paths (borrowed/owned by the record) */
};

/*
 * The runner that wrote a record (`code.runner`, red team 279): code.git
 * names the repository the spec lies in (evident run works from the
 * spec's repository root), which says nothing of the evident that ran
 * it; an older, defective runner started in a newer checkout wrote
 * records that read as the newer commit's.  commit: the commit the
 * `evident` binary was built from (compiled in: run/provenance.h
 * prov_runner_commit), or "unknown" where its build had no git; dirty:
 * its sources (src/, the Makefile, mk/) differed from that commit (1, 0,
 * -1 unknown); sha256 and worker_sha256: the runner's executable as it
 * ran (/proc/self/exe) and the evident-worker its jobs exec'd.  have 0:
 * not recorded (records before red team 279's fix).  Strings borrowed.
 */
struct rec_runner {
	int have;
	const char *commit;
	int dirty;
	const char *sha256, *worker_sha256;
};
/* The commit whose runner wrote a record, for the errata
 * (report/audit_errata.h): the runner's build commit where recorded and
 * known, else code.git.commit (what records before red team 279's fix
 * name: the same commit where the runner was started in its own
 * checkout).  NULL when neither is recorded. */
const char *record_runner_commit(const struct rec_runner *rn, const struct rec_git *g);

struct rec_source {
	const char *path, *sha256, *object;
	int loaded;                  /* a library the object loads (build.c object_libraries): not in the
				      * object, so not in its binary, echo-neutral or load hash */
};

/* One check of an output against its reference (the checker's verdict). */
struct rec_check {
	const char *phase;           /* "seed" | "timed" | "shape" (v1: "check" | "recheck") */
	unsigned long long seed;
	const char *dist;            /* input distribution, NULL in v1 */
	long long sample;            /* timed: the sample's index; else -1 */
	double max_abs_err, rel_l2, ref_scale;
	long long nan_count, unwritten, mismatches, first_mismatch;
	int pass;
	/* a host check's inputs and reference outputs, by hash
	 * (backends/problem.h problem_draw_sha256); NULL where not recorded */
	const char *inputs_sha256, *ref_sha256;
	/* and, where its problem judged entries one by one, the focus's key
	 * (16 hex digits) and its entries by hash (problem_focus_sha256) */
	const char *focus_key, *focus_sha256;
	/* the entries judged one by one (problems/evident_focus.h): how many,
	 * how many out of their bounds, the worst error / bound; entries 0 and
	 * worst NAN where the check had none (and in records before this key) */
	long long focus_entries, focus_out;
	double focus_worst;
};

/* A compute-sanitizer verdict; doc is the embedded document sanitize.c
 * writes (tool, argv, exit, passed, errors, report_object...). */
struct rec_sanitize {
	const char *tool;
	int passed;                  /* 1, 0, or -1 when the tool could not run */
	long long errors;
	const char *report_object;
	json_t *doc;
};

/* What a run cost (filled by run/cost.c from data/gpu-prices.yaml). */
struct rec_cost {
	double wall_s, gpu_s;
	int have_price, have_usd;
	double usd, price_usd_per_h;
	const char *gpu;             /* the name the price was looked up for */
	const char *source, *date, *from, *reason;
};

struct rec_problem {
	const char *name, *dtype;
	size_t n_dims;
	const char *dim_names[8];
	long long dims[8];
	double flops, min_bytes;     /* NAN when not recorded */
	const char *plugin_sha256;   /* the problem plug-in's object hash (v2; its built .so) */
	const char *plugin_object;   /* the same object kept in the store (runs since 2026-12-06; a later
				      * build judges this run's failures again by it: report/rejudge.c),
				      * or NULL */
	const char *judge_sha256;    /* what the plug-in judges with, by behaviour (backends/problem.h
				      * problem_judge_sha256), or NULL (older records, unboxed runs);
				      * where two records have it, it says whether they are one
				      * problem, whatever their plug-in hashes */
	const char *judge_run_sha256; /* the same at the run's own shapes (problem_judge_run_sha256),
				       * "nondeterministic", or NULL (older records): where two records
				       * have it, whether one build's failure counts under the other
				       * (code_identity.c code_other_build_counts) */
	json_t *judge_run_roles;     /* the same by shape, [{"role": "run" | "small" | "extra",
				      * "sha256"}], borrowed (the record's JSON, or the plan's), or
				      * NULL */
	/* The problem's code, as a kernel's code.sources: the plug-in
	 * problems/NAME.c first, every header it includes from the repository,
	 * then the GPU reference problems/NAME.cu and its headers when one was
	 * built, each once.  A run record's (runs since problem provenance;
	 * none in older records and in batches).  Read: the array is owned by
	 * the record (freed by its release), strings borrowed; written:
	 * borrowed from the caller. */
	struct rec_source *sources;
	size_t n_sources;
};

/* Timing health of one repeat (v2). */
struct rec_health {
	int have;
	long long throttled_samples, excluded_samples;
	double clock_mhz_min, clock_mhz_max;
	int trend;                   /* 1: a significant drift over the sample index */
	double trend_pct;            /* fitted change over the run, percent of the median */
	int modes;                   /* 1 = unimodal; >= 2 multimodal */
	const char *note;            /* one line for the summary, or NULL */
};

/* How much of a variant's variance each level contributes (v2, repeats):
 * Kalibera and Jones's components, on the scale of the timing statistic. */
struct rec_levels {
	int repeats;
	double samples_per_repeat;   /* mean */
	double var_between, var_within;
	double frac_between;         /* var_between / (var_between + var_within) */
};

/* One input distribution of a run's timed samples (`timing.by_dist`). */
#define REC_MAX_DISTS 8
/* the levels of rec_dist n_over: 3x to 48x (a ladder, so that a stress
 * cost 30x over is not hidden by a timing tail just over 3x) */
#define REC_OVER_LEVELS 5
struct rec_dist {
	const char *name;   /* the problem's distribution (borrowed) */
	long long n;        /* its timed samples */
	double median_us;   /* their median by the record's clock; NAN when n is 0 */
	int timing;         /* 1: its samples are the time (samples_object); 0: a stress one */
	/* of them, those over BATCH_STRESS_SLOW_RATIO << i times the run's
	 * fastest timing distribution's median (3, 6, 12, 24, 48x; job.c
	 * timing_by_dist); n_over[0] -1: not recorded (older records) */
	long long n_over[REC_OVER_LEVELS];
	/* the mean over its samples of each one's work (its time, or less by
	 * the same rule as n_over: what it did not wait on a runqueue, or its
	 * CPU) over that timing median, uncapped; 0: not recorded (older
	 * records).  A cost on a few samples far over the ladder's 48x is in
	 * it whole (red team 153's giant: 2 of 27 stress samples at 1000x) */
	double work_ratio_mean;
};

/* Fewer timed checks asked than this, and a run's samples are not
 * vouched for: its speed speaks for nothing (query.c run_refuted; red
 * team 69's lastonly at timed_checks 0 and 1), and its batch says so in a
 * note (gather.c). */
#define REC_TIMED_CHECKS_MIN 10

/* Escapes seen during timing (v2). */
struct rec_escapes {
	long long other_stream, late, host_threads, block_timeouts;
		long long drain_late; /* trust: host samples whose device drained over 50 us after the stop event */
	/* trust: host on a GPU (NAN elsewhere): launch()'s median host time
	 * and the bound it was held to (outcome.h HOST_LAUNCH_*) */
	double host_launch_us, host_launch_bound_us;
	/* the kernel clock's median rate against the device's %globaltimer
	 * over ruler_n timed samples (outcome.h CLOCK_RULER_*); NAN, 0 where
	 * not measured (the host, the events clock, older records) */
	double ruler_rate;
	long long ruler_n;
};

/* Where a run was executed (v2, scale-out): the executor of run/ that
 * started it and the slot it held.  A pool (`--gpus`) gives repeat r of
 * every variant to slot r % slots; a Slurm array task is a slot too. */
struct rec_exec {
	const char *kind;            /* "local" | "pool" | "slurm"; NULL in older records */
	int slot, slots;             /* its slot, 0-based, of how many; -1 unknown */
	int device;                  /* the GPU's index (NVML's, nvidia-smi's) or the CPU a host
				        slot was pinned to; -1 none */
	const char *pinned;          /* how it was pinned ("CUDA_VISIBLE_DEVICES=GPU-...",
				        "cpu 3"), or NULL */
	const char *after;           /* the variant of the job its slot ran just before it, or
				        NULL (its slot's first, or an older record): what a job
				        leaves behind falls on the next (red team 123) */
};

/* One slot of a batch (v2): the batch's plan.gpus, a row per slot used. */
struct rec_slot {
	int slot;
	int device;                  /* as rec_exec.device */
	const char *uuid, *name;     /* the GPU's (NULL on the host backend) */
	const char *host;            /* the machine it was on */
	long long runs;              /* runs of the batch it executed */
};

/* Where a variant came from (its spec's `lineage:`, run/spec.h), in every
 * run of it: "lineage" {parent, mutation, origin, search, generation}, or
 * null when the spec gave none (and in records older than lineage).
 * parent is as written: a run id, a search candidate's id or a variant's
 * name; the read half resolves it in the store (evident show --lineage). */
struct rec_lineage {
	int have;
	const char *parent, *mutation, *origin, *search;
	long long generation;        /* -1 when not given */
};

/*
 * The peak a time is held against (throughput.c): the GPU's, for the
 * problem's dtype, from data/gpu-peaks.yaml (backends/peaks.h), or one
 * core of the host's CPU, measured once per machine (backends/cpu_peak.h).
 * A run and a batch record it as `throughput.peak`, or null with
 * `throughput.no_peak` saying why; a record older than that has none
 * recorded (PEAK_UNSET), and its readers look one up from the machine it
 * recorded (record_run_peak, record_batch_peak: at_read).  Strings are
 * borrowed: from the record, from the process-wide tables, or from what
 * the writer was given.
 */
enum rec_peak_state { PEAK_UNSET, PEAK_NONE, PEAK_KNOWN };
struct rec_peak {
	enum rec_peak_state state;
	int at_read;                 /* found when read, from the recorded machine */
	double gflops;               /* compute peak for dtype, GFLOP/s; NAN: none for it (fp8 on A100) */
	double gbps;                 /* memory bandwidth peak, GB/s (10^9 bytes/s) */
	const char *dtype;           /* the compute peak's dtype */
	const char *scope;           /* "GPU" | "one core" */
	const char *device;          /* the GPU's table model, or the CPU's model name */
	const char *source;          /* where the figures come from (datasheet, or where and when measured) */
	const char *method;          /* how they were obtained */
	const char *why;             /* PEAK_NONE: why there is no peak */
};

/* ---- a run (one worker execution) ------------------------------------- */

struct run_record {
	json_t *raw;                 /* the manifest (one reference held) */
	int version;                 /* 1 or 2 */
	const char *format, *run_id, *batch_id, *experiment, *question, *variant, *kernel, *backend,
		*baseline;
	int is_baseline, is_reference;
	struct param *params;        /* names/values borrowed; array owned */
	size_t n_params;
	enum outcome outcome;
	const char *outcome_text;    /* as recorded (also for unknown outcomes) */
	const char *reason, *expect;
	int expect_met;              /* as read; record_run_json writes outcome_as_expected() instead */
	const char *started_utc, *finished_utc;
	double wall_s;
	int repeat, repeats;         /* v2: 0-based repeat of `repeats`; v1: 0 of 1 */
	int gpu_slot;                /* v2: the pool slot / device index it ran on, -1 unknown */
	struct rec_exec exec;        /* v2: the executor and its slot (kind NULL when not recorded) */
	struct rec_problem problem;
	const char *spec_path, *spec_object;
	struct rec_lineage lineage;  /* where the variant came from (have 0: none) */

	/* code */
	struct rec_git git;
	struct rec_runner runner;    /* the runner that wrote it (have 0: not recorded) */
	struct rec_source *sources;
	size_t n_sources;
	const char *build_key, *binary_sha256;
	const char *echo_neutral_sha256; /* the host object but for its EV_PARAM echoes (its compile's
					  * relocatable object, the echo cut out: backends/echo_mask.h;
					  * older records: its -S text masked, or a second build), or NULL */
	const char *load_sha256;         /* what the loader maps of the object, its build id zeroed
					  * (base/elf.h elf_load_sha256), or NULL (records before it) */
	const char *file_sha256;         /* the whole object file, every byte a kernel can read of it on
					  * disk (the build's so_sha256; on the host binary_sha256 too), or
					  * NULL (records before 2026-12-02) */
	json_t *compiler;            /* {argv, version} (borrowed) */

	/* build */
	const char *build_status, *build_reason, *build_log_object;
	int build_cached, have_build;
	double build_seconds;
	json_t *build_resources;     /* embedded (backend) */
	long long build_warnings;
	const char *build_first_warning;

	/* what the kernel said and what made no difference */
	const char *compiled_params;
	json_t *not_echoed, *mismatched, *echo_suggestions; /* arrays (borrowed) */
	json_t *same_binary_as, *no_effect_params;          /* arrays (borrowed) */

	/* worker */
	const char *worker_exit, *worker_log_object;
	double worker_seconds;
	json_t *protocol;            /* v2: {violations: [...]} (borrowed) */

	/* where */
	json_t *machine, *device, *gpu_state; /* embedded documents (borrowed) */
	const char *device_name, *driver, *host, *cpu, *gpu_uuid;
	int throttled;               /* -1 unknown */
	json_t *slurm;               /* v2: {job_id, array_job_id, array_task_id, node} or NULL */
	json_t *load;                /* v2: host load and competing processes {before, after} */
	/* v2: what the judge used: {sandbox: {tool, version, ...} (base/sandbox.h),
	 * timed_checks: {asked, received}, tolerance: the parent's, applied by
	 * the parent to the errors the checker reported} (borrowed), or NULL
	 * in records older than the sandbox */
	json_t *judge;
	const char *plan_identity;   /* judge.plan.identity: a sealed run's plan, its pointers aside
				      * (backends/seal.h seal_plan_identity), or NULL */

	/* the settings the job ran with: the knob table's JSON (v2), as
	 * backends/knobs.h writes it; read with record_run_setting */
	json_t *settings;

	/* correctness */
	int correctness_pass;
	double atol, rtol, rel_l2;   /* the tolerance the checker used */
	double problem_atol, problem_rtol, problem_rel_l2; /* the problem's own rule before the spec's; NAN before it was recorded */
	struct rec_check *checks;
	size_t n_checks;
	const char *extra_shape_status; /* v2: "checked" | "specialised" | "none" */
	const char *extra_shape_reason;
	json_t *extra_shape;         /* {KEY: value} (borrowed): the shape checked */
	json_t *extra_shape_ceiling; /* {KEY: value} (borrowed): the plug-in's extra shape, under
				      * which the runner drew extra_shape (red team 274); NULL in
				      * older records, whose extra_shape is the plug-in's own */
	json_t *extra_shape_range;   /* {KEY: [lo, hi]} (borrowed): the range each drawn key came
				      * from, up to the spec's own value (red team 279); NULL in
				      * older records (drawn under extra_shape_ceiling) */
	const char *extra_shape_draw; /* NULL where drawn; else why the plug-in's own was used */
	int extra_shape_tol_set;     /* the two rules below were recorded (red team 289); 0 in
				      * older records, whose shape checks were judged by atol.. */
	double extra_shape_tol[3];   /* atol, rtol, rel_l2 the extra shape's checks were judged
				      * by: the problem's at the drawn shape, a spec's field
				      * where tighter (job.c check_tolerance) */
	double extra_shape_problem_tol[3]; /* the problem's own rule at the drawn shape */
	json_t *reference_check;     /* {done, max_abs_diff, rel_l2, against, pass} (borrowed) */

	/* timing */
	int have_timing;
	const char *clock;           /* "cupti" | "cuda_events" | "host" ... the clock of samples_object */
	const char *cache;
	json_t *timing_method;       /* embedded (backend) */
	long long n_samples;
	const char *samples_object;        /* the preferred clock's samples, one per line */
	const char *event_samples_object;  /* v2: CUDA-event samples when the kernel clock is preferred */
	const char *host_samples_object;   /* v2: host launch latency of each sample */
	double event_median_us;      /* v2: median CUDA-event time beside a kernel clock, NAN none */
	double host_median_us;       /* v2: median host time of launch(), NAN none */
	/* the mean over the time's samples of each one's work (its time, or
	 * on the host less what its leader and the parent waited on the run
	 * queue: job.c sample_work, host_clock.c)
	 * over their median, uncapped (rule 4b's launches' work: gather.c
	 * side_work_mean); 0: not recorded (older records) */
	double work_ratio_mean;
	/* the same at its most (the host clock's work_hi_us: since red team
	 * 221 each sample's wall, no wait taken off; before, the wall less
	 * the readable waits); 0: not recorded, read as work_ratio_mean */
	double work_ratio_mean_hi;
	/* the two readings work_ratio_mean and _hi are the least and most of,
	 * by set: [0] every timed sample (the stress ones too), [1] the
	 * time's samples alone; [k][0] at its least, [k][1] at its most
	 * (`timing.work_ratio_sets`, since red team 230: rule 4b compares
	 * a set with the same set); 0 where not recorded (older records: read
	 * as work_ratio_mean and _hi) */
	double work_sets[2][2];
	/* v2, since timing distributions (`timing.by_dist`): every input
	 * distribution the timed samples had (scramble.h evs_sample_dist);
	 * the samples objects, n and stats hold only those of the ones with
	 * timing set.  None (n_by_dist 0) in older records and when the
	 * problem has one distribution. */
	struct rec_dist by_dist[REC_MAX_DISTS];
	size_t n_by_dist;
	int have_stats;
	struct stats_summary stats;  /* within this repeat */
	unsigned long stats_seed;
	int stats_resamples;
	struct rec_health health;
	struct rec_escapes escapes;

	/* v1 only: the comparison this run once carried (raw p; p_adjusted == p) */
	int have_comparison;
	struct stats_comparison comparison;
	const char *comparison_baseline, *comparison_baseline_run;

	struct rec_sanitize *sanitize;
	size_t n_sanitize;
	struct rec_cost cost;
	struct rec_peak peak;        /* `throughput.peak` (v2 runs since throughput; else UNSET) */
	const char *prev, *digest;
};

/* ---- a reproduction (evident reproduce) ------------------------------- */

/*
 * A batch made by `evident reproduce BATCH` carries, besides its own rows,
 * the verdict on each variant of BATCH (run/reproduce.h decides them):
 *   reproduced          same outcome, and for ok variants each median lies
 *                       within the other batch's 95% CI widened by the
 *                       noise band: [lo (1 - t), hi (1 + t)]
 *   not_reproduced      another outcome, or a median outside that band
 *   could_not_rebuild   the recorded code built then and does not now
 */
enum repro_verdict { REPRO_REPRODUCED, REPRO_NOT_REPRODUCED, REPRO_COULD_NOT_REBUILD, REPRO_UNKNOWN };
const char *repro_verdict_name(enum repro_verdict v);  /* "reproduced"; "unknown" */

/* One side of a variant's comparison: what the batch recorded. */
struct rec_repro_side {
	enum outcome outcome;
	const char *outcome_text;
	int have_stats;
	double median_us, ci[2];     /* the row's two-level median and 95% CI; NAN when none */
};

struct rec_repro_row {
	const char *variant;
	enum repro_verdict verdict;
	const char *verdict_text;    /* as recorded */
	const char *reason;          /* why not reproduced (the build error...), or NULL */
	struct rec_repro_side recorded, now;
};

struct rec_reproduction {
	int have;                    /* 0: this batch reproduces nothing */
	const char *of;              /* the run id of the batch reproduced */
	const char *commit;          /* the commit rebuilt */
	const char *diff_object;     /* the recorded patch applied on it, NULL for a clean tree */
	double threshold;            /* the noise band t */
	int reproduced;              /* 1: every variant reproduced */
	struct rec_repro_row *rows;  /* array owned by the record; strings borrowed */
	size_t n_rows;
	json_t *warnings;            /* array of strings (borrowed): what differed (GPU, driver...) */
};

/* ---- a batch (one `evident run`) -------------------------------------- */

struct batch_row {
	const char *variant, *kernel;
	struct param *params;
	size_t n_params;
	enum outcome outcome;
	const char *outcome_text, *reason, *expect;
	int is_reference;
	const char *run_id;          /* the row's run (v1), or its first repeat's (v2) */
	const char **runs;           /* v2: every repeat's run id (array owned) */
	size_t n_runs;
	size_t n_ok_runs;
	const char *clock;           /* clock of the stats */
	int clock_mixed;             /* its repeats were timed by different clocks (gather only; not read back) */
	int have_stats;
	struct stats_summary stats;  /* v2: two-level; v1: one process */
	int have_levels;
	struct rec_levels levels;    /* v2: variance by level */
	int have_cmp;
	struct stats_comparison cmp; /* p_adjusted is Holm over the batch */
	double mde;                  /* v2: smallest detectable speedup change, NAN unknown */
	double event_median_us;      /* v2: median over ok repeats of their CUDA-event medians (a
	                              * kernel clock's row shows both), NAN none */
	const char *health_note;     /* v2: timing health summary of its repeats, or NULL */
	/* v2, since timing distributions: what its time was measured on,
	 * from its runs' timing.by_dist ("uniform: 150 of 200 samples a
	 * run"), or NULL (one distribution, or an older batch) */
	const char *timed_on;
	/* v2, since 2026-12-03: the worst stress distribution's median over
	 * the timing median (gather.c gather_dist_speed_notes), where over gather's
	 * slow ratio (3x: a cost the time leaves out), else 0; NAN in batches
	 * before it (their notes say it: batch_row_stress_slow reads them) */
	double stress_slow;
};

struct batch_record {
	json_t *raw;
	int version;
	const char *format, *run_id, *batch_id, *experiment, *question, *baseline, *backend;
	const char *started_utc;
	struct rec_problem problem;
	struct rec_git git;
	struct rec_runner runner;    /* the runner that wrote it (have 0: not recorded) */
	json_t *machine;
	struct batch_row *rows;
	size_t n_rows;
	json_t *notes;               /* array of strings (borrowed) */
	int interrupted;
	const char *session;         /* "eval": a batch of `evident eval` (a reference and a candidate);
				      * NULL: any other (borrowed) */
	double holm_alpha, holm_threshold;
	long long holm_comparisons;
	int repeats;                 /* v2 */
	const char *order;           /* v2: "interleaved" ... */
	unsigned long long plan_seed;
	struct rec_slot *slots;      /* v2: the slots used (plan.gpus; array owned, strings borrowed) */
	size_t n_slots;
	long long t_variants, t_ok, t_failed;
	double t_wall_s, t_gpu_s, t_usd;
	int t_have_usd;
	struct rec_reproduction repro; /* `reproduction`: only in batches of evident reproduce */
	struct rec_peak peak;        /* `throughput.peak`: its runs' common peak (UNSET in older batches) */
	const char *prev, *digest;
};

/* ---- reading -------------------------------------------------------- */

/*
 * Is manifest m a batch?  A run?  (By its "kind"; v1 and v2.)
 */
int record_is_batch(json_t *m);
int record_is_run(json_t *m);

/*
 * Read a variant run manifest (v1 or v2) into r.  Takes a reference on m.
 * Returns 0, or -1 after error() when m is no run record or a field has
 * the wrong type.  Release with run_record_release even on failure.
 */
int record_run_read(json_t *m, struct run_record *r);
void run_record_release(struct run_record *r);
int record_batch_read(json_t *m, struct batch_record *b);
void batch_record_release(struct batch_record *b);

/* The row of variant in b, or NULL. */
const struct batch_row *batch_find_row(const struct batch_record *b, const char *variant);

/* A stress distribution (checked, never timed) whose median over a
 * variant's runs is over this many times its timing median: a cost the
 * time leaves out (red team 144's stress.c), for which eval, a search and
 * the audit hold a faster verdict (run/gather.c writes the note and the
 * row's stress_slow). */
#define BATCH_STRESS_SLOW_RATIO 3.0
/* Variant's stress distribution over BATCH_STRESS_SLOW_RATIO of its timing
 * median in batch notes (run/gather.c gather_dist_speed_notes writes it): the
 * largest such ratio, or 0 when none. */
double batch_notes_stress_slow(const json_t *notes, const char *variant);
/* The same for one row of batch b: the row's own stress_slow (batches
 * since 2026-12-03), else what b's notes say of its variant; 0 for none
 * or a NULL row.  What eval and a search read before promoting, and the
 * audit before a faster claim. */
double batch_row_stress_slow(const struct batch_record *b, const struct batch_row *row);
/* A row made from a lone run (a v1 run, or a run whose batch is missing):
 * borrows from r, which must outlive it; release with batch_row_release. */
void batch_row_from_run(const struct run_record *r, struct batch_row *row);
void batch_row_release(struct batch_row *row);
/* Value of parameter name in a row / run, or NULL. */
const char *row_param(const struct batch_row *row, const char *name);
const char *run_param(const struct run_record *r, const char *name);
/*
 * The value of a setting a run ran with, named as in the spec
 * ("correctness.seeds", "timing.samples", "timing.warmup_ms",
 * "timing.cache", "correctness.atol", ...): 1 with *num (or *str for an
 * enumerated one) set, 0 when the record does not say (v1 records hold
 * only some of them).
 */
int record_run_setting(const struct run_record *r, const char *key, double *num, const char **str);
/*
 * The problem's own rule for check c of r, into out (atol, rtol, rel_l2):
 * for a check at the extra shape, the problem's rule at the drawn shape
 * where r recorded one (extra_shape.tolerance.problem, red team 289);
 * else run, the caller's rule for r's own shape (r->problem_*, or what it
 * took in their place).
 */
void record_check_rule(const struct run_record *r, const struct rec_check *c, const double run[3], double out[3]);
/*
 * The problem's own rule at r's drawn extra shape into out (atol, rtol,
 * rel_l2): 1 where r recorded it (extra_shape.tolerance.problem), or
 * where r did not (a runner older than red team 289's fix, which judged
 * the extra shape's checks by the run's shape's rule) and the process
 * set a way to ask the problem's plug-in (record_drawn_rule_setup: red
 * team 298 row 3); 0 where it cannot be had.
 */
int record_drawn_rule(const struct run_record *r, double out[3]);
/*
 * How record_drawn_rule asks a plug-in for a record that did not record
 * its rule: fn answers as record_drawn_rule does (report/rejudge.c
 * rejudge_drawn_rule, set by the processes that hold a store: the audit,
 * paper, eval, a search).  NULL: not asked (the default).
 */
void record_drawn_rule_setup(int (*fn)(const struct run_record *r, double out[3]));
/*
 * The first check at the extra shape that r recorded as passed while its
 * runner judged it without the drawn shape's rule (no
 * extra_shape.tolerance) and whose recorded errors fail that rule
 * (record_drawn_rule): a rel L2 over its rel_l2, or a largest error over
 * (atol + rtol) x the check's reference scale, the most any entry is
 * allowed (red team 298 row 3: an older runner in today's tree read
 * rsqrtss at a drawn C of 187 as passed, 3.7x the rule).  NULL where
 * none, or where the rule cannot be had; else the check, its rule into
 * rule (may be NULL).
 */
const struct rec_check *record_shape_pass_misjudged(const struct run_record *r, double rule[3]);
/* "CPU: <model>" on the host backend, the GPU's name otherwise (malloc'd). */
char *run_device_label(const struct run_record *r);
/*
 * 1 when r is a GPU run whose kernel's host code ran in its timing worker
 * (trust: host, judge.executor "in_process"): its times are that
 * process's word (stats.h rule 0c); 0 for a sealed or a host-backend run
 * (the parent's clock) or a record that does not say.
 */
int run_trust_host(const struct run_record *r);
/* 1 when r ran on the host backend in a pool of two slots or more (its
 * executor kind "pool", slots >= 2): other boxes ran beside it on the same
 * host, and what one box's code makes the host kernel do reaches the CPUs
 * its neighbours are timed on (red teams 139, 158, 160): stats.h rule 0d */
int run_shared_host(const struct run_record *r);
/* The host clock's handshake, us (timing.method.handshake_us: the median
 * of its null rounds, in every sample), and what its worker's threads
 * beyond the first add to every sample (timing.method.thread_cost_us at
 * threads_median, by a margin for the box: run.c), where recorded: a
 * host-backend run's; NAN for another backend or a record that does not
 * say (stats.h rule 0e) */
double run_handshake_us(const struct run_record *r);
/* What run_handshake_us adds to the plain handshake for the worker's
 * threads (0 without them), us; NAN where it has none (stats.h rule 4c's
 * bound credits it to the harness: red team 247) */
double run_thread_widening_us(const struct run_record *r);
/* One side's handshake for rule 0e: the median of the positive values of
 * v[0..n) (each a run's run_handshake_us; v is sorted in place), NAN with
 * none.  The median, not the largest: one honest process's handshake
 * read 3664 us on a busy VM beside runs of 33-115 us (red team 168's
 * twin), and with the largest it voided its batch's verdicts below
 * 3.7 ms. */
double side_handshake_us(double *v, size_t n);

/*
 * Where a batch ran, as far as a reproduction compares it: the host's CPU
 * model, the GPU's name and driver, the CUDA toolchain (nvcc's version
 * line).  Read from the machine document the batch embeds; borrowed from
 * b, NULL when not recorded (no GPU on the host backend).
 */
struct rec_env {
	const char *cpu, *gpu, *driver, *cuda;
};
void record_batch_env(const struct batch_record *b, struct rec_env *e);

/* ---- named readers (readers.c): for show, audit and paper ---------------- */

/*
 * A run's checks of one phase, summarised.  Phases: "seed" (the fresh
 * inputs checked before timing, one distribution each in v2), "timed"
 * (timed launches checked after they ran, v2), "shape" (the extra shape,
 * v2), "recheck" (v1: the check after timing); a phase a newer record
 * adds keeps its own name.  Pointers borrow from the record.
 */
struct rec_phase {
	const char *phase;
	size_t n, failed;
	const struct rec_check *first;         /* the phase's first check */
	const struct rec_check *first_failed;  /* its first failing one, or NULL */
	double max_abs_err;                    /* largest of the phase, NAN when none */
};
/* The phases of r's checks in the order they first appear (at most max
 * of them, in out[]); returns how many. */
size_t record_check_phases(const struct run_record *r, struct rec_phase *out, size_t max);

/* The float64 reference check of a v2 run: the judge's own reference at a
 * small shape against a float64 one (the checker's document). */
struct rec_refcheck {
	int have;                    /* 0: not recorded (v1, or the run stopped before it) */
	int done;                    /* 1: it ran */
	int pass;                    /* 1, 0, or -1 when not recorded */
	double max_abs_diff, rel_l2; /* NAN when not recorded */
	const char *against, *why;   /* borrowed; NULL when absent */
};
void record_reference_check(const struct run_record *r, struct rec_refcheck *c);

/* The source entry of r's kernel file (its path and sha256), or NULL. */
const struct rec_source *run_kernel_source(const struct run_record *r);

/* ---- writing -------------------------------------------------------- */

/*
 * The manifest of r (format RECORD_RUN_FORMAT), without "prev"/"digest"
 * (the store adds them).  New reference.  Objects the record refers to
 * (samples, logs, sources) must already be in the store.
 */
json_t *record_run_json(const struct run_record *r);
json_t *record_batch_json(const struct batch_record *b);

/* Embedded statistics as stored ({"n", "median", ..., "median_ci"}; a
 * comparison {"mann_whitney", "cliffs_delta", "speedup", "verdict", ...}):
 * also `evident stats --json`'s format.  New references. */
json_t *record_summary_json(const struct stats_summary *s);
json_t *record_comparison_json(const struct stats_comparison *c);
int record_summary_read(json_t *j, struct stats_summary *s);
/* A record's comparison into c (strings borrowed from j), with rule 0 of
 * the verdict table applied to records of any age: one repeat a side reads
 * as inconclusive, the recorded verdict kept in c->verdict_recorded. */
int record_comparison_read(json_t *j, struct stats_comparison *c);

/* The cost document run/cost.c makes, read into c (strings borrowed). */
void record_read_cost(json_t *o, struct rec_cost *c);

/* ---- the index (store.h's attrs) ---------------------------------------- */

/*
 * Samples objects (timing.samples_object and its siblings): a first line
 * "# WHAT, microseconds, one per line, in the order taken", then one value
 * a line as "%.17g".  record_samples_text returns that text (the caller
 * frees it).  record_samples_parse appends the values of such a text to
 * *x (capacity *cap, grown; the caller frees *x), skipping '#' lines and
 * empty ones; 0, or -1 with the first line that is no finite number in why.
 */
char *record_samples_text(const double *x, size_t n, const char *what);
int record_samples_parse(const char *text, double **x, size_t *n, size_t *cap, struct strbuf *why);

/*
 * The one-line summary of a manifest the store keeps in its index, so
 * that ls, paper, audit and export find runs without opening manifests:
 * kind, experiment, variant, batch id, outcome, started, median, cost,
 * and for a batch of `evident reproduce` the batch it reproduces and
 * whether it reproduced it (so that "latest" can leave reproductions out
 * without reading them); a search record (record/search.h) gets kind
 * "search" with its totals (variants: the candidates it judged).  Returns a malloc'd line, or NULL for a manifest
 * that is no record.
 */
char *record_index_attrs(json_t *manifest);
/* The top-level members record_index_attrs reads, NULL-terminated: the
 * store may hand it a manifest holding only these (store_set_indexer).
 * Reading another member there means adding it here (test_record checks
 * every committed record both ways). */
extern const char *const record_index_members[];
/* The attrs' format version: an index written under another is rebuilt. */
#define RECORD_ATTRS_VERSION "record-attrs/4"

struct record_attrs {
	int is_batch;
	int is_search;               /* a search record (run/search.h); neither a run nor a batch */
	char *experiment, *variant, *batch_id, *outcome, *started_utc, *commit;
	int dirty, repeat;
	double median_us, wall_s, gpu_s, usd;   /* NAN when absent */
	long long t_variants, t_ok, t_failed;   /* batches */
	char *reproduces;            /* a batch of evident reproduce: the run id of the batch it
					reproduces (reproduction.of); NULL for any other record */
	int reproduced;              /* with reproduces: 1 when every variant reproduced, else 0 */
	char *session;               /* a batch's session (batch_record.session: "eval"), or NULL */
};
/* Parse attrs (from record_index_attrs) into a; 0 or -1.  Release frees strings. */
int record_attrs_parse(const char *attrs, struct record_attrs *a);
void record_attrs_release(struct record_attrs *a);
/*
 * The attrs of run_id as one JSON object, `evident ls --json`'s row:
 * {run_id, kind ("run" | "batch"), experiment, batch_id, started_utc,
 * commit, dirty, wall_s, gpu_s, usd} and, for a run, {variant, repeat
 * (1-based), outcome, median_us}, for a batch {variants, ok, failed,
 * reproduces, reproduced} (the last two null unless it is a batch of
 * evident reproduce).  New reference.
 */
json_t *record_attrs_json(const char *run_id, const struct record_attrs *a);

/* ---- statistics, by name: the one table --------------------------------- */

/*
 * Every statistic a paper block, a claim, an export column or `show` can
 * name, with its meaning and unit family.  record_stat answers it for a
 * variant from its batch row (and its runs where only a run has it): the
 * same number everywhere.  p is Holm-adjusted over the batch (p_raw the
 * test's own); speedup and its CI are the batch's (two-level with repeats).
 */
enum stat_kind { STAT_TIME, STAT_RATIO, STAT_P, STAT_FLOPS, STAT_BW, STAT_USD, STAT_PLAIN };
struct stat_def {
	const char *name;            /* "median_us" */
	enum stat_kind kind;
	const char *meaning;
};
extern const struct stat_def record_stats[];
extern const size_t record_n_stats;
const struct stat_def *record_stat_def(const char *name);
/* "median_us, mean_us, ..." for messages. */
const char *record_stat_names(void);

/*
 * Value of stat for row (of batch b; b may be NULL for a run that belongs
 * to no batch) with runs[0..n_runs) its repeats' run records (may be 0).
 * Sets *v and, where the statistic has a recorded CI, ci[] and *have_ci.
 * Returns 0, or -1 with a lowercase reason in why (not recorded, failed
 * variant, the baseline has no comparison, unknown name).
 */
int record_stat(const struct batch_record *b, const struct batch_row *row,
		const struct run_record *const *runs, size_t n_runs, const char *stat, double *v,
		double ci[2], int *have_ci, struct strbuf *why);

/* ---- throughput and fraction of peak (throughput.c) --------------------- */

/*
 * What a time means against the machine: the one computation summary,
 * show, export, paper and the records themselves use.
 */
struct rec_tput {
	double gflops, tflops;       /* problem FLOPs / median time; NAN where the problem declares
				        no FLOPs or there is no time */
	double gbps;                 /* fewest bytes moved / median time; NAN likewise */
	double frac_compute;         /* gflops / the compute peak; NAN where there is none (never 0) */
	double frac_bandwidth;       /* gbps / the bandwidth peak; NAN likewise */
};

/* The dims of pr as "R=4096 C=2048", in its order (malloc'd: the caller
 * frees; "" for none).  record/shape.c. */
char *rec_problem_shape(const struct rec_problem *pr);

/* pr's work at its shape: its FLOPs, else the fewest bytes it must move;
 * NAN where the record has neither. */
double rec_problem_work(const struct rec_problem *pr);

/*
 * 1 when shape big (rec_problem_shape's form) has every dimension of
 * shape small, by name, and no other, each at least small's value: big
 * is at least small in every direction, not only in work (red team 294
 * row 1: {H 2, S 16} has more FLOPs than {H 1, S 17} and fewer rows,
 * and a reference that threads from S 17 up changes its path there).  0 otherwise,
 * and for an empty or unreadable shape.
 */
int rec_shape_covers(const char *big, const char *small);

/*
 * Throughput of problem pr (its shape's FLOPs and fewest bytes, as
 * recorded; its dtype chose the peak) at median_us, against peak pk (may
 * be NULL: no fractions).  Every field that cannot be known is NAN.
 */
void record_throughput(const struct rec_problem *pr, double median_us, const struct rec_peak *pk,
		       struct rec_tput *t);

/*
 * The peak of a run or a batch: as recorded, or - for a record older than
 * recorded peaks - looked up now from the machine it recorded (the GPU's
 * name in data/gpu-peaks.yaml; for the host, the cached measurement of
 * its CPU model on this machine, never measured while reading), with
 * at_read set; PEAK_NONE with why when none can be found.
 */
void record_run_peak(const struct run_record *r, struct rec_peak *pk);
void record_batch_peak(const struct batch_record *b, struct rec_peak *pk);
/*
 * The peak for a machine document (run/provenance.c's, with its "gpu"),
 * on a GPU backend (gpu) or the host, for dtype; what the two above do for
 * an older record, and what the runner records for a GPU.  Never measures.
 */
void record_peak_lookup(json_t *machine, const char *gpu_name, int gpu, const char *dtype, struct rec_peak *pk);
/* The peak of one core, measured (backends/cpu_peak.h): strings borrowed from p. */
struct cpu_peak;
void record_peak_of_cpu(const struct cpu_peak *p, struct rec_peak *pk);
/*
 * The most a fraction of the peak pk can honestly be in runs (one row's):
 * for a host peak (scope "one core") their threads (the host clock's
 * threads_max, the most any run had at a sample's go or done line; where a
 * run recorded none, the machine's CPUs online) x (1 + REC_PEAK_FRAC_TOL);
 * NAN where there is no such bound (a GPU's peak, no runs).  A compute
 * fraction above it is no measurement of the kernel but of a wrong peak
 * (red team 131: a forged cache made a one-thread naive rowsum 793% of
 * one core's FMA peak).  bandwidth: 1 when only a cold-cache run bounds it
 * (the peak is a triad from memory, which a kernel whose data stays in the
 * caches may exceed); *why says what the bound is.
 */
#define REC_PEAK_FRAC_TOL 0.25
double record_frac_bound(const struct rec_peak *pk, const struct run_record *const *runs, size_t n, int bandwidth,
			 const char **why);

/* v with three significant digits, never in exponent form ("118", "31.2", "0.0523"). */
void record_rate_add(struct strbuf *out, double v);
/* A fraction as a percentage with three significant digits: "10.4%". */
void record_frac_add(struct strbuf *out, double frac);
/* "12.3 GFLOP/s (10.4% of peak), 4.56 GB/s (14.6% of peak)": what is known
 * of t, TFLOP/s from 1000 GFLOP/s on; nothing when neither rate is. */
void record_tput_text(struct strbuf *out, const struct rec_tput *t);
/* "118 GFLOP/s fp32 and 31.2 GB/s, one core of CPU 'AMD EPYC' (measured
 * ...)", or "none: WHY"; says when it was looked up when read. */
void record_peak_text(struct strbuf *out, const struct rec_peak *pk);

#endif /* EVIDENT_RECORD_H */
