/*
 * stat_table.c - the one table of statistics by name.  A paper's
 * `evident:value stat=...`, a claim's `stat=`, an export column and `show`
 * all ask record_stat(), so `p`, `speedup`, a median and its CI mean the
 * same thing everywhere: p is Holm-adjusted over the batch (p_raw is the
 * test's own), speedup and CIs are the batch's (two-level with repeats),
 * cost and errors are summed or maximised over the variant's runs.
 */
#include "record/record.h"

#include <math.h>
#include <string.h>

const struct stat_def record_stats[] = {
	{ "median_us", STAT_TIME, "median time, us, with its CI (two-level over repeats)" },
	{ "mean_us", STAT_TIME, "mean time, us" },
	{ "min_us", STAT_TIME, "fastest sample, us" },
	{ "max_us", STAT_TIME, "slowest sample, us" },
	{ "p5_us", STAT_TIME, "5th percentile, us" },
	{ "p95_us", STAT_TIME, "95th percentile, us" },
	{ "stdev_us", STAT_TIME, "standard deviation, us" },
	{ "n", STAT_PLAIN, "timing samples (all repeats)" },
	{ "repeats", STAT_PLAIN, "worker processes that measured the variant" },
	{ "speedup", STAT_RATIO, "baseline median / variant median, with its CI" },
	{ "delta", STAT_PLAIN, "Cliff's delta vs the baseline (> 0: faster), with its CI" },
	{ "p", STAT_P, "p-value vs the baseline, Holm-adjusted over the batch" },
	{ "p_raw", STAT_P, "p-value vs the baseline before adjustment" },
	{ "mde", STAT_RATIO, "smallest speedup change the comparison could detect" },
	{ "gflops", STAT_FLOPS, "problem FLOPs / median time, GFLOP/s" },
	{ "tflops", STAT_FLOPS, "problem FLOPs / median time, TFLOP/s" },
	{ "gbps", STAT_BW, "fewest bytes moved / median time, GB/s" },
	{ "frac_compute_peak", STAT_PLAIN, "gflops / the machine's compute peak for the dtype (one core on the host)" },
	{ "frac_bandwidth_peak", STAT_PLAIN, "gbps / the machine's memory bandwidth peak (one core on the host)" },
	{ "usd", STAT_USD, "money for the variant's runs (GPU-seconds x price)" },
	{ "gpu_s", STAT_PLAIN, "GPU-seconds held for the variant's runs" },
	{ "max_abs_err", STAT_PLAIN, "largest |out - ref| of any check" },
};
const size_t record_n_stats = sizeof(record_stats) / sizeof(record_stats[0]);

const struct stat_def *record_stat_def(const char *name)
{
	for (size_t i = 0; name && i < record_n_stats; i++)
		if (!strcmp(record_stats[i].name, name))
			return &record_stats[i];
	return NULL;
}

const char *record_stat_names(void)
{
	static char buf[512];
	if (!buf[0]) {
		size_t n = 0;
		for (size_t i = 0; i < record_n_stats && n < sizeof(buf); i++)
			n += (size_t)snprintf(buf + n, sizeof(buf) - n, "%s%s", i ? ", " : "", record_stats[i].name);
	}
	return buf;
}

static int not_recorded(struct strbuf *why, const struct batch_row *row, const char *stat)
{
	if (row->outcome != OUTCOME_OK)
		strbuf_addf(why, "variant '%s' has no %s: its outcome is %s", row->variant, stat,
			    row->outcome_text ? row->outcome_text : "unknown");
	else
		strbuf_addf(why, "variant '%s' recorded no %s", row->variant, stat);
	return -1;
}

static int no_comparison(struct strbuf *why, const struct batch_record *b, const struct batch_row *row)
{
	if (b && b->baseline && row->variant && !strcmp(b->baseline, row->variant))
		strbuf_addf(why, "variant '%s' is the baseline: it has no comparison", row->variant);
	else if (row->outcome != OUTCOME_OK)
		return not_recorded(why, row, "comparison");
	else
		strbuf_addf(why, "variant '%s' has no comparison (the baseline failed, or too few samples)",
			    row->variant);
	return -1;
}

