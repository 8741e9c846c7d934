/*
 * sandbox.h - the box around every process that runs a kernel file's code
 * (the host worker, the CUDA worker, the worker under compute-sanitizer).
 *
 * The kernel under test is an adversary: whatever runs its host code can
 * be rewritten by it.  The sandbox takes away what it could reach outside
 * its own process, so that the parent's clock, choices and files are out
 * of reach:
 *
 *   - its own PID namespace (bubblewrap --unshare-pid, --die-with-parent):
 *     it sees no other process, /proc/PPID/mem does not exist for it, and
 *     every descendant dies with it (a double-forked daemon included); the
 *     runner kills the box's pid 1 itself whenever it ends a job early
 *     (runcmd.h kill_box), and the strict filter keeps its parent-death
 *     signal (red team 4's outlive cleared it and lived on, in a session
 *     of its own, after the runner had killed bubblewrap);
 *   - a read-only view of the file system that holds what the worker
 *     loads: in a host box and a sealed kernel's GPU box each file a copy
 *     of its own, written as the box starts, so no page of the host's
 *     page cache and no directory of the host's is one two boxes share
 *     (sandbox_wrap_fresh, SANDBOX_VIEW_COPIES); in a trust: host
 *     kernel's GPU box the system's software and /sys bound, the runner
 *     and its job's own objects (SANDBOX_VIEW_SYSTEM): nothing of the
 *     host's data
 *     (homes, /root, /etc/shadow: red team 3's host_files read them as
 *     root), no other variant's object and no other file of the
 *     repository (red team 3's cache_borrow ran another variant's object
 *     as its own code), with the store (records, job files, output
 *     captures, the checker's files) hidden under an empty tmpfs; its
 *     only writable places are its own private /tmp, /var/tmp, /run and
 *     /dev/shm, gone when it ends;
 *   - of the runner's environment only what a worker reads (the loader's,
 *     the locale's, CUDA_*, threading libraries', EVIDENT_*): a token in
 *     the runner's environment would otherwise end in a stored log;
 *   - its own /proc, read-only (a GPU box: every entry but its own
 *     processes'): where the runner is root the box's process is root
 *     without capabilities, and the host kernel lets uid 0 write /proc/sys
 *     by ownership alone (kernel.core_pattern would run a command of the
 *     kernel's choice as root on the host: red team 3's sysctl_escape); a
 *     GPU box's process entries stay writable because the CUDA driver
 *     names its threads there, a host box's are read-only too (red team
 *     4's oom_undo lowered its own oom_score_adj there);
 *   - no core dump (RLIMIT_CORE 0, soft and hard, runcmd.h no_core): a
 *     dump is the host writing the process's memory outside the box, as
 *     root through a pipe pattern (red team 4, core_raise);
 *   - the memfds the parent hands over (the seccomp program, the job, a
 *     plan) sealed against writes (sandbox_memfd_seal, red team 4);
 *   - no network (its own empty network namespace), no capabilities, a new
 *     session (no terminal to inject into);
 *   - a seccomp filter (libseccomp, loaded by bubblewrap just before exec):
 *     where a kernel's own code runs (strict profile) an allow list,
 *     every call it does not name refused with EPERM: a host box's
 *     (sandbox_filter.c host_allowed: what the worker, glibc, libgomp and
 *     the kernels were seen to call; red team 80 read the host's rename
 *     cookie through inotify and its load through sysinfo, which the deny
 *     list had missed) and a GPU box's, the same and what the CUDA stack
 *     was measured to call on an H200 (gpu_allowed, data/syscall-census/:
 *     the driver's ioctls, AF_UNIX sockets, symlink; sysinfo refused
 *     unless SANDBOX_GPU_REFUSES_SYSINFO is 0); both: no new processes, threads only
 *     (clone without CLONE_THREAD, fork and vfork fail with EPERM, clone3
 *     with ENOSYS so that glibc falls back to clone for its threads), no
 *     prctl(PR_SET_PDEATHSIG), no inotify, perf events, io_uring, System
 *     V IPC, pidfds.  The relaxed profile (compute-sanitizer, which
 *     starts the worker itself; the compiler) is a deny list: no ptrace,
 *     process_vm_readv/writev, mount, namespaces, kernel modules, bpf,
 *     keyrings, clock setting, io_uring, inotify, perf events; in a host
 *     box System V IPC and POSIX message queues (objects that outlive
 *     their maker, holding memory no resident size counts: red team 4's
 *     ipc_linger); it allows processes, the PID namespace still holds
 *     them.  compute-sanitizer's box (SANDBOX_SANITIZER, where a trust:
 *     host kernel's host code runs the timed sequence) is the relaxed
 *     list less a file's times, mode, owner and extended attributes and
 *     mknod of a device node or regular file (red team 33's run count in
 *     /dev/null's times; the compiler's box keeps them: gcc, ld and nvcc
 *     chmod their outputs);
 *   - no other program in its place: once its own runtime is up (after
 *     cuInit on the GPU path) and before the first byte of a kernel's code
 *     is loaded, every worker adds a second filter to itself
 *     (sandbox_no_exec): execve and execveat end the whole worker with
 *     SIGSYS, in every thread (TSYNC: the CUDA driver's threads, which a
 *     kernel can borrow through a host callback, included).  Bubblewrap
 *     must exec the worker, so the box's own filter cannot say it.  A
 *     kernel that re-executed /proc/self/exe chose its own environment
 *     (another CUDA_VISIBLE_DEVICES, LD_PRELOAD) for a process the box
 *     still counted as the worker (red team 13, rt13_slot_hog);
 *   - in a GPU box pinned to one GPU (a pool slot), that GPU's device
 *     node only (/dev/nvidiaN, N its minor number from NVML) beside the
 *     driver's control nodes, as docker's --gpus device=N binds it:
 *     CUDA_VISIBLE_DEVICES is read by the process it pins, so it was no
 *     bound (red team 13, rt13_slot_hog reached every GPU of the host).
 *     Where the minor cannot be read, every node, and the record says
 *     why (judge.sandbox.gpu_nodes).
 *
 * The compiler (backends/build.c) runs in a box of its own, built by
 * sandbox_wrap_build: a kernel's source steers what gcc, cc1, as and nvcc
 * read (#include "/abs/path", .incbin), so they see an empty root with the
 * toolchain (/usr and the loader's files), the repository and the
 * compiler's own install tree read-only, a private /tmp, the store and the
 * build cache masked, and one writable directory: the cache entry being
 * built.  Its seccomp filter is the relaxed one (the same denied calls, but
 * processes allowed): nvcc starts cicc, ptxas, fatbinary and gcc, gcc
 * starts cc1, as and collect2, so the strict threads-only rule cannot
 * hold; the PID namespace still ends every one of them with the build.
 *
 * Why bubblewrap and libseccomp: both are small, audited and packaged
 * (Debian's bubblewrap, libseccomp2), bubblewrap works as root (the GPU
 * hosts run commands as root) and as a normal user, and it needs no daemon.
 * Landlock would give only the file-system part; hand-rolled namespaces
 * would repeat what bubblewrap already gets right (mount propagation, pid
 * 1 reaping).  Not everything: bubblewrap 0.8 run by root leaves the new
 * /proc/sys writable (it covers it only when access(W_OK) on the
 * directory succeeds, which it never does), so the box remounts /proc
 * read-only itself.
 *
 * Where the sandbox cannot be set up (no bubblewrap, namespaces refused),
 * sandbox_init fails with the reason and the runner refuses to time
 * unless the user passed --unsandboxed, which every record then says.
 *
 * Ownership: sandbox_init fills a struct that sandbox_release frees
 * (safe on a zeroed or released struct).  sandbox_wrap returns a new
 * NULL-terminated argv that the caller frees with sandbox_argv_free.
 */
