/*
 * test_peaks.c - unit tests of data/gpu-peaks.yaml and its reader
 * (src/backends/peaks.c): NVML device names map to the right entry (and
 * look-alikes to none), dense peaks and bandwidths are the datasheet
 * figures, every entry has a source and a date, and a malformed table is
 * refused with the line and entry named.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "backends/peaks.h"
#include "base/util.h"

static void expect_peak(const char *gpu, const char *dtype, double tflops, double gbps)
{
	double tf, bw;
	const char *src;
	int rc = peak_lookup(gpu, dtype, &tf, &bw, &src);
	if (rc != 0 || !(isnan(tflops) ? isnan(tf) : tf == tflops) || bw != gbps)
		fprintf(stderr, "%s %s: rc %d tflops %g gbps %g, expected %g %g\n", gpu, dtype, rc, tf, bw,
			tflops, gbps);
	assert_int_equal(rc, 0);
	assert_true(isnan(tflops) ? isnan(tf) : tf == tflops);
	assert_true(bw == gbps);
	assert_non_null(src);
	assert_non_null(strstr(src, "https://"));
	assert_non_null(strstr(src, "(read 20"));
}

static void expect_unknown(const char *gpu)
{
	double tf = 0, bw = 0;
	const char *src = "x";
	assert_int_equal(peak_lookup(gpu, "fp16", &tf, &bw, &src), 1);
	assert_true(isnan(tf) && isnan(bw));
	assert_null(src);
}

static void test_nvml_names(void **state)
{
	(void)state;
	expect_peak("NVIDIA H100 80GB HBM3", "fp16", 989.5, 3350);
	expect_peak("NVIDIA H100 80GB HBM3", "fp32", 67, 3350);
	expect_peak("NVIDIA H100 80GB HBM3", "fp8", 1979, 3350);
	expect_peak("NVIDIA H100 80GB HBM3", "bfloat16", 989.5, 3350);
	expect_peak("NVIDIA H100 PCIe", "fp16", 756.5, 2000);
	expect_peak("NVIDIA H100 PCIe", "fp8", 1513, 2000);
	expect_peak("NVIDIA H200", "fp16", 989.5, 4800);
	expect_peak("NVIDIA H200", "fp8", 1979, 4800);
	expect_peak("NVIDIA A100-SXM4-80GB", "fp16", 312, 2039);
	expect_peak("NVIDIA A100-SXM4-40GB", "tf32", 156, 1555);
	expect_peak("NVIDIA A100 80GB PCIe", "fp32", 19.5, 1935);
	expect_peak("NVIDIA A100-PCIE-40GB", "bf16", 312, 1555);
	expect_peak("NVIDIA A100-SXM4-80GB", "fp8", NAN, 2039); /* no fp8 tensor cores */
	expect_peak("NVIDIA L4", "fp16", 121, 300);
	expect_peak("NVIDIA L4", "fp8", 242.5, 300);
	expect_peak("NVIDIA GeForce RTX 4090", "fp16", 165.2, 1008);
	expect_peak("NVIDIA GeForce RTX 4090", "fp32", 82.6, 1008);
	/* look-alikes the table does not describe get no peak, not a neighbour's */
	expect_unknown("NVIDIA H100 NVL");
	expect_unknown("NVIDIA H200 NVL");
	expect_unknown("NVIDIA GH200 480GB");
	expect_unknown("NVIDIA L40S");
	expect_unknown("NVIDIA L40");
	expect_unknown("NVIDIA GeForce RTX 4090 D");
	expect_unknown("NVIDIA GeForce RTX 4090 Laptop GPU");
	expect_unknown("Tesla V100-SXM2-16GB");
	expect_unknown(NULL);
	/* an unknown dtype is an error, not a miss */
	int saved = util_quiet;
	util_quiet = 1;
	assert_int_equal(peak_lookup("NVIDIA L4", "int8", NULL, NULL, NULL), -1);
	util_quiet = saved;
}

