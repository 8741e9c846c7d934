/*
 * harness_check.c - the CUDA harness's own GPU test: does the v2 timing
 * loop (src/backends/cuda/harness.cu) see what a hostile launcher hides?
 *
 * A standalone driver, independent of the runner: it dlopen()s the
 * harness (lib/libevident_cuda.so), loads the test kernels of
 * tests/gpu/hk/ (each honest or cheating in one way, see their headers),
 * times each through api->time_kernel with its own sample callback (a
 * fixed number of warm-up and timed samples), checks the outputs of timed
 * samples where the case asks (recomputing the scramble bits on the CPU
 * with src/backends/scramble.h), judges each case against what the harness
 * must report, and prints one table row per case, last.  Before the
 * cases: the device's scramble against the CPU's, copy and clear.
 *
 * Usage: harness_check [--csv FILE] [--only NAME] LIB.so HKDIR
 *   HKDIR holds the kernel objects NAME.so built from tests/gpu/hk/NAME.cu
 *   (tests/gpu/harness_check.sh builds all and runs this).  --csv writes
 *   every sample.
 * Exit: 0 every case as expected, 1 some not, 2 usage or setup error,
 * 77 no GPU ("skip: ...").
 *
 * Build: cc -O2 -std=c11 -o harness_check tests/gpu/harness_check.c -ldl -lm
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../../src/backends/cuda/evident_cuda.h"
#include "../../src/backends/scramble.h"

#define MAXS 2048
#define MAXB 8
#define MAXSETS 8
#define SEED 0x5eed2026ULL

static const struct evc_api *A;
static struct evc_ctx *C;
static struct evc_device_info DI;
static const char *hkdir;
static FILE *csv;

enum check { CK_NONE, CK_CORRECT, CK_HALF, CK_UNWRITTEN };

struct run;
struct hcase {
	const char *name, *obj;
	long long n;
	int iters;
	int batch, n_sets, first_set, clock, block, cold;
	double timeout_ms;
	int warmup, timed;
	int check;
	int (*judge)(struct run *r, char *why, size_t len);
	const char *expect; /* what the judge asks, for the table */
};

struct run {
	const struct hcase *hc;
	struct evc_sample s[MAXS];
	int ns, warm_seen;
	struct evc_timing_result res;
	int rc;
	char err[1024];
	void *d_in[MAXSETS], *d_out[MAXB];
	float *h_ref;  /* n_sets x n expected outputs, when checked */
	float *h_y;    /* download buffer */
	int checked, bad;
	char bad_why[200];
	void **seen;   /* honest.so's pointer log */
	int *seen_n;
	int seen_first;
};

/* ---- small helpers -------------------------------------------------- */

