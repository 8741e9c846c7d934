/*
 * paper.c - the generated blocks of a markdown paper (contract in paper.h,
 * reference in docs/paper.md).
 *
 * paper_render walks the markers that mdscan found and copies the text
 * between them untouched; for each opening marker it emits the marker,
 * then freshly generated content, then the closing marker.  Every block
 * reads one batch (query_batch), chosen explicitly by run=latest or a run
 * id, so a table never mixes runs of different commits or GPUs; the
 * provenance line under each table names that batch, its commit (and says
 * when the tree was dirty), device, driver, date and run ids.
 *
 * Everything comes from the typed records of query.h: tables from a
 * batch's rows (evident-batch/1 and /2; a /2 table adds the repeats, the
 * throughput, the verdict's reason and the timing-health notes), values
 * through record_stat (the one table of statistics, so a value here is
 * the number show, export and audit give), the cost block from the index
 * attrs alone, the negative block from attrs, opening only the runs it
 * lists and the batches.
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

#include "report/lineage.h"
#include "report/mdscan.h"
#include "report/paper_internal.h"
#include "report/svg.h"
#include "stats/stats.h"

/* ---------- formatting ---------- */

/* text made safe for a table cell or a line: one line, no '|' or '`', at most max bytes */
void paper_clean(struct strbuf *out, const char *s, size_t max, int cell)
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

/* The unit a statistic's value is written with after its number ("us",
 * "x", "GFLOP/s"; unit: the value's unit= for a time), or NULL where it
 * has none there ($0.0123, a p-value, a count). */
static const char *stat_unit(const struct stat_def *d, const char *stat, const char *unit)
{
	switch (d->kind) {
	case STAT_TIME:
		return unit ? unit : "us";
	case STAT_RATIO:
		return "x";
	case STAT_FLOPS:
		return !strcmp(stat, "tflops") ? "TFLOP/s" : "GFLOP/s";
	case STAT_BW:
		return "GB/s";
	default:
		return NULL;
	}
}

/* paper_format_stat, with its unit after the number or (with_unit = 0)
 * the number alone. */
static int format_stat(struct strbuf *out, double v, const char *stat, const char *unit, int digits,
		       int with_unit)
{
	const struct stat_def *d = record_stat_def(stat);
	if (!d)
		return error("unknown statistic '%s' (known: %s)", stat, record_stat_names());
	if (unit && d->kind != STAT_TIME)
		return error("unit='%s' applies only to times (the *_us statistics), not to '%s'", unit, stat);
	const char *u = stat_unit(d, stat, unit);
	/* a ratio's x sticks to its number (1.34x); other units stand apart */
	const char *sep = d->kind == STAT_RATIO ? "" : " ";
	switch (d->kind) {
	case STAT_TIME: {
		double scale = 1;
		if (!strcmp(u, "ms"))
			scale = 1e-3;
		else if (!strcmp(u, "s"))
			scale = 1e-6;
		else if (strcmp(u, "us"))
			return error("unit='%s' is not a time unit (use us, ms or s)", u);
		strbuf_addf(out, "%.*f", digits >= 0 ? digits : 2, v * scale);
		break;
	}
	case STAT_RATIO:
		strbuf_addf(out, "%.*f", digits >= 0 ? digits : 2, v);
		break;
	case STAT_FLOPS:
	case STAT_BW:
		strbuf_addf(out, "%.*f", digits >= 0 ? digits : 1, v);
		break;
	case STAT_USD:
		strbuf_addf(out, "$%.*f", digits >= 0 ? digits : 4, v);
		break;
	case STAT_P:
		if (digits >= 0)
			strbuf_addf(out, "%.*g", digits, v);
		else
			add_p(out, v);
		break;
	case STAT_PLAIN:
		if (!strcmp(stat, "n") || !strcmp(stat, "repeats"))
			strbuf_addf(out, "%.0f", v);
		else if (!strcmp(stat, "max_abs_err"))
			strbuf_addf(out, "%.*g", digits >= 0 ? digits : 3, v);
		else
			strbuf_addf(out, "%.*f", digits >= 0 ? digits : 2, v);
		break;
	}
	if (u && with_unit)
		strbuf_addf(out, "%s%s", sep, u);
	return 0;
}

int paper_format_stat(struct strbuf *out, double v, const char *stat, const char *unit, int digits)
{
	return format_stat(out, v, stat, unit, digits, 1);
}

/* Does the prose right after a value block (text[0..len)) begin with the
 * unit the value would print, as a word of its own, after blanks and at
 * most one line break (markdown renders it as a space)?  Then the writer
 * wrote the unit (-->6.6<!-- /evident:value --> GFLOP/s) and the value
 * leaves it out, so it is never written twice. */
static int prose_has_unit(const char *text, size_t len, const char *unit)
{
	size_t i = 0, n = unit ? strlen(unit) : 0;
	int breaks = 0;
	while (i < len && (text[i] == ' ' || text[i] == '\t' || (text[i] == '\n' && !breaks++)))
		i++;
	if (!n || len - i < n || memcmp(text + i, unit, n))
		return 0;
	i += n;
	return i == len || !(isalnum((unsigned char)text[i]) || text[i] == '_');
}

static const char *basename_of(const char *p)
{
	const char *s = p ? strrchr(p, '/') : NULL;
	return s ? s + 1 : p;
}

/* "2026-11-22T04:04:57.123Z" -> "2026-11-22 04:04:57 UTC" */
void paper_add_date(struct strbuf *out, const char *iso)
{
	if (!iso || strlen(iso) < 19) {
		strbuf_addstr(out, "unknown date");
		return;
	}
	strbuf_addf(out, "%.10s %.8s UTC", iso, iso + 11);
}

/* ---------- blocks ---------- */

/* The kernel file of a row: the batch's (v2), else its run's (v1). */
static const char *row_kernel(struct query *q, const struct batch_row *row)
{
	const struct run_record *run;
	if (row->kernel)
		return row->kernel;
	run = query_row_run(q, row);
	return run ? run->kernel : NULL;
}

/* The device label of a row's first run (malloc'd), or NULL without a run. */
char *paper_row_device(struct query *q, const struct batch_row *row)
{
	const struct run_record *run = query_row_run(q, row);
	return run ? run_device_label(run) : NULL;
}

/* Parameter names (and "kernel") whose value differs between rows; *n of
 * them in a malloc'd array of borrowed names. */
