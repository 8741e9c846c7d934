/*
 * sandbox_probe.c - proof that a box's seccomp filter is the program the
 * runner built, by what it does, not by what /proc says of it (sandbox.h;
 * red team 131: EVIDENT_BWRAP may name any bubblewrap, and one that loads
 * an allow-everything filter of its own in place of evident's shows
 * Seccomp 2, a filter more than the runner's and NoNewPrivs 1 as the real
 * box does).  A worker, before any object but its own loads, makes a set
 * of calls (sandbox_probe_run) that every box's program refuses in some
 * profile, each with arguments the kernel itself rejects (a bad
 * descriptor, pid or flag, a null pointer), so that a call let through
 * changes nothing and answers with the kernel's own errno (EBADF, EINVAL,
 * ESRCH, EFAULT), never with the ones the programs return (EPERM, ENOSYS
 * for clone3 and pidfd_open, EAFNOSUPPORT for sockets); one call, a plain
 * process clone (fork), is made as a kernel makes it, where the box
 * refuses processes.  The calls are raw (inline `syscall` on x86_64), so
 * a wrapper of libc's functions (an LD_PRELOAD) cannot answer them.  The
 * runner made the same calls once in a child of its own with the box's
 * program loaded (sandbox_probe_expect: what the program answers, read
 * from the program itself, so the expectation follows every change of the
 * filter), and refuses a box whose answer differs from the program's
 * wherever the program refuses (sandbox_probes_ok).  What it cannot
 * prove: a filter written to answer these calls with these arguments as
 * evident's does and to let other arguments (or calls) through (README,
 * "Still out of reach").
 */
#include "base/sandbox.h"
#include "base/sandbox_int.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <sched.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#ifndef SYS_clone3
#define SYS_clone3 435
#endif
#ifndef SYS_pidfd_open
#define SYS_pidfd_open 434
#endif
#ifndef SYS_io_uring_setup
#define SYS_io_uring_setup 425
#endif
#ifndef F_SETSIG
#define F_SETSIG 10
#endif
#ifndef SO_COOKIE
#define SO_COOKIE 57
#endif

/* a call, its arguments, and what it makes when let through with other
 * arguments: a process (PROBE_PROCESS), a descriptor (PROBE_FD) */
enum { PROBE_NOTHING = 0, PROBE_PROCESS = 1, PROBE_FD = 2 };
struct probe {
	const char *name;
	long nr;
	long a[6];
	int makes;
};

static const char probe_path[] = "evident-probe";

/* The calls (sandbox.h SANDBOX_PROBES), in the order of their names.
 * What a strict box's program answers (host and GPU) and what the kernel
 * answers when a call is let through; compute-sanitizer's box (a deny
 * list) refuses ptrace, process_vm_readv, setns, keyctl, io_uring,
 * inotify, perf events, a file's times and a regular node, and lets the
 * rest through. */