static int cmp_d(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

/* Median of field f over the timed samples (NAN if none or all NAN). */
static double med(const struct run *r, double (*f)(const struct evc_sample *))
{
	double v[MAXS];
	int n = 0;
	for (int i = 0; i < r->ns; i++) {
		double x = f(&r->s[i]);
		if (!isnan(x))
			v[n++] = x;
	}
	if (!n)
		return NAN;
	qsort(v, (size_t)n, sizeof(double), cmp_d);
	return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

static double f_event(const struct evc_sample *s) { return s->event_us; }
static double f_kernel(const struct evc_sample *s) { return s->kernel_us; }
static double f_span(const struct evc_sample *s) { return s->kernel_span_us; }
static double f_host(const struct evc_sample *s) { return s->host_launch_us; }
static double f_wall(const struct evc_sample *s) { return s->wall_us; }
static double f_drain(const struct evc_sample *s) { return s->drain_us; }
static double f_kernels(const struct evc_sample *s) { return s->kernels; }

/* Samples with all of flag bits set / any of them set. */
static int count_flag(const struct run *r, unsigned flag)
{
	int n = 0;
	for (int i = 0; i < r->ns; i++)
		n += (r->s[i].flags & flag) != 0;
	return n;
}

static unsigned flags_union(const struct run *r)
{
	unsigned u = 0;
	for (int i = 0; i < r->ns; i++)
		u |= r->s[i].flags;
	return u;
}

static void flags_str(unsigned f, char *buf, size_t len)
{
	snprintf(buf, len, "%s%s%s%s%s%s%s%s", f & EVC_F_OTHER_STREAM ? "O" : "",
		 f & EVC_F_LATE ? "L" : "", f & EVC_F_EARLY ? "E" : "", f & EVC_F_THREADS ? "T" : "",
		 f & EVC_F_BLOCK_TIMEOUT ? "B" : "", f & EVC_F_STRAY ? "S" : "",
		 f & EVC_F_NO_WORK ? "N" : "", f & EVC_F_INCOMPLETE ? "I" : "");
	if (!buf[0])
		snprintf(buf, len, "-");
}

/* The "hk" function on the CPU: what every correct launch writes. */
static void hk_input(float *x, long long n, int set)
{
	for (long long i = 0; i < n; i++)
		x[i] = 0.5f * (float)(set + 1) + (float)(i % 1024) * (1.0f / 1024.0f);
}

static void hk_ref(const float *x, float *y, long long n, int iters)
{
	for (long long i = 0; i < n; i++) {
		float v = x[i];
		for (int k = 0; k < iters; k++)
			v = fmaf(v, 0.999f, 0.001f);
		y[i] = v;
	}
}

/* ---- the sample callback -------------------------------------------- */

static void check_outputs(struct run *r, const struct evc_sample *s)
{
	const struct hcase *hc = r->hc;
	size_t bytes = (size_t)hc->n * sizeof(float);
	for (int j = 0; j < hc->batch; j++) {
		int set = (s->set + j) % hc->n_sets;
		uint64_t key = evs_key(SEED, (uint64_t)s->index, (uint32_t)j, 0);
		const float *ref = r->h_ref + (size_t)set * hc->n;
		size_t first = 0, unw;
		long long wrong = 0;
		char err[160];
		if (A->download(C, r->h_y, r->d_out[j], bytes, err, sizeof(err))) {
			snprintf(r->bad_why, sizeof(r->bad_why), "download: %s", err);
			r->bad++;
			return;
		}
		r->checked++;
		unw = evs_count_unwritten(r->h_y, bytes, sizeof(float), key, &first);
		switch (hc->check) {
		case CK_CORRECT:
			for (long long i = 0; i < hc->n; i++)
				wrong += memcmp(&r->h_y[i], &ref[i], sizeof(float)) != 0;
			if (wrong || unw) {
				snprintf(r->bad_why, sizeof(r->bad_why),
					 "sample %d launch %d: %lld wrong, %zu unwritten", s->index, j,
					 wrong, unw);
				r->bad++;
			}
			break;
		case CK_HALF:
			for (long long i = 0; i < hc->n / 2; i++)
				wrong += memcmp(&r->h_y[i], &ref[i], sizeof(float)) != 0;
			if (wrong || unw != (size_t)(hc->n - hc->n / 2) || first != (size_t)(hc->n / 2)) {
				snprintf(r->bad_why, sizeof(r->bad_why),
					 "sample %d: %lld wrong in the written half, %zu unwritten from %zu",
					 s->index, wrong, unw, first);
				r->bad++;
			}
			break;
		case CK_UNWRITTEN:
			if (unw != (size_t)hc->n) {
				snprintf(r->bad_why, sizeof(r->bad_why),
					 "sample %d launch %d: %zu of %lld elements hold the scramble",
					 s->index, j, unw, hc->n);
				r->bad++;
			}
			break;
		}
	}
}

static int on_sample(void *ctx, const struct evc_sample *s)
{
	struct run *r = ctx;
	if (csv)
		fprintf(csv,
			"%s,%d,%d,%d,%d,%.3f,%.3f,%.3f,%.3f,%d,%d,%d,%d,%d,%d,%.3f,%.3f,%.3f,%.3f,%d,%d,%d,%u\n",
			r->hc->name, s->index, s->warmup, s->set, s->graph, s->event_us, s->kernel_us,
			s->kernel_span_us, s->copy_us, s->kernels, s->copies, s->other_stream_kernels,
			s->stray, s->late, s->early, s->late_us, s->drain_us, s->host_launch_us, s->wall_us,
			s->threads_before, s->threads_after, s->block_timed_out, s->flags);
	if (s->warmup) {
		if (++r->warm_seen == 1 && r->seen_n)
			r->seen_first = s->index; /* honest.so logs from here on */
		return r->warm_seen >= r->hc->warmup ? EVC_STOP : 0;
	}
	if (r->ns < MAXS)
		r->s[r->ns++] = *s;
	if (r->hc->check)
		check_outputs(r, s);
	return r->ns >= r->hc->timed || r->ns >= MAXS ? EVC_STOP : 0;
}

/* ---- judges --------------------------------------------------------- */

#define WHY(...) (snprintf(why, len, __VA_ARGS__), 1)
#define BAD_FLAGS (EVC_F_OTHER_STREAM | EVC_F_LATE | EVC_F_EARLY | EVC_F_THREADS | \
		   EVC_F_BLOCK_TIMEOUT | EVC_F_STRAY | EVC_F_NO_WORK | EVC_F_INCOMPLETE)

static int outputs_ok(struct run *r, char *why, size_t len)
{
	if (r->hc->check && (r->bad || !r->checked))
		return WHY("outputs: %s", r->checked ? r->bad_why : "none checked");
	return 0;
}

static int clean(struct run *r, char *why, size_t len)
{
	char f[16];
	unsigned u = flags_union(r) & BAD_FLAGS;
	if (r->res.clock != EVC_CLOCK_CUPTI && (r->hc->clock != EVC_CLOCK_EVENTS))
		return WHY("no CUPTI: %s", r->res.cupti_why);
	flags_str(u, f, sizeof(f));
	if (u)
		return WHY("flags %s on an honest kernel (%d samples)", f, count_flag(r, u));
	return outputs_ok(r, why, len);
}

static int j_honest(struct run *r, char *why, size_t len)
{
	double ev = med(r, f_event), k = med(r, f_kernel);
	if (clean(r, why, len))
		return 1;
	if (med(r, f_kernels) != r->hc->batch)
		return WHY("kernels %.0f, not %d", med(r, f_kernels), r->hc->batch);
	if (fabs(ev - k) > 0.05 * k)
		return WHY("events %.2f vs CUPTI %.2f us: %+.1f%%", ev, k, 100 * (ev - k) / k);
	if (med(r, f_host) > 100)
		return WHY("host launch %.1f us", med(r, f_host));
	return 0;
}

static int j_short(struct run *r, char *why, size_t len)
{
	double ev = med(r, f_event), k = med(r, f_kernel);
	if (clean(r, why, len))
		return 1;
	if (med(r, f_kernels) != 1)
		return WHY("kernels %.0f", med(r, f_kernels));
	if (ev - k > 5)
		return WHY("events exceed CUPTI by %.2f us", ev - k);
	return 0;
}

static int j_events_only(struct run *r, char *why, size_t len)
{
	char f[16];
	unsigned u = flags_union(r) & BAD_FLAGS;
	if (r->res.clock != EVC_CLOCK_EVENTS || !isnan(r->s[0].kernel_us))
		return WHY("clock events asked, CUPTI used");
	flags_str(u, f, sizeof(f));
	if (u)
		return WHY("flags %s (%d samples), drain %.1f us", f, count_flag(r, u), med(r, f_drain));
	return outputs_ok(r, why, len);
}

static int j_sleep(struct run *r, char *why, size_t len)
{
	double ev = med(r, f_event), k = med(r, f_kernel), h = med(r, f_host);
	if (h < 1900)
		return WHY("host launch %.0f us, not ~2000", h);
	if (fabs(ev - k) > 0.05 * k + 2)
		return WHY("events %.2f vs CUPTI %.2f us: the sleep is charged", ev, k);
	return 0;
}

static int j_sleep_noblock(struct run *r, char *why, size_t len)
{
	double ev = med(r, f_event);
	if (ev < 1500)
		return WHY("without the blocking kernel events %.0f us: the sleep should show", ev);
	return 0;
}

static int j_private(struct run *r, char *why, size_t len)
{
	int o = count_flag(r, EVC_F_OTHER_STREAM);
	if (o != r->ns)
		return WHY("other stream flagged in %d of %d samples", o, r->ns);
	if (count_flag(r, EVC_F_LATE | EVC_F_EARLY))
		return WHY("late or early in %d samples (the work is joined)",
			   count_flag(r, EVC_F_LATE | EVC_F_EARLY));
	return outputs_ok(r, why, len);
}

/* Work outside the timed region: late (or, with CUPTI, early) in every sample. */
static int j_late(struct run *r, char *why, size_t len)
{
	unsigned want = r->res.clock == EVC_CLOCK_CUPTI ? EVC_F_LATE | EVC_F_EARLY : EVC_F_LATE;
	int l = count_flag(r, want);
	if (l != r->ns)
		return WHY("late flagged in %d of %d samples", l, r->ns);
	return outputs_ok(r, why, len);
}

static int j_three(struct run *r, char *why, size_t len)
{
	for (int i = 0; i < r->ns; i++)
		if (r->s[i].kernels != 3)
			return WHY("sample %d: kernels %d", r->s[i].index, r->s[i].kernels);
	if (med(r, f_span) < med(r, f_kernel))
		return WHY("span %.2f < sum %.2f", med(r, f_span), med(r, f_kernel));
	if (count_flag(r, BAD_FLAGS))
		return WHY("flags on an honest launcher");
	return outputs_ok(r, why, len);
}

static int j_capture_skip(struct run *r, char *why, size_t len)
{
	for (int g = 0; g < r->res.n_graphs; g++)
		if (r->res.graph_kernel_nodes[g] != 0)
			return WHY("graph %d has %d kernel nodes", g, r->res.graph_kernel_nodes[g]);
	if (!r->res.n_graphs)
		return WHY("no graphs");
	if (r->res.clock == EVC_CLOCK_CUPTI && count_flag(r, EVC_F_NO_WORK) != r->ns)
		return WHY("no-work flagged in %d of %d samples", count_flag(r, EVC_F_NO_WORK), r->ns);
	return outputs_ok(r, why, len);
}

/* Graph mode: G graphs of batch kernel nodes; a replay's events match the
 * CUPTI span (which, unlike the sum, holds the gaps between the nodes). */
static int j_graph(struct run *r, char *why, size_t len)
{
	double ev = med(r, f_event), sp = med(r, f_span);
	if (r->res.n_graphs != (r->hc->n_sets < EVC_MAX_GRAPHS ? r->hc->n_sets : EVC_MAX_GRAPHS))
		return WHY("%d graphs", r->res.n_graphs);
	for (int g = 0; g < r->res.n_graphs; g++)
		if (r->res.graph_kernel_nodes[g] != r->hc->batch)
			return WHY("graph %d has %d kernel nodes", g, r->res.graph_kernel_nodes[g]);
	if (clean(r, why, len))
		return 1;
	if (med(r, f_kernels) != r->hc->batch)
		return WHY("kernels %.0f, not %d", med(r, f_kernels), r->hc->batch);
	if (fabs(ev - sp) > 0.05 * sp + 1)
		return WHY("events %.2f vs CUPTI span %.2f us per launch", ev, sp);
	return 0;
}

/* A short cheat on a private stream may run wholly before the start
 * event: the other stream is flagged in every sample, whatever else. */
static int j_late_short(struct run *r, char *why, size_t len)
{
	int o = count_flag(r, EVC_F_OTHER_STREAM);
	if (o != r->ns)
		return WHY("other stream flagged in %d of %d samples", o, r->ns);
	return outputs_ok(r, why, len);
}

static int j_thread(struct run *r, char *why, size_t len)
{
	int t = count_flag(r, EVC_F_THREADS);
	if (t != r->ns)
		return WHY("threads flagged in %d of %d samples", t, r->ns);
	return 0;
}

static int j_rotation(struct run *r, char *why, size_t len)
{
	const struct hcase *hc = r->hc;
	int hit[MAXSETS] = { 0 }, distinct = 0;
	if (!r->seen || !r->seen_n)
		return WHY("honest.so has no pointer log");
	/* one logged launch per sample, warm-up included, from seen_first */
	for (int k = 0; k < *r->seen_n; k++) {
		int index = r->seen_first + k, set = (hc->first_set + index) % hc->n_sets;
		if (r->seen[k] != r->d_in[set])
			return WHY("sample %d saw %p, set %d is %p", index, r->seen[k], set,
				   r->d_in[set]);
		hit[set]++;
	}
	for (int s = 0; s < hc->n_sets; s++)
		distinct += hit[s] > 0;
	if (distinct != hc->n_sets)
		return WHY("%d of %d sets used", distinct, hc->n_sets);
	if (*r->seen_n != r->warm_seen + r->ns)
		return WHY("%d launches logged for %d samples", *r->seen_n, r->warm_seen + r->ns);
	return j_short(r, why, len);
}

static int j_half(struct run *r, char *why, size_t len)
{
	return outputs_ok(r, why, len);
}

static int j_sync(struct run *r, char *why, size_t len)
{
	int total = r->res.warmup_samples + r->res.n;
	if (r->res.block_timeouts != total)
		return WHY("block timeouts %d of %d samples", r->res.block_timeouts, total);
	if (count_flag(r, EVC_F_BLOCK_TIMEOUT) != r->ns)
		return WHY("block-timeout flag in %d of %d", count_flag(r, EVC_F_BLOCK_TIMEOUT), r->ns);
	return 0;
}

/* ---- the cases ------------------------------------------------------ */

#define BIG (8LL << 20)    /* 32 MB a buffer: 4 sets exceed the L2 */
#define SMALL (64LL << 10)
#define MID (1LL << 20)
#define AUTO EVC_CLOCK_AUTO
#define EVT EVC_CLOCK_EVENTS

static const struct hcase cases[] = {
	/* name            obj             n      iters b sets 1st clock blk cold tmo w  t  check */
	{ "honest", "honest", BIG, 512, 1, 4, 0, AUTO, 1, 1, 0, 5, 50, CK_NONE, j_honest,
	  "events ~ CUPTI (5%), host small, no flags" },
	{ "honest_ev", "honest", BIG, 512, 1, 4, 0, EVT, 1, 1, 0, 5, 50, CK_NONE, j_events_only,
	  "events only: no flags" },
	{ "short", "honest", SMALL, 256, 1, 4, 0, AUTO, 1, 1, 0, 5, 200, CK_NONE, j_short,
	  "events - CUPTI < 5 us" },
	{ "short_ev", "honest", SMALL, 256, 1, 4, 0, EVT, 1, 1, 0, 5, 200, CK_NONE, j_events_only,
	  "events only (overhead baseline)" },
	{ "rotation", "honest", MID, 16, 1, 5, 2, AUTO, 1, 1, 0, 3, 12, CK_CORRECT, j_rotation,
	  "sets (2+i)%5, outputs right, ev-k < 5 us" },
	{ "graph", "honest", MID, 64, 4, 6, 1, AUTO, 1, 1, 0, 3, 24, CK_CORRECT, j_graph,
	  "6 graphs x 4 kernel nodes, outputs right, ev ~ span" },
	{ "sleep", "sleep", BIG, 256, 1, 4, 0, AUTO, 1, 1, 0, 3, 20, CK_NONE, j_sleep,
	  "host ~2000 us, not charged" },
	{ "sleep_noblk", "sleep", BIG, 256, 1, 4, 0, AUTO, 0, 1, 0, 3, 20, CK_NONE,
	  j_sleep_noblock, "block off: charged (v1)" },
	{ "private", "private_stream", BIG, 256, 1, 4, 0, AUTO, 1, 1, 0, 3, 20, CK_NONE, j_private,
	  "other stream flagged" },
	{ "late", "late", BIG, 1024, 1, 4, 0, AUTO, 1, 1, 0, 3, 20, CK_NONE, j_late,
	  "late (or early) flagged" },
	{ "late_short", "late", MID, 16, 1, 4, 0, AUTO, 1, 1, 0, 3, 20, CK_CORRECT, j_late_short,
	  "short: other stream flagged, outputs right" },
	{ "late_ev", "late", BIG, 1024, 1, 4, 0, EVT, 1, 1, 0, 3, 20, CK_NONE, j_late,
	  "late flagged by the drain" },
	{ "three", "three", BIG, 256, 1, 4, 0, AUTO, 1, 1, 0, 3, 20, CK_NONE, j_three,
	  "kernels = 3, span >= sum" },
	{ "capture_skip", "capture_skip", MID, 16, 4, 4, 0, AUTO, 1, 1, 0, 2, 10, CK_UNWRITTEN,
	  j_capture_skip, "0 kernel nodes, outputs scrambled" },
	{ "thread", "thread", MID, 64, 1, 4, 0, AUTO, 1, 1, 0, 3, 20, CK_NONE, j_thread,
	  "threads_after > threads_before" },
	{ "half", "half", MID, 16, 1, 3, 0, AUTO, 1, 1, 0, 2, 10, CK_HALF, j_half,
	  "2nd half = scramble bits" },
	{ "sync", "sync", MID, 16, 1, 2, 0, AUTO, 1, 1, 20, 1, 3, CK_NONE, j_sync,
	  "block timeout reported" },
};
#define NCASES ((int)(sizeof(cases) / sizeof(cases[0])))

static const struct ev_kernel_desc *load_kernel(const char *obj, void **lib_out)
{
	char path[1024];
	void *lib;
	ev_kernel_fn fn;
	snprintf(path, sizeof(path), "%s/%s.so", hkdir, obj);
	/* never closed: a thread.so thread may still run its code */
	lib = dlopen(path, RTLD_NOW | RTLD_LOCAL);
	if (!lib) {
		fprintf(stderr, "harness_check: cannot load '%s': %s\n", path, dlerror());
		return NULL;
	}
	*(void **)&fn = dlsym(lib, EVIDENT_KERNEL_SYMBOL);
	*lib_out = lib;
	return fn ? fn() : NULL;
}

static int setup_run(struct run *r, const struct hcase *hc, struct ev_launch *l, char *err,
		     size_t errlen)
{
	float *hx = malloc((size_t)hc->n * sizeof(float));
	int rc = 0;
	if (!hx)
		return -1;
	for (int s = 0; s < hc->n_sets && !rc; s++) {
		if ((rc = A->alloc(C, EV_F32, (size_t)hc->n, &r->d_in[s], err, errlen)))
			break;
		hk_input(hx, hc->n, s);
		rc = A->upload_floats(C, r->d_in[s], EV_F32, hx, (size_t)hc->n, err, errlen);
		if (!rc && hc->check)
			hk_ref(hx, r->h_ref + (size_t)s * hc->n, hc->n, hc->iters);
	}
	for (int j = 0; j < hc->batch && !rc; j++)
		rc = A->alloc(C, EV_F32, (size_t)hc->n, &r->d_out[j], err, errlen);
	free(hx);
	if (rc)
		return rc;
	memset(l, 0, sizeof(*l));
	l->abi_version = EVIDENT_ABI_VERSION;
	l->struct_size = sizeof(*l);
	l->problem = "hk";
	l->n_inputs = 1;
	l->n_outputs = 1;
	l->inputs[0].data = r->d_in[0];
	l->inputs[0].dtype = EV_F32;
	l->inputs[0].ndim = 1;
	l->inputs[0].dims[0] = hc->n;
	l->outputs[0] = l->inputs[0];
	l->outputs[0].data = r->d_out[0];
	l->scale = hc->iters;
	l->stream = A->stream(C);
	return 0;
}

static void release_run(struct run *r)
{
	for (int s = 0; s < MAXSETS; s++)
		if (r->d_in[s])
			A->free_buffer(C, r->d_in[s]);
	for (int j = 0; j < MAXB; j++)
		if (r->d_out[j])
			A->free_buffer(C, r->d_out[j]);
	free(r->h_ref);
	free(r->h_y);
}

/* Run one case; returns its row's verdict (0 pass). */
static int run_case(const struct hcase *hc, struct run *r, char *why, size_t whylen)
{
	const struct ev_kernel_desc *desc;
	struct evc_timing_opts o;
	struct ev_launch l;
	void *lib = NULL, *outs[MAXB];
	size_t out_bytes = (size_t)hc->n * sizeof(float);
	int rc;

	memset(r, 0, sizeof(*r));
	r->hc = hc;
	desc = load_kernel(hc->obj, &lib);
	if (!desc)
		return snprintf(why, whylen, "cannot load %s.so", hc->obj), 1;
	if (!strcmp(hc->obj, "honest")) {
		r->seen = (void **)dlsym(lib, "hk_seen");
		r->seen_n = (int *)dlsym(lib, "hk_seen_n");
	}
	r->h_y = malloc(out_bytes);
	r->h_ref = hc->check ? malloc((size_t)hc->n_sets * out_bytes) : NULL;
	if (!r->h_y || (hc->check && !r->h_ref)) {
		snprintf(why, whylen, "out of host memory");
		rc = 1;
		goto out;
	}
	if ((rc = setup_run(r, hc, &l, r->err, sizeof(r->err)))) {
		snprintf(why, whylen, "setup: %s", r->err);
		goto out;
	}
	if ((rc = A->kernel_init(C, desc, &l, r->err, sizeof(r->err)))) {
		snprintf(why, whylen, "init: %s", r->err);
		goto out;
	}
	/* a correctness launch as the worker makes one (not the sync kernel's:
	 * it would wait out the blocking kernel's timeout) */
	if (strcmp(hc->obj, "sync") &&
	    ((rc = A->scramble(C, r->d_out[0], out_bytes, SEED, 1ULL << 40, 0, 0, r->err,
			       sizeof(r->err))) ||
	     (rc = A->launch_sync(C, desc, &l, r->err, sizeof(r->err))))) {
		snprintf(why, whylen, "launch_sync: %s", r->err);
		goto out;
	}
	if (r->seen_n)
		*r->seen_n = 0;

	for (int j = 0; j < hc->batch; j++)
		outs[j] = r->d_out[j];
	memset(&o, 0, sizeof(o));
	o.cold = hc->cold;
	o.batch = hc->batch;
	o.n_sets = hc->n_sets;
	o.n_inputs = 1;
	o.set_inputs = r->d_in;
	o.first_set = hc->first_set;
	o.n_outputs = 1;
	o.outputs = outs;
	o.output_bytes = &out_bytes;
	o.scramble_seed = SEED;
	o.clock = hc->clock;
	o.block = hc->block;
	o.block_timeout_ms = hc->timeout_ms;
	o.max_seconds = 60;
	o.on_sample = on_sample;
	o.cb_ctx = r;
	r->rc = A->time_kernel(C, desc, &l, &o, &r->res, r->err, sizeof(r->err));
	if (desc->fini)
		desc->fini(&l);
	if (r->rc) {
		snprintf(why, whylen, "time_kernel: %s", r->err);
		rc = 1;
		goto out;
	}
	if (!strcmp(hc->obj, "thread"))
		usleep(20000); /* let its lingering threads end */
	rc = hc->judge(r, why, whylen);
out:
	release_run(r);
	return rc ? 1 : 0;
}

/* The device's scramble against scramble.h on the CPU, aligned and not;
 * copy and clear. */
static int check_buffers(char *why, size_t len)
{
	enum { N = 16384 };
	unsigned char *h = malloc(N), *e = malloc(N);
	void *d = NULL, *d2 = NULL;
	char err[400];
	int bad = 1;
	if (!h || !e)
		goto out;
	if (A->alloc(C, EV_F32, N / 4, &d, err, sizeof(err)) ||
	    A->alloc(C, EV_F32, N / 4, &d2, err, sizeof(err))) {
		snprintf(why, len, "alloc: %s", err);
		goto out;
	}
	/* aligned, whole buffer */
	if (A->scramble(C, d, N, 7, 3, 2, 1, err, sizeof(err)) ||
	    A->download(C, h, d, N, err, sizeof(err))) {
		snprintf(why, len, "scramble: %s", err);
		goto out;
	}
	evs_fill(e, N, evs_key(7, 3, 2, 1));
	if (memcmp(h, e, N)) {
		snprintf(why, len, "device scramble differs from scramble.h (aligned)");
		goto out;
	}
	/* 1001 bytes from offset 3: the rest stays zero */
	if (A->clear(C, d, N, err, sizeof(err)) ||
	    A->scramble(C, (char *)d + 3, 1001, 7, 4, 0, 0, err, sizeof(err)) ||
	    A->download(C, h, d, N, err, sizeof(err))) {
		snprintf(why, len, "scramble at an offset: %s", err);
		goto out;
	}
	memset(e, 0, N);
	evs_fill(e + 3, 1001, evs_key(7, 4, 0, 0));
	if (memcmp(h, e, N)) {
		snprintf(why, len, "device scramble differs from scramble.h (offset 3, 1001 bytes)");
		goto out;
	}
	/* copy, then clear */
	if (A->scramble(C, d, N, 9, 0, 0, 0, err, sizeof(err)) ||
	    A->copy(C, d2, d, N, err, sizeof(err)) || A->download(C, h, d2, N, err, sizeof(err))) {
		snprintf(why, len, "copy: %s", err);
		goto out;
	}
	evs_fill(e, N, evs_key(9, 0, 0, 0));
	if (memcmp(h, e, N)) {
		snprintf(why, len, "copy differs");
		goto out;
	}
	if (A->clear(C, d2, N, err, sizeof(err)) || A->download(C, h, d2, N, err, sizeof(err))) {
		snprintf(why, len, "clear: %s", err);
		goto out;
	}
	memset(e, 0, N);
	if (memcmp(h, e, N)) {
		snprintf(why, len, "clear left non-zero bytes");
		goto out;
	}
	bad = 0;
out:
	if (d)
		A->free_buffer(C, d);
	if (d2)
		A->free_buffer(C, d2);
	free(h);
	free(e);
	return bad;
}

int main(int argc, char **argv)
{
	const char *lib_path = NULL, *csv_path = NULL, *only = NULL;
	void *lib;
	evc_api_fn fn;
	char err[1024], why[512];
	int rc, failed = 0;
	struct run *runs;
	int verdict[NCASES];
	char whys[NCASES][512];

	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--csv") && i + 1 < argc)
			csv_path = argv[++i];
		else if (!strcmp(argv[i], "--only") && i + 1 < argc)
			only = argv[++i];
		else if (!lib_path)
			lib_path = argv[i];
		else if (!hkdir)
			hkdir = argv[i];
		else
			lib_path = NULL, i = argc;
	}
	if (!lib_path || !hkdir) {
		fprintf(stderr, "usage: harness_check [--csv FILE] [--only NAME] LIB.so HKDIR\n");
		return 2;
	}
	lib = dlopen(lib_path, RTLD_NOW | RTLD_LOCAL);
	if (!lib) {
		fprintf(stderr, "harness_check: cannot load '%s': %s\n", lib_path, dlerror());
		return 2;
	}
	*(void **)&fn = dlsym(lib, EVC_API_SYMBOL);
	A = fn ? fn() : NULL;
	if (!A || A->api_version != EVC_API_VERSION || A->struct_size < sizeof(struct evc_api)) {
		fprintf(stderr, "harness_check: '%s' is not a version %d harness\n", lib_path,
			EVC_API_VERSION);
		return 2;
	}
	if ((rc = A->open(0, &C, &DI, err, sizeof(err)))) {
		if (A->kind(rc) == EVC_NO_DEVICE) {
			printf("skip: no GPU (%s)\n", err);
			return 77;
		}
		fprintf(stderr, "harness_check: open: %s\n", err);
		return 2;
	}
	if (csv_path && !(csv = fopen(csv_path, "w"))) {
		fprintf(stderr, "harness_check: cannot write '%s'\n", csv_path);
		return 2;
	}
	if (csv)
		fprintf(csv, "case,index,warmup,set,graph,event_us,kernel_us,span_us,copy_us,kernels,"
			     "copies,other,stray,late,early,late_us,drain_us,host_us,wall_us,thr_before,"
			     "thr_after,block_to,flags\n");
	printf("device: %s, cc %d.%d, %d SMs, L2 %lld MB, driver %d, runtime %d\n", DI.name,
	       DI.cc_major, DI.cc_minor, DI.sm_count, DI.l2_bytes >> 20, DI.driver_version,
	       DI.runtime_version);
	if (check_buffers(why, sizeof(why))) {
		printf("buffers: FAIL %s\n", why);
		failed++;
	} else {
		printf("buffers: ok (device scramble = scramble.h, aligned and at offset 3; copy; clear)\n");
	}

	runs = calloc(NCASES, sizeof(struct run));
	if (!runs)
		return 2;
	for (int c = 0; c < NCASES; c++) {
		verdict[c] = -1;
		whys[c][0] = 0;
		if (only && strcmp(only, cases[c].name))
			continue;
		verdict[c] = run_case(&cases[c], &runs[c], whys[c], sizeof(whys[c]));
		failed += verdict[c];
		fprintf(stderr, "harness_check: %s %s %s\n", cases[c].name,
			verdict[c] ? "FAIL" : "ok", whys[c]);
	}

	/* CUPTI's cost: the same kernel with and without it */
	{
		const struct run *a = &runs[0], *b = &runs[1], *s = &runs[2], *t = &runs[3];
		if (a->ns && b->ns && s->ns && t->ns)
			printf("cupti overhead per sample (median, cupti - events only): wall %+.1f us "
			       "(%.1f vs %.1f) and event %+.2f us on 'short'; wall %+.1f us and event "
			       "%+.2f us on 'honest'\n",
			       med(s, f_wall) - med(t, f_wall), med(s, f_wall), med(t, f_wall),
			       med(s, f_event) - med(t, f_event), med(a, f_wall) - med(b, f_wall),
			       med(a, f_event) - med(b, f_event));
		for (int c = 0; c < NCASES; c++)
			if (runs[c].res.clock || runs[c].res.cupti_why[0]) {
				if (runs[c].res.cupti_loaded) {
					printf("cupti: %s, dropped %lld\n", runs[c].res.cupti_why,
					       runs[c].res.cupti_dropped);
					break;
				}
			}
		for (int c = 0; c < NCASES; c++)
			if (cases[c].clock != EVT && verdict[c] >= 0 && !runs[c].res.cupti_loaded) {
				printf("cupti not used in '%s': %s\n", cases[c].name,
				       runs[c].res.cupti_why);
				break;
			}
	}
	printf("flags: O other stream, L late, E early, T threads, B block timeout, S stray, N no work, "
	       "I incomplete (union over timed samples); medians over timed samples, us per "
	       "launch\n");
	printf("%-12s %-4s %-3s %4s %9s %9s %9s %6s %8s %4s %3s %3s %4s %4s %7s %8s %-7s %-4s %s\n",
	       "case", "mode", "clk", "n", "event_us", "kernel_us", "span_us", "ev/k", "host_us",
	       "kern", "oth", "str", "late", "erly", "late_us", "drain_us", "flags", "ok",
	       "expect / why");
	for (int c = 0; c < NCASES; c++) {
		const struct run *r = &runs[c];
		char f[16], mode[16];
		double ev, k;
		if (verdict[c] < 0)
			continue;
		ev = med(r, f_event);
		k = med(r, f_kernel);
		flags_str(flags_union(r), f, sizeof(f));
		if (cases[c].batch > 1)
			snprintf(mode, sizeof(mode), "g%d", cases[c].batch);
		else
			snprintf(mode, sizeof(mode), "s");
		{
			int oth = 0, str = 0, late = 0, early = 0;
			double late_us = 0;
			for (int i = 0; i < r->ns; i++) {
				oth = r->s[i].other_stream_kernels > oth ? r->s[i].other_stream_kernels : oth;
				str += r->s[i].stray > 0 ? r->s[i].stray : 0;
				late += r->s[i].flags & EVC_F_LATE ? 1 : 0;
				early += r->s[i].flags & EVC_F_EARLY ? 1 : 0;
				if (!isnan(r->s[i].late_us) && r->s[i].late_us > late_us)
					late_us = r->s[i].late_us;
			}
			printf("%-12s %-4s %-3s %4d %9.2f %9.2f %9.2f %6.3f %8.1f %4.0f %3d %3d %4d %4d "
			       "%7.1f %8.1f %-7s %-4s %s%s%s\n",
			       cases[c].name, mode, r->res.clock == EVC_CLOCK_CUPTI ? "cu" : "ev", r->ns,
			       ev, k, med(r, f_span), isnan(k) ? NAN : ev / k, med(r, f_host),
			       med(r, f_kernels), oth, str, late, early, late_us, med(r, f_drain), f,
			       verdict[c] ? "FAIL" : "ok", cases[c].expect, whys[c][0] ? ": " : "",
			       whys[c]);
		}
		if (cases[c].batch > 1) {
			printf("%12s graphs %d, kernel nodes:", "", r->res.n_graphs);
			for (int g = 0; g < r->res.n_graphs; g++)
				printf(" %d/%d", r->res.graph_kernel_nodes[g], r->res.graph_nodes[g]);
			printf("\n");
		}
	}
	free(runs);
	if (csv)
		fclose(csv);
	A->close(C);
	printf("harness_check: %d failed\n", failed);
	return failed ? 1 : 0;
}
