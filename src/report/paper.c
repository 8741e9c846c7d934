/*
 * paper.c - the generated blocks of a markdown paper (contract in paper.h,
 * reference in docs/paper.md).
 *
 * paper_render walks the markers that mdscan found and copies the text
 * between them untouched; for each opening marker it emits the marker,
 * then freshly generated content, then the closing marker.  Every block
 * reads one batch (qj_batch), chosen explicitly by run=latest or a run
 * id, so a table never mixes runs of different commits or GPUs; the
 * provenance line under each table names that batch, its commit (and says
 * when the tree was dirty), device, driver, date and run ids.
 *
 * Numbers: times in us with two decimals, speedups with three, p-values
 * with two significant digits, Cliff's delta with two decimals.
 */
#include "report/paper.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "report/mdscan.h"
#include "stats/stats.h"
#include "report/svg.h"

/* ---------- formatting ---------- */

/* text made safe for a table cell or a line: one line, no '|' or '`', at most max bytes */
static void add_clean(struct strbuf *out, const char *s, size_t max, int cell)
{
	size_t n = 0;
	int space = 0;
	for (; s && *s && n < max; s++) {
		unsigned char c = (unsigned char)*s;
		if (isspace(c)) {
			space = 1;
			continue;
		}
		if (space && n) {
			strbuf_addch(out, ' ');
			n++;
		}
		space = 0;
		if (c == '|' && cell)
			strbuf_addstr(out, "\\|");
		else if (c == '`')
			strbuf_addch(out, '\'');
		else if (c == '<')
			strbuf_addstr(out, "&lt;");
		else
			strbuf_addch(out, (char)c);
		n++;
	}
	if (s && *s)
		strbuf_addstr(out, "...");
}

static void add_p(struct strbuf *out, double p)
{
	if (isnan(p))
		strbuf_addstr(out, "n/a");
	else if (p < 1e-3)
		strbuf_addf(out, "%.1e", p);
	else
		strbuf_addf(out, "%.2g", p);
}

int paper_format_stat(struct strbuf *out, double v, const char *stat, const char *kind,
		      const char *unit, int digits)
{
	if (unit && strcmp(kind, "time"))
		return error("unit='%s' applies only to times (the *_us statistics), not to '%s'", unit, stat);
	if (!strcmp(kind, "time")) {
		double scale = 1;
		const char *u = unit ? unit : "us";
		if (!strcmp(u, "ms"))
			scale = 1e-3;
		else if (!strcmp(u, "s"))
			scale = 1e-6;
		else if (strcmp(u, "us"))
			return error("unit='%s' is not a time unit (use us, ms or s)", u);
		strbuf_addf(out, "%.*f %s", digits >= 0 ? digits : 2, v * scale, u);
	} else if (!strcmp(kind, "ratio")) {
		strbuf_addf(out, "%.*fx", digits >= 0 ? digits : 2, v);
	} else if (!strcmp(kind, "flops")) {
		strbuf_addf(out, "%.*f %s", digits >= 0 ? digits : 1, v,
			    !strcmp(stat, "tflops") ? "TFLOP/s" : "GFLOP/s");
	} else if (!strcmp(kind, "bw")) {
		strbuf_addf(out, "%.*f GB/s", digits >= 0 ? digits : 1, v);
	} else if (!strcmp(kind, "usd")) {
		strbuf_addf(out, "$%.*f", digits >= 0 ? digits : 4, v);
	} else if (!strcmp(kind, "p")) {
		if (digits >= 0)
			strbuf_addf(out, "%.*g", digits, v);
		else
			add_p(out, v);
	} else if (!strcmp(stat, "n")) {
		strbuf_addf(out, "%.0f", v);
	} else if (!strcmp(stat, "max_abs_err")) {
		strbuf_addf(out, "%.*g", digits >= 0 ? digits : 3, v);
	} else {
		strbuf_addf(out, "%.*f", digits >= 0 ? digits : 2, v);
	}
	return 0;
}

static const char *basename_of(const char *p)
{
	const char *s = p ? strrchr(p, '/') : NULL;
	return s ? s + 1 : p;
}

/* "2026-11-22T04:04:57.123Z" -> "2026-11-22 04:04:57 UTC" */
static void add_date(struct strbuf *out, const char *iso)
{
	if (!iso || strlen(iso) < 19) {
		strbuf_addstr(out, "unknown date");
		return;
	}
	strbuf_addf(out, "%.10s %.8s UTC", iso, iso + 11);
}

