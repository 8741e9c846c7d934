/*
 * code_identity.h - what code a row of a batch ran, and how, for the
 * readers that must tell "the same kernel" from "another one" by content,
 * never by name: the audit (reruns, tries, the same code on both sides of
 * a claim) and the paper's scaling block (a column that is not one code).
 *
 * Names are the writer's to choose, so every match is by content, and by
 * more than one content: a byte-identical copy of a kernel under another
 * file name builds another binary (red team 36), a header added with
 * `-include` changes the files read but not the binary, a linker flag
 * (`-Wl,--build-id=...`) changes the binary but not the code (red team
 * 37).  Two rows ran the same code when their binaries are equal, or when
 * their sources' contents, the compiler's command line (linker options,
 * file names and output paths left out) and their parameters are, or when
 * their host objects' echo-neutral identities are (the relocatable object
 * of each one's own compile with its EV_PARAM echo cut out, relinked to
 * the object: a parameter the kernel only echoes changes the object by
 * its echo string alone: red team 38's TRY, red teams 44 and 46's SALT; a CUDA kernel's
 * bin is its device code, which holds no echo), or when what the loader
 * maps of their objects is (code.load_sha256, base/elf.h: every loaded
 * segment, the build id zeroed).  The
 * family of a row is its kernel file's own content alone: the same kernel
 * at any parameters, flags and headers, which the audit counts as tries.
 *
 * The load hash (red team 83): a comment-only copy of a host kernel under
 * another file name matched on nothing else.  Its object differs from the
 * original's only where the loader never looks (.symtab's STT_FILE name,
 * debug information, and the build id computed over the whole file),
 * binary_sha256 covers those, and the code hash covers the comments; so
 * each copy was a clean slate: 8 copies of a kernel wrong in half its
 * processes gave one `validated` on the copy that drew clean, 8 copies of
 * an honest kernel with a per-process speed one `value median_us=100us`
 * where 5 of 8 batches exclude it.  Why equal loaded bytes are the same
 * code: the loader maps those bytes at those addresses with those
 * protections and relocates them by the same dynamic tables (they are in
 * the loaded bytes too), so both objects execute the same instructions on
 * the same data; what can differ is only what the code reads of itself
 * from outside its image: its file on disk (through dladdr or
 * /proc/self/maps: the unloaded sections, the file name).  The build id
 * is zeroed in the hash and, since red team 199 (a `-Wl,--build-id=uuid`
 * coin read from the kernel's own header), set to the load hash in the
 * object itself (base/elf.h elf_seal_build_ids), so it no longer tells
 * load-equal objects apart.  A kernel can still tell two load-equal
 * objects apart on purpose (a non-loaded section of its own, read from
 * its file; the section-table fields of its mapped ELF header, which a
 * `#ident` line moves: red team 200's shoff.c, b 4.1x slower than its
 * load-equal a), as it can read its own echo at run time and behave by it
 * (the echo-neutral identity masks the echo's value; before it was of the
 * object's own text, a second build the kernel could tell apart: red
 * teams 49 and 125); so the load hash merges exactly where the
 * echo-neutral hash does, where
 * merging counts against a claim: code_same (both sides of a verdict, a
 * rerun or another batch that disagrees, eval's "never promote the
 * reference's own code") and code_same_program (`validated`: every run of
 * every load-equal copy is evidence, and one failure contradicts; more
 * runs never make a claim supported), never code_same_built (the runs and
 * batches gathered as evidence for a value, a verdict or a speed).  The
 * cost: an honest comment-only copy's batches count only where they
 * disagree with a value or a verdict, as the echo-neutral twin's do.  A
 * copy that changes a string the object keeps (__FILE__, an assert's
 * line) or one instruction is another code still, and code_same_built
 * takes the code hash (sources, flags and parameters, not the kernel's
 * file name) only where the loaded images agree: a byte-identical copy
 * under another name maps other bytes (__BASE_FILE__), and red team 143's
 * slow copy of a reference counted as the reference.
 *
 * Libraries (red team 87's lib): a shared library the object loads is
 * in the sources (so in the code hash: red team 72), but in none of the
 * object's hashes, so one object with two versions of its library had one
 * binary, one echo-neutral and one loaded image, and was one code to the
 * drift rule (an honest faster claim contradicted, eval 0 of 3 honest
 * candidates promoted).  Every clause by an object's hash asks for the
 * same libraries too (code_id.libs).
 */
