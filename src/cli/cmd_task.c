/*
 * cmd_task.c - `evident __task SUBDIR INDEX`, the internal command that runs
 * one task of a Slurm job array (run/slurm.c), started by the batch script
 * sbatch was given, never by hand (left out of `evident help`).  Apart from
 * cmd_worker.c because it pulls in the whole runner: the lean
 * evident-worker (worker_main.c) links cmd_worker.o and must not.
 */
#include <stdlib.h>

#include "base/util.h"
#include "cli/evident.h"
#include "run/run.h"

int cmd_task(int argc, const char **argv)
{
	char *end = NULL;
	long index = argc == 3 ? strtol(argv[2], &end, 10) : -1;
	if (argc != 3 || !end || *end || index < 0 || index > 1000000) {
		error("usage: evident __task JOBDIR/sub-K INDEX (internal; the batch script of 'evident run --slurm' "
		      "runs it)");
		return EV_USAGE;
	}
	int rc = run_slurm_task(argv[1], (int)index);
	return rc == 0 ? EV_OK : rc > 0 ? EV_INTERRUPTED : EV_FAILURES;
}
