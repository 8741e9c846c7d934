/*
 * executor.c - the executor seam: get every planned job executed
 * (job_execute) and say when the batch may be gathered.  This file holds
 * the local one, one job after another in the plan's interleaved order;
 * scale-out adds a pool with one slot per GPU and Slurm job arrays
 * implementing the same seam (each slot or array task runs job_execute on
 * its share of the jobs, writing into the shared store).
 */
#include "run/run_ctx.h"

#include <stdlib.h>

int run_pin_local(struct run_ctx *c, struct run_options *o)
{
	if (!c->be->pin_ordinal || !c->be->uses_gpu || !c->sb.on || !c->sb.gpu || o->device < 0)
		return 0;
	int index = -1, minor = -1;
	const char *why = NULL;
	/* red team 13's residual: a plain run on one GPU of several bound
	 * every GPU's node, so two runs on one host could reach each other's */
	char *pinned = c->be->pin_ordinal(o->device, &index, &minor, &why);
	if (!pinned && !why)
		return -1;
	if (pinned) {
		free(c->slot.pinned);
		c->slot.pinned = pinned;
		o->device = 0; /* the one device its workers see */
		if (index >= 0)
			c->slot.device = index; /* NVML's number, as a pool slot's: device_state reads it */
		if (index >= 0 && c->be->device_info) {
			json_t *di = c->be->device_info(index);
			json_object_set_new(c->machine, "gpu", di ? di : json_null());
		}
	}
	sandbox_pin_gpu(&c->sb, pinned ? minor : -1, why);
	json_decref(c->judge_sandbox);
	c->judge_sandbox = sandbox_describe(&c->sb);
	return 0;
}

/* The environment a pin changes, as it was (NULL: unset), to put back
 * when the executor ends: a search or eval runs executors one after
 * another in one process, each pinning the device its own options name. */
struct env_saved {
	char *visible, *order;
};

static void env_save(struct env_saved *e)
{
	const char *v = getenv("CUDA_VISIBLE_DEVICES"), *o = getenv("CUDA_DEVICE_ORDER");
	e->visible = v ? xstrdup(v) : NULL;
	e->order = o ? xstrdup(o) : NULL;
}

static void env_put_back(struct env_saved *e)
{
	if (e->visible)
		setenv("CUDA_VISIBLE_DEVICES", e->visible, 1);
	else
		unsetenv("CUDA_VISIBLE_DEVICES");
	if (e->order)
		setenv("CUDA_DEVICE_ORDER", e->order, 1);
	else
		unsetenv("CUDA_DEVICE_ORDER");
	free(e->visible);
	free(e->order);
}

int executor_local(struct run_ctx *c)
{
	struct plan *p = &c->plan;
	struct run_options o = *c->o;
	const struct run_options *caller = c->o;
	struct env_saved env;
	int rc = 0;
	env_save(&env);
	c->o = &o;
	if (run_pin_local(c, &o) < 0) {
		rc = -1;
		goto out;
	}
	c->prog.n = p->n_jobs;
	c->prog.repeats = p->repeats;
	for (size_t j = 0; j < p->n_jobs; j++) {
		struct plan_job *pj = &p->jobs[j];
		c->prog.i = j + 1;
		c->prog.variant = p->variants[pj->variant].v->name;
		c->prog.repeat = pj->repeat;
		if (job_execute(c, pj) < 0) {
			rc = -1;
			goto out;
		}
		c->prog.per_job = (mono_now() - c->prog.t_start) / (double)(j + 1);
		if (runcmd_interrupted) {
			c->interrupted = 1;
			break;
		}
	}
out:
	c->o = caller;
	env_put_back(&env);
	return rc;
}
