/*
 * test_store.c - unit tests of the immutable store: objects, manifests,
 * the hash chain, verify, and fault injection (SQLite's habit): every
 * write, fsync, link and rename is failed in turn, and the store must
 * verify after each failure with nothing half-written visible.  Then the
 * lock (stale locks of dead, foreign and killed writers), HEAD and the
 * index (rebuilt after runs arrive behind its back, after it is deleted,
 * torn or garbled), the store's order on lines and trees, id resolution,
 * and concurrent writers, which must make a line.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <dirent.h>
#include <fcntl.h>
#include <ftw.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "store/query.h"
#include "store/store.h"

static char *tmp_store(void)
{
	char tmpl[] = "/tmp/evident-store-XXXXXX";
	char *d = mkdtemp(tmpl);
	assert_non_null(d);
	return xstrfmt("%s/st", d);
}

static int rm_one(const char *path, const struct stat *sb, int flag, struct FTW *ftw)
{
	(void)sb;
	(void)flag;
	(void)ftw;
	return remove(path);
}

/* Remove the temporary directory of root (from tmp_store) and free root. */
static void rm_store(char *root)
{
	*strrchr(root, '/') = '\0';
	assert_int_equal(nftw(root, rm_one, 16, FTW_DEPTH | FTW_PHYS), 0);
	free(root);
}

static size_t count_files(const char *dir)
{
	DIR *d = opendir(dir);
	size_t n = 0;
	struct dirent *e;
	while (d && (e = readdir(d)))
		n += e->d_name[0] != '.';
	if (d)
		closedir(d);
	return n;
}

static char *slurp(const char *path)
{
	struct strbuf sb = STRBUF_INIT;
	if (read_file(path, &sb) < 0)
		return NULL;
	return strbuf_detach(&sb, NULL);
}

static void spit(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	assert_int_equal(fclose(f), 0);
}

static char *in_root(struct store *st, const char *name)
{
	return xstrfmt("%s/%s", st->root, name);
}

/* Commit a small manifest as run id; returns its digest (caller frees). */
static char *commit_one(struct store *st, const char *id)
{
	json_t *m = json_pack("{s:s, s:s}", "kind", "variant", "note", id);
	assert_int_equal(store_commit(st, id, m), 0);
	char *dg = xstrdup(json_string_value(json_object_get(m, "digest")));
	json_decref(m);
	return dg;
}

static void id_of(char *buf, size_t n, int i)
{
	snprintf(buf, n, "20260101T0000%02d.%03dZ-t-%08x", i / 1000 % 60, i % 1000, 0xa0000000u + i);
}

/* The store is one line in index order: first prev "", each next prev
 * the digest before it; and it verifies with no notes but orphans. */
static void assert_line(struct store *st, size_t want_n)
{
	struct store_index ix = STORE_INDEX_INIT;
	assert_int_equal(store_index_load(st, &ix), 0);
	assert_int_equal(ix.n, want_n);
	for (size_t i = 0; i < ix.n; i++)
		assert_string_equal(ix.e[i].prev, i ? ix.e[i - 1].digest : "");
	store_index_release(&ix);
	struct strbuf out = STRBUF_INIT;
	int notes;
	size_t no, nr;
	assert_int_equal(store_verify(st, &out, &notes, &no, &nr), 0);
	assert_null(strstr(strbuf_str(&out), "tree"));
	strbuf_release(&out);
}

static int verify_quiet(struct store *st, struct strbuf *out, int *notes)
{
	size_t no, nr;
	return store_verify(st, out, notes, &no, &nr);
}

static void test_put_get_roundtrip(void **state)
{
	(void)state;
	struct store st = STORE_INIT;
	char *root = tmp_store();
	assert_int_equal(store_open(&st, root, 1), 0);
	char hex[65], hex2[65];
	assert_int_equal(store_put(&st, "hello\n", 6, hex), 0);
	assert_string_equal(hex, "5891b5b522d5df086d0ff0b110fbd9d21bb4fc7163af34d08286a2e846f6be03");
	assert_int_equal(store_put(&st, "hello\n", 6, hex2), 0); /* dedup */
	assert_string_equal(hex, hex2);
	struct strbuf sb = STRBUF_INIT;
	assert_int_equal(store_get(&st, hex, &sb), 0);
	assert_string_equal(sb.buf, "hello\n");
	char *p = store_object_path(&st, hex);
	struct stat s;
	assert_int_equal(stat(p, &s), 0);
	assert_int_equal(s.st_mode & 0777, 0444);
	free(p);
	/* the store names what git must not commit */
	p = in_root(&st, ".gitignore");
	char *gi = slurp(p);
	assert_non_null(gi);
	const char *want[] = { "\n/tmp/\n", "\n/pending/*\n", "\n!/pending/*-batch.json\n", "\n/HEAD\n", "\n/HEAD.lock\n", "\n/index\n" };
	for (size_t i = 0; i < ARRAY_SIZE(want); i++)
		assert_non_null(strstr(gi, want[i]));
	assert_null(strstr(gi, "\n/runs"));
	assert_null(strstr(gi, "\n/objects"));
	free(gi);
	free(p);
	strbuf_release(&sb);
	store_release(&st);
	rm_store(root);
}

/* store_put_file is store_put of the file's content: the same object
 * name for a file of several hash blocks, written once (the second call
 * finds it there), read back whole; a file it cannot read is -1 and
 * stores nothing. */
static void test_put_file(void **state)
{
	(void)state;
	struct store st = STORE_INIT;
	char *root = tmp_store();
	assert_int_equal(store_open(&st, root, 1), 0);
	size_t n = (2u << 20) + 3;
	char *b = xmalloc(n);
	for (size_t i = 0; i < n; i++)
		b[i] = (char)(i * 7 + (i >> 11));
	char *path = xstrfmt("%s.file", root);
	FILE *f = fopen(path, "wb");
	assert_non_null(f);
	assert_int_equal(fwrite(b, 1, n, f), n);
	assert_int_equal(fclose(f), 0);
	char want[65], hex[65], hex2[65];
	sha256_hex(b, n, want);
	assert_int_equal(store_put_file(&st, path, hex), 0);
	assert_string_equal(hex, want);
	assert_int_equal(store_put_file(&st, path, hex2), 0); /* there already */
	assert_string_equal(hex2, want);
	struct strbuf sb = STRBUF_INIT;
	assert_int_equal(store_get(&st, hex, &sb), 0);
	assert_int_equal(sb.len, n);
	assert_memory_equal(sb.buf, b, n);
	char *objs = xstrfmt("%s/objects", root);
	size_t before = count_files(objs);
	assert_int_equal(unlink(path), 0);
	util_quiet = 1;
	assert_int_equal(store_put_file(&st, path, hex), -1);
	util_quiet = 0;
	assert_int_equal(count_files(objs), before);
	free(objs);
	free(path);
	free(b);
	strbuf_release(&sb);
	store_release(&st);
	rm_store(root);
}