#ifndef EVIDENT_CODE_IDENTITY_H
#define EVIDENT_CODE_IDENTITY_H

#include "record/record.h"
#include "store/query.h"
#include "base/util.h"

struct code_id {
	const char *bin;        /* the built object's hash (borrowed from the record) */
	const char *dev;        /* the GPU's name, else the CPU's model (borrowed) */
	const char *cache;      /* the timing's cache mode, or NULL (borrowed) */
	const char *executor;   /* judge.executor (sealed or in_process), or NULL (borrowed) */
	const char *exec_kind;  /* "pool" or "slurm"; NULL for a plain run (borrowed) */
	const char *clock;      /* what the time is: "cupti window", "cupti sum" (records before
				 * the window, 2026-11-29), "cuda_events", "host"... (static or
				 * borrowed; NULL unknown) */
	int slots;              /* the pool's or array's slots; 1 for a plain run */
	int bin_whole;          /* bin hashes the whole program (the host backend's object); a CUDA
				 * kernel's bin is its device code alone (backend_cuda.c's
				 * post_build), the same for kernels whose host code differs */
	const char *neutral;    /* the host object but for its EV_PARAM echoes (record
				 * code.echo_neutral_sha256: backends/echo_mask.h; in records
				 * before it, a second build with the echoes held constant),
				 * or NULL (borrowed) */
	const char *file;       /* the whole object file (record code.file_sha256), or NULL: a record
				 * before it (a host object's bin is its file: bin_whole), a CUDA one before
				 * 2026-12-02 (borrowed).  What a kernel reading its own object on
				 * disk can tell apart: two rows are one code by an object's hash
				 * or by the code hash only where their files agree too */
	const char *load;       /* what the loader maps of the object, its build id zeroed (record
				 * code.load_sha256), or NULL: records before it (borrowed).  The
				 * whole program in both backends: a CUDA object's loaded image holds
				 * its host code and its .nv_fatbin device code */
	char code[SHA256_HEX_LEN + 1];   /* sources' contents + command line + parameters */
	char family[SHA256_HEX_LEN + 1]; /* the kernel file's content */
	char src[SHA256_HEX_LEN + 1];    /* sources' contents (the kernel file and every header and
					  * library the build read) + parameters by value: code less
					  * the command line and the compiler, "" for a record with no
					  * source.  The
					  * kernel file at its parameters whatever the build, as
					  * `validated` reads a run (code_refuted_run, red team 294) */
	char flags[SHA256_HEX_LEN + 1];  /* the command line's part of code alone (add_argv's
					  * arguments, the compiler's version and executable left out) */
	char job[SHA256_HEX_LEN + 1];    /* what of its job the kernel can read: the worker's knobs, a
					  * fixed correctness.seed, the box's environment (code_identity.c
					  * job_hash) */
	char knobs[SHA256_HEX_LEN + 1];  /* the part of job that is the spec's (the worker's knobs, a
					  * fixed correctness.seed), the runner's process left out: what
					  * every session of one spec shares, whoever runs it and how
					  * (red team 284; no longer a key of eval.c
					  * ref_fastest_other_job: a session picks its spec, red team 285) */
	char env[SHA256_HEX_LEN + 1];    /* the part of job that is the runner's process (its environment
					  * and the box's self: settings.environment_sha256 and
					  * box_self_sha256), "" where the record has either not: who ran
					  * it and how, whatever the spec.  eval.c ref_job_unseen and the
					  * audit's slower_side_unseen read it across shapes (red team 287) */
	char libs[SHA256_HEX_LEN + 1];   /* the libraries the object loads (sources marked loaded, or
					  * named as a shared object: lib*.so*), sorted by content; the
					  * hash of nothing for none.  Not in bin, neutral or load: every
					  * clause that compares those compares this too (red team 87's
					  * lib, red team 72's libpass) */
};

/* The identity of a row (its first run); 1, or 0 when the run, its binary
 * or its device is unknown (id is then unset). */
int code_identity(struct query *q, const struct batch_row *row, struct code_id *id);
/* The same for one run with the parameters it ran at (its row's, or the
 * run record's own for a run outside a batch): the `validated` claim
 * gathers runs, not rows. */