static const struct probe probes[SANDBOX_PROBES] = {
	/* fork as a kernel forks (red team 71's forkpre, 131's forkprobe):
	 * EPERM in a strict box; let through, the child ends at once */
	{ "clone", SYS_clone, { SIGCHLD, 0, 0, 0, 0, 0 }, PROBE_PROCESS },
	/* ENOSYS (glibc's fallback to clone); the kernel: EINVAL (size 0) */
	{ "clone3", SYS_clone3, { 0, 0, 0, 0, 0, 0 }, 0 },
	/* ENOSYS; the kernel: EINVAL (pid -1) */
	{ "pidfd_open", SYS_pidfd_open, { -1, 0, 0, 0, 0, 0 }, PROBE_FD },
	/* EAFNOSUPPORT, every family; the kernel: EINVAL (no such type) */
	{ "socket", SYS_socket, { AF_INET, 0xffff, 0, 0, 0, 0 }, PROBE_FD },
	/* EPERM; the kernel: EINVAL (no such flags) */
	{ "inotify_init1", SYS_inotify_init1, { -1, 0, 0, 0, 0, 0 }, PROBE_FD },
	/* EPERM; the kernel: ESRCH (PTRACE_PEEKDATA of pid 0) */
	{ "ptrace", SYS_ptrace, { 2, 0, 0, 0, 0, 0 }, 0 },
	/* EPERM; the kernel: EINVAL (a flag) */
	{ "process_vm_readv", SYS_process_vm_readv, { 0, 0, 0, 0, 0, 1 }, 0 },
	/* EPERM; the kernel: EINVAL or EFAULT (no entries, no params) */
	{ "io_uring_setup", SYS_io_uring_setup, { 0, 0, 0, 0, 0, 0 }, PROBE_FD },
	/* EPERM; the kernel: EFAULT (no attributes) */
	{ "perf_event_open", SYS_perf_event_open, { 0, 0, -1, -1, 0, 0 }, PROBE_FD },
	/* EPERM; the kernel: EBADF */
	{ "setns", SYS_setns, { -1, 0, 0, 0, 0, 0 }, 0 },
	/* EPERM; the kernel: EOPNOTSUPP (no such operation) */
	{ "keyctl", SYS_keyctl, { -1, 0, 0, 0, 0, 0 }, 0 },
	/* EPERM in a host box (and a GPU box with SANDBOX_GPU_REFUSES_SYSINFO);
	 * the kernel: EFAULT */
	{ "sysinfo", SYS_sysinfo, { 0, 0, 0, 0, 0, 0 }, 0 },
	/* EPERM in a host box (SIGCONT, self_signals); the kernel: EINVAL */
	{ "tgkill_sigcont", SYS_tgkill, { -1, -1, SIGCONT, 0, 0, 0 }, 0 },
	/* EPERM in a host box (host_fcntl); the kernel: EBADF */
	{ "fcntl_setsig", SYS_fcntl, { -1, F_SETSIG, 0, 0, 0, 0 }, 0 },
	/* EPERM (SO_COOKIE); the kernel: EBADF */
	{ "getsockopt", SYS_getsockopt, { -1, SOL_SOCKET, SO_COOKIE, 0, 0, 0 }, 0 },
	/* EPERM (a regular node); the kernel: EBADF */
	{ "mknodat", SYS_mknodat, { -1, (long)probe_path, S_IFREG | 0600, 0, 0, 0 }, 0 },
	/* EPERM (a file's times); the kernel: EBADF */
	{ "utimensat", SYS_utimensat, { -1, (long)probe_path, 0, 0, 0, 0 }, 0 },
};

const char *sandbox_probe_name(int i)
{
	return i >= 0 && i < SANDBOX_PROBES ? probes[i].name : "?";
}

/* nr with its arguments, without libc: the result, or -errno */
static long raw_call(long nr, const long *a)
{
#if defined(__x86_64__)
	long ret;
	register long r10 __asm__("r10") = a[3];
	register long r8 __asm__("r8") = a[4];
	register long r9 __asm__("r9") = a[5];
	__asm__ volatile("syscall"
			 : "=a"(ret)
			 : "a"(nr), "D"(a[0]), "S"(a[1]), "d"(a[2]), "r"(r10), "r"(r8), "r"(r9)
			 : "rcx", "r11", "memory");
	return ret;
#else
	/* (libc's syscall(): a preloaded wrapper could answer it here) */
	long r = syscall(nr, a[0], a[1], a[2], a[3], a[4], a[5]);
	return r < 0 ? -(long)errno : r;
#endif
}

static void raw_exit(void)
{
	static const long z[6] = { 0 };
	raw_call(SYS_exit_group, z);
	for (;;)
		;
}

void sandbox_probe_run(int processes, int *res)
{
	for (int i = 0; i < SANDBOX_PROBES; i++) {
		const struct probe *p = &probes[i];
		if (p->makes == PROBE_PROCESS && !processes) {
			res[i] = SANDBOX_PROBE_SKIPPED;
			continue;
		}
		long r = raw_call(p->nr, p->a);
		if (r == 0 && p->makes == PROBE_PROCESS)
			raw_exit(); /* the child of a clone let through */
		if (r > 0 && p->makes == PROBE_PROCESS) {
			/* a child was made: reaped where the box lets it */
			long w[6] = { r, 0, __WALL, 0, 0, 0 };
			raw_call(SYS_wait4, w);
		} else if (r >= 0 && p->makes == PROBE_FD) {
			/* (never with these arguments: a kernel that took them) */
			long c[6] = { r, 0, 0, 0, 0, 0 };
			raw_call(SYS_close, c);
		}
		res[i] = r >= 0 ? 0 : (int)-r;
	}
}

