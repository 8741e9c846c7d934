/*
 * evident.h - the subcommands of `evident` and its exit codes.
 *
 * Checklist for adding a subcommand (git's builtin.h habit):
 *   1. write src/cmd_<name>.c with `int cmd_<name>(int argc, const char **argv)`
 *      whose argv[0] is the subcommand's name; it handles --help itself
 *      (print the usage with usage_print and return EV_OK);
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
int cmd_task(int argc, const char **argv);
int cmd_wait(int argc, const char **argv);

/* The table, for `evident help`. */
struct command {
	const char *name;
	int (*fn)(int argc, const char **argv);
	const char *help;
};
extern const struct command commands[];
extern const unsigned n_commands;

/* Prints usage text to stdout (for --help) or stderr (for errors). */
void usage_print(const char *text, int to_stderr);
/* Does argv contain -h or --help? */
int wants_help(int argc, const char **argv);
/* The exit-code table as text, for help output. */
const char *exit_codes_text(void);

#endif /* EVIDENT_H */
