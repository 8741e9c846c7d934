/*
 * main.c - the `evident` front end: finds the subcommand in commands[] and
 * calls it.  Everything else lives in library modules that tests call
 * directly; this file stays thin on purpose (jq / curl style).
 */
#include <stdio.h>
#include <string.h>

#include "cli/evident.h"
#include "backends/problem.h"
#include "base/util.h"
#include "record/record.h"
#include "run/provenance.h"
#include "run/spec.h"
#include "store/query.h"
#include "store/store.h"

const struct command commands[] = {
	{ "run", cmd_run, "run an experiment spec: build, check, time and record every variant" },
	{ "wait", cmd_wait, "wait for a Slurm batch, then gather it and print its summary" },
	{ "ls", cmd_ls, "list recorded runs" },
	{ "show", cmd_show, "print one run record (provenance, correctness, timing)" },
	{ "eval", cmd_eval, "judge kernels proposed from outside (JSON lines in and out) against a reference" },
	{ "reproduce", cmd_reproduce, "rebuild a batch's recorded code, run it again, say per variant if it reproduced" },
	{ "verify", cmd_verify, "re-hash the store and check every reference" },
	{ "stats", cmd_stats, "compare two sample files: bootstrap CIs, Mann-Whitney U, Cliff's delta" },
	{ "paper", cmd_paper, "regenerate the generated blocks of a markdown paper from the store" },
	{ "audit", cmd_audit, "check the claims and numbers of markdown files against the store" },
	{ "export", cmd_export, "write tidy CSV / JSON / a notebook for analysis" },
	{ "help", cmd_help, "show commands, or the help of one" },
	{ "__worker", cmd_worker, NULL }, /* internal: one job, in its own process */
	{ "__check", cmd_check, NULL },   /* internal: the judge of a job's outputs */
	{ "__problem", cmd_problem, NULL }, /* internal: a problem plug-in's answers, in its box */
	{ "__fill", cmd_fill, NULL },     /* internal: its fill() for the host clock, in its box */
	{ "__task", cmd_task, NULL },     /* internal: one task of a Slurm job array */
};
const unsigned n_commands = sizeof(commands) / sizeof(commands[0]);

int main(int argc, const char **argv)
{
	if (argc < 2)
		return cmd_help(1, (const char *[]){ "help", NULL });
	const char *name = argv[1];
	/* the store's index keeps the record module's one-line summary of each run */
	store_set_indexer(record_index_attrs, RECORD_ATTRS_VERSION, record_index_members);
	/* an eval batch recorded before `session: eval` is told by its spec (query.c is_eval) */
	query_spec_variants = spec_variants_of_text;
	/* problem plug-ins are built boxed, in two passes, as kernels are
	 * (red team 128); `evident run --unsandboxed` says otherwise */
	problem_build_setup(&prov_view_ops, 0);
	/* and no plug-in's code runs in this process: the runner reads its
	 * answers from its box (problem_box.c, red team 130) */
	problem_calls_setup();
	/* a claim is stale once its spec defines its variant otherwise (query_spec_defines) */
	query_spec_definition = spec_definition_of_text;
	if (!strcmp(name, "--help") || !strcmp(name, "-h"))
		name = "help";
	if (!strcmp(name, "--version")) {
		/* the commit this runner was built from, as every record it
		 * writes names it (code.runner: red team 279) */
		printf("evident 0.1 (commit %s%s)\n", prov_runner_commit(), prov_runner_dirty() > 0 ? ", dirty" : "");
		return EV_OK;
	}
	for (unsigned i = 0; i < n_commands; i++)
		if (!strcmp(commands[i].name, name)) {
			int rc = commands[i].fn(argc - 1, argv + 1);
			if (fflush(stdout) != 0 || ferror(stdout)) {
				error("cannot write to standard output");
				return rc ? rc : EV_FAILURES;
			}
			return rc;
		}
	error("'%s' is not an evident command; see 'evident help'", name);
	return EV_USAGE;
}
