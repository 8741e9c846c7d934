/*
 * test_sandbox.c - the box's parts that need no bubblewrap run
 * (base/sandbox.h): the seccomp programs, loaded into a child of the test
 * (a host box refuses the parent-death signal's reset, System V IPC,
 * POSIX message queues and sockets of every family; a GPU box all but
 * AF_UNIX sockets; the strict program is an allow list, a host box's
 * where inotify, sysinfo and a call no kernel has yet fail, a GPU box's
 * where the CUDA stack's measured calls pass and perf events, inotify,
 * process_vm_readv, a non-AF_UNIX socket and a fork fail; a host box
 * refuses every way a worker sends itself SIGCONT: timer_create, kill,
 * tkill, tgkill with SIGCONT, fcntl F_SETSIG), their memfds
 * sealed, the
 * runner's loginuid set before its first box,
 * the argv of a host box (whole /proc read-only) against a GPU box (its
 * processes' entries writable), and which library directories a box may
 * be shown.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <mqueue.h>
#include <sched.h>
#include <seccomp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ipc.h>
#include <sys/file.h>
#include <sys/inotify.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/shm.h>
#include <sys/sysinfo.h>
#include <sys/time.h>
#include <time.h>
#include <sys/xattr.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <sys/un.h>
#include <linux/netlink.h>
#include <linux/capability.h>
#include <linux/fs.h>
#include <linux/futex.h>
#include <pthread.h>
#include <signal.h>
#include <sys/syscall.h>
#include <stdint.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <unistd.h>

#include "base/runcmd.h"
#include "base/sandbox.h"
#include "base/util.h"

/* In a child with the program of (prof, gpu) loaded: bit 0 set when
 * prctl(PR_SET_PDEATHSIG) was refused with EPERM, bit 1 shmget, bit 2
 * mq_open, bit 3 a thread-only clone rule (fork and a vfork thread refused), bit 4 a netlink
 * uevent socket (the host's device events), bit 5 an AF_INET socket, bit 6
 * a socketpair, bit 7 an AF_UNIX socket: each socket refused with
 * EAFNOSUPPORT. */
static int socket_refused(int fd)
{
	if (fd >= 0)
		close(fd);
	return fd < 0 && errno == EAFNOSUPPORT;
}

static int refused_in_child(enum sandbox_profile prof, int gpu)
{
	int fd = sandbox_filter_fd(prof, gpu);
	assert_true(fd >= 0);
	pid_t pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		static struct sock_filter prog[4096];
		ssize_t n = read(fd, prog, sizeof(prog));
		struct sock_fprog fp = { (unsigned short)(n / (ssize_t)sizeof(prog[0])), prog };
		if (n <= 0 || prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0 ||
		    prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &fp, 0, 0) < 0)
			_exit(100);
		int bits = 0;
		if (prctl(PR_SET_PDEATHSIG, 0, 0, 0, 0) < 0 && errno == EPERM)
			bits |= 1;
		int id = shmget(IPC_PRIVATE, 4096, IPC_CREAT | 0600);
		if (id < 0 && errno == EPERM)
			bits |= 2;
		else if (id >= 0)
			shmctl(id, IPC_RMID, NULL);
		mqd_t q = mq_open("/evident-test-sandbox", O_CREAT | O_RDONLY, 0600, NULL);
		if (q == (mqd_t)-1 && errno == EPERM)
			bits |= 4;
		else if (q != (mqd_t)-1)
			mq_unlink("/evident-test-sandbox");
		/* and with high bits above the ints the kernel reads (red team
		 * 119: a rule comparing whole registers let this one make the
		 * socket in a GPU box's relaxed and sanitizer profiles) */
		int nl_plain = socket_refused(socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_KOBJECT_UEVENT));
		int nl_high = socket_refused((int)syscall(SYS_socket, (1UL << 32) | AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC,
							  (1UL << 32) | NETLINK_KOBJECT_UEVENT));
		if (nl_plain && nl_high)
			bits |= 16;
		if (socket_refused(socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0)))
			bits |= 32;
		if (socket_refused(socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0)))
			bits |= 128;
		int sv[2];
		if (socketpair(AF_UNIX, SOCK_STREAM, 0, sv) == 0) {
			close(sv[0]);
			close(sv[1]);
		} else if (errno == EAFNOSUPPORT) {
			bits |= 64;
		}
		pid_t c = fork();
		if (c == 0)
			_exit(0);
		int fork_errno = errno;
		/* a thread's flags alone pass the filter (the kernel then
		 * refuses them, EINVAL: CLONE_THREAD without CLONE_SIGHAND),
		 * a vfork thread's do not (red team 109's vtail: the leader
		 * asleep in its vfork wait took no stop, and the thread spun
		 * on past the done line unstopped) */
		long vt = syscall(SYS_clone, CLONE_THREAD | CLONE_VFORK, 0, 0, 0, 0);
		int vt_errno = errno;
		long pt = syscall(SYS_clone, CLONE_THREAD, 0, 0, 0, 0);
		int pt_errno = errno;
		if (c < 0 && fork_errno == EPERM && vt < 0 && vt_errno == EPERM && pt < 0 && pt_errno == EINVAL)
			bits |= 8;
		else if (c > 0)
			waitpid(c, NULL, 0);
		_exit(bits);
	}
	int st = 0;
	assert_int_equal(waitpid(pid, &st, 0), pid);
	close(fd);
	assert_true(WIFEXITED(st));
	assert_int_not_equal(WEXITSTATUS(st), 100);
	return WEXITSTATUS(st);
}

/* a host box: the parent-death signal stays, no IPC objects, threads
 * only, no socket of any family (red team 6, gap_probe6: a netlink uevent
 * socket heard the host's device events) */
static void test_host_filter(void **state)
{
	(void)state;
	assert_int_equal(refused_in_child(SANDBOX_STRICT, 0), 1 | 2 | 4 | 8 | 16 | 32 | 64 | 128);
}

/* red team 115: a host box frees no page of shared memory the parent
 * fills (madvise MADV_REMOVE, fallocate of a hole), while other advice
 * and a plain fallocate stay; a GPU box as before.  Bit 0 MADV_REMOVE
 * refused, 1 a punch refused, 2 MADV_DONTNEED and fallocate 0 allowed,
 * 3 MADV_REMOVE with bits above the int the kernel reads refused (red
 * team 119's punch64), 4 MADV_PAGEOUT refused (an allow list of advice),
 * 5 MADV_DODUMP allowed. */
static int punch_refused(int gpu)
{
	int fd = sandbox_filter_fd(SANDBOX_STRICT, gpu);
	assert_true(fd >= 0);
	pid_t pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		static struct sock_filter prog[4096];
		ssize_t n = read(fd, prog, sizeof(prog));
		struct sock_fprog fp = { (unsigned short)(n / (ssize_t)sizeof(prog[0])), prog };
		int m = memfd_create("evident-test-punch", 0);
		if (m < 0 || ftruncate(m, 1 << 16) != 0)
			_exit(100);
		char *a = mmap(NULL, 1 << 16, PROT_READ | PROT_WRITE, MAP_SHARED, m, 0);
		if (a == MAP_FAILED || n <= 0 || prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0 ||
		    prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &fp, 0, 0) < 0)
			_exit(100);
		memset(a, 1, 1 << 16);
		int bits = 0;
		if (madvise(a, 4096, MADV_REMOVE) < 0 && errno == EPERM)
			bits |= 1;
		if (fallocate(m, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE, 4096, 4096) < 0 && errno == EPERM)
			bits |= 2;
		if (madvise(a + 8192, 4096, MADV_DONTNEED) == 0 && fallocate(m, 0, 0, 1 << 16) == 0)
			bits |= 4;
		if (syscall(SYS_madvise, a + 12288, 4096UL, (1UL << 32) | MADV_REMOVE) < 0 && errno == EPERM)
			bits |= 8;
		if (madvise(a + 16384, 4096, 21 /* MADV_PAGEOUT */) < 0 && errno == EPERM)
			bits |= 16;
		if (madvise(a + 20480, 4096, MADV_DODUMP) == 0)
			bits |= 32;
		_exit(bits);
	}
	int st = 0;
	assert_int_equal(waitpid(pid, &st, 0), pid);
	close(fd);
	assert_true(WIFEXITED(st));
	assert_int_not_equal(WEXITSTATUS(st), 100);
	return WEXITSTATUS(st);
}

static void test_host_no_punch(void **state)
{
	(void)state;
	assert_int_equal(punch_refused(0), 1 | 2 | 4 | 8 | 16 | 32);
	assert_int_equal(punch_refused(1), 4 | 32);
}

/* red team 129: no state kept in an inode a box shares with the host
 * (write-life hints on the host's /dev/full, locks on its /dev/null).
 * Bits: 0 F_SET_RW_HINT refused, 1 F_GET_RW_HINT refused, 2 flock
 * refused, 3 F_SETLK refused, 4 F_GETFL, F_SETFL and F_DUPFD_CLOEXEC
 * allowed, 5 F_SET_RW_HINT with bits above the int refused, 6
 * F_SETLEASE refused, 7 F_OFD_SETLK, F_SETLKW, F_GETLK and F_OFD_GETLK
 * refused. */
static int inode_state_refused(enum sandbox_profile prof, int gpu)
{
	char path[] = "/tmp/evident-test-hint-XXXXXX";
	int f = mkstemp(path);
	assert_true(f >= 0);
	int fd = sandbox_filter_fd(prof, gpu);
	assert_true(fd >= 0);
	pid_t pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		static struct sock_filter prog[4096];
		ssize_t n = read(fd, prog, sizeof(prog));
		struct sock_fprog fp = { (unsigned short)(n / (ssize_t)sizeof(prog[0])), prog };
		if (n <= 0 || prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0 ||
		    prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &fp, 0, 0) < 0)
			_exit(100);
		int bits = 0;
		uint64_t hint = 2;
		if (fcntl(f, 1036 /* F_SET_RW_HINT */, &hint) < 0 && errno == EPERM)
			bits |= 1;
		if (fcntl(f, 1035 /* F_GET_RW_HINT */, &hint) < 0 && errno == EPERM)
			bits |= 2;
		if (flock(f, LOCK_EX) < 0 && errno == EPERM)
			bits |= 4;
		struct flock lk = { .l_type = F_WRLCK, .l_whence = SEEK_SET };
		if (fcntl(f, F_SETLK, &lk) < 0 && errno == EPERM)
			bits |= 8;
		struct flock rk = { .l_type = F_RDLCK, .l_whence = SEEK_SET, .l_start = 7, .l_len = 1 };
		struct flock q = { .l_type = F_WRLCK, .l_whence = SEEK_SET };
		if (fcntl(f, F_OFD_SETLK, &rk) < 0 && errno == EPERM && fcntl(f, F_SETLKW, &rk) < 0 &&
		    errno == EPERM && fcntl(f, F_GETLK, &q) < 0 && errno == EPERM &&
		    fcntl(f, F_OFD_GETLK, &q) < 0 && errno == EPERM)
			bits |= 128;
		int fl = fcntl(f, F_GETFL);
		int d = fcntl(f, F_DUPFD_CLOEXEC, 10);
		if (fl >= 0 && fcntl(f, F_SETFL, fl | O_NONBLOCK) == 0 && d >= 0)
			bits |= 16;
		if (syscall(SYS_fcntl, f, (1UL << 32) | 1036, &hint) < 0 && errno == EPERM)
			bits |= 32;
		if (fcntl(f, 1024 /* F_SETLEASE */, F_RDLCK) < 0 && errno == EPERM)
			bits |= 64;
		_exit(bits);
	}
	int st = 0;
	assert_int_equal(waitpid(pid, &st, 0), pid);
	close(fd);
	close(f);
	unlink(path);
	assert_true(WIFEXITED(st));
	assert_int_not_equal(WEXITSTATUS(st), 100);
	return WEXITSTATUS(st);
}

/* red team 133's pipegauge: growing a pipe reads and moves the user's
 * host-wide pipe pages; 1 where the profile's program refuses
 * F_SETPIPE_SZ (and still reads a pipe's size) */
static int pipe_grow_refused(enum sandbox_profile prof, int gpu)
{
	int fd = sandbox_filter_fd(prof, gpu);
	assert_true(fd >= 0);
	pid_t pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		static struct sock_filter prog[4096];
		ssize_t n = read(fd, prog, sizeof(prog));
		struct sock_fprog fp = { (unsigned short)(n / (ssize_t)sizeof(prog[0])), prog };
		int p[2];
		if (pipe(p) < 0 || n <= 0 || prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0 ||
		    prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &fp, 0, 0) < 0)
			_exit(100);
		_exit(fcntl(p[0], 1031 /* F_SETPIPE_SZ */, 1 << 20) < 0 && errno == EPERM &&
		      fcntl(p[0], 1032 /* F_GETPIPE_SZ */) > 0);
	}
	int st = 0;
	assert_int_equal(waitpid(pid, &st, 0), pid);
	close(fd);
	assert_true(WIFEXITED(st));
	assert_int_not_equal(WEXITSTATUS(st), 100);
	return WEXITSTATUS(st);
}

