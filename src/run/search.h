/*
 * search.h - a kernel search judged by evident: generations of candidates
 * mutated over a spec's declared tunables (and kernel files), each
 * generation one ordinary batch (run_experiment: the same planner,
 * executor, judge and records as any `evident run`), selection made from
 * the batch's verdicts, and the search itself a record in the store
 * (record/search.h).
 *
 * A generation's batch holds the best so far as its baseline (the elite,
 * measured again beside its challengers, so every comparison is within
 * one batch) and `population` new candidates, each a mutation of a
 * parent (the best, and with elite > 1 the runners-up of the last
 * generation).  A candidate becomes the best only when its verdict
 * against the best is `faster`: p < alpha after Holm's correction over
 * the generation, the speedup's CI outside the noise band and Cliff's
 * delta on the same side (stats.h); `no_difference` and `inconclusive`
 * never promote.  A candidate whose device code is the best's (its
 * mutated knob never reached the binary) is reported as such and never
 * promoted, whatever its timing says; on the host "its device code" is
 * its object but for its EV_PARAM echo (echo_neutral_sha256),
 * so a knob that reaches only the kernel's echo of its parameters is no
 * effect either (red team 48).  Among the faster ones the largest lower
 * bound of the speedup's CI wins.
 *
 * A promotion stands only when fresh processes confirm it (red team 48:
 * with 3 repeats a side and a per-process coin, one batch's `faster` is
 * luck 1 time in 64 per comparison): the promoted candidate and the best
 * going in run again in a batch of their own (2 variants x the repeats,
 * new processes, a new plan seed), and only a `faster` there keeps the
 * promotion; otherwise the best going in stays and the generation's why
 * says so.  Both batches are in the record (generations[].confirmation).
 * A pick not kept for a reason of its own does not end the generation's
 * chances: the next candidate the batch read faster, in the pick's order,
 * is confirmed the same way, at most 3 confirmations a generation (red
 * team 284; search.c confirm_generation, confirmation.earlier_tries).
 *
 * Reproducible: the candidates of generation g are drawn from a generator
 * seeded by (seed, g) and depend on nothing else but the parents, so the
 * same seed and the same verdicts give the same candidates.  Each
 * generation's plan seed (interleaving, input seeds) is drawn afresh, as
 * for any batch, and recorded in it: never derived from the search's
 * seed, which the spec, readable by the kernels under test, holds.  Each
 * generation's spec, as run, is recorded with its batch (spec.object), so
 * `evident reproduce` re-runs a generation.
 *
 * Budget: before each generation the search estimates its cost at the
 * last generation's cost per run (the first: the newest batch of the
 * experiment in the store) and does not start it if the total would pass
 * the budget: CPU-seconds on the host (the runs' wall time), GPU-seconds
 * or dollars on a GPU (the runs' recorded cost).
 */
#ifndef EVIDENT_SEARCH_H
#define EVIDENT_SEARCH_H

#include <stdint.h>

#include "run/run.h"
#include "run/spec.h"

struct search_totals {
	int generations;             /* generations run */
	int interrupted;             /* SIGINT/SIGTERM stopped it */
	int failed;                  /* stopped as failed: the best so far did not end ok when
				        measured again, or a generation could not run */
	char *search_id;             /* the record's id (caller frees); NULL when none was written */
};

/*
 * Run the search of spec s (s->search set; cwd the repository root) with
 * options o (o->only must be NULL).  Prints each generation's summary and
 * the search's, and commits the search record.  0 when the record is
 * written (t says how it went), -1 after error() with *err set when the
 * search could not start or its record could not be written.
 */
int run_search(const struct spec *s, const struct run_options *o, struct search_totals *t, enum run_error *err);

/* ---- the mutation machinery, for its tests ------------------------------ */

/* splitmix64: the search's one generator (deterministic, no libc state). */
struct search_rng {
	uint64_t s;
};
/* The generator of generation g of a search seeded with seed. */
void search_rng_init(struct search_rng *r, unsigned long long seed, int g);
uint64_t search_rng_next(struct search_rng *r);

/*
 * One mutation of a parent (kernel, params[0..np)) under ss: ss->mutations
 * distinct genes (a tunable, or the kernel file when ss->kernels lists
 * any; start_kernel is the start variant's, always one of the choices)
 * changed.  Sets *kernel_out (malloc'd), *params_out (n_out entries, names
 * and values malloc'd; the parent's order, a tunable it lacked appended)
 * and appends to mutation what changed ("BLOCK_M 16->32, BLOCK_N
 * 64->128").  The caller frees with search_params_free.
 */
void search_mutate(const struct spec_search *ss, const char *start_kernel, const char *kernel,
		   const struct param *params, size_t np, struct search_rng *rng, char **kernel_out,
		   struct param **params_out, size_t *n_out, struct strbuf *mutation);
