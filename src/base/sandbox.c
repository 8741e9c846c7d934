/*
 * sandbox.c - the box around processes that run kernel code (sandbox.h):
 * bubblewrap's argv for the namespaces and mounts, libseccomp for the
 * syscall filter, and one probe that proves both work on this machine.
 */
#include "base/sandbox.h"

#include <dirent.h>
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <glob.h>
#include <limits.h>
#include <sched.h>
#include <linux/netlink.h>
#include <seccomp.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/elf.h"
#include "base/runcmd.h"

/* Syscalls no kernel under test has a use for, in either profile: they
 * reach other processes' memory, the mount table, namespaces, the kernel
 * itself or the clocks. */
static const char *const denied[] = {
	"ptrace", "process_vm_readv", "process_vm_writev", "kcmp", "pidfd_getfd", "mount", "umount2",
	"pivot_root", "chroot", "setns", "unshare", "move_mount", "open_tree", "fsopen", "fsmount",
	"fsconfig", "fspick", "mount_setattr", "kexec_load", "kexec_file_load", "init_module",
	"finit_module", "delete_module", "bpf", "keyctl", "add_key", "request_key", "userfaultfd",
	"reboot", "swapon", "swapoff", "settimeofday", "clock_settime", "clock_adjtime", "adjtimex",
	"acct", "quotactl", "open_by_handle_at", "name_to_handle_at", "lookup_dcookie", "fanotify_init",
	"syslog", "vhangup", "iopl", "ioperm",
	/* io_uring: its kernel-side workers are threads the freeze of a host
	 * sample does not hold (run/host_clock.c) */
	"io_uring_setup", "io_uring_enter", "io_uring_register", NULL,
};

/* System V IPC and POSIX message queues: objects that outlive the call
 * that made them, in the box's IPC namespace, holding memory no resident
 * size counts; nothing a host kernel needs (red team 4, ipc_linger).
 * Refused in host boxes only: the CUDA stack's use of them is not known
 * well enough to refuse them under a GPU (shm_open is a file of /dev/shm,
 * not these). */
/*
 * Refused where a kernel's own code runs (the strict profile): changing a
 * file's times, mode, owner or extended attributes.  Everything a box
 * shows is a copy, a private tmpfs, or a device node bound from the host's
 * /dev (bubblewrap's --dev: null, zero, full, random, urandom, tty; a GPU
 * box's /dev/nvidia*), and as uid 0 without capabilities a kernel still
 * owns those nodes: red team 33 kept a run count in the access time of
 * the host's /dev/null (utimensat), which no other process moves, and an
 * eval's reference was 8x slower from its fourth run on.  A kernel needs
 * none of these calls.
 */
static const char *const denied_strict[] = {
	"utime", "utimes", "futimesat", "utimensat", "chmod", "fchmod", "fchmodat", "fchmodat2", "chown",
	"fchown", "lchown", "fchownat", "setxattr", "lsetxattr", "fsetxattr", "removexattr", "lremovexattr",
	"fremovexattr", "mknod", "mknodat", NULL,
};

static const char *const denied_host[] = {
	"shmget", "shmat", "shmdt", "shmctl", "semget", "semop", "semtimedop", "semctl", "msgget",
	"msgsnd", "msgrcv", "msgctl", "ipc", "mq_open", "mq_unlink", "mq_timedsend", "mq_timedreceive",
	"mq_notify", "mq_getsetattr", NULL,
};

/*
 * Sockets of any family, refused in host boxes (with EAFNOSUPPORT, what a
 * kernel built without the family answers, so that a library probing for
 * one carries on).  The box has a network namespace of its own, but as
 * root (the runner is root on the GPU hosts, and bubblewrap makes no user
 * namespace) that namespace is owned by the initial user namespace, and a
 * netlink socket there still hears the host's own kernel: a
 * NETLINK_KOBJECT_UEVENT socket bound to group 1 received the machine's
 * device events (hot-plug, module loads, other containers' network
 * devices; red team 6, gap_probe6).  A host kernel computes on memory
 * it is given: it has no use for any socket, a socketpair of its own
 * included.  GPU boxes keep AF_UNIX (the CUDA driver's use: MPS, the
 * persistence daemon); the strict profile refuses every other family, the
 * relaxed one (compute-sanitizer) a netlink socket of the kernel's device
 * events (NETLINK_KOBJECT_UEVENT).
 */
static const char *const denied_host_sockets[] = { "socket", "socketpair", "socketcall", NULL };

static int deny_all(scmp_filter_ctx ctx, const char *const *names)
{
	int rc = 0;
	for (int i = 0; names[i] && rc == 0; i++) {
		int nr = seccomp_syscall_resolve_name(names[i]);
		if (nr != __NR_SCMP_ERROR)
			rc = seccomp_rule_add(ctx, SCMP_ACT_ERRNO(EPERM), nr, 0);
	}
	return rc;
}

int sandbox_runner_pinned(void)
{
	cpu_set_t mine;
	long online = sysconf(_SC_NPROCESSORS_ONLN);
	if (sched_getaffinity(0, sizeof(mine), &mine) < 0 || online <= 0)
		return 0;
	for (long c = 0; c < online && c < CPU_SETSIZE; c++)
		if (!CPU_ISSET(c, &mine))
			return 1;
	return 0;
}

int sandbox_filter_fd(enum sandbox_profile prof, int gpu)
{
	scmp_filter_ctx ctx = seccomp_init(SCMP_ACT_ALLOW);
	int fd = -1, rc = 0;
	if (!ctx)
		return error("cannot set up a seccomp filter (libseccomp: seccomp_init failed)");
	rc = deny_all(ctx, denied);
	if (rc == 0 && prof == SANDBOX_STRICT)
		rc = deny_all(ctx, denied_strict);
	if (rc == 0 && !gpu)
		rc = deny_all(ctx, denied_host);
	for (int i = 0; rc == 0 && !gpu && denied_host_sockets[i]; i++) {
		int nr = seccomp_syscall_resolve_name(denied_host_sockets[i]);
		if (nr != __NR_SCMP_ERROR)
			rc = seccomp_rule_add(ctx, SCMP_ACT_ERRNO(EAFNOSUPPORT), nr, 0);
	}
	/* a GPU box keeps its sockets, but not the host kernel's device
	 * events (the CUDA driver, NVML and CUPTI ran with this rule on an
	 * H200 pair: data/gpu-evidence/h200x2-redteam7-20261128.txt) */
	if (rc == 0 && gpu)
		rc = seccomp_rule_add(ctx, SCMP_ACT_ERRNO(EAFNOSUPPORT), SCMP_SYS(socket), 2,
				      SCMP_A0(SCMP_CMP_EQ, AF_NETLINK), SCMP_A2(SCMP_CMP_EQ, NETLINK_KOBJECT_UEVENT));
	/* and, where the kernel's own code runs (strict), only AF_UNIX: a
	 * socket of another family reaches the host's kernel beyond the box's
	 * namespaces (red team 32: binding an AF_ALG socket to a name
	 * registers that algorithm with the host's kernel for good, a run
	 * count in /proc/crypto; opening one of a family not yet loaded loads
	 * its module); the CUDA driver, NVML and CUPTI opened none in a sealed
	 * run on an H200 (strace, 2026-11-30) */
	if (rc == 0 && gpu && prof == SANDBOX_STRICT)
		rc = seccomp_rule_add(ctx, SCMP_ACT_ERRNO(EAFNOSUPPORT), SCMP_SYS(socket), 1,
				      SCMP_A0(SCMP_CMP_NE, AF_UNIX));
	if (rc == 0 && !gpu && sandbox_runner_pinned()) {
		/* the runner was given fewer CPUs than the machine has (a pool
		 * slot pinned to its CPU, or taskset): a mask is no bound, any
		 * thread may set its own to every CPU, so a kernel widened it in
		 * init and ran half of each launch on the other slot's CPU while
		 * the record said "cpu 0" (red team 8, cpu_widen) */
		rc = seccomp_rule_add(ctx, SCMP_ACT_ERRNO(EPERM), SCMP_SYS(sched_setaffinity), 0);
	}
	if (rc == 0 && prof == SANDBOX_STRICT) {
		/* the box's pid 1 keeps the parent-death signal bubblewrap set
		 * (--die-with-parent): cleared, it outlived a runner that killed
		 * bubblewrap at a timeout or a violation, its box and threads
		 * with it (red team 4, outlive) */
		rc = seccomp_rule_add(ctx, SCMP_ACT_ERRNO(EPERM), SCMP_SYS(prctl), 1,
				      SCMP_A0(SCMP_CMP_EQ, PR_SET_PDEATHSIG));
	}
	if (rc == 0 && prof == SANDBOX_STRICT) {
		/* threads only: a clone without CLONE_THREAD is a new process */
		rc = seccomp_rule_add(ctx, SCMP_ACT_ERRNO(EPERM), SCMP_SYS(clone), 1,
				      SCMP_A0(SCMP_CMP_MASKED_EQ, CLONE_THREAD, 0));
		if (rc == 0)
			rc = seccomp_rule_add(ctx, SCMP_ACT_ERRNO(EPERM), SCMP_SYS(fork), 0);
		if (rc == 0)
			rc = seccomp_rule_add(ctx, SCMP_ACT_ERRNO(EPERM), SCMP_SYS(vfork), 0);
		/* clone3 passes its flags in memory a filter cannot read:
		 * ENOSYS makes glibc fall back to clone, which is filtered */
		if (rc == 0)
			rc = seccomp_rule_add(ctx, SCMP_ACT_ERRNO(ENOSYS), SCMP_SYS(clone3), 0);
		/* no pidfd: since Linux 6.9 a pidfd's inode number is the host's
		 * count of every process and thread made, one a box can move
		 * (threads) and the next read: red team 58's pidfs_count kept a
		 * run count there and eval promoted two identical newcomers at
		 * 6.09x and 6.04x */
		if (rc == 0)
			rc = seccomp_rule_add(ctx, SCMP_ACT_ERRNO(ENOSYS), SCMP_SYS(pidfd_open), 0);
		if (rc == 0)
			rc = seccomp_rule_add(ctx, SCMP_ACT_ERRNO(EPERM), SCMP_SYS(clone), 1,
					      SCMP_A0(SCMP_CMP_MASKED_EQ, CLONE_PIDFD, CLONE_PIDFD));
	}
	if (rc < 0) {
		seccomp_release(ctx);
		return error("cannot build the seccomp filter: %s", strerror(-rc));
	}
	/* sealed once written: every box of the batch loads its program from
	 * this one object (sandbox_memfd_seal) */
	fd = memfd_create("evident-seccomp", MFD_CLOEXEC | MFD_ALLOW_SEALING);
	if (fd < 0 || seccomp_export_bpf(ctx, fd) < 0 || lseek(fd, 0, SEEK_SET) < 0 || sandbox_memfd_seal(fd) < 0) {
		int e = errno;
		if (fd >= 0)
			close(fd);
		seccomp_release(ctx);
		return error("cannot write the seccomp filter: %s", strerror(e));
	}
	seccomp_release(ctx);
	return fd;
}

