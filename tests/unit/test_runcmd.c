/*
 * test_runcmd.c - unit tests of process spawning: output capture, exit
 * codes, signals, timeouts (the whole process group dies), exec failure
 * reported on the close-on-exec pipe, and line callbacks; the core limit,
 * a box's pid 1 killed with the child, the time limit after the child
 * shut its output, an answer into a pipe the child filled, a killed
 * child's last output kept.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "base/runcmd.h"

static void test_capture_and_exit(void **state)
{
	(void)state;
	const char *argv[] = { "sh", "-c", "echo out; echo err >&2; exit 3", NULL };
	struct strbuf out = STRBUF_INIT, err = STRBUF_INIT;
	struct run_opts o = { .argv = argv, .out = &out, .err = &err, .timeout_s = 10 };
	struct run_result r;
	assert_int_equal(run_command(&o, &r), 0);
	assert_true(r.started && r.exited);
	assert_int_equal(r.exit_code, 3);
	assert_string_equal(out.buf, "out\n");
	assert_string_equal(err.buf, "err\n");
	strbuf_release(&out);
	strbuf_release(&err);
}

/* env_keep: only the admitted variables reach the child (exact names and
 * "PREFIX*", less "!NAME"), env_set still adds; without it the child gets
 * everything. */
static void test_env_keep(void **state)
{
	(void)state;
	setenv("RT3_KEEP_A", "a", 1);
	setenv("RT3_KEEPX", "x", 1);
	setenv("RT3_DROP", "secret", 1);
	setenv("RT3_EXACT", "e", 1);
	setenv("RT3_EXACTLY", "no", 1);
	const char *argv[] = { "sh", "-c", "env | grep '^RT3_' | sort", NULL };
	const char *keep[] = { "PATH", "RT3_KEEP*", "RT3_EXACT", NULL };
	const char *set[] = { "RT3_SET=s", NULL };
	struct strbuf out = STRBUF_INIT;
	struct run_opts o = { .argv = argv, .out = &out, .timeout_s = 10, .env_keep = keep, .env_set = set };
	struct run_result r;
	assert_int_equal(run_command(&o, &r), 0);
	assert_true(r.exited && r.exit_code == 0);
	assert_string_equal(out.buf, "RT3_EXACT=e\nRT3_KEEPX=x\nRT3_KEEP_A=a\nRT3_SET=s\n");
	strbuf_reset(&out);
	o.env_keep = NULL;
	o.env_set = NULL;
	assert_int_equal(run_command(&o, &r), 0);
	assert_non_null(strstr(out.buf, "RT3_DROP=secret\n"));
	/* "!NAME" refuses NAME whatever admits it (sandbox.c: EVIDENT_STORE,
	 * red team 222), and only NAME */
	const char *keep2[] = { "!RT3_KEEPX", "RT3_KEEP*", NULL };
	o.env_keep = keep2;
	strbuf_reset(&out);
	assert_int_equal(run_command(&o, &r), 0);
	assert_string_equal(out.buf, "RT3_KEEP_A=a\n");
	strbuf_release(&out);
	unsetenv("RT3_KEEP_A");
	unsetenv("RT3_KEEPX");
	unsetenv("RT3_DROP");
	unsetenv("RT3_EXACT");
	unsetenv("RT3_EXACTLY");
}

/* oom_score_adj: set in the child before exec (the OOM killer's first
 * choice); 0 leaves the parent's. */
static void test_oom_score_adj(void **state)
{
	(void)state;
	const char *argv[] = { "cat", "/proc/self/oom_score_adj", NULL };
	struct strbuf out = STRBUF_INIT;
	struct run_opts o = { .argv = argv, .out = &out, .timeout_s = 10, .oom_score_adj = 1000 };
	struct run_result r;
	assert_int_equal(run_command(&o, &r), 0);
	assert_true(r.exited && r.exit_code == 0);
	assert_string_equal(out.buf, "1000\n");
	strbuf_release(&out);
}

