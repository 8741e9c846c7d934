/*
 * test_host_clock.c - the host samples' freeze (run/host_clock.c,
 * host_clock_freeze): how it knows a stopped worker's run time is final
 * is the worker's own business, never the runner's.  A worker whose
 * group leader ended as a thread (a zombie: its wchan reads "0" for good)
 * is frozen without waiting on the zombie, and a worker frozen after it
 * is still frozen by the off-CPU rule (red team 6, zombie_lead: the rule
 * was muted by a static for every later variant of the runner).  A
 * worker that cannot be stopped (a thread held in the kernel) is waited
 * for no longer than the job's deadline (red team 6, left open: up to 2 s
 * past it).  Threads are counted however many there are: a list cut at
 * 256 missed the thread a launch started after 300 made in init (red team
 * 6, left open: threads_delta).
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <math.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "backends/protocol.h"
#include "run/run_ctx.h"
#include "run/percpu.h"

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

/*
 * A child whose only thread sleeps where SIGSTOP cannot stop it: the
 * parent of a vfork waits for its child uninterruptibly (state D, killable
 * only), here for 3 s.  Its pid.
 */
static pid_t spawn_unstoppable(void)
{
	int p[2];
	assert_int_equal(pipe(p), 0);
	pid_t pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		close(p[0]);
		alarm(30);
		if (write(p[1], "r", 1) != 1)
			_exit(2);
		pid_t v = vfork();
		if (v == 0) {
			struct timespec ts = { 3, 0 };
			nanosleep(&ts, NULL);
			_exit(0);
		}
		_exit(0);
	}
	close(p[1]);
	char c;
	assert_int_equal(read(p[0], &c, 1), 1);
	close(p[0]);
	struct timespec ts = { 0, 50 * 1000 * 1000 }; /* in its vfork */
	nanosleep(&ts, NULL);
	return pid;
}

/* The freeze ends at the job's deadline, as a timeout, not 2 s later. */
static void test_freeze_held_to_deadline(void **state)
{
	(void)state;
	pid_t u = spawn_unstoppable();
	struct host_clock hc;
	memset(&hc, 0, sizeof(hc));
	hc.pid = u;
	hc.deadline = mono_now() + 0.3;
	double t0 = mono_now();
	int rc = host_clock_freeze(&hc);
	double took = mono_now() - t0;
	kill(u, SIGKILL); /* its vfork child sleeps out its 3 s and exits, reparented */
	waitpid(u, NULL, 0);
	assert_int_equal(rc, -1);
	assert_int_equal(hc.timed_out, 1);
	assert_true(took < 1.0);
}

static pthread_mutex_t hold_mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t hold_cv = PTHREAD_COND_INITIALIZER;
static int hold_done;

static void *held(void *arg)
{
	(void)arg;
	pthread_mutex_lock(&hold_mu);
	while (!hold_done)
		pthread_cond_wait(&hold_cv, &hold_mu);
	pthread_mutex_unlock(&hold_mu);
	return NULL;
}

/* 300 threads, then one more: the one more is new, whatever the count. */
static void test_threads_counted_exactly(void **state)
{
	(void)state;
	enum { MANY = 300 };
	static pthread_t t[MANY + 1];
	pthread_attr_t at;
	pthread_attr_init(&at);
	pthread_attr_setstacksize(&at, 64 * 1024);
	for (int i = 0; i < MANY; i++)
		assert_int_equal(pthread_create(&t[i], &at, held, NULL), 0);
	int *before = NULL, *after = NULL;
	size_t bc = 0, ac = 0;
	int nb = host_clock_threads(getpid(), &before, &bc);
	assert_int_equal(pthread_create(&t[MANY], &at, held, NULL), 0);
	int na = host_clock_threads(getpid(), &after, &ac);
	int fresh = host_clock_new_threads(before, nb, after, na);
	pthread_mutex_lock(&hold_mu);
	hold_done = 1;
	pthread_cond_broadcast(&hold_cv);
	pthread_mutex_unlock(&hold_mu);
	for (int i = 0; i <= MANY; i++)
		pthread_join(t[i], NULL);
	pthread_attr_destroy(&at);
	free(before);
	free(after);
	assert_int_equal(nb, MANY + 1);
	assert_int_equal(na, MANY + 2);
	assert_int_equal(fresh, 1);
}

