/*
 * cpu_peak.c - one core's fp32 FMA rate and memory bandwidth, measured
 * and cached per CPU model (contract, and why measured, in cpu_peak.h).
 *
 * The loops are written so that the compiler can neither fold nor hoist
 * them: noipa keeps each call a call, the constants arrive as arguments,
 * and every chain's value is summed into the result.  They are exempt from
 * the sanitizers (an instrumented triad would measure the instrumentation,
 * and the cache would keep that number for every later run).
 */
#include "backends/cpu_peak.h"
#include "backends/peaks.h"

#include <errno.h>
#include <jansson.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#if defined(__x86_64__)
#include <immintrin.h>
#endif

#define CHAINS 12          /* independent FMA chains: 2 pipes x latency 4..6 */
#define FMA_TRIALS 40
#define TRIAL_S 1e-3       /* seconds per FMA trial */
#define CHUNK_BYTES (2u << 20)
#define TRIAD_PASSES 4
/* Wall-time budgets: on a machine shared by many processes a trial's
 * millisecond of work can take fifteen; the measurement stops early
 * (with at least FMA_MIN_TRIALS trials and one triad pass) rather than
 * hold up the run, and its method says how many it took. */
#define FMA_BUDGET_S 0.5   /* per vector width */
#define FMA_MIN_TRIALS 8
#define TRIAD_BUDGET_S 1.5
#define CACHE_FORMAT "evident-cpu-peak/1"

#if defined(__GNUC__) && !defined(__clang__)
#define NO_SANITIZE __attribute__((no_sanitize("address,undefined")))
#else
#define NO_SANITIZE
#endif

typedef float v8f __attribute__((vector_size(32)));

/* ---- compute: CHAINS FMA chains, iters times; returns their sum ---- */

#if defined(__x86_64__)
NO_SANITIZE __attribute__((noipa, target("avx512f"))) static float fma_avx512(long iters, float m, float add)
{
	__m512 a[CHAINS], b = _mm512_set1_ps(m), c = _mm512_set1_ps(add);
	for (int k = 0; k < CHAINS; k++)
		a[k] = _mm512_set1_ps(1.0f + (float)k * 1e-3f);
	for (long i = 0; i < iters; i++)
#pragma GCC unroll 12
		for (int k = 0; k < CHAINS; k++)
			a[k] = _mm512_fmadd_ps(a[k], b, c);
	for (int k = 1; k < CHAINS; k++)
		a[0] = _mm512_add_ps(a[0], a[k]);
	return _mm512_reduce_add_ps(a[0]);
}

NO_SANITIZE __attribute__((noipa, target("avx2,fma"))) static float fma_avx2(long iters, float m, float add)
{
	__m256 a[CHAINS], b = _mm256_set1_ps(m), c = _mm256_set1_ps(add);
	for (int k = 0; k < CHAINS; k++)
		a[k] = _mm256_set1_ps(1.0f + (float)k * 1e-3f);
	for (long i = 0; i < iters; i++)
#pragma GCC unroll 12
		for (int k = 0; k < CHAINS; k++)
			a[k] = _mm256_fmadd_ps(a[k], b, c);
	for (int k = 1; k < CHAINS; k++)
		a[0] = _mm256_add_ps(a[0], a[k]);
	float out[8];
	_mm256_storeu_ps(out, a[0]);
	return out[0] + out[7];
}
#endif

/* Portable: a multiply and an add per lane (fused where the compiler may). */
NO_SANITIZE __attribute__((noipa)) static float fma_generic(long iters, float m, float add)
{
	v8f a[CHAINS], b, c;
	for (int l = 0; l < 8; l++) {
		b[l] = m;
		c[l] = add;
	}
	for (int k = 0; k < CHAINS; k++)
		for (int l = 0; l < 8; l++)
			a[k][l] = 1.0f + (float)k * 1e-3f;
	for (long i = 0; i < iters; i++)
#pragma GCC unroll 12
		for (int k = 0; k < CHAINS; k++)
			a[k] = a[k] * b + c;
	for (int k = 1; k < CHAINS; k++)
		a[0] += a[k];
	return a[0][0] + a[0][7];
}

struct fma_kind {
	const char *isa;
	int lanes;
	float (*fn)(long, float, float);
};

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

/* The q-quantile of sorted x[0..n) (nearest rank). */
static double quantile(const double *x, size_t n, double q)
{
	return x[(size_t)floor(q * (double)(n - 1) + 0.5)];
}

