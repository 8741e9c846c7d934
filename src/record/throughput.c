/*
 * throughput.c - GFLOP/s, GB/s and the fraction of the machine's peak for
 * a time (contract in record.h): record_throughput is the one computation
 * behind the run summary, `evident show`, the export's columns, the
 * paper's rate cells (record_stat's gflops, tflops, gbps) and the
 * `throughput` objects of run and batch records.
 *
 * The peaks come from backends/: peaks.h's table for a GPU, cpu_peak.h's
 * measurement for the host.  The runner resolves its peak once (run/plan.c)
 * and records it; a reader of a record older than that looks one up from
 * the machine the record names, here, without measuring (a measurement
 * belongs to the machine that ran, and a reader may be elsewhere).  What
 * such a look-up finds (the CPU caches it reads, and the strings of its
 * answers) is kept for the life of the process, so a rec_peak it returns
 * can be borrowed like one read from a record.
 */
#include "record/record.h"
#include "record/json_get.h"

#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "backends/cpu_peak.h"
#include "backends/peaks.h"

void record_throughput(const struct rec_problem *pr, double median_us, const struct rec_peak *pk,
		       struct rec_tput *t)
{
	double flops = pr ? pr->flops : NAN, bytes = pr ? pr->min_bytes : NAN;
	int timed = isfinite(median_us) && median_us > 0;
	/* per microsecond to per second: G = x / us / 1e3, T = x / us / 1e6 (the
	 * same expressions, in the same order, as the paper's cells always had) */
	t->gflops = timed && isfinite(flops) && flops > 0 ? flops / median_us / 1e3 : NAN;
	t->tflops = timed && isfinite(flops) && flops > 0 ? flops / median_us / 1e6 : NAN;
	t->gbps = timed && isfinite(bytes) && bytes > 0 ? bytes / median_us / 1e3 : NAN;
	int known = pk && pk->state == PEAK_KNOWN;
	t->frac_compute = known && pk->gflops > 0 ? t->gflops / pk->gflops : NAN;
	t->frac_bandwidth = known && pk->gbps > 0 ? t->gbps / pk->gbps : NAN;
}

/* ---- strings that live as long as the process ---- */

static char **interned;
static size_t n_interned;

/* s, kept until exit (one copy per distinct string) */
static const char *intern(const char *s)
{
	if (!s)
		return NULL;
	for (size_t i = 0; i < n_interned; i++)
		if (!strcmp(interned[i], s))
			return interned[i];
	interned = xrealloc(interned, (n_interned + 1) * sizeof(char *));
	return interned[n_interned++] = xstrdup(s);
}

