/*
 * host_clock.c - the host backend's timed samples, timed by the parent
 * (contract in run_ctx.h; the worker's side is backend_host.c's
 * parent_timed, the handshake's bytes are worker.h's HOST_*).
 *
 * A host kernel runs on the CPU in the worker, so its process could hold
 * any clock it reports: its own code can rewrite the worker's timer, its
 * messages and its output before they leave.  So the worker keeps no
 * clock.  For every sample the parent, with the worker stopped (SIGSTOP,
 * every thread seen stopped in /proc):
 *   1. draws the sample's input seed and its distribution (among the
 *      problem's) from getrandom, and writes the inputs into the
 *      shared memory; scrambles the outputs there (the unwritten check);
 *   2. reads its clock, SIGCONTs the worker and sends HOST_GO;
 *   3. reads its clock when HOST_DONE_LINE arrives, stops the worker
 *      again, and only then decides (getrandom, job.c keep_sample)
 *      whether to check the sample, copying the outputs as they lie.
 *      The worker's process CPU clock (every thread, those that ended
 *      too) is read at the done line and once it is stopped: what it used
 *      in between was not timed, and past a bound in more than a few
 *      samples it is work after the done line (escaped work).
 * Nothing in the worker's reach predicts an input before the go: the
 * worker is stopped while they are written, and no earlier sample's
 * inputs recur.  Threads a launch started and left running are counted
 * from /proc (escaped work).  The handshake itself (SIGCONT, two pipe
 * hops, the wake-ups) is timed with null rounds before the samples; its
 * median is recorded beside the samples, which are the parent's raw
 * round trips.
 */
#include "run/run_ctx.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "backends/sampler.h"
#include "backends/scramble.h"
#include "backends/worker.h"
#include "run/percpu.h"
#include "stats/stats.h"

#define NULL_ROUNDS 16

/* 62 secret random bits (a JSON integer stays positive). */
static unsigned long long os_seed(void)
{
	return random_secret_u64() >> 2;
}

/* /proc/PID/task/TID/LEAF into buf as read_small does: the count, or -1. */
static ssize_t task_file(int pid, const char *tid, const char *leaf, char *buf, size_t n)
{
	char path[384];
	snprintf(path, sizeof(path), "/proc/%d/task/%.255s/%s", pid, tid, leaf);
	return read_small(path, buf, n);
}

/* The state letter of /proc/PID/task/TID/stat, or 0. */
static char task_state(int pid, const char *tid)
{
	char buf[512];
	if (task_file(pid, tid, "stat", buf, sizeof(buf)) <= 0)
		return 0;
	char *rp = strrchr(buf, ')'); /* the name may hold spaces and parens */
	return rp && rp[1] == ' ' ? rp[2] : 0;
}

static int int_cmp(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;
	return (x > y) - (x < y);
}

/*
 * The most threads a host worker may have while the runner times it:
 * four for each CPU the runner's host has online, at least 512 (a thread
 * pool of one a CPU, OpenMP's default, with room; red teams 7, 26 and 27's
 * crowds park 256 to 300 idle threads).  Each thread's entry
 * the runner looks up in the worker's /proc/PID/task takes an inode
 * number from get_next_ino(), one counter of the host's, which the next
 * box reads in its inherited pipes' st_ino: red team 211's incumbent
 * parked thousands of threads in init (about four inodes each at the
 * first freeze) to set a bit there for its next box, and eval promoted
 * copies of its code 4 times in 16 in fresh stores.  Past this many
 * (counted from /proc/PID/status, whose inode the leader keeps) the
 * worker's task list is not read: a protocol violation
 * (host_clock_too_many_threads).
 */
static int threads_max(void)
{
	long c = sysconf(_SC_NPROCESSORS_ONLN);
	return c > 128 ? (int)(4 * c) : 512;
}

/* The Threads: of /proc/PID/status, or -1. */
static int thread_count(int pid)
{
	char path[64], buf[4096];
	snprintf(path, sizeof(path), "/proc/%d/status", pid);
	ssize_t k = read_small(path, buf, sizeof(buf));
	if (k <= 0)
		return -1;
	buf[(size_t)k < sizeof(buf) ? (size_t)k : sizeof(buf) - 1] = 0;
	const char *t = strstr(buf, "\nThreads:");
	return t ? atoi(t + 9) : -1;
}

int host_clock_too_many_threads(int pid, int *n, int *max)
{
	*max = threads_max();
	*n = thread_count(pid);
	return *n > *max;
}

/*
 * Every thread of pid: their count, or -1; with all_stopped, whether each
 * is stopped (or dead), from each one's stat (without, nothing more is
 * read than the task list).  With ids, their ids too, sorted, in *ids (grown as
 * needed, *cap its room; the caller frees it).  No list is cut (a list
 * cut at 256 let a kernel that made 256 threads in init start a thread in
 * launch() that no sample counted as escaped work: red team 6); past
 * threads_max none is read, -1.
 */
static int task_ids(int pid, int **ids, size_t *cap, int *all_stopped)
{
	char path[64];
	int nt, mt;
	if (host_clock_too_many_threads(pid, &nt, &mt))
		return -1;
	snprintf(path, sizeof(path), "/proc/%d/task", pid);
	DIR *d = opendir(path);
	if (!d)
		return -1;
	int n = 0;
	if (all_stopped)
		*all_stopped = 1;
	struct dirent *e;
	while ((e = readdir(d))) {
		if (e->d_name[0] == '.')
			continue;
		if (all_stopped) {
			char st = task_state(pid, e->d_name);
			if (st != 'T' && st != 't' && st != 'Z' && st != 'X')
				*all_stopped = 0;
		}
		if (ids) {
			if ((size_t)n == *cap) {
				*cap = *cap ? 2 * *cap : 64;
				*ids = xrealloc(*ids, *cap * sizeof(int));
			}
			(*ids)[n] = atoi(e->d_name);
		}
		n++;
	}
	closedir(d);
	if (ids && n > 1)
		qsort(*ids, (size_t)n, sizeof(int), int_cmp);
	return n;
}

int host_clock_threads(int pid, int **ids, size_t *cap)
{
	return task_ids(pid, ids, cap, NULL); /* the list alone: no thread's stat */
}

int host_clock_new_threads(const int *before, int nb, const int *after, int na)
{
	return host_clock_new_thread_ids(before, nb, after, na, NULL);
}

int host_clock_new_thread_ids(const int *before, int nb, const int *after, int na, int *out)
{
	int fresh = 0, k = 0;
	for (int i = 0; i < na; i++) {
		while (k < nb && before[k] < after[i])
			k++;
		if (!(k < nb && before[k] == after[i])) {
			if (out)
				out[fresh] = after[i];
			fresh++;
		}
	}
	return fresh;
}

int host_clock_fresh_state(int id, unsigned long long ns0, unsigned long long ns1, const int *now, int nn,
			   unsigned long long min_ns)
{
	int lo = 0, hi = nn;
	while (lo < hi) {
		int mid = lo + (hi - lo) / 2;
		if (now[mid] < id)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (!(lo < nn && now[lo] == id) || !ns1) /* unread after the listing: exiting (red team 41) */
		return HOST_FRESH_GONE;
	return ns1 < ns0 || ns1 - ns0 > min_ns ? HOST_FRESH_WORKED : HOST_FRESH_ASLEEP;
}

void host_watch_judge(struct host_watch *w, const unsigned long long *ns_now, const int *now, int nn,
		      size_t now_sample, struct proto_sample *samples)
{
	size_t kept = 0;
	for (size_t i = 0; i < w->n; i++) {
		int st = host_clock_fresh_state(w->tid[i], w->ns[i], ns_now[i], now, nn, HOST_FRESH_THREAD_RAN_NS);
		if (st == HOST_FRESH_WORKED)
			samples[w->origin[i]].threads_delta++;
		if (st != HOST_FRESH_ASLEEP || now_sample - w->origin[i] >= HOST_FRESH_WATCH_SAMPLES)
			continue;
		w->tid[kept] = w->tid[i];
		w->ns[kept] = ns_now[i]; /* each interval on its own: a stop's few microseconds never add up */
		w->origin[kept++] = w->origin[i];
	}
	w->n = kept;
}

void host_watch_add(struct host_watch *w, const int *ids, const unsigned long long *ns, int n, size_t origin,
		    struct proto_sample *samples)
{
	if (n <= 0)
		return;
	if (w->n > 0 && w->n + (size_t)n > HOST_FRESH_WATCH_MAX) { /* the oldest leave, counted */
		size_t drop = w->n + (size_t)n - HOST_FRESH_WATCH_MAX;
		drop = drop < w->n ? drop : w->n;
		for (size_t i = 0; i < drop; i++)
			samples[w->origin[i]].threads_delta++;
		memmove(w->tid, w->tid + drop, (w->n - drop) * sizeof(*w->tid));
		memmove(w->ns, w->ns + drop, (w->n - drop) * sizeof(*w->ns));
		memmove(w->origin, w->origin + drop, (w->n - drop) * sizeof(*w->origin));
		w->n -= drop;
	}
	if (w->n + (size_t)n > w->cap) {
		w->cap = w->n + (size_t)n;
		w->tid = xrealloc(w->tid, w->cap * sizeof(*w->tid));
		w->ns = xrealloc(w->ns, w->cap * sizeof(*w->ns));
		w->origin = xrealloc(w->origin, w->cap * sizeof(*w->origin));
	}
	for (int i = 0; i < n; i++) {
		if (w->n == HOST_FRESH_WATCH_MAX) { /* more than the watch holds in one sample */
			samples[origin].threads_delta += n - i;
			break;
		}
		w->tid[w->n] = ids[i];
		w->ns[w->n] = ns[i];
		w->origin[w->n++] = origin;
	}
}

void host_watch_free(struct host_watch *w)
{
	free(w->tid);
	free(w->ns);
	free(w->origin);
	memset(w, 0, sizeof(*w));
}

/*
 * The run time (ns, schedstat's first field) of all of pid's threads
 * summed into *ns; 0, or -1 when /proc does not say.  A stopped worker's
 * run time must not grow: a signal the worker arranged itself (a POSIX
 * timer delivering SIGCONT) could resume it while the parent writes the
 * next inputs (red team sigcont_timer).
 */
static int run_time(int pid, unsigned long long *ns)
{
	char path[320], buf[128];
	snprintf(path, sizeof(path), "/proc/%d/task", pid);
	DIR *d = opendir(path);
	if (!d)
		return -1;
	*ns = 0;
	int ok = 1;
	struct dirent *e;
	while ((e = readdir(d)) && ok) {
		if (e->d_name[0] == '.')
			continue;
		if (task_file(pid, e->d_name, "schedstat", buf, sizeof(buf)) <= 0) {
			ok = 0;
			break;
		}
		*ns += strtoull(buf, NULL, 10);
	}
	closedir(d);
	return ok ? 0 : -1;
}

/*
 * Whether every thread of pid is off its run queue: 1, 0, or -1 when
 * /proc does not say (no wchan).  A thread's wchan names where it sleeps
 * ("do_signal_stop" for a stopped one) once the scheduler has taken it
 * off the CPU, and reads "0" while it is still queued or running; its run
 * time is booked when it is taken off, so only then is it final.  A dead
 * thread (a zombie: a leader that ended with SYS_exit while its other
 * threads live on) reads "0" for good, its stack gone, and it will never
 * run again: it is off the CPU (red team 6, zombie_lead: a zombie leader
 * made every freeze wait its 0.2 s out and muted this rule).
 */
static int all_off_cpu(int pid)
{
	char path[320], buf[64];
	snprintf(path, sizeof(path), "/proc/%d/task", pid);
	DIR *d = opendir(path);
	if (!d)
		return -1;
	int off = 1;
	struct dirent *e;
	while ((e = readdir(d)) && off == 1) {
		if (e->d_name[0] == '.')
			continue;
		ssize_t n = task_file(pid, e->d_name, "wchan", buf, sizeof(buf));
		if (n < 0) {
			off = -1;
		} else if (n == 0 || (n == 1 && buf[0] == '0')) {
			char st = task_state(pid, e->d_name);
			if (st != 'Z' && st != 'X')
				off = 0;
		}
	}
	closedir(d);
	return off;
}

/*
 * Stop the worker and wait (at most 2 s) until every thread is stopped.
 * 0, or -1 when it did not stop (gone, or stuck in the kernel).  Notes
 * the stopped worker's run time once it is final: /proc says 'T' as soon
 * as a thread is marked stopped, but its run time is only booked when the
 * scheduler takes it off the CPU, which on a loaded machine can be a while
 * later (an honest worker then read as "its run time grew" in round_trip).
 * So the run time is noted once every thread's wchan says it is off the
 * CPU (all_off_cpu) and two readings agree; where /proc has no wchan, or
 * it still reads "0" after 0.2 s (a kernel that does not name the place),
 * two equal readings 20 us apart alone, as before.  A kernel that never
 * names the place (no kallsyms: every wchan reads "0") would cost 0.2 s a
 * sample, so after three freezes in a row that had to wait it out, the
 * freeze stops asking for the rest of this worker's samples.  That is the
 * worker's own state (hc->wchan_mute), never the runner's: as a static it
 * let one kernel's threads choose how every later variant of the batch was
 * frozen (red team 6, zombie_lead).  hc->freezes counts how each freeze
 * was settled, for the record.  The wait ends at the job's deadline
 * (hc->deadline, when set) if that comes first, with hc->timed_out set: a
 * thread held in the kernel (uninterruptible) for just under 2 s each
 * sample made every freeze that long, past the job's time limit until the
 * next round_trip looked (red team 6, left open).
 */
static double cpu_us(const struct host_clock *hc);

/*
 * Where hc's worker has more threads than the parent follows (a freeze
 * refused to list them: task_ids), say so as p's protocol violation and
 * 1; else 0.  At the first freeze or later, in init or mid-sample: the
 * reason is the same, and names the rule.
 */
static int too_many_threads(struct proto *p, struct host_clock *hc)
{
	int nt, mt;
	if (!host_clock_too_many_threads(hc->pid, &nt, &mt))
		return 0;
	proto_violate(p, "the worker has %d threads, more than the %d the parent follows (4 a CPU, at least 512): "
			 "each thread's /proc entry the parent reads moves a counter of the host's that later boxes "
			 "read (red team 211); use a pool of one thread a CPU",
		      nt, mt);
	return 1;
}

int host_clock_freeze(struct host_clock *hc)
{
	if (kill(hc->pid, SIGSTOP) < 0)
		return -1;
	double t0 = mono_now(), until = t0 + 2.0;
	if (hc->deadline > 0 && hc->deadline < until)
		until = hc->deadline;
	int stopped = 0, have_prev = 0;
	unsigned long long prev = 0, ns = 0;
	while (mono_now() < until) {
		if (task_ids(hc->pid, NULL, NULL, &stopped) < 0)
			return -1;
		int off = !stopped ? 0 : hc->wchan_mute ? -1 : all_off_cpu(hc->pid);
		if (stopped && (off != 0 || mono_now() - t0 > 0.2)) {
			if (off == 0 && !have_prev && ++hc->wchan_misses >= 3)
				hc->wchan_mute = 1;
			else if (off == 1)
				hc->wchan_misses = 0;
			if (run_time(hc->pid, &ns) < 0) {
				hc->have_runtime = 0;
				hc->frozen_cpu_us = cpu_us(hc);
				hc->freezes[2]++;
				return 0;
			}
			if (have_prev && ns == prev) {
				hc->have_runtime = 1;
				hc->frozen_ns = ns;
				hc->frozen_cpu_us = cpu_us(hc);
				hc->freezes[off == 1 ? 0 : 1]++;
				return 0;
			}
			prev = ns;
			have_prev = 1;
		} else {
			have_prev = 0;
		}
		struct timespec ts = { 0, 20 * 1000 };
		nanosleep(&ts, NULL);
	}
	if (hc->deadline > 0 && mono_now() >= hc->deadline)
		hc->timed_out = 1;
	return -1;
}

double host_clock_late_bound(double sample_us)
{
	double rel = HOST_LATE_REL * (isfinite(sample_us) ? sample_us : 0);
	return rel > HOST_LATE_CPU_US ? rel : HOST_LATE_CPU_US;
}

int host_clock_late_escaped(size_t n_late, size_t n)
{
	/* at least HOST_LATE_MIN, whatever n: in runs of 2 to 7 timing
	 * samples "over half" was 2 to 4 samples, and an honest sleeping
	 * kernel had 2 of 4 past the bound at load 1.5 (t0121's evo: 25 to
	 * 80 us of stop costs booked after the CPU read); under 5 samples a
	 * run has the CPU floor and the late writes, not this rule */
	return n_late >= HOST_LATE_MIN && (double)n_late >= HOST_LATE_FRAC * (double)n;
}

int host_clock_cpus(void)
{
	cpu_set_t set;
	if (sched_getaffinity(0, sizeof(set), &set) == 0 && CPU_COUNT(&set) > 0)
		return CPU_COUNT(&set);
	long online = sysconf(_SC_NPROCESSORS_ONLN);
	return online > 0 ? (int)online : 1;
}

int host_clock_worker_cpus(const int *before, const cpu_set_t *before_sets, int nb, const int *after, int na,
			   int cpus, cpu_set_t *set)
{
	cpu_set_t own, any, t;
	if (sched_getaffinity(0, sizeof(own), &own) != 0) {
		if (set) { /* every CPU: the parent's own set did not read */
			CPU_ZERO(set);
			for (int c = 0; c < CPU_SETSIZE; c++)
				CPU_SET(c, set);
		}
		return cpus;
	}
	if (set)
		*set = own;
	if (na < 1 || nb < 1)
		return cpus;
	CPU_ZERO(&any);
	/* a thread of the go's listing gone at the freeze: its CPUs at the go
	 * (red team 202's gone.c joined one such thread a launch and the
	 * floor went back to the runner's count); without them, the
	 * parent's count (an exited thread's set cannot be read) */
	for (int i = 0, k = 0; i < nb; i++) {
		while (k < na && after[k] < before[i])
			k++;
		if (k < na && after[k] == before[i])
			continue;
		if (!before_sets)
			return cpus;
		CPU_OR(&any, &any, &before_sets[i]);
	}
	for (int i = 0; i < na; i++) {
		if (sched_getaffinity(after[i], sizeof(t), &t) != 0)
			return cpus;
		CPU_OR(&any, &any, &t);
		CPU_AND(&t, &any, &own);
		if (CPU_COUNT(&t) >= cpus) /* the common case: the first thread has them all */
			return cpus;
	}
	CPU_AND(&any, &any, &own);
	int n = CPU_COUNT(&any);
	if (n >= 1 && n < cpus) {
		if (set)
			*set = any;
		return n;
	}
	return cpus;
}

double host_clock_cpu_floor(double cpu_us, double allow_us, int cpus)
{
	if (!isfinite(cpu_us) || !isfinite(allow_us) || cpus < 1)
		return NAN;
	return (cpu_us - allow_us) / cpus;
}

double host_clock_cpu_floor_gone(double cpu_us, double allow_us, int own_cpus, int cpus, double outside_us,
				 double parent_us, double unlisted_us)
{
	if (!isfinite(outside_us) || !isfinite(unlisted_us) || own_cpus < 1 || cpus < own_cpus)
		return NAN;
	double out = outside_us - (isfinite(parent_us) && parent_us > 0 ? parent_us : 0);
	if (out > unlisted_us)
		out = unlisted_us;
	double all = host_clock_cpu_floor(cpu_us, allow_us, cpus);
	double own = host_clock_cpu_floor(cpu_us - (out > 0 ? out : 0), allow_us, own_cpus);
	return isfinite(all) && isfinite(own) ? (all > own ? all : own) : NAN;
}

/* 1 when the host's load average (one minute) is above its CPUs online. */
static int host_busy(void)
{
	double la[1];
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);
	return getloadavg(la, 1) == 1 && cpus > 0 && la[0] > (double)cpus;
}

