/*
 * reproduce.h - `evident reproduce BATCH`: rebuild the code a batch ran and
 * run it again, then say per variant whether the new batch reproduces the
 * recorded one.
 *
 * The code is the batch's recorded commit plus, for a dirty tree, its
 * recorded patch (provenance.c: tracked changes and untracked kernels and
 * experiments), checked out into a temporary directory: a repository of
 * its own whose objects are the user's (git's alternates), HEAD detached
 * at the commit, the patch applied to its work tree.  So the user's work
 * tree, index and refs are never touched, and the new batch's provenance
 * names the same commit and the same patch.  The spec run is the recorded
 * spec text (its object in the store), not today's file; the variants are
 * the recorded batch's; the store and the build cache are the user's.
 *
 * The verdict on a variant (record.h, rec_reproduction): reproduced when
 * the outcome is the same and, for ok variants, the recorded median lies
 * within the new two-level 95% CI widened by the noise band t (the one the
 * recorded batch's verdicts used, holm.threshold) - [lo (1 - t), hi (1 + t)]
 * - and the new median within the recorded CI widened alike; else not
 * reproduced; could not rebuild when the recorded code built then and does
 * not now.  A GPU, driver, CUDA toolchain or host CPU that differs from the
 * recorded one is a warning, printed and recorded.
 */
#ifndef EVIDENT_REPRODUCE_H
#define EVIDENT_REPRODUCE_H

#include <jansson.h>

#include "record/record.h"
#include "store/query.h"

struct repro_options {
	const char *store_root;      /* absolute: the store of the batch, and of the new one */
	const char *cache_dir;       /* absolute build cache; NULL: build/cache of the repository */
	int repeats;                 /* > 0: override the recorded batch's repeats */
	double threshold;            /* >= 0: the noise band; < 0: the recorded batch's */
	int progress, color;
	int keep;                    /* 1: keep the temporary tree (its path in the result) */
};

struct repro_result {
	char *batch_id;              /* the new batch, NULL when none was recorded (caller frees) */
	char *tree;                  /* the rebuilt tree when kept (caller frees) */
	int interrupted;
};

/* Why a reproduction stopped before its batch was recorded. */
enum repro_error {
	REPRO_OK,
	REPRO_NO_CODE,               /* the recorded code cannot be restored here: not a repository,
					no commit recorded, the commit is missing, the patch does not
					apply, the tree lacks what this evident needs */
	REPRO_SPEC,                  /* the recorded spec does not load in this evident */
	REPRO_NO_DEVICE,             /* the experiment needs a device that is not here */
	REPRO_STORE,                 /* the store cannot be read or written */
	REPRO_ENV,                   /* a tool is missing, a temporary directory cannot be made */
};

/*
 * Reproduce batch old, read through q (open on o->store_root), from the
 * repository holding the current directory.  Prints the run's progress and
 * summary like `evident run`.  Returns 0 when the new batch was recorded
 * (res->batch_id; its reproduction field holds the verdicts), or -1 after
 * error() with *err saying why.  The temporary tree is removed either way
 * unless o->keep.  Release res with repro_result_release.
 */
int reproduce_batch(struct query *q, const struct batch_record *old, const struct repro_options *o,
		    struct repro_result *res, enum repro_error *err);
void repro_result_release(struct repro_result *res);

/*
 * The verdict on one variant: recorded row old, new row now (NULL when the
 * reproduction has none), noise band t.  Fills out (its strings borrow from
 * the rows, the reason from *reason, which the caller frees: NULL when
 * reproduced).
 */
void repro_judge(const struct batch_row *old, const struct batch_row *now, double t, struct rec_repro_row *out,
		 char **reason);

/*
 * Appends to warnings (an array) one string for each fact of where the
 * batches ran that differs: the GPU's name, its driver, the CUDA toolchain,
 * the host's CPU (record_batch_env).
 */
void repro_env_warnings(const struct batch_record *old, const struct batch_record *now, json_t *warnings);

/* The reproduction of batch `batch_id` as a table, one line per variant
 * (and a line per reason and per warning), appended to out. */
void repro_format(const struct rec_reproduction *r, const char *batch_id, struct strbuf *out);

#endif /* EVIDENT_REPRODUCE_H */