int code_identity_run(const struct run_record *r, const struct param *params, size_t n_params, struct code_id *id);
/* The same code: the same binary, the same code hash, the same
 * echo-neutral host object, or the same loaded image.  Only where merging
 * counts against the side whose author could have made the copy: a
 * candidate, the side a claim calls faster, a `validated` or value
 * claim's kernel (red team 181's minute copies, one image in two files:
 * merged, a copy's lost batch is weighed against the next).  Never for
 * the incumbent (eval's reference, a claim's slower side): its author
 * writes the rows it would merge, a twin that reads its echo, a build
 * with another linker option, a copy that reads its own file, each fast
 * in side batches that held honest challengers and contradicted honest
 * claims (red teams 180, 181); there code_same_built, and the drift
 * rule's code_same_history. */
int code_same(const struct code_id *x, const struct code_id *y);
/* The same program, host code included: the same code hash, or the same
 * binary, or echo-neutral object, where it hashes the whole program
 * (`validated`: a launch() that skips the work beside the honest device
 * code is another program), or the same loaded image (which is the whole
 * program in both backends). */
int code_same_program(const struct code_id *x, const struct code_id *y);
/* Both load the same libraries (code_id.libs): what every clause by an
 * object's hash asks beside it (eval's and a search's "the same code"
 * too). */
int code_same_libs(const struct code_id *x, const struct code_id *y);
/* A side of eval's begun marker (store.h store_pending_begin_batch_code:
 * {binary_sha256, echo_neutral_sha256, load_sha256, libs}) is id's code by
 * the object (code_same's clauses by a hash, the same libraries): only
 * ever counted against a claim or a candidate (red team 93). */
int code_same_object_json(const json_t *side, const struct code_id *id);
/* code_id.libs of one run record (the hash of nothing for none), for a
 * reader that keeps an object's hashes of its own (search.c). */
void code_libs_of(const struct run_record *r, char out[SHA256_HEX_LEN + 1]);
/* The same loaded image and neither the same binary nor the same code
 * hash: a copy that differs only in what the loader leaves on disk. */
int code_same_loaded(const struct code_id *x, const struct code_id *y);
/* The same code run the same way (cache mode, executor, plain or pool of
 * as many slots) and timed by the same clock. */
int code_same_way(const struct code_id *x, const struct code_id *y);
/*
 * The same code by the object that ran: the same binary, or the same
 * sources' contents, command line and parameters; never by the
 * echo-neutral object or the loaded image alone (the head of this file).  That object is a second build the kernel
 * can tell apart (red team 49: `#ifdef EVIDENT_KERNEL_H` is true there
 * only), so two codes of different behaviour can share its hash: it may
 * merge runs only where merging counts against a claim (failing runs for
 * `validated`, both sides of a verdict, params= narrowing), never where
 * runs are gathered as evidence for a value or a verdict.
 */
int code_same_built(const struct code_id *x, const struct code_id *y);
/* code_same_built, run the same way (as code_same_way). */
int code_same_built_way(const struct code_id *x, const struct code_id *y);
/*
 * The history an incumbent's speed now is held to (the drift rule's
 * fastest in eval and a search): the same program by the object that ran
 * (code_same_built: one file, or one code hash where the files and loaded
 * images agree), timed the same way, run under the same job as far as
 * the kernel can read it (code_id.job).  Not code_same: "only ever counts
 * against" was the reasoning, but what it counts against is the
 * challenger, and the incumbent's author writes both rows (red team 180:
 * a `-Wl,-z,now` build, a side batch at another warmup_ms, a copy whose
 * own section holds its name; each a fast row of "the reference's code"
 * that held honest 3-4x challengers, 9 of 11).  Red team 87's comment-only
 * copy is the same file since objects are linked stripped (backend_host.c,
 * red team 178).  The audit's slower side, whose spec the claim's author
 * wrote, is held to code_same_built_timed under any job
 * (audit_verdict.c slower_side_drifted).  A row whose timed runs were
 * not all under one job (code_row_one_job false: its id.job emptied) is
 * no one's history.
 */
int code_same_history(const struct code_id *x, const struct code_id *y);
/* The job part of code_same_history: one job hash, and not an emptied
 * one (a row of two jobs, code_row_one_job). */
