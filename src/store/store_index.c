/*
 * store_index.c - the store's two caches, HEAD and index (the rules and
 * formats are in store.h), the store's one order, and id resolution over
 * the index; the lock that guards them is store_lock.c's.  store.c writes
 * the records and calls in here to commit (lock, read HEAD, append a line,
 * move HEAD), and store_verify.c to verify (compare the caches with the
 * manifests and rewrite them).  Nothing here is trusted over runs/: every
 * load compares the index with a listing of runs/, and HEAD is believed
 * only while runs/ keeps the stat it records.
 */
#include "store/store_internal.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define INDEX_MAGIC "evident-index/1 attrs="
#define HEAD_MAGIC "evident-head/1\n"
#define NONE SIZE_MAX

/* --- the indexer ------------------------------------------------------------ */

static store_indexer_fn indexer;
static char indexer_version[64];
/* the members a view of a manifest holds: the store's three, then the
 * indexer's; [0] NULL when the indexer named none (no views) */
#define VIEW_MAX 34
static const char *view_members[VIEW_MAX];

void store_set_indexer(store_indexer_fn fn, const char *attrs_version, const char *const *members)
{
	const char *v = attrs_version ? attrs_version : "";
	size_t k = 0;
	if (strlen(v) >= sizeof(indexer_version))
		die("store_set_indexer: attrs version '%s' is too long", v);
	for (const char *p = v; *p; p++)
		if (isspace((unsigned char)*p) || iscntrl((unsigned char)*p))
			die("store_set_indexer: attrs version '%s' holds a space", v);
	indexer = fn;
	strcpy(indexer_version, v);
	if (members) {
		view_members[k++] = "digest";
		view_members[k++] = "prev";
		view_members[k++] = "run_id";
		for (; *members; members++) {
			if (k == VIEW_MAX - 1)
				die("store_set_indexer: more than %d members", VIEW_MAX - 4);
			view_members[k++] = *members;
		}
	}
	view_members[k] = NULL;
}

const char *const *index_view_members(void)
{
	return view_members[0] ? view_members : NULL;
}

char *index_attrs(json_t *m)
{
	char *s = indexer ? indexer(m) : NULL;
	if (!s)
		return xstrdup("");
	for (char *p = s; *p; p++)
		if (*p == '\n' || *p == '\r')
			*p = ' ';
	return s;
}

static int is_hex64(const char *s, size_t n)
{
	if (n != SHA256_HEX_LEN)
		return 0;
	for (size_t i = 0; i < n; i++)
		if (!((s[i] >= '0' && s[i] <= '9') || (s[i] >= 'a' && s[i] <= 'f')))
			return 0;
	return 1;
}

int index_entry_from_manifest(json_t *m, const char *id, struct store_entry *e, struct strbuf *why)
{
	memset(e, 0, sizeof(*e));
	const char *dg = json_string_value(json_object_get(m, "digest"));
	json_t *pv = json_object_get(m, "prev");
	if (!dg || !is_hex64(dg, strlen(dg))) {
		strbuf_addstr(why, "no well-formed \"digest\"");
		return -1;
	}
	if (!json_is_null(pv) && !(json_is_string(pv) && is_hex64(json_string_value(pv),
								 strlen(json_string_value(pv))))) {
		strbuf_addstr(why, "no well-formed \"prev\"");
		return -1;
	}
	e->run_id = xstrdup(id);
	strcpy(e->digest, dg);
	if (json_is_string(pv))
		strcpy(e->prev, json_string_value(pv));
	e->attrs = index_attrs(m);
	return 0;
}

void store_index_release(struct store_index *ix)
{
	for (size_t i = 0; i < ix->n; i++) {
		free(ix->e[i].run_id);
		free(ix->e[i].attrs);
	}
	free(ix->e);
	ix->e = NULL;
	ix->n = ix->damaged = 0;
}

static void index_push(struct store_index *ix, size_t *alloc, struct store_entry *e)
{
	if (ix->n == *alloc) {
		*alloc = *alloc ? 2 * *alloc : 256;
		ix->e = xrealloc(ix->e, *alloc * sizeof(*ix->e));
	}
	ix->e[ix->n++] = *e;
}

/* --- a hash map from a key of an entry (its id or digest) to its place ----- */

struct emap {
	size_t *slot; /* entry index + 1; 0 = empty */
	size_t mask;
	const struct store_entry *e;
	int by_digest;
};

static const char *emap_key(const struct emap *m, size_t i)
{
	return m->by_digest ? m->e[i].digest : m->e[i].run_id;
}

