/*
 * cmd_wait.c - `evident wait BATCH`: follow a batch submitted with
 * `evident run --slurm` until none of its tasks is pending or running,
 * then gather it and print the summary a local run prints (run/slurm.c
 * does the work).  The store is --store, else $EVIDENT_STORE, else store/
 * in the current directory, as for ls.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/evident.h"
#include "cli/options.h"
#include "run/run.h"
#include "store/store.h"

static const char synopsis[] =
	"usage: evident wait [--store DIR] [--timeout SEC] [--no-progress] BATCH\n"
	"\n"
	"Waits until no task of Slurm batch BATCH (its id, or a unique prefix) is pending or\n"
	"running, then gathers it: the runs of tasks that Slurm killed without a word (a node\n"
	"lost) are recorded aborted with Slurm's reason, and the summary of a local run is\n"
	"printed.  The batch record is written once every run of the batch is recorded;\n"
	"until then 'evident run --resume BATCH' submits what is missing.  Gathering again\n"
	"prints the recorded summary.\n"
	"exit: 0 every variant as expected; 1 failures, runs missing, or the timeout; 7 no such\n"
	"batch; 130 interrupted (the batch goes on in Slurm)\n";

int cmd_wait(int argc, const char **argv)
{
	static const struct opt_usage usage = { "wait", synopsis, NULL };
	const char *store_arg = NULL, *batch = NULL;
	double timeout = 0;
	int progress = isatty(2);
	const struct option opts[] = {
		OPT_STORE(&store_arg),
		OPT_DOUBLE("timeout", &timeout, "SEC", "(0, 1e9]", "give up after SEC seconds (exit 1); the batch goes on"),
		OPT_NO_PROGRESS(&progress),
		OPT_END(),
	};
	argc = parse_options(argc, argv, opts, &usage);
	if (argc < 0)
		return argc == OPT_HELP ? EV_OK : EV_USAGE;
	if (argc > 1) {
		opt_usage_error(&usage, "one batch at a time ('%s' and '%s')", argv[0], argv[1]);
		return EV_USAGE;
	}
	batch = argc ? argv[0] : NULL;
	if (!batch) {
		error("no batch given; usage: evident wait BATCH (evident ls --batches lists them)");
		return EV_USAGE;
	}
	if (!is_safe_name(batch)) {
		error("'%s' is not a batch id (batch ids hold only letters, digits and _ . -; see 'evident ls --batches')",
		      batch);
		return EV_USAGE;
	}
	const char *root = store_default_root(store_arg);
	char cwd[4096];
	if (root[0] != '/' && !getcwd(cwd, sizeof(cwd))) {
		error("cannot read the current directory");
		return EV_ENV;
	}
	char *store = root[0] == '/' ? xstrdup(root) : xstrfmt("%s/%s", cwd, root);
	struct run_totals t;
	enum run_error why;
	int r = run_slurm_wait(store, batch, timeout, progress, &t, &why);
	int rc;
	if (r < 0)
		rc = why == RUN_NOT_FOUND ? EV_NOT_FOUND : why == RUN_STORE ? EV_STORE
		     : why == RUN_USAGE				  ? EV_USAGE
		     : why == RUN_TIMEOUT			  ? EV_FAILURES
								  : EV_ENV;
	else if (t.interrupted)
		rc = EV_INTERRUPTED;
	else
		rc = t.unexpected || t.missing ? EV_FAILURES : EV_OK;
	if (r == 0 && !t.interrupted && t.batch_id) {
		if (t.missing)
			printf("records: %d variant(s) of batch %s in %s/runs/ (batch record not written: %d run(s) "
			       "missing)\n", t.variants, t.batch_id, store, t.missing);
		else
			printf("records: %d variant(s) and batch %s in %s/runs/\n", t.variants, t.batch_id, store);
	}
	free(t.batch_id);
	free(store);
	return rc;
}