/* ---------- blocks ---------- */

struct ctx {
	struct qj *q;
	const struct paper_opts *o;
	struct paper_result *r;
	const char *file;
	int line;
};

/* Parameter names (and "kernel") whose value differs between rows. */
static json_t *differing_params(struct qj *q, json_t *batch)
{
	json_t *names = json_array(), *seen = json_object();
	json_t *rows = json_object_get(batch, "variants");
	size_t i, j;
	json_t *row;
	const char *k;
	json_t *v;
	json_array_foreach(rows, i, row) json_object_foreach(json_object_get(row, "params"), k, v)
	{
		if (!json_object_get(seen, k)) {
			json_object_set_new(seen, k, json_true());
			json_array_append_new(names, json_string(k));
		}
	}
	json_t *out = json_array();
	const char *first_kernel = NULL;
	int kernel_differs = 0;
	json_array_foreach(rows, i, row)
	{
		const char *kp = qj_str(qj_row_run(q, row), "kernel");
		if (!i)
			first_kernel = kp;
		else if (kp && first_kernel && strcmp(kp, first_kernel))
			kernel_differs = 1;
	}
	if (kernel_differs)
		json_array_append_new(out, json_string("kernel"));
	json_array_foreach(names, j, v)
	{
		const char *name = json_string_value(v), *first = NULL;
		int differs = 0;
		json_array_foreach(rows, i, row)
		{
			const char *pv = qj_str(json_object_get(row, "params"), name);
			if (!i)
				first = pv;
			else if (!first != !pv || (pv && first && strcmp(pv, first)))
				differs = 1;
		}
		if (differs)
			json_array_append(out, v);
	}
	json_decref(names);
	json_decref(seen);
	return out;
}

static void add_provenance(struct ctx *c, json_t *batch, const char *run_arg, struct strbuf *out)
{
	json_t *rows = json_object_get(batch, "variants");
	json_t *first = qj_row_run(c->q, json_array_get(rows, 0));
	json_t *git = qj_get(batch, "code.git");
	const char *commit = qj_str(git, "commit");
	const char *exp = qj_str(batch, "experiment");
	strbuf_addf(out, "*Provenance:* experiment `%s`, batch `%s` (%s); ", exp,
		    qj_str(batch, "run_id"),
		    !strcmp(run_arg, "latest") ? "latest" : "pinned by run id");
	if (commit)
		strbuf_addf(out, "commit `%.12s` (%s)", commit,
			    json_is_true(json_object_get(git, "dirty")) ? "**dirty**" : "clean");
	else
		strbuf_addstr(out, "no git commit recorded");
	char *dev = first ? qj_device_name(first) : xstrdup("unknown device");
	const char *drv = first ? qj_driver(first) : NULL;
	strbuf_addf(out, "; %s", dev);
	if (drv)
		strbuf_addf(out, ", driver %s", drv);
	const char *be = qj_str(batch, "backend");
	if (be)
		strbuf_addf(out, " (%s backend)", be);
	strbuf_addstr(out, "; recorded ");
	add_date(out, first ? qj_str(first, "started_utc") : NULL);
	json_t *shape = qj_get(batch, "problem.shape");
	if (shape) {
		strbuf_addf(out, "; %s", qj_str(batch, "problem.name") ? qj_str(batch, "problem.name") : "");
		const char *dims[] = { "B", "H", "S", "D" };
		for (size_t i = 0; i < 4; i++)
			if (json_is_integer(json_object_get(shape, dims[i])))
				strbuf_addf(out, " %s=%lld", dims[i],
					    (long long)json_integer_value(json_object_get(shape, dims[i])));
		if (qj_str(batch, "problem.dtype"))
			strbuf_addf(out, " %s", qj_str(batch, "problem.dtype"));
	}
	strbuf_addstr(out, "; runs");
	size_t i;
	json_t *row;
	int devices_differ = 0;
	json_array_foreach(rows, i, row)
	{
		strbuf_addf(out, "%s `%s`", i ? "," : "", qj_str(row, "run_id"));
		json_t *rm = qj_row_run(c->q, row);
		char *d = rm ? qj_device_name(rm) : NULL;
		if (d && strcmp(d, dev))
			devices_differ = 1;
		free(d);
	}
	strbuf_addstr(out, ".");
	if (devices_differ)
		strbuf_addstr(out, " **Warning: the variants of this batch ran on different devices.**");
	free(dev);
	/* a pinned batch that is not the newest says so */
	json_t *all = qj_batches(c->q, exp, NULL);
	json_t *newest = json_array_get(all, 0);
	if (newest && newest != batch)
		strbuf_addf(out, " A newer batch of `%s` exists: `%s`.", exp, qj_str(newest, "run_id"));
	json_decref(all);
	strbuf_addstr(out, "\n");
}