#ifndef EVIDENT_SANDBOX_H
#define EVIDENT_SANDBOX_H

#include <jansson.h>

#include "base/util.h"

#define SANDBOX_SECCOMP_FD 5  /* where the child finds the filter (bwrap --seccomp 5) */
#define SANDBOX_FRESH_FD 9    /* the first descriptor bwrap copies a file in from (struct sandbox_files) */
#define SANDBOX_MAX_FRESH 72  /* files a box may show as copies: descriptors 9..80 */
/* The largest file a box copies: a copy is the box's memory (red team
 * 55's huge_lib, a 1 GiB sparse file behind an ELF header, copied into
 * every box); libcuda is 96 MB, cuBLAS's libcublasLt 517 MB (red team 56:
 * an honest kernel linking it was refused at 512 MiB).  A build's copy of
 * a file it is shown is held to it too (build.c shown_copy), before the
 * file is read. */
#define SANDBOX_MAX_COPY (768LL << 20)
/* Every process that runs a kernel file's code, or its compiler, is the
 * OOM killer's first choice (runcmd.h run_opts.oom_score_adj): what it
 * holds in its box's tmpfs mounts, memfds and SysV segments is in no
 * resident size, and dies with it. */
#define SANDBOX_OOM_SCORE_ADJ 1000

/* The calls a worker makes to prove its box's filter (sandbox_probe.c). */
#define SANDBOX_PROBES 17
#define SANDBOX_PROBE_SKIPPED (-1) /* not made (a process where the box allows processes) */
#define SANDBOX_PROBE_MISSING (-2) /* not in the worker's report */

