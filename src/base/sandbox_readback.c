/*
 * sandbox_readback.c - a box's seccomp filter read back from the boxed
 * process and compared with the program the runner built, instruction by
 * instruction (sandbox.h).  The probes (sandbox_probe.c) show what a
 * filter does to 17 calls; a stand-in bubblewrap that runs evident's own
 * program with a rule of its own in front (red team 133: `allow fork`,
 * syscall 57, which no probe makes) answers every probe as evident's does
 * and lets a kernel fork.  Where the runner may trace its boxes (root, or
 * CAP_SYS_ADMIN with CAP_SYS_PTRACE: the GPU hosts, CI; no seccomp filter
 * of the runner's own refusing ptrace; Yama allows a parent to trace its
 * descendants), the runner attaches to the worker while it waits for the
 * verdict on its hello (protocol.h: nothing but evident's code has run in
 * the box yet), stops it, reads its filters with PTRACE_SECCOMP_GET_FILTER
 * and detaches: after the runner's own filters (inherited by every child)
 * the next must be the program the runner handed to bubblewrap, byte for
 * byte, and the last (a second filter of SECCOMP_RET_USER_NOTIF or TRACE
 * would let a supervisor outside answer the calls evident's program
 * allows).
 * Whether the runner can read filters is learned once a run on a child of
 * its own with the strict program loaded (sandbox_readback_prepare); where
 * it cannot, the record says why and the probes remain the proof.
 */
#include "base/sandbox.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <sched.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/ptrace.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#ifndef PTRACE_SECCOMP_GET_FILTER
#define PTRACE_SECCOMP_GET_FILTER 0x420c
#endif

/* the program in fd (a profile's memfd): a buffer the caller frees, its
 * instruction count in *n; NULL where it cannot be read */
static struct sock_filter *program_of(int fd, long *n)
{
	struct stat st;
	if (fd < 0 || fstat(fd, &st) < 0 || st.st_size <= 0 || st.st_size % (off_t)sizeof(struct sock_filter) ||
	    st.st_size > (off_t)(BPF_MAXINSNS * sizeof(struct sock_filter)))
		return NULL;
	struct sock_filter *p = xmalloc((size_t)st.st_size);
	if (pread(fd, p, (size_t)st.st_size, 0) != st.st_size) {
		free(p);
		return NULL;
	}
	*n = (long)(st.st_size / (off_t)sizeof(struct sock_filter));
	return p;
}

/* wait up to about 2 s for pid, traced, to stop; 1 stopped, 0 gone, -1
 * not.  A waiting worker stops within microseconds: the CPU is handed
 * over first (on a loaded machine the runner would poll its own time
 * slice away), then 100 us naps. */
static int await_stop(int pid)
{
	struct timespec nap = { 0, 100000 };
	for (int i = 0; i < 20200; i++) {
		int st = 0;
		pid_t r = waitpid(pid, &st, __WALL | WNOHANG);
		if (r == pid)
			return WIFSTOPPED(st) ? 1 : 0;
		if (r < 0 && errno != EINTR)
			return errno == ECHILD ? 0 : -1;
		if (i < 200)
			sched_yield();
		else
			nanosleep(&nap, NULL);
	}
	return -1;
}

