/*
 * store.h - the immutable run store (store/ by default, artifacts/ for the study).
 *
 * Layout (what is committed to git: objects/ and runs/, .gitignore and
 * .gitattributes):
 *   objects/ab/cdef...   content-addressed blobs, named by the SHA-256 of
 *                        their bytes: sources, diffs, build logs, device
 *                        code, samples (one number a line), worker logs
 *   runs/RUN_ID.json     one small manifest per run (one variant executed
 *                        once), canonical JSON: sorted keys, one-space
 *                        indent, trailing newline, with "digest" = SHA-256
 *                        of the canonical text of the manifest without
 *                        "digest", and "prev" = the digest of the manifest
 *                        committed just before it (null for the first)
 *   .gitignore           written by the store: names everything below
 *   .gitattributes       written by the store: `* -text -filter`, so git
 *                        keeps every record byte for byte whatever the
 *                        project's attributes or core.autocrlf (red team 253)
 *   tmp/                 temporary files (ignored by verify)
 *   pending/RUN_ID.json  a run in progress: {pid, host, started_utc,
 *                        experiment, variant}; removed when the run's
 *                        manifest is written
 *   pending/names/       names in flight (below): RND.json claims and
 *                        .lock, the names lock
 *   HEAD                 the chain's head (cache, see below)
 *   HEAD.lock            the writers' lock, HEAD.lock.break its breaker's
 *   index                one line per run (cache, see below)
 *
 * Every record is written once: to tmp/, fsync'd, made read-only, then
 * hard-linked to its final name (link() fails if the name exists, so
 * nothing is ever overwritten), and the directory is fsync'd.  A reader
 * therefore sees a whole file or none.  A runner killed at any point
 * leaves at worst orphan objects, files in tmp/ and pending/, a stale
 * lock and stale caches, all of which are tolerated and repaired.
 *
 * The chain.  Writers commit under one lock, so the manifests form a LINE:
 * each one's "prev" is the digest of the one committed just before it.
 * The chain makes history tamper-evident: altering or deleting a manifest
 * breaks the "prev" of the manifest after it, and altering an object
 * breaks its name.  But the chain has no key: whoever can write the store
 * can cut manifests out or edit one and recompute every later prev and
 * digest (red team 249's rechain.py), and it cannot see the removal of the
 * newest manifest.  Git history anchors the store: verify compares every
 * record file the commit HEAD holds with the store (store_anchor below),
 * and with --history every commit's changes to committed records.  A store can still fork into
 * a tree (two clones of one store that both ran, merged by git; a writer
 * whose lock was broken because it stalled for a minute); verify accepts
 * trees and counts the forks as notes.
 *
 * The store's one order, used by every reader: topological along "prev"
 * (a manifest after the one it names), ties broken by the run id's UTC
 * stamp (the id up to its first '-'), then by the whole id.  On a line this
 * is chain order; a "prev" naming no manifest present counts as none.
 *
 * The lock, git's lockfile habit.  HEAD.lock is created with
 * open(O_CREAT|O_EXCL) (atomic locally and on NFS v3+, so it also serves
 * Slurm tasks of several hosts on a shared store) and holds one line
 * "PID HOST SINCE_UTC".  It is held from before HEAD is read until after
 * HEAD is moved: a few file operations, milliseconds.  A waiting writer
 * breaks it when it is STALE: its HOST is this host and its PID is not
 * running, or it is older than store_lock_stale_s (60 s) by its mtime,
 * whatever its host or content (nobody holds the lock that long, so its
 * owner is dead, on another host, or stopped; hosts that share a store
 * must keep their clocks within seconds; an empty lock, from a writer
 * killed between create and write, goes by age alone).  Breakers take
 * HEAD.lock.break (made the same way; stale after 10 s) first, so that
 * one at a time judges and unlinks, and it judges HEAD.lock again under
 * it: a fresh lock taken meanwhile by a live writer is never removed.  A
 * writer checks that HEAD.lock is still its file (inode) before it moves
 * HEAD; one that lost it (stopped for over a minute) leaves HEAD alone,
 * and its manifest, already written, forks the chain.
 *
 * The caches, HEAD and index, are derived from runs/ and never trusted
 * over it; they are not committed (a fresh clone rebuilds them on first
 * use), and a read-only store rebuilds them in memory only.
 *   HEAD:  "evident-head/1\ndigest HEX\nrun RUN_ID\nruns-dir SEC.NSEC SIZE INO\n"
 *          "check HEX16\n": the newest manifest, the stat of runs/ (mtime,
 *          size, inode) just after it was linked, and the first 16 hex
 *          digits of the SHA-256 of the lines before "check".  Lock holders
 *          rewrite it in place; a torn one fails its check and counts as
 *          absent.  store_commit trusts HEAD only while it is there and
 *          runs/ still has that stat; otherwise it refreshes the index
 *          under the lock and takes the last run in the store's order.
 *          HEAD is removed whenever it may lie: by whoever breaks a stale
 *          lock (its writer may have died between its link and its move of
 *          HEAD; the mtime alone may not show it, at a few ms a tick) and
 *          by a commit that could not move it.  The stat catches what
 *          happens outside the lock (a git pull or checkout adds or removes
 *          manifests, which changes the directory's mtime).  So a commit
 *          costs O(1) (no listing, no other manifest read) except the first
 *          after such an event.
 *   index: "evident-index/1 attrs=VERSION\n", then "RUN_ID DIGEST PREV[ ATTRS]\n"
 *          a line per run, PREV "-" for none, ATTRS the record module's
 *          one-line text (store_set_indexer).  Commits append their line;
 *          any order of lines is valid (readers sort).  Staleness: every
 *          store_index_load compares the index with a readdir of runs/
 *          (tens of ms at 10^5 runs; commit never lists): lines of absent
 *          runs are dropped, runs missing from it are read and added, a
 *          torn last line is dropped, and a malformed index or one written
 *          for another attrs VERSION is rebuilt from every manifest.  The
 *          repair is written back under the lock (appended when only runs
 *          were added, else rewritten) when the lock is free within a
 *          second and the index did not change meanwhile.  What the index
 *          cannot see, a manifest altered in place, is verify's to find;
 *          verify compares every line with its manifest and rebuilds both
 *          caches.  A load costs about 0.3 s at 10^5 runs (make bench-store).
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
/* The stores in folder dir (its subfolders holding both objects/ and
 * runs/), sorted by name; free with store_free_list.  Never fails: an
 * unreadable dir has none. */
