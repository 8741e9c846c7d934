/*
 * cmd_reproduce.c - `evident reproduce BATCH`: find the batch (as `show`
 * finds an id), rebuild its recorded code and run its recorded spec again
 * (run/reproduce.h), then print the verdict per variant from the new
 * batch record, and decide the exit code.
 *
 * Paths: --store and $EVIDENT_STORE are relative to where you ran the
 * command (as for `show`); the repository is the one holding the current
 * directory, and the build cache its build/cache unless --cache says.
 */
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/evident.h"
#include "cli/options.h"
#include "run/reproduce.h"
#include "store/query.h"

static const char synopsis[] =
	"usage: evident reproduce [options] BATCH\n"
	"\n"
	"Rebuilds the code batch BATCH ran - its recorded commit, plus the recorded patch\n"
	"of a dirty tree (untracked kernels and experiments included) - in a temporary\n"
	"directory, runs its recorded spec there (the variants of the batch) into the\n"
	"same store, and says per variant whether the new batch reproduces it:\n"
	"  reproduced         the same outcome and, for ok variants, the recorded median\n"
	"                     lies within the new 95% CI (two-level, over repeats) widened\n"
	"                     by the noise band, and the new median within the recorded CI\n"
	"                     widened alike\n"
	"  not reproduced     another outcome, or a median outside that band (both printed)\n"
	"  could not rebuild  it built then and does not now (the build error is printed)\n"
	"A GPU, driver, CUDA toolchain or host CPU other than the recorded one is a\n"
	"warning.  The new batch records the verdicts ('reproduction', evident show).\n"
	"Run it in a clone of the repository that recorded the batch; the working tree\n"
	"is never touched.  BATCH is a batch id, a unique prefix of it, or of its hash\n"
	"part (evident ls --batches).\n";

static const struct opt_usage usage = {
	"reproduce", synopsis,
	"exit codes: 0 every variant reproduced; 1 a variant not reproduced or not\n"
	"rebuilt; 2 bad command line or an ambiguous BATCH (the candidates are listed);\n"
	"3 the recorded spec does not load in this evident; 4 no device; 5 the store\n"
	"cannot be read or written; 6 a tool is missing; 7 no such batch; 8 the recorded\n"
	"code cannot be restored here (its commit is not in this repository: fetch it;\n"
	"recorded outside git; the patch does not apply; the tree lacks what this\n"
	"evident needs); 130 interrupted\n"
};

/* Absolute form of p against the current directory (caller frees). */
static char *absolute(const char *p)
{
	char cwd[PATH_MAX];
	if (p[0] == '/' || !getcwd(cwd, sizeof(cwd)))
		return xstrdup(p);
	return xstrfmt("%s/%s", cwd, p);
}

/* The batch id names: a batch, or the batch of a run.  NULL after error()
 * with *rc set. */
static const struct batch_record *find_batch(struct query *q, const char *id, int *rc)
{
	struct strbuf why = STRBUF_INIT;
	long i = query_find(q, id, &why);
	const struct batch_record *b = NULL;
	if (i == -2) {
		error("'%s' is ambiguous: it names %s; give more of the id", id, why.buf);
		*rc = EV_USAGE;
	} else if (i < 0) {
		if (q->no_store) {
			struct strbuf sb = STRBUF_INIT;
			store_hint_here(&sb);
			error("no batch '%s': there is no store at '%s'; %s", id, q->st.root, sb.buf);
			strbuf_release(&sb);
		} else {
			error("no batch '%s' in '%s'; 'evident ls --batches' lists the batches", id, q->st.root);
		}
		*rc = EV_NOT_FOUND;
	} else {
		const struct run_record *r = query_run_at(q, (size_t)i);
		b = r ? query_batch_of(q, r) : query_batch_at(q, (size_t)i);
		if (r && b)
			printf("run %s is one of batch %s: reproducing the batch\n", r->run_id, b->run_id);
		else if (r)
			error("run '%s' belongs to no batch in '%s'; reproduce takes a batch (evident ls --batches)",
			      r->run_id, q->st.root);
		*rc = b ? EV_OK : r ? EV_NOT_FOUND : EV_STORE;
	}
	strbuf_release(&why);
	return b;
}

