/*
 * query.h - the read path over a store, for ls, show, paper, audit and
 * export: one order, one way to find a run, typed records (record.h).
 *
 * query_open() takes the store's index (every run id with the record
 * module's one-line attrs: kind, experiment, variant, batch, outcome...)
 * in the store's one order, oldest first; a manifest is read, and turned
 * into a struct run_record or struct batch_record, only when a question
 * needs it, and then kept.  So listing, choosing "the latest batch of
 * experiment E", resolving an id and summing costs never open every
 * manifest.
 *
 * Vocabulary.  A *batch* is the record of one `evident run`; its rows are
 * the variants, each naming the runs of its repeats.  A *run* is one
 * worker execution of one variant.  Every table and claim is answered
 * from one batch, so it never mixes runs of different commits or GPUs.
 *
 * Ownership: every record, row and array element returned is borrowed
 * from the query and lives until query_release(); arrays returned through
 * an `out` parameter are the caller's to free() (not their elements).
 */
#ifndef EVIDENT_QUERY_H
#define EVIDENT_QUERY_H

#include <jansson.h>

#include "record/record.h"
#include "record/search.h"
#include "store/store.h"

struct query_entry {
	char *run_id;
	char stamp[32];              /* the UTC stamp that begins the id */
	struct record_attrs a;
	int loaded;                  /* 1: the manifest was read (m, run or batch set) */
	json_t *m;
	struct run_record *run;
	struct batch_record *batch;
	struct search_record *search; /* a search record (record/search.h) */
	int eval_mark;               /* a batch's unmarked-eval rule (query.c is_eval): 0 not asked, 1 yes, -1 no */
};

struct query {
	struct store st;
	int no_store;                /* the store directory does not exist: empty */
	struct query_entry *e;       /* the store's one order, oldest first */
	size_t n;
	struct batch_row **lone;     /* rows made from runs that belong to no batch */
	size_t n_lone;
	/* query_find's index of whole ids (query.c exact_index): every run id
	 * and every batch's batch id, sorted, built at the first lookup that
	 * asks no why; ids_n: the q->n it was built for */
	struct query_id *ids;
	size_t n_ids, ids_n;
};
#define QUERY_INIT { STORE_INIT, 0, NULL, 0, NULL, 0, NULL, 0, 0 }

/*
 * The variants a spec's text declares: a new JSON object {NAME: {"kernel":
 * PATH, "params": {NAME: VALUE}}}, or NULL when the text does not load.
 * Set once in main (run/spec.h spec_variants_of_text); NULL (unit tests):
 * a batch is an eval session's by its index entry alone.  query.c's
 * is_eval reads a batch recorded before `session: eval` existed (red team
 * 76's "unmarked") against the spec its runs recorded.
 */
extern json_t *(*query_spec_variants)(const char *spec_text);

/*
 * Open the store at root (store_default_root applies).  A missing store is
 * an empty one (q->no_store = 1), not an error; an unreadable index or
 * store is.  q need not be initialised (an open q is not released: call
 * query_release first).  Returns 0, or -1 after error().
 */
int query_open(struct query *q, const char *root);
/*
 * Make q the query of the store a markdown file reads: explicit (--store)
 * when given, else the file's declared store (md_declared_store), else the
 * default.  Keeps q when it is open on that root already.  0, or -1.
 */
int query_open_for(struct query *q, const char *explicit_root, const char *declared_root);
void query_release(struct query *q);
/* The same for a command's last use of its query just before it exits
 * (audit, paper): the store is released, the records' trees are left to
 * the process's exit (freeing them was 9% of an audit of the study's
 * store, 13% of paper's); under AddressSanitizer, whose leak check runs
 * at exit, it is query_release. */
void query_release_at_exit(struct query *q);

/* The typed record of entry i, read on first use; NULL when entry i is of
 * the other kind, or after error() when its manifest is damaged. */
const struct run_record *query_run_at(struct query *q, size_t i);
const struct batch_record *query_batch_at(struct query *q, size_t i);
const struct search_record *query_search_at(struct query *q, size_t i);
/* The newest search of experiment (NULL: any), or with run not NULL and
 * not "latest" the search of that id (or unique prefix); -1 with a reason
 * in why when there is none.  Returns its entry index. */
long query_search(struct query *q, const char *experiment, const char *run, struct strbuf *why);
/* Its manifest as stored (for show --json), read on first use. */
json_t *query_manifest_at(struct query *q, size_t i);

/*
 * The entry of a run id: the whole id, a unique prefix of it, or a unique
 * prefix of its hash part (the 8 hex digits after the experiment, as in
 * 4ce08165 of 20261122T042946.203Z-iter1-4ce08165).  Returns its index,
 * -1 when nothing matches, -2 when several do (why lists the candidates).
 * A prefix that names one batch and nothing else but runs of that batch
 * names the batch: a batch's timestamp to the second is shared by its
 * first runs, which started within that second, and the batch lists them.
 * Without why, a whole id is looked up in a sorted index (the store's
 * thousands of entries were a linear scan for each of an audit's rows).
 */