static const char **differing_params(struct query *q, const struct batch_record *b, size_t *n)
{
	size_t n_names = 0, cap = 1;
	for (size_t i = 0; i < b->n_rows; i++)
		cap += b->rows[i].n_params;
	const char **names = xcalloc(cap, sizeof(char *));
	for (size_t i = 0; i < b->n_rows; i++)
		for (size_t k = 0; k < b->rows[i].n_params; k++) {
			const char *name = b->rows[i].params[k].name;
			size_t j;
			for (j = 0; j < n_names && strcmp(names[j], name); j++)
				;
			if (j == n_names)
				names[n_names++] = name;
		}
	const char **out = xcalloc(n_names + 2, sizeof(char *));
	*n = 0;
	const char *first_kernel = NULL;
	int kernel_differs = 0;
	for (size_t i = 0; i < b->n_rows; i++) {
		const char *kp = row_kernel(q, &b->rows[i]);
		if (!i)
			first_kernel = kp;
		else if (kp && first_kernel && strcmp(kp, first_kernel))
			kernel_differs = 1;
	}
	if (kernel_differs)
		out[(*n)++] = "kernel";
	for (size_t j = 0; j < n_names; j++) {
		const char *first = NULL;
		int differs = 0;
		for (size_t i = 0; i < b->n_rows; i++) {
			const char *pv = row_param(&b->rows[i], names[j]);
			if (!i)
				first = pv;
			else if (!first != !pv || (pv && first && strcmp(pv, first)))
				differs = 1;
		}
		if (differs)
			out[(*n)++] = names[j];
	}
	free(names);
	return out;
}

static void add_provenance(struct paper_ctx *c, const struct batch_record *b, const char *run_arg, struct strbuf *out)
{
	const struct run_record *first = b->n_rows ? query_row_run(c->q, &b->rows[0]) : NULL;
	strbuf_addf(out, "*Provenance:* experiment `%s`, batch `%s` (%s); ", b->experiment, b->run_id,
		    !strcmp(run_arg, "latest") ? "latest" : "pinned by run id");
	if (b->git.commit)
		strbuf_addf(out, "commit `%.12s` (%s)", b->git.commit, b->git.dirty ? "**dirty**" : "clean");
	else
		strbuf_addstr(out, "no git commit recorded");
	char *dev = first ? run_device_label(first) : xstrdup("unknown device");
	strbuf_addf(out, "; %s", dev);
	if (first && first->driver)
		strbuf_addf(out, ", driver %s", first->driver);
	if (b->backend)
		strbuf_addf(out, " (%s backend)", b->backend);
	strbuf_addstr(out, "; recorded ");
	paper_add_date(out, first ? first->started_utc : NULL);
	if (b->problem.name || b->problem.n_dims) {
		strbuf_addf(out, "; %s", b->problem.name ? b->problem.name : "");
		for (size_t i = 0; i < b->problem.n_dims; i++)
			strbuf_addf(out, " %s=%lld", b->problem.dim_names[i], b->problem.dims[i]);
		if (b->problem.dtype)
			strbuf_addf(out, " %s", b->problem.dtype);
	}
	int devices_differ = 0;
	for (size_t i = 0; i < b->n_rows; i++) {
		const struct run_record **runs;
		size_t n = query_row_runs(c->q, &b->rows[i], &runs);
		for (size_t k = 0; k < n; k++) {
			char *d = run_device_label(runs[k]);
			devices_differ |= strcmp(d, dev) != 0;
			free(d);
		}
		free(runs);
	}
	/* every run, in row order (a row's repeats in order) */
	strbuf_addstr(out, "; runs");
	for (size_t i = 0, k = 0; i < b->n_rows; i++)
		for (size_t j = 0; j < b->rows[i].n_runs; j++)
			strbuf_addf(out, "%s `%s`", k++ ? "," : "", b->rows[i].runs[j]);
	strbuf_addstr(out, ".");
	if (devices_differ)
		strbuf_addstr(out, " **Warning: the variants of this batch ran on different devices.**");
	free(dev);
	/* a pinned batch that is not the newest says so */
	const char *newest = query_newest_batch_id(c->q, b->experiment);
	if (newest && strcmp(newest, b->run_id))
		strbuf_addf(out, " A newer batch of `%s` exists: `%s`.", b->experiment, newest);
	strbuf_addstr(out, "\n");
}

static void add_dirty_note(const struct batch_record *b, struct strbuf *out)
{
	if (!b->git.dirty)
		return;
	strbuf_addf(out, "> **Dirty tree:** these runs were recorded from uncommitted changes (%lld changed file(s)",
		    b->git.n_changed);
	if (b->git.diff_object)
		strbuf_addf(out, "; the diff is object `%.12s`", b->git.diff_object);
	strbuf_addstr(out, "); commit `");
	strbuf_addf(out, "%.12s", b->git.commit ? b->git.commit : "none");
	strbuf_addstr(out, "` alone does not reproduce them.\n\n");
}

/* " V [LO, HI] |", or " |" when v is not recorded */
static void add_cell_ci(struct strbuf *out, double v, const double ci[2], const char *fmt_v, const char *fmt_ci)
{
	if (!isfinite(v)) {
		strbuf_addstr(out, " |");
		return;
	}
	strbuf_addch(out, ' ');
	strbuf_addf(out, fmt_v, v);
	if (isfinite(ci[0]) && isfinite(ci[1])) {
		strbuf_addstr(out, " [");
		strbuf_addf(out, fmt_ci, ci[0]);
		strbuf_addstr(out, ", ");
		strbuf_addf(out, fmt_ci, ci[1]);
		strbuf_addstr(out, "]");
	}
	strbuf_addstr(out, " |");
}

/* The throughput columns a batch's table has: FLOP rate (T or G) and bandwidth, v2 only. */
struct tput {
	int flops, bw;
	const char *flops_stat;      /* "tflops" or "gflops" */
};

static void table_tput(struct query *q, const struct batch_record *b, struct tput *t)
{
	memset(t, 0, sizeof(*t));
	if (b->version < 2)
		return; /* the first landing's tables stay as they were published */
	t->flops = isfinite(b->problem.flops) && b->problem.flops > 0;
	t->bw = isfinite(b->problem.min_bytes) && b->problem.min_bytes > 0;
	t->flops_stat = "gflops";
	for (size_t i = 0; t->flops && i < b->n_rows; i++) {
		double v, ci[2];
		int have_ci;
		struct strbuf why = STRBUF_INIT;
		if (query_stat(q, b, &b->rows[i], "tflops", &v, ci, &have_ci, &why) == 0 && v >= 1)
			t->flops_stat = "tflops";
		strbuf_release(&why);
	}
}

