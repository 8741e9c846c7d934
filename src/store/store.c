/*
 * store.c - the immutable run store (layout and guarantees in store.h):
 * opening it, run ids, the list of records, loading one, the commit that
 * chains manifests, and pending markers.  How bytes reach disk (tmp/,
 * write once, objects) is in store_write.c; the canonical form, digests
 * and views of a manifest in store_manifest.c; verify in store_verify.c.
 * The lock and the caches it keeps (HEAD, index), the store's order and id
 * resolution are in store_index.c.
 */
#include "store/store_internal.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
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
		qsort(out, *n, sizeof(char *), store_cmp_str);
	return out;
}

/* What git must not see: scratch and the caches (store.h). */
/* pending/'s run markers and claims are scratch; a batch's begun marker
 * is kept with the records: a killed try counted by it (the audit's
 * orphan_tries and orphan_configs, eval's pool) must count in a clone too
 * (red team 101: a 292-kill hunt read "adjusted over 293 configurations"
 * in its store and 135 in a clone, pending/ ignored). */
static const char gitignore_text[] =
	"# written by evident: scratch and caches, rebuilt from runs/ and objects/\n"
	"/tmp/\n"
	"/pending/*\n"
	"!/pending/*-batch.json\n"
	"/HEAD\n"
	"/HEAD.lock\n"
	"/HEAD.lock.break\n"
	"/index\n";

/* How git must keep the records: byte for byte.  A project's `* text=auto`
 * or a clone's core.autocrlf converted line ends (a kernel source with
 * CRLF kept in objects/), and a clean/smudge filter would rewrite them,
 * so an honest store read "altered" under verify's anchor and "hashes
 * to another name" in a fresh clone (red team 253 rows 3 and 3b). */
static const char gitattributes_text[] = "# written by evident: records are kept byte for byte\n"
					 "* -text -filter\n";

/* path/NAME with text, made once (a whole file or none: linked from tmp/) */
static void ensure_file(struct store *st, const char *name, const char *text)
{
	char *path = xstrfmt("%s/%s", st->root, name);
	if (!path_exists(path)) {
		char rnd[17];
		random_hex(rnd, 16);
		char *tmpdir = xstrfmt("%s/tmp", st->root);
		char *tmp = xstrfmt("%s/%s-%s", tmpdir, name + 1, rnd);
		(void)mkdir(tmpdir, 0755); /* if it fails, so does open below */
		free(tmpdir);
		int fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
		if (fd >= 0) {
			int ok = write_all(fd, text, strlen(text)) == 0;
			if (close(fd) == 0 && ok)
				(void)!link(tmp, path); /* EEXIST: another writer made it */
			unlink(tmp);
		}
		free(tmp);
	}
	free(path);
}

void store_ensure_gitignore(struct store *st)
{
	ensure_file(st, ".gitignore", gitignore_text);
	ensure_file(st, ".gitattributes", gitattributes_text);
}

void store_release(struct store *st)
{
	free(st->root);
	st->root = NULL;
}

char *store_new_run_id(const char *experiment)
{
	char stamp[32], rnd[9];
	utc_now_compact(stamp, sizeof(stamp));
	random_hex(rnd, 8);
	return xstrfmt("%s-%s-%s", stamp, experiment, rnd);
}

int store_cmp_str(const void *a, const void *b)
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
		qsort(*ids, *n, sizeof(char *), store_cmp_str);
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
	char *text = store_canonical_with_digest(m, bare, dg);
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

/* Who wrote a marker, beyond its pid: its PID namespace ("pid:[N]"), its
 * process's start time (/proc/self/stat field 22, clock ticks since boot)
 * and the boot's id.  A pid alone names a live process forever where it is
 * another namespace's (red team 93's ns: pid 2 is kthreadd here) or was
 * reused; "" where unreadable. */