static volatile float sink; /* where every loop's result goes */

/* One width: calibrate to TRIAL_S, then up to FMA_TRIALS trials (fewer
 * past FMA_BUDGET_S); their rates sorted into r; returns how many. */
static size_t fma_trials_n(const struct fma_kind *f, double *r, size_t max_trials)
{
	const double flop_per_iter = 2.0 * CHAINS * f->lanes;
	volatile float m = 0.9999f, add = 1e-4f; /* a fixed point at 1: no overflow, no denormals */
	long iters = 256;
	double t;
	for (;;) {
		double t0 = mono_now();
		sink = f->fn(iters, m, add);
		t = mono_now() - t0;
		if (t >= 2e-4 || iters > (1L << 40))
			break;
		iters *= 2;
	}
	iters = (long)((double)iters * TRIAL_S / (t > 0 ? t : 1e-9));
	if (iters < 1)
		iters = 1;
	double start = mono_now();
	size_t n = 0;
	while (n < max_trials && (n < FMA_MIN_TRIALS || mono_now() - start < FMA_BUDGET_S)) {
		double t0 = mono_now();
		sink = f->fn(iters, m, add);
		t = mono_now() - t0;
		r[n++] = flop_per_iter * (double)iters / (t > 0 ? t : 1e-9) / 1e9;
	}
	qsort(r, n, sizeof(double), cmp_double);
	return n;
}

static size_t fma_trials(const struct fma_kind *f, double *r)
{
	return fma_trials_n(f, r, FMA_TRIALS);
}

/* The FMA widths this CPU has, widest first, into kinds[0..3); their number. */
static size_t fma_kinds(struct fma_kind *kinds)
{
	size_t nk = 0;
#if defined(__x86_64__)
	__builtin_cpu_init();
	if (__builtin_cpu_supports("avx512f"))
		kinds[nk++] = (struct fma_kind){ "avx512f", 16, fma_avx512 };
	if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma"))
		kinds[nk++] = (struct fma_kind){ "avx2+fma", 8, fma_avx2 };
#endif
	if (!nk)
		kinds[nk++] = (struct fma_kind){ "generic", 8, fma_generic };
	return nk;
}

/* The fastest of a few ~1 ms FMA trials of each width now (about 10 ms a
 * width at rest): what one core demonstrably does, a floor of its peak
 * (load only slows a trial). */
static double fma_spot(void)
{
	struct fma_kind kinds[3];
	size_t nk = fma_kinds(kinds);
	double r[FMA_TRIALS], best = 0;
	for (size_t i = 0; i < nk; i++) {
		size_t nr = fma_trials_n(&kinds[i], r, FMA_MIN_TRIALS);
		if (nr && r[nr - 1] > best)
			best = r[nr - 1];
	}
	return best;
}

/* ---- bandwidth ---- */

#if defined(__x86_64__)
/* SSE2 (every x86-64): non-temporal stores, so the bytes counted are the bytes moved */
NO_SANITIZE __attribute__((noipa)) static void triad(float *a, const float *b, const float *c, size_t n, float s)
{
	__m128 sv = _mm_set1_ps(s);
	for (size_t i = 0; i < n; i += 4)
		_mm_stream_ps(a + i, _mm_add_ps(_mm_load_ps(b + i), _mm_mul_ps(sv, _mm_load_ps(c + i))));
	_mm_sfence();
}
#define TRIAD_HOW "non-temporal stores"
#else
NO_SANITIZE __attribute__((noipa)) static void triad(float *a, const float *b, const float *c, size_t n, float s)
{
	v8f sv;
	for (int l = 0; l < 8; l++)
		sv[l] = s;
	for (size_t i = 0; i < n; i += 8) {
		v8f x, y;
		memcpy(&x, b + i, sizeof(x));
		memcpy(&y, c + i, sizeof(y));
		x += sv * y;
		memcpy(a + i, &x, sizeof(x));
	}
}
#define TRIAD_HOW "plain stores"
#endif

/* "32768K" -> bytes; 0 when it is no size */
static size_t parse_size(const char *s)
{
	char *end;
	unsigned long long v = strtoull(s, &end, 10);
	if (end == s)
		return 0;
	if (*end == 'K')
		v <<= 10;
	else if (*end == 'M')
		v <<= 20;
	else if (*end == 'G')
		v <<= 30;
	return (size_t)v;
}

