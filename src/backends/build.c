/*
 * build.c - the content-hash build cache (contract in build.h).
 *
 * build_run() computes the build key from everything that determines the
 * produced code, looks for <cache>/<key>/info.json, and only on a miss runs
 * the compiler in <cache>/tmp-<random>/, then renames that directory to
 * <cache>/<key>.  Two runners building the same key at once both succeed:
 * the loser of the rename finds the winner's entry and uses it (object,
 * log and info), so every process runs and records the one object.
 */
#include "backends/build.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/runcmd.h"

char *build_compiler_version(const char *compiler, const char *version_flag)
{
	const char *argv[] = { compiler, version_flag, NULL };
	struct strbuf out = STRBUF_INIT;
	struct run_opts o = { .argv = argv, .timeout_s = 30, .merge_stderr = 1, .out = &out };
	struct run_result r;
	int saved = util_quiet;
	util_quiet = 1;
	int rc = run_command(&o, &r);
	util_quiet = saved;
	if (rc < 0 || !r.exited || r.exit_code != 0) {
		strbuf_release(&out);
		return NULL;
	}
	/* nvcc puts the useful line last ("Cuda compilation tools, release
	 * 13.0, V13.0.88"); gcc puts it first.  Keep the whole text, trimmed:
	 * it is small, and it is what the key must depend on. */
	char *s = strbuf_detach(&out, NULL);
	rtrim(s);
	return s;
}

static int is_warning_line(const char *line, size_t len)
{
	static const char *const marks[] = { ": warning: ", ": warning #" };
	if (!len || line[0] == ' ' || line[0] == '\t')
		return 0;
	for (size_t i = 0; i < ARRAY_SIZE(marks); i++)
		if (memmem(line, len, marks[i], strlen(marks[i])))
			return 1;
	/* "ptxas warning : ...": the tool's name, then the mark */
	const char *sp = memchr(line, ' ', len);
	return sp && (size_t)(line + len - sp) >= 11 && !memcmp(sp, " warning : ", 11);
}

long long build_count_warnings(const char *log, char **first)
{
	*first = NULL;
	char **seen = NULL;
	size_t n = 0, cap = 0;
	for (const char *p = log; p && *p;) {
		const char *nl = strchr(p, '\n');
		size_t len = nl ? (size_t)(nl - p) : strlen(p);
		if (len && p[len - 1] == '\r')
			len--;
		if (is_warning_line(p, len)) {
			size_t i = 0;
			while (i < n && (strlen(seen[i]) != len || memcmp(seen[i], p, len)))
				i++;
			if (i == n) {
				if (n == cap) {
					cap = cap ? 2 * cap : 8;
					seen = xrealloc(seen, cap * sizeof(*seen));
				}
				seen[n++] = xstrndup(p, len);
			}
		}
		p = nl ? nl + 1 : p + len;
	}
	if (n)
		*first = strlen(seen[0]) > 300 ? xstrfmt("%.297s...", seen[0]) : xstrdup(seen[0]);
	for (size_t i = 0; i < n; i++)
		free(seen[i]);
	free(seen);
	return (long long)n;
}

long long build_info_warnings(const json_t *info, const char **first)
{
	json_t *w = json_object_get(info, "warnings");
	*first = json_string_value(json_object_get(w, "first"));
	return json_integer_value(json_object_get(w, "count"));
}

/* The log's warnings into info ({count, first}), for a fresh build and a
 * cached one alike (an entry cached before they were counted has none). */
static void note_warnings(json_t *info, const char *log)
{
	char *first;
	long long n = build_count_warnings(log, &first);
	json_object_set_new(info, "warnings",
			    json_pack("{s:I, s:o}", "count", (json_int_t)n, "first", first ? json_string(first) : json_null()));
	free(first);
}

/* Extract the target of #include "x" on this line, or NULL. */
static char *include_target(const char *line)
{
	const char *p = line;
	while (*p == ' ' || *p == '\t')
		p++;
	if (*p != '#')
		return NULL;
	p++;
	while (*p == ' ' || *p == '\t')
		p++;
	if (strncmp(p, "include", 7))
		return NULL;
	p += 7;
	while (*p == ' ' || *p == '\t')
		p++;
	if (*p != '"')
		return NULL;
	const char *end = strchr(p + 1, '"');
	if (!end)
		return NULL;
	return xstrndup(p + 1, (size_t)(end - p - 1));
}

