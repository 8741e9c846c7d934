/*
 * sanitize.c - compute-sanitizer runs and their verdicts (see sanitize.h).
 *
 * The sanitizer is spawned through run_command with an argv array (never
 * a shell), stdout and stderr merged so that the report and the worker's
 * own lines stay in order.  The tool's verdict (sanitize_judge_run) is its
 * summary and exit code: exit 86 (SANITIZE_ERROR_EXIT) or a non-zero
 * summary is a failure, a clean summary with exit 0 a pass.  The runner's
 * jobs (run/job.c job_sanitize) also judge the sanitized worker's output
 * (sanitize_judge_output): a run that computed nothing, or a wrong
 * answer, watched nothing of the judged code, and is not passed.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "backends/backend.h"
#include "backends/job.h"
#include "base/runcmd.h"
#include "backends/sanitize.h"

#include "backends/backend_cuda.h"
#include "base/util.h"

#define REPORT_MAX (64 * 1024)

/* The report as a JSON string: jansson wants UTF-8, a report may carry
 * stray bytes from the kernel's printf; those become '?'. */
static json_t *report_json(const char *s, size_t n)
{
	char *c = xstrndup(s, n);
	json_t *j;
	for (size_t i = 0; i < n; i++) {
		unsigned char ch = (unsigned char)c[i];
		if (ch >= 0x80 || (ch < 0x20 && ch != '\n' && ch != '\t'))
			c[i] = '?';
	}
	j = json_string(c);
	free(c);
	return j;
}

static const char *const tools[] = { "memcheck", "racecheck", "initcheck", "synccheck" };

int sanitize_tool_known(const char *tool)
{
	for (size_t i = 0; i < ARRAY_SIZE(tools); i++)
		if (tool && !strcmp(tool, tools[i]))
			return 1;
	return 0;
}

char *sanitize_find_tool(void)
{
	char *p = cuda_find_tool("compute-sanitizer");
	if (!p && access("/usr/local/cuda/compute-sanitizer/compute-sanitizer", X_OK) == 0)
		p = xstrdup("/usr/local/cuda/compute-sanitizer/compute-sanitizer");
	return p;
}

/*
 * The largest number right after `key` in s, or -1 if none.  The largest,
 * because memcheck prints "ERROR SUMMARY: 1887 errors" and then, when it
 * stopped printing, "ERROR SUMMARY: 1837 errors were not printed".
 */
static long long count_after(const char *s, const char *key)
{
	long long best = -1;
	for (const char *p = strstr(s, key); p; p = strstr(p + 1, key)) {
		const char *q = p + strlen(key);
		while (*q == ' ')
			q++;
		if (*q >= '0' && *q <= '9') {
			long long n = strtoll(q, NULL, 10);
			if (n > best)
				best = n;
		}
	}
	return best;
}

long long sanitize_count_errors(const char *report)
{
	long long n = count_after(report, "ERROR SUMMARY:");
	long long r = count_after(report, "RACECHECK SUMMARY:");
	if (n < 0)
		return r;
	if (r > n)
		return r;
	return n;
}

/* a bare run's channel: drained, and the worker's hello answered once
 * (it waits for one byte after it: protocol.h); *ctx says whether it was */
static int drain_channel(const char *buf, size_t n, int reply_fd, void *ctx)
{
	int *answered = ctx;
	(void)buf;
	if (n > 0 && !*answered) {
		*answered = 1;
		if (write_all(reply_fd, "g", 1) < 0)
			return -1;
	}
	return 0;
}

long long sanitize_sequence_launches(long long seeds, long long warmup, long long samples, long long grids)
{
	long long n = (seeds > 0 ? seeds : 0) + (warmup > 0 ? warmup : 0) + (samples > 0 ? samples : 0);
	return n * (grids > 1 ? grids : 1);
}

void sanitize_window_draw(long long of, uint64_t r, struct sanitize_window *w)
{
	memset(w, 0, sizeof(*w));
	w->of = of > 0 ? of : 0;
	if (w->of > SANITIZE_WINDOW_LAUNCHES) {
		w->count = SANITIZE_WINDOW_LAUNCHES;
		/* of - count + 1 starts, each as likely (the modulo's bias is
		 * below 2^-40 for any sequence a run makes) */
		w->skip = (long long)(r % (uint64_t)(w->of - w->count + 1));
	}
	snprintf(w->skip_s, sizeof(w->skip_s), "%lld", w->skip);
	snprintf(w->count_s, sizeof(w->count_s), "%lld", w->count);
}

void sanitize_window_whole(long long of, struct sanitize_window *w)
{
	memset(w, 0, sizeof(*w));
	w->of = of > 0 ? of : 0;
	snprintf(w->skip_s, sizeof(w->skip_s), "0");
	snprintf(w->count_s, sizeof(w->count_s), "0");
}

