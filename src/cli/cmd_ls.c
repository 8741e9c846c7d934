/*
 * cmd_ls.c - `evident ls`: the runs in the store, one line each, in the
 * store's one order (query.h: the order paper and audit read, oldest
 * first), from the index attrs alone: no manifest is opened.  Variant
 * runs by default (with their repeat number), batches with --batches
 * (with their totals, and which batch reproduced which: a batch of
 * `evident reproduce` names the batch it reproduces and its verdict, a
 * reproduced batch its reproductions), then runs in progress or aborted
 * (from the store's pending markers); searches with --searches (their
 * candidates, ok and failed: record/search.h).  --json prints the same rows as the
 * record module writes them (record_attrs_json), a batch's with
 * reproduced_by added.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/evident.h"
#include "cli/options.h"
#include "record/record.h"
#include "run/run.h"
#include "store/query.h"
#include "store/store.h"

static const char synopsis[] =
	"usage: evident ls [--store DIR] [--experiment NAME] [--batches | --searches] [--json]\n"
	"\n"
	"Lists recorded runs, oldest first, in the order paper and audit read them:\n"
	"run id, experiment, variant, repeat, outcome, median, commit.  Runs that were\n"
	"interrupted (the runner was killed) are listed as 'aborted': they have no\n"
	"record, only the marker the runner left when it started them; one started on\n"
	"another host (a shared store) as 'elsewhere', as its process cannot be looked\n"
	"up from here.  With --batches,\n"
	"the batch records (a batch of 'evident reproduce' says which batch it\n"
	"reproduces and whether it reproduced it; a reproduced batch, by which\n"
	"batches), then the Slurm batches not gathered yet (evident run --slurm), a\n"
	"line per task: pending, running, done or failed (with Slurm's reason), from\n"
	"squeue, sacct and the tasks' markers.\n";

static const struct opt_usage usage = { "ls", synopsis, NULL };

static void commit_label(const struct record_attrs *a, char *out, size_t n)
{
	snprintf(out, n, "%.10s%s", a->commit ? a->commit : "-", a->dirty ? "+dirty" : "");
}

static const char *repro_word(int reproduced)
{
	return reproduced ? "reproduced" : "NOT reproduced";
}

/*
 * What batch i says about reproductions, from the index: "reproduction of
 * A: reproduced" for a batch of evident reproduce, "reproduced by B (NOT
 * reproduced), C (reproduced)" for a batch others reproduced, oldest
 * first, into out; its reproductions' ids also into by (a JSON array) when
 * by is not NULL.
 */
static void repro_label(const struct query *q, size_t i, struct strbuf *out, json_t *by)
{
	const struct query_entry *e = &q->e[i];
	if (e->a.reproduces)
		strbuf_addf(out, "reproduction of %s: %s", e->a.reproduces, repro_word(e->a.reproduced));
	size_t *rx, n = query_reproductions_of(q, e->run_id, e->a.batch_id, &rx);
	for (size_t k = n; k-- > 0;) {
		const struct query_entry *r = &q->e[rx[k]];
		strbuf_addf(out, "%s%s (%s)", k == n - 1 ? (out->len ? "; reproduced by " : "reproduced by ") : ", ",
			    r->run_id, repro_word(r->a.reproduced));
		if (by)
			json_array_append_new(by, json_string(r->run_id));
	}
	free(rx);
}

/* Slurm batches not gathered yet (run/slurm.c's view: squeue, sacct and
 * the tasks' markers), a line per task; into out as {kind: "slurm", ...}
 * when listing JSON. */
