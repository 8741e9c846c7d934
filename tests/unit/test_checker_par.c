/*
 * test_checker_par.c - the checker judging in parallel (checker.c,
 * checker_jobs, judge_spawn, judge_merge): K processes, each its share of
 * the captures (c, c + K, ...), must write exactly what one process
 * writes, byte for byte and in capture order, for every kind of capture
 * (seed launches, parent-timed host samples, CUDA stream-mode and
 * graph-mode samples, passing and failing); the first error in capture
 * order wins whichever process met it; a process that dies is an error
 * line naming the capture, never a pass; no process or descriptor is left
 * behind; a bad EVIDENT_CHECK_JOBS is refused.  Runs on the CPU: without
 * a GPU reference built the checker judges with the problem's float64 one.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "backends/fresh.h"
#include "backends/checker.h"
#include "checker_run.h"
#include "backends/job.h"
#include "backends/problem.h"
#include "backends/scramble.h"
#include "run/provenance.h"

static const char *cache_dir(void)
{
	const char *c = getenv("EVIDENT_TEST_CACHE");
	return c && *c ? c : "build/cache";
}

static struct problem attn = PROBLEM_INIT;

static int setup(void **state)
{
	(void)state;
	struct strbuf why = STRBUF_INIT;
	int rc = problem_load("attention_fwd", cache_dir(), &attn, &why);
	if (rc < 0)
		fprintf(stderr, "cannot load attention_fwd: %s\n", strbuf_str(&why));
	strbuf_release(&why);
	return rc;
}

static int teardown(void **state)
{
	(void)state;
	problem_release(&attn);
	unsetenv("EVIDENT_CHECK_JOBS");
	unsetenv("EVIDENT_CHECK_FAULT_KILL");
	return 0;
}

static const long long shape[4] = { 1, 2, 16, 8 };

/* A job of attention_fwd at shape: host fp32 (seeds and parent-timed
 * samples) or CUDA fp16 (timed by key; batch > 1: graph mode's mix). */
static void make_job(struct job *job, const char *backend, int batch)
{
	memset(job, 0, sizeof(*job));
	job->phase = "main";
	job->backend = backend;
	job->kernel_so = "none.so";
	job->problem = "attention_fwd";
	job->problem_so = attn.so_path;
	job->n_dims = 4;
	memcpy(job->shape, shape, sizeof(shape));
	job->dtype = strcmp(backend, "host") ? "fp16" : "fp32";
	knobs_init(&job->k);
	job->k.batch = batch;
	job->seeds = 3;
	job->seed0 = 1000;
	job->timing = 1;
	job->timing_seed = 777;
	job->n_sets = batch > 1 ? batch : 2;
	job->first_set = 0;
	job->scramble_seed = 31;
	job->exec = strcmp(backend, "host") ? "sealed" : "in_process";
}

/*
 * A check JSON of n captures for job under dir (captures.bin written):
 * the first job->seeds are seed launches, the rest timed samples (host:
 * with the parent's seed and distribution; CUDA: a mix key).  Capture i's
 * output is the float64 reference where i % 3 == 0 (a pass for the seed
 * launches and host samples), else the reference with one element off
 * by 1 (a fail), so both kinds of line are compared.  bad: a capture whose
 * offset lies outside the file (an error line), or -1.  A new object the
 * caller json_decrefs.
 */
