/*
 * runcmd.c - spawn a program with an argv array, capture its output under
 * a wall-clock limit (see runcmd.h for the contract).
 *
 * Between vfork and exec the child (child_exec) calls only
 * async-signal-safe functions (dup2, open, close, chdir, setpgid,
 * setrlimit, personality, umask, sched_setattr, prctl, set_mempolicy,
 * sigaction, sigprocmask, execvp, write, _exit), with every
 * signal blocked until its handlers are the default again.  The environment
 * additions are prepared in the parent.  An exec failure is reported on a
 * close-on-exec pipe: if the parent reads an errno from it, exec failed;
 * if it reads EOF, exec succeeded.  The child leads its own process group,
 * so a timeout kills it and everything it started (a compiler's cc1, a
 * sanitizer's target).
 */
#include "base/runcmd.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <sys/syscall.h>
#include <sys/personality.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sched.h>
#include <sys/resource.h>
#include <unistd.h>

extern char **environ;

volatile int runcmd_interrupted;

static void on_signal(int sig)
{
	runcmd_interrupted = sig;
}

void runcmd_trap_signals(void)
{
	struct sigaction sa;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
}

const char *signal_name(int signo)
{
	switch (signo) {
	case SIGSEGV: return "SIGSEGV";
	case SIGABRT: return "SIGABRT";
	case SIGBUS: return "SIGBUS";
	case SIGFPE: return "SIGFPE";
	case SIGILL: return "SIGILL";
	case SIGKILL: return "SIGKILL";
	case SIGTERM: return "SIGTERM";
	case SIGINT: return "SIGINT";
	case SIGPIPE: return "SIGPIPE";
	case SIGTRAP: return "SIGTRAP";
	case SIGSYS: return "SIGSYS";
	case SIGXCPU: return "SIGXCPU";
	case SIGHUP: return "SIGHUP";
	default: return "signal";
	}
}

void run_result_describe(const struct run_result *r, struct strbuf *sb)
{
	if (!r->started)
		strbuf_addf(sb, "could not start: %s", strerror(r->exec_errno));
	else if (r->timed_out)
		strbuf_addf(sb, "timeout after %.1f s", r->seconds);
	else if (r->killed_at_end && r->end_no_grace)
		strbuf_addf(sb, "killed at its last message (it has no grace after it)");
	else if (r->killed_at_end)
		strbuf_addf(sb, "killed %.1f s after its last message (still running)", r->seconds - r->end_seconds);
	else if (r->signaled)
		strbuf_addf(sb, "%s (signal %d)", signal_name(r->signo), r->signo);
	else
		strbuf_addf(sb, "exit %d", r->exit_code);
}

/* Does keep (run_opts.env_keep) admit the variable "NAME=VALUE" whose
 * name is nl bytes long?  NULL admits all; an entry "!NAME" refuses NAME
 * whatever else admits it. */
static int env_admits(const char *const *keep, const char *var, size_t nl)
{
	if (!keep)
		return 1;
	for (size_t i = 0; keep[i]; i++)
		if (keep[i][0] == '!' && strlen(keep[i] + 1) == nl && !strncmp(var, keep[i] + 1, nl))
			return 0;
	for (size_t i = 0; keep[i]; i++) {
		if (keep[i][0] == '!')
			continue;
		size_t kl = strlen(keep[i]);
		if (kl && keep[i][kl - 1] == '*') {
			if (nl >= kl - 1 && !strncmp(var, keep[i], kl - 1))
				return 1;
		} else if (kl == nl && !strncmp(var, keep[i], nl)) {
			return 1;
		}
	}
	return 0;
}

/* Build the child's environment before fork: the variables of environ
 * that env_keep admits, plus env_set (which overrides same-named
 * entries).  Caller frees the array (not the strings, which belong to
 * environ or to env_set). */
static char **build_env(const char *const *env_set, const char *const *env_keep)
{
	size_t n = 0, m = 0;
	while (environ[n])
		n++;
	while (env_set && env_set[m])
		m++;
	char **env = xcalloc(n + m + 1, sizeof(char *));
	size_t k = 0;
	for (size_t i = 0; i < n; i++) {
		const char *eq = strchr(environ[i], '=');
		size_t nl = eq ? (size_t)(eq - environ[i]) : strlen(environ[i]);
		int overridden = !env_admits(env_keep, environ[i], nl);
		for (size_t j = 0; j < m; j++)
			if (!strncmp(env_set[j], environ[i], nl) && env_set[j][nl] == '=')
				overridden = 1;
		if (!overridden)
			env[k++] = environ[i];
	}
	for (size_t j = 0; j < m; j++)
		env[k++] = (char *)env_set[j];
	env[k] = NULL;
	return env;
}

