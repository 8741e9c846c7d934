/*
 * test_cuda_build.c - the CPU-side parts of the cuda backend, fed with real
 * nvcc 13.0 output captured into tests/fixtures/nvcc/: the ptxas -v report
 * parser, the resources summary, the build-failure classifier, the
 * `// evident:` directives, the arch flags and the device-code hash.
 * Runs from the repository root (make test-unit).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "backends/backend_cuda.h"
#include "base/util.h"

static char *fixture(const char *name)
{
	struct strbuf sb = STRBUF_INIT;
	char *path = xstrfmt("tests/fixtures/nvcc/%s", name);
	assert_int_equal(read_file(path, &sb), 0);
	free(path);
	return strbuf_detach(&sb, NULL);
}

static json_t *fn(json_t *fns, const char *name, const char *arch)
{
	size_t i;
	json_t *f;
	json_array_foreach(fns, i, f)
		if (!strcmp(json_string_value(json_object_get(f, "name")), name) &&
		    !strcmp(json_string_value(json_object_get(f, "arch")), arch))
			return f;
	return NULL;
}

static long long num(json_t *o, const char *key)
{
	json_t *v = json_object_get(o, key);
	assert_non_null(v);
	return json_integer_value(v);
}

static void test_ptxas_spills(void **state)
{
	char *log = fixture("spill-sm90.log");
	json_t *fns = cuda_parse_ptxas(log), *f;
	assert_int_equal(json_array_size(fns), 1);
	f = fn(fns, "_Z5spillPfi", "sm_90");
	assert_non_null(f);
	assert_true(json_is_true(json_object_get(f, "entry")));
	assert_int_equal(num(f, "registers"), 32);
	assert_int_equal(num(f, "stack_bytes"), 624);
	assert_int_equal(num(f, "spill_stores"), 392);
	assert_int_equal(num(f, "spill_loads"), 512);
	assert_int_equal(num(f, "smem_bytes"), 0);
	json_decref(fns);
	free(log);
}

static void test_ptxas_two_kernels_two_archs(void **state)
{
	char *log = fixture("two-kernels-sm80-sm90.log");
	json_t *fns = cuda_parse_ptxas(log), *f, *sum;
	/* first and second for sm_80 and sm_90, plus the non-inlined helper */
	f = fn(fns, "_Z5firstPf", "sm_80");
	assert_non_null(f);
	assert_int_equal(num(f, "registers"), 40);
	assert_int_equal(num(f, "smem_bytes"), 4096);
	assert_int_equal(num(f, "stack_bytes"), 128);
	assert_int_equal(num(f, "barriers"), 1);
	assert_int_equal(num(f, "cmem_bytes"), 360);
	f = fn(fns, "_Z6secondPfi", "sm_90");
	assert_non_null(f);
	assert_int_equal(num(f, "registers"), 8);
	assert_null(json_object_get(f, "cmem_bytes"));
	f = fn(fns, "_Z6helperPfi", "sm_90");
	assert_non_null(f);
	assert_true(json_is_false(json_object_get(f, "entry")));
	assert_int_equal(json_array_size(fns), 6);

	sum = cuda_resources_summary(fns);
	assert_int_equal(num(sum, "registers"), 40);
	assert_int_equal(num(sum, "smem_bytes"), 4096);
	assert_int_equal(num(sum, "stack_bytes"), 128);
	assert_int_equal(num(sum, "spill_stores"), 0);
	assert_ptr_equal(json_object_get(sum, "functions"), fns);
	json_decref(sum);
	json_decref(fns);
	free(log);
}

static void test_ptxas_failed_build_still_parsed(void **state)
{
	char *log = fixture("smem-over-sm90.log");
	json_t *fns = cuda_parse_ptxas(log);
	json_t *f = fn(fns, "_Z7bigsmemPf", "sm_90");
	assert_non_null(f);
	assert_int_equal(num(f, "smem_bytes"), 69632);
	json_decref(fns);
	free(log);
}

static void test_ptxas_empty(void **state)
{
	json_t *fns = cuda_parse_ptxas("");
	json_t *sum = cuda_resources_summary(fns);
	assert_int_equal(json_array_size(fns), 0);
	assert_null(json_object_get(sum, "registers"));
	json_decref(sum);
	json_decref(fns);
}

static void test_classify_smem(void **state)
{
	char *log = fixture("smem-over-sm90.log");
	char *why = cuda_classify_build_log(log);
	assert_non_null(why);
	assert_string_equal(why, "static shared memory over the limit in '_Z7bigsmemPf': "
				 "69632 bytes > 49152 max");
	free(why);
	free(log);
}

static void test_classify_syntax(void **state)
{
	char *log = fixture("syntax-error.log");
	char *why = cuda_classify_build_log(log);
	assert_non_null(why);
	assert_string_equal(why, "syntax.cu(1): error: identifier \"undefined_thing\" is undefined");
	free(why);
	free(log);
}

static void test_classify_wgmma_on_sm90(void **state)
{
	char *log = fixture("wgmma-needs-sm90a.log");
	char *why = cuda_classify_build_log(log);
	assert_non_null(why);
	/* the temporary PTX file's name is gone, the hint is there */
	assert_null(strstr(why, "tmpxft"));
	assert_non_null(strstr(why, "ptxas: Instruction 'wgmma.fence' not supported on .target 'sm_90'"));
	assert_non_null(strstr(why, "// evident: arch sm_90a"));
	free(why);
	free(log);
}