static json_t *make_check(const struct job *job, const char *dir, int n, int bad)
{
	int dtype = dtype_from_name(job->dtype), host = !strcmp(job->backend, "host");
	int batch = job->k.batch > 1 && !host ? job->k.batch : 1;
	size_t n_out = problem_tensor_numel(&attn, 3, shape), bytes = n_out * dtype_size(dtype);
	char *cap_path = xstrfmt("%s/captures.bin", dir);
	FILE *cap = fopen(cap_path, "wb");
	assert_non_null(cap);
	float **in = problem_inputs_new(&attn, shape);
	double **ref = problem_outputs_new(&attn, shape);
	float *o32 = xmalloc(n_out * sizeof(float));
	unsigned char *packed = xmalloc(bytes);
	json_t *caps = json_array();
	long long off = 0;
	for (int i = 0; i < n; i++) {
		int timed = i >= job->seeds, dist = i % attn.desc->n_dists;
		long long index = timed ? i - job->seeds : i;
		uint64_t seed = timed ? 5000 + (uint64_t)i : job->seed0 + (uint64_t)index;
		uint64_t key = evs_mix64(0x5eed + (uint64_t)i) | 1;
		int launches = timed ? batch : 1;
		json_t *c = json_pack("{s:b, s:I, s:I, s:i, s:i, s:I, s:I}", "timed", timed, "index", (json_int_t)index,
				      "global", (json_int_t)(i + 3), "set", 0, "batch", launches, "offset",
				      (json_int_t)(i == bad ? 1LL << 40 : off), "bytes", (json_int_t)(launches * bytes));
		if (timed && host) {
			json_object_set_new(c, "seed", json_integer((json_int_t)seed));
			json_object_set_new(c, "dist", json_integer(dist));
		} else if (timed) {
			json_object_set_new(c, "mix_key", json_integer((json_int_t)key));
			dist = evs_sample_dist(key, attn.desc->n_dists, problem_timing_dists(&attn));
			seed = batch > 1 ? job->timing_seed + 2ULL * (unsigned)dist : fresh_seed(key, 0);
		}
		assert_int_equal(problem_fill_rounded(&attn, shape, dist, seed, dtype, in), 0);
		problem_reference(&attn, shape, (const float *const *)in, ref);
		for (size_t e = 0; e < n_out; e++)
			o32[e] = (float)ref[0][e] + (i % 3 && e == (size_t)i % n_out ? 1.0f : 0.0f);
		problem_pack(o32, packed, n_out, dtype);
		for (int j = 0; j < launches; j++)
			assert_int_equal(fwrite(packed, 1, bytes, cap), bytes);
		off += launches * (long long)bytes;
		json_array_append_new(caps, c);
	}
	fclose(cap);
	struct ev_tolerance tol;
	problem_tolerance(&attn, dtype, shape, &tol);
	json_t *cj = json_pack("{s:o, s:{s:f, s:f, s:f}, s:s, s:o, s:b, s:I}", "job", job_to_json(job), "tolerance",
			       "atol", tol.atol, "rtol", tol.rtol, "rel_l2", tol.rel_l2, "captures_file", cap_path,
			       "captures", caps, "cross_check", 0, "focus_secret", (json_int_t)99);
	problem_buffers_free(in, 3);
	problem_buffers_free(ref, 1);
	free(o32);
	free(packed);
	free(cap_path);
	return cj;
}

static int open_fds(void)
{
	DIR *d = opendir("/proc/self/fd");
	int n = 0;
	assert_non_null(d);
	while (readdir(d))
		n++;
	closedir(d);
	return n;
}

/* No child left: neither running nor a zombie. */
static void assert_no_children(void)
{
	errno = 0;
	assert_int_equal(waitpid(-1, NULL, WNOHANG), -1);
	assert_int_equal(errno, ECHILD);
}

/* The checker's output and exit code on cj with EVIDENT_CHECK_JOBS=jobs
 * (0: unset, the checker's own choice). */
static int run_with(json_t *cj, const char *dir, int jobs, struct strbuf *out)
{
	char v[16];
	snprintf(v, sizeof(v), "%d", jobs);
	if (jobs)
		setenv("EVIDENT_CHECK_JOBS", v, 1);
	else
		unsetenv("EVIDENT_CHECK_JOBS");
	int fds = open_fds();
	int rc = run_checker_raw(cj, dir, out);
	unsetenv("EVIDENT_CHECK_JOBS");
	assert_no_children();
	assert_int_equal(open_fds(), fds);
	return rc;
}

/* The output without its last line when that is the done line, which
 * alone may differ (it says how many processes judged); that count into
 * *jobs (-1: no done line). */