double host_clock_waited(double lead_us, double threads_us, double parent_us)
{
	double w = NAN;
	const double part[] = { lead_us, threads_us, parent_us };
	for (int i = 0; i < 3; i++)
		if (isfinite(part[i]))
			w = isfinite(w) ? w + part[i] : part[i];
	return w;
}

double host_clock_wait_credit(double waited_us, double ran_us, double worker_us, double parent_us)
{
	if (!isfinite(waited_us) || waited_us <= 0)
		return 0;
	if (!isfinite(ran_us) || !isfinite(worker_us))
		return waited_us;
	double others = ran_us - worker_us - (isfinite(parent_us) && parent_us > 0 ? parent_us : 0);
	if (others <= 0)
		return 0;
	return waited_us < others ? waited_us : others;
}

double host_clock_busy(double wall_us, double cpu_us, double wait_us)
{
	if (!isfinite(wall_us) || !isfinite(cpu_us) || !isfinite(wait_us) || wait_us < 0)
		return NAN;
	double idle = wall_us - cpu_us; /* waited or slept: the CPU does not say which */
	double waited = wait_us < idle ? wait_us : idle;
	return waited > 0 ? wall_us - waited : wall_us;
}

/* The parent process's own CPU time in us (every thread of the runner's),
 * NAN where it does not read. */
static double self_cpu_us(void)
{
	struct timespec ts;
	if (clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts) < 0)
		return NAN;
	return (double)ts.tv_sec * 1e6 + (double)ts.tv_nsec / 1e3;
}

/* The worker's process CPU time in us (all its threads, those that ended
 * included), or NAN when its clock does not read. */
static double cpu_us(const struct host_clock *hc)
{
	struct timespec ts;
	if (!hc->have_cpu_clock || clock_gettime(hc->cpu_clock, &ts) < 0)
		return NAN;
	return (double)ts.tv_sec * 1e6 + (double)ts.tv_nsec / 1e3;
}

/*
 * List the worker's threads into hc->st_ids (grown as needed;
 * host_clock_drive frees them) and send each its own SIGSTOP (tgkill), so
 * that one starved thread cannot hold off the group stop (red team 16's
 * held_stop) and a thread made since the last sample is stopped too.  The
 * count, or -1 when the task list does not read.
 */
static int threads_stop(struct host_clock *hc)
{
	size_t cap = hc->st_cap;
	int n = task_ids(hc->pid, &hc->st_ids, &cap, NULL);
	if (n < 0)
		return -1;
	if (cap != hc->st_cap) {
		hc->st_ns = xrealloc(hc->st_ns, cap * sizeof(unsigned long long));
		hc->st_cap = cap;
	}
	for (int t = 0; t < n; t++)
		syscall(SYS_tgkill, hc->pid, hc->st_ids[t], SIGSTOP);
	return n;
}

/* A thread's /proc/PID/task/TID/schedstat: its booked run time and
 * runqueue wait (ns) and how many times it was put on a CPU.  1 when read,
 * 0 when the thread is gone (or the file does not read), -1 when it does
 * not parse. */
struct sched_stat {
	unsigned long long run_ns, wait_ns, slices;
};
static int sched_stat_read(int pid, int tid, struct sched_stat *ss)
{
	char buf[128], name[16];
	snprintf(name, sizeof(name), "%d", tid);
	if (task_file(pid, name, "schedstat", buf, sizeof(buf)) <= 0)
		return 0;
	return sscanf(buf, "%llu %llu %llu", &ss->run_ns, &ss->wait_ns, &ss->slices) == 3 ? 1 : -1;
}

/* The calling thread's own runqueue wait so far (its
 * /proc/thread-self/schedstat's second field) in us, NAN where it does
 * not read: the parent's, which a timed sample's clock is (round_trip's
 * parent_wait_us). */
