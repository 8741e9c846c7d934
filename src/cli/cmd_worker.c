/*
 * cmd_worker.c - the two internal commands of a variant's run, started by
 * the runner with fork+exec, never by hand (both are left out of `evident
 * help`):
 *   evident __worker JOB.json   loads the kernel and launches it, speaking
 *                               the protocol of backends/protocol.h on fds 3/4
 *   evident __check CHECK.json  judges the outputs the worker shipped
 *                               (backends/checker.h); never loads the kernel
 */
#include <stdio.h>

#include "backends/backend.h"
#include "backends/checker.h"
#include "backends/job.h"
#include "backends/protocol.h"
#include "cli/evident.h"

int cmd_worker(int argc, const char **argv)
{
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
	if (argc != 2) {
		error("usage: evident __check CHECK.json (internal; run experiments with 'evident run')");
		return EV_USAGE;
	}
	return checker_main(argv[1]);
}
