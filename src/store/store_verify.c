/*
 * store_verify.c - `evident verify`: every object must hash to its name
 * and every manifest to its digest, in its place in the chain, naming
 * only objects that exist, each a regular file (no link); the caches are
 * checked and rebuilt.  (The store against git: store_anchor.c.)  Objects
 * and manifests are judged in parallel (store_parallel_for, which index
 * rebuilds use too) and the findings merged in order on one thread.
 */
#include "store/store_internal.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

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
		qsort(s->v, s->n, sizeof(char *), store_cmp_str);
}

static int hexset_has(const struct hexset *s, const char *hex)
{
	return s->n && bsearch(&hex, s->v, s->n, sizeof(char *), store_cmp_str) != NULL;
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

static char **strset_at(const struct strset *s, const char *k)
{
	size_t h = (size_t)str_hash(k) & s->mask;
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

/* A record file's bytes, read through no symbolic link: 0; -1 (errno) when
 * it cannot be read; -2 when it is no regular file (a link, whose target
 * may change after verify read it, a folder, a pipe: red team 249). */
static int read_regular(const char *path, struct strbuf *sb)
{
	int fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0)
		return errno == ELOOP ? -2 : -1;
	struct stat st;
	int rc = fstat(fd, &st) < 0 ? -1 : !S_ISREG(st.st_mode) ? -2 : read_fd(fd, sb);
	int e = errno;
	close(fd);
	errno = e;
	return rc;
}

/* One object: its bytes must hash to its name. */
struct vobject {
	char *name, *path;
	char got[SHA256_HEX_LEN + 1];
	int state; /* 0 intact, 1 altered (got), 2 unreadable, 3 not an object name, 4 not a regular file */
};

static void verify_object(void *arg, size_t i)
{
	struct vobject *o = (struct vobject *)arg + i;
	struct strbuf buf = STRBUF_INIT;
	if (o->state)
		return;
	int r = read_regular(o->path, &buf);
	if (r == -2)
		o->state = 4;
	else if (r < 0)
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

static void verify_manifest(void *arg, size_t i)
{
	struct vmanifest *j = (struct vmanifest *)arg + i;
	char *path = xstrfmt("%s/runs/%s.json", j->st->root, j->id);
	struct strbuf buf = STRBUF_INIT;
	char want[SHA256_HEX_LEN + 1] = "";
	const char *const *members = index_view_members();
	json_error_t jerr;
	json_t *m = NULL;
	int r = read_regular(path, &buf);
	if (r == -2) {
		j->problem = xstrfmt("altered: %s: not a regular file (a symbolic link?)\n", path);
		goto out;
	}
	if (r < 0) {
		j->problem = xstrfmt("unreadable: %s: %s\n", path, strerror(errno));
		goto out;
	}
	/* the digest from the bytes, which then were written by a commit, so
	 * hold no duplicate key; where that fails, from a dump, which also
	 * tells a bad digest from a bad form */
	int intact = store_text_digest(strbuf_str(&buf), buf.len, j->dg, want) && !strcmp(j->dg, want);
	/* intact bytes are the committed canonical text: the refs and the
	 * indexer's members are read from it without parsing the rest */
	if (intact && members && manifest_refs_text(strbuf_str(&buf), buf.len, &j->refs, &j->n_refs) == 0 &&
	    !(m = manifest_view(strbuf_str(&buf), buf.len, members))) {
		store_refs_free(j->refs, j->n_refs);
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
			store_canonical_digest(canon, j->dg, want);
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
	/* objects/, runs/ and each objects/XX/ must be folders, not links to
	 * folders elsewhere */
	for (int k = 0; k < 2; k++) {
		char *top = xstrfmt("%s/%s", st->root, k ? "runs" : "objects");
		struct stat ts;
		if (lstat(top, &ts) == 0 && !S_ISDIR(ts.st_mode)) {
			strbuf_addf(out, "altered: %s: not a folder (a symbolic link?)\n", top);
			problems++;
		}
		free(top);
	}
	DIR *d = opendir(odir);
	struct dirent *e;
	while (d && (e = readdir(d))) {
		if (e->d_name[0] == '.')
			continue;
		char *sub = xstrfmt("%s/%s", odir, e->d_name);
		struct stat ss;
		if (lstat(sub, &ss) == 0 && !S_ISDIR(ss.st_mode)) {
			strbuf_addf(out, "altered: %s: not a folder (a symbolic link?)\n", sub);
			problems++;
			free(sub);
			continue;
		}
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
			o->state = !store_is_hex64(o->name) || strlen(e->d_name) != 2 ? 3 : 0;
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
		else if (o->state == 4)
			strbuf_addf(out, "altered: %s: not a regular file (a symbolic link?)\n", o->path);
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
						char *p = store_is_hex64(ref) ? store_object_path(st, ref) : xstrdup(ref);
						strbuf_addf(&missing, "missing: %s (referenced by run %s)\n", p, j->id);
						free(p);
						problems++;
					}
				}
			}
			free(j->problem);
			store_refs_free(j->refs, j->n_refs);
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