static double self_wait_us(void)
{
	char buf[128];
	int fd = open("/proc/thread-self/schedstat", O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return NAN;
	ssize_t n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	unsigned long long run, wait;
	if (n <= 0)
		return NAN;
	buf[n] = 0;
	return sscanf(buf, "%llu %llu", &run, &wait) == 2 ? (double)wait / 1e3 : NAN;
}

/*
 * The time on the CPU (ns) of each of the n threads threads_stop listed,
 * from /proc/PID/task/TID/schedstat, into hc->st_ns (a thread that ended
 * since is dropped from hc->st_ids); their count, which
 * the next sample's stop reads.  The count, or -1 when a thread's
 * schedstat does not parse.
 */
static int threads_cpu(struct host_clock *hc, int n)
{
	int m = 0;
	for (int i = 0; i < n; i++) {
		struct sched_stat ss;
		int rc = sched_stat_read(hc->pid, hc->st_ids[i], &ss);
		if (rc < 0)
			return -1;
		if (!rc)
			continue; /* it ended since the listing: no credit */
		hc->st_ids[m] = hc->st_ids[i];
		hc->st_ns[m++] = ss.run_ns;
	}
	return m;
}

/*
 * Each of the n threads known at a sample's go (ids, sorted: the worker
 * is stopped) its time on the CPU then, from /proc/PID/task/TID/schedstat,
 * into hc->go_ns[i] (grown to n; 0 for one that does not read): exact, as
 * none of them runs.  threads_credit reads them again at the freeze for
 * the floor's allowance (what each used in the sample, up to
 * HOST_FLOOR_THREAD_US): a flat 100 us for each thread known at the go let
 * red team 27's 2000 idle threads switch the floor off (200 ms a sample).
 * The leader's whole schedstat goes to *leader (round_trip's lead0); 1
 * when it was read.
 */
static int go_baselines(struct host_clock *hc, const int *ids, int n, struct sched_stat *leader)
{
	int have_leader = 0;
	if ((size_t)n > hc->go_cap) {
		hc->go_ns = xrealloc(hc->go_ns, (size_t)n * sizeof(unsigned long long));
		hc->go_wait = xrealloc(hc->go_wait, (size_t)n * sizeof(unsigned long long));
		hc->go_cap = (size_t)n;
	}
	for (int i = 0; i < n; i++) {
		struct sched_stat ss;
		int read = sched_stat_read(hc->pid, ids[i], &ss) > 0;
		hc->go_ns[i] = read ? ss.run_ns : 0;
		hc->go_wait[i] = read ? ss.wait_ns : 0;
		if (ids[i] == hc->pid && hc->go_ns[i]) {
			*leader = ss;
			have_leader = 1;
		}
	}
	return have_leader;
}

/* threads_credit's reading of the threads' run-queue waits in a sample */
struct thread_waits {
	double wait_us;     /* what the threads but the leader waited, each at most the sample's time it was off its CPU */
	double lead_cpu_us; /* what the leader ran in the sample (to the freeze); NAN: not read */
	double ran_sum_us;  /* what the threads listed at the freeze ran in the sample, all of them */
	double ran_max_us;  /* and the most one of them ran */
};

/*
 * What the threads listed by threads_cpu (n of them) other than the
 * leader used since their baselines, as the credit for their stops, in us
 * (run_ctx.h): each up to HOST_LATE_CPU_THREAD_US.  The leader's share is
 * round_trip's (leader_late).  A thread that ended gets none.
 * *floor_allow: the CPU floor's allowance for the same threads that were
 * known at the go (known, n_known: go_baselines), what each used in the
 * sample up to HOST_FLOOR_THREAD_US.
 */
static double threads_credit(struct host_clock *hc, int n, const int *known, int n_known, double *floor_allow,
			     double wall_us, struct thread_waits *tw)
{
	double credit = 0;
	int kw = 0;
	*floor_allow = 0;
	tw->wait_us = 0;
	tw->lead_cpu_us = NAN;
	tw->ran_sum_us = tw->ran_max_us = 0;
	for (int i = 0; i < n; i++) {
		struct sched_stat ss;
		if (sched_stat_read(hc->pid, hc->st_ids[i], &ss) <= 0)
			continue;
		/* its run and wait in the sample: since the go for one known
		 * then, its whole life for one made since (known and st_ids
		 * are both sorted) */
		while (kw < n_known && known[kw] < hc->st_ids[i])
			kw++;
		int was = kw < n_known && known[kw] == hc->st_ids[i];
		unsigned long long r0 = was ? hc->go_ns[kw] : 0, w0 = was ? hc->go_wait[kw] : 0;
		double ran = ss.run_ns > r0 ? (double)(ss.run_ns - r0) / 1e3 : 0.0;
		double waited = ss.wait_ns > w0 ? (double)(ss.wait_ns - w0) / 1e3 : 0.0;
		tw->ran_sum_us += ran;
		if (ran > tw->ran_max_us)
			tw->ran_max_us = ran;
		if (hc->st_ids[i] == hc->pid) {
			tw->lead_cpu_us = ran;
			continue; /* the leader's wait is round_trip's (to its done line) */
		}
		double off = wall_us - ran > 0 ? wall_us - ran : 0;
		tw->wait_us += waited < off ? waited : off;
		unsigned long long now = ss.run_ns;
		double used = now > hc->st_ns[i] ? (double)(now - hc->st_ns[i]) / 1e3 : 0.0;
		credit += used < HOST_LATE_CPU_THREAD_US ? used : HOST_LATE_CPU_THREAD_US;
		/* the floor's allowance: what it used from the go (ran), for a
		 * thread known then */
		if (was && hc->go_ns[kw])
			*floor_allow += ran < HOST_FLOOR_THREAD_US ? ran : HOST_FLOOR_THREAD_US;
	}
	return credit;
}

/* The leader's schedstat (sched_stat_read); 0, or -1 where it does not read. */
static int leader_stat(const struct host_clock *hc, struct sched_stat *ls)
{
	return sched_stat_read(hc->pid, hc->pid, ls) > 0 ? 0 : -1;
}

/*
 * The leader (it runs launch() and writes the done line) is measured by
 * its own schedstat, read first at the done line (right after the stops
 * are sent, before the other threads are listed: red team 26's crowd256
 * made 2000 idle threads' listing the room in which its leader's
 * kernel-side copy finished unseen), again where the process clock is
 * read, and at the freeze.  What it used from that first read to the
 * freeze, less the slice its clock can have left unbooked (lead_room) and
 * HOST_LATE_CPU_THREAD_US, is work after the done line (leader_late): its
 * clock lags a slice it was still running (booked at its stop; a vCPU the
 * host holds makes that hundreds of microseconds: an honest
 * single-threaded kernel showed it after its done line in 6 of 6 samples
 * under make test's load), and once all of it was credited, red team 25's
 * leader_zero hid a 64 MiB kernel-side copy after its done line there (ok,
 * 5.9x "faster").
 *
 * What the leader can have run between its go (lead0, read while it was
 * stopped) and the baseline read (lb, at wall time wall_us after the go)
 * without its clock booking it yet, in us: the wall time less what it
 * booked and what it waited on a runqueue.  That holds for a leader put on
 * a CPU once (at its SIGCONT) that never left it; one put on a CPU again
 * may have slept, which books nothing (red team 26's leader_nap slept
 * through the sample, then sat in a kernel-side copy after its done line,
 * with the whole sample as its room), so its room is at most
 * HOST_LEAD_ROOM_SLEPT_US.  NAN where either read failed.  That room is
 * the rule only where the parent did not see the leader off its CPU
 * soon after the sample's end (lead_off_watch, red team 288 row 1).
 */
static double lead_room(const struct sched_stat *lead0, const struct sched_stat *lb, double wall_us)
{
	if (lb->run_ns < lead0->run_ns || lb->wait_ns < lead0->wait_ns || lb->slices < lead0->slices)
		return 0;
	double room = wall_us - (double)(lb->run_ns - lead0->run_ns) / 1e3 - (double)(lb->wait_ns - lead0->wait_ns) / 1e3;
	if (room < 0)
		room = 0;
	if (lb->slices - lead0->slices > 1 && room > HOST_LEAD_ROOM_SLEPT_US)
		room = HOST_LEAD_ROOM_SLEPT_US;
	return room;
}

/*
 * Red team 288 (row 1): a leader that slept in the sample had
 * HOST_LEAD_ROOM_SLEPT_US (200 us) of room whatever its unbooked slice
 * really was, and early2m's leader sat in a 2 MiB pread (the next
 * launch's zeroing) after each done line inside it: ok 9 of 9, ~120-140
 * us a sample off the clock.  Neither of its clocks that the parent can
 * read is exact for a thread on its CPU: its schedstat and the process
 * CPU clock of another process (clock_getcpuclockid; the kernel adds the
 * pending run of the caller's own threads only) both lag to its last
 * switch or tick (a spinning child read from its parent: the same value
 * in every one of 2000 reads).  A thread off its CPU is booked to its
 * switch, though, and the wall bounds what a thread can run: so right
 * after the sample's end (the stops, the leader's baseline, the copy)
 * the parent watches the leader's state until it is seen off its CPU
 * (not 'R', twice in a row: a thread that set its sleep state has not
 * switched yet for a moment), at most HOST_LEAD_OFF_POLL_US; what it ran
 * from the sample's end is then at most that wall, less the parent's own
 * runqueue wait in it, plus what its clock booked after it was seen off.
 * A leader waiting on a runqueue at the end is off its CPU and booked
 * (the bound by its clock holds it); one that runs on in the kernel is
 * charged its run.  Where the first look came more than
 * HOST_LEAD_OFF_TIGHT_US after the end (a large output copy, the parent
 * preempted) or the leader was not seen off in time, the wall is no
 * bound and the room (lead_room) stays the rule, as before.
 */
struct lead_off {
	int seen;              /* seen off its CPU twice in a row within HOST_LEAD_OFF_POLL_US */
	int tight;             /* the first look came within HOST_LEAD_OFF_TIGHT_US of the sample's end */
	double off_us;         /* the sample's end to the first of those looks */
	double parent_wait_us; /* the parent's own runqueue wait over the watch */
	struct sched_stat ss;  /* the leader's schedstat after the second look (booked) */
};
static void lead_off_watch(const struct host_clock *hc, double t_end, struct lead_off *lo)
{
	char name[16];
	snprintf(name, sizeof(name), "%d", hc->pid);
	memset(lo, 0, sizeof(*lo));
	double w0 = self_wait_us();
	double first = mono_now();
	lo->tight = (first - t_end) * 1e6 <= HOST_LEAD_OFF_TIGHT_US;
	int offs = 0;
	for (;;) {
		char st = task_state(hc->pid, name);
		double now = mono_now();
		if (!st)
			break; /* gone or unread: the room's rule */
		if (st == 'R') {
			offs = 0;
		} else if (++offs == 1) {
			lo->off_us = (now - t_end) * 1e6;
		} else {
			lo->seen = sched_stat_read(hc->pid, hc->pid, &lo->ss) > 0;
			break;
		}
		if ((now - t_end) * 1e6 > HOST_LEAD_OFF_POLL_US && offs == 0)
			break;
	}
	double w1 = self_wait_us();
	lo->parent_wait_us = isfinite(w0) && isfinite(w1) && w1 >= w0 ? w1 - w0 : 0;
}

/* The worker's pid: the child itself, or bubblewrap's one child (the
 * sandbox's pid 1).  -1 if it cannot be found. */
static int find_worker(int child, int boxed)
{
	return boxed ? run_child_pid(child) : child;
}

/* Copy (to 1) or compare (to 0: 1 when they differ) the sample's outputs
 * in the shared memory against hc->snap. */
/*
 * The copy at the done line goes by chunks of SNAP_CHUNK in an order
 * drawn for each sample from OS randomness (hc->snap_order, drawn before
 * the go): a start and a stride coprime with the count, so every chunk
 * once.  A thread that writes after the done line lands in the copy only
 * where its chunk was not copied yet, and a write behind the copy is a late
 * write at the freeze's compare; in any fixed order a writer can stay
 * ahead of the copy (red team 106: glibc's memcpy of a large page-aligned
 * output read its end first, so rows written at the head after the done
 * line were in the copy in every sample and never late writes).
 */
#define SNAP_CHUNK ((size_t)64 * 1024)

static size_t gcd_size(size_t a, size_t b)
{
	while (b) {
		size_t t = a % b;
		a = b;
		b = t;
	}
	return a;
}

void host_clock_snap_copy(unsigned char *dst, const unsigned char *src, size_t bytes, unsigned long long order)
{
	size_t n = (bytes + SNAP_CHUNK - 1) / SNAP_CHUNK;
	if (n == 0)
		return;
	size_t k = (size_t)(order % n), stride = 1;
	if (n > 2) {
		stride = 1 + (size_t)((order >> 32) % (n - 1));
		while (gcd_size(stride, n) != 1)
			stride = stride % (n - 1) + 1;
	}
	for (size_t i = 0; i < n; i++, k = (k + stride) % n) {
		size_t off = k * SNAP_CHUNK, len = bytes - off < SNAP_CHUNK ? bytes - off : SNAP_CHUNK;
		memcpy(dst + off, src + off, len);
	}
}

static int outputs_snap(struct host_clock *hc, int to)
{
	const struct problem *pr = hc->pr;
	unsigned char *at = hc->snap;
	int differ = 0;
	for (int o = 0; o < pr->n_outputs; o++) {
		int t = pr->n_inputs + o;
		size_t b = problem_tensor_numel(pr, t, hc->job->shape) * sizeof(float);
		if (to)
			host_clock_snap_copy(at, hc->shm + hc->off[t], b, hc->snap_order + (unsigned long long)o * 0x9e3779b97f4a7c15ULL);
		else
			differ |= memcmp(at, hc->shm + hc->off[t], b) != 0;
		at += b;
	}
	return differ;
}

/*
 * The wake print: what the outputs held when the parent's poll woke for
 * the done line, before it read the line, sent a stop or read a clock.
 * An honest launch() has written all it will when it returns, and the
 * worker writes the line after that, so any line of the outputs that
 * differs at the freeze from the print was written after the parent woke:
 * a late write (escaped work).  Stopping the threads does not make that
 * exact by itself: a known thread took its own stop only after the
 * sample's time had ended and the leader's baseline was read, and its
 * rows written in between were in the copy, untimed, unseen (red team
 * 131's spill, ok in 2 of 3 repeats); a write after the print is seen
 * whichever thread makes it and whenever its stop takes.  The print is
 * inside the sample's time, so it is small: the whole outputs up to
 * HOST_WAKE_FULL bytes, else HOST_WAKE_LINES lines of 64 bytes drawn for
 * each sample from OS randomness (prepare), where a writer cannot know
 * which (1 - (1 - f)^64 of the samples whose last fraction f it writes
 * after the wake).  Writes before the parent woke are in the print and in
 * the time: the parent's wake-up latency, which every sample's time
 * includes, is what a kernel can overlap with work after its line (the
 * leader's as a helper's).
 */
#define HOST_WAKE_FULL ((size_t)4096)
#define HOST_WAKE_LINES 64
#define HOST_WAKE_LINE ((size_t)64)

/* The address of byte at of the outputs laid end to end, and in *len how
 * many bytes of its tensor follow it (up to want). */
static unsigned char *wake_addr(const struct host_clock *hc, size_t at, size_t want, size_t *len)
{
	const struct problem *pr = hc->pr;
	for (int o = 0; o < pr->n_outputs; o++) {
		int t = pr->n_inputs + o;
		size_t b = problem_tensor_numel(pr, t, hc->job->shape) * sizeof(float);
		if (at < b) {
			*len = b - at < want ? b - at : want;
			return hc->shm + hc->off[t] + at;
		}
		at -= b;
	}
	*len = 0;
	return NULL;
}

/* The sample's lines (prepare, before the go): offsets only. */
static void wake_draw(struct host_clock *hc)
{
	size_t total = hc->snap_bytes;
	if (total <= HOST_WAKE_FULL) {
		hc->wake_n = (total + HOST_WAKE_LINE - 1) / HOST_WAKE_LINE;
		for (size_t i = 0; i < hc->wake_n; i++)
			hc->wake_at[i] = i * HOST_WAKE_LINE;
		return;
	}
	size_t lines = (total + HOST_WAKE_LINE - 1) / HOST_WAKE_LINE;
	unsigned long long x = random_secret_u64(); /* one secret word, spread by splitmix64 */
	hc->wake_n = HOST_WAKE_LINES;
	for (size_t i = 0; i < hc->wake_n; i++) {
		unsigned long long z = (x += 0x9e3779b97f4a7c15ULL);
		z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
		z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
		z ^= z >> 31;
		hc->wake_at[i] = (size_t)(z % lines) * HOST_WAKE_LINE;
	}
}

/* Print (to 1) the drawn lines, or compare (to 0: 1 when one differs); a
 * line runs on into the next output where one ends. */
static int wake_print(struct host_clock *hc, int to)
{
	int differ = 0;
	for (size_t i = 0; i < hc->wake_n; i++) {
		unsigned char *w = hc->wake + i * HOST_WAKE_LINE;
		size_t done = 0, len;
		unsigned char *a;
		while (done < HOST_WAKE_LINE && (a = wake_addr(hc, hc->wake_at[i] + done, HOST_WAKE_LINE - done, &len))) {
			if (to)
				memcpy(w + done, a, len);
			else
				differ |= memcmp(w + done, a, len) != 0;
			done += len;
		}
	}
	return differ;
}

/* How many of the n sorted ids in a are also among the m sorted ids in b. */
static int ids_common(const int *a, int n, const int *b, int m)
{
	int i = 0, j = 0, c = 0;
	while (i < n && j < m) {
		if (a[i] < b[j])
			i++;
		else if (a[i] > b[j])
			j++;
		else
			c++, i++, j++;
	}
	return c;
}

/* What a timed sample's round also measures (round_trip): in, the
 * threads that existed at its go (sorted ids); out, the rest. */
/* The CPU time (ns) of each of the n threads ids into ns; 0 where it
 * does not read (the thread ended, or /proc refused). */
static void fresh_cpu(const struct host_clock *hc, const int *ids, int n, unsigned long long *ns)
{
	for (int i = 0; i < n; i++) {
		struct sched_stat ss;
		ns[i] = sched_stat_read(hc->pid, ids[i], &ss) == 1 ? ss.run_ns : 0;
	}
}

/*
 * Whether the worker stayed as the last freeze left it: every thread
 * stopped (or dead) and its process CPU clock (every thread, those that
 * ended included: exact while none runs) where the freeze read it, or
 * without that clock its threads' run time.  The CPU clock is read last,
 * so that 1 says no thread ran between the freeze and that read: a copy
 * of the outputs made in between is of a worker that did not run.  1, or
 * 0 with what was read in *stopped, *cpu_now (NAN: no clock) and *ns.
 */
static int held_since_freeze(const struct host_clock *hc, int *stopped, double *cpu_now, unsigned long long *ns)
{
	*stopped = 0;
	*ns = 0;
	*cpu_now = NAN;
	if (task_ids(hc->pid, NULL, NULL, stopped) < 0 || !*stopped)
		return 0;
	if (!isfinite(hc->frozen_cpu_us) && hc->have_runtime && (run_time(hc->pid, ns) < 0 || *ns != hc->frozen_ns))
		return 0;
	*cpu_now = cpu_us(hc);
	return !(isfinite(*cpu_now) && isfinite(hc->frozen_cpu_us) && *cpu_now != hc->frozen_cpu_us);
}

/* The protocol violation for a worker held_since_freeze() found had run,
 * WHEN saying where the parent was ("while the parent held it stopped",
 * "while the parent read its outputs"), AFTER what the second reading
 * followed ("now", "after its outputs were copied").  -1. */
static int held_violation(struct proto *p, const struct host_clock *hc, const char *when, const char *after,
			  int stopped, double cpu_now, unsigned long long ns)
{
	if (!stopped)
		return proto_violate(p, "the worker ran %s (a signal the parent did not send resumed it: the kernel's own, or one from outside the box: a thread was running)",
				     when);
	if (isfinite(cpu_now))
		return proto_violate(p, "the worker ran %s (a signal the parent did not send resumed it: the kernel's own, or one from outside the box: its CPU clock %.3f us "
					"at the freeze, %.3f us %s)",
				     when, hc->frozen_cpu_us, cpu_now, after);
	return proto_violate(p, "the worker ran %s (a signal the parent did not send resumed it: the kernel's own, or one from outside the box: its threads' run time %llu ns "
				"at the freeze, %llu ns %s)",
			     when, hc->frozen_ns, ns, after);
}

struct trip_timed {
	const int *known;
	int n_known;
	double credit_us; /* what its threads may use to take the stop (threads_credit), NAN: no schedstat */
	double cpu_all;   /* the worker's CPU from just before its go to its freeze, exact (NAN: no clock) */
	int late_write;   /* 1: the outputs changed between the copy and the freeze */
	int wake_write;   /* 1: a line of the wake print (wake_print) changed by the freeze */
	int n_old;        /* threads listed at the done line that existed at the go */
	double leader_late_us; /* the leader's use from the done line on past its unbooked slice (leader_stat) */
	double floor_allow_us; /* the floor's allowance for the threads known at the go (threads_credit), NAN: none read */
	double lead_wait_us;   /* the leader's runqueue wait from its go to the done line (schedstat), NAN: unread */
	double parent_wait_us; /* the parent's own runqueue wait from the go to the sample's end (schedstat), NAN: unread */
	double threads_wait_us; /* what the other threads waited on the run queue in the sample (threads_credit), NAN: unread */
	double lead_cpu_us;     /* what the leader ran in the sample (threads_credit), NAN: unread */
	double ran_sum_us;      /* what the threads listed at the freeze ran in the sample (threads_credit), NAN: unread */
	double ran_max_us;      /* the most one of them ran, NAN: unread */
	struct percpu *pc;      /* every CPU's run time, snapshots at the go (0) and after the freeze (1) */
	double parent_cpu_us;   /* the parent process's CPU between them, NAN: unread */
};

/* how many of a worker's threads are checked for a cgroup move each sample */
#define HOST_CGROUP_THREADS 256

/* thread tid's /proc/PID/task/TID/cgroup into buf (NUL-terminated; ""
 * unread) */
static void worker_cgroup(int pid, int tid, char *buf, size_t n)
{
	char name[16];
	snprintf(name, sizeof(name), "%d", tid);
	ssize_t k = task_file(pid, name, "cgroup", buf, n);
	buf[k > 0 ? (size_t)k < n ? (size_t)k : n - 1 : 0] = '\0';
}

/*
 * One round: go, the done line, the stop.  *us: the parent's time from go
 * to the done line (a timed sample's: to once its stops are sent);
 * *after_us: the worker's CPU from once its stops are
 * sent to its freeze (NAN when its CPU clock does not read).  With tt (a
 * timed sample: NULL for the null and warm-up rounds) the parent stops the
 * worker first at the done line (the process and its leader, and in a box
 * each thread known at the go by its own signal), ends the sample's time,
 * reads the leader's baseline and copies the outputs (unboxed, the known
 * threads' own stops after the copy), lists the threads and stops any new one, reads their
 * baselines and the CPU clock; it compares the outputs with the copy once
 * the worker is frozen: work on them after the done line, exactly,
 * whatever the CPU says.  host_clock_drive copies the sample's outputs
 * for its check after the freeze and asks that the worker did not run
 * since (held_since_freeze).  The freeze waits (up to 2 s) for every thread to
 * stop: one in state D takes its stop late (red team 11's vfork_after).
 * The CPU read after the stops still lags a thread that was on its CPU
 * (its last slice is booked at its switch), which tt->cpu_all does not:
 * the worker is stopped at both of its ends.  0; -1 with the violation or
 * failure set on p, or hc->timed_out / hc->interrupted.
 */
static int round_trip(struct proto *p, struct host_clock *hc, int reply_fd, char cmd, double *us,
		      double *after_us, struct trip_timed *tt)
{
	int n_threads = -1;
	static const char done[] = HOST_DONE_LINE;
	const size_t dn = sizeof(done) - 1;
	char buf[4096];
	size_t have = 0;
	/* still stopped, and it did not run since: nothing resumed it while
	 * the parent wrote its inputs (the rule of the copies' check) */
	{
		int stopped = 0;
		double cpu_now = NAN;
		unsigned long long ns = 0;
		if (!held_since_freeze(hc, &stopped, &cpu_now, &ns))
			return held_violation(p, hc, "while the parent held it stopped", "now", stopped, cpu_now, ns);
	}
	/* the worker is stopped and off its CPU here and after the freeze, so
	 * its CPU clock is final at both ends: cpu_all is exact (at the done
	 * line it is not, a running thread's time is booked only at its next
	 * tick or switch) */
	/* nothing on the channel while the worker was held: a done line a
	 * thread wrote after the one the parent read, before its stop took,
	 * would end this sample at its go (red team 19, echo_done) */
	struct pollfd pq = { hc->chan_fd, POLLIN, 0 };
	if (poll(&pq, 1, 0) > 0 && (pq.revents & POLLIN)) {
		char junk[64];
		if (read(hc->chan_fd, junk, sizeof(junk)) > 0)
			return proto_violate(p, "bytes on the channel while the worker was held stopped (a done line "
						"written after the one the parent read?)");
	}
	struct sched_stat lead0 = { 0, 0, 0 }, lb, la, lf; /* at the go (exact: stopped), the done line, the CPU read, the freeze */
	int have_lead0 = tt && go_baselines(hc, tt->known, tt->n_known, &lead0), have_lb = 0;
	/* and still nothing ran, the last thing before the go: the process
	 * CPU clock is exact while every thread is stopped (those that ended
	 * included), so any time since the freeze is a self-resume between
	 * the check above and here (red team 73's timercont: a POSIX timer of
	 * its own sent SIGCONT during the sweep of go_baselines, and a thread
	 * summed the rows before the go) */
	double cpu0 = cpu_us(hc);
	if (isfinite(cpu0) && isfinite(hc->frozen_cpu_us) && cpu0 != hc->frozen_cpu_us)
		return proto_violate(p, "the worker ran while the parent held it stopped (a signal the parent did not send "
					"resumed it before its go: its CPU clock %.3f us at the freeze, %.3f us at the go)",
				     hc->frozen_cpu_us, cpu0);
	if (!tt)
		cpu0 = NAN;
	double lead_room_us = 0, t_end = 0;
	struct lead_off loff = { 0, 0, 0, 0, { 0, 0, 0 } };
	/* the parent's own wait for a CPU, read before the go and after the
	 * sample's end: the time is the parent's clock, from its go to its
	 * stops after it read the done line, so a parent that waited on the
	 * run queue in between timed its own wait (red team 197: the
	 * runner at nice 19, two nice-0 loops started whenever the
	 * baseline's box ran, and an identical twin read 3.4x-9.5x faster,
	 * samples of 4.9 ms with 1.1 ms of the worker's CPU and no wait of
	 * its leader's) */
	double pw0 = tt ? self_wait_us() : NAN;
	/* every CPU's run time and the parent's own CPU, last before the
	 * go: the waits the work takes off are capped at what others ran
	 * (host_clock_wait_credit) */
	double pcpu0 = NAN;
	if (tt && tt->pc) {
		percpu_snap(tt->pc, 0);
		pcpu0 = self_cpu_us();
	}
	double t0 = mono_now();
	if (kill(hc->pid, SIGCONT) < 0 || write(reply_fd, &cmd, 1) != 1)
		return proto_violate(p, "the worker stopped reading its go");
	for (;;) {
		double left = hc->deadline - mono_now();
		if (left <= 0) {
			hc->timed_out = 1;
			return -1;
		}
		if (runcmd_interrupted) {
			hc->interrupted = 1;
			return -1;
		}
		struct pollfd pf = { hc->chan_fd, POLLIN, 0 };
		int r = poll(&pf, 1, left > 0.2 ? 200 : (int)(left * 1000) + 1);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			continue;
		/* the wake print, before the read (a thread that watches the
		 * channel for the parent's read of its line writes after it) */
		if (tt && (pf.revents & POLLIN))
			wake_print(hc, 1);
		ssize_t k = read(hc->chan_fd, buf + have, sizeof(buf) - 1 - have);
		/* EAGAIN: the channel is non-blocking (runcmd.c), and the worker
		 * can take back through /proc/self/fd/3 the bytes that woke the
		 * poll (red team 5, chan_steal) */
		if (k < 0 && (errno == EINTR || errno == EAGAIN))
			continue;
		if (k <= 0) {
			/* the worker died (a crash in launch()): its exit says how */
			hc->worker_gone = 1;
			return -1;
		}
		have += (size_t)k;
		if (have >= dn && !memcmp(buf, done, dn)) {
			*us = (mono_now() - t0) * 1e6;
			if (tt) {
				/* a timed sample's time ends once the stops are sent
				 * (wall_b below), not at the done line's read: a parent
				 * preempted in between gave the worker's threads that
				 * time untimed (red team 75's plain48: 2916 rows of a
				 * kernel's sums written after the read and before the
				 * stops, in 74 of 100 samples, at load 45) */
				/* stop first, then measure, then copy.  The process
				 * SIGSTOP and each thread of the last sample its own
				 * at once: any one of them that runs starts the group
				 * stop for all; the listing (6-8 ms at 1000 threads)
				 * comes after, not before (red team 18, crowd tails),
				 * and stops a thread made since.  A copy beside a
				 * running worker let a thread's last rows land ahead of
				 * it (red team 17) */
				kill(hc->pid, SIGSTOP);
				syscall(SYS_tgkill, hc->pid, hc->pid, SIGSTOP);
				/* boxed, every thread known at the go gets its own stop
				 * before the copy: the group stop reaches a thread only
				 * once the woken leader runs, and on a busy machine the
				 * leader waits for a CPU while a helper thread runs on,
				 * its rows landing in the copy untimed (red team 104's
				 * window: 512 rows, about 5 ms, after the done line, in
				 * 39 to 63 of 96 samples; 338 us past a sample's time
				 * in a checked one that passed).  And before the
				 * sample's time ends (wall_b): sent after it, and after
				 * the leader's baseline read, a known helper's rows
				 * written in between were in the copy, in no rule and
				 * not in the time (red team 131's spill: 16 rows, about
				 * 30 us, after the done line each sample, ok in 2 of 3
				 * repeats).  Now what a known thread writes before its
				 * stop takes is timed, but for the signal's delivery (an
				 * IPI to a thread on a CPU; one off its CPU takes it
				 * before it runs again).  Unboxed, the copy comes first:
				 * a POSIX timer's SIGCONT, which only the box refuses,
				 * could resume them within the stops (red team 90's
				 * mid) */
				if (hc->boxed)
					for (int t = 0; t < tt->n_known; t++)
						if (tt->known[t] != hc->pid) /* the leader's is sent */
							syscall(SYS_tgkill, hc->pid, tt->known[t], SIGSTOP);
				/* the leader's baseline first, before the listing, the
				 * other threads' baselines and the copy (red team 26's
				 * crowd256: 2000 idle threads made the parent's own work
				 * there the room of its leader's kernel-side copy) */
				t_end = mono_now();
				double wall_b = (t_end - t0) * 1e6;
				*us = wall_b;
				have_lb = have_lead0 && leader_stat(hc, &lb) == 0;
				/* the outputs as they lie when the sample's time ended,
				 * copied before the parent's work that grows with the
				 * worker's threads (their stops, the listing, their
				 * baselines): whatever changes them after this copy is
				 * a late write at the freeze's compare.  Copied after
				 * that work, a write by a thread its own SIGCONT had
				 * resumed (a POSIX timer's) was in the copy, unseen (red
				 * team 90's mid: 1000 idle threads made the room tens
				 * of milliseconds; ok in 5 of 6 runs with the sample's
				 * done-line outputs wrong) */
				outputs_snap(hc, 1);
				/* the parent's own wait, after the leader's baseline
				 * and the copy (nothing of the parent's before them) */
				double pw1 = self_wait_us();
				tt->parent_wait_us = pw1 >= pw0 ? pw1 - pw0 : NAN;
				if (!hc->boxed)
					for (int t = 0; t < tt->n_known; t++)
						syscall(SYS_tgkill, hc->pid, tt->known[t], SIGSTOP);
				/* the leader seen off its CPU (lead_off_watch), before
				 * the listing (red team 26's crowd: the room grew with
				 * it) */
				if (have_lb)
					lead_off_watch(hc, t_end, &loff);
				n_threads = threads_stop(hc);
				if (n_threads > hc->threads_max)
					hc->threads_max = n_threads;
				tt->n_old = n_threads < 0 ? 0 : ids_common(hc->st_ids, n_threads, tt->known, tt->n_known);
				if (n_threads >= 0)
					n_threads = threads_cpu(hc, n_threads);
				if (have_lb) {
					lead_room_us = lead_room(&lead0, &lb, wall_b);
					tt->lead_wait_us = lb.wait_ns >= lead0.wait_ns
								   ? (double)(lb.wait_ns - lead0.wait_ns) / 1e3
								   : NAN;
				}
			}
			/* the CPU after the stops were sent: what escaped them
			 * (a thread in the kernel, one that does not take its
			 * stop); what ran before them is charged by the exact
			 * floor (host_clock_cpu_floor) */
			if (have_lb && leader_stat(hc, &la) < 0)
				have_lb = 0;
			*after_us = cpu_us(hc);
			if (have > dn)
				return proto_violate(p, "bytes after a sample's done line (a thread writing on the channel?)");
			break;
		}
		if (memchr(buf, '\n', have)) {
			/* not the done line: a failure the worker reports, or a violation */
			buf[have] = 0;
			json_t *m = json_loads(buf, 0, NULL);
			const char *name = json_string_value(json_object_get(m, "msg"));
			if (name && !strcmp(name, "failure") && !p->failure) {
				p->failure = proto_failure_kept(m);
				json_decref(m);
				return -1;
			}
			json_decref(m);
			return proto_violate(p, "a line other than the sample's done line during the timed samples");
		}
		if (have >= dn && memcmp(buf, done, dn))
			return proto_violate(p, "a line other than the sample's done line during the timed samples");
	}
	if (host_clock_freeze(hc) < 0)
		return hc->timed_out || too_many_threads(p, hc)
			       ? -1
			       : proto_violate(p, "the worker could not be stopped after a sample (a thread stuck "
						  "in the kernel?)");
	/* in the cgroups it was found in: the box cannot write a cgroup file
	 * system (none is shown), so a move is from outside (red team 206's
	 * freezer moved the baseline's worker into a freezer cgroup of its
	 * own and froze it inside each sample, time neither run nor wait, and
	 * an identical twin read faster 4.1x, eval promoting 3 of 3; a CPU
	 * limit of another cgroup would slow it the same way) */
	char cg[sizeof(hc->cgroup)];
	int moved = 0;
	/* each thread (v1's `tasks` moves one), the first HOST_CGROUP_THREADS */
	for (int i = -1; i < (n_threads < HOST_CGROUP_THREADS ? n_threads : HOST_CGROUP_THREADS) && !moved; i++) {
		int tid = i < 0 ? hc->pid : hc->st_ids[i];
		char name[16];
		snprintf(name, sizeof(name), "%d", tid);
		char st = task_state(hc->pid, name);
		if (st == 'Z' || st == 'X' || st == 0)
			continue; /* an exited thread (a leader gone before its threads: red team 6's zombie_lead) shows no cgroup of its own */
		worker_cgroup(hc->pid, tid, cg, sizeof(cg));
		moved = hc->cgroup[0] && cg[0] && strcmp(cg, hc->cgroup);
	}
	if (moved)
		return proto_violate(p, "the worker was moved into another cgroup during its samples (from outside "
					"the box, which shows no cgroup file system: a freezer or a CPU limit of "
					"someone else's): its times are not its own");
	double cpu1 = cpu_us(hc);
	*after_us = cpu1 - *after_us; /* NAN stays NAN */
	if (tt && tt->pc) {
		percpu_snap(tt->pc, 1);
		tt->parent_cpu_us = self_cpu_us() - pcpu0;
	}
	if (tt) {
		tt->cpu_all = cpu1 - cpu0;
		tt->late_write = outputs_snap(hc, 0);
		tt->wake_write = wake_print(hc, 0);
		tt->floor_allow_us = NAN;
		struct thread_waits tw = { 0, NAN, 0, 0 };
		tt->credit_us = n_threads < 0 ? NAN
					      : threads_credit(hc, n_threads, tt->known, tt->n_known, &tt->floor_allow_us,
							       *us, &tw);
		tt->threads_wait_us = n_threads < 0 ? NAN : tw.wait_us;
		tt->lead_cpu_us = tw.lead_cpu_us;
		tt->ran_sum_us = n_threads < 0 ? NAN : tw.ran_sum_us;
		tt->ran_max_us = n_threads < 0 ? NAN : tw.ran_max_us;
		/* the leader: its use in the CPU read's window is its stop, less
		 * what it did from the done line on beyond its unbooked slice */
		if (have_lb && isfinite(tt->credit_us) && leader_stat(hc, &lf) == 0 && lf.run_ns >= la.run_ns &&
		    la.run_ns >= lb.run_ns) {
			/* its stop wakes every other thread into the group stop,
			 * about 0.8 to 0.9 us each (red team 13's stop_cost): an
			 * honest leader beside 300 idle futex sleepers (red team
			 * 19's laststop c300_join) was escaped_work without it */
			int others = n_threads > 1 ? n_threads - 1 : 0;
			double stop_cost = HOST_LATE_CPU_THREAD_US + HOST_LATE_LEADER_PER_THREAD_US * others;
			double late = (double)(lf.run_ns - lb.run_ns) / 1e3 - lead_room_us - stop_cost;
			/* seen off its CPU (lead_off_watch, red team 288): its
			 * run from the sample's end is at most the wall to that
			 * look, less the parent's wait, plus what it booked since;
			 * and at most what its clock grew from the baseline */
			if (loff.seen && lf.run_ns >= loff.ss.run_ns && loff.ss.run_ns >= lb.run_ns) {
				double wall = loff.off_us - loff.parent_wait_us;
				double after = (wall > 0 ? wall : 0) + (double)(lf.run_ns - loff.ss.run_ns) / 1e3;
				double grew = (double)(lf.run_ns - lb.run_ns) / 1e3;
				double seen = (after < grew ? after : grew) - stop_cost;
				if (loff.tight || seen < late)
					late = seen;
				hc->lead_off_seen++;
			}
			tt->leader_late_us = late > 0 ? late : 0;
			tt->credit_us += (double)(lf.run_ns - la.run_ns) / 1e3 - tt->leader_late_us;
		} else if (isfinite(tt->credit_us)) {
			tt->credit_us = NAN; /* no leader reads: the flat credit */
		}
	}
	return 0;
}

/*
 * cache: cold on the host: every line of the sample's inputs and outputs,
 * in the memory the worker shares, written back and evicted from every
 * cache level (x86 clflush, AArch64 dc civac) after the parent wrote
 * them, so the kernel reads its inputs from memory.  Until 2026-12-06 the
 * parent swept a 64 MiB buffer of its own instead: red team 241 found
 * this VM's last-level cache is 300 MiB, which that sweep left holding
 * the inputs (cold read no slower than hot, 5 of 5 batches); a sweep of
 * twice the cache cost 59 ms a sample there and doubled make test.
 */
#if defined(__x86_64__) || defined(__i386__)
#define CAN_FLUSH_LINES 1
static void flush_line(const void *p) { __builtin_ia32_clflush(p); }
static void flush_fence(void) { __builtin_ia32_mfence(); }
#elif defined(__aarch64__)
#define CAN_FLUSH_LINES 1
static void flush_line(const void *p) { __asm__ volatile("dc civac, %0" : : "r"(p) : "memory"); }
static void flush_fence(void) { __asm__ volatile("dsb ish" : : : "memory"); }
#else
#define CAN_FLUSH_LINES 0
static void flush_line(const void *p) { (void)p; }
static void flush_fence(void) {}
#endif

static void flush_lines(struct host_clock *hc)
{
	const struct problem *pr = hc->pr;
	for (int t = 0; t < pr->n_inputs + pr->n_outputs; t++) {
		const char *base = (const char *)hc->shm + hc->off[t];
		size_t n = problem_tensor_numel(pr, t, hc->job->shape) * sizeof(float);
		for (size_t i = 0; i < n; i += 64)
			flush_line(base + i);
		if (n)
			flush_line(base + n - 1);
	}
	flush_fence();
}

/* Sample g's inputs (fresh seed, distribution dist) into the shared
 * memory, its outputs scrambled: 0, or -1 after error() where a
 * described problem's fill box failed (problem_box.c). */
static int prepare(struct proto *p, struct host_clock *hc, long long g, unsigned long long seed, int dist)
{
	const struct problem *pr = hc->pr;
	float *in[8];
	for (int t = 0; t < pr->n_inputs; t++)
		in[t] = (float *)(hc->shm + hc->off[t]);
	/* a described problem's fill() runs in its box, never here (red
	 * team 130); a loaded one's (--unsandboxed) here */
	if (hc->filler ? problem_filler_fill(hc->filler, hc->job->shape, dist, seed, EV_F32, in) < 0
		       : problem_fill_rounded(pr, hc->job->shape, dist, seed, EV_F32, in) < 0) {
		/* the judge's side, not the kernel's (outcome.c) */
		if (!p->judge_failed)
			p->judge_failed = xstrfmt("problem '%s': its fill() failed in its box at sample %lld (the "
						      "judge's side): nothing can be concluded of the kernel",
						      pr->name, g);
		return -1;
	}
	hc->snap_order = random_secret_u64();
	wake_draw(hc);
	/* the outputs' scramble under a key of the sample's own, which the
	 * worker never reads: the job's scramble_seed is in its job file, and
	 * red team 170's scrsniff named every timed sample by its bits (47 of
	 * 47; it passed no check, the scramble only marks what is left
	 * unwritten) */
	do
		hc->scramble = random_secret_u64();
	while (!hc->scramble);
	for (int o = 0; o < pr->n_outputs; o++) {
		int t = pr->n_inputs + o;
		evs_fill(hc->shm + hc->off[t], problem_tensor_numel(pr, t, hc->job->shape) * sizeof(float),
			 evs_key(hc->scramble, (uint64_t)g, 0, (uint32_t)o));
	}
	if (hc->flush_bytes)
		flush_lines(hc);
	return 0;
}

/*
 * The gap the worker can see between two samples (its clock at one
 * launch's end and the next one's start) holds the parent's fill of the
 * next inputs, whose cost depends on their distribution: red team 112
 * told attention's peaked and large_scores samples from uniform ones by
 * that gap alone (39 of 40 above uniform's median at load 1.1), before
 * reading an input.  So every fill, warm-up and timed, lasts *pad_s from
 * its start (from, mono_now): 1.5 times the slowest fill of any
 * distribution, measured before the warm-up (the second of two rounds:
 * the first touches the pages), grown to 1.5 times a fill found slower,
 * up to twice the first pad (beyond that a fill was preempted, which no
 * distribution makes; counted in pc->grown).  A fill that ran past the pad
 * is not padded: counted in pc->past (pc->past_cap of them past the
 * growth limit, so the pad stayed), its overshoot's largest in
 * pc->max_over_s (red team 121: 1-2 fills of 120 ran past, one 46 ms
 * against a 12.9 ms pad, where the record said only "grown 0").
 * The worker is stopped throughout: it costs wall time, not the sample's.
 */
#define GAP_PAD_MARGIN 1.5

struct pad_counts {
	long long grown, past, past_cap;
	double max_over_s;
};

static void gap_pad(double from, double first_s, double *pad_s, struct pad_counts *pc)
{
	double e = mono_now() - from;
	if (e >= *pad_s) {
		pc->past++;
		if (e - *pad_s > pc->max_over_s)
			pc->max_over_s = e - *pad_s;
		if (e * GAP_PAD_MARGIN <= 2 * first_s) {
			*pad_s = e * GAP_PAD_MARGIN;
			pc->grown++;
		} else {
			pc->past_cap++;
		}
		return;
	}
	double until = from + *pad_s;
	struct timespec ts = { (time_t)until, (long)((until - (double)(time_t)until) * 1e9) };
	while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) == EINTR)
		;
}