/* Returns the index of key, or NONE; *at is where it would go. */
static size_t emap_find_at(const struct emap *m, const char *key, size_t *at)
{
	size_t h = (size_t)str_hash(key) & m->mask;
	while (m->slot[h]) {
		if (!strcmp(emap_key(m, m->slot[h] - 1), key)) {
			*at = h;
			return m->slot[h] - 1;
		}
		h = (h + 1) & m->mask;
	}
	*at = h;
	return NONE;
}

static size_t emap_find(const struct emap *m, const char *key)
{
	size_t at;
	return m->slot ? emap_find_at(m, key, &at) : NONE;
}

/* Map every entry of e[0..n) (keys "" are left out); a key met twice maps
 * to its first entry, and *dups counts the others (if dups is non-NULL,
 * dup[i] = 1 marks them). */
static void emap_build(struct emap *m, const struct store_entry *e, size_t n, int by_digest,
		       unsigned char *dup, size_t *dups)
{
	size_t cap = 16;
	while (cap < 2 * n + 2)
		cap *= 2;
	m->slot = xcalloc(cap, sizeof(size_t));
	m->mask = cap - 1;
	m->e = e;
	m->by_digest = by_digest;
	if (dups)
		*dups = 0;
	for (size_t i = 0; i < n; i++) {
		const char *k = emap_key(m, i);
		size_t at;
		if (!*k)
			continue;
		if (emap_find_at(m, k, &at) != NONE) {
			if (dup)
				dup[i] = 1;
			if (dups)
				(*dups)++;
			continue;
		}
		m->slot[at] = i + 1;
	}
}

static void emap_free(struct emap *m)
{
	free(m->slot);
	m->slot = NULL;
}

/* --- the store's one order ------------------------------------------------- */

/* Run id's UTC stamp (up to the first '-'), then the whole id. */
static int entry_cmp(const struct store_entry *a, const struct store_entry *b)
{
	size_t la = strcspn(a->run_id, "-"), lb = strcspn(b->run_id, "-");
	int c = memcmp(a->run_id, b->run_id, la < lb ? la : lb);
	if (c)
		return c;
	if (la != lb)
		return la < lb ? -1 : 1;
	return strcmp(a->run_id, b->run_id);
}

struct heap {
	size_t *v, n;
	const struct store_entry *e;
};

static int heap_less(const struct heap *h, size_t i, size_t j)
{
	return entry_cmp(&h->e[h->v[i]], &h->e[h->v[j]]) < 0;
}

static void heap_push(struct heap *h, size_t x)
{
	size_t i = h->n++;
	h->v[i] = x;
	while (i && heap_less(h, i, (i - 1) / 2)) {
		size_t p = (i - 1) / 2, t = h->v[p];
		h->v[p] = h->v[i];
		h->v[i] = t;
		i = p;
	}
}

static size_t heap_pop(struct heap *h)
{
	size_t top = h->v[0], i = 0;
	h->v[0] = h->v[--h->n];
	for (;;) {
		size_t l = 2 * i + 1, r = l + 1, s = i;
		if (l < h->n && heap_less(h, l, s))
			s = l;
		if (r < h->n && heap_less(h, r, s))
			s = r;
		if (s == i)
			break;
		size_t t = h->v[s];
		h->v[s] = h->v[i];
		h->v[i] = t;
		i = s;
	}
	return top;
}

static const struct store_entry *sort_base;
static int cmp_by_entry(const void *a, const void *b)
{
	return entry_cmp(&sort_base[*(const size_t *)a], &sort_base[*(const size_t *)b]);
}

/*
 * Kahn's topological sort along prev, always taking the smallest ready
 * entry by entry_cmp: a manifest comes after the one it names, a line
 * comes out in chain order whatever its stamps say, and branches of a
 * tree interleave by time.  Entries on a cycle (impossible for real
 * digests; an index can lie) follow in entry_cmp order.
 */