void search_params_free(struct param *p, size_t n);
/* A candidate's identity for "already judged": its kernel and its
 * parameters sorted by name (malloc'd). */
char *search_key(const char *kernel, const struct param *params, size_t np);

/*
 * The selection rule, on what a generation's batch said of each candidate
 * (v[0] is the elite, the best so far): the candidate that becomes the
 * best is one that ended ok, whose knob reached the binary (no_effect 0)
 * and whose verdict against the elite is "faster"; of several, the one
 * with the largest lower bound of the speedup's CI (then the largest
 * speedup).  Returns its index, or 0 when none may be promoted (the elite
 * stays); *n_faster counts the promotable ones.
 */
struct search_verdict {
	const char *outcome;         /* "ok", ... */
	const char *verdict;         /* the batch's: faster, slower, no_difference, inconclusive; NULL none */
	int no_effect;               /* its device code is the elite's */
	double speedup, speedup_lo;
	int weak;                    /* its runs or the elite's in a weaker box (query_row_weak_judge_why: no
				      * box, or an unverified bubblewrap's boxes) */
	double stress_slow;          /* a stress distribution's median over its timing median, where over
				      * 3x (batch_row_stress_slow: a cost the time leaves out), else 0 */
};
size_t search_pick(const struct search_verdict *v, size_t n, size_t *n_faster);

/*
 * Is a candidate's code the best's (its knob had no effect)?  Both of one
 * kernel file and either the same binary hash (SEARCH_SAME_BINARY) or,
 * where both records have one, the same echo-neutral hash (the host object
 * but for its EV_PARAM echo: SEARCH_SAME_ECHO, a knob
 * that reached only its echo), or the same loaded image (code.load_sha256:
 * SEARCH_SAME_LOAD, a knob that reached only what the loader leaves on
 * disk, as -g3 keeps each -DNAME=V in .debug_macro; red team 87's search,
 * as eval reads it); each only where both load the same libraries (libs:
 * code_identity.h code_id.libs, NULL unknown: an object's hashes do not
 * cover a library, and one object with another library is another
 * program).  SEARCH_OTHER_CODE otherwise; a NULL hash decides nothing.
 */
enum search_same { SEARCH_OTHER_CODE = 0, SEARCH_SAME_BINARY, SEARCH_SAME_ECHO, SEARCH_SAME_LOAD };
enum search_same search_same_code(const char *kernel_a, const char *binary_a, const char *neutral_a,
				  const char *load_a, const char *libs_a, const char *kernel_b, const char *binary_b,
				  const char *neutral_b, const char *load_b, const char *libs_b);

/*
 * Does a confirmation batch (search.c, confirm_promotion: the promoted
 * candidate against the best going in, in fresh processes) keep the
 * promotion?  Only when both ended ok and the candidate's verdict there is
 * faster; an interrupted batch (interrupted 1) never confirms.
 */
int search_confirms(const char *incumbent_outcome, const char *challenger_outcome, const char *verdict,
		    int interrupted);

/*
 * The text of a generation's spec: orig (the search's spec, block style)
 * without its variants, grid, baseline, params and search keys, then
 * `variants` as given (already formatted lines) and `baseline`.  0, or -1
 * with the reason in why (a flow-style spec, YAML it cannot read).
 */
int search_spec_text(const char *orig, const char *header, const char *baseline, const char *variants,
		     struct strbuf *out, struct strbuf *why);

/* An incumbent (a search's best going in, eval's reference) whose median
 * now lies above the fastest median its code was recorded at in the store
 * (eval_fastest_elsewhere) by CODE_DRIFT_MARGIN promotes nothing
 * (report/code_identity.h code_speed_drifted; red team 51: a kernel that
 * counted its own runs in the host's page cache ran 8x slower after its
 * sixth).  0 when either is unknown (NAN). */
int search_incumbent_drifted(double now_median, double best_median);

/* 1 when a challenger's median (its confirmation's) is not under the
 * fastest median an earlier best of its search's lineage was recorded at,
 * the incumbent aside: each incumbent may drift within CODE_DRIFT_MARGIN
 * unseen, and a copy of it then reads faster; a lineage of such steps
 * would promote the same speed again and again, "faster" each time.  An
 * honest challenger beat the incumbent, which beat its ancestors, so it
 * lies under them.  0 when either is unknown (NAN). */
int search_lineage_stalled(double challenger_median, double lineage_best_median);
/* Is name a search candidate's (gNcK, or gNcK-M where the store held gNcK
 * for other code)?  Such names are a search's own: eval refuses them. */
int search_reserved_name(const char *name);

#endif /* EVIDENT_SEARCH_H */
