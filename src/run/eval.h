/*
 * eval.h - `evident eval`: candidate kernels proposed from outside (a
 * language model, a search script, a person) judged one at a time against
 * a named reference, by a judge that stays up between candidates.
 *
 * A candidate is one JSON object (eval_request_parse says which keys):
 * a kernel as source text or as a file of the repository, parameters the
 * spec declares, and where it came from (parent, origin, mutation).  Each
 * candidate becomes an ordinary batch of two variants, the reference and
 * the candidate, with the spec's repeats (3 by default) interleaved in a
 * seeded random order, judged by the job path of `evident run` (job.c:
 * the sandbox, the parent's clock on the host, the sealed executor on
 * cuda, fresh inputs, the checks, the extra shape) and recorded into the
 * store with the candidate's lineage, so that `evident show`, `show
 * --lineage`, `ls` and the audit see it like any run.  The answer is one
 * JSON object: outcome and its reason, median with its CI, the speedup
 * over the reference with its CI and verdict, whether it is promoted, the
 * run and batch ids, and whether the build cache already held it.  A
 * candidate is promoted only when its verdict is faster in more than half
 * of the batches of its code against the reference's in the store, this
 * one included (eval_pool_batches): a resubmission is the same evidence;
 * an earlier batch that gave no verdict by its own settings (a side of
 * fewer than 3 repeats, or too few samples as asked) is left out, for
 * and against (red team 273: one-repeat pilots held honest candidates).
 *
 * Every candidate is an adversary: its source text is written under the
 * runner's own directory (EVAL_SRC_DIR, named by the text's SHA-256, so
 * that a resubmitted candidate finds its build in the content-hash cache),
 * never into kernels/ or the store; it is built in the build box and run in
 * the worker's box, where the store is masked; on cuda it is always timed
 * sealed (no `trust: host` for a candidate).  What lasts for the session
 * (eval_open): the store, the box, the git and machine provenance, the
 * problem's plug-in and tolerance, the reference's build.
 */
#ifndef EVIDENT_EVAL_H
#define EVIDENT_EVAL_H

#include <jansson.h>
#include <stddef.h>

#include "run/run.h"
#include "run/spec.h"
#include "stats/stats.h"
#include "store/query.h"

/* Where candidates' source texts are written, relative to the repository
 * root (git-ignored build output; the compiler may read it, the store
 * keeps each text as the run's code.sources object). */
#define EVAL_SRC_DIR "build/eval-src"

/* The default bound on a candidate's source text (--max-source-bytes). */
#define EVAL_MAX_SOURCE_BYTES ((size_t)1 << 20)
/* The bound on parent, origin and mutation, each. */
#define EVAL_MAX_TEXT_BYTES 4096

/* What a candidate may say, from the session's spec. */
struct eval_rules {
	const char *reference;        /* the reference's variant name, which no candidate may take */
	const char *const *declared;  /* the parameters the spec declares, NULL-terminated */
	const char *source_ext;       /* the backend's kernel files: ".c", ".cu" */
	size_t max_source_bytes;      /* the longest source text accepted */
};

/*
 * One candidate as asked for.  Keys of the JSON object:
 *   name      its variant name (letters, digits, _ . -; default: "cand-"
 *             and 12 hex digits of the hash of its code and parameters)
 *   source    the kernel's text, or
 *   kernel    a kernel file, relative to the repository root; neither:
 *             the reference's kernel and parameters, params applied over
 *   params    {NAME: value}: parameters the spec declares, each a string
 *             of letters, digits and _ . + -, or a number
 *   parent, origin, mutation   the lineage (text), recorded in every run
 * Strings are owned; params sorted by name.
 */
struct eval_request {
	char *name, *source, *kernel, *parent, *origin, *mutation;
	size_t source_len;
	struct param *params;
	size_t n_params;
};

/*
 * Check candidate object `in` against the rules into rq (released by the
 * caller with eval_request_release either way).  0, or -1 with *why (what
 * is wrong and what to do) and *at (where: the key, "params.BLOCK_Q", or
 * "" for the object as a whole), both malloc'd for the caller to free.
 */
