/*
 * runcmd.h - spawn a program with an argv array (never a shell), capture
 * its output, enforce a wall-clock limit.  Follows git's run-command.c:
 * only async-signal-safe calls between fork and exec, exec errors travel
 * back to the parent on a close-on-exec pipe, and the child runs in its own
 * process group so that a timeout kills it and everything it started (a
 * sandbox's pid 1, in a session of its own, too: kill_box).  The time
 * limit holds until the child has exited, not only while its output is
 * open.
 */
#ifndef EVIDENT_RUNCMD_H
#define EVIDENT_RUNCMD_H

#include "base/util.h"

struct run_result {
	int started;      /* 0 if exec failed (exec_errno says why) */
	int exec_errno;
	int exited;       /* 1: exited normally with exit_code */
	int exit_code;
	int signaled;     /* 1: killed by signal signo */
	int signo;
	int timed_out;    /* 1: killed by us at the time limit */
	int killed_by_parent; /* 1: on_chan asked for it */
	/* 1: on_chan said the child's job was over (its last message in) and
	 * the child was still there end_grace_s later: killed then, not a
	 * crash (run_opts.end_grace_s) */
	int killed_at_end;
	int end_no_grace;  /* and that grace was 0: killed at its last message, by design */
	double end_seconds; /* when on_chan said so, since the start; 0: it never did */
	double seconds;   /* wall-clock */
	/* With run_opts.kill_box, when the parent killed the box: seconds from
	 * the box's pid 1's SIGKILL to its last thread gone (its memory freed,
	 * its files closed), waited for up to RUN_BOX_EXIT_MAX_S; -1: not
	 * killed, or not measured (no pidfd) */
	double box_exit_s;
	int box_exit_late; /* 1: still there RUN_BOX_EXIT_MAX_S after its kill */
};

/* A killed box still there this long after its kill is late (the run is a
 * protocol_violation, outcome.c); the kill waits on for it to be gone up
 * to RUN_BOX_EXIT_HARD_S (run_result.box_exit_s): red team 50's late_exit
 * took 30 to 100 s to free 2 GiB of page tables, and the next job on its
 * slot, started at 30 s, ran 2-5x slower beside that exit */
#define RUN_BOX_EXIT_MAX_S 30.0
#define RUN_BOX_EXIT_HARD_S 600.0

/* Called with each complete line of the child's stdout (without the '\n'). */
typedef void (*line_fn)(const char *line, void *ctx);
/*
 * Called with bytes the child wrote on its protocol channel (fd 3), as
 * they arrive; reply_fd is the parent's end of the child's fd 4, for
 * answers.  reply_fd is non-blocking: a write into a pipe the child
 * stopped reading (or filled itself, reopening its fd 4 for writing
 * through /proc/self/fd/4) fails with EAGAIN at once instead of waiting
 * past every time limit (red team 5, pipe_block); a protocol that
 * answers one byte per message never fills it.  Return 0 to go on, or -1 to kill the child now (a protocol
 * violation): its process group gets SIGKILL and run_command returns as
 * for any ending (res->killed_by_parent = 1), or 1 when the child's job is
 * over (its last message is in): it then has run_opts.end_grace_s to end
 * by itself, and is killed after that (res->killed_at_end).
 */
typedef int (*chan_fn)(const char *buf, size_t n, int reply_fd, void *ctx);

/* descriptors a spawn passes (run_opts.pass_fd): the seccomp program,
 * shared memory, the job, a plan, and a box's copies (sandbox.h
 * SANDBOX_MAX_FRESH); each lands below RUN_PASS_FD_LIMIT */
#define RUN_MAX_PASS_FD 80
#define RUN_PASS_FD_LIMIT 100
/* stdout and stderr are each kept up to this; the rest is drained and counted */
#define RUN_KEEP_BYTES ((size_t)4 << 20)

/* The most descriptors a child with no_core (a box's, a build's) may
 * hold: every new pipe is charged 16 pages to its user host-wide, and past
 * pipe-user-pages-soft (16384 pages) a new pipe gets 2; a box that made
 * pipes until one read 8 KiB learned every other root process's pipe
 * pages (red team 134's pipecount: 976 alone, 469 beside 32 MiB held; a
 * channel between boxes alive at once, and 8 KiB pipes for every root
 * process while it held them).  At 1024 descriptors (Ubuntu's default
 * soft limit, under which CUDA programs run) a box holds at most 511
 * pipes, 8176 pages, half the soft limit. */
