/*
 * test_kexec.c - which kernel executor runs each phase of a job
 * (run/kexec.h): a sealed cuda variant is planned and replayed for its
 * main phase and for its extra shape (red team 3, rt3_capture_dispatch:
 * an extra shape run in process checks other code than the plan that is
 * timed); the host backend's timed phase keeps the parent's clock; the
 * planner's job carries none of the parent's seeds; and the parent's draw
 * of timed checks gives every input distribution its share.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "backends/backend.h"
#include "backends/job.h"
#include "run/kexec.h"
#include "backends/scramble.h"
#include "base/sandbox.h"
#include "base/util.h"

/* every distribution a timing one: each class equally likely */
#define ALL 0xffu

static struct job job_of(const char *phase, int timing)
{
	struct job j;
	memset(&j, 0, sizeof(j));
	j.phase = phase;
	j.timing = timing;
	return j;
}

static void test_cuda_executors(void **state)
{
	(void)state;
	struct job main_j = job_of("main", 1), shape = job_of("shape", 0), san = job_of("sanitize", 0);
	assert_ptr_equal(kexec_for(&backend_cuda, &main_j, "sealed"), &kexec_sealed);
	/* the extra shape checks what is timed: sealed too */
	assert_ptr_equal(kexec_for(&backend_cuda, &shape, "sealed"), &kexec_sealed);
	/* the sanitizers watch the timed plan replayed, never launch() in
	 * process (red team 56); a trust: host kernel's code is what is timed */
	assert_ptr_equal(kexec_for(&backend_cuda, &san, "sealed"), &kexec_replay);
	assert_string_equal(kexec_replay.trust, "sealed");
	assert_ptr_equal(kexec_for(&backend_cuda, &san, "host"), &kexec_in_process);
	assert_ptr_equal(kexec_for(&backend_cuda, &main_j, "host"), &kexec_in_process);
	assert_ptr_equal(kexec_for(&backend_cuda, &shape, "host"), &kexec_in_process);
	assert_ptr_equal(kexec_for(&backend_cuda, &shape, NULL), &kexec_in_process);
}

static void test_host_executors(void **state)
{
	(void)state;
	struct job main_j = job_of("main", 1), shape = job_of("shape", 0);
	assert_ptr_equal(kexec_for(&backend_host, &main_j, "sealed"), &kexec_parent_clock);
	/* the extra shape's worker is prepared as the timed one (red team
	 * 282: its descriptors and calibration told it apart) */
	assert_ptr_equal(kexec_for(&backend_host, &shape, "sealed"), &kexec_parent_clock);
	/* a host kernel's other untimed jobs: the timed box's view, no
	 * procfs (red team 267) */
	assert_int_equal(kexec_host_in_process.view, SANDBOX_VIEW_COPIES_NO_PROC);
	struct job san = job_of("sanitize", 0);
	assert_ptr_equal(kexec_for(&backend_host, &san, "sealed"), &kexec_host_in_process);
}

