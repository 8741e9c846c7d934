/*
 * test_sigseal.c - unit tests of src/backends/sigseal.h, the CUDA
 * worker's guard against kernel code that runs on the harness thread from
 * a signal handler (red team 25's rt25_sig_sleeper): after
 * sigseal_block_all every signal but SIGKILL and SIGSTOP is blocked on the
 * calling thread, whatever the code before it unblocked; a signal aimed
 * at that thread (a timer's SIGEV_THREAD_ID, tgkill) waits and its
 * handler does not run; a fault still ends the process.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "backends/sigseal.h"

static volatile sig_atomic_t handled;

static void on_signal(int sig)
{
	(void)sig;
	handled++;
}

/* The kernel's view: 1 when sig is blocked on this thread. */
static int blocked(int sig)
{
	unsigned long long m = 0;
	assert_int_equal(sigseal_mask(&m), 0);
	return (int)((m >> (sig - 1)) & 1);
}

/* Code that unblocked everything and armed a handler (a kernel's
 * launch()) is undone: every catchable signal blocked, SIGKILL and
 * SIGSTOP as the kernel keeps them. */
static void test_blocks_all(void **state)
{
	(void)state;
	sigset_t none;
	sigemptyset(&none);
	assert_int_equal(pthread_sigmask(SIG_SETMASK, &none, NULL), 0);
	assert_false(blocked(SIGUSR1));
	assert_int_equal(sigseal_block_all(), 0);
	for (int sig = 1; sig < 65; sig++) {
		if (sig == SIGKILL || sig == SIGSTOP)
			assert_false(blocked(sig));
		else
			assert_true(blocked(sig));
	}
	assert_int_equal(pthread_sigmask(SIG_SETMASK, &none, NULL), 0);
}

/* A signal sent to this thread after the seal stays pending: its handler
 * runs only when the thread unblocks it (inside launch(), where what it
 * enqueues is launch()'s). */
static void test_handler_waits(void **state)
{
	(void)state;
	struct sigaction sa;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	assert_int_equal(sigaction(SIGRTMIN + 3, &sa, NULL), 0);
	handled = 0;
	assert_int_equal(sigseal_block_all(), 0);
	assert_int_equal(syscall(SYS_tgkill, getpid(), syscall(SYS_gettid), SIGRTMIN + 3), 0);
	for (int i = 0; i < 1000; i++)
		(void)getppid(); /* system calls: each a point a handler would run at */
	assert_int_equal(handled, 0);
	sigset_t one;
	sigemptyset(&one);
	sigaddset(&one, SIGRTMIN + 3);
	assert_int_equal(pthread_sigmask(SIG_UNBLOCK, &one, NULL), 0);
	assert_int_equal(handled, 1);
	sa.sa_handler = SIG_DFL;
	sigaction(SIGRTMIN + 3, &sa, NULL);
}

/* A fault under the seal is not held: the process ends by SIGSEGV (the
 * worker's crash stays `crashed`), even with a handler installed. */
static void test_fault_still_kills(void **state)
{
	(void)state;
	pid_t pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		struct sigaction sa;
		memset(&sa, 0, sizeof(sa));
		sa.sa_handler = on_signal;
		sigaction(SIGSEGV, &sa, NULL);
		sigseal_block_all();
		volatile uintptr_t addr = 8; /* through a volatile: no compiler sees the fault */
		*(volatile int *)addr = 1;
		_exit(0);
	}
	int st = 0;
	assert_int_equal(waitpid(pid, &st, 0), pid);
	assert_true(WIFSIGNALED(st));
	assert_int_equal(WTERMSIG(st), SIGSEGV);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_blocks_all),
		cmocka_unit_test(test_handler_waits),
		cmocka_unit_test(test_fault_still_kills),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
