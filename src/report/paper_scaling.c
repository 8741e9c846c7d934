/*
 * paper_scaling.c - the one block of `evident paper` that reads across
 * experiments: a scaling study runs one spec per shape (a spec holds one
 * shape), so "how does each variant's FLOP rate move with S" is a question
 * about several experiments (issue 24; docs/paper.md, "scaling").
 *
 *   <!-- evident:scaling experiments=E1,E2,... runs=latest path=figures/s.svg -->
 *
 * Each experiment contributes exactly one batch, chosen as every block
 * chooses (runs=latest, or one run id a experiment in the same order,
 * `latest` allowed among them), so a row never mixes runs.  The table has
 * a row per experiment (its shape and dtype, batch, device) and a column
 * per variant found in any of the batches (the first batch's order, then
 * the others' new ones), each cell the median's FLOP rate with its
 * fraction of the device's peak, both from the one table of statistics
 * (query_stat: tflops, frac_compute_peak), so a cell is the number show,
 * export, audit and the one-batch table give.  Rows of different devices
 * are named and a warning says the block mixes them; a pinned batch that
 * is not its experiment's newest says so.  The figure (svg_lines) draws
 * the rate against one dimension of the shape (x=, default S, a log2
 * axis), one line per variant, one panel per value of another (panel=,
 * default D).
 *
 * Output depends only on the marker and the records: a second `evident
 * paper` writes the same bytes.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "report/paper_internal.h"
#include "report/code_identity.h"
#include "report/svg.h"

/* One experiment of the block: its batch (NULL: none, said in its row). */
struct sc_row {
	char *exp;                   /* owned */
	const char *run_arg;         /* "latest" or the pinned id (borrowed from the split list) */
	const struct batch_record *b;
	char *device;                /* its runs' device(s) (owned), "mixed: A; B" when they differ */
	char *why;                   /* no batch: why not (owned) */
};

/* Split a comma list into *n owned strings (the array and each is the
 * caller's to free); empty items are kept as "", for the caller to refuse. */
static char **split_commas(const char *s, size_t *n)
{
	size_t cap = 1;
	for (const char *p = s; *p; p++)
		cap += *p == ',';
	char **v = xcalloc(cap, sizeof(char *));
	*n = 0;
	for (const char *p = s;; p++) {
		const char *e = strchr(p, ',');
		v[(*n)++] = e ? xstrndup(p, (size_t)(e - p)) : xstrdup(p);
		if (!e)
			break;
		p = e;
	}
	return v;
}

static void free_list(char **v, size_t n)
{
	for (size_t i = 0; v && i < n; i++)
		free(v[i]);
	free(v);
}

/* Is s among v[0..n)? */
static int in_list(const char *const *v, size_t n, const char *s)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(v[i], s))
			return 1;
	return 0;
}

/* The device label(s) of every run of b (malloc'd): one label, or
 * "mixed: A; B" when its runs ran on more than one. */
static char *batch_devices(struct query *q, const struct batch_record *b)
{
	struct strbuf all = STRBUF_INIT;
	char **labels = NULL;
	size_t n_labels = 0, cap = 0;
	for (size_t i = 0; i < b->n_rows; i++) {
		const struct run_record **runs;
		size_t n = query_row_runs(q, &b->rows[i], &runs);
		for (size_t k = 0; k < n; k++) {
			char *d = run_device_label(runs[k]);
			if (in_list((const char *const *)labels, n_labels, d)) {
				free(d);
				continue;
			}
			if (n_labels == cap) {
				cap = cap ? 2 * cap : 4;
				labels = xrealloc(labels, cap * sizeof(char *));
			}
			labels[n_labels++] = d;
		}
		free(runs);
	}
	for (size_t i = 0; i < n_labels; i++)
		strbuf_addf(&all, "%s%s", i ? "; " : "", labels[i]);
	if (!n_labels)
		strbuf_addstr(&all, "unknown device");
	char *s = n_labels > 1 ? xstrfmt("mixed: %s", all.buf) : xstrdup(all.buf);
	for (size_t i = 0; i < n_labels; i++)
		free(labels[i]);
	free(labels);
	strbuf_release(&all);
	return s;
}