/* no_core: RLIMIT_CORE 1, soft and hard, which the child cannot raise
 * (red team 4, core_raise): 1, the value a core_pattern pipe handler
 * honours too (red team 46; 0 it ignores), and RLIMIT_RTPRIO and
 * RLIMIT_NICE 0 */
static void test_no_core(void **state)
{
	(void)state;
	const char *argv[] = { "sh", "-c",
			       "grep '^Max core file size' /proc/self/limits | tr -s ' '; ulimit -S -c unlimited 2>/dev/null && "
			       "echo raised", NULL };
	struct strbuf out = STRBUF_INIT;
	struct run_opts o = { .argv = argv, .out = &out, .timeout_s = 10, .no_core = 1 };
	struct run_result r;
	assert_int_equal(run_command(&o, &r), 0);
	assert_string_equal(out.buf, "Max core file size 1 1 bytes \n");
	/* and no real-time class or lower nice, soft and hard (red team 8) */
	const char *argv2[] = { "sh", "-c", "grep -E '^Max (realtime|nice) priority' /proc/self/limits | tr -s ' '",
				NULL };
	strbuf_reset(&out);
	o.argv = argv2;
	assert_int_equal(run_command(&o, &r), 0);
	assert_string_equal(out.buf, "Max nice priority 0 0 \nMax realtime priority 0 0 \n");
	strbuf_release(&out);
}

/* no_aslr: the child and what it execs have a fixed address layout (a
 * sealed kernel's planner: red team 53's pad1) */
static void test_no_aslr(void **state)
{
	(void)state;
	const char *argv[] = { "cat", "/proc/self/personality", NULL };
	struct strbuf out = STRBUF_INIT;
	struct run_opts o = { .argv = argv, .out = &out, .timeout_s = 10, .no_aslr = 1 };
	struct run_result r;
	assert_int_equal(run_command(&o, &r), 0);
	assert_string_equal(out.buf, "00040000\n");
	strbuf_reset(&out);
	o.no_aslr = 0;
	assert_int_equal(run_command(&o, &r), 0);
	assert_string_equal(out.buf, "00000000\n");
	strbuf_release(&out);
}

/* Is pid gone (or a zombie), within 5 s? */
static int gone(int pid)
{
	for (int tries = 0; tries < 500; tries++) {
		char path[64], st[256] = "";
		snprintf(path, sizeof(path), "/proc/%d/stat", pid);
		FILE *f = fopen(path, "r");
		if (!f)
			return 1;
		if (!fgets(st, sizeof(st), f))
			st[0] = '\0';
		fclose(f);
		char *close_paren = strrchr(st, ')');
		if (!close_paren || close_paren[2] == 'Z' || close_paren[2] == 'X')
			return 1;
		usleep(10000);
	}
	return 0;
}

/* kill_box: the child's one child runs in a session of its own (as the
 * box's pid 1 does under bubblewrap --new-session), out of the child's
 * process group; killing the child must kill it first (red team 4,
 * outlive: it lived on after the runner killed bubblewrap) */
static void test_kill_box(void **state)
{
	(void)state;
	for (int box = 0; box <= 1; box++) {
		const char *argv[] = { "sh", "-c", "setsid sleep 30 & echo $!; wait", NULL };
		struct strbuf out = STRBUF_INIT;
		struct run_opts o = { .argv = argv, .out = &out, .timeout_s = 0.5, .kill_box = box };
		struct run_result r;
		assert_int_equal(run_command(&o, &r), 0);
		assert_true(r.timed_out);
		int pid = atoi(out.buf);
		assert_true(pid > 0);
		if (!box) { /* the case kill_box is for: it outlives the group's kill */
			usleep(200000);
			assert_int_equal(kill(pid, 0), 0);
			kill(pid, SIGKILL);
		} else {
			assert_true(gone(pid));
			/* the kill waited for the box to be gone, and says how
			 * long that took (red team 45: a box freeing its memory
			 * ran on into the next job) */
			assert_true(r.box_exit_s >= 0 && r.box_exit_s < RUN_BOX_EXIT_MAX_S);
			assert_false(r.box_exit_late);
		}
		if (!box)
			assert_true(r.box_exit_s < 0); /* no box: nothing measured */
		strbuf_release(&out);
	}
}