static void test_chain_and_verify(void **state)
{
	(void)state;
	struct store st = STORE_INIT;
	char *root = tmp_store();
	assert_int_equal(store_open(&st, root, 1), 0);
	char hex[65];
	store_put(&st, "x", 1, hex);
	json_t *m1 = json_pack("{s:s, s:s}", "kind", "variant", "samples_object", hex);
	assert_int_equal(store_commit(&st, "20260101T000000.000Z-a-4ce08165", m1), 0);
	assert_true(json_is_null(json_object_get(m1, "prev")));
	json_t *m2 = json_pack("{s:s}", "kind", "variant");
	assert_int_equal(store_commit(&st, "20260101T000000.001Z-a-4ce0aaaa-batch", m2), 0);
	assert_string_equal(json_string_value(json_object_get(m2, "prev")),
			    json_string_value(json_object_get(m1, "digest")));
	/* never overwritten */
	util_quiet = 1;
	json_t *m3 = json_pack("{s:s}", "kind", "variant");
	assert_int_not_equal(store_commit(&st, "20260101T000000.001Z-a-4ce0aaaa-batch", m3), 0);
	util_quiet = 0;
	/* HEAD names the second run; the lock is gone */
	char *p = in_root(&st, "HEAD");
	char *head = slurp(p);
	char *want = xstrfmt("evident-head/1\ndigest %s\nrun 20260101T000000.001Z-a-4ce0aaaa-batch\nruns-dir ",
			     json_string_value(json_object_get(m2, "digest")));
	assert_non_null(head);
	assert_true(!strncmp(head, want, strlen(want)));
	assert_non_null(strstr(head, "\ncheck "));
	free(want);
	free(head);
	free(p);
	p = in_root(&st, "HEAD.lock");
	assert_false(path_exists(p));
	free(p);
	/* the index: a header, then a line per run with prev "-" for none */
	p = in_root(&st, "index");
	char *index = slurp(p);
	want = xstrfmt("evident-index/1 attrs=\n20260101T000000.000Z-a-4ce08165 %s -\n"
		       "20260101T000000.001Z-a-4ce0aaaa-batch %s %s\n",
		       json_string_value(json_object_get(m1, "digest")),
		       json_string_value(json_object_get(m2, "digest")),
		       json_string_value(json_object_get(m1, "digest")));
	assert_string_equal(index, want);
	free(want);
	free(index);
	free(p);
	struct strbuf out = STRBUF_INIT;
	int notes;
	size_t no, nr;
	assert_int_equal(store_verify(&st, &out, &notes, &no, &nr), 0);
	assert_int_equal(notes, 0);
	assert_int_equal(nr, 2);
	assert_int_equal(no, 1);
	/* loading by the whole id, an id prefix, a hash prefix; refusing paths */
	json_t *got;
	assert_int_equal(store_load(&st, "20260101T000000.000Z-a-4ce08165", &got), 0);
	json_decref(got);
	assert_int_equal(store_load(&st, "20260101T000000.000Z", &got), 0);
	assert_string_equal(json_string_value(json_object_get(got, "run_id")), "20260101T000000.000Z-a-4ce08165");
	json_decref(got);
	assert_int_equal(store_load(&st, "4ce0a", &got), 0);
	assert_string_equal(json_string_value(json_object_get(got, "run_id")),
			    "20260101T000000.001Z-a-4ce0aaaa-batch");
	json_decref(got);
	util_quiet = 1;
	assert_int_equal(store_load(&st, "20260101T000000.00", &got), -1); /* ambiguous */
	assert_int_equal(store_load(&st, "4ce0", &got), -1);               /* ambiguous hash */
	assert_int_equal(store_load(&st, "ffff", &got), -1);               /* unknown */
	assert_int_equal(store_load(&st, "../runs/x", &got), -1);
	util_quiet = 0;
	json_decref(m1);
	json_decref(m2);
	json_decref(m3);
	strbuf_release(&out);
	store_release(&st);
	rm_store(root);
}

/* Fail the Nth write/fsync/link/rename for N = 0.. until a commit meets no
 * failure: after every failure the store verifies, holds no partial
 * manifest and no lock, and its runs still form a line. */
static void test_fault_injection(void **state)
{
	(void)state;
	struct store st = STORE_INIT;
	char *root = tmp_store();
	assert_int_equal(store_open(&st, root, 1), 0);
	char *runs = xstrfmt("%s/runs", root), *lock = in_root(&st, "HEAD.lock");
	int clean = 0, failures = 0, written = 0;
	util_quiet = 1;
	for (int n = 0; n < 64 && !clean; n++) {
		char id[64];
		snprintf(id, sizeof(id), "20260101T000000.%03dZ-f-%08d", n, n);
		size_t before = count_files(runs);
		store_fail_after = n;
		char hex[65];
		char body[32];
		snprintf(body, sizeof(body), "samples %d\n", n);
		int rc = store_put(&st, body, strlen(body), hex);
		json_t *m = json_pack("{s:s, s:s}", "kind", "variant", "samples_object", hex);
		if (rc == 0)
			rc = store_commit(&st, id, m);
		clean = store_fail_after > 0; /* the injection was never reached */
		store_fail_after = -1;
		json_decref(m);
		size_t after = count_files(runs);
		if (rc == 0) {
			written++;
			assert_int_equal(after, before + 1);
		} else {
			failures++;
			assert_int_equal(after, before); /* nothing half-written visible */
		}
		assert_false(path_exists(lock));
		assert_line(&st, (size_t)written);
	}
	util_quiet = 0;
	assert_true(clean);
	/* object: write, fsync, link; manifest: lock write, write, fsync */
	assert_true(failures >= 6);
	/* and the failures after the manifest's link (index line, HEAD) still wrote it */
	assert_true(written >= 3);
	free(runs);
	free(lock);
	store_release(&st);
	rm_store(root);
}

static void test_verify_detects_damage(void **state)
{
	(void)state;
	struct store st = STORE_INIT;
	char *root = tmp_store();
	assert_int_equal(store_open(&st, root, 1), 0);
	char hex[65];
	store_put(&st, "abc", 3, hex);
	json_t *m = json_pack("{s:s}", "log_object", hex);
	store_commit(&st, "20260101T000000.000Z-d-1", m);
	json_decref(m);
	char *p = store_object_path(&st, hex);
	chmod(p, 0644);
	FILE *f = fopen(p, "w");
	fputs("abd", f);
	fclose(f);
	struct strbuf out = STRBUF_INIT;
	int notes;
	size_t no, nr;
	assert_int_equal(store_verify(&st, &out, &notes, &no, &nr), 1);
	assert_non_null(strstr(out.buf, "altered: "));
	strbuf_release(&out);
	free(p);
	store_release(&st);
	rm_store(root);
}

/* verify judges most manifests from their bytes (store_manifest.c, store_text_digest);
 * every edit that keeps the JSON's meaning must still be caught, and a
 * nested "digest" key must not confuse it. */
/* store_commit writes the digest member into the canonical text without a
 * second dump: the file must be byte for byte the canonical dump of the
 * manifest with its digest, wherever "digest" sorts among the top-level
 * keys (first, middle, last, next to "digest-ish" keys, an escaped key),
 * and its digest must be that of the dump without it. */
