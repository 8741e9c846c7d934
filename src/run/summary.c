/*
 * summary.c - the terminal summary of a batch, printed from the batch
 * record as it was stored (the same struct paper, show and export read),
 * so the table on the screen is the table in the record.  Beside each
 * median, its throughput and the fraction of the machine's peak
 * (record_throughput, as the record holds them), and under the table the
 * peak itself and where it comes from.
 */
#include "run/run_ctx.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A rate or a percentage cell: record_rate_add's digits, "" when unknown. */
static void cell(char *buf, size_t n, double v, int pct)
{
	struct strbuf sb = STRBUF_INIT;
	if (isfinite(v)) {
		if (pct)
			record_frac_add(&sb, v);
		else
			record_rate_add(&sb, v);
	}
	snprintf(buf, n, "%s", strbuf_str(&sb));
	strbuf_release(&sb);
}

static const char *col(const struct run_ctx *c, enum outcome o)
{
	if (!c->o->color)
		return "";
	return o == OUTCOME_OK ? "\033[32m" : "\033[31m";
}

/* Text of the record that someone other than evident wrote (the spec's
 * question, a reason quoting a kernel or its compiler, a note), on one
 * line with its control bytes visible (util.h printable_line): printed
 * raw, it could clear the screen or overwrite the line that says a
 * variant failed (red team 4, ctl_bytes). */
static void put_text(const char *s)
{
	char *e = printable_line(s);
	fputs(e, stdout);
	free(e);
}