/* The bytes of one sample's outputs. */
static size_t output_bytes(const struct host_clock *hc)
{
	size_t bytes = 0;
	for (int o = 0; o < hc->pr->n_outputs; o++)
		bytes += problem_tensor_numel(hc->pr, hc->pr->n_inputs + o, hc->job->shape) * sizeof(float);
	return bytes;
}

/*
 * Copy sample i's outputs (the worker stopped) into the next free slot
 * of the kept room (protocol.h), whether or not it is kept: the parent's work is the same
 * either way (the same copy into the same reserved, already touched
 * memory), and only when keep is set does the slot become the sample's
 * (a capture, written to the capture file once the samples end).
 */
static int capture(struct proto *p, struct host_clock *hc, long long i, long long g, unsigned long long seed,
		   int dist, int keep)
{
	const struct problem *pr = hc->pr;
	size_t bytes = output_bytes(hc);
	struct proto_capture *meta;
	char *put = proto_stash_slot(p, bytes, keep, &meta);
	for (int o = 0; o < pr->n_outputs; o++) {
		int t = pr->n_inputs + o;
		size_t b = problem_tensor_numel(pr, t, hc->job->shape) * sizeof(float);
		memcpy(put, (const char *)hc->shm + hc->off[t], b);
		put += b;
	}
	struct proto_capture *c = meta ? meta : proto_keep_slot(p, bytes);
	if (meta) {
		memset(meta, 0, sizeof(*meta));
		meta->timed = 1;
		meta->bytes = bytes;
	}
	c->index = i;
	c->global = g;
	c->set = -1;
	c->batch = 1;
	c->fresh = 1;
	c->seed = seed;
	c->dist = dist;
	c->scramble = hc->scramble;
	return 0;
}