/* The last-level cache of CPU 0 from sysfs (glibc's sysconf guesses on some
 * VMs: 320 MiB for the 32 MiB L3 here), else sysconf, else 0. */
static size_t llc_bytes(void)
{
	size_t best = 0;
	int best_level = 0;
	for (int i = 0; i < 16; i++) {
		char path[128];
		struct strbuf lv = STRBUF_INIT, sz = STRBUF_INIT;
		int saved = util_quiet;
		util_quiet = 1;
		snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu0/cache/index%d/level", i);
		int ok = read_file(path, &lv) == 0;
		snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu0/cache/index%d/size", i);
		ok = ok && read_file(path, &sz) == 0;
		util_quiet = saved;
		if (ok) {
			int level = atoi(strbuf_str(&lv));
			size_t bytes = parse_size(strbuf_str(&sz));
			if (level > best_level && bytes) {
				best_level = level;
				best = bytes;
			}
		}
		strbuf_release(&lv);
		strbuf_release(&sz);
		if (!ok)
			break;
	}
	if (!best) {
		long l3 = sysconf(_SC_LEVEL3_CACHE_SIZE), l2 = sysconf(_SC_LEVEL2_CACHE_SIZE);
		best = l3 > 0 ? (size_t)l3 : l2 > 0 ? (size_t)l2 : 0;
	}
	return best;
}

/*
 * Map the pages of [p, p + bytes) now, written (MADV_POPULATE_WRITE, Linux
 * 5.14): the same 4 KiB pages, zero-filled, that the first writes below
 * would fault in one exception each, in one call.  The 768 MiB the triad
 * initialises took about 3.5 s of CPU as 196,608 faults on the project's
 * VM, 2 s populated (256 MiB: 1.0-1.2 s against 0.63-0.69 s, best of 20);
 * the timed passes run over the same pages either way.  Where the kernel
 * lacks it, nothing: the writes fault the pages in as before.
 */
static void populate(void *p, size_t bytes)
{
	long pg = sysconf(_SC_PAGESIZE);
	uintptr_t g = pg > 0 ? (uintptr_t)pg : 4096, b = ((uintptr_t)p + g - 1) & ~(g - 1),
		  e = ((uintptr_t)p + bytes) & ~(g - 1);
	if (e > b)
		(void)madvise((void *)b, e - b, 23 /* MADV_POPULATE_WRITE */);
}

/* The triad's rates per chunk over passes passes (fewer past
 * TRIAD_BUDGET_S), sorted, into *r (malloc'd; the caller frees); their count. */
static size_t triad_rates(size_t per, int passes, double **r, struct strbuf *why)
{
	const size_t chunk = CHUNK_BYTES / sizeof(float), n = per / sizeof(float);
	float *a = aligned_alloc(64, per), *b = aligned_alloc(64, per), *c = aligned_alloc(64, per);
	size_t k = 0;
	*r = NULL;
	if (!a || !b || !c) {
		strbuf_addf(why, "cannot allocate 3 x %zu MiB for the bandwidth triad", per >> 20);
		goto out;
	}
	populate(a, per);
	populate(b, per);
	populate(c, per);
	for (size_t i = 0; i < n; i++) {
		b[i] = 1.0f;
		c[i] = 2.0f;
	}
	memset(a, 0, per);
	*r = xmalloc(((size_t)passes * (n / chunk) + 1) * sizeof(double));
	volatile float s = 3.0f;
	double start = mono_now();
	for (int p = 0; p < passes && (p == 0 || mono_now() - start < TRIAD_BUDGET_S); p++)
		for (size_t o = 0; o + chunk <= n; o += chunk) {
			double t0 = mono_now();
			triad(a + o, b + o, c + o, chunk, s);
			double t = mono_now() - t0;
			(*r)[k++] = 3.0 * sizeof(float) * (double)chunk / (t > 0 ? t : 1e-9) / 1e9;
		}
	sink = a[n / 2];
	qsort(*r, k, sizeof(double), cmp_double);
out:
	free(a);
	free(b);
	free(c);
	return k;
}

/* One pass of the triad over arrays of twice the last-level cache (16
 * MiB at least, 32 at most: its cost, 45 ms at rest here, is every host
 * run's): the 90th percentile of its 2 MiB chunks, GB/s, or 0.
 * What one core's memory demonstrably moves now (load only slows it; at
 * twice the cache some chunks may still hit it, so it is an upper
 * reading of the spot, never of the peak). */