/* The ids a sample started, and which of them live at the next freeze
 * (red team 31: a detached helper frozen mid-exit is gone by then, a
 * thread left running, red team 7's thread_crowd, is not). */
static void test_new_thread_ids_fresh_state(void **state)
{
	(void)state;
	const int before[] = { 10, 20, 30 }, after[] = { 10, 15, 20, 25, 30, 35 };
	int ids[6];
	assert_int_equal(host_clock_new_thread_ids(before, 3, after, 6, ids), 3);
	assert_int_equal(ids[0], 15);
	assert_int_equal(ids[1], 25);
	assert_int_equal(ids[2], 35);
	assert_int_equal(host_clock_new_thread_ids(before, 3, after, 6, NULL), 3);
	const int next[] = { 10, 20, 25, 30, 40 }; /* 15 and 35 exited, 25 lives on */
	assert_int_equal(host_clock_fresh_state(15, 1000, 0, next, 5, HOST_FRESH_THREAD_RAN_NS), HOST_FRESH_GONE);
	assert_int_equal(host_clock_fresh_state(35, 1000, 0, next, 5, HOST_FRESH_THREAD_RAN_NS), HOST_FRESH_GONE);
	assert_int_equal(host_clock_fresh_state(25, 1000, 0, next, 0, HOST_FRESH_THREAD_RAN_NS), HOST_FRESH_GONE);
	assert_int_equal(host_clock_fresh_state(40, 1000, 0, next, 5, HOST_FRESH_THREAD_RAN_NS), HOST_FRESH_GONE);
	assert_int_equal(host_clock_fresh_state(40, 1000, 900000, next, 5, HOST_FRESH_THREAD_RAN_NS),
			 HOST_FRESH_WORKED);
	/* ... and counts only if it worked on: 25 alive but asleep (a pool's
	 * helper in its keep-alive, red team 36's lazy_pool) is nothing, 25
	 * having run 60 us is a thread_crowd; one that cannot be read after the
	 * listing is exiting (red team 41) */
	assert_int_equal(host_clock_fresh_state(25, 5000, 5000 + 2000, next, 5, HOST_FRESH_THREAD_RAN_NS),
			 HOST_FRESH_ASLEEP);
	assert_int_equal(host_clock_fresh_state(25, 5000, 5000 + 60000, next, 5, HOST_FRESH_THREAD_RAN_NS),
			 HOST_FRESH_WORKED);
	assert_int_equal(host_clock_fresh_state(25, 5000, 0, next, 5, HOST_FRESH_THREAD_RAN_NS), HOST_FRESH_GONE);
	assert_int_equal(host_clock_fresh_state(25, 5000, 4000, next, 5, HOST_FRESH_THREAD_RAN_NS), HOST_FRESH_WORKED);
}

/* The watch of threads samples started (run_ctx.h host_watch): an idle
 * thread's few microseconds a freeze never add up (each interval on its
 * own: red team 7's thread_crowd, 10 us a freeze for 20 freezes); one that
 * works in a later sample, not the next, counts for its own sample (CI's
 * crowd_work at load 105); decoys past the watch's size count (red team
 * 41's watch_evict); one asleep through HOST_FRESH_WATCH_SAMPLES leaves. */
