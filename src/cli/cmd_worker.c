/*
 * cmd_worker.c - the two internal commands of a variant's run, started by
 * the runner with fork+exec, never by hand (both are left out of `evident
 * help`), and the only two that the lean executable evident-worker
 * (worker_main.c) dispatches besides `evident`:
 *   evident __worker JOB.json   loads the kernel and launches it, speaking
 *                               the protocol of backends/protocol.h on fds 3/4
 *   evident __check CHECK.json  judges the outputs the worker shipped
 *                               (backends/checker.h); never loads the kernel
 *   evident __problem REQ.json  a problem plug-in's description and answers
 *   evident __fill SO NAME N    its fill() for the host clock's samples
 *                               (both in their box: backends/problem_box.c)
 * (`evident __task`, a Slurm task, is cmd_task.c: it runs a whole variant,
 * runner and all, so it stays out of this file and out of evident-worker.)
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "backends/backend.h"
#include "backends/checker.h"
#include "backends/job.h"
#include "backends/problem.h"
#include "backends/protocol.h"
#include "backends/worker.h"
#include "base/sandbox.h"
#include "cli/evident.h"

/*
 * In the sandbox the worker is its PID namespace's init (bubblewrap
 * --as-pid-1, base/sandbox.h), and the kernel ignores a signal with the
 * default action that an init sends itself: abort() would end in SIGSEGV
 * and raise(SIGTERM) in nothing.  So, as pid 1 only, the fatal signals a
 * process can send itself end the worker with status 128 + N, which
 * bubblewrap passes on and the parent reads back as death by signal N
 * (run_opts.signal_in_exit_code).  Faults (SIGSEGV, SIGBUS, SIGFPE,
 * SIGILL) come from the CPU and kill an init as any process.
 */
static void die_as_signal(int sig)
{
	_exit(128 + sig);
}

static void pid1_signals(void)
{
	static const int sigs[] = { SIGABRT, SIGTERM, SIGINT, SIGQUIT, SIGHUP, SIGUSR1, SIGUSR2, SIGALRM,
				    SIGPIPE, SIGXCPU, SIGXFSZ, SIGSYS, SIGTRAP, SIGVTALRM, SIGPROF };
	if (getpid() != 1)
		return;
	for (size_t i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++) {
		struct sigaction sa;
		memset(&sa, 0, sizeof(sa));
		sa.sa_handler = die_as_signal;
		sigaction(sigs[i], &sa, NULL);
	}
}

/*
 * LeakSanitizer's check at exit stops the world with ptrace and a clone
 * of its own, both of which the sandbox's filter refuses (it then fails
 * the worker with exit 1).  In a sanitized build the worker, and only the
 * worker, turns it off through LSan's documented hook; the runner and the
 * checker keep it.  In a plain build nothing calls this.
 */
static int lsan_off;
int __lsan_is_turned_off(void);
__attribute__((visibility("default"))) int __lsan_is_turned_off(void)
{
	return lsan_off;
}

/*
 * The start of a helper that may run boxed (the checker, a problem's
 * __problem and __fill): LSan's check at exit is off where a seccomp
 * filter refuses its stop-the-world (Seccomp: 2; a box's, or any a stand-
 * in bubblewrap leaves: t0241's box without a PID namespace failed on it
 * when this read the pid alone) or where it is its namespace's pid 1;
 * unboxed (--unsandboxed) it runs.
 */
static void helper_start(void)
{
	struct sandbox_seen s;
	lsan_off = getpid() == 1 || (sandbox_self_seen(&s) == 0 && s.seccomp == 2);
	pid1_signals();
}

int cmd_worker(int argc, const char **argv)
{
	lsan_off = 1;
	pid1_signals();
	if (argc != 2) {
		error("usage: evident __worker JOB.json (internal; run experiments with 'evident run')");
		return EV_USAGE;
	}
	struct job job;
	json_t *holder = NULL;
	if (job_load(argv[1], &job, &holder) < 0) {
		json_decref(holder);
		return EV_USAGE;
	}
	const struct backend *b = backend_find(job.backend);
	int rc;
	if (!b || !b->worker) {
		error("this evident has no worker for backend '%s'", job.backend);
		rc = EV_ENV;
	} else {
		rc = b->worker(&job);
	}
	json_decref(holder);
	return rc;
}

int cmd_check(int argc, const char **argv)
{
	helper_start();
	if (argc != 2) {
		error("usage: evident __check CHECK.json (internal; run experiments with 'evident run')");
		return EV_USAGE;
	}
	/* first, before the problem's code loads: what it sees of its box,
	 * which the runner judges as a worker's hello (job.c checker_box_seen;
	 * its relaxed box allows processes: no fork among its probes) */
	json_t *box = json_pack("{s:s, s:o}", "msg", "box", "box", worker_box_seen(0));
	char *line = box ? json_dumps(box, JSON_COMPACT) : NULL;
	json_decref(box);
	if (line) {
		printf("%s\n", line);
		fflush(stdout);
		free(line);
	}
	return checker_main(argv[1]);
}

/* evident __problem REQ: a problem plug-in's description and its answers
 * at the request's shapes, in its box (backends/problem_box.c) */
int cmd_problem(int argc, const char **argv)
{
	helper_start();
	if (argc != 2) {
		error("usage: evident __problem REQUEST.json (internal: the runner's box of a problem plug-in)");
		return EV_USAGE;
	}
	return problem_helper_describe(argv[1]) ? EV_FAILURES : EV_OK;
}

/* evident __fill SO NAME BYTES: a problem plug-in's fill() for the host
 * clock's samples, in its box (backends/problem_box.c) */
int cmd_fill(int argc, const char **argv)
{
	helper_start();
	if (argc != 4) {
		error("usage: evident __fill SO NAME BYTES (internal: the runner's fill box of a problem plug-in)");
		return EV_USAGE;
	}
	return problem_helper_fill(argv[1], argv[2], argv[3]) ? EV_FAILURES : EV_OK;
}
