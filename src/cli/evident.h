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

/*
 * Exit codes, once: X(NAME, CODE, MEANING).  Expanded into enum ev_exit and
 * into the table `evident help exit-codes` prints, which README.md's exit
 * code table is (tests/cli/t0082 compares them).  A code never changes
 * meaning: scripts test for it.
 */
#define EV_EXIT_LIST(X)                                                                                    \
	X(EV_OK, 0, "success: every variant ended as expected (ok, or its expect:), the store is intact, "   \
		    "every claim is supported")                                                              \
	X(EV_FAILURES, 1, "it ran, but something failed: a variant not as expected, damage in the store, a " \
			  "claim not supported, stats inputs that differ")                                   \
	X(EV_USAGE, 2, "bad command line, or a run id prefix that names several runs (they are listed)")    \
	X(EV_SPEC, 3, "invalid experiment spec: nothing was run and nothing was written")                  \
	X(EV_NO_DEVICE, 4, "no device: the experiment needs a GPU that is not here (nothing was written)")  \
	X(EV_STORE, 5, "the store cannot be read or written")                                              \
	X(EV_ENV, 6, "a required tool is missing (compiler, library)")                                     \
	X(EV_NOT_FOUND, 7, "no such run or batch in the store (evident show, reproduce, wait)")            \
	X(EV_NO_CODE, 8, "the recorded code cannot be restored here (evident reproduce: its commit is not "  \
			 "in this repository, fetch it; or it was recorded outside git, its patch does not "  \
			 "apply, or the tree lacks what this evident needs)")                                 \
	X(EV_INTERNAL, 70, "internal error (a bug in evident)")                                            \
	X(EV_INTERRUPTED, 130, "interrupted by SIGINT/SIGTERM: records of finished variants are kept, the "  \
			       "one in flight is recorded as aborted")

#define EV_EXIT_ENUM_(name, code, meaning) name = code,
enum ev_exit { EV_EXIT_LIST(EV_EXIT_ENUM_) };
#undef EV_EXIT_ENUM_

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
int cmd_problem(int argc, const char **argv);
int cmd_fill(int argc, const char **argv);
int cmd_task(int argc, const char **argv);
int cmd_wait(int argc, const char **argv);
int cmd_eval(int argc, const char **argv);

/*
 * Paths as `evident run` resolves them (cmd_run.c), shared with the
 * commands that load a spec the same way (cmd_eval.c); each result is
 * malloc'd, the caller frees it.  cli_absolute: p against the current
 * directory.  cli_repo_root: the git work tree holding the file at the
 * absolute path spec_abs, else the current directory.  cli_relative_to:
 * p relative to root when it lies inside it, else p.
 */
char *cli_absolute(const char *p);
char *cli_repo_root(const char *spec_abs);
char *cli_relative_to(const char *p, const char *root);

/* The table, for `evident help`. */
struct command {
	const char *name;
	int (*fn)(int argc, const char **argv);
	const char *help;
};
extern const struct command commands[];
extern const unsigned n_commands;

/* The exit-code table as text, for help output ("exit codes:\n  0    ...";
 * static storage), generated from EV_EXIT_LIST. */
const char *exit_codes_text(void);

#endif /* EVIDENT_H */