static void add_dirty_note(json_t *batch, struct strbuf *out)
{
	json_t *git = qj_get(batch, "code.git");
	if (!json_is_true(json_object_get(git, "dirty")))
		return;
	strbuf_addf(out, "> **Dirty tree:** these runs were recorded from uncommitted changes (%lld changed file(s)",
		    (long long)json_integer_value(json_object_get(git, "n_changed")));
	const char *d = qj_str(git, "diff_object");
	if (d)
		strbuf_addf(out, "; the diff is object `%.12s`", d);
	strbuf_addstr(out, "); commit `");
	strbuf_addf(out, "%.12s", qj_str(git, "commit") ? qj_str(git, "commit") : "none");
	strbuf_addstr(out, "` alone does not reproduce them.\n\n");
}

static void add_cell_ci(struct strbuf *out, json_t *v, json_t *ci, const char *fmt_v,
			const char *fmt_ci)
{
	if (!json_is_number(v)) {
		strbuf_addstr(out, " |");
		return;
	}
	strbuf_addch(out, ' ');
	strbuf_addf(out, fmt_v, json_number_value(v));
	if (json_is_number(json_array_get(ci, 0)) && json_is_number(json_array_get(ci, 1))) {
		strbuf_addstr(out, " [");
		strbuf_addf(out, fmt_ci, json_number_value(json_array_get(ci, 0)));
		strbuf_addstr(out, ", ");
		strbuf_addf(out, fmt_ci, json_number_value(json_array_get(ci, 1)));
		strbuf_addstr(out, "]");
	}
	strbuf_addstr(out, " |");
}

static void gen_table(struct ctx *c, json_t *batch, const char *run_arg, struct strbuf *out)
{
	json_t *diff = differing_params(c->q, batch);
	json_t *rows = json_object_get(batch, "variants");
	const char *baseline = qj_str(batch, "baseline");
	size_t nc = (size_t)json_integer_value(qj_get(batch, "holm.comparisons"));
	strbuf_addstr(out, "\n");
	add_dirty_note(batch, out);
	strbuf_addf(out, "| variant | parameters | outcome | median us [95%% CI] | speedup [95%% CI] | %s | Cliff's delta [95%% CI] | verdict | device | cost |\n",
		    nc > 1 ? "p (Holm)" : "p");
	strbuf_addstr(out, "|---|---|---|---:|---:|---:|---|---|---|---:|\n");
	size_t i, j;
	json_t *row, *name;
	json_array_foreach(rows, i, row)
	{
		json_t *run = qj_row_run(c->q, row);
		const char *variant = qj_str(row, "variant");
		strbuf_addstr(out, "| ");
		add_clean(out, variant, 80, 1);
		if (baseline && variant && !strcmp(baseline, variant))
			strbuf_addstr(out, " (baseline)");
		strbuf_addstr(out, " |");
		int any = 0;
		json_array_foreach(diff, j, name)
		{
			const char *k = json_string_value(name);
			const char *v = !strcmp(k, "kernel") ? basename_of(qj_str(run, "kernel"))
							     : qj_str(json_object_get(row, "params"), k);
			strbuf_addstr(out, any++ ? ", " : " ");
			add_clean(out, k, 40, 1);
			strbuf_addch(out, '=');
			add_clean(out, v ? v : "-", 60, 1);
		}
		strbuf_addstr(out, any ? " |" : " |");
		const char *oc = qj_str(row, "outcome");
		strbuf_addf(out, " %s%s%s", oc && strcmp(oc, "ok") ? "**" : "", oc ? oc : "?",
			    oc && strcmp(oc, "ok") ? "**" : "");
		if (oc && strcmp(oc, "ok") && qj_str(row, "reason")) {
			strbuf_addstr(out, ": ");
			add_clean(out, qj_str(row, "reason"), 60, 1);
		}
		strbuf_addstr(out, " |");
		add_cell_ci(out, qj_get(row, "stats.median"), qj_get(row, "stats.median_ci"), "%.2f",
			    "%.2f");
		json_t *cmp = json_object_get(row, "comparison");
		if (json_is_object(cmp)) {
			add_cell_ci(out, qj_get(cmp, "speedup.ratio"), qj_get(cmp, "speedup.ci"), "%.3fx",
				    "%.3f");
			strbuf_addch(out, ' ');
			add_p(out, qj_num(cmp, "mann_whitney.p_adjusted"));
			strbuf_addstr(out, " |");
			add_cell_ci(out, qj_get(cmp, "cliffs_delta.delta"), qj_get(cmp, "cliffs_delta.ci"),
				    "%.2f", "%.2f");
			out->len -= 2; /* append the label inside the cell */
			out->buf[out->len] = '\0';
			strbuf_addf(out, " %s |", qj_str(cmp, "cliffs_delta.magnitude") ?
							  qj_str(cmp, "cliffs_delta.magnitude") : "");
			const char *verdict = qj_str(cmp, "verdict");
			int bold = verdict && strcmp(verdict, "no_difference");
			strbuf_addf(out, " %s%s%s%s |", bold ? "**" : "", verdict ? verdict : "", bold ? "**" : "",
				    json_is_true(json_object_get(cmp, "small_n")) ? " (too few samples)" : "");
		} else if (baseline && variant && !strcmp(baseline, variant)) {
			strbuf_addstr(out, " 1 (baseline) | | | |");
		} else {
			strbuf_addstr(out, " | | | |");
		}
		char *dev = run ? qj_device_name(run) : xstrdup("?");
		strbuf_addch(out, ' ');
		add_clean(out, dev, 60, 1);
		free(dev);
		double usd = qj_num(run, "cost.usd"), gs = qj_num(run, "cost.gpu_s");
		if (!isnan(usd))
			strbuf_addf(out, " | $%.4f |\n", usd);
		else if (gs > 0)
			strbuf_addf(out, " | %.1f GPU-s, no price |\n", gs);
		else
			strbuf_addstr(out, " | n/a |\n");
	}
	json_decref(diff);
	strbuf_addstr(out, "\n");
	json_t *notes = json_object_get(batch, "notes");
	if (json_array_size(notes)) {
		json_t *n;
		json_array_foreach(notes, i, n)
		{
			strbuf_addstr(out, "- note: ");
			add_clean(out, json_string_value(n), 400, 0);
			strbuf_addstr(out, "\n");
		}
		strbuf_addstr(out, "\n");
	}
	if (json_is_true(json_object_get(batch, "interrupted")))
		strbuf_addstr(out, "*This batch was interrupted: variants after the last row never ran.*\n\n");
	add_provenance(c, batch, run_arg, out);
	strbuf_addstr(out, "\n");
}

