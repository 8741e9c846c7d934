/*
 * sandbox_filter.c - the seccomp programs of the box (sandbox.h): what a
 * process that runs kernel code may not call, in three profiles (strict,
 * where the kernel's own code runs; relaxed, for the compiler; the
 * sanitizer's, the relaxed one less a file's times, mode, owner, extended
 * attributes and device nodes), for host and GPU boxes, built with libseccomp once a batch
 * and handed to bubblewrap as a sealed memfd; and the exec filter a
 * worker puts on itself once its own runtime is up.
 */
#include "base/sandbox.h"
#include "base/sandbox_int.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/netlink.h>
#include <sched.h>
#include <seccomp.h>
#include <signal.h>
#include <string.h>
#include <sys/mman.h>

/* statx's mask bit for the mount's unique id (Linux 6.8, uapi stat.h
 * STATX_MNT_ID_UNIQUE), spelled out for older headers */
#define STATX_MNT_ID_UNIQUE_BIT 0x4000U
#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <termios.h>
#include <unistd.h>

/* The relaxed profile's deny list (the compiler's box; compute-sanitizer's,
 * where the worker under the sanitizer runs a kernel's code): syscalls no
 * kernel under test has a use for: they reach other processes' memory,
 * the mount table, namespaces, the kernel itself or the clocks.  Where a
 * kernel's own code runs without a sanitizer (strict), host or GPU box,
 * an allow list that names none of them (host_allowed, gpu_allowed). */
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
	"io_uring_setup", "io_uring_enter", "io_uring_register",
	/* inotify: an IN_MOVED_FROM event's cookie is the host's fsnotify
	 * rename cookie, one u32 every rename() on the host takes the next
	 * value of, which a box moves (renames in its own /tmp) and reads (a
	 * watch there): red team 80's rename_count kept an exact run count in
	 * it, 8x slow from its third process, and eval promoted copies of its
	 * own code 4 of 4.  The allow lists never had them: on an H200 the
	 * CUDA driver, NVML, CUPTI and compute-sanitizer called none
	 * (data/syscall-census/) */
	"inotify_init", "inotify_init1", "inotify_add_watch", "inotify_rm_watch",
	/* a perf event's id (PERF_EVENT_IOC_ID) comes from one counter of the
	 * host's, which nothing else on a host moves: red team 77's perf_id
	 * read an exact count of its own runs there (the id rose by 2 a
	 * repeat) and slowed itself by it.  Not called by the CUDA stack nor
	 * compute-sanitizer on an H200 (data/syscall-census/), so refused
	 * under the sanitizer too; the allow lists never had it */
	"perf_event_open", NULL,
};

/* System V IPC and POSIX message queues: objects that outlive the call
 * that made them, in the box's IPC namespace, holding memory no resident
 * size counts; nothing a host kernel needs (red team 4, ipc_linger).
 * Refused in the compiler's host box (the allow lists never had them); a
 * GPU box's sanitizer keeps them (shm_open is a file of /dev/shm, not
 * these).  A change of a file's times, mode, owner or extended attributes
 * and mknod are refused where a kernel's own code runs (not in the allow
 * lists): red team 33 kept a run count in the access time of the host's
 * /dev/null (utimensat), which a box's uid 0 owns and no other process
 * moves. */
static const char *const denied_host[] = {
	"shmget", "shmat", "shmdt", "shmctl", "semget", "semop", "semtimedop", "semctl", "msgget",
	"msgsnd", "msgrcv", "msgctl", "ipc", "mq_open", "mq_unlink", "mq_timedsend", "mq_timedreceive",
	"mq_notify", "mq_getsetattr", NULL,
};

/*
 * compute-sanitizer's box (SANDBOX_SANITIZER): the relaxed deny list and
 * no change of a file's times, mode, owner or extended attributes, which
 * a strict box refuses too (not in its allow list).  Under the sanitizer a
 * trust: host kernel's host code runs the whole timed sequence, and red
 * team 33 kept a run count in the access time of the host's /dev/null
 * (utimensat with explicit times: the box's uid 0 owns it, no other
 * process moves it); a mode, an owner or an attribute of a file the box
 * binds from the host would keep one as well.  The compiler's box
 * (SANDBOX_RELAXED) keeps them: gcc, ld and nvcc chmod their outputs.
 * What the census saw (data/syscall-census/, H200, 2026-12-01, c1-c3:
 * racecheck and memcheck of t3001, t3002, t3004 and the study's iter1):
 * compute-sanitizer's boxes (the tool, the worker it starts, the CUDA
 * stack) called none of these, chmod only by cc and nvcc; mknodat 16
 * times, its mode not kept by the census (see mknod below).
 */
static const char *const denied_file_state[] = {
	"utime", "utimes", "futimesat", "utimensat", "chmod", "fchmod", "fchmodat", "fchmodat2", "chown",
	"fchown", "lchown", "fchownat", "setxattr", "lsetxattr", "fsetxattr", "removexattr", "lremovexattr",
	"fremovexattr", "setxattrat", "removexattrat", NULL,
};

/* Numbers of those a libseccomp may not know by name (2.5.4 knows
 * neither *xattrat call, Linux 6.13): since Linux 5.1 a new call has one
 * number on every architecture but alpha, mips and ia64; refused by
 * number on x86_64 and aarch64 where the name does not resolve. */
static const struct {
	const char *name;
	int nr;
} late_calls[] = { { "fchmodat2", 452 }, { "setxattrat", 463 }, { "removexattrat", 466 }, { NULL, 0 } };

static int late_call_nr(const char *name)
{
#if defined(__x86_64__) || defined(__aarch64__)
	for (int i = 0; late_calls[i].name; i++)
		if (!strcmp(late_calls[i].name, name))
			return late_calls[i].nr;
#else
	(void)name;
#endif
	return __NR_SCMP_ERROR;
}

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
 * included.  GPU boxes keep AF_UNIX (the CUDA driver's: measured, one or
 * two a process, data/syscall-census/); the strict profile refuses every
 * other family (gpu_allow_list), the relaxed one (compute-sanitizer) a
 * netlink socket of the kernel's device events (NETLINK_KOBJECT_UEVENT).
 */
static const char *const denied_host_sockets[] = { "socket", "socketpair", "socketcall", NULL };