static void test_no_inode_state(void **state)
{
	(void)state;
	assert_int_equal(pipe_grow_refused(SANDBOX_STRICT, 0), 1);
	assert_int_equal(pipe_grow_refused(SANDBOX_STRICT, 1), 1);
	assert_int_equal(inode_state_refused(SANDBOX_STRICT, 0), 1 | 2 | 4 | 8 | 16 | 32 | 64 | 128);
	/* a GPU box: no file lock either (a message between boxes alive at
	 * once through an inode every box shows; census S30-S31) */
	assert_int_equal(inode_state_refused(SANDBOX_STRICT, 1), 1 | 2 | 4 | 8 | 16 | 32 | 64 | 128);
	assert_int_equal(inode_state_refused(SANDBOX_SANITIZER, 1), 1 | 2 | 16 | 32 | 64);
}

/* a host build box (the compiler): processes, but no IPC objects and no
 * socket either */
static void test_host_relaxed_filter(void **state)
{
	(void)state;
	assert_int_equal(refused_in_child(SANDBOX_RELAXED, 0), 2 | 4 | 16 | 32 | 64 | 128);
}

/* where a kernel's code runs (strict, host and GPU): no change of a
 * file's times, mode or owner (red team 33 kept a run count in the access
 * time of the host's /dev/null, which a box's uid 0 owns), and no pidfd
 * (red team 58: its inode number is the host's count of processes and
 * threads); the relaxed profile (the compiler, compute-sanitizer) keeps
 * the first two */
static int times_refused_in_child(enum sandbox_profile prof, int gpu, const char *file)
{
	int fd = sandbox_filter_fd(prof, gpu);
	assert_true(fd >= 0);
	pid_t pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		static struct sock_filter prog[4096];
		ssize_t n = read(fd, prog, sizeof(prog));
		struct sock_fprog fp = { (unsigned short)(n / (ssize_t)sizeof(prog[0])), prog };
		if (n <= 0 || prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0 ||
		    prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &fp, 0, 0) < 0)
			_exit(100);
		int bits = 0;
		struct timespec ts[2] = { { 123456, 777 }, { 123456, 777 } };
		if (utimensat(AT_FDCWD, file, ts, 0) < 0 && errno == EPERM)
			bits |= 1;
		if (chmod(file, 0644) < 0 && errno == EPERM)
			bits |= 2;
#ifdef SYS_pidfd_open
		long pfd = syscall(SYS_pidfd_open, getpid(), 0);
		if (pfd < 0 && errno == ENOSYS)
			bits |= 4;
		else if (pfd >= 0)
			close((int)pfd);
#else
		bits |= 4;
#endif
		_exit(bits);
	}
	int st = 0;
	assert_int_equal(waitpid(pid, &st, 0), pid);
	close(fd);
	assert_true(WIFEXITED(st));
	return WEXITSTATUS(st);
}

static void test_strict_no_times(void **state)
{
	(void)state;
	char path[] = "/tmp/evident-test-times-XXXXXX";
	int fd = mkstemp(path);
	assert_true(fd >= 0);
	close(fd);
	assert_int_equal(times_refused_in_child(SANDBOX_STRICT, 0, path), 1 | 2 | 4);
	assert_int_equal(times_refused_in_child(SANDBOX_STRICT, 1, path), 1 | 2 | 4);
	assert_int_equal(times_refused_in_child(SANDBOX_RELAXED, 0, path) & (1 | 2), 0);
	unlink(path);
}

/* What the sanitizer's box (SANDBOX_SANITIZER) refuses that the
 * compiler's (SANDBOX_RELAXED) allows: each of a file's times, mode,
 * owner and extended attributes (issue 22: under compute-sanitizer a
 * trust: host kernel's host code runs the timed sequence, and red team
 * 33 kept a run count in /dev/null's access time), and mknod of a regular
 * file or device node; a FIFO passes (FS_FIFO_MADE).  In a child with
 * the program loaded, on files of dir; the bits by a pipe. */
enum {
	FS_UTIME = 1 << 0, FS_UTIMES = 1 << 1, FS_FUTIMESAT = 1 << 2, FS_UTIMENSAT = 1 << 3, FS_FUTIMENS = 1 << 4,
	FS_CHMOD = 1 << 5, FS_FCHMOD = 1 << 6, FS_FCHMODAT = 1 << 7, FS_FCHMODAT2 = 1 << 8, FS_CHOWN = 1 << 9,
	FS_FCHOWN = 1 << 10, FS_LCHOWN = 1 << 11, FS_FCHOWNAT = 1 << 12, FS_SETXATTR = 1 << 13,
	FS_LSETXATTR = 1 << 14, FS_FSETXATTR = 1 << 15, FS_REMOVEXATTR = 1 << 16, FS_LREMOVEXATTR = 1 << 17,
	FS_FREMOVEXATTR = 1 << 18, FS_SETXATTRAT = 1 << 19, FS_REMOVEXATTRAT = 1 << 20, FS_MKNOD_REG = 1 << 21,
	FS_MKNOD_UNTYPED = 1 << 22, FS_MKNOD_CHR = 1 << 23, FS_MKNOD_OLD = 1 << 24, FS_FIFO_MADE = 1 << 25,
	FS_MKNOD_BLK = 1 << 26,
	FS_REFUSED_ALL = (1 << 25) - 1 + FS_MKNOD_BLK,
};

static int refused(long r);

static int file_state_in_child(enum sandbox_profile prof, int gpu, const char *dir)
{
	int fd = sandbox_filter_fd(prof, gpu), p[2];
	assert_true(fd >= 0);
	assert_int_equal(pipe(p), 0);
	char file[512], node[512], fifo[512];
	snprintf(file, sizeof(file), "%s/file", dir);
	snprintf(node, sizeof(node), "%s/node", dir);
	snprintf(fifo, sizeof(fifo), "%s/fifo", dir);
	int ffd = open(file, O_CREAT | O_RDWR | O_CLOEXEC, 0600);
	assert_true(ffd >= 0);
	int dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	assert_true(dfd >= 0);
	pid_t pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		close(p[0]);
		static struct sock_filter prog[4096];
		ssize_t n = read(fd, prog, sizeof(prog));
		struct sock_fprog fp = { (unsigned short)(n / (ssize_t)sizeof(prog[0])), prog };
		if (n <= 0 || prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0 ||
		    prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &fp, 0, 0) < 0)
			_exit(100);
		int bits = 0;
		struct timespec ts[2] = { { 123456, 777 }, { 123456, 777 } };
		struct timeval tv[2] = { { 123456, 7 }, { 123456, 7 } };
		long t[2] = { 123456, 123456 };
		const char *base = strrchr(file, '/') + 1;
		uid_t u = getuid();
		gid_t g = getgid();
#ifdef SYS_utime
		if (refused(syscall(SYS_utime, file, t)))
			bits |= FS_UTIME;
#else
		(void)t;
		bits |= FS_UTIME;
#endif
		if (refused(syscall(SYS_utimes, file, tv)))
			bits |= FS_UTIMES;
#ifdef SYS_futimesat
		if (refused(syscall(SYS_futimesat, dfd, base, tv)))
			bits |= FS_FUTIMESAT;
#else
		bits |= FS_FUTIMESAT;
#endif
		if (refused(utimensat(AT_FDCWD, file, ts, 0)))
			bits |= FS_UTIMENSAT;
		if (refused(futimens(ffd, ts)))
			bits |= FS_FUTIMENS;
		if (refused(syscall(SYS_chmod, file, 0640)))
			bits |= FS_CHMOD;
		if (refused(fchmod(ffd, 0640)))
			bits |= FS_FCHMOD;
		if (refused(syscall(SYS_fchmodat, dfd, base, 0640)))
			bits |= FS_FCHMODAT;
		/* Linux 6.6 (452 on x86_64 and aarch64), a number below where
		 * no header names it */
		if (refused(syscall(452, dfd, base, 0640, 0)))
			bits |= FS_FCHMODAT2;
		if (refused(syscall(SYS_chown, file, u, g)))
			bits |= FS_CHOWN;
		if (refused(fchown(ffd, u, g)))
			bits |= FS_FCHOWN;
		if (refused(syscall(SYS_lchown, file, u, g)))
			bits |= FS_LCHOWN;
		if (refused(fchownat(dfd, base, u, g, 0)))
			bits |= FS_FCHOWNAT;
		if (refused(setxattr(file, "user.evident", "1", 1, 0)))
			bits |= FS_SETXATTR;
		if (refused(lsetxattr(file, "user.evident", "1", 1, 0)))
			bits |= FS_LSETXATTR;
		if (refused(fsetxattr(ffd, "user.evident", "1", 1, 0)))
			bits |= FS_FSETXATTR;
		if (refused(removexattr(file, "user.evident")))
			bits |= FS_REMOVEXATTR;
		if (refused(lremovexattr(file, "user.evident")))
			bits |= FS_LREMOVEXATTR;
		if (refused(fremovexattr(ffd, "user.evident")))
			bits |= FS_FREMOVEXATTR;
		/* Linux 6.13: setxattrat 463, removexattrat 466 (a struct
		 * xattr_args of 16 bytes), names libseccomp 2.5.4 lacks */
		struct {
			unsigned long long value;
			unsigned size, flags;
		} xa = { (unsigned long long)(uintptr_t) "1", 1, 0 };
		if (refused(syscall(463, dfd, base, 0, "user.evident", &xa, sizeof(xa))))
			bits |= FS_SETXATTRAT;
		if (refused(syscall(466, dfd, base, 0, "user.evident")))
			bits |= FS_REMOVEXATTRAT;
		if (refused(mknodat(AT_FDCWD, node, S_IFREG | 0600, 0)))
			bits |= FS_MKNOD_REG;
		else
			unlink(node);
		if (refused(syscall(SYS_mknodat, AT_FDCWD, node, 0600, 0)))
			bits |= FS_MKNOD_UNTYPED;
		else
			unlink(node);
		/* /dev/null's numbers: refused by the filter, or by the
		 * capability a non-root test lacks (either way EPERM) */
		if (refused(mknodat(AT_FDCWD, node, S_IFCHR | 0600, makedev(1, 3))))
			bits |= FS_MKNOD_CHR;
		else
			unlink(node);
		if (refused(mknodat(AT_FDCWD, node, S_IFBLK | 0600, makedev(7, 0))))
			bits |= FS_MKNOD_BLK;
		else
			unlink(node);
#ifdef SYS_mknod
		if (refused(syscall(SYS_mknod, node, S_IFREG | 0600, 0)))
			bits |= FS_MKNOD_OLD;
		else
			unlink(node);
#else
		bits |= FS_MKNOD_OLD;
#endif
		if (mkfifo(fifo, 0600) == 0)
			bits |= FS_FIFO_MADE;
		_exit(write(p[1], &bits, sizeof(bits)) == (ssize_t)sizeof(bits) ? 0 : 101);
	}
	close(p[1]);
	int bits = -1, st = 0;
	assert_int_equal(read(p[0], &bits, sizeof(bits)), (ssize_t)sizeof(bits));
	close(p[0]);
	assert_int_equal(waitpid(pid, &st, 0), pid);
	assert_true(WIFEXITED(st));
	assert_int_equal(WEXITSTATUS(st), 0);
	close(fd);
	close(ffd);
	close(dfd);
	unlink(file);
	unlink(fifo);
	unlink(node);
	return bits;
}