/* one line per failure or significant slowdown, grouped by experiment */
static void gen_negative(struct ctx *c, const char *only, struct strbuf *out)
{
	json_t *exps = qj_experiments(c->q);
	size_t ei;
	json_t *ej;
	int any = 0;
	strbuf_addstr(out, "\n");
	json_array_foreach(exps, ei, ej)
	{
		const char *exp = json_string_value(ej);
		if (only && strcmp(only, exp))
			continue;
		struct strbuf sec = STRBUF_INIT;
		for (size_t i = 0; i < c->q->n; i++) {
			json_t *m = c->q->m[i];
			const char *kind = qj_str(m, "kind"), *e = qj_str(m, "experiment");
			if (!kind || !e || strcmp(e, exp))
				continue;
			if (!strcmp(kind, "variant")) {
				const char *oc = qj_str(m, "outcome");
				if (!oc || !strcmp(oc, "ok"))
					continue;
				strbuf_addstr(&sec, "- `");
				add_clean(&sec, qj_str(m, "variant"), 80, 0);
				strbuf_addf(&sec, "`: **%s**", oc);
				if (json_is_true(json_object_get(m, "expect_met")))
					strbuf_addstr(&sec, " (expected)");
				const char *why = qj_str(m, "reason");
				if (why) {
					strbuf_addstr(&sec, ": ");
					add_clean(&sec, why, 300, 0);
				}
				double maxerr = NAN;
				int failed = 0, seeds = 0;
				size_t k;
				json_t *s;
				json_array_foreach(qj_get(m, "correctness.results"), k, s)
				{
					double e2 = qj_num(s, "max_abs_err");
					if (!isnan(e2) && e2 >= 0 && (isnan(maxerr) || e2 > maxerr))
						maxerr = e2;
					seeds++;
					failed += !json_is_true(json_object_get(s, "pass"));
				}
				if (failed)
					strbuf_addf(&sec, "; max |err| %.3g, %d of %d seeds failed", maxerr, failed,
						    seeds);
				strbuf_addf(&sec, " (run `%s`, ", qj_str(m, "run_id"));
				add_date(&sec, qj_str(m, "started_utc"));
				strbuf_addf(&sec, ", commit `%.12s`%s)\n",
					    qj_str(m, "code.git.commit") ? qj_str(m, "code.git.commit") : "none",
					    json_is_true(qj_get(m, "code.git.dirty")) ? " dirty" : "");
			} else if (!strcmp(kind, "batch")) {
				size_t k;
				json_t *row;
				json_array_foreach(json_object_get(m, "variants"), k, row)
				{
					const char *vd = qj_str(row, "comparison.verdict");
					if (!vd || strcmp(vd, "slower"))
						continue;
					strbuf_addstr(&sec, "- `");
					add_clean(&sec, qj_str(row, "variant"), 80, 0);
					strbuf_addstr(&sec, "`: **slower** than `");
					add_clean(&sec, qj_str(m, "baseline"), 80, 0);
					strbuf_addf(&sec, "`: speedup %.3fx [%.3f, %.3f], p (Holm) ",
						    qj_num(row, "comparison.speedup.ratio"),
						    qj_num(row, "comparison.speedup.ci.0"),
						    qj_num(row, "comparison.speedup.ci.1"));
					add_p(&sec, qj_num(row, "comparison.mann_whitney.p_adjusted"));
					strbuf_addf(&sec, " (run `%s`, batch `%s`)\n", qj_str(row, "run_id"),
						    qj_str(m, "run_id"));
				}
				json_array_foreach(json_object_get(m, "notes"), k, row)
				{
					strbuf_addstr(&sec, "- note: ");
					add_clean(&sec, json_string_value(row), 400, 0);
					strbuf_addf(&sec, " (batch `%s`)\n", qj_str(m, "run_id"));
				}
			}
		}
		if (sec.len) {
			strbuf_addf(out, "**Experiment `%s`**\n\n%s\n", exp, sec.buf);
			any = 1;
		}
		strbuf_release(&sec);
	}
	json_decref(exps);
	if (!any)
		strbuf_addf(out, "No negative results recorded%s%s%s.\n\n", only ? " for `" : "",
			    only ? only : "", only ? "`" : "");
}