static void test_fresh_watch(void **state)
{
	(void)state;
	struct proto_sample smp[200];
	memset(smp, 0, sizeof(smp));
	struct host_watch w = { 0 };
	int ids[2] = { 100, 200 }, now[2] = { 100, 200 };
	unsigned long long ns[2] = { 1000, 1000 };
	host_watch_add(&w, ids, ns, 2, 0, smp);
	for (int f = 1; f <= 20; f++) {
		unsigned long long cur[2] = { 1000 + 10000ull * f, f < 5 ? 1000 : 1000 + 400000 };
		host_watch_judge(&w, cur, now, 2, (size_t)f, smp);
	}
	assert_int_equal(smp[0].threads_delta, 1); /* 200 worked at freeze 5, 100 never did */
	assert_int_equal((int)w.n, 1);
	/* 100 leaves, uncounted, once it has slept through the watch's samples */
	unsigned long long cur1[1] = { 1000 + 10000ull * 21 };
	host_watch_judge(&w, cur1, now, 2, HOST_FRESH_WATCH_SAMPLES, smp);
	assert_int_equal((int)w.n, 0);
	assert_int_equal(smp[0].threads_delta, 1);
	/* decoys: more than the watch holds; the ones pushed out count */
	int many[HOST_FRESH_WATCH_MAX + 3];
	unsigned long long mns[HOST_FRESH_WATCH_MAX + 3];
	for (int k = 0; k < HOST_FRESH_WATCH_MAX + 3; k++)
		many[k] = 1000 + k, mns[k] = 5;
	host_watch_add(&w, many, mns, 10, 1, smp);
	host_watch_add(&w, many + 10, mns, HOST_FRESH_WATCH_MAX - 7, 2, smp);
	assert_int_equal(smp[1].threads_delta, 3); /* sample 1's oldest three pushed out */
	assert_int_equal(smp[2].threads_delta, 0);
	assert_int_equal((int)w.n, HOST_FRESH_WATCH_MAX);
	host_watch_free(&w);
	host_watch_add(&w, many, mns, HOST_FRESH_WATCH_MAX + 3, 3, smp);
	assert_int_equal(smp[3].threads_delta, 3); /* one sample's own past the watch */
	host_watch_free(&w);
}

static void *park(void *arg)
{
	int *fd = arg;
	char c;
	(void)!read(*fd, &c, 1);
	return NULL;
}

/* The floor's CPUs (host_clock_worker_cpus): the runner's where any
 * thread may use them all or a thread of the go's listing is gone; the
 * union of the threads' sets where every one is narrowed (red team 193's
 * pinlate: a worker on one CPU of two, its helper's copy after the done
 * line divided by 2). */
static void test_worker_cpus(void **state)
{
	(void)state;
	cpu_set_t own;
	assert_int_equal(sched_getaffinity(0, sizeof(own), &own), 0);
	int cpus = CPU_COUNT(&own);
	if (cpus < 2) {
		print_message("skip: test_worker_cpus needs 2 CPUs in this process's affinity, it has %d\n", cpus);
		return;
	}
	int first = -1;
	for (int c = 0; c < CPU_SETSIZE && first < 0; c++)
		if (CPU_ISSET(c, &own))
			first = c;
	int pfd[2];
	assert_int_equal(pipe(pfd), 0);
	pthread_t t;
	assert_int_equal(pthread_create(&t, NULL, park, &pfd[0]), 0);
	int *ids = NULL;
	size_t cap = 0;
	int n = 0;
	for (int tries = 0; tries < 1000 && (n = host_clock_threads(getpid(), &ids, &cap)) < 2; tries++)
		usleep(1000);
	assert_true(n >= 2);
	assert_int_equal(host_clock_worker_cpus(ids, NULL, n, ids, n, cpus, NULL), cpus);
	/* one thread narrowed, the other still wide: the runner's */
	cpu_set_t one;
	CPU_ZERO(&one);
	CPU_SET(first, &one);
	assert_int_equal(pthread_setaffinity_np(t, sizeof(one), &one), 0);
	assert_int_equal(host_clock_worker_cpus(ids, NULL, n, ids, n, cpus, NULL), cpus);
	/* every thread on one CPU: 1 */
	cpu_set_t mine;
	assert_int_equal(sched_getaffinity(0, sizeof(mine), &mine), 0);
	for (int i = 0; i < n; i++)
		assert_int_equal(sched_setaffinity(ids[i], sizeof(one), &one), 0);
	assert_int_equal(host_clock_worker_cpus(ids, NULL, n, ids, n, cpus, NULL), 1);
	/* and its set is that CPU (the waits' cap sums others' run time there) */
	cpu_set_t got;
	CPU_ZERO(&got);
	assert_int_equal(host_clock_worker_cpus(ids, NULL, n, ids, n, cpus, &got), 1);
	assert_true(CPU_EQUAL(&got, &one));
	/* a thread of the go's listing gone at the freeze: the runner's */
	int before[64];
	assert_true(n < 63);
	memcpy(before, ids, (size_t)n * sizeof(int));
	before[n] = ids[n - 1] + 1000000; /* a thread no listing has now */
	assert_int_equal(host_clock_worker_cpus(before, NULL, n + 1, ids, n, cpus, NULL), cpus);
	/* ... unless its CPUs at the go were read: one, as the others' (red
	 * team 202's gone.c joined such a thread every launch) */
	cpu_set_t sets[64];
	for (int i = 0; i <= n; i++)
		sets[i] = one;
	assert_int_equal(host_clock_worker_cpus(before, sets, n + 1, ids, n, cpus, NULL), 1);
	/* none listed: the runner's */
	assert_int_equal(host_clock_worker_cpus(ids, NULL, n, ids, 0, cpus, NULL), cpus);
	for (int i = 0; i < n; i++)
		assert_int_equal(sched_setaffinity(ids[i], sizeof(own), &own), 0);
	assert_int_equal(write(pfd[1], "x", 1), 1);
	pthread_join(t, NULL);
	close(pfd[0]);
	close(pfd[1]);
	free(ids);
}

