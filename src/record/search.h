/*
 * search.h - the search record (evident-search/1), written once a search
 * (run/search.h) has run its generations, and its one owner: like run and
 * batch records (record.h), no code outside src/record/ spells its JSON.
 *
 * A search is a sequence of generations, each one batch: the best so far
 * (its baseline, the "elite", measured again) and the generation's
 * candidates, each a mutation of a parent.  The record names, per
 * generation, the batch, every candidate with its parent, its mutation,
 * its outcome and its comparison with the best (the batch's verdict,
 * Holm-adjusted over the generation), whether a knob of it never reached
 * the binary, and which candidate is best after the generation and why.
 * README "Searches" documents every field.
 *
 *   format, kind ("search"), run_id (ends in -search), experiment,
 *   question, backend, started_utc, finished_utc, spec {path, object},
 *   code {git}
 *   settings    population, generations, elite, mutations, seed,
 *               seed_given, tunables [{name, range [lo, hi] | null, step,
 *               choices [..] | null}], kernels [..], budget {unit, limit}
 *   generations [{generation, batch, best_in, best_out, promoted, why,
 *               best_median_us, best_median_ci, cost {runs, wall_s,
 *               gpu_s, usd, cpu_s}, candidates [{id, role ("elite" |
 *               "candidate"), kernel, params, parent, parent_run,
 *               mutation, outcome, reason, run, binary_sha256, median_us,
 *               median_ci, comparison {speedup, speedup_ci, p_adjusted,
 *               verdict, verdict_reason} | null, no_effect, note,
 *               promoted}], confirmation {batch, challenger, confirmed,
 *               outcome, median_us, incumbent_median_us, comparison,
 *               earlier_tries [{batch, challenger, confirmed (false),
 *               outcome, median_us, incumbent_median_us, comparison,
 *               why}]} | null}]
 *   best        {id, run, generation, median_us, median_ci}
 *   budget      {unit, limit, spent, stopped} | null
 *   stopped     "generations" | "budget" | "exhausted" | "interrupted" |
 *               "failed", and stop_reason (one line)
 *   totals      {candidates, ok, failed, wall_s, gpu_s, usd}
 *   notes       [..]
 *
 * Ownership as record.h's: search_record_read keeps a reference to the
 * manifest, arrays are owned by the struct (freed by its release) and
 * strings borrowed from the manifest; record_search_json borrows
 * everything from the struct and returns a new reference.
 */
#ifndef EVIDENT_RECORD_SEARCH_H
#define EVIDENT_RECORD_SEARCH_H

#include "record/record.h"

#define RECORD_SEARCH_FORMAT "evident-search/1"

struct rec_candidate {
	const char *id;              /* the variant's name in its generation's batch: gGcK, or the start's */
	const char *role;            /* "elite" (the best so far, the batch's baseline) | "candidate" */
	const char *kernel;
	struct param *params;
	size_t n_params;
	const char *parent;          /* the parent candidate's id; NULL for the start */
	const char *parent_run;      /* the parent's run (its first repeat) it was mutated from */
	const char *mutation;        /* "BLOCK_M 16->32"; the elite's: what it is */
	const char *outcome, *reason;
	const char *run;             /* its first repeat's run id, NULL when none was recorded */
	const char *binary_sha256;   /* of its build (the run's), NULL when it did not build */
	double median_us, median_ci[2]; /* the batch's two-level median; NAN none */
	int have_cmp;                /* a comparison with the elite (candidates that ran) */
	double speedup, speedup_ci[2], p_adjusted;
	const char *verdict, *verdict_reason;
	const char *no_effect;       /* why its mutation never reached the binary, or NULL */
	const char *note;            /* anything else worth a line (a parameter not echoed), or NULL */
	int promoted;                /* 1: the best after this generation */
};

/* a confirmation that did not keep its challenger, before the generation's
 * next faster candidate was confirmed (red team 284: run/search.c
 * confirm_generation) */