/*
 * The handshake's own cost, measured where no code of the kernel's can
 * touch it: the worker sends calibrate_ready right after its go, before
 * it loads the problem's plug-in or the kernel, and answers NULL_ROUNDS
 * null rounds (the same round trips as a timed sample's, without a
 * launch).  Measured after init() instead, a kernel that rewrote the
 * worker's read() to sleep on HOST_NULL (red team 168's hsnap) made the
 * recorded handshake 20 ms, and rule 0e (stats.h) held every comparison
 * with it inconclusive: as a baseline it denied every challenger its
 * faster verdict.  The median goes to hc->handshake_us; then the worker
 * is let go on (SIGCONT, HOST_END).  0, or -1 as round_trip.
 */
/* The worker found and stopped, its CPU clock opened: where the
 * calibration and the drive start.  0, or -1 (hc->timed_out, or the
 * violation set on p). */
static int attach_worker(struct proto *p, struct host_clock *hc)
{
	hc->pid = find_worker(hc->child, hc->boxed);
	/* the runner's own cgroups, which its worker is in unless someone
	 * outside moved it (round_trip checks each sample) */
	ssize_t k = read_small("/proc/thread-self/cgroup", hc->cgroup, sizeof(hc->cgroup));
	hc->cgroup[k > 0 ? (size_t)k < sizeof(hc->cgroup) ? (size_t)k : sizeof(hc->cgroup) - 1 : 0] = '\0';
	hc->have_cpu_clock = hc->pid > 0 && clock_getcpuclockid(hc->pid, &hc->cpu_clock) == 0;
	hc->frozen_cpu_us = NAN; /* each freeze sets it */
	if (hc->pid > 0 && too_many_threads(p, hc))
		return -1;
	if (hc->pid <= 0 || host_clock_freeze(hc) < 0)
		return hc->timed_out ? -1 : proto_violate(p, "the parent cannot find or stop the worker to time it");
	return 0;
}