static int cmp_env(const void *x, const void *y)
{
	return strcmp(*(const char *const *)x, *(const char *const *)y);
}

void run_env_sha256(const char *const *env_set, const char *const *env_keep, const char *const *skip,
		    char out[SHA256_HEX_LEN + 1])
{
	char **env = build_env(env_set, env_keep);
	size_t n = 0, k = 0;
	while (env[n])
		n++;
	for (size_t i = 0; i < n; i++) {
		const char *eq = strchr(env[i], '=');
		size_t nl = eq ? (size_t)(eq - env[i]) : strlen(env[i]);
		int skipped = 0;
		for (size_t j = 0; skip && skip[j]; j++)
			if (strlen(skip[j]) == nl && !strncmp(skip[j], env[i], nl))
				skipped = 1;
		if (!skipped)
			env[k++] = env[i];
	}
	qsort(env, k, sizeof(*env), cmp_env);
	struct strbuf sb = STRBUF_INIT;
	for (size_t i = 0; i < k; i++) {
		strbuf_add(&sb, env[i], strlen(env[i]));
		strbuf_add(&sb, "", 1);
	}
	sha256_hex(sb.buf ? sb.buf : "", sb.len, out);
	strbuf_release(&sb);
	free(env);
}

/* Split buffered stdout into lines for on_line, keeping a partial tail. */
static void deliver_lines(struct strbuf *pending, const struct run_opts *o)
{
	char *start = pending->buf;
	char *nl;
	while ((nl = memchr(start, '\n', pending->len - (size_t)(start - pending->buf)))) {
		*nl = '\0';
		o->on_line(start, o->ctx);
		start = nl + 1;
	}
	size_t rest = pending->len - (size_t)(start - pending->buf);
	memmove(pending->buf, start, rest);
	pending->len = rest;
	pending->buf[rest] = '\0';
}

/* Mark every descriptor from lo up close-on-exec (async-signal-safe:
 * system calls only). */
static void cloexec_from(int lo)
{
#ifdef SYS_close_range
	if (syscall(SYS_close_range, (unsigned)lo, ~0U, 4 /* CLOSE_RANGE_CLOEXEC */) == 0)
		return;
#endif
	struct rlimit rl;
	int max = getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur < 65536 ? (int)rl.rlim_cur : 65536;
	for (int fd = lo; fd < max; fd++)
		fcntl(fd, F_SETFD, FD_CLOEXEC);
}

/*
 * The normal scheduling class at the process's own nice value, with no
 * custom time slice, no reset-on-fork and, where the kernel keeps them,
 * the default utilization clamps.  sched_setscheduler(SCHED_OTHER) keeps
 * a custom slice (sched_setattr's runtime for a fair task, Linux 6.12):
 * red team 189 set 3 ms on its runner, any user may, and its kernel read
 * it in /proc/self/sched (se.slice) and ran fast in a side batch that held
 * honest challengers (2 of 2).  What a kernel without sched_setattr or
 * the clamps refuses stays as it was, and the worker's own hash has it
 * (backends/worker.c worker_self_hash).  Async-signal-safe: system calls
 * only.
 */
static void sched_reset(void)
{
	errno = 0;
	int nice = getpriority(PRIO_PROCESS, 0);
	struct run_sched_attr a;
	memset(&a, 0, sizeof(a));
	a.size = 48; /* SCHED_ATTR_SIZE_VER0: no clamps */
	a.policy = SCHED_OTHER;
	a.nice = errno ? 0 : nice;
#ifdef SYS_sched_setattr
	if (syscall(SYS_sched_setattr, 0, &a, 0) == 0) {
		a.size = sizeof(a);
		a.flags = 0x20 | 0x40 | 0x08 | 0x10; /* SCHED_FLAG_UTIL_CLAMP_MIN | _MAX | KEEP_POLICY | KEEP_PARAMS */
		a.util_min = a.util_max = (unsigned int)-1; /* -1: the default clamp */
		syscall(SYS_sched_setattr, 0, &a, 0);
		return;
	}
#endif
	struct sched_param sp = { 0 };
	sched_setscheduler(0, SCHED_OTHER, &sp);
}

/* A child's stdout or stderr is kept up to cap bytes (RUN_KEEP_BYTES,
 * or run_opts.out_keep for stdout) and drained past it (a kernel that
 * floods its log must not exhaust the runner's memory or the store: red
 * team log_flood wrote 512 MiB); what was dropped is counted and said at
 * the end. */