static void list_slurm(const char *store_root, const char *exp, json_t *out)
{
	json_t *sb = run_slurm_batches(store_root);
	size_t i;
	json_t *b;
	int header = 0;
	json_array_foreach(sb, i, b)
	{
		const char *e = json_string_value(json_object_get(b, "experiment"));
		if (exp && (!e || strcmp(e, exp)))
			continue;
		if (out) {
			json_t *row = json_deep_copy(b);
			json_object_set_new(row, "kind", json_string("slurm"));
			json_array_append_new(out, row);
			continue;
		}
		if (!header++)
			printf("\nSlurm batches not gathered yet (evident wait BATCH gathers one):\n");
		json_t *tasks = json_object_get(b, "tasks");
		size_t n[4] = { 0, 0, 0, 0 }, k;
		json_t *t;
		static const char *const names[] = { "pending", "running", "done", "failed" };
		json_array_foreach(tasks, k, t)
		{
			const char *st = json_string_value(json_object_get(t, "state"));
			for (int x = 0; x < 4; x++)
				n[x] += st && !strcmp(st, names[x]);
		}
		printf("%-48s %-14s job %s (submission %lld): %zu pending, %zu running, %zu done, %zu failed\n",
		       json_string_value(json_object_get(b, "batch_id")), e ? e : "-",
		       json_string_value(json_object_get(b, "job_id")),
		       (long long)json_integer_value(json_object_get(b, "submission")), n[0], n[1], n[2], n[3]);
		json_array_foreach(tasks, k, t)
		{
			const char *node = json_string_value(json_object_get(t, "node"));
			const char *why = json_string_value(json_object_get(t, "reason"));
			printf("  task %-3lld %-12s %-8s %-12s %3lld run%s%s%s\n",
			       (long long)json_integer_value(json_object_get(t, "task")),
			       json_string_value(json_object_get(t, "job")),
			       json_string_value(json_object_get(t, "state")), node ? node : "-",
			       (long long)json_integer_value(json_object_get(t, "runs")),
			       json_integer_value(json_object_get(t, "runs")) == 1 ? "" : "s", why ? "  " : "",
			       why ? why : "");
		}
	}
	json_decref(sb);
}