static void test_classify_other(void **state)
{
	char *why = cuda_classify_build_log("ptxas error   : Entry function 'k' uses too much local data "
					    "(0x100000 bytes, 0x80000 max)\n");
	assert_string_equal(why, "local memory over the limit in 'k': 1048576 bytes > 524288 max");
	free(why);
	why = cuda_classify_build_log("x\nptxas error   : too many resources requested for launch\n");
	assert_non_null(strstr(why, "too many resources requested"));
	free(why);
	why = cuda_classify_build_log("ptxas error   : Entry function 'k' with max regcount of 16 "
				      "calls function 'f' with regcount of 32\n");
	assert_non_null(strstr(why, "register limit: "));
	free(why);
	assert_null(cuda_classify_build_log("ptxas info    : 0 bytes gmem\n"));
	assert_null(cuda_classify_build_log(NULL));
}

static void test_directives(void **state)
{
	struct cuda_directives d = CUDA_DIRECTIVES_INIT;
	assert_int_equal(cuda_parse_directives("// a kernel\n"
					       "  // evident: libs cublas cudnn\n"
					       "//evident: arch sm_90a\n"
					       "int x; // evident: libs notme\n",
					       &d),
			 0);
	assert_string_equal(d.arch, "sm_90a");
	assert_int_equal(d.n_libs, 2);
	assert_string_equal(d.libs[0], "cublas");
	assert_string_equal(d.libs[1], "cudnn");
	assert_null(d.libs[2]);
	cuda_directives_release(&d);

	util_quiet = 1;
	assert_int_equal(cuda_parse_directives("// evident: libs ok ../evil\n", &d), -1);
	util_quiet = 0;
	assert_int_equal(d.n_libs, 1);
	assert_null(d.arch);
	cuda_directives_release(&d);
	cuda_directives_release(NULL);
}

/* One cuda_home_of serves the kernel build and the problems' GPU references. */
static void test_cuda_home_of(void **state)
{
	(void)state;
	const char *cases[][2] = { { "/usr/local/cuda-13.0/bin/nvcc", "/usr/local/cuda-13.0" },
				   { "/opt/nvcc", "/opt" },
				   { "nvcc", "/usr/local/cuda" } };
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char *h = cuda_home_of(cases[i][0]);
		assert_string_equal(h, cases[i][1]);
		free(h);
	}
}

/* A plain run pins its GPU by the UUID the driver gives its ordinal,
 * spelled as NVML spells it (NVML finds the node's minor by that text). */
static void test_uuid_text(void **state)
{
	(void)state;
	unsigned char b[16];
	char out[48];
	for (int i = 0; i < 16; i++)
		b[i] = (unsigned char)(i + 1);
	cuda_uuid_text(b, out);
	assert_string_equal(out, "GPU-01020304-0506-0708-090a-0b0c0d0e0f10");
	for (int i = 0; i < 16; i++)
		b[i] = (unsigned char)(0xf0 | i);
	cuda_uuid_text(b, out);
	assert_string_equal(out, "GPU-f0f1f2f3-f4f5-f6f7-f8f9-fafbfcfdfeff");
}

static void test_arch_flag(void **state)
{
	char *f = cuda_arch_flag("sm_90");
	assert_string_equal(f, "-arch=sm_90");
	free(f);
	f = cuda_arch_flag("sm_90a");
	assert_string_equal(f, "-gencode=arch=compute_90a,code=sm_90a");
	free(f);
	f = cuda_arch_flag("sm_100f");
	assert_string_equal(f, "-gencode=arch=compute_100f,code=sm_100f");
	free(f);
	assert_null(cuda_arch_flag("compute_90"));
	assert_null(cuda_arch_flag("sm_9"));
	assert_null(cuda_arch_flag("sm_90; rm -rf"));
	assert_null(cuda_arch_flag(NULL));
}

/* A stand-in for nvcc's fat binary: this test binary carries a section
 * of that name, so the hash must be exactly that of these bytes. */
__attribute__((section(".nv_fatbin"), used, aligned(8)))
static const char fake_fatbin[16] = "0123456789abcde";

static void test_device_code_hash(void **state)
{
	char hex[SHA256_HEX_LEN + 1], want[SHA256_HEX_LEN + 1];
	char path[] = "/tmp/evident-test-elf.XXXXXX";
	size_t bytes = 0;
	int fd;

	assert_int_equal(cuda_device_code_sha256("/proc/self/exe", hex, &bytes), 0);
	assert_int_equal(bytes, sizeof(fake_fatbin));
	sha256_hex(fake_fatbin, sizeof(fake_fatbin), want);
	assert_string_equal(hex, want);
	/* an ELF without device code */
	assert_int_equal(cuda_device_code_sha256("/bin/true", hex, NULL), 1);
	/* not an ELF at all */
	fd = mkstemp(path);
	assert_true(fd >= 0);
	assert_int_equal(write_all(fd, "not an elf, just text", 21), 0);
	close(fd);
	util_quiet = 1;
	assert_int_equal(cuda_device_code_sha256(path, hex, NULL), -1);
	util_quiet = 0;
	unlink(path);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ptxas_spills),
		cmocka_unit_test(test_ptxas_two_kernels_two_archs),
		cmocka_unit_test(test_ptxas_failed_build_still_parsed),
		cmocka_unit_test(test_ptxas_empty),
		cmocka_unit_test(test_classify_smem),
		cmocka_unit_test(test_classify_syntax),
		cmocka_unit_test(test_classify_wgmma_on_sm90),
		cmocka_unit_test(test_classify_other),
		cmocka_unit_test(test_directives),
		cmocka_unit_test(test_cuda_home_of),
		cmocka_unit_test(test_uuid_text),
		cmocka_unit_test(test_arch_flag),
		cmocka_unit_test(test_device_code_hash),
	};
	return cmocka_run_group_tests_name("cuda_build", tests, NULL, NULL);
}
