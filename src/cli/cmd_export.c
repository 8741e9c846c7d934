/*
 * cmd_export.c - `evident export [--out DIR]`: tidy CSV / JSON Lines of every
 * sample and summary, Google Benchmark JSON and a Jupyter notebook, derived
 * from the store (export.c does the work).
 */
#include <stdio.h>
#include <string.h>

#include "cli/evident.h"
#include "cli/options.h"
#include "report/export.h"
#include "store/query.h"
#include "base/util.h"

static const char synopsis[] =
	"usage: evident export [--store DIR] [--out DIR]\n"
	"\n"
	"Writes into DIR (default notebooks-export):\n"
	"  samples.csv, samples.jsonl       one row per timing sample (tidy)\n"
	"  summaries.csv, summaries.jsonl   one row per variant of every batch\n"
	"  benchmark.json                   Google Benchmark JSON (latest batch of each experiment)\n"
	"  evident.ipynb                    a notebook that loads the CSVs and draws the figures\n"
	"  README.md                        what each file holds\n"
	"Output is deterministic: the same store gives the same bytes.\n";

static const struct opt_usage usage = {
	"export", synopsis,
	"exit codes:\n"
	"  0    written\n"
	"  1    a file could not be written, or a samples object is damaged\n"
	"  2    bad command line\n"
	"  5    the store cannot be read\n"
};

int cmd_export(int argc, const char **argv)
{
	const char *store = NULL, *dir = "notebooks-export";
	struct query q = QUERY_INIT;
	int rc = EV_OK;
	const struct option opts[] = {
		OPT_STORE(&store),
		OPT_STRING("out", &dir, "DIR", "the output directory (default notebooks-export)"),
		OPT_END(),
	};
	argc = parse_options(argc, argv, opts, &usage);
	if (argc < 0)
		return argc == OPT_HELP ? EV_OK : EV_USAGE;
	if (argc > 0) {
		opt_usage_error(&usage, "unexpected argument '%s' for 'evident export'", argv[0]);
		return EV_USAGE;
	}
	if (query_open(&q, store) < 0) {
		rc = EV_STORE;
	} else if (export_all(&q, dir) < 0) {
		rc = EV_FAILURES; /* the message said what: an unwritable file or a damaged object */
	} else {
		printf("exported %zu record(s) from '%s' to %s/\n", q.n, q.st.root, dir);
	}
	query_release(&q);
	return rc;
}
