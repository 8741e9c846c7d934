/*
 * bench_verify.c - how long `evident verify` takes on a large store.
 *
 * Fills a fresh store through the real store API with N run manifests (each
 * referring to three objects: a shared spec and kernel source, and its own
 * samples, as real records do), then times store_verify() over it.  Prints
 * figures; asserts nothing (speed goals are benchmarks, not tests).
 * Usage: bench_verify [N=10000] [DIR]
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "store/store.h"

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 10000;
	char tmpl[] = "/tmp/evident-bench-verify-XXXXXX";
	const char *dir = argc > 2 ? argv[2] : mkdtemp(tmpl);
	char *root = xstrfmt("%s/store", dir);
	struct store st = STORE_INIT;
	if (store_open(&st, root, 1) < 0)
		return 1;
	char spec[65], src[65];
	store_put(&st, "name: bench\n", 12, spec);
	store_put(&st, "/* kernel */\n", 13, src);
	double t0 = mono_now();
	for (int i = 0; i < n; i++) {
		char body[256], samples[65], id[96];
		int len = snprintf(body, sizeof(body), "# samples\n%d.25\n%d.5\n%d.75\n", 100 + i, 101 + i, 99 + i);
		store_put(&st, body, (size_t)len, samples);
		json_t *m = json_pack("{s:s, s:s, s:i, s:{s:s}, s:{s:[{s:s, s:s}]}, s:{s:s}}", "kind", "variant",
				      "experiment", "bench", "i", i, "spec", "object", spec, "code", "sources",
				      "path", "k.cu", "object", src, "timing", "samples_object", samples);
		snprintf(id, sizeof(id), "20260101T000000.000Z-bench-%08d", i);
		if (store_commit(&st, id, m) < 0)
			return 1;
		json_decref(m);
	}
	double t1 = mono_now();
	struct strbuf out = STRBUF_INIT;
	int notes;
	size_t no, nr;
	int problems = store_verify(&st, &out, &notes, &no, &nr);
	double t2 = mono_now();
	printf("bench-verify: store %s\n", root);
	printf("  write %d runs (%zu objects): %.2f s (%.2f ms per run, chain lookup included)\n", n, no,
	       t1 - t0, (t1 - t0) * 1e3 / n);
	printf("  verify %zu runs, %zu objects: %.2f s, %d problems\n", nr, no, t2 - t1, problems);
	strbuf_release(&out);
	store_release(&st);
	free(root);
	return problems != 0;
}