static double triad_spot(void)
{
	size_t llc = llc_bytes(), per = llc ? 2 * llc : 16u << 20;
	per = per < (16u << 20) ? 16u << 20 : per > (32u << 20) ? 32u << 20 : per;
	per -= per % CHUNK_BYTES;
	struct strbuf why = STRBUF_INIT;
	double *r = NULL;
	size_t k = triad_rates(per, 1, &r, &why);
	double best = k ? quantile(r, k, 0.9) : 0;
	free(r);
	strbuf_release(&why);
	return best;
}

/* p->source from its facts */
static void describe(struct cpu_peak *p)
{
	char load[32] = "unknown";
	if (isfinite(p->load1))
		snprintf(load, sizeof(load), "%.2f", p->load1);
	snprintf(p->source, sizeof(p->source), "measured on host %s at %s (%ld CPUs online, load %s)",
		 p->host[0] ? p->host : "?", p->measured_utc[0] ? p->measured_utc : "?", p->cpus, load);
}

/* this machine's /etc/machine-id into id ("" none) */
static void machine_id(char *id, size_t n)
{
	struct strbuf t = STRBUF_INIT;
	int saved = util_quiet;
	util_quiet = 1;
	id[0] = 0;
	if (read_file("/etc/machine-id", &t) == 0)
		snprintf(id, n, "%.*s", (int)strcspn(strbuf_str(&t), "\n"), strbuf_str(&t));
	util_quiet = saved;
	strbuf_release(&t);
}

int cpu_peak_band(double *glo, double *ghi, double *blo, double *bhi, char *how, size_t n)
{
	char src[256];
	double all = peak_host_gflops(src, sizeof(src));
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);
	if (!isfinite(all) || all <= 0 || cpus <= 0)
		return -1;
	double core = all / (double)cpus;
	/* core = MHz x 1e-3 x 2 x fpc: the clock in GHz x 2 is core / fpc;
	 * the bandwidth bound takes 64 bytes per cycle of that doubled clock */
	double fpc = strstr(src, "x 64 fp32") ? 64 : strstr(src, "x 32 fp32") ? 32 : strstr(src, "x 16 fp32") ? 16 : 8;
	*glo = core / CPU_PEAK_BAND_LOW_DIV;
	*ghi = core * CPU_PEAK_BAND_HIGH_MUL;
	*blo = CPU_PEAK_GBPS_MIN;
	*bhi = core / fpc * 64 * CPU_PEAK_BAND_HIGH_MUL;
	snprintf(how, n, "one core's bound %.4g GFLOP/s (%s, over %ld CPUs): %.4g to %.4g GFLOP/s, %.4g to %.4g GB/s",
		 core, src, cpus, *glo, *ghi, *blo, *bhi);
	return 0;
}

int cpu_peak_measure(const char *model, struct cpu_peak *p, struct strbuf *why)
{
	double t_start = mono_now();
	memset(p, 0, sizeof(*p));
	snprintf(p->model, sizeof(p->model), "%s", model);
	gethostname(p->host, sizeof(p->host) - 1);
	machine_id(p->machine_id, sizeof(p->machine_id));
	p->cpus = sysconf(_SC_NPROCESSORS_ONLN);
	double load[1];
	p->load1 = getloadavg(load, 1) == 1 ? load[0] : NAN;
	utc_now_iso(p->measured_utc, sizeof(p->measured_utc));

	struct fma_kind kinds[3];
	size_t nk = fma_kinds(kinds);
	double r[FMA_TRIALS], best_p10 = NAN, best_med = NAN;
	size_t best_n = 0;
	for (size_t i = 0; i < nk; i++) {
		size_t nr = fma_trials(&kinds[i], r);
		/* the fastest trial: registers only, nothing can make a trial
		 * faster than the FMA pipes, only an interruption slower */
		if (r[nr - 1] > p->gflops) {
			p->gflops = r[nr - 1];
			best_n = nr;
			best_p10 = quantile(r, nr, 0.1);
			best_med = quantile(r, nr, 0.5);
			snprintf(p->isa, sizeof(p->isa), "%s", kinds[i].isa);
		}
	}

	size_t llc = llc_bytes(), per = llc ? 4 * llc : 64u << 20;
	long pages = sysconf(_SC_PHYS_PAGES), pagesz = sysconf(_SC_PAGESIZE);
	size_t mem_cap = pages > 0 && pagesz > 0 ? (size_t)pages * (size_t)pagesz / 16 : (size_t)256 << 20;
	per = per < (32u << 20) ? 32u << 20 : per > (256u << 20) ? 256u << 20 : per;
	per = per > mem_cap ? mem_cap : per;
	per -= per % CHUNK_BYTES;
	if (per < CHUNK_BYTES) {
		strbuf_addf(why, "too little memory for the bandwidth triad");
		return -1;
	}
	double *tr;
	size_t nt = triad_rates(per, TRIAD_PASSES, &tr, why);
	if (!nt) {
		free(tr);
		return -1;
	}
	p->gbps = quantile(tr, nt, 0.9);
	p->seconds = mono_now() - t_start;
	snprintf(p->method, sizeof(p->method),
		 "fp32 FMA loop, %d chains, %s (of %zu widths tried), fastest of %zu trials of ~1 ms "
		 "(10th percentile %.3g, median %.3g GFLOP/s); triad a=b+s*c, %s, 3 arrays of %zu MiB (last-level cache %zu MiB), "
		 "90th percentile of %zu chunks of 2 MiB (10th %.3g, max %.3g GB/s), 12 bytes per element; "
		 "one thread, %.2f s",
		 CHAINS, p->isa, nk, best_n, best_p10, best_med, TRIAD_HOW, per >> 20, llc >> 20, nt,
		 quantile(tr, nt, 0.1), tr[nt - 1], p->seconds);
	free(tr);
	describe(p);
	return 0;
}