enum sandbox_profile {
	SANDBOX_STRICT = 0,    /* threads only */
	SANDBOX_RELAXED = 1,   /* processes allowed (the compiler's box) */
	SANDBOX_SANITIZER = 2, /* the relaxed one less a file's times, mode, owner, xattrs and nodes
				* (compute-sanitizer's box: a kernel's host code runs there) */
};
#define SANDBOX_PROFILES 3

/* What a box shows of the host's files (sandbox_wrap_fresh).  A host box
 * (sb->gpu 0) shows copies whatever is asked. */
enum sandbox_view {
	SANDBOX_VIEW_COPIES = 0, /* copies written into the box as it starts, nothing bound */
	SANDBOX_VIEW_SYSTEM = 1, /* a GPU box: the system's software, /sys and the toolkit bound */
	/* the same, but ro_files shown as copies too (a CUDA run's checker: the
	 * problem's plug-in and GPU reference, run/job.c run_checker_with) */
	SANDBOX_VIEW_SYSTEM_COPIES = 2,
	/* copies, and no live /proc: a read-only tmpfs of copies (the CPU's
	 * and memory's descriptions...) and the link /proc/self/exe, so that
	 * no lookup there makes a procfs inode (a host kernel's worker,
	 * run/kexec.c kexec_parent_clock; red team 210).  A GPU box is
	 * SANDBOX_VIEW_COPIES (the CUDA driver names its threads in its own
	 * /proc).  A sanitized worker takes its options from
	 * cli/san_options.h there. */
	SANDBOX_VIEW_COPIES_NO_PROC = 3,
};

struct sandbox {
	int on;                 /* 0: --unsandboxed (or not initialised) */
	char *bwrap;            /* the bubblewrap binary */
	char *version;          /* "bubblewrap 0.8.0" */
	int gpu;                /* bind the NVIDIA device nodes */
	int gpu_minor;          /* >= 0: bind only /dev/nvidia<minor> of the GPUs' nodes (a pinned slot); -1: all */
	char *gpu_nodes_why;    /* why every GPU's node is bound (a pin whose minor was not found), or NULL */
	char **show;            /* absolute paths bound read-only over the scratch mounts (NULL-terminated) */
	char **hide;            /* absolute directories masked with tmpfs after them (NULL-terminated) */
	char **loads;           /* a GPU worker's dlopen()s (absolute paths, NULL-terminated; sandbox_set_loads) */
	int filter_fd[SANDBOX_PROFILES]; /* memfds holding the BPF programs, by profile, or -1 */
	char *bwrap_real;       /* the binary's real path (realpath of bwrap), or NULL */
	char *bwrap_sha256;     /* its sha256, hashed once as the run opens the box, or NULL */
	/* what each profile's program answers the probes (sandbox_probe_expect,
	 * made by sandbox_init and sandbox_refilter), where probe_ready */
	int probe_ready[SANDBOX_PROFILES];
	int probe_expect[SANDBOX_PROFILES][SANDBOX_PROBES];
	/* whether this runner can read a box's filters back (sandbox_readback.c):
	 * 1, or 0 with why it cannot (owned) */
	int readback_ready;
	char *readback_why;
	/* which bubblewrap it is (sandbox_tool_known): how it was verified, or
	 * NULL with why not (EVIDENT_BWRAP_UNVERIFIED=1 let it run); owned */
	char *bwrap_verified, *bwrap_unverified;
};

#define SANDBOX_INIT                                                                                          \
	{ 0, NULL, NULL, 0, -1, NULL, NULL, NULL, NULL, { -1, -1, -1 }, NULL, NULL, { 0, 0, 0 }, { { 0 } }, 0, NULL, \
	  NULL, NULL }

/*
 * What a process sees of its own box in /proc/self/status (red team 131:
 * EVIDENT_BWRAP named a bubblewrap that dropped --seccomp, and every
 * record still described the filtered box).  seccomp: the Seccomp: mode
 * (2 filter), filters: Seccomp_filters: (-1 where the kernel shows none),
 * nnp: NoNewPrivs:, pid_depth: the fields of NSpid: (1 in the first PID
 * namespace, one more per nested one), pid: the innermost pid.  -1 for a
 * field not found.  0, or -1 when the file cannot be read.
 */
struct sandbox_seen {
	int seccomp, filters, nnp, pid_depth;
	long pid;
};
int sandbox_self_seen(struct sandbox_seen *s);
/* The same of process pid, as this process's /proc shows it. */
int sandbox_seen_of(int pid, struct sandbox_seen *s);
/*
 * Whether a worker's report of itself (its hello's "box": the fields
 * above, read before any kernel code loaded) shows the box this parent
 * asked for: a seccomp filter (mode 2) with more filters than the parent
 * has (where the kernel counts them) and no_new_privs.  A box's own /proc
 * shows no namespace above it, so its PID namespace is the parent's to
 * see: sandbox_pidns_ok on the box's pid 1 (a process's namespace never
 * changes).  1 when it does; 0 with why set (naming tool, the bubblewrap
 * binary) when it does not.
 */