#define RUN_BOX_NOFILE 1024
/* A host box (no socket of any kind, so no descriptor held in flight
 * either) runs kernel or problem code with at most 256: 256 pipes, 4096
 * pages, a quarter of the soft limit; the gauge then reads only other
 * processes holding 48 MiB of pipes or more.  A GPU box keeps 1024 (its
 * sockets can hold as many more in flight: not closed there). */
#define RUN_HOST_BOX_NOFILE 256

struct run_opts {
	const char *const *argv;  /* argv[0] is looked up in PATH (execvp) */
	const char *cwd;          /* NULL: inherit */
	double timeout_s;         /* <= 0: none */
	int merge_stderr;         /* 1: stderr goes into out too */
	struct strbuf *out;       /* stdout (and stderr if merged), may be NULL */
	size_t out_keep;          /* 0: stdout kept up to RUN_KEEP_BYTES; else up to this */
	struct strbuf *err;       /* stderr when not merged, may be NULL (then inherited) */
	line_fn on_line;          /* optional: stdout lines as they arrive */
	void *ctx;
	const char *const *env_set; /* "NAME=VALUE" to add, NULL-terminated, or NULL */
	/* NULL: the child inherits this process's whole environment.  Else
	 * it gets only the variables whose names the list admits ("NAME"
	 * admits NAME, "PREFIX*" every name starting with PREFIX, "!NAME"
	 * refuses NAME whatever else admits it), then
	 * env_set: a boxed kernel must not read the runner's credentials
	 * (sandbox.h sandbox_env_keep). */
	const char *const *env_keep;
	/* The worker's channels: when on_chan is set, the child gets a pipe
	 * at fd 3 to write its protocol on and one at fd 4 to read answers
	 * from (both opened before exec, so before any code it loads). */
	chan_fn on_chan;
	/* More descriptors for the child: pass_fd[i] (the parent's) appears
	 * in the child at pass_fd_at[i] (> 4), inherited across exec; an
	 * entry is off while its pass_fd_at is 0.  Used for the sandbox's
	 * seccomp filter and the host worker's shared memory. */
	int pass_fd[RUN_MAX_PASS_FD], pass_fd_at[RUN_MAX_PASS_FD];
	/* Optional: called once the child runs (exec succeeded), with its pid
	 * and the parent's read end of its protocol channel (-1 without
	 * on_chan), for a caller that drives the child itself from on_chan. */
	void (*on_start)(int pid, int chan_fd, void *ctx);
	/* The child is a wrapper (bubblewrap) that reports its own child's
	 * death by signal N as exit status 128 + N: turn that back into a
	 * signal in run_result, so that a crash is classified as a crash. */
	int signal_in_exit_code;
	/* Resource limits set in the child before exec (setrlimit), inherited
	 * by everything it starts; 0: none.  RLIMIT_AS (bytes of address
	 * space per process) and RLIMIT_FSIZE (bytes of one file written). */
	unsigned long long limit_as_bytes, limit_fsize_bytes;
	/* 1..1000: the child's oom_score_adj, set before exec and inherited
	 * by everything it starts (0: left alone).  A boxed kernel can hold
	 * memory no resident size counts (tmpfs, memfd, SysV segments), so
	 * the OOM killer must pick it first, whatever its size (red team 3,
	 * mem_hide); lowering the value needs CAP_SYS_RESOURCE, which the box
	 * drops. */
	int oom_score_adj;
	/* 1: RLIMIT_CORE 0, soft and hard, set before exec: no core dump of
	 * the child, and none it can ask for (raising the hard limit needs
	 * CAP_SYS_RESOURCE).  A dump is the host writing the process's memory
	 * outside its box, through a pipe pattern (apport, systemd-coredump)
	 * as root in the host's namespaces (red team 4, core_raise).  Also
	 * RLIMIT_RTPRIO and RLIMIT_NICE 0: the box drops CAP_SYS_NICE, so a
	 * kernel can then neither take a real-time class nor a nice below 0
	 * and be scheduled ahead of everything else, whatever limits the
	 * runner was given (red team 8, judged from the code).  And
	 * RLIMIT_NOFILE at most box_nofile (RUN_BOX_NOFILE where 0), soft
	 * and hard. */
	int no_core;
	int box_nofile;
	/* 1: RLIMIT_SIGPENDING 0, soft and hard, set before exec: the child
	 * can queue no real-time signal to itself (its own tgkill or
	 * sigqueue fail with EAGAIN; a kill() from another process, the
	 * runner's SIGSTOP and SIGCONT, is delivered as before).  The count
	 * that limit bounds is kept per user and user namespace, charged to
	 * every namespace above too, so the host's root count moves with
	 * a box's: red team 158's sigq held 48-1000 blocked real-time
	 * signals to signal a twin in the other pool slot, and sigfill took
	 * all of root's 96,369, so that every root process on the host got
	 * EAGAIN for 8 s.  The limit does not bound standard signals sent
	 * with si_code >= 0 (a kill() to itself, SIGPIPE, SIGIO), which the
	 * kernel queues over it: one pending a signal a process or thread,
	 * 28 + 3 a thread (red team 164's stdsigfill: 6028 with 2000
	 * threads, seen in root's host-wide count, which a host box, in a
	 * user namespace of its own, cannot read: sandbox.c
	 * push_namespaces).  Host worker boxes (they refuse timer_create
	 * too); a GPU box is left alone (what the CUDA driver queues is not
	 * measured). */
	int no_sigq;
	/* 1: the child and what it execs run without address space layout
	 * randomisation (personality ADDR_NO_RANDOMIZE): a sealed kernel's
	 * planner, whose plan must not differ from process to process by the
	 * addresses its host code left in a struct's padding (red team 53's
	 * pad1, a struct built by a function returning it); the kernel's code
	 * runs in that process anyway, so randomising it protects nothing */
	int no_aslr;
	/* 1: the child is bubblewrap and its one child the box's pid 1.
	 * Whenever the child is killed (timeout, on_chan's -1, an interrupt)
	 * the box's pid 1 is killed first, which ends its whole PID
	 * namespace: the box runs in a session of its own, out of the
	 * child's process group, and a pid 1 that cleared its parent-death
	 * signal outlived bubblewrap (red team 4, outlive). */
	int kill_box;
	/* Seconds a child may still run once on_chan returned 1 (its job is
	 * over), 0: none (it is killed at once).  Nothing a kernel's code does
	 * after its job's last message is evidence, and a box that runs on
	 * runs beside the next job (another pool slot's timed samples: red
	 * team 13, rt13_slot_hog). */
	double end_grace_s;
	/* Optional: called with ctx just before the child is killed at the
	 * end of that grace, while it is still there to be read (job.c reads
	 * the worker's CPU clock: how much of the grace it used). */
	void (*on_end_kill)(void *ctx);
};