static void test_commit_text_is_canonical(void **state)
{
	(void)state;
	char *root = tmp_store();
	struct store st = STORE_INIT;
	assert_int_equal(store_open(&st, root, 1), 0);
	const char *docs[] = {
		"{\"a\": 1}",
		"{\"zz\": {\"digest\": 1, \"b\": [1, 2]}, \"kind\": \"x\"}",
		"{\"dig\": 1, \"digesta\": 2, \"digess\": 3, \"difz\": 4, \"e\": \"line\\n \\\"digest\\\": 0\"}",
		"{\"a\\u00e9\": 1, \"d\\\"q\": 2, \"z\": 3}",
		"{\"\\u0001\": 1, \"\": 2, \"~\": {\"x\": [{\"y\": 0.1}]}}",
	};
	for (size_t i = 0; i < ARRAY_SIZE(docs); i++) {
		json_error_t jerr;
		json_t *m = json_loads(docs[i], 0, &jerr);
		assert_non_null(m);
		char id[32];
		snprintf(id, sizeof(id), "run-%zu", i);
		assert_int_equal(store_commit(&st, id, m), 0);
		char *path = xstrfmt("%s/runs/%s.json", root, id);
		char *file = slurp(path);
		assert_non_null(file);
		char *dump = store_canonical(m); /* m now has run_id, prev and digest */
		assert_string_equal(file, dump);
		json_t *bare = json_copy(m);
		json_object_del(bare, "digest");
		char *text = store_canonical(bare), dg[65];
		sha256_hex(text, strlen(text), dg);
		assert_string_equal(dg, json_string_value(json_object_get(m, "digest")));
		free(text);
		json_decref(bare);
		free(dump);
		free(file);
		free(path);
		json_decref(m);
	}
	struct strbuf out = STRBUF_INIT;
	int notes;
	size_t no, nr;
	assert_int_equal(store_verify(&st, &out, &notes, &no, &nr), 0);
	assert_int_equal(nr, ARRAY_SIZE(docs));
	strbuf_release(&out);
	store_release(&st);
	rm_store(root);
}

static void test_verify_canonical_form(void **state)
{
	(void)state;
	struct store st = STORE_INIT;
	char *root = tmp_store();
	assert_int_equal(store_open(&st, root, 1), 0);
	json_t *m = json_pack("{s:i, s:s, s:{s:s}}", "code", 1, "kind", "variant", "build", "digest", "nested");
	assert_int_equal(store_commit(&st, "20260101T000000.000Z-v-00000001", m), 0);
	const char *dg = json_string_value(json_object_get(m, "digest"));
	char *path = xstrfmt("%s/runs/20260101T000000.000Z-v-00000001.json", root);
	char *good = slurp(path);
	struct strbuf out = STRBUF_INIT;
	int notes;
	assert_int_equal(verify_quiet(&st, &out, &notes), 0);
	char *line = xstrfmt(" \"digest\": \"%s\",\n", dg);
	char *at = strstr(good, line);
	assert_non_null(at);
	size_t k = (size_t)(at - good), ll = strlen(line);
	/* edits: the digest member moved first, a space added, two members swapped */
	char *moved = xstrfmt("{\n%s%.*s%s", line, (int)(k - 2), good + 2, at + ll);
	char *spaced = xstrdup(good);
	char *code = strstr(spaced, "\"code\": 1");
	assert_non_null(code);
	struct strbuf sp = STRBUF_INIT;
	strbuf_add(&sp, spaced, (size_t)(code - spaced) + 7);
	strbuf_addstr(&sp, "  1");
	strbuf_addstr(&sp, code + 9);
	char *swapped = xstrdup(good);
	char *kind = strstr(swapped, " \"kind\"");
	char *prev = strstr(swapped, " \"prev\"");
	assert_true(kind && prev);
	/* "kind" moved after "prev" */
	struct strbuf sw = STRBUF_INIT;
	char *kind_end = strchr(kind, '\n') + 1, *prev_end = strchr(prev, '\n') + 1;
	strbuf_add(&sw, swapped, (size_t)(kind - swapped));
	strbuf_add(&sw, prev, (size_t)(prev_end - prev));
	strbuf_add(&sw, kind, (size_t)(kind_end - kind));
	strbuf_addstr(&sw, prev_end);
	const char *edits[] = { moved, sp.buf, sw.buf };
	chmod(path, 0644);
	for (size_t i = 0; i < ARRAY_SIZE(edits); i++) {
		assert_string_not_equal(edits[i], good);
		spit(path, edits[i]);
		strbuf_reset(&out);
		assert_int_equal(verify_quiet(&st, &out, &notes), 1);
		assert_non_null(strstr(strbuf_str(&out), "not in canonical form"));
	}
	/* and a changed value: its digest */
	char *flipped = xstrdup(good);
	strstr(flipped, "\"code\": 1")[8] = '2';
	spit(path, flipped);
	strbuf_reset(&out);
	assert_int_equal(verify_quiet(&st, &out, &notes), 1);
	assert_non_null(strstr(strbuf_str(&out), "digest does not match its content"));
	spit(path, good);
	strbuf_reset(&out);
	assert_int_equal(verify_quiet(&st, &out, &notes), 0);
	free(flipped);
	strbuf_release(&sw);
	free(swapped);
	strbuf_release(&sp);
	free(spaced);
	free(moved);
	free(line);
	free(good);
	free(path);
	strbuf_release(&out);
	json_decref(m);
	store_release(&st);
	rm_store(root);
}

/* --- resolution ---------------------------------------------------------- */

static void test_resolve(void **state)
{
	(void)state;
	const char *ids[] = {
		"20261122T042946.203Z-iter1-4ce08165",       "20261122T042947.000Z-iter1-4ce0aaaa",
		"20261122T042948.000Z-my-exp-12345678-batch", "20261122T042949.000Z-iter1-9abcdef0",
	};
	struct store_index ix = { xcalloc(40, sizeof(struct store_entry)), 0, 0 };
	for (size_t i = 0; i < ARRAY_SIZE(ids); i++) {
		ix.e[ix.n].run_id = xstrdup(ids[i]);
		ix.e[ix.n++].attrs = xstrdup("");
	}
	size_t at = 99;
	struct strbuf why = STRBUF_INIT;
	assert_int_equal(store_resolve(&ix, ids[1], &at, &why), 0); /* exact */
	assert_int_equal(at, 1);
	assert_int_equal(store_resolve(&ix, "20261122T042946", &at, &why), 0); /* id prefix */
	assert_int_equal(at, 0);
	assert_int_equal(store_resolve(&ix, "4ce08", &at, &why), 0); /* hash prefix */
	assert_int_equal(at, 0);
	assert_int_equal(store_resolve(&ix, "9abcdef0", &at, &why), 0); /* whole hash */
	assert_int_equal(at, 3);
	assert_int_equal(store_resolve(&ix, "1234", &at, &why), 0); /* a batch's hash */
	assert_int_equal(at, 2);
	assert_int_equal(store_resolve(&ix, "batch", &at, &why), STORE_NOT_FOUND); /* not a hash */
	assert_int_equal(store_resolve(&ix, "iter1", &at, &why), STORE_NOT_FOUND); /* nor a name */
	strbuf_reset(&why);
	assert_int_equal(store_resolve(&ix, "zz", &at, &why), STORE_NOT_FOUND);
	assert_non_null(strstr(strbuf_str(&why), "'zz'"));
	strbuf_reset(&why);
	assert_int_equal(store_resolve(&ix, "4ce0", &at, &why), STORE_AMBIGUOUS);
	assert_string_equal(strbuf_str(&why), "'4ce0' names 2 runs: 20261122T042946.203Z-iter1-4ce08165, "
					      "20261122T042947.000Z-iter1-4ce0aaaa");
	strbuf_reset(&why);
	assert_int_equal(store_resolve(&ix, "", &at, &why), STORE_NOT_FOUND);
	/* many candidates: ten named, then a count */
	for (int i = 0; i < 20; i++) {
		ix.e[ix.n].run_id = xstrfmt("20261123T000000.%03dZ-x-%08x", i, i);
		ix.e[ix.n++].attrs = xstrdup("");
	}
	strbuf_reset(&why);
	assert_int_equal(store_resolve(&ix, "20261123", &at, &why), STORE_AMBIGUOUS);
	assert_non_null(strstr(strbuf_str(&why), "'20261123' names 20 runs: "));
	assert_non_null(strstr(strbuf_str(&why), "20261123T000000.009Z-x-00000009 and 10 more"));
	assert_null(strstr(strbuf_str(&why), "00000010"));
	strbuf_release(&why);
	store_index_release(&ix);
}