/*
 * One round of the calibration (cmd HOST_NULL, or HOST_POOL with the
 * worker's HOST_CAL_THREADS parked threads beside it) as a boxed timed
 * sample's signals go: SIGCONT and the command inside the time, the done
 * line, then the process's stop, its leader's and each thread's own, the
 * time ending once they are sent (round_trip); then the freeze.  *us the
 * round's time.  0, or -1 as round_trip.
 */
static int cal_trip(struct proto *p, struct host_clock *hc, int reply_fd, char cmd, double *us)
{
	static const char done[] = HOST_DONE_LINE;
	const size_t dn = sizeof(done) - 1;
	char buf[sizeof(done)];
	size_t have = 0;
	int *ids = NULL;
	size_t cap = 0;
	int n = task_ids(hc->pid, &ids, &cap, NULL);
	double t0 = mono_now();
	if (n < 1 || kill(hc->pid, SIGCONT) < 0 || write(reply_fd, &cmd, 1) != 1) {
		free(ids);
		return proto_violate(p, "the worker stopped reading its calibration");
	}
	while (have < dn) {
		if (hc->deadline > 0 && mono_now() > hc->deadline) {
			hc->timed_out = 1;
			free(ids);
			return -1;
		}
		struct pollfd pf = { hc->chan_fd, POLLIN, 0 };
		if (poll(&pf, 1, 200) <= 0)
			continue;
		ssize_t k = read(hc->chan_fd, buf + have, dn - have);
		if (k < 0 && (errno == EINTR || errno == EAGAIN))
			continue;
		if (k <= 0) {
			hc->worker_gone = 1;
			free(ids);
			return -1;
		}
		have += (size_t)k;
	}
	kill(hc->pid, SIGSTOP);
	syscall(SYS_tgkill, hc->pid, hc->pid, SIGSTOP);
	for (int t = 0; t < n; t++)
		if (ids[t] != hc->pid)
			syscall(SYS_tgkill, hc->pid, ids[t], SIGSTOP);
	*us = (mono_now() - t0) * 1e6;
	free(ids);
	if (memcmp(buf, done, dn))
		return proto_violate(p, "the worker answered its calibration otherwise than with its done line");
	if (host_clock_freeze(hc) < 0)
		return hc->timed_out || too_many_threads(p, hc)
			       ? -1
			       : proto_violate(p, "the parent cannot stop the worker in its calibration");
	return 0;
}

/*
 * What each parked thread of a worker adds to a timed sample, into
 * hc->thread_cost_us (red team 183): a sample resumes the worker inside
 * its time (SIGCONT after the go: the inputs are written while every
 * thread is stopped), which wakes every thread parked in a system call,
 * and a boxed sample sends each known thread its own stop before its
 * time ends; the handshake's null rounds are the single-threaded
 * worker's.  An honest kernel with 64 threads parked between calls (an
 * OpenMP or BLAS pool) read 0.27x "slower" than the same arithmetic
 * without them, and a kernel 7x faster back to back read slower.
 * Measured in the worker's own box before anything of the kernel's
 * loads: CAL_ROUNDS rounds alone, then CAL_ROUNDS with HOST_CAL_THREADS
 * threads the worker parks for them (the first of those, which starts
 * them, left out); the difference of the medians over HOST_CAL_THREADS,
 * at least 0.  (Measured first on unboxed children of the runner's own:
 * 5-11 us a thread, against 11.6-12 us in the box's samples.)  0, or -1
 * as round_trip.
 */
#define CAL_ROUNDS 9

static int calibrate_threads(struct proto *p, struct host_clock *hc, int reply_fd)
{
	double a[CAL_ROUNDS], b[CAL_ROUNDS], first;
	hc->thread_cost_us = NAN;
	for (int r = 0; r < CAL_ROUNDS; r++)
		if (cal_trip(p, hc, reply_fd, HOST_NULL, &a[r]) < 0)
			return -1;
	if (cal_trip(p, hc, reply_fd, HOST_POOL, &first) < 0)
		return -1;
	for (int r = 0; r < CAL_ROUNDS; r++)
		if (cal_trip(p, hc, reply_fd, HOST_POOL, &b[r]) < 0)
			return -1;
	stats_sort(a, CAL_ROUNDS);
	stats_sort(b, CAL_ROUNDS);
	double d = stats_median_sorted(b, CAL_ROUNDS) - stats_median_sorted(a, CAL_ROUNDS);
	hc->thread_cost_us = d > 0 ? d / HOST_CAL_THREADS : 0;
	return 0;
}

/* NULL_ROUNDS null rounds (the worker stopped before and after each):
 * their median into *us.  0, or -1 as round_trip. */
static int null_rounds(struct proto *p, struct host_clock *hc, int reply_fd, double *us)
{
	double nul[NULL_ROUNDS], after_us;
	for (int r = 0; r < NULL_ROUNDS; r++)
		if (round_trip(p, hc, reply_fd, HOST_NULL, &nul[r], &after_us, NULL) < 0)
			return -1;
	stats_sort(nul, NULL_ROUNDS);
	*us = stats_median_sorted(nul, NULL_ROUNDS);
	return 0;
}

int host_clock_calibrate(struct proto *p, void *ctx, int reply_fd)
{
	struct host_clock *hc = ctx;
	hc->fill_out0 = problem_filler_outside_us(hc->filler);
	hc->fill_wait0 = problem_filler_stop_wait_us(hc->filler);
	if (attach_worker(p, hc) < 0 || null_rounds(p, hc, reply_fd, &hc->handshake_us) < 0 ||
	    calibrate_threads(p, hc, reply_fd) < 0)
		return -1;
	if (kill(hc->pid, SIGCONT) < 0 || write(reply_fd, &(char){ HOST_END }, 1) != 1)
		return proto_violate(p, "the worker stopped reading after the handshake's null rounds");
	return 0;
}

/*
 * The host extra shape's drive (kexec.c parent_clock_prepare, red team
 * 282): its worker was calibrated, handed the shared memory at
 * HOST_SHM_FD and told it is timed, as the main job's worker is, so that
 * nothing its kernel can read before or during its seeds tells the two
 * apart; at its timing_ready the parent ends it (HOST_END) with no
 * sample.  0, or -1 as host_clock_calibrate.
 */
int host_clock_end(struct proto *p, void *ctx, int reply_fd)
{
	(void)ctx;
	if (write(reply_fd, &(char){ HOST_END }, 1) != 1)
		return proto_violate(p, "the worker stopped reading at its timing_ready");
	return 0;
}