long query_find(const struct query *q, const char *id, struct strbuf *why);

int query_has_experiment(const struct query *q, const char *experiment);
/* Experiments with a record, sorted; *n of them; strings borrowed, the
 * array is the caller's to free. */
const char **query_experiments(const struct query *q, size_t *n);

/*
 * Reproductions.  A batch of `evident reproduce` re-ran recorded code: it
 * is evidence that the batch it reproduces holds up (`reproduced` claims,
 * show, ls), never the experiment's own latest result.  So "latest",
 * query_next_batch, query_newest_batch_id and query_variant_runs leave
 * reproductions (and their runs) out, by the index alone; a reproduction
 * is read when it is named by id, and its runs by query_all_runs
 * (`validated`: they are runs of the code).
 */
/* The reproductions of the batch with run id run_id (or batch id
 * batch_id; either may be NULL), newest first, as entry indices into *out
 * (the caller frees it); returns how many.  Reads no manifest. */
size_t query_reproductions_of(const struct query *q, const char *run_id, const char *batch_id, size_t **out);

/*
 * The batch a block or claim reads.  run: NULL or "latest" = the newest
 * batch of experiment in which every name in need[] (NULL-terminated, may
 * be NULL) has a row, leaving out batches of `evident reproduce` (they
 * re-ran recorded code; name one by id to read it); otherwise a batch's run id or batch_id, or the run
 * id of a variant run (its batch), each or a unique prefix.  With
 * experiment non-NULL a batch of another experiment is refused.  NULL
 * with a lowercase reason in why when there is none.
 */
const struct batch_record *query_batch(struct query *q, const char *experiment, const char *run,
				       const char *const *need, struct strbuf *why);
/*
 * Does the spec file run recorded (spec.path, read now) still define the
 * row's variant as it ran?  What the spec defines is
 * query_spec_definition's: the spec-wide part every variant's run shares
 * (name, problem, backend, dtype, baseline, arch, shape, flags, sanitize,
 * a fixed seed, every knob but repeats and timeout_s) and the variant's
 * own (kernel, parameters, trust, reference; spec.h
 * spec_definition_of_text), compared between the spec
 * text the run recorded (spec.object in q's store) and the file now; and
 * the row's kernel file and parameters against the file's variant.  0
 * with why when anything differs, when the spec file is gone (moved,
 * renamed, deleted) or does not load, or when a variant of the spec it
 * ran is no longer in it (renamed or removed); 1 when it defines it
 * alike, or there is no telling (no spec recorded, no hook: unit tests).
 * A variant its recorded spec did not have (an eval candidate), or a
 * search's candidate (its run recorded the generation's spec), is held to
 * the spec-wide part.  Red team 122: `fast` edited from
 * SLEEP_US 2000 to 3900 in the spec left its claim supported; red team
 * 126: `flags: [-DINVERT]`, another shape or cache, the spec renamed or
 * the variant renamed did too.
 */
extern json_t *(*query_spec_definition)(const char *spec_text);
int query_spec_defines(struct query *q, const struct run_record *run, const struct batch_row *row,
		       struct strbuf *why);
/* Did row of batch b run fewer than STATS_MIN_PROCESSES repeats (rule 0b,
 * stats.h: a comparison of it gives no verdict, its CI is one or two
 * processes')?  0 for v1 rows (one process by design). */
int query_row_few_processes(const struct batch_record *b, const struct batch_row *row);
/*
 * A batch that decides nothing as an experiment's latest result: it was
 * interrupted (SIGINT, SIGTERM), or a row of need[] (every row when NULL)
 * ran fewer than STATS_MIN_PROCESSES repeats (rule 0b, stats.h: no
 * verdict), whatever its outcome.  v1 batches (one process by design) are
 * not.
 */
int query_batch_unsettled(const struct batch_record *b, const char *const *need);
/*
 * The experiment's latest result, the one batch both `paper`'s run=latest
 * (query_batch) and the audit's evidence of an unpinned claim
 * (audit_evidence_batch) read: of the batches query_next_batch walks
 * (reproductions and eval sessions' batches left out), newest first, the
 * first that is settled (query_batch_unsettled) and whose rows of need[]
 * ran the code in the working tree (query_sources_current); else the
 * newest of the current code that is unsettled (a try, no verdict); else,
 * with *stale = 1 and why (may be NULL) saying what changed, the newest
 * settled one, else the newest.  *passed (may be NULL): the newer
 * unsettled batch of the current code passed over, or NULL.  NULL when
 * the experiment has no batch with rows for need[].
 */