static void test_sanitizer_no_file_state(void **state)
{
	(void)state;
	char dir[] = "/tmp/evident-test-fstate-XXXXXX";
	assert_non_null(mkdtemp(dir));
	/* compute-sanitizer's box, host and GPU: every one refused, a FIFO
	 * made */
	assert_int_equal(file_state_in_child(SANDBOX_SANITIZER, 1, dir), FS_REFUSED_ALL | FS_FIFO_MADE);
	assert_int_equal(file_state_in_child(SANDBOX_SANITIZER, 0, dir), FS_REFUSED_ALL | FS_FIFO_MADE);
	/* the compiler's keeps what gcc, ld and nvcc do to their outputs:
	 * times, modes, owners, a regular file's mknod */
	int keep = FS_UTIME | FS_UTIMES | FS_FUTIMESAT | FS_UTIMENSAT | FS_FUTIMENS | FS_CHMOD | FS_FCHMOD |
		   FS_FCHMODAT | FS_FCHMODAT2 | FS_CHOWN | FS_FCHOWN | FS_LCHOWN | FS_FCHOWNAT | FS_MKNOD_REG |
		   FS_MKNOD_UNTYPED | FS_MKNOD_OLD | FS_FIFO_MADE;
	assert_int_equal(file_state_in_child(SANDBOX_RELAXED, 1, dir) & keep, FS_FIFO_MADE);
	assert_int_equal(file_state_in_child(SANDBOX_RELAXED, 0, dir) & keep, FS_FIFO_MADE);
	/* and the sanitizer's is the relaxed one otherwise: processes, its
	 * sockets but the host's device events (a GPU box); no IPC, no
	 * socket (a host box) */
	assert_int_equal(refused_in_child(SANDBOX_SANITIZER, 1), 16);
	assert_int_equal(refused_in_child(SANDBOX_SANITIZER, 0), 2 | 4 | 16 | 32 | 64 | 128);
	assert_int_equal(rmdir(dir), 0);
}

/* a GPU box where the kernel's code runs (strict): the parent-death
 * signal stays, no IPC objects (the CUDA stack made none on an H200:
 * data/syscall-census/), threads only, AF_UNIX sockets only (red team 32:
 * an AF_ALG socket registered an algorithm with the host's kernel for
 * good), no socketpair; the relaxed one (compute-sanitizer) keeps IPC and
 * its sockets but the host's device events */
static void test_gpu_filter(void **state)
{
	(void)state;
	assert_int_equal(refused_in_child(SANDBOX_STRICT, 1), 1 | 2 | 4 | 8 | 16 | 32 | 64);
	assert_int_equal(refused_in_child(SANDBOX_RELAXED, 1) & (16 | 32 | 64 | 128), 16);
}

/* the relaxed profile (compute-sanitizer, the compiler) starts processes
 * and leaves the parent-death signal to its pid 1's own tools */
static void test_relaxed_filter(void **state)
{
	(void)state;
	assert_int_equal(refused_in_child(SANDBOX_RELAXED, 1), 16);
}

/* In a child, pinned to CPU 0 first when pin is set: whether the host
 * program built then refuses a widening sched_setaffinity (1), allows it
 * (0); 2 when the machine has one CPU (nothing to widen to). */
static int widen_refused(int pin, enum sandbox_profile prof)
{
	pid_t pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		long online = sysconf(_SC_NPROCESSORS_ONLN);
		if (online < 2)
			_exit(2);
		cpu_set_t one, all;
		CPU_ZERO(&one);
		CPU_SET(0, &one);
		CPU_ZERO(&all);
		for (long c = 0; c < online && c < CPU_SETSIZE; c++)
			CPU_SET(c, &all);
		if (sched_setaffinity(0, sizeof(all), &all) < 0 || (pin && sched_setaffinity(0, sizeof(one), &one) < 0))
			_exit(100);
		int fd = sandbox_filter_fd(prof, 0);
		static struct sock_filter prog[4096];
		ssize_t n = fd < 0 ? -1 : read(fd, prog, sizeof(prog));
		struct sock_fprog fp = { (unsigned short)(n / (ssize_t)sizeof(prog[0])), prog };
		if (n <= 0 || prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0 ||
		    prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &fp, 0, 0) < 0)
			_exit(100);
		/* narrowing is widening too when unpinned: try all, then one.
		 * Kept (1): refused (EPERM, the relaxed profile), or answered
		 * 0 with the mask unchanged (the strict one since red team 212:
		 * an honest kernel that pins its threads) */
		int r = sched_setaffinity(0, sizeof(all), &all);
		if (r < 0)
			_exit(errno == EPERM ? 1 : 101);
		cpu_set_t now;
		CPU_ZERO(&now);
		if (sched_getaffinity(0, sizeof(now), &now) < 0)
			_exit(101);
		_exit(CPU_COUNT(&now) < CPU_COUNT(&all) ? 1 : 0);
	}
	int st = 0;
	assert_int_equal(waitpid(pid, &st, 0), pid);
	assert_true(WIFEXITED(st));
	assert_true(WEXITSTATUS(st) <= 2);
	return WEXITSTATUS(st);
}

/* a host box of a runner pinned to fewer CPUs than the machine has (a
 * pool slot, taskset) keeps to them: a kernel set its mask to every CPU
 * and ran half of each launch on the other slot's CPU (red team 8,
 * cpu_widen); an unpinned runner's box may still pin its threads */
static void test_host_keeps_its_cpus(void **state)
{
	(void)state;
	if (widen_refused(1, SANDBOX_STRICT) == 2)
		skip();
	assert_int_equal(widen_refused(1, SANDBOX_STRICT), 1);
	assert_int_equal(widen_refused(1, SANDBOX_RELAXED), 1);
	assert_int_equal(widen_refused(0, SANDBOX_STRICT), 0);
}

/* every box loads its program from one memfd: sealed, so that no box can
 * rewrite it for the next (red team 4, job_pin) */
static void test_filter_sealed(void **state)
{
	(void)state;
	int fd = sandbox_filter_fd(SANDBOX_STRICT, 0);
	assert_true(fd >= 0);
	int seals = fcntl(fd, F_GET_SEALS);
	assert_true(seals >= 0);
	assert_true((seals & (F_SEAL_WRITE | F_SEAL_GROW | F_SEAL_SHRINK | F_SEAL_SEAL)) ==
		    (F_SEAL_WRITE | F_SEAL_GROW | F_SEAL_SHRINK | F_SEAL_SEAL));
	char self[64];
	snprintf(self, sizeof(self), "/proc/self/fd/%d", fd);
	int rw = open(self, O_RDWR);
	if (rw >= 0) { /* reopened for writing, still no write */
		assert_int_equal(write(rw, "x", 1), -1);
		assert_int_equal(errno, EPERM);
		close(rw);
	}
	close(fd);
}

/* The index of the first "a b" pair in argv, or -1. */
static int pair_at(char **argv, const char *a, const char *b)
{
	for (int i = 0; argv[i] && argv[i + 1]; i++)
		if (!strcmp(argv[i], a) && !strcmp(argv[i + 1], b))
			return i;
	return -1;
}

static char **wrap(int gpu)
{
	struct sandbox sb = SANDBOX_INIT;
	sb.on = 1;
	sb.gpu = gpu;
	sb.bwrap = "bwrap";
	sb.filter_fd[0] = sandbox_filter_fd(SANDBOX_STRICT, gpu);
	sb.filter_fd[1] = sandbox_filter_fd(SANDBOX_RELAXED, gpu);
	const char *inner[] = { "true", NULL };
	int keep = -1;
	struct sandbox_files files;
	char **argv = sandbox_wrap(&sb, SANDBOX_STRICT, inner, NULL, &files, &keep);
	sandbox_files_close(&files);
	if (keep >= 0)
		close(keep);
	close(sb.filter_fd[0]);
	close(sb.filter_fd[1]);
	return argv;
}

/* A host box binds nothing of the host's file system: every file it
 * shows is a copy (from a descriptor sandbox_wrap opened: the loader,
 * libc, the program; --file where the tmpfs that holds it is read-only
 * before the box runs, else --ro-bind-data), no /usr, /lib or /sys (red teams 51 and
 * 52 kept run counts in the page cache of a file and the dentry cache of
 * a directory every box shared); a trust: host kernel's GPU box (sandbox_wrap:
 * view SYSTEM) still binds /usr and /sys. */
static void test_host_box_copies_only(void **state)
{
	(void)state;
	struct sandbox sb = SANDBOX_INIT;
	sb.on = 1;
	sb.bwrap = "bwrap";
	sb.filter_fd[0] = sandbox_filter_fd(SANDBOX_STRICT, 0);
	const char *inner[] = { "true", NULL };
	int keep = -1;
	struct sandbox_files files;
	char **argv = sandbox_wrap(&sb, SANDBOX_STRICT, inner, NULL, &files, &keep);
	assert_non_null(argv);
	int copies = 0, libc = 0;
	for (int i = 0; argv[i]; i++) {
		/* (/dev/null over /proc's global files, red teams 33 and 57) */
		if ((!strcmp(argv[i], "--ro-bind") || !strcmp(argv[i], "--bind") || !strcmp(argv[i], "--ro-bind-try")) &&
		    !(!strcmp(argv[i + 1], "/dev/null") && !strncmp(argv[i + 2], "/proc/", 6)))
			fail_msg("a host box binds %s", argv[i + 1]);
		if (!strcmp(argv[i], "--ro-bind-data") || !strcmp(argv[i], "--file")) {
			copies++;
			libc += strstr(argv[i + 2], "/libc.so") != NULL;
			assert_int_equal(atoi(argv[i + 1]), SANDBOX_FRESH_FD + copies - 1);
			assert_true(i >= 2 && !strcmp(argv[i - 2], "--perms") && !strcmp(argv[i - 1], "0555"));
		}
		/* a file only where its tmpfs ends read-only: never in the
		 * box's writable /tmp, nor in procfs */
		if (!strcmp(argv[i], "--file"))
			assert_true(strncmp(argv[i + 2], "/tmp/", 5) && strncmp(argv[i + 2], "/run/", 5) &&
				    strncmp(argv[i + 2], "/var/tmp/", 9) && strncmp(argv[i + 2], "/dev/", 5) &&
				    (strncmp(argv[i + 2], "/proc/", 6) || !strncmp(argv[i + 2], "/proc/sys/", 10) ||
				     !strncmp(argv[i + 2], "/proc/driver/", 13)));
	}
	assert_true(copies >= 3); /* the program, the loader, libc at least */
	assert_int_equal(libc, 1);
	assert_int_equal(files.n, copies);
	for (int i = 0; i < files.n; i++)
		assert_true(fcntl(files.fd[i], F_GETFD) >= 0);
	sandbox_files_close(&files);
	sandbox_argv_free(argv);
	if (keep >= 0)
		close(keep);
	close(sb.filter_fd[0]);
	char **gpu = wrap(1);
	assert_true(pair_at(gpu, "--ro-bind", "/usr") >= 0);
	assert_true(pair_at(gpu, "--ro-bind", "/sys") >= 0);
	sandbox_argv_free(gpu);
	/* every box hides bubblewrap's devpts under an empty read-only
	 * tmpfs, after /dev is made (red team 95's ptycount took the host's
	 * every pty from a box) */
	for (int g = 0; g < 2; g++) {
		char **v = wrap(g);
		int dev = pair_at(v, "--dev", "/dev"), pts = pair_at(v, "--tmpfs", "/dev/pts");
		assert_true(dev >= 0 && pts > dev);
		assert_true(pair_at(v, "--remount-ro", "/dev/pts") > pts);
		sandbox_argv_free(v);
	}
}

/* The kind of each copy (sandbox.c copy_as_file): an object under the
 * box's writable /tmp stays a read-only bind (as a file of that tmpfs the
 * box could rewrite it), and the same object under a mask of the store
 * (an empty tmpfs remounted read-only once the copies are in) is a file
 * of that tmpfs; /proc's own files (cpuinfo) stay binds, procfs holds no
 * file of ours; the program and the libraries (the root's tmpfs,
 * read-only last) are files; /dev/null goes over /proc's global files
 * after every remount (bubblewrap 0.8 reads all of mountinfo for each). */
