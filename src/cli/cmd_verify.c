/*
 * cmd_verify.c - `evident verify`: re-hash every object and manifest of the
 * store, follow every reference and the manifests' hash chain, and name
 * every file that is altered, truncated or missing (store_verify.c does the work),
 * and hold it to the git history it lies in (store_anchor.c).
 * Without --store or EVIDENT_STORE it checks every store in the current
 * folder (the user's store/ and a repository's committed one alike).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/evident.h"
#include "cli/options.h"
#include "store/query.h"
#include "store/store.h"

static const char synopsis[] =
	"usage: evident verify [--store DIR] [--quiet] [--history]\n"
	"\n"
	"Checks the store: every object's content must hash to its name, every\n"
	"manifest must match its digest and be in canonical form, every object a\n"
	"manifest refers to must exist, and every manifest's 'prev' must name an\n"
	"intact manifest.  A store inside a git work tree is anchored to it: every\n"
	"record file (runs/, objects/) of the commit HEAD must be in the store byte\n"
	"for byte; with --history, no commit since may have modified or deleted one\n"
	"(the chain has no key: a history cut and re-chained passes the checks\n"
	"above).  Prints one line per problem ('altered: PATH: why',\n"
	"'missing: PATH ...'), notes (orphan objects, harmless), then a summary.\n"
	"Without --store (or EVIDENT_STORE), every store in the current folder is\n"
	"checked, a summary line each (in a clone of evident: artifacts/, and store/\n"
	"once you have run an experiment).\n";

static const struct opt_usage usage = {
	"verify", synopsis, "Exit 0 when every store checked is intact, 1 when anything is damaged, 5 when there is\nno store.\n"
};

/* Verify the store at root, print its findings and summary line; an exit code. */
static int verify_one(const char *root, int quiet, int history)
{
	struct store st = STORE_INIT;
	if (store_open(&st, root, 0) < 0) {
		store_release(&st);
		return EV_STORE;
	}
	struct strbuf out = STRBUF_INIT;
	int notes;
	size_t nobj, nruns;
	int problems = store_verify(&st, &out, &notes, &nobj, &nruns);
	if (problems < 0) {
		strbuf_release(&out);
		store_release(&st);
		return EV_STORE;
	}
	problems += store_anchor(&st, history, &out, &notes);
	/* eval sessions' batches recorded before they were marked (`session:
	 * eval`): readers pass them over as marked ones (query.c is_eval); said
	 * here, since nothing in their records says it */
	struct query q = QUERY_INIT;
	int saved = util_quiet;
	util_quiet = 1;
	if (problems == 0 && query_open(&q, root) == 0) {
		util_quiet = saved;
		for (size_t i = 0; i < q.n; i++)
			if (q.e[i].a.is_batch && !q.e[i].a.session && query_is_eval(&q, i)) {
				strbuf_addf(&out, "note: %s is an eval session's batch recorded before eval marked its "
						  "batches (a row is no variant of its spec, or not with its kernel and "
						  "parameters): `latest` and the newest batch pass it over\n",
					    q.e[i].run_id);
				notes++;
			}
		query_release(&q);
	}
	util_quiet = saved;
	if (!quiet || problems)
		fputs(strbuf_str(&out), stdout);
	printf("verify: %s: %zu objects, %zu runs: %s", st.root, nobj, nruns, problems ? "" : "intact");
	if (problems)
		printf("%d problem%s", problems, problems == 1 ? "" : "s");
	if (notes)
		printf(" (%d note%s)", notes, notes == 1 ? "" : "s");
	printf("\n");
	strbuf_release(&out);
	store_release(&st);
	return problems ? EV_FAILURES : EV_OK;
}

int cmd_verify(int argc, const char **argv)
{
	const char *dir = NULL;
	int quiet = 0, history = 0;
	const struct option opts[] = {
		OPT_STORE(&dir),
		OPT_BOOL("quiet", &quiet, "print the summary line only (and the problems, if any)"),
		OPT_BOOL("history", &history,
			 "also walk the git history: no commit may modify or delete a committed record file"),
		OPT_END(),
	};
	argc = parse_options(argc, argv, opts, &usage);
	if (argc < 0)
		return argc == OPT_HELP ? EV_OK : EV_USAGE;
	if (argc > 0) {
		opt_usage_error(&usage, "unexpected argument '%s' for 'evident verify'", argv[0]);
		return EV_USAGE;
	}
	const char *env = getenv("EVIDENT_STORE");
	if (dir || (env && *env))
		return verify_one(store_default_root(dir), quiet, history);
	size_t n;
	char **here = store_dirs_in(".", &n);
	if (!n) {
		store_free_list(here, n);
		return verify_one(store_default_root(NULL), quiet, history); /* says there is none, and what to do */
	}
	int rc = EV_OK;
	for (size_t i = 0; i < n; i++) {
		int r = verify_one(here[i], quiet, history);
		rc = rc == EV_OK ? r : rc;
	}
	store_free_list(here, n);
	return rc;
}