static void test_table_entries(void **state)
{
	(void)state;
	struct peak_table t = PEAK_TABLE_INIT;
	assert_int_equal(peak_table_load("data/gpu-peaks.yaml", &t), 0);
	assert_true(t.n >= 9);
	/* every entry is reachable: its own NVML-style name finds it first */
	const char *names[] = { "NVIDIA H100 80GB HBM3", "NVIDIA H100 PCIe", "NVIDIA H200",
				"NVIDIA A100-SXM4-80GB", "NVIDIA A100-SXM4-40GB", "NVIDIA A100 80GB PCIe",
				"NVIDIA A100-PCIE-40GB", "NVIDIA L4", "NVIDIA GeForce RTX 4090" };
	assert_int_equal(t.n, ARRAY_SIZE(names));
	for (size_t i = 0; i < t.n; i++) {
		const struct peak_entry *e = &t.e[i];
		assert_ptr_equal(peak_table_find(&t, names[i]), e);
		assert_true(e->gbps > 100);
		assert_true(e->tflops[PEAK_FP32] > 10 && e->tflops[PEAK_FP16] > e->tflops[PEAK_FP32]);
		assert_true(isnan(e->tflops[PEAK_FP8]) || e->tflops[PEAK_FP8] >= e->tflops[PEAK_FP16]);
		assert_int_equal(strlen(e->date), 10);
		assert_non_null(e->read_via);
	}
	peak_table_release(&t);
	peak_table_release(&t);
}

static void expect_bad_table(const char *yaml, const char *want)
{
	char path[] = "/tmp/evident-peaks-XXXXXX";
	int fd = mkstemp(path);
	assert_true(fd >= 0);
	assert_int_equal(write_all(fd, yaml, strlen(yaml)), 0);
	close(fd);
	struct peak_table t = PEAK_TABLE_INIT;
	char *errpath = xstrfmt("%s.err", path);
	FILE *saved = stderr, *f = fopen(errpath, "w+");
	assert_non_null(f);
	stderr = f;
	int rc = peak_table_load(path, &t);
	stderr = saved;
	struct strbuf msg = STRBUF_INIT;
	fflush(f);
	fclose(f);
	assert_int_equal(read_file(errpath, &msg), 0);
	if (!strstr(strbuf_str(&msg), want))
		fprintf(stderr, "got '%s', expected '%s'\n", strbuf_str(&msg), want);
	assert_int_equal(rc, -1);
	assert_non_null(strstr(strbuf_str(&msg), want));
	assert_int_equal(t.n, 0);
	strbuf_release(&msg);
	unlink(path);
	unlink(errpath);
	free(errpath);
}

static void test_bad_tables(void **state)
{
	(void)state;
	const char *ok_rest = "    tflops: {fp32: 1}\n    bandwidth_gbps: 10\n    source: s\n    date: d\n";
	char *y;
	expect_bad_table("gpus: [a\n", "not valid YAML");
	expect_bad_table("other: []\n", "expected a list under 'gpus:'");
	y = xstrfmt("gpus:\n  - model: X\n%s", ok_rest);
	expect_bad_table(y, ":2: entry 'X' needs 'match'");
	free(y);
	expect_bad_table("gpus:\n  - model: X\n    match: X\n    tflops: {fp4: 1}\n",
			 "entry 'X': unknown dtype 'fp4' in tflops");
	expect_bad_table("gpus:\n  - model: X\n    match: X\n    tflops: {fp32: -1}\n",
			 "tflops.fp32 must be a positive number");
	expect_bad_table("gpus:\n  - model: X\n    match: X\n    tflops: {fp32: 1}\n    source: s\n    date: d\n",
			 "entry 'X' needs 'bandwidth_gbps'");
	expect_bad_table("gpus:\n  - model: X\n    match: X\n    tflops: {fp32: 1}\n    bandwidth_gbps: 5\n",
			 "entry 'X' needs 'source' and 'date'");
	y = xstrfmt("gpus:\n  - model: X\n    match: [X, {a: b}]\n%s", ok_rest);
	expect_bad_table(y, "needs 'match'");
	free(y);
}

/* the host's bound comes from the CPU's own description, never 0 or a guess */
static void test_host_bound(void **state)
{
	(void)state;
	char src[160] = "";
	double g = peak_host_gflops(src, sizeof(src));
	if (isnan(g)) {
		assert_string_equal(src, ""); /* no /proc/cpuinfo: no floor, and says nothing */
		return;
	}
	assert_true(g > 1.0 && g < 1e6);
	assert_non_null(strstr(src, "from /proc/cpuinfo"));
	assert_non_null(strstr(src, "FLOP/cycle"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_host_bound),
		cmocka_unit_test(test_nvml_names),
		cmocka_unit_test(test_table_entries),
		cmocka_unit_test(test_bad_tables),
	};
	return cmocka_run_group_tests_name("peaks", tests, NULL, NULL);
}