/* the child fills the pipe of its answers itself (its fd 4 reopened for
 * writing) and asks for one: the parent's answer fails at once with
 * EAGAIN instead of blocking past the time limit (red team 5,
 * pipe_block: a blocking write hung the runner until it was killed) */
struct full_pipe {
	int calls, rc, err;
};

static int answer_once(const char *buf, size_t n, int reply_fd, void *ctx)
{
	(void)buf;
	(void)n;
	struct full_pipe *f = ctx;
	if (f->calls++)
		return 0;
	f->rc = (int)write(reply_fd, "g", 1);
	f->err = errno;
	return f->rc < 0 ? -1 : 0;
}

static void test_answer_pipe_full(void **state)
{
	(void)state;
	/* head blocks once the pipe is full, whatever its size; then the
	 * line on fd 3 asks for an answer */
	const char *argv[] = { "sh", "-c",
			       "timeout 15 head -c 4194304 /dev/zero >/proc/self/fd/4 2>/dev/null & "
			       "sleep 0.3; echo x >&3; sleep 30",
			       NULL };
	struct strbuf out = STRBUF_INIT;
	struct full_pipe f = { 0, 0, 0 };
	struct run_opts o = { .argv = argv, .out = &out, .timeout_s = 10, .on_chan = answer_once, .ctx = &f };
	struct run_result r;
	alarm(20); /* a blocking write would hang the test: SIGALRM fails it */
	assert_int_equal(run_command(&o, &r), 0);
	alarm(0);
	assert_int_equal(f.calls, 1);
	assert_int_equal(f.rc, -1);
	assert_int_equal(f.err, EAGAIN);
	assert_true(r.killed_by_parent);
	assert_false(r.timed_out);
	strbuf_release(&out);
}

/* on_chan kills the child while the parent is busy (as a host worker's
 * timed samples keep it in on_chan): what the child wrote on stderr in
 * the meantime is still kept (red team 5, pipe_block's last words were
 * lost from its log) */
static int kill_later(const char *buf, size_t n, int reply_fd, void *ctx)
{
	(void)buf;
	(void)n;
	(void)reply_fd;
	(void)ctx;
	usleep(400000);
	return -1;
}

static void test_last_words(void **state)
{
	(void)state;
	const char *argv[] = { "sh", "-c", "echo x >&3; sleep 0.1; echo last words >&2; sleep 30", NULL };
	struct strbuf out = STRBUF_INIT, err = STRBUF_INIT;
	struct run_opts o = { .argv = argv, .out = &out, .err = &err, .timeout_s = 10, .on_chan = kill_later };
	struct run_result r;
	assert_int_equal(run_command(&o, &r), 0);
	assert_true(r.killed_by_parent);
	assert_non_null(strstr(strbuf_str(&err), "last words"));
	strbuf_release(&out);
	strbuf_release(&err);
}

/* the parent's read end of the channel is non-blocking: the child can
 * reopen its fd 3 for reading and take back the bytes that woke the
 * parent's poll, and a blocking read() then waited past every limit
 * (red team 5, chan_steal) */
static int chan_flags = -1;

static void note_chan(int pid, int chan_fd, void *ctx)
{
	(void)pid;
	(void)ctx;
	chan_flags = fcntl(chan_fd, F_GETFL);
}

static int chan_ok(const char *buf, size_t n, int reply_fd, void *ctx)
{
	(void)buf;
	(void)n;
	(void)reply_fd;
	(void)ctx;
	return 0;
}

static void test_chan_nonblocking(void **state)
{
	(void)state;
	const char *argv[] = { "sh", "-c", "echo x >&3", NULL };
	struct strbuf out = STRBUF_INIT;
	struct run_opts o = { .argv = argv, .out = &out, .timeout_s = 10, .on_chan = chan_ok, .on_start = note_chan };
	struct run_result r;
	assert_int_equal(run_command(&o, &r), 0);
	assert_true(chan_flags >= 0);
	assert_true(chan_flags & O_NONBLOCK);
	strbuf_release(&out);
}