int eval_request_parse(const json_t *in, const struct eval_rules *r, struct eval_request *rq, char **why,
		       char **at);
void eval_request_release(struct eval_request *rq);

/*
 * One line of input (len bytes, no newline) as a JSON object: a new
 * reference, or NULL with *why (malloc'd: "malformed JSON at column 17:
 * ...", "expected a JSON object, got an array").
 */
json_t *eval_parse_line(const char *text, size_t len, char **why);

/* The session's options (cmd_eval.c). */
struct eval_options {
	const char *store_root;       /* as run_options */
	const char *cache_dir;
	const char *price_table;
	const char *reference;        /* the reference variant; NULL: the spec's baseline */
	int repeats;                  /* > 0: override the spec's repeats */
	size_t max_source_bytes;      /* 0: EVAL_MAX_SOURCE_BYTES */
	int device;
	int progress;
};

/* How one candidate went, for the command's exit code. */
enum eval_status {
	EVAL_JUDGED,                  /* judged and recorded, whatever its outcome */
	EVAL_REFUSED,                 /* bad input: nothing ran, the answer says why */
	EVAL_INTERRUPTED,             /* SIGINT/SIGTERM: the batch was recorded with what finished */
	EVAL_STORE_FAILED,            /* the store failed: stop */
};

struct eval_session;

/*
 * Open a session on spec s (loaded for a run; cwd is the repository
 * root): the reference must be a variant of it and must build.  *out
 * (freed with eval_close) on 0; -1 after error() with *err set.
 */
int eval_open(const struct spec *s, const struct eval_options *o, struct eval_session **out,
	      enum run_error *err);
/* The reference's name and the repeats per side (for the command's banner). */
const char *eval_reference(const struct eval_session *es);
int eval_repeats(const struct eval_session *es);
/*
 * Judge candidate object `in`: a new JSON object, the answer (an error
 * object {"error", "at"} when refused), and *status.
 */
json_t *eval_judge(struct eval_session *es, const json_t *in, enum eval_status *status);
void eval_close(struct eval_session *es);

/*
 * A resubmission is the same evidence (fix50; red team 48: a proposer
 * that sends the same code until one batch says faster).  The batches of
 * store q that ran the candidate's code against the reference's code,
 * this one (batch `run_id`, rows `cand` and `ref`) and every earlier one:
 * the same problem, dtype, shape and plug-in, the same device, of any
 * experiment, `evident reproduce`'s included, not interrupted, the
 * reference's code the batch's baseline and ok; the candidate's code is
 * its binary or its sources, command line and parameters, run the same
 * way (report/code_identity.h, code_same_built_way, as the audit's
 * reruns), and a row of the same echo-neutral object alone counts only
 * where it is not faster (the kernel can tell that build apart: red team
 * 49).  Each such batch decides once: faster, or not (another verdict, or
 * the candidate's row not ok, a configuration's refusal aside).  The
 * candidate is promoted only when more than half of them are faster.
 *
 * And the configurations the candidate's kernel and the reference's were
 * tried in, by the audit's rule (report/code_configs.h code_pair_configs:
 * other shapes, parameters, flags or ways of running, killed and begun
 * tries there included; the batches weighed above are this
 * configuration's), with this batch's verdict drawn again with its p
 * adjusted (Bonferroni) over them (code_verdict_over_tries): the
 * candidate is promoted only when that still reads faster (red team 105:
 * an A/A copy of the naive kernel tried at a new B x H split or S each
 * time was promoted at try 141, 1.051x, p 0.019, each try the first at
 * its configuration).
 */
