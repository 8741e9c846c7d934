/*
 * worker_main.c - `evident-worker`, the lean executable the runner starts
 * for every job: `evident-worker __worker JOB.json` (in the box) and
 * `evident-worker __check CHECK.json` (the judge), the same two commands
 * and the same code as `evident __worker` / `evident __check`
 * (cmd_worker.c), dispatched from a table, with `__problem` and `__fill`
 * (a problem plug-in's answers and fill, in their box: problem_box.c).
 *
 * Why a second executable: a job execs its worker and its checker, about
 * twice per run, and `evident` NEEDs some 25 shared libraries (libgit2 and
 * its TLS, SSH and Kerberos stack, GSL, libyaml, libseccomp ...) that these
 * two commands never call; on the project's VM loading them cost ~13 ms of
 * CPU per exec (perf stat, `evident --version` 18.4 ms against 4.9 ms for a
 * program linked with jansson alone).  Linked from the same libevident.a
 * with -Wl,--as-needed (Makefile), this one pulls only the objects those
 * commands reach and NEEDs only their libraries; the box shows less code.
 * The runner falls back to `evident` itself where no evident-worker lies
 * beside it (run/run.c, worker_exe).
 */
#include <stdio.h>
#include <string.h>

#include "base/util.h"
#include "cli/evident.h"

static const struct {
	const char *name;
	int (*fn)(int argc, const char **argv);
} worker_commands[] = {
	{ "__worker", cmd_worker },
	{ "__check", cmd_check },
	{ "__problem", cmd_problem },
	{ "__fill", cmd_fill },
};

int main(int argc, const char **argv)
{
	if (argc >= 2 && !strcmp(argv[1], "--version")) {
		printf("evident-worker 0.1\n");
		return EV_OK;
	}
	for (size_t i = 0; argc >= 2 && i < sizeof(worker_commands) / sizeof(worker_commands[0]); i++)
		if (!strcmp(worker_commands[i].name, argv[1])) {
			int rc = worker_commands[i].fn(argc - 1, argv + 1);
			if (fflush(stdout) != 0 || ferror(stdout)) {
				error("cannot write to standard output");
				return rc ? rc : EV_FAILURES;
			}
			return rc;
		}
	error("usage: evident-worker __worker JOB.json | __check CHECK.json | __problem REQ.json | __fill SO NAME BYTES "
	      "(internal: 'evident run' starts it)");
	return EV_USAGE;
}
