/*
 * backend.c - the list of backends and the pieces of the worker protocol
 * every backend shares (see backend.h for the protocol itself).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backends/backend.h"

const struct backend *backend_find(const char *name)
{
	static const struct backend *const all[] = { &backend_host, &backend_cuda };
	for (size_t i = 0; i < ARRAY_SIZE(all); i++)
		if (name && !strcmp(all[i]->name, name))
			return all[i];
	return NULL;
}

void build_result_release(struct build_result *r)
{
	if (!r)
		return;
	free(r->so_path);
	free(r->log);
	json_decref(r->info);
	r->so_path = r->log = NULL;
	r->info = NULL;
	r->ok = 0;
}

void emit_json(json_t *msg)
{
	char *s = json_dumps(msg, JSON_COMPACT | JSON_SORT_KEYS);
	if (s) {
		fputs(s, stdout);
		fputc('\n', stdout);
		fflush(stdout);
		free(s);
	}
	json_decref(msg);
}

void emit_failure(const char *outcome, const char *error_name, const char *reason)
{
	emit_json(json_pack("{s:s, s:s, s:s?, s:s?}", "msg", "failure", "outcome", outcome,
			    "error", error_name, "reason", reason));
}

json_t *job_to_json(const struct job *j)
{
	return json_pack("{s:s, s:s, s:s, s:I, s:I, s:I, s:I, s:s, s:i, s:I, s:f, s:f, s:f, s:i,"
			 " s:f, s:f, s:f, s:s, s:i, s:b, s:i}",
			 "backend", j->backend, "so", j->so_path, "problem", j->problem, "B",
			 (json_int_t)j->B, "H", (json_int_t)j->H, "S", (json_int_t)j->S, "D",
			 (json_int_t)j->D, "dtype", j->dtype, "seeds", j->seeds, "seed0",
			 (json_int_t)j->seed0, "atol", j->atol, "rtol", j->rtol, "warmup_ms",
			 j->warmup_ms, "samples", j->samples, "stdrel", j->stdrel, "min_seconds",
			 j->min_seconds, "max_seconds", j->max_seconds, "cache", j->cache, "batch",
			 j->batch, "sanitize", j->sanitize, "device", j->device);
}

int job_from_json(json_t *o, struct job *j)
{
	json_int_t B, H, S, D, seed0;
	json_error_t err;
	memset(j, 0, sizeof(*j));
	if (json_unpack_ex(o, &err, 0,
			   "{s:s, s:s, s:s, s:I, s:I, s:I, s:I, s:s, s:i, s:I, s:F, s:F, s:F, s:i,"
			   " s:F, s:F, s:F, s:s, s:i, s:b, s:i}",
			   "backend", &j->backend, "so", &j->so_path, "problem", &j->problem, "B", &B,
			   "H", &H, "S", &S, "D", &D, "dtype", &j->dtype, "seeds", &j->seeds, "seed0",
			   &seed0, "atol", &j->atol, "rtol", &j->rtol, "warmup_ms", &j->warmup_ms,
			   "samples", &j->samples, "stdrel", &j->stdrel, "min_seconds",
			   &j->min_seconds, "max_seconds", &j->max_seconds, "cache", &j->cache,
			   "batch", &j->batch, "sanitize", &j->sanitize, "device", &j->device) < 0)
		return error("bad job description: %s", err.text);
	j->B = B;
	j->H = H;
	j->S = S;
	j->D = D;
	j->seed0 = (unsigned long long)seed0;
	return 0;
}
