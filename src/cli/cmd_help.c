/*
 * cmd_help.c - `evident help [COMMAND]`: the command list and exit codes,
 * or one command's own --help.  Also the small usage helpers every cmd_*
 * shares.
 */
#include <stdio.h>
#include <string.h>

#include "backends/problem.h"
#include "cli/evident.h"
#include "record/record.h"
#include "base/util.h"

void usage_print(const char *text, int to_stderr)
{
	fputs(text, to_stderr ? stderr : stdout);
}

int wants_help(int argc, const char **argv)
{
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--"))
			break;
		if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help"))
			return 1;
	}
	return 0;
}

const char *exit_codes_text(void)
{
	return "exit codes:\n"
	       "  0    success (every variant ok / store intact / claims supported)\n"
	       "  1    ran, but something failed (a variant not ok, damage found, a claim not supported)\n"
	       "  2    bad command line\n"
	       "  3    invalid experiment spec (nothing was run or written)\n"
	       "  4    no device: the experiment needs a GPU that is not here\n"
	       "  5    the store cannot be read or written\n"
	       "  6    a required tool is missing (compiler, library)\n"
	       "  7    no such run or batch in the store\n"
	       "  8    the recorded code cannot be restored here (reproduce: fetch its commit)\n"
	       "  70   internal error (a bug in evident)\n"
	       "  130  interrupted (finished records are kept)\n";
}

/* `evident help problems`: every problems/NAME.c, loaded (so built into
 * the cache), with its keys, tensors, distributions and GPU reference. */
static int help_problems(void)
{
	struct strbuf out = STRBUF_INIT;
	int rc = problem_list_help(".", "build/cache", &out);
	fputs(strbuf_str(&out), stdout);
	strbuf_release(&out);
	return rc < 0 ? EV_FAILURES : EV_OK;
}

/* `evident help outcomes`: the outcome list, as records carry it. */
static int help_outcomes(void)
{
	printf("outcomes (the record's \"outcome\"; a spec's expect: names one):\n");
	for (unsigned i = 0; i < OUTCOME_COUNT; i++)
		printf("  %-20s %s\n", outcome_name((enum outcome)i), outcome_meaning((enum outcome)i));
	return EV_OK;
}

int cmd_help(int argc, const char **argv)
{
	if (argc >= 2 && !strcmp(argv[1], "problems"))
		return help_problems();
	if (argc >= 2 && !strcmp(argv[1], "outcomes"))
		return help_outcomes();
	if (argc >= 2) {
		for (unsigned i = 0; i < n_commands; i++)
			if (commands[i].help && !strcmp(commands[i].name, argv[1]))
				return commands[i].fn(2, (const char *[]){ argv[1], "--help", NULL });
		error("no such command '%s'; see 'evident help'", argv[1]);
		return EV_USAGE;
	}
	printf("usage: evident <command> [options]\n\ncommands:\n");
	for (unsigned i = 0; i < n_commands; i++)
		if (commands[i].help)
			printf("  %-10s %s\n", commands[i].name, commands[i].help);
	printf("\n'evident <command> --help' describes one command; 'evident help problems' lists the\n"
	       "problems (problems/*.c) and 'evident help outcomes' what a run can end as.\n\n%s",
	       exit_codes_text());
	return EV_OK;
}