/* ---- the cache ---- */

char *cpu_peak_cache_path(const char *model)
{
	const char *xdg = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");
	char hex[SHA256_HEX_LEN + 1];
	if (sha256_hex(model, strlen(model), hex) < 0)
		return NULL;
	if (xdg && xdg[0] == '/')
		return xstrfmt("%s/evident/cpu-peaks/%.16s.json", xdg, hex);
	if (home && *home)
		return xstrfmt("%s/.cache/evident/cpu-peaks/%.16s.json", home, hex);
	return NULL;
}

static void copy_str(char *dst, size_t n, json_t *v)
{
	snprintf(dst, n, "%s", json_is_string(v) ? json_string_value(v) : "");
}

int cpu_peak_cached(const char *model, struct cpu_peak *p, struct strbuf *why)
{
	char *path = cpu_peak_cache_path(model);
	struct strbuf text = STRBUF_INIT;
	int rc = 0;
	if (!path || !path_exists(path))
		goto out;
	int saved = util_quiet;
	util_quiet = 1;
	int rd = read_file(path, &text);
	util_quiet = saved;
	json_error_t err;
	json_t *j = rd == 0 ? json_loads(strbuf_str(&text), 0, &err) : NULL;
	json_t *f = json_object_get(j, "format"), *m = json_object_get(j, "model");
	memset(p, 0, sizeof(*p));
	p->gflops = json_number_value(json_object_get(j, "gflops"));
	p->gbps = json_number_value(json_object_get(j, "gbps"));
	if (!j || !json_is_string(f) || strcmp(json_string_value(f), CACHE_FORMAT) || !json_is_string(m) ||
	    !(p->gflops > 0) || !(p->gbps > 0)) {
		strbuf_addf(why, "the cached CPU peak '%s' is not a measurement (%s %s with positive gflops and gbps)",
			    path, rd < 0 ? "cannot read it; expected" : "expected", CACHE_FORMAT);
		rc = -1;
	} else if (!strcmp(json_string_value(m), model)) {
		copy_str(p->model, sizeof(p->model), m);
		copy_str(p->isa, sizeof(p->isa), json_object_get(j, "isa"));
		copy_str(p->method, sizeof(p->method), json_object_get(j, "method"));
		copy_str(p->measured_utc, sizeof(p->measured_utc), json_object_get(j, "measured_utc"));
		copy_str(p->host, sizeof(p->host), json_object_get(j, "host"));
		copy_str(p->machine_id, sizeof(p->machine_id), json_object_get(j, "machine_id"));
		char hex[SHA256_HEX_LEN + 1];
		if (sha256_hex(strbuf_str(&text), text.len, hex) == 0)
			snprintf(p->cache_sha256, sizeof(p->cache_sha256), "%s", hex);
		p->cpus = (long)json_integer_value(json_object_get(j, "cpus"));
		json_t *l = json_object_get(j, "load1");
		p->load1 = json_is_number(l) ? json_number_value(l) : NAN;
		p->seconds = json_number_value(json_object_get(j, "seconds"));
		describe(p);
		size_t at = strlen(p->source);
		snprintf(p->source + at, sizeof(p->source) - at, "; read from the cache file %s, sha256 %s", path,
			 p->cache_sha256[0] ? p->cache_sha256 : "unknown");
		rc = 1;
	} /* else another model hashed alike: not ours, measure ours */
	json_decref(j);
out:
	strbuf_release(&text);
	free(path);
	return rc;
}