/* a child that shut its stdout and stderr and goes on is still held to
 * the time limit (before, the parent waited for it without one) */
static void test_timeout_after_close(void **state)
{
	(void)state;
	const char *argv[] = { "sh", "-c", "exec >&- 2>&-; sleep 30", NULL };
	struct strbuf out = STRBUF_INIT;
	struct run_opts o = { .argv = argv, .out = &out, .timeout_s = 0.5 };
	struct run_result r;
	assert_int_equal(run_command(&o, &r), 0);
	assert_true(r.timed_out);
	assert_true(r.seconds < 5);
	strbuf_release(&out);
}

/* on_chan's 1: the child's job is over (a worker's done, a planner's
 * plan).  It gets end_grace_s to end by itself, then is killed, which is
 * no crash and no timeout (red team 13: rt13_slot_hog's planner ran 12 s
 * after its plan); one that ends in time is left alone */
static int over_at_first(const char *buf, size_t n, int reply_fd, void *ctx)
{
	(void)buf;
	(void)n;
	(void)reply_fd;
	(void)ctx;
	return 1;
}

/* on_end_kill: counts its calls, and whether the child was still there */
struct end_kill_seen {
	int calls, pid, alive;
};
static void on_start_pid(int pid, int chan_fd, void *ctx)
{
	(void)chan_fd;
	((struct end_kill_seen *)ctx)->pid = pid;
}
static void saw_end_kill(void *ctx)
{
	struct end_kill_seen *e = ctx;
	e->calls++;
	e->alive = e->pid > 0 && kill(e->pid, 0) == 0;
}

static void test_end_grace(void **state)
{
	(void)state;
	const char *argv[] = { "sh", "-c", "echo done >&3; exec 3>&- 1>&- 2>&-; sleep 30", NULL };
	struct strbuf out = STRBUF_INIT;
	struct end_kill_seen seen = { 0, 0, 0 };
	struct run_opts o = { .argv = argv, .out = &out, .timeout_s = 20, .on_chan = over_at_first,
			      .end_grace_s = 0.3, .on_end_kill = saw_end_kill, .on_start = on_start_pid, .ctx = &seen };
	struct run_result r;
	assert_int_equal(run_command(&o, &r), 0);
	assert_true(r.killed_at_end);
	assert_false(r.end_no_grace);
	/* the hook ran once, before the kill (job.c reads the worker's CPU there) */
	assert_int_equal(seen.calls, 1);
	assert_true(seen.alive);
	assert_false(r.timed_out);
	assert_false(r.signaled);
	assert_false(r.killed_by_parent);
	assert_true(r.end_seconds > 0);
	assert_true(r.seconds < 5);
	/* grace 0 (a planner): killed at once, its output still open */
	const char *argv0[] = { "sh", "-c", "echo plan >&3; sleep 30", NULL };
	o.argv = argv0;
	o.end_grace_s = 0;
	assert_int_equal(run_command(&o, &r), 0);
	assert_true(r.killed_at_end);
	assert_true(r.end_no_grace);
	assert_true(r.seconds < 5);
	struct strbuf how = STRBUF_INIT;
	run_result_describe(&r, &how);
	assert_string_equal(how.buf, "killed at its last message (it has no grace after it)");
	strbuf_release(&how);
	/* one that ends within its grace: exited, not killed */
	const char *argv1[] = { "sh", "-c", "echo done >&3; sleep 0.1; exit 0", NULL };
	o.argv = argv1;
	o.end_grace_s = 5;
	assert_int_equal(run_command(&o, &r), 0);
	assert_false(r.killed_at_end);
	assert_true(r.exited);
	assert_int_equal(r.exit_code, 0);
	strbuf_release(&out);
}

/* run_child_pid finds a process's one child */
static void test_child_pid(void **state)
{
	(void)state;
	pid_t c = fork();
	assert_true(c >= 0);
	if (c == 0) {
		pid_t g = fork();
		if (g == 0) {
			sleep(30);
			_exit(0);
		}
		sleep(30);
		_exit(0);
	}
	int g = -1;
	for (int tries = 0; tries < 500 && g <= 0; tries++) {
		g = run_child_pid(c);
		if (g <= 0)
			usleep(10000);
	}
	assert_true(g > 0);
	assert_int_not_equal(g, c);
	kill(g, SIGKILL);
	kill(c, SIGKILL);
	waitpid(c, NULL, 0);
	assert_int_equal(run_child_pid(1 << 22), -1); /* past any pid_max: no such process */
}

