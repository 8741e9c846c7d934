/*
 * executor.c - the executor seam: get every planned job executed
 * (job_execute) and say when the batch may be gathered.  This file holds
 * the local one, one job after another in the plan's interleaved order;
 * scale-out adds a pool with one slot per GPU and Slurm job arrays
 * implementing the same seam (each slot or array task runs job_execute on
 * its share of the jobs, writing into the shared store).
 */
#include "run/run_ctx.h"

int executor_local(struct run_ctx *c)
{
	struct plan *p = &c->plan;
	c->prog.n = p->n_jobs;
	c->prog.repeats = p->repeats;
	for (size_t j = 0; j < p->n_jobs; j++) {
		struct plan_job *pj = &p->jobs[j];
		c->prog.i = j + 1;
		c->prog.variant = p->variants[pj->variant].v->name;
		c->prog.repeat = pj->repeat;
		if (job_execute(c, pj) < 0)
			return -1;
		c->prog.per_job = (mono_now() - c->prog.t_start) / (double)(j + 1);
		if (runcmd_interrupted) {
			c->interrupted = 1;
			break;
		}
	}
	return 0;
}