static int seen_path(json_t *sources, const char *path)
{
	size_t i;
	json_t *v;
	json_array_foreach(sources, i, v)
	{
		if (!strcmp(json_string_value(json_object_get(v, "path")), path))
			return 1;
	}
	return 0;
}

/* Normalise "a/b/../c" lexically so the same header is recorded once. */
static char *normalise_path(const char *path)
{
	char *copy = xstrdup(path);
	const char *parts[256];
	size_t n = 0;
	int absolute = path[0] == '/';
	for (char *tok = strtok(copy, "/"); tok; tok = strtok(NULL, "/")) {
		if (!strcmp(tok, "."))
			continue;
		if (!strcmp(tok, "..") && n && strcmp(parts[n - 1], "..")) {
			n--;
			continue;
		}
		if (n < ARRAY_SIZE(parts))
			parts[n++] = tok;
	}
	struct strbuf sb = STRBUF_INIT;
	if (absolute)
		strbuf_addch(&sb, '/');
	for (size_t i = 0; i < n; i++) {
		if (i)
			strbuf_addch(&sb, '/');
		strbuf_addstr(&sb, parts[i]);
	}
	free(copy);
	return strbuf_detach(&sb, NULL);
}

static int hash_sources_rec(const char *path, const char *const *include_dirs,
			    struct sha256_ctx *key, json_t *sources, int depth)
{
	if (depth > 64)
		return error("'%s': includes nest deeper than 64 levels", path);
	if (seen_path(sources, path))
		return 0;
	struct strbuf sb = STRBUF_INIT;
	if (read_file(path, &sb) < 0)
		return -1;
	char hex[SHA256_HEX_LEN + 1];
	sha256_hex(strbuf_str(&sb), sb.len, hex);
	json_array_append_new(sources, json_pack("{s:s, s:s}", "path", path, "sha256", hex));
	sha256_update_field(key, "path", path, strlen(path));
	sha256_update_field(key, "source", strbuf_str(&sb), sb.len);

	/* directory of this file, for includes relative to it */
	char *dir = xstrdup(path);
	char *slash = strrchr(dir, '/');
	if (slash)
		*slash = '\0';
	else
		strcpy(dir, ".");

	int rc = 0;
	char *save = NULL;
	char *text = strbuf_detach(&sb, NULL);
	for (char *line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char *inc = include_target(line);
		if (!inc)
			continue;
		char *found = NULL;
		char *cand = xstrfmt("%s/%s", dir, inc);
		if (path_exists(cand))
			found = cand;
		else
			free(cand);
		for (size_t i = 0; !found && include_dirs && include_dirs[i]; i++) {
			cand = xstrfmt("%s/%s", include_dirs[i], inc);
			if (path_exists(cand))
				found = cand;
			else
				free(cand);
		}
		free(inc);
		if (!found)
			continue; /* a system or toolkit header: the compiler version covers it */
		char *norm = normalise_path(found);
		free(found);
		rc = hash_sources_rec(norm, include_dirs, key, sources, depth + 1);
		free(norm);
		if (rc < 0)
			break;
	}
	free(text);
	free(dir);
	return rc;
}

int build_hash_sources(const char *path, const char *const *include_dirs,
		       struct sha256_ctx *key, json_t *sources)
{
	char *norm = normalise_path(path);
	int rc = hash_sources_rec(norm, include_dirs, key, sources, 0);
	free(norm);
	return rc;
}

/* argv as a JSON array of strings (new reference). */
static json_t *argv_json(const char *const *argv)
{
	json_t *a = json_array();
	for (size_t i = 0; argv[i]; i++)
		json_array_append_new(a, json_string(argv[i]));
	return a;
}

static int cache_hit(const char *entry, struct build_result *res)
{
	char *info_path = xstrfmt("%s/info.json", entry);
	char *so = xstrfmt("%s/kernel.so", entry);
	char *logp = xstrfmt("%s/build.log", entry);
	int hit = 0;
	if (path_exists(info_path) && path_exists(so)) {
		json_error_t jerr;
		json_t *info = json_load_file(info_path, 0, &jerr);
		const char *want = json_string_value(json_object_get(info, "so_sha256"));
		char now[SHA256_HEX_LEN + 1];
		if (info && (!want || sha256_file_hex(so, now) < 0 || strcmp(now, want))) {
			/* the object is not the one this entry built: never run it;
			 * move the entry aside for inspection and build afresh */
			char rnd[9];
			random_hex(rnd, 8);
			char *aside = xstrfmt("%s.tampered-%s", entry, rnd);
			warning("build cache entry '%s': kernel.so does not match the hash recorded when it was "
				"built; set aside as '%s', rebuilding", entry, aside);
			if (rename(entry, aside) < 0)
				warning("cannot move '%s' aside: %s", entry, strerror(errno));
			free(aside);
			json_decref(info);
			info = NULL;
		}
		if (info) {
			struct strbuf log = STRBUF_INIT;
			read_file(logp, &log);
			json_object_set_new(info, "cached", json_true());
			note_warnings(info, strbuf_str(&log));
			res->info = info;
			res->so_path = so;
			so = NULL;
			res->log = strbuf_detach(&log, NULL);
			res->ok = 1;
			hit = 1;
		}
	}
	free(info_path);
	free(so);
	free(logp);
	return hit;
}

