/*
 * backend.c - the list of backends and the pieces of the worker protocol
 * every backend shares (see backend.h for the protocol itself).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backend.h"

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