static void add_tput_cell(struct query *q, const struct batch_record *b, const struct batch_row *row,
			  const char *stat, struct strbuf *out)
{
	double v, ci[2];
	int have_ci;
	struct strbuf why = STRBUF_INIT;
	if (query_stat(q, b, row, stat, &v, ci, &have_ci, &why) == 0) {
		strbuf_addch(out, ' ');
		record_rate_add(out, v); /* three significant digits: record_throughput's number */
	}
	strbuf_addstr(out, " |");
	strbuf_release(&why);
}

/* The money of a row's runs: "$0.0123", "1.2 GPU-s, no price" or "n/a". */
static void add_cost_cell(struct query *q, const struct batch_row *row, struct strbuf *out)
{
	const struct run_record **runs;
	size_t n = query_row_runs(q, row, &runs);
	double usd = 0, gpu = 0;
	int priced = n > 0;
	for (size_t i = 0; i < n; i++) {
		if (runs[i]->cost.have_usd)
			usd += runs[i]->cost.usd;
		else
			priced = 0;
		if (runs[i]->cost.gpu_s > 0)
			gpu += runs[i]->cost.gpu_s;
	}
	free(runs);
	if (priced)
		strbuf_addf(out, " | $%.4f |\n", usd);
	else if (gpu > 0)
		strbuf_addf(out, " | %.1f GPU-s, no price |\n", gpu);
	else
		strbuf_addstr(out, " | n/a |\n");
}

/* Does one of the batch's notes already say text? */
int paper_in_notes(const struct batch_record *b, const char *text)
{
	for (size_t i = 0; i < json_array_size(b->notes); i++) {
		const char *n = json_string_value(json_array_get(b->notes, i));
		if (n && strstr(n, text))
			return 1;
	}
	return 0;
}

/* A note line's start: "- ", and with exp "- `EXP`, ". */
static void note_lead(struct strbuf *out, const char *exp)
{
	strbuf_addstr(out, "- ");
	if (exp) {
		strbuf_addch(out, '`');
		paper_clean(out, exp, 120, 0);
		strbuf_addstr(out, "`, ");
	}
}

int paper_batch_notes(const struct batch_record *b, const char *exp, struct strbuf *out)
{
	size_t i;
	json_t *n;
	int any = 0;
	json_array_foreach(b->notes, i, n)
	{
		note_lead(out, exp);
		strbuf_addstr(out, "note: ");
		paper_clean(out, json_string_value(n), 400, 0);
		strbuf_addstr(out, "\n");
		any = 1;
	}
	for (size_t k = 0; b->version >= 2 && k < b->n_rows; k++) {
		const struct batch_row *row = &b->rows[k];
		if (!row->health_note || paper_in_notes(b, row->health_note))
			continue;
		note_lead(out, exp);
		strbuf_addstr(out, "timing health of `");
		paper_clean(out, row->variant, 80, 0);
		strbuf_addstr(out, "`: ");
		paper_clean(out, row->health_note, 400, 0);
		strbuf_addstr(out, "\n");
		any = 1;
	}
	return any;
}

