/*
 * problems.c - build and load problem plug-ins in the parent (contract in
 * problems.h).  The plug-in is built by the host backend's recipe, so a
 * problem is compiled, hashed and cached exactly like a host kernel.
 */
#include "run/problems.h"

#include <dirent.h>
#include <stdlib.h>
#include <string.h>

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

char **problem_names(void)
{
	size_t n = 0, cap = 8;
	char **out = xcalloc(cap + 1, sizeof(char *));
	DIR *d = opendir("problems");
	struct dirent *e;
	while (d && (e = readdir(d))) {
		size_t l = strlen(e->d_name);
		if (l < 3 || strcmp(e->d_name + l - 2, ".c"))
			continue;
		if (n == cap)
			out = xrealloc(out, ((cap *= 2) + 1) * sizeof(char *));
		out[n++] = xstrndup(e->d_name, l - 2);
	}
	if (d)
		closedir(d);
	qsort(out, n, sizeof(char *), cmp_str);
	out[n] = NULL;
	return out;
}

int problem_ref_load(const char *name, const char *cache_dir, struct problem_ref *pr, struct strbuf *why)
{
	memset(pr, 0, sizeof(*pr));
	pr->name = xstrdup(name);
	if (!is_safe_name(name)) {
		strbuf_addf(why, "problem '%s' is not a plain name", name);
		return -1;
	}
	char *path = xstrfmt("problems/%s.c", name);
	if (!path_exists(path)) {
		char **names = problem_names();
		strbuf_addf(why, "unknown problem '%s' (known:", name);
		const char *best = NULL;
		int bd = 4;
		for (size_t i = 0; names[i]; i++) {
			strbuf_addf(why, "%s %s", i ? "," : "", names[i]);
			int d = edit_distance(name, names[i]);
			if (d < bd)
				bd = d, best = names[i];
		}
		if (!names[0])
			strbuf_addstr(why, " none: no problems/*.c here; run from the repository root");
		strbuf_addstr(why, "; each is problems/NAME.c, see docs/writing-a-problem.md)");
		if (best) {
			char *hint = xstrfmt("unknown problem '%s' (did you mean '%s'?)", name, best);
			strbuf_reset(why);
			strbuf_addstr(why, hint);
			free(hint);
		}
		for (size_t i = 0; names[i]; i++)
			free(names[i]);
		free(names);
		free(path);
		return -1;
	}
	struct build_request rq = { .kernel_path = path, .repo_root = ".", .cache_dir = cache_dir };
	int rc = -1;
	if (backend_host.build(&rq, &pr->br) < 0) {
		strbuf_addf(why, "problem '%s' could not be built (is a C compiler installed?)", name);
		goto out;
	}
	if (!pr->br.ok) {
		const char *r = json_string_value(json_object_get(pr->br.info, "reason"));
		strbuf_addf(why, "problem '%s' does not build: %s", name, r ? r : "see its build log");
		goto out;
	}
	char err[512] = "";
	if (plugin_open(pr->br.so_path, name, &pr->pl, err, sizeof(err)) < 0) {
		strbuf_addstr(why, err);
		goto out;
	}
	rc = 0;
out:
	free(path);
	return rc;
}

void problem_ref_release(struct problem_ref *pr)
{
	if (!pr)
		return;
	free(pr->name);
	build_result_release(&pr->br);
	memset(pr, 0, sizeof(*pr));
}