static void test_signal(void **state)
{
	(void)state;
	const char *argv[] = { "sh", "-c", "kill -SEGV $$", NULL };
	struct run_opts o = { .argv = argv, .timeout_s = 10 };
	struct run_result r;
	assert_int_equal(run_command(&o, &r), 0);
	assert_true(r.signaled);
	assert_int_equal(r.signo, SIGSEGV);
	assert_string_equal(signal_name(r.signo), "SIGSEGV");
}

static void test_timeout_kills_group(void **state)
{
	(void)state;
	/* the child starts a grandchild; both must be gone after the timeout */
	const char *argv[] = { "sh", "-c", "sleep 30 & echo $!; wait", NULL };
	struct strbuf out = STRBUF_INIT;
	struct run_opts o = { .argv = argv, .out = &out, .timeout_s = 0.3 };
	struct run_result r;
	assert_int_equal(run_command(&o, &r), 0);
	assert_true(r.timed_out);
	assert_true(r.seconds < 5);
	int pid = atoi(out.buf);
	assert_true(pid > 0);
	/* the grandchild dies: gone, or a zombie waiting for init to reap it.
	 * SIGKILL is delivered asynchronously, so allow it up to 5 s. */
	int dead = 0;
	for (int tries = 0; tries < 500 && !dead; tries++) {
		char path[64], st[256] = "";
		snprintf(path, sizeof(path), "/proc/%d/stat", pid);
		FILE *f = fopen(path, "r");
		if (!f) {
			dead = 1;
			break;
		}
		if (!fgets(st, sizeof(st), f))
			st[0] = '\0';
		fclose(f);
		char *close_paren = strrchr(st, ')');
		dead = !close_paren || close_paren[2] == 'Z' || close_paren[2] == 'X';
		if (!dead)
			usleep(10000);
	}
	assert_true(dead);
	strbuf_release(&out);
}

static void test_exec_failure(void **state)
{
	(void)state;
	const char *argv[] = { "/nonexistent/program", NULL };
	struct run_opts o = { .argv = argv };
	struct run_result r;
	util_quiet = 1;
	assert_int_equal(run_command(&o, &r), -1);
	util_quiet = 0;
	assert_false(r.started);
	assert_int_equal(r.exec_errno, ENOENT);
}

static void count_line(const char *line, void *ctx)
{
	int *n = ctx;
	if (!strncmp(line, "line", 4))
		(*n)++;
}

static void test_lines(void **state)
{
	(void)state;
	const char *argv[] = { "sh", "-c", "for i in 1 2 3 4 5; do echo line$i; done; printf line6", NULL };
	int n = 0;
	struct run_opts o = { .argv = argv, .on_line = count_line, .ctx = &n, .timeout_s = 10 };
	struct run_result r;
	assert_int_equal(run_command(&o, &r), 0);
	assert_int_equal(n, 6); /* the last, unterminated line too */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_capture_and_exit),
		cmocka_unit_test(test_env_keep),
		cmocka_unit_test(test_oom_score_adj),
		cmocka_unit_test(test_no_core),
		cmocka_unit_test(test_no_aslr),
		cmocka_unit_test(test_kill_box),
		cmocka_unit_test(test_timeout_after_close),
		cmocka_unit_test(test_child_pid),
		cmocka_unit_test(test_signal),
		cmocka_unit_test(test_timeout_kills_group),
		cmocka_unit_test(test_exec_failure),
		cmocka_unit_test(test_lines),
		cmocka_unit_test(test_answer_pipe_full),
		cmocka_unit_test(test_last_words),
		cmocka_unit_test(test_chan_nonblocking),
		cmocka_unit_test(test_end_grace),
	};
	return cmocka_run_group_tests_name("runcmd", tests, NULL, NULL);
}