/* query_find without a why looks a whole id up in a sorted index
 * (query.c exact_index): the entry the scan with a why returns, for every
 * id (the first of two entries of one id; a v1 batch's printed batch id,
 * and one that is an earlier entry's run id; prefixes, ambiguous ones,
 * unknown ids), before and after more entries are made. */
static void query_add(struct query *q, const char *run_id, const char *batch_id)
{
	q->e = xrealloc(q->e, (q->n + 1) * sizeof(*q->e));
	struct query_entry *e = &q->e[q->n++];
	memset(e, 0, sizeof(*e));
	e->run_id = xstrdup(run_id);
	e->a.is_batch = batch_id != NULL;
	e->a.batch_id = batch_id ? xstrdup(batch_id) : NULL;
}

static void expect_same_find(struct query *q, const char *const *ids, size_t n)
{
	for (size_t k = 0; k < n; k++) {
		struct strbuf why = STRBUF_INIT;
		long scanned = query_find(q, ids[k], &why), indexed = query_find(q, ids[k], NULL);
		if (scanned != indexed)
			fail_msg("query_find('%s'): %ld with a why, %ld without", ids[k], scanned, indexed);
		strbuf_release(&why);
	}
}

static void test_query_find_index(void **state)
{
	(void)state;
	struct query q = QUERY_INIT;
	query_add(&q, "20261122T042946.203Z-iter1-4ce08165", NULL);
	query_add(&q, "20261122T042947.000Z-iter1-4ce0aaaa", NULL);
	query_add(&q, "20261122T042948.000Z-my-exp-12345678-batch", "20261122T042948.000Z-my-exp-12345678");
	query_add(&q, "20261122T042947.000Z-iter1-4ce0aaaa", NULL); /* the id again: the first is found */
	query_add(&q, "20261122T042949.000Z-iter1-9abcdef0-batch", "20261122T042946.203Z-iter1-4ce08165");
	const char *ids[] = {
		"20261122T042946.203Z-iter1-4ce08165", "20261122T042947.000Z-iter1-4ce0aaaa",
		"20261122T042948.000Z-my-exp-12345678-batch", "20261122T042948.000Z-my-exp-12345678",
		"20261122T042949.000Z-iter1-9abcdef0-batch", "20261122T042946", "4ce08", "4ce0", "9abcdef0",
		"12345678", "zz", "", "20261122T042950.000Z-iter1-00000000",
	};
	expect_same_find(&q, ids, ARRAY_SIZE(ids));
	assert_int_equal(query_find(&q, ids[0], NULL), 0);
	assert_int_equal(query_find(&q, ids[1], NULL), 1);
	assert_int_equal(query_find(&q, ids[3], NULL), 2);
	assert_int_equal(q.ids_n, 5);
	/* an entry made after the index was: the index is remade */
	query_add(&q, "20261122T042950.000Z-iter1-00000000", NULL);
	expect_same_find(&q, ids, ARRAY_SIZE(ids));
	assert_int_equal(query_find(&q, ids[12], NULL), 5);
	assert_int_equal(q.ids_n, 6);
	query_release(&q);
	assert_null(q.ids);
}

/* --- the lock -------------------------------------------------------------- */

static void write_lock(struct store *st, const char *text, int age_s)
{
	char *p = in_root(st, "HEAD.lock");
	spit(p, text);
	if (age_s) {
		struct timespec t[2];
		clock_gettime(CLOCK_REALTIME, &t[0]);
		t[0].tv_sec -= age_s;
		t[1] = t[0];
		assert_int_equal(utimensat(AT_FDCWD, p, t, 0), 0);
	}
	free(p);
}

static void test_lock_stale_rules(void **state)
{
	(void)state;
	struct store st = STORE_INIT;
	char *root = tmp_store(), *lock;
	assert_int_equal(store_open(&st, root, 1), 0);
	lock = in_root(&st, "HEAD.lock");
	char host[256] = "";
	gethostname(host, sizeof(host) - 1);
	char *text;
	free(commit_one(&st, "20260101T000000.000Z-l-00000000"));

	/* a dead process of this host: broken at once */
	pid_t child = fork();
	if (!child)
		_exit(0);
	waitpid(child, NULL, 0);
	text = xstrfmt("%ld %s 2026-01-01T00:00:00.000Z\n", (long)child, host);
	write_lock(&st, text, 0);
	free(text);
	util_quiet = 1;
	double t0 = mono_now();
	free(commit_one(&st, "20260101T000000.001Z-l-00000001"));
	assert_true(mono_now() - t0 < 5);
	assert_false(path_exists(lock));

	/* a live writer on another host: waited for, then refused, and left alone */
	store_lock_wait_s = 0.3;
	write_lock(&st, "4242 elsewhere 2026-01-01T00:00:00.000Z\n", 0);
	json_t *m = json_pack("{s:s}", "kind", "variant");
	assert_int_equal(store_commit(&st, "20260101T000000.002Z-l-00000002", m), -1);
	json_decref(m);
	assert_true(path_exists(lock));
	char *runs = xstrfmt("%s/runs", root);
	assert_int_equal(count_files(runs), 2);
	/* ... until it is older than the stale age */
	write_lock(&st, "4242 elsewhere 2026-01-01T00:00:00.000Z\n", 2 * STORE_LOCK_STALE_S);
	free(commit_one(&st, "20260101T000000.003Z-l-00000003"));
	assert_false(path_exists(lock));

	/* a live process of this host (us) holds it: not broken while fresh */
	text = xstrfmt("%ld %s 2026-01-01T00:00:00.000Z\n", (long)getpid(), host);
	write_lock(&st, text, 0);
	m = json_pack("{s:s}", "kind", "variant");
	assert_int_equal(store_commit(&st, "20260101T000000.004Z-l-00000004", m), -1);
	json_decref(m);
	/* pid reuse cannot wedge the store: age breaks it too */
	write_lock(&st, text, 2 * STORE_LOCK_STALE_S);
	free(text);
	free(commit_one(&st, "20260101T000000.005Z-l-00000005"));

	/* an empty lock (killed between create and write) goes by age */
	write_lock(&st, "", 0);
	m = json_pack("{s:s}", "kind", "variant");
	assert_int_equal(store_commit(&st, "20260101T000000.006Z-l-00000006", m), -1);
	json_decref(m);
	write_lock(&st, "", 2 * STORE_LOCK_STALE_S);
	/* and a breaker killed while it broke a lock is broken too */
	char *brk = in_root(&st, "HEAD.lock.break");
	spit(brk, "1 elsewhere x\n");
	struct timespec t[2];
	clock_gettime(CLOCK_REALTIME, &t[0]);
	t[0].tv_sec -= 60;
	t[1] = t[0];
	assert_int_equal(utimensat(AT_FDCWD, brk, t, 0), 0);
	store_lock_wait_s = 5;
	free(commit_one(&st, "20260101T000000.007Z-l-00000007"));
	assert_false(path_exists(lock));
	assert_false(path_exists(brk));
	util_quiet = 0;
	store_lock_wait_s = 120;
	assert_line(&st, 5);
	free(brk);
	free(runs);
	free(lock);
	store_release(&st);
	rm_store(root);
}

