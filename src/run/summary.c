/*
 * summary.c - the terminal summary of a batch, printed from the batch
 * record as it was stored (the same struct paper, show and export read),
 * so the table on the screen is the table in the record.
 */
#include "run/run_ctx.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static const char *col(const struct run_ctx *c, enum outcome o)
{
	if (!c->o->color)
		return "";
	return o == OUTCOME_OK ? "\033[32m" : "\033[31m";
}

void summary_print(const struct run_ctx *c, const struct batch_record *b)
{
	printf("\nexperiment %s: %s\n", b->experiment, b->question ? b->question : "");
	printf("batch %s, commit %.12s%s, store %s\n", b->batch_id, b->git.commit ? b->git.commit : "(none)",
	       b->git.dirty ? " (dirty)" : "", c->o->store_root);
	printf("%d repeat%s per variant, interleaved; clock %s\n", b->repeats, b->repeats == 1 ? "" : "s",
	       b->n_rows && b->rows[0].clock ? b->rows[0].clock : "-");
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
	printf("%-24s %-16s %12s %23s %10s %10s", "variant", "outcome", "median us", "median 95% CI", "min us",
	       "max us");
	if (ev)
		printf(" %10s", "events us");
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
		printf(" %22s %10s  %s%s\n", sp, p, r->have_cmp && r->cmp.verdict ? r->cmp.verdict : "",
		       r->have_cmp && r->cmp.small_n ? " (too few samples)" : "");
	}
	int notes = 0;
	for (size_t i = 0; i < b->n_rows; i++) {
		const struct batch_row *r = &b->rows[i];
		if (r->outcome == OUTCOME_OK && !r->expect)
			continue;
		if (!notes++)
			printf("\nnotes:\n");
		printf("  - %s: %s%s%s", r->variant, r->outcome_text, r->reason ? " - " : "", r->reason ? r->reason : "");
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
		printf("  - %s\n", json_string_value(n));
	}
	printf("\n%zu variants, %lld runs; wall %.1f s; GPU %.1f s; cost ", b->n_rows,
	       (long long)c->plan.n_jobs, b->t_wall_s, isfinite(b->t_gpu_s) ? b->t_gpu_s : 0);
	if (b->t_have_usd)
		printf("$%.4f\n", b->t_usd);
	else
		printf("n/a\n");
}
