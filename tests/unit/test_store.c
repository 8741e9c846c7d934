/*
 * test_store.c - unit tests of the immutable store: objects, manifests,
 * the hash chain, verify, and fault injection (SQLite's habit): every
 * write, fsync and link is failed in turn, and the store must verify after
 * each failure with nothing half-written visible.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "store/store.h"

static char *tmp_store(void)
{
	char tmpl[] = "/tmp/evident-store-XXXXXX";
	char *d = mkdtemp(tmpl);
	assert_non_null(d);
	return xstrfmt("%s/st", d);
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
	strbuf_release(&sb);
	store_release(&st);
	free(root);
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
	assert_int_equal(store_commit(&st, "20260101T000000.000Z-a-1", m1), 0);
	assert_true(json_is_null(json_object_get(m1, "prev")));
	json_t *m2 = json_pack("{s:s}", "kind", "variant");
	assert_int_equal(store_commit(&st, "20260101T000000.001Z-a-2", m2), 0);
	assert_string_equal(json_string_value(json_object_get(m2, "prev")),
			    json_string_value(json_object_get(m1, "digest")));
	/* never overwritten */
	util_quiet = 1;
	json_t *m3 = json_pack("{s:s}", "kind", "variant");
	assert_int_not_equal(store_commit(&st, "20260101T000000.001Z-a-2", m3), 0);
	util_quiet = 0;
	struct strbuf out = STRBUF_INIT;
	int notes;
	size_t no, nr;
	assert_int_equal(store_verify(&st, &out, &notes, &no, &nr), 0);
	assert_int_equal(nr, 2);
	assert_int_equal(no, 1);
	/* loading by prefix, and refusing paths */
	json_t *got;
	assert_int_equal(store_load(&st, "20260101T000000.000Z", &got), 0);
	json_decref(got);
	util_quiet = 1;
	assert_int_equal(store_load(&st, "20260101T000000.00", &got), -1); /* ambiguous */
	assert_int_equal(store_load(&st, "../runs/x", &got), -1);
	util_quiet = 0;
	json_decref(m1);
	json_decref(m2);
	json_decref(m3);
	strbuf_release(&out);
	store_release(&st);
	free(root);
}

/* Fail the Nth write/fsync/link for N = 0.. until a commit succeeds: after
 * every failure the store verifies and holds no partial manifest. */
static void test_fault_injection(void **state)
{
	(void)state;
	struct store st = STORE_INIT;
	char *root = tmp_store();
	assert_int_equal(store_open(&st, root, 1), 0);
	char *runs = xstrfmt("%s/runs", root);
	int committed = 0, failures = 0;
	util_quiet = 1;
	for (int n = 0; n < 64 && !committed; n++) {
		char id[64];
		snprintf(id, sizeof(id), "20260101T000000.%03dZ-f-%d", n, n);
		size_t before = count_files(runs);
		store_fail_after = n;
		char hex[65];
		char body[32];
		snprintf(body, sizeof(body), "samples %d\n", n);
		int rc = store_put(&st, body, strlen(body), hex);
		json_t *m = json_pack("{s:s, s:s}", "kind", "variant", "samples_object", hex);
		if (rc == 0)
			rc = store_commit(&st, id, m);
		store_fail_after = -1;
		json_decref(m);
		size_t after = count_files(runs);
		if (rc == 0) {
			committed = 1;
			assert_int_equal(after, before + 1);
		} else {
			failures++;
			assert_int_equal(after, before); /* nothing half-written visible */
		}
		struct strbuf out = STRBUF_INIT;
		int notes;
		size_t no, nr;
		assert_int_equal(store_verify(&st, &out, &notes, &no, &nr), 0);
		strbuf_release(&out);
	}
	util_quiet = 0;
	assert_true(committed);
	assert_true(failures >= 5); /* write, fsync, link of the object; write, fsync of the manifest */
	free(runs);
	store_release(&st);
	free(root);
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
	free(root);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_put_get_roundtrip),
		cmocka_unit_test(test_chain_and_verify),
		cmocka_unit_test(test_fault_injection),
		cmocka_unit_test(test_verify_detects_damage),
	};
	return cmocka_run_group_tests_name("store", tests, NULL, NULL);
}