void sanitize_window_prefix(struct sanitize_window *w)
{
	if (w->count) {
		w->count += w->skip;
		w->skip = 0;
	}
	snprintf(w->skip_s, sizeof(w->skip_s), "%lld", w->skip);
	snprintf(w->count_s, sizeof(w->count_s), "%lld", w->count);
}

int sanitize_may_exclude_harness(int replay, int plan_marked)
{
	return replay && !plan_marked;
}

const char **sanitize_argv(const char *cs, const char *tool, const char *const *worker_argv, int replay,
			   const struct sanitize_window *win)
{
	size_t n = 0, k = 0;
	while (worker_argv && worker_argv[n])
		n++;
	const char **argv = xcalloc(n + 16, sizeof(char *));
	argv[k++] = cs;
	argv[k++] = "--tool";
	argv[k++] = tool;
	argv[k++] = "--error-exitcode";
	argv[k++] = "86";
	argv[k++] = "--print-limit";
	argv[k++] = "50";
	if (replay) {
		/* a sealed replay's CUDA calls are the harness's own (the
		 * kernel's host code does not run there), and its loader
		 * probes by design: a name looked up in each module until
		 * found (CUDA_ERROR_NOT_FOUND), a parameter's info read until
		 * past the last (CUDA_ERROR_INVALID_VALUE).  memcheck counted
		 * those two as the kernel's errors on an H200 (2026-12-01,
		 * data/gpu-evidence/h200-session-20261201-0303-call4.txt);
		 * device-side errors are reported as ever */
		argv[k++] = "--report-api-errors";
		argv[k++] = "no";
	}
	if (win) {
		/* the harness's grids (scrambles, mixes, the blocking kernel,
		 * poison fills) are neither instrumented nor counted: the
		 * window counts the kernel's launches alone */
		argv[k++] = "--kernel-name-exclude";
		argv[k++] = "kns=" SANITIZE_HARNESS_MARK;
		if (win->count) {
			argv[k++] = "--launch-skip";
			argv[k++] = win->skip_s;
			argv[k++] = "--launch-count";
			argv[k++] = win->count_s;
		}
	}
	for (size_t i = 0; i < n; i++)
		argv[k++] = worker_argv[i];
	argv[k] = NULL;
	return argv;
}

void sanitize_judge_run(json_t *v, const char *const *argv, const char *out, size_t len,
			const struct run_result *r)
{
	struct strbuf how = STRBUF_INIT;
	json_t *jargv = json_array();
	for (size_t i = 0; argv && argv[i]; i++)
		json_array_append_new(jargv, json_string(argv[i]));
	json_object_set_new(v, "argv", jargv);
	run_result_describe(r, &how);
	long long errors = sanitize_count_errors(out ? out : "");
	json_object_set_new(v, "exit", json_string(strbuf_str(&how)));
	json_object_set_new(v, "timed_out", json_boolean(r->timed_out));
	json_object_set_new(v, "seconds", json_real(r->seconds));
	json_object_set_new(v, "errors", errors >= 0 ? json_integer(errors) : json_null());
	if (r->timed_out || errors < 0) {
		json_object_set_new(v, "passed", json_null());
		json_object_set_new(v, "reason",
				    json_string(r->timed_out ? "the sanitized run timed out"
							     : "no summary line in the sanitizer's report"));
	} else if (errors > 0 || (r->exited && r->exit_code == SANITIZE_ERROR_EXIT)) {
		json_object_set_new(v, "passed", json_false());
	} else {
		json_object_set_new(v, "passed", json_true());
	}
	if (len > REPORT_MAX) {
		/* keep the head (first errors) and the tail (the summary) */
		struct strbuf cut = STRBUF_INIT;
		strbuf_add(&cut, out, REPORT_MAX / 2);
		strbuf_addf(&cut, "\n[... %zu bytes cut ...]\n", len - REPORT_MAX);
		strbuf_add(&cut, out + len - REPORT_MAX / 2, REPORT_MAX / 2);
		json_object_set_new(v, "report", report_json(cut.buf, cut.len));
		json_object_set_new(v, "report_truncated", json_true());
		strbuf_release(&cut);
	} else {
		json_object_set_new(v, "report", report_json(out ? out : "", out ? len : 0));
	}
	strbuf_release(&how);
}

void sanitize_judge_ran(json_t *v, const struct sanitize_window *w, long long ran)
{
	json_t *jw = json_object_get(v, "window");
	if (jw)
		json_object_set_new(jw, "ran", json_integer((json_int_t)ran));
	long long end = w->count ? w->skip + w->count : w->of;
	if (ran >= end || json_is_false(json_object_get(v, "passed")))
		return;
	char *r = xstrfmt("the sanitized run made %lld of the kernel's launches, fewer than the %lld its "
			  "window needs (launches %lld to %lld): the window was not all watched",
			  ran, end, w->skip, end - 1);
	json_object_set_new(v, "passed", json_null());
	json_object_set_new(v, "reason", json_string(r));
	free(r);
}

