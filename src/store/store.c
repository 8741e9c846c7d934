/*
 * store.c - the immutable run store (layout and guarantees in store.h).
 */
#include "store/store.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int store_fail_after = -1;

/* Fault injection: returns 1 when this write-ish call must fail. */
static int injected(void)
{
	if (store_fail_after < 0)
		return 0;
	if (store_fail_after == 0) {
		errno = EIO;
		return 1;
	}
	store_fail_after--;
	return 0;
}

const char *store_default_root(const char *dir)
{
	if (dir && *dir)
		return dir;
	const char *e = getenv("EVIDENT_STORE");
	return e && *e ? e : "store";
}

int store_open(struct store *st, const char *root, int create)
{
	st->root = xstrdup(root);
	const char *subs[] = { "objects", "runs", "tmp", "pending" };
	if (create) {
		for (size_t i = 0; i < ARRAY_SIZE(subs); i++) {
			char *p = xstrfmt("%s/%s", root, subs[i]);
			int rc = mkdir_p(p, 0755);
			free(p);
			if (rc < 0)
				return -1;
		}
		return 0;
	}
	if (!is_dir(root))
		return error("no store at '%s'; run an experiment first, or pass --store DIR", root);
	return 0;
}

void store_release(struct store *st)
{
	free(st->root);
	st->root = NULL;
}

char *store_object_path(struct store *st, const char *hex)
{
	return xstrfmt("%s/objects/%.2s/%s", st->root, hex, hex + 2);
}

static int fsync_dir(const char *dir)
{
	int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	int rc = fsync(fd);
	close(fd);
	return rc;
}

/*
 * Write data to tmp/, fsync, chmod 0444, link to final.  exists_ok: an
 * existing final file is success (objects); otherwise it is an error.
 */
static int write_once(struct store *st, const char *final, const void *data, size_t n,
		      int exists_ok)
{
	char rnd[17];
	random_hex(rnd, 16);
	char *tmp = xstrfmt("%s/tmp/%s", st->root, rnd);
	int fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
	int rc = -1;
	if (fd < 0) {
		error("cannot create '%s': %s", tmp, strerror(errno));
		free(tmp);
		return -1;
	}
	if (injected() || write_all(fd, data, n) < 0) {
		error("cannot write '%s': %s", tmp, strerror(errno));
		goto out;
	}
	if (injected() || fsync(fd) < 0) {
		error("cannot fsync '%s': %s", tmp, strerror(errno));
		goto out;
	}
	fchmod(fd, 0444);
	if (close(fd) < 0) {
		fd = -1;
		error("cannot close '%s': %s", tmp, strerror(errno));
		goto out;
	}
	fd = -1;
	char *dir = xstrdup(final);
	*strrchr(dir, '/') = '\0';
	if (mkdir_p(dir, 0755) < 0) {
		free(dir);
		goto out;
	}
	if (injected() || link(tmp, final) < 0) {
		if (errno == EEXIST && exists_ok) {
			rc = 0;
		} else {
			error("cannot write '%s': %s", final,
			      errno == EEXIST ? "it exists already (records are never overwritten)"
					      : strerror(errno));
		}
		free(dir);
		goto out;
	}
	fsync_dir(dir);
	free(dir);
	rc = 0;
out:
	if (fd >= 0)
		close(fd);
	unlink(tmp);
	free(tmp);
	return rc;
}

int store_put(struct store *st, const void *data, size_t n, char out[SHA256_HEX_LEN + 1])
{
	sha256_hex(data, n, out);
	char *path = store_object_path(st, out);
	int rc = 0;
	if (!path_exists(path))
		rc = write_once(st, path, data, n, 1);
	free(path);
	return rc;
}

static int is_hex64(const char *s)
{
	if (!s || strlen(s) != 64)
		return 0;
	for (const char *p = s; *p; p++)
		if (!((*p >= '0' && *p <= '9') || (*p >= 'a' && *p <= 'f')))
			return 0;
	return 1;
}

int store_get(struct store *st, const char *hex, struct strbuf *out)
{
	if (!is_hex64(hex))
		return error("'%s' is not an object name (64 hex digits)", hex);
	char *path = store_object_path(st, hex);
	size_t before = out->len;
	int rc = read_file(path, out);
	free(path);
	if (rc < 0)
		return -1;
	char got[SHA256_HEX_LEN + 1];
	sha256_hex(out->buf + before, out->len - before, got);
	if (strcmp(got, hex))
		return error("object '%s' is damaged (its content hashes to %.12s); run 'evident verify'",
			     hex, got);
	return 0;
}

