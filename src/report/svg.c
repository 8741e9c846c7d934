/*
 * svg.c - ECDF, box and forest plots as SVG text (contract in svg.h).
 *
 * Every plot is laid out in the same frame: a title and a grey subtitle at
 * the top, the plot area with a light grid, tick labels, and the axis
 * label below.  Coordinates are printed with two decimals so that output
 * is byte-stable across machines with the same inputs.
 */
#include "report/svg.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static const char *const palette[] = { "#0072B2", "#D55E00", "#009E73", "#CC79A7",
				       "#E69F00", "#56B4E9", "#000000", "#F0E442" };
#define N_PALETTE (sizeof(palette) / sizeof(palette[0]))

static void esc(struct strbuf *out, const char *s)
{
	for (; s && *s; s++) {
		switch (*s) {
		case '&': strbuf_addstr(out, "&amp;"); break;
		case '<': strbuf_addstr(out, "&lt;"); break;
		case '>': strbuf_addstr(out, "&gt;"); break;
		case '"': strbuf_addstr(out, "&quot;"); break;
		default: strbuf_addch(out, *s);
		}
	}
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

static double *sorted_copy(const double *x, size_t n)
{
	double *s = xmalloc((n ? n : 1) * sizeof(double));
	if (n)
		memcpy(s, x, n * sizeof(double));
	qsort(s, n, sizeof(double), cmp_double);
	return s;
}

/* R type 7 quantile of sorted x. */
static double quantile7(const double *x, size_t n, double p)
{
	if (n == 1)
		return x[0];
	double h = (double)(n - 1) * p;
	size_t lo = (size_t)floor(h);
	size_t hi = lo + 1 < n ? lo + 1 : lo;
	return x[lo] + (h - (double)lo) * (x[hi] - x[lo]);
}

size_t svg_ticks(double lo, double hi, size_t max_ticks, double *t)
{
	if (!(hi > lo) || max_ticks < 2) {
		t[0] = lo;
		return 1;
	}
	double raw = (hi - lo) / (double)(max_ticks - 1);
	double mag = pow(10, floor(log10(raw)));
	double step = mag;
	const double mult[] = { 1, 2, 2.5, 5, 10 };
	for (size_t i = 0; i < 5; i++) {
		step = mult[i] * mag;
		if ((hi - lo) / step <= (double)(max_ticks - 1))
			break;
	}
	size_t n = 0;
	for (double v = ceil(lo / step - 1e-9) * step; v <= hi + step * 1e-9 && n < max_ticks; v += step)
		t[n++] = fabs(v) < step * 1e-9 ? 0 : v;
	return n;
}

static int tick_decimals(const double *t, size_t n)
{
	if (n < 2)
		return 2;
	double step = t[1] - t[0];
	int d = (int)ceil(-log10(step) - 1e-9);
	if (fabs(step * pow(10, d) - round(step * pow(10, d))) > 1e-6)
		d++; /* 2.5-type steps */
	return d < 0 ? 0 : d > 6 ? 6 : d;
}

struct frame {
	double w, h;            /* whole picture */
	double x0, x1, y0, y1;  /* plot area: x0 left, x1 right, y0 top, y1 bottom */
	double lo, hi;          /* data range on x */
};

static double fx(const struct frame *f, double v)
{
	return f->x0 + (v - f->lo) / (f->hi - f->lo) * (f->x1 - f->x0);
}

static void begin(struct strbuf *out, const struct frame *f, const char *title, const char *subtitle)
{
	strbuf_addf(out,
		    "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
		    "<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" width=\"%.0f\" height=\"%.0f\" "
		    "viewBox=\"0 0 %.0f %.0f\" font-family=\"DejaVu Sans, Helvetica, Arial, sans-serif\" font-size=\"12\">\n"
		    "<rect width=\"100%%\" height=\"100%%\" fill=\"#ffffff\"/>\n",
		    f->w, f->h, f->w, f->h);
	strbuf_addstr(out, "<text x=\"12\" y=\"22\" font-size=\"15\" font-weight=\"bold\">");
	esc(out, title);
	strbuf_addstr(out, "</text>\n");
	if (subtitle) {
		strbuf_addstr(out, "<text x=\"12\" y=\"40\" font-size=\"11\" fill=\"#555555\">");
		esc(out, subtitle);
		strbuf_addstr(out, "</text>\n");
	}
}

/* Grid, tick labels and axis label for the x axis. */
static void x_axis(struct strbuf *out, const struct frame *f, const char *xlabel)
{
	double t[16];
	size_t nt = svg_ticks(f->lo, f->hi, 8, t);
	int dec = tick_decimals(t, nt);
	for (size_t i = 0; i < nt; i++) {
		double x = fx(f, t[i]);
		strbuf_addf(out, "<line x1=\"%.2f\" y1=\"%.2f\" x2=\"%.2f\" y2=\"%.2f\" stroke=\"#e0e0e0\"/>\n", x,
			    f->y0, x, f->y1);
		strbuf_addf(out, "<text x=\"%.2f\" y=\"%.2f\" text-anchor=\"middle\" fill=\"#333333\">%.*f</text>\n",
			    x, f->y1 + 16, dec, t[i]);
	}
	strbuf_addf(out, "<rect x=\"%.2f\" y=\"%.2f\" width=\"%.2f\" height=\"%.2f\" fill=\"none\" stroke=\"#888888\"/>\n",
		    f->x0, f->y0, f->x1 - f->x0, f->y1 - f->y0);
	strbuf_addf(out, "<text x=\"%.2f\" y=\"%.2f\" text-anchor=\"middle\">", (f->x0 + f->x1) / 2, f->y1 + 36);
	esc(out, xlabel);
	strbuf_addstr(out, "</text>\n");
}

static void range_of(const struct svg_series *s, size_t n, double *lo, double *hi)
{
	*lo = INFINITY;
	*hi = -INFINITY;
	for (size_t i = 0; i < n; i++)
		for (size_t j = 0; j < s[i].n; j++) {
			if (s[i].x[j] < *lo)
				*lo = s[i].x[j];
			if (s[i].x[j] > *hi)
				*hi = s[i].x[j];
		}
	if (!isfinite(*lo)) {
		*lo = 0;
		*hi = 1;
	}
	if (*hi - *lo < 1e-12 * (fabs(*hi) + 1)) {
		*lo -= fabs(*lo) * 0.05 + 0.5;
		*hi += fabs(*hi) * 0.05 + 0.5;
	}
	double pad = (*hi - *lo) * 0.04;
	*lo -= pad;
	*hi += pad;
}

static double label_width(const char *const *labels, size_t n)
{
	size_t m = 4;
	for (size_t i = 0; i < n; i++)
		if (labels[i] && strlen(labels[i]) > m)
			m = strlen(labels[i]);
	return 20 + 7.7 * (double)m; /* DejaVu Sans 12 px: about 7.5 px a character */
}

/* Picture width: at least `base`, wide enough for the labels, a plot area of
 * `plot` pixels and a right margin, and for the title (bold 15 px). */
static double frame_width(double base, double x0, double plot, double right, const char *title)
{
	double w = x0 + plot + right;
	double tw = 24 + 9.0 * (double)(title ? strlen(title) : 0);
	w = w > base ? w : base;
	return w > tw ? w : tw;
}

void svg_ecdf(struct strbuf *out, const char *title, const char *subtitle, const char *xlabel,
	      const struct svg_series *s, size_t n)
{
	/* legend entries first: their width sets the picture's */
	char **legend = xcalloc(n + 1, sizeof(char *));
	size_t maxlen = 10;
	for (size_t i = 0; i < n; i++) {
		if (!s[i].n) {
			legend[i] = xstrfmt("%s (no samples)", s[i].label);
		} else {
			double *x = sorted_copy(s[i].x, s[i].n);
			legend[i] = xstrfmt("%s (median %.2f, n=%zu)", s[i].label, quantile7(x, s[i].n, 0.5), s[i].n);
			free(x);
		}
		if (strlen(legend[i]) > maxlen)
			maxlen = strlen(legend[i]);
	}
	double lw = 50 + 7.0 * (double)maxlen;
	struct frame f = { .w = 560 + lw, .h = 430, .x0 = 60, .y0 = 56, .y1 = 380 };
	f.x1 = f.w - lw - 10;
	range_of(s, n, &f.lo, &f.hi);
	begin(out, &f, title, subtitle);
	x_axis(out, &f, xlabel);
	for (int k = 0; k <= 4; k++) { /* y grid: 0, .25, ... 1 */
		double y = f.y1 - (f.y1 - f.y0) * k / 4.0;
		strbuf_addf(out, "<line x1=\"%.2f\" y1=\"%.2f\" x2=\"%.2f\" y2=\"%.2f\" stroke=\"#e0e0e0\"/>\n", f.x0,
			    y, f.x1, y);
		strbuf_addf(out, "<text x=\"%.2f\" y=\"%.2f\" text-anchor=\"end\" fill=\"#333333\">%.2f</text>\n",
			    f.x0 - 6, y + 4, k / 4.0);
	}
	strbuf_addf(out, "<text x=\"16\" y=\"%.2f\" transform=\"rotate(-90 16 %.2f)\" text-anchor=\"middle\">fraction of samples &#8804; x</text>\n",
		    (f.y0 + f.y1) / 2, (f.y0 + f.y1) / 2);
	for (size_t i = 0; i < n; i++) {
		const char *c = palette[i % N_PALETTE];
		double ly = f.y0 + 8 + 18.0 * (double)i;
		strbuf_addf(out, "<line x1=\"%.2f\" y1=\"%.2f\" x2=\"%.2f\" y2=\"%.2f\" stroke=\"%s\" stroke-width=\"3\"/>\n",
			    f.x1 + 14, ly, f.x1 + 34, ly, c);
		strbuf_addf(out, "<text x=\"%.2f\" y=\"%.2f\">", f.x1 + 40, ly + 4);
		esc(out, legend[i]);
		strbuf_addstr(out, "</text>\n");
		if (!s[i].n)
			continue;
		double *x = sorted_copy(s[i].x, s[i].n);
		strbuf_addf(out, "<path fill=\"none\" stroke=\"%s\" stroke-width=\"1.8\" d=\"M%.2f %.2f", c,
			    fx(&f, x[0]), f.y1);
		for (size_t j = 0; j < s[i].n; j++) {
			double y = f.y1 - (f.y1 - f.y0) * (double)(j + 1) / (double)s[i].n;
			strbuf_addf(out, " H%.2f V%.2f", fx(&f, x[j]), y);
		}
		strbuf_addf(out, " H%.2f\"/>\n", f.x1);
		free(x);
	}
	strbuf_addstr(out, "</svg>\n");
	for (size_t i = 0; i < n; i++)
		free(legend[i]);
	free(legend);
}

void svg_box(struct strbuf *out, const char *title, const char *subtitle, const char *xlabel,
	     const struct svg_series *s, size_t n)
{
	const char **labels = xcalloc(n + 1, sizeof(char *));
	for (size_t i = 0; i < n; i++)
		labels[i] = s[i].label;
	double row = 34;
	struct frame f = { .y0 = 56 };
	f.x0 = label_width(labels, n);
	f.w = frame_width(820, f.x0, 560, 24, title);
	f.x1 = f.w - 24;
	f.y1 = f.y0 + row * (double)(n ? n : 1);
	f.h = f.y1 + 50;
	range_of(s, n, &f.lo, &f.hi);
	begin(out, &f, title, subtitle);
	x_axis(out, &f, xlabel);
	for (size_t i = 0; i < n; i++) {
		const char *c = palette[i % N_PALETTE];
		double yc = f.y0 + row * ((double)i + 0.5);
		strbuf_addf(out, "<text x=\"%.2f\" y=\"%.2f\" text-anchor=\"end\">", f.x0 - 8, yc + 4);
		esc(out, s[i].label);
		strbuf_addstr(out, "</text>\n");
		if (!s[i].n) {
			strbuf_addf(out, "<text x=\"%.2f\" y=\"%.2f\" fill=\"#888888\">no samples</text>\n",
				    f.x0 + 8, yc + 4);
			continue;
		}
		double *x = sorted_copy(s[i].x, s[i].n);
		double q1 = quantile7(x, s[i].n, 0.25), q2 = quantile7(x, s[i].n, 0.5),
		       q3 = quantile7(x, s[i].n, 0.75), iqr = q3 - q1;
		double wlo = q1, whi = q3;
		for (size_t j = 0; j < s[i].n; j++) {
			if (x[j] >= q1 - 1.5 * iqr && x[j] < wlo)
				wlo = x[j];
			if (x[j] <= q3 + 1.5 * iqr && x[j] > whi)
				whi = x[j];
		}
		double h = row * 0.55;
		strbuf_addf(out, "<line x1=\"%.2f\" y1=\"%.2f\" x2=\"%.2f\" y2=\"%.2f\" stroke=\"#333333\"/>\n",
			    fx(&f, wlo), yc, fx(&f, whi), yc);
		for (int e = 0; e < 2; e++) {
			double wx = fx(&f, e ? whi : wlo);
			strbuf_addf(out, "<line x1=\"%.2f\" y1=\"%.2f\" x2=\"%.2f\" y2=\"%.2f\" stroke=\"#333333\"/>\n",
				    wx, yc - h / 4, wx, yc + h / 4);
		}
		strbuf_addf(out, "<rect x=\"%.2f\" y=\"%.2f\" width=\"%.2f\" height=\"%.2f\" fill=\"%s\" fill-opacity=\"0.35\" stroke=\"%s\"/>\n",
			    fx(&f, q1), yc - h / 2, fx(&f, q3) - fx(&f, q1), h, c, c);
		strbuf_addf(out, "<line x1=\"%.2f\" y1=\"%.2f\" x2=\"%.2f\" y2=\"%.2f\" stroke=\"%s\" stroke-width=\"2.5\"/>\n",
			    fx(&f, q2), yc - h / 2, fx(&f, q2), yc + h / 2, c);
		for (size_t j = 0; j < s[i].n; j++)
			if (x[j] < wlo || x[j] > whi)
				strbuf_addf(out, "<circle cx=\"%.2f\" cy=\"%.2f\" r=\"2.5\" fill=\"none\" stroke=\"%s\"/>\n",
					    fx(&f, x[j]), yc, c);
		free(x);
	}
	strbuf_addstr(out, "</svg>\n");
	free(labels);
}

void svg_forest(struct strbuf *out, const char *title, const char *subtitle, const char *xlabel,
		const struct svg_interval *iv, size_t n, double ref)
{
	const char **labels = xcalloc(n + 1, sizeof(char *));
	for (size_t i = 0; i < n; i++)
		labels[i] = iv[i].label;
	double row = 30;
	struct frame f = { .y0 = 56 };
	f.x0 = label_width(labels, n);
	f.w = frame_width(880, f.x0, 440, 260, title);
	f.x1 = f.w - 260;
	f.y1 = f.y0 + row * (double)(n ? n : 1);
	f.h = f.y1 + 50;
	f.lo = ref;
	f.hi = ref;
	for (size_t i = 0; i < n; i++) {
		double v[3] = { iv[i].v, iv[i].lo, iv[i].hi };
		for (int k = 0; k < 3; k++)
			if (isfinite(v[k])) {
				f.lo = v[k] < f.lo ? v[k] : f.lo;
				f.hi = v[k] > f.hi ? v[k] : f.hi;
			}
	}
	double pad = (f.hi - f.lo) * 0.08 + 0.02;
	f.lo -= pad;
	f.hi += pad;
	begin(out, &f, title, subtitle);
	x_axis(out, &f, xlabel);
	strbuf_addf(out, "<line x1=\"%.2f\" y1=\"%.2f\" x2=\"%.2f\" y2=\"%.2f\" stroke=\"#333333\" stroke-dasharray=\"4 3\"/>\n",
		    fx(&f, ref), f.y0, fx(&f, ref), f.y1);
	for (size_t i = 0; i < n; i++) {
		double yc = f.y0 + row * ((double)i + 0.5);
		strbuf_addf(out, "<text x=\"%.2f\" y=\"%.2f\" text-anchor=\"end\">", f.x0 - 8, yc + 4);
		esc(out, iv[i].label);
		strbuf_addstr(out, "</text>\n");
		if (isfinite(iv[i].v)) {
			const char *c = iv[i].v >= ref ? palette[0] : palette[1];
			if (isfinite(iv[i].lo) && isfinite(iv[i].hi)) {
				strbuf_addf(out, "<line x1=\"%.2f\" y1=\"%.2f\" x2=\"%.2f\" y2=\"%.2f\" stroke=\"%s\" stroke-width=\"2\"/>\n",
					    fx(&f, iv[i].lo), yc, fx(&f, iv[i].hi), yc, c);
				for (int e = 0; e < 2; e++) {
					double wx = fx(&f, e ? iv[i].hi : iv[i].lo);
					strbuf_addf(out, "<line x1=\"%.2f\" y1=\"%.2f\" x2=\"%.2f\" y2=\"%.2f\" stroke=\"%s\" stroke-width=\"2\"/>\n",
						    wx, yc - 6, wx, yc + 6, c);
				}
			}
			strbuf_addf(out, "<rect x=\"%.2f\" y=\"%.2f\" width=\"8\" height=\"8\" fill=\"%s\"/>\n",
				    fx(&f, iv[i].v) - 4, yc - 4, c);
		}
		strbuf_addf(out, "<text x=\"%.2f\" y=\"%.2f\" fill=\"#333333\">", f.x1 + 10, yc + 4);
		esc(out, iv[i].note ? iv[i].note : "");
		strbuf_addstr(out, "</text>\n");
	}
	strbuf_addstr(out, "</svg>\n");
	free(labels);
}

void svg_progress(struct strbuf *out, const char *title, const char *subtitle, const char *ylabel,
		  const struct svg_point *p, size_t n, double ref, const char *ref_label)
{
	double slot = 120;
	struct frame f = { .y0 = 56, .x0 = 90 };
	f.w = f.x0 + slot * (double)(n ? n : 1) + 150;
	f.w = f.w < 640 ? 640 : f.w;
	f.x1 = f.w - 150;
	f.h = 440;
	f.y1 = f.h - 90;
	/* the y range (kept in lo, hi) */
	f.lo = INFINITY;
	f.hi = -INFINITY;
	for (size_t i = 0; i < n; i++) {
		double v[3] = { p[i].v, p[i].lo, p[i].hi };
		for (int k = 0; k < 3; k++)
			if (isfinite(v[k])) {
				f.lo = v[k] < f.lo ? v[k] : f.lo;
				f.hi = v[k] > f.hi ? v[k] : f.hi;
			}
	}
	if (isfinite(ref)) {
		f.lo = ref < f.lo ? ref : f.lo;
		f.hi = ref > f.hi ? ref : f.hi;
	}
	if (!isfinite(f.lo)) {
		f.lo = 0;
		f.hi = 1;
	}
	double pad = (f.hi - f.lo) * 0.1 + (f.hi > 0 ? f.hi * 0.01 : 0.01);
	f.lo = f.lo - pad < 0 && f.lo >= 0 ? 0 : f.lo - pad;
	f.hi += pad;
#define FY(v) (f.y1 - ((v) - f.lo) / (f.hi - f.lo) * (f.y1 - f.y0))
	begin(out, &f, title, subtitle);
	double t[16];
	size_t nt = svg_ticks(f.lo, f.hi, 7, t);
	int dec = tick_decimals(t, nt);
	for (size_t i = 0; i < nt; i++) {
		double y = FY(t[i]);
		strbuf_addf(out, "<line x1=\"%.2f\" y1=\"%.2f\" x2=\"%.2f\" y2=\"%.2f\" stroke=\"#e5e5e5\"/>\n", f.x0, y,
			    f.x1, y);
		strbuf_addf(out, "<text x=\"%.2f\" y=\"%.2f\" text-anchor=\"end\" fill=\"#333333\">%.*f</text>\n",
			    f.x0 - 6, y + 4, dec, t[i]);
	}
	strbuf_addf(out, "<rect x=\"%.2f\" y=\"%.2f\" width=\"%.2f\" height=\"%.2f\" fill=\"none\" stroke=\"#999999\"/>\n",
		    f.x0, f.y0, f.x1 - f.x0, f.y1 - f.y0);
	strbuf_addf(out, "<text x=\"16\" y=\"%.2f\" transform=\"rotate(-90 16 %.2f)\" text-anchor=\"middle\">",
		    (f.y0 + f.y1) / 2, (f.y0 + f.y1) / 2);
	esc(out, ylabel);
	strbuf_addstr(out, "</text>\n");
	if (isfinite(ref)) {
		strbuf_addf(out, "<line x1=\"%.2f\" y1=\"%.2f\" x2=\"%.2f\" y2=\"%.2f\" stroke=\"#333333\" stroke-dasharray=\"4 3\"/>\n",
			    f.x0, FY(ref), f.x1, FY(ref));
		strbuf_addf(out, "<text x=\"%.2f\" y=\"%.2f\" fill=\"#333333\">", f.x1 + 8, FY(ref) + 4);
		esc(out, ref_label ? ref_label : "");
		strbuf_addstr(out, "</text>\n");
	}
	double step = (f.x1 - f.x0) / (double)(n ? n : 1);
	struct strbuf line = STRBUF_INIT;
	for (size_t i = 0; i < n; i++) {
		double x = f.x0 + step * ((double)i + 0.5);
		if (isfinite(p[i].v))
			strbuf_addf(&line, "%s%.2f,%.2f", line.len ? " " : "", x, FY(p[i].v));
	}
	if (line.len)
		strbuf_addf(out, "<polyline points=\"%s\" fill=\"none\" stroke=\"%s\" stroke-width=\"1.5\"/>\n", line.buf,
			    palette[5]);
	strbuf_release(&line);
	for (size_t i = 0; i < n; i++) {
		double x = f.x0 + step * ((double)i + 0.5);
		if (isfinite(p[i].v)) {
			if (isfinite(p[i].lo) && isfinite(p[i].hi)) {
				strbuf_addf(out, "<line x1=\"%.2f\" y1=\"%.2f\" x2=\"%.2f\" y2=\"%.2f\" stroke=\"%s\" stroke-width=\"2\"/>\n",
					    x, FY(p[i].lo), x, FY(p[i].hi), palette[0]);
				for (int e = 0; e < 2; e++)
					strbuf_addf(out, "<line x1=\"%.2f\" y1=\"%.2f\" x2=\"%.2f\" y2=\"%.2f\" stroke=\"%s\" stroke-width=\"2\"/>\n",
						    x - 6, FY(e ? p[i].hi : p[i].lo), x + 6, FY(e ? p[i].hi : p[i].lo), palette[0]);
			}
			strbuf_addf(out, "<rect x=\"%.2f\" y=\"%.2f\" width=\"8\" height=\"8\" fill=\"%s\"/>\n", x - 4,
				    FY(p[i].v) - 4, palette[0]);
		} else {
			strbuf_addf(out, "<text x=\"%.2f\" y=\"%.2f\" text-anchor=\"middle\" fill=\"#555555\">not measured</text>\n",
				    x, (f.y0 + f.y1) / 2);
		}
		strbuf_addf(out, "<text x=\"%.2f\" y=\"%.2f\" text-anchor=\"middle\">", x, f.y1 + 18);
		esc(out, p[i].label);
		strbuf_addstr(out, "</text>\n");
		if (p[i].sub) {
			strbuf_addf(out, "<text x=\"%.2f\" y=\"%.2f\" text-anchor=\"middle\" font-size=\"11\" fill=\"#555555\">",
				    x, f.y1 + 34);
			esc(out, p[i].sub);
			strbuf_addstr(out, "</text>\n");
		}
	}
#undef FY
	strbuf_addstr(out, "</svg>\n");
}

/* A series' marker at (x, y): circle, square, triangle, diamond by index,
 * so the lines are told apart without colour too. */
static void marker(struct strbuf *out, size_t k, double x, double y, const char *c)
{
	switch (k % 4) {
	case 0:
		strbuf_addf(out, "<circle cx=\"%.2f\" cy=\"%.2f\" r=\"4\" fill=\"%s\"/>\n", x, y, c);
		break;
	case 1:
		strbuf_addf(out, "<rect x=\"%.2f\" y=\"%.2f\" width=\"8\" height=\"8\" fill=\"%s\"/>\n", x - 4, y - 4, c);
		break;
	case 2:
		strbuf_addf(out, "<path d=\"M%.2f %.2f L%.2f %.2f L%.2f %.2f Z\" fill=\"%s\"/>\n", x, y - 5, x + 5, y + 4,
			    x - 5, y + 4, c);
		break;
	default:
		strbuf_addf(out, "<path d=\"M%.2f %.2f L%.2f %.2f L%.2f %.2f L%.2f %.2f Z\" fill=\"%s\"/>\n", x, y - 5,
			    x + 5, y, x, y + 5, x - 5, y, c);
	}
}

void svg_lines(struct strbuf *out, const char *title, const char *subtitle, const char *xlabel,
	       const char *ylabel, const char *const *series, size_t n_series, const struct svg_panel *p,
	       size_t n_panels, int log2_x)
{
	const double pw = 360, gap = 56;
	size_t np = n_panels ? n_panels : 1;
	/* the shared ranges: x over every panel (log2 when asked), y from 0 */
	double xlo = INFINITY, xhi = -INFINITY, yhi = 0;
	for (size_t k = 0; k < n_panels; k++)
		for (size_t i = 0; i < p[k].n_x; i++) {
			double x = p[k].x[i];
			if (!isfinite(x) || (log2_x && !(x > 0)))
				continue;
			x = log2_x ? log2(x) : x;
			xlo = x < xlo ? x : xlo;
			xhi = x > xhi ? x : xhi;
			for (size_t s = 0; s < n_series; s++) {
				double y = p[k].y[s * p[k].n_x + i];
				if (isfinite(y) && y > yhi)
					yhi = y;
			}
		}
	if (!isfinite(xlo)) {
		xlo = 0;
		xhi = 1;
	}
	double xpad = log2_x ? 0.35 : (xhi - xlo) * 0.06;
	if (!(xpad > 0))
		xpad = 0.5;
	xlo -= xpad;
	xhi += xpad;
	yhi = yhi > 0 ? yhi * 1.08 : 1;
	size_t maxlen = 6;
	for (size_t s = 0; s < n_series; s++)
		if (series[s] && strlen(series[s]) > maxlen)
			maxlen = strlen(series[s]);
	double lw = 50 + 7.0 * (double)maxlen;
	struct frame f = { .x0 = 72, .y0 = 80, .h = 440 };
	f.y1 = f.h - 60;
	double plots = pw * (double)np + gap * (double)(np - 1);
	f.w = frame_width(0, f.x0, plots, lw + 16, title);
	f.lo = 0;
	f.hi = yhi;
#define FY(v) (f.y1 - (v) / f.hi * (f.y1 - f.y0))
	begin(out, &f, title, subtitle);
	double yt[16];
	size_t nyt = svg_ticks(0, yhi, 7, yt);
	int ydec = tick_decimals(yt, nyt);
	strbuf_addf(out, "<text x=\"16\" y=\"%.2f\" transform=\"rotate(-90 16 %.2f)\" text-anchor=\"middle\">",
		    (f.y0 + f.y1) / 2, (f.y0 + f.y1) / 2);
	esc(out, ylabel);
	strbuf_addstr(out, "</text>\n");
	/* the x ticks: powers of two (every other one when there are many), or nice ones */
	double xt[16];
	size_t nxt = 0;
	int xdec = 0;
	if (log2_x) {
		double k0 = ceil(xlo - 1e-9), k1 = floor(xhi + 1e-9);
		double step = k1 - k0 > 8 ? 2 : 1;
		for (double k = k0; k <= k1 && nxt < 16; k += step)
			xt[nxt++] = k;
	} else {
		nxt = svg_ticks(xlo, xhi, 6, xt);
		xdec = tick_decimals(xt, nxt);
	}
	for (size_t k = 0; k < np; k++) {
		double px0 = f.x0 + (pw + gap) * (double)k, px1 = px0 + pw;
#define FX(v) (px0 + ((v) - xlo) / (xhi - xlo) * pw)
		for (size_t i = 0; i < nyt; i++) {
			strbuf_addf(out, "<line x1=\"%.2f\" y1=\"%.2f\" x2=\"%.2f\" y2=\"%.2f\" stroke=\"#e5e5e5\"/>\n", px0,
				    FY(yt[i]), px1, FY(yt[i]));
			if (!k)
				strbuf_addf(out, "<text x=\"%.2f\" y=\"%.2f\" text-anchor=\"end\" fill=\"#333333\">%.*f</text>\n",
					    px0 - 6, FY(yt[i]) + 4, ydec, yt[i]);
		}
		for (size_t i = 0; i < nxt; i++) {
			double x = FX(xt[i]);
			strbuf_addf(out, "<line x1=\"%.2f\" y1=\"%.2f\" x2=\"%.2f\" y2=\"%.2f\" stroke=\"#e5e5e5\"/>\n", x,
				    f.y0, x, f.y1);
			if (log2_x)
				strbuf_addf(out, "<text x=\"%.2f\" y=\"%.2f\" text-anchor=\"middle\" fill=\"#333333\">%.0f</text>\n",
					    x, f.y1 + 16, exp2(xt[i]));
			else
				strbuf_addf(out, "<text x=\"%.2f\" y=\"%.2f\" text-anchor=\"middle\" fill=\"#333333\">%.*f</text>\n",
					    x, f.y1 + 16, xdec, xt[i]);
		}
		strbuf_addf(out, "<rect x=\"%.2f\" y=\"%.2f\" width=\"%.2f\" height=\"%.2f\" fill=\"none\" stroke=\"#999999\"/>\n",
			    px0, f.y0, pw, f.y1 - f.y0);
		strbuf_addf(out, "<text x=\"%.2f\" y=\"%.2f\" text-anchor=\"middle\" font-weight=\"bold\">", (px0 + px1) / 2,
			    f.y0 - 8);
		esc(out, k < n_panels ? p[k].label : "no data");
		strbuf_addstr(out, "</text>\n");
		strbuf_addf(out, "<text x=\"%.2f\" y=\"%.2f\" text-anchor=\"middle\">", (px0 + px1) / 2, f.y1 + 36);
		esc(out, xlabel);
		strbuf_addstr(out, "</text>\n");
		if (k >= n_panels)
			continue;
		for (size_t s = 0; s < n_series; s++) {
			const char *c = palette[s % N_PALETTE];
			const double *y = p[k].y + s * p[k].n_x;
			/* the line, broken where a point is missing */
			struct strbuf line = STRBUF_INIT;
			for (size_t i = 0; i <= p[k].n_x; i++) {
				double x = i < p[k].n_x ? p[k].x[i] : NAN;
				int have = i < p[k].n_x && isfinite(y[i]) && isfinite(x) && (!log2_x || x > 0);
				if (have) {
					strbuf_addf(&line, "%s%.2f,%.2f", line.len ? " " : "", FX(log2_x ? log2(x) : x),
						    FY(y[i]));
					continue;
				}
				if (strchr(line.buf ? line.buf : "", ' '))
					strbuf_addf(out, "<polyline points=\"%s\" fill=\"none\" stroke=\"%s\" stroke-width=\"2\"/>\n",
						    line.buf, c);
				strbuf_reset(&line);
			}
			strbuf_release(&line);
			for (size_t i = 0; i < p[k].n_x; i++) {
				double x = p[k].x[i];
				if (isfinite(y[i]) && isfinite(x) && (!log2_x || x > 0))
					marker(out, s, FX(log2_x ? log2(x) : x), FY(y[i]), c);
			}
		}
#undef FX
	}
	double lx = f.x0 + plots + 20;
	for (size_t s = 0; s < n_series; s++) {
		const char *c = palette[s % N_PALETTE];
		double ly = f.y0 + 8 + 18.0 * (double)s;
		strbuf_addf(out, "<line x1=\"%.2f\" y1=\"%.2f\" x2=\"%.2f\" y2=\"%.2f\" stroke=\"%s\" stroke-width=\"2\"/>\n",
			    lx, ly, lx + 24, ly, c);
		marker(out, s, lx + 12, ly, c);
		strbuf_addf(out, "<text x=\"%.2f\" y=\"%.2f\">", lx + 30, ly + 4);
		esc(out, series[s]);
		strbuf_addstr(out, "</text>\n");
	}
#undef FY
	strbuf_addstr(out, "</svg>\n");
}