int sandbox_memfd_seal(int fd)
{
	return fcntl(fd, F_ADD_SEALS, F_SEAL_WRITE | F_SEAL_GROW | F_SEAL_SHRINK | F_SEAL_SEAL);
}

int sandbox_refilter(struct sandbox *sb)
{
	for (int p = 0; p < 2; p++) {
		if (sb->filter_fd[p] < 0)
			continue; /* unsandboxed: no program to rebuild */
		int fd = sandbox_filter_fd((enum sandbox_profile)p, sb->gpu);
		if (fd < 0)
			return -1;
		close(sb->filter_fd[p]);
		sb->filter_fd[p] = fd;
	}
	return 0;
}

void sandbox_release(struct sandbox *sb)
{
	free(sb->bwrap);
	free(sb->version);
	free(sb->gpu_nodes_why);
	for (char **h = sb->hide; h && *h; h++)
		free(*h);
	free(sb->hide);
	for (char **h = sb->show; h && *h; h++)
		free(*h);
	free(sb->show);
	sandbox_argv_free(sb->loads);
	for (int i = 0; i < 2; i++)
		if (sb->filter_fd[i] >= 0)
			close(sb->filter_fd[i]);
	struct sandbox z = SANDBOX_INIT;
	*sb = z;
}

/* p made absolute (symlinks resolved where it exists); malloc'd. */
static char *abs_of(const char *p)
{
	char *abs = realpath(p, NULL), cwd[PATH_MAX];
	if (abs)
		return abs;
	return p[0] == '/' || !getcwd(cwd, sizeof(cwd)) ? xstrdup(p) : xstrfmt("%s/%s", cwd, p);
}

/* prog made a path: itself with a slash, else the first executable of
 * that name in PATH; malloc'd, or NULL. */
static char *program_path(const char *prog)
{
	if (strchr(prog, '/'))
		return abs_of(prog);
	const char *path = getenv("PATH");
	char *copy = xstrdup(path && *path ? path : "/usr/bin:/bin"), *save = NULL, *r = NULL;
	for (char *d = strtok_r(copy, ":", &save); d && !r; d = strtok_r(NULL, ":", &save)) {
		char *c = xstrfmt("%s/%s", d, prog);
		if (d[0] == '/' && access(c, X_OK) == 0)
			r = c;
		else
			free(c);
	}
	free(copy);
	return r;
}

/* The bubblewrap to use (malloc'd), or NULL: EVIDENT_BWRAP, else beside
 * this executable, else PATH's. */
