/*
 * test_nvml.c - gpu_nvml on a machine without NVML: every call returns
 * NULL / -1 with a reason that names the library, and nothing crashes; the
 * throttle-reason names.  EVIDENT_NVML_LIB points at a library that cannot
 * exist, so this holds on GPU machines too.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "backends/backend.h"
#include "backends/gpu_nvml.h"

static int setup(void **state)
{
	setenv("EVIDENT_NVML_LIB", "/nonexistent/libnvidia-ml.so.1", 1);
	return 0;
}

static void test_missing_nvml(void **state)
{
	int ma = -1, mi = -1;
	assert_null(gpu_nvml_info(0));
	assert_non_null(strstr(gpu_nvml_error(), "NVML not available"));
	assert_non_null(strstr(gpu_nvml_error(), "/nonexistent/libnvidia-ml.so.1"));
	assert_null(gpu_nvml_state(0));
	assert_non_null(strstr(gpu_nvml_error(), "NVML not available"));
	assert_int_equal(gpu_nvml_compute_capability(0, &ma, &mi), -1);
	assert_int_equal(ma, -1);
}

static void test_backend_device_hooks_without_nvml(void **state)
{
	/* the runner calls these before and after every variant */
	assert_non_null(backend_cuda.device_info);
	assert_non_null(backend_cuda.device_state);
	assert_null(backend_cuda.device_info(0));
	assert_null(backend_cuda.device_state(0));
}

static int has(json_t *a, const char *name)
{
	size_t i;
	json_t *v;
	json_array_foreach(a, i, v)
		if (!strcmp(json_string_value(v), name))
			return 1;
	return 0;
}

static void test_throttle_names(void **state)
{
	/* idle (0x1) + SW power cap (0x4) + HW thermal (0x40) + an unknown bit */
	unsigned long long mask = 0x1ULL | 0x4ULL | 0x40ULL | (1ULL << 40);
	json_t *all = gpu_nvml_throttle_names(mask, 0), *bad = gpu_nvml_throttle_names(mask, 1);
	assert_int_equal(json_array_size(all), 4);
	assert_true(has(all, "gpu_idle"));
	assert_true(has(all, "sw_power_cap"));
	assert_true(has(all, "hw_thermal_slowdown"));
	assert_true(has(all, "unknown"));
	/* idle and application clocks are normal; only the distorting ones */
	assert_int_equal(json_array_size(bad), 2);
	assert_false(has(bad, "gpu_idle"));
	assert_true(has(bad, "sw_power_cap"));
	json_decref(all);
	json_decref(bad);
	all = gpu_nvml_throttle_names(0, 0);
	assert_int_equal(json_array_size(all), 0);
	json_decref(all);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_missing_nvml),
		cmocka_unit_test(test_backend_device_hooks_without_nvml),
		cmocka_unit_test(test_throttle_names),
	};
	return cmocka_run_group_tests_name("nvml", tests, setup, NULL);
}
