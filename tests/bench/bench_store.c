/*
 * bench_store.c - what the store costs as it grows: commit per run, index
 * load and id resolution (what `ls`, `show`, `paper` and `audit` stand
 * on), a rebuild of the index from the manifests, and verify.
 *
 * Fills a fresh store in a new directory under DIR (default /tmp; deleted
 * after; /dev/shm shows the cost without the disk's fsyncs) through the real API with N runs; each manifest is about 5 kB of
 * nested JSON shaped like a variant record, and refers to a spec and a
 * kernel source shared by all and to its own samples object (200 numbers).
 * A synthetic indexer writes ~150 bytes of attrs a run, as the record
 * module's will.  Prints a table; asserts nothing (speed goals are
 * benchmarks, not tests).  Goals: commit < 1 ms a run at 10^5 runs,
 * index load + resolve well under 2 s, verify < 20 s at 10^5.
 * Usage: bench_store [N=100000] [DIR=/tmp]
 */
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "store/store.h"

/* what bench_indexer reads: verify and index rebuilds hand it a view of these */
static const char *const bench_members[] = { "experiment", "kind", "timing", "outcome", "variant", "batch_id", NULL };

static char *bench_indexer(json_t *m)
{
	return xstrfmt("{\"experiment\":\"%s\",\"kind\":\"%s\",\"median_us\":%.3f,\"outcome\":\"%s\","
		       "\"variant\":\"%s\",\"batch_id\":\"%s\"}",
		       json_string_value(json_object_get(m, "experiment")),
		       json_string_value(json_object_get(m, "kind")),
		       json_real_value(json_object_get(json_object_get(m, "timing"), "median_us")),
		       json_string_value(json_object_get(m, "outcome")),
		       json_string_value(json_object_get(m, "variant")),
		       json_string_value(json_object_get(m, "batch_id")));
}

/* A manifest shaped like a variant record (about 5 kB once canonical). */
static json_t *make_manifest(struct store *st, int i, const char *spec, const char *src)
{
	struct strbuf sb = STRBUF_INIT;
	strbuf_addf(&sb, "# samples (us) of run %d\n", i);
	for (int k = 0; k < 200; k++)
		strbuf_addf(&sb, "%.4f\n", 100.0 + (i % 97) + k * 0.001);
	char samples[SHA256_HEX_LEN + 1];
	if (store_put(st, sb.buf, sb.len, samples) < 0)
		exit(1);
	strbuf_release(&sb);
	json_t *env = json_object();
	for (int k = 0; k < 40; k++) {
		char key[32], val[64];
		snprintf(key, sizeof(key), "env_%02d", k);
		snprintf(val, sizeof(val), "value-%d-of-the-build-environment-%d", k, i % 7);
		json_object_set_new(env, key, json_string(val));
	}
	char variant[64];
	snprintf(variant, sizeof(variant), "BLOCK_M-%d_BLOCK_N-%d", 1 << (i % 5), 1 << (i % 4));
	json_t *m = json_pack(
		"{s:s, s:s, s:s, s:s, s:s, s:s, s:{s:s, s:b, s:n, s:f}, "
		"s:{s:[{s:s, s:s, s:s}, {s:s, s:s, s:s}], s:s, s:s}, "
		"s:{s:f, s:f, s:b, s:I, s:i}, s:{s:s, s:i, s:f, s:f, s:f, s:f, s:i}, s:{s:s}, s:o}",
		"kind", "variant", "experiment", "bench", "backend", "host", "variant", variant, "outcome",
		"ok", "batch_id", "20260101T000000.000Z-bench-00000000-batch", "build", "log_object", spec,
		"cached", 1, "reason", "seconds", 2.5, "code", "sources", "object", src, "path",
		"kernels/host/attn_blocked.c", "sha256", src, "object", spec, "path", "kernels/evident_kernel.h",
		"sha256", spec, "binary_sha256", src, "build_key", spec, "correctness", "atol", 2e-3, "rtol",
		2e-3, "pass", 1, "seed0", (json_int_t)255495610222579LL, "seeds", 2, "timing", "samples_object",
		samples, "n", 200, "median_us", 100.0 + i % 97, "mean_us", 100.5 + i % 97, "ci_lo_us",
		99.0 + i % 97, "ci_hi_us", 101.0 + i % 97, "warmup_ms", 10, "spec", "object", spec,
		"environment", env);
	if (!m)
		die("bench: json_pack failed");
	return m;
}

