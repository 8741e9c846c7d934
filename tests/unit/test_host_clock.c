/*
 * test_host_clock.c - the host samples' freeze (run/host_clock.c,
 * host_clock_freeze): how it knows a stopped worker's run time is final
 * is the worker's own business, never the runner's.  A worker whose
 * group leader ended as a thread (a zombie: its wchan reads "0" for good)
 * is frozen without waiting on the zombie, and a worker frozen after it
 * is still frozen by the off-CPU rule (red team 6, zombie_lead: the rule
 * was muted by a static for every later variant of the runner).
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <pthread.h>
#include <signal.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "run/run_ctx.h"

static void *idle(void *arg)
{
	(void)arg;
	for (;;)
		pause();
	return NULL;
}

/* A child that sleeps in pause(); with zombie_leader its main thread ends
 * (SYS_exit) once a second thread sleeps instead.  Its pid. */
static pid_t spawn(int zombie_leader)
{
	int p[2];
	assert_int_equal(pipe(p), 0);
	pid_t pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		close(p[0]);
		alarm(30);
		if (zombie_leader) {
			pthread_t t;
			if (pthread_create(&t, NULL, idle, NULL) != 0)
				_exit(2);
		}
		if (write(p[1], "r", 1) != 1)
			_exit(2);
		if (zombie_leader)
			syscall(SYS_exit, 0);
		idle(NULL);
		_exit(0);
	}
	close(p[1]);
	char c;
	assert_int_equal(read(p[0], &c, 1), 1);
	close(p[0]);
	struct timespec ts = { 0, 50 * 1000 * 1000 }; /* the leader has ended */
	nanosleep(&ts, NULL);
	return pid;
}

static int has_wchan(void)
{
	char buf[64];
	return read_small("/proc/self/wchan", buf, sizeof(buf)) >= 0;
}

static void reap(pid_t pid)
{
	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
}

static void test_zombie_leader(void **state)
{
	(void)state;
	if (!has_wchan())
		skip();
	pid_t z = spawn(1);
	struct host_clock hc;
	memset(&hc, 0, sizeof(hc));
	hc.pid = z;
	/* asserted once the child is gone: a failure must not leave it stopped */
	int rc[4];
	double took[4];
	for (int i = 0; i < 4; i++) {
		double t0 = mono_now();
		rc[i] = host_clock_freeze(&hc);
		took[i] = mono_now() - t0;
		kill(z, SIGCONT);
	}
	reap(z);
	for (int i = 0; i < 4; i++) {
		assert_int_equal(rc[i], 0);
		/* the zombie's "0" is not a thread still on the CPU: no 0.2 s wait */
		assert_true(took[i] < 0.15);
	}
	assert_int_equal(hc.wchan_mute, 0);
	assert_int_equal(hc.freezes[0], 4);

	/* the next worker: frozen by the off-CPU rule, whatever came before */
	pid_t h = spawn(0);
	struct host_clock h2;
	memset(&h2, 0, sizeof(h2));
	h2.pid = h;
	int r2 = host_clock_freeze(&h2);
	reap(h);
	assert_int_equal(r2, 0);
	assert_int_equal(h2.freezes[0], 1);
	assert_int_equal(h2.freezes[1], 0);
}

/* A worker whose wchan stays "0" mutes the rule for itself only. */
static void test_mute_is_per_worker(void **state)
{
	(void)state;
	if (!has_wchan())
		skip();
	struct host_clock a;
	memset(&a, 0, sizeof(a));
	a.wchan_mute = 1;
	pid_t h = spawn(0);
	struct host_clock b;
	memset(&b, 0, sizeof(b));
	b.pid = h;
	int r = host_clock_freeze(&b);
	reap(h);
	assert_int_equal(r, 0);
	assert_int_equal(b.freezes[0], 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_zombie_leader),
		cmocka_unit_test(test_mute_is_per_worker),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