/* The value of dimension name in b's shape; 0 with *v set, -1 without it. */
static int batch_dim(const struct batch_record *b, const char *name, long long *v)
{
	for (size_t i = 0; i < b->problem.n_dims; i++)
		if (b->problem.dim_names[i] && !strcmp(b->problem.dim_names[i], name)) {
			*v = b->problem.dims[i];
			return 0;
		}
	return -1;
}

/* The FLOP rate (stat: tflops or gflops) of variant's row in b: 0 with *v,
 * -1 when it is absent, not ok or has no rate (*row says which). */
static int variant_rate(struct query *q, const struct batch_record *b, const char *variant, const char *stat,
			const struct batch_row **row, double *v)
{
	double ci[2];
	int have_ci;
	struct strbuf why = STRBUF_INIT;
	*row = b ? batch_find_row(b, variant) : NULL;
	int rc = -1;
	if (*row && (*row)->outcome_text && !strcmp((*row)->outcome_text, "ok"))
		rc = query_stat(q, b, *row, stat, v, ci, &have_ci, &why) < 0 ? -1 : 0;
	strbuf_release(&why);
	return rc;
}

/* The cell of one variant in one row: "648 (0.33)", "2.05 (0.0021)", "648" (no peak), the
 * outcome when it did not end ok, "n/a" without a rate, "-" when the
 * batch has no such variant. */
static void add_cell(struct query *q, const struct batch_record *b, const char *variant, const char *stat,
		     struct strbuf *out)
{
	const struct batch_row *row;
	double v, frac, ci[2];
	int have_ci;
	strbuf_addch(out, ' ');
	if (variant_rate(q, b, variant, stat, &row, &v) == 0) {
		struct strbuf why = STRBUF_INIT;
		record_rate_add(out, v);
		/* two decimals, as a fraction is read; two significant digits below 0.1, so a
		 * naive kernel's 0.0021 does not print as 0.00 */
		if (query_stat(q, b, row, "frac_compute_peak", &frac, ci, &have_ci, &why) == 0 && isfinite(frac))
			strbuf_addf(out, frac >= 0.095 || frac <= 0 ? " (%.2f)" : " (%.2g)", frac);
		/* a rate from fewer repeats than the batch ran says so (red team 32: a row
		 * whose other repeats aborted read as any other) */
		if (row->n_ok_runs < row->n_runs)
			strbuf_addf(out, ", %zu of %zu repeats ok", row->n_ok_runs, row->n_runs);
		strbuf_release(&why);
	} else if (!row) {
		strbuf_addstr(out, "-");
	} else if (!row->outcome_text || strcmp(row->outcome_text, "ok")) {
		strbuf_addf(out, "**%s**", row->outcome_text ? row->outcome_text : "?");
	} else {
		strbuf_addstr(out, "n/a");
	}
	strbuf_addstr(out, " |");
}

/* The figure: the rate of each variant against dimension xdim, a panel per
 * value of pdim (ascending), one line per variant.  0, or -1 after error(). */