static void cut_done(struct strbuf *sb, int *jobs)
{
	*jobs = -1;
	char *last = sb->len > 1 ? memrchr(sb->buf, '\n', sb->len - 1) : NULL;
	last = last ? last + 1 : sb->buf;
	if (sscanf(last, "{\"jobs\":%d,\"msg\":\"done\"}", jobs) == 1) {
		sb->len = (size_t)(last - sb->buf);
		sb->buf[sb->len] = 0;
	}
}

/* Every K gives the one process's bytes; n captures, bad as make_check. */
static void same_for_every_k(const struct job *job, int n, int bad)
{
	char dir[] = "/tmp/evident-test-checkpar-XXXXXX";
	assert_non_null(mkdtemp(dir));
	json_t *cj = make_check(job, dir, n, bad);
	struct strbuf one = STRBUF_INIT, par = STRBUF_INIT;
	int rc1 = run_with(cj, dir, 1, &one), jobs1;
	cut_done(&one, &jobs1);
	assert_int_equal(rc1, bad < 0 ? 0 : 1);
	assert_int_equal(jobs1, bad < 0 ? 1 : -1);
	/* the one process's lines: a check a capture up to the error */
	int lines = 0;
	for (size_t i = 0; i < one.len; i++)
		lines += one.buf[i] == '\n';
	assert_int_equal(lines, bad < 0 ? n : bad + 1);
	if (bad >= 0)
		assert_non_null(strstr(one.buf, "\"msg\":\"error\",\"reason\":\"a capture lies outside the capture file\""));
	else if (job->k.batch <= 1) /* graph mode's outputs here are of the first base set alone: all fail */
		assert_non_null(strstr(one.buf, "\"pass\":true")), assert_non_null(strstr(one.buf, "\"pass\":false"));
	const int ks[] = { 2, 3, 4, 7, 64 };
	for (size_t k = 0; k < sizeof(ks) / sizeof(ks[0]); k++) {
		int jobs;
		int rc = run_with(cj, dir, ks[k], &par);
		cut_done(&par, &jobs);
		assert_int_equal(rc, rc1);
		assert_int_equal(jobs, bad < 0 ? (ks[k] < n ? ks[k] : n) : -1);
		if (par.len != one.len || memcmp(par.buf, one.buf, one.len))
			print_error("K=%d wrote:\n%s\none process wrote:\n%s\n", ks[k], par.buf, one.buf);
		assert_int_equal(par.len, one.len);
		assert_memory_equal(par.buf, one.buf, one.len);
	}
	strbuf_release(&one);
	strbuf_release(&par);
	json_decref(cj);
	char *cp = xstrfmt("%s/captures.bin", dir);
	unlink(cp);
	free(cp);
	rmdir(dir);
}

static void test_host_same_bytes(void **state)
{
	(void)state;
	struct job job;
	make_job(&job, "host", 1);
	same_for_every_k(&job, 13, -1);
}

static void test_cuda_stream_same_bytes(void **state)
{
	(void)state;
	struct job job;
	make_job(&job, "cuda", 1);
	same_for_every_k(&job, 11, -1);
}

static void test_cuda_graph_same_bytes(void **state)
{
	(void)state;
	struct job job;
	make_job(&job, "cuda", 3); /* each process keeps its own base pairs */
	same_for_every_k(&job, 9, -1);
}

/* An error at capture 6 (process 6 % K): every K stops there, with the
 * lines before it, as one process does, though later captures' processes
 * ran ahead. */
static void test_first_error_in_order(void **state)
{
	(void)state;
	struct job job;
	make_job(&job, "host", 1);
	same_for_every_k(&job, 13, 6);
	same_for_every_k(&job, 13, 0);
}

/* A process killed before its line for capture 5: an error line naming
 * it after the lines of captures 0 to 4, exit 1, no done, nothing left. */