int sandbox_seen_ok(const struct sandbox_seen *worker, const char *tool, struct strbuf *why);
int sandbox_pidns_ok(int pid, const char *tool, struct strbuf *why);
/* And its user namespace: a host box's (sandbox_wrap_*: --unshare-user)
 * must not be the runner's; 1 when it is not (or the process is gone), 0
 * with why set when it is. */
int sandbox_userns_ok(int pid, const char *tool, struct strbuf *why);

/*
 * What the box's filter does, not what /proc says of it (sandbox_probe.c;
 * red team 131's way on: a stand-in bubblewrap that loads an
 * allow-everything filter of its own shows what the real box shows
 * above).  sandbox_probe_run makes SANDBOX_PROBES calls that the boxes'
 * programs refuse, each with arguments the kernel itself rejects (so one
 * let through changes nothing and answers the kernel's errno, never the
 * program's EPERM, ENOSYS or EAFNOSUPPORT), but a plain process clone
 * (fork), made only where processes is set (not in compute-sanitizer's
 * box, which allows them); raw calls, no libc wrapper.  res[i]: 0 where
 * the call succeeded, its errno, or SANDBOX_PROBE_SKIPPED.  A worker runs
 * them before any object but its own loads and reports them in its hello
 * (worker.h worker_box_seen).  sandbox_probe_name: the i-th call's name,
 * the key of the report.
 *
 * sandbox_probe_expect runs them in a child of the caller with the
 * program of filter_fd (a profile's memfd) loaded: what the program
 * itself answers; 0, or -1 where the child could not load it or the
 * program refuses none of them.  sandbox_probe_refusal: an answer a
 * program gives (EPERM, ENOSYS, EAFNOSUPPORT).  sandbox_probes_ok: 1 when
 * every call the program refuses was refused in the box with the same
 * errno; 0 with why set (naming tool and each call that answered
 * otherwise) when not.
 */
void sandbox_probe_run(int processes, int *res);
const char *sandbox_probe_name(int i);
int sandbox_probe_expect(int filter_fd, int processes, int *expect);
int sandbox_probe_refusal(int e);
int sandbox_probes_ok(const int *seen, const int *expect, const char *tool, struct strbuf *why);
/* The report (the hello's "probes": each call's name and answer) of
 * sandbox_probe_run(processes), and sandbox_probes_ok on the "probes" of
 * a box report (a call missing from it answers SANDBOX_PROBE_MISSING). */
json_t *sandbox_probes_json(int processes);
int sandbox_box_probes_ok(json_t *box, const int *expect, const char *tool, struct strbuf *why);

/*
 * Which bubblewrap makes the boxes (sandbox_tool.c): real (its real path)
 * with sha256 (its SHA-256, hex) is the Debian package's /usr/bin/bwrap as
 * dpkg lists it, or the one evident's dist ships beside the runner as make
 * dist recorded it.  Returns how it was verified (the caller frees), or
 * NULL with why set.
 */
char *sandbox_tool_known(const char *real, const char *sha256, struct strbuf *why);

/* p made absolute as a box shows it (symbolic links resolved where it
 * exists); malloc'd, the caller frees. */
char *sandbox_abs_path(const char *p);

/*
 * The box's filter read back (sandbox_readback.c; red team 133: a stand-in
 * that puts a rule of its own in front of evident's program answers every
 * probe as evident's does).  sandbox_readback: pid (the box's process,
 * waiting for its hello's answer, not the runner's child: attached with
 * ptrace, stopped, read and detached) must have after the runner's own
 * runner_filters (-1: unknown, then its newest is read) the program in
 * program_fd, instruction for instruction, as its last seccomp filter;
 * 1 it has, 0 it has not (why says how it differs),
 * SANDBOX_READBACK_GONE the process ended first, -1 it could not be read
 * (why).  sandbox_readback_prepare: whether this runner can (a child of
 * its own with the strict program loaded, read back): sets
 * sb->readback_ready, or sb->readback_why.
 */
#define SANDBOX_READBACK_GONE 2
int sandbox_readback(int pid, int program_fd, int runner_filters, struct strbuf *why);
void sandbox_readback_prepare(struct sandbox *sb);

