/*
 * cmd_show.c - `evident show ID`: one record, readable, from its typed
 * record (query.h, record.h); --json prints the manifest as stored.
 *
 * A run (evident-run/1 or /2) reads top to bottom as the life of one
 * worker execution: identity (repeat k of R, its batch), outcome and
 * reason, the code and its build (compiler warnings), what the kernel
 * echoed, where it ran, the checks grouped by phase (seeds and their
 * input distributions, timed launches checked after they ran, the extra
 * shape and its status, the float64 reference check), timing with the
 * clock that measured it and the statistics within this repeat, its
 * throughput and fraction of the machine's peak (and the peak), timing
 * health and escapes, sanitizers, the settings it ran with, cost and
 * Slurm.  A run carries no comparison: that is the batch's, Holm-adjusted
 * over the sweep; an evident-run/1 record's own comparison holds the raw
 * p, printed as raw, with a pointer to its batch.
 *
 * A batch prints its peak and its table (median, its throughput and
 * fraction of peak, speedup, Holm-adjusted p, verdict and its reason), repeats and variance by level, the MDE, health and notes,
 * and its runs; a batch of `evident reproduce`, the batch it reproduces
 * and its verdicts per variant (run/reproduce.h prints them, for reproduce
 * and show alike); a batch others reproduced, which and their verdicts
 * (from the index); a run of a reproduction says so beside its batch.
 *
 * --object HASH prints a stored object, --diff the record's working-tree
 * patch, --log the build and worker logs, --samples the timing samples
 * (of a batch: every repeat of every variant, or of one with VARIANT).
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backends/knobs.h"
#include "cli/evident.h"
#include "cli/options.h"
#include "record/record.h"
#include "report/lineage.h"
#include "run/reproduce.h"
#include "store/query.h"
#include "store/store.h"

static const char synopsis[] =
	"usage: evident show [--store DIR] [--json | --diff | --log | --lineage] ID\n"
	"       evident show [--store DIR] --samples ID [VARIANT]\n"
	"       evident show [--store DIR] --object HASH\n"
	"\n"
	"ID is a run id or a batch id ('evident ls', 'evident ls --batches'), the whole\n"
	"id, a unique prefix of it, or a unique prefix of its hash part (the 8 hex\n"
	"digits after the experiment: 4ce08165 of 20261122T042946.203Z-iter1-4ce08165),\n"
	"or a search's id ('evident ls --searches': its generations, candidates and tree).\n"
	"A run prints its identity, outcome, code, build, checks by phase, timing and\n"
	"its health, throughput and fraction of the machine's peak, sanitizers,\n"
	"settings and cost; a batch prints its peak and its table (median, GFLOP/s and\n"
	"GB/s with their fractions of peak, speedup, Holm-adjusted p, verdict and why),\n"
	"repeats and variance by level, the smallest detectable speedup (MDE), notes\n"
	"and its runs.\n";

static const struct opt_usage usage = {
	"show", synopsis,
	"exit codes: 0 shown; 1 a run without samples (--samples); 2 bad command line or\n"
	"an ambiguous id (the candidates are listed); 5 the store cannot be read;\n"
	"7 no such run\n"
};

/* What show prints; the last of --json, --diff, --log, --samples wins. */
enum show_mode { SHOW_TEXT, SHOW_JSON, SHOW_DIFF, SHOW_LOG, SHOW_SAMPLES, SHOW_LINEAGE };

/*
 * Everything show prints in its text modes goes through out(): a record
 * holds text that kernels, their compilers and the authors of specs wrote
 * (a reason, a compiler's warning, a lineage, a question, a note), and a
 * control byte printed raw could clear the reader's screen, retitle the
 * terminal or overwrite the line that says a variant failed (red team 4,
 * ctl_bytes).  show's own text has no control byte but newline and tab,
 * so every other one becomes a visible \xNN (util.h
 * strbuf_add_printable).  And the lines are show's: every string an
 * out() format takes (%s) is shown as one line, its newlines and tabs as
 * \x0a and \x09 (strbuf_add_printable_line), since a reason or a name
 * with a newline of its own printed a line that looked like show's (red
 * team 162's initspoof: a failed init()'s message printed an "ok
 * (expected)" note and a "3.120x faster" table row under the batch's
 * "by variant"; t0266).  Text that is lines by design (a search's tree)
 * goes through out_block.  --json (JSON escapes them), --diff (a patch
 * must apply as it was) and --object print through print_object_as.
 */

/* One conversion of out()'s format at *fmt (just past its '%') into sb,
 * its argument taken from ap; *fmt moves past it.  The conversions show's
 * formats use: flags, a width and a precision (digits or *), the length
 * modifiers hh h l ll z j t L, and d i u o x X c s p f F e E g G a A %. */
static void out_conv(struct strbuf *sb, const char **fmt, va_list *ap)
{
	char spec[32];
	size_t k = 0;
	const char *f = *fmt;
	int star[2], ns = 0;
	spec[k++] = '%';
	while (*f && strchr("-+ #0", *f) && k < 8)
		spec[k++] = *f++;
	if (*f == '*') {
		star[ns++] = va_arg(*ap, int);
		spec[k++] = *f++;
	}
	while (*f >= '0' && *f <= '9' && k < 16)
		spec[k++] = *f++;
	if (*f == '.') {
		spec[k++] = *f++;
		if (*f == '*') {
			star[ns++] = va_arg(*ap, int);
			spec[k++] = *f++;
		}
		while (*f >= '0' && *f <= '9' && k < 24)
			spec[k++] = *f++;
	}
	int lng = 0, half = 0, size = 0, bigd = 0;
	for (; *f && strchr("hlzjtL", *f) && k < 28; f++) {
		spec[k++] = *f;
		if (*f == 'l')
			lng++;
		else if (*f == 'h')
			half++;
		else if (*f == 'L')
			bigd = 1;
		else
			size = 1;
	}
	char c = *f ? *f++ : 0;
	spec[k++] = c;
	spec[k] = 0;
	*fmt = f;
#define OUT_ARG(v) \
	(ns == 2 ? strbuf_addf(sb, spec, star[0], star[1], v) \
		 : ns == 1 ? strbuf_addf(sb, spec, star[0], v) : strbuf_addf(sb, spec, v))
	switch (c) {
	case '%':
		strbuf_addstr(sb, "%");
		break;
	case 's': {
		const char *a = va_arg(*ap, const char *);
		char *line = printable_line(a ? a : "(null)");
		OUT_ARG(line);
		free(line);
		break;
	}
	case 'c':
		OUT_ARG(va_arg(*ap, int));
		break;
	case 'p':
		OUT_ARG(va_arg(*ap, void *));
		break;
	case 'd': case 'i': case 'u': case 'o': case 'x': case 'X':
		if (size)
			OUT_ARG(va_arg(*ap, size_t));
		else if (lng >= 2)
			OUT_ARG(va_arg(*ap, long long));
		else if (lng == 1)
			OUT_ARG(va_arg(*ap, long));
		else
			OUT_ARG(va_arg(*ap, int));
		(void)half; /* promoted to int */
		break;
	case 'f': case 'F': case 'e': case 'E': case 'g': case 'G': case 'a': case 'A':
		if (bigd)
			OUT_ARG(va_arg(*ap, long double));
		else
			OUT_ARG(va_arg(*ap, double));
		break;
	default:
		die("show: out() cannot take the conversion '%s'", spec);
	}
#undef OUT_ARG
}