static void test_planner_job(void **state)
{
	(void)state;
	struct job w = job_of("shape", 0), p;
	w.seeds = 4;
	w.seed0 = 11;
	w.timing_seed = 12;
	w.scramble_seed = 13;
	w.first_set = 5;
	w.n_sets = 64;
	w.shape[2] = 99;
	w.kernel_so = "k.so";
	kexec_planner_job(&w, 3, &p);
	assert_string_equal(p.phase, "plan");
	assert_int_equal(p.seeds, 0);
	assert_int_equal(p.timing, 0);
	/* the kernel's host code runs in the planner: no seed of the parent's */
	assert_int_equal(p.seed0, 0);
	assert_int_equal(p.timing_seed, 0);
	assert_int_equal(p.scramble_seed, 0);
	assert_int_equal(p.first_set, 0);
	/* what it needs to plan: the shape and the object */
	assert_int_equal(p.shape[2], 99);
	assert_string_equal(p.kernel_so, "k.so");

	/* the main phase's planner runs launch() as is on as many seeds of
	 * its own (red team 67's cupti_off), drawn afresh: never the main
	 * phase's seeds or scramble, which its replay is checked on */
	w.phase = "main";
	w.seeds = 3;
	struct job p2;
	kexec_planner_job(&w, 3, &p);
	kexec_planner_job(&w, 3, &p2);
	assert_string_equal(p.phase, "plan");
	assert_int_equal(p.seeds, 3);
	assert_int_equal(p.timing, 0);
	assert_true(p.seed0 != w.seed0 && p.scramble_seed != w.scramble_seed && p.scramble_seed != 0);
	assert_true(p.seed0 != p2.seed0 && p.scramble_seed != p2.scramble_seed);
	assert_int_equal(p.timing_seed, 0);
	/* fewer seeds than distributions: one a distribution (red team 69) */
	w.seeds = 2;
	kexec_planner_job(&w, 4, &p);
	assert_int_equal(p.seeds, 4);
	w.seeds = 0;
	kexec_planner_job(&w, 3, &p);
	assert_int_equal(p.seeds, 0);
	/* the watch over the planner's modules (modwatch.h) is on, unless
	 * the runner's environment turns it off; JOB.json says so only then */
	unsetenv("EVIDENT_MODWATCH");
	kexec_planner_job(&w, 3, &p);
	assert_int_equal(p.modwatch_off, 0);
	w.dtype = "fp32";
	w.backend = "cuda";
	w.problem = "rowsum";
	w.problem_so = "p.so";
	w.exec = "in_process";
	p.dtype = w.dtype, p.backend = w.backend, p.problem = w.problem, p.problem_so = w.problem_so;
	json_t *o = job_to_json(&p);
	assert_null(json_object_get(o, "modwatch_off"));
	json_decref(o);
	setenv("EVIDENT_MODWATCH", "off", 1);
	kexec_planner_job(&w, 3, &p);
	unsetenv("EVIDENT_MODWATCH");
	assert_int_equal(p.modwatch_off, 1);
	o = job_to_json(&p);
	assert_true(json_is_true(json_object_get(o, "modwatch_off")));
	struct job back;
	assert_int_equal(job_from_json(o, &back), 0);
	assert_int_equal(back.modwatch_off, 1);
	json_decref(o);
}

/* cc on src (text) into dir/out as a shared object, with extra flags */
static char *cc_so(const char *dir, const char *out, const char *src, const char *extra)
{
	char *c = xstrfmt("%s/%s.c", dir, out), *so = xstrfmt("%s/%s", dir, out);
	FILE *f = fopen(c, "w");
	assert_non_null(f);
	fputs(src, f);
	assert_int_equal(fclose(f), 0);
	char *cmd = xstrfmt("cc -shared -fPIC -o '%s' '%s' %s", so, c, extra);
	assert_int_equal(system(cmd), 0);
	free(cmd);
	free(c);
	return so;
}

/*
 * Red team 58: a sealed kernel's object may load no library of the GPU
 * driver's.  `-Xlinker --no-as-needed -l:libnvidia-ptxjitcompiler.so.1`
 * made the object NEED the driver's PTX JIT compiler, which a box of
 * copies then held (it holds every library a job's objects load), so the
 * sealed planner and worker could compile PTX whose module globals no
 * cubin named.  The library is found by its file name, by its soname
 * under another file name (dlopen by soname finds a loaded library so
 * named), and named by the object itself even where it is not found; an
 * object of plain libraries passes; and sealed_prepare refuses such an
 * object (launch_failed, error sealed, the library in the reason) before
 * any planner runs.  A stand-in library: this machine has no driver.
 */