static void keep_capped(struct strbuf *sb, size_t cap, const char *buf, size_t k, unsigned long long *dropped)
{
	size_t room = sb->len < cap ? cap - sb->len : 0;
	size_t take = k < room ? k : room;
	if (take)
		strbuf_add(sb, buf, take);
	*dropped += k - take;
}

int run_child_pid(int pid)
{
	char path[96], buf[512];
	snprintf(path, sizeof(path), "/proc/%d/task/%d/children", pid, pid);
	int child = read_small(path, buf, sizeof(buf)) > 0 ? atoi(buf) : -1;
	if (child > 0)
		return child;
	child = -1;
	/* no /proc/.../children (CONFIG_PROC_CHILDREN): the process whose
	 * parent is pid */
	DIR *d = opendir("/proc");
	struct dirent *e;
	while (d && (e = readdir(d)) && child < 0) {
		int cand = atoi(e->d_name);
		if (cand <= 0)
			continue;
		snprintf(path, sizeof(path), "/proc/%d/stat", cand);
		if (read_small(path, buf, sizeof(buf)) > 0) {
			char *rp = strrchr(buf, ')');
			int ppid = 0;
			if (rp && sscanf(rp + 2, "%*c %d", &ppid) == 1 && ppid == pid)
				child = cand;
		}
	}
	if (d)
		closedir(d);
	return child;
}

/* Kill the child and all of it: with kill_box the box's pid 1 first (its
 * whole PID namespace dies with it; it is in no process group of ours),
 * then the child's process group. */
static void kill_child(const struct run_opts *o, pid_t pid, struct run_result *res)
{
	int box = o->kill_box ? run_child_pid(pid) : -1;
	/* a pidfd for the box's pid 1 before the kill, so the wait below is
	 * for that process and no later one of the same number */
	int pfd = -1;
#ifdef SYS_pidfd_open
	if (box > 0)
		pfd = (int)syscall(SYS_pidfd_open, box, 0);
#endif
	double t0 = mono_now();
	if (box > 0 && kill(box, SIGKILL) == 0) {
		/* The box is gone when its pid 1's last thread is: its memory
		 * unmapped and its files closed, which the kernel does in the
		 * dying threads, and which can take seconds (red team 45's
		 * heavy_exit: 1 GiB mapped 96 times was still being freed 1.2 to
		 * 2.9 s into the next job's worker, reparented to init once
		 * bubblewrap had been killed).  The next job starts only once it
		 * is gone (a pidfd reads at that exit) */
		if (pfd >= 0 && res) {
			struct pollfd p = { pfd, POLLIN, 0 };
			int r;
			for (;;) {
				double left = RUN_BOX_EXIT_HARD_S - (mono_now() - t0);
				r = left > 0 ? poll(&p, 1, (int)(left * 1000) + 1) : 0;
				if (r < 0 && errno == EINTR)
					continue;
				break;
			}
			res->box_exit_s = mono_now() - t0;
			res->box_exit_late = r == 0 || res->box_exit_s > RUN_BOX_EXIT_MAX_S;
		}
		/* bubblewrap reaps its child and ends: a moment (at most 1 s)
		 * for that, so that the box's pid 1 is not left a zombie to an
		 * init that may not reap it (the status stays to be read) */
		for (int i = 0; i < 100; i++) {
			siginfo_t si;
			memset(&si, 0, sizeof(si));
			if (waitid(P_PID, (id_t)pid, &si, WEXITED | WNOHANG | WNOWAIT) < 0 || si.si_pid == pid)
				break;
			struct timespec ts = { 0, 10 * 1000 * 1000 };
			nanosleep(&ts, NULL);
		}
	}
	if (pfd >= 0)
		close(pfd);
	kill(-pid, SIGKILL);
}

/* O_NONBLOCK on each of the parent's read ends that is open (>= 0). */
static void nonblock_reads(int a, int b, int c)
{
	int fds[3] = { a, b, c };
	for (int i = 0; i < 3; i++) {
		int fl = fds[i] >= 0 ? fcntl(fds[i], F_GETFL) : -1;
		if (fl >= 0)
			fcntl(fds[i], F_SETFL, fl | O_NONBLOCK);
	}
}

/*
 * Read what woke the poll on p (a pipe the parent reads the child on)
 * into buf: the count (> 0); 0 when there is nothing after all (EINTR,
 * or EAGAIN: the child took back the bytes that woke the poll,
 * nonblock_reads); -1 when the pipe has ended (EOF or an error), closed
 * and marked -1.
 */
