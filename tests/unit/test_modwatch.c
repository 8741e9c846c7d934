/*
 * test_modwatch.c - the sealed planner's watch over the modules its
 * process loads (backends/modwatch.h): an ELF cubin's extent and the names
 * its symbol table defines; and, over what nvcc makes of red team 74's
 * rt74_reg.cu (MODE 1, reg_slow, whose host code registers the knob image
 * of rt72_alt.cu ALT 1), the check the planner makes after its capture,
 * fed as CUPTI's MODULE_LOADED callback would feed it: nvcc's own cubin
 * (or the object's fatbin image, or its PTX) passes, the knob's cubin or
 * fatbin defining the same kernel name is refused naming the module and
 * the function, and what no cubin of the worker defines, or no load
 * defines, passes with a word in the log.  Skipped where there is no nvcc.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "backends/modwatch.h"
#include "backends/seal.h"
#include "base/runcmd.h"
/* red team 77's rewriter, as its rt77_hide.cu's init() runs it (its
 * error message's snprintf is the fixture's own, truncation and all) */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-truncation"
#include "../fixtures/adversary/cuda/rt77_pad.h"
#pragma GCC diagnostic pop

static const char *nvcc_path(void)
{
	const char *nvcc = getenv("NVCC");
	if (!nvcc || !*nvcc)
		nvcc = access("/usr/local/cuda/bin/nvcc", X_OK) ? "nvcc" : "/usr/local/cuda/bin/nvcc";
	return nvcc;
}

/* run argv (its output kept from the test's), 1 when it exited 0 */
static int ran_ok(const char *const *argv)
{
	struct run_opts o;
	memset(&o, 0, sizeof(o));
	o.argv = argv;
	o.timeout_s = 300;
	o.merge_stderr = 1;
	struct strbuf log = STRBUF_INIT;
	o.out = &log;
	struct run_result r;
	run_command(&o, &r);
	strbuf_release(&log);
	return r.started && r.exited && !r.exit_code;
}

/* what the tests share, built once: rt74_reg.cu MODE 1 as the backend
 * builds it, and rt72_alt.cu ALT 1 (the knob) as a cubin and a fatbin */
static struct {
	int tried, built;
	char dir[64];
	char *so;
	struct strbuf knob_cubin, knob_fatbin, other_cubin;
} fx;

static void build_fixtures(void)
{
	if (fx.tried)
		return;
	fx.tried = 1;
	snprintf(fx.dir, sizeof(fx.dir), "/tmp/evident-test-modwatch-XXXXXX");
	assert_non_null(mkdtemp(fx.dir));
	fx.so = xstrfmt("%s/r1.so", fx.dir);
	char *cub = xstrfmt("%s/knob.cubin", fx.dir), *fat = xstrfmt("%s/knob.fatbin", fx.dir),
	     *oth = xstrfmt("%s/other.cubin", fx.dir), *osrc = xstrfmt("%s/other.cu", fx.dir);
	const char *so[] = { nvcc_path(), "-O3", "-shared", "-Xcompiler", "-fPIC", "-cudart", "shared", "-arch=sm_90",
			     "-DMODE=1", "-o", fx.so, "tests/fixtures/adversary/cuda/rt74_reg.cu", NULL };
	const char *kc[] = { nvcc_path(), "-cubin", "-O3", "-arch=sm_90", "-DALT=1", "-o", cub,
			     "tests/fixtures/adversary/cuda/rt72_alt.cu", NULL };
	const char *kf[] = { nvcc_path(), "-fatbin", "-O3", "-arch=compute_90", "-code=sm_90", "-no-compress", "-DALT=1",
			     "-o", fat, "tests/fixtures/adversary/cuda/rt72_alt.cu", NULL };
	const char *oc[] = { nvcc_path(), "-cubin", "-O3", "-arch=sm_90", "-o", oth, osrc, NULL };
	FILE *f = fopen(osrc, "w");
	assert_non_null(f);
	/* a module of someone else's (the harness's, say): a kernel whose
	 * name has the plan's function's name inside it, no more */
	fputs("extern \"C\" __global__ void evc_rt72_rows_other(float *p) { p[threadIdx.x] = 1.0f; }\n", f);
	fclose(f);
	fx.built = ran_ok(so) && ran_ok(kc) && ran_ok(kf) && ran_ok(oc) && read_file(cub, &fx.knob_cubin) >= 0 &&
		   read_file(fat, &fx.knob_fatbin) >= 0 && read_file(oth, &fx.other_cubin) >= 0;
	unlink(cub);
	unlink(fat);
	unlink(oth);
	unlink(osrc);
	free(cub);
	free(fat);
	free(oth);
	free(osrc);
}

/* the object's device code, digested as the planner digests it: *fat
 * and *mc (freed by the caller) hold the images */