/*
 * What a program answered, kept for the process: by the program's bytes
 * (their SHA-256) and whether processes were probed.  The answers are the
 * program's, run on this kernel: the same bytes answer the same, so a
 * second box of the process (the plug-ins' build box, then the run's:
 * both host boxes of the same programs) takes them without a child of its
 * own (a fork each profile: 3 to 5 ms of CPU on the project's VM).  A
 * program that differs by a byte is run in a child as the first was.
 */
struct probe_memo {
	char sha[SHA256_HEX_LEN + 1];
	int processes;
	int expect[SANDBOX_PROBES];
};
static struct probe_memo *probe_memo;
static size_t n_probe_memo;

int sandbox_probe_expect(int filter_fd, int processes, int *expect)
{
	struct stat st;
	if (fstat(filter_fd, &st) < 0 || st.st_size <= 0 || st.st_size % (off_t)sizeof(struct sock_filter) ||
	    st.st_size > (off_t)(BPF_MAXINSNS * sizeof(struct sock_filter)))
		return -1;
	struct sock_filter *prog = xmalloc((size_t)st.st_size);
	if (pread(filter_fd, prog, (size_t)st.st_size, 0) != st.st_size) {
		free(prog);
		return -1;
	}
	char sha[SHA256_HEX_LEN + 1];
	struct sha256_ctx *h = sha256_begin();
	sha256_update(h, prog, (size_t)st.st_size);
	sha256_end(h, sha);
	for (size_t i = 0; i < n_probe_memo; i++)
		if (probe_memo[i].processes == processes && !strcmp(probe_memo[i].sha, sha)) {
			free(prog);
			memcpy(expect, probe_memo[i].expect, sizeof(probe_memo[i].expect));
			return 0;
		}
	struct sock_fprog fp = { (unsigned short)(st.st_size / (off_t)sizeof(struct sock_filter)), prog };
	int pfd[2];
	if (pipe2(pfd, O_CLOEXEC) < 0) {
		free(prog);
		return -1;
	}
	pid_t pid = fork();
	if (pid == 0) {
		int res[SANDBOX_PROBES];
		close(pfd[0]);
		if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0 || prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &fp, 0, 0) < 0)
			_exit(100);
		sandbox_probe_run(processes, res);
		_exit(write(pfd[1], res, sizeof(res)) == (ssize_t)sizeof(res) ? 0 : 101);
	}
	free(prog);
	close(pfd[1]);
	int got = -1, rc = -1;
	if (pid > 0) {
		ssize_t n = 0, r;
		while (n < (ssize_t)(SANDBOX_PROBES * sizeof(int)) &&
		       ((r = read(pfd[0], (char *)expect + n, SANDBOX_PROBES * sizeof(int) - (size_t)n)) > 0 ||
			(r < 0 && errno == EINTR)))
			n += r > 0 ? r : 0;
		int ws = 0;
		while (waitpid(pid, &ws, 0) < 0 && errno == EINTR)
			;
		got = n == (ssize_t)(SANDBOX_PROBES * sizeof(int)) && WIFEXITED(ws) && WEXITSTATUS(ws) == 0;
	}
	close(pfd[0]);
	/* a program that refuses none of them proves nothing by them */
	for (int i = 0; got > 0 && i < SANDBOX_PROBES; i++)
		if (sandbox_probe_refusal(expect[i]))
			rc = 0;
	if (rc == 0) {
		probe_memo = xrealloc(probe_memo, (n_probe_memo + 1) * sizeof(*probe_memo));
		struct probe_memo *m = &probe_memo[n_probe_memo++];
		memcpy(m->sha, sha, sizeof(m->sha));
		m->processes = processes;
		memcpy(m->expect, expect, sizeof(m->expect));
	}
	return rc;
}

int sandbox_probe_refusal(int e)
{
	return e == EPERM || e == ENOSYS || e == EAFNOSUPPORT;
}