/* A writer killed while it holds the lock (before the link, between the
 * link and the index, between the index and HEAD) wedges nothing: the
 * next commit breaks the lock, and the chain stays a line. */
static void kill_me(const char *point)
{
	const char *at = getenv("TEST_STORE_KILL_AT");
	if (at && !strcmp(at, point))
		raise(SIGKILL);
}

static void test_writer_killed_holding_lock(void **state)
{
	(void)state;
	const char *points[] = { "locked", "linked", "indexed" };
	for (size_t k = 0; k < ARRAY_SIZE(points); k++) {
		struct store st = STORE_INIT;
		char *root = tmp_store();
		assert_int_equal(store_open(&st, root, 1), 0);
		free(commit_one(&st, "20260101T000000.000Z-k-00000000"));
		pid_t child = fork();
		if (!child) {
			setenv("TEST_STORE_KILL_AT", points[k], 1);
			store_test_hook = kill_me;
			json_t *m = json_pack("{s:s}", "kind", "variant");
			store_commit(&st, "20260101T000000.001Z-k-00000001", m);
			_exit(3); /* not reached */
		}
		int status;
		waitpid(child, &status, 0);
		assert_true(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL);
		char *lock = in_root(&st, "HEAD.lock");
		assert_true(path_exists(lock));
		/* as if the link fell in the mtime tick of the commit before it
		 * (ext4 stamps a directory to a few ms): runs/ as HEAD recorded */
		char *hpath = in_root(&st, "HEAD"), *h = slurp(hpath);
		long long sec, nsec;
		assert_non_null(h);
		assert_int_equal(sscanf(strstr(h, "runs-dir ") + 9, "%lld.%lld", &sec, &nsec), 2);
		struct timespec t[2] = { { (time_t)sec, (long)nsec }, { (time_t)sec, (long)nsec } };
		char *runs = xstrfmt("%s/runs", root);
		assert_int_equal(utimensat(AT_FDCWD, runs, t, 0), 0);
		free(runs);
		free(h);
		free(hpath);
		util_quiet = 1;
		double t0 = mono_now();
		free(commit_one(&st, "20260101T000000.002Z-k-00000002"));
		util_quiet = 0;
		assert_true(mono_now() - t0 < 5);
		assert_false(path_exists(lock));
		assert_line(&st, k == 0 ? 2 : 3);
		free(lock);
		store_release(&st);
		rm_store(root);
	}
}

/* --- the index ------------------------------------------------------------- */

static char *test_indexer(json_t *m)
{
	const char *note = json_string_value(json_object_get(m, "note"));
	return note ? xstrfmt("note=%s\nsecond line", note) : NULL;
}

/* A manifest written into runs/ without the store (as `git pull` does). */
static void pull_in(struct store *st, const char *id, const char *prev)
{
	json_t *m = json_pack("{s:s, s:s, s:s}", "kind", "variant", "note", id, "run_id", id);
	json_object_set_new(m, "prev", prev ? json_string(prev) : json_null());
	char *text = store_canonical(m), dg[65];
	sha256_hex(text, strlen(text), dg);
	free(text);
	json_object_set_new(m, "digest", json_string(dg));
	text = store_canonical(m);
	char *path = xstrfmt("%s/runs/%s.json", st->root, id);
	spit(path, text);
	free(path);
	free(text);
	json_decref(m);
}