int code_same_job(const struct code_id *x, const struct code_id *y);
/* Both ran under one runner's process (code_id.env), known on both. */
int code_same_env(const struct code_id *x, const struct code_id *y);
/*
 * Did every timed run of row (one with a cache mode, a clock and a
 * binary) run under id's job (code_id.job, id being the row's
 * code_identity)?  1 for a row of one run.  A row's identity is one run's
 * and its speed the median of all its runs (query_row_speed): red team
 * 189's midbatch re-pinned its runner's CPUs once the first run had
 * landed, so the row matched eval's job by that run while the fast runs
 * that set its median were another program's (an honest challenger held
 * 3 of 4 in eval, 2 of 2 in a search).  Reads each run's record.
 */
int code_row_one_job(struct query *q, const struct batch_row *row, const struct code_id *id);
/* code_same_built, timed the same way (cache mode, executor, clock),
 * plain, in a pool of any size or under Slurm: where a run's speed is the question, not its
 * batch's design (a speed a code was recorded at: red team 59 published a
 * reference from a pool of two slots, which a drift check that asked for
 * the same slots never read). */
int code_same_built_timed(const struct code_id *x, const struct code_id *y);

/* Outcomes that say nothing of the code: the run stopped before it or
 * outside it (aborted, no device, the build failed, the reference
 * failed).  The audit's reruns and tries leave such runs out. */
int code_outcome_says_nothing(enum outcome o);

/*
 * A code slower now than the fastest median it was recorded at (of the
 * rows code_same_built_timed finds in the store) by this factor: its speed
 * moved with its history, so a comparison against it says nothing about
 * the other side (eval's and a search's incumbent, the slower side of the
 * audit's faster and slower claims; red teams 51 and 59).  Median against
 * median, the estimate a speedup reports: the end of a CI is a number the
 * kernel shapes (red team 59: a fast batch with one slow process of three
 * has a CI up to the slow speed; red team 60: a reference slow 3x in 54%
 * of its launches and 1.05x in the rest had a CI low end under the margin
 * while every repeat's median was 3x, and eval promoted 24 of 54 copies
 * of its fast path).  Load moves an honest kernel between batches: under
 * make test's load on 2 CPUs an honest reference stood up to 1.19x above
 * its fastest median (red team 59's evalhonest), and this VM's speed
 * states 2x apart held 4 of 16 honest ~1.5x verdicts (red team 60).
 */
#define CODE_DRIFT_MARGIN 1.25
/* 1 when now_median lies above best_median by more than
 * CODE_DRIFT_MARGIN; 0 when either is unknown (NAN) */
int code_speed_drifted(double now_median, double best_median);
/* 1 when a challenger's median CI lies wholly under the fastest median
 * its incumbent's code was recorded at (best_median), by the drift
 * margin: faster than that code ever ran, so an incumbent's drift cannot
 * be what made it faster (red team 62 d: a reference that slowed by the
 * margin after its first batch held every candidate, one 2.11x under its
 * fastest included).  The CI's high end, not the median: copies of a
 * reference's fast path draw medians under its fastest on a VM whose
 * speed moves (red team 62 a8: 237-284 us against 257-352 us); and by
 * CODE_DRIFT_MARGIN, since a reference's fastest may be one batch in a
 * slow minute (red team 65's padwall at PRE 0: copies of the reference's
 * own rows promoted 13 of 42 at 2.02x-4.01x where its publish ran
 * slow).  0 when either is unknown. */
int code_beats_history(double challenger_ci_hi, double best_median);
/*
 * How far a faster side (fast) ran worse in another batch ("there") than
 * here, against a slower side (slow): the lesser of its speedup here over
 * its speedup there and its own median there over here, so that neither
 * the other side's speed there (red team 225's reference fast in one side
 * batch) nor load that slowed both counts.  Medians in us; NAN where any
 * is not positive.  CODE_DRIFT_MARGIN or more: its speed moved with its
 * history (eval's candidate_drift, the audit's faster_side_moved).
 */
double code_pair_drift(double fast_here, double slow_here, double fast_there, double slow_there);

/*
 * The tries that left runs and no batch record (an `evident run` or eval
 * session killed, or parked by SIGSTOP, after its first runs were
 * committed and before its batch record; red teams 93 and 94), as seen
 * from two codes a and b at one shape: for each batch_id of the store's
 * runs that no batch record carries (skip_id, the claim's or the judged
 * batch's own, left out), its runs of a's code and of b's on their
 * device (code_same_way, or code_same_built_way for a side in narrow:
 * CODE_NARROW_A, CODE_NARROW_B; a marker names a narrow side by its exact
 * object) at a problem same_problem accepts against prob.  Whatever else it ran:
 * a third code in a try says nothing against it (red team 94: a third
 * variant's run kept 92 of 92 killed tries out).  *out (the caller's to
 * free) holds those with a run of either code; returns their number.
 */