void index_sort(struct store_index *ix)
{
	size_t n = ix->n;
	if (n < 2)
		return;
	struct emap dm;
	emap_build(&dm, ix->e, n, 1, NULL, NULL);
	size_t *parent = xmalloc(n * sizeof(size_t));
	size_t *first = xcalloc(n + 1, sizeof(size_t)); /* children of i: kids[first[i]..first[i+1]) */
	for (size_t i = 0; i < n; i++) {
		size_t p = ix->e[i].prev[0] ? emap_find(&dm, ix->e[i].prev) : NONE;
		parent[i] = p == i ? NONE : p;
		if (parent[i] != NONE)
			first[parent[i] + 1]++;
	}
	for (size_t i = 0; i < n; i++)
		first[i + 1] += first[i];
	size_t *kids = xmalloc(n * sizeof(size_t)), *fill = xmalloc(n * sizeof(size_t));
	memcpy(fill, first, n * sizeof(size_t));
	for (size_t i = 0; i < n; i++)
		if (parent[i] != NONE)
			kids[fill[parent[i]]++] = i;
	struct heap h = { xmalloc(n * sizeof(size_t)), 0, ix->e };
	unsigned char *done = xcalloc(n, 1);
	size_t *order = xmalloc(n * sizeof(size_t)), k = 0;
	for (size_t i = 0; i < n; i++)
		if (parent[i] == NONE)
			heap_push(&h, i);
	while (h.n) {
		size_t i = heap_pop(&h);
		order[k++] = i;
		done[i] = 1;
		for (size_t j = first[i]; j < first[i + 1]; j++)
			heap_push(&h, kids[j]);
	}
	if (k < n) {
		size_t k0 = k;
		for (size_t i = 0; i < n; i++)
			if (!done[i])
				order[k++] = i;
		sort_base = ix->e;
		qsort(order + k0, n - k0, sizeof(size_t), cmp_by_entry);
	}
	struct store_entry *e2 = xmalloc(n * sizeof(*e2));
	for (size_t i = 0; i < n; i++)
		e2[i] = ix->e[order[i]];
	free(ix->e);
	ix->e = e2;
	free(order);
	free(done);
	free(h.v);
	free(fill);
	free(kids);
	free(first);
	free(parent);
	emap_free(&dm);
}

/* --- id resolution --------------------------------------------------------- */

/* The hash part of an id: its last '-'-separated field, before any "-batch". */
static void hash_part(const char *id, const char **s, size_t *len)
{
	size_t n = strlen(id);
	if (n > 6 && !strcmp(id + n - 6, "-batch"))
		n -= 6;
	const char *end = id + n, *p = end;
	while (p > id && p[-1] != '-')
		p--;
	*s = p;
	*len = p == id ? 0 : (size_t)(end - p);
}

int store_resolve(const struct store_index *ix, const char *prefix, size_t *idx, struct strbuf *why)
{
	size_t plen = strlen(prefix), count = 0, cand[10];
	for (size_t i = 0; plen && i < ix->n; i++) {
		const char *id = ix->e[i].run_id, *h;
		size_t hlen = 0;
		int match = id[0] == prefix[0] && !strncmp(id, prefix, plen);
		if (match && !id[plen]) {
			*idx = i;
			return 0;
		}
		if (!match)
			hash_part(id, &h, &hlen);
		if (match || (hlen >= plen && h[0] == prefix[0] && !strncmp(h, prefix, plen))) {
			if (count < ARRAY_SIZE(cand))
				cand[count] = i;
			count++;
		}
	}
	if (count == 1) {
		*idx = cand[0];
		return 0;
	}
	if (!count) {
		strbuf_addf(why, "no run id, and no run's hash, starts with '%s'", prefix);
		return STORE_NOT_FOUND;
	}
	strbuf_addf(why, "'%s' names %zu runs: ", prefix, count);
	size_t shown = count < ARRAY_SIZE(cand) ? count : ARRAY_SIZE(cand);
	for (size_t j = 0; j < shown; j++)
		strbuf_addf(why, "%s%s", j ? ", " : "", ix->e[cand[j]].run_id);
	if (count > shown)
		strbuf_addf(why, " and %zu more", count - shown);
	return STORE_AMBIGUOUS;
}

/* --- runs/ and its stat ---------------------------------------------------- */

int runs_sig_now(struct store *st, struct runs_sig *s)
{
	char *dir = xstrfmt("%s/runs", st->root);
	struct stat sb;
	int rc = stat(dir, &sb);
	free(dir);
	memset(s, 0, sizeof(*s));
	if (rc < 0)
		return -1;
	s->sec = (long long)sb.st_mtim.tv_sec;
	s->nsec = (long long)sb.st_mtim.tv_nsec;
	s->size = (long long)sb.st_size;
	s->ino = (long long)sb.st_ino;
	return 0;
}

int runs_sig_eq(const struct runs_sig *a, const struct runs_sig *b)
{
	return a->sec == b->sec && a->nsec == b->nsec && a->size == b->size && a->ino == b->ino;
}