static void test_index_repairs(void **state)
{
	(void)state;
	store_set_indexer(test_indexer, "test/1", NULL);
	struct store st = STORE_INIT;
	char *root = tmp_store(), id[64];
	assert_int_equal(store_open(&st, root, 1), 0);
	char *ipath = in_root(&st, "index");
	for (int i = 0; i < 5; i++) {
		id_of(id, sizeof(id), i);
		free(commit_one(&st, id));
	}
	struct store_index ix = STORE_INDEX_INIT;
	assert_int_equal(store_index_load(&st, &ix), 0);
	assert_int_equal(ix.n, 5);
	id_of(id, sizeof(id), 2);
	assert_string_equal(ix.e[2].run_id, id);
	char *want = xstrfmt("note=%s second line", id);
	assert_string_equal(ix.e[2].attrs, want); /* one line */
	free(want);
	char *good = slurp(ipath);
	assert_true(!strncmp(good, "evident-index/1 attrs=test/1\n", 29));

	/* runs arriving behind its back (git pull): read, added, appended */
	pull_in(&st, "20260101T000001.000Z-t-pulled01", ix.e[4].digest);
	store_index_release(&ix);
	assert_int_equal(store_index_load(&st, &ix), 0);
	assert_int_equal(ix.n, 6);
	assert_string_equal(ix.e[5].run_id, "20260101T000001.000Z-t-pulled01");
	assert_string_equal(ix.e[5].attrs, "note=20260101T000001.000Z-t-pulled01 second line");
	store_index_release(&ix);
	char *now = slurp(ipath);
	assert_true(!strncmp(now, good, strlen(good)));
	assert_non_null(strstr(now + strlen(good), "20260101T000001.000Z-t-pulled01 "));
	free(now);
	/* ... and the next commit chains to it: HEAD is stale, runs/ changed */
	id_of(id, sizeof(id), 6);
	free(commit_one(&st, id));
	assert_line(&st, 7);
	free(good);
	good = slurp(ipath);

	/* deleted, truncated mid-line, garbled, listing a run not there, of
	 * another attrs version: every load gives the same runs, and repairs it */
	const char *damage[] = { "delete", "torn", "garbage", "extra", "version", "dup" };
	for (size_t k = 0; k < ARRAY_SIZE(damage); k++) {
		if (!strcmp(damage[k], "delete")) {
			unlink(ipath);
		} else if (!strcmp(damage[k], "torn")) {
			assert_int_equal(truncate(ipath, (off_t)strlen(good) - 30), 0);
		} else if (!strcmp(damage[k], "garbage")) {
			spit(ipath, "hello\nworld\n");
		} else if (!strcmp(damage[k], "extra")) {
			char *t = xstrfmt("%s20260101T000009.000Z-t-gone0000 %064d -\n", good, 7);
			spit(ipath, t);
			free(t);
		} else if (!strcmp(damage[k], "version")) {
			char *t = xstrfmt("evident-index/1 attrs=test/0%s", strchr(good, '\n'));
			spit(ipath, t);
			free(t);
		} else {
			char *t = xstrfmt("%s%s", good, strchr(good, '\n') + 1);
			spit(ipath, t);
			free(t);
		}
		assert_int_equal(store_index_load(&st, &ix), 0);
		assert_int_equal(ix.n, 7);
		store_index_release(&ix);
		/* written back whole: the same lines (in the store's order) */
		char *fixed = slurp(ipath);
		assert_string_equal(fixed, good);
		free(fixed);
		assert_line(&st, 7);
	}

	/* a commit cuts a torn last line before it appends its own */
	assert_int_equal(truncate(ipath, (off_t)strlen(good) - 30), 0);
	id_of(id, sizeof(id), 7);
	free(commit_one(&st, id));
	char *cut = slurp(ipath), *last_nl = strrchr(cut, '\n');
	assert_true(last_nl && !last_nl[1]);
	assert_non_null(strstr(cut, id));
	size_t lines = 0;
	for (char *q = cut; *q; q++)
		lines += *q == '\n';
	assert_int_equal(lines, 1 + 7); /* header, six whole lines, the new one */
	free(cut);
	assert_int_equal(store_index_load(&st, &ix), 0);
	assert_int_equal(ix.n, 8); /* the torn run came back from runs/ */
	for (size_t i = 0; i < ix.n; i++) { /* and no line carries another's tail */
		char *a = xstrfmt("note=%s second line", ix.e[i].run_id);
		assert_string_equal(ix.e[i].attrs, a);
		free(a);
	}
	store_index_release(&ix);
	assert_line(&st, 8);
	cut = slurp(ipath);
	lines = 0;
	for (char *q = cut; *q; q++)
		lines += *q == '\n';
	assert_int_equal(lines, 1 + 8);
	free(cut);

	/* a read-only store repairs in memory only */
	unlink(ipath);
	char *tmpd = in_root(&st, "tmp");
	assert_int_equal(rmdir(tmpd), 0);
	spit(tmpd, "not a directory\n");
	assert_int_equal(store_index_load(&st, &ix), 0);
	assert_int_equal(ix.n, 8);
	store_index_release(&ix);
	assert_false(path_exists(ipath));
	unlink(tmpd);
	assert_int_equal(mkdir(tmpd, 0755), 0);
	free(tmpd);

	/* verify notes an index that lies about a manifest, and rewrites it */
	assert_int_equal(store_index_load(&st, &ix), 0);
	store_index_release(&ix);
	char *t = slurp(ipath), *at = strstr(t, "note=");
	at[0] = 'N';
	spit(ipath, t);
	free(t);
	struct strbuf out = STRBUF_INIT;
	int notes;
	assert_int_equal(verify_quiet(&st, &out, &notes), 0);
	assert_non_null(strstr(strbuf_str(&out), "1 line unlike the manifest"));
	assert_non_null(strstr(strbuf_str(&out), "rebuilt from the manifests"));
	assert_int_equal(notes, 1);
	strbuf_reset(&out);
	assert_int_equal(verify_quiet(&st, &out, &notes), 0);
	assert_int_equal(notes, 0);
	strbuf_release(&out);

	store_set_indexer(NULL, NULL, NULL);
	free(good);
	free(ipath);
	store_release(&st);
	rm_store(root);
}

/* HEAD that lies while runs/ is as it says is a note for verify, which
 * rewrites it; a HEAD merely stale (runs/ changed) is refreshed quietly. */
static void test_head_repairs(void **state)
{
	(void)state;
	struct store st = STORE_INIT;
	char *root = tmp_store(), id[64];
	assert_int_equal(store_open(&st, root, 1), 0);
	char *hpath = in_root(&st, "HEAD");
	char *d0 = NULL;
	for (int i = 0; i < 3; i++) {
		id_of(id, sizeof(id), i);
		char *d = commit_one(&st, id);
		if (!i)
			d0 = d;
		else
			free(d);
	}
	char *h = slurp(hpath);
	/* point HEAD at the first run, keeping the rest: its check line fails */
	char *dl = strstr(h, "digest ") + 7;
	memcpy(dl, d0, 64);
	spit(hpath, h);
	id_of(id, sizeof(id), 3);
	free(commit_one(&st, id)); /* a torn HEAD is ignored: still a line */
	assert_line(&st, 4);
	free(h);
	/* deleted HEAD: same */
	unlink(hpath);
	id_of(id, sizeof(id), 4);
	free(commit_one(&st, id));
	assert_line(&st, 5);
	assert_true(path_exists(hpath));
	/* garbage HEAD is rewritten by verify, quietly (it is absent in effect) */
	spit(hpath, "junk\n");
	struct strbuf out = STRBUF_INIT;
	int notes;
	assert_int_equal(verify_quiet(&st, &out, &notes), 0);
	assert_int_equal(notes, 0);
	h = slurp(hpath);
	id_of(id, sizeof(id), 4);
	assert_non_null(strstr(h, id));
	free(h);
	strbuf_release(&out);
	free(d0);
	free(hpath);
	store_release(&st);
	rm_store(root);
}

/* --- the order ------------------------------------------------------------- */

static void test_order_line_and_tree(void **state)
{
	(void)state;
	struct store st = STORE_INIT;
	char *root = tmp_store();
	assert_int_equal(store_open(&st, root, 1), 0);
	/* a line follows the chain, whatever the stamps say (a clock set back) */
	free(commit_one(&st, "20260101T000009.000Z-o-00000001"));
	free(commit_one(&st, "20260101T000001.000Z-o-00000002"));
	free(commit_one(&st, "20260101T000005.000Z-o-00000003"));
	struct store_index ix = STORE_INDEX_INIT;
	assert_int_equal(store_index_load(&st, &ix), 0);
	assert_string_equal(ix.e[0].run_id, "20260101T000009.000Z-o-00000001");
	assert_string_equal(ix.e[1].run_id, "20260101T000001.000Z-o-00000002");
	assert_string_equal(ix.e[2].run_id, "20260101T000005.000Z-o-00000003");
	char root_dg[65], mid_dg[65];
	strcpy(root_dg, ix.e[0].digest);
	strcpy(mid_dg, ix.e[1].digest);
	store_index_release(&ix);
	char **ids;
	size_t n;
	assert_int_equal(store_list(&st, &ids, &n), 0);
	assert_int_equal(n, 3);
	assert_string_equal(ids[1], "20260101T000001.000Z-o-00000002");
	store_free_list(ids, n);
	/* a tree (a clone that ran too, merged): after its parent, by stamp */
	pull_in(&st, "20260101T000002.000Z-o-0000000b", root_dg);
	pull_in(&st, "20260101T000003.000Z-o-0000000c", mid_dg);
	pull_in(&st, "20260101T000000.000Z-o-0000000r", NULL);
	assert_int_equal(store_index_load(&st, &ix), 0);
	const char *want[] = {
		"20260101T000000.000Z-o-0000000r", /* a second root, earliest stamp */
		"20260101T000009.000Z-o-00000001", "20260101T000001.000Z-o-00000002",
		"20260101T000002.000Z-o-0000000b", "20260101T000003.000Z-o-0000000c",
		"20260101T000005.000Z-o-00000003",
	};
	assert_int_equal(ix.n, ARRAY_SIZE(want));
	for (size_t i = 0; i < ix.n; i++)
		assert_string_equal(ix.e[i].run_id, want[i]);
	store_index_release(&ix);
	struct strbuf out = STRBUF_INIT;
	int notes;
	assert_int_equal(verify_quiet(&st, &out, &notes), 0);
	assert_non_null(strstr(strbuf_str(&out), "note: the chain is a tree, not a line: 2 forks and 2 first"));
	/* the next commit extends the last run in that order */
	free(commit_one(&st, "20260101T000010.000Z-o-00000004"));
	assert_int_equal(store_index_load(&st, &ix), 0);
	assert_string_equal(ix.e[ix.n - 1].run_id, "20260101T000010.000Z-o-00000004");
	assert_string_equal(ix.e[ix.n - 1].prev, ix.e[ix.n - 2].digest);
	store_index_release(&ix);
	strbuf_release(&out);
	store_release(&st);
	rm_store(root);
}

