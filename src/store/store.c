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
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
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
	if (!is_dir(root)) {
		struct strbuf sb = STRBUF_INIT;
		store_hint_here(&sb);
		error("no store at '%s'; run an experiment first, or %s", root, sb.buf);
		strbuf_release(&sb);
		return -1;
	}
	return 0;
}

void store_hint_here(struct strbuf *sb)
{
	size_t n;
	char **here = store_dirs_in(".", &n);
	for (size_t i = 0; i < n; i++)
		strbuf_addf(sb, "%s'%s'", i ? ", " : "the stores here are ", here[i]);
	if (n)
		strbuf_addf(sb, ": pass --store %s", here[0]);
	else
		strbuf_addstr(sb, "pass --store DIR");
	store_free_list(here, n);
}

static int cmp_str(const void *a, const void *b);

char **store_dirs_in(const char *dir, size_t *n)
{
	char **out = NULL;
	size_t cap = 0;
	*n = 0;
	DIR *d = opendir(dir);
	struct dirent *e;
	while (d && (e = readdir(d))) {
		if (e->d_name[0] == '.')
			continue;
		char *objs = xstrfmt("%s/%s/objects", dir, e->d_name), *runs = xstrfmt("%s/%s/runs", dir, e->d_name);
		if (is_dir(objs) && is_dir(runs)) {
			if (*n == cap)
				out = xrealloc(out, (cap = cap ? 2 * cap : 4) * sizeof(char *));
			out[(*n)++] = xstrdup(e->d_name);
		}
		free(objs);
		free(runs);
	}
	if (d)
		closedir(d);
	if (*n)
		qsort(out, *n, sizeof(char *), cmp_str);
	return out;
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
 * The canonical text of manifest m with the member "digest": dg, from the
 * canonical text bare of m without it: the member goes on its own line
 * before the first top-level member whose key sorts after "digest"
 * (top-level members start a line at an indent of one space, deeper lines
 * are indented more, a newline inside a string is escaped), or last.  The
 * inverse of canonical_digest below; saves store_commit a copy and a second
 * dump of every manifest.  A top-level key with an escape is compared by
 * its name, not its bytes: then m is dumped again.  The caller frees it.
 */
static char *canonical_with_digest(json_t *m, const char *bare, const char *dg)
{
	const char *p = bare;
	while ((p = strstr(p, "\n \"")) != NULL) {
		int c = key_vs_digest(p + 3);
		if (c == 2) {
			json_t *copy = json_copy(m);
			json_object_set_new(copy, "digest", json_string(dg));
			char *text = store_canonical(copy);
			json_decref(copy);
			return text;
		}
		if (c > 0)
			return xstrfmt("%.*s\n \"digest\": \"%s\",%s", (int)(p - bare), bare, dg, p);
		p++;
	}
	size_t n = strlen(bare); /* "...\n}\n" */
	if (n < 4 || strcmp(bare + n - 3, "\n}\n"))
		die("store: a canonical manifest does not end in '}'");
	return xstrfmt("%.*s,\n \"digest\": \"%s\"\n}\n", (int)(n - 3), bare, dg);
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
	/* the digest is of the canonical text without "digest"; the file is
	 * that text with the member spliced in at its sorted place */
	char dg[SHA256_HEX_LEN + 1];
	json_object_del(m, "digest");
	char *bare = store_canonical(m);
	sha256_hex(bare, strlen(bare), dg);
	char *text = canonical_with_digest(m, bare, dg);
	free(bare);
	json_object_set_new(m, "digest", json_string(dg));
	struct store_entry e = { (char *)run_id, "", "", index_attrs(m) };
	strcpy(e.digest, dg);
	strcpy(e.prev, prev);
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
	if (head_write(st, dg, run_id, &sig) < 0) {
		/* gone, HEAD cannot mislead the next commit into a fork */
		char *head = xstrfmt("%s/HEAD", st->root);
		warning("run '%s' is written, but '%s' is not moved (%s); the next commit finds the head "
			"from the index",
			run_id, head, strerror(errno));
		unlink(head);
		free(head);
	}
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

/* A sorted set of strings, built then sorted once (objects). */
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

/* A hash set of strings, grown as it fills (refs, digests, prevs). */
struct strset {
	char **slot;
	size_t mask, n;
};

static size_t strset_hash(const char *k)
{
	size_t h = 1469598103934665603ULL;
	for (; *k; k++)
		h = (h ^ (unsigned char)*k) * 1099511628211ULL;
	return h;
}

static char **strset_at(const struct strset *s, const char *k)
{
	size_t h = strset_hash(k) & s->mask;
	while (s->slot[h] && strcmp(s->slot[h], k))
		h = (h + 1) & s->mask;
	return &s->slot[h];
}

static int strset_has(const struct strset *s, const char *k)
{
	return s->slot && *strset_at(s, k);
}

/* 1 when k was added, 0 when it was there. */
static int strset_add(struct strset *s, const char *k)
{
	if (!s->slot || 2 * (s->n + 1) > s->mask + 1) {
		struct strset g = { xcalloc(s->slot ? 2 * (s->mask + 1) : 1024, sizeof(char *)), 0, 0 };
		g.mask = (s->slot ? 2 * (s->mask + 1) : 1024) - 1;
		for (size_t i = 0; s->slot && i <= s->mask; i++)
			if (s->slot[i])
				*strset_at(&g, s->slot[i]) = s->slot[i];
		g.n = s->n;
		free(s->slot);
		*s = g;
	}
	char **at = strset_at(s, k);
	if (*at)
		return 0;
	*at = xstrdup(k);
	s->n++;
	return 1;
}

static void strset_free(struct strset *s)
{
	for (size_t i = 0; s->slot && i <= s->mask; i++)
		free(s->slot[i]);
	free(s->slot);
	s->slot = NULL;
	s->n = 0;
}

struct pfor {
	void (*fn)(void *arg, size_t i);
	void *arg;
	size_t n;
	atomic_size_t next;
};

static void *pfor_run(void *p)
{
	struct pfor *pf = p;
	for (size_t i; (i = atomic_fetch_add(&pf->next, 1)) < pf->n;)
		pf->fn(pf->arg, i);
	return NULL;
}

void store_parallel_for(size_t n, void (*fn)(void *arg, size_t i), void *arg)
{
	struct pfor pf = { fn, arg, n, 0 };
	long cores = sysconf(_SC_NPROCESSORS_ONLN);
	size_t t = cores < 1 ? 1 : cores > 8 ? 8 : (size_t)cores, started = 0;
	pthread_t th[8];
	if (t > n)
		t = n ? n : 1;
	for (size_t k = 1; k < t; k++)
		started += pthread_create(&th[started], NULL, pfor_run, &pf) == 0;
	pfor_run(&pf);
	for (size_t k = 0; k < started; k++)
		pthread_join(th[k], NULL);
}

int store_read_quiet(const char *path, struct strbuf *sb)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	int rc = read_fd(fd, sb);
	int e = errno;
	close(fd);
	errno = e;
	return rc;
}

static int key_is_ref(const char *k)
{
	size_t n = strlen(k);
	return !strcmp(k, "object") || (n > 7 && !strcmp(k + n - 7, "_object"));
}

/* One object: its bytes must hash to its name. */
struct vobject {
	char *name, *path;
	char got[SHA256_HEX_LEN + 1];
	int state; /* 0 intact, 1 altered (got), 2 unreadable, 3 not an object name */
};

static void verify_object(void *arg, size_t i)
{
	struct vobject *o = (struct vobject *)arg + i;
	struct strbuf buf = STRBUF_INIT;
	if (o->state)
		return;
	if (store_read_quiet(o->path, &buf) < 0)
		o->state = 2;
	else if (sha256_hex(strbuf_str(&buf), buf.len, o->got), strcmp(o->got, o->name))
		o->state = 1;
	strbuf_release(&buf);
}

/* One manifest: judged, its references listed. */
struct vmanifest {
	struct store *st;
	const char *id;
	char *problem; /* the finding when not intact, one line */
	char dg[SHA256_HEX_LEN + 1];
	char **refs; /* the objects it names (copies) */
	size_t n_refs, a_refs;
	struct store_entry e; /* its index entry, when intact */
};

static void push_ref(char ***refs, size_t *n, size_t *alloc, const char *s, size_t len)
{
	if (*n == *alloc) {
		*alloc = *alloc ? 2 * *alloc : 8;
		*refs = xrealloc(*refs, *alloc * sizeof(char *));
	}
	(*refs)[(*n)++] = xstrndup(s, len);
}

void manifest_refs(json_t *v, char ***refs, size_t *n_refs, size_t *alloc)
{
	const char *k;
	json_t *x;
	size_t i;
	if (json_is_object(v)) {
		json_object_foreach(v, k, x)
		{
			if (key_is_ref(k) && json_is_string(x))
				push_ref(refs, n_refs, alloc, json_string_value(x), json_string_length(x));
			else
				manifest_refs(x, refs, n_refs, alloc);
		}
	} else if (json_is_array(v)) {
		json_array_foreach(v, i, x) manifest_refs(x, refs, n_refs, alloc);
	}
}

static void refs_free(char **refs, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(refs[i]);
	free(refs);
}

/* The end of the JSON string whose body starts at s (its closing quote),
 * or NULL when t ends first; *esc: it holds a backslash. */
static const char *string_end(const char *s, const char *end, int *esc)
{
	*esc = 0;
	for (; s < end; s++) {
		if (*s == '"')
			return s;
		if (*s == '\\') {
			*esc = 1;
			s++;
		}
	}
	return NULL;
}

int manifest_refs_text(const char *t, size_t n, char ***refs, size_t *n_refs)
{
	const char *end = t + n, *p = t;
	size_t alloc = 0;
	int esc, vesc;
	*refs = NULL;
	*n_refs = 0;
	while ((p = memchr(p, '"', (size_t)(end - p)))) {
		const char *s = p + 1, *q = string_end(s, end, &esc);
		if (!q)
			goto unsure;
		p = q + 1;
		/* a key is a string followed by ": " (canonical text) */
		if (end - p < 2 || p[0] != ':' || p[1] != ' ')
			continue;
		size_t k = (size_t)(q - s);
		if (esc) /* an escape could spell "_object": let jansson decode */
			goto unsure;
		if (!((k == 6 && !memcmp(s, "object", 6)) || (k > 7 && !memcmp(q - 7, "_object", 7))))
			continue;
		if (p + 2 < end && p[2] == '"') {
			const char *vs = p + 3, *vq = string_end(vs, end, &vesc);
			if (!vq || vesc)
				goto unsure;
			push_ref(refs, n_refs, &alloc, vs, (size_t)(vq - vs));
			p = vq + 1;
		}
	}
	return 0;
unsure:
	refs_free(*refs, *n_refs);
	*refs = NULL;
	*n_refs = 0;
	return -1;
}

/*
 * Canonical text (store_canonical) puts each top-level member on a line of
 * its own at an indent of one space ("\n \"KEY\": VALUE,"), deeper lines
 * at more, and no raw newline inside a string; so "\n \"" starts exactly
 * the top-level members, and a member's value runs to the "," before the
 * next one, the last one's to the "\n}" that closes the text.
 */
json_t *manifest_view(const char *t, size_t n, const char *const *members)
{
	static const char mark[] = "\n \"";
	const char *end = t + n, *p;
	json_t *v = json_object();
	int esc;
	if (n < 4 || t[0] != '{' || !(p = memmem(t, n, mark, 3)))
		goto unsure;
	while (p) {
		const char *ks = p + 3, *kq = string_end(ks, end, &esc);
		if (!kq || esc || end - kq < 3 || kq[1] != ':' || kq[2] != ' ')
			goto unsure;
		const char *vs = kq + 3, *next = memmem(vs, (size_t)(end - vs), mark, 3), *ve;
		if (next) {
			if (next[-1] != ',')
				goto unsure;
			ve = next - 1;
		} else {
			ve = end;
			if (ve > vs && ve[-1] == '\n')
				ve--;
			if (ve - vs < 2 || ve[-1] != '}' || ve[-2] != '\n')
				goto unsure;
			ve -= 2;
		}
		size_t k = (size_t)(kq - ks);
		for (const char *const *m = members; *m; m++) {
			if (strlen(*m) != k || memcmp(*m, ks, k))
				continue;
			json_error_t jerr;
			json_t *x = json_loadb(vs, (size_t)(ve - vs), JSON_DECODE_ANY, &jerr);
			if (!x)
				goto unsure;
			json_object_set_new(v, *m, x);
			break;
		}
		p = next;
	}
	return v;
unsure:
	json_decref(v);
	return NULL;
}

json_t *manifest_intact_view(const char *t, size_t n)
{
	const char *const *members = index_view_members();
	char dg[SHA256_HEX_LEN + 1], want[SHA256_HEX_LEN + 1];
	if (!members || !text_digest(t, n, dg, want) || strcmp(dg, want))
		return NULL;
	return manifest_view(t, n, members);
}

static void verify_manifest(void *arg, size_t i)
{
	struct vmanifest *j = (struct vmanifest *)arg + i;
	char *path = xstrfmt("%s/runs/%s.json", j->st->root, j->id);
	struct strbuf buf = STRBUF_INIT;
	char want[SHA256_HEX_LEN + 1] = "";
	const char *const *members = index_view_members();
	json_error_t jerr;
	json_t *m = NULL;
	if (store_read_quiet(path, &buf) < 0) {
		j->problem = xstrfmt("unreadable: %s: %s\n", path, strerror(errno));
		goto out;
	}
	/* the digest from the bytes, which then were written by a commit, so
	 * hold no duplicate key; where that fails, from a dump, which also
	 * tells a bad digest from a bad form */
	int intact = text_digest(strbuf_str(&buf), buf.len, j->dg, want) && !strcmp(j->dg, want);
	/* intact bytes are the committed canonical text: the refs and the
	 * indexer's members are read from it without parsing the rest */
	if (intact && members && manifest_refs_text(strbuf_str(&buf), buf.len, &j->refs, &j->n_refs) == 0 &&
	    !(m = manifest_view(strbuf_str(&buf), buf.len, members))) {
		refs_free(j->refs, j->n_refs);
		j->refs = NULL;
		j->n_refs = 0;
	}
	int viewed = m != NULL;
	if (!m)
		m = json_loadb(strbuf_str(&buf), buf.len, intact ? 0 : JSON_REJECT_DUPLICATES, &jerr);
	if (!m || !json_is_object(m)) {
		j->problem = xstrfmt("altered: %s: not valid JSON (line %d: %s)\n", path, m ? 1 : jerr.line,
				     m ? "not an object" : jerr.text);
		goto out;
	}
	if (!intact) {
		char *canon = store_canonical(m);
		const char *d0 = json_string_value(json_object_get(m, "digest"));
		j->dg[0] = want[0] = '\0';
		if (d0 && strlen(d0) == SHA256_HEX_LEN) {
			strcpy(j->dg, d0);
			canonical_digest(canon, j->dg, want);
		}
		if (!j->dg[0] || strcmp(j->dg, want))
			j->problem = xstrfmt("altered: %s: digest does not match its content\n", path);
		else if (strcmp(canon, strbuf_str(&buf)))
			j->problem = xstrfmt("altered: %s: not in canonical form (edited by hand?)\n", path);
		free(canon);
		if (j->problem)
			goto out;
	}
	const char *rid = json_string_value(json_object_get(m, "run_id"));
	if (!rid || strcmp(rid, j->id)) {
		j->problem = xstrfmt("altered: %s: its run_id is '%s'\n", path, rid ? rid : "(none)");
		goto out;
	}
	/* its refs and index entry here, on the worker: the record module's
	 * indexer reads the whole record, and the merge is one thread */
	if (!viewed)
		manifest_refs(m, &j->refs, &j->n_refs, &j->a_refs);
	struct strbuf why = STRBUF_INIT;
	if (index_entry_from_manifest(m, j->id, &j->e, &why) < 0)
		j->problem = xstrfmt("altered: %s: %s\n", path, strbuf_str(&why));
	strbuf_release(&why);
out:
	json_decref(m);
	strbuf_release(&buf);
	free(path);
}

/* Manifests are judged in parallel a chunk at a time (digest, refs, index
 * entry), then merged in order by one thread; only a chunk of results is
 * ever held. */
#define VERIFY_CHUNK 512

int store_verify(struct store *st, struct strbuf *out, int *notes, size_t *n_objects,
		 size_t *n_runs)
{
	int problems = 0;
	*notes = 0;
	*n_objects = *n_runs = 0;
	if (!is_dir(st->root))
		return error("no store at '%s'", st->root);

	/* objects: listed, then hashed in parallel */
	struct hexset objects = { 0 }, damaged = { 0 };
	struct vobject *ob = NULL;
	size_t nob = 0, aob = 0;
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
			if (nob == aob) {
				aob = aob ? 2 * aob : 1024;
				ob = xrealloc(ob, aob * sizeof(*ob));
			}
			struct vobject *o = &ob[nob++];
			o->name = xstrfmt("%s%s", e->d_name, f->d_name);
			o->path = xstrfmt("%s/%s", sub, f->d_name);
			o->state = !is_hex64(o->name) || strlen(e->d_name) != 2 ? 3 : 0;
		}
		if (d2)
			closedir(d2);
		free(sub);
	}
	if (d)
		closedir(d);
	free(odir);
	store_parallel_for(nob, verify_object, ob);
	for (size_t i = 0; i < nob; i++) {
		struct vobject *o = &ob[i];
		(*n_objects)++;
		if (o->state == 3)
			strbuf_addf(out, "stray: %s: not an object name\n", o->path);
		else if (o->state == 2)
			strbuf_addf(out, "unreadable: %s\n", o->path);
		else if (o->state == 1)
			strbuf_addf(out, "altered: %s: content hashes to %.12s..., not its name\n", o->path, o->got);
		problems += o->state != 0;
		if (o->state == 0)
			hexset_add(&objects, o->name);
		else if (o->state == 1)
			hexset_add(&damaged, o->name);
		free(o->name);
		free(o->path);
	}
	free(ob);
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
	struct strset refs = { 0 }, reported = { 0 }, digests = { 0 }, prevs = { 0 };
	struct strbuf missing = STRBUF_INIT;
	struct store_index truth = { xcalloc(n ? n : 1, sizeof(struct store_entry)), 0, 0 };
	struct vmanifest *jobs = xcalloc(VERIFY_CHUNK, sizeof(*jobs));
	json_decref(json_object()); /* jansson seeds its hashes here, not in a race of workers */
	for (size_t c = 0; c < n; c += VERIFY_CHUNK) {
		size_t k = n - c < VERIFY_CHUNK ? n - c : VERIFY_CHUNK;
		memset(jobs, 0, k * sizeof(*jobs));
		for (size_t i = 0; i < k; i++) {
			jobs[i].st = st;
			jobs[i].id = ids[c + i];
		}
		store_parallel_for(k, verify_manifest, jobs);
		for (size_t i = 0; i < k; i++) {
			struct vmanifest *j = &jobs[i];
			(*n_runs)++;
			if (j->problem) {
				strbuf_addstr(out, j->problem);
				problems++;
				free(j->e.run_id);
				free(j->e.attrs);
			} else {
				truth.e[truth.n++] = j->e;
				strset_add(&digests, j->dg);
				for (size_t r = 0; r < j->n_refs; r++) {
					const char *ref = j->refs[r];
					strset_add(&refs, ref);
					/* each missing object once; a damaged one was reported above */
					if (!hexset_has(&objects, ref) && !hexset_has(&damaged, ref) &&
					    strset_add(&reported, ref)) {
						char *p = is_hex64(ref) ? store_object_path(st, ref) : xstrdup(ref);
						strbuf_addf(&missing, "missing: %s (referenced by run %s)\n", p, j->id);
						free(p);
						problems++;
					}
				}
			}
			free(j->problem);
			refs_free(j->refs, j->n_refs);
		}
	}
	free(jobs);
	strbuf_addstr(out, strbuf_str(&missing));
	strbuf_release(&missing);
	/* the chain: every prev names an intact manifest; a line has one
	 * first manifest and no prev twice (forks are legal, but worth a word) */
	size_t roots = 0, shared = 0;
	for (size_t i = 0; i < truth.n; i++) {
		const struct store_entry *te = &truth.e[i];
		if (!te->prev[0]) {
			roots++;
			continue;
		}
		shared += !strset_add(&prevs, te->prev);
		if (!strset_has(&digests, te->prev)) {
			strbuf_addf(out, "missing: the manifest before run %s (prev %.12s...) is gone or altered\n",
				    te->run_id, te->prev);
			problems++;
		}
	}
	if (shared || roots > 1) {
		strbuf_addf(out,
			    "note: the chain is a tree, not a line: %zu fork%s and %zu first manifest%s "
			    "(merged clones of the store, or writers that did not share the lock)\n",
			    shared, shared == 1 ? "" : "s", roots, roots == 1 ? "" : "s");
		(*notes)++;
	}
	for (size_t i = 0; i < objects.n; i++)
		if (!strset_has(&refs, objects.v[i])) {
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
	hexset_free(&damaged);
	strset_free(&refs);
	strset_free(&reported);
	strset_free(&digests);
	strset_free(&prevs);
	return problems;
}