/* Read a small file whole, quietly: 0, or -1 (errno). */
int store_read_small(const char *path, struct strbuf *sb, struct stat *st)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	int rc = (st && fstat(fd, st) < 0) ? -1 : read_fd(fd, sb);
	int e = errno;
	close(fd);
	errno = e;
	return rc;
}

/* --- HEAD ------------------------------------------------------------------ */

/* The first 16 hex digits of the SHA-256 of HEAD's text before "check". */
static void head_check(const char *text, size_t n, char out[17])
{
	char full[SHA256_HEX_LEN + 1];
	sha256_hex(text, n, full);
	memcpy(out, full, 16);
	out[16] = '\0';
}

int head_read(struct store *st, struct store_head *h)
{
	char *path = xstrfmt("%s/HEAD", st->root);
	struct strbuf sb = STRBUF_INIT;
	int rc = store_read_small(path, &sb, NULL);
	free(path);
	memset(h, 0, sizeof(*h));
	const char *text = strbuf_str(&sb), *chk = strstr(text, "check ");
	char want[17];
	if (rc == 0 && chk) {
		head_check(text, (size_t)(chk - text), want);
		rc = strlen(chk) == 6 + 16 + 1 && !memcmp(chk + 6, want, 16) && chk[22] == '\n' ? 0 : -1;
	} else {
		rc = -1;
	}
	if (rc == 0)
		rc = sscanf(text, HEAD_MAGIC "digest %64s\nrun %255s\nruns-dir %lld.%lld %lld %lld",
			    h->digest, h->run_id, &h->sig.sec, &h->sig.nsec, &h->sig.size,
			    &h->sig.ino) == 6 &&
				     is_hex64(h->digest, strlen(h->digest)) && is_safe_name(h->run_id)
			     ? 0
			     : -1;
	strbuf_release(&sb);
	return rc;
}

/*
 * Rewritten in place, not renamed over: on ext4 a rename over an existing
 * file starts a flush, milliseconds a commit.  Only lock holders write it,
 * and a torn HEAD (a crash mid-write) fails its check line and is then
 * ignored like an absent one.
 */
int head_write(struct store *st, const char *digest, const char *run_id, const struct runs_sig *sig)
{
	struct strbuf sb = STRBUF_INIT;
	char chk[17];
	strbuf_addf(&sb, HEAD_MAGIC "digest %s\nrun %s\nruns-dir %lld.%09lld %lld %lld\n", digest, run_id,
		    sig->sec, sig->nsec, sig->size, sig->ino);
	head_check(sb.buf, sb.len, chk);
	strbuf_addf(&sb, "check %s\n", chk);
	char *path = xstrfmt("%s/HEAD", st->root);
	int fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0 && errno == ENOENT) {
		store_ensure_gitignore(st);
		fd = open(path, O_WRONLY | O_CREAT | O_CLOEXEC, 0644);
	}
	int rc = -1, e;
	struct stat s;
	if (fd >= 0) {
		if (!store_injected() && pwrite(fd, sb.buf, sb.len, 0) == (ssize_t)sb.len &&
		    fstat(fd, &s) == 0 && (s.st_size == (off_t)sb.len || ftruncate(fd, (off_t)sb.len) == 0))
			rc = 0;
		e = errno;
		close(fd);
		errno = e;
	}
	e = errno;
	free(path);
	strbuf_release(&sb);
	errno = e;
	return rc;
}

/* --- the index file -------------------------------------------------------- */

enum index_state { INDEX_ABSENT, INDEX_OK, INDEX_TORN, INDEX_MALFORMED, INDEX_OTHER_VERSION };

struct file_id {
	int present;
	dev_t dev;
	ino_t ino;
	off_t size;
	struct timespec mtime;
};

static void file_id_of(const struct stat *s, struct file_id *f)
{
	f->present = 1;
	f->dev = s->st_dev;
	f->ino = s->st_ino;
	f->size = s->st_size;
	f->mtime = s->st_mtim;
}

static int file_id_same(const struct file_id *a, const struct file_id *b)
{
	if (a->present != b->present)
		return 0;
	return !a->present || (a->dev == b->dev && a->ino == b->ino && a->size == b->size &&
			       a->mtime.tv_sec == b->mtime.tv_sec && a->mtime.tv_nsec == b->mtime.tv_nsec);
}

static void file_id_now(const char *path, struct file_id *f)
{
	struct stat s;
	memset(f, 0, sizeof(*f));
	if (stat(path, &s) == 0)
		file_id_of(&s, f);
}