/* Which side of a try is the incumbent's (eval's reference, a claim's
 * slower side), matched by its exact object (code_same_built_way, a
 * marker's exact binary), never by code_same's broader clauses: its
 * author writes the rows a broad match would take (red team 184: a
 * stopped or killed batch of the reference's echo twin beside an honest
 * challenger held it, 2 of 2 each).  The other side by code_same. */
#define CODE_NARROW_A 1u
#define CODE_NARROW_B 2u
struct code_orphan {
	const char *batch_id;   /* borrowed from the query */
	size_t n_a, n_b;        /* its runs of a's code, of b's */
	size_t n_other;         /* its runs of other codes (at the shape, on a's device) */
	size_t unclean;         /* of those, runs that ended otherwise than ok (an aborted,
				 * no_device or build_failed run is not the code's: not counted) */
	double med_a, med_b;    /* the median of each side's ok runs' medians; NAN none */
	double lo_a, hi_a, lo_b, hi_b; /* the least and greatest of them */
	int marker;             /* its begun marker (eval's, or evident run's) names codes a and b */
};
size_t code_orphan_tries(struct query *q, const char *skip_id, const struct rec_problem *prob,
			 int (*same_problem)(const struct rec_problem *, const struct rec_problem *),
			 const struct code_id *ia, const struct code_id *ib, unsigned narrow, struct code_orphan **out);
/*
 * How such a try counts for a claim that a's code is want ("faster",
 * "slower", "no_difference", within the noise band thr) than b's, a_cand
 * set when a is the candidate (the side that is not the baseline):
 *   CODE_ORPHAN_NONE   not known to be a try of the two codes: one side's
 *                      runs and no begun marker that names both codes
 *                      (another experiment's sweep holding one of them:
 *                      PAPER.md's iter1 session, the device time limit's
 *                      kill, held cudnn_sdpa and not the claim's baseline),
 *                      save the candidate's runs with no other code's
 *   CODE_ORPHAN_AGAINST a try that does not give want: one side's runs
 *                      where the marker names both codes (evident run's and
 *                      eval's, written before the first job), or the
 *                      candidate's runs alone; a run of either that did not
 *                      end ok; or both
 *                      sides' runs going otherwise than want (faster: not
 *                      every ok run of a faster than every ok run of b, by
 *                      their medians; slower: the same, slower; no_difference:
 *                      b's median of them over a's outside [1 - thr, 1 + thr])
 *   CODE_ORPHAN_ITS_WAY both sides' runs, every one ok, going want's way:
 *                      left out, neither for nor against (a session the
 *                      device time limit killed mid-way through an honest
 *                      batch).  Not counted for want: a proposer who may kill
 *                      a session whenever its runs so far look want's way
 *                      would turn a random walk into support (optional
 *                      stopping); left out, a kill at such a moment only
 *                      loses the proposer a batch that was going its way.
 */
enum { CODE_ORPHAN_NONE, CODE_ORPHAN_AGAINST, CODE_ORPHAN_ITS_WAY };
/* Does the begun marker STORE_ROOT/pending/BATCH_ID.json (eval's or
 * evident run's, still there while its batch was never recorded) name
 * codes a and b?  0 where there is none. */
int code_marker_names(const char *store_root, const char *batch_id, const struct code_id *ia,
		      const struct code_id *ib, unsigned narrow);
/* Does begun batch marker m (eval's, or evident run's) name code id
 * under the variant name variant (a job's begun marker's: eval's
 * candidate or reference, a variant of evident run's), by the object
 * (code_same_object_json: only ever counts against a claim)? */
int code_marker_variant(const json_t *m, const char *variant, const struct code_id *id);
/*
 * An interrupted batch b, a try of codes a and b, as a killed try is read
 * (code_orphan_weight): each side's runs by their records (rows matching
 * a side as code_orphan_tries's narrow says), those that did not end ok (an aborted one aside)
 * unclean, its marker taken as naming both (the batch names both sides).
 * Red team 97's h2: a try cut short by SIGINT or SIGTERM counted against
 * whatever its runs showed, one cut short by SIGKILL was left out where
 * they all went the claimed way.  t's batch_id is borrowed from b.
 */