int host_clock_drive(struct proto *p, void *ctx, int reply_fd)
{
	struct host_clock *hc = ctx;
	const struct knobs *k = &hc->job->k;
	int n_dists = hc->pr->desc->n_dists > 0 ? hc->pr->desc->n_dists : 1;
	if (attach_worker(p, hc) < 0)
		return -1;
	hc->snap_bytes = output_bytes(hc);
	hc->snap = xmalloc(hc->snap_bytes ? hc->snap_bytes : 1);
	{
		size_t lines = (hc->snap_bytes + HOST_WAKE_LINE - 1) / HOST_WAKE_LINE;
		if (lines < HOST_WAKE_LINES)
			lines = HOST_WAKE_LINES;
		hc->wake = xmalloc(lines * HOST_WAKE_LINE);
		hc->wake_at = xmalloc(lines * sizeof(size_t));
		hc->wake_n = 0;
	}
	int cold = !strcmp(knob_values_cache[k->cache], "cold");
	/* cold: the inputs' and outputs' own lines flushed (flush_lines) */
	hc->flush_bytes = 0;
	for (int t = 0; cold && CAN_FLUSH_LINES && t < hc->pr->n_inputs + hc->pr->n_outputs; t++)
		hc->flush_bytes += problem_tensor_numel(hc->pr, t, hc->job->shape) * sizeof(float);
	int rc = -1;
	int *before = NULL, *after = NULL; /* the worker's threads around a sample, freed at out */
	size_t before_cap = 0, after_cap = 0;
	cpu_set_t *before_sets = NULL; /* before's CPUs at the go, freed at out */
	size_t sets_cap = 0;
	/* the threads timed samples started, watched at every later freeze
	 * (watch_fresh; freed at out) */
	struct host_watch fw = { 0 };
	int *fresh = NULL;
	unsigned long long *fresh_ns = NULL; /* the CPU of fresh's threads, or of fw's, now */
	size_t fresh_cap = 0;
	double *late = NULL; /* each timed sample's CPU after its done line, freed at out */
	double *thr = NULL;  /* each timed sample's threads at its go, freed at out */
	size_t n_thr = 0, thr_cap = 0;
	unsigned char *written = NULL; /* each timed sample's outputs changed after its done line, freed at out */
	unsigned char *past = NULL; /* each timed sample's late CPU past its bound (late_bound), freed at out */
	size_t late_cap = 0;
	long long n_flat = 0; /* samples whose threads got the flat credit (no per-thread schedstat) */
	long long n_wake = 0; /* samples whose outputs changed after the parent woke for the done line (wake_print) */
	/* every CPU's run time (host_clock_wait_credit), closed at out */
	struct percpu *pc = percpu_open();
	long long n_capped = 0, n_ran_unread = 0; /* samples whose waits others' run time capped; unread */
	double waited_sum = 0, credit_sum = 0;

	/* the handshake once more, with the kernel's code loaded: recorded
	 * beside the calibrated one, never used in its place (the kernel can
	 * make these rounds as slow as it likes: red team 168) */
	double handshake_loaded_us, after_us;
	if (null_rounds(p, hc, reply_fd, &handshake_loaded_us) < 0)
		goto out;
	double handshake_us = hc->handshake_us;
	/* the pad of every fill (gap_pad): each distribution's fill, the
	 * second of two rounds (the first touches the pages) */
	double pad_s = 0, pad_from;
	struct pad_counts pad_n = { 0, 0, 0, 0 };
	for (int round = 0; round < 2; round++)
		for (int d = 0; d < n_dists; d++) {
			double f0 = mono_now();
			if (prepare(p, hc, 0, os_seed(), d) < 0)
				goto out;
			double f = mono_now() - f0;
			pad_s = round && f > pad_s ? f : pad_s;
		}
	pad_s *= GAP_PAD_MARGIN;
	double pad_first = pad_s;

	/* warm-up: the same rounds, fresh inputs, not recorded */
	long long warm = 0;
	double us, t0 = mono_now();
	while (sampler_warming(k, t0, warm)) {
		pad_from = mono_now();
		if (prepare(p, hc, warm, os_seed(), evs_sample_dist(os_seed(), n_dists, problem_timing_dists(hc->pr))) < 0)
			goto out;
		gap_pad(pad_from, pad_first, &pad_s, &pad_n);
		if (round_trip(p, hc, reply_fd, HOST_GO, &us, &after_us, NULL) < 0)
			goto out;
		warm++;
	}
	p->warmup = json_pack("{s:I, s:I, s:f}", "samples", (json_int_t)warm, "launches", (json_int_t)warm, "ms",
			      (mono_now() - t0) * 1e3);
	p->warmup_samples = warm;

	struct sampler sm;
	sampler_init(&sm, k);
	/* every kept sample's room, before the first (protocol.h) */
	proto_reserve_kept(p, output_bytes(hc), proto_room_slots(k->samples, k->timed_checks, n_dists));
	unsigned mask = problem_timing_dists(hc->pr);
	int busy_start = host_busy();
	int cpus = host_clock_cpus();
	size_t n_charged = 0, n_allow = 0, n_narrowed = 0, n_gone_floor = 0;
	double allow_sum = 0; /* the floor's per-thread allowance, summed over the samples */
	long long n_timed = 0; /* timing samples so far (evs_force_timing) */
	double charged_sum = 0, charged_max = 0;
	for (long long i = 0;; i++) {
		long long g = warm + i;
		unsigned long long seed = os_seed();
		/* the sample's distribution, drawn now from a secret word of its
		 * own (scramble.h evs_sample_dist): the kernel cannot tell it
		 * before it reads its inputs (red team 13, rt13 MODE 2), nor from
		 * the classes of the samples before it (red team 17: blocks of
		 * four with one stress sample each told the rest of a block) */
		uint64_t word = os_seed();
		int dist = evs_force_timing(i, k->samples, n_timed) ? evs_timing_dist(word, n_dists, mask)
								     : evs_sample_dist(word, n_dists, mask);
		n_timed += evs_dist_timing(dist, n_dists, mask);
		pad_from = mono_now();
		if (prepare(p, hc, g, seed, dist) < 0)
			goto out;
		gap_pad(pad_from, pad_first, &pad_s, &pad_n);
		int nb = host_clock_threads(hc->pid, &before, &before_cap);
		if (nb > hc->threads_max)
			hc->threads_max = nb;
		/* each thread's CPUs at the go (the worker is stopped): the
		 * floor's divisor for one gone by the freeze */
		if (nb > 0 && (size_t)nb > sets_cap) {
			sets_cap = (size_t)nb;
			before_sets = xrealloc(before_sets, sets_cap * sizeof(cpu_set_t));
		}
		int sets_ok = nb > 0;
		for (int t = 0; t < nb && sets_ok; t++)
			sets_ok = sched_getaffinity(before[t], sizeof(cpu_set_t), &before_sets[t]) == 0;
		if (n_thr == thr_cap) {
			thr_cap = thr_cap ? 2 * thr_cap : 1024;
			thr = xrealloc(thr, thr_cap * sizeof(double));
		}
		thr[n_thr++] = nb > 0 ? nb : 1;
		struct trip_timed tt = { .known = before,
					  .n_known = nb > 0 ? nb : 0,
					  .cpu_all = NAN,
					  .floor_allow_us = NAN,
					  .lead_wait_us = NAN,
					  .parent_wait_us = NAN,
					  .threads_wait_us = NAN,
					  .lead_cpu_us = NAN,
					  .ran_sum_us = NAN,
					  .ran_max_us = NAN,
					  .pc = pc,
					  .parent_cpu_us = NAN };
		if (round_trip(p, hc, reply_fd, HOST_GO, &us, &after_us, &tt) < 0)
			goto out;
		double credit_us = tt.credit_us;
		int na = host_clock_threads(hc->pid, &after, &after_cap);
		if (p->n_samples == late_cap) { /* late[k] is p->samples[k]'s */
			late_cap = late_cap ? 2 * late_cap : 1024;
			late = xrealloc(late, late_cap * sizeof(double));
			written = xrealloc(written, late_cap);
			past = xrealloc(past, late_cap);
		}
		written[p->n_samples] = (unsigned char)(tt.late_write || tt.wake_write);
		n_wake += tt.wake_write;
		/* the bound grows with what the threads that each wake to take
		 * the stop measurably used (run_ctx.h), else by a flat credit */
		int extra = na > 1 ? na - 1 : 0;
		if (isnan(credit_us)) {
			credit_us = HOST_LATE_CPU_THREAD_US * (extra < HOST_LATE_CPU_THREADS ? extra : HOST_LATE_CPU_THREADS);
			n_flat++;
		}
		late[p->n_samples] = after_us - credit_us;
		past[p->n_samples] = isfinite(late[p->n_samples]) && late[p->n_samples] > host_clock_late_bound(us);
		/* no sample is faster than the CPU it used spread over every CPU
		 * it could run on: work after the done line, in whatever window
		 * (a held stop, a preempted parent, a few samples under the
		 * rule's fraction), is charged to the sample's time.  The
		 * allowance goes to threads that existed at the go, which the
		 * first stops reached at once (a thread made during the sample
		 * runs until the listing finds it: none) */
		int old_others = tt.n_old > 1 ? tt.n_old - 1 : 0;
		double allow = isfinite(tt.floor_allow_us) ? tt.floor_allow_us : HOST_FLOOR_THREAD_US * old_others;
		allow_sum += allow;
		n_allow++;
		/* the CPUs the worker's threads could run on at the freeze,
		 * where fewer than the parent's (red team 193: a worker that
		 * narrowed itself to one CPU hid up to ~700 us of work after
		 * its done line from a floor that divided by 2) */
		cpu_set_t own_set;
		int own_cpus = host_clock_worker_cpus(before, sets_ok ? before_sets : NULL, nb, after, na, cpus, &own_set);
		n_narrowed += own_cpus < cpus;
		double floor_us = host_clock_cpu_floor(tt.cpu_all, HOST_LATE_CPU_US + credit_us + allow, own_cpus);
		/* a thread neither listing saw ran (made and joined within the
		 * sample), on CPUs nobody can read now: what ran outside the
		 * listed threads' CPUs may be its (host_clock_cpu_floor_gone) */
		int gone_floor = 0;
		int gone = isfinite(tt.cpu_all) && isfinite(tt.ran_sum_us) &&
			   tt.cpu_all - tt.ran_sum_us > HOST_GONE_CPU_US + HOST_GONE_CPU_REL * tt.cpu_all;
		/* rules 4b/4c's least time where a thread was gone (below):
		 * the gone floor's bound without its allowance, NAN where
		 * not computed */
		double gone_least = NAN;
		if (own_cpus < cpus && gone) {
			cpu_set_t mine, outside;
			if (sched_getaffinity(0, sizeof(mine), &mine) == 0) {
				CPU_ZERO(&outside);
				for (int c = 0; c < CPU_SETSIZE; c++)
					if (CPU_ISSET(c, &mine) && !CPU_ISSET(c, &own_set))
						CPU_SET(c, &outside);
				double outside_ran = percpu_ran_us(pc, &outside);
				double g = host_clock_cpu_floor_gone(tt.cpu_all, HOST_LATE_CPU_US + credit_us + allow, own_cpus,
								     cpus, outside_ran, tt.parent_cpu_us,
								     tt.cpu_all - tt.ran_sum_us);
				gone_least = host_clock_cpu_floor_gone(tt.cpu_all, 0, own_cpus, cpus, outside_ran,
								       tt.parent_cpu_us, tt.cpu_all - tt.ran_sum_us);
				if (isfinite(g)) {
					floor_us = g;
					gone_floor = 1;
				}
			}
		}
		n_gone_floor += gone_floor;
		if (floor_us > us) {
			n_charged++;
			charged_sum += floor_us - us;
			if (floor_us - us > charged_max)
				charged_max = floor_us - us;
			us = floor_us;
		}
		int stop = sampler_push(&sm, us);
		if (p->n_samples == p->alloc) {
			p->alloc = p->alloc ? 2 * p->alloc : 1024;
			p->samples = xrealloc(p->samples, p->alloc * sizeof(*p->samples));
		}
		struct proto_sample *s = &p->samples[p->n_samples++];
		memset(s, 0, sizeof(*s));
		s->us = s->host_us = us;
		s->event_us = s->kernel_us = s->clock_mhz = s->ruler_us = s->ruler_gt_us = NAN;
		s->cpu_us = tt.cpu_all; /* NAN where unread */
		/* what the leader and the parent waited for a CPU, either
		 * where the other's does not read (they wait in turn: the
		 * leader from the go to its done line, the parent after it;
		 * host_clock_busy caps the sum at the time not on the CPU) */
		/* The stress gate's busy time: the wall less the leader's wait,
		 * counted only up to the time the worker's CPU did not fill the
		 * wall (every thread's: its own threads crowding it ran).  Not
		 * the other threads' waits: red team 203's crowd woke 48
		 * spinning threads on 2 CPUs for a stress launch's length, and
		 * their summed waits, capped only by the CPUs left idle while
		 * it slept, bought its 30x nap back from the gate (eval
		 * promoted it 3 of 3 with the cancel cost hidden) */
		s->busy_us = host_clock_busy(us, tt.cpu_all, tt.lead_wait_us);
		/* Rules 4b/4c's work, which only ever holds a verdict back: the
		 * wall less what the leader, each other thread (each at most its
		 * own time off its CPU) and the parent waited on a run queue
		 * (red teams 197 and 202: the author's load on the baseline's
		 * side alone), down to the least time the sample's CPU needs on
		 * the CPUs its threads may use, and no less than one thread
		 * ran.  Where a thread that ran in the sample was gone by the
		 * freeze (made and joined within a launch) its wait left with it,
		 * and the work is that least time (red team 201) */
		double lead_wait = tt.lead_wait_us;
		if (isfinite(lead_wait) && isfinite(tt.lead_cpu_us) && lead_wait > us - tt.lead_cpu_us)
			lead_wait = us > tt.lead_cpu_us ? us - tt.lead_cpu_us : 0;
		double waited = host_clock_waited(lead_wait, tt.threads_wait_us, tt.parent_wait_us);
		/* and only as far as someone else ran on the worker's CPUs
		 * (red team 220: its own threads took turns on one of them) */
		double ran = percpu_ran_us(pc, &own_set);
		double credit = host_clock_wait_credit(waited, ran, tt.cpu_all, tt.parent_cpu_us);
		n_ran_unread += !isfinite(ran);
		if (isfinite(waited) && waited > 0) {
			waited_sum += waited;
			credit_sum += credit;
			n_capped += credit < waited;
		}
		if (isfinite(waited))
			waited = credit;
		/* Where a thread was gone, what ran outside the listed threads'
		 * CPUs may be its, as for the floor (host_clock_cpu_floor_gone):
		 * divided by the listed threads' CPUs alone, a caller pinned in
		 * init() to one CPU beside a helper made and joined on another
		 * read its whole CPU as one CPU's time, and red team 271's honest
		 * pinned twin read 1.47-1.59x the least work of the same code
		 * unpinned (3 of 3 batches): a baseline so pinned let a
		 * candidate's work through rule 4b at twice its ratio */
		double least = isfinite(gone_least) ? gone_least : tt.cpu_all / own_cpus;
		if (isfinite(tt.ran_max_us) && !(least >= tt.ran_max_us))
			least = tt.ran_max_us;
		/* At its most a sample's work is its wall: no wait is taken
		 * off.  The least time undercounts a launch that waited in a
		 * join while its own thread worked (red team 219's gone2: the
		 * baseline's work, its heaviest launch in a thread made and
		 * joined, read work 1.38 and faster 1.65x), and the wall less
		 * the waits undercounts one whose threads made their own waits
		 * where others' run time could not be placed (red team 221:
		 * red team 220's crowd, its threads narrowed to one CPU for a
		 * launch and the other CPU running an idle-class loop, read
		 * work 1.33-1.40 and faster 1.51x-1.71x in 4 of 5 batches,
		 * eval promoting 1 of 2: the per-CPU run time says who ran
		 * where, not on whose CPU a thread waited).  A verdict reads
		 * each side at the bound that holds it back (stats.h rule 4b):
		 * a faster candidate at its wall, the baseline at its least;
		 * what load on the baseline's side costs it still comes off
		 * (red teams 197, 201, 202), a candidate's load holds its own
		 * verdict back */
		s->work_hi_us = us;
		s->work_us = gone && isfinite(least) ? least : host_clock_busy(us, least, waited);
		s->set = -1;
		/* A thread a sample started and left alive at its freeze is
		 * work outside the timed region only if it works on: one that
		 * at any later freeze has run more than HOST_FRESH_THREAD_RAN_NS
		 * since its own sample's freeze ran through samples of someone
		 * else's (red team 7's thread_crowd), and what it did after
		 * the done line the CPU rule and the floor already see.  Every
		 * later freeze, not only the next: a thread that sleeps past
		 * the next sample before it works, or is starved there on a
		 * loaded machine (t0066's crowd_work, ok in CI at load 105 when
		 * the next freeze alone judged), works in a later one.  One
		 * that only sleeps on (a pool's helper waiting out its
		 * keep-alive, red team 36's lazy_pool: escaped_work in 2 of 2
		 * honest batches when its existence counted) did nothing.  A
		 * detached helper that has signalled its last act may be
		 * frozen a few microseconds before its exit completes (red
		 * team 31's spawn_detach: escaped_work in 6 of 8 honest runs,
		 * one sample of 30 each): it is gone by a later freeze.  After
		 * the last sample no sample is left to take its work: the end
		 * grace judges what the worker does then (job.c). */
		s->threads_delta = 0;
		/* room for this sample's new threads, or the watched ones' CPU */
		size_t need = na > 0 && (size_t)na > fw.n ? (size_t)na : fw.n;
		if (need > fresh_cap) {
			fresh_cap = need;
			fresh = xrealloc(fresh, fresh_cap * sizeof(int));
			fresh_ns = xrealloc(fresh_ns, fresh_cap * sizeof(*fresh_ns));
		}
		if (na >= 0) {
			fresh_cpu(hc, fw.tid, (int)fw.n, fresh_ns);
			host_watch_judge(&fw, fresh_ns, after, na, p->n_samples - 1, p->samples);
		}
		if (nb >= 0 && na >= 0) {
			int n_fresh = host_clock_new_thread_ids(before, nb, after, na, fresh);
			fresh_cpu(hc, fresh, n_fresh, fresh_ns);
			host_watch_add(&fw, fresh, fresh_ns, n_fresh, p->n_samples - 1, p->samples);
		}
		s->dist = dist;
		int keep = p->keep && p->keep(p->keep_ctx, i, stop);
		if (capture(p, hc, i, g, seed, dist, keep) < 0)
			goto out;
		/* the copy just made (the one a check judges) and the freeze's
		 * compare before it were of a worker that did not run since the
		 * freeze saw every thread stopped.  The next go asks this too,
		 * but after the last sample there is no next go: a POSIX timer
		 * of the worker's own sent SIGCONT after the last freeze, and a
		 * helper thread fixed the outputs the parent then copied (red
		 * team 90's lastdecoy: ok 6 of 10 with the done line's outputs
		 * wrong) */
		{
			int held_stopped = 0;
			double cpu_now = NAN;
			unsigned long long ns_now = 0;
			if (!held_since_freeze(hc, &held_stopped, &cpu_now, &ns_now)) {
				char when[96];
				snprintf(when, sizeof(when), "while the parent read sample %lld's outputs", i);
				held_violation(p, hc, when, "after its outputs were copied", held_stopped, cpu_now,
					       ns_now);
				goto out;
			}
		}
		if (stop)
			break;
	}
	p->timing_n = (long long)p->n_samples;
	/* work after the done line (round_trip).  Outputs written after it
	 * are escaped work whenever it happens (an honest launch() has
	 * written all it will when it returns): red team 16's held_stop held
	 * off the group stop by starving the thread the SIGSTOP went to while
	 * another wrote the rows, in under half the samples.  CPU past the
	 * bound without a write: a few samples cannot move a median, many
	 * are escaped work (outcome.c), counted over the timing samples
	 * alone (only they make the time: with the stress samples in the
	 * count, late work on 85% of the timing ones was 64% of all) */
	size_t n_late = 0, n_read = 0, n_timing = 0, n_written = 0;
	for (size_t i = 0; i < p->n_samples; i++) {
		n_written += written[i];
		if (!(mask >> p->samples[i].dist & 1u))
			continue;
		n_timing++;
		n_read += isfinite(late[i]);
		n_late += past[i];
	}
	/* recorded, no longer a looser rule: a kernel's own threads raise
	 * the load average (red team 18: 1000 threads woken by each stop
	 * took it from 1.2 to 145), and since the CPU is read after the
	 * stops, honest kernels at load 5 had 0-1 of ~75 past the bound */
	int busy = busy_start || host_busy();
	int escaped_cpu = host_clock_late_escaped(n_late, n_timing);
	int escaped = escaped_cpu || n_written > 0;
	for (size_t i = 0; escaped && i < p->n_samples; i++)
		p->samples[i].late = written[i] || (escaped_cpu && (mask >> p->samples[i].dist & 1u) && past[i]);
	p->method = json_pack("{s:s, s:s, s:s, s:f, s:i, s:f, s:s, s:i, s:I, s:f, s:I, s:s, s:s, s:b, s:b}", "clock",
			      "parent", "method", "the parent's CLOCK_MONOTONIC around go and done, the worker stopped "
						  "(SIGSTOP) while the parent wrote its inputs and read its outputs",
			      "cache", knob_values_cache[k->cache], "warmup_ms", k->warmup_ms, "batch", 1,
			      "handshake_us", handshake_us, "handshake",
			      "median of 16 null rounds before the worker loaded the problem and the kernel (included in "
			      "every sample)",
			      "flush_bytes", (int)hc->flush_bytes, "warmup_launches", (json_int_t)warm, "stdrel",
			      sampler_stdrel(&sm), "null_rounds", (json_int_t)NULL_ROUNDS, "mode",
			      k->samples > 0 ? "fixed" : "adaptive", "inputs",
			      "fresh every sample: seed from getrandom, distributions by the problem's schedule (three samples in four on its timing distributions) from a phase drawn by getrandom", "converged", sm.converged,
			      "capped", sm.capped);
	json_object_set_new(p->method, "threads_max", json_integer(hc->threads_max));
	/* what its threads cost each sample beside the handshake (rule 0e
	 * widens by it: record/run.c run_handshake_us) */
	double thread_cost = hc->thread_cost_us;
	if (n_thr) {
		stats_sort(thr, n_thr);
		json_object_set_new(p->method, "threads_median", json_real(stats_median_sorted(thr, n_thr)));
	}
	if (isfinite(thread_cost))
		json_object_set_new(p->method, "thread_cost_us", json_real(thread_cost));
	json_object_set_new(p->method, "handshake_loaded_us", json_real(handshake_loaded_us));
	json_object_set_new(p->method, "gap_pad",
			    json_pack("{s:f, s:f, s:I, s:I, s:I, s:f, s:s}", "first_us", pad_first * 1e6, "last_us",
				      pad_s * 1e6, "grown", (json_int_t)pad_n.grown, "past", (json_int_t)pad_n.past,
				      "past_cap", (json_int_t)pad_n.past_cap, "max_over_us", pad_n.max_over_s * 1e6, "why",
				      "every fill of a sample's inputs lasts at least the pad, the worker stopped (1.5 times "
				      "the slowest fill of any distribution, grown to 1.5 times a slower fill, up to twice "
				      "first_us), so the gap between two samples cannot name the next one's distribution; "
				      "past: fills that ran longer than the pad (not padded; past_cap of them beyond the "
				      "growth limit), max_over_us the largest overshoot"));
	/* what the worker used after its done lines (round_trip), on the
	 * timing samples (those n_read counts) */
	{
		double *v = xmalloc((n_read + 1) * sizeof(double));
		size_t m = 0;
		for (size_t i = 0; i < p->n_samples; i++)
			if ((mask >> p->samples[i].dist & 1u) && isfinite(late[i]))
				v[m++] = late[i];
		stats_sort(v, m);
		json_object_set_new(
			p->method, "after_done",
			hc->have_cpu_clock
				? json_pack("{s:s, s:f, s:f, s:f, s:f, s:f, s:f, s:f, s:I, s:i, s:f, s:b, s:I, s:I, s:I, s:b, s:s, s:I, s:I, s:s}", "clock",
					    "the worker's process CPU clock (clock_getcpuclockid), from its done line to its "
					    "stop, less the stop's own cost per thread",
					    "median_cpu_us", m ? stats_median_sorted(v, m) : 0.0, "max_cpu_us",
					    m ? v[m - 1] : 0.0, "bound_us", HOST_LATE_CPU_US, "bound_rel", HOST_LATE_REL, "lead_room_slept_us",
					    HOST_LEAD_ROOM_SLEPT_US, "lead_off_poll_us", HOST_LEAD_OFF_POLL_US, "lead_off_tight_us",
					    HOST_LEAD_OFF_TIGHT_US, "samples_lead_off_seen", (json_int_t)hc->lead_off_seen,
					    "bound_per_thread_us",
					    (int)HOST_LATE_CPU_THREAD_US, "frac", HOST_LATE_FRAC, "load_busy", busy, "samples_past_bound",
					    (json_int_t)n_late, "samples_read", (json_int_t)n_read, "samples_timing", (json_int_t)n_timing, "escaped", escaped,
					    "credit",
					    "each thread other than the leader: what it used (its schedstat), up to "
					    "bound_per_thread_us; the leader up to what it can have run since the go and not "
					    "booked at its baseline (read first: the wall time less what it booked and waited "
					    "for, at most lead_room_slept_us where it left its CPU in between), plus "
					    "bound_per_thread_us; where the parent saw the leader off its CPU (its state, "
					    "watched from the sample's end for at most lead_off_poll_us, the first look within "
					    "lead_off_tight_us: samples_lead_off_seen), its run from the end is at most that "
					    "wall less the parent's own wait, plus what it booked since, and that is charged "
					    "in place of the room; flat: bound_per_thread_us each",
					    "samples_flat_credit", (json_int_t)n_flat, "late_writes", (json_int_t)n_written,
					    "outputs",
					    "copied as soon as the parent's clock reads the done line (the stop sent to the "
					    "process, its leader and, in a box, each thread known at the go before the sample's "
					    "time ends and before the copy; unboxed, each thread's own after the copy) and compared "
					    "once the worker is stopped: a sample whose outputs changed in between is work "
					    "after the done line (late_writes); the copy a check judges is made after the "
					    "freeze, and the worker's CPU clock read after it must be the freeze's (else a "
					    "protocol violation); samples_past_bound counts the timing samples only")
				: json_pack("{s:s}", "clock", "none: the worker's CPU clock did not read"));
		if (hc->have_cpu_clock)
			json_object_set_new(
				json_object_get(p->method, "after_done"), "wake_print",
				json_pack("{s:I, s:i, s:i, s:s}", "late_writes", (json_int_t)n_wake, "full_bytes",
					  (int)HOST_WAKE_FULL, "lines", HOST_WAKE_LINES,
					  "what", "the outputs (all up to full_bytes, else lines of 64 bytes drawn in secret "
						  "each sample) as the parent's poll woke for the done line, before it read it, "
						  "compared once the worker is stopped: late_writes counts the samples with a "
						  "line written after the parent woke (counted in late_writes above too)"));
		if (hc->have_cpu_clock)
			json_object_set_new(
				json_object_get(p->method, "after_done"), "charged",
				json_pack("{s:I, s:f, s:f, s:i, s:I, s:I, s:f, s:f, s:s}", "samples", (json_int_t)n_charged,
					  "total_us", charged_sum, "max_us", charged_max, "cpus", cpus, "narrowed_samples",
					  (json_int_t)n_narrowed, "gone_samples", (json_int_t)n_gone_floor, "per_thread_us",
					  HOST_FLOOR_THREAD_US,
					  "allowance_mean_us", n_allow ? allow_sum / (double)n_allow : 0.0, "rule",
					  "a sample's time is at least the CPU the worker used from its go to its stop (exact: "
					  "stopped at both ends), less bound_us, the stop's credit and, for each thread but "
					  "the leader that existed at its go, what it used in the sample up to per_thread_us, "
					  "over the CPUs it may run on (cpus, the runner's; fewer in narrowed_samples, where "
					  "every thread of the worker's at its stop could run on fewer, none having exited; in "
					  "gone_samples of those a thread neither listing saw ran, and the work less what every "
					  "task ran on the runner's other CPUs, the parent's own CPU taken off that, over the "
					  "fewer, or the work over cpus, whichever is more); a sample under that floor is timed "
					  "at it (work after its done line)"));
		free(v);
	}
	/* the problem's fill box runs only from a request to its reply
	 * (problem_box.c filler_pause: red team 275's spinning fill box beside
	 * every sample); what it used outside its fills in this job, which a
	 * stopped box leaves at the few microseconds a stop takes */
	if (hc->filler) {
		double out1 = problem_filler_outside_us(hc->filler);
		json_object_set_new(p->method, "fill_box_outside_us",
				    isfinite(out1) && isfinite(hc->fill_out0) ? json_real(out1 - hc->fill_out0) : json_null());
		/* and how long the runner waited for it to stop after its fills
		 * (red team 280: unrecorded, 9.7-20.8 s a hog run against 0.5-2.3
		 * s honest) */
		double w1 = problem_filler_stop_wait_us(hc->filler);
		json_object_set_new(p->method, "fill_box_stop_wait_us",
				    isfinite(w1) && isfinite(hc->fill_wait0) ? json_real(w1 - hc->fill_wait0) : json_null());
	}
	json_object_set_new(p->method, "omp_wait_policy",
			    json_string(getenv("OMP_WAIT_POLICY") ? getenv("OMP_WAIT_POLICY")
								    : "passive (evident's, for the worker: spinning "
								      "threads after a region are CPU after the done line)"));
	/* the run-queue waits the work took off (rules 4b/4c's), and the cap */
	json_object_set_new(p->method, "work_waits",
			    json_pack("{s:s, s:f, s:f, s:I, s:I, s:s}", "per_cpu_source", percpu_source(pc), "waited_us",
				      waited_sum, "credited_us", credit_sum, "samples_capped", (json_int_t)n_capped,
				      "samples_unread", (json_int_t)n_ran_unread, "rule",
				      "a sample's work (work_us, work_hi_us) is its wall less the run-queue waits of the "
				      "leader, each other thread and the parent (waited_us, summed over the timed samples), "
				      "but only as far as other tasks ran on the CPUs the worker's threads could use: every "
				      "task's run time there from the go to the freeze (per_cpu_source: /proc/schedstat or "
				      "cgroup v1 cpuacct) less the worker's and the parent's own CPU (credited_us; capped "
				      "in samples_capped).  A wait behind the kernel's own threads is its work.  Where the "
				      "per-CPU run time does not read (samples_unread, source none) every wait is credited: "
				      "this bound is the baseline's side of a faster verdict (a candidate's is its wall), "
				      "where a wait taken off too many holds a verdict back"));
	/* how each freeze knew the stopped worker's run time was final: the
	 * worker's own (red team 6, zombie_lead) */
	json_object_set_new(p->method, "freezes",
			    json_pack("{s:I, s:I, s:I}", "off_cpu", (json_int_t)hc->freezes[0], "run_time_twice",
				      (json_int_t)hc->freezes[1], "no_run_time", (json_int_t)hc->freezes[2]));
	if (kill(hc->pid, SIGCONT) < 0 || write(reply_fd, &(char){ HOST_END }, 1) != 1) {
		proto_violate(p, "the worker stopped reading its go");
		goto out;
	}
	rc = 0;
out:
	if (rc == 0)
		proto_late_checks(p); /* a run that ended before its count */
	if (proto_store_kept(p) < 0 && rc == 0)
		rc = -1;
	if (rc < 0 && hc->worker_gone && !p->violation && !p->failure)
		rc = 0; /* not the protocol's to judge: the exit status is the evidence */
	if (rc < 0 && p->failure)
		kill(hc->pid, SIGCONT); /* it reported a failure: let it end */
	hc->filler = NULL; /* the problem's (problem_filler_for) */
	percpu_close(pc);
	free(before);
	free(before_sets);
	free(after);
	free(fresh);
	free(fresh_ns);
	host_watch_free(&fw);
	free(late);
	free(thr);
	free(written);
	free(past);
	free(hc->snap);
	hc->snap = NULL;
	free(hc->wake);
	free(hc->wake_at);
	hc->wake = NULL;
	hc->wake_at = NULL;
	hc->wake_n = 0;
	free(hc->st_ids);
	free(hc->st_ns);
	free(hc->go_ns);
	hc->go_ns = NULL;
	free(hc->go_wait);
	hc->go_wait = NULL;
	hc->go_cap = 0;
	hc->st_ids = NULL;
	hc->st_ns = NULL;
	hc->st_cap = 0;
	return rc;
}