static void gen_table(struct paper_ctx *c, const struct batch_record *b, const char *run_arg, struct strbuf *out)
{
	size_t n_diff;
	const char **diff = differing_params(c->q, b, &n_diff);
	const char *baseline = b->baseline;
	int v2 = b->version >= 2;
	struct tput tp;
	table_tput(c->q, b, &tp);
	/* a kernel clock's table shows the CUDA-event median of the same samples beside it */
	int ev = 0;
	for (size_t i = 0; v2 && i < b->n_rows; i++)
		ev |= b->rows[i].have_stats && isfinite(b->rows[i].event_median_us);
	strbuf_addstr(out, "\n");
	add_dirty_note(b, out);
	strbuf_addstr(out, "| variant | parameters | outcome |");
	if (v2)
		strbuf_addstr(out, " repeats ok |");
	strbuf_addstr(out, " median us [95% CI] |");
	if (ev)
		strbuf_addstr(out, " events us |");
	if (tp.flops)
		strbuf_addf(out, " %s |", !strcmp(tp.flops_stat, "tflops") ? "TFLOP/s" : "GFLOP/s");
	if (tp.bw)
		strbuf_addstr(out, " GB/s |");
	strbuf_addf(out, " speedup [95%% CI] | %s | Cliff's delta [95%% CI] | verdict | device | cost |\n",
		    b->holm_comparisons > 1 ? "p (Holm)" : "p");
	strbuf_addf(out, "|---|---|---|%s---:|%s%s%s---:|---:|---|---|---|---:|\n", v2 ? "---:|" : "",
		    ev ? "---:|" : "", tp.flops ? "---:|" : "", tp.bw ? "---:|" : "");
	for (size_t i = 0; i < b->n_rows; i++) {
		const struct batch_row *row = &b->rows[i];
		const char *variant = row->variant;
		int is_base = baseline && variant && !strcmp(baseline, variant);
		strbuf_addstr(out, "| ");
		paper_clean(out, variant, 80, 1);
		if (is_base)
			strbuf_addstr(out, " (baseline)");
		strbuf_addstr(out, " |");
		for (size_t j = 0; j < n_diff; j++) {
			const char *k = diff[j];
			const char *v = !strcmp(k, "kernel") ? basename_of(row_kernel(c->q, row)) : row_param(row, k);
			strbuf_addstr(out, j ? ", " : " ");
			paper_clean(out, k, 40, 1);
			strbuf_addch(out, '=');
			paper_clean(out, v ? v : "-", 60, 1);
		}
		strbuf_addstr(out, " |");
		const char *oc = row->outcome_text;
		int bad = oc && strcmp(oc, "ok");
		strbuf_addf(out, " %s%s%s", bad ? "**" : "", oc ? oc : "?", bad ? "**" : "");
		if (bad && row->reason) {
			strbuf_addstr(out, ": ");
			paper_clean(out, row->reason, 60, 1);
		}
		strbuf_addstr(out, " |");
		if (v2)
			strbuf_addf(out, " %zu/%zu |", row->n_ok_runs, row->n_runs);
		static const double no_ci[2] = { NAN, NAN };
		add_cell_ci(out, row->have_stats ? row->stats.median : NAN, row->have_stats ? row->stats.median_ci : no_ci,
			    "%.2f", "%.2f");
		if (ev) {
			if (row->have_stats && isfinite(row->event_median_us))
				strbuf_addf(out, " %.2f |", row->event_median_us);
			else
				strbuf_addstr(out, " |");
		}
		if (tp.flops)
			add_tput_cell(c->q, b, row, tp.flops_stat, out);
		if (tp.bw)
			add_tput_cell(c->q, b, row, "gbps", out);
		if (row->have_cmp) {
			const struct stats_comparison *cmp = &row->cmp;
			add_cell_ci(out, cmp->speedup, cmp->speedup_ci, "%.3fx", "%.3f");
			strbuf_addch(out, ' ');
			add_p(out, cmp->p_adjusted);
			strbuf_addstr(out, " |");
			add_cell_ci(out, cmp->delta, cmp->delta_ci, "%.2f", "%.2f");
			out->len -= 2; /* append the label inside the cell */
			out->buf[out->len] = '\0';
			strbuf_addf(out, " %s |", cmp->magnitude ? cmp->magnitude : "");
			const char *verdict = cmp->verdict;
			int bold = verdict && strcmp(verdict, "no_difference");
			strbuf_addf(out, " %s%s%s%s", bold ? "**" : "", verdict ? verdict : "", bold ? "**" : "",
				    cmp->one_process ? "" : cmp->small_n ? " (too few samples)" : "");
			if (cmp->one_process) {
				/* rule 0, on a record of any age: short, and saying what the record holds */
				strbuf_addstr(out, ": 1 repeat a side, the variance between processes is unknown");
				if (cmp->verdict_recorded)
					strbuf_addf(out, " (recorded as %s)", cmp->verdict_recorded);
			} else if (v2 && verdict && !strcmp(verdict, "inconclusive") && cmp->verdict_reason) {
				strbuf_addstr(out, ": ");
				paper_clean(out, cmp->verdict_reason, 80, 1);
				/* rule 5 on a record written before it */
				if (cmp->verdict_recorded)
					strbuf_addf(out, " (recorded as %s)", cmp->verdict_recorded);
			}
			if (v2 && verdict && strcmp(verdict, "faster") && strcmp(verdict, "slower") && isfinite(row->mde) &&
			    !cmp->one_process)
				strbuf_addf(out, " (MDE %.2fx)", row->mde);
			strbuf_addstr(out, " |");
		} else if (is_base) {
			strbuf_addstr(out, " 1 (baseline) | | | |");
		} else {
			strbuf_addstr(out, " | | | |");
		}
		char *dev = paper_row_device(c->q, row);
		strbuf_addch(out, ' ');
		paper_clean(out, dev ? dev : "?", 60, 1);
		free(dev);
		add_cost_cell(c->q, row, out);
	}
	free(diff);
	strbuf_addstr(out, "\n");
	if (v2) {
		int any = 0;
		for (size_t i = 0; i < b->n_rows; i++) {
			const struct batch_row *row = &b->rows[i];
			if (!row->have_levels || !isfinite(row->levels.frac_between))
				continue;
			if (!any++)
				strbuf_addf(out, "*Repeats:* each variant ran in %d worker process%s (%s order); medians, CIs and "
					    "p-values are two-level (samples within repeats, repeats within the variant). "
					    "Share of the variance between repeats:",
					    b->repeats, b->repeats == 1 ? "" : "es", b->order ? b->order : "planned");
			strbuf_addf(out, "%s `", any > 1 ? "," : "");
			paper_clean(out, row->variant, 80, 0);
			strbuf_addf(out, "` %.0f%%", 100 * row->levels.frac_between);
		}
		if (any)
			strbuf_addstr(out, ".\n\n");
	}
	if (paper_batch_notes(b, NULL, out))
		strbuf_addstr(out, "\n");
	if (b->interrupted)
		strbuf_addstr(out, "*This batch was interrupted: variants after the last row never ran.*\n\n");
	add_provenance(c, b, run_arg, out);
	strbuf_addstr(out, "\n");
}

/* One line for a run that did not end ok (only runs the attrs say failed are opened). */
static void add_failed_run(const struct run_record *r, struct strbuf *sec)
{
	strbuf_addstr(sec, "- `");
	paper_clean(sec, r->variant, 80, 0);
	strbuf_addf(sec, "`: **%s**", r->outcome_text ? r->outcome_text : "?");
	if (r->expect_met)
		strbuf_addstr(sec, " (expected)");
	if (r->reason) {
		strbuf_addstr(sec, ": ");
		paper_clean(sec, r->reason, 300, 0);
	}
	struct rec_phase ph[8];
	size_t np = record_check_phases(r, ph, ARRAY_SIZE(ph));
	for (size_t k = 0; k < np; k++)
		if (!strcmp(ph[k].phase, "seed") && ph[k].failed)
			strbuf_addf(sec, "; max |err| %.3g, %zu of %zu seeds failed", ph[k].max_abs_err, ph[k].failed,
				    ph[k].n);
	strbuf_addf(sec, " (run `%s`, ", r->run_id);
	if (r->repeats > 1)
		strbuf_addf(sec, "repeat %d of %d, ", r->repeat + 1, r->repeats);
	paper_add_date(sec, r->started_utc);
	strbuf_addf(sec, ", commit `%.12s`%s)\n", r->git.commit ? r->git.commit : "none", r->git.dirty ? " dirty" : "");
}

static void add_slower_rows(const struct batch_record *b, struct strbuf *sec)
{
	for (size_t k = 0; k < b->n_rows; k++) {
		const struct batch_row *row = &b->rows[k];
		const char *vd = row->have_cmp ? row->cmp.verdict : NULL;
		if (!vd || strcmp(vd, "slower"))
			continue;
		strbuf_addstr(sec, "- `");
		paper_clean(sec, row->variant, 80, 0);
		strbuf_addstr(sec, "`: **slower** than `");
		paper_clean(sec, b->baseline, 80, 0);
		strbuf_addf(sec, "`: speedup %.3fx [%.3f, %.3f], p (Holm) ", row->cmp.speedup, row->cmp.speedup_ci[0],
			    row->cmp.speedup_ci[1]);
		add_p(sec, row->cmp.p_adjusted);
		if (b->version < 2)
			strbuf_addf(sec, " (run `%s`, batch `%s`)\n", row->run_id, b->run_id);
		else
			strbuf_addf(sec, " (%zu run%s, batch `%s`)\n", row->n_runs, row->n_runs == 1 ? "" : "s", b->run_id);
	}
	size_t i;
	json_t *n;
	json_array_foreach(b->notes, i, n)
	{
		strbuf_addstr(sec, "- note: ");
		paper_clean(sec, json_string_value(n), 400, 0);
		strbuf_addf(sec, " (batch `%s`)\n", b->run_id);
	}
}