const struct batch_record *query_latest_result(struct query *q, const char *experiment, const char *const *need,
					       int *stale, struct strbuf *why, const struct batch_record **passed);
/* The next batch of experiment (NULL: all) with rows for need[], newest
 * first, leaving out reproductions and eval sessions' batches (a
 * reference and a candidate: batch_record.session; `latest` reads them
 * only where no other batch has the variants asked for), read only when
 * its index entry matches: start with *pos = q->n; NULL when there is
 * none left. */
const struct batch_record *query_next_batch(struct query *q, const char *experiment, const char *const *need,
					    size_t *pos);
/* The same, reproductions included (every batch of experiment, NULL:
 * all): a reproduction rebuilt and reran recorded code, so it is one
 * more batch of that code where batches are weighed (red team 49). */
const struct batch_record *query_next_batch_all(struct query *q, const char *experiment, size_t *pos);
/* Is entry i an eval session's batch: marked `session: eval`, or recorded
 * before the mark and recognised by its rows against its spec (query.c
 * unmarked_eval; it reads the batch, a run and the spec object)? */
int query_is_eval(struct query *q, size_t i);
/* The run id of experiment's newest batch that is no reproduction and no
 * eval session's (by the index, and for a batch without `session` by its
 * rows against its spec: is_eval), or NULL; borrowed from q. */
const char *query_newest_batch_id(struct query *q, const char *experiment);
/* The batch a run belongs to, or NULL. */
const struct batch_record *query_batch_of(struct query *q, const struct run_record *run);
/* The runs of a row's repeats that are in the store, in repeat order. */
size_t query_row_runs(struct query *q, const struct batch_row *row, const struct run_record ***out);
/* The row's first run, or NULL. */
const struct run_record *query_row_run(struct query *q, const struct batch_row *row);
/* What the row's timings say its code ran at, whatever the row's outcome:
 * its two-level median when it ended ok, else the lowest of its runs'
 * medians, each run's whatever its outcome: a run's statistics, or where
 * it has none (it failed: crashed, timeout, ...) the median of the timed
 * samples it reported, when they are QUERY_SPEED_MIN_SAMPLES or more (a
 * flaky row has no statistics of its own, but its ok runs were timed: red
 * team 61; a row whose every process crashed after its timed samples has
 * no ok run, but each process was timed: red team 62; the lowest, since
 * a process that fails anyway can be slowed at no cost: red team 63),
 * but never a run whose samples the judge mostly refuted (half or more
 * of its timed checks failed or of its samples escaped, or a median
 * below the floor or under the events: red team 64's wrongfast set its
 * code's fastest speed with work it skipped; query.c run_refuted);
 * NAN when none. */
#define QUERY_SPEED_MIN_SAMPLES 5
double query_row_speed(struct query *q, const struct batch_row *row);

/* Whether r's boxes were made by a bubblewrap its runner could not verify
 * (judge.sandbox.binary_verified {done: no}: EVIDENT_BWRAP_UNVERIFIED=1,
 * base/sandbox_tool.c): no claim counts such a run, a validated claim
 * sets it aside (audit_validated.c).  0 for a record from before the
 * check. */
int query_run_box_unverified(const struct run_record *r);
/* Whether r ran with no box (--unsandboxed: judge.sandbox.tool none). */
int query_run_unboxed(const struct run_record *r);
/* What made r's judge weaker than the default, in a few words ("no box
 * (--unsandboxed)", ...), or NULL: a static string (fewer than 10 timed
 * checks a run, no box, or an unverified bubblewrap's);
 * _row: of any run of row.  What the audit's claims, eval's pool and
 * search set aside (they count such a row only against): a spec's looser
 * tolerance is its own recorded choice there (validated weighs it). */
const char *query_run_weak_judge_why(const struct run_record *r);
/* Of those, what lets the run's environment bend its judge against an
 * honest code (no box, an unverified bubblewrap, libraries shadowing the
 * system's), or NULL: fewer timed checks make a judge weaker for a
 * pass, never for a failure (code_identity.c code_run_refuted).  A
 * static string. */
const char *query_run_bendable_judge_why(const struct run_record *r);
/* Did r's runner have libraries on LD_LIBRARY_PATH shadowing the system's
 * (judge.sandbox.shadowed_libraries, sandbox.h sandbox_shadowed_libraries)?
 * A weaker judge: the box's loader may have mapped them for the kernel. */
int query_run_shadowed_libraries(const struct run_record *r);
const char *query_row_weak_judge_why(struct query *q, const struct batch_row *row);

/*
 * One variant's evidence: (experiment, variant, run) to its batch, row and
 * a run.  run is "latest" (or NULL: the newest batch of experiment with a
 * row for variant), a batch id, or the run id of a variant run (then
 * experiment and variant may be NULL; a run that belongs to no batch gets
 * a row made from its own record, with *b NULL).  0, or -1 with a reason.
 */