static const char *intern_fmt(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static const char *intern_fmt(const char *fmt, ...)
{
	struct strbuf sb = STRBUF_INIT;
	va_list ap;
	va_start(ap, fmt);
	strbuf_vaddf(&sb, fmt, ap);
	va_end(ap);
	const char *s = intern(strbuf_str(&sb));
	strbuf_release(&sb);
	return s;
}

/* ---- peaks ---- */

static void peak_none(struct rec_peak *pk, const char *why)
{
	memset(pk, 0, sizeof(*pk));
	pk->state = PEAK_NONE;
	pk->gflops = pk->gbps = NAN;
	pk->why = why;
}

/* The CPU measurements a reader found in this machine's cache, by model. */
static struct cpu_peak **cpu_seen;
static size_t n_cpu_seen;

static const struct cpu_peak *cached_cpu_peak(const char *model, const char **why)
{
	for (size_t i = 0; i < n_cpu_seen; i++) {
		if (strcmp(cpu_seen[i]->model, model))
			continue;
		if (cpu_seen[i]->gflops > 0)
			return cpu_seen[i];
		*why = cpu_seen[i]->method;
		return NULL;
	}
	struct cpu_peak *p = xcalloc(1, sizeof(*p));
	struct strbuf w = STRBUF_INIT;
	int rc = cpu_peak_cached(model, p, &w);
	if (rc != 1) { /* remembered as a miss, its reason in method */
		memset(p, 0, sizeof(*p));
		snprintf(p->model, sizeof(p->model), "%s", model);
		if (rc < 0)
			snprintf(p->method, sizeof(p->method), "%s", w.buf);
		else
			snprintf(p->method, sizeof(p->method),
				 "no measurement of CPU '%s' in this machine's cache (evident measures a CPU when it "
				 "first runs a host kernel there)",
				 model);
	}
	strbuf_release(&w);
	cpu_seen = xrealloc(cpu_seen, (n_cpu_seen + 1) * sizeof(*cpu_seen));
	cpu_seen[n_cpu_seen++] = p;
	if (rc == 1)
		return p;
	*why = p->method;
	return NULL;
}

void record_peak_lookup(json_t *machine, const char *gpu_name, int gpu, const char *dtype, struct rec_peak *pk)
{
	if (gpu) {
		json_t *g = json_object_get(machine, "gpu");
		const char *name = gpu_name ? gpu_name : json_string_value(json_object_get(g, "name"));
		struct strbuf why = STRBUF_INIT;
		const struct peak_entry *e = name ? peak_find(name, &why) : NULL;
		int di = dtype ? peak_dtype_index(dtype) : -1;
		if (!name)
			peak_none(pk, "the record names no GPU");
		else if (!e)
			peak_none(pk, intern(why.buf));
		else if (di < 0)
			peak_none(pk, intern_fmt("no GPU peak for dtype '%s'", dtype ? dtype : "(none)"));
		strbuf_release(&why);
		if (!name || !e || di < 0)
			return;
		memset(pk, 0, sizeof(*pk));
		pk->state = PEAK_KNOWN;
		pk->gflops = isfinite(e->tflops[di]) ? e->tflops[di] * 1e3 : NAN;
		pk->gbps = e->gbps;
		pk->dtype = peak_dtype_names[di];
		pk->scope = "GPU";
		pk->device = e->model;
		pk->source = e->source;
		pk->method = intern_fmt("the vendor's datasheet: dense peak for the dtype, peak memory bandwidth (%s)",
					peak_table_origin() ? peak_table_origin() : "data/gpu-peaks.yaml");
		return;
	}
	const char *model = json_string_value(json_object_get(machine, "cpu"));
	const char *host = json_string_value(json_object_get(machine, "host"));
	const char *key = model ? model : host ? intern_fmt("host:%s", host) : NULL, *why = NULL;
	const struct cpu_peak *p = key ? cached_cpu_peak(key, &why) : NULL;
	if (!key) {
		peak_none(pk, "the record names neither a CPU model nor a host");
		return;
	}
	if (!p) {
		peak_none(pk, why);
		return;
	}
	record_peak_of_cpu(p, pk);
}

void record_peak_of_cpu(const struct cpu_peak *p, struct rec_peak *pk)
{
	memset(pk, 0, sizeof(*pk));
	pk->state = PEAK_KNOWN;
	pk->gflops = p->gflops;
	pk->gbps = p->gbps;
	pk->dtype = "fp32"; /* host kernels compute in fp32 (the host backend's one dtype) */
	pk->scope = "one core";
	pk->device = p->model;
	pk->source = p->source;
	pk->method = p->method;
}

double record_frac_bound(const struct rec_peak *pk, const struct run_record *const *runs, size_t n, int bandwidth,
			 const char **why)
{
	if (!pk || pk->state != PEAK_KNOWN || !pk->scope || strcmp(pk->scope, "one core") || !n)
		return NAN;
	long threads = 0;
	int known = 1;
	for (size_t i = 0; i < n; i++) {
		const struct run_record *r = runs[i];
		if (bandwidth && (!r->cache || strcmp(r->cache, "cold")))
			return NAN;
		json_t *t = json_object_get(r->timing_method, "threads_max");
		long k = json_is_integer(t) && json_integer_value(t) > 0 ? (long)json_integer_value(t) : 0;
		if (!k) {
			known = 0;
			json_t *c = json_object_get(r->machine, "cpus_online");
			k = json_is_integer(c) && json_integer_value(c) > 0 ? (long)json_integer_value(c) : 0;
		}
		if (!k)
			return NAN;
		threads = k > threads ? k : threads;
	}
	if (why)
		*why = intern_fmt("%s%ld thread%s of one core's peak (%s), and %.0f%% for the clocks of the peak's "
				  "measurement and the run",
				  known ? "" : "at most ", threads, threads == 1 ? "" : "s",
				  known ? "the most the worker had at a timed sample (threads_max)"
					: "the machine's CPUs online: a run that recorded no threads_max",
				  100 * REC_PEAK_FRAC_TOL);
	return (double)threads * (1 + REC_PEAK_FRAC_TOL);
}

/* Is the backend named a GPU's?  (By its table; a backend this evident
 * lacks counts as a GPU when the machine recorded one.) */
static int backend_is_gpu(const char *name, json_t *machine)
{
	const struct backend *be = name ? backend_find(name) : NULL;
	if (be)
		return be->uses_gpu;
	return json_is_object(json_object_get(machine, "gpu"));
}

static void at_read(struct rec_peak *pk)
{
	pk->at_read = 1;
	if (pk->state == PEAK_NONE)
		pk->why = intern_fmt("%s; the record predates recorded peaks", pk->why ? pk->why : "none found");
}

void record_run_peak(const struct run_record *r, struct rec_peak *pk)
{
	if (r->peak.state != PEAK_UNSET) {
		*pk = r->peak;
		return;
	}
	record_peak_lookup(r->machine, r->device_name, backend_is_gpu(r->backend, r->machine), r->problem.dtype, pk);
	at_read(pk);
}

void record_batch_peak(const struct batch_record *b, struct rec_peak *pk)
{
	if (b->peak.state != PEAK_UNSET) {
		*pk = b->peak;
		return;
	}
	record_peak_lookup(b->machine, NULL, backend_is_gpu(b->backend, b->machine), b->problem.dtype, pk);
	at_read(pk);
}

/* ---- text ---- */

void record_rate_add(struct strbuf *out, double v)
{
	int decimals = v >= 100 ? 0 : v >= 10 ? 1 : v >= 1 ? 2 : v >= 0.1 ? 3 : v >= 0.01 ? 4 : 5;
	strbuf_addf(out, "%.*f", decimals, v);
}

void record_frac_add(struct strbuf *out, double frac)
{
	record_rate_add(out, 100 * frac);
	strbuf_addch(out, '%');
}

void record_tput_text(struct strbuf *out, const struct rec_tput *t)
{
	int any = 0;
	if (isfinite(t->gflops)) {
		int tera = t->gflops >= 1000;
		record_rate_add(out, tera ? t->tflops : t->gflops);
		strbuf_addstr(out, tera ? " TFLOP/s" : " GFLOP/s");
		if (isfinite(t->frac_compute)) {
			strbuf_addstr(out, " (");
			record_frac_add(out, t->frac_compute);
			strbuf_addstr(out, " of peak)");
		}
		any = 1;
	}
	if (isfinite(t->gbps)) {
		strbuf_addstr(out, any ? ", " : "");
		record_rate_add(out, t->gbps);
		strbuf_addstr(out, " GB/s");
		if (isfinite(t->frac_bandwidth)) {
			strbuf_addstr(out, " (");
			record_frac_add(out, t->frac_bandwidth);
			strbuf_addstr(out, " of peak)");
		}
	}
}

void record_peak_text(struct strbuf *out, const struct rec_peak *pk)
{
	if (pk->state != PEAK_KNOWN) {
		strbuf_addf(out, "none: %s", pk->why ? pk->why : "not recorded");
		return;
	}
	if (isfinite(pk->gflops)) {
		int tera = pk->gflops >= 1000;
		record_rate_add(out, tera ? pk->gflops / 1e3 : pk->gflops);
		strbuf_addf(out, " %s %s", tera ? "TFLOP/s" : "GFLOP/s", pk->dtype ? pk->dtype : "");
	} else {
		strbuf_addf(out, "no %s compute peak", pk->dtype ? pk->dtype : "");
	}
	strbuf_addstr(out, " and ");
	if (isfinite(pk->gbps)) {
		record_rate_add(out, pk->gbps);
		strbuf_addstr(out, " GB/s");
	} else {
		strbuf_addstr(out, "no bandwidth peak");
	}
	if (pk->scope && !strcmp(pk->scope, "one core"))
		strbuf_addf(out, ", one core of CPU '%s'", pk->device ? pk->device : "?");
	else
		strbuf_addf(out, ", %s %s", pk->scope ? pk->scope : "", pk->device ? pk->device : "?");
	if (pk->source)
		strbuf_addf(out, " (%s)", pk->source);
	if (pk->at_read)
		strbuf_addstr(out, "; looked up when read: the record predates recorded peaks");
}

/* ---- the records' `throughput` ---- */

/* shared with run.c and batch.c */
void record_read_peak(json_t *tput, struct rec_peak *pk);
json_t *record_write_peak(const struct rec_peak *pk, json_t *into);
json_t *record_write_tput(const struct rec_tput *t, json_t *into);

void record_read_peak(json_t *tput, struct rec_peak *pk)
{
	memset(pk, 0, sizeof(*pk));
	pk->gflops = pk->gbps = NAN;
	if (!json_is_object(tput))
		return; /* PEAK_UNSET: an older record */
	json_t *p = go(tput, "peak");
	if (!p) {
		pk->state = PEAK_NONE;
		pk->why = gs(tput, "no_peak");
		return;
	}
	pk->state = PEAK_KNOWN;
	pk->gflops = gn(p, "gflops");
	pk->gbps = gn(p, "gbps");
	pk->dtype = gs(p, "dtype");
	pk->scope = gs(p, "scope");
	pk->device = gs(p, "device");
	pk->source = gs(p, "source");
	pk->method = gs(p, "method");
}

/* {"peak": {...} | null, "no_peak": WHY | null} into `into` (new when NULL) */
json_t *record_write_peak(const struct rec_peak *pk, json_t *into)
{
	json_t *o = into ? into : json_object();
	if (pk->state == PEAK_KNOWN) {
		json_t *p = json_object();
		json_object_set_new(p, "gflops", jnum(pk->gflops));
		json_object_set_new(p, "gbps", jnum(pk->gbps));
		json_object_set_new(p, "dtype", jstr(pk->dtype));
		json_object_set_new(p, "scope", jstr(pk->scope));
		json_object_set_new(p, "device", jstr(pk->device));
		json_object_set_new(p, "source", jstr(pk->source));
		json_object_set_new(p, "method", jstr(pk->method));
		json_object_set_new(o, "peak", p);
		json_object_set_new(o, "no_peak", json_null());
	} else {
		json_object_set_new(o, "peak", json_null());
		json_object_set_new(o, "no_peak", json_string(pk->state == PEAK_NONE && pk->why ? pk->why
									 : "the runner found no peak"));
	}
	return o;
}

/* {"gflops", "gbps", "frac_compute_peak", "frac_bandwidth_peak"} into `into` (new when NULL) */
json_t *record_write_tput(const struct rec_tput *t, json_t *into)
{
	json_t *o = into ? into : json_object();
	json_object_set_new(o, "gflops", jnum(t->gflops));
	json_object_set_new(o, "gbps", jnum(t->gbps));
	json_object_set_new(o, "frac_compute_peak", jnum(t->frac_compute));
	json_object_set_new(o, "frac_bandwidth_peak", jnum(t->frac_bandwidth));
	return o;
}