static int scaling_figure(struct paper_ctx *c, struct sc_row *rows, size_t n, const char *const *variants,
			  size_t nv, const char *stat, const char *xdim, const char *pdim, const char *path,
			  const char *devices, struct strbuf *out)
{
	long long *xs = xcalloc(n + 1, sizeof(long long)), *ps = xcalloc(n + 1, sizeof(long long));
	long long *pv = xcalloc(n + 1, sizeof(long long));
	size_t npv = 0, nb = 0;
	struct svg_panel *panels = NULL;
	double **px = NULL, **py = NULL;
	char **plabels = NULL;
	struct strbuf svg = STRBUF_INIT, title = STRBUF_INIT, sub = STRBUF_INIT;
	int rc = -1;
	for (size_t i = 0; i < n; i++) {
		if (!rows[i].b)
			continue;
		nb++;
		int no_x = batch_dim(rows[i].b, xdim, &xs[i]) < 0, no_p = batch_dim(rows[i].b, pdim, &ps[i]) < 0;
		if (no_x || no_p) {
			struct strbuf dims = STRBUF_INIT;
			for (size_t k = 0; k < rows[i].b->problem.n_dims; k++)
				strbuf_addf(&dims, "%s%s", k ? ", " : "", rows[i].b->problem.dim_names[k]);
			error("%s:%d: the shape of experiment '%s' has no dimension '%s' for the figure's %s (it has: %s; "
			      "name one with %s=)",
			      c->file, c->line, rows[i].exp, no_x ? xdim : pdim, no_x ? "x axis" : "panels",
			      dims.len ? dims.buf : "none", no_x ? "x" : "panel");
			strbuf_release(&dims);
			goto out;
		}
		for (size_t j = 0; j < i; j++)
			if (rows[j].b && xs[j] == xs[i] && ps[j] == ps[i]) {
				error("%s:%d: experiments '%s' and '%s' are both %s=%lld %s=%lld: the figure has one point "
				      "per %s in each panel (name one of them)",
				      c->file, c->line, rows[j].exp, rows[i].exp, xdim, xs[i], pdim, ps[i], xdim);
				goto out;
			}
		size_t k;
		for (k = 0; k < npv && pv[k] != ps[i]; k++)
			;
		if (k == npv)
			pv[npv++] = ps[i];
	}
	/* panels ascending by their dimension's value; x ascending within each */
	for (size_t a = 1; a < npv; a++)
		for (size_t k = a; k > 0 && pv[k - 1] > pv[k]; k--) {
			long long t = pv[k];
			pv[k] = pv[k - 1];
			pv[k - 1] = t;
		}
	panels = xcalloc(npv + 1, sizeof(*panels));
	px = xcalloc(npv + 1, sizeof(double *));
	py = xcalloc(npv + 1, sizeof(double *));
	plabels = xcalloc(npv + 1, sizeof(char *));
	for (size_t k = 0; k < npv; k++) {
		size_t *idx = xcalloc(n + 1, sizeof(size_t)), m = 0;
		for (size_t i = 0; i < n; i++)
			if (rows[i].b && ps[i] == pv[k]) {
				size_t j = m++;
				for (; j > 0 && xs[idx[j - 1]] > xs[i]; j--)
					idx[j] = idx[j - 1];
				idx[j] = i;
			}
		px[k] = xcalloc(m + 1, sizeof(double));
		py[k] = xcalloc(nv * m + 1, sizeof(double));
		for (size_t j = 0; j < m; j++) {
			px[k][j] = (double)xs[idx[j]];
			for (size_t s = 0; s < nv; s++) {
				const struct batch_row *row;
				double v;
				py[k][s * m + j] = variant_rate(c->q, rows[idx[j]].b, variants[s], stat, &row, &v) == 0 ? v : NAN;
			}
		}
		plabels[k] = xstrfmt("%s=%lld", pdim, pv[k]);
		panels[k] = (struct svg_panel){ plabels[k], px[k], m, py[k] };
		free(idx);
	}
	const char *unit = !strcmp(stat, "tflops") ? "TFLOP/s" : "GFLOP/s";
	strbuf_addf(&title, "%s of each variant's median against %s, one panel per %s", unit, xdim, pdim);
	strbuf_addf(&sub, "one batch of each of %zu experiment(s) (the table's); %s", nb, devices);
	struct strbuf xl = STRBUF_INIT, yl = STRBUF_INIT;
	strbuf_addf(&xl, "%s (log2 axis)", xdim);
	strbuf_addf(&yl, "%s (problem FLOPs / median time)", unit);
	svg_lines(&svg, title.buf, sub.buf, xl.buf, yl.buf, variants, nv, panels, npv, 1);
	strbuf_release(&xl);
	strbuf_release(&yl);
	char *full = c->o->base_dir && path[0] != '/' ? xstrfmt("%s/%s", c->o->base_dir, path) : xstrdup(path);
	rc = paper_write_if_changed(full, &svg, c->o->write_figures, &c->r->figures_changed);
	free(full);
	if (rc == 0)
		strbuf_addf(out, "![%s](%s)\n\n", title.buf, path);
out:
	for (size_t k = 0; k < npv && panels; k++) {
		free(px[k]);
		free(py[k]);
		free(plabels[k]);
	}
	free(panels);
	free(px);
	free(py);
	free(plabels);
	free(xs);
	free(ps);
	free(pv);
	strbuf_release(&svg);
	strbuf_release(&title);
	strbuf_release(&sub);
	return rc;
}

