/*
 * svg.h - the figures of the paper, written as plain SVG 1.1 text (no
 * plotting library, no Python at paper time): an ECDF of each variant's
 * timing samples, a box plot of them, a forest plot of speedups with
 * their confidence intervals, a search's best time per generation, and
 * lines of a rate against a size across experiments (svg_lines).
 *
 * Output is a pure function of the inputs: fixed precision (two decimals
 * for coordinates), no timestamps, no random ids, so regenerating a figure
 * from the same records gives the same bytes.  Text uses a generic
 * sans-serif font and a colour-blind-safe palette (Okabe-Ito).
 */
#ifndef EVIDENT_SVG_H
#define EVIDENT_SVG_H

#include <stddef.h>

#include "base/util.h"

/* One variant's samples (x need not be sorted; it is not modified). */
struct svg_series {
	const char *label;
	const double *x;
	size_t n;
};

/* One estimate with its interval, for the forest plot. */
struct svg_interval {
	const char *label;
	double v, lo, hi;        /* NaN v: drawn as "no estimate" with note */
	const char *note;        /* right-hand text, e.g. "faster, p=1e-5", or NULL */
};

/*
 * Append a whole SVG document to out.  title: top line; subtitle: second
 * line in grey (provenance), may be NULL; xlabel: the axis, e.g.
 * "time per launch (us)".  Series with n == 0 are listed as "no samples".
 */
void svg_ecdf(struct strbuf *out, const char *title, const char *subtitle, const char *xlabel,
	      const struct svg_series *s, size_t n);
void svg_box(struct strbuf *out, const char *title, const char *subtitle, const char *xlabel,
	     const struct svg_series *s, size_t n);
/* ref: the vertical reference line (1 for speedups). */
void svg_forest(struct strbuf *out, const char *title, const char *subtitle, const char *xlabel,
		const struct svg_interval *iv, size_t n, double ref);

/* One point of a progress plot: a value with its interval, a label under
 * the axis (the generation) and a second line (the best's name). */
struct svg_point {
	const char *label, *sub;
	double v, lo, hi;        /* NaN v: "not measured" */
};
/*
 * A search's best so far, one point per generation left to right, a time
 * on the y axis (ylabel), each with its CI as an error bar, joined by a
 * line; ref (NaN: none) a dashed horizontal line named ref_label (the
 * start's time).
 */
void svg_progress(struct strbuf *out, const char *title, const char *subtitle, const char *ylabel,
		  const struct svg_point *p, size_t n, double ref, const char *ref_label);

/* One panel of a line plot: x positions (ascending) and, for each series
 * of the plot, one y per position, y[series * n_x + i]; NaN: no point. */
struct svg_panel {
	const char *label;       /* above the panel, e.g. "D=64" */
	const double *x;
	size_t n_x;
	const double *y;
};
/*
 * y against x, side by side panels that share both axes (y from 0), one
 * colour and marker per series (named in a legend on the right, the same
 * in every panel).  log2_x: a base-2 logarithmic x axis, ticks at powers
 * of two.  A NaN breaks a series' line; a series with no point in a
 * panel is absent there.
 */
void svg_lines(struct strbuf *out, const char *title, const char *subtitle, const char *xlabel,
	       const char *ylabel, const char *const *series, size_t n_series, const struct svg_panel *p,
	       size_t n_panels, int log2_x);

/* "Nice" axis ticks covering [lo, hi]: at most max_ticks values into t. */
size_t svg_ticks(double lo, double hi, size_t max_ticks, double *t);

#endif /* EVIDENT_SVG_H */