/* Work after the done line: the rule that makes late samples escaped work
 * (run_ctx.h).  A loaded machine's few slow stops in a short honest run
 * are not (make test at load 7 failed honest runs of 8 to 40 samples on
 * one to three); more than a quarter of the samples, and at least three
 * (all of fewer), are (red team 11's vfork_after: every sample). */
static void test_late_rule(void **state)
{
	(void)state;
	/* the per-sample bound: 50 us, or a hundredth of the round trip */
	assert_true(host_clock_late_bound(100.0) == HOST_LATE_CPU_US);
	assert_true(host_clock_late_bound(NAN) == HOST_LATE_CPU_US);
	assert_true(fabs(host_clock_late_bound(35000.0) - 350.0) < 1e-9);
	assert_int_equal(host_clock_late_escaped(0, 8), 0);
	assert_int_equal(host_clock_late_escaped(1, 8), 0);
	assert_int_equal(host_clock_late_escaped(2, 8), 0);
	assert_int_equal(host_clock_late_escaped(3, 8), 0); /* 3 was the floor before HOST_LATE_MIN 5 */
	assert_int_equal(host_clock_late_escaped(4, 8), 0);
	assert_int_equal(host_clock_late_escaped(5, 8), 1); /* five, and over half */
	assert_int_equal(host_clock_late_escaped(4, 6), 0); /* under five: not this rule's (t0121) */
	assert_int_equal(host_clock_late_escaped(3, 20), 0);
	assert_int_equal(host_clock_late_escaped(5, 20), 0);
	assert_int_equal(host_clock_late_escaped(6, 20), 0); /* a quarter no more (VM steal) */
	assert_int_equal(host_clock_late_escaped(11, 20), 1);
	assert_int_equal(host_clock_late_escaped(5, 300), 0);
	assert_int_equal(host_clock_late_escaped(75, 300), 0);
	assert_int_equal(host_clock_late_escaped(149, 300), 0);
	assert_int_equal(host_clock_late_escaped(150, 300), 1); /* exactly half: the median's mean of two (red team 193) */
	assert_int_equal(host_clock_late_escaped(151, 300), 1);
	assert_int_equal(host_clock_late_escaped(300, 300), 1);
	assert_int_equal(host_clock_late_escaped(2, 2), 0);
	assert_int_equal(host_clock_late_escaped(1, 1), 0);
	assert_int_equal(host_clock_late_escaped(1, 2), 0);
	assert_int_equal(host_clock_late_escaped(0, 0), 0);
	/* no busy half any more (red team 18: a kernel raises the load);
	 * 5 of 10 was ok under it, and under "over half" until red team 193 */
	assert_int_equal(host_clock_late_escaped(5, 10), 1);
	assert_int_equal(host_clock_late_escaped(4, 10), 0);
	assert_int_equal(host_clock_late_escaped(10, 20), 1);
	assert_int_equal(host_clock_late_escaped(9, 20), 0);
	assert_int_equal(host_clock_late_escaped(6, 10), 1);
	assert_int_equal(host_clock_late_escaped(3, 10), 0);
}

