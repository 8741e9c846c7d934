/*
 * bench_readers.c - what the commands that read the store cost at 10^5
 * real records: `ls`, `ls --batches`, `show`, `paper --check`, `audit`
 * and `verify`, each run as the user runs it (the evident binary, spawned
 * with an argv array), on a store filled with copies of a committed batch.
 *
 * bench_store measures the store's API with synthetic manifests; this one
 * measures the readers on records in the real format, indexed by the real
 * record module.  It copies one committed batch of the study's store (by
 * default the latest `aa` batch of artifacts/: 6 variants x 3 repeats, its
 * batch record and the objects they name) again and again into a fresh
 * store under DIR, giving every copy new run and batch ids, until N runs
 * are recorded.  A small report with a value, a table and two claims on
 * the experiment is generated once with `evident paper`, then `paper
 * --check` and `audit --strict` read it.  Every command runs in the
 * current directory (the repository, where the records' sources are).  Prints a table of wall times;
 * asserts nothing (speed goals are benchmarks, not tests).  Goals (issue
 * "One owner for the record"): commit < 1 ms a run at 10^5 runs; `ls`,
 * `paper --check` and `audit` < 2 s each; `verify` < 20 s.  The store is
 * deleted after (kept, for profiling, when BENCH_KEEP is set).
 * Usage: bench_readers EVIDENT [N=100000] [DIR=/tmp] [SRC=artifacts] [EXPERIMENT=aa]
 */
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/runcmd.h"
#include "record/record.h"
#include "store/query.h"
#include "store/store.h"

static int rm_one(const char *path, const struct stat *sb, int flag, struct FTW *ftw)
{
	(void)sb;
	(void)flag;
	(void)ftw;
	return remove(path);
}

/* Copies every object a manifest names (any 64-hex string that the source
 * store holds) into dst, once. */
static void copy_objects(struct store *src, struct store *dst, json_t *j)
{
	if (json_is_string(j)) {
		const char *s = json_string_value(j);
		char got[SHA256_HEX_LEN + 1];
		struct strbuf sb = STRBUF_INIT;
		char *path = strlen(s) == 64 && strspn(s, "0123456789abcdef") == 64 ? store_object_path(src, s) : NULL;
		if (path && path_exists(path) && store_get(src, s, &sb) == 0) {
			if (store_put(dst, sb.buf, sb.len, got) < 0 || strcmp(got, s))
				die("bench: copying object %s failed", s);
		}
		strbuf_release(&sb);
		free(path);
	} else if (json_is_object(j)) {
		const char *k;
		json_t *v;
		json_object_foreach(j, k, v)
			copy_objects(src, dst, v);
	} else if (json_is_array(j)) {
		size_t i;
		json_t *v;
		json_array_foreach(j, i, v)
			copy_objects(src, dst, v);
	}
}

/* Returns text with every occurrence of from[i] replaced by to[i]; the
 * caller frees it. */
static char *replace_all(const char *text, char **from, char **to, size_t n)
{
	struct strbuf sb = STRBUF_INIT;
	const char *p = text;
	while (*p) {
		size_t i = n;
		if (*p == from[0][0]) /* the ids share their first character (the year) */
			for (i = 0; i < n; i++)
				if (!strncmp(p, from[i], strlen(from[i])))
					break;
		if (i < n) {
			strbuf_addstr(&sb, to[i]);
			p += strlen(from[i]);
		} else {
			strbuf_addch(&sb, *p++);
		}
	}
	return strbuf_detach(&sb, NULL);
}

/* Runs EVIDENT with args (NULL-terminated) in cwd, n times; returns the
 * median wall seconds and prints one row. */