static void gen_cost(struct ctx *c, const char *only, struct strbuf *out)
{
	json_t *exps = qj_experiments(c->q);
	size_t ei;
	json_t *ej;
	double t_wall = 0, t_gpu = 0, t_usd = 0;
	int t_b = 0, t_r = 0, t_bad = 0, t_unpriced = 0, rows = 0;
	strbuf_addstr(out, "\n| experiment | batches | variant runs | not ok | wall s | GPU s | cost |\n");
	strbuf_addstr(out, "|---|---:|---:|---:|---:|---:|---:|\n");
	json_array_foreach(exps, ei, ej)
	{
		const char *exp = json_string_value(ej);
		if (only && strcmp(only, exp))
			continue;
		double wall = 0, gpu = 0, usd = 0;
		int b = 0, r = 0, bad = 0, unpriced = 0;
		for (size_t i = 0; i < c->q->n; i++) {
			json_t *m = c->q->m[i];
			const char *kind = qj_str(m, "kind"), *e = qj_str(m, "experiment");
			if (!kind || !e || strcmp(e, exp))
				continue;
			if (!strcmp(kind, "batch")) {
				b++;
				continue;
			}
			r++;
			bad += qj_str(m, "outcome") && strcmp(qj_str(m, "outcome"), "ok");
			double w = qj_num(m, "wall_s"), g = qj_num(m, "cost.gpu_s"), u = qj_num(m, "cost.usd");
			wall += isnan(w) ? 0 : w;
			gpu += isnan(g) ? 0 : g;
			if (!isnan(u))
				usd += u;
			else if (g > 0)
				unpriced++;
		}
		strbuf_addf(out, "| `%s` | %d | %d | %d | %.1f | %.1f | ", exp, b, r, bad, wall, gpu);
		if (gpu > 0 || usd > 0)
			strbuf_addf(out, "$%.4f%s", usd, unpriced ? " + unpriced runs" : "");
		else
			strbuf_addstr(out, "n/a (no GPU time)");
		strbuf_addstr(out, " |\n");
		t_wall += wall, t_gpu += gpu, t_usd += usd;
		t_b += b, t_r += r, t_bad += bad, t_unpriced += unpriced;
		rows++;
	}
	json_decref(exps);
	strbuf_addf(out, "| **total** | %d | %d | %d | %.1f | %.1f | ", t_b, t_r, t_bad, t_wall, t_gpu);
	if (t_gpu > 0 || t_usd > 0)
		strbuf_addf(out, "$%.4f%s", t_usd, t_unpriced ? " + unpriced runs" : "");
	else
		strbuf_addstr(out, "n/a (no GPU time)");
	strbuf_addstr(out, " |\n\n");
	strbuf_addstr(out, "*Cost:* wall and GPU seconds summed over every recorded variant run; money from each run's price (data/gpu-prices.yaml at the time of the run).\n\n");
	(void)rows;
}