/* --- concurrency ----------------------------------------------------------- */

static void test_concurrent_writers_make_a_line(void **state)
{
	(void)state;
	struct store st = STORE_INIT;
	char *root = tmp_store();
	assert_int_equal(store_open(&st, root, 1), 0);
	enum { WRITERS = 4, EACH = 40 };
	pid_t kids[WRITERS];
	for (int w = 0; w < WRITERS; w++) {
		kids[w] = fork();
		if (!kids[w]) {
			struct store mine = STORE_INIT;
			if (store_open(&mine, root, 0) < 0)
				_exit(1);
			for (int i = 0; i < EACH; i++) {
				char *id = xstrfmt("20260101T000000.000Z-c-%02d%06d", w, i);
				json_t *m = json_pack("{s:s, s:i, s:i}", "kind", "variant", "w", w, "i", i);
				if (store_commit(&mine, id, m) < 0)
					_exit(1);
				json_decref(m);
				free(id);
			}
			_exit(0);
		}
	}
	for (int w = 0; w < WRITERS; w++) {
		int status;
		waitpid(kids[w], &status, 0);
		assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	}
	assert_line(&st, WRITERS * EACH);
	store_release(&st);
	rm_store(root);
}


/* --- names in flight -------------------------------------------------------- */

/* The claim files in root's pending/names/. */
static size_t n_claims(const char *root)
{
	char *d = xstrfmt("%s/pending/names", root);
	size_t n = count_files(d); /* .lock and .tmp-* are dotfiles */
	free(d);
	return n;
}

/* Write a claim file by hand (a claimer of another host or a dead one). */
/* a claim as another process wrote it; ns NULL: this process's PID
 * namespace, "" none (a claim written before the namespace was) */
static void write_claim_ns(const char *root, const char *file, const char *host, long pid, const char *start,
			   int age_s, const char *ns)
{
	char here[64];
	ssize_t len = readlink("/proc/self/ns/pid", here, sizeof(here) - 1);
	here[len > 0 ? (size_t)len : 0] = '\0';
	char *p = xstrfmt("%s/pending/names/%s", root, file);
	char *text = xstrfmt("{\"code\":\"B\",\"experiment\":\"e\",\"host\":\"%s\",\"name\":\"fast\",\"pid\":%ld,"
			     "\"since\":\"2026-01-01T00:00:00.000Z\",\"start\":\"%s\"%s%s%s}",
			     host, pid, start, ns && !*ns ? "" : ",\"pid_namespace\":\"", ns && !*ns ? "" : ns ? ns : here,
			     ns && !*ns ? "" : "\"");
	spit(p, text);
	if (age_s) {
		struct timespec t[2];
		clock_gettime(CLOCK_REALTIME, &t[0]);
		t[0].tv_sec -= age_s;
		t[1] = t[0];
		assert_int_equal(utimensat(AT_FDCWD, p, t, 0), 0);
	}
	free(text);
	free(p);
}

static void write_claim(const char *root, const char *file, const char *host, long pid, const char *start, int age_s)
{
	write_claim_ns(root, file, host, pid, start, age_s, NULL);
}

/* Is (e, fast) held for other code than code, by a fresh look under the lock? */
static int held(struct store *st, const char *code)
{
	struct store_claims *c = store_claims_lock(st);
	assert_non_null(c);
	char *holder = NULL;
	int r = store_claims_other(c, "e", "fast", code, &holder);
	assert_true(r ? holder != NULL && strstr(holder, "pid ") != NULL : holder == NULL);
	free(holder);
	store_claims_drop(c);
	return r;
}

/* red team 122: which batches are an experiment's latest result
 * (query_batch_unsettled, read by query_latest_result for paper's
 * run=latest and the audit's evidence) */
static void test_batch_unsettled(void **state)
{
	(void)state;
	const char *r3[] = { "a", "b", "c" }, *r1[] = { "a" };
	struct batch_row rows[2];
	struct batch_record b;
	const char *fast[] = { "fast", NULL }, *both[] = { "fast", "slow", NULL };
	memset(&b, 0, sizeof(b));
	memset(rows, 0, sizeof(rows));
	b.version = 2;
	b.rows = rows;
	b.n_rows = 2;
	rows[0].variant = "slow";
	rows[1].variant = "fast";
	for (int i = 0; i < 2; i++) {
		rows[i].outcome = OUTCOME_OK;
		rows[i].runs = r3;
		rows[i].n_runs = 3;
	}
	assert_false(query_batch_unsettled(&b, both));
	/* interrupted */
	b.interrupted = 1;
	assert_true(query_batch_unsettled(&b, both));
	b.interrupted = 0;
	/* one repeat a side (--repeats 1): no verdict */
	rows[0].runs = rows[1].runs = r1;
	rows[0].n_runs = rows[1].n_runs = 1;
	assert_true(query_batch_unsettled(&b, both));
	assert_true(query_batch_unsettled(&b, NULL));
	assert_true(query_row_few_processes(&b, &rows[1]));
	/* only the rows read count */
	rows[1].runs = r3;
	rows[1].n_runs = 3;
	assert_false(query_batch_unsettled(&b, fast));
	assert_true(query_batch_unsettled(&b, both));
	/* whatever the outcome: a failed row of 1 repeat is few (a failing
	 * variant runs every repeat; its failure still counts where batches
	 * are weighed), one of 3 is not */
	rows[1].outcome = OUTCOME_CRASHED;
	rows[1].runs = r1;
	rows[1].n_runs = 1;
	assert_true(query_row_few_processes(&b, &rows[1]));
	assert_true(query_batch_unsettled(&b, fast));
	rows[1].runs = r3;
	rows[1].n_runs = 3;
	assert_false(query_batch_unsettled(&b, fast));
	/* a v1 batch is one process by design */
	rows[1].outcome = OUTCOME_OK;
	b.version = 1;
	assert_false(query_batch_unsettled(&b, both));
}

