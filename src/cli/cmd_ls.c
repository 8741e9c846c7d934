/*
 * cmd_ls.c - `evident ls`: the runs in the store, oldest first, one line
 * each (variant runs; --batches for the per-invocation batch records), and
 * runs in progress or aborted (from the store's pending markers).
 */
#include <stdio.h>
#include <string.h>

#include "cli/evident.h"
#include "store/store.h"

static const char usage[] =
	"usage: evident ls [--store DIR] [--experiment NAME] [--batches] [--json]\n"
	"\n"
	"Lists recorded runs: run id, experiment, variant, outcome, median, commit.\n"
	"Runs that were interrupted (the runner was killed) are listed as 'aborted':\n"
	"they have no record, only the marker the runner left when it started them.\n"
	"  --batches   list batch records (one per 'evident run') instead of variant runs\n"
	"  --json      one JSON array of objects {run_id, kind, experiment, variant, outcome,\n"
	"              median_us, commit, dirty, started_utc}\n";

int cmd_ls(int argc, const char **argv)
{
	if (wants_help(argc, argv)) {
		usage_print(usage, 0);
		return EV_OK;
	}
	const char *store_dir = NULL, *exp = NULL;
	int json = 0, batches = 0;
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--store") && i + 1 < argc)
			store_dir = argv[++i];
		else if (!strcmp(argv[i], "--experiment") && i + 1 < argc)
			exp = argv[++i];
		else if (!strcmp(argv[i], "--json"))
			json = 1;
		else if (!strcmp(argv[i], "--batches"))
			batches = 1;
		else {
			error("unknown argument '%s'; see 'evident ls --help'", argv[i]);
			return EV_USAGE;
		}
	}
	struct store st = STORE_INIT;
	const char *root = store_default_root(store_dir);
	if (!is_dir(root)) {
		if (json)
			printf("[]\n");
		else
			printf("no runs yet (store '%s' does not exist)\n", root);
		return EV_OK;
	}
	store_open(&st, root, 0);
	char **ids;
	size_t n;
	if (store_list(&st, &ids, &n) < 0) {
		store_release(&st);
		return EV_STORE;
	}
	json_t *out = json_array();
	int rc = EV_OK;
	for (size_t i = 0; i < n; i++) {
		json_t *m;
		if (store_load(&st, ids[i], &m) < 0) {
			rc = EV_STORE;
			continue;
		}
		const char *kind = json_string_value(json_object_get(m, "kind"));
		const char *e = json_string_value(json_object_get(m, "experiment"));
		if ((batches != (kind && !strcmp(kind, "batch"))) || (exp && (!e || strcmp(e, exp)))) {
			json_decref(m);
			continue;
		}
		json_t *git = json_object_get(json_object_get(m, "code"), "git");
		json_t *stats = json_object_get(json_object_get(m, "timing"), "stats");
		json_t *row = json_pack("{s:s, s:O?, s:O?, s:O?, s:O?, s:O?, s:O?, s:O?, s:O?}", "run_id", ids[i],
					"kind", json_object_get(m, "kind"), "experiment",
					json_object_get(m, "experiment"), "variant",
					batches ? json_null() : json_object_get(m, "variant"), "outcome",
					batches ? json_null() : json_object_get(m, "outcome"), "median_us",
					stats ? json_object_get(stats, "median") : json_null(), "commit",
					git ? json_object_get(git, "commit") : json_null(), "dirty",
					git ? json_object_get(git, "dirty") : json_null(), "started_utc",
					json_object_get(m, "started_utc"));
		if (batches)
			json_object_set(row, "totals", json_object_get(m, "totals"));
		json_array_append_new(out, row);
		json_decref(m);
	}
	json_t *pend = store_pending_list(&st);
	if (json) {
		size_t k;
		json_t *p;
		json_array_foreach(pend, k, p)
			json_array_append_new(out, json_pack("{s:O?, s:s, s:O?, s:O?, s:O?, s:O?}", "run_id",
							     json_object_get(p, "run_id"), "kind", "pending",
							     "experiment", json_object_get(p, "experiment"),
							     "variant", json_object_get(p, "variant"), "outcome",
							     json_object_get(p, "state"), "started_utc",
							     json_object_get(p, "started_utc")));
		char *s = json_dumps(out, JSON_INDENT(1));
		printf("%s\n", s);
		free(s);
	} else {
		if (!batches)
			printf("%-42s %-14s %-22s %-17s %12s  %s\n", "run id", "experiment", "variant", "outcome",
			       "median us", "commit");
		else
			printf("%-48s %-14s %8s %4s %6s  %s\n", "batch", "experiment", "variants", "ok", "failed",
			       "commit");
		size_t k;
		json_t *r;
		json_array_foreach(out, k, r)
		{
			const char *commit = json_string_value(json_object_get(r, "commit"));
			char c[24];
			snprintf(c, sizeof(c), "%.10s%s", commit ? commit : "-",
				 json_is_true(json_object_get(r, "dirty")) ? "+dirty" : "");
			if (batches) {
				json_t *t = json_object_get(r, "totals");
				printf("%-48s %-14s %8lld %4lld %6lld  %s\n", json_string_value(json_object_get(r, "run_id")),
				       json_string_value(json_object_get(r, "experiment")),
				       json_integer_value(json_object_get(t, "variants")),
				       json_integer_value(json_object_get(t, "ok")),
				       json_integer_value(json_object_get(t, "failed")), c);
				continue;
			}
			json_t *med = json_object_get(r, "median_us");
			char ms[32] = "-";
			if (json_is_number(med))
				snprintf(ms, sizeof(ms), "%.2f", json_number_value(med));
			printf("%-42s %-14s %-22s %-17s %12s  %s\n", json_string_value(json_object_get(r, "run_id")),
			       json_string_value(json_object_get(r, "experiment")),
			       json_string_value(json_object_get(r, "variant")),
			       json_string_value(json_object_get(r, "outcome")), ms, c);
		}
		if (!batches) {
			json_t *p;
			json_array_foreach(pend, k, p)
				printf("%-42s %-14s %-22s %-17s %12s  %s\n",
				       json_string_value(json_object_get(p, "run_id")),
				       json_string_value(json_object_get(p, "experiment")),
				       json_string_value(json_object_get(p, "variant")),
				       json_string_value(json_object_get(p, "state")), "-", "(no record)");
		}
	}
	json_decref(pend);
	json_decref(out);
	store_free_list(ids, n);
	store_release(&st);
	return rc;
}