/*
 * A column joins its variant's cells by name alone, so say where that name
 * is not one code (code_identity.h): another kernel file in some row (red
 * team 36 drew one line through naive.c at C 256 and a kernel doing twice
 * the work at C 512) is a warning; the same file whose code differs (its
 * content edited between the rows' commits, other flags or parameters: red
 * team 37 changed a column's code by a flag) is a note naming the rows,
 * as is a row whose two columns ran the same code (two names for one
 * code, a byte-identical copy included).
 */
static void code_warnings(struct query *q, const struct sc_row *rows, size_t ne, const char *const *variants,
			  size_t nv, struct strbuf *out)
{
	for (size_t s = 0; s < nv; s++) {
		const struct batch_row *r0 = NULL;
		struct code_id id0;
		size_t i0 = 0;
		int warned = 0;
		struct strbuf differ = STRBUF_INIT;
		for (size_t i = 0; i < ne; i++) {
			const struct batch_row *row = rows[i].b ? batch_find_row(rows[i].b, variants[s]) : NULL;
			struct code_id id;
			if (!row || !row->kernel || !code_identity(q, row, &id))
				continue;
			if (!r0) {
				r0 = row;
				id0 = id;
				i0 = i;
			} else if (strcmp(r0->kernel, row->kernel) && !warned) {
				strbuf_addstr(out, "**Warning: column `");
				paper_clean(out, variants[s], 80, 0);
				strbuf_addstr(out, "` is not one kernel**: `");
				paper_clean(out, r0->kernel, 200, 0);
				strbuf_addstr(out, "` in `");
				paper_clean(out, rows[i0].exp, 120, 0);
				strbuf_addstr(out, "`, `");
				paper_clean(out, row->kernel, 200, 0);
				strbuf_addstr(out, "` in `");
				paper_clean(out, rows[i].exp, 120, 0);
				strbuf_addstr(out, "`: its cells and its line join different code under one name.\n\n");
				warned = 1;
			} else if (!strcmp(r0->kernel, row->kernel) && !code_same(&id0, &id)) {
				strbuf_addstr(&differ, differ.len ? ", `" : "`");
				paper_clean(&differ, rows[i].exp, 120, 0);
				strbuf_addch(&differ, '`');
			}
		}
		if (differ.len) {
			strbuf_addstr(out, "Note: column `");
			paper_clean(out, variants[s], 80, 0);
			strbuf_addstr(out, "` ran other code in ");
			strbuf_add(out, differ.buf, differ.len);
			strbuf_addstr(out, " than in `");
			paper_clean(out, rows[i0].exp, 120, 0);
			strbuf_addstr(out, "` (the kernel file's content, its flags or its parameters differ).\n\n");
		}
		strbuf_release(&differ);
	}
	for (size_t i = 0; i < ne; i++) {
		const struct batch_record *b = rows[i].b;
		for (size_t x = 0; b && x < b->n_rows; x++) {
			struct code_id ix, iy;
			if (!code_identity(q, &b->rows[x], &ix))
				continue;
			for (size_t y = x + 1; y < b->n_rows; y++) {
				if (!code_identity(q, &b->rows[y], &iy) || !code_same(&ix, &iy))
					continue;
				strbuf_addstr(out, "**Note: `");
				paper_clean(out, b->rows[x].variant ? b->rows[x].variant : "?", 80, 0);
				strbuf_addstr(out, "` and `");
				paper_clean(out, b->rows[y].variant ? b->rows[y].variant : "?", 80, 0);
				strbuf_addstr(out, "` ran the same code in `");
				paper_clean(out, rows[i].exp, 120, 0);
				strbuf_addstr(out, "`**: two names for one code; a difference between their cells is the "
						   "machine's.\n\n");
			}
		}
	}
}

