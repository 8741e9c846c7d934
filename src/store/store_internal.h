/*
 * store_internal.h - what the store's files share, and nobody else:
 * store.c (open, list, load, commit, pending), store_write.c (tmp/ and
 * write-once records, cache files, objects), store_manifest.c (canonical
 * form, digests, views of a manifest's text), store_verify.c (verify, the
 * parallel loop), store_lock.c (HEAD.lock) and store_index.c (HEAD and
 * the index, the store's order and id resolution).  The formats and rules
 * are in store.h.
 */
#ifndef EVIDENT_STORE_INTERNAL_H
#define EVIDENT_STORE_INTERNAL_H

#include <sys/stat.h>
#include <sys/types.h>

#include "store/store.h"

/* Fault injection: 1 (errno EIO) when this write-ish call must fail. */
int store_injected(void);
/* Calls store_test_hook(point) when one is set. */
void store_hook(const char *point);

/* A record: tmp/, fsync, chmod 0444, link to final, fsync the directory.
 * exists_ok: an existing final file is success (objects);
 * STORE_WRITE_OVER: renamed over final instead (an object at its name
 * whose bytes are not its own, store_put_checked).  0 or error(). */
#define STORE_WRITE_OVER 2
int store_write_once(struct store *st, const char *final, const void *data, size_t n,
		     int exists_ok);
/* A cache file: tmp/, then rename over final; no fsync (a lost cache is
 * rebuilt).  Returns 0, or -1 with errno set and nothing printed. */
int store_write_replace(struct store *st, const char *final, const void *data, size_t n);
/* Writes ROOT/.gitignore if it is absent (quietly: best effort). */
void store_ensure_gitignore(struct store *st);
/* Parse a manifest file; NULL with the reason in why (if non-NULL). */
json_t *store_read_manifest(const char *path, struct strbuf *why);
/* Names in runs/ (without ".json"), sorted by name; a missing runs/ is
 * empty.  Free with store_free_list.  0 or error(). */
int store_list_dir(struct store *st, char ***ids, size_t *n);

/*
 * Run fn(arg, i) for every i < n on up to one thread per core (at most 8,
 * the caller's thread among them).  fn must touch nothing but item i:
 * verify and index rebuilds parse and hash in parallel, then merge on one
 * thread.  verify also computes index entries on the workers, so the
 * indexer (store_set_indexer) must be safe to call from several threads
 * at once on different manifests.  Seed jansson's hashes (create one
 * object) before workers parse.
 */
void store_parallel_for(size_t n, void (*fn)(void *arg, size_t i), void *arg);

/* The stat of runs/ that HEAD records (see store.h, "HEAD"). */
struct runs_sig {
	long long sec, nsec, size, ino;
};
int runs_sig_now(struct store *st, struct runs_sig *s); /* 0, or -1 when runs/ is absent */
int runs_sig_eq(const struct runs_sig *a, const struct runs_sig *b);
/* Read a small file whole, quietly (and its stat into *st when st is not
 * NULL): 0, or -1 (errno).  store_index.c. */
int store_read_small(const char *path, struct strbuf *sb, struct stat *st);

/* This host's name as locks and claims record it (blanks as '_'). */
void store_host_name(char *buf, size_t n);
/* HEAD.lock.  take: 0 when held; -1 after waiting wait_s (error() unless
 * quiet).  owned: is HEAD.lock still our file?  release: remove it if it
 * is ours; frees lk->path. */
struct store_lock {
	char *path;
	dev_t dev;
	ino_t ino;
};
#define STORE_LOCK_INIT { NULL, 0, 0 }
int store_lock_take(struct store *st, struct store_lock *lk, double wait_s, int quiet);
/* The same lock at ROOT/rel (store_claim.c's names lock): breaking a
 * stale one removes HEAD only where rel is "HEAD.lock". */
int store_lock_take_at(struct store *st, struct store_lock *lk, const char *rel, double wait_s, int quiet);
int store_lock_owned(const struct store_lock *lk);
void store_lock_release(struct store_lock *lk);