static void test_copy_kinds(void **state)
{
	(void)state;
	char dir[] = "/tmp/evident-sbtest.XXXXXX";
	assert_non_null(mkdtemp(dir));
	char *sub = xstrfmt("%s/mask", dir), *obj = xstrfmt("%s/mask/obj", dir);
	assert_int_equal(mkdir(sub, 0755), 0);
	char *libm = sandbox_find_library("libm.so.6", "/bin/true");
	assert_non_null(libm);
	{
		int in = open(libm, O_RDONLY), out = open(obj, O_WRONLY | O_CREAT, 0644);
		char buf[65536];
		ssize_t n;
		assert_true(in >= 0 && out >= 0);
		while ((n = read(in, buf, sizeof(buf))) > 0)
			assert_int_equal(write(out, buf, (size_t)n), n);
		close(in);
		close(out);
	}
	for (int masked = 0; masked < 2; masked++) {
		struct sandbox sb = SANDBOX_INIT;
		sb.on = 1;
		sb.bwrap = "bwrap";
		sb.filter_fd[0] = sandbox_filter_fd(SANDBOX_STRICT, 0);
		char *hide[] = { masked ? sub : NULL, NULL };
		sb.hide = hide;
		const char *inner[] = { "true", NULL }, *ro[] = { obj, NULL };
		int keep = -1;
		struct sandbox_files files;
		char **argv = sandbox_wrap(&sb, SANDBOX_STRICT, inner, ro, &files, &keep);
		assert_non_null(argv);
		int found = 0, last_remount = -1, first_mask = -1;
		for (int i = 0; argv[i]; i++) {
			if ((!strcmp(argv[i], "--file") || !strcmp(argv[i], "--ro-bind-data")) && !strcmp(argv[i + 2], obj)) {
				assert_string_equal(argv[i], masked ? "--file" : "--ro-bind-data");
				found++;
			}
			if ((!strcmp(argv[i], "--file") || !strcmp(argv[i], "--ro-bind-data")) &&
			    !strcmp(argv[i + 2], "/proc/cpuinfo"))
				assert_string_equal(argv[i], "--ro-bind-data");
			if ((!strcmp(argv[i], "--file") || !strcmp(argv[i], "--ro-bind-data")) &&
			    strstr(argv[i + 2], "/libc.so"))
				assert_string_equal(argv[i], "--file");
			if (!strcmp(argv[i], "--remount-ro"))
				last_remount = i;
			if (!strcmp(argv[i], "--ro-bind") && !strcmp(argv[i + 1], "/dev/null") && first_mask < 0)
				first_mask = i;
		}
		assert_int_equal(found, 1);
		if (access("/proc/vmstat", F_OK) == 0)
			assert_true(first_mask > last_remount && last_remount > 0);
		if (masked)
			assert_true(pair_at(argv, "--remount-ro", sub) > pair_at(argv, "--tmpfs", sub));
		sandbox_files_close(&files);
		sandbox_argv_free(argv);
		if (keep >= 0)
			close(keep);
		close(sb.filter_fd[0]);
	}
	unlink(obj);
	rmdir(sub);
	rmdir(dir);
	free(obj);
	free(sub);
	free(libm);
}

/* A sealed kernel's GPU box (view SANDBOX_VIEW_COPIES) binds nothing of
 * the host's files either: no /usr, /lib* or /sys (red team 31 kept run
 * counts through a GPU box's /usr and /sys as red teams 51 and 52 had on
 * the host); what the worker dlopen()s (sandbox_set_loads) is a copy, as
 * is every library it names; only the driver's device nodes and /proc's
 * global entries are bound.  A trust: host kernel's box (view SYSTEM)
 * still binds the system's software. */
static void test_gpu_box_copies(void **state)
{
	(void)state;
	struct sandbox sb = SANDBOX_INIT;
	sb.on = 1;
	sb.gpu = 1;
	sb.bwrap = "bwrap";
	sb.filter_fd[0] = sandbox_filter_fd(SANDBOX_STRICT, 1);
	/* a load: a library by its path (libm stands for libcuda here) */
	char *libm = sandbox_find_library("libm.so.6", "/bin/true");
	assert_non_null(libm);
	const char *loads[] = { libm, "/nonexistent/libcuda.so.1", NULL };
	sandbox_set_loads(&sb, loads);
	assert_non_null(sb.loads);
	assert_string_equal(sb.loads[0], libm);
	assert_null(sb.loads[1]); /* a load that is not there is left out */
	const char *inner[] = { "true", NULL };
	int keep = -1;
	struct sandbox_files files;
	char **argv = sandbox_wrap_fresh(&sb, SANDBOX_STRICT, SANDBOX_VIEW_COPIES, inner, NULL, NULL, &files, &keep, NULL);
	assert_non_null(argv);
	int copies = 0, loaded = 0;
	char *real = realpath(libm, NULL);
	for (int i = 0; argv[i]; i++) {
		/* nothing of the host's, /proc's global entries included (red
		 * team 32's procdent: a lookup there left a positive dentry in
		 * the host's /proc); /dev/null over a writable /proc file */
		if ((!strcmp(argv[i], "--ro-bind") || !strcmp(argv[i], "--bind") || !strcmp(argv[i], "--ro-bind-try")) &&
		    !(!strcmp(argv[i + 1], "/dev/null") && !strncmp(argv[i + 2], "/proc/", 6)))
			fail_msg("a sealed kernel's GPU box binds %s", argv[i + 1]);
		if (!strcmp(argv[i], "--ro-bind-data") || !strcmp(argv[i], "--file")) {
			copies++;
			loaded += real && !strcmp(argv[i + 2], real);
		}
	}
	assert_int_equal(loaded, 1);
	assert_int_equal(files.n, copies);
	assert_int_equal(pair_at(argv, "--ro-bind", "/usr"), -1);
	assert_int_equal(pair_at(argv, "--ro-bind", "/sys"), -1);
	/* its own /proc, the global directories empty and read-only */
	assert_true(pair_at(argv, "--proc", "/proc") >= 0);
	assert_true(pair_at(argv, "--tmpfs", "/proc/sys") > pair_at(argv, "--proc", "/proc"));
	assert_true(pair_at(argv, "--remount-ro", "/proc/sys") > pair_at(argv, "--tmpfs", "/proc/sys"));
	sandbox_files_close(&files);
	sandbox_argv_free(argv);
	if (keep >= 0)
		close(keep);
	/* the same box as a trust: host kernel's: the system bound */
	argv = sandbox_wrap_fresh(&sb, SANDBOX_STRICT, SANDBOX_VIEW_SYSTEM, inner, NULL, NULL, &files, &keep, NULL);
	assert_true(pair_at(argv, "--ro-bind", "/usr") >= 0);
	sandbox_files_close(&files);
	sandbox_argv_free(argv);
	if (keep >= 0)
		close(keep);
	close(sb.filter_fd[0]);
	sandbox_argv_free(sb.loads);
	free(real);
	free(libm);
}

/* A CUDA run's checker (run/job.c run_checker_with): the GPU box of a
 * trust: host worker (the system's software bound), with the problem's
 * plug-in and GPU reference shown as copies (SANDBOX_VIEW_SYSTEM_COPIES),
 * not bound: no page of the host's files of the problem's is one the
 * checker reads, and a copy holds what the runner read as the box
 * started; the relaxed filter (its judges are processes). */
static void test_checker_gpu_box(void **state)
{
	(void)state;
	struct sandbox sb = SANDBOX_INIT;
	sb.on = 1;
	sb.gpu = 1;
	sb.bwrap = "bwrap";
	sb.filter_fd[SANDBOX_RELAXED] = sandbox_filter_fd(SANDBOX_RELAXED, 1);
	char dir[] = "/tmp/evident-checkbox-XXXXXX";
	assert_non_null(mkdtemp(dir));
	char *plug = xstrfmt("%s/problem.so", dir), *ref = xstrfmt("%s/problem_gpu.so", dir);
	for (int k = 0; k < 2; k++) {
		FILE *f = fopen(k ? ref : plug, "w");
		assert_non_null(f);
		fputs("not an object: the box copies it as it is", f);
		fclose(f);
	}
	char *rdir = realpath(dir, NULL), *rplug = xstrfmt("%s/problem.so", rdir), *rref = xstrfmt("%s/problem_gpu.so", rdir);
	const char *inner[] = { "true", NULL }, *objs[] = { plug, ref, NULL };
	int keep = -1;
	struct sandbox_files files;
	for (int copies = 1; copies >= 0; copies--) {
		char **argv = sandbox_wrap_fresh(&sb, SANDBOX_RELAXED,
						 copies ? SANDBOX_VIEW_SYSTEM_COPIES : SANDBOX_VIEW_SYSTEM, inner, objs,
						 NULL, &files, &keep, NULL);
		assert_non_null(argv);
		assert_true(pair_at(argv, "--ro-bind", "/usr") >= 0); /* the system, as a trust: host worker's */
		int shown = 0, bound = 0;
		for (int i = 0; argv[i] && argv[i + 1] && argv[i + 2]; i++) {
			int ours = !strcmp(argv[i + 2], rplug) || !strcmp(argv[i + 2], rref);
			shown += ours && !strcmp(argv[i], "--ro-bind-data");
			bound += !strcmp(argv[i], "--ro-bind") && (!strcmp(argv[i + 1], rplug) || !strcmp(argv[i + 1], rref));
		}
		assert_int_equal(shown, copies ? 2 : 0);
		assert_int_equal(bound, copies ? 0 : 2);
		assert_int_equal(files.n, copies ? 2 : 0);
		assert_true(pair_at(argv, "--seccomp", "5") >= 0);
		sandbox_files_close(&files);
		sandbox_argv_free(argv);
		if (keep >= 0)
			close(keep);
		keep = -1;
	}
	unlink(plug);
	unlink(ref);
	rmdir(dir);
	free(plug);
	free(ref);
	free(rplug);
	free(rref);
	free(rdir);
	close(sb.filter_fd[SANDBOX_RELAXED]);
}

/* a host box's /proc is read-only as a whole (red team 4, oom_undo: its
 * own oom_score_adj was writable), its global directories empty tmpfs
 * (read-only once the copies are in) and its global files /dev/null but
 * the copies (red team 33: /proc/vmstat's mlock counter, red team 57:
 * /proc/stat's fork count, counters a box could move and the next read);
 * a trust: host kernel's GPU box keeps its processes' entries writable
 * (the CUDA driver names its threads there) and binds the rest read-only
 * over itself */
static void test_proc_by_box(void **state)
{
	(void)state;
	char **host = wrap(0), **gpu = wrap(1);
	int at = pair_at(host, "--proc", "/proc");
	assert_true(at >= 0);
	assert_true(pair_at(host, "--remount-ro", "/proc") > at);
	assert_int_equal(pair_at(host, "--ro-bind-try", "/proc/sys"), -1);
	assert_true(pair_at(host, "--tmpfs", "/proc/sys") > at);
	assert_true(pair_at(host, "--remount-ro", "/proc/sys") > pair_at(host, "--tmpfs", "/proc/sys"));
	if (access("/proc/vmstat", F_OK) == 0)
		assert_true(pair_at(host, "/dev/null", "/proc/vmstat") > at);
	assert_int_equal(pair_at(host, "/dev/null", "/proc/cpuinfo"), -1); /* a copy */
	assert_true(pair_at(gpu, "--proc", "/proc") >= 0);
	assert_int_equal(pair_at(gpu, "--remount-ro", "/proc"), -1);
	assert_true(pair_at(gpu, "--ro-bind-try", "/proc/sys") >= 0);
	sandbox_argv_free(host);
	sandbox_argv_free(gpu);
}

/* a spec's library directory is shown only when it holds a library
 * (red team 4, lib_dir: -L/etc showed /etc/shadow) */
/* A GPU box pinned to one GPU binds that GPU's node and the driver's
 * control nodes, not the other GPUs' (red team 13, rt13_slot_hog reached
 * every GPU of the host); without a minor, or with one no node has, all */
static int has_bind(char **v, const char *path)
{
	for (int i = 0; v[i]; i++)
		if (!strcmp(v[i], "--dev-bind") && v[i + 1] && !strcmp(v[i + 1], path) && v[i + 2] &&
		    !strcmp(v[i + 2], path))
			return 1;
	return 0;
}

static int count_binds(char **v)
{
	int n = 0;
	for (int i = 0; v[i]; i++)
		n += !strcmp(v[i], "--dev-bind");
	return n;
}

static void test_gpu_binds(void **state)
{
	(void)state;
	const char *nodes[] = { "/dev/nvidia0", "/dev/nvidia1", "/dev/nvidia10", "/dev/nvidia-caps", "/dev/nvidia-modeset",
				"/dev/nvidia-uvm", "/dev/nvidia-uvm-tools", "/dev/nvidiactl", "/dev/nvidia-nvswitch0",
				NULL };
	int one = -1;
	char **v = sandbox_gpu_binds(nodes, 1, &one);
	assert_int_equal(one, 1);
	assert_true(has_bind(v, "/dev/nvidia1"));
	assert_false(has_bind(v, "/dev/nvidia0"));
	assert_false(has_bind(v, "/dev/nvidia10"));
	static const char *const ctl[] = { "/dev/nvidiactl", "/dev/nvidia-uvm", "/dev/nvidia-uvm-tools",
					   "/dev/nvidia-modeset", "/dev/nvidia-caps", "/dev/nvidia-nvswitch0", NULL };
	for (int i = 0; ctl[i]; i++)
		assert_true(has_bind(v, ctl[i]));
	assert_int_equal(count_binds(v), 7);
	sandbox_argv_free(v);
	v = sandbox_gpu_binds(nodes, 10, &one);
	assert_true(has_bind(v, "/dev/nvidia10") && !has_bind(v, "/dev/nvidia1"));
	assert_int_equal(count_binds(v), 7);
	sandbox_argv_free(v);
	/* not pinned, or a minor with no node: every node, as before */
	v = sandbox_gpu_binds(nodes, -1, &one);
	assert_int_equal(one, 0);
	assert_int_equal(count_binds(v), 9);
	sandbox_argv_free(v);
	v = sandbox_gpu_binds(nodes, 7, &one);
	assert_int_equal(one, 0);
	assert_int_equal(count_binds(v), 9);
	sandbox_argv_free(v);
	v = sandbox_gpu_binds(NULL, 0, &one);
	assert_non_null(v);
	assert_null(v[0]);
	sandbox_argv_free(v);
	/* the record says which */
	struct sandbox sb = SANDBOX_INIT;
	sb.on = 1;
	sb.gpu = 1;
	sb.version = strdup("bubblewrap test");
	sandbox_pin_gpu(&sb, 3, NULL);
	json_t *d = sandbox_describe(&sb);
	assert_non_null(strstr(json_string_value(json_object_get(d, "gpu_nodes")), "/dev/nvidia3"));
	json_decref(d);
	sandbox_pin_gpu(&sb, -1, "no NVML");
	d = sandbox_describe(&sb);
	assert_non_null(strstr(json_string_value(json_object_get(d, "gpu_nodes")), "every /dev/nvidia*: no NVML"));
	json_decref(d);
	sandbox_release(&sb);
}