/* one line per failure or significant slowdown, grouped by experiment */
static void gen_negative(struct paper_ctx *c, const char *only, struct strbuf *out)
{
	size_t ne;
	const char **exps = query_experiments(c->q, &ne);
	int any = 0;
	strbuf_addstr(out, "\n");
	for (size_t ei = 0; ei < ne; ei++) {
		const char *exp = exps[ei];
		if (only && strcmp(only, exp))
			continue;
		struct strbuf sec = STRBUF_INIT;
		for (size_t i = 0; i < c->q->n; i++) {
			const struct record_attrs *a = &c->q->e[i].a;
			if (!a->experiment || strcmp(a->experiment, exp))
				continue;
			if (a->is_batch) {
				const struct batch_record *b = query_batch_at(c->q, i);
				if (b)
					add_slower_rows(b, &sec);
			} else if (a->outcome && strcmp(a->outcome, "ok")) {
				const struct run_record *r = query_run_at(c->q, i);
				if (r)
					add_failed_run(r, &sec);
			}
		}
		if (sec.len) {
			strbuf_addf(out, "**Experiment `%s`**\n\n%s\n", exp, sec.buf);
			any = 1;
		}
		strbuf_release(&sec);
	}
	free(exps);
	if (!any)
		strbuf_addf(out, "No negative results recorded%s%s%s.\n\n", only ? " for `" : "", only ? only : "",
			    only ? "`" : "");
}

/* Wilson score interval of k successes in n trials, 95% */
static void wilson95(long k, long n, double *lo, double *hi)
{
	const double z = 1.959963984540054;
	double p = (double)k / n, d = 1 + z * z / n;
	double mid = (p + z * z / (2.0 * n)) / d;
	double h = z * sqrt(p * (1 - p) / n + z * z / (4.0 * n * n)) / d;
	*lo = mid - h < 0 ? 0 : mid - h;
	*hi = mid + h > 1 ? 1 : mid + h;
}

/*
 * The A/A calibration of an experiment whose variants are all the same
 * code (the author says so by using this block): over every batch of it
 * that is not a reproduction, the verdicts of the comparisons with the
 * baseline, by repeats a side.  Every `faster` or `slower` there is a
 * false positive; the rate comes with its 95% Wilson interval, and the
 * batches and devices it counts are named, so the figure is traceable.
 * Verdicts are read as the record module reads them today (one repeat a
 * side is inconclusive whatever was recorded).
 */
static void gen_calibration(struct paper_ctx *c, const char *exp, struct strbuf *out)
{
	enum { MAXG = 8 };
	struct { int repeats; long batches, cmp, faster, slower, nodiff, inconcl; } g[MAXG];
	size_t ng = 0;
	struct strbuf ids = STRBUF_INIT, devs = STRBUF_INIT;
	long nb = 0;
	for (size_t i = 0; i < c->q->n; i++) {
		const struct record_attrs *a = &c->q->e[i].a;
		if (!a->is_batch || !a->experiment || strcmp(a->experiment, exp) || a->reproduces)
			continue;
		const struct batch_record *b = query_batch_at(c->q, i);
		if (!b)
			continue;
		size_t k;
		for (k = 0; k < ng && g[k].repeats != b->repeats; k++)
			;
		if (k == ng) {
			if (ng == MAXG)
				continue;
			memset(&g[ng], 0, sizeof(g[ng]));
			g[ng++].repeats = b->repeats;
		}
		g[k].batches++;
		nb++;
		strbuf_addf(&ids, "%s`%s`", ids.len ? ", " : "", b->run_id);
		for (size_t r = 0; r < b->n_rows; r++) {
			const struct batch_row *row = &b->rows[r];
			if (!row->have_cmp || !row->cmp.verdict)
				continue;
			const char *v = row->cmp.verdict;
			g[k].cmp++;
			g[k].faster += !strcmp(v, "faster");
			g[k].slower += !strcmp(v, "slower");
			g[k].nodiff += !strcmp(v, "no_difference");
			g[k].inconcl += !strcmp(v, "inconclusive");
		}
		/* the batch's device, from its first row's run (one manifest a batch) */
		char *d = b->n_rows ? paper_row_device(c->q, &b->rows[0]) : NULL;
		if (d && (!devs.len || !strstr(devs.buf, d)))
			strbuf_addf(&devs, "%s%s", devs.len ? "; " : "", d);
		free(d);
	}
	if (!nb) {
		char *why = xstrfmt("no batch of experiment '%s' in the store", exp);
		paper_missing(c, why, out, 0);
		free(why);
		goto out;
	}
	strbuf_addstr(out, "\n| repeats a side | batches | comparisons | faster | slower | no_difference | "
			   "inconclusive | false-positive rate [95% CI] |\n");
	strbuf_addstr(out, "|---:|---:|---:|---:|---:|---:|---:|---|\n");
	for (size_t k = 0; k < ng; k++) {
		strbuf_addf(out, "| %d | %ld | %ld | %ld | %ld | %ld | %ld | ", g[k].repeats, g[k].batches, g[k].cmp,
			    g[k].faster, g[k].slower, g[k].nodiff, g[k].inconcl);
		long fp = g[k].faster + g[k].slower, decided = g[k].cmp - g[k].inconcl;
		if (!g[k].cmp)
			strbuf_addstr(out, "no comparisons |\n");
		else if (!decided)
			strbuf_addstr(out, "none decided: every verdict inconclusive |\n");
		else {
			double lo, hi;
			wilson95(fp, g[k].cmp, &lo, &hi);
			strbuf_addf(out, "%ld/%ld = %.1f%% [%.1f%%, %.1f%%] |\n", fp, g[k].cmp, 100.0 * fp / g[k].cmp,
				    100 * lo, 100 * hi);
		}
	}
	strbuf_addf(out, "\n*Calibration:* experiment `%s`, every batch that is not a reproduction (%ld): %s; on %s. "
			 "Verdicts as evident reads them now (one repeat a side is inconclusive).\n\n",
		    exp, nb, ids.buf, devs.len ? devs.buf : "unknown device");
out:
	strbuf_release(&ids);
	strbuf_release(&devs);
}