static void errno_text(struct strbuf *sb, int e)
{
	if (e == 0)
		strbuf_addstr(sb, "succeeded");
	else if (e == SANDBOX_PROBE_SKIPPED)
		strbuf_addstr(sb, "not made");
	else if (e == SANDBOX_PROBE_MISSING)
		strbuf_addstr(sb, "not reported");
	else if (e == EPERM)
		strbuf_addstr(sb, "EPERM");
	else if (e == ENOSYS)
		strbuf_addstr(sb, "ENOSYS");
	else if (e == EAFNOSUPPORT)
		strbuf_addstr(sb, "EAFNOSUPPORT");
	else if (e == EINVAL)
		strbuf_addstr(sb, "EINVAL");
	else if (e == EBADF)
		strbuf_addstr(sb, "EBADF");
	else if (e == EFAULT)
		strbuf_addstr(sb, "EFAULT");
	else if (e == ESRCH)
		strbuf_addstr(sb, "ESRCH");
	else if (e == EOPNOTSUPP)
		strbuf_addstr(sb, "EOPNOTSUPP");
	else
		strbuf_addf(sb, "errno %d", e);
}

int sandbox_probes_ok(const int *seen, const int *expect, const char *tool, struct strbuf *why)
{
	struct strbuf diff = STRBUF_INIT;
	int n = 0, compared = 0;
	for (int i = 0; i < SANDBOX_PROBES; i++) {
		if (!sandbox_probe_refusal(expect[i]))
			continue;
		compared++;
		if (seen[i] == expect[i])
			continue;
		strbuf_addf(&diff, "%s%s ", n++ ? ", " : "", probes[i].name);
		errno_text(&diff, seen[i]);
		strbuf_addstr(&diff, " (the program: ");
		errno_text(&diff, expect[i]);
		strbuf_addstr(&diff, ")");
	}
	if (!n) {
		strbuf_release(&diff);
		return 1;
	}
	strbuf_addf(why, "the box that bubblewrap '%s' made does not refuse what its seccomp program refuses: %d of "
			 "%d calls answered otherwise (%s); the worker made them before any kernel code loaded, the "
			 "runner under the program itself in a child of its own; nothing is timed in a box that is not "
			 "the one asked for: use a bubblewrap that applies --seccomp (unset EVIDENT_BWRAP), or pass "
			 "--unsandboxed (the record will say so)",
		    tool ? tool : "?", n, compared, strbuf_str(&diff));
	strbuf_release(&diff);
	return 0;
}

int sandbox_probe_prepare(struct sandbox *sb, struct strbuf *why)
{
	for (int p = 0; p < SANDBOX_PROFILES; p++) {
		sb->probe_ready[p] = 0;
		/* the boxes whose process reports its probes: a worker's (strict),
		 * the checker's (relaxed), and under compute-sanitizer (a GPU
		 * run's) the sanitizer's */
		if (sb->filter_fd[p] < 0 || (p == SANDBOX_SANITIZER && !sb->gpu))
			continue;
		if (sandbox_probe_expect(sb->filter_fd[p], p == SANDBOX_STRICT, sb->probe_expect[p]) < 0) {
			strbuf_addf(why, "the box's seccomp program (%s profile) could not be run in a child of the "
					 "runner to learn what it refuses; pass --unsandboxed to time without it",
				    p == SANDBOX_STRICT ? "strict" : p == SANDBOX_RELAXED ? "relaxed" : "sanitizer");
			return -1;
		}
		sb->probe_ready[p] = 1;
	}
	return 0;
}

json_t *sandbox_probes_json(int processes)
{
	int res[SANDBOX_PROBES];
	sandbox_probe_run(processes, res);
	json_t *pr = json_object();
	for (int i = 0; pr && i < SANDBOX_PROBES; i++)
		json_object_set_new(pr, probes[i].name, json_integer(res[i]));
	return pr;
}

int sandbox_box_probes_ok(json_t *box, const int *expect, const char *tool, struct strbuf *why)
{
	int seen[SANDBOX_PROBES];
	json_t *pr = json_is_object(box) ? json_object_get(box, "probes") : NULL;
	for (int i = 0; i < SANDBOX_PROBES; i++) {
		json_t *f = json_is_object(pr) ? json_object_get(pr, probes[i].name) : NULL;
		json_int_t v = json_is_integer(f) ? json_integer_value(f) : SANDBOX_PROBE_MISSING;
		seen[i] = v >= SANDBOX_PROBE_SKIPPED && v < 4096 ? (int)v : SANDBOX_PROBE_MISSING;
	}
	return sandbox_probes_ok(seen, expect, tool, why);
}