/* After sandbox_no_exec a process runs no other program: execve ends it
 * with SIGSYS, from any thread, one started before the filter included
 * (TSYNC: the CUDA driver's threads; red team 13, rt13_slot_hog
 * re-executed /proc/self/exe with its own CUDA_VISIBLE_DEVICES) */
static void *exec_later(void *arg)
{
	volatile int *go = arg;
	while (!*go)
		usleep(1000);
	char *const argv[] = { (char *)"true", NULL };
	execve("/bin/true", argv, environ);
	_exit(42); /* refused without killing: not what is asked */
}

static int exec_status(int from_old_thread)
{
	pid_t pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		static volatile int go;
		pthread_t t;
		if (from_old_thread && pthread_create(&t, NULL, exec_later, (void *)&go) != 0)
			_exit(100);
		if (sandbox_no_exec(0) < 0)
			_exit(101);
		if (from_old_thread) {
			go = 1;
			pthread_join(t, NULL);
			_exit(102);
		}
		char *const argv[] = { (char *)"true", NULL };
		execve("/bin/true", argv, environ);
		syscall(SYS_execveat, AT_FDCWD, "/bin/true", argv, environ, 0);
		_exit(42);
	}
	int st = 0;
	assert_int_equal(waitpid(pid, &st, 0), pid);
	return st;
}

static void test_no_exec(void **state)
{
	(void)state;
	int st = exec_status(0);
	assert_true(WIFSIGNALED(st));
	assert_int_equal(WTERMSIG(st), SIGSYS);
	st = exec_status(1);
	assert_true(WIFSIGNALED(st));
	assert_int_equal(WTERMSIG(st), SIGSYS);
}

static void test_lib_dir(void **state)
{
	(void)state;
	char dir[] = "/tmp/evident-test-libdir-XXXXXX";
	assert_non_null(mkdtemp(dir));
	char path[256];
	snprintf(path, sizeof(path), "%s/ld.so.cache", dir);
	int fd = open(path, O_CREAT | O_WRONLY, 0600);
	assert_true(fd >= 0);
	close(fd);
	assert_int_equal(sandbox_lib_dir(dir), 0); /* ld.so.cache is no library */
	char lib[256];
	snprintf(lib, sizeof(lib), "%s/libx.so.1", dir);
	fd = open(lib, O_CREAT | O_WRONLY, 0600);
	assert_true(fd >= 0);
	close(fd);
	assert_int_equal(sandbox_lib_dir(dir), 1);
	unlink(lib);
	unlink(path);
	rmdir(dir);
	assert_int_equal(sandbox_lib_dir("/"), 0);
	assert_int_equal(sandbox_lib_dir(dir), 0); /* gone */
}


/* The host box's strict filter is an allow list (red team 80: an inotify
 * watch read the host's rename cookie, a run counter; sysinfo the host's
 * load): in a child with it loaded, what an honest worker does passes
 * (bits 0-5) and what it has no use for fails (bits 8-20, EPERM, or ENOSYS
 * for clone3), a call number no kernel has yet among them.  The bits go
 * back through a pipe made before the filter. */
enum {
	AL_WRITE = 1 << 0, AL_FUTEX = 1 << 1, AL_THREAD = 1 << 2, AL_CLOCK = 1 << 3, AL_MMAP = 1 << 4,
	AL_AFFINITY = 1 << 5, AL_INOTIFY = 1 << 8, AL_SYSINFO = 1 << 9, AL_RENAME = 1 << 10, AL_MEMFD = 1 << 11,
	AL_URING = 1 << 12, AL_PERF = 1 << 13, AL_IOCTL = 1 << 14, AL_PRCTL = 1 << 15, AL_FANOTIFY = 1 << 16,
	AL_EVENTFD = 1 << 17, AL_XATTR = 1 << 18, AL_CLONE3 = 1 << 19, AL_FUTURE = 1 << 20,
	/* red team 160 (host boxes only): membarrier's global commands and an
	 * mbind that moves pages refused, the private and query commands and
	 * a plain mbind not */
	AL_MB_GLOBAL = 1 << 21, AL_MBIND_MOVE = 1 << 22, AL_MB_PRIVATE = 1 << 23,
};

static void *thread_ok(void *arg)
{
	return arg;
}

static int refused(long r)
{
	return r < 0 && errno == EPERM;
}

static int allow_list_in_child(enum sandbox_profile prof, int gpu)
{
	int fd = sandbox_filter_fd(prof, gpu), p[2];
	assert_true(fd >= 0);
	assert_int_equal(pipe(p), 0);
	pid_t pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		close(p[0]);
		static struct sock_filter prog[4096];
		ssize_t n = read(fd, prog, sizeof(prog));
		struct sock_fprog fp = { (unsigned short)(n / (ssize_t)sizeof(prog[0])), prog };
		if (n <= 0 || prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0 ||
		    prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &fp, 0, 0) < 0)
			_exit(100);
		int bits = 0, word = 0;
		if (syscall(SYS_futex, &word, FUTEX_WAKE_PRIVATE, 1, NULL, NULL, 0) == 0)
			bits |= AL_FUTEX;
		pthread_t t;
		void *back = NULL;
		if (pthread_create(&t, NULL, thread_ok, &word) == 0 && pthread_join(t, &back) == 0 && back == &word)
			bits |= AL_THREAD;
		struct timespec ts;
		if (syscall(SYS_clock_gettime, CLOCK_MONOTONIC, &ts) == 0)
			bits |= AL_CLOCK;
		void *m = mmap(NULL, 1 << 16, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (m != MAP_FAILED && munmap(m, 1 << 16) == 0)
			bits |= AL_MMAP;
		cpu_set_t cs;
		if (sched_getaffinity(0, sizeof(cs), &cs) == 0)
			bits |= AL_AFFINITY;
		if (refused(inotify_init1(IN_CLOEXEC)))
			bits |= AL_INOTIFY;
		struct sysinfo si;
		if (refused(sysinfo(&si)))
			bits |= AL_SYSINFO;
		if (refused(rename("/tmp/evident-test-no-such-a", "/tmp/evident-test-no-such-b")))
			bits |= AL_RENAME;
		if (refused(syscall(SYS_memfd_secret, 0)))
			bits |= AL_MEMFD;
		if (refused(syscall(SYS_io_uring_setup, 1, NULL)))
			bits |= AL_URING;
		if (refused(syscall(SYS_perf_event_open, NULL, 0, -1, -1, 0)))
			bits |= AL_PERF;
		int ver = 0;
		if (refused(ioctl(p[1], FS_IOC_GETVERSION, &ver)))
			bits |= AL_IOCTL;
		if (refused(prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0)))
			bits |= AL_PRCTL;
		if (refused(syscall(SYS_fanotify_init, 0, 0)))
			bits |= AL_FANOTIFY;
		/* allowed since red team 82 (an honest kernel's): an eventfd, a
		 * locked page, its own NUMA policy, a timer slack */
		static char page[4096] __attribute__((aligned(4096)));
		if (syscall(SYS_eventfd2, 0, 0) >= 0 && mlock(page, sizeof(page)) == 0 &&
		    syscall(SYS_get_mempolicy, NULL, NULL, 0, NULL, 0) == 0 && prctl(PR_SET_TIMERSLACK, 50000, 0, 0, 0) == 0)
			bits |= AL_EVENTFD;
		if (refused(syscall(SYS_membarrier, 1 /* MEMBARRIER_CMD_GLOBAL */, 0, 0)) &&
		    refused(syscall(SYS_membarrier, 2 /* MEMBARRIER_CMD_GLOBAL_EXPEDITED */, 0, 0)))
			bits |= AL_MB_GLOBAL;
		if (refused(syscall(SYS_mbind, page, sizeof(page), 0 /* MPOL_DEFAULT */, NULL, 0, 2 /* MPOL_MF_MOVE */)) &&
		    refused(syscall(SYS_mbind, page, sizeof(page), 0, NULL, 0, 4 /* MPOL_MF_MOVE_ALL */)))
			bits |= AL_MBIND_MOVE;
		if (syscall(SYS_membarrier, 0 /* MEMBARRIER_CMD_QUERY */, 0, 0) >= 0 &&
		    !refused(syscall(SYS_mbind, page, sizeof(page), 0, NULL, 0, 0)))
			bits |= AL_MB_PRIVATE;
		char v[8];
		if (refused(getxattr("/tmp", "user.x", v, sizeof(v))))
			bits |= AL_XATTR;
		if (syscall(SYS_clone3, NULL, 0) < 0 && errno == ENOSYS)
			bits |= AL_CLONE3;
		if (refused(syscall(1000)))
			bits |= AL_FUTURE;
		/* last: the write that reports them */
		bits |= AL_WRITE;
		_exit(write(p[1], &bits, sizeof(bits)) == (ssize_t)sizeof(bits) ? 0 : 101);
	}
	close(p[1]);
	int bits = -1, st = 0;
	ssize_t got = read(p[0], &bits, sizeof(bits));
	close(p[0]);
	assert_int_equal(waitpid(pid, &st, 0), pid);
	close(fd);
	assert_true(WIFEXITED(st));
	assert_int_equal(WEXITSTATUS(st), 0);
	assert_int_equal(got, (ssize_t)sizeof(bits));
	return bits;
}

static void test_host_allow_list(void **state)
{
	(void)state;
	const int all = AL_WRITE | AL_FUTEX | AL_THREAD | AL_CLOCK | AL_MMAP | AL_AFFINITY | AL_INOTIFY |
			AL_SYSINFO | AL_RENAME | AL_MEMFD | AL_URING | AL_PERF | AL_IOCTL | AL_PRCTL | AL_FANOTIFY |
			AL_EVENTFD | AL_XATTR | AL_CLONE3 | AL_FUTURE | AL_MB_GLOBAL | AL_MBIND_MOVE | AL_MB_PRIVATE;
	assert_int_equal(allow_list_in_child(SANDBOX_STRICT, 0), all);
	/* a GPU box's strict filter is the same allow list, with the driver's
	 * ioctls of any request, sysinfo unless the switch refuses it
	 * (test_gpu_allow_list), and membarrier and mbind whole */
	assert_int_equal(allow_list_in_child(SANDBOX_STRICT, 1),
			 all & ~AL_IOCTL & ~(SANDBOX_GPU_REFUSES_SYSINFO ? 0 : AL_SYSINFO) & ~AL_MB_GLOBAL & ~AL_MBIND_MOVE);
	/* the relaxed profile stays a deny list, inotify and fanotify refused
	 * there too */
	assert_int_equal(allow_list_in_child(SANDBOX_RELAXED, 0) & (AL_INOTIFY | AL_SYSINFO), AL_INOTIFY);
	assert_int_equal(allow_list_in_child(SANDBOX_RELAXED, 1) & (AL_INOTIFY | AL_SYSINFO), AL_INOTIFY);
}

/*
 * Nothing but the parent resumes a stopped host worker (red team 90: a
 * POSIX timer of the worker's own sent SIGCONT to it after a done line,
 * and a helper thread wrote the sample's outputs while the parent read its
 * threads).  In a child with a strict box's filter loaded, each way a
 * process sends itself SIGCONT is refused with EPERM in a host box: kill,
 * tkill, tgkill with SIGCONT (and with SIGCONT in the low 32 bits of a
 * register whose high bits are set, which the kernel reads as an int),
 * rt_sigqueueinfo, rt_tgsigqueueinfo, pidfd_send_signal, timer_create of
 * any signal, fcntl(F_SETSIG); other signals to itself pass: kill(0),
 * raise(SIGUSR1) and a real-time signal reach their handlers, fcntl's
 * other commands (F_SETOWN among them), setitimer, timerfd; and abort()
 * ends the child by SIGABRT (its tgkill).  A GPU box allows timer_create
 * (t3005's honest sleeper needs it) and keeps kill of any signal.  The
 * bits come back through a pipe before the abort.
 */