char **store_dirs_in(const char *dir, size_t *n);
/* What to tell a user whose store is missing, appended to sb: "the stores
 * here are 'a', 'b': pass --store a" from store_dirs_in("."), or "pass
 * --store DIR" when there are none. */
void store_hint_here(struct strbuf *sb);
/* Open (create = 1: create the directories and .gitignore).  A missing
 * store (create = 0) is an error that names the stores in the current
 * folder.  Release with store_release. */
int store_open(struct store *st, const char *root, int create);
void store_release(struct store *st);

/* Write bytes as an object (no-op if present); its hex name into out. */
int store_put(struct store *st, const void *data, size_t n, char out[SHA256_HEX_LEN + 1]);
/* store_put, where a file already at the object's name must be those
 * bytes (a regular file, read without following a link): any other (a
 * file planted at the name before the run, a link, damage) is replaced,
 * written as every record is and renamed over it, with a warning (red
 * team 249: run/plan.c plan_keep_plugin took a file at the plug-in's
 * name as its object unread).  Its hex name into out; 0 or error(). */
int store_put_checked(struct store *st, const void *data, size_t n, char out[SHA256_HEX_LEN + 1]);
/* The content of the file at path as an object, as store_put of it: the
 * file hashed a block at a time first, and read whole only when its
 * object is not there yet (a library a build loads, 800 MiB in
 * tests/cli/t0178, was read whole for each record that names it).  Its
 * hex name into out; 0 or error(). */
int store_put_file(struct store *st, const char *path, char out[SHA256_HEX_LEN + 1]);
/* The file at path as an object only where its bytes hash to want (a
 * record's source: the hash of what its compile read); -1, nothing
 * stored, otherwise (red team 103: a source's name swapped to a link
 * after the build put a private file into the store under a record that
 * named the honest header's hash). */