/* Write bytes to path only when they differ from what is there (atomic). */
static int write_if_changed(const char *path, const struct strbuf *body, int write, int *changed)
{
	struct strbuf old = STRBUF_INIT;
	int same = path_exists(path) && read_file(path, &old) == 0 && old.len == body->len &&
		   !memcmp(old.buf, body->buf, body->len);
	strbuf_release(&old);
	if (same)
		return 0;
	(*changed)++;
	if (!write)
		return 0;
	char *dir = xstrdup(path);
	char *slash = strrchr(dir, '/');
	int rc = 0;
	if (slash) {
		*slash = '\0';
		rc = mkdir_p(dir, 0755);
	}
	free(dir);
	if (rc < 0)
		return -1;
	char *tmp = xstrfmt("%s.tmp.%d", path, (int)getpid());
	FILE *f = fopen(tmp, "wb");
	if (!f || fwrite(body->buf, 1, body->len, f) != body->len || fclose(f) != 0) {
		rc = error("cannot write '%s': %s", tmp, strerror(errno));
		unlink(tmp);
	} else if (rename(tmp, path) < 0) {
		rc = error("cannot rename '%s' to '%s': %s", tmp, path, strerror(errno));
		unlink(tmp);
	}
	free(tmp);
	return rc;
}

static int gen_figure(struct ctx *c, json_t *batch, const char *kind, const char *path,
		      struct strbuf *out)
{
	json_t *rows = json_object_get(batch, "variants");
	size_t n = json_array_size(rows);
	const char *exp = qj_str(batch, "experiment");
	struct svg_series *s = xcalloc(n + 1, sizeof(*s));
	struct svg_interval *iv = xcalloc(n + 1, sizeof(*iv));
	char **labels = xcalloc(n + 1, sizeof(char *));
	char **notes = xcalloc(n + 1, sizeof(char *));
	double **xs = xcalloc(n + 1, sizeof(double *));
	struct strbuf svg = STRBUF_INIT, sub = STRBUF_INIT, title = STRBUF_INIT;
	int rc = -1, ni = 0;
	json_t *first = qj_row_run(c->q, json_array_get(rows, 0));
	char *dev = first ? qj_device_name(first) : xstrdup("unknown device");
	const char *commit = qj_str(batch, "code.git.commit");
	strbuf_addf(&sub, "batch %s; commit %.12s%s; %s", qj_str(batch, "run_id"),
		    commit ? commit : "none", json_is_true(qj_get(batch, "code.git.dirty")) ? " (dirty)" : "",
		    dev);
	free(dev);
	for (size_t i = 0; i < n; i++) {
		json_t *row = json_array_get(rows, i);
		const char *oc = qj_str(row, "outcome");
		const char *v = qj_str(row, "variant");
		labels[i] = oc && strcmp(oc, "ok") ? xstrfmt("%s [%s]", v, oc) : xstrdup(v ? v : "?");
		s[i].label = labels[i];
		json_t *run = qj_row_run(c->q, row);
		if (run && oc && !strcmp(oc, "ok") && qj_samples(c->q, run, &xs[i], &s[i].n) < 0)
			goto out;
		s[i].x = xs[i];
		json_t *cmp = json_object_get(row, "comparison");
		if (!json_is_object(cmp))
			continue; /* the baseline and failed variants have no speedup */
		iv[ni].label = labels[i];
		iv[ni].v = qj_num(cmp, "speedup.ratio");
		iv[ni].lo = qj_num(cmp, "speedup.ci.0");
		iv[ni].hi = qj_num(cmp, "speedup.ci.1");
		struct strbuf nb = STRBUF_INIT;
		strbuf_addf(&nb, "%.3fx, %s, p=", iv[ni].v, qj_str(cmp, "verdict") ? qj_str(cmp, "verdict") : "");
		add_p(&nb, qj_num(cmp, "mann_whitney.p_adjusted"));
		notes[i] = strbuf_detach(&nb, NULL);
		iv[ni].note = notes[i];
		ni++;
	}
	if (!strcmp(kind, "ecdf")) {
		strbuf_addf(&title, "%s: distribution of time per launch (ECDF)", exp);
		svg_ecdf(&svg, title.buf, sub.buf, "time per launch (us)", s, n);
	} else if (!strcmp(kind, "box")) {
		strbuf_addf(&title, "%s: time per launch (box: quartiles, whiskers 1.5 IQR)", exp);
		svg_box(&svg, title.buf, sub.buf, "time per launch (us)", s, n);
	} else {
		strbuf_addf(&title, "%s: speedup over %s with 95%% bootstrap CI", exp,
			    qj_str(batch, "baseline") ? qj_str(batch, "baseline") : "the baseline");
		svg_forest(&svg, title.buf, sub.buf, "speedup (median baseline / median variant; > 1 is faster)",
			   iv, (size_t)ni, 1.0);
	}
	char *full = c->o->base_dir && path[0] != '/' ? xstrfmt("%s/%s", c->o->base_dir, path) : xstrdup(path);
	rc = write_if_changed(full, &svg, c->o->write_figures, &c->r->figures_changed);
	free(full);
	if (rc == 0)
		strbuf_addf(out, "\n![%s (batch %s)](%s)\n\n", title.buf, qj_str(batch, "run_id"), path);
out:
	for (size_t i = 0; i < n; i++) {
		free(labels[i]);
		free(notes[i]);
		free(xs[i]);
	}
	free(labels);
	free(notes);
	free(xs);
	free(s);
	free(iv);
	strbuf_release(&svg);
	strbuf_release(&sub);
	strbuf_release(&title);
	return rc;
}