/*
 * What the box mounts, observed (sandbox_mounts.c; red team 132 hole 1b:
 * a stand-in bubblewrap that kept the filter and bound a host directory
 * writable).  sandbox_mounts_seen: this process's /proc/self/mountinfo,
 * one string a mount, "POINT TYPE ro|rw MAJ:MIN ROOT" (a worker's hello's
 * "mounts", read before any object but its own loads).
 * sandbox_mounts_expect: the mounts a bubblewrap argv (sandbox_wrap_fresh's)
 * asks for, with bubblewrap's own implicit ones (NULL-safe; freed by
 * sandbox_mounts_free).  sandbox_box_mounts_ok: 1 when a box report's
 * "mounts" show nothing that was not asked for (a point not asked, not
 * the submount of a bind the runner has at the source; a tmpfs, proc or
 * devpts that is one of the runner's; a bind of another device or root
 * than its source's), nothing writable that was asked read-only, and
 * every mount asked for; 0 with why set (naming tool and the mount).
 */
struct sandbox_mounts;
json_t *sandbox_mounts_seen(void);
/* The same of process pid's /proc/PID/mountinfo, read from outside (its
 * paths are shown from its own root, as it would read them); pid 0 is
 * sandbox_mounts_seen.  NULL when unreadable. */
json_t *sandbox_mounts_of(int pid);
/* the same of a mountinfo's text */
json_t *sandbox_mounts_parse(const char *mountinfo);
struct sandbox_mounts *sandbox_mounts_expect(const char *const *argv);
size_t sandbox_mounts_count(const struct sandbox_mounts *e);
void sandbox_mounts_free(struct sandbox_mounts *e);
int sandbox_box_mounts_ok(json_t *box, const struct sandbox_mounts *e, const char *tool, struct strbuf *why);

/*
 * Find bubblewrap (EVIDENT_BWRAP, else beside this executable, else PATH),
 * build both seccomp programs and prove the box works by running `true`
 * in it.  Mounts, in order: an empty read-only root; the system's
 * software read-only (/usr, /bin, /sbin, /lib*, the loader's /etc files),
 * /sys, the directories of LD_LIBRARY_PATH and, with a GPU, the CUDA
 * toolkit of CUDA_HOME / CUDA_PATH and the harness of
 * EVIDENT_CUDA_HARNESS; the box's own /proc, read-only (with a GPU, but
 * for its processes); a private /dev;
 * empty tmpfs on /tmp, /var/tmp, /run; show (this executable's folder
 * and ../lib, the spec's library directories: what every worker loads,
 * wherever it lies, /tmp included; never / itself) read-only; hide (the
 * store root) masked by tmpfs; then each spawn's ro_files (its job's
 * objects) and the current directory, empty but for what is bound under
 * it.  Nothing else of the host's files: no home directory, no /root, no
 * /etc/shadow, no build cache, no repository.  Both lists
 * NULL-terminated, made absolute here.  0, or -1 with why filled (the
 * reason and what to do).
 */
int sandbox_init(struct sandbox *sb, int gpu, const char *const *show, const char *const *hide,
		 struct strbuf *why);
void sandbox_release(struct sandbox *sb);

/*
 * What a GPU worker dlopen()s beside the libraries its program and objects
 * name (the CUDA harness, the driver's libcuda and NVML, CUPTI): absolute
 * paths (NULL-terminated, copied), which a GPU box of SANDBOX_VIEW_COPIES
 * shows as copies with the libraries their dynamic sections name.  A path
 * that does not exist is left out (the worker then fails as it would
 * outside the box).
 */
void sandbox_set_loads(struct sandbox *sb, const char *const *paths);

/*
 * Where the loader would find the library name (no slash) that object
 * dlopen()s or names: its RPATH (without a RUNPATH), LD_LIBRARY_PATH, its
 * RUNPATH ($ORIGIN expanded), the directories of /etc/ld.so.conf.d, the
 * defaults; only an ELF object of object's machine.  malloc'd, or NULL.
 */
char *sandbox_find_library(const char *name, const char *object);

/*
 * Every library the loader would map for the job's object at object (its
 * dynamic section's names, theirs in turn, each found as the host box
 * finds it), as absolute paths: NULL-terminated, the caller frees with
 * sandbox_argv_free; NULL where one cannot be found or taken (the box
 * refuses the object then, saying why).
 */
char **sandbox_object_libraries(const char *object);

/*
 * Is name (a path or a file name) a library of the GPU driver's that a
 * sealed kernel has no use for: libnvidia-* (the PTX JIT compiler
 * libnvidia-ptxjitcompiler, NVVM's, NVML), libcudadebugger.so*?  Not
 * libcuda.so* (the worker's own, which a driver-API kernel links).  1 or 0.
 */
int sandbox_driver_library_name(const char *name);

/*
 * The first library of the driver's (sandbox_driver_library_name) the
 * object at path loads: a name its dynamic section NEEDs, or a library
 * sandbox_object_libraries finds for it whose file name, soname or NEEDs
 * is one; said with where it comes from, malloc'd (the caller frees), or
 * NULL.  Why (red team 58): a box of copies holds every library a job's
 * objects load, so a kernel object that NEEDs libnvidia-ptxjitcompiler
 * brings the driver's JIT compiler into a sealed box, where the worker
 * provides the driver and its kernel needs none of them.
 */