/* The CPU floor of a sample's time: what it used from go to stop, less
 * the stop's allowance, over the CPUs it may run on; and those CPUs are
 * the runner's affinity (a pinned runner's worker cannot widen it). */
/* the done line's copy: every byte once, whatever the order and the size
 * (a last chunk short, one chunk, many), and two orders that differ */
static void test_snap_copy_orders(void **state)
{
	(void)state;
	const size_t sizes[] = { 0, 1, 4096, 65536, 65537, 3 * 65536 + 100, 40 * 65536, 97 * 65536 + 7 };
	for (size_t si = 0; si < sizeof(sizes) / sizeof(sizes[0]); si++) {
		size_t n = sizes[si];
		unsigned char *src = malloc(n + 1), *dst = malloc(n + 1);
		for (size_t i = 0; i < n; i++)
			src[i] = (unsigned char)(i * 131 + 7);
		for (unsigned long long order = 0; order < 40; order++) {
			unsigned long long o = order * 0x9e3779b97f4a7c15ULL + (order << 32);
			memset(dst, 0, n + 1);
			host_clock_snap_copy(dst, src, n, o);
			assert_memory_equal(dst, src, n);
		}
		free(src);
		free(dst);
	}
}

static void test_cpu_floor(void **state)
{
	(void)state;
	assert_true(host_clock_cpu_floor(500.0, 50.0, 2) == 225.0); /* held_stop: 24 us wall, 500 us of rows */
	assert_true(host_clock_cpu_floor(500.0, 50.0, 1) == 450.0);
	assert_true(host_clock_cpu_floor(40.0, 50.0, 2) < 0); /* an honest tail: never above the wall */
	assert_true(isnan(host_clock_cpu_floor(NAN, 50.0, 2)));
	assert_true(isnan(host_clock_cpu_floor(500.0, NAN, 2)));
	assert_true(isnan(host_clock_cpu_floor(500.0, 50.0, 0)));
	/* a thread made and gone in the sample (red team 260's pinsplit: the
	 * caller on CPU 0, a helper on CPU 1 for 200 us of the 450): what ran
	 * on CPU 1 comes off before the one CPU divides */
	assert_true(host_clock_cpu_floor_gone(500.0, 50.0, 1, 2, 200.0, 0.0, 200.0) == 250.0);
	/* the parent's own CPU, which may have been CPU 1's, is not credited */
	assert_true(host_clock_cpu_floor_gone(500.0, 50.0, 1, 2, 200.0, 150.0, 200.0) == 400.0);
	/* never under the work over every CPU */
	assert_true(host_clock_cpu_floor_gone(500.0, 50.0, 1, 2, 1000.0, 0.0, 500.0) == 225.0);
	/* nothing ran outside: red team 193's narrowing stays charged */
	assert_true(host_clock_cpu_floor_gone(500.0, 50.0, 1, 2, 0.0, 0.0, 200.0) == 450.0);
	assert_true(isnan(host_clock_cpu_floor_gone(500.0, 50.0, 1, 2, NAN, 0.0, 200.0)));
	/* others' load on the other CPU is not the gone thread's work: the
	 * credit stops at what the listed threads did not run (red team 263) */
	assert_true(host_clock_cpu_floor_gone(500.0, 50.0, 1, 2, 5000.0, 0.0, 60.0) == 390.0);
	cpu_set_t all, one;
	assert_int_equal(sched_getaffinity(0, sizeof(all), &all), 0);
	assert_int_equal(host_clock_cpus(), CPU_COUNT(&all));
	int first = 0;
	while (!CPU_ISSET(first, &all))
		first++;
	CPU_ZERO(&one);
	CPU_SET(first, &one);
	assert_int_equal(sched_setaffinity(0, sizeof(one), &one), 0);
	assert_int_equal(host_clock_cpus(), 1);
	assert_int_equal(sched_setaffinity(0, sizeof(all), &all), 0);
}