static void test_sealed_driver_library(void **state)
{
	(void)state;
	char dir[] = "/tmp/evident-test-kexec-drv-XXXXXX";
	assert_non_null(mkdtemp(dir));
	/* for everyone to read, as a box's libraries must be where the runner is root */
	assert_int_equal(chmod(dir, 0755), 0);
	char *jit = cc_so(dir, "libnvidia-ptxjitcompiler.so.1", "int jit_stand_in(void) { return 1; }\n",
			  "-Wl,-soname,libnvidia-ptxjitcompiler.so.1");
	/* linked as librt58alias.so.1, then given the JIT's soname: the
	 * object NEEDs the alias, the loader maps a library of that soname */
	char *alias = cc_so(dir, "librt58alias.so.1", "int jit_alias(void) { return 2; }\n",
			    "-Wl,-soname,librt58alias.so.1");
	char *plain = cc_so(dir, "librt58plain.so", "int plain_lib(void) { return 3; }\n", "");
	char *flags = xstrfmt("-L'%s' -Wl,-rpath,'%s' -Wl,--no-as-needed -l:libnvidia-ptxjitcompiler.so.1", dir, dir);
	char *k_jit = cc_so(dir, "k_jit.so", "int k(void) { return 0; }\n", flags);
	free(flags);
	flags = xstrfmt("-L'%s' -Wl,-rpath,'%s' -Wl,--no-as-needed -l:librt58alias.so.1", dir, dir);
	char *k_alias = cc_so(dir, "k_alias.so", "int k(void) { return 0; }\n", flags);
	free(flags);
	free(alias);
	alias = cc_so(dir, "librt58alias.so.1", "int jit_alias(void) { return 2; }\n",
		      "-Wl,-soname,libnvidia-ptxjitcompiler.so.1");
	flags = xstrfmt("-L'%s' -Wl,-rpath,'%s' -Wl,--no-as-needed -l:librt58plain.so", dir, dir);
	char *k_plain = cc_so(dir, "k_plain.so", "int k(void) { return 0; }\n", flags);
	free(flags);
	/* NEEDs the JIT compiler by name, with no rpath to find it: found
	 * here or not, it is named */
	flags = xstrfmt("-L'%s' -Wl,--no-as-needed -l:libnvidia-ptxjitcompiler.so.1", dir);
	char *k_named = cc_so(dir, "k_named.so", "int k(void) { return 0; }\n", flags);
	free(flags);

	assert_true(sandbox_driver_library_name("libnvidia-ptxjitcompiler.so.1"));
	/* -lcuda for the driver API: the worker's own libcuda, no compiler */
	assert_false(sandbox_driver_library_name("/usr/lib/x86_64-linux-gnu/libcuda.so.580.95.05"));
	assert_true(sandbox_driver_library_name("libnvidia-nvvm.so.4"));
	assert_false(sandbox_driver_library_name("libcudart.so.13"));
	assert_false(sandbox_driver_library_name("/usr/local/cuda/lib64/libcublasLt.so.13"));

	char *r = sandbox_driver_library(k_jit);
	assert_non_null(r);
	assert_non_null(strstr(r, "libnvidia-ptxjitcompiler.so.1"));
	free(r);
	r = sandbox_driver_library(k_alias);
	assert_non_null(r);
	assert_non_null(strstr(r, "libnvidia-ptxjitcompiler.so.1 (the soname of"));
	free(r);
	r = sandbox_driver_library(k_named);
	assert_non_null(r);
	assert_non_null(strstr(r, "needed by the kernel object"));
	free(r);
	assert_null(sandbox_driver_library(k_plain));

	/* the sealed executor refuses it before its planner */
	struct run_ctx *c = xcalloc(1, sizeof(*c));
	struct wrun w;
	memset(&w, 0, sizeof(w));
	w.job = job_of("main", 1);
	w.job.kernel_so = k_jit;
	w.exec = &kexec_sealed;
	assert_int_equal(kexec_sealed.prepare(c, &w), KEXEC_ENDED);
	assert_non_null(w.proto.failure);
	assert_string_equal(json_string_value(json_object_get(w.proto.failure, "outcome")), "launch_failed");
	assert_string_equal(json_string_value(json_object_get(w.proto.failure, "error")), "sealed");
	assert_non_null(strstr(json_string_value(json_object_get(w.proto.failure, "reason")),
			       "libnvidia-ptxjitcompiler.so.1"));
	json_decref(w.proto.failure);
	free(c);

	char *cmd = xstrfmt("rm -rf '%s'", dir);
	assert_int_equal(system(cmd), 0);
	free(cmd);
	free(jit), free(alias), free(plain), free(k_jit), free(k_alias), free(k_plain), free(k_named);
}

/* a deterministic uniform in [0, 1) */
static double uni(unsigned long long *st)
{
	*st = *st * 6364136223846793005ULL + 1442695040888963407ULL;
	return (double)(*st >> 11) * (1.0 / 9007199254740992.0);
}

/* A sample's class as the parent learns it after the sample ran: the
 * distribution drawn from its key (scramble.h evs_sample_dist). */
static int draw_cls(unsigned long long *st, int strata, unsigned mask)
{
	*st = *st * 6364136223846793005ULL + 1442695040888963407ULL;
	return evs_sample_dist(*st, strata, mask);
}

static double uni_cb(void *ctx)
{
	return uni((unsigned long long *)ctx);
}

/* One exact draw over every sample whatever its class: exactly `want`
 * checks a run, every sample as likely as any other (a class's first
 * sample included: red team 14's first_skip computed the first uniform
 * sample, which the draw before always checked, and skipped 60% of the
 * rest, ok in 9 of 18 repeats), each class checked in proportion to its
 * samples. */