static void index_line(struct strbuf *sb, const struct store_entry *e)
{
	strbuf_addf(sb, "%s %s %s%s%s\n", e->run_id, e->digest, e->prev[0] ? e->prev : "-",
		    e->attrs[0] ? " " : "", e->attrs);
}

static char *index_header(void)
{
	return xstrfmt(INDEX_MAGIC "%s\n", indexer_version);
}

/* One line "ID DIGEST PREV[ ATTRS]" (without its newline) into e. */
static int parse_line(const char *p, size_t len, struct store_entry *e)
{
	const char *end = p + len, *sp = memchr(p, ' ', len);
	if (!sp || sp == p || (size_t)(end - sp) < 1 + 64 + 1 + 1)
		return -1;
	char id[256];
	size_t idlen = (size_t)(sp - p);
	if (idlen >= sizeof(id))
		return -1;
	memcpy(id, p, idlen);
	id[idlen] = '\0';
	const char *dg = sp + 1, *pv = dg + 65;
	if (!is_safe_name(id) || !is_hex64(dg, 64) || dg[64] != ' ')
		return -1;
	size_t pvlen = (size_t)(end - pv);
	const char *sp2 = memchr(pv, ' ', pvlen);
	size_t plen = sp2 ? (size_t)(sp2 - pv) : pvlen;
	if (!(plen == 1 && *pv == '-') && !is_hex64(pv, plen))
		return -1;
	e->run_id = xstrdup(id);
	memcpy(e->digest, dg, 64);
	e->digest[64] = '\0';
	if (*pv == '-')
		e->prev[0] = '\0';
	else {
		memcpy(e->prev, pv, 64);
		e->prev[64] = '\0';
	}
	e->attrs = sp2 ? xstrndup(sp2 + 1, (size_t)(end - sp2 - 1)) : xstrdup("");
	return 0;
}

/* The index file as it is (no refresh).  state says what was found; a
 * malformed index yields no entries, a torn one all but its last line. */
static void index_read_raw(struct store *st, struct store_index *ix, enum index_state *state,
			   struct file_id *fid)
{
	char *path = xstrfmt("%s/index", st->root);
	struct strbuf sb = STRBUF_INIT;
	struct stat s;
	size_t alloc = 0;
	memset(fid, 0, sizeof(*fid));
	*state = INDEX_MALFORMED;
	if (store_read_small(path, &sb, &s) < 0) {
		if (errno == ENOENT)
			*state = INDEX_ABSENT;
		goto out;
	}
	file_id_of(&s, fid);
	const char *p = strbuf_str(&sb), *end = p + sb.len;
	const char *nl = memchr(p, '\n', sb.len);
	size_t ml = strlen(INDEX_MAGIC);
	if (!nl || (size_t)(nl - p) < ml || memcmp(p, INDEX_MAGIC, ml))
		goto out;
	size_t vlen = (size_t)(nl - p) - ml;
	int ours = vlen == strlen(indexer_version) && !memcmp(p + ml, indexer_version, vlen);
	enum index_state good = ours ? INDEX_OK : INDEX_OTHER_VERSION;
	for (p = nl + 1; p < end; p = nl + 1) {
		nl = memchr(p, '\n', (size_t)(end - p));
		if (!nl) {
			good = good == INDEX_OK ? INDEX_TORN : good;
			break;
		}
		struct store_entry e = { 0 };
		if (parse_line(p, (size_t)(nl - p), &e) < 0) {
			store_index_release(ix);
			goto out;
		}
		index_push(ix, &alloc, &e);
	}
	*state = good;
out:
	strbuf_release(&sb);
	free(path);
}

/* Rewrite the whole index from ix (the caller holds the lock). */
static int index_write(struct store *st, const struct store_index *ix)
{
	struct strbuf sb = STRBUF_INIT;
	char *hdr = index_header();
	strbuf_addstr(&sb, hdr);
	free(hdr);
	for (size_t i = 0; i < ix->n; i++)
		index_line(&sb, &ix->e[i]);
	char *path = xstrfmt("%s/index", st->root);
	store_ensure_gitignore(st);
	int rc = store_write_replace(st, path, strbuf_str(&sb), sb.len);
	free(path);
	strbuf_release(&sb);
	return rc;
}

/* Append text to an index whose header is ours; a torn last line is cut
 * first.  0 (also when absent or not ours: nothing to do), -1 (errno). */