void code_interrupted_try(struct query *q, const struct batch_record *b, const struct code_id *ia,
			  const struct code_id *ib, unsigned narrow, struct code_orphan *t);
int code_orphan_weight(const struct code_orphan *t, int a_cand, const char *want, double thr);

/*
 * Did the judge refute run r's output (wrong output, NaN, an output left
 * unwritten) under the problem's own tolerance or a looser one, in a box
 * no weaker than the default (query_run_weak_judge_why)?  Its outcome,
 * else OUTCOME_OK.  A run judged tighter than the problem's rule counts
 * only where a failed check's recorded errors fail the problem's rule
 * too (red team 227: a side spec at rel_l2 1e-6 made an honest
 * challenger wrong_output in 1.2 s; red team 229: atol 0.1% under the
 * problem's let a cheat 100x over its rel L2 go unrefuted); never a
 * crash or a protocol violation, which a signal from outside the box
 * causes (red team 227's SIGKILL).  An `ok` whose runner judged the
 * extra shape without the drawn shape's rule is OUTCOME_WRONG_OUTPUT
 * where a check there fails that rule (record_shape_pass_misjudged: red
 * team 298 row 3).
 */
enum outcome code_run_refuted(const struct run_record *r);
/*
 * A run anywhere in the store (a batch's, an interrupted batch's, or one
 * of a try that left runs and no batch record) of code id's program
 * (code_same_program, as `validated` reads: the same code hash, binary,
 * echo-neutral object or loaded image, with the same libraries; timed any
 * way: red team 229's waywrong, a wrong run under `cache: cold`, held no
 * `hot` eval) on its device, at prob's
 * problem and dtype, at any shape, as `validated` reads (red team 265: a
 * candidate wrong at S=32 was promoted at S=64 by eval and by a search,
 * 3 of 3 each, the same binary) (its plug-in build, or another that
 * counts there: code_other_build_counts),
 * whose output the judge refuted (code_run_refuted); NULL
 * where none (the first found: q's order).  Eval, a search's
 * confirmation and the audit hold a code so refuted (red team 227: a
 * cheat wrong at nice 19 whose author killed its eval session as the
 * wrong run landed, before the batch record, was promoted 3 of 3; a
 * `faster` claim of it was supported 3 of 3).  By the program, not the
 * exact object (red team 273: by code_same_built, an echo-neutral twin,
 * a SALT the kernel only echoes, or a same-length `#ident` copy of a
 * code refuted at S=32 was promoted by eval and by a search and its
 * faster claim supported, 3 of 3 each, while `validated` called the
 * refuted runs the same code).  The match only ever counts against the
 * candidate, the side a claim calls faster, or a value claim's code,
 * whose author could have made the copy, so the wider match denies
 * nothing honest: two such objects behave apart only where the kernel
 * reads its own file or echo, which its author wrote.  And by the
 * sources and parameters whatever the build (code_id.src: the kernel
 * file and its headers by content at the same parameters, under any
 * flags or compiler, the kernel file at its parameters as `validated`
 * reads it; red team 294 row 3: twinbad.c P=1 SALT=1, refuted at S=32,
 * rebuilt under a spec's `flags: [-O1]`, was `faster` supported and
 * promoted by eval 4 of 4 each): a flag is that author's choice too.
 */
const struct run_record *code_refuted_run(struct query *q, const struct rec_problem *prob, const struct code_id *id);
/*
 * Why code_refuted_run's r is id's code where it is not id's exact object
 * (code_same_built): "the same sources and parameters, built under other
 * flags than" (or by another compiler), "an echo-neutral twin of", "a
 * loaded-image copy of", ... (static), for a reader's line; NULL where r
 * ran id's object.
 */
const char *code_refuted_how(const struct run_record *r, const struct code_id *id);
/*
 * Did run r's kernel refuse the extra shape (its `init` failed at the
 * drawn shape: job.c extra_shape_failed records "specialised")?  Then r
 * was checked at the spec's shape only.  The one reader of the status:
 * `validated` (audit_record.c), the batch's note (gather.c) and
 * code_specialised_run ask it.
 */