/* HEAD.  read: 0, or -1 (quietly) when absent or malformed. */
struct store_head {
	char digest[SHA256_HEX_LEN + 1];
	char run_id[256];
	struct runs_sig sig;
};
int head_read(struct store *st, struct store_head *h);
/* 0, or -1 with errno set (nothing printed). */
int head_write(struct store *st, const char *digest, const char *run_id, const struct runs_sig *sig);

/* Read a whole file into sb, quietly (verify and index rebuilds word
 * their own findings): 0, or -1 with errno set. */
int store_read_quiet(const char *path, struct strbuf *sb);
/* The members a view of a manifest holds for the indexer (store.h,
 * store_set_indexer), NULL-terminated; NULL when it named none. */
const char *const *index_view_members(void);
/*
 * Views of a committed manifest from its canonical text t (n bytes),
 * for verify once t matches its digest.  view: an object holding the
 * listed top-level members, each parsed from its slice; NULL when t is
 * not shaped as canonical text (a top-level key with an escape, say), or
 * a slice does not parse: the caller parses the whole.  New reference.
 * refs: the object references in t (store.h: string values of keys
 * "object" or "*_object", at any depth), in text order, malloc'd copies
 * in *refs (the caller frees each and the array); -1 when a ref key or
 * its value holds an escape, or t ends inside a string: parse the whole.
 * manifest_refs: the same from a parsed manifest, in member order.
 */
json_t *manifest_view(const char *t, size_t n, const char *const *members);
/* The view of the indexer's members (index_view_members) when t matches
 * its digest, else NULL (parse the whole).  New reference. */
json_t *manifest_intact_view(const char *t, size_t n);
int manifest_refs_text(const char *t, size_t n, char ***refs, size_t *n_refs);
void manifest_refs(json_t *m, char ***refs, size_t *n_refs, size_t *alloc);

/* qsort/bsearch comparator of char * elements (strcmp). */
int store_cmp_str(const void *a, const void *b);

/* store_manifest.c: the canonical text of m with the member "digest": dg,
 * from the canonical text bare of m without it (the caller frees);
 * store_canonical_digest its inverse: the digest out of a manifest's
 * canonical text canon whose "digest" is dg; store_text_digest verify's
 * fast path: 1 with the recorded digest in dg and the digest of the text
 * in want when t is shaped as canonical text, else 0. */
char *store_canonical_with_digest(json_t *m, const char *bare, const char *dg);
void store_canonical_digest(const char *canon, const char *dg, char out[SHA256_HEX_LEN + 1]);
int store_text_digest(const char *t, size_t n, char dg[SHA256_HEX_LEN + 1], char want[SHA256_HEX_LEN + 1]);
/* Frees refs[0..n) and refs (manifest_refs, manifest_refs_text). */
void store_refs_free(char **refs, size_t n);
/* The indexer's attrs for m: never NULL, one line; the caller frees. */
char *index_attrs(json_t *m);
/* Fill e from manifest m of run id (digest, prev, attrs): 0, or -1 with
 * the reason in why when m lacks a well-formed "digest" or "prev". */
int index_entry_from_manifest(json_t *m, const char *id, struct store_entry *e, struct strbuf *why);
/* store_index_load's work; lock_held: the caller holds HEAD.lock (commit),
 * so repairs are written without taking it. */
int index_refresh(struct store *st, struct store_index *ix, int lock_held);
/* Append e's line (commit, under the lock).  Nothing when the index is
 * absent or of another attrs version (readers add the run).  0, or -1
 * with errno set. */
int index_append(struct store *st, const struct store_entry *e);
/* Put ix in the store's order (store.h). */
void index_sort(struct store_index *ix);
/*
 * verify's part: compare the index and HEAD with truth (the intact
 * manifests, in the store's order), add a note to out for each that
 * disagrees, and rewrite both from truth under the lock, provided runs/
 * still has the stat sig0 taken before the manifests were listed.
 */
void index_check_caches(struct store *st, const struct store_index *truth, const struct runs_sig *sig0,
			struct strbuf *out, int *notes);

#endif /* EVIDENT_STORE_INTERNAL_H */
