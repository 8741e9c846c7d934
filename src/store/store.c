/*
 * store.c - the immutable run store (layout and guarantees in store.h):
 * objects, manifests written once, the commit that chains them, pending
 * markers, and verify.  The lock and the caches it keeps (HEAD, index),
 * the store's order and id resolution are in store_index.c.
 */
#include "store/store_internal.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int store_fail_after = -1;
void (*store_test_hook)(const char *point);

void store_hook(const char *point)
{
	if (store_test_hook)
		store_test_hook(point);
}

int store_injected(void)
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
		store_ensure_gitignore(st);
		return 0;
	}
	if (!is_dir(root))
		return error("no store at '%s'; run an experiment first, or pass --store DIR", root);
	return 0;
}

/* What git must not see: scratch and the caches (store.h). */
static const char gitignore_text[] =
	"# written by evident: scratch and caches, rebuilt from runs/ and objects/\n"
	"/tmp/\n"
	"/pending/\n"
	"/HEAD\n"
	"/HEAD.lock\n"
	"/HEAD.lock.break\n"
	"/index\n";

void store_ensure_gitignore(struct store *st)
{
	char *path = xstrfmt("%s/.gitignore", st->root);
	if (!path_exists(path)) {
		char rnd[17];
		random_hex(rnd, 16);
		char *tmpdir = xstrfmt("%s/tmp", st->root);
		char *tmp = xstrfmt("%s/gitignore-%s", tmpdir, rnd);
		(void)mkdir(tmpdir, 0755); /* if it fails, so does open below */
		free(tmpdir);
		int fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
		if (fd >= 0) {
			int ok = write_all(fd, gitignore_text, strlen(gitignore_text)) == 0;
			if (close(fd) == 0 && ok)
				(void)!link(tmp, path); /* EEXIST: another writer made it */
			unlink(tmp);
		}
		free(tmp);
	}
	free(path);
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

int store_write_once(struct store *st, const char *final, const void *data, size_t n,
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
	if (store_injected() || write_all(fd, data, n) < 0) {
		error("cannot write '%s': %s", tmp, strerror(errno));
		goto out;
	}
	if (store_injected() || fsync(fd) < 0) {
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
	/* the directory is made only when missing: a mkdir a commit costs */
	int lr = store_injected() ? -1 : link(tmp, final);
	if (lr < 0 && errno == ENOENT) {
		if (mkdir_p(dir, 0755) < 0) {
			free(dir);
			goto out;
		}
		lr = link(tmp, final);
	}
	if (lr < 0) {
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

int store_write_replace(struct store *st, const char *final, const void *data, size_t n)
{
	char rnd[17];
	random_hex(rnd, 16);
	char *tmpdir = xstrfmt("%s/tmp", st->root);
	char *tmp = xstrfmt("%s/%s", tmpdir, rnd);
	int rc = -1, e = 0;
	if (mkdir(tmpdir, 0755) < 0 && errno != EEXIST)
		goto out;
	int fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
	if (fd < 0)
		goto out;
	int ok = !store_injected() && write_all(fd, data, n) == 0;
	e = errno;
	if (close(fd) < 0 && ok) {
		ok = 0;
		e = errno;
	}
	if (ok && (store_injected() || rename(tmp, final) < 0))
		e = errno;
	else if (ok)
		rc = 0;
	if (rc < 0)
		unlink(tmp);
	errno = e;
out:
	e = errno;
	free(tmp);
	free(tmpdir);
	errno = e;
	return rc;
}

int store_put(struct store *st, const void *data, size_t n, char out[SHA256_HEX_LEN + 1])
{
	sha256_hex(data, n, out);
	char *path = store_object_path(st, out);
	int rc = 0;
	if (!path_exists(path))
		rc = store_write_once(st, path, data, n, 1);
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

/*
 * The digest of a manifest from its canonical text (with "digest" dg):
 * the text without the "digest" member is the text less the line
 * ' "digest": "DG",' (or less ',\n "digest": "DG"' when it is the last
 * member), since canonical JSON puts each top-level member on its own line
 * at an indent of one space, and a newline inside a string is escaped.
 * Saves verify a second dump of every manifest.
 */
static void canonical_digest(const char *canon, const char *dg, char out[SHA256_HEX_LEN + 1])
{
	char *mid = xstrfmt("\n \"digest\": \"%s\",\n", dg), *last = xstrfmt(",\n \"digest\": \"%s\"\n}", dg);
	const char *at = strstr(canon, mid);
	size_t n = strlen(canon);
	char *bare = xmalloc(n + 1);
	if (at) { /* keep its leading newline */
		size_t k = (size_t)(at - canon) + 1;
		memcpy(bare, canon, k);
		strcpy(bare + k, at + strlen(mid));
	} else if ((at = strstr(canon, last))) {
		size_t k = (size_t)(at - canon);
		memcpy(bare, canon, k);
		strcpy(bare + k, "\n}\n");
	} else {
		strcpy(bare, canon); /* cannot happen: its digest will not match */
	}
	sha256_hex(bare, strlen(bare), out);
	free(bare);
	free(mid);
	free(last);
}

/* Compare the JSON key at k (up to its closing quote) with "digest"; 2
 * when it holds an escape (its bytes are not its name). */
static int key_vs_digest(const char *k)
{
	const char *d = "digest";
	for (; *k != '"'; k++, d++) {
		if (!*k || *k == '\\')
			return 2;
		if (!*d || *k != *d)
			return !*d || (unsigned char)*k > (unsigned char)*d ? 1 : -1;
	}
	return *d ? -1 : 0;
}

/*
 * verify's fast path: the digest of a manifest from its bytes alone.  When
 * its ' "digest": "HEX"' member sits at its sorted place among the
 * top-level members (in canonical text each starts a line at an indent of
 * one space, and deeper lines are indented more), the text without that
 * member is hashed into want, HEX is copied to dg, and 1 is returned.
 * want == dg then proves the bytes are exactly those committed, canonical
 * form included, since the commit hashed its canonical text; parsing and
 * dumping again would prove nothing more.  0: not so shaped (the caller
 * dumps, and says what is wrong).
 */
static int text_digest(const char *t, size_t n, char dg[SHA256_HEX_LEN + 1], char want[SHA256_HEX_LEN + 1])
{
	static const char key[] = "\n \"digest\": \"";
	const char *p = strstr(t, key), *hex, *after;
	if (!p)
		return 0;
	hex = p + sizeof(key) - 1;
	for (int i = 0; i < SHA256_HEX_LEN; i++)
		if (!((hex[i] >= '0' && hex[i] <= '9') || (hex[i] >= 'a' && hex[i] <= 'f')))
			return 0;
	if (hex[SHA256_HEX_LEN] != '"')
		return 0;
	after = hex + SHA256_HEX_LEN + 1;
	/* the member before it: none, or one whose key sorts below "digest" */
	if (p != t + 1) {
		const char *q = p - 1;
		while (q > t && !(q[0] == '\n' && q[1] == ' ' && q[2] == '"'))
			q--;
		if (p[-1] != ',' || q == t || key_vs_digest(q + 3) != -1)
			return 0;
	} else if (t[0] != '{') {
		return 0;
	}
	/* the member after it sorts above "digest" (a committed manifest has
	 * "prev" and "run_id" there, so "digest" is never last) */
	if (strncmp(after, ",\n \"", 4) || key_vs_digest(after + 4) != 1)
		return 0;
	struct strbuf bare = STRBUF_INIT;
	strbuf_add(&bare, t, (size_t)(p - t) + 1);
	strbuf_add(&bare, after + 2, n - (size_t)(after + 2 - t));
	memcpy(dg, hex, SHA256_HEX_LEN);
	dg[SHA256_HEX_LEN] = '\0';
	sha256_hex(bare.buf, bare.len, want);
	strbuf_release(&bare);
	return 1;
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

int store_list_dir(struct store *st, char ***ids, size_t *n)
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

int store_list(struct store *st, char ***ids, size_t *n)
{
	struct store_index ix = STORE_INDEX_INIT;
	*ids = NULL;
	*n = 0;
	if (store_index_load(st, &ix) < 0)
		return -1;
	*ids = xmalloc((ix.n ? ix.n : 1) * sizeof(char *));
	for (size_t i = 0; i < ix.n; i++) {
		(*ids)[i] = ix.e[i].run_id;
		ix.e[i].run_id = NULL;
	}
	*n = ix.n;
	store_index_release(&ix);
	return 0;
}

void store_free_list(char **ids, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(ids[i]);
	free(ids);
}

json_t *store_read_manifest(const char *path, struct strbuf *why)
{
	json_error_t jerr;
	json_t *m = json_load_file(path, JSON_REJECT_DUPLICATES, &jerr);
	if (!m) {
		if (why)
			strbuf_addf(why, "not valid JSON (line %d: %s)", jerr.line, jerr.text);
		return NULL;
	}
	if (!json_is_object(m)) {
		if (why)
			strbuf_addstr(why, "not a JSON object");
		json_decref(m);
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
	char *path = xstrfmt("%s/runs/%s.json", st->root, id);
	char *match = NULL;
	if (!path_exists(path)) {
		struct store_index ix = STORE_INDEX_INIT;
		struct strbuf why = STRBUF_INIT;
		size_t at;
		int r = store_index_load(st, &ix);
		if (r == 0)
			r = store_resolve(&ix, id, &at, &why);
		if (r == 0)
			match = xstrdup(ix.e[at].run_id);
		else if (r == STORE_NOT_FOUND)
			error("no run '%s' in '%s'; see 'evident ls'", id, st->root);
		else if (r == STORE_AMBIGUOUS)
			error("run id '%s' is ambiguous: %s; give more of it", id, strbuf_str(&why));
		strbuf_release(&why);
		store_index_release(&ix);
		free(path);
		if (!match)
			return -1;
		path = xstrfmt("%s/runs/%s.json", st->root, match);
	}
	struct strbuf why = STRBUF_INIT;
	*m = store_read_manifest(path, &why);
	if (!*m)
		error("run '%s' is damaged: %s; run 'evident verify'", match ? match : id, strbuf_str(&why));
	strbuf_release(&why);
	free(match);
	free(path);
	return *m ? 0 : -1;
}

/*
 * prev = the head (store.h, "HEAD"): HEAD's digest while runs/ keeps the
 * stat HEAD recorded, else the last run of the index refreshed now (under
 * the lock, so it can be written back).  After the link, the caches are
 * best effort: a failure there is a warning, since the record is written
 * and readers repair the index, and the next commit HEAD.
 */
int store_commit(struct store *st, const char *run_id, json_t *m)
{
	if (!is_safe_name(run_id))
		return error("invalid run id '%s'", run_id);
	struct store_lock lk = STORE_LOCK_INIT;
	if (store_lock_take(st, &lk, store_lock_wait_s, 0) < 0)
		return -1;
	store_hook("locked");
	struct store_head h;
	struct runs_sig sig;
	char prev[SHA256_HEX_LEN + 1] = "";
	if (head_read(st, &h) == 0 && runs_sig_now(st, &sig) == 0 && runs_sig_eq(&h.sig, &sig)) {
		strcpy(prev, h.digest);
	} else {
		struct store_index ix = STORE_INDEX_INIT;
		if (index_refresh(st, &ix, 1) < 0) {
			store_lock_release(&lk);
			return -1;
		}
		if (ix.n)
			strcpy(prev, ix.e[ix.n - 1].digest);
		store_index_release(&ix);
	}
	json_object_set_new(m, "run_id", json_string(run_id));
	json_object_set_new(m, "prev", prev[0] ? json_string(prev) : json_null());
	char dg[SHA256_HEX_LEN + 1];
	manifest_digest(m, dg);
	json_object_set_new(m, "digest", json_string(dg));
	struct store_entry e = { (char *)run_id, "", "", index_attrs(m) };
	strcpy(e.digest, dg);
	strcpy(e.prev, prev);
	char *text = store_canonical(m);
	char *path = xstrfmt("%s/runs/%s.json", st->root, run_id);
	int rc = store_write_once(st, path, text, strlen(text), 0);
	free(path);
	free(text);
	if (rc < 0)
		goto out;
	store_hook("linked");
	if (runs_sig_now(st, &sig) < 0)
		memset(&sig, 0, sizeof(sig));
	if (!store_lock_owned(&lk)) {
		warning("run '%s' is written, but its writer lost the lock '%s' (stalled for over %.0f s?): "
			"the chain forks here; 'evident verify' counts forks",
			run_id, lk.path, store_lock_stale_s);
		goto out;
	}
	if (index_append(st, &e) < 0)
		warning("run '%s' is written, but not its line in '%s/index' (%s); readers will add it",
			run_id, st->root, strerror(errno));
	store_hook("indexed");
	if (head_write(st, dg, run_id, &sig) < 0)
		warning("run '%s' is written, but '%s/HEAD' is not moved (%s); the next commit finds the head "
			"from the index",
			run_id, st->root, strerror(errno));
out:
	free(e.attrs);
	store_lock_release(&lk);
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

	/* manifests; runs/ is stat'd first, so that a run added meanwhile
	 * keeps the caches from being rewritten without it */
	struct runs_sig sig0;
	if (runs_sig_now(st, &sig0) < 0)
		memset(&sig0, 0, sizeof(sig0));
	char **ids;
	size_t n;
	if (store_list_dir(st, &ids, &n) < 0) {
		hexset_free(&objects);
		hexset_free(&damaged);
		return -1;
	}
	json_t **ms = xcalloc(n ? n : 1, sizeof(json_t *));
	struct store_index truth = { xcalloc(n ? n : 1, sizeof(struct store_entry)), 0, 0 };
	for (size_t i = 0; i < n; i++) {
		char *path = xstrfmt("%s/runs/%s.json", st->root, ids[i]);
		(*n_runs)++;
		json_error_t jerr;
		json_t *m = NULL;
		strbuf_reset(&buf);
		if (read_file(path, &buf) < 0) {
			strbuf_addf(out, "unreadable: %s\n", path);
			problems++;
		} else if (!(m = json_loadb(strbuf_str(&buf), buf.len, JSON_REJECT_DUPLICATES, &jerr)) ||
			   !json_is_object(m)) {
			strbuf_addf(out, "altered: %s: not valid JSON (line %d: %s)\n", path, m ? 1 : jerr.line,
				    m ? "not an object" : jerr.text);
			problems++;
		} else {
			/* the digest from the bytes; where that fails, from a dump,
			 * which also tells a bad digest from a bad form */
			char *canon = NULL;
			char dg[SHA256_HEX_LEN + 1] = "", want[SHA256_HEX_LEN + 1] = "";
			int intact = text_digest(strbuf_str(&buf), buf.len, dg, want) && !strcmp(dg, want);
			if (!intact) {
				canon = store_canonical(m);
				const char *d0 = json_string_value(json_object_get(m, "digest"));
				dg[0] = want[0] = '\0';
				if (d0 && strlen(d0) == SHA256_HEX_LEN) {
					strcpy(dg, d0);
					canonical_digest(canon, dg, want);
				}
			}
			const char *rid = json_string_value(json_object_get(m, "run_id"));
			struct strbuf why = STRBUF_INIT;
			struct store_entry *te = &truth.e[truth.n];
			if (!intact && (!dg[0] || strcmp(dg, want))) {
				strbuf_addf(out, "altered: %s: digest does not match its content\n", path);
				problems++;
			} else if (!intact && strcmp(canon, strbuf_str(&buf))) {
				strbuf_addf(out, "altered: %s: not in canonical form (edited by hand?)\n", path);
				problems++;
			} else if (!rid || strcmp(rid, ids[i])) {
				strbuf_addf(out, "altered: %s: its run_id is '%s'\n", path, rid ? rid : "(none)");
				problems++;
			} else if (index_entry_from_manifest(m, ids[i], te, &why) < 0) {
				strbuf_addf(out, "altered: %s: %s\n", path, strbuf_str(&why));
				problems++;
			} else {
				truth.n++;
				hexset_add(&digests, dg);
				ms[i] = m;
				m = NULL;
			}
			strbuf_release(&why);
			free(canon);
		}
		json_decref(m);
		free(path);
	}
	hexset_sort(&digests);
	struct hexset prevs = { 0 };
	size_t roots = 0;
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
		if (json_is_string(prev)) {
			hexset_add(&prevs, json_string_value(prev));
			if (!hexset_has(&digests, json_string_value(prev))) {
				strbuf_addf(out,
					    "missing: the manifest before run %s (prev %.12s...) is gone or altered\n",
					    ids[i], json_string_value(prev));
				problems++;
			}
		} else {
			roots++;
		}
		json_decref(ms[i]);
	}
	free(ms);
	/* a line has one root and no prev twice; forks are legal, but worth a word */
	hexset_sort(&prevs);
	size_t shared = 0;
	for (size_t i = 1; i < prevs.n; i++)
		shared += !strcmp(prevs.v[i], prevs.v[i - 1]);
	if (shared || roots > 1) {
		strbuf_addf(out,
			    "note: the chain is a tree, not a line: %zu fork%s and %zu first manifest%s "
			    "(merged clones of the store, or writers that did not share the lock)\n",
			    shared, shared == 1 ? "" : "s", roots, roots == 1 ? "" : "s");
		(*notes)++;
	}
	hexset_free(&prevs);
	hexset_sort(&refs);
	for (size_t i = 0; i < objects.n; i++)
		if (!hexset_has(&refs, objects.v[i])) {
			char *p = store_object_path(st, objects.v[i]);
			strbuf_addf(out, "note: orphan object %s (no run refers to it; harmless)\n", p);
			free(p);
			(*notes)++;
		}
	/* the caches, against the intact manifests */
	index_sort(&truth);
	index_check_caches(st, &truth, &sig0, out, notes);
	store_index_release(&truth);
	store_free_list(ids, n);
	hexset_free(&objects);
	hexset_free(&refs);
	hexset_free(&digests);
	hexset_free(&damaged);
	hexset_free(&reported);
	strbuf_release(&buf);
	return problems;
}