int query_resolve(struct query *q, const char *experiment, const char *variant, const char *run,
		  const struct batch_record **b, const struct batch_row **row,
		  const struct run_record **vrun, struct strbuf *why);
/* Every run of (experiment, variant), newest first, leaving out the runs
 * of reproductions; experiment NULL: of any experiment, variant NULL: of
 * any variant (`validated` gathers the runs of one code by content). */
size_t query_variant_runs(struct query *q, const char *experiment, const char *variant,
			  const struct run_record ***out);
/* Is name, in experiment, a variant whose runs in the store ran other code
 * than kernel (its path), ksha (its content's hash) and params (any
 * order): another file, content or parameters?  1 with *who (when
 * non-NULL) the first such run, borrowed from q; 0 when none did (or the
 * name has no runs). */
int query_name_other_code(struct query *q, const char *experiment, const char *name, const char *kernel,
			  const char *ksha, const struct param *params, size_t n_params, const struct run_record **who);
/* The same, counting only the runs of eval sessions' batches
 * (query_is_eval): a name a proposer took for other code, which `evident
 * run` must not give a spec variant (red team 81's late: an eval took
 * `fast2` for wrong code, the spec gained an honest `fast2`, and
 * `validated fast2` read both). */
int query_name_eval_other_code(struct query *q, const char *experiment, const char *name, const char *kernel,
			       const char *ksha, const struct param *params, size_t n_params,
			       const struct run_record **who);
/* The same, by every source file (paths and hashes, as a build's
 * `sources` lists them: the kernel and the headers it read) instead of
 * the kernel's alone: an eval candidate of this name whose headers
 * differed is other code too (red team 82's latehdr). */
int query_name_eval_other_sources(struct query *q, const char *experiment, const char *name, json_t *sources,
				  const struct param *params, size_t n_params, const struct run_record **who);
/* The code query_name_other_code compares (kernel path, content hash,
 * parameters in any order) as one text, the same for the same code: what
 * a name's claim holds (store.h, "Names in flight").  malloc'd. */
char *query_code_text(const char *kernel, const char *ksha, const struct param *params, size_t n_params);
/* Every run in the store, newest first, the runs of reproductions
 * included: a reproduction's runs are runs of the code it rebuilt, and
 * `validated` asks every run of its code (red team 44: a reproduction
 * that failed s1 and s7 left `validated s1` supported).  *out is the
 * caller's to free. */
size_t query_all_runs(struct query *q, const struct run_record ***out);

/* The timing samples of a run (its samples object), in us; *x is the
 * caller's to free, *n may be 0.  0, or -1 after error() on damage. */
int query_samples(struct query *q, const struct run_record *run, double **x, size_t *n);
/* Every repeat's samples of a row, pooled (same contract). */
int query_row_samples(struct query *q, const struct batch_row *row, double **x, size_t *n);
/*
 * Every ok repeat's samples of a row, one group per run in the row's order:
 * (*x)[r][0..(*n)[r]) for r < *k; a run without samples is left out.  The
 * arrays are the caller's to free with query_groups_free.  0, or -1 after
 * error() on damage (nothing to free then).
 */
int query_row_groups(struct query *q, const struct batch_row *row, double ***x, size_t **n, size_t *k);
void query_groups_free(double **x, size_t *n, size_t k);

/*
 * Is the code of run still the code in the working tree?  Compares every
 * source {path, sha256} of its kernel (code.sources) and of its problem
 * (problem.sources: the plug-in, its GPU reference and their headers)
 * with the file's bytes now (paths relative to the repository root, the
 * current directory).  1 when every file matches; 0 with the reason in
 * why when one differs, is missing, or the run recorded no kernel source.
 * A record older than problem provenance that names its commit
 * (code.git.commit) ran the problem's code at that commit: current only
 * where that code is the working tree's, file for file, and a commit the
 * repository lacks is not current (store/problem_code.h; red team 294
 * row 2); q (may be NULL) is where a dirty run's recorded diff is read.
 * One that names no commit either ran a problem whose code is unknown:
 * not current (red team 295 row 3).
 */
int query_sources_current(struct query *q, const struct run_record *run, struct strbuf *why);
/* Did runs a and b record the same code: every kernel and problem source,
 * path and hash, in the same order? */
int query_runs_same_code(const struct run_record *a, const struct run_record *b);

/* Statistic stat of a row of batch b (b NULL for a lone run's row): the
 * one table of record.h (record_stat) with the row's runs. */
int query_stat(struct query *q, const struct batch_record *b, const struct batch_row *row,
	       const char *stat, double *v, double ci[2], int *have_ci, struct strbuf *why);

#endif /* EVIDENT_QUERY_H */
