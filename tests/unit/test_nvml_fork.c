/*
 * test_nvml_fork.c - NVML in a process forked after the parent initialised
 * it (a pool slot, src/run/pool.c): gpu_nvml answers there as in the parent.
 * Before, every call in the child failed ("NVML has no GPU 0:
 * Uninitialized"): on an H200 pair each pool record had no GPU state and
 * its sandbox bound every GPU node instead of its slot's.  NVML is
 * build/tests/libfake_nvml.so (tests/unit/fake_nvml.c), which refuses a
 * forked process as the real library does, found beside this binary.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "backends/gpu_nvml.h"

static char lib[4096];

/* In a child: the UUID and minor number of GPU 1, as a pool slot pins it;
 * exits 0 when both are NVML's, else 1 after printing why. */
static void child_pin(void)
{
	char *uuid = gpu_nvml_uuid(1);
	if (!uuid || strcmp(uuid, "GPU-fake-1")) {
		fprintf(stderr, "child: uuid %s (%s)\n", uuid ? uuid : "(none)", gpu_nvml_error());
		_exit(1);
	}
	int m = gpu_nvml_minor(uuid);
	if (m != 1) {
		fprintf(stderr, "child: minor %d (%s)\n", m, gpu_nvml_error());
		_exit(1);
	}
	free(uuid);
	_exit(0);
}

static void test_forked_child_reads_nvml(void **state)
{
	(void)state;
	setenv("EVIDENT_NVML_LIB", lib, 1);
	/* the parent initialises NVML first, as the runner does before its slots */
	assert_int_equal(gpu_nvml_count(), 2);
	char *u0 = gpu_nvml_uuid(0);
	assert_string_equal(u0, "GPU-fake-0");
	free(u0);
	for (int gen = 0; gen < 2; gen++) { /* a child, and a child of a child */
		pid_t pid = fork();
		assert_true(pid >= 0);
		if (pid == 0) {
			if (gen == 1) { /* the slot's own fork */
				pid_t g = fork();
				if (g == 0)
					child_pin();
				int st = 0;
				_exit(g > 0 && waitpid(g, &st, 0) == g && WIFEXITED(st) ? WEXITSTATUS(st) : 2);
			}
			child_pin();
		}
		int st = 0;
		assert_int_equal(waitpid(pid, &st, 0), pid);
		assert_true(WIFEXITED(st));
		assert_int_equal(WEXITSTATUS(st), 0);
	}
	/* and the parent still answers */
	assert_int_equal(gpu_nvml_minor("GPU-fake-0"), 0);
}

int main(int argc, char **argv)
{
	(void)argc;
	char self[4096];
	snprintf(self, sizeof(self), "%s", argv[0]);
	snprintf(lib, sizeof(lib), "%s/libfake_nvml.so", dirname(self));
	if (access(lib, R_OK) != 0) {
		printf("[  SKIPPED ] test_nvml_fork: %s is not built (make test-build builds it)\n", lib);
		return 0;
	}
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_forked_child_reads_nvml),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