/* wall and GPU seconds and money per experiment, from the index attrs alone */
static void gen_cost(struct paper_ctx *c, const char *only, struct strbuf *out)
{
	size_t ne;
	const char **exps = query_experiments(c->q, &ne);
	double t_wall = 0, t_gpu = 0, t_usd = 0;
	int t_b = 0, t_r = 0, t_bad = 0, t_unpriced = 0;
	strbuf_addstr(out, "\n| experiment | batches | variant runs | not ok | wall s | GPU s | cost |\n");
	strbuf_addstr(out, "|---|---:|---:|---:|---:|---:|---:|\n");
	for (size_t ei = 0; ei < ne; ei++) {
		const char *exp = exps[ei];
		if (only && strcmp(only, exp))
			continue;
		double wall = 0, gpu = 0, usd = 0;
		int nb = 0, nr = 0, bad = 0, unpriced = 0;
		for (size_t i = 0; i < c->q->n; i++) {
			const struct record_attrs *a = &c->q->e[i].a;
			if (!a->experiment || strcmp(a->experiment, exp))
				continue;
			if (a->is_batch) {
				nb++;
				continue;
			}
			if (a->is_search)
				continue; /* its runs are counted as runs */
			nr++;
			bad += a->outcome && strcmp(a->outcome, "ok");
			wall += isnan(a->wall_s) ? 0 : a->wall_s;
			gpu += isnan(a->gpu_s) ? 0 : a->gpu_s;
			if (!isnan(a->usd))
				usd += a->usd;
			else if (a->gpu_s > 0)
				unpriced++;
		}
		strbuf_addf(out, "| `%s` | %d | %d | %d | %.1f | %.1f | ", exp, nb, nr, bad, wall, gpu);
		if (gpu > 0 || usd > 0)
			strbuf_addf(out, "$%.4f%s", usd, unpriced ? " + unpriced runs" : "");
		else
			strbuf_addstr(out, "n/a (no GPU time)");
		strbuf_addstr(out, " |\n");
		t_wall += wall, t_gpu += gpu, t_usd += usd;
		t_b += nb, t_r += nr, t_bad += bad, t_unpriced += unpriced;
	}
	free(exps);
	strbuf_addf(out, "| **total** | %d | %d | %d | %.1f | %.1f | ", t_b, t_r, t_bad, t_wall, t_gpu);
	if (t_gpu > 0 || t_usd > 0)
		strbuf_addf(out, "$%.4f%s", t_usd, t_unpriced ? " + unpriced runs" : "");
	else
		strbuf_addstr(out, "n/a (no GPU time)");
	strbuf_addstr(out, " |\n\n");
	strbuf_addstr(out, "*Cost:* wall and GPU seconds summed over every recorded variant run; money from each run's price (data/gpu-prices.yaml at the time of the run).\n\n");
}

/* Write bytes to path only when they differ from what is there (atomic). */
int paper_write_if_changed(const char *path, const struct strbuf *body, int write, int *changed)
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