int code_run_specialised(const struct run_record *r);
/* How a scan of the store knows a code's runs: by its program
 * (code_same_program: the object, an echo-neutral twin, a loaded-image
 * copy), by its program or its sources and parameters under any flags
 * (code_refuted_run's), or by its object alone (code_same_built). */
enum code_match { CODE_MATCH_PROGRAM, CODE_MATCH_SOURCE, CODE_MATCH_BUILT };
/*
 * A run anywhere in the store of code id's code, as how matches it (see
 * enum code_match) on its device, at prob's problem and
 * dtype, at any shape, whose `init` refused the extra shape
 * (code_run_specialised); NULL where none (the first found: q's order).
 * Red team 296 row 2: red team 289's fix judges the extra shape at its
 * drawn shape, and an `init` that refuses every shape but the spec's
 * (lnshift.c RSQRT 1 MINC 65536, an rsqrtss layernorm outside the fp32
 * rule at small C) turned each catch into a note: `ok` 9 of 9, promoted
 * by eval 2 of 3, `faster` supported 3 of 3, while only `validated` read
 * the status.  Eval, a search's confirmation and the audit's verdicts
 * (faster, slower, a value claim on a comparison statistic) hold the
 * side that is said to be faster where this finds a run: its speed rests
 * on a code checked at the spec's shape only (code_specialised_held).
 */
const struct run_record *code_specialised_run(struct query *q, const struct rec_problem *prob,
					      const struct code_id *id, enum code_match how);
/*
 * The one rule eval, a search's confirmation and the audit's verdicts
 * share (red team 296 row 2): is a verdict that fast's code is faster
 * than slow's held for fast's refusal of the extra shape?  *fast_r is
 * fast's refusal (code_specialised_run, by its sources under any flags)
 * and *slow_r slow's (by slow's own object only: red team 298 row 1, a
 * build of the reference's sources under a -D that made its init refuse,
 * and red team 301, an echo-neutral twin of it at a parameter only its
 * init read, excused a refusing candidate), each NULL where none.  Held (1) where fast refused and slow did not: a speed
 * against a code checked at every shape drawn, by a code checked at the
 * spec's shape only.  Only the faster side's refusal holds: a slower
 * side that refused (a baseline specialised to its tiles) leaves the
 * faster side's output no less checked.  Where both refused (0, both set)
 * the two were checked alike, at the spec's shape only, and the verdict
 * stands with both refusals named: PAPER.md's tile kernels (iter1's wmma
 * and base, evo's g1c3, each refusing S=397, not a multiple of its
 * tiles) compare so, and a search over tiled kernels would otherwise
 * promote none.  What that leaves (README "Still out of reach"): a
 * claim's author who also picks a baseline that refuses the same shapes
 * (eval's reference is the session's, not the candidate's, choice);
 * `validated` still contradicts either side.
 */
int code_specialised_held(struct query *q, const struct rec_problem *prob, const struct code_id *fast,
			  const struct code_id *slow, const struct run_record **fast_r, const struct run_record **slow_r);
/*
 * Does run r, judged under another build of the problem than prob's (the
 * same problem name and dtype, another plug-in hash), count against its
 * code as a failure?  The same plug-in object: yes.  Where r and prob's
 * build at r's dims record the judge at the run's own shapes
 * (rec_problem.judge_run_sha256: the fills and the reference's outputs
 * to 20 bits on fixed inputs at r's shape, its small and extra shapes,
 * and the scalar): only under the same one, or where prob's build's is
 * "nondeterministic" (red teams 235, 237); else where both carry the
 * fixed-shape fingerprint (rec_problem.judge_sha256: the same at one
 * shape fixed for the problem, with FLOPs and minimum bytes): only
 * under the same fingerprint; either way, where prob's
 * build recorded a looser rule at r's shape, only if r's recorded errors
 * fail that rule too (red team 231: a no-op rebuild erased failures, 3
 * of 3; red team 232: a reference bent to exp(1.001x) refuted an honest
 * code, 10 of 10; a rule loosened by one part in 1e5 dropped a failure
 * 100x over it, 11 of 11; red team 234: a zero-writing code excused a
 * build's failures).  Records without it (older): yes unless that
 * build failed every other code it judged at r's shape on r's device, or
 * its rule there was tighter than prob's build's.  A run of prob's own
 * build: yes.
 */
int code_other_build_counts(struct query *q, const struct run_record *r, const struct rec_problem *prob);

#endif