static void test_killed_process_is_an_error(void **state)
{
	(void)state;
	struct job job;
	make_job(&job, "host", 1);
	char dir[] = "/tmp/evident-test-checkpar-XXXXXX";
	assert_non_null(mkdtemp(dir));
	json_t *cj = make_check(&job, dir, 10, -1);
	struct strbuf one = STRBUF_INIT, par = STRBUF_INIT;
	assert_int_equal(run_with(cj, dir, 1, &one), 0);
	setenv("EVIDENT_CHECK_FAULT_KILL", "5", 1);
	assert_int_equal(run_with(cj, dir, 3, &par), 1);
	unsetenv("EVIDENT_CHECK_FAULT_KILL");
	/* the first five lines as one process wrote them */
	const char *p = one.buf;
	for (int i = 0; i < 5; i++)
		p = strchr(p, '\n') + 1;
	size_t head = (size_t)(p - one.buf);
	assert_true(par.len > head);
	assert_memory_equal(par.buf, one.buf, head);
	assert_string_equal(par.buf + head,
			    "{\"msg\":\"error\",\"reason\":\"the checker's process 3 of 3 (captures 2, 2 + 3, ...) was "
			    "killed by signal 9 (Killed) before its line for capture 5\"}\n");
	/* every process killed after its last line: all ten lines, then the
	 * error, never done */
	setenv("EVIDENT_CHECK_FAULT_KILL", "10", 1);
	assert_int_equal(run_with(cj, dir, 3, &par), 1);
	unsetenv("EVIDENT_CHECK_FAULT_KILL");
	int jobs;
	cut_done(&one, &jobs);
	assert_int_equal(jobs, 1);
	assert_true(par.len > one.len);
	assert_memory_equal(par.buf, one.buf, one.len);
	assert_string_equal(par.buf + one.len, "{\"msg\":\"error\",\"reason\":\"the checker's process 1 of 3 was killed "
					       "by signal 9 (Killed) after its last capture's line\"}\n");
	/* K = 1 ignores the fault: one process has no child to kill */
	setenv("EVIDENT_CHECK_FAULT_KILL", "5", 1);
	assert_int_equal(run_with(cj, dir, 1, &par), 0);
	unsetenv("EVIDENT_CHECK_FAULT_KILL");
	cut_done(&par, &jobs);
	assert_int_equal(par.len, one.len);
	strbuf_release(&one);
	strbuf_release(&par);
	json_decref(cj);
	char *cp = xstrfmt("%s/captures.bin", dir);
	unlink(cp);
	free(cp);
	rmdir(dir);
}

/* EVIDENT_CHECK_JOBS must be a whole number from 1 to 64; unset, a job of
 * checks this small is judged by one process. */
static void test_jobs_setting(void **state)
{
	(void)state;
	struct job job;
	make_job(&job, "host", 1);
	char dir[] = "/tmp/evident-test-checkpar-XXXXXX";
	assert_non_null(mkdtemp(dir));
	json_t *cj = make_check(&job, dir, 5, -1);
	struct strbuf out = STRBUF_INIT;
	const char *bad[] = { "0", "65", "2x", "-1", "x", " 3" };
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		setenv("EVIDENT_CHECK_JOBS", bad[i], 1);
		assert_int_equal(run_checker_raw(cj, dir, &out), 1);
		char *want = xstrfmt("{\"msg\":\"error\",\"reason\":\"EVIDENT_CHECK_JOBS is '%s', not a whole number "
				     "from 1 to 64 (unset it to let the checker choose)\"}\n",
				     bad[i]);
		assert_string_equal(out.buf, want);
		free(want);
	}
	unsetenv("EVIDENT_CHECK_JOBS");
	int jobs;
	assert_int_equal(run_with(cj, dir, 0, &out), 0);
	cut_done(&out, &jobs);
	assert_int_equal(jobs, 1);
	strbuf_release(&out);
	json_decref(cj);
	char *cp = xstrfmt("%s/captures.bin", dir);
	unlink(cp);
	free(cp);
	rmdir(dir);
}

int main(void)
{
	/* problem plug-ins built as the CLI builds them: boxed, two passes */
	problem_build_setup(&prov_view_ops, 0);
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_host_same_bytes),
		cmocka_unit_test(test_cuda_stream_same_bytes),
		cmocka_unit_test(test_cuda_graph_same_bytes),
		cmocka_unit_test(test_first_error_in_order),
		cmocka_unit_test(test_killed_process_is_an_error),
		cmocka_unit_test(test_jobs_setting),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