static int index_append_text(struct store *st, const char *text, size_t n)
{
	char *path = xstrfmt("%s/index", st->root);
	int fd = open(path, O_RDWR | O_APPEND | O_CLOEXEC);
	free(path);
	if (fd < 0)
		return errno == ENOENT ? 0 : -1;
	int rc = -1, e = 0;
	char *hdr = index_header();
	size_t hl = strlen(hdr);
	char buf[4096];
	struct stat s;
	if (fstat(fd, &s) < 0)
		goto out;
	ssize_t r = pread(fd, buf, hl, 0);
	if (r != (ssize_t)hl || memcmp(buf, hdr, hl)) {
		rc = 0; /* not ours to extend: readers rebuild it */
		goto out;
	}
	off_t size = s.st_size;
	if (size > (off_t)hl && (pread(fd, buf, 1, size - 1) != 1 || buf[0] != '\n')) {
		/* a writer died mid-line: cut back to the last whole line */
		off_t pos = size;
		int found = 0;
		while (pos > (off_t)hl - 1 && !found) {
			off_t from = pos - (off_t)sizeof(buf) > (off_t)hl - 1 ? pos - (off_t)sizeof(buf)
									      : (off_t)hl - 1;
			ssize_t got = pread(fd, buf, (size_t)(pos - from), from);
			if (got <= 0)
				goto out;
			for (ssize_t i = got - 1; i >= 0; i--)
				if (buf[i] == '\n') {
					pos = from + i + 1;
					found = 1;
					break;
				}
			if (!found)
				pos = from;
		}
		if (!found || ftruncate(fd, pos) < 0)
			goto out;
	}
	if (store_injected() || write_all(fd, text, n) < 0)
		goto out;
	rc = 0;
out:
	e = errno;
	free(hdr);
	close(fd);
	errno = e;
	return rc;
}

int index_append(struct store *st, const struct store_entry *e)
{
	struct strbuf sb = STRBUF_INIT;
	index_line(&sb, e);
	int rc = index_append_text(st, strbuf_str(&sb), sb.len);
	strbuf_release(&sb);
	return rc;
}

/* --- loading, with its refresh against runs/ -------------------------------- */

/* Manifests read for the index: parsed in parallel, a chunk at a time,
 * then indexed in order on one thread. */
#define PARSE_CHUNK 512
struct parsed {
	char *path;
	json_t *m;
	struct strbuf why;
};

/* A manifest whose bytes match its digest: a view of the indexer's
 * members (store_set_indexer), a third of the parsing.  Any other: parsed
 * whole, without jansson's check for duplicate keys (a third of its time):
 * the index mirrors what manifests say, and a manifest with a key twice is
 * verify's to find. */
static void parse_one(void *arg, size_t i)
{
	struct parsed *p = (struct parsed *)arg + i;
	struct strbuf buf = STRBUF_INIT;
	json_error_t jerr;
	if (store_read_quiet(p->path, &buf) < 0) {
		strbuf_addf(&p->why, "unreadable: %s", strerror(errno));
		strbuf_release(&buf);
		p->m = NULL;
		return;
	}
	p->m = manifest_intact_view(strbuf_str(&buf), buf.len);
	if (!p->m)
		p->m = json_loadb(strbuf_str(&buf), buf.len, 0, &jerr);
	strbuf_release(&buf);
	if (!p->m)
		strbuf_addf(&p->why, "not valid JSON (line %d: %s)", jerr.line, jerr.text);
	else if (!json_is_object(p->m)) {
		strbuf_addstr(&p->why, "not a JSON object");
		json_decref(p->m);
		p->m = NULL;
	}
}

