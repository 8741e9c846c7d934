/*
 * cmd_show.c - `evident show RUN_ID`: one record, readable (identity,
 * outcome, code provenance, build, machine and GPU state, correctness per
 * seed, timing statistics, comparison, cost), or with --json the manifest
 * itself.  --object HASH prints a stored object (a diff, a build log, the
 * samples) and --diff prints the record's working-tree patch.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/evident.h"
#include "store/store.h"

static const char usage[] =
	"usage: evident show [--store DIR] [--json | --diff | --log | --samples] RUN_ID\n"
	"       evident show [--store DIR] --object HASH\n"
	"\n"
	"RUN_ID may be a unique prefix; run ids are listed by 'evident ls'.\n"
	"  --json      print the record (the manifest) itself\n"
	"  --diff      print the patch of a dirty tree (apply with 'git apply' on the commit)\n"
	"  --log       print the build log and the worker's log\n"
	"  --samples   print the timing samples, one per line (microseconds)\n"
	"  --object H  print stored object H\n";

static const char *js(json_t *o, const char *k)
{
	const char *s = json_string_value(json_object_get(o, k));
	return s ? s : "-";
}

static double jn(json_t *o, const char *k)
{
	return json_number_value(json_object_get(o, k));
}

static int print_object(struct store *st, const char *hex)
{
	struct strbuf sb = STRBUF_INIT;
	if (!hex || store_get(st, hex, &sb) < 0) {
		strbuf_release(&sb);
		return -1;
	}
	fwrite(strbuf_str(&sb), 1, sb.len, stdout);
	strbuf_release(&sb);
	return 0;
}

static void show_text(json_t *m)
{
	json_t *code = json_object_get(m, "code"), *git = json_object_get(code, "git");
	printf("run        %s\n", js(m, "run_id"));
	printf("experiment %s (%s), batch %s\n", js(m, "experiment"), js(m, "format"), js(m, "batch_id"));
	if (!strcmp(js(m, "kind"), "batch")) {
		json_t *t = json_object_get(m, "totals");
		printf("variants   %lld run, %lld ok, %lld failed; wall %.1f s, GPU %.1f s\n",
		       json_integer_value(json_object_get(t, "variants")), json_integer_value(json_object_get(t, "ok")),
		       json_integer_value(json_object_get(t, "failed")), jn(t, "wall_s"), jn(t, "gpu_s"));
		size_t i;
		json_t *r;
		json_array_foreach(json_object_get(m, "variants"), i, r)
			printf("  %-24s %-16s %s\n", js(r, "variant"), js(r, "outcome"), js(r, "run_id"));
		return;
	}
	printf("variant    %s%s%s  kernel %s\n", js(m, "variant"),
	       json_is_true(json_object_get(m, "is_baseline")) ? " (baseline)" : "",
	       json_is_true(json_object_get(m, "is_reference")) ? " (reference)" : "", js(m, "kernel"));
	const char *k;
	json_t *v;
	printf("params    ");
	json_object_foreach(json_object_get(m, "params"), k, v) printf(" %s=%s", k, json_string_value(v));
	printf("\noutcome    %s%s%s\n", js(m, "outcome"), json_is_string(json_object_get(m, "reason")) ? ": " : "",
	       json_is_string(json_object_get(m, "reason")) ? js(m, "reason") : "");
	printf("when       %s .. %s (%.2f s)\n", js(m, "started_utc"), js(m, "finished_utc"), jn(m, "wall_s"));
	printf("\ncode       commit %s on %s%s\n", js(git, "commit"), js(git, "branch"),
	       json_is_true(json_object_get(git, "dirty")) ? ", DIRTY (patch: evident show --diff)" : ", clean");
	size_t i;
	json_array_foreach(json_object_get(code, "sources"), i, v)
		printf("  source   %s  sha256 %.16s\n", js(v, "path"), js(v, "sha256"));
	printf("  build key %.16s  device code sha256 %.16s\n", js(code, "build_key"), js(code, "binary_sha256"));
	json_t *b = json_object_get(m, "build");
	printf("build      %s%s, %.2f s", js(b, "status"), json_is_true(json_object_get(b, "cached")) ? " (cached)" : "",
	       jn(b, "seconds"));
	json_t *res = json_object_get(b, "resources");
	if (json_object_size(res)) {
		char *r = json_dumps(res, JSON_COMPACT | JSON_SORT_KEYS);
		printf("; resources %s", r);
		free(r);
	}
	printf("\n");
	json_t *ne = json_object_get(m, "no_effect_params");
	json_array_foreach(ne, i, v) printf("  NOTE     %s\n", json_string_value(v));
	json_t *mach = json_object_get(m, "machine"), *dev = json_object_get(m, "device");
	printf("\nmachine    %s, %s, %s\n", js(mach, "host"), js(mach, "cpu"), js(mach, "os"));
	if (json_object_get(dev, "name"))
		printf("device     %s (cc %s), driver %s\n", js(dev, "name"), js(dev, "compute_capability"),
		       js(dev, "driver_version"));
	json_t *gs = json_object_get(m, "gpu_state");
	if (json_is_true(json_object_get(gs, "throttled")))
		printf("  WARNING  the GPU was throttling during this run (gpu_state.after)\n");
	json_t *c = json_object_get(m, "correctness");
	printf("\ncorrectness %s, atol %g rtol %g\n", json_is_true(json_object_get(c, "pass")) ? "pass" : "FAIL",
	       jn(c, "atol"), jn(c, "rtol"));
	json_array_foreach(json_object_get(c, "results"), i, v)
		printf("  seed %-16lld max|err| %-10.3g relL2 %-10.3g NaN %lld unwritten %lld %s\n",
		       json_integer_value(json_object_get(v, "seed")), jn(v, "max_abs_err"), jn(v, "rel_l2"),
		       json_integer_value(json_object_get(v, "nan_count")),
		       json_integer_value(json_object_get(v, "unwritten")),
		       json_is_true(json_object_get(v, "pass")) ? "pass" : "FAIL");
	json_array_foreach(json_object_get(c, "recheck"), i, v)
		printf("  recheck after timing: max|err| %.3g %s\n", jn(v, "max_abs_err"),
		       json_is_true(json_object_get(v, "pass")) ? "pass" : "FAIL");
	json_t *t = json_object_get(m, "timing");
	if (json_is_object(t)) {
		json_t *s = json_object_get(t, "stats"), *meth = json_object_get(t, "method");
		printf("\ntiming     %lld samples, clock %s, cache %s, mode %s\n", json_integer_value(json_object_get(t, "n")),
		       js(meth, "clock"), js(meth, "cache"), js(meth, "mode"));
		if (json_is_object(s)) {
			json_t *ci = json_object_get(s, "median_ci");
			printf("  median %.3f us [%.3f, %.3f], mean %.3f, min %.3f, max %.3f, p5 %.3f, p95 %.3f\n",
			       jn(s, "median"), json_number_value(json_array_get(ci, 0)),
			       json_number_value(json_array_get(ci, 1)), jn(s, "mean"), jn(s, "min"), jn(s, "max"),
			       jn(s, "p5"), jn(s, "p95"));
		}
	}
	json_t *cmp = json_object_get(m, "comparison");
	if (json_is_object(cmp)) {
		json_t *sp = json_object_get(cmp, "speedup"), *mw = json_object_get(cmp, "mann_whitney");
		json_t *ci = json_object_get(sp, "ci");
		printf("vs %-8s speedup %.3fx [%.3f, %.3f], Mann-Whitney p %.3g (%s), verdict %s\n",
		       js(cmp, "baseline"), jn(sp, "ratio"), json_number_value(json_array_get(ci, 0)),
		       json_number_value(json_array_get(ci, 1)), jn(mw, "p"), js(mw, "method"), js(cmp, "verdict"));
	}
	json_t *cost = json_object_get(m, "cost");
	printf("\ncost       wall %.2f s, GPU %.2f s, ", jn(cost, "wall_s"), jn(cost, "gpu_s"));
	if (json_is_number(json_object_get(cost, "usd")))
		printf("$%.5f at $%.2f/h (%s)\n", jn(cost, "usd"), jn(cost, "price_usd_per_h"), js(cost, "source"));
	else
		printf("n/a (%s)\n", js(cost, "reason"));
}

int cmd_show(int argc, const char **argv)
{
	if (wants_help(argc, argv)) {
		usage_print(usage, 0);
		return EV_OK;
	}
	const char *dir = NULL, *id = NULL, *object = NULL, *mode = "text";
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--store") && i + 1 < argc)
			dir = argv[++i];
		else if (!strcmp(argv[i], "--object") && i + 1 < argc)
			object = argv[++i];
		else if (!strcmp(argv[i], "--json") || !strcmp(argv[i], "--diff") ||
			 !strcmp(argv[i], "--log") || !strcmp(argv[i], "--samples"))
			mode = argv[i] + 2;
		else if (argv[i][0] == '-') {
			error("unknown option '%s'; see 'evident show --help'", argv[i]);
			return EV_USAGE;
		} else if (!id)
			id = argv[i];
		else {
			error("one run at a time; see 'evident show --help'");
			return EV_USAGE;
		}
	}
	if (!id && !object) {
		error("which run? usage: evident show RUN_ID (see 'evident ls')");
		return EV_USAGE;
	}
	struct store st = STORE_INIT;
	int rc = EV_OK;
	if (store_open(&st, store_default_root(dir), 0) < 0) {
		store_release(&st);
		return EV_STORE;
	}
	if (object) {
		size_t len = strlen(object);
		if (len != 64 || strspn(object, "0123456789abcdef") != 64) {
			error("'%s' is not an object name (64 hex digits)", object);
			store_release(&st);
			return EV_USAGE;
		}
		rc = print_object(&st, object) < 0 ? EV_STORE : EV_OK;
		store_release(&st);
		return rc;
	}
	json_t *m;
	if (store_load(&st, id, &m) < 0) {
		store_release(&st);
		return EV_USAGE;
	}
	if (!strcmp(mode, "json")) {
		char *s = store_canonical(m);
		fputs(s, stdout);
		free(s);
	} else if (!strcmp(mode, "diff")) {
		json_t *d = json_object_get(json_object_get(json_object_get(m, "code"), "git"), "diff_object");
		if (!json_is_string(d))
			printf("# the tree was clean: the commit alone reproduces the sources\n");
		else if (print_object(&st, json_string_value(d)) < 0)
			rc = EV_STORE;
	} else if (!strcmp(mode, "log")) {
		printf("# build log\n");
		print_object(&st, json_string_value(json_object_get(json_object_get(m, "build"), "log_object")));
		printf("# worker log\n");
		print_object(&st, json_string_value(json_object_get(json_object_get(m, "worker"), "log_object")));
	} else if (!strcmp(mode, "samples")) {
		json_t *s = json_object_get(json_object_get(m, "timing"), "samples_object");
		if (!json_is_string(s)) {
			error("run '%s' has no timing samples (outcome %s)", id, js(m, "outcome"));
			rc = EV_FAILURES;
		} else if (print_object(&st, json_string_value(s)) < 0)
			rc = EV_STORE;
	} else {
		show_text(m);
	}
	json_decref(m);
	store_release(&st);
	return rc;
}