static void marker_read_line(const char *path, char *buf, size_t n)
{
	buf[0] = 0;
	FILE *f = fopen(path, "r");
	if (!f)
		return;
	if (!fgets(buf, (int)n, f))
		buf[0] = 0;
	fclose(f);
	buf[strcspn(buf, "\n")] = 0;
}

static void pid_start_ticks(pid_t pid, char *buf, size_t n)
{
	char path[64], st[1024];
	buf[0] = 0;
	snprintf(path, sizeof(path), "/proc/%ld/stat", (long)pid);
	marker_read_line(path, st, sizeof(st));
	/* after the command's ")" (which may hold spaces): field 3 on */
	char *p = strrchr(st, ')');
	if (!p)
		return;
	p++;
	for (int field = 3; field < 22 && p; field++) {
		p = strchr(p + 1, ' ');
	}
	if (!p)
		return;
	p++;
	size_t k = strcspn(p, " ");
	if (k == 0 || k >= n)
		return;
	memcpy(buf, p, k);
	buf[k] = 0;
}

static void pid_namespace(char *buf, size_t n)
{
	ssize_t k = readlink("/proc/self/ns/pid", buf, n - 1);
	buf[k > 0 ? k : 0] = 0;
}

static void marker_writer(json_t *p)
{
	char ns[128], start[64], boot[128];
	pid_namespace(ns, sizeof(ns));
	pid_start_ticks(getpid(), start, sizeof(start));
	marker_read_line("/proc/sys/kernel/random/boot_id", boot, sizeof(boot));
	json_object_set_new(p, "pid_ns", json_string(ns));
	json_object_set_new(p, "start_ticks", json_string(start));
	json_object_set_new(p, "boot_id", json_string(boot));
}

/* A begun marker pending/ID.json: who began it (run_id, pid, host,
 * started_utc and marker_writer's fields) and what fields holds (its
 * references are taken), written whole or not at all (a temporary file
 * renamed).  0, or -1 after error(). */
static int pending_write(struct store *st, const char *id, json_t *fields)
{
	char host[256] = "";
	gethostname(host, sizeof(host) - 1);
	char now[40];
	utc_now_iso(now, sizeof(now));
	json_t *p = json_pack("{s:s, s:I, s:s, s:s}", "run_id", id, "pid", (json_int_t)getpid(), "host", host,
			      "started_utc", now);
	marker_writer(p);
	json_object_update(p, fields);
	json_decref(fields);
	char *path = xstrfmt("%s/pending/%s.json", st->root, id);
	char *tmp = xstrfmt("%s/pending/.%s.tmp", st->root, id);
	int rc = json_dump_file(p, tmp, JSON_SORT_KEYS);
	if (rc < 0 || rename(tmp, path) < 0) {
		rc = error("cannot write '%s': %s; check the store's free space and that you may write its pending/",
			   path, strerror(errno));
		unlink(tmp);
	}
	free(tmp);
	free(path);
	json_decref(p);
	return rc;
}

int store_pending_begin(struct store *st, const char *run_id, const char *experiment,
			const char *variant)
{
	return pending_write(st, run_id, json_pack("{s:s, s:s}", "experiment", experiment, "variant", variant));
}

int store_pending_begin_batch(struct store *st, const char *batch_id, const char *experiment, const char *variant,
			      const char *reference)
{
	return store_pending_begin_batch_code(st, batch_id, experiment, variant, reference, NULL);
}

int store_pending_begin_batch_code(struct store *st, const char *batch_id, const char *experiment,
				   const char *variant, const char *reference, json_t *code)
{
	json_t *f = json_pack("{s:s, s:s, s:s, s:s}", "kind", "batch", "experiment", experiment, "variant", variant,
			      "reference", reference);
	if (code)
		json_object_set(f, "code", code);
	return pending_write(st, batch_id, f);
}