static void file_of(struct modwatch *mw, const void **im, size_t *ib, int *n, unsigned char **fat,
		    unsigned char **mc)
{
	char *why = NULL;
	*n = seal_fatbin_images(fx.so, fat, im, ib, 16, &why);
	assert_true(*n > 0);
	assert_null(why);
	const void *m[16];
	size_t mb[16];
	int k = seal_fatbin_machine_code(im, ib, *n, 9, 0, mc, m, mb, NULL, 0);
	assert_true(k > 0);
	/* nvcc's two sm_90 cubins: a 1608-byte image of its own (no names)
	 * and the kernel's */
	assert_int_equal(modwatch_file(mw, im, ib, *n, m, mb, k), 2);
}

/* the worker's cubin that defines rt72_rows */
static int rows_cubin(const struct modwatch *mw)
{
	for (int k = 0; k < mw->n_worker; k++)
		for (int j = 0; j < mw->worker[k].n_names; j++)
			if (!strcmp(mw->worker[k].names[j], "rt72_rows"))
				return k;
	fail();
	return -1;
}

static const char *const ROWS[] = { "rt72_rows" };

/* an ELF's extent and names: nvcc's cubin read whole, padding after it
 * left out, a cut one and a non-ELF not read */
static void test_elf(void **state)
{
	(void)state;
	build_fixtures();
	if (!fx.built)
		skip(); /* no nvcc here */
	const unsigned char *c = (const unsigned char *)fx.knob_cubin.buf;
	size_t n = fx.knob_cubin.len;
	char **names = NULL;
	int nn = 0;
	assert_int_equal(modwatch_elf(c, n, &names, &nn, NULL), n);
	int rows = 0;
	for (int k = 0; k < nn; k++) {
		rows += !strcmp(names[k], "rt72_rows");
		assert_null(strstr(names[k], ".text.")); /* section symbols are not names */
	}
	assert_int_equal(rows, 1);
	seal_names_free(names, nn);
	unsigned char *pad = xcalloc(n + 64, 1);
	memcpy(pad, c, n);
	assert_int_equal(modwatch_elf(pad, n + 64, NULL, NULL, NULL), n);
	assert_int_equal(modwatch_elf(pad, n - 1, NULL, NULL, NULL), 0);
	assert_int_equal(modwatch_elf((const unsigned char *)"not an ELF at all, no", 21, NULL, NULL, NULL), 0);
	free(pad);
}

/* nvcc's own device code, as the driver would hand it on, passes */
static void test_honest(void **state)
{
	(void)state;
	build_fixtures();
	if (!fx.built)
		skip();
	struct modwatch mw;
	modwatch_init(&mw);
	const void *im[16];
	size_t ib[16];
	int n;
	unsigned char *fat = NULL, *mc = NULL;
	file_of(&mw, im, ib, &n, &fat, &mc);
	/* the worker's cubin of nvcc's honest rt72_rows (red team 74: 6144 bytes) */
	int wk = rows_cubin(&mw);
	assert_int_equal(mw.worker[wk].hashed, 6144);
	struct strbuf log = STRBUF_INIT;
	char *why = NULL;
	/* nothing loaded: not checked, said */
	assert_int_equal(modwatch_check(&mw, ROWS, 1, "t", &log, &why), 0);
	assert_non_null(strstr(log.buf, "no module load seen defines rt72_rows: not checked"));
	/* the cubin itself, then with padding after it, then the whole image
	 * of .nv_fatbin as a payload, then its PTX entry alone, then someone
	 * else's module whose kernel's name holds the function's */
	modwatch_loaded(&mw, 3, mc + 0, 0); /* an empty payload: nothing to read */
	const struct modwatch_code *w = &mw.worker[wk];
	modwatch_loaded(&mw, 4, w->copy, w->hashed);
	unsigned char *pad = xcalloc(w->hashed + 32, 1);
	memcpy(pad, w->copy, w->hashed);
	modwatch_loaded(&mw, 5, pad, w->hashed + 32);
	modwatch_loaded(&mw, 6, im[0], ib[0]);
	int ptx = -1;
	for (int k = 0; k < mw.n_file && ptx < 0; k++)
		if (!mw.file[k].elf)
			ptx = k;
	assert_true(ptx >= 0); /* -arch=sm_90 keeps compute_90 PTX */
	modwatch_loaded(&mw, 7, mw.file[ptx].copy, mw.file[ptx].hashed);
	modwatch_loaded(&mw, 8, fx.other_cubin.buf, fx.other_cubin.len);
	strbuf_reset(&log);
	assert_int_equal(modwatch_check(&mw, ROWS, 1, "after the capture", &log, &why), 0);
	assert_null(why);
	assert_non_null(strstr(log.buf, "module 4, ELF, 6144 bytes, sha256 "));
	char *want = xstrfmt("defines rt72_rows: byte for byte the worker's cubin #%d", wk);
	assert_non_null(strstr(log.buf, want));
	free(want);
	assert_non_null(strstr(log.buf, "module 5, ELF, 6176 bytes (6144 hashed: the ELF's extent)"));
	assert_non_null(strstr(log.buf, "module 6 (entry 0 of a fatbin payload)"));
	assert_non_null(strstr(log.buf, "byte for byte the .nv_fatbin entry"));
	assert_non_null(strstr(log.buf, "module 7, not an ELF read here"));
	assert_non_null(strstr(log.buf, "module 8, ELF"));
	assert_null(strstr(log.buf, "MISMATCH"));
	assert_null(strstr(log.buf, "not checked"));
	/* a function no cubin of the worker defines: the worker's load
	 * decides (PTX the driver compiled) */
	const char *const other[] = { "evc_rt72_rows_other" };
	strbuf_reset(&log);
	assert_int_equal(modwatch_check(&mw, other, 1, "t", &log, &why), 0);
	assert_non_null(strstr(log.buf, "defines evc_rt72_rows_other, which no cubin the worker loads defines"));
	strbuf_release(&log);
	free(pad);
	free(fat);
	free(mc);
	modwatch_release(&mw);
}