/* rm -r of a directory we made ourselves (flat: files only). */
static void remove_flat_dir(const char *dir)
{
	const char *names[] = { "kernel.so", "build.log", "info.json", NULL };
	for (size_t i = 0; names[i]; i++) {
		char *p = xstrfmt("%s/%s", dir, names[i]);
		unlink(p);
		free(p);
	}
	/* post hooks may leave other files (extracted cubins): best effort */
	const char *argv[] = { "rm", "-rf", dir, NULL };
	struct run_opts o = { .argv = argv, .timeout_s = 30 };
	struct run_result r;
	run_command(&o, &r);
}

int build_run(const struct build_request *rq, const struct build_recipe *recipe,
	      struct build_result *res)
{
	int rc = -1;
	char *kernels_inc = xstrfmt("-I%s/kernels", rq->repo_root);
	char *kernels_dir = xstrfmt("%s/kernels", rq->repo_root);
	char *src = path_exists(rq->kernel_path) || rq->kernel_path[0] == '/'
			    ? xstrdup(rq->kernel_path)
			    : xstrfmt("%s/%s", rq->repo_root, rq->kernel_path);
	char *version = NULL, *tmpdir = NULL, *entry = NULL, *out_path = NULL;
	const char **argv = NULL;
	char **dflags = NULL;
	json_t *sources = json_array();
	struct sha256_ctx *key = NULL;
	struct strbuf log = STRBUF_INIT;

	version = build_compiler_version(recipe->compiler, recipe->version_flag);
	if (!version) {
		error("cannot run the compiler '%s'; is it installed and on PATH?", recipe->compiler);
		goto out;
	}
	if (mkdir_p(rq->cache_dir, 0755) < 0)
		goto out;

	/* argv with a placeholder output, for the key */
	size_t nb = 0, ne = 0;
	while (recipe->base_flags && recipe->base_flags[nb])
		nb++;
	while (rq->extra_flags && rq->extra_flags[ne])
		ne++;
	argv = xcalloc(nb + rq->n_params + ne + 8, sizeof(char *));
	dflags = xcalloc(rq->n_params + 1, sizeof(char *));
	size_t k = 0;
	argv[k++] = recipe->compiler;
	for (size_t i = 0; i < nb; i++)
		argv[k++] = recipe->base_flags[i];
	argv[k++] = kernels_inc;
	for (size_t i = 0; i < rq->n_params; i++) {
		dflags[i] = xstrfmt("-D%s=%s", rq->params[i].name, rq->params[i].value);
		argv[k++] = dflags[i];
	}
	for (size_t i = 0; i < ne; i++)
		argv[k++] = rq->extra_flags[i];
	argv[k++] = "-o";
	size_t out_slot = k;
	argv[k++] = "@OUT@";
	argv[k++] = src;
	argv[k] = NULL;

	key = sha256_begin();
	const char *incs[] = { kernels_dir, NULL };
	if (build_hash_sources(src, incs, key, sources) < 0)
		goto out;
	for (size_t i = 0; argv[i]; i++)
		sha256_update_field(key, "arg", argv[i], strlen(argv[i]));
	sha256_update_field(key, "compiler", version, strlen(version));
	char hex[SHA256_HEX_LEN + 1];
	sha256_end(key, hex);
	key = NULL;

	entry = xstrfmt("%s/%s", rq->cache_dir, hex);
	if (cache_hit(entry, res)) {
		rc = 0;
		goto out;
	}

	char rnd[17];
	random_hex(rnd, 16);
	tmpdir = xstrfmt("%s/tmp-%s", rq->cache_dir, rnd);
	if (mkdir(tmpdir, 0755) < 0) {
		error("cannot create '%s': %s", tmpdir, strerror(errno));
		goto out;
	}
	out_path = xstrfmt("%s/kernel.so", tmpdir);
	argv[out_slot] = out_path;