static char *find_bwrap(void)
{
	const char *env = getenv("EVIDENT_BWRAP");
	if (env && *env)
		return access(env, X_OK) == 0 ? xstrdup(env) : NULL;
	char self[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	if (n > 0) {
		self[n] = 0;
		char *slash = strrchr(self, '/');
		if (slash) {
			*slash = 0;
			char *beside = xstrfmt("%s/bwrap", self);
			if (access(beside, X_OK) == 0)
				return beside;
			free(beside);
		}
	}
	return program_path("bwrap");
}

static char **abs_list(const char *const *l)
{
	size_t n = 0;
	while (l && l[n])
		n++;
	char **v = xcalloc(n + 1, sizeof(char *));
	for (size_t i = 0; i < n; i++)
		v[i] = abs_of(l[i]);
	return v;
}

int sandbox_init(struct sandbox *sb, int gpu, const char *const *show, const char *const *hide,
		 struct strbuf *why)
{
	struct sandbox z = SANDBOX_INIT;
	*sb = z;
	sb->gpu = gpu;
	sb->bwrap = find_bwrap();
	if (!sb->bwrap) {
		strbuf_addstr(why, "bubblewrap (bwrap) is not installed: apt-get install bubblewrap, or set "
				   "EVIDENT_BWRAP, or pass --unsandboxed (the record will say so)");
		return -1;
	}
	sb->hide = abs_list(hide);
	sb->show = abs_list(show);
	for (int p = 0; p < 2; p++) {
		sb->filter_fd[p] = sandbox_filter_fd((enum sandbox_profile)p, gpu);
		if (sb->filter_fd[p] < 0) {
			strbuf_addstr(why, "libseccomp could not build the filter; pass --unsandboxed to time without it");
			sandbox_release(sb);
			return -1;
		}
	}
	/* version, then the proof: `true` in the strict box */
	struct strbuf out = STRBUF_INIT, err = STRBUF_INIT;
	const char *vargv[] = { sb->bwrap, "--version", NULL };
	struct run_opts vo = { .argv = vargv, .timeout_s = 10, .out = &out, .err = &err };
	struct run_result vr;
	if (run_command(&vo, &vr) == 0 && vr.exited && vr.exit_code == 0)
		sb->version = xstrdup(strbuf_str(&out));
	else
		sb->version = xstrdup("unknown");
	sb->version[strcspn(sb->version, "\n")] = 0;
	strbuf_reset(&out);
	sb->on = 1;
	const char *inner[] = { "true", NULL };
	int keep = -1;
	struct sandbox_files files;
	char **argv = sandbox_wrap(sb, SANDBOX_STRICT, inner, NULL, &files, &keep);
	struct run_opts po = { .argv = (const char *const *)argv, .timeout_s = 20, .out = &out, .err = &err,
			       .merge_stderr = 1, .pass_fd = { keep }, .pass_fd_at = { SANDBOX_SECCOMP_FD },
			       .env_keep = sandbox_env_keep(sb) };
	struct run_result pr;
	int rc = argv && sandbox_files_pass(&files, po.pass_fd, po.pass_fd_at, 1, RUN_MAX_PASS_FD) >= 0
			 ? run_command(&po, &pr)
			 : -1;
	sandbox_argv_free(argv);
	sandbox_files_close(&files);
	if (keep >= 0)
		close(keep);
	if (rc < 0 || !pr.exited || pr.exit_code != 0) {
		strbuf_addf(why, "bubblewrap '%s' cannot set up the sandbox here (%s); on a machine that forbids "
				 "namespaces pass --unsandboxed (the record will say so)",
			    sb->bwrap, out.len ? strbuf_str(&out) : "no reason given");
		while (why->len && why->buf[why->len - 1] == '\n')
			why->buf[--why->len] = 0;
		strbuf_release(&out);
		strbuf_release(&err);
		sandbox_release(sb);
		return -1;
	}
	strbuf_release(&out);
	strbuf_release(&err);
	return 0;
}

struct argvb {
	char **v;
	size_t n, alloc;
};

static void push(struct argvb *a, const char *s)
{
	if (a->n + 2 > a->alloc) {
		a->alloc = a->alloc ? 2 * a->alloc : 64;
		a->v = xrealloc(a->v, a->alloc * sizeof(char *));
	}
	a->v[a->n++] = xstrdup(s);
	a->v[a->n] = NULL;
}

static void push3(struct argvb *a, const char *x, const char *y, const char *z)
{
	push(a, x);
	push(a, y);
	if (z)
		push(a, z);
}

/* The namespaces every box gets, before its mounts. */
static void push_namespaces(struct argvb *a, const struct sandbox *sb)
{
	push(a, sb->bwrap);
	push(a, "--die-with-parent");
	push(a, "--new-session");
	push(a, "--unshare-pid");
	/* the worker is the namespace's pid 1: no reaper beside it to see,
	 * and every process it may start (relaxed) dies with it */
	push(a, "--as-pid-1");
	push(a, "--unshare-ipc");
	push(a, "--unshare-net");
	push(a, "--unshare-uts");
	push(a, "--unshare-cgroup-try");
	push3(a, "--cap-drop", "ALL", NULL);
}

/* /proc's global entries (not a process's, not a link such as self or
 * mounts), appended to *out as "/proc/NAME", and whether each is a
 * directory, to *is_dir (the caller's array of at least 256, or NULL).
 * The number appended. */
static int proc_globals(struct argvb *out, char *is_dir)
{
	int n = 0;
	DIR *d = opendir("/proc");
	struct dirent *e;
	while (d && n < 256 && (e = readdir(d))) {
		const char *name = e->d_name;
		if (!strcmp(name, ".") || !strcmp(name, "..") || name[strspn(name, "0123456789")] == 0)
			continue;
		char path[PATH_MAX];
		struct stat st;
		snprintf(path, sizeof(path), "/proc/%s", name);
		if (lstat(path, &st) < 0 || S_ISLNK(st.st_mode))
			continue;
		if (is_dir)
			is_dir[n] = S_ISDIR(st.st_mode);
		push(out, path);
		n++;
	}
	if (d)
		closedir(d);
	return n;
}

/*
 * The box's own /proc (its PID namespace's), read-only.  Where the runner
 * is root (the GPU hosts), so is the box's process: bubblewrap drops its
 * capabilities, but the host kernel checks the files of /proc/sys by
 * owner alone, and bubblewrap 0.8 covers /proc/sys only when the
 * directory itself answers access(W_OK), which /proc/sys never does.  So
 * from a writable /proc a kernel set the host's kernel.core_pattern,
 * which runs a command of its choice as root outside every box at the
 * next core dump (red team 3, sysctl_escape).
 *
 * A host box (gpu 0) gets the whole /proc read-only: nothing it runs
 * writes there, and its own process entries are no exception - through
 * /proc/self/oom_score_adj a kernel lowered the score that makes it the
 * OOM killer's first choice, wherever the runner lacks CAP_SYS_RESOURCE
 * (red team 4, oom_undo).
 *
 * A GPU box keeps its own processes' entries writable and binds every
 * other entry (sys, sysrq-trigger, irq, driver, ...: whatever this kernel
 * has, not a list of known knobs) read-only over itself: the CUDA driver
 * names its threads through /proc/self/task/N/comm, and a wholly
 * read-only /proc made cuInit fail with "OS call failed" (measured on the
 * H100).  There a kernel can lower its own oom_score_adj only where the
 * runner lacks CAP_SYS_RESOURCE (run as root, the runner's write of 1000
 * raised the floor too), and the parent makes that a protocol violation
 * (run/job.c note_oom); the record says what the worker had
 * (judge.sandbox.oom_score_adj).
 */
static void push_proc(struct argvb *a, int gpu)
{
	push3(a, "--proc", "/proc", NULL);
	if (!gpu) {
		push3(a, "--remount-ro", "/proc", NULL);
		return;
	}
	struct argvb g = { 0 };
	proc_globals(&g, NULL);
	for (size_t i = 0; i < g.n; i++)
		push3(a, "--ro-bind-try", g.v[i], g.v[i]);
	sandbox_argv_free(g.v);
}

static int listed(const struct argvb *l, const char *s);

/* What the CUDA driver, NVML and the C library read of /proc's global
 * entries as a worker starts (an strace of a sealed run on an H200,
 * 2026-11-30: the CPU and memory descriptions, the device majors, the
 * driver's params, the kernel's release, mmap_min_addr), shown to a box
 * of copies as copies (push_proc_copies, proc_copies); patterns glob(3)
 * expands. */
static const char *const proc_copied[] = {
	"/proc/cpuinfo", "/proc/meminfo", "/proc/devices", "/proc/version", "/proc/sys/kernel/osrelease",
	"/proc/sys/vm/mmap_min_addr", "/proc/sys/vm/overcommit_memory", "/proc/sys/kernel/pid_max",
	"/proc/driver/nvidia/params", "/proc/driver/nvidia/version", "/proc/driver/nvidia/gpus/*/information", NULL,
};

/*
 * The /proc of a box of copies (a host box, a sealed kernel's GPU box):
 * its own, and none of the host's global entries live: every global
 * directory an empty tmpfs (appended to *dirs, to be remounted read-only
 * once the copies are in), every global file /dev/null, read-only, but
 * the copies of proc_copied.  Binding the host's global entries over the
 * box's own (as a trust: host kernel's GPU box still does) left every
 * lookup a positive dentry in the host's /proc that outlived the box, a
 * run count (red team 32's procdent, through /proc/irq and /proc/bus/pci:
 * 39.9 to 189.9 us over six repeats on an H200); and the global files are
 * host-wide counters a box can move and the next one read (red team 33:
 * /proc/vmstat's unevictable_pgs_mlocked, moved by mlock; red team 57:
 * /proc/stat's processes, /proc/interrupts).  A host box's /proc is
 * read-only as a whole (gpu 0); a GPU box keeps its processes' entries
 * writable, the CUDA driver names its threads there.
 */
static void push_proc_copies(struct argvb *a, struct argvb *dirs, int gpu)
{
	push3(a, "--proc", "/proc", NULL);
	struct argvb g = { 0 };
	char is_dir[256];
	int n = proc_globals(&g, is_dir);
	for (int i = 0; i < n; i++) {
		int copied = 0;
		for (int k = 0; proc_copied[k] && !copied; k++)
			copied = !strcmp(proc_copied[k], g.v[i]);
		if (is_dir[i]) {
			push3(a, "--tmpfs", g.v[i], NULL);
			push(dirs, g.v[i]);
		} else if (!copied) {
			push3(a, "--ro-bind", "/dev/null", g.v[i]);
		}
	}
	sandbox_argv_free(g.v);
	if (!gpu)
		push3(a, "--remount-ro", "/proc", NULL);
}

/* proc_copied's files that exist, appended to roots (each once). */
static void proc_copies(struct argvb *roots)
{
	for (int i = 0; proc_copied[i]; i++) {
		glob_t g;
		if (glob(proc_copied[i], 0, NULL, &g) != 0)
			continue;
		for (size_t k = 0; k < g.gl_pathc && k < 16; k++)
			if (access(g.gl_pathv[k], R_OK) == 0 && !listed(roots, g.gl_pathv[k]))
				push(roots, g.gl_pathv[k]);
		globfree(&g);
	}
}

/* The seccomp argument, the end of bwrap's options, and the child's own
 * descriptor of the profile's program in *filter_fd: bubblewrap reads
 * the program to its end, and a dup would share the offset with every
 * other spawn. */
static void push_seccomp(struct argvb *a, const struct sandbox *sb, enum sandbox_profile prof, int *filter_fd)
{
	char fdtxt[16];
	snprintf(fdtxt, sizeof(fdtxt), "%d", SANDBOX_SECCOMP_FD);
	push3(a, "--seccomp", fdtxt, NULL);
	push(a, "--");
	char self[64];
	snprintf(self, sizeof(self), "/proc/self/fd/%d", sb->filter_fd[prof == SANDBOX_RELAXED]);
	*filter_fd = open(self, O_RDONLY | O_CLOEXEC);
}

/* The system's software: what gcc and nvcc (and the cicc, ptxas,
 * fatbinary, as and ld they start), the runner and a kernel's libraries
 * load.  /etc is not shown whole (on the GPU hosts the runner is root,
 * and /etc/shadow would be readable): only the dynamic loader's cache and
 * the alternatives that /usr/bin/cc points through. */
static const char *const toolchain[] = {
	"/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32",
	"/etc/ld.so.cache", "/etc/ld.so.conf", "/etc/ld.so.conf.d", "/etc/alternatives", NULL,
};

/* toolchain[] into an empty root, read-only; a symlink (merged /usr:
 * /bin -> usr/bin) as the same symlink. */
static void push_system(struct argvb *a)
{
	for (int i = 0; toolchain[i]; i++) {
		struct stat st;
		if (lstat(toolchain[i], &st) < 0)
			continue;
		if (S_ISLNK(st.st_mode)) {
			char to[PATH_MAX];
			ssize_t n = readlink(toolchain[i], to, sizeof(to) - 1);
			if (n > 0) {
				to[n] = 0;
				push3(a, "--symlink", to, toolchain[i]);
			}
		} else {
			push3(a, "--ro-bind", toolchain[i], toolchain[i]);
		}
	}
}

/* The directories of a path list ("a:b:c"), absolute and existing, read-only;
 * never the root itself (that would show the host's whole file system). */
static void push_path_list(struct argvb *a, const char *list)
{
	if (!list || !*list)
		return;
	char *copy = xstrdup(list), *save = NULL;
	for (char *d = strtok_r(copy, ":", &save); d; d = strtok_r(NULL, ":", &save))
		if (d[0] == '/' && is_dir(d)) {
			char *r = abs_of(d);
			if (strcmp(r, "/"))
				push3(a, "--ro-bind", r, r);
			free(r);
		}
	free(copy);
}

/* What a GPU worker may load from outside the system's directories: the
 * CUDA toolkit where CUDA_HOME or CUDA_PATH put it (libcupti), and the
 * harness that EVIDENT_CUDA_HARNESS names. */
static void push_gpu_software(struct argvb *a)
{
	static const char *const dirs[] = { "CUDA_HOME", "CUDA_PATH", NULL };
	for (int i = 0; dirs[i]; i++)
		push_path_list(a, getenv(dirs[i]));
	const char *h = getenv("EVIDENT_CUDA_HARNESS");
	if (h && *h && access(h, R_OK) == 0) {
		char *r = abs_of(h);
		push3(a, "--ro-bind", r, r);
		free(r);
	}
}

/* Does name look like a shared object: "x.so" or "x.so.N..."? */
static int shared_object_name(const char *name)
{
	size_t n = strlen(name);
	if (n > 3 && !strcmp(name + n - 3, ".so"))
		return 1;
	for (const char *p = strstr(name, ".so."); p; p = strstr(p + 1, ".so."))
		if (p[4] >= '0' && p[4] <= '9')
			return 1;
	return 0;
}

int sandbox_lib_dir(const char *dir)
{
	char *abs = abs_of(dir);
	int ok = strcmp(abs, "/") != 0;
	DIR *d = ok ? opendir(abs) : NULL;
	struct dirent *e;
	ok = 0;
	while (d && !ok && (e = readdir(d)))
		ok = shared_object_name(e->d_name);
	if (d)
		closedir(d);
	free(abs);
	return ok;
}

/* The variables of the runner's environment a boxed process gets (runcmd.h
 * env_keep): what the loader, the locale, the GPU's selection, a kernel's
 * threading libraries, the sanitized build and evident itself read.  The
 * rest (tokens, credentials, a CI's secrets) never reaches kernel code,
 * which could print it into its stored log (red team 3, host_files). */
static const char *const env_keep[] = {
	"PATH", "LANG", "LANGUAGE", "LC_*", "TZ", "TERM", "LD_LIBRARY_PATH",
	"CUDA_*", "NVIDIA_*",
	"OMP_*", "GOMP_*", "KMP_*", "MKL_*", "OPENBLAS_*",
	"ASAN_*", "UBSAN_*", "LSAN_*",
	"EVIDENT_*", NULL,
};

const char *const *sandbox_env_keep(const struct sandbox *sb)
{
	return sb->on ? env_keep : NULL;
}

/* "/dev/nvidiaN" with N digits: one GPU's own node (not nvidiactl,
 * nvidia-uvm, nvidia-modeset, nvidia-caps, nvidia-nvswitchN...).  Its N in
 * *minor. */
static int gpu_node(const char *path, int *minor)
{
	const char *n = strncmp(path, "/dev/nvidia", 11) ? NULL : path + 11;
	if (!n || !*n || n[strspn(n, "0123456789")] || strlen(n) > 6)
		return 0;
	*minor = atoi(n);
	return 1;
}

char **sandbox_gpu_binds(const char *const *nodes, int minor, int *one)
{
	struct argvb a = { 0 };
	int found = 0, m;
	for (int i = 0; minor >= 0 && nodes && nodes[i]; i++)
		found |= gpu_node(nodes[i], &m) && m == minor;
	for (int i = 0; nodes && nodes[i]; i++) {
		if (found && gpu_node(nodes[i], &m) && m != minor)
			continue;
		/* a directory of nodes (/dev/nvidia-caps) node by node: bound
		 * whole, it was the host's /dev directory, writable to the box
		 * (red team 33 made and removed a file there) */
		struct stat st;
		glob_t g;
		char *pat = NULL;
		if (stat(nodes[i], &st) == 0 && S_ISDIR(st.st_mode)) {
			pat = xstrfmt("%s/*", nodes[i]);
			if (glob(pat, 0, NULL, &g) == 0) {
				for (size_t k = 0; k < g.gl_pathc; k++)
					if (stat(g.gl_pathv[k], &st) == 0 && S_ISCHR(st.st_mode))
						push3(&a, "--dev-bind", g.gl_pathv[k], g.gl_pathv[k]);
				globfree(&g);
			}
			free(pat);
			continue;
		}
		push3(&a, "--dev-bind", nodes[i], nodes[i]);
	}
	if (!a.v)
		a.v = xcalloc(1, sizeof(char *));
	if (one)
		*one = found;
	return a.v;
}

void sandbox_pin_gpu(struct sandbox *sb, int minor, const char *why)
{
	sb->gpu_minor = minor < 0 ? -1 : minor;
	free(sb->gpu_nodes_why);
	sb->gpu_nodes_why = minor < 0 && why ? xstrdup(why) : NULL;
}

int sandbox_no_exec(void)
{
	scmp_filter_ctx ctx = seccomp_init(SCMP_ACT_ALLOW);
	if (!ctx)
		return error("cannot set up the worker's exec filter (libseccomp: seccomp_init failed)");
	/* every thread: the CUDA driver's threads exist before the filter,
	 * and a kernel's host callback runs in one of them */
	int rc = seccomp_attr_set(ctx, SCMP_FLTATR_CTL_TSYNC, 1);
	if (rc == 0)
		rc = seccomp_rule_add(ctx, SCMP_ACT_KILL_PROCESS, SCMP_SYS(execve), 0);
	if (rc == 0)
		rc = seccomp_rule_add(ctx, SCMP_ACT_KILL_PROCESS, SCMP_SYS(execveat), 0);
	if (rc == 0)
		rc = seccomp_load(ctx);
	seccomp_release(ctx);
	if (rc < 0)
		return error("cannot load the worker's exec filter: %s", strerror(-rc));
	return 0;
}

/* Why the last box could not be set up (sandbox_wrap_fresh's why): a box
 * is set up by one thread of the runner at a time. */
static struct strbuf box_why = STRBUF_INIT;

/* Record why a box cannot be set up; -1. */
__attribute__((format(printf, 1, 2))) static int box_fail(const char *fmt, ...)
{
	va_list ap;
	strbuf_reset(&box_why);
	va_start(ap, fmt);
	strbuf_vaddf(&box_why, fmt, ap);
	va_end(ap);
	return -1;
}

/*
 * A host box's files (sandbox.h sandbox_wrap_fresh): each a copy bubblewrap
 * writes as the box starts, so the box never reads a page of the host's
 * page cache.  For the runner's own worker the loader says what it maps
 * (`LOADER --list WORKER`); the answer is kept for the process's life
 * (keyed by the file's identity and times).  Never for a job's objects:
 * a loader asked to list an object loads the audit module it names and
 * runs its code, in the runner, outside every box (red team 53's
 * audit_escape ran as root there through a spec's -Wl,--audit); their
 * libraries are read from their dynamic sections (base/elf.h) and found
 * where the loader would look.
 */
struct list_memo {
	char *path;
	dev_t dev;
	ino_t ino;
	struct timespec mtime;
	off_t size;
	char **files; /* NULL-terminated, kept for the process's life */
};
static struct list_memo *list_memo;
static size_t n_list_memo;

/* The absolute paths the loader at interp maps for obj (obj itself not
 * among them: the runner's own worker, never a job's object), as the
 * runner's LD_LIBRARY_PATH resolves them; a library it cannot find is
 * left out (the box's loader fails on it as the runner's would).
 * Memoised: the list belongs to the memo. */
static char **loader_list(const char *interp, const char *obj)
{
	struct stat st;
	if (stat(obj, &st) < 0)
		return NULL;
	for (size_t i = 0; i < n_list_memo; i++) {
		struct list_memo *m = &list_memo[i];
		if (!strcmp(m->path, obj) && m->dev == st.st_dev && m->ino == st.st_ino && m->size == st.st_size &&
		    m->mtime.tv_sec == st.st_mtim.tv_sec && m->mtime.tv_nsec == st.st_mtim.tv_nsec)
			return m->files;
	}
	/* only the search path: never LD_PRELOAD, LD_AUDIT (code the loader
	 * would run) or LD_WARN (which relocates, running IFUNC resolvers) */
	static const char *const keep[] = { "LD_LIBRARY_PATH", NULL };
	const char *argv[] = { interp, "--list", obj, NULL };
	struct strbuf out = STRBUF_INIT;
	struct run_opts o = { .argv = argv, .timeout_s = 20, .out = &out, .env_keep = keep };
	struct run_result r;
	struct argvb files = { 0 };
	if (run_command(&o, &r) == 0) {
		/* "\tNAME => /PATH (0x...)", "\t/PATH (0x...)", "\tNAME => not found" */
		char *save = NULL;
		for (char *line = strtok_r(out.buf ? out.buf : (char *)"", "\n", &save); line;
		     line = strtok_r(NULL, "\n", &save)) {
			char *arrow = strstr(line, "=> "), *p = arrow ? arrow + 3 : line + strspn(line, " \t");
			if (*p != '/')
				continue;
			char *end = strstr(p, " (0x");
			if (end)
				*end = 0;
			if (strcmp(p, obj))
				push(&files, p);
		}
	}
	strbuf_release(&out);
	if (!files.v)
		push(&files, interp); /* never NULL: a list to keep */
	list_memo = xrealloc(list_memo, (n_list_memo + 1) * sizeof(*list_memo));
	list_memo[n_list_memo++] = (struct list_memo){ xstrdup(obj), st.st_dev, st.st_ino, st.st_mtim, st.st_size,
							files.v };
	return files.v;
}

static int listed(const struct argvb *l, const char *s)
{
	for (size_t i = 0; i < l->n; i++)
		if (!strcmp(l->v[i], s))
			return 1;
	return 0;
}

/* The loader's own expansions of $LIB and $PLATFORM, once loader_subdirs
 * has asked it (NULL until then: every spelling of $LIB, AT_PLATFORM). */
static char *loader_lib, *loader_platform;

/* One directory of a search list with the loader's tokens expanded,
 * appended to *l: $ORIGIN (origin), $PLATFORM and $LIB as this loader
 * expands them (loader_subdirs asks it; before that, every spelling of
 * $LIB: red team 57's libspell stopped at a file under a spelling this
 * loader never uses, the box's loader went on to a later one), and a
 * directory that is not absolute, the empty one included, from the
 * working directory, as the loader takes it (red team 57's relcheat and
 * emptycheat: a slow build there, left out, and the box mapped a later
 * fast one; the box's working directory has the same path). */
static void add_expanded(struct argvb *l, const char *d, const char *origin)
{
	static const char *const libs[] = { "lib/x86_64-linux-gnu", "lib64", "lib", NULL };
	const char *plat = loader_platform ? loader_platform : (const char *)getauxval(AT_PLATFORM);
	int has_lib = strstr(d, "$LIB") || strstr(d, "${LIB}");
	int spellings = has_lib && !loader_lib ? 3 : 1;
	for (int v = 0; v < spellings; v++) {
		struct strbuf x = STRBUF_INIT;
		if (d[0] != '/' && strncmp(d, "$ORIGIN", 7) && strncmp(d, "${ORIGIN}", 9)) {
			char cwd[PATH_MAX];
			if (!getcwd(cwd, sizeof(cwd)))
				continue;
			strbuf_addstr(&x, cwd);
			if (*d)
				strbuf_addch(&x, '/');
		}
		for (const char *p = d; *p;) {
			if (!strncmp(p, "${ORIGIN}", 9) || !strncmp(p, "$ORIGIN", 7)) {
				strbuf_addstr(&x, origin);
				p += p[1] == '{' ? 9 : 7;
			} else if (!strncmp(p, "${PLATFORM}", 11) || !strncmp(p, "$PLATFORM", 9)) {
				strbuf_addstr(&x, plat ? plat : "x86_64");
				p += p[1] == '{' ? 11 : 9;
			} else if (!strncmp(p, "${LIB}", 6) || !strncmp(p, "$LIB", 4)) {
				strbuf_addstr(&x, loader_lib ? loader_lib : libs[v]);
				p += p[1] == '{' ? 6 : 4;
			} else {
				strbuf_addch(&x, *p++);
			}
		}
		if (x.len && x.buf[0] == '/' && !listed(l, x.buf))
			push(l, x.buf);
		strbuf_release(&x);
	}
}

/* dirs ("a:b", the loader's tokens expanded: add_expanded; an empty entry
 * is the working directory, as the loader takes it) appended to *l */
static void add_dirs(struct argvb *l, const char *dirs, const char *origin)
{
	if (!dirs || !*dirs)
		return;
	for (const char *p = dirs;;) {
		size_t n = strcspn(p, ":");
		char *d = xstrndup(p, n);
		add_expanded(l, d, origin);
		free(d);
		if (!p[n])
			break;
		p += n + 1;
	}
}

/* The system's library directories, as the loader's cache is made from
 * them: /etc/ld.so.conf.d's lines, then the defaults.  Kept for the
 * process's life. */
static const struct argvb *system_lib_dirs(void)
{
	static struct argvb dirs;
	static int done;
	if (done)
		return &dirs;
	done = 1;
	glob_t g;
	if (glob("/etc/ld.so.conf.d/*.conf", 0, NULL, &g) == 0) {
		for (size_t i = 0; i < g.gl_pathc; i++) {
			struct strbuf t = STRBUF_INIT;
			if (read_file(g.gl_pathv[i], &t) == 0) {
				char *save = NULL;
				for (char *line = strtok_r(t.buf ? t.buf : (char *)"", "\n", &save); line;
				     line = strtok_r(NULL, "\n", &save)) {
					line += strspn(line, " \t");
					line[strcspn(line, " \t#")] = 0;
					if (line[0] == '/')
						push(&dirs, line);
				}
			}
			strbuf_release(&t);
		}
		globfree(&g);
	}
	static const char *const defaults[] = { "/lib64", "/usr/lib64", "/lib", "/usr/lib", NULL };
	for (int i = 0; defaults[i]; i++)
		push(&dirs, defaults[i]);
	return &dirs;
}

/* The largest file a box copies, and all of a box's copies together: a
 * copy is the box's memory (red team 55's huge_lib, a 1 GiB sparse file
 * behind an ELF header, copied into every box); libcuda is 96 MB,
 * cuBLAS's libcublasLt 517 MB (red team 56: an honest kernel linking it
 * was refused at 512 MiB). */
#define SANDBOX_MAX_COPY (768LL << 20)
#define SANDBOX_MAX_COPIES (1536LL << 20)

/*
 * The subdirectories the loader tries in every directory of its search,
 * in its order, "" (the directory itself) last: glibc-hwcaps/x86-64-v4 ...
 * and, before glibc 2.37, the legacy ones (tls/x86_64/x86_64, tls, x86_64
 * ...).  Asked of the loader itself (interp, on evident's own worker exe:
 * LD_DEBUG=libs prints each search path), once per process, so that a box
 * holds the file the host's loader takes and not a later one (red team
 * 55's hwcaps and 56's legacy tls/: a box without the earlier build timed
 * the later one; 56's nine glibc-hwcaps decoys pushed the real one out of
 * a glob).  Kept for the process's life; never NULL.
 */
static const struct argvb *loader_subdirs(const char *interp, const char *exe)
{
	static struct argvb subs;
	static int done;
	if (done)
		return &subs;
	done = 1;
	static const char probe[] = "/nonexistent-evident-loader-probe";
	static const char tok[] = "/nonexistent-evident-token-probe/";
	char lib_path[160];
	snprintf(lib_path, sizeof(lib_path), "LD_LIBRARY_PATH=%s:%s$LIB/@/$PLATFORM/@", probe, tok);
	const char *env[] = { "LD_DEBUG=libs", lib_path, NULL };
	const char *argv[] = { interp, "--list", exe, NULL };
	static const char *const keep[] = { NULL };
	struct strbuf out = STRBUF_INIT, err = STRBUF_INIT;
	struct run_opts o = { .argv = argv, .timeout_s = 20, .out = &out, .err = &err, .env_keep = keep,
			      .env_set = env };
	struct run_result r;
	if (interp && exe && run_command(&o, &r) == 0 && err.buf) {
		/* "search path=P/glibc-hwcaps/x86-64-v4:P/tls:...:P		(LD_LIBRARY_PATH)" */
		char *line = strstr(err.buf, "search path=");
		char *end = line ? strstr(line, "(LD_LIBRARY_PATH)") : NULL;
		if (line && end) {
			*end = 0;
			char *save = NULL;
			for (char *e = strtok_r(line + 12, ": \t\n", &save); e; e = strtok_r(NULL, ": \t\n", &save)) {
				if (!strncmp(e, probe, sizeof(probe) - 1) && !listed(&subs, e + sizeof(probe) - 1))
					push(&subs, e + sizeof(probe) - 1);
				/* "TOK" LIB "/@/" PLATFORM "/@" (the plain entry, no subdirectory) */
				char *at = !strncmp(e, tok, sizeof(tok) - 1) ? strstr(e, "/@/") : NULL;
				size_t el = strlen(e);
				if (at && !loader_lib && el > 2 && !strcmp(e + el - 2, "/@") && e + el - 2 > at + 2) {
					loader_lib = xstrndup(e + sizeof(tok) - 1, (size_t)(at - e) - (sizeof(tok) - 1));
					loader_platform = xstrndup(at + 3, (size_t)(e + el - 2 - (at + 3)));
				}
			}
		}
	}
	strbuf_release(&out);
	strbuf_release(&err);
	if (!listed(&subs, ""))
		push(&subs, "");
	return &subs;
}

/* Whether a box may be shown path as a library: where the runner is root,
 * only when anyone may read it, the file readable by others and every
 * directory above its real path searchable by others (red team 56's
 * privdir: a 0644 file in a 0700 directory, read by a root runner);
 * elsewhere, whatever the runner's user may read (the spec's author's own
 * files).  1 or 0. */
static int public_file(const char *path)
{
	if (geteuid() != 0)
		return access(path, R_OK) == 0;
	return sandbox_public_path(path);
}

int sandbox_public_path(const char *path)
{
	char *real = realpath(path, NULL);
	struct stat st;
	int ok = real && stat(real, &st) == 0 && (st.st_mode & S_IROTH) &&
		 (!S_ISDIR(st.st_mode) || (st.st_mode & S_IXOTH));
	for (char *slash = real ? strrchr(real, '/') : NULL; ok && slash && slash > real;
	     slash = strrchr(real, '/')) {
		*slash = 0;
		ok = stat(real, &st) == 0 && (st.st_mode & S_IXOTH);
	}
	free(real);
	return ok;
}

/*
 * What the loader makes of path, a file that exists in its search: 1 it
 * maps it (a shared ELF object of this machine, not a program), 0 it goes
 * on searching (another class or machine, or a file the runner cannot
 * read), or -1 it would stop there, or map what the box cannot be given:
 * the reason in *why (malloc'd) - not a library (not ELF, too short, a
 * program: red team 56's notelf, where the host's loader failed and the
 * box went on to a later file), readable by the runner but not by all
 * (56's private: a root runner's loader mapped a 0600 build the box
 * skipped), or over SANDBOX_MAX_COPY.
 */
static int loader_takes(const char *path, int machine, char **why)
{
	struct stat st;
	if (stat(path, &st) < 0 || access(path, R_OK) < 0)
		return 0;
	if (!S_ISREG(st.st_mode)) {
		*why = xstrfmt("'%s' is not a regular file", path);
		return -1;
	}
	struct elf_dyn cd;
	char *ewhy = NULL;
	int r;
	if (elf_dyn_read(path, &cd, &ewhy) < 0) {
		/* another ELF class is skipped; anything else stops the loader */
		unsigned char h[5] = { 0 };
		FILE *f = fopen(path, "rb");
		size_t n = f ? fread(h, 1, sizeof(h), f) : 0;
		if (f)
			fclose(f);
		int elf32 = n == 5 && !memcmp(h, ELFMAG, SELFMAG) && h[EI_CLASS] == ELFCLASS32;
		if (!elf32)
			*why = xstrfmt("'%s' is not a shared object (%s): the host's loader stops at it", path,
				       ewhy ? ewhy : "not ELF");
		free(ewhy);
		return elf32 ? 0 : -1;
	}
	if (cd.machine != machine)
		r = 0;
	else if (cd.type != ET_DYN || cd.pie)
		r = -1, *why = xstrfmt("'%s' is a program, not a library: the host's loader stops at it", path);
	else if (!public_file(path))
		r = -1, *why = xstrfmt("'%s' is not for everyone to read (the file, or a directory above it): a "
				       "root runner shows a box only a library anyone may read (make it and its "
				       "directories readable by all, or take it off the loader's path)",
				       path);
	else if (st.st_size > SANDBOX_MAX_COPY)
		r = -1, *why = xstrfmt("'%s' is over %lld MiB: a library is copied into every box", path,
				       SANDBOX_MAX_COPY >> 20);
	else
		r = 1;
	elf_dyn_release(&cd);
	return r;
}

/*
 * The file the loader maps for library name, needed by an object in
 * origin whose dynamic section is d and whose loaders' DT_RPATHs are
 * chain (":"-joined, expanded; NULL for none), appended to *out: the
 * loader's own search, in its order - the object's DT_RPATH and its
 * loaders' (inherited where the object has no DT_RUNPATH: red team 55's
 * rpath_chain), LD_LIBRARY_PATH, its DT_RUNPATH, the system's directories
 * - each directory with the loader's subdirectories first
 * (loader_subdirs), $ORIGIN, $PLATFORM and every spelling of $LIB
 * expanded.  1 found, 0 not found (the box's loader then fails as the
 * host's would), -1 with *why set where the loader would stop at a file,
 * or take one the box cannot show (loader_takes).
 */
static int find_library(const char *name, const struct elf_dyn *d, const char *origin, const char *chain,
			int machine, const struct argvb *subs, struct argvb *out, char **why)
{
	if (strchr(name, '/')) {
		/* refused at build (elf_refuse_hooks) */
		int t = name[0] == '/' ? loader_takes(name, machine, why) : 0;
		if (t > 0 && !listed(out, name))
			push(out, name);
		return t;
	}
	struct argvb dirs = { 0 };
	if (!d->runpath) {
		add_dirs(&dirs, d->rpath, origin);
		add_dirs(&dirs, chain, origin);
	}
	add_dirs(&dirs, getenv("LD_LIBRARY_PATH"), origin);
	add_dirs(&dirs, d->runpath, origin);
	const struct argvb *sys = system_lib_dirs();
	for (size_t i = 0; i < sys->n; i++)
		if (!listed(&dirs, sys->v[i]))
			push(&dirs, sys->v[i]);
	int t = 0;
	for (size_t i = 0; i < dirs.n && t == 0; i++)
		for (size_t k = 0; k < subs->n && t == 0; k++) {
			char *c = xstrfmt("%s%s/%s", dirs.v[i], subs->v[k], name);
			t = loader_takes(c, machine, why);
			if (t > 0 && !listed(out, c))
				push(out, c);
			free(c);
		}
	sandbox_argv_free(dirs.v);
	return t;
}

char *sandbox_find_library(const char *name, const char *object)
{
	struct elf_dyn d;
	char *why = NULL;
	if (elf_dyn_read(object, &d, &why) < 0) {
		free(why);
		return NULL;
	}
	char *origin = abs_of(object), *slash = strrchr(origin, '/');
	if (slash)
		*slash = 0;
	struct argvb found = { 0 }, plain = { 0 };
	push(&plain, "");
	char *r = find_library(name, &d, origin, NULL, d.machine, &plain, &found, &why) > 0 ? xstrdup(found.v[0])
											     : NULL;
	free(why);
	sandbox_argv_free(plain.v);
	sandbox_argv_free(found.v);
	free(origin);
	elf_dyn_release(&d);
	return r;
}

void sandbox_set_loads(struct sandbox *sb, const char *const *paths)
{
	struct argvb l = { 0 };
	for (int i = 0; paths && paths[i]; i++)
		if (paths[i][0] == '/' && access(paths[i], R_OK) == 0)
			push(&l, paths[i]);
	sandbox_argv_free(sb->loads);
	sb->loads = l.v;
}

/* Does path lie under one of dirs (NULL-terminated, absolute)? */
static int masked(char *const *dirs, const char *path)
{
	char *real = realpath(path, NULL);
	int r = 0;
	for (char *const *d = dirs; real && d && *d && !r; d++) {
		size_t n = strlen(*d);
		r = !strncmp(real, *d, n) && (real[n] == '/' || real[n] == 0);
	}
	free(real);
	return r;
}

/* The libraries a job's objects (roots[from..]) load, read from their
 * dynamic sections, appended to roots (each once: the file the loader
 * takes, find_library, in the loader's subdirectories subs; a name an
 * object read so far, or one of provided, has as its soname is not
 * searched: the worker's own libraries are loaded before the objects).  0, or -1 with the error printed: an object
 * that names a loader hook (DT_AUDIT and its kin) is refused, since the
 * box's loader would run that library's code before the worker's first
 * check, and so is a library under a directory the box masks (hide: the
 * store, the build cache), which only the job's own objects may come from
 * (red team 54 read the store's index through a library's name), and
 * copies over SANDBOX_MAX_COPIES bytes in all. */
static int object_deps(struct argvb *roots, size_t from, int machine, char *const *hide, const struct argvb *subs,
		       const struct argvb *provided)
{
	struct argvb sonames = { 0 }; /* of the objects read so far */
	/* chain[i - from]: the DT_RPATHs of roots[i]'s loaders, expanded and
	 * ":"-joined (NULL: none), which glibc searches after its own */
	size_t cap = 16;
	char **chain = xcalloc(cap, sizeof(char *));
	struct argvb reals = { 0 }; /* the real paths of roots[from..] */
	for (size_t i = from; i < roots->n; i++) {
		char *real = realpath(roots->v[i], NULL);
		if (real)
			push(&reals, real);
		free(real);
		/* the objects themselves are mapped before their libraries */
		struct elf_dyn od;
		char *owhy = NULL;
		if (elf_dyn_read(roots->v[i], &od, &owhy) == 0) {
			if (od.soname && !listed(&sonames, od.soname))
				push(&sonames, od.soname);
			elf_dyn_release(&od);
		}
		free(owhy);
	}
	long long bytes = 0;
	int rc = 0;
	for (size_t i = from; i < roots->n && rc == 0; i++) {
		if (roots->n > SANDBOX_MAX_FRESH) {
			rc = box_fail("cannot show '%s' in the box: its objects load more than %d files", roots->v[from],
				   SANDBOX_MAX_FRESH);
			break;
		}
		struct stat st;
		if (stat(roots->v[i], &st) == 0 && (bytes += st.st_size) > SANDBOX_MAX_COPIES) {
			rc = box_fail("cannot show '%s' in the box: its objects and libraries are over %lld MiB, copied "
				   "into every box",
				   roots->v[from], SANDBOX_MAX_COPIES >> 20);
			break;
		}
		struct elf_dyn d;
		char *why = NULL;
		if (elf_dyn_read(roots->v[i], &d, &why) < 0) {
			free(why);
			continue; /* not ELF: nothing to follow */
		}
		if (d.hook) {
			rc = box_fail("'%s' names a loader hook (%s): refused, a loader would run that library's code",
				   roots->v[i], d.hook);
			elf_dyn_release(&d);
			break;
		}
		char *origin = xstrdup(roots->v[i]);
		char *slash = strrchr(origin, '/');
		if (slash)
			*slash = 0;
		const char *mine = chain[i - from];
		/* what this object's libraries inherit: its loaders' DT_RPATHs
		 * and its own */
		struct argvb own = { 0 };
		if (!d.runpath) /* an object with a DT_RUNPATH has its DT_RPATH ignored (red team 57's rpathchain) */
			add_dirs(&own, d.rpath, origin);
		struct strbuf next = STRBUF_INIT;
		if (mine)
			strbuf_addstr(&next, mine);
		for (size_t k = 0; k < own.n; k++) {
			if (next.len)
				strbuf_addch(&next, ':');
			strbuf_addstr(&next, own.v[k]);
		}
		sandbox_argv_free(own.v);
		struct argvb libs = { 0 };
		for (char **n = d.needed; *n && rc == 0; n++) {
			/* a name an object the loader has already mapped answers to
			 * (its soname, or a name it was loaded by) is that object: the
			 * loader opens no file for it.  Mapped means by then, in the
			 * loader's own order: breadth first, each library mapped as
			 * its name is met (red team 56's alias; red team 57's phantom
			 * and sonamedos: a soname taken from an object read later hid
			 * a search, or made one the loader never makes) */
			if (listed(&sonames, *n) || listed(provided, *n))
				continue;
			char *why = NULL;
			size_t before = libs.n;
			if (find_library(*n, &d, origin, mine, machine, subs, &libs, &why) < 0)
				rc = box_fail("cannot show '%s' in the box: its library '%s': %s", roots->v[i], *n, why);
			free(why);
			push(&sonames, *n);
			for (size_t k = before; k < libs.n; k++) {
				struct elf_dyn ld;
				char *lwhy = NULL;
				if (elf_dyn_read(libs.v[k], &ld, &lwhy) == 0) {
					if (ld.soname && !listed(&sonames, ld.soname))
						push(&sonames, ld.soname);
					elf_dyn_release(&ld);
				}
				free(lwhy);
			}
		}
		for (size_t k = 0; k < libs.n && rc == 0; k++) {
			/* one file under two paths (/lib and /usr/lib on a merged
			 * /usr) is one copy: the loader finds it by either */
			char *real = realpath(libs.v[k], NULL);
			int seen = listed(roots, libs.v[k]) || (real && listed(&reals, real));
			if (real && !seen)
				push(&reals, real);
			free(real);
			if (seen)
				continue;
			if (masked(hide, libs.v[k])) {
				rc = box_fail("'%s' needs '%s', under a directory the box masks: refused", roots->v[i],
					   libs.v[k]);
				break;
			}
			push(roots, libs.v[k]);
			if (roots->n - from > cap) {
				chain = xrealloc(chain, 2 * cap * sizeof(char *));
				memset(chain + cap, 0, cap * sizeof(char *));
				cap *= 2;
			}
			chain[roots->n - 1 - from] = next.len ? xstrdup(next.buf) : NULL;
		}
		sandbox_argv_free(libs.v);
		strbuf_release(&next);
		free(origin);
		elf_dyn_release(&d);
	}
	for (size_t i = 0; i < cap; i++)
		free(chain[i]);
	free(chain);
	sandbox_argv_free(reals.v);
	sandbox_argv_free(sonames.v);
	return rc;
}

/* path into the box as a copy at its real path, each symbolic link on the
 * way made in the box as the same link (done keeps what is made: a path
 * twice is one copy); 0, or -1 with the error printed. */
static int push_copy(struct argvb *a, struct argvb *done, struct sandbox_files *f, const char *path, int depth)
{
	char real[PATH_MAX] = "", next[PATH_MAX];
	const char *p = path;
	if (depth > 32)
		return box_fail("cannot show '%s' in the box: too many symbolic links", path);
	while (*p) {
		p += strspn(p, "/");
		size_t n = strcspn(p, "/");
		if (n == 0)
			break;
		if (n == 1 && p[0] == '.') {
			p += n;
			continue;
		}
		if (n == 2 && p[0] == '.' && p[1] == '.') {
			char *slash = strrchr(real, '/');
			if (slash)
				*slash = 0;
			p += n;
			continue;
		}
		if ((size_t)snprintf(next, sizeof(next), "%s/%.*s", real, (int)n, p) >= sizeof(next))
			return box_fail("cannot show '%s' in the box: the path is too long", path);
		p += n;
		struct stat st;
		if (lstat(next, &st) < 0)
			return box_fail("cannot show '%s' in the box: %s: %s", path, next, strerror(errno));
		if (!S_ISLNK(st.st_mode)) {
			memcpy(real, next, strlen(next) + 1);
			continue;
		}
		char to[PATH_MAX], rest[PATH_MAX * 2 + 2];
		ssize_t k = readlink(next, to, sizeof(to) - 1);
		if (k <= 0)
			return box_fail("cannot show '%s' in the box: cannot read the link %s", path, next);
		to[k] = 0;
		if (!listed(done, next)) {
			push(done, next);
			push3(a, "--symlink", to, next);
		}
		snprintf(rest, sizeof(rest), "%s%s%s%s", to[0] == '/' ? "" : real, to[0] == '/' ? "" : "/", to, p);
		return push_copy(a, done, f, rest, depth + 1);
	}
	if (!real[0] || listed(done, real))
		return 0;
	if (f->n >= SANDBOX_MAX_FRESH)
		return box_fail("cannot show '%s' in the box: a box shows at most %d files", real, SANDBOX_MAX_FRESH);
	int fd = open(real, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	if (fd < 0)
		return box_fail("cannot show '%s' in the box: %s", real, strerror(errno));
	struct stat fst;
	if (fstat(fd, &fst) < 0 || !S_ISREG(fst.st_mode)) {
		close(fd);
		return box_fail("cannot show '%s' in the box: not a regular file", real);
	}
	push(done, real);
	f->fd[f->n] = fd;
	char at[16];
	snprintf(at, sizeof(at), "%d", SANDBOX_FRESH_FD + f->n++);
	push3(a, "--perms", "0555", NULL);
	push3(a, "--ro-bind-data", at, real);
	return 0;
}

/* Of /sys, what the CUDA driver reads as a worker starts (an strace of a
 * sealed run on an H200 with driver 580, 2026-11-30: each GPU's PCI
 * numa_node, the NUMA nodes' CPU maps, the memory block size, the clock
 * source, whether the driver's modules are loaded), for copies: a /sys
 * bound whole is the host's dentry cache (red team 52's dentry_count, and
 * red team 31's on a GPU box).  Appended to roots. */
static void push_gpu_sys(struct argvb *roots)
{
	static const char *const fixed[] = {
		"/sys/module/nvidia/initstate", "/sys/module/nvidia_uvm/initstate",
		"/sys/devices/system/memory/block_size_bytes",
		"/sys/devices/system/clocksource/clocksource0/current_clocksource", NULL,
	};
	for (int i = 0; fixed[i]; i++)
		if (access(fixed[i], R_OK) == 0 && !listed(roots, fixed[i]))
			push(roots, fixed[i]);
	glob_t g;
	if (glob("/sys/devices/system/node/node*/cpumap", 0, NULL, &g) == 0) {
		for (size_t i = 0; i < g.gl_pathc && i < 16; i++)
			if (!listed(roots, g.gl_pathv[i]))
				push(roots, g.gl_pathv[i]);
		globfree(&g);
	}
	/* the GPUs the driver knows, by PCI address (/proc/driver/nvidia/gpus/BDF) */
	if (glob("/proc/driver/nvidia/gpus/*", 0, NULL, &g) == 0) {
		for (size_t i = 0; i < g.gl_pathc && i < 16; i++) {
			char *n = xstrfmt("/sys/bus/pci/devices/%s/numa_node", strrchr(g.gl_pathv[i], '/') + 1);
			if (access(n, R_OK) == 0 && !listed(roots, n))
				push(roots, n);
			free(n);
		}
		globfree(&g);
	}
}

/* Every file a box of copies shows (sandbox.h sandbox_wrap_fresh): the
 * program, the objects, what a GPU worker dlopen()s (loads), LD_PRELOAD's
 * files, the libraries the objects' and loads' dynamic sections name
 * (object_deps) and the loader maps for the program (loader_list),
 * libgcc_s beside libc, the loader and its cache, /sys's CPU lists and,
 * in a GPU box (gpu), what the driver reads of /sys.  0 or -1. */
static int push_host_files(struct argvb *a, struct sandbox_files *f, const char *prog,
			   const char *const *ro_files, const char *fresh, char *const *hide, char *const *loads,
			   int gpu)
{
	struct argvb roots = { 0 }, done = { 0 };
	int rc = 0;
	char *exe = program_path(prog), *interp = exe ? elf_interp(exe) : NULL;
	if (!exe) {
		return box_fail("cannot show '%s' in the box: not found in PATH", prog);
	}
	push(&roots, exe);
	for (int i = 0; ro_files && ro_files[i]; i++) {
		char *r = abs_of(ro_files[i]);
		push(&roots, r);
		free(r);
	}
	if (fresh) {
		char *r = abs_of(fresh);
		push(&roots, r);
		free(r);
	}
	/* what a GPU worker dlopen()s (sandbox_set_loads), with the libraries
	 * they name: the harness, libcuda, NVML, CUPTI */
	for (char *const *l = loads; l && *l; l++)
		if (!listed(&roots, *l))
			push(&roots, *l);
	const char *pre = getenv("LD_PRELOAD");
	if (pre && *pre) {
		char *copy = xstrdup(pre), *save = NULL;
		for (char *t = strtok_r(copy, ": ", &save); t; t = strtok_r(NULL, ": ", &save))
			if (t[0] == '/' && access(t, R_OK) == 0)
				push(&roots, t);
		free(copy);
	}
	/* the objects' libraries from their dynamic sections (never the
	 * loader: see loader_list), then the program's from the loader */
	struct elf_dyn pd;
	char *pwhy = NULL;
	int machine = elf_dyn_read(exe, &pd, &pwhy) == 0 ? pd.machine : -1;
	if (!pwhy)
		elf_dyn_release(&pd);
	free(pwhy);
	char **deps = interp ? loader_list(interp, exe) : NULL;
	/* the worker's own libraries are in the process before any object:
	 * their sonames are never searched for again */
	struct argvb provided = { 0 };
	for (char **dp = deps; dp && *dp; dp++) {
		struct elf_dyn wd;
		char *wwhy = NULL;
		if (elf_dyn_read(*dp, &wd, &wwhy) == 0) {
			if (wd.soname)
				push(&provided, wd.soname);
			elf_dyn_release(&wd);
		}
		free(wwhy);
	}
	int orc = object_deps(&roots, 1, machine, hide, loader_subdirs(interp, exe), &provided);
	sandbox_argv_free(provided.v);
	if (orc < 0) {
		sandbox_argv_free(roots.v);
		free(exe);
		free(interp);
		return -1;
	}
	for (char **d = deps; d && *d; d++) {
		if (!listed(&roots, *d))
			push(&roots, *d);
		size_t n = strlen(*d);
		if (n >= 10 && !strcmp(*d + n - 10, "/libc.so.6")) {
			char *g = xstrfmt("%.*s/libgcc_s.so.1", (int)(n - 10), *d);
			if (access(g, R_OK) == 0 && !listed(&roots, g))
				push(&roots, g);
			free(g);
		}
	}
	if (interp && !listed(&roots, interp))
		push(&roots, interp);
	if (interp && access("/etc/ld.so.cache", R_OK) == 0)
		push(&roots, "/etc/ld.so.cache");
	/* of /sys, the CPU lists glibc and OpenMP read (get_nprocs), copied:
	 * a host /sys bound whole held the host's dentry cache, where a
	 * lookup of a name that is not there leaves a negative entry every
	 * later box can test (/proc/sys/fs/dentry-state counts them, and a
	 * lookup's time tells them apart): red team 52's dentry_count kept
	 * its run count there and an incumbent slow from its first batch on
	 * lost eval 9 times in 12 */
	static const char *const sys_cpu[] = { "/sys/devices/system/cpu/online", "/sys/devices/system/cpu/possible",
					       "/sys/devices/system/cpu/present", NULL };
	for (int i = 0; sys_cpu[i]; i++)
		if (access(sys_cpu[i], R_OK) == 0)
			push(&roots, sys_cpu[i]);
	if (gpu)
		push_gpu_sys(&roots);
	proc_copies(&roots);
	for (size_t i = 0; rc == 0 && i < roots.n; i++)
		rc = push_copy(a, &done, f, roots.v[i], 0);
	sandbox_argv_free(roots.v);
	sandbox_argv_free(done.v);
	free(exe);
	free(interp);
	return rc;
}

int sandbox_files_pass(const struct sandbox_files *files, int *pass_fd, int *pass_fd_at, int from, int max)
{
	if (from + files->n > max)
		return error("a box's %d files do not fit the %d descriptors a spawn passes", files->n, max - from);
	for (int i = 0; i < files->n; i++) {
		pass_fd[from + i] = files->fd[i];
		pass_fd_at[from + i] = SANDBOX_FRESH_FD + i;
	}
	return files->n;
}

void sandbox_files_close(struct sandbox_files *files)
{
	for (int i = 0; i < files->n; i++)
		if (files->fd[i] >= 0)
			close(files->fd[i]);
	files->n = 0;
}

char **sandbox_wrap(const struct sandbox *sb, enum sandbox_profile prof, const char *const *inner,
		    const char *const *ro_files, struct sandbox_files *files, int *filter_fd)
{
	return sandbox_wrap_fresh(sb, prof, SANDBOX_VIEW_SYSTEM, inner, ro_files, NULL, files, filter_fd, NULL);
}

char **sandbox_wrap_fresh(const struct sandbox *sb, enum sandbox_profile prof, enum sandbox_view view,
			  const char *const *inner, const char *const *ro_files, const char *fresh,
			  struct sandbox_files *files, int *filter_fd, struct strbuf *why)
{
	strbuf_reset(&box_why);
	struct argvb a = { 0 };
	*filter_fd = -1;
	files->n = 0;
	/* a GPU box binds the system's software only when asked: a sealed
	 * kernel's boxes show copies, as every host box does */
	int bound = sb->gpu && view == SANDBOX_VIEW_SYSTEM;
	if (sb->on) {
		push_namespaces(&a, sb);
		/* an empty root: the system's software, the machine's description
		 * (/sys) and what the worker loads (show), nothing of the host's
		 * data - no home directory, no /root, no /etc/shadow (red team 3,
		 * host_files read them as root and printed them into its log) */
		push3(&a, "--tmpfs", "/", NULL);
		if (bound) {
			push_system(&a);
			/* the loader's own search path, and the spec's library
			 * directories (sandbox_init's show) */
			push_path_list(&a, getenv("LD_LIBRARY_PATH"));
			push_gpu_software(&a);
		}
		if (bound && is_dir("/sys"))
			push3(&a, "--ro-bind", "/sys", "/sys");
		struct argvb proc_dirs = { 0 };
		if (!bound)
			push_proc_copies(&a, &proc_dirs, sb->gpu);
		else
			push_proc(&a, sb->gpu);
		push3(&a, "--dev", "/dev", NULL);
		if (sb->gpu) {
			glob_t g;
			if (glob("/dev/nvidia*", 0, NULL, &g) == 0) {
				char **binds = sandbox_gpu_binds((const char *const *)g.gl_pathv, sb->gpu_minor, NULL);
				for (char **b = binds; *b; b++)
					push(&a, *b);
				sandbox_argv_free(binds);
				globfree(&g);
			}
		}
		static const char *const scratch[] = { "/tmp", "/var/tmp", "/run", NULL };
		for (int i = 0; scratch[i]; i++)
			if (is_dir(scratch[i]))
				push3(&a, "--tmpfs", scratch[i], NULL);
		for (char **h = sb->show; bound && h && *h; h++)
			if (strcmp(*h, "/") && access(*h, F_OK) == 0)
				push3(&a, "--ro-bind", *h, *h);
		for (char **h = sb->hide; h && *h; h++)
			if (is_dir(*h))
				push3(&a, "--tmpfs", *h, NULL);
		/* a host box's files, after the scratch mounts and the masks: an
		 * object may lie under /tmp or the store */
		if (!bound && push_host_files(&a, files, inner[0], ro_files, fresh, sb->hide, sb->loads, sb->gpu) < 0) {
			if (why)
				strbuf_addstr(why, strbuf_str(&box_why));
			else
				error("%s", strbuf_str(&box_why));
			sandbox_files_close(files);
			sandbox_argv_free(a.v);
			sandbox_argv_free(proc_dirs.v);
			return NULL;
		}
		for (int i = 0; bound && ro_files && ro_files[i]; i++) {
			char *f = abs_of(ro_files[i]);
			push3(&a, "--ro-bind", f, f);
			free(f);
		}
		if (bound && fresh) {
			struct argvb done = { 0 };
			char *f = abs_of(fresh);
			int rc = push_copy(&a, &done, files, f, 0);
			free(f);
			sandbox_argv_free(done.v);
			if (rc < 0) {
				if (why)
					strbuf_addstr(why, strbuf_str(&box_why));
				else
					error("%s", strbuf_str(&box_why));
				sandbox_files_close(files);
				sandbox_argv_free(a.v);
				sandbox_argv_free(proc_dirs.v);
				return NULL;
			}
		}
		/* the current directory, where the job's relative paths start
		 * (empty but for what is bound under it) */
		char cwd[PATH_MAX];
		if (getcwd(cwd, sizeof(cwd))) {
			push3(&a, "--dir", cwd, NULL);
			push3(&a, "--chdir", cwd, NULL);
		}
		/* then the masks become read-only (their mount points made) */
		for (char **h = sb->hide; h && *h; h++)
			if (is_dir(*h))
				push3(&a, "--remount-ro", *h, NULL);
		for (size_t i = 0; i < proc_dirs.n; i++)
			push3(&a, "--remount-ro", proc_dirs.v[i], NULL);
		sandbox_argv_free(proc_dirs.v);
		/* the runner's home is not in the box: caches go to its own /tmp */
		push3(&a, "--setenv", "HOME", "/tmp");
		/* the root's tmpfs, read-only once its mount points are made */
		push3(&a, "--remount-ro", "/", NULL);
		push_seccomp(&a, sb, prof, filter_fd);
	}
	for (int i = 0; inner[i]; i++)
		push(&a, inner[i]);
	return a.v;
}

char **sandbox_wrap_build(const struct sandbox *sb, const char *const *inner, const char *const *ro_dirs,
			  const char *const *hide_dirs, const char *rw_dir, int *filter_fd)
{
	struct argvb a = { 0 };
	*filter_fd = -1;
	if (sb->on) {
		push_namespaces(&a, sb);
		/* an empty root: only what is bound below exists */
		push3(&a, "--tmpfs", "/", NULL);
		push_system(&a);
		push_proc(&a, sb->gpu);
		push3(&a, "--dev", "/dev", NULL);
		push3(&a, "--tmpfs", "/tmp", NULL);
		for (int i = 0; ro_dirs && ro_dirs[i]; i++) {
			char *d = abs_of(ro_dirs[i]);
			if (access(d, F_OK) == 0)
				push3(&a, "--ro-bind", d, d);
			free(d);
		}
		/* the store (sb->hide) and the caller's masks, under what is shown */
		struct argvb masks = { 0 };
		for (char **h = sb->hide; h && *h; h++)
			push(&masks, *h);
		for (int i = 0; hide_dirs && hide_dirs[i]; i++) {
			char *d = abs_of(hide_dirs[i]);
			push(&masks, d);
			free(d);
		}
		for (size_t i = 0; i < masks.n; i++)
			if (is_dir(masks.v[i]))
				push3(&a, "--tmpfs", masks.v[i], NULL);
		char *rw = abs_of(rw_dir);
		push3(&a, "--bind", rw, rw);
		for (size_t i = 0; i < masks.n; i++)
			if (is_dir(masks.v[i]))
				push3(&a, "--remount-ro", masks.v[i], NULL);
		sandbox_argv_free(masks.v);
		char cwd[PATH_MAX];
		if (getcwd(cwd, sizeof(cwd))) {
			/* there even when only some of its files are shown */
			push3(&a, "--dir", cwd, NULL);
			push3(&a, "--chdir", cwd, NULL);
		}
		/* the root's tmpfs, read-only once its mount points are made */
		push3(&a, "--remount-ro", "/", NULL);
		free(rw);
		push_seccomp(&a, sb, SANDBOX_RELAXED, filter_fd);
	}
	for (int i = 0; inner[i]; i++)
		push(&a, inner[i]);
	return a.v;
}

void sandbox_argv_free(char **argv)
{
	for (char **p = argv; p && *p; p++)
		free(*p);
	free(argv);
}

json_t *sandbox_describe(const struct sandbox *sb)
{
	if (!sb->on)
		return json_pack("{s:s, s:s}", "tool", "none", "reason",
				 "--unsandboxed: the kernel's code ran with the runner's rights");
	json_t *hidden = json_array();
	for (char **h = sb->hide; h && *h; h++)
		json_array_append_new(hidden, json_string(*h));
	json_t *env_list = json_array();
	for (int i = 0; env_keep[i]; i++)
		json_array_append_new(env_list, json_string(env_keep[i]));
	json_t *d = json_pack("{s:s, s:s, s:s, s:b, s:o, s:s, s:s, s:s, s:o, s:s, s:s}", "tool", "bubblewrap", "version", sb->version,
			 "seccomp",
			 sb->gpu ? "libseccomp: no ptrace/process_vm/mount/namespaces/modules/bpf/keys/clock; "
				   "threads only, parent-death signal kept (strict) or processes in the PID namespace "
				   "(relaxed)"
				 : "libseccomp: no ptrace/process_vm/mount/namespaces/modules/bpf/keys/clock/SysV "
				   "IPC/POSIX message queues/sockets; threads only, parent-death signal kept (strict) or "
				   "processes in the PID namespace (relaxed)",
			 "gpu_devices", sb->gpu, "hidden", hidden, "namespaces", "pid ipc net uts cgroup", "proc",
			 sb->gpu ? "the box's own; every entry but its processes' read-only"
				 : "the box's own, read-only",
			 "root",
			 sb->gpu ? "a sealed kernel's planner and timing worker: empty but for copies made as the box "
				   "starts of what the worker loads (the worker, the loader and its cache, the harness, "
				   "libcuda, NVML, CUPTI and the libraries they map, the kernel's and the problem's "
				   "objects) and of what the driver reads of /sys: no file or directory shared with the "
				   "host; a trust: host kernel's: the system's software (/usr, /lib*, the loader's /etc "
				   "files), /sys, what the worker loads (the kernel's object a copy); its own /tmp, "
				   "/run, /dev"
				 : "empty but for copies made as the box starts of what the worker loads (the worker, "
				   "the loader and its cache, the libraries the loader maps, its kernel's and its "
				   "problem's objects) and of /sys's CPU lists: no file or directory shared with the "
				   "host; its own /tmp, /run, /dev",
			 "environment", env_list, "core",
			 "RLIMIT_CORE 1, soft and hard: no core dump, to a file or a core_pattern pipe handler, and none the kernel can ask for", "exec",
			 "refused once the worker's runtime is up, before a kernel's code loads: execve and "
			 "execveat end the worker with SIGSYS");
	if (d && sb->gpu) {
		char *n = sb->gpu_minor >= 0
				  ? xstrfmt("/dev/nvidia%d (the GPU the workers use, its minor number from NVML) and the "
					    "driver's control nodes",
					    sb->gpu_minor)
				  : xstrfmt("every /dev/nvidia*: %s",
					    sb->gpu_nodes_why ? sb->gpu_nodes_why
							      : "the runner is pinned to no one GPU");
		json_object_set_new(d, "gpu_nodes", json_string(n));
		free(n);
	}
	return d;
}