void summary_print(const struct run_ctx *c, const struct batch_record *b)
{
	printf("\nexperiment %s: ", b->experiment);
	put_text(b->question);
	printf("\n");
	printf("batch %s, commit %.12s%s, store %s\n", b->batch_id, b->git.commit ? b->git.commit : "(none)",
	       b->git.dirty ? " (dirty)" : "", c->o->store_root);
	printf("%d repeat%s per variant, interleaved; clock %s", b->repeats, b->repeats == 1 ? "" : "s",
	       b->n_rows && b->rows[0].clock ? b->rows[0].clock : "-");
	/* what the medians were measured on (gather.c timed_on_text): one
	 * line when every variant's agrees, else one a variant */
	const char *on = NULL;
	int on_same = 1;
	for (size_t i = 0; i < b->n_rows; i++)
		if (b->rows[i].timed_on) {
			on_same &= !on || !strcmp(on, b->rows[i].timed_on);
			on = on ? on : b->rows[i].timed_on;
		}
	if (on && on_same)
		printf("; timed on %s (the other distributions' samples timed and checked, not in the time)", on);
	printf("\n");
	for (size_t i = 0; on && !on_same && i < b->n_rows; i++)
		if (b->rows[i].timed_on)
			printf("%s: timed on %s\n", b->rows[i].variant, b->rows[i].timed_on);
	if (b->n_slots > 1) {
		printf("%zu slots, repeat r on slot r %% %zu:", b->n_slots, b->n_slots);
		for (size_t i = 0; i < b->n_slots; i++) {
			const struct rec_slot *x = &b->slots[i];
			printf("%s slot %d", i ? ";" : "", x->slot);
			if (x->device >= 0)
				printf(" %s %d", x->uuid ? "GPU" : "CPU", x->device);
			if (x->name)
				printf(" %s", x->name);
			if (x->uuid)
				printf(" (%s)", x->uuid);
			printf(" %lld run%s", x->runs, x->runs == 1 ? "" : "s");
		}
		printf("\n");
	}
	printf("\n");
	/* beside a kernel clock, the CUDA-event median of the same samples */
	int ev = 0;
	for (size_t i = 0; i < b->n_rows; i++)
		ev |= isfinite(b->rows[i].event_median_us);
	/* throughput columns where the problem declares FLOPs / bytes; one unit a table */
	struct rec_peak pk;
	record_batch_peak(b, &pk);
	int fl = isfinite(b->problem.flops) && b->problem.flops > 0;
	int bw = isfinite(b->problem.min_bytes) && b->problem.min_bytes > 0, tera = 0;
	for (size_t i = 0; i < b->n_rows; i++) {
		struct rec_tput t;
		record_throughput(&b->problem, b->rows[i].have_stats ? b->rows[i].stats.median : NAN, &pk, &t);
		tera |= t.gflops >= 1000;
	}
	printf("%-24s %-16s %12s %23s %10s %10s", "variant", "outcome", "median us", "median 95% CI", "min us",
	       "max us");
	if (ev)
		printf(" %10s", "events us");
	if (fl)
		printf(" %9s %7s", tera ? "TFLOP/s" : "GFLOP/s", "%peak");
	if (bw)
		printf(" %9s %7s", "GB/s", "%peak");
	printf(" %22s %10s  %s\n", "speedup [95% CI]", "p (Holm)", "verdict");
	for (size_t i = 0; i < b->n_rows; i++) {
		const struct batch_row *r = &b->rows[i];
		char ci[64] = "", sp[64] = "", p[32] = "", med[32] = "", mn[32] = "", mx[32] = "";
		if (r->have_stats) {
			snprintf(med, sizeof(med), "%.2f", r->stats.median);
			snprintf(ci, sizeof(ci), "[%.2f, %.2f]", r->stats.median_ci[0], r->stats.median_ci[1]);
			snprintf(mn, sizeof(mn), "%.2f", r->stats.min);
			snprintf(mx, sizeof(mx), "%.2f", r->stats.max);
		}
		int is_base = b->baseline && !strcmp(r->variant, b->baseline);
		if (r->have_cmp) {
			snprintf(sp, sizeof(sp), "%.3fx [%.3f, %.3f]", r->cmp.speedup, r->cmp.speedup_ci[0],
				 r->cmp.speedup_ci[1]);
			snprintf(p, sizeof(p), "%.2g", r->cmp.p_adjusted);
		} else if (is_base) {
			snprintf(sp, sizeof(sp), "baseline");
		}
		printf("%-24s %s%-16s%s %12s %23s %10s %10s", r->variant, col(c, r->outcome),
		       r->outcome_text ? r->outcome_text : "?", c->o->color ? "\033[0m" : "", med, ci, mn, mx);
		if (ev) {
			char e[32] = "";
			if (r->have_stats && isfinite(r->event_median_us))
				snprintf(e, sizeof(e), "%.2f", r->event_median_us);
			printf(" %10s", e);
		}
		struct rec_tput t;
		char rate[32], frac[32];
		record_throughput(&b->problem, r->have_stats ? r->stats.median : NAN, &pk, &t);
		if (fl) {
			cell(rate, sizeof(rate), tera ? t.tflops : t.gflops, 0);
			cell(frac, sizeof(frac), t.frac_compute, 1);
			printf(" %9s %7s", rate, frac);
		}
		if (bw) {
			cell(rate, sizeof(rate), t.gbps, 0);
			cell(frac, sizeof(frac), t.frac_bandwidth, 1);
			printf(" %9s %7s", rate, frac);
		}
		printf(" %22s %10s  %s%s\n", sp, p, r->have_cmp && r->cmp.verdict ? r->cmp.verdict : "",
		       !r->have_cmp		   ? ""
		       : r->cmp.one_process ? " (1 repeat)"
		       : r->cmp.trust_host && !r->cmp.few_processes ? " (trust: host)"
		       : r->cmp.shared_host && !r->cmp.few_processes ? " (host pool)"
		       : r->cmp.within_handshake && !r->cmp.few_processes ? " (within the handshake)"
		       : r->cmp.small_n	   ? " (too few samples)"
					   : "");
		/* rule 4c's bound: the size the work supports */
		if (r->have_cmp && r->cmp.size_bound > 0 && isfinite(r->cmp.size_bound))
			printf("%-24s by at most %.3fx: the mean launch's work (size_bound), not the median\n", "",
			       r->cmp.size_bound);
	}
	if (fl || bw) {
		struct strbuf sb = STRBUF_INIT;
		record_peak_text(&sb, &pk);
		printf("\npeak: %s\n", sb.buf);
		strbuf_release(&sb);
	}
	int notes = 0;
	for (size_t i = 0; i < b->n_rows; i++) {
		const struct batch_row *r = &b->rows[i];
		if (r->outcome == OUTCOME_OK && !r->expect)
			continue;
		if (!notes++)
			printf("\nnotes:\n");
		printf("  - %s: %s%s", r->variant, r->outcome_text, r->reason ? " - " : "");
		put_text(r->reason);
		if (r->expect && outcome_as_expected(r->outcome, r->expect))
			printf(" (expected)");
		else if (r->expect)
			printf(" (UNEXPECTED: expected %s)", r->expect);
		printf("\n");
	}
	size_t k;
	json_t *n;
	json_array_foreach(b->notes, k, n)
	{
		if (!notes++)
			printf("\nnotes:\n");
		printf("  - ");
		put_text(json_string_value(n));
		printf("\n");
	}
	printf("\n%zu variants, %lld runs; wall %.1f s; GPU %.1f s; cost ", b->n_rows,
	       (long long)c->plan.n_jobs, b->t_wall_s, isfinite(b->t_gpu_s) ? b->t_gpu_s : 0);
	if (b->t_have_usd)
		printf("$%.4f\n", b->t_usd);
	else
		printf("n/a\n");
}