struct eval_pooled {
	size_t n;                /* the batches that decide, this one included */
	size_t k;                /* of those, the ones whose verdict is faster */
	size_t n_earlier;        /* the other (earlier) batches among the n */
	size_t n_unfinished;     /* of those, tries begun and never recorded (a killed session's begun
				  * marker, store_pending_begin_batch), each counted as not faster */
	struct strbuf others;    /* up to 6 of the others' verdicts when not faster: "VERDICT (BATCH)" */
	/* the reference's code at its fastest elsewhere in the store
	 * (eval_fastest_elsewhere: NAN, none), its median in this batch, and
	 * whether this one's median lies above that median by the margin
	 * (search_incumbent_drifted): a drifted reference promotes nothing */
	double ref_best_median, ref_median;
	char ref_best_batch[96];
	int ref_drifted;
	/* the candidate's median CI lies wholly under ref_best_median
	 * (code_beats_history): a drifted reference does not hold it */
	int cand_beats_ref_best;
	/* 1 plus the other configurations of the two kernels (1: none, or
	 * unknown), this batch's p adjusted over them (NAN: no p), and the
	 * verdict it then gives (static; NULL: no comparison) */
	size_t configs;
	double p_configs;
	const char *verdict_configs;
	/* the largest stress cost (batch_row_stress_slow) of a row of the
	 * candidate's code in the batches weighed, and that batch: a cost a
	 * batch drew holds the promotion wherever the majority was counted */
	double stress_x;
	char stress_batch[96];
	/* earlier batches left out: the reference's row there ran under
	 * another job and faster than here by CODE_DRIFT_MARGIN (pool_ref_moved) */
	size_t n_moved;
	/* the candidate's own history against the reference: the least
	 * speedup (the reference's median over the candidate's) of an
	 * earlier batch of the two codes that decides, that batch, and this
	 * batch's over it (NAN: none).  Over CODE_DRIFT_MARGIN the
	 * candidate's speed moved with its history and promotes nothing
	 * (red team 224: a coin kernel fast in earlier batches, at another
	 * nice value or before a time, won by the majority of them) */
	double cand_least_speedup, cand_drift;
	char cand_least_batch[96];
	/* a batch where a run of the candidate's code had its output refuted
	 * by the judge (wrong output, NaN, unwritten) under the problem's
	 * own tolerance or a looser one, a row of a weaker judge aside (not
	 * a crash or a violation a signal from outside causes: red team
	 * 227), and that outcome; "" none.  Such a code promotes nothing (red team 225: a
	 * coin whose bad draws were wrong answers, not slow runs, never
	 * lowered cand_least_speedup and was promoted by seed batches) */
	char cand_refuted_batch[96];
	const char *cand_refuted_outcome;
	/* the reference's code at its fastest under another job than this
	 * batch's (the runner's environment or process state; the spec's
	 * knobs any: ref_fastest_other_job, red team 285), that batch, and whether
	 * this batch's reference ran slower than it by CODE_DRIFT_MARGIN with
	 * the candidate's median CI not under it: then the session's job
	 * slowed the reference and promotes nothing (red team 284) */
	double ref_job_median;
	char ref_job_batch[96];
	int ref_job_held;
	/* a batch where the reference's code ran under another runner's
	 * process (code_id.env) at another shape of the problem, a process
	 * never compared with this session's (eval.c ref_job_unseen, red
	 * team 287), that shape, and this session's process's fastest there
	 * over the other's (NAN: it never ran there); "" none.  Then nothing
	 * is promoted */
	char ref_unseen_batch[96];
	char ref_unseen_shape[96];
	double ref_unseen_ratio;
	int ref_unseen_held;
	/* how cand_refuted_batch's refuted run is the candidate's code where
	 * it is not its exact object (code_refuted_how: "the same sources and
	 * parameters, built under other flags than", red team 294), or NULL
	 * (static) */
	const char *cand_refuted_how;
	/* a batch (or run) where the candidate's code refused the extra shape
	 * (code_specialised_held: its init failed at the drawn shape), and
	 * the reason its init gave; "" none.  cand_specialised_held where the
	 * reference's code never refused it: then the candidate was checked
	 * at the spec's shape only against a reference checked at every
	 * shape drawn, and promotes nothing (red team 296 row 2: an rsqrtss
	 * layernorm refusing every C but the spec's, promoted 2 of 3); where
	 * the reference refused too, ref_specialised_reason says why, and the
	 * decision names both */
	char cand_specialised_batch[96];
	char cand_specialised_reason[256];
	char ref_specialised_reason[256];
	int cand_specialised_held;
};
#define EVAL_POOLED_INIT                                                                                               \
	{ 0, 0, 0, 0, STRBUF_INIT, NAN, NAN, "", 0, 0, 1, NAN, NULL, 0, "", 0, NAN, NAN, "", "", NULL, NAN, "", 0, "", "", NAN, 0, NULL, "", "", "", 0 }