/* The stress gate's busy time (red team 150's nap): a wait on a runqueue
 * comes off, a sleep does not, and a leader crowded off its CPU by its
 * own threads (their CPU fills the wall) loses nothing */
static void test_busy(void **state)
{
	(void)state;
	assert_true(host_clock_busy(1000.0, 100.0, 900.0) == 100.0); /* preempted: its CPU */
	assert_true(host_clock_busy(1000.0, 100.0, 0.0) == 1000.0);  /* asleep: the wall */
	assert_true(host_clock_busy(1000.0, 100.0, 300.0) == 700.0); /* both */
	assert_true(host_clock_busy(1000.0, 1000.0, 900.0) == 1000.0); /* its own threads ran */
	assert_true(host_clock_busy(1000.0, 4000.0, 900.0) == 1000.0);
	assert_true(isnan(host_clock_busy(1000.0, NAN, 0.0)));
	assert_true(isnan(host_clock_busy(1000.0, 100.0, NAN)));
	assert_true(isnan(host_clock_busy(NAN, 100.0, 0.0)));
}

/* What a sample waited (red teams 197 and 202): the leader's, the other
 * threads' and the parent's waits add up, unread ones left out; the busy
 * cap is the time the worker's CPU did not fill its CPUs (host_clock.c
 * passes cpu_all over the CPUs it may use), so a two-thread kernel whose
 * helper waited 3000 us of a 4000 us sample, each thread running 500 us,
 * keeps 1000 us of its own doing, and three threads crowding two CPUs
 * lose nothing */
static void test_waited(void **state)
{
	(void)state;
	assert_true(host_clock_waited(10.0, 20.0, 5.0) == 35.0);
	assert_true(host_clock_waited(NAN, 20.0, NAN) == 20.0);
	assert_true(host_clock_waited(10.0, NAN, 5.0) == 15.0);
	assert_true(isnan(host_clock_waited(NAN, NAN, NAN)));
	/* the helper's 3000 us wait, the parent's 0, 1000 us of CPU over 2 CPUs */
	assert_true(host_clock_busy(4000.0, 1000.0 / 2, host_clock_waited(0.0, 3000.0, 0.0)) == 1000.0);
	/* side by side: both threads waited 3000, the cap keeps 500 a CPU's worth off */
	assert_true(host_clock_busy(3500.0, 1000.0 / 2, host_clock_waited(3000.0, 3000.0, 0.0)) == 500.0);
	/* crowding itself: 7000 us of CPU in a 3500 us sample on 2 CPUs */
	assert_true(host_clock_busy(3500.0, 7000.0 / 2, host_clock_waited(1000.0, 2000.0, 0.0)) == 3500.0);
}

/* The waits a sample's work takes off (host_clock_wait_credit): at most
 * what others ran on the worker's CPUs.  Red team 220's crowd2: a 10 ms
 * launch, launcher and helper each ran 5 ms on one CPU and waited 5 ms
 * behind the other, the other CPU idle: the CPUs ran 10 ms, all the
 * worker's, and nothing is credited (before: 10 ms of waits, the work
 * read 5 ms).  A load that ran 4 ms there while the leader waited 4 ms:
 * 4 ms credited; the parent's own CPU is not someone else's load. */