enum {
	SC_KILL = 1 << 0, SC_KILL_HIGH = 1 << 1, SC_TKILL = 1 << 2, SC_TGKILL = 1 << 3, SC_SIGQUEUE = 1 << 4,
	SC_TGSIGQUEUE = 1 << 5, SC_PIDFD = 1 << 6, SC_TIMER = 1 << 7, SC_TIMER_USR1 = 1 << 8, SC_SETSIG = 1 << 9,
	/* allowed */
	SC_RAISE = 1 << 16, SC_KILL0 = 1 << 17, SC_RT = 1 << 18, SC_FCNTL = 1 << 19, SC_ITIMER = 1 << 20,
	SC_TIMERFD = 1 << 21, SC_WRITE = 1 << 22,
};

static volatile sig_atomic_t sc_got[65];
static void sc_handler(int sig)
{
	sc_got[sig] = 1;
}

static int self_continue_in_child(int gpu, int *abort_sig)
{
	int fd = sandbox_filter_fd(SANDBOX_STRICT, gpu), p[2];
	assert_true(fd >= 0);
	assert_int_equal(pipe(p), 0);
	pid_t pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		close(p[0]);
		static struct sock_filter prog[4096];
		ssize_t n = read(fd, prog, sizeof(prog));
		struct sock_fprog fp = { (unsigned short)(n / (ssize_t)sizeof(prog[0])), prog };
		struct sigaction sa;
		memset(&sa, 0, sizeof(sa));
		sa.sa_handler = sc_handler;
		sigaction(SIGUSR1, &sa, NULL);
		sigaction(SIGRTMIN + 1, &sa, NULL);
		if (n <= 0 || prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0 ||
		    prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &fp, 0, 0) < 0)
			_exit(100);
		int bits = 0;
		pid_t me = getpid(), tid = (pid_t)syscall(SYS_gettid);
		if (refused(kill(me, SIGCONT)))
			bits |= SC_KILL;
		if (refused(syscall(SYS_kill, me, 0x100000000LL | SIGCONT)))
			bits |= SC_KILL_HIGH;
		if (refused(syscall(SYS_tkill, tid, SIGCONT)))
			bits |= SC_TKILL;
		if (refused(syscall(SYS_tgkill, me, tid, SIGCONT)))
			bits |= SC_TGKILL;
		siginfo_t si;
		memset(&si, 0, sizeof(si));
		si.si_code = SI_QUEUE;
		si.si_pid = me;
		if (refused(syscall(SYS_rt_sigqueueinfo, me, SIGCONT, &si)))
			bits |= SC_SIGQUEUE;
		if (refused(syscall(SYS_rt_tgsigqueueinfo, me, tid, SIGCONT, &si)))
			bits |= SC_TGSIGQUEUE;
#ifdef SYS_pidfd_send_signal
		if (refused(syscall(SYS_pidfd_send_signal, 0, SIGCONT, NULL, 0)))
			bits |= SC_PIDFD;
#else
		bits |= SC_PIDFD;
#endif
		struct sigevent sev;
		memset(&sev, 0, sizeof(sev));
		sev.sigev_notify = SIGEV_SIGNAL;
		sev.sigev_signo = SIGCONT;
		int tm = -1;
		if (refused(syscall(SYS_timer_create, CLOCK_MONOTONIC, &sev, &tm)))
			bits |= SC_TIMER;
		sev.sigev_signo = SIGUSR1;
		if (refused(syscall(SYS_timer_create, CLOCK_MONOTONIC, &sev, &tm)))
			bits |= SC_TIMER_USR1;
		if (refused(fcntl(p[1], F_SETSIG, SIGCONT)))
			bits |= SC_SETSIG;
		/* allowed: other signals to itself, reaching their handlers */
		if (raise(SIGUSR1) == 0 && sc_got[SIGUSR1])
			bits |= SC_RAISE;
		if (kill(me, 0) == 0)
			bits |= SC_KILL0;
		if (syscall(SYS_tgkill, me, tid, SIGRTMIN + 1) == 0 && sc_got[SIGRTMIN + 1])
			bits |= SC_RT;
		if (fcntl(p[1], F_GETFL) >= 0 && fcntl(p[1], F_SETOWN, me) == 0 && fcntl(p[1], F_GETSIG) >= 0)
			bits |= SC_FCNTL;
		struct itimerval it;
		memset(&it, 0, sizeof(it));
		if (setitimer(ITIMER_REAL, &it, NULL) == 0)
			bits |= SC_ITIMER;
		long tfd = syscall(SYS_timerfd_create, CLOCK_MONOTONIC, 0);
		if (tfd >= 0) {
			close((int)tfd);
			bits |= SC_TIMERFD;
		}
		bits |= SC_WRITE;
		if (write(p[1], &bits, sizeof(bits)) != (ssize_t)sizeof(bits))
			_exit(101);
		/* last: abort's SIGABRT (tgkill) ends the child */
		abort();
	}
	close(p[1]);
	int bits = -1, st = 0;
	ssize_t got = read(p[0], &bits, sizeof(bits));
	close(p[0]);
	assert_int_equal(waitpid(pid, &st, 0), pid);
	close(fd);
	assert_int_equal(got, (ssize_t)sizeof(bits));
	*abort_sig = WIFSIGNALED(st) ? WTERMSIG(st) : -1;
	return bits;
}

static void test_host_no_self_continue(void **state)
{
	(void)state;
	const int allowed = SC_RAISE | SC_KILL0 | SC_RT | SC_FCNTL | SC_ITIMER | SC_TIMERFD | SC_WRITE;
	const int refused_all = SC_KILL | SC_KILL_HIGH | SC_TKILL | SC_TGKILL | SC_SIGQUEUE | SC_TGSIGQUEUE |
				SC_PIDFD | SC_TIMER | SC_TIMER_USR1 | SC_SETSIG;
	int sig = 0;
	assert_int_equal(self_continue_in_child(0, &sig), refused_all | allowed);
	assert_int_equal(sig, SIGABRT);
	/* a GPU box: timer_create, kill, tkill, tgkill and fcntl of any
	 * signal or command as measured (t3005's honest sleeper times its
	 * handler with a POSIX timer); the rest as before */
	assert_int_equal(self_continue_in_child(1, &sig), (SC_SIGQUEUE | SC_TGSIGQUEUE | SC_PIDFD) | allowed);
	assert_int_equal(sig, SIGABRT);
}

/*
 * A GPU box's strict filter is an allow list (issue 22): in a child with
 * it loaded, each of the 60 calls the evident-worker payload made in GPU
 * boxes on an H200 (data/syscall-census/, c1-c3: GPU and host workers,
 * sealed planners, trust: host references with cuBLAS and cuDNN) is not
 * refused (EPERM), called with arguments that do nothing (a bad address,
 * descriptor or option) or, for the ones by argument (clone, prctl,
 * socket, ioctl), as the CUDA stack calls them; clone3 answers ENOSYS so
 * that glibc falls back to clone; and what the census never saw the
 * worker call fails: sysinfo when the switch says so, perf_event_open,
 * inotify_init1, process_vm_readv, a socket of any family but AF_UNIX, a
 * socketpair, fork, shmget, getsockopt (SO_COOKIE: the host's socket
 * cookie counter), rename, io_uring, pidfd_open, a call number no kernel
 * has yet.  What failed comes back through a pipe as names.
 */
static const char *const gpu_measured[] = {
	"access", "arch_prctl", "bind", "brk", "clock_gettime", "clock_nanosleep", "clone", "clone3", "close",
	"connect", "dup", "eventfd2", "exit", "exit_group", "fcntl", "fstat", "futex", "get_mempolicy", "getcwd",
	"getdents64", "geteuid", "getpid", "getrandom", "gettid", "ioctl", "listen", "lseek", "madvise", "mkdir",
	"mmap", "mprotect", "munmap", "newfstatat", "openat", "pipe2", "poll", "prctl", "pread64", "prlimit64",
	"read", "readlink", "readlinkat", "rseq", "rt_sigaction", "rt_sigprocmask", "sched_get_priority_max",
	"sched_get_priority_min", "sched_getaffinity", "seccomp", "set_robust_list", "set_tid_address",
	"setsockopt", "socket", "stat", "statx", "symlink", "sysinfo", "uname", "unlink", "write", NULL,
};

static void note(char *buf, size_t len, const char *what)
{
	size_t at = strlen(buf);
	snprintf(buf + at, len - at, " %s", what);
}

static void gpu_allow_list_in_child(const char *dir, char *bad, size_t badlen)
{
	int fd = sandbox_filter_fd(SANDBOX_STRICT, 1), p[2];
	assert_true(fd >= 0);
	assert_int_equal(pipe(p), 0);
	pid_t pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		close(p[0]);
		static struct sock_filter prog[4096];
		static char out[2048];
		ssize_t n = read(fd, prog, sizeof(prog));
		struct sock_fprog fp = { (unsigned short)(n / (ssize_t)sizeof(prog[0])), prog };
		if (n <= 0 || prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0 ||
		    prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &fp, 0, 0) < 0)
			_exit(100);
		/* each measured call, not refused */
		for (int i = 0; gpu_measured[i]; i++) {
			const char *c = gpu_measured[i];
			long r = 0;
			errno = 0;
			if (!strcmp(c, "exit") || !strcmp(c, "exit_group") || !strcmp(c, "clone") ||
			    !strcmp(c, "clone3") || !strcmp(c, "prctl") || !strcmp(c, "socket") || !strcmp(c, "ioctl") ||
			    !strcmp(c, "sysinfo") || !strcmp(c, "bind") || !strcmp(c, "listen") ||
			    !strcmp(c, "connect") || !strcmp(c, "setsockopt") || !strcmp(c, "symlink") ||
			    !strcmp(c, "mkdir") || !strcmp(c, "unlink"))
				continue; /* below, as the CUDA stack calls them */
			if (!strcmp(c, "seccomp")) {
				unsigned int act = SECCOMP_RET_ALLOW;
				r = syscall(SYS_seccomp, SECCOMP_GET_ACTION_AVAIL, 0, &act);
			} else if (!strcmp(c, "close")) {
				r = close(-1);
			} else {
				/* zeros: a null address, descriptor 0 (stdin, read or
				 * written for 0 bytes), no option */
				int nr = seccomp_syscall_resolve_name(c);
				if (nr < 0)
					continue; /* not a call of this architecture
						   * (aarch64 has no stat or open) */
				r = syscall(nr, 0, 0, 0, 0, 0, 0);
			}
			if (r < 0 && errno == EPERM)
				note(out, sizeof(out), c);
		}
		/* threads (clone, exit), clone3's fallback */
		pthread_t t;
		void *back = NULL;
		if (pthread_create(&t, NULL, thread_ok, out) != 0 || pthread_join(t, &back) != 0 || back != out)
			note(out, sizeof(out), "clone(thread)");
		if (!(syscall(SYS_clone3, NULL, 0) < 0 && errno == ENOSYS))
			note(out, sizeof(out), "clone3!=ENOSYS");
		/* a thread's name, the worker's own no_new_privs */
		if (prctl(PR_SET_NAME, "evident-gpu", 0, 0, 0) != 0 || prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0)
			note(out, sizeof(out), "prctl");
		/* the driver's ioctls: any request (an RM-like one on a pipe is
		 * ENOTTY, not EPERM) */
		int ver = 0;
		if (refused(ioctl(p[1], 0xc020462aUL, &ver)) || refused(ioctl(p[1], FIONREAD, &ver)) ||
		    refused(ioctl(p[1], FS_IOC_GETVERSION, &ver)))
			note(out, sizeof(out), "ioctl");
		/* an AF_UNIX server and client, as the driver makes them: bound,
		 * listening, connected, an option set */
		struct sockaddr_un sa;
		memset(&sa, 0, sizeof(sa));
		sa.sun_family = AF_UNIX;
		snprintf(sa.sun_path, sizeof(sa.sun_path), "%s/sock", dir);
		int s1 = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0), s2 = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
		int one = 1;
		if (s1 < 0 || s2 < 0)
			note(out, sizeof(out), "socket(AF_UNIX)");
		else if (bind(s1, (struct sockaddr *)&sa, sizeof(sa)) != 0)
			note(out, sizeof(out), "bind");
		else if (listen(s1, 1) != 0)
			note(out, sizeof(out), "listen");
		else if (connect(s2, (struct sockaddr *)&sa, sizeof(sa)) != 0)
			note(out, sizeof(out), "connect");
		else if (setsockopt(s2, SOL_SOCKET, SO_PASSCRED, &one, sizeof(one)) != 0)
			note(out, sizeof(out), "setsockopt");
		/* in its own tmpfs: a directory, a symlink, both removed */
		char d[512], l[512];
		snprintf(d, sizeof(d), "%s/d", dir);
		snprintf(l, sizeof(l), "%s/l", dir);
		if (mkdir(d, 0700) != 0)
			note(out, sizeof(out), "mkdir");
		if (symlink(d, l) != 0)
			note(out, sizeof(out), "symlink");
		if (unlink(l) != 0 || unlink(sa.sun_path) != 0)
			note(out, sizeof(out), "unlink");
		struct sysinfo si;
		if (SANDBOX_GPU_REFUSES_SYSINFO ? !refused(sysinfo(&si)) : sysinfo(&si) != 0)
			note(out, sizeof(out), SANDBOX_GPU_REFUSES_SYSINFO ? "sysinfo-allowed" : "sysinfo");
		/* what it never called, refused */
		if (!refused(syscall(SYS_perf_event_open, NULL, 0, -1, -1, 0)))
			note(out, sizeof(out), "perf_event_open-allowed");
		int in = inotify_init1(IN_CLOEXEC);
		if (!refused(in))
			note(out, sizeof(out), "inotify_init1-allowed");
		char a = 0, b = 0;
		struct iovec lv = { &a, 1 }, rv = { &b, 1 };
		if (!refused(process_vm_readv(getpid(), &lv, 1, &rv, 1, 0)))
			note(out, sizeof(out), "process_vm_readv-allowed");
		int so = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
		if (!(so < 0 && errno == EAFNOSUPPORT))
			note(out, sizeof(out), "socket(AF_INET)-allowed");
		so = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_KOBJECT_UEVENT);
		if (!(so < 0 && errno == EAFNOSUPPORT))
			note(out, sizeof(out), "socket(AF_NETLINK)-allowed");
		int sv[2];
		if (!(socketpair(AF_UNIX, SOCK_STREAM, 0, sv) < 0 && errno == EAFNOSUPPORT))
			note(out, sizeof(out), "socketpair-allowed");
		pid_t c = fork();
		if (c == 0)
			_exit(0);
		if (!(c < 0 && errno == EPERM)) {
			note(out, sizeof(out), "fork-allowed");
			if (c > 0)
				waitpid(c, NULL, 0);
		}
		if (!refused(shmget(IPC_PRIVATE, 4096, IPC_CREAT | 0600)))
			note(out, sizeof(out), "shmget-allowed");
		unsigned long long cookie = 0;
		socklen_t cl = sizeof(cookie);
		if (s2 >= 0 && !refused(getsockopt(s2, SOL_SOCKET, SO_COOKIE, &cookie, &cl)))
			note(out, sizeof(out), "getsockopt-allowed");
		if (!refused(rename(d, l)))
			note(out, sizeof(out), "rename-allowed");
		if (!refused(syscall(SYS_io_uring_setup, 1, NULL)))
			note(out, sizeof(out), "io_uring_setup-allowed");