static ssize_t read_ready(struct pollfd *p, char *buf, size_t n)
{
	if (p->fd < 0 || !(p->revents & (POLLIN | POLLHUP | POLLERR)))
		return 0;
	ssize_t k = read(p->fd, buf, n);
	if (k < 0 && (errno == EINTR || errno == EAGAIN))
		return 0;
	if (k <= 0) {
		close(p->fd);
		p->fd = -1;
		return -1;
	}
	return k;
}

/* k bytes the child wrote on stdout (i 0) or stderr (i 1), kept as
 * run_opts asks: capped into out/err, stdout's whole lines to on_line. */
static void keep_output(int i, const char *buf, size_t k, const struct run_opts *o, struct strbuf *pending,
			unsigned long long *dropped)
{
	if (i == 1) {
		keep_capped(o->err, RUN_KEEP_BYTES, buf, k, &dropped[1]);
		return;
	}
	if (o->out)
		keep_capped(o->out, o->out_keep ? o->out_keep : RUN_KEEP_BYTES, buf, k, &dropped[0]);
	if (o->on_line) {
		strbuf_add(pending, buf, k);
		deliver_lines(pending, o);
	}
}

/*
 * After the parent killed the child (a timeout, on_chan's -1): what it
 * had already written on stdout and stderr, kept as any output is, for
 * at most 1 s.  The loop that reads them stops at the kill, and a host
 * worker's last words before a violation sat unread in its stderr pipe
 * while the parent drove its samples from on_chan (red team 5,
 * pipe_block: its log lacked the line that said what it had done).  The
 * child is dead, so EOF comes as soon as the pipes are empty.
 */
static void drain_killed(struct pollfd *pfd, const struct run_opts *o, struct strbuf *pending,
			 unsigned long long *dropped)
{
	char buf[65536];
	double t0 = mono_now();
	for (;;) {
		double left = 1.0 - (mono_now() - t0);
		if (left <= 0 || (pfd[0].fd < 0 && pfd[1].fd < 0))
			return;
		int n = poll(pfd, 2, (int)(left * 1000) + 1);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return;
		for (int i = 0; i < 2; i++) {
			ssize_t k = read_ready(&pfd[i], buf, sizeof(buf));
			if (k > 0)
				keep_output(i, buf, (size_t)k, o, pending, dropped);
		}
	}
}

/*
 * Wait for the child after its descriptors closed.  A child that closed
 * them and lives on (its stdout, stderr and channel shut, the work going
 * on) is still held to the time limit: killed at it, and timed out.
 */
static void wait_child(const struct run_opts *o, pid_t pid, double t0, int killed, int *st,
		       struct run_result *res)
{
	long nap_us = 500;
	for (;;) {
		int bounded = (o->timeout_s > 0 || res->end_seconds > 0) && !killed;
		pid_t w = waitpid(pid, st, bounded ? WNOHANG : 0);
		if (w == pid)
			return;
		if (w < 0 && errno != EINTR)
			return;
		if (runcmd_interrupted && !killed) {
			kill_child(o, pid, res);
			killed = 1;
		}
		if (w == 0 && bounded) {
			if (res->end_seconds > 0 && mono_now() - t0 >= res->end_seconds + o->end_grace_s) {
				if (o->on_end_kill)
					o->on_end_kill(o->ctx);
				kill_child(o, pid, res);
				res->killed_at_end = 1;
				res->end_no_grace = o->end_grace_s <= 0;
				killed = 1;
				continue;
			}
			if (o->timeout_s > 0 && mono_now() - t0 >= o->timeout_s) {
				kill_child(o, pid, res);
				res->timed_out = 1;
				killed = 1;
				continue;
			}
			struct timespec ts = { 0, nap_us * 1000 };
			nanosleep(&ts, NULL);
			if (nap_us < 50000)
				nap_us *= 2;
		}
	}
}

/* What the child of run_command needs, prepared by the parent: the
 * child writes nothing the parent reads (it runs on the parent's memory,
 * vfork), but environ, which the parent restores. */
struct child_plan {
	const struct run_opts *o;
	int out_w, err_w, exec_w, ch, ctl;
	const int *keep;
	const char *oom_adj;
	int oom_len;
	char **env;
	sigset_t mask; /* the parent's signal mask before it blocked all */
};

/* The child between vfork and exec: async-signal-safe calls only, on its
 * own frame (none of run_command's variables is written); every signal is
 * blocked on entry.  Never returns. */