int sandbox_readback(int pid, int program_fd, int runner_filters, struct strbuf *why)
{
	long want_n = 0;
	struct sock_filter *want = program_of(program_fd, &want_n);
	if (!want) {
		strbuf_addstr(why, "the box's program could not be read back from its descriptor");
		return -1;
	}
	if (ptrace(PTRACE_SEIZE, pid, 0, 0) < 0) {
		int e = errno;
		free(want);
		if (e == ESRCH)
			return SANDBOX_READBACK_GONE;
		strbuf_addf(why, "could not attach to the box's process (PTRACE_SEIZE: %s; another tracer holds it, "
				 "or the runner may not trace it)",
			    strerror(e));
		return -1;
	}
	int rc = -1;
	struct sock_filter *got = NULL;
	if (ptrace(PTRACE_INTERRUPT, pid, 0, 0) < 0) {
		strbuf_addf(why, "could not stop the box's process (PTRACE_INTERRUPT: %s)", strerror(errno));
		goto detach;
	}
	int s = await_stop(pid);
	if (s == 0) {
		rc = SANDBOX_READBACK_GONE;
		goto out; /* it ended: no tracee left to detach */
	}
	if (s < 0) {
		strbuf_addstr(why, "the box's process did not stop within 2 s to have its filter read");
		goto detach;
	}
	/* PTRACE_SECCOMP_GET_FILTER counts from the oldest filter (index 0;
	 * kernel/seccomp.c get_nth_filter, measured: a child that loaded A
	 * then B answers A at 0): the runner's own are 0 .. runner_filters - 1,
	 * the box's program must be the next and the last */
	long at = runner_filters;
	if (at < 0) /* the runner's count unknown: the newest, whatever its index */
		for (at = 0; at < 64; at++) {
			errno = 0;
			if (ptrace(PTRACE_SECCOMP_GET_FILTER, pid, at + 1, NULL) < 0 && errno == ENOENT)
				break;
		}
	errno = 0;
	long n = ptrace(PTRACE_SECCOMP_GET_FILTER, pid, at, NULL);
	if (n < 0) {
		int e = errno;
		/* ENOENT: no filter at that index; EINVAL: none at all (not in
		 * filter mode: that the runner can read filters was learned on
		 * a child of its own, sandbox_readback_prepare) */
		strbuf_addf(why, "could not read the box's filter at index %ld, after the runner's own %d "
				 "(PTRACE_SECCOMP_GET_FILTER: %s)",
			    at, runner_filters,
			    e == ENOENT   ? "it has no filter beyond the runner's"
			    : e == EINVAL ? "it has no seccomp filter at all"
					  : strerror(e));
		rc = e == ENOENT || e == EINVAL ? 0 : -1;
		goto detach;
	}
	got = xcalloc((size_t)n + 1, sizeof(*got));
	if (ptrace(PTRACE_SECCOMP_GET_FILTER, pid, at, got) != n) {
		strbuf_addf(why, "could not read the box's filter (PTRACE_SECCOMP_GET_FILTER: %s)", strerror(errno));
		goto detach;
	}
	if (n != want_n || memcmp(got, want, (size_t)n * sizeof(*got))) {
		long first = 0;
		while (first < n && first < want_n && !memcmp(&got[first], &want[first], sizeof(*got)))
			first++;
		strbuf_addf(why, "its seccomp filter after the runner's own is not the program the runner handed it: "
				 "%ld instructions against the program's %ld, the first difference at instruction %ld "
				 "(read back from the worker's process with PTRACE_SECCOMP_GET_FILTER before any kernel "
				 "code loaded)",
			    n, want_n, first);
		rc = 0;
		goto detach;
	}
	/* and nothing after it (a second filter of the stand-in's) */
	errno = 0;
	long more = ptrace(PTRACE_SECCOMP_GET_FILTER, pid, at + 1, NULL);
	if (more >= 0 || errno != ENOENT) {
		strbuf_addf(why, "it has seccomp filters beyond the runner's program and the runner's own %d (a filter "
				 "%s at index %ld, read back with PTRACE_SECCOMP_GET_FILTER before any kernel code "
				 "loaded)",
			    runner_filters, more >= 0 ? "found" : strerror(errno), at + 1);
		rc = 0;
		goto detach;
	}
	rc = 1;
detach:
	ptrace(PTRACE_DETACH, pid, 0, 0);
out:
	free(got);
	free(want);
	return rc;
}

void sandbox_readback_prepare(struct sandbox *sb)
{
	/* learned once a process: whether it may trace its boxes does not
	 * change while it runs (a run opens a box for its plug-ins' build and
	 * one for its jobs) */
	static int known = -1;
	static char *known_why;
	free(sb->readback_why);
	sb->readback_why = NULL;
	sb->readback_ready = 0;
	if (known >= 0) {
		sb->readback_ready = known;
		sb->readback_why = known_why ? xstrdup(known_why) : NULL;
		return;
	}
	struct strbuf why = STRBUF_INIT;
	long n = 0;
	struct sock_filter *prog = program_of(sb->filter_fd[SANDBOX_STRICT], &n);
	int go[2], ready[2];
	if (!prog || pipe2(go, O_CLOEXEC) < 0) {
		free(prog);
		sb->readback_why = xstrdup("the strict program could not be read");
		return;
	}
	if (pipe2(ready, O_CLOEXEC) < 0) {
		close(go[0]);
		close(go[1]);
		free(prog);
		sb->readback_why = xstrdup("no pipe for the test child");
		return;
	}
	struct sock_fprog fp = { (unsigned short)n, prog };
	pid_t pid = fork();
	if (pid == 0) {
		char c;
		close(go[1]);
		close(ready[0]);
		if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0 || prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &fp, 0, 0) < 0)
			_exit(100);
		if (write(ready[1], "r", 1) != 1)
			_exit(101);
		/* as a worker waits for its hello's answer */
		while (read(go[0], &c, 1) < 0 && errno == EINTR)
			;
		_exit(0);
	}
	free(prog);
	close(go[0]);
	close(ready[1]);
	char c = 0;
	ssize_t r = -1;
	if (pid > 0)
		while ((r = read(ready[0], &c, 1)) < 0 && errno == EINTR)
			;
	close(ready[0]);
	if (pid < 0 || r != 1) {
		strbuf_addstr(&why, "the test child could not load the strict program");
	} else {
		struct sandbox_seen me;
		sandbox_self_seen(&me);
		int rc = sandbox_readback(pid, sb->filter_fd[SANDBOX_STRICT], me.filters, &why);
		if (rc == 1)
			sb->readback_ready = 1;
		else if (!why.len)
			strbuf_addstr(&why, "the test child ended before its filter was read");
	}
	close(go[1]);
	if (pid > 0)
		while (waitpid(pid, NULL, 0) < 0 && errno == EINTR)
			;
	if (!sb->readback_ready)
		sb->readback_why = strbuf_detach(&why, NULL);
	strbuf_release(&why);
	known = sb->readback_ready;
	known_why = sb->readback_why ? xstrdup(sb->readback_why) : NULL;
}