#ifdef SYS_pidfd_open
		if (!(syscall(SYS_pidfd_open, getpid(), 0) < 0 && errno == ENOSYS))
			note(out, sizeof(out), "pidfd_open!=ENOSYS");
#endif
		if (!refused(prctl(PR_SET_PDEATHSIG, 0, 0, 0, 0)))
			note(out, sizeof(out), "PR_SET_PDEATHSIG-allowed");
		if (!refused(syscall(1000)))
			note(out, sizeof(out), "syscall1000-allowed");
		if (rmdir(d) != 0)
			note(out, sizeof(out), "rmdir");
		/* last: the write that reports them, then exit_group */
		_exit(write(p[1], out, strlen(out) + 1) == (ssize_t)(strlen(out) + 1) ? 0 : 101);
	}
	close(p[1]);
	memset(bad, 0, badlen);
	ssize_t got = read(p[0], bad, badlen - 1);
	close(p[0]);
	int st = 0;
	assert_int_equal(waitpid(pid, &st, 0), pid);
	close(fd);
	assert_true(WIFEXITED(st));
	assert_int_equal(WEXITSTATUS(st), 0);
	assert_true(got > 0);
}

static void test_gpu_allow_list(void **state)
{
	(void)state;
	char dir[] = "/tmp/evident-test-gpufilter-XXXXXX", bad[2048];
	assert_non_null(mkdtemp(dir));
	gpu_allow_list_in_child(dir, bad, sizeof(bad));
	rmdir(dir);
	if (bad[0])
		fprintf(stderr, "GPU allow list, wrong:%s\n", bad);
	assert_string_equal(bad, "");
}

/* The probes that prove a box's program (sandbox_probe.c; red team 131's
 * way on): what each program answers (strict, sanitizer, relaxed; host
 * and GPU), learned in a child with it loaded;
 * a process without the program (as in a stand-in's allow-everything
 * box) answers otherwise, and so does one with a program that refuses a
 * process clone alone; the program itself answers as it did. */
static int probe_index(const char *name)
{
	for (int i = 0; i < SANDBOX_PROBES; i++)
		if (!strcmp(sandbox_probe_name(i), name))
			return i;
	fail_msg("no probe %s", name);
	return -1;
}

/* a child that loads each program given (n of them, newest last) and
 * waits, as a worker waits for its hello's answer; its pid, the write end
 * that releases it in *go */
static pid_t waiting_child(struct sock_fprog *const *progs, int n, int *go)
{
	int p[2], r[2];
	assert_int_equal(pipe(p), 0);
	assert_int_equal(pipe(r), 0);
	pid_t pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		char c;
		close(p[1]);
		close(r[0]);
		if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0)
			_exit(100);
		/* (seccomp(2): the strict program lets a worker add its exec
		 * filter so, not by prctl) */
		for (int i = 0; i < n; i++)
			if (syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, 0, progs[i]) < 0)
				_exit(101);
		if (write(r[1], "r", 1) != 1)
			_exit(102);
		while (read(p[0], &c, 1) < 0 && errno == EINTR)
			;
		_exit(0);
	}
	close(p[0]);
	close(r[1]);
	char c = 0;
	assert_int_equal(read(r[0], &c, 1), 1);
	close(r[0]);
	*go = p[1];
	return pid;
}

static int read_back_child(struct sock_fprog *const *progs, int n, int fd, struct strbuf *why)
{
	int go = -1;
	pid_t pid = waiting_child(progs, n, &go);
	struct sandbox_seen me;
	sandbox_self_seen(&me);
	int rc = sandbox_readback(pid, fd, me.filters, why);
	close(go);
	int st = 0;
	assert_int_equal(waitpid(pid, &st, 0), pid);
	assert_true(WIFEXITED(st) && WEXITSTATUS(st) == 0);
	return rc;
}

/* red team 133: evident's program with a rule of the stand-in's own in
 * front (allow fork, 57) answers every probe as evident's does; read back
 * from the process, it is not the program, nor is the program with a
 * second filter beside it (an allow-everything one here; a USER_NOTIF one
 * would let a supervisor answer calls), nor no filter at all */
static void test_readback(void **state)
{
	(void)state;
	struct sandbox sb = SANDBOX_INIT;
	sb.filter_fd[SANDBOX_STRICT] = sandbox_filter_fd(SANDBOX_STRICT, 0);
	assert_true(sb.filter_fd[SANDBOX_STRICT] >= 0);
	sandbox_readback_prepare(&sb);
	if (!sb.readback_ready) {
		/* a runner that may not trace (not root): the record says why */
		print_message("    skipped: this runner cannot read filters back: %s\n", sb.readback_why);
		sandbox_release(&sb);
		return;
	}
	int fd = sb.filter_fd[SANDBOX_STRICT];
	struct stat st;
	assert_int_equal(fstat(fd, &st), 0);
	unsigned short n = (unsigned short)(st.st_size / (off_t)sizeof(struct sock_filter));
	struct sock_filter *prog = calloc((size_t)n + 2, sizeof(*prog));
	assert_int_equal(pread(fd, prog + 2, (size_t)st.st_size, 0), st.st_size);
	struct sock_fprog real = { n, prog + 2 };
	/* the stand-in's: allow 57, else evident's program */
	struct sock_filter allow_57[] = {
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, 57, 0, 1),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
	};
	struct sock_filter *front = calloc((size_t)n + 3, sizeof(*front));
	memcpy(front, allow_57, sizeof(allow_57));
	memcpy(front + 3, prog + 2, (size_t)st.st_size);
	struct sock_fprog stand_in = { (unsigned short)(n + 3), front };
	struct sock_filter all[] = { BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW) };
	struct sock_fprog allow_all = { 1, all };
	struct strbuf why = STRBUF_INIT;
	struct sock_fprog *one[] = { &real };
	assert_int_equal(read_back_child(one, 1, fd, &why), 1);
	struct sock_fprog *front_of[] = { &stand_in };
	assert_int_equal(read_back_child(front_of, 1, fd, &why), 0);
	assert_non_null(strstr(strbuf_str(&why), "not the program the runner handed it"));
	strbuf_reset(&why);
	/* the program first, a filter of the stand-in's after it */
	struct sock_fprog *after[] = { &real, &allow_all };
	assert_int_equal(read_back_child(after, 2, fd, &why), 0);
	assert_non_null(strstr(strbuf_str(&why), "beyond the runner's program"));
	strbuf_reset(&why);
	struct sock_fprog *two[] = { &allow_all, &real };
	assert_int_equal(read_back_child(two, 2, fd, &why), 0);
	assert_non_null(strstr(strbuf_str(&why), "not the program the runner handed it"));
	strbuf_reset(&why);
	assert_int_equal(read_back_child(NULL, 0, fd, &why), 0);
	strbuf_release(&why);
	free(front);
	free(prog);
	sandbox_release(&sb);
}