char *store_canonical(json_t *m)
{
	char *s = json_dumps(m, JSON_INDENT(1) | JSON_SORT_KEYS | JSON_REAL_PRECISION(17));
	if (!s)
		die("cannot serialise a manifest");
	char *r = xstrfmt("%s\n", s);
	free(s);
	return r;
}

/* digest of m without its "digest" key */
static void manifest_digest(json_t *m, char out[SHA256_HEX_LEN + 1])
{
	json_t *copy = json_copy(m);
	json_object_del(copy, "digest");
	char *text = store_canonical(copy);
	sha256_hex(text, strlen(text), out);
	free(text);
	json_decref(copy);
}

char *store_new_run_id(const char *experiment)
{
	char stamp[32], rnd[9];
	utc_now_compact(stamp, sizeof(stamp));
	random_hex(rnd, 8);
	return xstrfmt("%s-%s-%s", stamp, experiment, rnd);
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

int store_list(struct store *st, char ***ids, size_t *n)
{
	*ids = NULL;
	*n = 0;
	char *dir = xstrfmt("%s/runs", st->root);
	DIR *d = opendir(dir);
	if (!d) {
		int missing = errno == ENOENT;
		free(dir);
		return missing ? 0 : error("cannot read '%s/runs': %s", st->root, strerror(errno));
	}
	size_t alloc = 0;
	struct dirent *e;
	while ((e = readdir(d))) {
		size_t len = strlen(e->d_name);
		if (len < 6 || strcmp(e->d_name + len - 5, ".json") || e->d_name[0] == '.')
			continue;
		if (*n == alloc) {
			alloc = alloc ? alloc * 2 : 64;
			*ids = xrealloc(*ids, alloc * sizeof(char *));
		}
		(*ids)[(*n)++] = xstrndup(e->d_name, len - 5);
	}
	closedir(d);
	free(dir);
	if (*n)
		qsort(*ids, *n, sizeof(char *), cmp_str);
	return 0;
}

void store_free_list(char **ids, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(ids[i]);
	free(ids);
}

static json_t *load_manifest_file(const char *path, struct strbuf *why)
{
	json_error_t jerr;
	json_t *m = json_load_file(path, JSON_REJECT_DUPLICATES, &jerr);
	if (!m) {
		if (why)
			strbuf_addf(why, "not valid JSON (line %d: %s)", jerr.line, jerr.text);
		return NULL;
	}
	return m;
}

int store_load(struct store *st, const char *id, json_t **m)
{
	*m = NULL;
	if (!is_safe_name(id))
		return error("'%s' is not a run id (run ids hold only letters, digits and _ . -; see 'evident ls')",
			     id);
	char **ids;
	size_t n;
	if (store_list(st, &ids, &n) < 0)
		return -1;
	const char *match = NULL;
	int count = 0;
	for (size_t i = 0; i < n; i++) {
		if (!strcmp(ids[i], id)) {
			match = ids[i];
			count = 1;
			break;
		}
		if (!strncmp(ids[i], id, strlen(id))) {
			match = ids[i];
			count++;
		}
	}
	int rc = -1;
	if (!count) {
		error("no run '%s' in '%s'; see 'evident ls'", id, st->root);
	} else if (count > 1) {
		error("run id prefix '%s' is ambiguous (%d runs match); give more of it", id, count);
	} else {
		char *path = xstrfmt("%s/runs/%s.json", st->root, match);
		struct strbuf why = STRBUF_INIT;
		*m = load_manifest_file(path, &why);
		if (!*m)
			error("run '%s' is damaged: %s; run 'evident verify'", match, why.buf);
		else
			rc = 0;
		strbuf_release(&why);
		free(path);
	}
	store_free_list(ids, n);
	return rc;
}

int store_commit(struct store *st, const char *run_id, json_t *m)
{
	if (!is_safe_name(run_id))
		return error("invalid run id '%s'", run_id);
	/* prev: digest of the newest manifest present now */
	char **ids;
	size_t n;
	if (store_list(st, &ids, &n) < 0)
		return -1;
	json_t *prev = json_null();
	for (size_t i = n; i-- > 0;) {
		char *path = xstrfmt("%s/runs/%s.json", st->root, ids[i]);
		json_t *pm = load_manifest_file(path, NULL);
		free(path);
		json_t *d = pm ? json_object_get(pm, "digest") : NULL;
		if (d && json_is_string(d)) {
			prev = json_string(json_string_value(d));
			json_decref(pm);
			break;
		}
		json_decref(pm); /* a damaged manifest: chain to the one before */
	}
	store_free_list(ids, n);
	json_object_set_new(m, "run_id", json_string(run_id));
	json_object_set_new(m, "prev", prev);
	char dg[SHA256_HEX_LEN + 1];
	manifest_digest(m, dg);
	json_object_set_new(m, "digest", json_string(dg));
	char *text = store_canonical(m);
	char *path = xstrfmt("%s/runs/%s.json", st->root, run_id);
	int rc = write_once(st, path, text, strlen(text), 0);
	free(path);
	free(text);
	return rc;
}

int store_pending_begin(struct store *st, const char *run_id, const char *experiment,
			const char *variant)
{
	char host[256] = "";
	gethostname(host, sizeof(host) - 1);
	char now[40];
	utc_now_iso(now, sizeof(now));
	json_t *p = json_pack("{s:s, s:I, s:s, s:s, s:s, s:s}", "run_id", run_id, "pid",
			      (json_int_t)getpid(), "host", host, "started_utc", now, "experiment",
			      experiment, "variant", variant);
	char *path = xstrfmt("%s/pending/%s.json", st->root, run_id);
	int rc = json_dump_file(p, path, JSON_SORT_KEYS);
	if (rc < 0)
		error("cannot write '%s'", path);
	free(path);
	json_decref(p);
	return rc;
}

void store_pending_end(struct store *st, const char *run_id)
{
	char *path = xstrfmt("%s/pending/%s.json", st->root, run_id);
	unlink(path);
	free(path);
}

json_t *store_pending_list(struct store *st)
{
	json_t *out = json_array();
	char *dir = xstrfmt("%s/pending", st->root);
	DIR *d = opendir(dir);
	if (!d) {
		free(dir);
		return out;
	}
	char host[256] = "";
	gethostname(host, sizeof(host) - 1);
	struct dirent *e;
	while ((e = readdir(d))) {
		if (e->d_name[0] == '.')
			continue;
		char *path = xstrfmt("%s/%s", dir, e->d_name);
		json_t *p = json_load_file(path, 0, NULL);
		free(path);
		if (!p)
			continue;
		pid_t pid = (pid_t)json_integer_value(json_object_get(p, "pid"));
		const char *h = json_string_value(json_object_get(p, "host"));
		int alive = h && !strcmp(h, host) && pid > 0 && (kill(pid, 0) == 0 || errno == EPERM);
		json_object_set_new(p, "state", json_string(alive ? "running" : "aborted"));
		json_array_append_new(out, p);
	}
	closedir(d);
	free(dir);
	return out;
}

/* --- verify -------------------------------------------------------------- */

struct hexset {
	char **v;
	size_t n, alloc;
};

static void hexset_add(struct hexset *s, const char *hex)
{
	if (s->n == s->alloc) {
		s->alloc = s->alloc ? 2 * s->alloc : 256;
		s->v = xrealloc(s->v, s->alloc * sizeof(char *));
	}
	s->v[s->n++] = xstrdup(hex);
}

static void hexset_sort(struct hexset *s)
{
	if (s->n)
		qsort(s->v, s->n, sizeof(char *), cmp_str);
}

static int hexset_has(const struct hexset *s, const char *hex)
{
	return s->n && bsearch(&hex, s->v, s->n, sizeof(char *), cmp_str) != NULL;
}

static void hexset_free(struct hexset *s)
{
	for (size_t i = 0; i < s->n; i++)
		free(s->v[i]);
	free(s->v);
}

static int key_is_ref(const char *k)
{
	size_t n = strlen(k);
	return !strcmp(k, "object") || (n > 7 && !strcmp(k + n - 7, "_object"));
}

/* collect object references (with the key path for messages) */
static void collect_refs(json_t *v, struct hexset *refs)
{
	const char *k;
	json_t *x;
	size_t i;
	if (json_is_object(v)) {
		json_object_foreach(v, k, x)
		{
			if (key_is_ref(k) && json_is_string(x))
				hexset_add(refs, json_string_value(x));
			else
				collect_refs(x, refs);
		}
	} else if (json_is_array(v)) {
		json_array_foreach(v, i, x) collect_refs(x, refs);
	}
}

int store_verify(struct store *st, struct strbuf *out, int *notes, size_t *n_objects,
		 size_t *n_runs)
{
	int problems = 0;
	*notes = 0;
	*n_objects = *n_runs = 0;
	struct hexset objects = { 0 }, refs = { 0 }, digests = { 0 }, damaged = { 0 }, reported = { 0 };
	struct strbuf buf = STRBUF_INIT;
	if (!is_dir(st->root))
		return error("no store at '%s'", st->root);

	/* objects */
	char *odir = xstrfmt("%s/objects", st->root);
	DIR *d = opendir(odir);
	struct dirent *e;
	while (d && (e = readdir(d))) {
		if (e->d_name[0] == '.')
			continue;
		char *sub = xstrfmt("%s/%s", odir, e->d_name);
		DIR *d2 = opendir(sub);
		struct dirent *f;
		while (d2 && (f = readdir(d2))) {
			if (f->d_name[0] == '.')
				continue;
			char *name = xstrfmt("%s%s", e->d_name, f->d_name);
			char *path = xstrfmt("%s/%s", sub, f->d_name);
			(*n_objects)++;
			if (!is_hex64(name) || strlen(e->d_name) != 2) {
				strbuf_addf(out, "stray: %s: not an object name\n", path);
				problems++;
			} else {
				strbuf_reset(&buf);
				char got[SHA256_HEX_LEN + 1];
				if (read_file(path, &buf) < 0) {
					strbuf_addf(out, "unreadable: %s\n", path);
					problems++;
				} else if (sha256_hex(strbuf_str(&buf), buf.len, got), strcmp(got, name)) {
					strbuf_addf(out, "altered: %s: content hashes to %.12s..., not its name\n",
						    path, got);
					hexset_add(&damaged, name);
					problems++;
				} else {
					hexset_add(&objects, name);
				}
			}
			free(name);
			free(path);
		}
		if (d2)
			closedir(d2);
		free(sub);
	}
	if (d)
		closedir(d);
	free(odir);
	hexset_sort(&objects);
	hexset_sort(&damaged);

	/* manifests */
	char **ids;
	size_t n;
	if (store_list(st, &ids, &n) < 0) {
		hexset_free(&objects);
		return -1;
	}
	json_t **ms = xcalloc(n ? n : 1, sizeof(json_t *));
	for (size_t i = 0; i < n; i++) {
		char *path = xstrfmt("%s/runs/%s.json", st->root, ids[i]);
		struct strbuf why = STRBUF_INIT;
		(*n_runs)++;
		json_t *m = load_manifest_file(path, &why);
		if (!m) {
			strbuf_addf(out, "altered: %s: %s\n", path, why.buf);
			problems++;
		} else {
			strbuf_reset(&buf);
			read_file(path, &buf);
			char *canon = store_canonical(m);
			const char *dg = json_string_value(json_object_get(m, "digest"));
			char want[SHA256_HEX_LEN + 1];
			manifest_digest(m, want);
			const char *rid = json_string_value(json_object_get(m, "run_id"));
			if (!dg || strcmp(dg, want)) {
				strbuf_addf(out, "altered: %s: digest does not match its content\n", path);
				problems++;
			} else if (strcmp(canon, strbuf_str(&buf))) {
				strbuf_addf(out, "altered: %s: not in canonical form (edited by hand?)\n", path);
				problems++;
			} else if (!rid || strcmp(rid, ids[i])) {
				strbuf_addf(out, "altered: %s: its run_id is '%s'\n", path, rid ? rid : "(none)");
				problems++;
			} else {
				hexset_add(&digests, dg);
				ms[i] = m;
				m = NULL;
			}
			free(canon);
		}
		json_decref(m);
		strbuf_release(&why);
		free(path);
	}
	hexset_sort(&digests);
	for (size_t i = 0; i < n; i++) {
		if (!ms[i])
			continue;
		struct hexset r = { 0 };
		collect_refs(ms[i], &r);
		for (size_t j = 0; j < r.n; j++) {
			hexset_add(&refs, r.v[j]);
			/* each missing object once; a damaged one was reported above */
			if (!hexset_has(&objects, r.v[j]) && !hexset_has(&damaged, r.v[j]) &&
			    !hexset_has(&reported, r.v[j])) {
				hexset_add(&reported, r.v[j]);
				hexset_sort(&reported);
				char *p = is_hex64(r.v[j]) ? store_object_path(st, r.v[j]) : xstrdup(r.v[j]);
				strbuf_addf(out, "missing: %s (referenced by run %s)\n", p, ids[i]);
				free(p);
				problems++;
			}
		}
		hexset_free(&r);
		json_t *prev = json_object_get(ms[i], "prev");
		if (json_is_string(prev) && !hexset_has(&digests, json_string_value(prev))) {
			strbuf_addf(out,
				    "missing: the manifest before run %s (prev %.12s...) is gone or altered\n",
				    ids[i], json_string_value(prev));
			problems++;
		}
		json_decref(ms[i]);
	}
	free(ms);
	hexset_sort(&refs);
	for (size_t i = 0; i < objects.n; i++)
		if (!hexset_has(&refs, objects.v[i])) {
			char *p = store_object_path(st, objects.v[i]);
			strbuf_addf(out, "note: orphan object %s (no run refers to it; harmless)\n", p);
			free(p);
			(*notes)++;
		}
	store_free_list(ids, n);
	hexset_free(&objects);
	hexset_free(&refs);
	hexset_free(&digests);
	hexset_free(&damaged);
	hexset_free(&reported);
	strbuf_release(&buf);
	return problems;
}
