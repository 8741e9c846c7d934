/*
 * evident.h - the subcommands of `evident` and its exit codes.
 *
 * Checklist for adding a subcommand (git's builtin.h habit):
 *   1. write src/cli/cmd_<name>.c with `int cmd_<name>(int argc, const char **argv)`
 *      whose argv[0] is the subcommand's name; it declares its options as a
 *      table and parses them with parse_options (cli/options.h), which also
 *      prints its --help (return EV_OK on OPT_HELP, EV_USAGE on -1); a
 *      command that reads a store declares OPT_STORE;
 *   2. declare it below;
 *   3. add a row to commands[] in src/cli/main.c (name, function, one-line help);
 *   4. add a numbered CLI test under tests/cli/ and a line in README.md.
 * Only main() and cmd_*() decide exit codes; library code returns 0 / -1.
 */
#ifndef EVIDENT_H
#define EVIDENT_H

/* Exit codes, documented by `evident help` and README.md. */
enum ev_exit {
	EV_OK = 0,            /* success: every variant ok, store verified, claims supported */
	EV_FAILURES = 1,      /* ran, but something failed: a variant not ok, a claim not supported,
	                         verify found damage, stats inputs differ, ... */
	EV_USAGE = 2,         /* bad command line */
	EV_SPEC = 3,          /* invalid experiment spec: nothing was run or written */
	EV_NO_DEVICE = 4,     /* the experiment needs a device (GPU) that is not here */
	EV_STORE = 5,         /* the store cannot be read or written */
	EV_ENV = 6,           /* the environment lacks a tool (compiler, library) */
	EV_NOT_FOUND = 7,     /* no such run or batch in the store (evident show) */
	EV_NO_CODE = 8,       /* the recorded code cannot be restored here (evident reproduce: its
	                         commit is not in this repository, the patch does not apply...) */
	EV_INTERRUPTED = 130, /* stopped by SIGINT/SIGTERM; finished records are kept */
	EV_INTERNAL = 70,     /* a bug in evident */
};

int cmd_run(int argc, const char **argv);
int cmd_ls(int argc, const char **argv);
int cmd_show(int argc, const char **argv);
int cmd_help(int argc, const char **argv);
int cmd_verify(int argc, const char **argv);
int cmd_stats(int argc, const char **argv);
int cmd_paper(int argc, const char **argv);
int cmd_audit(int argc, const char **argv);
int cmd_export(int argc, const char **argv);
int cmd_reproduce(int argc, const char **argv);
int cmd_worker(int argc, const char **argv);
int cmd_check(int argc, const char **argv);

/* The table, for `evident help`. */
struct command {
	const char *name;
	int (*fn)(int argc, const char **argv);
	const char *help;
};
extern const struct command commands[];
extern const unsigned n_commands;

/* The exit-code table as text, for `evident help` and `evident run --help`
 * (a string literal, so that a command's help can end with it). */
#define EV_EXIT_CODES_TEXT                                                                                 \
	"exit codes:\n"                                                                                    \
	"  0    success (every variant ok / store intact / claims supported)\n"                            \
	"  1    ran, but something failed (a variant not ok, damage found, a claim not supported)\n"       \
	"  2    bad command line\n"                                                                        \
	"  3    invalid experiment spec (nothing was run or written)\n"                                    \
	"  4    no device: the experiment needs a GPU that is not here\n"                                  \
	"  5    the store cannot be read or written\n"                                                     \
	"  6    a required tool is missing (compiler, library)\n"                                          \
	"  7    no such run or batch in the store\n"                                                       \
	"  8    the recorded code cannot be restored here (reproduce: fetch its commit)\n"                 \
	"  70   internal error (a bug in evident)\n"                                                       \
	"  130  interrupted (finished records are kept)\n"

#endif /* EVIDENT_H */