static void test_check_draw_strata(void **state)
{
	(void)state;
	unsigned long long st = 1, ks = 99;
	long long hits[200] = { 0 }, first_hits = 0, per_class_all[4] = { 0 };
	enum { TRIALS = 4000 };
	for (int trial = 0; trial < TRIALS; trial++) {
		struct check_draw d;
		int seen[4] = { 0 }, total = 0;
		check_draw_init(&d, 200, 10, 4);
		for (long long i = 0; i < 200; i++) {
			int c = draw_cls(&ks, 4, 1u);
			int p = check_draw_pick(&d, i, c, uni(&st));
			assert_true(!p || i < 199); /* the last is keep_sample's, always */
			if (c == 0 && !seen[0] && i < 199)
				first_hits += p; /* uniform's first sample: nothing special */
			seen[c] = 1;
			if (p) {
				hits[i]++;
				total++;
				per_class_all[c]++;
			}
		}
		assert_int_equal(total, 10);
		long long sum = 0;
		for (int c = 0; c < 4; c++)
			sum += d.checked[c];
		assert_int_equal(sum, 10);
	}
	/* every sample about 10 / 199 of the time: about 201 of 4000 */
	for (int i = 0; i < 199; i++)
		assert_true(hits[i] > 130 && hits[i] < 280);
	assert_true(first_hits > 130 && first_hits < 280);
	assert_int_equal(hits[199], 0);
	/* in proportion to the classes' samples: 3/4 uniform, 1/12 each stress */
	assert_true(fabs((double)per_class_all[0] / (TRIALS * 10.0) - 0.75) < 0.02);
	for (int c = 1; c < 4; c++)
		assert_true(fabs((double)per_class_all[c] / (TRIALS * 10.0) - 1.0 / 12) < 0.01);
}

static void test_check_draw_edges(void **state)
{
	(void)state;
	unsigned long long st = 7, ks = 3;
	struct check_draw d;
	/* fewer samples than checks: every sample but the last */
	check_draw_init(&d, 5, 10, 4);
	for (long long i = 0; i < 4; i++)
		assert_int_equal(check_draw_pick(&d, i, draw_cls(&ks, 4, ALL), uni(&st)), 1);
	assert_int_equal(check_draw_pick(&d, 4, 0, 0.0), 0);
	/* one class: exactly `want` */
	check_draw_init(&d, 100, 7, 1);
	int total = 0;
	for (long long i = 0; i < 100; i++)
		total += check_draw_pick(&d, i, 0, uni(&st));
	assert_int_equal(total, 7);
	/* more classes than the draw keeps: one */
	check_draw_init(&d, 100, 7, CHECK_MAX_STRATA + 1);
	assert_int_equal(d.strata, 1);
	/* a class out of range counts as the first; nothing is lost */
	check_draw_init(&d, 100, 7, 4);
	assert_int_equal(check_draw_pick(&d, 0, 4, 0.0), 1);
	assert_int_equal(d.checked[0], 1);
}

/* The cover: fewer checks than classes, or a class the draw missed, gets
 * one at the end among its held skipped samples, uniformly (red team 4,
 * cuda-redteam4-checks.yaml: timed_checks 2 of 4 distributions). */
static void test_check_draw_few(void **state)
{
	(void)state;
	unsigned long long st = 3, ks = 5;
	long long cover_at[200] = { 0 };
	for (long long want = 0; want <= 3; want++)
		for (int trial = 0; trial < 400; trial++) {
			struct check_draw d;
			int cls[200], n_class[4] = { 0 };
			char pick[200] = { 0 };
			check_draw_init(&d, 200, want, 4);
			int total = 0;
			for (long long i = 0; i < 200; i++) {
				cls[i] = draw_cls(&ks, 4, ALL);
				n_class[cls[i]] += i < 199;
				pick[i] = (char)check_draw_pick(&d, i, cls[i], uni(&st));
				total += pick[i];
			}
			assert_int_equal(total, want);
			char before[200];
			memcpy(before, pick, sizeof(before));
			check_draw_cover(&d, cls, 199, pick, uni_cb, &st);
			int least = want > 0 ? CHECK_MIN_PER_CLASS : 1;
			for (int c = 0; c < 4; c++) {
				assert_true(d.checked[c] == 0 ? n_class[c] == 0 : 1);
				/* every class its least, as its held samples allow
				 * (red team 29: one distribution's check alone sees a
				 * defect) */
				assert_true(d.checked[c] >= (n_class[c] < least ? n_class[c] : least));
			}
			int extra = 0;
			for (int i = 0; i < 199; i++)
				if (pick[i] && !before[i]) {
					extra++;
					cover_at[i]++;
				}
			assert_int_equal(extra, (int)d.covered);
			assert_true(extra <= 4 * least);
		}
	/* the cover's picks spread over the run, not at its start */
	long long early = 0, late = 0;
	for (int i = 0; i < 199; i++)
		*(i < 100 ? &early : &late) += cover_at[i];
	assert_true(late > early / 2 && early > late / 2);
	/* one class and no checks wanted: none (the last is keep_sample's) */
	struct check_draw d;
	check_draw_init(&d, 50, 0, 1);
	for (long long i = 0; i < 50; i++)
		assert_int_equal(check_draw_pick(&d, i, 0, uni(&st)), 0);
}

