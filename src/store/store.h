/*
 * store.h - the immutable run store (store/ by default, artifacts/ for the study).
 *
 * Layout:
 *   objects/ab/cdef...   content-addressed blobs, named by the SHA-256 of
 *                        their bytes: sources, diffs, build logs, device
 *                        code, samples (one number a line), worker logs
 *   runs/RUN_ID.json     one small manifest per run (one variant executed
 *                        once), canonical JSON: sorted keys, one-space
 *                        indent, trailing newline, with "digest" = SHA-256
 *                        of the canonical text of the manifest without
 *                        "digest", and "prev" = the digest of the newest
 *                        manifest present when it was written (or null)
 *   tmp/                 temporary files (not committed; ignored by verify)
 *   pending/RUN_ID.json  a run in progress (not committed): {pid, host,
 *                        started_utc, experiment, variant}; removed when the
 *                        run's manifest is written
 *
 * Every file is written once: to tmp/, fsync'd, made read-only, then
 * hard-linked to its final name (link() fails if the name exists, so
 * nothing is ever overwritten), and the directory is fsync'd.  A reader
 * therefore sees a whole file or none.  A runner killed at any point
 * leaves at worst orphan objects and files in tmp/ and pending/, all of
 * which verify tolerates (it reports orphans as notes).
 *
 * Concurrent writers: both succeed.  Objects of equal content coincide.
 * Two manifests written at the same moment may carry the same "prev": the
 * chain forks into a tree, which verify accepts, since every link is still
 * checked.  The chain makes history tamper-evident: altering or deleting a
 * manifest breaks the "prev" of the manifest after it, and altering an
 * object breaks its name.  The one thing the chain cannot see is the
 * removal of the newest manifest; git history anchors that.
 *
 * Object references inside a manifest are string values of keys named
 * "object" or ending in "_object"; verify follows every one.
 */
#ifndef EVIDENT_STORE_H
#define EVIDENT_STORE_H

#include <jansson.h>

#include "base/util.h"

struct store {
	char *root;
};
#define STORE_INIT { NULL }

/* The store root: dir if non-NULL, else $EVIDENT_STORE, else "store" (the
 * user's own runs, git-ignored; the study's committed store artifacts/ is
 * used only when asked for: --store artifacts, or a paper's store marker). */
const char *store_default_root(const char *dir);
/* Open (create = 1: create the directories).  Release with store_release. */
int store_open(struct store *st, const char *root, int create);
void store_release(struct store *st);

/* Write bytes as an object (no-op if present); its hex name into out. */
int store_put(struct store *st, const void *data, size_t n, char out[SHA256_HEX_LEN + 1]);
/* Read object hex into out (appends), checking its hash.  0 or error(). */
int store_get(struct store *st, const char *hex, struct strbuf *out);
/* Path of object hex (caller frees). */
char *store_object_path(struct store *st, const char *hex);

/* Canonical text of a manifest (caller frees). */
char *store_canonical(json_t *m);

/*
 * Finish and write a manifest: sets "run_id", "prev" and "digest" in m,
 * writes runs/RUN_ID.json once.  Returns 0 or error().
 */
int store_commit(struct store *st, const char *run_id, json_t *m);

/* New run id "20261122T035051Z-EXPERIMENT-a1b2c3d4" into a malloc'd string. */
char *store_new_run_id(const char *experiment);

/* Sorted list of run ids (oldest first); free with store_free_list. */
int store_list(struct store *st, char ***ids, size_t *n);
void store_free_list(char **ids, size_t n);
/*
 * Load the manifest of run id (or of a unique prefix of one).  The id must
 * be a plain name: anything with '/' or '..' is refused, so names from
 * outside never reach paths outside the store.  *m is the caller's to
 * json_decref.  Returns 0, or -1 after error() (unknown, ambiguous, corrupt).
 */
int store_load(struct store *st, const char *id, json_t **m);

/* Pending markers for runs in progress. */
int store_pending_begin(struct store *st, const char *run_id, const char *experiment,
			const char *variant);
void store_pending_end(struct store *st, const char *run_id);
/* Pending runs: JSON array of {run_id, pid, host, started_utc, experiment,
 * variant, state: "running"|"aborted"} (caller json_decrefs). */
json_t *store_pending_list(struct store *st);

/*
 * Re-hash every object and manifest, follow every reference and "prev".
 * Writes one line per finding to out ("altered: objects/ab/cd...: ...").
 * Returns the number of problems (0 = intact), or -1 if the store cannot
 * be read at all.  Orphan objects and leftovers in tmp/ are counted in
 * *notes, not as problems.
 */
int store_verify(struct store *st, struct strbuf *out, int *notes, size_t *n_objects,
		 size_t *n_runs);

/* Test hook: fail the Nth write-ish syscall (write/fsync/link) with EIO. */
extern int store_fail_after;

#endif /* EVIDENT_STORE_H */