int cmd_ls(int argc, const char **argv)
{
	const char *store_dir = NULL, *exp = NULL;
	int json = 0, batches = 0, searches = 0;
	const struct option opts[] = {
		OPT_STORE(&store_dir),
		OPT_STRING("experiment", &exp, "NAME", "only the runs of experiment NAME"),
		OPT_BOOL("batches", &batches,
			 "list batch records (one per 'evident run', with their totals)\n"
			 "instead of variant runs"),
		OPT_BOOL("searches", &searches,
			 "list search records (one per search: its candidates, how many\n"
			 "ended ok and how many failed; evident show ID prints its tree)"),
		OPT_BOOL("json", &json,
			 "one JSON array of objects {run_id, kind (run, batch or pending),\n"
			 "experiment, variant, repeat, batch_id, outcome, started_utc, commit,\n"
			 "dirty, median_us, wall_s, gpu_s, usd; batches: variants, ok, failed,\n"
			 "reproduces, reproduced, reproduced_by}"),
		OPT_END(),
	};
	argc = parse_options(argc, argv, opts, &usage);
	if (argc < 0)
		return argc == OPT_HELP ? EV_OK : EV_USAGE;
	if (argc > 0) {
		opt_usage_error(&usage, "unexpected argument '%s' for 'evident ls'", argv[0]);
		return EV_USAGE;
	}
	if (batches && searches) {
		opt_usage_error(&usage, "--batches or --searches, one at a time");
		return EV_USAGE;
	}
	struct query q = QUERY_INIT;
	if (query_open(&q, store_dir) < 0) {
		query_release(&q);
		return EV_STORE;
	}
	if (q.no_store) {
		if (json)
			printf("[]\n");
		else {
			struct strbuf sb = STRBUF_INIT;
			store_hint_here(&sb);
			printf("no runs yet (store '%s' does not exist); %s\n", q.st.root, sb.buf);
			strbuf_release(&sb);
		}
		query_release(&q);
		return EV_OK;
	}
	json_t *out = json_array();
	if (!json) {
		if (searches)
			printf("%-49s %-14s %10s %4s %6s  %s\n", "search", "experiment", "candidates", "ok", "failed",
			       "commit");
		else if (batches)
			printf("%-48s %-14s %8s %4s %6s  %-16s %s\n", "batch", "experiment", "variants", "ok", "failed",
			       "commit", "reproduction");
		else
			printf("%-42s %-14s %-22s %3s %-17s %12s  %s\n", "run id", "experiment", "variant", "rep", "outcome",
			       "median us", "commit");
	}
	for (size_t i = 0; i < q.n; i++) {
		const struct query_entry *e = &q.e[i];
		const struct record_attrs *a = &e->a;
		if (searches != a->is_search || batches != a->is_batch ||
		    (exp && (!a->experiment || strcmp(a->experiment, exp))))
			continue;
		if (json) {
			json_t *row = record_attrs_json(e->run_id, a);
			if (batches) {
				struct strbuf sb = STRBUF_INIT;
				json_t *by = json_array();
				repro_label(&q, i, &sb, by);
				json_object_set_new(row, "reproduced_by", by);
				strbuf_release(&sb);
			}
			json_array_append_new(out, row);
			continue;
		}
		char c[24];
		commit_label(a, c, sizeof(c));
		if (searches) {
			printf("%-49s %-14s %10lld %4lld %6lld  %s\n", e->run_id, a->experiment ? a->experiment : "-",
			       a->t_variants, a->t_ok, a->t_failed, c);
			continue;
		}
		if (batches) {
			struct strbuf sb = STRBUF_INIT;
			repro_label(&q, i, &sb, NULL);
			printf("%-48s %-14s %8lld %4lld %6lld  ", e->run_id, a->experiment ? a->experiment : "-",
			       a->t_variants, a->t_ok, a->t_failed);
			if (sb.len)
				printf("%-16s %s\n", c, sb.buf);
			else
				printf("%s\n", c);
			strbuf_release(&sb);
			continue;
		}
		char ms[32] = "-";
		if (isfinite(a->median_us))
			snprintf(ms, sizeof(ms), "%.2f", a->median_us);
		printf("%-42s %-14s %-22s %3d %-17s %12s  %s\n", e->run_id, a->experiment ? a->experiment : "-",
		       a->variant ? a->variant : "-", a->repeat + 1, a->outcome ? a->outcome : "?", ms, c);
	}
	/* the store's pending markers (its own document: run_id, experiment, variant, started_utc, state) */
	json_t *pend = batches || searches ? json_array() : store_pending_list(&q.st);
	size_t k;
	json_t *p;
	json_array_foreach(pend, k, p)
	{
		const char *e = json_string_value(json_object_get(p, "experiment"));
		if (exp && (!e || strcmp(e, exp)))
			continue;
		if (json) {
			json_array_append_new(out, json_pack("{s:O?, s:s, s:O?, s:O?, s:O?, s:O?}", "run_id",
							     json_object_get(p, "run_id"), "kind", "pending",
							     "experiment", json_object_get(p, "experiment"), "variant",
							     json_object_get(p, "variant"), "outcome",
							     json_object_get(p, "state"), "started_utc",
							     json_object_get(p, "started_utc")));
			continue;
		}
		const char *id = json_string_value(json_object_get(p, "run_id"));
		const char *v = json_string_value(json_object_get(p, "variant"));
		const char *st = json_string_value(json_object_get(p, "state"));
		printf("%-42s %-14s %-22s %3s %-17s %12s  %s\n", id ? id : "?", e ? e : "-", v ? v : "-", "-", st ? st : "?",
		       "-", "(no record)");
	}
	if (batches)
		list_slurm(q.st.root, exp, json ? out : NULL);
	if (json) {
		char *s = json_dumps(out, JSON_INDENT(1) | JSON_REAL_PRECISION(17));
		printf("%s\n", s);
		free(s);
	}
	json_decref(pend);
	json_decref(out);
	query_release(&q);
	return EV_OK;
}