void sanitize_judge_output(json_t *v, int ok, long long checks, const char *why)
{
	json_t *o = json_pack("{s:b, s:I}", "passed", ok, "checks", (json_int_t)checks);
	if (!ok && why)
		json_object_set_new(o, "reason", json_string(why));
	json_object_set_new(v, "output", o);
	if (ok)
		return;
	/* the run the tool watched must be the code that is judged: a run
	 * that computed nothing, or something else, watched nothing of it
	 * (red team 56's empty: launch() enqueued nothing when not captured) */
	const char *had = json_string_value(json_object_get(v, "reason"));
	char *r = xstrfmt("the sanitized run's output was not right (%s)%s%s", why ? why : "no output judged",
			  had ? "; " : "", had ? had : "");
	/* a tool that gave no verdict (no summary, timed out) stays without
	 * one (null: not passed either); a verdict it gave is false */
	if (!json_is_null(json_object_get(v, "passed")))
		json_object_set_new(v, "passed", json_false());
	json_object_set_new(v, "reason", json_string(r));
	free(r);
}

int sanitize_run(const char *tool, const char *const *worker_argv, const struct sandbox *sb,
		 const char *const *ro_files, double timeout_s, json_t **verdict)
{
	char **boxed = NULL;
	int filter_fd = -1;
	struct sandbox_files files = { 0 };
	char *cs;
	const char **argv;
	struct strbuf out = STRBUF_INIT;
	struct run_opts o;
	struct run_result r;
	json_t *v;

	*verdict = NULL;
	if (!sanitize_tool_known(tool))
		return error("unknown sanitizer tool '%s' (use memcheck, racecheck, initcheck or synccheck)",
			     tool ? tool : "");
	v = json_pack("{s:s}", "tool", tool);
	*verdict = v;
	cs = sanitize_find_tool();
	if (!cs) {
		json_object_set_new(v, "passed", json_null());
		json_object_set_new(v, "errors", json_null());
		json_object_set_new(v, "reason",
				    json_string("compute-sanitizer not found (looked in $CUDA_HOME/bin, "
						"PATH and /usr/local/cuda/bin)"));
		return 0;
	}
	argv = sanitize_argv(cs, tool, worker_argv, 0, NULL);

	memset(&o, 0, sizeof(o));
	memset(&r, 0, sizeof(r));
	o.argv = argv;
	if (sb && sb->on) {
		/* compute-sanitizer starts the worker itself: the sanitizer's
		 * box (processes allowed, all inside its PID namespace; no
		 * change of a file's times, mode, owner or xattrs) */
		boxed = sandbox_wrap(sb, SANDBOX_SANITIZER, argv, ro_files, &files, &filter_fd);
		if (!boxed || sandbox_files_pass(&files, o.pass_fd, o.pass_fd_at, 1, RUN_MAX_PASS_FD) < 0) {
			json_object_set_new(v, "passed", json_null());
			json_object_set_new(v, "errors", json_null());
			json_object_set_new(v, "reason", json_string("the sanitizer's box could not be set up"));
			goto done;
		}
		o.argv = (const char *const *)boxed;
		o.pass_fd[0] = filter_fd;
		o.pass_fd_at[0] = SANDBOX_SECCOMP_FD;
		o.signal_in_exit_code = 1;
		o.env_keep = sandbox_env_keep(sb);
	}
	o.timeout_s = timeout_s;
	o.oom_score_adj = SANDBOX_OOM_SCORE_ADJ;
	o.no_core = 1;
	o.kill_box = sb && sb->on;
	/* a bare run (the runner's jobs go through run/job.c, which speaks
	 * the worker's protocol and judges its output): the channel is only
	 * drained */
	o.on_chan = drain_channel;
	int answered = 0;
	o.ctx = &answered;
	o.merge_stderr = 1;
	o.out = &out;
	if (run_command(&o, &r)) {
		json_object_set_new(v, "passed", json_null());
		json_object_set_new(v, "errors", json_null());
		json_object_set_new(v, "reason", json_string("compute-sanitizer could not be started"));
		goto done;
	}
	sanitize_judge_run(v, argv, strbuf_str(&out), out.len, &r);
done:
	strbuf_release(&out);
	sandbox_argv_free(boxed);
	sandbox_files_close(&files);
	if (filter_fd >= 0)
		close(filter_fd);
	free(argv);
	free(cs);
	return 0;
}