struct rec_confirm_try {
	const char *batch;           /* its batch run id, NULL when it could not run */
	const char *challenger;      /* the candidate it measured again */
	const char *why;             /* why fresh processes did not keep it */
	struct rec_candidate c;      /* the challenger's row in that batch */
	double incumbent_median_us;  /* best_in's median in that batch, NAN none */
};

struct rec_generation {
	int generation;              /* 0-based */
	const char *batch;           /* the generation's batch run id */
	const char *best_in;         /* the elite: the best going in */
	const char *best_out;        /* the best after this generation */
	int promoted;                /* 1: best_out is a candidate of this generation */
	const char *why;             /* why best_out: the verdict, speedup and CI, or why none was promoted */
	double best_median_us, best_median_ci[2]; /* best_out's median in this batch, NAN none */
	long long runs;              /* runs of the batch */
	double wall_s, gpu_s, usd, cpu_s; /* what the generation cost; usd NAN without a price */
	struct rec_candidate *c;     /* the elite first, then the candidates */
	size_t n;
	/* the confirmation of a promotion (red team 48): the promoted candidate
	 * against the best going in, in a batch of fresh processes at the same
	 * repeats; have_confirm 0 when nothing was promoted in the batch */
	int have_confirm;
	const char *confirm_batch;   /* its batch run id, NULL when it could not run */
	const char *confirm_challenger; /* the candidate the generation's batch promoted */
	int confirmed;               /* 1: the confirmation said faster and the promotion stands */
	struct rec_candidate confirm_c; /* the challenger's row in that batch (id, outcome, medians, comparison) */
	double confirm_incumbent_median_us; /* best_in's median in that batch, NAN none */
	/* the confirmations before it, of candidates not kept (in order; the
	 * array owned by the struct) */
	struct rec_confirm_try *tries;
	size_t n_tries;
};

struct rec_search_tunable {
	const char *name;
	int is_range;
	long long lo, hi, step;
	const char **choices;        /* n_choices values (array owned by whoever filled it) */
	size_t n_choices;
};

struct search_record {
	json_t *raw;
	const char *format, *run_id, *experiment, *question, *backend;
	const char *started_utc, *finished_utc, *spec_path, *spec_object;
	struct rec_git git;
	struct rec_runner runner;    /* the runner that wrote it (have 0: not recorded) */
	/* settings */
	long long population, generations, elite, mutations;
	unsigned long long seed;
	int seed_given;
	struct rec_search_tunable *tunables;
	size_t n_tunables;
	const char **kernels;
	size_t n_kernels;
	const char *budget_unit;     /* NULL: no budget */
	double budget_limit, budget_spent;
	int budget_stopped;          /* 1: the budget stopped it */
	/* what happened */
	struct rec_generation *gens;
	size_t n_gens;
	const char *best_id, *best_run;
	int best_generation;         /* where best_run was measured; -1 none */
	double best_median_us, best_median_ci[2];
	const char *stopped, *stop_reason;
	long long t_candidates, t_ok, t_failed;
	double t_wall_s, t_gpu_s, t_usd; /* t_usd NAN without a price */
	json_t *notes;               /* array of strings (borrowed) */
	const char *prev, *digest;
};

/* Is manifest m a search record (kind "search")? */
int record_is_search(json_t *m);
/* Read m into r (takes a reference on m).  0, or -1 after error() when m
 * is no search record this evident reads.  Release r either way. */
int record_search_read(json_t *m, struct search_record *r);
void search_record_release(struct search_record *r);
/* The manifest of r, without prev/digest.  New reference. */
json_t *record_search_json(const struct search_record *r);
/* The candidate called id in generation g of r, or NULL. */
const struct rec_candidate *search_candidate(const struct search_record *r, size_t g, const char *id);

#endif /* EVIDENT_RECORD_SEARCH_H */