int store_put_file_as(struct store *st, const char *path, const char *want, char out[SHA256_HEX_LEN + 1]);
/* Read object hex into out (appends), checking its hash.  0 or error(). */
int store_get(struct store *st, const char *hex, struct strbuf *out);
/* Path of object hex (caller frees). */
char *store_object_path(struct store *st, const char *hex);
/* Is s 64 lowercase hex digits (an object's name)? */
int store_is_hex64(const char *s);

/* Canonical text of a manifest (caller frees). */
char *store_canonical(json_t *m);

/*
 * The record module's summary of a manifest for the index: a malloc'd
 * one-line text (the store frees it; newlines become spaces) or NULL for
 * none.  It must depend on the manifest alone, and may be called from
 * several threads at once on different manifests (verify computes entries
 * in parallel).  attrs_version names the
 * text's format (no spaces): an index written under another version is
 * rebuilt.  Register once, in main, before any store call; until then
 * attrs are "" and version "".  The store never parses attrs.
 */
typedef char *(*store_indexer_fn)(json_t *manifest);
/*
 * members: the top-level members of a manifest fn reads, NULL-terminated
 * (at most 30), or NULL when it may read any.  Given a list, verify hands
 * fn, for a manifest whose bytes match its digest, an object holding only
 * those members (and "digest", "prev", "run_id"), each parsed from its
 * slice of the canonical text: a third of the parsing at 10^5 runs.  fn
 * must then give the line it gives for the whole manifest.
 */
void store_set_indexer(store_indexer_fn fn, const char *attrs_version, const char *const *members);

/*
 * Finish and write a manifest: under the lock, sets "run_id", "prev" (the
 * head: the manifest committed just before) and "digest" in m, writes
 * runs/RUN_ID.json once, appends its index line, moves HEAD.  Waits for
 * the lock up to store_lock_wait_s, breaking a stale one (see above).
 * Returns 0 or error(); 0 means the manifest is written, even where a
 * cache could not be updated (a warning says so; readers repair it).
 */
int store_commit(struct store *st, const char *run_id, json_t *m);

/* New run id "20261122T035051.123Z-EXPERIMENT-a1b2c3d4" into a malloc'd string. */
char *store_new_run_id(const char *experiment);

/*
 * All runs in the store's one order (above).  digest/prev are "" where
 * none.  attrs is never NULL ("" when none).  release frees the entries;
 * the index is STORE_INDEX_INIT again.
 */
struct store_entry {
	char *run_id;
	char digest[SHA256_HEX_LEN + 1];
	char prev[SHA256_HEX_LEN + 1];
	char *attrs;
};
struct store_index {
	struct store_entry *e;
	size_t n;
	size_t damaged; /* manifests in runs/ that could not be read: left out, each warned of */
};
#define STORE_INDEX_INIT { NULL, 0, 0 }
/* Load the index, refreshed against runs/ and repaired on disk where it
 * can be (see "index" above).  A store without runs/ is empty.  0 or error(). */
int store_index_load(struct store *st, struct store_index *ix);
void store_index_release(struct store_index *ix);

/*
 * Find the run named by prefix: the whole id, or a unique prefix of the id
 * or of its hash part (the 8 hex digits after the experiment name, before
 * any "-batch").  An exact id always wins.  Sets *idx (into ix->e) and
 * returns 0; or returns STORE_NOT_FOUND or STORE_AMBIGUOUS with a
 * sentence in why (appended; ambiguous: the candidates, up to 10, then
 * "and N more").  Prints nothing.  A scan of memory, no file read: about
 * 2 ms at 10^5 runs.
 */
#define STORE_NOT_FOUND (-1)
#define STORE_AMBIGUOUS (-2)
int store_resolve(const struct store_index *ix, const char *prefix, size_t *idx, struct strbuf *why);

/* Run ids in the store's order (oldest first); free with store_free_list. */
int store_list(struct store *st, char ***ids, size_t *n);
void store_free_list(char **ids, size_t n);
/*
 * Load the manifest of run id (or of a prefix that store_resolve accepts).
 * The id must be a plain name: anything with '/' or '..' is refused, so
 * names from outside never reach paths outside the store.  A whole id
 * opens its file directly (no index).  *m is the caller's to json_decref.
 * Returns 0, or -1 after error() (unknown, ambiguous, corrupt).
 */