char *sandbox_driver_library(const char *object);

/*
 * The files a box shows as copies that bubblewrap writes into the box's
 * memory as it starts: fd[i] (opened by sandbox_wrap, the caller passes
 * each at SANDBOX_FRESH_FD + i, run_opts.pass_fd, and closes them after
 * the spawn with sandbox_files_close; bubblewrap closes its copies once
 * read).
 */
struct sandbox_files {
	int n;
	int fd[SANDBOX_MAX_FRESH];
};

/*
 * The argv that runs inner[] inside the box (a new NULL-terminated argv
 * the caller frees with sandbox_argv_free), or NULL with the reason in
 * why (sandbox_wrap_fresh; printed where why is NULL, as sandbox_wrap
 * does): a file the box cannot be given (a library the loader would take
 * that is not for everyone to read, or too large, or no library).  *filter_fd is a new descriptor (the caller closes it after
 * the spawn) that the child must find at SANDBOX_SECCOMP_FD
 * (run_opts.pass_fd, pass_fd_at); files receives the descriptors of the
 * box's copies (sandbox_files above).  When sb->on is 0 the result is a
 * plain copy of inner, *filter_fd is -1 and files is empty.
 *
 * A host box (sb->gpu 0) shows no file of the host's: inner[0] (found in
 * PATH when it has no slash), ro_files, fresh, the loader, every library
 * the loader maps for the program (`LOADER --list`, as the runner's
 * LD_LIBRARY_PATH resolves it; the box keeps that variable) and each
 * object's dynamic section names (read as data, base/elf.h: a loader
 * asked to list an object runs the audit module it names; an object that
 * names one is refused), the files
 * of LD_PRELOAD, libgcc_s (which glibc loads at a thread's cancellation)
 * and the loader's cache are each a copy written as the box starts, at
 * their own paths (the symbolic links on the way made as the same
 * links); beside them /sys, the box's /proc, /dev and empty /tmp, /var/tmp,
 * /run.  No page of the host's page cache is one a box can read: the
 * cache of a file every box shows (/usr) was state across boxes, and a
 * kernel that counted its own runs there was slow once it was the
 * incumbent (red team 51's page_count: 10 of 12 eval promotions), and a
 * kernel's object whose times were the build's told the incumbent by its
 * age (red team 50's age_gate).
 *
 * A GPU box of view SANDBOX_VIEW_COPIES (a sealed kernel's planner and
 * timing worker) shows copies the same way: the program's and objects'
 * files as above, sb->loads with their libraries (the harness, libcuda,
 * NVML, CUPTI: the copies are about 110 MB a box with CUDA 13's driver),
 * and of /sys what the driver reads (each GPU's PCI numa_node, the NUMA
 * nodes' CPU maps, the memory block size, the clock source, the driver
 * modules' initstate); its /proc, /dev and device nodes as below.  One of
 * SANDBOX_VIEW_SYSTEM (a trust: host kernel, whose vendor libraries are
 * too large to copy per box: cuBLAS is 600 MB) shows the system's software
 * (/usr, /lib*), /sys, the CUDA toolkit and LD_LIBRARY_PATH's directories
 * as bindings, ro_files bound at their own paths, and fresh (may be NULL)
 * as a copy (files->fd[0]); SANDBOX_VIEW_SYSTEM_COPIES the same with
 * ro_files copies too (a CUDA run's checker: its box binds no file of the
 * problem's).  show and hide as sandbox_init says; ro_files and fresh even
 * where they lie under a hidden directory.
 */
char **sandbox_wrap_fresh(const struct sandbox *sb, enum sandbox_profile prof, enum sandbox_view view,
			  const char *const *inner, const char *const *ro_files, const char *fresh,
			  struct sandbox_files *files, int *filter_fd, struct strbuf *why);
/* The files (real path -> sha256, a JSON object the caller keeps alive,
 * or NULL for none) that the next boxes of copies must show as those
 * bytes: a copy that hashes otherwise fails the box with the reason (the
 * system libraries the kernel's build recorded as loaded, build_toolchain.h;
 * red team 205's library swapped mid-batch). */
void sandbox_expect_files(const json_t *map);
/* 1 when a box of view has no procfs (SANDBOX_VIEW_COPIES_NO_PROC in a
 * host box): the runner then
 * reads from outside what its worker would have read of its own /proc. */
int sandbox_view_no_proc(const struct sandbox *sb, enum sandbox_view view);
char **sandbox_wrap(const struct sandbox *sb, enum sandbox_profile prof, const char *const *inner,
		    const char *const *ro_files, struct sandbox_files *files, int *filter_fd);
