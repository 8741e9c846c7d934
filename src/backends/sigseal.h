/*
 * sigseal.h - block every signal on the calling thread by a system call
 * of its own, for the CUDA worker's harness thread (C and CUDA C++).
 *
 * A trust: host kernel's host code runs in the timing worker.  The
 * harness files each CUDA call it sees by where it was made: inside
 * launch() (the sample's own work), the harness's anchor, or another
 * thread (stray: someone else's work, escaped_work).  The harness thread's
 * own calls outside those windows are its flushes, uploads and events, and
 * are filed nowhere.  A signal handler runs on the thread it interrupts:
 * red team 25's rt25_sig_sleeper armed a timer aimed at the harness thread
 * from launch() and, in the handler, launched a grid while the harness
 * waited for its next go; the grid did half the rows before the start
 * event or after the stop event, and its calls, made on the harness
 * thread outside every window, were nobody's.  So the worker blocks every
 * signal on that thread before the kernel's object is loaded, and again
 * after each return from the kernel's code (init, launch): whatever
 * launch() unblocks is blocked before the harness makes its next call.
 * A handler can then run there only inside launch(), where what it
 * enqueues is launch()'s own.
 *
 * The call is the rt_sigprocmask system call itself, not libc's wrapper:
 * a wrapper reached through the GOT is code a kernel in the same process
 * could have replaced.  Faults (SIGSEGV, SIGBUS, SIGFPE, SIGILL) are still
 * delivered while blocked: the kernel unblocks a fault's signal and, the
 * handler reset, ends the process, as a crash should.
 *
 * Returns 0, or -1 where the system call failed (the harness goes on:
 * a worker that cannot block its signals is no worse than before).
 */
#ifndef EVIDENT_SIGSEAL_H
#define EVIDENT_SIGSEAL_H

#include <signal.h>
#include <sys/syscall.h>
#include <unistd.h>

static inline int sigseal_block_all(void)
{
	/* the kernel's sigset: 64 bits on Linux, every bit set (SIGKILL and
	 * SIGSTOP cannot be blocked, and the kernel drops them from the set) */
	unsigned long long all = ~0ULL;
	long r;
#if defined(__x86_64__)
	register long r10 __asm__("r10") = (long)sizeof(all);
	__asm__ volatile("syscall"
			 : "=a"(r)
			 : "0"((long)SYS_rt_sigprocmask), "D"((long)SIG_SETMASK), "S"(&all), "d"(0L), "r"(r10)
			 : "rcx", "r11", "memory");
#elif defined(__aarch64__)
	register long x8 __asm__("x8") = (long)SYS_rt_sigprocmask;
	register long x0 __asm__("x0") = (long)SIG_SETMASK;
	register long x1 __asm__("x1") = (long)&all;
	register long x2 __asm__("x2") = 0;
	register long x3 __asm__("x3") = (long)sizeof(all);
	__asm__ volatile("svc 0" : "+r"(x0) : "r"(x8), "r"(x1), "r"(x2), "r"(x3) : "memory");
	r = x0;
#else
	r = syscall(SYS_rt_sigprocmask, SIG_SETMASK, &all, NULL, sizeof(all));
#endif
	return r == 0 ? 0 : -1;
}

/* The calling thread's blocked set as the kernel has it (a test's check):
 * 0 and *out, or -1. */
static inline int sigseal_mask(unsigned long long *out)
{
	return syscall(SYS_rt_sigprocmask, SIG_BLOCK, NULL, out, sizeof(*out)) == 0 ? 0 : -1;
}

#endif