static void __attribute__((noreturn, noinline)) child_exec(const struct child_plan *c)
{
	const struct run_opts *o = c->o;
	setpgid(0, 0);
	/* nothing inherited past stderr reaches the program (a shell's
	 * redirection, make's jobserver, a CI log): the worker of a
	 * kernel could write to it from inside its box.  Only what is
	 * placed below (channels, pass_fd) survives the exec. */
	cloexec_from(3);
	dup2(c->out_w, 1);
	if (o->merge_stderr)
		dup2(c->out_w, 2);
	else if (c->err_w >= 0)
		dup2(c->err_w, 2);
	int devnull = open("/dev/null", O_RDONLY | O_CLOEXEC); /* its copy at 0 stays, this one goes */
	if (devnull >= 0)
		dup2(devnull, 0);
	if (c->ch >= 0) {
		dup2(c->ch, 3);  /* dup2 clears close-on-exec on the copy */
		dup2(c->ctl, 4);
	}
	for (int i = 0; i < RUN_MAX_PASS_FD; i++)
		if (c->keep[i] >= 0)
			dup2(c->keep[i], o->pass_fd_at[i]);
	if (o->limit_as_bytes) {
		struct rlimit rl = { o->limit_as_bytes, o->limit_as_bytes };
		setrlimit(RLIMIT_AS, &rl);
	}
	if (o->limit_fsize_bytes) {
		struct rlimit rl = { o->limit_fsize_bytes, o->limit_fsize_bytes };
		setrlimit(RLIMIT_FSIZE, &rl);
		/* over the limit a write fails with EFBIG, not SIGXFSZ */
		signal(SIGXFSZ, SIG_IGN);
	}
	/* a fixed address layout, inherited across exec (bubblewrap is not
	 * set-user-ID here, which would clear it) */
	if (o->no_aslr)
		personality(ADDR_NO_RANDOMIZE);
	else if (o->no_core)
		personality(PER_LINUX);
	if (o->no_core) {
		/* RLIMIT_CORE 1, not 0: the kernel ignores the core limit when
		 * core_pattern pipes the dump to a handler (apport,
		 * systemd-coredump: a program run as root on the host, fed the
		 * process's memory), except for the value 1, which aborts the
		 * dump (fs/coredump.c); a file dump needs a page (red team 46) */
		struct rlimit one = { 1, 1 };
		setrlimit(RLIMIT_CORE, &one);
		struct rlimit rl = { 0, 0 };
		/* and no real-time class or nice below the runner's, where
		 * the runner's limits allowed them (red team 8) */
		setrlimit(RLIMIT_RTPRIO, &rl);
		setrlimit(RLIMIT_NICE, &rl);
		/* and at most box_nofile descriptors (RUN_BOX_NOFILE where
		 * 0; lowered, never raised): too few pipes to reach the host's
		 * pipe-user-pages-soft alone (red team 134's pipecount) */
		rlim_t lim = o->box_nofile > 0 ? (rlim_t)o->box_nofile : RUN_BOX_NOFILE;
		struct rlimit nf;
		if (getrlimit(RLIMIT_NOFILE, &nf) == 0 && (nf.rlim_cur > lim || nf.rlim_max > lim)) {
			nf.rlim_cur = nf.rlim_cur < lim ? nf.rlim_cur : lim;
			nf.rlim_max = lim;
			setrlimit(RLIMIT_NOFILE, &nf);
		}
	}
	if (o->no_sigq) {
		struct rlimit rl = { 0, 0 };
		setrlimit(RLIMIT_SIGPENDING, &rl);
	}
	if (o->no_core) {
		/* a boxed process starts from one state whatever the runner's
		 * shell set (red team 185: a kernel read umask 027, `chrt -b`,
		 * `setarch -R`, an ignored SIGWINCH, a blocked signal 40 and a
		 * timer slack of its runner, and ran fast in a side batch that
		 * then held honest challengers as the incumbent's history): the
		 * file mode mask, the normal scheduling class, the default timer
		 * slack, every signal's default disposition and none blocked
		 * (below), the default personality (above); the resource limits
		 * it cannot set back are in the job's hash (job.c) */
		umask(022);
		sched_reset();
		prctl(PR_SET_TIMERSLACK, 0, 0, 0, 0);
		/* and (red team 188) transparent huge pages allowed, the
		 * default memory policy, the default core dump filter: each
		 * read by a kernel as a tag, THP and the policy change its
		 * speed too */
		prctl(PR_SET_THP_DISABLE, 0, 0, 0, 0);
		syscall(SYS_set_mempolicy, 0 /* MPOL_DEFAULT */, NULL, 0UL);
		int cf = open("/proc/self/coredump_filter", O_WRONLY);
		if (cf >= 0) {
			ssize_t w = write(cf, "0x33", 4);
			(void)w;
			close(cf);
		}
	}
	if (c->oom_len > 0) {
		int fd = open("/proc/self/oom_score_adj", O_WRONLY);
		if (fd >= 0) {
			ssize_t w = write(fd, c->oom_adj, (size_t)c->oom_len);
			(void)w;
			close(fd);
		}
	}
	/* every handler back to the default (the runner's SIGINT and SIGTERM
	 * among them), SIGPIPE, SIGINT and SIGTERM even where ignored, then
	 * the parent's mask: a signal that comes now acts on this process
	 * alone */
	for (int sig = 1; sig < NSIG; sig++) {
		struct sigaction sa;
		if (sigaction(sig, NULL, &sa) == 0 && sa.sa_handler != SIG_DFL &&
		    (sa.sa_handler != SIG_IGN || (o->no_core && !(sig == SIGXFSZ && o->limit_fsize_bytes)))) {
			sa.sa_handler = SIG_DFL;
			sa.sa_flags = 0;
			sigaction(sig, &sa, NULL);
		}
	}
	signal(SIGPIPE, SIG_DFL);
	signal(SIGINT, SIG_DFL);
	signal(SIGTERM, SIG_DFL);
	if (o->no_core) {
		sigset_t none;
		sigemptyset(&none);
		sigprocmask(SIG_SETMASK, &none, NULL);
	} else {
		sigprocmask(SIG_SETMASK, &c->mask, NULL);
	}
	if (o->cwd && chdir(o->cwd) < 0) {
		int e = errno;
		ssize_t w = write(c->exec_w, &e, sizeof(e));
		(void)w;
		_exit(127);
	}
	environ = c->env; /* the parent puts its own back */
	execvp(o->argv[0], (char *const *)o->argv);
	int e = errno;
	ssize_t w = write(c->exec_w, &e, sizeof(e));
	(void)w;
	_exit(127);
}