/* mkdir -p without messages: 0, or -1 with errno set */
static int make_dirs(const char *dir)
{
	char *d = xstrdup(dir);
	int rc = 0;
	for (char *s = d + 1; rc == 0; s++) {
		if (*s != '/' && *s)
			continue;
		char c = *s;
		*s = '\0';
		if (mkdir(d, 0755) < 0 && errno != EEXIST)
			rc = -1;
		*s = c;
		if (!c)
			break;
	}
	free(d);
	return rc;
}

int cpu_peak_save(const struct cpu_peak *p, struct strbuf *why)
{
	char *path = cpu_peak_cache_path(p->model);
	if (!path) {
		strbuf_addstr(why, "neither XDG_CACHE_HOME nor HOME is set");
		return -1;
	}
	char *dir = xstrdup(path), *slash = strrchr(dir, '/');
	*slash = '\0';
	char *tmp = xstrfmt("%s.tmp.%ld", path, (long)getpid());
	json_t *j = json_pack("{s:s, s:s, s:f, s:f, s:s, s:s, s:s, s:s, s:I, s:o, s:f}", "format", CACHE_FORMAT,
			      "model", p->model, "gflops", p->gflops, "gbps", p->gbps, "isa", p->isa, "method",
			      p->method, "measured_utc", p->measured_utc, "host", p->host, "cpus", (json_int_t)p->cpus,
			      "load1", isfinite(p->load1) ? json_real(p->load1) : json_null(), "seconds", p->seconds);
	if (j && p->machine_id[0])
		json_object_set_new(j, "machine_id", json_string(p->machine_id));
	int rc = -1;
	if (make_dirs(dir) < 0)
		strbuf_addf(why, "cannot create '%s': %s", dir, strerror(errno));
	else if (!j || json_dump_file(j, tmp, JSON_INDENT(2) | JSON_SORT_KEYS) < 0)
		strbuf_addf(why, "cannot write '%s'", tmp);
	else if (rename(tmp, path) < 0)
		strbuf_addf(why, "cannot rename '%s' to '%s': %s", tmp, path, strerror(errno));
	else
		rc = 0;
	if (rc < 0)
		unlink(tmp);
	json_decref(j);
	free(tmp);
	free(dir);
	free(path);
	return rc;
}