int index_refresh(struct store *st, struct store_index *ix, int lock_held)
{
	struct store_index raw = STORE_INDEX_INIT;
	enum index_state state;
	struct file_id fid;
	size_t alloc = 0;
	*ix = (struct store_index)STORE_INDEX_INIT;
	index_read_raw(st, &raw, &state, &fid);
	/* attrs written for another version are useless to an indexer */
	if (state == INDEX_OTHER_VERSION && indexer)
		store_index_release(&raw);
	int rewrite = state != INDEX_OK;
	/* without an indexer, an index of a real version can be read, not written */
	int may_write = !(state == INDEX_OTHER_VERSION && !indexer);

	unsigned char *gone = xcalloc(raw.n ? raw.n : 1, 1);
	struct emap im;
	size_t dups;
	emap_build(&im, raw.e, raw.n, 0, gone, &dups);
	rewrite |= dups > 0;
	unsigned char *seen = xcalloc(raw.n ? raw.n : 1, 1);

	char *dir = xstrfmt("%s/runs", st->root);
	char **added = NULL;
	size_t n_added = 0, a_alloc = 0;
	DIR *d = opendir(dir);
	if (!d && errno != ENOENT) {
		error("cannot read '%s': %s", dir, strerror(errno));
		free(dir);
		free(gone);
		free(seen);
		emap_free(&im);
		store_index_release(&raw);
		return -1;
	}
	struct dirent *de;
	while (d && (de = readdir(d))) {
		size_t len = strlen(de->d_name);
		if (len < 6 || de->d_name[0] == '.' || strcmp(de->d_name + len - 5, ".json"))
			continue;
		char id[256];
		if (len - 5 >= sizeof(id))
			continue;
		memcpy(id, de->d_name, len - 5);
		id[len - 5] = '\0';
		size_t at = emap_find(&im, id);
		if (at != NONE) {
			seen[at] = 1;
			continue;
		}
		if (n_added == a_alloc) {
			a_alloc = a_alloc ? 2 * a_alloc : 64;
			added = xrealloc(added, a_alloc * sizeof(char *));
		}
		added[n_added++] = xstrdup(id);
	}
	if (d)
		closedir(d);
	emap_free(&im);

	/* keep what is still there, then read what is new */
	for (size_t i = 0; i < raw.n; i++) {
		if (seen[i] && !gone[i]) {
			index_push(ix, &alloc, &raw.e[i]);
		} else {
			free(raw.e[i].run_id);
			free(raw.e[i].attrs);
			rewrite = 1;
		}
	}
	free(raw.e);
	free(seen);
	free(gone);
	size_t first_new = ix->n;
	struct parsed *pj = xcalloc(PARSE_CHUNK, sizeof(*pj));
	json_decref(json_object()); /* seed jansson's hashes before workers parse */
	for (size_t c = 0; c < n_added; c += PARSE_CHUNK) {
		size_t k = n_added - c < PARSE_CHUNK ? n_added - c : PARSE_CHUNK;
		for (size_t i = 0; i < k; i++) {
			pj[i].path = xstrfmt("%s/%s.json", dir, added[c + i]);
			pj[i].m = NULL;
			pj[i].why = (struct strbuf)STRBUF_INIT;
		}
		if (k > 16)
			store_parallel_for(k, parse_one, pj);
		else
			for (size_t i = 0; i < k; i++)
				parse_one(pj, i);
		for (size_t i = 0; i < k; i++) {
			struct store_entry e;
			if (pj[i].m && index_entry_from_manifest(pj[i].m, added[c + i], &e, &pj[i].why) == 0) {
				index_push(ix, &alloc, &e);
			} else {
				ix->damaged++;
				warning("run '%s' in '%s' is damaged (%s); run 'evident verify'", added[c + i],
					st->root, strbuf_str(&pj[i].why));
			}
			json_decref(pj[i].m);
			strbuf_release(&pj[i].why);
			free(pj[i].path);
			free(added[c + i]);
		}
	}
	free(pj);
	free(added);
	free(dir);

	/* write the repair back: appended when only runs were added */
	int sorted = 0;
	if (may_write && (rewrite || ix->n > first_new)) {
		struct store_lock lk = STORE_LOCK_INIT;
		char *path = xstrfmt("%s/index", st->root);
		struct file_id now;
		if (lock_held || store_lock_take(st, &lk, 1.0, 1) == 0) {
			file_id_now(path, &now);
			if (file_id_same(&fid, &now)) {
				if (rewrite) {
					index_sort(ix);
					sorted = 1;
					index_write(st, ix);
				} else {
					struct strbuf sb = STRBUF_INIT;
					for (size_t i = first_new; i < ix->n; i++)
						index_line(&sb, &ix->e[i]);
					index_append_text(st, strbuf_str(&sb), sb.len);
					strbuf_release(&sb);
				}
			}
			if (!lock_held)
				store_lock_release(&lk);
		}
		free(path);
	}
	if (!sorted)
		index_sort(ix);
	return 0;
}

int store_index_load(struct store *st, struct store_index *ix)
{
	return index_refresh(st, ix, 0);
}

/* --- verify's part --------------------------------------------------------- */

