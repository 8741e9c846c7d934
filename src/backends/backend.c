/*
 * backend.c - the list of backends, and build results' release.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backends/backend.h"

const struct backend *const backends_all[] = { &backend_host, &backend_cuda, NULL };

const struct backend *backend_find(const char *name)
{
	for (size_t i = 0; backends_all[i]; i++)
		if (name && !strcmp(backends_all[i]->name, name))
			return backends_all[i];
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