int cpu_peak_here(const char *model, struct cpu_peak *p, int *measured, struct strbuf *why)
{
	struct strbuf w = STRBUF_INIT;
	*measured = 0;
	int c = cpu_peak_cached(model, p, &w);
	if (c == 1) {
		/* the file is the runner's environment's: it must name this
		 * machine and lie in this CPU's band (red team 131) */
		char host[96] = "", mid[40], band[512];
		double glo, ghi, blo, bhi;
		gethostname(host, sizeof(host) - 1);
		machine_id(mid, sizeof(mid));
		char *path = cpu_peak_cache_path(model);
		if (strcmp(p->host, host))
			strbuf_addf(&w, "the cached CPU peak '%s' was measured on host '%s', not this one ('%s')", path,
				    p->host, host);
		else if (mid[0] && p->machine_id[0] && strcmp(p->machine_id, mid))
			strbuf_addf(&w, "the cached CPU peak '%s' names machine id %s, not this machine's (%s)", path,
				    p->machine_id, mid);
		else if (cpu_peak_band(&glo, &ghi, &blo, &bhi, band, sizeof(band)) == 0 &&
			 (!(p->gflops >= glo && p->gflops <= ghi) || !(p->gbps >= blo && p->gbps <= bhi)))
			strbuf_addf(&w, "the cached CPU peak '%s' (%.4g GFLOP/s, %.4g GB/s) is outside what one core of "
					"this CPU can be (%s)",
				    path, p->gflops, p->gbps, band);
		/* and no lower than what the core does now: the band's floor
		 * is 1/128 of the clock's bound, and the file is the runner's
		 * user's (red team 231's peakband: a cache edited to 14.5
		 * GFLOP/s, measured 217, made an honest gemm read 95% of peak
		 * and a frac_compute_peak claim supported, 3 of 3) */
		double spot = w.len ? 0 : fma_spot(), bspot = w.len ? 0 : triad_spot();
		if (!w.len && spot > p->gflops * CPU_PEAK_SPOT_MARGIN)
			strbuf_addf(&w, "the cached CPU peak '%s' (%.4g GFLOP/s) is under what one core of this CPU did "
					"just now (%.4g GFLOP/s, the fastest of a few 1 ms FMA trials)",
				    path, p->gflops, spot);
		else if (!w.len && bspot > p->gbps * CPU_PEAK_SPOT_MARGIN)
			strbuf_addf(&w, "the cached CPU peak '%s' (%.4g GB/s) is under what one core of this machine "
					"moved just now (%.4g GB/s, one triad pass over twice the last-level cache)",
				    path, p->gbps, bspot);
		/* and not far over it (a second spot first: a busy moment
		 * slows one) */
		if (!w.len && spot > 0 && p->gflops > spot * CPU_PEAK_HIGH_MARGIN) {
			double again = fma_spot();
			spot = again > spot ? again : spot;
		}
		if (!w.len && bspot > 0 && p->gbps > bspot * CPU_PEAK_BW_HIGH_MARGIN) {
			double again = triad_spot();
			bspot = again > bspot ? again : bspot;
		}
		if (!w.len && spot > 0 && p->gflops > spot * CPU_PEAK_HIGH_MARGIN)
			strbuf_addf(&w, "the cached CPU peak '%s' (%.4g GFLOP/s) is over %.3gx what one core of this CPU "
					"did just now (%.4g GFLOP/s, the fastest of a few 1 ms FMA trials, twice)",
				    path, p->gflops, CPU_PEAK_HIGH_MARGIN, spot);
		else if (!w.len && bspot > 0 && p->gbps > bspot * CPU_PEAK_BW_HIGH_MARGIN)
			strbuf_addf(&w, "the cached CPU peak '%s' (%.4g GB/s) is over %.3gx what one core of this machine "
					"moved just now (%.4g GB/s, a triad pass over twice the last-level cache, twice)",
				    path, p->gbps, CPU_PEAK_BW_HIGH_MARGIN, bspot);
		/* and never under the spot: a cache between a third of it and
		 * it is raised to it (red team 234's peakmid: 80 GFLOP/s cached
		 * where 217 measured and 220 spot, no warning, an honest gemm
		 * at 0.175 of peak and a value claim on it supported 3 of 3) */
		if (!w.len && spot > p->gflops * CPU_PEAK_RAISE_MARGIN) {
			size_t at = strlen(p->source);
			snprintf(p->source + at, sizeof(p->source) - at,
				 "; GFLOP/s raised from the cache's %.4g to a spot check's %.4g", p->gflops, spot);
			p->gflops = spot;
		}
		if (!w.len && bspot > p->gbps * CPU_PEAK_RAISE_MARGIN) {
			size_t at = strlen(p->source);
			snprintf(p->source + at, sizeof(p->source) - at,
				 "; GB/s raised from the cache's %.4g to a spot triad's %.4g", p->gbps, bspot);
			p->gbps = bspot;
		}
		free(path);
		if (!w.len) {
			strbuf_release(&w);
			return 0;
		}
		c = -1;
	}
	if (c < 0)
		warning("%s; measuring again", w.buf);
	strbuf_reset(&w);
	if (cpu_peak_measure(model, p, why) < 0) {
		strbuf_release(&w);
		return -1;
	}
	*measured = 1;
	{
		size_t at = strlen(p->source);
		snprintf(p->source + at, sizeof(p->source) - at, "; measured by this run");
	}
	char *path = cpu_peak_cache_path(model);
	if (cpu_peak_save(p, &w) < 0)
		warning("cannot cache the CPU peak (%s): every run measures it again", w.buf);
	else
		fprintf(stderr,
			"cpu peak: one core of '%s' reaches %.3g GFLOP/s fp32 and %.3g GB/s (measured once, %.2f s; "
			"cached in %s: delete it to measure again)\n",
			model, p->gflops, p->gbps, p->seconds, path);
	free(path);
	strbuf_release(&w);
	return 0;
}