void index_check_caches(struct store *st, const struct store_index *truth, const struct runs_sig *sig0,
			struct strbuf *out, int *notes)
{
	struct store_index raw = STORE_INDEX_INIT;
	enum index_state state;
	struct file_id fid;
	struct strbuf note = STRBUF_INIT;
	index_read_raw(st, &raw, &state, &fid);
	int need_index = state != INDEX_OK, can_index = 1;
	if (state == INDEX_MALFORMED)
		strbuf_addf(&note, "note: index '%s/index' is damaged (not in its format)", st->root);
	else if (state == INDEX_TORN)
		strbuf_addf(&note, "note: index '%s/index' ends in a torn line", st->root);
	else if (state == INDEX_OTHER_VERSION && !indexer)
		can_index = 0; /* its attrs are not ours to rewrite */
	if (state == INDEX_OK || state == INDEX_TORN || (state == INDEX_OTHER_VERSION && !indexer)) {
		unsigned char *dup = xcalloc(raw.n ? raw.n : 1, 1), *matched = xcalloc(raw.n ? raw.n : 1, 1);
		struct emap im;
		size_t dups, missing = 0, differ = 0, extra = 0;
		emap_build(&im, raw.e, raw.n, 0, dup, &dups);
		for (size_t i = 0; i < truth->n; i++) {
			const struct store_entry *t = &truth->e[i];
			size_t at = emap_find(&im, t->run_id);
			if (at == NONE) {
				missing++;
				continue;
			}
			matched[at] = 1;
			const struct store_entry *r = &raw.e[at];
			if (strcmp(r->digest, t->digest) || strcmp(r->prev, t->prev) ||
			    (state != INDEX_OTHER_VERSION && strcmp(r->attrs, t->attrs)))
				differ++;
		}
		for (size_t i = 0; i < raw.n; i++)
			extra += !matched[i] || dup[i];
		if (missing || differ || extra) {
			need_index = 1;
			if (note.len)
				strbuf_addstr(&note, ", and it");
			else
				strbuf_addf(&note, "note: index '%s/index'", st->root);
			strbuf_addf(&note, " disagrees with the manifests: %zu run%s missing from it, "
				    "%zu line%s for runs not in runs/, %zu line%s unlike the manifest",
				    missing, missing == 1 ? "" : "s", extra, extra == 1 ? "" : "s", differ,
				    differ == 1 ? "" : "s");
		}
		emap_free(&im);
		free(dup);
		free(matched);
	}
	store_index_release(&raw);

	/* HEAD: the last run in the store's order */
	struct store_head h;
	struct runs_sig now;
	int have_now = runs_sig_now(st, &now) == 0;
	int need_head = 0;
	const struct store_entry *last = truth->n ? &truth->e[truth->n - 1] : NULL;
	if (head_read(st, &h) < 0) {
		need_head = last != NULL;
	} else if (!last || strcmp(h.digest, last->digest) || strcmp(h.run_id, last->run_id)) {
		need_head = last != NULL;
		/* stale after a git pull is normal (the next commit refreshes it);
		 * wrong while runs/ is as it recorded is not */
		if (have_now && runs_sig_eq(&h.sig, &now)) {
			if (note.len)
				strbuf_addstr(&note, "\n");
			strbuf_addf(&note, "note: HEAD '%s/HEAD' names run %s, but the newest run is %s",
				    st->root, h.run_id, last ? last->run_id : "none");
		}
	} else if (!have_now || !runs_sig_eq(&h.sig, sig0)) {
		need_head = 1;
	}
	if (!can_index)
		need_index = 0;
	const char *outcome = NULL;
	if (need_index || need_head) {
		struct store_lock lk = STORE_LOCK_INIT;
		if (store_lock_take(st, &lk, 5.0, 1) < 0) {
			outcome = "not rewritten: the store is read-only or busy";
		} else {
			if (runs_sig_now(st, &now) < 0 || !runs_sig_eq(&now, sig0)) {
				outcome = "not rewritten: runs were added during verify";
			} else if ((need_index && index_write(st, truth) < 0) ||
				   (need_head && last && head_write(st, last->digest, last->run_id, sig0) < 0)) {
				outcome = "not rewritten: the store is read-only";
			} else {
				outcome = "rebuilt from the manifests";
			}
			store_lock_release(&lk);
		}
	}
	if (note.len) {
		if (!can_index)
			strbuf_addstr(&note, " (not rewritten: this program has no record indexer)");
		else if (outcome)
			strbuf_addf(&note, " (%s)", outcome);
		strbuf_addstr(&note, "\n");
		strbuf_addstr(out, strbuf_str(&note));
		for (const char *p = note.buf; *p; p++)
			*notes += *p == '\n';
	}
	strbuf_release(&note);
}