static int gen_figure(struct paper_ctx *c, const struct batch_record *b, const char *kind, const char *path,
		      struct strbuf *out)
{
	size_t n = b->n_rows;
	struct svg_series *s = xcalloc(n + 1, sizeof(*s));
	struct svg_interval *iv = xcalloc(n + 1, sizeof(*iv));
	char **labels = xcalloc(n + 1, sizeof(char *));
	char **notes = xcalloc(n + 1, sizeof(char *));
	double **xs = xcalloc(n + 1, sizeof(double *));
	struct strbuf svg = STRBUF_INIT, sub = STRBUF_INIT, title = STRBUF_INIT;
	int rc = -1, ni = 0;
	char *dev = n ? paper_row_device(c->q, &b->rows[0]) : NULL;
	strbuf_addf(&sub, "batch %s; commit %.12s%s; %s", b->run_id, b->git.commit ? b->git.commit : "none",
		    b->git.dirty ? " (dirty)" : "", dev ? dev : "unknown device");
	free(dev);
	for (size_t i = 0; i < n; i++) {
		const struct batch_row *row = &b->rows[i];
		const char *oc = row->outcome_text, *v = row->variant;
		int ok = oc && !strcmp(oc, "ok");
		labels[i] = !ok && oc ? xstrfmt("%s [%s]", v, oc) : xstrdup(v ? v : "?");
		s[i].label = labels[i];
		if (ok && query_row_samples(c->q, row, &xs[i], &s[i].n) < 0)
			goto out;
		s[i].x = xs[i];
		if (!row->have_cmp)
			continue; /* the baseline and failed variants have no speedup */
		iv[ni].label = labels[i];
		iv[ni].v = row->cmp.speedup;
		iv[ni].lo = row->cmp.speedup_ci[0];
		iv[ni].hi = row->cmp.speedup_ci[1];
		struct strbuf nb = STRBUF_INIT;
		strbuf_addf(&nb, "%.3fx, %s, p=", iv[ni].v, row->cmp.verdict ? row->cmp.verdict : "");
		add_p(&nb, row->cmp.p_adjusted);
		notes[i] = strbuf_detach(&nb, NULL);
		iv[ni].note = notes[i];
		ni++;
	}
	if (!strcmp(kind, "ecdf")) {
		strbuf_addf(&title, "%s: distribution of time per launch (ECDF)", b->experiment);
		svg_ecdf(&svg, title.buf, sub.buf, "time per launch (us)", s, n);
	} else if (!strcmp(kind, "box")) {
		strbuf_addf(&title, "%s: time per launch (box: quartiles, whiskers 1.5 IQR)", b->experiment);
		svg_box(&svg, title.buf, sub.buf, "time per launch (us)", s, n);
	} else {
		strbuf_addf(&title, "%s: speedup over %s with 95%% bootstrap CI", b->experiment,
			    b->baseline ? b->baseline : "the baseline");
		svg_forest(&svg, title.buf, sub.buf, "speedup (median baseline / median variant; > 1 is faster)", iv,
			   (size_t)ni, 1.0);
	}
	char *full = c->o->base_dir && path[0] != '/' ? xstrfmt("%s/%s", c->o->base_dir, path) : xstrdup(path);
	rc = paper_write_if_changed(full, &svg, c->o->write_figures, &c->r->figures_changed);
	free(full);
	if (rc == 0)
		strbuf_addf(out, "\n![%s (batch %s)](%s)\n\n", title.buf, b->run_id, path);
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

/* ---------- a search ---------- */

/* A search (record/search.h): what ran and why it stopped, a table of its
 * generations, the tree of its candidates and the figure of the best time
 * per generation with its CI. */
static int gen_search(struct paper_ctx *c, const struct search_record *r, const char *run_arg, const char *path,
		      struct strbuf *out)
{
	strbuf_addf(out, "\n*Search:* experiment `%s`, search `%s` (%s); ", r->experiment ? r->experiment : "?",
		    r->run_id ? r->run_id : "?", !strcmp(run_arg, "latest") ? "latest" : "pinned by id");
	if (r->git.commit)
		strbuf_addf(out, "commit `%.12s` (%s)", r->git.commit, r->git.dirty ? "**dirty**" : "clean");
	else
		strbuf_addstr(out, "no git commit recorded");
	strbuf_addf(out, "; %s backend; recorded ", r->backend ? r->backend : "?");
	paper_add_date(out, r->started_utc);
	strbuf_addf(out, "; %zu generation(s) of up to %lld candidate(s) and the best so far; seed %llu; mutations over",
		    r->n_gens, r->population, r->seed);
	for (size_t i = 0; i < r->n_tunables; i++)
		strbuf_addf(out, "%s `%s`", i ? "," : "", r->tunables[i].name ? r->tunables[i].name : "?");
	if (r->n_kernels)
		strbuf_addf(out, "%s the kernel file", r->n_tunables ? " and" : "");
	strbuf_addstr(out, "; stopped: ");
	paper_clean(out, r->stop_reason ? r->stop_reason : r->stopped, 300, 0);
	if (r->budget_unit)
		strbuf_addf(out, "; budget %.4g %s, %.4g spent", r->budget_limit, r->budget_unit, r->budget_spent);
	strbuf_addstr(out, ".\n\n");
	strbuf_addstr(out, "| generation | batch | best going in | candidates | faster | no_difference | inconclusive | "
			   "slower | failed | knob missed the binary | best after | its median us [95% CI] |\n");
	strbuf_addstr(out, "|---|---|---|---:|---:|---:|---:|---:|---:|---:|---|---|\n");
	for (size_t g = 0; g < r->n_gens; g++) {
		const struct rec_generation *gen = &r->gens[g];
		size_t n = 0, fa = 0, nd = 0, inc = 0, sl = 0, fail = 0, ne = 0;
		for (size_t k = 0; k < gen->n; k++) {
			const struct rec_candidate *cd = &gen->c[k];
			if (cd->role && !strcmp(cd->role, "elite"))
				continue;
			n++;
			const char *v = cd->have_cmp ? cd->verdict : NULL;
			if (cd->no_effect)
				ne++;
			else if (!cd->outcome || strcmp(cd->outcome, "ok"))
				fail++;
			else if (v && !strcmp(v, "faster"))
				fa++;
			else if (v && !strcmp(v, "no_difference"))
				nd++;
			else if (v && !strcmp(v, "slower"))
				sl++;
			else
				inc++;
		}
		strbuf_addf(out, "| %d | `%s` | %s | %zu | %zu | %zu | %zu | %zu | %zu | %zu | %s%s%s |", gen->generation,
			    gen->batch ? gen->batch : "-", gen->best_in ? gen->best_in : "-", n, fa, nd, inc, sl, fail, ne,
			    gen->best_out ? gen->best_out : "-", gen->promoted ? " (promoted)" : "",
			    gen->best_out && !gen->promoted ? " (kept)" : "");
		add_cell_ci(out, gen->best_median_us, gen->best_median_ci, "%.2f", "%.2f");
		strbuf_addstr(out, "\n");
	}
	strbuf_addstr(out, "\n");
	for (size_t g = 0; g < r->n_gens; g++) {
		strbuf_addf(out, "- generation %d: ", r->gens[g].generation);
		paper_clean(out, r->gens[g].why ? r->gens[g].why : "not judged", 600, 0);
		strbuf_addstr(out, "\n");
	}
	strbuf_addstr(out, "\n*Tree* (each candidate where it was first judged; speedups are over the best of its "
			   "generation, p Holm-adjusted over the generation):\n\n");
	struct strbuf tree = STRBUF_INIT;
	lineage_search_tree(r, 1, &tree);
	/* the tree's lines are the record's words: made safe for markdown */
	for (const char *l = tree.buf; l && *l;) {
		const char *e = strchr(l, '\n');
		size_t len = e ? (size_t)(e - l) : strlen(l);
		size_t ind = 0;
		while (ind < len && l[ind] == ' ')
			ind++;
		strbuf_add(out, l, ind);
		char *line = xstrndup(l + ind, len - ind);
		/* keep the list marker and the bold and code marks the tree writes */
		for (char *p = line; *p; p++)
			if (*p == '<')
				*p = '(';
		strbuf_addstr(out, line);
		strbuf_addch(out, '\n');
		free(line);
		l = e ? e + 1 : l + len;
	}
	strbuf_release(&tree);
	for (size_t i = 0; i < json_array_size(r->notes); i++) {
		strbuf_addstr(out, i ? "" : "\n");
		strbuf_addstr(out, "*Note:* ");
		paper_clean(out, json_string_value(json_array_get(r->notes, i)), 400, 0);
		strbuf_addstr(out, "\n");
	}
	/* the figure: the best so far per generation, the start as reference */
	struct svg_point *pt = xcalloc(r->n_gens + 1, sizeof(*pt));
	char **labels = xcalloc(r->n_gens + 1, sizeof(char *));
	for (size_t g = 0; g < r->n_gens; g++) {
		const struct rec_generation *gen = &r->gens[g];
		labels[g] = xstrfmt("generation %d", gen->generation);
		pt[g].label = labels[g];
		pt[g].sub = gen->best_out;
		pt[g].v = gen->best_median_us;
		pt[g].lo = gen->best_median_ci[0];
		pt[g].hi = gen->best_median_ci[1];
	}
	double ref = r->n_gens && r->gens[0].n ? r->gens[0].c[0].median_us : NAN;
	char *ref_label = xstrfmt("start: %s", r->n_gens && r->gens[0].n && r->gens[0].c[0].id ? r->gens[0].c[0].id : "?");
	struct strbuf svg = STRBUF_INIT, title = STRBUF_INIT, sub = STRBUF_INIT;
	strbuf_addf(&title, "%s: the best so far per generation, median with 95%% CI",
		    r->experiment ? r->experiment : "search");
	strbuf_addf(&sub, "search %s; commit %.12s%s; each point measured in its generation's batch",
		    r->run_id ? r->run_id : "?", r->git.commit ? r->git.commit : "none", r->git.dirty ? " (dirty)" : "");
	svg_progress(&svg, title.buf, sub.buf, "time per launch (us)", pt, r->n_gens, ref, ref_label);
	char *full = c->o->base_dir && path[0] != '/' ? xstrfmt("%s/%s", c->o->base_dir, path) : xstrdup(path);
	int rc = paper_write_if_changed(full, &svg, c->o->write_figures, &c->r->figures_changed);
	free(full);
	if (rc == 0)
		strbuf_addf(out, "\n![%s (search %s)](%s)\n\n", title.buf, r->run_id ? r->run_id : "?", path);
	for (size_t g = 0; g < r->n_gens; g++)
		free(labels[g]);
	free(labels);
	free(pt);
	free(ref_label);
	strbuf_release(&svg);
	strbuf_release(&title);
	strbuf_release(&sub);
	return rc;
}

/* ---------- the walk ---------- */

static const char *const table_keys[] = { "experiment", "run", NULL };
static const char *const value_keys[] = { "experiment", "variant", "run", "stat", "unit", "digits", NULL };
static const char *const summary_keys[] = { "experiment", NULL };
static const char *const figure_keys[] = { "experiment", "run", "kind", "path", NULL };
static const char *const search_keys[] = { "experiment", "run", "path", NULL };
static const char *const scaling_keys[] = { "experiments", "runs", "path", "x", "panel", NULL };

static int check_keys(struct paper_ctx *c, const struct md_marker *m, const char *const *allowed,
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

void paper_missing(struct paper_ctx *c, const char *why, struct strbuf *out, int inline_value)
{
	error("%s:%d: %s", c->file, c->line, why);
	c->r->missing++;
	if (inline_value)
		strbuf_addstr(out, "**[no recorded run]**");
	else
		strbuf_addf(out, "\n*No recorded run: %s.*\n\n", why);
}

/* Generate the content of marker m into out.  Returns 0 or -1 (malformed). */
static int generate(struct paper_ctx *c, const struct md_marker *m, struct strbuf *out)
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
		const struct batch_record *b = query_batch(c->q, exp, run, NULL, &why);
		if (!b)
			paper_missing(c, why.buf, out, 0);
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
		if (!record_stat_def(stat)) {
			rc = error("%s:%d: unknown stat '%s' (known: %s)", c->file, m->line, stat, record_stat_names());
			goto out;
		}
		if (!strcmp(run, "latest") && (!exp || !md_attr(m, "variant"))) {
			rc = error("%s:%d: a value with run=latest needs experiment=... and variant=...", c->file,
				   m->line);
			goto out;
		}
		const struct batch_record *b;
		const struct batch_row *row;
		const struct run_record *vr;
		double v, ci[2];
		int have_ci;
		if (query_resolve(c->q, exp, md_attr(m, "variant"), run, &b, &row, &vr, &why) < 0)
			paper_missing(c, why.buf, out, 1);
		else if (query_stat(c->q, b, row, stat, &v, ci, &have_ci, &why) < 0)
			paper_missing(c, why.buf, out, 1);
		else if (format_stat(out, v, stat, md_attr(m, "unit"), digits,
				     !prose_has_unit(c->after, c->after_len,
						     stat_unit(record_stat_def(stat), stat, md_attr(m, "unit")))) < 0)
			rc = -1;
	} else if (!strcmp(name, "negative") || !strcmp(name, "cost")) {
		if ((rc = check_keys(c, m, summary_keys, NULL)) < 0)
			goto out;
		if (!strcmp(name, "negative"))
			gen_negative(c, exp, out);
		else
			gen_cost(c, exp, out);
	} else if (!strcmp(name, "calibration")) {
		static const char *const req[] = { "experiment", NULL };
		if ((rc = check_keys(c, m, summary_keys, req)) < 0)
			goto out;
		gen_calibration(c, exp, out);
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
		const struct batch_record *b = query_batch(c->q, exp, run, NULL, &why);
		if (!b)
			paper_missing(c, why.buf, out, 0);
		else
			rc = gen_figure(c, b, kind, path, out);
	} else if (!strcmp(name, "search")) {
		static const char *const req[] = { "experiment", "run", "path", NULL };
		if ((rc = check_keys(c, m, search_keys, req)) < 0)
			goto out;
		const char *path = md_attr(m, "path");
		if (strlen(path) < 5 || strcmp(path + strlen(path) - 4, ".svg") || strstr(path, "..")) {
			rc = error("%s:%d: figure path '%s' must be a relative path ending in .svg, without '..'",
				   c->file, m->line, path);
			goto out;
		}
		long si = query_search(c->q, exp, run, &why);
		const struct search_record *sr = si >= 0 ? query_search_at(c->q, (size_t)si) : NULL;
		if (!sr)
			paper_missing(c, why.len ? why.buf : "the search record cannot be read", out, 0);
		else
			rc = gen_search(c, sr, run, path, out);
	} else if (!strcmp(name, "scaling")) {
		static const char *const req[] = { "experiments", "runs", NULL };
		if ((rc = check_keys(c, m, scaling_keys, req)) < 0)
			goto out;
		rc = paper_gen_scaling(c, m, out);
	} else {
		rc = error("%s:%d: unknown block 'evident:%s' (known: table, provenance, value, figure, negative, cost, "
			   "calibration, search, scaling)",
			   c->file, m->line, name);
	}
out:
	strbuf_release(&why);
	return rc;
}

int paper_render(struct query *q, const char *file, const char *text, size_t len,
		 const struct paper_opts *o, struct strbuf *out, struct paper_result *r)
{
	struct md_doc d = MD_DOC_INIT;
	struct paper_ctx c = { q, o, r, file, 0, NULL, 0 };
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
		size_t after = close < 0 ? m->end : d.mk[close].end;
		c.after = text + after;
		c.after_len = len - after;
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
