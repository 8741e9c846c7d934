/*
 * cmd_help.c - `evident help [COMMAND]`: the command list and exit codes,
 * or one command's own --help (which parse_options writes from the
 * command's options table).
 */
#include <stdio.h>
#include <string.h>

#include "backends/problem.h"
#include "cli/evident.h"
#include "cli/options.h"
#include "record/record.h"
#include "base/util.h"

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

static const char synopsis[] =
	"usage: evident help [COMMAND | problems | outcomes]\n"
	"\n"
	"Without an argument, lists the commands and the exit codes.  'evident help\n"
	"COMMAND' prints the help of one command (as 'evident COMMAND --help' does),\n"
	"'evident help problems' the problems (problems/*.c) with their keys, and\n"
	"'evident help outcomes' what a run can end as.\n";

int cmd_help(int argc, const char **argv)
{
	static const struct opt_usage usage = { "help", synopsis, NULL };
	const struct option opts[] = { OPT_END() };
	argc = parse_options(argc, argv, opts, &usage);
	if (argc < 0)
		return argc == OPT_HELP ? EV_OK : EV_USAGE;
	if (argc > 1) {
		opt_usage_error(&usage, "one topic at a time ('%s' and '%s')", argv[0], argv[1]);
		return EV_USAGE;
	}
	if (argc == 1 && !strcmp(argv[0], "problems"))
		return help_problems();
	if (argc == 1 && !strcmp(argv[0], "outcomes"))
		return help_outcomes();
	if (argc == 1) {
		for (unsigned i = 0; i < n_commands; i++)
			if (commands[i].help && !strcmp(commands[i].name, argv[0]))
				return commands[i].fn(2, (const char *[]){ argv[0], "--help", NULL });
		error("no such command '%s'; see 'evident help'", argv[0]);
		return EV_USAGE;
	}
	printf("usage: evident <command> [options]\n\ncommands:\n");
	for (unsigned i = 0; i < n_commands; i++)
		if (commands[i].help)
			printf("  %-10s %s\n", commands[i].name, commands[i].help);
	printf("\n'evident <command> --help' describes one command; 'evident help problems' lists the\n"
	       "problems (problems/*.c) and 'evident help outcomes' what a run can end as.\n"
	       "Every option that takes a value is given as --name VALUE or --name=VALUE; '--'\n"
	       "ends the options.\n\n%s",
	       EV_EXIT_CODES_TEXT);
	return EV_OK;
}