int run_command(const struct run_opts *o, struct run_result *res)
{
	int outp[2] = { -1, -1 }, errp[2] = { -1, -1 }, execp[2] = { -1, -1 };
	int chp[2] = { -1, -1 }, ctlp[2] = { -1, -1 }, keep_child[RUN_MAX_PASS_FD];
	volatile int ch_child = -1, ctl_child = -1; /* set again after the vfork: in memory, not a register */
	int want_err = o->err && !o->merge_stderr;
	char **env = build_env(o->env_set, o->env_keep);
	char oom_adj[16];
	int oom_len = o->oom_score_adj > 0 ? snprintf(oom_adj, sizeof(oom_adj), "%d\n", o->oom_score_adj) : 0;
	memset(res, 0, sizeof(*res));
	res->box_exit_s = -1;
	double t0 = mono_now();
	for (int i = 0; i < RUN_MAX_PASS_FD; i++)
		keep_child[i] = -1;

	if (pipe2(outp, O_CLOEXEC) < 0 || pipe2(execp, O_CLOEXEC) < 0 ||
	    (want_err && pipe2(errp, O_CLOEXEC) < 0) ||
	    (o->on_chan && (pipe2(chp, O_CLOEXEC) < 0 || pipe2(ctlp, O_CLOEXEC) < 0))) {
		error("cannot create a pipe: %s", strerror(errno));
		goto fail;
	}
	if (o->on_chan) {
		/* the child's ends, moved above 9 so that dup2 onto 3 and 4 cannot
		 * clobber one another */
		ch_child = fcntl(chp[1], F_DUPFD_CLOEXEC, 10);
		ctl_child = fcntl(ctlp[0], F_DUPFD_CLOEXEC, 10);
		if (ch_child < 0 || ctl_child < 0) {
			error("cannot set up the worker's channels: %s", strerror(errno));
			goto fail;
		}
	}
	for (int i = 0; i < RUN_MAX_PASS_FD; i++)
		if (o->pass_fd_at[i] > 4 && o->pass_fd[i] >= 0 && o->pass_fd[i] <= 2) {
			/* the runner's own stdin/stdout/stderr never go to a child by
			 * accident (red team stdin_fd6: an unset fd 0 was passed) */
			error("refusing to pass descriptor %d (stdin, stdout or stderr) to '%s' at %d", o->pass_fd[i],
			      o->argv[0], o->pass_fd_at[i]);
			goto fail;
		}
	for (int i = 0; i < RUN_MAX_PASS_FD; i++)
		if (o->pass_fd_at[i] >= RUN_PASS_FD_LIMIT) {
			error("cannot pass a descriptor to '%s' at %d (at most %d)", o->argv[0], o->pass_fd_at[i],
			      RUN_PASS_FD_LIMIT - 1);
			goto fail;
		}
	/* the parent's copies above every place a child's lands, so that
	 * one dup2 in the child cannot overwrite the next one's source */
	for (int i = 0; i < RUN_MAX_PASS_FD; i++)
		if (o->pass_fd_at[i] > 4 && o->pass_fd[i] >= 0 &&
		    (keep_child[i] = fcntl(o->pass_fd[i], F_DUPFD_CLOEXEC, RUN_PASS_FD_LIMIT)) < 0) {
			error("cannot pass descriptor %d to '%s': %s", o->pass_fd[i], o->argv[0], strerror(errno));
			goto fail;
		}
	struct child_plan cp = { .o = o, .out_w = outp[1], .err_w = errp[1], .exec_w = execp[1], .ch = ch_child,
				 .ctl = ctl_child, .keep = keep_child, .oom_adj = oom_adj, .oom_len = oom_len, .env = env };
	/* vfork: the child borrows the parent's memory until its exec, so
	 * nothing is copied (a fork copied the page tables of the whole
	 * runner, then the exec threw them away: a fifth of a sanitized run's
	 * CPU, whose shadow memory made them large).  The parent waits
	 * meanwhile.  Every signal stays blocked until the child has put
	 * the runner's handlers back to the default (child_exec), so no
	 * handler of the parent's ever runs in the child, on memory the two
	 * share; the child sets environ for execvp's PATH, and the parent
	 * puts its own back. */
	sigset_t all;
	sigfillset(&all);
	sigprocmask(SIG_BLOCK, &all, &cp.mask);
	char **parent_environ = environ;
	pid_t pid = vfork();
	int fork_errno = errno;
	if (pid == 0)
		child_exec(&cp);
	environ = parent_environ;
	sigprocmask(SIG_SETMASK, &cp.mask, NULL);
	if (pid < 0) {
		error("cannot fork to run '%s': %s", o->argv[0], strerror(fork_errno));
		goto fail;
	}
	setpgid(pid, pid); /* also from the parent, to win the race */
	for (int i = 0; i < RUN_MAX_PASS_FD; i++)
		if (keep_child[i] >= 0) {
			close(keep_child[i]);
			keep_child[i] = -1;
		}
	close(outp[1]);
	outp[1] = -1;
	if (o->on_chan) {
		close(chp[1]);
		close(ctlp[0]);
		close(ch_child);
		close(ctl_child);
		chp[1] = ctlp[0] = ch_child = ctl_child = -1;
		signal(SIGPIPE, SIG_IGN); /* a dead worker must not kill the parent's reply */
		/* a full pipe is the child's doing, never a wait: its fd 4,
		 * reopened for writing through /proc/self/fd/4, is the pipe's
		 * write end, and a kernel filled it so that the parent's next
		 * answer blocked in write() past every time limit (red team 5,
		 * pipe_block) */
		int fl = fcntl(ctlp[1], F_GETFL);
		if (fl < 0 || fcntl(ctlp[1], F_SETFL, fl | O_NONBLOCK) < 0) {
			close(ctlp[1]); /* fail closed: every answer fails, a violation */
			ctlp[1] = -1;
		}
	}
	close(execp[1]);
	execp[1] = -1;
	if (want_err) {
		close(errp[1]);
		errp[1] = -1;
	}
	int exec_err = 0;
	ssize_t r;
	while ((r = read(execp[0], &exec_err, sizeof(exec_err))) < 0 && errno == EINTR)
		;
	close(execp[0]);
	execp[0] = -1;
	if (r == (ssize_t)sizeof(exec_err)) {
		int st;
		while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
			;
		res->started = 0;
		res->exec_errno = exec_err;
		close(outp[0]);
		if (want_err)
			close(errp[0]);
		if (o->on_chan) {
			close(chp[0]);
			close(ctlp[1]);
		}
		free(env);
		return error("cannot run '%s': %s", o->argv[0], strerror(exec_err));
	}
	res->started = 1;
	/* every pipe the parent reads the child on is non-blocking: the child
	 * can reopen its own end through /proc/self/fd/N as a read end too,
	 * and take back the bytes that woke the parent's poll before the
	 * parent reads them; a blocking read() then waited past every time
	 * limit (red team 5, chan_steal: evident run hung for good) */
	nonblock_reads(outp[0], want_err ? errp[0] : -1, o->on_chan ? chp[0] : -1);
	if (o->on_start)
		o->on_start(pid, o->on_chan ? chp[0] : -1, o->ctx);

	struct strbuf pending = STRBUF_INIT;
	unsigned long long dropped[2] = { 0, 0 };
	int open_fds = 1 + want_err + (o->on_chan != NULL);
	struct pollfd pfd[3] = { { outp[0], POLLIN, 0 },
				 { want_err ? errp[0] : -1, POLLIN, 0 },
				 { o->on_chan ? chp[0] : -1, POLLIN, 0 } };
	char buf[65536];
	while (open_fds > 0) {
		int wait_ms = -1;
		if (res->end_seconds > 0) {
			double left = res->end_seconds + o->end_grace_s - (mono_now() - t0);
			if (left <= 0) {
				if (o->on_end_kill)
					o->on_end_kill(o->ctx);
				kill_child(o, pid, res);
				res->killed_at_end = 1;
				res->end_no_grace = o->end_grace_s <= 0;
				break;
			}
			wait_ms = (int)(left * 1000) + 1;
		}
		if (o->timeout_s > 0) {
			double left = o->timeout_s - (mono_now() - t0);
			if (left <= 0) {
				kill_child(o, pid, res);
				res->timed_out = 1;
				break;
			}
			if (wait_ms < 0 || (int)(left * 1000) + 1 < wait_ms)
				wait_ms = (int)(left * 1000) + 1;
		}
		if (runcmd_interrupted) {
			kill_child(o, pid, res);
			break;
		}
		if (wait_ms < 0 || wait_ms > 200)
			wait_ms = 200; /* wake up to notice interrupts */
		int n = poll(pfd, 3, wait_ms);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			break;
		}
		int stop = 0;
		for (int i = 0; i < 3 && !stop; i++) {
			ssize_t k = read_ready(&pfd[i], buf, sizeof(buf));
			if (k < 0)
				open_fds--;
			if (k <= 0)
				continue;
			if (i < 2) {
				keep_output(i, buf, (size_t)k, o, &pending, dropped);
			} else {
				int r = o->on_chan(buf, (size_t)k, ctlp[1], o->ctx);
				if (r < 0) {
					kill_child(o, pid, res);
					res->killed_by_parent = 1;
					stop = 1;
				} else if (r > 0 && res->end_seconds <= 0) {
					/* the job is over: what is left is its grace */
					res->end_seconds = mono_now() - t0;
					if (res->end_seconds <= 0)
						res->end_seconds = 1e-9;
				}
			}
		}
		if (stop)
			break;
	}
	if (res->timed_out || res->killed_by_parent || res->killed_at_end)
		drain_killed(pfd, o, &pending, dropped);
	if (o->on_line && pending.len)
		o->on_line(pending.buf, o->ctx);
	if (dropped[0] && o->out)
		strbuf_addf(o->out, "\n[evident: %llu more bytes of stdout were dropped]\n", dropped[0]);
	if (dropped[1] && o->err)
		strbuf_addf(o->err, "\n[evident: %llu more bytes of stderr were dropped]\n", dropped[1]);
	strbuf_release(&pending);
	for (int i = 0; i < 3; i++)
		if (pfd[i].fd >= 0)
			close(pfd[i].fd);
	if (ctlp[1] >= 0)
		close(ctlp[1]);

	int st = 0;
	wait_child(o, pid, t0, res->timed_out || res->killed_by_parent || res->killed_at_end || runcmd_interrupted,
		   &st, res);
	/* anything the child left behind in its group goes too (a box's pid 1
	 * is gone by now: bubblewrap ends when it does) */
	kill(-pid, SIGKILL);
	res->seconds = mono_now() - t0;
	int ours = res->timed_out || res->killed_by_parent || res->killed_at_end;
	if (WIFEXITED(st) && o->signal_in_exit_code && WEXITSTATUS(st) > 128 && WEXITSTATUS(st) < 128 + 65 &&
	    !ours) {
		res->signaled = 1;
		res->signo = WEXITSTATUS(st) - 128;
	} else if (WIFEXITED(st)) {
		res->exited = 1;
		res->exit_code = WEXITSTATUS(st);
	} else if (WIFSIGNALED(st)) {
		res->signaled = !ours;
		res->signo = WTERMSIG(st);
	}
	free(env);
	return 0;

fail:
	for (int i = 0; i < RUN_MAX_PASS_FD; i++)
		if (keep_child[i] >= 0)
			close(keep_child[i]);
	if (ch_child >= 0)
		close(ch_child);
	if (ctl_child >= 0)
		close(ctl_child);
	for (int i = 0; i < 2; i++) {
		if (chp[i] >= 0)
			close(chp[i]);
		if (ctlp[i] >= 0)
			close(ctlp[i]);
		if (outp[i] >= 0)
			close(outp[i]);
		if (errp[i] >= 0)
			close(errp[i]);
		if (execp[i] >= 0)
			close(execp[i]);
	}
	free(env);
	return -1;
}