static int deny_all(scmp_filter_ctx ctx, const char *const *names)
{
	int rc = 0;
	for (int i = 0; names[i] && rc == 0; i++) {
		int nr = seccomp_syscall_resolve_name(names[i]);
		if (nr == __NR_SCMP_ERROR)
			nr = late_call_nr(names[i]);
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

/* fcntl commands that keep state in an inode a box may share with the
 * host (red team 129): leases, dnotify, write-life hints read or set;
 * ascending (gpu_fcntl's ranges lie between them) */
static const unsigned long long inode_fcntl_cmds[] = { 1024, 1025, 1026, 1035, 1036, 1037, 1038 };

/* the relaxed profile (the compiler's box, host or GPU; compute-
 * sanitizer's): a deny list (ctx made with a default of ALLOW); processes
 * are allowed, the PID namespace holds them */
static int deny_list(scmp_filter_ctx ctx, int gpu)
{
	int rc = deny_all(ctx, denied);
	if (rc == 0 && !gpu)
		rc = deny_all(ctx, denied_host);
	for (int i = 0; rc == 0 && !gpu && denied_host_sockets[i]; i++) {
		int nr = seccomp_syscall_resolve_name(denied_host_sockets[i]);
		if (nr != __NR_SCMP_ERROR)
			rc = seccomp_rule_add(ctx, SCMP_ACT_ERRNO(EAFNOSUPPORT), nr, 0);
	}
	/* a GPU box's sanitizer keeps its sockets, but not the host kernel's
	 * device events (the CUDA driver, NVML and CUPTI ran with this rule on
	 * an H200 pair: data/gpu-evidence/h200x2-redteam7-20261128.txt) */
	/* (the family and protocol are ints: the kernel reads the low 32
	 * bits, so the rule does; red team 119: `1 << 32 | AF_NETLINK` passed
	 * a rule comparing whole registers and made the socket) */
	if (rc == 0 && gpu)
		rc = seccomp_rule_add(ctx, SCMP_ACT_ERRNO(EAFNOSUPPORT), SCMP_SYS(socket), 2,
				      SCMP_A0(SCMP_CMP_MASKED_EQ, 0xffffffffULL, AF_NETLINK),
				      SCMP_A2(SCMP_CMP_MASKED_EQ, 0xffffffffULL, NETLINK_KOBJECT_UEVENT));
	/* fcntl's inode-state commands (leases, dnotify, write-life hints:
	 * gpu_fcntl) in compute-sanitizer's box too, where a kernel's host
	 * code runs (red team 129) */
	for (size_t i = 0; rc == 0 && i < sizeof(inode_fcntl_cmds) / sizeof(inode_fcntl_cmds[0]); i++)
		rc = seccomp_rule_add(ctx, SCMP_ACT_ERRNO(EPERM), SCMP_SYS(fcntl), 1,
				      SCMP_A1(SCMP_CMP_MASKED_EQ, 0xffffffffULL, inode_fcntl_cmds[i]));
	if (rc == 0 && !gpu && sandbox_runner_pinned()) {
		/* the runner was given fewer CPUs than the machine has (a pool
		 * slot pinned to its CPU, or taskset): a mask is no bound, any
		 * thread may set its own to every CPU, so a kernel widened it in
		 * init and ran half of each launch on the other slot's CPU while
		 * the record said "cpu 0" (red team 8, cpu_widen) */
		rc = seccomp_rule_add(ctx, SCMP_ACT_ERRNO(EPERM), SCMP_SYS(sched_setaffinity), 0);
	}
	return rc;
}

/* compute-sanitizer's box: the relaxed deny list (above), a file's times,
 * mode, owner and extended attributes (denied_file_state), and mknod of a
 * device node or a regular file (S_IFREG, or no type, which the kernel
 * takes as S_IFREG: a file whose mode it chose).  A FIFO or a socket
 * node passes: compute-sanitizer called mknodat 16 times in the census
 * (c1, racecheck and memcheck), whose arguments it does not keep; glibc's
 * mkfifo is mknodat(S_IFIFO) (a prediction that it is the one, not
 * measured), and a FIFO of the box's own tmpfs holds nothing the host
 * keeps. */
static int sanitizer_deny_list(scmp_filter_ctx ctx, int gpu)
{
	static const scmp_datum_t node_types[] = { S_IFCHR, S_IFBLK, S_IFREG, 0 };
	int rc = deny_list(ctx, gpu);
	if (rc == 0)
		rc = deny_all(ctx, denied_file_state);
	for (int i = 0; rc == 0 && i < (int)(sizeof(node_types) / sizeof(node_types[0])); i++) {
		rc = seccomp_rule_add(ctx, SCMP_ACT_ERRNO(EPERM), SCMP_SYS(mknodat), 1,
				      SCMP_A2(SCMP_CMP_MASKED_EQ, S_IFMT, node_types[i]));
#ifdef __NR_mknod
		if (rc == 0)
			rc = seccomp_rule_add(ctx, SCMP_ACT_ERRNO(EPERM), SCMP_SYS(mknod), 1,
					      SCMP_A1(SCMP_CMP_MASKED_EQ, S_IFMT, node_types[i]));
#endif
	}
	return rc;
}

/*
 * The host box where a kernel's own code runs (strict profile, no GPU):
 * an ALLOW list, which a GPU box's strict filter extends (gpu_allowed).
 * The deny list it replaced named what each red team had found, and
 * every kernel release adds host-wide ids a box can move and read: red
 * team 80 read the fsnotify rename cookie (one host-wide u32 that every
 * rename() takes the next value of) through an inotify watch on the box's
 * own /tmp and kept an exact run count there, and sysinfo() read the
 * host's load and thread count beside a masked /proc/loadavg.  Here only
 * what the worker, the loader, glibc, libm, libgomp and pthreads, and the
 * kernels of kernels/host and tests/fixtures were seen to call passes
 * (2026-12-01, glibc 2.36, Linux 6.18: strace -f of the workers of six
 * host specs, cpu-demo, gemm-, layernorm- and rowsum-demo, evo-host and
 * red team 16's OpenMP softmax; then the host CLI tests under this
 * filter, and once under a build whose default was SCMP_ACT_LOG, whose
 * log named what only adversaries call beyond it); everything else fails
 * with EPERM (sandbox_filter_fd), so a call a future kernel adds is
 * refused until someone puts it here.
 * Refused among others: inotify and fanotify, sysinfo (glibc's
 * sysconf(_SC_NPROCESSORS_*) reads /sys's CPU lists, which the box copies;
 * only _SC_PHYS_PAGES and _SC_AVPHYS_PAGES ask sysinfo, and glibc 2.36
 * then answers 0 or garbage; its qsort only picks merge sort or quicksort
 * by that answer: 4 Mi ints sorted under this filter), perf
 * events, pidfds, bpf, keyrings, System V IPC and message queues, extended
 * attributes, times, modes and owners, mknod, rename and links, mount and
 * namespaces, io_uring (a ring makes syscalls this filter never sees)
 * and the older AIO (io_setup), userfaultfd, process_vm_*, ptrace, kcmp, file handles, statmount/
 * listmount, memfd_secret, eventfd/epoll/timerfd/signalfd,
 * landlock, membarrier, NUMA policies, statfs, scheduling policies and
 * priorities; POSIX timers (timer_create), SIGCONT to itself and
 * fcntl(F_SETSIG) (self_signals: red team 90).
 */
static const char *const host_allowed[] = {
	/* the program's start: bubblewrap loads this filter and execs the
	 * worker, whose loader maps its libraries (the worker then refuses
	 * exec itself, sandbox_no_exec); libc's thread pointer, robust list,
	 * rseq area, stack limit, malloc's random seed, CET shadow stacks
	 * (glibc 2.39 and later) */
	"execve", "arch_prctl", "set_tid_address", "set_robust_list", "rseq", "prlimit64", "getrlimit",
	"getrandom", "map_shadow_stack",
	/* memory: the heap, mappings (the loader's, malloc's, the shared
	 * buffer the runner hands over), their protections (thread stacks'
	 * guard pages), malloc's and glibc's stack cache's madvise */
	"brk", "mmap", "munmap", "mremap", "mprotect", /* madvise: host_allow_list, gpu_allow_list */
	/* and what an honest kernel asks of its own memory (red team 82's
	 * fp_honest: init_failed without them): locked in RAM, synced, a NUMA
	 * policy for its buffers, a memory barrier across its threads; the
	 * box's OOM score answers what it locks, and /proc/meminfo's Mlocked
	 * is a copy made as the box starts, /proc/vmstat masked (red team 33's
	 * mlock counter) */
	"mlock", "mlock2", "munlock", "mlockall", "munlockall", "msync", "mincore",
	"set_mempolicy", "get_mempolicy", /* membarrier, mbind: host_allow_list, gpu_allow_list */
	/* the files its box shows (read-only copies) and its descriptors (the
	 * job, the plan and the channel the runner passes, stdout, stderr):
	 * open, read, write, stat, list a directory (/proc/self/task, the
	 * loader's search), seek, duplicate and close; poll on them */
	"read", "write", "readv", "writev", "pread64", "pwrite64", "preadv", "pwritev", "preadv2", "pwritev2",
	"lseek", "close", "close_range", "dup", "dup2", "dup3", "open", "openat", "stat", "fstat",
	"lstat", "newfstatat", "access", "faccessat", "faccessat2", "readlink", "readlinkat",
	"getdents64", "getcwd", "chdir", "fchdir", "poll", "ppoll", "select", "pselect6",
	/* and on those files: advice to the page cache (of the box's own
	 * copies), the file system's size (of the box's tmpfs and copies,
	 * and of the device nodes bubblewrap binds in: the host's devtmpfs,
	 * whose counts no box can move, since /dev is read-only and mknod
	 * refused; red team 242 read them equal to the host's) (red team
	 * 82's fp_probe).  No flock: every box shows the host's own
	 * /dev/null, /dev/zero, /dev/full, /dev/random, /dev/urandom and
	 * /dev/tty (bubblewrap's --dev binds them), whose locks every box and
	 * the host see (red team 129's lock_hog paced a neighbour's load by
	 * them); fcntl by command, in self_signals */
	"fadvise64", "fstatfs", "statfs",
	/* waits on its own descriptors (a thread pool's wake-ups): every
	 * eventfd, epoll and timerfd shares one anonymous inode, and an
	 * eventfd's number is the lowest free descriptor, no counter (red
	 * team 80, measured) */
	"eventfd", "eventfd2", "epoll_create", "epoll_create1", "epoll_ctl", "epoll_wait", "epoll_pwait",
	"epoll_pwait2", "timerfd_create", "timerfd_settime", "timerfd_gettime",
	/* a pipe: the worker's own (a GPU worker's driver, a sanitizer); a
	 * host worker's filter refuses it before the kernel loads (its inode
	 * number is get_next_ino()'s, a host-wide counter: sandbox_no_exec) */
	"pipe", "pipe2",
	/* the box's own writable tmpfs (/tmp, /var/tmp, /run, /dev/shm): a
	 * scratch file made, sized, synced and removed; no rename or link */
	"ftruncate", "fsync", "fdatasync", "unlink", "unlinkat", "mkdir", "mkdirat", "rmdir", "umask",
	/* memory of its own as a file (memfd_create, sized by ftruncate or
	 * fallocate): a scratch a kernel maps or reads, held in no resident
	 * size, which the box's OOM score answers (SANDBOX_OOM_SCORE_ADJ);
	 * its inode number is a host-wide counter's (the kernel's internal
	 * tmpfs), so a host worker's own filter refuses it, and every
	 * MAP_SHARED mmap, once the parent's memory is mapped and before the
	 * kernel loads (sandbox_no_exec, red team 207); a GPU box keeps it */
	"memfd_create", /* fallocate: host_allow_list, gpu_allow_list */
	/* threads and their waits: clone is allowed below for threads only;
	 * futexes (pthreads, libgomp's barriers), yielding, the CPU a thread
	 * is on, the CPUs it may use (sched_setaffinity below) */
	"futex", "futex_waitv", "gettid", "getpid", "getppid", "sched_yield", "getcpu", "sched_getaffinity",
	"getpriority",
	"sched_getparam", "sched_getscheduler", "sched_get_priority_max", "sched_get_priority_min", "exit",
	"exit_group",
	/* signals, to itself (the box's PID namespace holds nothing else):
	 * handlers, masks, an alternate stack, the timers whose signal is
	 * fixed (alarm, setitimer: SIGALRM, SIGVTALRM, SIGPROF); raise and
	 * abort (tgkill), kill and tkill by signal, and fcntl by command, in
	 * self_signals below.  No timer_create: a POSIX timer's signal is any
	 * (its sigevent is in memory, which no filter reads), and SIGCONT
	 * continues a stopped process when it is generated (red team 90; see
	 * self_signals).  timer_settime and the rest find no timer to act on */
	"rt_sigaction", "rt_sigprocmask", "rt_sigreturn", "rt_sigsuspend", "rt_sigtimedwait", "rt_sigpending",
	"sigaltstack", "restart_syscall", "pause", "alarm", "getitimer", "setitimer", "timer_settime",
	"timer_gettime", "timer_getoverrun", "timer_delete",
	/* clocks, read (the vDSO's fallbacks) and slept on, and its own CPU
	 * time */
	"clock_gettime", "clock_getres", "clock_nanosleep", "nanosleep", "gettimeofday", "time", "times",
	"getrusage",
	/* who it is: constants of the box (its ids, its UTS namespace's
	 * names, its session) */
	"getuid", "geteuid", "getgid", "getegid", "getresuid", "getresgid", "getgroups", "getpgrp", "getpgid",
	"getsid", "uname", "capget",
	/* the worker's own exec filter (sandbox_no_exec): a filter only ever
	 * takes calls away */
	"seccomp", NULL,
};

/* prctl by option (the rest refused): the worker's no_new_privs before
 * its own filter, a thread's name, and reads of its own state; never
 * PR_SET_PDEATHSIG (red team 4, outlive) */
static const int host_prctl_allowed[] = {
	PR_SET_NO_NEW_PRIVS, PR_GET_NO_NEW_PRIVS, PR_SET_NAME, PR_GET_NAME, PR_GET_DUMPABLE, PR_GET_PDEATHSIG,
	PR_GET_SECCOMP, PR_CAPBSET_READ, PR_GET_TIMERSLACK, PR_SET_TIMERSLACK, PR_GET_THP_DISABLE,
#ifdef PR_SET_VMA
	PR_SET_VMA, /* glibc 2.39's names of its own mappings */
#endif
	-1,
};

/* ioctl by request: stdio's isatty (TCGETS) and a terminal's size on
 * the descriptors it was given, non-blocking and close-on-exec flags;
 * no request of any other kind of file */
static const unsigned long host_ioctl_allowed[] = { TCGETS, TIOCGWINSZ, FIONREAD, FIONBIO, FIOCLEX, FIONCLEX, 0 };

/*
 * A GPU box where a kernel's own code runs (strict profile, gpu: a sealed
 * kernel's planner and timing worker, a trust: host kernel's CUDA worker):
 * the host box's list (host_allowed, the prctl options, threads only) and
 * what the CUDA driver, runtime, CUPTI, NVML, cuBLAS and cuDNN were
 * measured to call beyond it, every other call EPERM.  Measured on an H200
 * (driver 580.159.04, 2026-12-01: data/syscall-census/, strace -f of every
 * process in a box during GPU tests t3001-t3009 and the study's iter1,
 * none refused under the deny list of that day): the evident-worker
 * payload made 60 calls, of which these are not the host box's:
 *  - ioctl of any request: the driver's (nvidiactl, nvidiaN, nvidia-uvm:
 *    RM and UVM requests, which no short list names); a census keeps no
 *    arguments;
 *  - sockets of AF_UNIX only (socket, bind, listen, connect, setsockopt,
 *    once or twice a CUDA process: the driver's local sockets, in the box's
 *    own tmpfs and network namespace); every other family EAFNOSUPPORT, as
 *    in a host box (red team 32's AF_ALG registered an algorithm with the
 *    host's kernel for good; a netlink socket heard the host's device
 *    events, red team 6); socketpair EAFNOSUPPORT (not called).  The calls
 *    on such a socket a server or client of its own would make (accept,
 *    send and receive, shutdown, its own and its peer's name) are allowed
 *    too, not measured: they reach nothing outside the box's namespace.
 *    getsockopt is not: SO_COOKIE reads the host-wide socket cookie
 *    counter (sock_gen_cookie), one every socket that asks moves;
 *  - symlink (about 12 a CUDA process) beside mkdir and unlink (the host
 *    list's): in the box's own tmpfs; links, renames, modes and times stay
 *    refused;
 *  - sysinfo, unless SANDBOX_GPU_REFUSES_SYSINFO (below).
 * Read from the census too: the worker payload never called execve,
 * vfork, wait4 or kill (no child process: nvcc's and the sanitizer's boxes
 * made those), and no clone of its was refused by the deny list of that
 * day, which refused a clone without CLONE_THREAD with EPERM in a strict
 * GPU box: threads only, as in a host box.  prctl came once a worker
 * process by the counts (c2: 55 prctl, 55 readlinkat, 550 seccomp calls,
 * libseccomp's 10 a load; c3: 30, 30, 300), read as the worker's own
 * PR_SET_NO_NEW_PRIVS (libseccomp's seccomp_load in sandbox_no_exec; the
 * census keeps no option): libcuda names its threads in
 * /proc/self/task/N/comm, not by prctl.  The host box's options stay
 * (PR_SET_NAME among them); PR_SET_PDEATHSIG stays refused.  Not
 * called, and refused: perf_event_open, inotify, fanotify, io_uring,
 * System V IPC and message queues (allowed under the deny list, "the CUDA
 * stack's use not known": measured, none), process_vm_*, pidfds, rename,
 * getsockopt, sched_setaffinity where the runner is pinned (the host
 * box's rule), timer_create (red team 90: a POSIX timer's SIGCONT resumed
 * a stopped host worker; not in the census, to be confirmed on a GPU).
 */
static const char *const gpu_allowed[] = {
	/* on an AF_UNIX socket (socket itself by family, below) */
	"bind", "listen", "connect", "setsockopt", "accept", "accept4", "sendto", "recvfrom", "sendmsg",
	"recvmsg", "shutdown", "getsockname", "getpeername",
	/* in the box's own tmpfs */
	"symlink", "symlinkat",
	/* POSIX timers: the host box refuses them for the SIGCONT a timer
	 * can send a worker the parent holds stopped (red team 90); a GPU
	 * worker is never held stopped (its samples are timed on the
	 * device), and red team 25's honest trust: host sleeper times its
	 * handler with one (t3005: init_failed on an H200 with it refused,
	 * the lead's call S4) */
	"timer_create", NULL,
};

/*
 * Nothing but the parent resumes a stopped host worker (red team 90).  The
 * parent times a host sample from its go to the SIGSTOP it sends at the
 * done line (run/host_clock.c round_trip), and SIGCONT continues a stopped
 * process as the signal is generated, whatever its masks and handlers say:
 * a POSIX timer of the worker's own (timer_create, SIGEV_THREAD_ID to a
 * helper thread) sent it just after the done line, the helper wrote the
 * sample's outputs while the parent listed 1000 idle threads, and the
 * parent's later stops took it again, so the freeze found it stopped: the
 * wrong outputs of the done line were recorded ok (5 of 6 runs aimed at
 * sample 9; 6 of 10 at the last sample).  So in a host box no call that
 * names a signal may name SIGCONT:
 *  - kill, tkill, tgkill: allowed by their signal, every value but
 *    SIGCONT (and above _NSIG: invalid anyway, EPERM instead of EINVAL),
 *    compared on the low 32 bits, as the kernel reads an int (a filter on
 *    the whole register passed 0x100000012 as "not 18");
 *  - fcntl: by an allow list of commands (host_fcntl), without F_SETSIG,
 *    which makes the signal of a descriptor's O_ASYNC readiness, its
 *    lease break or its dnotify event any (F_SETOWN and SIGIO stay);
 *  - timer_create: refused (host_allowed), its signal being in memory;
 *  - refused already by the allow list: rt_sigqueueinfo,
 *    rt_tgsigqueueinfo, pidfd_send_signal (and pidfd_open ENOSYS),
 *    mq_notify (a message queue's SIGEV_SIGNAL), io_setup/io_submit (the
 *    kernel's AIO, whose notification is an eventfd; glibc's POSIX AIO and
 *    getaddrinfo_a notify through rt_sigqueueinfo or a timer: refused),
 *    prctl(PR_SET_PDEATHSIG), signalfd, ptrace, io_uring, setpgid/setsid;
 *  - a clone's exit signal: threads only (CLONE_THREAD), whose exit sends
 *    no signal (the kernel sets their exit_signal to -1); the kernel's
 *    SIGHUP+SIGCONT to a newly orphaned process group needs a process
 *    that exits with children or group members, and the worker makes none.
 * What an honest kernel loses: POSIX timers of every kind (timer_create:
 * glibc's SIGEV_THREAD timers use it too), and sending itself SIGCONT;
 * timerfd, clock_nanosleep, setitimer and alarm remain.
 * A GPU box keeps kill, tkill, tgkill, timer_create and fcntl (but its
 * inode-state and lock commands, gpu_fcntl) unfiltered
 * (the CUDA stack's calls, measured: data/syscall-census/ keeps no
 * arguments; a GPU worker is never held stopped, so a SIGCONT of its own
 * resumes nothing the judge holds; red team 25's honest trust: host
 * sleeper needs its POSIX timer: t3005).
 */
static int allow_low32_range(scmp_filter_ctx ctx, int nr, unsigned arg, unsigned long long lo, unsigned long long hi)
{
	/* [lo, hi] of the argument's low 32 bits, as aligned power-of-two
	 * blocks, each a masked compare (the high 32 bits masked off) */
	int rc = 0;
	while (rc == 0 && lo <= hi) {
		unsigned long long size = 1;
		while (size < (1ULL << 32) && (lo & (size * 2 - 1)) == 0 && lo + size * 2 - 1 <= hi)
			size *= 2;
		rc = seccomp_rule_add(ctx, SCMP_ACT_ALLOW, nr, 1,
				      SCMP_CMP(arg, SCMP_CMP_MASKED_EQ, 0xffffffffULL & ~(size - 1), lo));
		lo += size;
	}
	return rc;
}

/* allow nr unless its argument arg (an int in the kernel: the low 32
 * bits) is `but`; values above `max` refused too */
static int allow_low32_but(scmp_filter_ctx ctx, int nr, unsigned arg, unsigned long long but,
			   unsigned long long max)
{
	int rc = but > 0 ? allow_low32_range(ctx, nr, arg, 0, but - 1) : 0;
	if (rc == 0 && but < max)
		rc = allow_low32_range(ctx, nr, arg, but + 1, max);
	return rc;
}

/*
 * fcntl in a host box, by an allow list of commands (compared on the low
 * 32 bits, as the kernel reads an int): descriptors' flags, duplicates,
 * owners (F_SETOWN and SIGIO stay), a pipe's size read, and memfd seals.
 * Not F_SETPIPE_SZ: a pipe grown counts against its user's host-wide
 * pipe pages (fs.pipe-user-pages-soft), so whether a box may grow its
 * pipes reads what other processes of root's hold, and moves it (red team
 * 133's pipegauge: 4864-4896 pages alone, 2304 beside a process holding
 * 32 MiB of pipes).  Not
 * F_SETSIG (self_signals, above), and nothing that keeps state in an
 * inode a box shares with the host or another box: file locks (F_SETLK,
 * F_OFD_*: on the host's /dev/null every box sees them), leases and
 * dnotify, and write-life hints (F_SET_RW_HINT: red team 129's
 * hint_count kept an exact run count in the hints of the host's
 * /dev/full and /dev/zero, which a box's uid 0 owns, and ran its own
 * twin 0.194x "slower"); nor their reads.  A GPU box's fcntl refuses the
 * inode-state and lock commands alone (gpu_fcntl).
 */
static const unsigned long long host_fcntl_cmds[] = {
	F_DUPFD, F_GETFD, F_SETFD, F_GETFL, F_SETFL, F_SETOWN, F_GETOWN, F_GETSIG, F_SETOWN_EX, F_GETOWN_EX,
	1030 /* F_DUPFD_CLOEXEC */, 1032 /* F_GETPIPE_SZ */, 1033 /* F_ADD_SEALS */,
	1034 /* F_GET_SEALS */,
};

static int host_fcntl(scmp_filter_ctx ctx)
{
	int rc = 0;
	for (size_t i = 0; rc == 0 && i < sizeof(host_fcntl_cmds) / sizeof(host_fcntl_cmds[0]); i++)
		rc = seccomp_rule_add(ctx, SCMP_ACT_ALLOW, SCMP_SYS(fcntl), 1,
				      SCMP_A1(SCMP_CMP_MASKED_EQ, 0xffffffffULL, host_fcntl_cmds[i]));
	return rc;
}

/* gpu_fcntl: a GPU box's fcntl is any command as measured, but these,
 * which keep state in an inode (F_SETLEASE, F_GETLEASE, F_NOTIFY, and
 * the write-life hints, read or set) or are seen by every process that
 * opens the same inode (file locks: F_GETLK, F_SETLK, F_SETLKW and the
 * OFD ones), and a pipe grown (F_SETPIPE_SZ, a host-wide gauge: host_fcntl;
 * the census saw the CUDA stack make none), ascending: an allow list of
 * the ranges between them (EPERM,
 * the strict default).  Every box shows the host's /dev/null, the GPU's
 * device nodes and (trust: host) the host's /usr, so a lock there is a
 * message between boxes alive at once (red team 129's lock_hog, red team
 * 130).  The CUDA stack's only locks in a GPU box were the driver's on its
 * compute cache's index, /tmp/.nv/ComputeCache/index (census on an H200,
 * S30-S31: 24 F_SETLK a worker, flock in none; strace -y), a cache that is
 * always empty in a box's own /tmp: sandbox_argv turns it off there
 * (CUDA_CACHE_DISABLE=1). */
static const unsigned long long gpu_refused_fcntl_cmds[] = {
	5 /* F_GETLK */, 6 /* F_SETLK */, 7 /* F_SETLKW */, 36 /* F_OFD_GETLK */, 37 /* F_OFD_SETLK */,
	38 /* F_OFD_SETLKW */, 1024, 1025, 1026 /* inode_fcntl_cmds */, 1031 /* F_SETPIPE_SZ: host_fcntl */,
	1035, 1036, 1037, 1038 /* inode_fcntl_cmds */
};

static int gpu_fcntl(scmp_filter_ctx ctx)
{
	unsigned long long lo = 0;
	int rc = 0;
	for (size_t i = 0; rc == 0 && i < sizeof(gpu_refused_fcntl_cmds) / sizeof(gpu_refused_fcntl_cmds[0]); i++) {
		if (gpu_refused_fcntl_cmds[i] > lo)
			rc = allow_low32_range(ctx, SCMP_SYS(fcntl), 1, lo, gpu_refused_fcntl_cmds[i] - 1);
		lo = gpu_refused_fcntl_cmds[i] + 1;
	}
	if (rc == 0)
		rc = allow_low32_range(ctx, SCMP_SYS(fcntl), 1, lo, 0xffffffffULL);
	return rc;
}

static int self_signals(scmp_filter_ctx ctx)
{
	int rc = allow_low32_but(ctx, SCMP_SYS(kill), 1, SIGCONT, 64);
	if (rc == 0)
		rc = allow_low32_but(ctx, SCMP_SYS(tkill), 1, SIGCONT, 64);
	if (rc == 0)
		rc = allow_low32_but(ctx, SCMP_SYS(tgkill), 2, SIGCONT, 64);
	if (rc == 0)
		rc = host_fcntl(ctx);
	return rc;
}

/* what a strict box allows, host or GPU (ctx made with a default of
 * EPERM): host_allowed, prctl by option, threads only */
static int strict_allow_list(scmp_filter_ctx ctx)
{
	int rc = 0;
	for (int i = 0; host_allowed[i] && rc == 0; i++) {
		int nr = seccomp_syscall_resolve_name(host_allowed[i]);
		if (nr != __NR_SCMP_ERROR)
			rc = seccomp_rule_add(ctx, SCMP_ACT_ALLOW, nr, 0);
	}
	for (int i = 0; host_prctl_allowed[i] >= 0 && rc == 0; i++)
		rc = seccomp_rule_add(ctx, SCMP_ACT_ALLOW, SCMP_SYS(prctl), 1,
				      SCMP_A0(SCMP_CMP_EQ, (scmp_datum_t)host_prctl_allowed[i]));
	/* statx, but not the mount's unique id (STATX_MNT_ID_UNIQUE): a
	 * 64-bit count of every mount made on the host since boot, which the
	 * runner's boxes move by about 91 each (red team 207's probe) */
	if (rc == 0)
		rc = seccomp_rule_add(ctx, SCMP_ACT_ALLOW, SCMP_SYS(statx), 1,
				      SCMP_A3(SCMP_CMP_MASKED_EQ, STATX_MNT_ID_UNIQUE_BIT, 0));
	/* threads only: a clone with CLONE_THREAD, without CLONE_PIDFD (red
	 * team 58: a pidfd's inode number is the host's count of processes
	 * and threads), without CLONE_VFORK (red team 109's vtail: a vfork
	 * thread made at the done line left the leader asleep in its vfork
	 * wait, where the parent's stop did not reach it, and the thread
	 * spun on unstopped past the copy; no honest kernel makes one) and
	 * without a new namespace; fork, vfork and a process clone fail
	 * with EPERM (the default) */
	if (rc == 0)
		rc = seccomp_rule_add(ctx, SCMP_ACT_ALLOW, SCMP_SYS(clone), 1,
				      SCMP_A0(SCMP_CMP_MASKED_EQ,
					      CLONE_THREAD | CLONE_PIDFD | CLONE_VFORK | CLONE_NEWNS | CLONE_NEWCGROUP |
						      CLONE_NEWUTS | CLONE_NEWIPC | CLONE_NEWUSER | CLONE_NEWPID |
						      CLONE_NEWNET,
					      CLONE_THREAD));
	/* clone3 passes its flags in memory a filter cannot read: ENOSYS
	 * makes glibc fall back to clone, filtered above; pidfd_open ENOSYS,
	 * as in every strict box */
	if (rc == 0)
		rc = seccomp_rule_add(ctx, SCMP_ACT_ERRNO(ENOSYS), SCMP_SYS(clone3), 0);
	if (rc == 0)
		rc = seccomp_rule_add(ctx, SCMP_ACT_ERRNO(ENOSYS), SCMP_SYS(pidfd_open), 0);
	/* a runner pinned to fewer CPUs than the machine has keeps its box to
	 * them (red team 8, cpu_widen: see sandbox_filter_fd): there the call
	 * succeeds and changes nothing, every thread stays on the slot's CPUs
	 * (an honest kernel that pins its threads, OMP_PROC_BIND or
	 * pthread_setaffinity_np, was init_failed with EPERM: red team 212);
	 * an unpinned one's box may pin its threads */
	if (rc == 0)
		rc = seccomp_rule_add(ctx, sandbox_runner_pinned() ? SCMP_ACT_ERRNO(0) : SCMP_ACT_ALLOW,
				      SCMP_SYS(sched_setaffinity), 0);
	return rc;
}

/*
 * The advice a host box may give madvise (an int: the kernel reads the low
 * 32 bits of the register, and so do the rules; red team 119's punch64
 * asked `1 << 32 | MADV_REMOVE`, which a rule refusing MADV_REMOVE on the
 * whole register let through, and the kernel freed the shared pages).
 * An allow list, not a deny list: what an allocator, a thread library or
 * OpenMP runtime gives its own memory.  Left out: MADV_REMOVE (frees
 * pages of the shared memory in the parent's mapping too: red team 115),
 * MADV_COLD and MADV_PAGEOUT (push the shared pages toward reclaim: the
 * parent's next fill would fault them back), MADV_MERGEABLE (KSM merges
 * pages across processes), MADV_COLLAPSE, MADV_HWPOISON and
 * MADV_SOFT_OFFLINE, and any advice newer than this list: EPERM.
 */
static const int host_madvise_allowed[] = {
	MADV_NORMAL,   MADV_RANDOM,	  MADV_SEQUENTIAL, MADV_WILLNEED,  MADV_DONTNEED, 8 /* MADV_FREE */,
	MADV_DONTFORK, MADV_DOFORK,	  MADV_HUGEPAGE,   MADV_NOHUGEPAGE, MADV_DONTDUMP, MADV_DODUMP,
	18 /* MADV_WIPEONFORK */, 19 /* MADV_KEEPONFORK */, 22 /* MADV_POPULATE_READ */,
	23 /* MADV_POPULATE_WRITE */,
};

/* membarrier's commands a host box may make: MEMBARRIER_CMD_QUERY and the
 * private ones (<linux/membarrier.h>: PRIVATE_EXPEDITED and its
 * registration, _SYNC_CORE, _RSEQ, GET_REGISTRATIONS); not GLOBAL,
 * GLOBAL_EXPEDITED or its registration (1, 2, 4) */
static const unsigned long long host_membarrier_allowed[] = { 0, 8, 16, 32, 64, 128, 256, 512 };
/* mbind's flags that move pages already placed: MPOL_MF_MOVE, _MOVE_ALL, _LAZY */
#define HOST_MBIND_MOVES 0xeULL

/* the host box's strict filter (above), ctx made with a default of EPERM */
static int host_allow_list(scmp_filter_ctx ctx)
{
	int rc = strict_allow_list(ctx);
	/* madvise but MADV_REMOVE, fallocate but a hole or a range moved or
	 * zeroed (FALLOC_FL_KEEP_SIZE alone, or 0): either frees pages of the
	 * shared memory the parent fills, in the parent's mapping too, so its
	 * next fill faults them in again and runs longer than the pad that
	 * hides a fill's distribution (red team 115's punch: a punched fill
	 * 1.9-4x the slowest hot one, near the pad's growth limit) */
	for (int i = 0; rc == 0 && i < (int)(sizeof(host_madvise_allowed) / sizeof(host_madvise_allowed[0])); i++)
		rc = seccomp_rule_add(ctx, SCMP_ACT_ALLOW, SCMP_SYS(madvise), 1,
				      SCMP_A2(SCMP_CMP_MASKED_EQ, 0xffffffffULL, (scmp_datum_t)host_madvise_allowed[i]));
	if (rc == 0)
		rc = seccomp_rule_add(ctx, SCMP_ACT_ALLOW, SCMP_SYS(fallocate), 1,
				      SCMP_A1(SCMP_CMP_MASKED_EQ, (scmp_datum_t)~(scmp_datum_t)FALLOC_FL_KEEP_SIZE & 0xffffffffu,
					      0));
	if (rc == 0)
		rc = self_signals(ctx);
	/* a memory barrier of its own threads (membarrier's private and
	 * query commands, not the global ones) and a NUMA policy for its own
	 * pages, not moving pages already placed (mbind without MPOL_MF_MOVE,
	 * MPOL_MF_MOVE_ALL or MPOL_MF_LAZY): both refused ones make the host
	 * kernel work on every other CPU (an RCU grace period, lru_cache_disable's
	 * per-CPU drains), where a pool neighbour pinned to its own CPU is
	 * timed (red team 160's ipihog, naive's arithmetic, switched them on
	 * while it heard the neighbour timed: "faster" 1.18x-1.33x in 7 of 17
	 * batches, the audit supporting it) */
	for (int i = 0; rc == 0 && i < (int)(sizeof(host_membarrier_allowed) / sizeof(host_membarrier_allowed[0])); i++)
		rc = seccomp_rule_add(ctx, SCMP_ACT_ALLOW, SCMP_SYS(membarrier), 1,
				      SCMP_A0(SCMP_CMP_MASKED_EQ, 0xffffffffULL, (scmp_datum_t)host_membarrier_allowed[i]));
	if (rc == 0)
		rc = seccomp_rule_add(ctx, SCMP_ACT_ALLOW, SCMP_SYS(mbind), 1,
				      SCMP_A5(SCMP_CMP_MASKED_EQ, HOST_MBIND_MOVES, 0));
	for (int i = 0; host_ioctl_allowed[i] && rc == 0; i++)
		rc = seccomp_rule_add(ctx, SCMP_ACT_ALLOW, SCMP_SYS(ioctl), 1,
				      SCMP_A1(SCMP_CMP_EQ, (scmp_datum_t)host_ioctl_allowed[i]));
	/* sockets of every family: EAFNOSUPPORT, as a kernel without the
	 * family answers (see denied_host_sockets) */
	for (int i = 0; rc == 0 && denied_host_sockets[i]; i++) {
		int nr = seccomp_syscall_resolve_name(denied_host_sockets[i]);
		if (nr != __NR_SCMP_ERROR)
			rc = seccomp_rule_add(ctx, SCMP_ACT_ERRNO(EAFNOSUPPORT), nr, 0);
	}
	return rc;
}

/* a GPU box's strict filter (gpu_allowed above), ctx made with a default
 * of EPERM */
static int gpu_allow_list(scmp_filter_ctx ctx)
{
	int rc = strict_allow_list(ctx);
	/* as before red team 115 (its narrowing is the host box's: a GPU
	 * worker's inputs are uploaded, not filled in shared memory it maps) */
	if (rc == 0)
		rc = seccomp_rule_add(ctx, SCMP_ACT_ALLOW, SCMP_SYS(madvise), 0);
	if (rc == 0)
		rc = seccomp_rule_add(ctx, SCMP_ACT_ALLOW, SCMP_SYS(fallocate), 0);
	/* signals to itself and fcntl of any signal or command, as measured
	 * (self_signals is the host box's) */
	static const char *const gpu_signals[] = { "kill", "tkill", "tgkill", NULL };
	for (int i = 0; gpu_signals[i] && rc == 0; i++) {
		int nr = seccomp_syscall_resolve_name(gpu_signals[i]);
		if (nr != __NR_SCMP_ERROR)
			rc = seccomp_rule_add(ctx, SCMP_ACT_ALLOW, nr, 0);
	}
	if (rc == 0)
		rc = gpu_fcntl(ctx);
	/* membarrier and mbind whole, as measured (host_allow_list narrows
	 * them for host boxes: red team 160; the CUDA stack's arguments were
	 * not recorded, so a GPU box keeps them) */
	if (rc == 0)
		rc = seccomp_rule_add(ctx, SCMP_ACT_ALLOW, SCMP_SYS(membarrier), 0);
	if (rc == 0)
		rc = seccomp_rule_add(ctx, SCMP_ACT_ALLOW, SCMP_SYS(mbind), 0);
	for (int i = 0; gpu_allowed[i] && rc == 0; i++) {
		int nr = seccomp_syscall_resolve_name(gpu_allowed[i]);
		if (nr != __NR_SCMP_ERROR)
			rc = seccomp_rule_add(ctx, SCMP_ACT_ALLOW, nr, 0);
	}
	/* the driver's ioctls, of any request */
	if (rc == 0)
		rc = seccomp_rule_add(ctx, SCMP_ACT_ALLOW, SCMP_SYS(ioctl), 0);
	/* AF_UNIX sockets; any other family, a socketpair (and the 32-bit
	 * socketcall) EAFNOSUPPORT */
	if (rc == 0)
		rc = seccomp_rule_add(ctx, SCMP_ACT_ALLOW, SCMP_SYS(socket), 1, SCMP_A0(SCMP_CMP_EQ, AF_UNIX));
	if (rc == 0)
		rc = seccomp_rule_add(ctx, SCMP_ACT_ERRNO(EAFNOSUPPORT), SCMP_SYS(socket), 1,
				      SCMP_A0(SCMP_CMP_NE, AF_UNIX));
	for (int i = 1; rc == 0 && denied_host_sockets[i]; i++) { /* socketpair, socketcall */
		int nr = seccomp_syscall_resolve_name(denied_host_sockets[i]);
		if (nr != __NR_SCMP_ERROR)
			rc = seccomp_rule_add(ctx, SCMP_ACT_ERRNO(EAFNOSUPPORT), nr, 0);
	}
	/* sysinfo() answers the host's uptime, load averages, process and
	 * thread count and free memory: red team 80 read the host's load and
	 * thread count there beside a masked /proc/loadavg (a host box refuses
	 * it).  The CUDA stack called it in every census (c1-c3: 315, 555 and
	 * 222 calls, counted together with nvcc's and cc's boxes, whose cc1
	 * and cc1plus ask it too (GCC sizes its collector by the machine's
	 * memory): how many were the worker's, and whether once a process, the
	 * census does not say).  Refused with SANDBOX_GPU_REFUSES_SYSINFO 1
	 * (sandbox.h, the one-line switch, 1 since t3011, t3003 and t3004
	 * passed with it refused on an H200: cuInit, the sealed replay, CUPTI,
	 * cuDNN and cuBLAS live without it; glibc's sysconf(_SC_PHYS_PAGES)
	 * ignores a failed sysinfo); allowed only where the switch is set to
	 * 0, and README, "Still out of reach", says what it leaks then. */
	if (rc == 0 && !SANDBOX_GPU_REFUSES_SYSINFO)
		rc = seccomp_rule_add(ctx, SCMP_ACT_ALLOW, SCMP_SYS(sysinfo), 0);
	return rc;
}

int sandbox_filter_fd(enum sandbox_profile prof, int gpu)
{
	/* where a kernel's own code runs (the strict profile), an allow list
	 * whose every other call fails with EPERM: a host box's
	 * (host_allow_list) or a GPU box's, the host's plus the CUDA stack's
	 * measured needs (gpu_allow_list: the driver's ioctls, AF_UNIX
	 * sockets, symlink, sysinfo unless SANDBOX_GPU_REFUSES_SYSINFO; measured
	 * on an H200, data/syscall-census/).  EPERM, not ENOSYS, because
	 * glibc takes ENOSYS as "this kernel has no such call" and falls back
	 * to an older one (clone3 to clone, faccessat2 to faccessat, statx to
	 * fstatat) or to another route (closefrom through /proc/self/fd),
	 * which a denial must not invite; clone3 is ENOSYS by name, its
	 * fallback being the point, and pidfd_open as every strict box has
	 * answered it since red team 58.  The relaxed profile (the compiler)
	 * and the sanitizer's (compute-sanitizer, which starts the worker
	 * itself and whose own calls, processes among them, are another
	 * program's) are deny lists, the sanitizer's refusing a file's times,
	 * mode, owner, extended attributes and device nodes too. */
	int strict = prof == SANDBOX_STRICT;
	scmp_filter_ctx ctx = seccomp_init(strict ? SCMP_ACT_ERRNO(EPERM) : SCMP_ACT_ALLOW);
	int fd = -1, rc = 0;
	if (!ctx)
		return error("cannot set up a seccomp filter (libseccomp: seccomp_init failed)");
	if (strict)
		rc = gpu ? gpu_allow_list(ctx) : host_allow_list(ctx);
	else if (prof == SANDBOX_SANITIZER)
		rc = sanitizer_deny_list(ctx, gpu);
	else
		rc = deny_list(ctx, gpu);
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
	for (int p = 0; p < SANDBOX_PROFILES; p++) {
		if (sb->filter_fd[p] < 0)
			continue; /* unsandboxed: no program to rebuild */
		int fd = sandbox_filter_fd((enum sandbox_profile)p, sb->gpu);
		if (fd < 0)
			return -1;
		close(sb->filter_fd[p]);
		sb->filter_fd[p] = fd;
	}
	/* and what the new programs refuse */
	struct strbuf why = STRBUF_INIT;
	int rc = sb->on ? sandbox_probe_prepare(sb, &why) : 0;
	if (rc < 0)
		error("%s", strbuf_str(&why));
	strbuf_release(&why);
	return rc;
}

/*
 * Refuse, in ctx, every call that would show the inode of fd (a
 * descriptor the worker holds as its filter loads: the runner's pipes,
 * its memfds, the capture files): the stat calls on it and every way to
 * put it at another number, where they would be allowed again.  Each
 * object's inode number is a host-wide counter's, read where it stood
 * when the runner made it, near the job's start (red team 211's fd 3
 * st_ino: get_next_ino).  The fd is compared on its low 32 bits, as the
 * kernel reads it.  0, or libseccomp's negative errno.
 */
static int no_fd_stat(scmp_filter_ctx ctx, int fd)
{
	const uint32_t err = SCMP_ACT_ERRNO(EPERM);
	const scmp_datum_t low = 0xffffffffu, v = (scmp_datum_t)fd;
	static const int by_a0[] = { SCMP_SYS(fstat), SCMP_SYS(newfstatat), SCMP_SYS(statx), SCMP_SYS(fstatfs),
				     SCMP_SYS(dup), SCMP_SYS(dup2), SCMP_SYS(dup3), SCMP_SYS(name_to_handle_at),
				     SCMP_SYS(linkat) };
	int rc = 0;
	for (size_t i = 0; rc == 0 && i < sizeof(by_a0) / sizeof(by_a0[0]); i++)
		rc = seccomp_rule_add(ctx, err, by_a0[i], 1, SCMP_A0(SCMP_CMP_MASKED_EQ, low, v));
	static const scmp_datum_t dups[] = { F_DUPFD, F_DUPFD_CLOEXEC };
	for (size_t i = 0; rc == 0 && i < 2; i++)
		rc = seccomp_rule_add(ctx, err, SCMP_SYS(fcntl), 2, SCMP_A0(SCMP_CMP_MASKED_EQ, low, v),
				      SCMP_A1(SCMP_CMP_MASKED_EQ, low, dups[i]));
	return rc;
}

int sandbox_no_exec(int no_shared)
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
	/* a host worker's kernel makes no shared memory of its own (red team
	 * 207's shmchan: every shared anonymous mapping, memfd and shared map
	 * of /dev/zero is an inode of the kernel's internal tmpfs, numbered
	 * from one host-wide counter that a box moves by mapping and reads in
	 * its own /proc/self/maps, a bit from box to box: 8 of 8 and 0 of 8,
	 * and eval promoted 6 of 6); the worker maps the parent's memory
	 * before this filter, so no MAP_SHARED mmap is left to make */
	if (rc == 0 && no_shared)
		rc = seccomp_rule_add(ctx, SCMP_ACT_ERRNO(EPERM), SCMP_SYS(mmap), 1,
				      SCMP_A3(SCMP_CMP_MASKED_EQ, MAP_SHARED, MAP_SHARED));
	if (rc == 0 && no_shared)
		rc = seccomp_rule_add(ctx, SCMP_ACT_ERRNO(EPERM), SCMP_SYS(memfd_create), 0);
	/* nor pipes: a pipe's inode number is get_next_ino()'s, one counter
	 * of the host's that a box moved by making pipes and read in their
	 * numbers (red team 210's pipechan: eval promoted copies of a
	 * self-slowing incumbent's code 5 of 6); its channel to the parent is
	 * made before this filter, and a kernel's threads wake each other
	 * with an eventfd (one anonymous inode for all) */
	if (rc == 0 && no_shared)
		rc = seccomp_rule_add(ctx, SCMP_ACT_ERRNO(EPERM), SCMP_SYS(pipe), 0);
	if (rc == 0 && no_shared)
		rc = seccomp_rule_add(ctx, SCMP_ACT_ERRNO(EPERM), SCMP_SYS(pipe2), 0);
	/* nor a look at the inodes of what the runner handed it: its pipes
	 * (fds 3, 4, stdout, stderr) and memfds were numbered by host-wide
	 * counters as the job started, so fstat of fd 3 read where
	 * get_next_ino stood after the boxes before it (red team 211's
	 * read side); every descriptor open now, each kept at its number */
	long nofile = sysconf(_SC_OPEN_MAX);
	if (nofile < 0 || nofile > 4096)
		nofile = 4096;
	for (int fd = 0; rc == 0 && no_shared && fd < nofile; fd++)
		if (fcntl(fd, F_GETFD) >= 0)
			rc = no_fd_stat(ctx, fd);
	if (rc == 0)
		rc = seccomp_load(ctx);
	seccomp_release(ctx);
	if (rc < 0)
		return error("cannot load the worker's exec filter: %s", strerror(-rc));
	return 0;
}