int record_stat(const struct batch_record *b, const struct batch_row *row,
		const struct run_record *const *runs, size_t n_runs, const char *stat, double *v,
		double ci[2], int *have_ci, struct strbuf *why)
{
	const struct stat_def *d = record_stat_def(stat);
	*v = NAN;
	*have_ci = 0;
	if (!d) {
		strbuf_addf(why, "unknown statistic '%s' (known: %s)", stat, record_stat_names());
		return -1;
	}
	const struct stats_summary *s = row->have_stats ? &row->stats : NULL;
	const struct stats_comparison *c = row->have_cmp ? &row->cmp : NULL;
#define TIME(field)                                    \
	do {                                           \
		if (!s)                                \
			return not_recorded(why, row, stat); \
		*v = s->field;                         \
	} while (0)
	if (!strcmp(stat, "median_us")) {
		TIME(median);
		if (isfinite(s->median_ci[0]) && isfinite(s->median_ci[1])) {
			ci[0] = s->median_ci[0];
			ci[1] = s->median_ci[1];
			*have_ci = 1;
		}
	} else if (!strcmp(stat, "mean_us")) {
		TIME(mean);
	} else if (!strcmp(stat, "min_us")) {
		TIME(min);
	} else if (!strcmp(stat, "max_us")) {
		TIME(max);
	} else if (!strcmp(stat, "p5_us")) {
		TIME(p5);
	} else if (!strcmp(stat, "p95_us")) {
		TIME(p95);
	} else if (!strcmp(stat, "stdev_us")) {
		TIME(stdev);
	} else if (!strcmp(stat, "n")) {
		if (!s)
			return not_recorded(why, row, stat);
		*v = (double)s->n;
	} else if (!strcmp(stat, "repeats")) {
		*v = (double)row->n_runs;
	} else if (!strcmp(stat, "speedup") || !strcmp(stat, "delta") || !strcmp(stat, "p") ||
		   !strcmp(stat, "p_raw") || !strcmp(stat, "mde")) {
		if (!c)
			return no_comparison(why, b, row);
		if (!strcmp(stat, "speedup")) {
			*v = c->speedup;
			ci[0] = c->speedup_ci[0];
			ci[1] = c->speedup_ci[1];
			*have_ci = isfinite(ci[0]) && isfinite(ci[1]);
		} else if (!strcmp(stat, "delta")) {
			*v = c->delta;
			ci[0] = c->delta_ci[0];
			ci[1] = c->delta_ci[1];
			*have_ci = isfinite(ci[0]) && isfinite(ci[1]);
		} else if (!strcmp(stat, "p")) {
			if (!b) {
				strbuf_addf(why, "run of '%s' belongs to no batch: its p-value was never adjusted "
					    "over a batch (use stat=p_raw)", row->variant);
				return -1;
			}
			*v = c->p_adjusted;
		} else if (!strcmp(stat, "p_raw")) {
			*v = c->p;
		} else {
			*v = row->mde;
		}
	} else if (d->kind == STAT_FLOPS || d->kind == STAT_BW || !strcmp(stat, "frac_compute_peak") ||
		   !strcmp(stat, "frac_bandwidth_peak")) {
		/* record_throughput's, of the median and of its CI's ends */
		const struct rec_problem *pr = b ? &b->problem : n_runs ? &runs[0]->problem : NULL;
		int bw = d->kind == STAT_BW || !strcmp(stat, "frac_bandwidth_peak");
		double work = !pr ? NAN : bw ? pr->min_bytes : pr->flops;
		if (isnan(work)) {
			strbuf_addf(why, "the record of '%s' has no problem size", row->variant);
			return -1;
		}
		if (!s || !(s->median > 0))
			return not_recorded(why, row, stat);
		struct rec_peak pk = { .state = PEAK_UNSET };
		if (b)
			record_batch_peak(b, &pk);
		else if (n_runs)
			record_run_peak(runs[0], &pk);
		struct rec_tput t, lo, hi;
		record_throughput(pr, s->median, &pk, &t);
		record_throughput(pr, s->median_ci[1], &pk, &lo); /* the slower end: the lower rate */
		record_throughput(pr, s->median_ci[0], &pk, &hi);
#define PICK(x) (!strcmp(stat, "gflops") ? (x).gflops : !strcmp(stat, "tflops") ? (x).tflops \
		 : !strcmp(stat, "gbps") ? (x).gbps : bw ? (x).frac_bandwidth : (x).frac_compute)
		*v = PICK(t);
		if (d->kind != STAT_PLAIN && s->median_ci[0] > 0 && s->median_ci[1] > 0) {
			ci[0] = PICK(lo);
			ci[1] = PICK(hi);
			*have_ci = 1;
		}
#undef PICK
		if (isnan(*v) && d->kind == STAT_PLAIN) {
			strbuf_addf(why, "variant '%s' has no %s: no peak (%s)", row->variant, stat,
				    pk.state == PEAK_KNOWN ? "none for this dtype" : pk.why ? pk.why : "not recorded");
			return -1;
		}
	} else if (!strcmp(stat, "usd") || !strcmp(stat, "gpu_s")) {
		int usd = !strcmp(stat, "usd");
		double sum = 0;
		if (!n_runs) {
			strbuf_addf(why, "variant '%s' has no run record", row->variant);
			return -1;
		}
		for (size_t i = 0; i < n_runs; i++) {
			double x = usd ? (runs[i]->cost.have_usd ? runs[i]->cost.usd : NAN) : runs[i]->cost.gpu_s;
			if (isnan(x)) {
				strbuf_addf(why, "run '%s' recorded no %s", runs[i]->run_id,
					    usd ? "price (no cost in USD)" : "GPU time");
				return -1;
			}
			sum += x;
		}
		*v = sum;
	} else if (!strcmp(stat, "max_abs_err")) {
		for (size_t i = 0; i < n_runs; i++)
			for (size_t k = 0; k < runs[i]->n_checks; k++) {
				double e = runs[i]->checks[k].max_abs_err;
				if (!isnan(e) && (isnan(*v) || e > *v))
					*v = e;
			}
		if (isnan(*v)) {
			strbuf_addf(why, "variant '%s' recorded no correctness result", row->variant);
			return -1;
		}
	}
#undef TIME
	if (isnan(*v))
		return not_recorded(why, row, stat);
	return 0;
}