int cmd_reproduce(int argc, const char **argv)
{
	const char *store_arg = NULL, *cache_arg = NULL, *id;
	struct repro_options o = { .threshold = -1, .progress = isatty(2) };
	const struct option opts[] = {
		OPT_STORE(&store_arg),
		OPT_INT("repeats", &o.repeats, "N", "[1, 1000]", "worker processes per variant (default: the batch's own)"),
		OPT_DOUBLE("threshold", &o.threshold, "T", "[0, 1)",
			   "the noise band, a fraction (default: the one the batch's\n"
			   "verdicts used, 0.01)"),
		OPT_CACHE(&cache_arg),
		OPT_BOOL("keep", &o.keep, "keep the rebuilt tree and print where it is"),
		OPT_NO_PROGRESS(&o.progress),
		OPT_END(),
	};
	argc = parse_options(argc, argv, opts, &usage);
	if (argc < 0)
		return argc == OPT_HELP ? EV_OK : EV_USAGE;
	if (argc != 1) {
		if (argc)
			opt_usage_error(&usage, "one batch at a time ('%s' and '%s')", argv[0], argv[1]);
		else
			opt_usage_error(&usage, "which batch? give one (see 'evident ls --batches')");
		return EV_USAGE;
	}
	id = argv[0];
	if (!is_safe_name(id)) {
		error("'%s' is not a batch id (batch ids hold only letters, digits and _ . -; see 'evident ls --batches')", id);
		return EV_USAGE;
	}
	char *store = absolute(store_default_root(store_arg));
	char *cache = cache_arg ? absolute(cache_arg) : NULL;
	struct query q = QUERY_INIT, after = QUERY_INIT;
	struct repro_result res = { 0 };
	int rc = EV_OK;
	if (query_open(&q, store) < 0) {
		rc = EV_STORE;
		goto out;
	}
	const struct batch_record *old = find_batch(&q, id, &rc);
	if (!old)
		goto out;
	o.store_root = store;
	o.cache_dir = cache;
	o.color = isatty(1) && !getenv("NO_COLOR");
	enum repro_error err;
	if (reproduce_batch(&q, old, &o, &res, &err) < 0) {
		static const int codes[] = { [REPRO_OK] = EV_INTERNAL,	      [REPRO_NO_CODE] = EV_NO_CODE,
					     [REPRO_SPEC] = EV_SPEC,	      [REPRO_NO_DEVICE] = EV_NO_DEVICE,
					     [REPRO_STORE] = EV_STORE,	      [REPRO_ENV] = EV_ENV };
		rc = codes[err];
		goto out;
	}
	if (res.tree)
		printf("the rebuilt tree is kept in %s\n", res.tree);
	/* the verdicts as the new batch recorded them */
	const struct batch_record *nb = NULL;
	if (query_open(&after, store) == 0) {
		struct strbuf why = STRBUF_INIT;
		long i = query_find(&after, res.batch_id, &why);
		nb = i >= 0 ? query_batch_at(&after, (size_t)i) : NULL;
		strbuf_release(&why);
	}
	if (!nb || !nb->repro.have) {
		error("the reproduction's batch '%s' cannot be read back from '%s'", res.batch_id, store);
		rc = EV_STORE;
		goto out;
	}
	struct strbuf table = STRBUF_INIT;
	repro_format(&nb->repro, nb->run_id, &table);
	fputs(strbuf_str(&table), stdout);
	strbuf_release(&table);
	rc = res.interrupted ? EV_INTERRUPTED : nb->repro.reproduced ? EV_OK : EV_FAILURES;
out:
	repro_result_release(&res);
	query_release(&after);
	query_release(&q);
	free(store);
	free(cache);
	return rc;
}