/* The candidate's own history holds its promotion: its code refuted in an
 * earlier batch, its code's init refusing the extra shape where the
 * reference's never did (cand_specialised_held), or faster against the reference here by
 * CODE_DRIFT_MARGIN than there and itself that much slower there
 * (cand_drift).  Eval's answer and a search's confirmation both ask it. */
int eval_pooled_cand_held(const struct eval_pooled *w);
/* c with its speedup and CI held to rule 4c's size_bound where the verdict
 * rests on the work (a faster's at most the bound, a slower's at least
 * it); c itself where unbounded: what eval's answer reports and its
 * decision states (red team 250, row 5). */
struct stats_comparison eval_bounded_comparison(const struct stats_comparison *c);

/*
 * The fastest a row's code was ever recorded at in the store: the lowest
 * two-level median of every ok row of the same code, or, of a row not ok
 * (flaky, crashed), the median of its ok runs' medians (red team 61: a
 * reference whose fast publish batch crashed in half its processes, a
 * flaky row with no statistics, was 1.7x slower later, and eval promoted
 * 23 of 30 copies of its fast path) (binary or sources,
 * timed the same way, alone or in a pool: code_same_built_timed) at the same problem, dtype,
 * shape and plug-in on the same device, in every batch but this one that
 * was not interrupted, whatever the row's role there (the baseline, a
 * variant beside another baseline, a search's generation, a
 * reproduction, a pool's slot).  Red team 59: a reference judged only against batches it
 * was the baseline of, by the end of their CIs, was not seen to drift
 * when its fast batch had a wide CI (one slow process of three), when it
 * ran beside another baseline, or when the fast batch was outside the
 * search; eval promoted copies of its own fast path 3 and 4 times in 6,
 * searches confirmed 8.49x and 10.24x.
 */
struct eval_fastest {
	double now_median;           /* the row in batch run_id: its median */
	double best_median;          /* NAN: no other ok row of its code */
	char best_batch[96];
};
struct eval_pool;
/* Fill *f for the row named variant of batch run_id of q (pool as
 * eval_pool_batches').  0, or -1 when the batch or the row is not in q or
 * the row has no code identity or no statistics. */
int eval_fastest_elsewhere(struct query *q, struct eval_pool *pool, const char *run_id, const char *variant,
			   struct eval_fastest *f);
/* What a session has read of the store's batches, each once (the rows'
 * code identities: reading run records is what costs); new, and freed
 * with eval_pool_free (NULL accepted). */
struct eval_pool;
struct eval_pool *eval_pool_new(void);
void eval_pool_free(struct eval_pool *p);
struct code_id;
/*
 * Is the candidate's object the reference's by a hash of the object alone
 * (the builds' info documents: binary_sha256, echo_neutral_sha256,
 * load_sha256)?  Each only where both load the same libraries
 * (code_same_libs of the rows' identities ic and ir: no object hash
 * covers a library, and one object with another library is another
 * program, as the audit reads it); ic or ir NULL (unknown) leaves the
 * hashes alone to decide.  Sets *binary, *echo and *load to 1 or 0.
 */
void eval_same_object(const json_t *cand_info, const json_t *ref_info, const struct code_id *ic,
		      const struct code_id *ir, int *binary, int *echo, int *load);

/* Fill *w for batch run_id of q and its rows named cand and ref, reading
 * into pool the batches of q it has not seen (pool NULL: a pool of this
 * call alone); *w is released by the caller (strbuf_release(&w->others)).
 * 0, or -1 when the batch or either row is not in q (w counts nothing). */
int eval_pool_batches(struct query *q, struct eval_pool *pool, const char *run_id, const char *cand, const char *ref,
		      struct eval_pooled *w);
/* Does w (eval_pool_batches) let a faster batch be promoted: faster in
 * more than half of its configuration's batches, and faster still with
 * its p adjusted over the configurations the two kernels were tried in? */
int eval_pooled_promotes(const struct eval_pooled *w);

#endif /* EVIDENT_EVAL_H */