/* red team 74's reg_slow: the knob's image, registered by the object's
 * host code, defines the plan's function: refused, as a cubin and as the
 * fatbin the runtime was handed, beside nvcc's own */
static void test_reg_slow(void **state)
{
	(void)state;
	build_fixtures();
	if (!fx.built)
		skip();
	for (int form = 0; form < 6; form++) {
		struct modwatch mw;
		modwatch_init(&mw);
		const void *im[16];
		size_t ib[16];
		int n;
		unsigned char *fat = NULL, *mc = NULL;
		file_of(&mw, im, ib, &n, &fat, &mc);
		int wk = rows_cubin(&mw);
		modwatch_loaded(&mw, 1, mw.worker[wk].copy, mw.worker[wk].hashed); /* nvcc's, as well */
		if (form == 0) {
			modwatch_loaded(&mw, 9, fx.knob_cubin.buf, fx.knob_cubin.len);
		} else if (form == 1) {
			modwatch_loaded(&mw, 9, fx.knob_fatbin.buf, fx.knob_fatbin.len);
		} else if (form >= 3) {
			/* red team 77: its name where this reading of the symbol
			 * table stopped (past 65,536 names), past the string
			 * table, unterminated in it; the driver reads on */
			static const int how[] = { RT77_PAD, RT77_OOB, RT77_SHORT };
			size_t rn = 0;
			char err[256];
			unsigned char *r = rt77_rewrite((const unsigned char *)fx.knob_cubin.buf, fx.knob_cubin.len,
							how[form - 3], "rt72_rows", &rn, err, sizeof(err));
			assert_non_null(r);
			modwatch_loaded(&mw, 9, r, rn);
			free(r);
		} else {
			/* not read as an ELF (its magic gone), its name in it */
			unsigned char *b = xmalloc(fx.knob_cubin.len);
			memcpy(b, fx.knob_cubin.buf, fx.knob_cubin.len);
			b[1] = 'X';
			modwatch_loaded(&mw, 9, b, fx.knob_cubin.len);
			free(b);
		}
		struct strbuf log = STRBUF_INIT;
		char *why = NULL;
		assert_int_equal(modwatch_check(&mw, ROWS, 1, "after the capture", &log, &why), 1);
		assert_non_null(why);
		char sha[SHA256_HEX_LEN + 1];
		const struct modwatch_code *k = &mw.loaded[mw.n_loaded - 1];
		sha256_hex(form == 0 ? fx.knob_cubin.buf : (const char *)k->copy, k->hashed, sha);
		if (form >= 3)
			assert_true(k->elf && k->partial);
		assert_string_equal(k->sha, sha);
		assert_non_null(strstr(why, "loaded module 9"));
		assert_non_null(strstr(why, sha));
		assert_non_null(strstr(why, "defines the plan's function rt72_rows"));
		assert_non_null(strstr(why, mw.worker[wk].sha));
		assert_non_null(strstr(why, "red team 74"));
		if (form == 0) {
			assert_non_null(strstr(why, "ELF, 10496 bytes"));
			assert_non_null(strstr(why, "first difference at byte"));
		}
		if (form == 1)
			assert_non_null(strstr(why, "(entry 0 of a fatbin payload)"));
		if (form == 2)
			assert_non_null(strstr(why, "not an ELF read here"));
		char *want = xstrfmt("defines rt72_rows: byte for byte the worker's cubin #%d", wk);
		assert_non_null(strstr(log.buf, want));
		free(want);
		assert_non_null(strstr(log.buf, "defines rt72_rows: MISMATCH"));
		print_message("form %d: %s\n", form, why);
		free(why);
		strbuf_release(&log);
		free(fat);
		free(mc);
		modwatch_release(&mw);
	}
}

static int teardown(void **state)
{
	(void)state;
	if (fx.so)
		unlink(fx.so);
	if (fx.tried)
		rmdir(fx.dir);
	free(fx.so);
	strbuf_release(&fx.knob_cubin);
	strbuf_release(&fx.knob_fatbin);
	strbuf_release(&fx.other_cubin);
	return 0;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_elf),
		cmocka_unit_test(test_honest),
		cmocka_unit_test(test_reg_slow),
	};
	return cmocka_run_group_tests(tests, NULL, teardown);
}