struct window {
	const char *label;
	int from, to; /* runs [from, to) */
	double sum_s, max_s, cpu_s;
};

/* CPU time of this process: on a machine shared with others, wall time
 * includes waiting for a core; CPU time does not (nor waits for the disk). */
static double cpu_now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static int rm_one(const char *path, const struct stat *sb, int flag, struct FTW *ftw)
{
	(void)sb;
	(void)flag;
	(void)ftw;
	return remove(path);
}

static void row(const char *what, size_t runs, const char *value)
{
	printf("  %-44s %8zu  %s\n", what, runs, value);
}

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 100000;
	if (n < 1000)
		n = 1000;
	char *tmpl = xstrfmt("%s/evident-bench-store-XXXXXX", argc > 2 ? argv[2] : "/tmp");
	const char *dir = mkdtemp(tmpl);
	if (!dir)
		die("bench: cannot make a directory under '%s'", argc > 2 ? argv[2] : "/tmp");
	char *root = xstrfmt("%s/store", dir);
	struct store st = STORE_INIT;
	store_set_indexer(bench_indexer, "bench/1", bench_members);
	if (store_open(&st, root, 1) < 0)
		return 1;
	char spec[65], src[65];
	store_put(&st, "name: bench\n", 12, spec);
	store_put(&st, "/* kernel */\n", 13, src);

	struct window w[] = {
		{ "commit, mean per run (runs 1-1000)", 0, 1000, 0, 0, 0 },
		{ "commit, mean per run (runs 9001-10^4)", 9000, 10000, 0, 0, 0 },
		{ "commit, mean per run (last 1000 runs)", n - 1000, n, 0, 0, 0 },
	};
	size_t manifest_bytes = 0;
	char **ids = xcalloc((size_t)n, sizeof(char *));
	double t_fill = mono_now();
	for (int i = 0; i < n; i++) {
		json_t *m = make_manifest(&st, i, spec, src);
		ids[i] = store_new_run_id("bench");
		double t0 = mono_now(), c0 = cpu_now();
		if (store_commit(&st, ids[i], m) < 0)
			return 1;
		double dt = mono_now() - t0, dc = cpu_now() - c0;
		for (size_t k = 0; k < ARRAY_SIZE(w); k++)
			if (i >= w[k].from && i < w[k].to) {
				w[k].sum_s += dt;
				w[k].cpu_s += dc;
				w[k].max_s = dt > w[k].max_s ? dt : w[k].max_s;
			}
		if (i == 0) {
			char *t = store_canonical(m);
			manifest_bytes = strlen(t);
			free(t);
		}
		json_decref(m);
	}
	t_fill = mono_now() - t_fill;

	printf("bench-store: %d runs, manifests of %.1f kB, one samples object each, in %s\n", n,
	       manifest_bytes / 1024.0, root);
	printf("  %-44s %8s  %s\n", "what", "runs", "time");
	char v[128];
	for (size_t k = 0; k < ARRAY_SIZE(w); k++) {
		if (w[k].to > n || (k == 1 && n < 10000) || (k == 2 && n <= 10000))
			continue;
		int nw = w[k].to - w[k].from;
		snprintf(v, sizeof(v), "%.3f ms wall, %.3f ms CPU (slowest %.1f ms)", w[k].sum_s * 1e3 / nw,
			 w[k].cpu_s * 1e3 / nw, w[k].max_s * 1e3);
		row(w[k].label, (size_t)w[k].to, v);
	}
	snprintf(v, sizeof(v), "%.1f s (samples object and manifest)", t_fill);
	row("fill, all runs", (size_t)n, v);

	/* readers: index load (fresh), resolve, store_load by hash prefix */
	struct store_index ix = STORE_INDEX_INIT;
	int reps = 5;
	double t0 = mono_now(), c0 = cpu_now();
	for (int r = 0; r < reps; r++) {
		store_index_release(&ix);
		if (store_index_load(&st, &ix) < 0)
			return 1;
	}
	snprintf(v, sizeof(v), "%.1f ms wall, %.1f ms CPU", (mono_now() - t0) * 1e3 / reps,
		 (cpu_now() - c0) * 1e3 / reps);
	row("index load (index fresh)", ix.n, v);
	int ok = 0, amb = 0;
	t0 = mono_now();
	for (int r = 0; r < 1000; r++) {
		const char *id = ids[(size_t)r * 7919 % (size_t)n];
		char prefix[16];
		snprintf(prefix, sizeof(prefix), "%s", strrchr(id, '-') + 1);
		size_t at;
		struct strbuf why = STRBUF_INIT;
		int rc = store_resolve(&ix, prefix, &at, &why);
		ok += rc == 0;
		amb += rc == STORE_AMBIGUOUS;
		strbuf_release(&why);
	}
	snprintf(v, sizeof(v), "%.3f ms (%d unique, %d ambiguous of 1000)", (mono_now() - t0), ok, amb);
	row("resolve an 8-hex hash prefix", ix.n, v);
	store_index_release(&ix);
	t0 = mono_now();
	json_t *m = NULL;
	char hash[16];
	snprintf(hash, sizeof(hash), "%s", strrchr(ids[n / 2], '-') + 1);
	int lrc = store_load(&st, hash, &m);
	json_decref(m);
	snprintf(v, sizeof(v), "%.1f ms%s", (mono_now() - t0) * 1e3, lrc ? " (failed)" : "");
	row("store_load by hash prefix (load+resolve+read)", (size_t)n, v);

	/* a run added behind the index's back, as by git pull */
	{
		json_t *x = make_manifest(&st, n, spec, src);
		char *xid = store_new_run_id("pulled");
		json_object_set_new(x, "run_id", json_string(xid));
		json_object_set_new(x, "prev", json_null());
		char *text = store_canonical(x);
		char dg[65];
		sha256_hex(text, strlen(text), dg);
		free(text);
		json_object_set_new(x, "digest", json_string(dg));
		text = store_canonical(x);
		char *path = xstrfmt("%s/runs/%s.json", root, xid);
		FILE *f = fopen(path, "w");
		if (!f || fputs(text, f) < 0 || fclose(f))
			die("bench: cannot write '%s'", path);
		free(path);
		free(text);
		free(xid);
		json_decref(x);
		t0 = mono_now();
		store_index_load(&st, &ix);
		snprintf(v, sizeof(v), "%.1f ms", (mono_now() - t0) * 1e3);
		row("index load, 1 run added behind its back", ix.n, v);
		store_index_release(&ix);
	}
	/* index deleted: rebuilt from every manifest (a fresh clone's first use) */
	char *ipath = xstrfmt("%s/index", root);
	unlink(ipath);
	free(ipath);
	t0 = mono_now();
	c0 = cpu_now();
	store_index_load(&st, &ix);
	snprintf(v, sizeof(v), "%.2f s wall, %.2f s CPU", mono_now() - t0, cpu_now() - c0);
	row("index rebuild (index deleted)", ix.n, v);
	store_index_release(&ix);

	/* verify */
	struct strbuf out = STRBUF_INIT;
	int notes;
	size_t no, nr;
	t0 = mono_now();
	c0 = cpu_now();
	int problems = store_verify(&st, &out, &notes, &no, &nr);
	snprintf(v, sizeof(v), "%.1f s wall, %.1f s CPU (%zu objects, %d problems, %d notes)", mono_now() - t0,
		 cpu_now() - c0, no, problems, notes);
	row("verify", nr, v);
	strbuf_release(&out);

	store_release(&st);
	for (int i = 0; i < n; i++)
		free(ids[i]);
	free(ids);
	if (nftw(dir, rm_one, 16, FTW_DEPTH | FTW_PHYS) < 0)
		fprintf(stderr, "bench: cannot remove '%s'\n", dir);
	free(root);
	free(tmpl);
	return problems != 0;
}