/* files' descriptors into pass_fd[from..], pass_fd_at[from..] (arrays of
 * max entries); the number of entries used, or -1 when they do not fit. */
int sandbox_files_pass(const struct sandbox_files *files, int *pass_fd, int *pass_fd_at, int from, int max);
/* Close files' descriptors (safe on an empty one). */
void sandbox_files_close(struct sandbox_files *files);
void sandbox_argv_free(char **argv);

/*
 * May dir be shown to a box as a library directory (a spec's -L or
 * -rpath)?  1 when it holds a shared object itself ("*.so", "*.so.N"),
 * else 0: a directory is shown whole, and one that holds no library is
 * a place of other files (-L /etc showed /etc/shadow to a root runner's
 * kernel, -L . the repository: red team 4, lib_dir); / never.
 */
int sandbox_lib_dir(const char *dir);

/* Whether anyone may read path: a file readable by others, or a directory
 * readable and searchable by others, and every directory above its real
 * path searchable by others.  1 or 0.  (A root runner shows a box only
 * such files: red teams 56 and 57 read root-only files through a spec's
 * library and include directories.) */
int sandbox_public_path(const char *path);
/*
 * The shared objects the runner's LD_LIBRARY_PATH puts before the
 * system's of the same name with other content ("FILE (shadows
 * SYSTEM_FILE)"; its directories and the loader's subdirectories (four levels down where it cannot be asked),
 * the system's own library directories aside): a box's loader maps
 * those for the kernel's object where the object names the system's
 * (red team 229: a third party's libm.so.6 with a wrong expf made an
 * honest object wrong_output under the problem's own rule in the
 * default box, and eval held it for good, 10 of 10; a slow expf, its
 * speed moved with its history, 8 of 8).  A record of such a runner is
 * judged by a weaker judge (judge.sandbox.shadowed_libraries,
 * store/query.c query_run_weak_judge_why).  NULL-terminated, the
 * caller's to free with sandbox_argv_free; NULL for none.
 */
char **sandbox_shadowed_libraries(void);
/*
 * A box's copy of real (open as fd, about to be shown in a box): where it
 * is a shared object outside the system's library directories whose name
 * the system has with other loaded bytes (elf_load_sha256, read through
 * fd: what the box gets, not what the directory held when the runner
 * started), it is noted for this process's records (red team 240's swap:
 * a libm renamed over a copy of the system's 0.4 s into the run was
 * mapped by every box, the runner's one check at start saw the copy).
 */
void sandbox_note_box_copy(const char *real, int fd);
/* The notes so far, as "FILE (shadows SYSTEM_FILE, copied into a box)";
 * NULL-terminated, the caller frees with sandbox_argv_free; NULL none. */
char **sandbox_box_shadows(void);

/* The runner's variables a boxed process may see, for run_opts.env_keep
 * (runcmd.h): the loader's, the locale's, the GPU's selection (CUDA_*),
 * threading libraries' (OMP_*, MKL_*...), the sanitizers' and evident's
 * own (EVIDENT_*); never the rest (tokens, credentials).  NULL when the
 * box is off (--unsandboxed: everything, as the record says).  Static. */
const char *const *sandbox_env_keep(const struct sandbox *sb);

/*
 * The argv that runs a compiler inside the build box (above): an empty
 * root, the toolchain read-only, ro_dirs (the repository; the compiler's
 * tree where it is outside /usr) read-only (an entry ">SRC\nDEST" is the
 * file SRC shown at DEST: a copy the caller made), hide_dirs (the build
 * cache)
 * and the store masked with empty read-only tmpfs, then rw_dir writable,
 * a private /tmp, the current directory kept.  Filter as sandbox_wrap
 * (relaxed profile).  When sb->on is 0: a plain copy of inner.
 */
char **sandbox_wrap_build(const struct sandbox *sb, const char *const *inner, const char *const *ro_dirs,
			  const char *const *hide_dirs, const char *rw_dir, int *filter_fd);

/* What the record says of the box: {tool, version, seccomp, profile...}
 * or {tool: "none", reason: "--unsandboxed"}.  New reference. */
json_t *sandbox_describe(const struct sandbox *sb);

/* The seccomp program for a profile, as a libseccomp filter exported to a
 * sealed memfd (for tests: the fd, or -1 after error()).  The strict
 * profile is an allow list, every call not on it failing with EPERM: a
 * host box's (gpu 0: sandbox_filter.c host_allowed) or a GPU box's (the
 * host's and the CUDA stack's calls measured on an H200, gpu_allowed: the
 * driver's ioctls, AF_UNIX sockets, symlink, sysinfo as the switch below
 * says); the relaxed profile's (the compiler, compute-sanitizer) is a
 * deny list. */