int store_load(struct store *st, const char *id, json_t **m);

/* Pending markers for runs in progress. */
int store_pending_begin(struct store *st, const char *run_id, const char *experiment,
			const char *variant);
void store_pending_end(struct store *st, const char *run_id);
/* A batch begun (`evident eval`: a try of a candidate against a
 * reference): pending/BATCH_ID.json {run_id (the batch's), kind "batch",
 * pid, host, started_utc, experiment, variant (the candidate), reference},
 * written (atomically, by rename) before its first job and removed with
 * store_pending_end once its batch record is committed.  One left behind
 * by a dead process (state "aborted") is a try that began and never
 * finished: eval counts it as one not faster (eval_pool_batches; red team
 * 91's stop killed each session going the wrong way before its batch
 * record).  0 or error(). */
int store_pending_begin_batch(struct store *st, const char *batch_id, const char *experiment, const char *variant,
			      const char *reference);
/* The same marker rewritten once both sides are built, before the first
 * job, with code: {candidate, reference: {binary_sha256,
 * echo_neutral_sha256, load_sha256, libs}, problem} (red team 93: a
 * marker matched by names missed the same code under a new candidate,
 * experiment or reference name; eval_pool_batches matches one with code
 * by it).  Every marker (runs' too) records its writer beyond its pid:
 * pid_ns, start_ticks (/proc/PID/stat field 22), boot_id; one whose
 * process is of another namespace, boot or start time reads "aborted". */
int store_pending_begin_batch_code(struct store *st, const char *batch_id, const char *experiment,
				   const char *variant, const char *reference, json_t *code);
/* `evident run`'s batch begun (run.c run_marker), once every variant is
 * built and before the first job: pending/BATCH_ID.json {run_id, kind
 * "run_batch", experiment, code: {variants: [{name, binary_sha256,
 * echo_neutral_sha256, load_sha256, libs}]}, reproduces: RUN_ID where
 * reproduces is not NULL (evident reproduce's: the batch it reproduces)}
 * (variants' reference taken), whole or not at all, removed with
 * store_pending_end once the batch record is committed.  One left behind
 * names every code the killed try ran or was to run (code_identity.h
 * code_orphan_tries; red team 94), and the batch a killed reproduction
 * was of (audit_claim_reproduced; red team 130).  0 or error(). */
int store_pending_begin_run_batch(struct store *st, const char *batch_id, const char *experiment, json_t *variants,
				  const char *reproduces);
/* A job of batch batch_id begun (job.c, before it builds or runs): the
 * batch's begun marker (pending/BATCH_ID.json, eval's or evident run's),
 * where there is one, gets {run_id, variant} and job's fields (taken:
 * job.c's problem and dims) appended to its array "begun", under a lock
 * of its own (pending/.BATCH_ID.lock: a pool's slots are processes of
 * their own), its other fields as they were.  A marker left behind then
 * says which jobs began, in a clone too (it is committed, not its jobs'
 * run markers): one with no run record is a job killed or stopped while
 * it ran, which counts against a value claim on its code (audit_value.c
 * value_killed_tries; red team 132).  0, or -1 after error(). */
int store_pending_batch_begun(struct store *st, const char *batch_id, const char *run_id, const char *variant,
			      json_t *job);
/* Pending runs and begun batches: JSON array of {run_id, pid, host,
 * started_utc, experiment, variant, state: "running"|"aborted"|"elsewhere"}
 * (elsewhere: written on another host, whose process this one cannot look
 * up; a batch's with kind "batch" and reference too) (caller json_decrefs). */
json_t *store_pending_list(struct store *st);

/*
 * Re-hash every object and manifest, follow every reference and "prev"
 * (hashing, parsing and indexing on a thread per core, at most 8).  A
 * manifest whose bytes match its digest is the committed canonical text:
 * its references are read from the text and its index line from a view
 * of the indexer's members (store_set_indexer); any other is parsed whole
 * and dumped again, to tell a wrong digest from a wrong form.
 * Writes one line per finding to out ("altered: objects/ab/cd...: ...").
 * Returns the number of problems (0 = intact), or -1 if the store cannot
 * be read at all.  Counted in *notes, not as problems: orphan objects,
 * forks of the chain, and an index or HEAD that disagrees with the
 * manifests (both are then rewritten from the manifests, where the store
 * is writable; absent caches are rebuilt without a note).
 */