static void test_probes(void **state)
{
	(void)state;
	int host[SANDBOX_PROBES], gpu[SANDBOX_PROBES], san[SANDBOX_PROBES], none[SANDBOX_PROBES];
	int fd = sandbox_filter_fd(SANDBOX_STRICT, 0);
	assert_int_equal(sandbox_probe_expect(fd, 1, host), 0);
	/* every probe refused in a host box, each with the program's errno */
	for (int i = 0; i < SANDBOX_PROBES; i++) {
		const char *n = sandbox_probe_name(i);
		int want = !strcmp(n, "clone3") || !strcmp(n, "pidfd_open") ? ENOSYS
			   : !strcmp(n, "socket")				      ? EAFNOSUPPORT
										      : EPERM;
		if (host[i] != want)
			fail_msg("host box: %s answered %d, not %d", n, host[i], want);
	}
	/* the program answers as it did (the process's memo of its bytes) */
	int again[SANDBOX_PROBES];
	assert_int_equal(sandbox_probe_expect(fd, 1, again), 0);
	struct strbuf why = STRBUF_INIT;
	assert_int_equal(sandbox_probes_ok(again, host, "bw", &why), 1);
	/* no program (an allow-everything stand-in), without the fork: every
	 * compared call answered otherwise, the kernel's own errno */
	sandbox_probe_run(0, none);
	assert_int_equal(none[probe_index("clone")], SANDBOX_PROBE_SKIPPED);
	assert_int_equal(none[probe_index("socket")], EINVAL);
	assert_int_equal(none[probe_index("ptrace")], ESRCH);
	assert_int_equal(none[probe_index("setns")], EBADF);
	assert_int_equal(sandbox_probes_ok(none, host, "bw", &why), 0);
	assert_non_null(strstr(strbuf_str(&why), "the box that bubblewrap 'bw' made does not refuse what its seccomp "
						 "program refuses"));
	assert_non_null(strstr(strbuf_str(&why), "clone not made (the program: EPERM)"));
	assert_non_null(strstr(strbuf_str(&why), "socket EINVAL (the program: EAFNOSUPPORT)"));
	strbuf_reset(&why);
	/* a program that refuses a process clone and nothing else: the fork
	 * probe passes, the others do not */
	struct sock_filter nofork[] = {
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_clone, 0, 3),
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, args[0])),
		BPF_JUMP(BPF_JMP | BPF_JSET | BPF_K, CLONE_THREAD, 1, 0),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | EPERM),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
	};
	int nf = memfd_create("nofork", 0);
	assert_true(nf >= 0);
	assert_int_equal(write(nf, nofork, sizeof(nofork)), (int)sizeof(nofork));
	int fake[SANDBOX_PROBES];
	assert_int_equal(sandbox_probe_expect(nf, 1, fake), 0);
	close(nf);
	assert_int_equal(fake[probe_index("clone")], EPERM);
	assert_int_equal(sandbox_probes_ok(fake, host, "bw", &why), 0);
	assert_null(strstr(strbuf_str(&why), "clone "));
	assert_non_null(strstr(strbuf_str(&why), "inotify_init1 EINVAL (the program: EPERM)"));
	strbuf_release(&why);
	/* the memo is of the program's bytes: the same program but one byte
	 * (clone's errno EACCES, not EPERM) is learned in a child of its
	 * own, never answered as the one learned before */
	nofork[4] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | EACCES);
	nf = memfd_create("nofork2", 0);
	assert_true(nf >= 0);
	assert_int_equal(write(nf, nofork, sizeof(nofork)), (int)sizeof(nofork));
	int fake2[SANDBOX_PROBES];
	assert_int_equal(sandbox_probe_expect(nf, 1, fake2), -1); /* EACCES: no refusal it compares */
	assert_int_equal(fake2[probe_index("clone")], EACCES);
	nofork[4] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | EPERM);
	assert_int_equal(ftruncate(nf, 0), 0);
	assert_int_equal(pwrite(nf, nofork, sizeof(nofork), 0), (int)sizeof(nofork));
	assert_int_equal(sandbox_probe_expect(nf, 1, fake2), 0); /* the first program's bytes again: its answers */
	assert_int_equal(fake2[probe_index("clone")], EPERM);
	close(nf);
	close(fd);
	/* a GPU box's strict program: the same but the signals and fcntl it
	 * allows (the CUDA stack's) */
	fd = sandbox_filter_fd(SANDBOX_STRICT, 1);
	assert_int_equal(sandbox_probe_expect(fd, 1, gpu), 0);
	close(fd);
	for (int i = 0; i < SANDBOX_PROBES; i++) {
		const char *n = sandbox_probe_name(i);
		if (!strcmp(n, "tgkill_sigcont") || !strcmp(n, "fcntl_setsig") ||
		    (!strcmp(n, "sysinfo") && !SANDBOX_GPU_REFUSES_SYSINFO))
			assert_false(sandbox_probe_refusal(gpu[i]));
		else if (gpu[i] != host[i])
			fail_msg("GPU box: %s answered %d, the host box %d", n, gpu[i], host[i]);
	}
	/* compute-sanitizer's (a deny list; processes allowed, so no fork):
	 * what it denies */
	fd = sandbox_filter_fd(SANDBOX_SANITIZER, 1);
	assert_int_equal(sandbox_probe_expect(fd, 0, san), 0);
	close(fd);
	static const char *const san_refused[] = { "inotify_init1", "ptrace", "process_vm_readv", "io_uring_setup",
						   "perf_event_open", "setns", "keyctl", "mknodat", "utimensat", NULL };
	int refused = 0;
	for (int i = 0; i < SANDBOX_PROBES; i++)
		refused += sandbox_probe_refusal(san[i]);
	for (int i = 0; san_refused[i]; i++)
		assert_int_equal(san[probe_index(san_refused[i])], EPERM);
	assert_int_equal(refused, 9);
	assert_int_equal(san[probe_index("clone")], SANDBOX_PROBE_SKIPPED);
	/* the checker's (relaxed: a deny list, processes allowed), host and
	 * GPU: what every relaxed program denies, and a host box's sockets */
	static const char *const rel_refused[] = { "inotify_init1", "ptrace", "process_vm_readv", "io_uring_setup",
						   "perf_event_open", "setns", "keyctl", NULL };
	for (int g = 0; g < 2; g++) {
		int rel[SANDBOX_PROBES];
		fd = sandbox_filter_fd(SANDBOX_RELAXED, g);
		assert_int_equal(sandbox_probe_expect(fd, 0, rel), 0);
		close(fd);
		refused = 0;
		for (int i = 0; i < SANDBOX_PROBES; i++)
			refused += sandbox_probe_refusal(rel[i]);
		for (int i = 0; rel_refused[i]; i++)
			assert_int_equal(rel[probe_index(rel_refused[i])], EPERM);
		assert_int_equal(rel[probe_index("socket")], g ? EINVAL : EAFNOSUPPORT);
		assert_int_equal(refused, g ? 7 : 8);
	}
}

/* The runner sets its own loginuid where it is unset, before its first
 * box (red team 80: a GPU box set its own and read the host's audit
 * session counter, one a thread): in a child whose loginuid is unset,
 * sandbox_fix_loginuid sets it to the uid, a thread made later has it,
 * and without CAP_AUDIT_CONTROL (as in a box) it cannot be changed. */
static void *read_thread_loginuid(void *arg)
{
	char *b = arg;
	int fd = open("/proc/thread-self/loginuid", O_RDONLY);
	ssize_t n = fd < 0 ? -1 : read(fd, b, 31);
	if (fd >= 0)
		close(fd);
	b[n > 0 ? n : 0] = 0;
	return NULL;
}

static void test_loginuid(void **state)
{
	(void)state;
	char b[32] = { 0 };
	int fd = open("/proc/self/loginuid", O_RDONLY);
	if (fd < 0)
		skip(); /* a kernel without audit */
	ssize_t n = read(fd, b, sizeof(b) - 1);
	close(fd);
	if (n <= 0 || strtoul(b, NULL, 10) != 4294967295ul) {
		/* already set: said as such, not changed */
		pid_t pid = fork();
		assert_true(pid >= 0);
		if (pid == 0)
			_exit(strstr(sandbox_fix_loginuid(), "set before the runner started") ? 0 : 1);
		int st = 0;
		assert_int_equal(waitpid(pid, &st, 0), pid);
		assert_true(WIFEXITED(st) && WEXITSTATUS(st) == 0);
		skip();
	}
	pid_t pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		int bits = 0;
		char uid[32], t[32] = { 0 }, now[32] = { 0 };
		int len = snprintf(uid, sizeof(uid), "%u", (unsigned)getuid());
		const char *said = sandbox_fix_loginuid();
		if (!strncmp(said, uid, (size_t)len) && said[len] == ',' && strstr(said, "set by the runner"))
			bits |= 1;
		int r = open("/proc/self/loginuid", O_RDONLY);
		ssize_t k = r < 0 ? -1 : read(r, now, sizeof(now) - 1);
		if (r >= 0)
			close(r);
		if (k > 0 && strtoul(now, NULL, 10) == strtoul(uid, NULL, 10))
			bits |= 2;
		pthread_t th;
		if (pthread_create(&th, NULL, read_thread_loginuid, t) == 0 && pthread_join(th, NULL) == 0 &&
		    t[0] && strtoul(t, NULL, 10) == strtoul(uid, NULL, 10))
			bits |= 4;
		/* no capabilities, as in a box: a set loginuid stays */
		struct __user_cap_header_struct h = { _LINUX_CAPABILITY_VERSION_3, 0 };
		struct __user_cap_data_struct d[2];
		memset(d, 0, sizeof(d));
		if (syscall(SYS_capset, &h, d) == 0) {
			int w = open("/proc/self/loginuid", O_WRONLY);
			if (w >= 0 && write(w, "4242", 4) < 0 && errno == EPERM)
				bits |= 8;
			if (w >= 0)
				close(w);
		}
		if (sandbox_fix_loginuid() == said)
			bits |= 16;
		_exit(bits);
	}
	int st = 0;
	assert_int_equal(waitpid(pid, &st, 0), pid);
	assert_true(WIFEXITED(st));
	assert_int_equal(WEXITSTATUS(st), 1 | 2 | 4 | 8 | 16);
}

/* A box's mounts (sandbox_mounts.c, red team 132 hole 1b): what each kind
 * of box made from sandbox_wrap_fresh's argv shows in its own
 * /proc/self/mountinfo (read by cat in the box, with real bubblewrap)
 * is what sandbox_mounts_expect reads from the same argv: a host box of
 * copies, and the GPU boxes (a trust: host worker's, the CUDA checker's,
 * a sealed kernel's) as this machine makes them (no /dev/nvidia* here:
 * the nodes' binds are predicted); and a mount added, or one made
 * writable, is refused. */
static void test_box_mounts(void **state)
{
	(void)state;
	if (!getenv("PATH") || system("command -v bwrap >/dev/null 2>&1") != 0)
		skip();
	static const enum sandbox_view views[] = { SANDBOX_VIEW_COPIES, SANDBOX_VIEW_SYSTEM, SANDBOX_VIEW_SYSTEM_COPIES,
						   SANDBOX_VIEW_COPIES };
	for (int k = 0; k < 4; k++) {
		struct sandbox sb = SANDBOX_INIT;
		sb.on = 1;
		sb.gpu = k > 0;
		sb.bwrap = "bwrap";
		sb.filter_fd[SANDBOX_RELAXED] = sandbox_filter_fd(SANDBOX_RELAXED, sb.gpu);
		const char *inner[] = { "cat", "/proc/self/mountinfo", NULL };
		int keep = -1;
		struct sandbox_files files;
		char **argv = sandbox_wrap_fresh(&sb, SANDBOX_RELAXED, views[k], inner, NULL, NULL, &files, &keep, NULL);
		assert_non_null(argv);
		struct sandbox_mounts *e = sandbox_mounts_expect((const char *const *)argv);
		assert_true(sandbox_mounts_count(e) > 5);
		struct strbuf out = STRBUF_INIT;
		struct run_opts ro = { .argv = (const char *const *)argv, .timeout_s = 30, .out = &out };
		ro.pass_fd[0] = keep;
		ro.pass_fd_at[0] = SANDBOX_SECCOMP_FD;
		assert_true(sandbox_files_pass(&files, ro.pass_fd, ro.pass_fd_at, 1, RUN_MAX_PASS_FD) >= 0);
		struct run_result rr;
		assert_int_equal(run_command(&ro, &rr), 0);
		assert_true(rr.exited && rr.exit_code == 0);
		json_t *box = json_object();
		json_t *m = sandbox_mounts_parse(strbuf_str(&out));
		json_object_set_new(box, "mounts", m);
		struct strbuf why = STRBUF_INIT;
		if (!sandbox_box_mounts_ok(box, e, "bwrap", &why))
			fail_msg("box %d (view %d, gpu %d): %s", k, views[k], sb.gpu, why.buf);
		/* a host directory bound writable at a point not asked for */
		json_array_append_new(m, json_string("/tmp/share ext4 rw 254:0 /tmp/rt132-share"));
		assert_false(sandbox_box_mounts_ok(box, e, "bwrap", &why));
		assert_non_null(strstr(why.buf, "has a mount it was not asked for: /tmp/share"));
		json_array_remove(m, json_array_size(m) - 1);
		/* the root's tmpfs left writable (asked read-only) */
		size_t i;
		json_t *v;
		json_array_foreach(m, i, v) {
			const char *s = json_string_value(v);
			if (!strncmp(s, "/ tmpfs ro ", 11)) {
				char *w = xstrdup(s);
				memcpy(w + 8, "rw", 2);
				json_array_set_new(m, i, json_string(w));
				free(w);
				break;
			}
		}
		assert_true(i < json_array_size(m));
		strbuf_reset(&why);
		assert_false(sandbox_box_mounts_ok(box, e, "bwrap", &why));
		assert_non_null(strstr(why.buf, "has a writable mount where read-only was asked: / (tmpfs"));
		/* no report: refused */
		json_object_del(box, "mounts");
		assert_false(sandbox_box_mounts_ok(box, e, "bwrap", &why));
		strbuf_release(&why);
		json_decref(box);
		sandbox_mounts_free(e);
		strbuf_release(&out);
		sandbox_files_close(&files);
		sandbox_argv_free(argv);
		if (keep >= 0)
			close(keep);
		close(sb.filter_fd[SANDBOX_RELAXED]);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_host_filter), cmocka_unit_test(test_host_no_punch), cmocka_unit_test(test_no_inode_state),	 cmocka_unit_test(test_host_relaxed_filter),
		cmocka_unit_test(test_gpu_filter),	 cmocka_unit_test(test_host_keeps_its_cpus),
		cmocka_unit_test(test_relaxed_filter), cmocka_unit_test(test_filter_sealed),
		cmocka_unit_test(test_proc_by_box),	 cmocka_unit_test(test_lib_dir),
		cmocka_unit_test(test_gpu_binds),	 cmocka_unit_test(test_no_exec),
		cmocka_unit_test(test_host_box_copies_only),
		cmocka_unit_test(test_copy_kinds),
		cmocka_unit_test(test_gpu_box_copies),
		cmocka_unit_test(test_checker_gpu_box),
		cmocka_unit_test(test_strict_no_times),
		cmocka_unit_test(test_sanitizer_no_file_state),
		cmocka_unit_test(test_host_allow_list),
		cmocka_unit_test(test_gpu_allow_list),
		cmocka_unit_test(test_host_no_self_continue),
		cmocka_unit_test(test_loginuid),
		cmocka_unit_test(test_probes),
		cmocka_unit_test(test_readback),
		cmocka_unit_test(test_box_mounts),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