/* ---------- the walk ---------- */

static const char *const table_keys[] = { "experiment", "run", NULL };
static const char *const value_keys[] = { "experiment", "variant", "run", "stat", "unit", "digits", NULL };
static const char *const summary_keys[] = { "experiment", NULL };
static const char *const figure_keys[] = { "experiment", "run", "kind", "path", NULL };

static int check_keys(struct ctx *c, const struct md_marker *m, const char *const *allowed,
		      const char *const *required)
{
	const char *bad = md_unknown_attr(m, allowed);
	if (bad)
		return error("%s:%d: the '%s' marker takes no '%s' (it takes: %s%s%s%s%s%s)", c->file, m->line,
			     m->name, bad, allowed[0], allowed[1] ? ", " : "", allowed[1] ? allowed[1] : "",
			     allowed[1] && allowed[2] ? ", " : "", allowed[1] && allowed[2] ? allowed[2] : "",
			     allowed[1] && allowed[2] && allowed[3] ? ", ..." : "");
	for (size_t i = 0; required && required[i]; i++)
		if (!md_attr(m, required[i]))
			return error("%s:%d: the '%s' marker needs %s=...%s", c->file, m->line, m->name,
				     required[i],
				     !strcmp(required[i], "run") ? " (run=latest, or run=RUN_ID to pin a batch)" : "");
	return 0;
}

static void missing(struct ctx *c, const char *why, struct strbuf *out, int inline_value)
{
	error("%s:%d: %s", c->file, c->line, why);
	c->r->missing++;
	if (inline_value)
		strbuf_addstr(out, "**[no recorded run]**");
	else
		strbuf_addf(out, "\n*No recorded run: %s.*\n\n", why);
}