int store_pending_begin_run_batch(struct store *st, const char *batch_id, const char *experiment, json_t *variants,
				  const char *reproduces)
{
	json_t *f = json_pack("{s:s, s:s, s:{s:o}}", "kind", "run_batch", "experiment", experiment, "code", "variants",
			      variants);
	if (reproduces)
		json_object_set_new(f, "reproduces", json_string(reproduces));
	return pending_write(st, batch_id, f);
}

int store_pending_batch_begun(struct store *st, const char *batch_id, const char *run_id, const char *variant,
			      json_t *job)
{
	int rc = 0;
	json_t *e = json_pack("{s:s, s:s}", "run_id", run_id, "variant", variant);
	if (job)
		json_object_update(e, job);
	json_decref(job);
	char *path = xstrfmt("%s/pending/%s.json", st->root, batch_id);
	char *lock = xstrfmt("%s/pending/.%s.lock", st->root, batch_id);
	char *tmp = xstrfmt("%s/pending/.%s.%ld.tmp", st->root, batch_id, (long)getpid());
	int fd = open(lock, O_WRONLY | O_CREAT | O_CLOEXEC, 0644);
	if (fd < 0 || flock(fd, LOCK_EX) < 0) {
		rc = error("cannot lock '%s': %s; check that you may write the store's pending/", lock, strerror(errno));
		goto out;
	}
	json_t *m = json_load_file(path, 0, NULL);
	if (json_is_object(m)) { /* none: a batch with no begun marker */
		json_t *begun = json_object_get(m, "begun");
		if (!json_is_array(begun)) {
			begun = json_array();
			json_object_set_new(m, "begun", begun);
		}
		json_array_append(begun, e);
		if (json_dump_file(m, tmp, JSON_SORT_KEYS) < 0 || rename(tmp, path) < 0) {
			rc = error("cannot write '%s': %s; check the store's free space and that you may write its pending/",
				   path, strerror(errno));
			unlink(tmp);
		}
	}
	json_decref(m);
out:
	if (fd >= 0)
		close(fd);
	json_decref(e);
	free(tmp);
	free(lock);
	free(path);
	return rc;
}

void store_pending_end(struct store *st, const char *run_id)
{
	char *path = xstrfmt("%s/pending/%s.json", st->root, run_id);
	unlink(path);
	free(path);
	/* a batch's job lock (store_pending_batch_begun), where it has one */
	path = xstrfmt("%s/pending/.%s.lock", st->root, run_id);
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
	char host[256] = "", ns[128], boot[128];
	gethostname(host, sizeof(host) - 1);
	pid_namespace(ns, sizeof(ns));
	marker_read_line("/proc/sys/kernel/random/boot_id", boot, sizeof(boot));
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
		/* and the same process: in our PID namespace, this boot, started
		 * when the writer was (markers before these fields: the pid alone) */
		const char *mns = json_string_value(json_object_get(p, "pid_ns"));
		const char *mstart = json_string_value(json_object_get(p, "start_ticks"));
		const char *mboot = json_string_value(json_object_get(p, "boot_id"));
		if (alive && mns && *mns && *ns && strcmp(mns, ns))
			alive = 0;
		if (alive && mboot && *mboot && *boot && strcmp(mboot, boot))
			alive = 0;
		if (alive && mstart && *mstart) {
			char now_start[64];
			pid_start_ticks(pid, now_start, sizeof(now_start));
			if (*now_start && strcmp(now_start, mstart))
				alive = 0;
		}
		/* a marker written on another host (a store shared by Slurm
		 * nodes): its process cannot be looked up from here, so it is
		 * neither running nor aborted to this host (review2: it read as
		 * aborted, and `ls` called a live session on another node dead) */
		int elsewhere = h && *host && strcmp(h, host);
		json_object_set_new(p, "state", json_string(elsewhere ? "elsewhere" : alive ? "running" : "aborted"));
		json_array_append_new(out, p);
	}
	closedir(d);
	free(dir);
	return out;
}