	struct run_opts o = { .argv = argv, .timeout_s = 600, .merge_stderr = 1, .out = &log };
	struct run_result rr;
	double t0 = mono_now();
	if (run_command(&o, &rr) < 0)
		goto out;
	double secs = mono_now() - t0;

	json_t *argv_rec = argv_json(argv);
	/* record the argv with the placeholder: the temp dir name is noise */
	json_array_set_new(argv_rec, out_slot, json_string("@OUT@"));
	json_t *info = json_pack("{s:o, s:s, s:s, s:O, s:b, s:f, s:o}", "argv", argv_rec,
				 "compiler_version", version, "build_key", hex, "sources", sources,
				 "cached", 0, "seconds", secs, "resources", json_object());
	res->info = info;
	res->log = xstrdup(strbuf_str(&log));
	note_warnings(info, res->log);

	if (!rr.exited || rr.exit_code != 0 || !path_exists(out_path)) {
		struct strbuf how = STRBUF_INIT;
		run_result_describe(&rr, &how);
		char *reason = recipe->classify ? recipe->classify(strbuf_str(&log)) : NULL;
		json_object_set_new(info, "status", json_string("failed"));
		json_object_set_new(info, "exit", json_string(how.buf));
		json_object_set_new(info, "reason", reason ? json_string(reason) : json_null());
		json_object_set_new(info, "binary_sha256", json_null());
		free(reason);
		strbuf_release(&how);
		res->ok = 0;
		remove_flat_dir(tmpdir);
		rc = 0;
		goto out;
	}
	json_object_set_new(info, "status", json_string("ok"));
	json_object_set_new(info, "reason", json_null());
	if (recipe->post) {
		if (recipe->post(tmpdir, strbuf_str(&log), info) < 0) {
			remove_flat_dir(tmpdir);
			goto out;
		}
	}
	char so_hex[SHA256_HEX_LEN + 1];
	if (sha256_file_hex(out_path, so_hex) < 0) {
		remove_flat_dir(tmpdir);
		goto out;
	}
	/* the whole object's hash, checked on every cache hit and after every
	 * worker (a kernel that rewrites its own or another's binary) */
	json_object_set_new(info, "so_sha256", json_string(so_hex));
	if (!json_object_get(info, "binary_sha256"))
		json_object_set_new(info, "binary_sha256", json_string(so_hex));
	/* write log + info, then publish the directory atomically */
	char *logp = xstrfmt("%s/build.log", tmpdir);
	char *infop = xstrfmt("%s/info.json", tmpdir);
	FILE *f = fopen(logp, "w");
	int wrote = f && fwrite(strbuf_str(&log), 1, log.len, f) == log.len;
	if (f && fclose(f) != 0)
		wrote = 0;
	if (!wrote || json_dump_file(info, infop, JSON_INDENT(2) | JSON_SORT_KEYS) < 0) {
		error("cannot write the build cache entry '%s'", tmpdir);
		free(logp);
		free(infop);
		remove_flat_dir(tmpdir);
		goto out;
	}
	free(logp);
	free(infop);
	if (rename(tmpdir, entry) < 0) {
		/* another runner published the same key first: use theirs, all of
		 * it (its object and its info: a compiler need not be bit-for-bit
		 * reproducible, and the record must name the object that runs) */
		int e = errno;
		remove_flat_dir(tmpdir);
		json_decref(res->info);
		free(res->log);
		res->info = NULL;
		res->log = NULL;
		if (!cache_hit(entry, res)) {
			error("cannot publish build cache entry '%s': %s", entry, strerror(e));
			goto out;
		}
		json_object_set_new(res->info, "cached", json_false());
		rc = 0;
		goto out;
	}
	res->so_path = xstrfmt("%s/kernel.so", entry);
	res->ok = 1;
	rc = 0;
out:
	if (key) {
		char tmp[SHA256_HEX_LEN + 1];
		sha256_end(key, tmp);
	}
	if (dflags) {
		for (size_t i = 0; i < rq->n_params; i++)
			free(dflags[i]);
		free(dflags);
	}
	free(argv);
	json_decref(sources);
	strbuf_release(&log);
	free(version);
	free(tmpdir);
	free(entry);
	free(out_path);
	free(src);
	free(kernels_inc);
	free(kernels_dir);
	return rc;
}