/* The draw is exact, so it tells whoever sees it when the checks are
 * spent: once `want` came, no later sample is picked.  That is why no
 * worker may see it (protocol.h; red team 5, rt5_check_count, saw it from
 * device code when only checked samples were downloaded; test_protocol
 * test_draw_unseen), and why keep_sample adds the floor. */
static void test_check_draw_exact_share(void **state)
{
	(void)state;
	unsigned long long st = 11, ks = 4;
	for (int trial = 0; trial < 4000; trial++) {
		struct check_draw d;
		int seen = 0;
		check_draw_init(&d, 200, 10, trial % 2 ? 1 : 4);
		for (long long i = 0; i < 200; i++) {
			int q = check_draw_pick(&d, i, draw_cls(&ks, d.strata, ALL), uni(&st));
			assert_true(!q || i < 199);
			if (seen >= 10)
				assert_int_equal(q, 0);
			seen += q;
		}
		assert_int_equal(seen, 10);
	}
}

/* The memoryless draw (kexec.h, insurance): every sample keeps at least
 * the starting chance whatever was drawn before, and the last sample
 * stays keep_sample's. */
static void test_check_draw_memoryless(void **state)
{
	(void)state;
	unsigned long long st = 11, ks = 8;
	long long after = 0, picked_after = 0;
	for (int trial = 0; trial < 4000; trial++) {
		struct check_draw d;
		int got = 0;
		check_draw_init(&d, 200, 10, 4);
		check_draw_memoryless(&d);
		for (long long i = 0; i < 200; i++) {
			int p = check_draw_pick(&d, i, draw_cls(&ks, 4, 1u), uni(&st));
			assert_true(!p || i < 199);
			if (got >= 10 && i < 199) {
				after++;
				picked_after += p;
			}
			got += p;
		}
	}
	/* after the share, about the starting chance (10 in 199) */
	double rate = (double)picked_after / (double)after;
	assert_true(after > 10000);
	assert_true(rate > 0.04 && rate < 0.06);
	/* no checks wanted: none, floor or not */
	struct check_draw d;
	check_draw_init(&d, 50, 0, 1);
	check_draw_memoryless(&d);
	for (long long i = 0; i < 50; i++)
		assert_int_equal(check_draw_pick(&d, i, 0, uni(&st)), 0);
}

/* Red team 9, ring_outrun: a skipped frame that leaves the spill ring can
 * never be drawn late, so it is checked as it goes with a chance that is
 * never below want over the samples a run that let it go must have. */
static void test_evicted_frames_checked(void **state)
{
	(void)state;
	assert_true(check_evict_chance(0, 64, 10) >= 10.0 / 65 - 1e-12);
	for (long long i = 0; i < 5000; i += 7)
		assert_true(check_evict_chance(i, 64, 10) * (double)(i + 65) >= 10 - 1e-9);
	assert_true(check_evict_chance(0, 2, 10) == 1);
	assert_true(check_evict_chance(100, 64, 0) == 0);
	/* the attack's 80 early frames, ring 64: escape all eviction checks
	 * with chance below 0.1% */
	double escape = 1;
	for (long long i = 0; i < 80; i++)
		escape *= 1 - check_evict_chance(i, 64, 10);
	assert_true(escape < 1e-3);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_check_draw_strata),
		cmocka_unit_test(test_check_draw_few),
		cmocka_unit_test(test_check_draw_exact_share),
		cmocka_unit_test(test_check_draw_memoryless),
		cmocka_unit_test(test_check_draw_edges),
		cmocka_unit_test(test_cuda_executors),
		cmocka_unit_test(test_host_executors),
		cmocka_unit_test(test_planner_job),
		cmocka_unit_test(test_sealed_driver_library),
		cmocka_unit_test(test_evicted_frames_checked),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