/* The one child of process pid (the box's pid 1 under bubblewrap), from
 * /proc/PID/task/PID/children, else by a scan of /proc for its parent;
 * -1 when it has none (or /proc cannot tell). */
int run_child_pid(int pid);

/*
 * Run and wait.  Returns 0 when the child was started and waited for
 * (whatever its exit status: see res), -1 (after error()) when it could not
 * be started at all.
 */
int run_command(const struct run_opts *o, struct run_result *res);
/* The hash of the environment run_command would give a child with these
 * env_set and env_keep (run_opts), the variables named in skip (NULL, or
 * a NULL-terminated list of names) left out: each NAME=VALUE, sorted,
 * NUL-terminated.  What of the runner's environment a boxed kernel can
 * read (a run record's settings.environment_sha256). */
void run_env_sha256(const char *const *env_set, const char *const *env_keep, const char *const *skip,
		    char out[SHA256_HEX_LEN + 1]);

/* Human text for how a child ended: "exit 1", "SIGSEGV", "timeout after 5 s". */
void run_result_describe(const struct run_result *r, struct strbuf *sb);
/* "SIGSEGV" etc. for a signal number. */
const char *signal_name(int signo);

/* Set by SIGINT/SIGTERM handlers installed with runcmd_trap_signals(). */
extern volatile int runcmd_interrupted;
void runcmd_trap_signals(void);

/* sched_setattr(2)'s and sched_getattr(2)'s argument (the C library's
 * struct is recent: glibc 2.41), as far as SCHED_ATTR_SIZE_VER1 (56
 * bytes): what a boxed child sets back (runcmd.c sched_reset) and the
 * worker hashes (backends/worker.c worker_self_hash) */
struct run_sched_attr {
	unsigned int size, policy;
	unsigned long long flags;
	int nice;
	unsigned int priority;
	unsigned long long runtime, deadline, period;
	unsigned int util_min, util_max;
};

#endif /* EVIDENT_RUNCMD_H */