int paper_gen_scaling(struct paper_ctx *c, const struct md_marker *m, struct strbuf *out)
{
	const char *exps_arg = md_attr(m, "experiments"), *runs_arg = md_attr(m, "runs");
	const char *path = md_attr(m, "path");
	const char *xdim = md_attr(m, "x") ? md_attr(m, "x") : "S";
	const char *pdim = md_attr(m, "panel") ? md_attr(m, "panel") : "D";
	size_t ne = 0, nr = 0, nv = 0;
	char **exps = split_commas(exps_arg, &ne);
	char **runs = split_commas(runs_arg, &nr);
	struct sc_row *rows = xcalloc(ne + 1, sizeof(*rows));
	const char **variants = NULL;
	const char **devices = NULL;
	struct strbuf why = STRBUF_INIT;
	int rc = -1;
	for (size_t i = 0; i < ne; i++) {
		if (!exps[i][0]) {
			error("%s:%d: experiments='%s' has an empty name (a comma list without spaces: "
			      "experiments=E1,E2)",
			      c->file, m->line, exps_arg);
			goto out;
		}
		for (size_t j = 0; j < i; j++)
			if (!strcmp(exps[i], exps[j])) {
				error("%s:%d: experiment '%s' is named twice in experiments= (one row each)", c->file,
				      m->line, exps[i]);
				goto out;
			}
	}
	if (!(nr == 1 && !strcmp(runs[0], "latest")) && nr != ne) {
		error("%s:%d: runs= names %zu batch(es) for %zu experiment(s): give runs=latest, or one run id (or "
		      "'latest') per experiment, in the order of experiments=",
		      c->file, m->line, nr, ne);
		goto out;
	}
	for (size_t i = 0; i < nr; i++)
		if (!runs[i][0]) {
			error("%s:%d: runs='%s' has an empty item (latest, or a run id, per experiment)", c->file, m->line,
			      runs_arg);
			goto out;
		}
	if (path && (strlen(path) < 5 || strcmp(path + strlen(path) - 4, ".svg") || strstr(path, ".."))) {
		error("%s:%d: figure path '%s' must be a relative path ending in .svg, without '..'", c->file, m->line,
		      path);
		goto out;
	}
	/* one batch of each experiment; a row without one says why */
	size_t nvcap = 1;
	for (size_t i = 0; i < ne; i++) {
		rows[i].exp = xstrdup(exps[i]);
		rows[i].run_arg = nr == 1 ? runs[0] : runs[i];
		strbuf_reset(&why);
		rows[i].b = query_batch(c->q, exps[i], rows[i].run_arg, NULL, &why);
		if (rows[i].b) {
			nvcap += rows[i].b->n_rows;
			rows[i].device = batch_devices(c->q, rows[i].b);
		} else {
			rows[i].why = xstrdup(why.buf ? why.buf : "no recorded batch");
		}
	}
	variants = xcalloc(nvcap, sizeof(char *));
	for (size_t i = 0; i < ne; i++)
		for (size_t k = 0; rows[i].b && k < rows[i].b->n_rows; k++) {
			const char *v = rows[i].b->rows[k].variant;
			size_t j;
			for (j = 0; v && j < nv && strcmp(variants[j], v); j++)
				;
			if (v && j == nv)
				variants[nv++] = v;
		}
	/* the unit: TFLOP/s when any rate reaches 1 TFLOP/s, as the one-batch table chooses */
	const char *stat = "gflops";
	for (size_t i = 0; i < ne; i++)
		for (size_t s = 0; rows[i].b && s < nv; s++) {
			const struct batch_row *row;
			double v;
			if (variant_rate(c->q, rows[i].b, variants[s], "tflops", &row, &v) == 0 && v >= 1)
				stat = "tflops";
		}
	/* the devices: one, or the rows name theirs and a warning says so */
	devices = xcalloc(ne + 1, sizeof(char *));
	size_t n_dev = 0;
	int mixed = 0;
	for (size_t i = 0; i < ne; i++) {
		if (!rows[i].device)
			continue;
		mixed |= !strncmp(rows[i].device, "mixed: ", 7);
		if (!in_list(devices, n_dev, rows[i].device))
			devices[n_dev++] = rows[i].device;
	}
	mixed |= n_dev > 1;

	const char *unit = !strcmp(stat, "tflops") ? "TFLOP/s" : "GFLOP/s";
	strbuf_addf(out, "\n*Scaling:* each cell is the %s of the variant's median (problem FLOPs / median time) and, "
			 "in parentheses, its fraction of the device's compute peak for the dtype; `-`: the batch has "
			 "no such variant; an outcome in bold: it did not end ok.\n\n",
		    unit);
	strbuf_addstr(out, "| experiment | shape |");
	for (size_t s = 0; s < nv; s++) {
		strbuf_addch(out, ' ');
		paper_clean(out, variants[s], 80, 1);
		strbuf_addstr(out, " |");
	}
	strbuf_addstr(out, " batch | device |\n|---|---|");
	for (size_t s = 0; s < nv; s++)
		strbuf_addstr(out, "---:|");
	strbuf_addstr(out, "---|---|\n");
	for (size_t i = 0; i < ne; i++) {
		const struct batch_record *b = rows[i].b;
		strbuf_addstr(out, "| `");
		paper_clean(out, rows[i].exp, 120, 1);
		strbuf_addstr(out, "` |");
		if (!b) {
			strbuf_addstr(out, " **no recorded batch** |");
			for (size_t s = 0; s < nv; s++)
				strbuf_addstr(out, " |");
			strbuf_addstr(out, " | |\n");
			continue;
		}
		for (size_t k = 0; k < b->problem.n_dims; k++)
			strbuf_addf(out, "%s%s=%lld", k ? " " : " ", b->problem.dim_names[k], b->problem.dims[k]);
		if (b->problem.dtype)
			strbuf_addf(out, " %s", b->problem.dtype);
		/* every cell of the row passed only a rule the spec loosened (red team
		 * 32: a constant output at 1e5x the problem's tolerance showed as a rate) */
		if (paper_in_notes(b, "loosens the problem's tolerance"))
			strbuf_addstr(out, " **(the spec loosens the problem's tolerance: see the notes)**");
		strbuf_addstr(out, " |");
		for (size_t s = 0; s < nv; s++)
			add_cell(c->q, b, variants[s], stat, out);
		strbuf_addf(out, " `%s` (%s) | ", b->run_id, !strcmp(rows[i].run_arg, "latest") ? "latest" : "pinned");
		paper_clean(out, rows[i].device, 200, 1);
		strbuf_addstr(out, " |\n");
	}
	strbuf_addstr(out, "\n");
	code_warnings(c->q, rows, ne, variants, nv, out);
	if (mixed)
		strbuf_addstr(out, "**Warning: the rows of this block ran on different devices** (each row names its "
				   "own): their rates are not one machine's, and each fraction is of its own device's peak.\n\n");
	/* provenance: a line per experiment, and the peaks the fractions divide by */
	size_t n_missing = 0;
	for (size_t i = 0; i < ne; i++) {
		const struct batch_record *b = rows[i].b;
		strbuf_addstr(out, "- `");
		paper_clean(out, rows[i].exp, 120, 0);
		strbuf_addstr(out, "`: ");
		if (!b) {
			struct strbuf msg = STRBUF_INIT;
			strbuf_addf(&msg, "experiment '%s' (%s): %s", rows[i].exp,
				    !strcmp(rows[i].run_arg, "latest") ? "latest" : "pinned", rows[i].why);
			strbuf_addstr(out, "*no recorded run: ");
			paper_clean(out, msg.buf, 400, 0);
			strbuf_addstr(out, ".*\n");
			error("%s:%d: %s", c->file, c->line, msg.buf);
			c->r->missing += !n_missing++; /* the block counts once, each experiment is named */
			strbuf_release(&msg);
			continue;
		}
		strbuf_addf(out, "batch `%s` (%s); ", b->run_id,
			    !strcmp(rows[i].run_arg, "latest") ? "latest" : "pinned by run id");
		if (b->git.commit)
			strbuf_addf(out, "commit `%.12s` (%s)", b->git.commit, b->git.dirty ? "**dirty**" : "clean");
		else
			strbuf_addstr(out, "no git commit recorded");
		strbuf_addstr(out, "; ");
		paper_clean(out, rows[i].device, 200, 0);
		strbuf_addstr(out, "; recorded ");
		const struct run_record *first = b->n_rows ? query_row_run(c->q, &b->rows[0]) : NULL;
		paper_add_date(out, first ? first->started_utc : b->started_utc);
		struct rec_peak pk = { .state = PEAK_UNSET };
		record_batch_peak(b, &pk);
		if (pk.state == PEAK_KNOWN && isfinite(pk.gflops)) {
			strbuf_addstr(out, "; peak ");
			record_rate_add(out, !strcmp(stat, "tflops") ? pk.gflops / 1e3 : pk.gflops);
			strbuf_addf(out, " %s %s (", unit, pk.dtype ? pk.dtype : "");
			paper_clean(out, pk.device ? pk.device : "?", 120, 0);
			strbuf_addstr(out, ")");
		} else {
			strbuf_addstr(out, "; no compute peak known for it");
		}
		if (b->interrupted)
			strbuf_addstr(out, "; **interrupted**: variants after its last row never ran");
		strbuf_addstr(out, ".");
		const char *newest = query_newest_batch_id(c->q, b->experiment);
		if (newest && strcmp(newest, b->run_id))
			strbuf_addf(out, " A newer batch of `%s` exists: `%s`.", b->experiment, newest);
		strbuf_addstr(out, "\n");
	}
	/* what qualifies the numbers: each batch's notes, as its own table prints
	 * them (a loosened tolerance, precision, timing health; red team 32) */
	for (size_t i = 0; i < ne; i++)
		if (rows[i].b)
			paper_batch_notes(rows[i].b, rows[i].exp, out);
	strbuf_addstr(out, "\n");
	if (path) {
		struct strbuf label = STRBUF_INIT;
		if (mixed)
			strbuf_addstr(&label, "on several devices: ");
		for (size_t k = 0; k < n_dev; k++)
			strbuf_addf(&label, "%s%s", k ? "; " : "", devices[k]);
		if (!n_dev)
			strbuf_addstr(&label, "no recorded batch");
		rc = scaling_figure(c, rows, ne, variants, nv, stat, xdim, pdim, path, label.buf, out);
		strbuf_release(&label);
	} else {
		rc = 0;
	}
out:
	for (size_t i = 0; i < ne; i++) {
		free(rows[i].exp);
		free(rows[i].device);
		free(rows[i].why);
	}
	free(devices);
	free(rows);
	free(variants);
	free_list(exps, ne);
	free_list(runs, nr);
	strbuf_release(&why);
	return rc;
}