static void timed(const char *label, const char *cwd, int reps, const char *const *argv)
{
	double best[9];
	int rc = 0;
	for (int r = 0; r < reps && r < 9; r++) {
		struct strbuf out = STRBUF_INIT, err = STRBUF_INIT;
		struct run_opts o = { .argv = argv, .cwd = cwd, .out = &out, .err = &err };
		struct run_result res;
		if (run_command(&o, &res) < 0)
			die("bench: cannot run %s", argv[0]);
		best[r] = res.seconds;
		rc = res.exited ? res.exit_code : 128 + res.signo;
		if (rc != 0 && r == 0)
			fprintf(stderr, "bench: '%s' exited %d: %.600s%.600s\n", label, rc, strbuf_str(&out),
				strbuf_str(&err));
		strbuf_release(&out);
		strbuf_release(&err);
	}
	for (int i = 1; i < reps; i++)
		for (int k = i; k > 0 && best[k] < best[k - 1]; k--) {
			double t = best[k];
			best[k] = best[k - 1];
			best[k - 1] = t;
		}
	printf("  %-40s %7.3f s  (median of %d%s)\n", label, best[reps / 2], reps, rc ? ", FAILED" : "");
}

int main(int argc, char **argv)
{
	if (argc < 2)
		die("usage: bench_readers EVIDENT [N=100000] [DIR=/tmp] [SRC=artifacts] [EXPERIMENT=aa]");
	const char *evident = argv[1];
	int n = argc > 2 ? atoi(argv[2]) : 100000;
	const char *base = argc > 3 ? argv[3] : "/tmp";
	const char *srcroot = argc > 4 ? argv[4] : "artifacts";
	const char *exp = argc > 5 ? argv[5] : "aa";
	store_set_indexer(record_index_attrs, RECORD_ATTRS_VERSION, record_index_members);

	/* the template: the experiment's latest batch and its runs, batch last */
	struct query q = QUERY_INIT;
	if (query_open(&q, srcroot) < 0)
		return 1;
	struct strbuf why = STRBUF_INIT;
	const struct batch_record *tb = query_batch(&q, exp, "latest", NULL, &why);
	if (!tb)
		die("bench: no batch of '%s' in '%s': %s", exp, srcroot, strbuf_str(&why));
	strbuf_release(&why);
	size_t cap = 1, nt = 0;
	for (size_t r = 0; r < tb->n_rows; r++)
		cap += tb->rows[r].n_runs ? tb->rows[r].n_runs : 1;
	const char **ids = xcalloc(cap, sizeof(char *));
	size_t nids = 0;
	for (size_t r = 0; r < tb->n_rows; r++) {
		const struct batch_row *row = &tb->rows[r];
		if (row->n_runs)
			for (size_t k = 0; k < row->n_runs; k++)
				ids[nids++] = row->runs[k];
		else if (row->run_id)
			ids[nids++] = row->run_id;
	}
	ids[nids++] = tb->run_id;
	char **from = xcalloc(nids, sizeof(char *));
	char **tmpl = xcalloc(nids, sizeof(char *));
	const char *batch_id = tb->batch_id, *variant0 = tb->rows[0].variant;
	int repeats = tb->repeats;
	struct store dst = STORE_INIT;
	char *tmpd = xstrfmt("%s/evident-bench-readers-XXXXXX", base);
	if (!mkdtemp(tmpd))
		die("bench: cannot make a directory under '%s'", base);
	char *root = xstrfmt("%s/store", tmpd);
	if (store_open(&dst, root, 1) < 0)
		return 1;
	for (size_t i = 0; i < nids; i++) {
		const char *id = ids[i];
		json_t *m = NULL;
		if (store_load(&q.st, id, &m) < 0)
			return 1;
		copy_objects(&q.st, &dst, m);
		json_object_del(m, "prev");
		json_object_del(m, "digest");
		from[nt] = xstrdup(id);
		tmpl[nt++] = store_canonical(m);
		json_decref(m);
	}
	char **to = xcalloc(nt, sizeof(char *));

	/* fill: copies of the batch with new ids */
	double t_fill = mono_now(), t_commit = 0, slowest = 0;
	int runs = 0, batches = 0;
	char *some_run = NULL;
	while (runs < n) {
		for (size_t i = 0; i < nt; i++) {
			free(to[i]);
			char *id = store_new_run_id(exp);
			to[i] = i + 1 < nt ? id : xstrfmt("%s-batch", id);
			if (i + 1 == nt)
				free(id);
		}
		for (size_t i = 0; i < nt; i++) {
			char *text = replace_all(tmpl[i], from, to, nt);
			json_error_t jerr;
			json_t *m = json_loads(text, 0, &jerr);
			if (!m)
				die("bench: a copied record does not parse: %s", jerr.text);
			double t0 = mono_now();
			if (store_commit(&dst, to[i], m) < 0)
				return 1;
			double dt = mono_now() - t0;
			t_commit += dt;
			slowest = dt > slowest ? dt : slowest;
			json_decref(m);
			free(text);
			runs++;
		}
		batches++;
		if (!some_run)
			some_run = xstrdup(to[0]);
	}
	t_fill = mono_now() - t_fill;
	store_release(&dst);
	printf("bench-readers: %d records (%d copies of batch %s, %zu records each) in %s\n", runs, batches,
	       batch_id, nt, root);
	printf("  %-40s %7.3f ms (slowest %.1f ms); fill %.1f s\n", "commit, mean per record", t_commit * 1e3 / runs,
	       slowest * 1e3, t_fill);

	/* a report on the experiment, generated once */
	char *doc = xstrfmt("%s/report.md", tmpd);
	FILE *f = fopen(doc, "w");
	if (!f)
		die("bench: cannot write '%s'", doc);
	fprintf(f,
		"# bench\n\n<!-- evident:store path=%s -->\n\n"
		"The first variant's median: <!-- evident:value experiment=%s variant=%s run=latest "
		"stat=median_us --><!-- /evident:value -->.\n\n"
		"<!-- evident:table experiment=%s run=latest --><!-- /evident:table -->\n\n"
		"<!-- claim: setting experiment=%s key=repeats value=%d -->\n",
		root, exp, variant0, exp, exp, repeats);
	if (fclose(f))
		die("bench: cannot write '%s'", doc);
	const char *gen[] = { evident, "paper", doc, NULL };
	timed("paper (generate, first time)", NULL, 1, gen);

	const char *ls[] = { evident, "ls", "--store", root, NULL };
	const char *lsb[] = { evident, "ls", "--batches", "--store", root, NULL };
	const char *lsx[] = { evident, "ls", "--experiment", exp, "--store", root, NULL };
	const char *show[] = { evident, "show", "--store", root, some_run, NULL };
	const char *check[] = { evident, "paper", "--check", doc, NULL };
	const char *audit[] = { evident, "audit", "--strict", doc, NULL };
	const char *verify[] = { evident, "verify", "--store", root, NULL };
	timed("ls", NULL, 3, ls);
	timed("ls --batches", NULL, 3, lsb);
	timed("ls --experiment", NULL, 3, lsx);
	timed("show RUN", NULL, 3, show);
	timed("paper --check", NULL, 3, check);
	timed("audit --strict", NULL, 3, audit);
	timed("verify", NULL, 1, verify);

	if (getenv("BENCH_KEEP"))
		printf("kept: %s (BENCH_KEEP)\n", tmpd);
	else if (nftw(tmpd, rm_one, 16, FTW_DEPTH | FTW_PHYS) < 0)
		fprintf(stderr, "bench: cannot remove '%s'\n", tmpd);
	for (size_t i = 0; i < nt; i++) {
		free(from[i]);
		free(to[i]);
		free(tmpl[i]);
	}
	free(from);
	free(to);
	free(tmpl);
	free(some_run);
	free(doc);
	free(ids);
	query_release(&q);
	free(root);
	free(tmpd);
	return 0;
}