int store_verify(struct store *st, struct strbuf *out, int *notes, size_t *n_objects,
		 size_t *n_runs);

/*
 * The store against git (store_anchor.c), for verify: where the store
 * lies inside a git work tree, every record file (runs/, objects/) in
 * HEAD's committed tree must be in the store byte for byte (git blob ids
 * compared; a symbolic link or other non-regular file is a problem), and
 * with history, no commit reachable from HEAD may modify or delete a
 * record file its parent held (each commit's store folder against each
 * parent's, equal subtrees skipped).  The chain has no key, so this is
 * what tells a history cut out and re-chained (red team 249) from the
 * one the runner wrote.  Records not committed yet pass (they are new).
 * Writes one line a finding to out ("altered: PATH: differs from the
 * commit HEAD (SHA) recorded", "missing: PATH: missing since ...",
 * "rewritten: PATH: deleted by commit SHA ..."), then an "anchored:" line;
 * a store in no git work tree, or none of it committed, is a note
 * ("not anchored (no git repository)").  Returns the number of problems.
 */
int store_anchor(struct store *st, int history, struct strbuf *out, int *notes);

/*
 * Names in flight.  A session that checks a variant name against the
 * store before it records runs under it (eval's candidate names, a
 * search's gNcK) would leave a window from its check to its first record
 * in which another session's check passes too (red team 76's race: two
 * eval sessions started together both took `fast`).  So the check and a
 * claim are one step: under the names lock (pending/names/.lock, made and
 * broken as HEAD.lock is, store_lock.c; held for the check, never while a
 * batch runs) the live claims are read first, then the caller reads the
 * store, then adds its claim: pending/names/RND.json, {experiment, name,
 * code (the caller's text for the code, compared whole), pid, host,
 * since, start (the owner's process start time), pid_namespace (its
 * /proc/self/ns/pid)}.  The owner drops its
 * claims once the runs they cover are committed; no lock is needed for
 * that, since a claimer reads the claims before the store (a claim gone
 * means its runs are there to read).  A claim is dead when its owner is
 * a process of this host that is gone (or whose pid another process has
 * now: its start time differs) or, from another host or another PID
 * namespace (a container's pid names another process here: red team 81),
 * when it is older than store_claim_stale_s (a day) by its mtime; claimers
 * remove dead
 * ones.  The claims are no records: pending/ is git-ignored and verify
 * does not read it.
 *
 * lock: take the names lock (waiting up to store_lock_wait_s, breaking a
 * stale one) and read the live claims: NULL after error().  other: a live
 * claim holds (experiment, name) for other code than code: 1 with
 * *holder (when non-NULL) "pid P on host H since UTC", malloc'd; 0 when
 * none does (the same code may share a name).  add: claim it (under the
 * lock): 0, or -1 after error().  unlock: release the lock, keeping the
 * claims made.  drop: unlock if need be, remove every claim made through
 * c and free it (NULL: nothing).
 */
struct store_claims;
struct store_claims *store_claims_lock(struct store *st);
int store_claims_other(struct store_claims *c, const char *experiment, const char *name, const char *code,
		       char **holder);
int store_claims_add(struct store_claims *c, const char *experiment, const char *name, const char *code);
void store_claims_unlock(struct store_claims *c);
void store_claims_drop(struct store_claims *c);
extern double store_claim_stale_s;
#define STORE_CLAIM_STALE_S 86400

/* Lock timing (seconds): how long store_commit waits for the lock before
 * it gives up (default 120), and the age at which a lock is stale
 * (default 60).  Tests shorten them. */
extern double store_lock_wait_s;
extern double store_lock_stale_s;
#define STORE_LOCK_STALE_S 60

/* Test hooks: fail the Nth write-ish syscall (write/fsync/link/rename) with
 * EIO; and a function called at points of store_commit ("locked",
 * "linked", "indexed"), e.g. to kill the writer there. */
extern int store_fail_after;
extern void (*store_test_hook)(const char *point);

#endif /* EVIDENT_STORE_H */