/* Generate the content of marker m into out.  Returns 0 or -1 (malformed). */
static int generate(struct ctx *c, const struct md_marker *m, struct strbuf *out)
{
	struct strbuf why = STRBUF_INIT;
	const char *name = m->name;
	const char *exp = md_attr(m, "experiment"), *run = md_attr(m, "run");
	int rc = 0;
	c->line = m->line;
	c->r->blocks++;
	if (!strcmp(name, "table") || !strcmp(name, "provenance")) {
		static const char *const req[] = { "experiment", "run", NULL };
		if ((rc = check_keys(c, m, table_keys, req)) < 0)
			goto out;
		json_t *b = qj_batch(c->q, exp, run, NULL, &why);
		if (!b)
			missing(c, why.buf, out, 0);
		else if (!strcmp(name, "table"))
			gen_table(c, b, run, out);
		else {
			strbuf_addstr(out, "\n");
			add_dirty_note(b, out);
			add_provenance(c, b, run, out);
			strbuf_addstr(out, "\n");
		}
	} else if (!strcmp(name, "value")) {
		static const char *const req[] = { "run", "stat", NULL };
		if ((rc = check_keys(c, m, value_keys, req)) < 0)
			goto out;
		const char *stat = md_attr(m, "stat"), *dg = md_attr(m, "digits");
		int digits = dg ? atoi(dg) : -1;
		if (!qj_stat_known(stat)) {
			rc = error("%s:%d: unknown stat '%s' (known: %s)", c->file, m->line, stat, qj_stat_names);
			goto out;
		}
		if (!strcmp(run, "latest") && (!exp || !md_attr(m, "variant"))) {
			rc = error("%s:%d: a value with run=latest needs experiment=... and variant=...", c->file,
				   m->line);
			goto out;
		}
		json_t *b, *row, *vr;
		double v, ci[2];
		int have_ci;
		const char *kind;
		if (qj_resolve(c->q, exp, md_attr(m, "variant"), run, &b, &row, &vr, &why) < 0)
			missing(c, why.buf, out, 1);
		else if (qj_stat(b, row, vr, stat, &v, ci, &have_ci, &kind, &why) < 0)
			missing(c, why.buf, out, 1);
		else if (paper_format_stat(out, v, stat, kind, md_attr(m, "unit"), digits) < 0)
			rc = -1;
	} else if (!strcmp(name, "negative") || !strcmp(name, "cost")) {
		if ((rc = check_keys(c, m, summary_keys, NULL)) < 0)
			goto out;
		if (!strcmp(name, "negative"))
			gen_negative(c, exp, out);
		else
			gen_cost(c, exp, out);
	} else if (!strcmp(name, "figure")) {
		static const char *const req[] = { "experiment", "run", "kind", "path", NULL };
		if ((rc = check_keys(c, m, figure_keys, req)) < 0)
			goto out;
		const char *kind = md_attr(m, "kind"), *path = md_attr(m, "path");
		if (strcmp(kind, "ecdf") && strcmp(kind, "box") && strcmp(kind, "speedup")) {
			rc = error("%s:%d: unknown figure kind '%s' (use ecdf, box or speedup)", c->file, m->line, kind);
			goto out;
		}
		if (strlen(path) < 5 || strcmp(path + strlen(path) - 4, ".svg") || strstr(path, "..")) {
			rc = error("%s:%d: figure path '%s' must be a relative path ending in .svg, without '..'",
				   c->file, m->line, path);
			goto out;
		}
		json_t *b = qj_batch(c->q, exp, run, NULL, &why);
		if (!b)
			missing(c, why.buf, out, 0);
		else
			rc = gen_figure(c, b, kind, path, out);
	} else {
		rc = error("%s:%d: unknown block 'evident:%s' (known: table, provenance, value, figure, negative, cost)",
			   c->file, m->line, name);
	}
out:
	strbuf_release(&why);
	return rc;
}

int paper_render(struct qj *q, const char *file, const char *text, size_t len,
		 const struct paper_opts *o, struct strbuf *out, struct paper_result *r)
{
	struct md_doc d = MD_DOC_INIT;
	struct ctx c = { q, o, r, file, 0 };
	int rc = -1;
	memset(r, 0, sizeof(*r));
	if (md_parse(&d, file, text, len) < 0)
		goto fail;
	size_t pos = 0;
	for (size_t i = 0; i < d.n; i++) {
		const struct md_marker *m = &d.mk[i];
		if (m->kind == MD_CLAIM || m->kind == MD_SETTING)
			continue;
		if (m->kind == MD_CLOSE) {
			error("%s:%d: '<!-- /evident:%s -->' closes no open block; remove it or add its opening marker",
			      file, m->line, m->name);
			goto fail;
		}
		long close = md_find_close(&d, i);
		strbuf_add(out, text + pos, m->end - pos);
		if (generate(&c, m, out) < 0)
			goto fail;
		if (close < 0) { /* first generation: add the closing marker */
			strbuf_addf(out, "<!-- /evident:%s -->", m->name);
			pos = m->end;
		} else {
			pos = d.mk[close].start;
			i = (size_t)close - 1; /* the close is copied with the text after it */
			strbuf_add(out, text + pos, d.mk[close].end - pos);
			pos = d.mk[close].end;
			i++;
		}
	}
	strbuf_add(out, text + pos, len - pos);
	rc = 0;
fail:
	md_release(&d);
	return rc;
}