int sandbox_filter_fd(enum sandbox_profile prof, int gpu);

/* Whether a GPU box's strict filter refuses sysinfo (EPERM), as a host
 * box's does: 1 since t3011, t3003 and t3004 passed with it refused on an
 * H200 (2026-12-01, data/gpu-evidence/h200-session-20261201-0254-call3.txt:
 * cuInit, the sealed replay, CUPTI, cuDNN and cuBLAS live without it); 0
 * allows it.  The one-line switch: */
#ifndef SANDBOX_GPU_REFUSES_SYSINFO
#define SANDBOX_GPU_REFUSES_SYSINFO 1
#endif

/*
 * Give this process a loginuid (its uid) where it has none, before it
 * starts any box, so that every box inherits a set one: while a task's
 * loginuid is unset (4294967295, a runner started by systemd, cron or a
 * container, not through a PAM login) any thread may set its own through
 * /proc/thread-self/loginuid without privilege, and each set takes the
 * next value of the host's audit session counter
 * (/proc/self/sessionid): a GPU box, whose own /proc entries are
 * writable, moved and read it exactly (red team 80).  Once it is set, a
 * change asks CAP_AUDIT_CONTROL, which no box has.  sandbox_init calls it
 * (once a process; later calls return the first answer).  What
 * judge.sandbox.loginuid says: static, never NULL.
 */
const char *sandbox_fix_loginuid(void);

/*
 * Whether this process may run on fewer CPUs than are online (its
 * affinity mask leaves one out: a pool slot pinned to its CPU, or a runner
 * started under taskset).  A host box's program built then refuses
 * sched_setaffinity (EPERM), so that a kernel keeps to the CPUs its job
 * was given (red team 8, cpu_widen).
 */
int sandbox_runner_pinned(void);

/*
 * The bubblewrap arguments ("--dev-bind", path, path, ...) that put a GPU
 * box's NVIDIA device nodes in its /dev, from nodes (the host's
 * /dev/nvidia* paths, NULL-terminated).  minor >= 0: of the GPUs' own
 * nodes (/dev/nvidiaN, N digits) only /dev/nvidia<minor>, with every node
 * that is no one GPU's (nvidiactl, nvidia-uvm, nvidia-uvm-tools,
 * nvidia-modeset, nvidia-caps, nvswitch...); minor < 0, or no node
 * /dev/nvidia<minor> among nodes: all of them.  *one (may be NULL) is 1
 * when one GPU's node was chosen.  A NULL-terminated argv (never NULL)
 * that the caller frees with sandbox_argv_free.
 */
char **sandbox_gpu_binds(const char *const *nodes, int minor, int *one);

/* Bind only the GPU of this minor number into sb's GPU boxes (a pool
 * slot pinned to it), or, minor < 0, every GPU with why (what the record
 * says: judge.sandbox.gpu_nodes; copied). */
void sandbox_pin_gpu(struct sandbox *sb, int minor, const char *why);

/*
 * Refuse execve and execveat to this process, every thread it has (the
 * filter is synchronised to all of them) and all it may start, from now
 * on: the call ends the whole process with SIGSYS (SECCOMP_RET_KILL_PROCESS).
 * A worker calls it once its own runtime is set up and before it loads
 * a kernel's code.  With no_shared (a host worker, whose shared memory is
 * mapped by then), every mmap with MAP_SHARED and memfd_create fail with
 * EPERM too: each would be an inode of the kernel's internal tmpfs, whose
 * host-wide number a box moves and reads (red team 207); and pipe and
 * pipe2, whose inodes get_next_ino() numbers, another such counter (red
 * team 210); and the stat calls (fstat, newfstatat, statx, fstatfs, file
 * handles, linkat) and the duplications (dup, dup2, dup3, fcntl's
 * F_DUPFD) of every descriptor open as it loads, whose inodes the runner
 * made near the job's start (red team 211).  0, or -1 after error().
 */
int sandbox_no_exec(int no_shared);

/* Rebuild sb's programs (after this process's CPUs changed: a pool slot
 * pins itself after sandbox_init).  0, or -1 after error(). */
int sandbox_refilter(struct sandbox *sb);

/*
 * Seal a memfd (made with MFD_ALLOW_SEALING) that the parent has written
 * and hands to a boxed process: no more writes, no size change, no more
 * seals.  Reopened through /proc/self/fd/N a memfd is writable whatever
 * the descriptor passed (the inode's mode decides), so an unsealed one is
 * the kernel's to rewrite for whoever reads it next (red team 4,
 * job_pin).  0, or -1 with errno.
 */
int sandbox_memfd_seal(int fd);

#endif /* EVIDENT_SANDBOX_H */
