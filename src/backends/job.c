/*
 * job.c - JOB.json both ways (contract in job.h).  The knobs travel as one
 * object written and read from the knob table (knobs.c).
 */
#include "backends/job.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/util.h"

json_t *job_to_json(const struct job *j)
{
	json_t *o = json_object(), *shape = json_array();
	for (int i = 0; i < j->n_dims; i++)
		json_array_append_new(shape, json_integer(j->shape[i]));
	json_object_set_new(o, "phase", json_string(j->phase));
	json_object_set_new(o, "backend", json_string(j->backend));
	json_object_set_new(o, "kernel_so", json_string(j->kernel_so));
	json_object_set_new(o, "problem", json_string(j->problem));
	json_object_set_new(o, "problem_so", json_string(j->problem_so));
	if (j->problem_gpu_so)
		json_object_set_new(o, "problem_gpu_so", json_string(j->problem_gpu_so));
	json_object_set_new(o, "shape", shape);
	json_object_set_new(o, "dtype", json_string(j->dtype));
	json_object_set_new(o, "knobs", knobs_to_json(&j->k));
	json_object_set_new(o, "seeds", json_integer(j->seeds));
	json_object_set_new(o, "seed0", json_integer((json_int_t)j->seed0));
	json_object_set_new(o, "timing", json_boolean(j->timing));
	json_object_set_new(o, "timing_seed", json_integer((json_int_t)j->timing_seed));
	json_object_set_new(o, "n_sets", json_integer(j->n_sets));
	json_object_set_new(o, "first_set", json_integer(j->first_set));
	if (j->warmup_samples > 0)
		json_object_set_new(o, "warmup_samples", json_integer((json_int_t)j->warmup_samples));
	json_object_set_new(o, "scramble_seed", json_integer((json_int_t)j->scramble_seed));
	json_object_set_new(o, "device", json_integer(j->device));
	json_object_set_new(o, "exec", json_string(j->exec ? j->exec : "in_process"));
	if (j->modwatch_off)
		json_object_set_new(o, "modwatch_off", json_true());
	return o;
}

int job_from_json(json_t *o, struct job *j)
{
	json_error_t err;
	json_t *shape = NULL, *knobs = NULL;
	json_int_t seed0 = 0, tseed = 0, sseed = 0, warm = 0;
	memset(j, 0, sizeof(*j));
	if (json_unpack_ex(o, &err, 0,
			   "{s:s, s:s, s:s, s:s, s:s, s?s, s:o, s:s, s:o, s:i, s:I, s:b, s:I, s:i, s:i, s:I, s:i, s?s, s?I,"
			   " s?b}",
			   "phase", &j->phase, "backend", &j->backend, "kernel_so", &j->kernel_so, "problem",
			   &j->problem, "problem_so", &j->problem_so, "problem_gpu_so", &j->problem_gpu_so,
			   "shape", &shape, "dtype", &j->dtype, "knobs", &knobs, "seeds", &j->seeds, "seed0",
			   &seed0, "timing", &j->timing, "timing_seed", &tseed, "n_sets", &j->n_sets,
			   "first_set", &j->first_set, "scramble_seed", &sseed, "device", &j->device, "exec",
			   &j->exec, "warmup_samples", &warm, "modwatch_off", &j->modwatch_off) < 0)
		return error("bad job description: %s", err.text);
	if (!json_is_array(shape) || json_array_size(shape) > JOB_MAX_DIMS)
		return error("bad job description: 'shape' must be a list of at most %d sizes", JOB_MAX_DIMS);
	j->n_dims = (int)json_array_size(shape);
	for (int i = 0; i < j->n_dims; i++)
		j->shape[i] = json_integer_value(json_array_get(shape, (size_t)i));
	j->seed0 = (unsigned long long)seed0;
	j->timing_seed = (unsigned long long)tseed;
	j->scramble_seed = (unsigned long long)sseed;
	j->warmup_samples = warm > 0 ? (long long)warm : 0;
	if (j->n_sets < 1 || j->first_set < 0)
		return error("bad job description: n_sets must be >= 1");
	if (!j->exec)
		j->exec = "in_process";
	if (strcmp(j->exec, "in_process") && strcmp(j->exec, "sealed"))
		return error("bad job description: exec '%s' (in_process or sealed)", j->exec);
	return knobs_from_json(knobs, &j->k);
}

int job_load(const char *path, struct job *j, json_t **holder)
{
	json_error_t jerr;
	/* a descriptor the runner passed ("/proc/self/fd/N"): read from the
	 * descriptor itself, from its start, as a box with no /proc (a host
	 * kernel's, sandbox.h SANDBOX_VIEW_COPIES_NO_PROC) cannot open it */
	char *end = NULL;
	long fd = strncmp(path, "/proc/self/fd/", 14) ? -1 : strtol(path + 14, &end, 10);
	if (fd >= 0 && end && !*end && end != path + 14 && lseek((int)fd, 0, SEEK_SET) == 0)
		*holder = json_loadfd((int)fd, 0, &jerr);
	else
		*holder = json_load_file(path, 0, &jerr);
	if (!*holder)
		return error("cannot read job '%s': %s", path, jerr.text);
	return job_from_json(*holder, j);
}
