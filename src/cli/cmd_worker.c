/*
 * cmd_worker.c - `evident __worker JOB.json`: runs one variant in its own
 * process (started by the runner with fork+exec, see child.c) and reports
 * on stdout in the worker protocol (backend.h).  Not for direct use; it is
 * left out of `evident help`.
 */
#include <stdio.h>

#include "backends/backend.h"
#include "cli/evident.h"

int cmd_worker(int argc, const char **argv)
{
	if (argc != 2) {
		error("usage: evident __worker JOB.json (internal; run experiments with 'evident run')");
		return EV_USAGE;
	}
	json_error_t jerr;
	json_t *j = json_load_file(argv[1], 0, &jerr);
	if (!j) {
		error("cannot read job '%s': %s", argv[1], jerr.text);
		return EV_USAGE;
	}
	struct job job;
	if (job_from_json(j, &job) < 0) {
		json_decref(j);
		return EV_USAGE;
	}
	const struct backend *b = backend_find(job.backend);
	int rc;
	if (!b || !b->worker) {
		emit_failure("launch_failed", "no_backend", "this evident has no worker for that backend");
		rc = EV_ENV;
	} else {
		rc = b->worker(&job);
	}
	json_decref(j);
	return rc;
}