static void out(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void out(const char *fmt, ...)
{
	struct strbuf raw = STRBUF_INIT, shown = STRBUF_INIT;
	va_list ap;
	va_start(ap, fmt);
	for (const char *f = fmt; *f;) {
		const char *pct = strchr(f, '%');
		size_t lit = pct ? (size_t)(pct - f) : strlen(f);
		strbuf_add(&raw, f, lit);
		f += lit;
		if (!pct)
			break;
		f++;
		out_conv(&raw, &f, &ap);
	}
	va_end(ap);
	strbuf_add_printable(&shown, strbuf_str(&raw), raw.len);
	fwrite(strbuf_str(&shown), 1, shown.len, stdout);
	strbuf_release(&raw);
	strbuf_release(&shown);
}

/* Text of show's own made of lines (a search's tree), shown as out()
 * shows its format: control bytes escaped, newlines and tabs kept. */
static void out_block(const char *text)
{
	struct strbuf shown = STRBUF_INIT;
	if (text)
		strbuf_add_printable(&shown, text, strlen(text));
	fwrite(strbuf_str(&shown), 1, shown.len, stdout);
	strbuf_release(&shown);
}

static const char *s_or(const char *s, const char *dflt)
{
	return s ? s : dflt;
}

/* An object's bytes on stdout: raw (a patch must apply as it was), or
 * printable when it is text a kernel or its compiler wrote (the logs). */
static int print_object_as(struct store *st, const char *hex, int printable)
{
	struct strbuf sb = STRBUF_INIT, shown = STRBUF_INIT;
	if (!hex || store_get(st, hex, &sb) < 0) {
		strbuf_release(&sb);
		return -1;
	}
	if (printable) {
		strbuf_add_printable(&shown, strbuf_str(&sb), sb.len);
		fwrite(strbuf_str(&shown), 1, shown.len, stdout);
	} else {
		fwrite(strbuf_str(&sb), 1, sb.len, stdout);
	}
	strbuf_release(&sb);
	strbuf_release(&shown);
	return 0;
}

static int print_object(struct store *st, const char *hex)
{
	return print_object_as(st, hex, 0);
}

/* "2026-11-22T04:04:57.123Z" stays as recorded; NULL prints "-" */
static void print_compact(const char *label, json_t *v)
{
	char *s = json_dumps(v, JSON_COMPACT | JSON_SORT_KEYS | JSON_ENCODE_ANY);
	out("%s%s\n", label, s ? s : "?");
	free(s);
}

/* An embedded document of another module, printed as key=value pairs
 * without knowing its keys (settings, Slurm, host load). */
static void print_pairs(json_t *o)
{
	const char *k;
	json_t *v;
	void *it;
	for (it = json_object_iter(o); it; it = json_object_iter_next(o, it)) {
		k = json_object_iter_key(it);
		v = json_object_iter_value(it);
		char *s = json_is_string(v) ? NULL : json_dumps(v, JSON_COMPACT | JSON_SORT_KEYS | JSON_ENCODE_ANY);
		out(" %s=%s", k, json_is_string(v) ? json_string_value(v) : s ? s : "?");
		free(s);
	}
}

static void print_p(double p)
{
	if (isnan(p))
		out("n/a");
	else
		out("%.3g", p);
}

static void print_summary(const char *label, const struct stats_summary *s)
{
	out("%smedian %.3f us [%.3f, %.3f]%s%s%s, mean %.3f, min %.3f, max %.3f, p5 %.3f, p95 %.3f, stdev %.3f, "
	       "MAD %.3f; n %zu; outliers %zu mild, %zu extreme\n",
	       label, s->median, s->median_ci[0], s->median_ci[1], s->ci_method ? " (" : "", s_or(s->ci_method, ""),
	       s->ci_method ? ")" : "", s->mean, s->min, s->max, s->p5, s->p95, s->stdev, s->mad, s->n, s->outliers_mild,
	       s->outliers_extreme);
}

/* "parent P, mutation M, origin O, search S generation G" */
static void lineage_line(struct strbuf *sb, const struct rec_lineage *l)
{
	const char *sep = "";
	if (l->parent) {
		strbuf_addf(sb, "parent %s", l->parent);
		sep = ", ";
	}
	if (l->mutation) {
		strbuf_addf(sb, "%smutation %s", sep, l->mutation);
		sep = ", ";
	}
	if (l->origin) {
		strbuf_addf(sb, "%sorigin %s", sep, l->origin);
		sep = ", ";
	}
	if (l->search)
		strbuf_addf(sb, "%ssearch %s", sep, l->search);
	if (l->generation >= 0)
		strbuf_addf(sb, "%sgeneration %lld", l->search ? " " : sep, l->generation);
}

/* ---------- a run ---------- */

static void show_identity(struct query *q, const struct run_record *r)
{
	const struct batch_record *b = query_batch_of(q, r);
	out("run        %s (%s)\n", s_or(r->run_id, "?"), s_or(r->format, "?"));
	out("experiment %s%s%s\n", s_or(r->experiment, "?"), r->question ? ": " : "", s_or(r->question, ""));
	if (r->batch_id)
		out("batch      %s, repeat %d of %d%s%s%s\n", b ? b->run_id : r->batch_id, r->repeat + 1,
		       r->repeats > 0 ? r->repeats : 1, b ? "" : " (the batch record is not in this store)",
		       b && b->repro.have ? "; a reproduction of " : "", b && b->repro.have ? s_or(b->repro.of, "?") : "");
	out("variant    %s%s%s\n", s_or(r->variant, "?"), r->is_baseline ? " (baseline)" : "",
	       r->is_reference ? " (reference)" : "");
	out("kernel     %s\n", s_or(r->kernel, "-"));
	out("params    ");
	for (size_t i = 0; i < r->n_params; i++)
		out(" %s=%s", r->params[i].name, r->params[i].value);
	out("%s\n", r->n_params ? "" : " (none)");
	if (r->lineage.have) {
		struct strbuf l = STRBUF_INIT;
		lineage_line(&l, &r->lineage);
		out("lineage    %s (evident show --lineage %s)\n", l.buf, s_or(r->run_id, "?"));
		strbuf_release(&l);
	}
	out("\noutcome    %s%s%s\n", s_or(r->outcome_text, "?"), r->reason ? ": " : "", s_or(r->reason, ""));
	if (r->expect)
		out("  expected %s: %s\n", r->expect, r->expect_met ? "met" : "NOT met");
	out("when       %s .. %s (%.2f s)\n", s_or(r->started_utc, "?"), s_or(r->finished_utc, "?"), r->wall_s);
}

/* One run of a chain: id, variant, outcome and median, then its lineage. */
static void chain_line(struct query *q, size_t i, int first)
{
	const struct query_entry *e = &q->e[i];
	const struct run_record *r = query_run_at(q, i);
	out("%s%s  %s  %s", first ? "  " : "  <- ", e->run_id, s_or(e->a.variant, "?"), s_or(e->a.outcome, "?"));
	if (!isnan(e->a.median_us))
		out(" %.2f us", e->a.median_us);
	out("\n");
	if (r && r->lineage.have) {
		struct strbuf l = STRBUF_INIT;
		lineage_line(&l, &r->lineage);
		out("       %s\n", l.buf);
		strbuf_release(&l);
	} else {
		out("       (no lineage: a root)\n");
	}
}

/* --lineage of a run: its chain of ancestors in this store. */
static void show_run_lineage(struct query *q, size_t i)
{
	size_t *c, n;
	struct strbuf why = STRBUF_INIT;
	n = lineage_chain(q, i, &c, &why);
	out("lineage of %s (%zu run%s, child first)\n", q->e[i].run_id, n, n == 1 ? "" : "s");
	for (size_t k = 0; k < n; k++)
		chain_line(q, c[k], k == 0);
	if (why.len)
		out("  the chain stops: %s\n", why.buf);
	free(c);
	strbuf_release(&why);
}

/* --lineage of a batch: each variant's lineage (its first run's) and the
 * run its parent resolves to. */
static void show_batch_lineage(struct query *q, const struct batch_record *b)
{
	out("lineage of the variants of %s\n", s_or(b->run_id, "?"));
	for (size_t k = 0; k < b->n_rows; k++) {
		const struct batch_row *row = &b->rows[k];
		const struct run_record *r = query_row_run(q, row);
		out("  %-24s ", s_or(row->variant, "?"));
		if (!r || !r->lineage.have) {
			out("(no lineage)\n");
			continue;
		}
		struct strbuf l = STRBUF_INIT, why = STRBUF_INIT;
		lineage_line(&l, &r->lineage);
		out("%s\n", l.buf);
		long self = r->run_id ? query_find(q, r->run_id, NULL) : -1;
		long p = self >= 0 && r->lineage.parent ? lineage_parent(q, (size_t)self, &why) : -1;
		if (p >= 0)
			out("  %-24s parent run %s (evident show --lineage %s)\n", "", q->e[p].run_id, r->run_id);
		else if (r->lineage.parent)
			out("  %-24s %s\n", "", why.buf);
		strbuf_release(&l);
		strbuf_release(&why);
	}
}

/*
 * The runner that wrote a record (code.runner, red team 279), under its
 * code line: always the runner's build and hashes, and where the runner
 * was built from another commit than the checkout code.git names (an
 * older runner started in a newer checkout, or the reverse), a line that
 * says so; the errata match the runner's commit.  Records before the
 * field: "not recorded", code.git being all they say.
 */
static void show_runner(const struct rec_runner *rn, const struct rec_git *g)
{
	if (!rn->have) {
		out("  runner   not recorded (a record before red team 279's fix: the commit above is the spec's "
		    "checkout, which need not be the runner's build)\n");
		return;
	}
	const char *c = rn->commit ? rn->commit : "unknown";
	int known = strcmp(c, "unknown") != 0;
	out("  runner   evident built from commit %s%s; evident sha256 %.16s, evident-worker sha256 %.16s\n",
	    known ? c : "unknown (no git where it was built)", rn->dirty > 0 ? ", dirty" : "", s_or(rn->sha256, "-"),
	    s_or(rn->worker_sha256, "-"));
	if (known && (!g->commit || strcmp(c, g->commit)))
		out("  written by runner %.12s, not the checkout's (%.12s): the errata match the runner\n", c,
		    s_or(g->commit, "none"));
}

static void show_code(const struct run_record *r)
{
	const struct rec_git *g = &r->git;
	out("\ncode       commit %s on %s", s_or(g->commit, "-"), s_or(g->branch, "-"));
	if (g->dirty)
		out(", DIRTY (%lld changed file(s); patch: evident show --diff %s)\n", g->n_changed, r->run_id);
	else
		out(", clean\n");
	if (g->note)
		out("  note     %s\n", g->note);
	show_runner(&r->runner, g);
	for (size_t i = 0; i < r->n_sources; i++)
		out("  source   %s  sha256 %.16s\n", s_or(r->sources[i].path, "?"), s_or(r->sources[i].sha256, "-"));
	for (size_t i = 0; i < r->problem.n_sources; i++)
		out("  problem  %s  sha256 %.16s\n", s_or(r->problem.sources[i].path, "?"),
		       s_or(r->problem.sources[i].sha256, "-"));
	out("  build key %.16s  device code sha256 %.16s\n", s_or(r->build_key, "-"), s_or(r->binary_sha256, "-"));
	if (!r->have_build) {
		out("build      not recorded\n");
		return;
	}
	out("build      %s%s, %.2f s, %lld compiler warning%s", s_or(r->build_status, "?"), r->build_cached ? " (cached)" : "",
	       r->build_seconds, r->build_warnings, r->build_warnings == 1 ? "" : "s");
	if (r->build_first_warning)
		out(" (first: %s)", r->build_first_warning);
	if (json_object_size(r->build_resources))
		print_compact("; resources ", r->build_resources);
	else
		out("\n");
	if (r->build_reason)
		out("  reason   %s\n", r->build_reason);
}

static void show_echo(const struct run_record *r)
{
	size_t i;
	json_t *v;
	{
		/* the kernel's own words: shown, never obeyed by the terminal */
		struct strbuf e = STRBUF_INIT;
		if (r->compiled_params)
			strbuf_add_printable(&e, r->compiled_params, strlen(r->compiled_params));
		out("echo       %s%s\n", r->compiled_params ? "the kernel reports it was compiled with: " : "",
		       r->compiled_params ? strbuf_str(&e) : "the kernel reported no compiled parameters");
		strbuf_release(&e);
	}
	if (json_array_size(r->not_echoed)) {
		out("  not echoed");
		json_array_foreach(r->not_echoed, i, v)
		{
			char *s = json_is_string(v) ? NULL : json_dumps(v, JSON_COMPACT | JSON_ENCODE_ANY);
			out("%s %s", i ? "," : "", json_is_string(v) ? json_string_value(v) : s ? s : "?");
			free(s);
		}
		out(" (the kernel never said it saw these: they may not reach its code)\n");
	}
	json_array_foreach(r->mismatched, i, v) print_compact("  MISMATCH ", v);
	json_array_foreach(r->echo_suggestions, i, v) print_compact("  hint     ", v);
	json_array_foreach(r->same_binary_as, i, v) print_compact("  same device code as ", v);
	json_array_foreach(r->no_effect_params, i, v) print_compact("  NOTE     ", v);
}

static void show_where(const struct run_record *r)
{
	out("\nworker     %s, %.2f s", s_or(r->worker_exit, "?"), r->worker_seconds);
	if (r->worker_log_object)
		out(" (log: evident show --log %s)", r->run_id);
	out("\n");
	if (json_object_size(r->protocol))
		print_compact("  protocol ", r->protocol);
	out("machine    host %s, CPU %s\n", s_or(r->host, "?"), s_or(r->cpu, "?"));
	char *dev = run_device_label(r);
	out("device     %s", dev);
	free(dev);
	if (r->driver)
		out(", driver %s", r->driver);
	if (r->gpu_slot >= 0)
		out(", slot %d", r->gpu_slot);
	if (r->gpu_uuid)
		out(", %s", r->gpu_uuid);
	out("\n");
	if (r->exec.kind && strcmp(r->exec.kind, "local")) {
		out("executor   %s, slot %d of %d", r->exec.kind, r->exec.slot, r->exec.slots);
		if (r->exec.pinned)
			out(", %s", r->exec.pinned);
		out("\n");
	}
	if (r->throttled == 1)
		out("  WARNING  the GPU was throttling during this run\n");
	if (json_object_size(r->load)) {
		out("load      ");
		print_pairs(r->load);
		out("\n");
	}
	if (json_object_size(r->slurm)) {
		out("slurm     ");
		print_pairs(r->slurm);
		out("\n");
	}
}

static void print_check(const struct rec_check *c)
{
	out("    %s", !strcmp(c->phase, "timed") ? "sample " : "seed ");
	if (!strcmp(c->phase, "timed"))
		out("%-6lld seed %-16llu", c->sample, c->seed);
	else
		out("%-16llu", c->seed);
	out(" %-13s max|err| %-10.3g rel L2 %-10.3g NaN %lld unwritten %lld out of tolerance %lld %s\n",
	       s_or(c->dist, "-"), c->max_abs_err, c->rel_l2, c->nan_count, c->unwritten, c->mismatches,
	       c->pass ? "pass" : "FAIL");
}

static void show_correctness(const struct run_record *r)
{
	out("\ncorrectness %s; tolerance atol %g, rtol %g", r->correctness_pass ? "pass" : "FAIL", r->atol, r->rtol);
	if (isfinite(r->rel_l2))
		out(", rel_l2 %g", r->rel_l2);
	out("\n");
	struct rec_phase ph[16];
	size_t np = record_check_phases(r, ph, ARRAY_SIZE(ph));
	for (size_t k = 0; k < np; k++) {
		const struct rec_phase *p = &ph[k];
		const char *what = !strcmp(p->phase, "seed")	  ? "seeds checked before timing"
				   : !strcmp(p->phase, "timed")	  ? "timed launches checked after they ran"
				   : !strcmp(p->phase, "shape")	  ? "checks at the extra shape"
				   : !strcmp(p->phase, "plan")	  ? "seeds launch() ran as is in the planner"
				   : !strcmp(p->phase, "recheck") ? "re-check after timing"
								  : "checks";
		out("  %-12s %zu %s: %s", p->phase, p->n, what, p->failed ? "" : "all pass");
		if (p->failed)
			out("%zu FAILED", p->failed);
		if (!isnan(p->max_abs_err))
			out("; max|err| %.3g", p->max_abs_err);
		out("\n");
		int timed = !strcmp(p->phase, "timed");
		for (size_t i = 0; i < r->n_checks; i++) {
			const struct rec_check *c = &r->checks[i];
			if (strcmp(c->phase ? c->phase : "seed", p->phase))
				continue;
			if (timed && c->pass && p->n > 12)
				continue; /* many timed checks: the failing ones */
			print_check(c);
		}
		if (timed && p->n > 12 && !p->failed) {
			/* the range of the timed checks (the last check of all
			 * can be another phase's, an extra shape's sample -1:
			 * red team 162 saw "samples 0 .. -1") */
			long long lo = p->first->sample, hi = lo;
			for (size_t i = 0; i < r->n_checks; i++)
				if (!strcmp(r->checks[i].phase ? r->checks[i].phase : "seed", "timed")) {
					lo = r->checks[i].sample < lo ? r->checks[i].sample : lo;
					hi = r->checks[i].sample > hi ? r->checks[i].sample : hi;
				}
			out("    (every one passed; samples %lld .. %lld)\n", lo, hi);
		}
	}
	if (r->extra_shape_status) {
		out("  extra shape %s", r->extra_shape_status);
		if (json_object_size(r->extra_shape)) {
			out(" at");
			for (size_t i = 0; i < r->problem.n_dims; i++) { /* in the problem's order of dimensions */
				json_t *v = json_object_get(r->extra_shape, r->problem.dim_names[i]);
				if (json_is_integer(v))
					out(" %s=%lld", r->problem.dim_names[i], (long long)json_integer_value(v));
			}
		}
		if (json_object_size(r->extra_shape_range)) { /* drawn in it (red team 279) */
			out(" (drawn in");
			for (size_t i = 0; i < r->problem.n_dims; i++) {
				json_t *v = json_object_get(r->extra_shape_range, r->problem.dim_names[i]);
				if (json_array_size(v) == 2)
					out(" %s=[%lld, %lld]", r->problem.dim_names[i],
					    (long long)json_integer_value(json_array_get(v, 0)),
					    (long long)json_integer_value(json_array_get(v, 1)));
			}
			out(")");
		} else if (json_object_size(r->extra_shape_ceiling)) { /* drawn under it (red team 274) */
			out(" (drawn under");
			for (size_t i = 0; i < r->problem.n_dims; i++) {
				json_t *v = json_object_get(r->extra_shape_ceiling, r->problem.dim_names[i]);
				if (json_is_integer(v))
					out(" %s=%lld", r->problem.dim_names[i], (long long)json_integer_value(v));
			}
			out(")");
		}
		if (r->extra_shape_draw)
			out(" [%s]", r->extra_shape_draw);
		if (r->extra_shape_reason)
			out(": %s", r->extra_shape_reason);
		out("\n");
	}
	struct rec_refcheck rc;
	record_reference_check(r, &rc);
	if (rc.have) {
		out("  reference  float64 check of the judge's reference: %s", rc.pass == 1 ? "pass" : rc.done ? "FAIL" : "not done");
		if (isfinite(rc.max_abs_diff))
			out(", max |diff| %.3g, rel L2 %.3g", rc.max_abs_diff, rc.rel_l2);
		if (rc.against)
			out(" (against %s)", rc.against);
		if (rc.why)
			out(": %s", rc.why);
		out("\n");
	} else if (r->version >= 2) {
		out("  reference  no float64 check recorded\n");
	}
}

static void show_timing(struct query *q, const struct run_record *r)
{
	if (!r->have_timing) {
		out("\ntiming     none (the run stopped before timing)\n");
		return;
	}
	json_t *mode = json_object_get(r->timing_method, "mode"); /* the backend's timing method document */
	out("\ntiming     clock %s, cache %s%s%s, %lld samples", s_or(r->clock, "?"), s_or(r->cache, "?"),
	       json_is_string(mode) ? ", mode " : "", json_is_string(mode) ? json_string_value(mode) : "", r->n_samples);
	if (r->n_by_dist) { /* the time's samples are the timing distributions' (job.c job_samples) */
		long long all = 0;
		for (size_t k = 0; k < r->n_by_dist; k++)
			all += r->by_dist[k].n;
		out(" (the timing distributions' of %lld timed)", all);
	}
	out("\n");
	if (r->have_stats) {
		print_summary(r->version >= 2 ? "  this repeat  " : "  stats    ", &r->stats);
		/* what the median means against the machine (record_throughput) */
		struct rec_peak pk;
		struct rec_tput t;
		record_run_peak(r, &pk);
		record_throughput(&r->problem, r->stats.median, &pk, &t);
		struct strbuf sb = STRBUF_INIT;
		record_tput_text(&sb, &t);
		if (sb.len) {
			out("  throughput %s\n", sb.buf);
			strbuf_reset(&sb);
			record_peak_text(&sb, &pk);
			out("  peak     %s\n", sb.buf);
		}
		strbuf_release(&sb);
	}
	if (r->n_by_dist) {
		/* which samples the time is (job.c job_samples): the timing
		 * distributions'; the others timed and checked apart */
		out("  by dist ");
		for (size_t k = 0; k < r->n_by_dist; k++) {
			const struct rec_dist *x = &r->by_dist[k];
			out("%s %s %lld sample%s, median ", k ? ";" : "", x->name, x->n, x->n == 1 ? "" : "s");
			if (isfinite(x->median_us))
				out("%.2f us", x->median_us);
			else
				out("-");
			out(" (%s", x->timing ? "timing" : "stress: not in the time");
			/* the stress cost's evidence (gather.c): over 3x, 6x ... */
			if (x->n_over[0] > 0) {
				out(", over 3x the timing median:");
				for (int l = 0; l < REC_OVER_LEVELS && x->n_over[l] > 0; l++)
					out(" %lld at %dx", x->n_over[l], 3 << l);
			}
			out(")");
		}
		out("\n");
	}
	const struct rec_health *h = &r->health;
	if (h->have) {
		out("  health   %lld throttled sample%s, %lld excluded; %s", h->throttled_samples,
		       h->throttled_samples == 1 ? "" : "s", h->excluded_samples, h->trend ? "TREND" : "no significant trend");
		if (isfinite(h->trend_pct))
			out(" (%+.1f%% over the run)", h->trend_pct);
		out("; %d mode%s", h->modes, h->modes == 1 ? "" : "s");
		if (isfinite(h->clock_mhz_min))
			out("; clock %.0f-%.0f MHz", h->clock_mhz_min, h->clock_mhz_max);
		if (h->note)
			out(": %s", h->note);
		out("\n");
	}
	const struct rec_escapes *e = &r->escapes;
	if (r->version >= 2) {
		if (e->other_stream || e->late || e->host_threads || e->block_timeouts)
			out("  ESCAPES  other stream %lld, late %lld, host threads %lld, block timeouts %lld\n",
			       e->other_stream, e->late, e->host_threads, e->block_timeouts);
		else
			out("  escapes  none\n");
	}
	/* the ruler (outcome.h CLOCK_RULER_*): the kernel clock against the
	 * device's %globaltimer */
	if (e->ruler_n > 0 && isfinite(e->ruler_rate))
		out("  ruler    the kernel clock read %.4f of the device's %%globaltimer (median of %lld samples)\n",
		    e->ruler_rate, e->ruler_n);
	if (r->samples_object)
		out("  samples  evident show --samples %s\n", r->run_id);
	if (r->event_samples_object)
		out("  CUDA-event samples: evident show --object %s\n", r->event_samples_object);
	if (r->host_samples_object)
		out("  host launch latency: evident show --object %s\n", r->host_samples_object);
	const struct batch_record *b = query_batch_of(q, r);
	const char *bid = b ? b->run_id : r->batch_id;
	if (r->have_comparison) {
		const struct stats_comparison *c = &r->comparison;
		out("vs %-8s speedup %.3fx [%.3f, %.3f], Mann-Whitney p ", s_or(r->comparison_baseline, "baseline"),
		       c->speedup, c->speedup_ci[0], c->speedup_ci[1]);
		print_p(c->p);
		out(" raw (%s), Cliff's delta %.2f %s, verdict %s", s_or(c->mwu_method, "?"), c->delta,
		       s_or(c->magnitude, ""), s_or(c->verdict, "?"));
		if (c->size_bound > 0 && isfinite(c->size_bound))
			out(", size_bound %.3fx (the mean launch's work)", c->size_bound);
		if (c->verdict_recorded)
			out(" (the record says %s, from one process a side)", c->verdict_recorded);
		out("\n");
		out("  the p-value above is not adjusted for the other comparisons; the batch's Holm-adjusted p: "
		       "evident show %s\n", s_or(bid, "BATCH"));
	} else if (bid && r->is_baseline) {
		out("  the baseline: the comparisons with it are the batch's (every repeat, Holm-adjusted): evident show %s\n",
		       bid);
	} else if (bid) {
		out("  the comparison with the baseline is the batch's (every repeat, Holm-adjusted): evident show %s\n",
		       bid);
	}
}

static void show_rest(const struct run_record *r)
{
	out("\nsanitizers");
	if (!r->n_sanitize)
		out(" none ran\n");
	else
		out("\n");
	for (size_t i = 0; i < r->n_sanitize; i++) {
		const struct rec_sanitize *z = &r->sanitize[i];
		out("  %-10s %s", s_or(z->tool, "?"), z->passed == 1 ? "passed" : z->passed == 0 ? "FAILED" : "could not run");
		if (z->passed == 0)
			out(", %lld error(s)", z->errors);
		/* what it watched: the sealed replay of the timed plan, or the
		 * kernel's own code in process (a trust: host kernel's; records
		 * before red team 56's fix do not say, and watched the latter) */
		const char *watched = json_string_value(json_object_get(z->doc, "watched"));
		out(" [%s]", watched ? watched : "in process, not said");
		const char *rs = json_string_value(json_object_get(z->doc, "reason"));
		if (z->passed != 1 && rs)
			out(" (%s)", rs);
		if (z->report_object)
			out(" (report: evident show --object %s)", z->report_object);
		out("\n");
	}
	/* the settings it ran with, named as in the spec (v1 records hold a few) */
	out("settings  ");
	int any = 0;
	for (size_t i = 0; i < knob_count; i++) {
		const struct knob_def *k = &knob_defs[i];
		char key[64];
		double num = 0;
		const char *str = NULL;
		if (!strcmp(k->section, "top"))
			snprintf(key, sizeof(key), "%s", k->name);
		else
			snprintf(key, sizeof(key), "%s.%s", k->section, k->name);
		if (!record_run_setting(r, key, &num, &str))
			continue;
		any = 1;
		if (str)
			out(" %s=%s", key, str);
		else
			out(" %s=%g", key, num);
	}
	out("%s\n", any ? "" : " not recorded");
	const struct rec_cost *c = &r->cost;
	out("cost       wall %.2f s, GPU %.2f s, ", c->wall_s, c->gpu_s);
	if (c->have_usd)
		out("$%.5f at $%.2f/h (%s%s%s)\n", c->usd, c->price_usd_per_h, s_or(c->source, "?"), c->date ? ", " : "",
		       s_or(c->date, ""));
	else
		out("n/a (%s)\n", s_or(c->reason, "no price"));
}

static void show_run(struct query *q, const struct run_record *r)
{
	show_identity(q, r);
	show_code(r);
	show_echo(r);
	show_where(r);
	show_correctness(r);
	show_timing(q, r);
	show_rest(r);
}

/* ---------- a search ---------- */

static void print_ci_us(double v, const double ci[2])
{
	if (isnan(v)) {
		out("%-30s", "-");
		return;
	}
	char buf[96];
	if (isfinite(ci[0]))
		snprintf(buf, sizeof(buf), "%.2f [%.2f, %.2f]", v, ci[0], ci[1]);
	else
		snprintf(buf, sizeof(buf), "%.2f", v);
	out("%-30s", buf);
}

static void show_search(struct query *q, const struct search_record *r, int tree_only)
{
	(void)q;
	struct strbuf tree = STRBUF_INIT;
	lineage_search_tree(r, 0, &tree);
	if (tree_only) {
		out("search %s: %zu generation(s), best %s\n", s_or(r->run_id, "?"), r->n_gens, s_or(r->best_id, "-"));
		out_block(tree.buf);
		strbuf_release(&tree);
		return;
	}
	out("search     %s (%s)\n", s_or(r->run_id, "?"), s_or(r->format, "?"));
	out("experiment %s%s%s\n", s_or(r->experiment, "?"), r->question ? ": " : "", s_or(r->question, ""));
	out("when       %s .. %s; %s backend; spec %s\n", s_or(r->started_utc, "?"), s_or(r->finished_utc, "?"),
	       s_or(r->backend, "?"), s_or(r->spec_path, "?"));
	out("code       commit %s on %s, %s\n", s_or(r->git.commit, "-"), s_or(r->git.branch, "-"),
	       r->git.dirty ? "dirty (evident show --diff prints the patch)" : "clean");
	show_runner(&r->runner, &r->git);
	out("settings   population %lld, generations %lld, elite %lld, mutations %lld, seed %llu%s\n", r->population,
	       r->generations, r->elite, r->mutations, r->seed, r->seed_given ? "" : " (drawn)");
	for (size_t i = 0; i < r->n_tunables; i++) {
		const struct rec_search_tunable *t = &r->tunables[i];
		out("  tunable  %s: ", s_or(t->name, "?"));
		if (t->is_range)
			out("%lld..%lld step %lld\n", t->lo, t->hi, t->step);
		else
			for (size_t k = 0; k < t->n_choices; k++)
				out("%s%s", t->choices[k], k + 1 < t->n_choices ? ", " : "\n");
	}
	for (size_t i = 0; i < r->n_kernels; i++)
		out("  kernel   %s\n", r->kernels[i]);
	if (r->budget_unit)
		out("budget     %.4g of %.4g %s spent%s\n", r->budget_spent, r->budget_limit, r->budget_unit,
		       r->budget_stopped ? "; it stopped the search" : "");
	out("stopped    %s: %s\n", s_or(r->stopped, "?"), s_or(r->stop_reason, ""));
	out("best       %s", s_or(r->best_id, "none"));
	if (r->best_id && r->best_generation >= 0) {
		out(", measured in generation %d: %.2f us", r->best_generation, r->best_median_us);
		if (isfinite(r->best_median_ci[0]))
			out(" [%.2f, %.2f]", r->best_median_ci[0], r->best_median_ci[1]);
		out(" (run %s)", s_or(r->best_run, "-"));
	}
	out("\n");
	for (size_t g = 0; g < r->n_gens; g++) {
		const struct rec_generation *gen = &r->gens[g];
		out("\ngeneration %d: batch %s; %lld runs, %.1f s", gen->generation, s_or(gen->batch, "-"), gen->runs,
		       gen->wall_s);
		if (gen->gpu_s > 0)
			out(", %.1f GPU-s", gen->gpu_s);
		if (isfinite(gen->usd) && gen->usd > 0)
			out(", $%.4f", gen->usd);
		out("\n  %-10s %-32s %-16s %-30s %-26s %-9s %s\n", "candidate", "mutation", "outcome", "median us [95% CI]",
		       "speedup [95% CI]", "p (Holm)", "verdict");
		for (size_t k = 0; k < gen->n; k++) {
			const struct rec_candidate *c = &gen->c[k];
			int elite = c->role && !strcmp(c->role, "elite");
			out("  %-10s %-32s %-16s ", s_or(c->id, "?"), elite ? "(the best so far)" : s_or(c->mutation, "-"),
			       s_or(c->outcome, "?"));
			print_ci_us(c->median_us, c->median_ci);
			if (c->have_cmp) {
				char sp[64];
				snprintf(sp, sizeof(sp), "%.3fx [%.3f, %.3f]", c->speedup, c->speedup_ci[0], c->speedup_ci[1]);
				out(" %-26s ", sp);
				if (isnan(c->p_adjusted))
					out("%-9s", "n/a");
				else
					out("%-9.2g", c->p_adjusted);
				out(" %s", s_or(c->verdict, "?"));
			} else {
				out(" %-26s %-9s %s", elite ? "baseline" : "-", "", "");
			}
			if (c->promoted && !elite)
				out("  PROMOTED");
			out("\n");
			if (c->no_effect)
				out("  %-10s no effect: %s; never promoted\n", "", c->no_effect);
			if (c->note)
				out("  %-10s note: %s\n", "", c->note);
		}
		out("  -> %s\n", s_or(gen->why, "not judged"));
	}
	for (size_t i = 0; i < json_array_size(r->notes); i++)
		out("note: %s\n", json_string_value(json_array_get(r->notes, i)));
	out("\ntree (evident show --lineage %s):\n", s_or(r->run_id, "?"));
	out_block(tree.buf);
	strbuf_release(&tree);
}

/* ---------- a batch ---------- */

/* Which batch b reproduces, and which batches reproduced it (oldest
 * first), with their verdicts. */
static void show_reproductions(struct query *q, const struct batch_record *b)
{
	if (b->repro.have)
		out("reproduces %s: %s (the verdicts are below)\n", s_or(b->repro.of, "?"),
		       b->repro.reproduced ? "reproduced" : "NOT reproduced");
	size_t *rx, n = query_reproductions_of(q, b->run_id, b->batch_id, &rx);
	for (size_t k = n; k-- > 0;) {
		const struct query_entry *e = &q->e[rx[k]];
		out("reproduced by %s: %s (evident show %s)\n", e->run_id,
		       e->a.reproduced ? "reproduced" : "NOT reproduced", e->run_id);
	}
	free(rx);
}

static void show_batch(struct query *q, const struct batch_record *b)
{
	out("batch      %s (%s)\n", s_or(b->run_id, "?"), s_or(b->format, "?"));
	if (b->batch_id && b->run_id && strcmp(b->batch_id, b->run_id))
		out("  its runs name it %s\n", b->batch_id);
	show_reproductions(q, b);
	/* a generation of a search says so: its runs carry the search in their lineage */
	const struct run_record *r0 = b->n_rows ? query_row_run(q, &b->rows[0]) : NULL;
	if (r0 && r0->lineage.have && r0->lineage.search)
		out("search     generation %lld of %s (evident show %s)\n", r0->lineage.generation, r0->lineage.search,
		       r0->lineage.search);
	out("experiment %s%s%s\n", s_or(b->experiment, "?"), b->question ? ": " : "", s_or(b->question, ""));
	out("baseline   %s; %s backend; started %s\n", s_or(b->baseline, "-"), s_or(b->backend, "?"),
	       s_or(b->started_utc, "-"));
	out("code       commit %s on %s, %s\n", s_or(b->git.commit, "-"), s_or(b->git.branch, "-"),
	       b->git.dirty ? "DIRTY" : "clean");
	show_runner(&b->runner, &b->git);
	out("problem    %s", s_or(b->problem.name, "?"));
	for (size_t i = 0; i < b->problem.n_dims; i++)
		out(" %s=%lld", b->problem.dim_names[i], b->problem.dims[i]);
	out(" %s", s_or(b->problem.dtype, ""));
	if (isfinite(b->problem.flops))
		out("; %.4g FLOP", b->problem.flops);
	if (isfinite(b->problem.min_bytes))
		out("; %.4g bytes moved at least", b->problem.min_bytes);
	out("\n");
	struct rec_peak pk;
	record_batch_peak(b, &pk);
	int fl = isfinite(b->problem.flops) && b->problem.flops > 0;
	int bw = isfinite(b->problem.min_bytes) && b->problem.min_bytes > 0, tera = 0;
	if (fl || bw) {
		struct strbuf sb = STRBUF_INIT;
		record_peak_text(&sb, &pk);
		out("peak       %s\n", sb.buf);
		strbuf_release(&sb);
	}
	for (size_t i = 0; i < b->n_rows; i++) {
		struct rec_tput t;
		record_throughput(&b->problem, b->rows[i].have_stats ? b->rows[i].stats.median : NAN, &pk, &t);
		tera |= t.gflops >= 1000;
	}
	out("plan       %d repeat%s per variant%s%s%s\n", b->repeats, b->repeats == 1 ? "" : "s", b->order ? ", " : "",
	       s_or(b->order, ""), b->order ? " order" : "");
	out("totals     %lld variants: %lld ok, %lld failed; wall %.1f s, GPU %.1f s, ", b->t_variants, b->t_ok,
	       b->t_failed, b->t_wall_s, b->t_gpu_s);
	if (b->t_have_usd)
		out("$%.4f\n", b->t_usd);
	else
		out("cost n/a\n");
	out("holm       %lld comparison%s with the baseline, alpha %g", b->holm_comparisons,
	       b->holm_comparisons == 1 ? "" : "s", b->holm_alpha);
	if (isfinite(b->holm_threshold))
		out(", noise band of the verdict [%.3g, %.3g]", 1 - b->holm_threshold, 1 + b->holm_threshold);
	out("\n%s", b->interrupted ? "  INTERRUPTED: variants after the last row never ran\n" : "");

	size_t w = 8;
	for (size_t i = 0; i < b->n_rows; i++)
		if (b->rows[i].variant && strlen(b->rows[i].variant) + 11 > w)
			w = strlen(b->rows[i].variant) + 11;
	/* throughput cells: rate and fraction of peak, GFLOP/s (TFLOP/s from 1000 on) and GB/s */
	out("\n%-*s %-17s %-7s %-32s ", (int)w, "variant", "outcome", "repeats", "median us [95% CI]");
	if (fl)
		out("%-17s ", tera ? "TFLOP/s (%peak)" : "GFLOP/s (%peak)");
	if (bw)
		out("%-17s ", "GB/s (%peak)");
	out("%-26s %-9s %s\n", "speedup [95% CI]", "p (Holm)", "verdict");
	for (size_t i = 0; i < b->n_rows; i++) {
		const struct batch_row *row = &b->rows[i];
		int base = b->baseline && row->variant && !strcmp(b->baseline, row->variant);
		char name[256], reps[32], med[96] = "-", sp[96] = "";
		snprintf(name, sizeof(name), "%s%s", s_or(row->variant, "?"), base ? " (baseline)" : "");
		snprintf(reps, sizeof(reps), "%zu/%zu", row->n_ok_runs, row->n_runs);
		if (row->have_stats)
			snprintf(med, sizeof(med), "%.2f [%.2f, %.2f]", row->stats.median, row->stats.median_ci[0],
				 row->stats.median_ci[1]);
		if (row->have_cmp)
			snprintf(sp, sizeof(sp), "%.3fx [%.3f, %.3f]", row->cmp.speedup, row->cmp.speedup_ci[0],
				 row->cmp.speedup_ci[1]);
		else if (base)
			snprintf(sp, sizeof(sp), "baseline");
		out("%-*s %-17s %-7s %-32s ", (int)w, name, s_or(row->outcome_text, "?"), reps, med);
		struct rec_tput t;
		record_throughput(&b->problem, row->have_stats ? row->stats.median : NAN, &pk, &t);
		for (int k = 0; k < 2; k++) {
			double rate = k ? t.gbps : tera ? t.tflops : t.gflops, frac = k ? t.frac_bandwidth : t.frac_compute;
			if (!(k ? bw : fl))
				continue;
			struct strbuf c = STRBUF_INIT;
			if (isfinite(rate)) {
				record_rate_add(&c, rate);
				if (isfinite(frac)) {
					strbuf_addstr(&c, " (");
					record_frac_add(&c, frac);
					strbuf_addch(&c, ')');
				}
			} else {
				strbuf_addch(&c, '-');
			}
			out("%-17s ", c.buf);
			strbuf_release(&c);
		}
		out("%-26s ", sp);
		if (row->have_cmp) {
			char p[32];
			snprintf(p, sizeof(p), "%.3g", row->cmp.p_adjusted);
			out("%-9s %s", p, s_or(row->cmp.verdict, "?"));
			if (row->cmp.verdict_reason)
				out(": %s", row->cmp.verdict_reason);
			if (row->cmp.size_bound > 0 && isfinite(row->cmp.size_bound))
				out(" (size_bound %.3fx: a claim's size is the work's)", row->cmp.size_bound);
			if (row->cmp.verdict_recorded)
				out(" (the record says %s: %s)", row->cmp.verdict_recorded,
				    row->cmp.one_process ? "the evident that wrote it decided from one process a side"
				    : !strcmp(row->cmp.verdict_recorded, "no_difference")
					? "the evident that wrote it did not ask the CI to lie inside the band"
					: "the evident that wrote it drew it before the rule above");
			if (row->cmp.small_n)
				out(" (too few samples)");
		}
		out("\n");
	}

	out("\nby variant\n");
	for (size_t i = 0; i < b->n_rows; i++) {
		const struct batch_row *row = &b->rows[i];
		out("  %s:", s_or(row->variant, "?"));
		if (row->outcome != OUTCOME_OK)
			out(" %s%s%s;", s_or(row->outcome_text, "?"), row->reason ? ": " : "", s_or(row->reason, ""));
		if (row->have_levels)
			out(" %d repeat%s x %.0f samples; variance between repeats %.3g, within %.3g us^2 (%.0f%% between);",
			       row->levels.repeats, row->levels.repeats == 1 ? "" : "s", row->levels.samples_per_repeat,
			       row->levels.var_between, row->levels.var_within, 100 * row->levels.frac_between);
		if (row->have_stats)
			out(" n %zu over %zu repeat%s;", row->stats.n, row->stats.repeats, row->stats.repeats == 1 ? "" : "s");
		if (row->have_cmp) {
			out(" Cliff's delta %.2f [%.2f, %.2f] %s; p raw ", row->cmp.delta, row->cmp.delta_ci[0],
			       row->cmp.delta_ci[1], s_or(row->cmp.magnitude, ""));
			print_p(row->cmp.p);
			out(" (%s);", s_or(row->cmp.mwu_method, "?"));
		}
		if (isfinite(row->mde))
			out(" MDE %.3fx (the smallest speedup this comparison could detect);", row->mde);
		if (row->health_note)
			out(" timing health: %s;", row->health_note);
		if (row->timed_on)
			out(" timed on %s;", row->timed_on);
		out("\n    runs");
		const struct run_record **runs;
		size_t n = query_row_runs(q, row, &runs);
		for (size_t k = 0; k < row->n_runs; k++) {
			const struct run_record *r = NULL;
			for (size_t j = 0; j < n && !r; j++)
				if (runs[j]->run_id && !strcmp(runs[j]->run_id, row->runs[k]))
					r = runs[j];
			out("%s %s (%s)", k ? "," : "", row->runs[k], r ? s_or(r->outcome_text, "?") : "not in this store");
		}
		free(runs);
		out("\n");
	}
	size_t i;
	json_t *n;
	if (json_array_size(b->notes))
		out("\nnotes\n");
	json_array_foreach(b->notes, i, n) out("  - %s\n", json_string_value(n));
	if (b->repro.have) {
		struct strbuf sb = STRBUF_INIT;
		repro_format(&b->repro, b->run_id, &sb);
		out("\n%s", strbuf_str(&sb));
		strbuf_release(&sb);
	}
}

/* ---------- samples ---------- */

static int print_run_samples(struct query *q, const struct run_record *r, int header)
{
	if (!r->samples_object) {
		if (!header)
			error("run '%s' has no timing samples (outcome %s)", r->run_id, s_or(r->outcome_text, "?"));
		return header ? 0 : EV_FAILURES;
	}
	if (header)
		out("# variant %s, repeat %d of %d, run %s\n", s_or(r->variant, "?"), r->repeat + 1,
		       r->repeats > 0 ? r->repeats : 1, r->run_id);
	return print_object(&q->st, r->samples_object) < 0 ? EV_STORE : EV_OK;
}

static int batch_samples(struct query *q, const struct batch_record *b, const char *variant)
{
	int rc = EV_OK, any = 0;
	if (variant && !batch_find_row(b, variant)) {
		error("batch '%s' has no variant '%s'", b->run_id, variant);
		return EV_NOT_FOUND;
	}
	for (size_t i = 0; i < b->n_rows && rc == EV_OK; i++) {
		const struct batch_row *row = &b->rows[i];
		if (variant && strcmp(variant, s_or(row->variant, "")))
			continue;
		const struct run_record **runs;
		size_t n = query_row_runs(q, row, &runs);
		for (size_t k = 0; k < n && rc == EV_OK; k++) {
			any |= runs[k]->samples_object != NULL;
			rc = print_run_samples(q, runs[k], 1);
		}
		free(runs);
	}
	if (rc == EV_OK && !any) {
		error("batch '%s' has no timing samples%s%s", b->run_id, variant ? " of " : "", s_or(variant, ""));
		rc = EV_FAILURES;
	}
	return rc;
}

int cmd_show(int argc, const char **argv)
{
	const char *dir = NULL, *id = NULL, *variant = NULL, *object = NULL;
	int mode = SHOW_TEXT;
	const struct option opts[] = {
		OPT_STORE(&dir),
		OPT_SET_INT("json", &mode, SHOW_JSON, "print the record (the manifest) itself"),
		OPT_SET_INT("diff", &mode, SHOW_DIFF,
			    "print the patch of a dirty tree (apply with 'git apply' on the commit)"),
		OPT_SET_INT("log", &mode, SHOW_LOG, "print a run's build log and its worker's log"),
		OPT_SET_INT("samples", &mode, SHOW_SAMPLES,
			    "print a run's timing samples, one per line (microseconds); of a\n"
			    "batch, every repeat of every variant (or of VARIANT), each run\n"
			    "after a '# variant V, repeat K of R, run ID' line"),
		OPT_SET_INT("lineage", &mode, SHOW_LINEAGE,
			    "a run's chain of ancestors in this store (its lineage's parent,\n"
			    "the parent's parent...); of a batch, each variant's lineage"),
		OPT_STRING("object", &object, "HASH", "print stored object HASH"),
		OPT_END(),
	};
	argc = parse_options(argc, argv, opts, &usage);
	if (argc < 0)
		return argc == OPT_HELP ? EV_OK : EV_USAGE;
	if (argc > (mode == SHOW_SAMPLES ? 2 : 1) || (object && argc)) {
		opt_usage_error(&usage, "one record at a time ('%s' and '%s')", object ? object : argv[0],
				object ? argv[0] : argv[1]);
		return EV_USAGE;
	}
	id = argc ? argv[0] : NULL;
	variant = argc > 1 ? argv[1] : NULL;
	if (!id && !object) {
		opt_usage_error(&usage, "which run? give its id (see 'evident ls')");
		return EV_USAGE;
	}
	if (object) {
		struct store st = STORE_INIT;
		if (strlen(object) != 64 || strspn(object, "0123456789abcdef") != 64) {
			error("'%s' is not an object name (64 hex digits)", object);
			return EV_USAGE;
		}
		if (store_open(&st, store_default_root(dir), 0) < 0) {
			store_release(&st);
			return EV_STORE;
		}
		int rc = print_object(&st, object) < 0 ? EV_STORE : EV_OK;
		store_release(&st);
		return rc;
	}
	if (!is_safe_name(id)) {
		error("'%s' is not a run id (run ids hold only letters, digits and _ . -; see 'evident ls')", id);
		return EV_USAGE;
	}
	struct query q = QUERY_INIT;
	struct strbuf why = STRBUF_INIT;
	int rc = EV_OK;
	if (query_open(&q, dir) < 0) {
		rc = EV_STORE;
		goto out;
	}
	long i = query_find(&q, id, &why);
	if (i == -2) {
		error("'%s' is ambiguous: it names %s; give more of the id", id, why.buf);
		rc = EV_USAGE;
		goto out;
	}
	if (i < 0) {
		if (q.no_store) {
			struct strbuf sb = STRBUF_INIT;
			store_hint_here(&sb);
			error("no run '%s': there is no store at '%s'; %s", id, q.st.root, sb.buf);
			strbuf_release(&sb);
		} else {
			error("no run '%s' in '%s'; 'evident ls' lists the runs, 'evident ls --batches' the batches", id,
			      q.st.root);
		}
		rc = EV_NOT_FOUND;
		goto out;
	}
	const struct run_record *r = query_run_at(&q, (size_t)i);
	const struct batch_record *b = r ? NULL : query_batch_at(&q, (size_t)i);
	const struct search_record *sr = r || b ? NULL : query_search_at(&q, (size_t)i);
	if (mode == SHOW_JSON) {
		json_t *m = query_manifest_at(&q, (size_t)i);
		char *s = m ? store_canonical(m) : NULL;
		if (s)
			fputs(s, stdout);
		else
			rc = EV_STORE;
		free(s);
		goto out;
	}
	if (sr) {
		if (variant || mode == SHOW_LOG || mode == SHOW_SAMPLES) {
			error("'%s' is a search: its batches hold the logs and samples ('evident show %s' lists them)",
			      sr->run_id, sr->run_id);
			rc = EV_USAGE;
		} else if (mode == SHOW_DIFF) {
			if (!sr->git.diff_object)
				out("# the tree was clean: the commit alone reproduces the sources\n");
			else if (print_object(&q.st, sr->git.diff_object) < 0)
				rc = EV_STORE;
		} else {
			show_search(&q, sr, mode == SHOW_LINEAGE);
		}
		goto out;
	}
	if (!r && !b) {
		rc = EV_STORE; /* damaged: the reader said why */
		goto out;
	}
	if (variant && r) {
		error("a variant name goes with --samples of a batch; '%s' is a run", id);
		rc = EV_USAGE;
	} else if (mode == SHOW_DIFF) {
		const struct rec_git *g = r ? &r->git : &b->git;
		if (!g->diff_object)
			out("# the tree was clean: the commit alone reproduces the sources\n");
		else if (print_object(&q.st, g->diff_object) < 0)
			rc = EV_STORE;
	} else if (mode == SHOW_LOG) {
		if (!r) {
			error("'%s' is a batch: logs belong to its runs ('evident show %s' lists them)", b->run_id, b->run_id);
			rc = EV_USAGE;
		} else {
			out("# build log\n");
			if (r->build_log_object)
				print_object_as(&q.st, r->build_log_object, 1);
			out("# worker log\n");
			if (r->worker_log_object)
				print_object_as(&q.st, r->worker_log_object, 1);
		}
	} else if (mode == SHOW_LINEAGE) {
		if (r)
			show_run_lineage(&q, (size_t)i);
		else
			show_batch_lineage(&q, b);
	} else if (mode == SHOW_SAMPLES) {
		rc = r ? print_run_samples(&q, r, 0) : batch_samples(&q, b, variant);
	} else if (r) {
		show_run(&q, r);
	} else {
		show_batch(&q, b);
	}
out:
	strbuf_release(&why);
	query_release(&q);
	return rc;
}