static void test_claims(void **state)
{
	(void)state;
	struct store st = STORE_INIT;
	char *root = tmp_store();
	assert_int_equal(store_open(&st, root, 1), 0);
	char host[256] = "";
	gethostname(host, sizeof(host) - 1);

	/* a claim holds the name against other code only, in its experiment only */
	struct store_claims *a = store_claims_lock(&st);
	assert_non_null(a);
	assert_int_equal(store_claims_other(a, "e", "fast", "A", NULL), 0);
	assert_int_equal(store_claims_add(a, "e", "fast", "A"), 0);
	store_claims_unlock(a);
	char *lock = xstrfmt("%s/pending/names/.lock", root);
	assert_false(path_exists(lock)); /* the lock is held for the check alone */
	assert_int_equal(n_claims(root), 1);
	assert_true(held(&st, "B"));
	assert_false(held(&st, "A"));
	struct store_claims *c = store_claims_lock(&st);
	assert_int_equal(store_claims_other(c, "e2", "fast", "B", NULL), 0);
	assert_int_equal(store_claims_other(c, "e", "slow", "B", NULL), 0);
	store_claims_drop(c);
	/* dropped once its batch is recorded: free again */
	store_claims_drop(a);
	assert_int_equal(n_claims(root), 0);
	assert_false(held(&st, "B"));

	/* a claimer that died holding a claim: its claim is dead, and removed */
	pid_t kid = fork();
	if (!kid) {
		struct store mine = STORE_INIT;
		struct store_claims *k = store_open(&mine, root, 0) == 0 ? store_claims_lock(&mine) : NULL;
		_exit(k && store_claims_add(k, "e", "fast", "B") == 0 ? 0 : 1); /* never dropped */
	}
	int status;
	waitpid(kid, &status, 0);
	assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	assert_int_equal(n_claims(root), 1);
	assert_false(held(&st, "A"));
	assert_int_equal(n_claims(root), 0);

	/* a live process of this host whose start time is not the claim's
	 * (its pid reused): dead; with its own start (or none): live */
	write_claim(root, "reused.json", host, (long)getpid(), "1", 0);
	assert_false(held(&st, "A"));
	assert_int_equal(n_claims(root), 0);
	write_claim(root, "nostart.json", host, (long)getpid(), "", 0);
	assert_true(held(&st, "A"));
	char *nostart = xstrfmt("%s/pending/names/nostart.json", root);
	assert_int_equal(unlink(nostart), 0);
	free(nostart);

	/* another PID namespace's claim (red team 81: `unshare --pid`, pid 1,
	 * whose start here is init's): by its age; one that names none
	 * (written before the namespace was): by its pid, as before */
	write_claim_ns(root, "ns.json", host, 1, "7", 0, "pid:[1]");
	assert_true(held(&st, "A"));
	write_claim_ns(root, "ns.json", host, 1, "7", (int)(2 * STORE_CLAIM_STALE_S), "pid:[1]");
	assert_false(held(&st, "A"));
	write_claim_ns(root, "old.json", host, 1, "7", 0, "");
	assert_false(held(&st, "A"));
	assert_int_equal(n_claims(root), 0);

	/* another host's claim: live until older than the stale age */
	write_claim(root, "far.json", "elsewhere", 4242, "7", 0);
	assert_true(held(&st, "A"));
	write_claim(root, "far.json", "elsewhere", 4242, "7", (int)(2 * STORE_CLAIM_STALE_S));
	assert_false(held(&st, "A"));
	assert_int_equal(n_claims(root), 0);
	/* garbage is no claim */
	char *junk = xstrfmt("%s/pending/names/junk.json", root);
	spit(junk, "{\"name\": ");
	assert_false(held(&st, "A"));
	assert_false(path_exists(junk));

	/* a stale names lock (its owner dead) is broken */
	kid = fork();
	if (!kid)
		_exit(0);
	waitpid(kid, NULL, 0);
	char *text = xstrfmt("%ld %s 2026-01-01T00:00:00.000Z\n", (long)kid, host);
	spit(lock, text);
	util_quiet = 1;
	double t0 = mono_now();
	assert_false(held(&st, "A"));
	util_quiet = 0;
	assert_true(mono_now() - t0 < 5);
	assert_false(path_exists(lock));
	free(text);
	free(junk);
	free(lock);
	store_release(&st);
	rm_store(root);
}

/* Claimers started together, each for its own code: exactly one takes the
 * name (red team 76's race, the store's part).  The one that takes it
 * holds its claim, as a batch would, until every claimer has checked (the
 * parent closes `release` then), and drops it after. */
static void test_claims_race(void **state)
{
	(void)state;
	struct store st = STORE_INIT;
	char *root = tmp_store();
	assert_int_equal(store_open(&st, root, 1), 0);
	enum { CLAIMERS = 6 };
	pid_t kids[CLAIMERS];
	int done[2], release[2];
	assert_int_equal(pipe(done), 0);
	assert_int_equal(pipe(release), 0);
	store_lock_wait_s = 120;
	for (int w = 0; w < CLAIMERS; w++) {
		kids[w] = fork();
		if (!kids[w]) {
			close(done[0]);
			close(release[1]);
			struct store mine = STORE_INIT;
			struct store_claims *c = store_open(&mine, root, 0) == 0 ? store_claims_lock(&mine) : NULL;
			char *code = xstrfmt("code %d", w);
			char r = !c ? 2 : store_claims_other(c, "e", "fast", code, NULL) ? 1 : store_claims_add(c, "e", "fast", code) < 0 ? 2 : 0;
			store_claims_unlock(c);
			if (write(done[1], &r, 1) != 1)
				_exit(3);
			if (r == 0) { /* the batch: until every claimer has checked */
				char x;
				while (read(release[0], &x, 1) > 0)
					;
			}
			store_claims_drop(c);
			_exit(r);
		}
	}
	close(done[1]);
	close(release[0]);
	int took = 0, refused = 0;
	for (int w = 0; w < CLAIMERS; w++) {
		char r;
		assert_int_equal(read(done[0], &r, 1), 1);
		took += r == 0;
		refused += r == 1;
	}
	close(release[1]);
	close(done[0]);
	for (int w = 0; w < CLAIMERS; w++) {
		int status;
		waitpid(kids[w], &status, 0);
		assert_true(WIFEXITED(status) && WEXITSTATUS(status) <= 1);
	}
	assert_int_equal(took, 1);
	assert_int_equal(refused, CLAIMERS - 1);
	assert_int_equal(n_claims(root), 0);
	store_release(&st);
	rm_store(root);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_put_get_roundtrip),
		cmocka_unit_test(test_batch_unsettled),
		cmocka_unit_test(test_put_file),
		cmocka_unit_test(test_chain_and_verify),
		cmocka_unit_test(test_fault_injection),
		cmocka_unit_test(test_verify_detects_damage),
		cmocka_unit_test(test_verify_canonical_form),
		cmocka_unit_test(test_commit_text_is_canonical),
		cmocka_unit_test(test_resolve),
		cmocka_unit_test(test_query_find_index),
		cmocka_unit_test(test_lock_stale_rules),
		cmocka_unit_test(test_writer_killed_holding_lock),
		cmocka_unit_test(test_index_repairs),
		cmocka_unit_test(test_head_repairs),
		cmocka_unit_test(test_order_line_and_tree),
		cmocka_unit_test(test_concurrent_writers_make_a_line),
		cmocka_unit_test(test_claims),
		cmocka_unit_test(test_claims_race),
	};
	return cmocka_run_group_tests_name("store", tests, NULL, NULL);
}