static void test_wait_credit(void **state)
{
	(void)state;
	assert_true(host_clock_wait_credit(10000.0, 10000.0, 10000.0, 0.0) == 0.0);
	assert_true(host_clock_wait_credit(10000.0, 10050.0, 10000.0, 50.0) == 0.0);
	assert_true(host_clock_wait_credit(4000.0, 10000.0, 6000.0, 0.0) == 4000.0);
	assert_true(host_clock_wait_credit(4000.0, 10000.0, 6000.0, 1000.0) == 3000.0);
	assert_true(host_clock_wait_credit(1000.0, 10000.0, 6000.0, 0.0) == 1000.0); /* the wait itself */
	/* unread per-CPU run time (the H100 host has no /proc/schedstat and
	 * cgroup v2): every wait credited, the baseline's side uncapped as
	 * before; unread waits: 0 */
	assert_true(host_clock_wait_credit(4000.0, NAN, 6000.0, 0.0) == 4000.0);
	assert_true(host_clock_wait_credit(NAN, 10000.0, 6000.0, 0.0) == 0.0);
	assert_true(host_clock_wait_credit(4000.0, 10000.0, NAN, 0.0) == 4000.0);
	assert_true(host_clock_wait_credit(4000.0, 10000.0, 6000.0, NAN) == 4000.0);
}

/* The per-CPU run time's two sources parse (percpu.c); a schedstat
 * before version 15 or a short cpu line does not. */
static void test_percpu_parse(void **state)
{
	(void)state;
	unsigned long long ns[4] = { 0, 0, 0, 0 };
	const char *ss = "version 15\ntimestamp 4295\n"
			 "cpu0 0 0 10 5 7 3 123456789 555 9\ndomain0 3 1 2 3 4 5 6 7 8 9 10\n"
			 "cpu1 0 0 11 6 8 4 987654321 666 10\ndomain0 3 1 2 3\n";
	assert_int_equal(percpu_parse_schedstat(ss, ns, 4), 2);
	assert_true(ns[0] == 123456789ULL && ns[1] == 987654321ULL);
	assert_int_equal(percpu_parse_schedstat("version 14\ncpu0 0 0 1 2 3 4 5 6 7\n", ns, 4), -1);
	assert_int_equal(percpu_parse_schedstat("version 16\ncpu0 0 0 1 2\n", ns, 4), -1);
	assert_int_equal(percpu_parse_schedstat("version 16\n", ns, 4), -1);
	/* a CPU past n is counted, not stored */
	assert_int_equal(percpu_parse_schedstat("version 17\ncpu9 0 0 1 2 3 4 77 6 7\n", ns, 4), 1);
	memset(ns, 0, sizeof(ns));
	assert_int_equal(percpu_parse_cpuacct("11 22 33 \n", ns, 4), 3);
	assert_true(ns[0] == 11 && ns[1] == 22 && ns[2] == 33 && ns[3] == 0);
	assert_int_equal(percpu_parse_cpuacct("11 x\n", ns, 4), -1);
	assert_int_equal(percpu_parse_cpuacct("\n", ns, 4), -1);
	/* this host's source reads, and the run time over every CPU grows */
	struct percpu *pc = percpu_open();
	print_message("per-CPU run time: %s\n", percpu_source(pc));
	if (strcmp(percpu_source(pc), "none")) {
		cpu_set_t all;
		CPU_ZERO(&all);
		for (int c = 0; c < CPU_SETSIZE; c++)
			CPU_SET(c, &all);
		assert_int_equal(percpu_snap(pc, 0), 0);
		volatile double x = 0;
		for (long i = 0; i < 20000000; i++)
			x += (double)i;
		usleep(20000); /* a switch books the spin (schedstat books at it) */
		assert_int_equal(percpu_snap(pc, 1), 0);
		assert_true(percpu_ran_us(pc, &all) > 1000.0);
	}
	percpu_close(pc);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_zombie_leader),
		cmocka_unit_test(test_mute_is_per_worker),
		cmocka_unit_test(test_freeze_held_to_deadline),
		cmocka_unit_test(test_threads_counted_exactly),
		cmocka_unit_test(test_new_thread_ids_fresh_state),
		cmocka_unit_test(test_fresh_watch),
		cmocka_unit_test(test_late_rule),
		cmocka_unit_test(test_worker_cpus),
		cmocka_unit_test(test_cpu_floor),
		cmocka_unit_test(test_busy),
		cmocka_unit_test(test_waited),
		cmocka_unit_test(test_wait_credit),
		cmocka_unit_test(test_percpu_parse),
		cmocka_unit_test(test_snap_copy_orders),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
