/*
 * test_build.c - the build cache's count of compiler warnings
 * (build_count_warnings, backends/build.h), on gcc's output and on real
 * nvcc 13.0 output captured into tests/fixtures/nvcc/ (its front end's
 * "FILE(L): warning #N-D:" lines, repeated for the host and device passes,
 * and ptxas's "ptxas warning :" lines), what build_run leaves in the
 * build's info for the run record, and build_run's race with another
 * runner that publishes the same key first, and the toolchain manifest
 * a cache hit checks.  Runs from the repository
 * root (make test-unit).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <dirent.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "backends/build.h"
#include "base/util.h"

static char *fixture(const char *name)
{
	struct strbuf sb = STRBUF_INIT;
	char *path = xstrfmt("tests/fixtures/nvcc/%s", name);
	assert_int_equal(read_file(path, &sb), 0);
	free(path);
	return strbuf_detach(&sb, NULL);
}

/* gcc's two warnings for a kernel that forgot <string.h> (issue 23), with
 * the source lines and notes gcc prints around them */
static void test_gcc(void **state)
{
	(void)state;
	const char *log =
		"kernels/k.c: In function 'launch':\n"
		"kernels/k.c:9:9: warning: implicit declaration of function 'memset' [-Wimplicit-function-declaration]\n"
		"    9 |         memset(o, 0, n);\n"
		"      |         ^~~~~~\n"
		"kernels/k.c:2:1: note: include '<string.h>' or provide a declaration of 'memset'\n"
		"kernels/k.c:9:9: warning: incompatible implicit declaration of built-in function 'memset' "
		"[-Wbuiltin-declaration-mismatch]\r\n"
		"   12 |  puts(\"x.c:1:1: warning: not a warning, a source line\");\n"
		"cc1: warning: command-line option '-std=c++11' is valid for C++ but not for C\n";
	char *first;
	assert_int_equal(build_count_warnings(log, &first), 3);
	assert_string_equal(first, "kernels/k.c:9:9: warning: implicit declaration of function 'memset' "
				   "[-Wimplicit-function-declaration]");
	free(first);
}

static void test_none(void **state)
{
	(void)state;
	char *first = (char *)"x";
	assert_int_equal(build_count_warnings("", &first), 0);
	assert_null(first);
	assert_int_equal(build_count_warnings(NULL, &first), 0);
	assert_null(first);
	/* errors and ptxas's report are no warnings */
	char *log = fixture("syntax-error.log");
	assert_int_equal(build_count_warnings(log, &first), 0);
	assert_null(first);
	free(log);
	log = fixture("spill-sm90.log");
	assert_int_equal(build_count_warnings(log, &first), 0);
	free(log);
	const char *werror = "k.c:3:5: error: unused variable 'x' [-Werror=unused-variable]\n"
			     "cc1: all warnings being treated as errors\n";
	assert_int_equal(build_count_warnings(werror, &first), 0);
	assert_null(first);
}

/* nvcc repeats its front end's warnings (host pass, device pass): each
 * counts once; the host compiler's own warning is one more */
static void test_nvcc(void **state)
{
	(void)state;
	char *log = fixture("warnings-sm90.log");
	char *first;
	assert_int_equal(build_count_warnings(log, &first), 4);
	assert_string_equal(first, "warns.cu(6): warning #69-D: integer conversion resulted in truncation");
	free(first);
	free(log);
	log = fixture("ptxas-warn-spills-sm90.log");
	assert_int_equal(build_count_warnings(log, &first), 2);
	assert_string_equal(first,
			    "ptxas warning : For profile sm_90 adjusting per thread register count of 16 to lower "
			    "bound of 24");
	free(first);
	free(log);
}

static void test_long_line(void **state)
{
	(void)state;
	struct strbuf sb = STRBUF_INIT;
	strbuf_addstr(&sb, "t.cu(1): warning #1-D: ");
	for (int i = 0; i < 100; i++)
		strbuf_addstr(&sb, "template ");
	char *first;
	assert_int_equal(build_count_warnings(strbuf_str(&sb), &first), 1);
	assert_int_equal(strlen(first), 300);
	assert_string_equal(first + 297, "...");
	free(first);
	strbuf_release(&sb);
}

static void test_info(void **state)
{
	(void)state;
	const char *first = "x";
	json_t *info = json_pack("{s:{s:i, s:s}}", "warnings", "count", 2, "first", "k.c:1:1: warning: w");
	assert_int_equal(build_info_warnings(info, &first), 2);
	assert_string_equal(first, "k.c:1:1: warning: w");
	json_decref(info);
	info = json_object(); /* a cache entry from before warnings were counted */
	assert_int_equal(build_info_warnings(info, &first), 0);
	assert_null(first);
	json_decref(info);
}

/* ---- the race to publish a cache entry ----------------------------------- */

static const char *const race_flags[] = { "-O2", "-std=c11", "-shared", "-fPIC", NULL };
static const struct build_request *race_rq;

/* The other runner: while this one's compile sits in its temporary
 * directory (the recipe's post hook runs there), it builds and publishes
 * the same key, as a plain build (no hook, the same key). */
static int publish_first(const char *tmpdir, const char *log, json_t *info)
{
	(void)tmpdir;
	(void)log;
	(void)info;
	struct build_recipe r = { .compiler = "cc", .base_flags = race_flags, .version_flag = "--version" };
	struct build_result res = { 0 };
	assert_int_equal(build_run(race_rq, &r, &res), 0);
	assert_true(res.ok);
	assert_true(json_is_false(json_object_get(res.info, "cached")));
	build_result_release(&res);
	return 0;
}

static int rm_one(const char *path, const struct stat *sb, int flag, struct FTW *ftw)
{
	(void)sb;
	(void)flag;
	(void)ftw;
	return remove(path);
}

/* The entries of dir, less . and .. */
static int count_entries(const char *dir)
{
	DIR *d = opendir(dir);
	assert_non_null(d);
	int n = 0;
	for (struct dirent *e; (e = readdir(d));)
		n += strcmp(e->d_name, ".") && strcmp(e->d_name, "..");
	closedir(d);
	return n;
}

/*
 * Another runner publishes the key first (t0034's four writers race for it
 * now and then, so only some runs of that test reach this): the rename
 * into place fails, this build's directory is removed, and it takes the
 * published entry whole, its object and its info (a compiler need not be
 * bit-for-bit reproducible), recorded as not cached: it was compiled for
 * this run.  The next build of the key is a cache hit of that entry.
 */
static void test_publish_race(void **state)
{
	(void)state;
	char tmpl[] = "/tmp/evident-test-build-XXXXXX";
	char *root = mkdtemp(tmpl);
	assert_non_null(root);
	char *kdir = xstrfmt("%s/kernels", root);
	char *src = xstrfmt("%s/kernels/k.c", root);
	char *cache = xstrfmt("%s/cache", root);
	assert_int_equal(mkdir(kdir, 0755), 0);
	FILE *f = fopen(src, "w");
	assert_non_null(f);
	fputs("int evident_k(void) { return 1; }\n", f);
	assert_int_equal(fclose(f), 0);
	struct build_request rq = { .kernel_path = src, .repo_root = root, .cache_dir = cache };
	race_rq = &rq;
	struct build_recipe r = { .compiler = "cc", .base_flags = race_flags, .version_flag = "--version",
				  .post = publish_first };
	struct build_result res = { 0 };
	assert_int_equal(build_run(&rq, &r, &res), 0);
	assert_true(res.ok);
	assert_true(json_is_false(json_object_get(res.info, "cached")));
	assert_string_equal(json_string_value(json_object_get(res.info, "status")), "ok");
	/* the published entry's object, and nothing else left in the cache
	 * but the object named by its hash (obj/: publish_by_object), the
	 * entry's file under another name */
	assert_int_equal(count_entries(cache), 2);
	char *entry = xstrfmt("%s/%s", cache, json_string_value(json_object_get(res.info, "build_key")));
	char *in_entry = xstrfmt("%s/kernel.so", entry);
	char *so = xstrfmt("%s/obj/%s/kernel.so", cache, json_string_value(json_object_get(res.info, "so_sha256")));
	assert_string_equal(res.so_path, so);
	struct stat s1, s2;
	assert_int_equal(stat(in_entry, &s1), 0);
	assert_int_equal(stat(so, &s2), 0);
	assert_true(s1.st_ino == s2.st_ino && s1.st_dev == s2.st_dev);
	free(in_entry);
	build_result_release(&res);
	/* the next build of the key: a hit of that entry */
	r.post = NULL;
	struct build_result again = { 0 };
	assert_int_equal(build_run(&rq, &r, &again), 0);
	assert_true(again.ok);
	assert_true(json_is_true(json_object_get(again.info, "cached")));
	assert_string_equal(again.so_path, so);
	build_result_release(&again);
	assert_int_equal(nftw(root, rm_one, 16, FTW_DEPTH | FTW_PHYS), 0);
	free(so);
	free(entry);
	free(cache);
	free(src);
	free(kdir);
}


/*
 * The toolchain's files a build read (build_toolchain.h, red team 204):
 * a kernel that includes <stdio.h> has it among them with its hash, and
 * the C library it loads marked loaded; the entry's manifest is checked
 * on a hit, so one whose toolchain file no longer hashes as recorded is
 * stale and built afresh (an edited stdio.h, simulated by editing the
 * entry's record of it: a test cannot write /usr).
 */
static void test_toolchain_manifest(void **state)
{
	(void)state;
	char tmpl[] = "/tmp/evident-test-build-XXXXXX";
	char *root = mkdtemp(tmpl);
	assert_non_null(root);
	char *kdir = xstrfmt("%s/kernels", root);
	char *src = xstrfmt("%s/kernels/k.c", root);
	char *cache = xstrfmt("%s/cache", root);
	assert_int_equal(mkdir(kdir, 0755), 0);
	FILE *f = fopen(src, "w");
	assert_non_null(f);
	fputs("#include <stdio.h>\nint evident_k(void) { return puts(\"k\"); }\n", f);
	assert_int_equal(fclose(f), 0);
	struct build_request rq = { .kernel_path = src, .repo_root = root, .cache_dir = cache };
	struct build_recipe r = { .compiler = "cc", .base_flags = race_flags, .version_flag = "--version" };
	struct build_result res = { 0 };
	assert_int_equal(build_run(&rq, &r, &res), 0);
	assert_true(res.ok);
	json_t *tc = json_object_get(res.info, "toolchain");
	assert_true(json_is_object(tc));
	assert_int_equal(strlen(json_string_value(json_object_get(tc, "sha256"))), SHA256_HEX_LEN);
	int stdio = 0, libc = 0;
	size_t i;
	json_t *e;
	json_array_foreach(json_object_get(tc, "files"), i, e)
	{
		const char *path = json_string_value(json_object_get(e, "path"));
		char hex[SHA256_HEX_LEN + 1];
		assert_int_equal(sha256_file_hex(path, hex), 0);
		assert_string_equal(hex, json_string_value(json_object_get(e, "sha256")));
		stdio |= strstr(path, "/include/stdio.h") != NULL;
		libc |= strstr(path, "/libc.so.6") && json_is_true(json_object_get(e, "loaded"));
	}
	assert_true(stdio);
	assert_true(libc);
	/* the toolchain's files are not the kernel's sources */
	json_array_foreach(json_object_get(res.info, "sources"), i, e)
		assert_null(strstr(json_string_value(json_object_get(e, "path")), "stdio.h"));
	char *info_path = xstrfmt("%s/%s/info.json", cache, json_string_value(json_object_get(res.info, "build_key")));
	build_result_release(&res);
	struct build_result hit = { 0 };
	assert_int_equal(build_run(&rq, &r, &hit), 0);
	assert_true(json_is_true(json_object_get(hit.info, "cached")));
	build_result_release(&hit);
	/* stdio.h "changed": its recorded hash and stat no longer hold */
	json_error_t jerr;
	json_t *info = json_load_file(info_path, 0, &jerr);
	assert_non_null(info);
	json_array_foreach(json_object_get(json_object_get(info, "toolchain"), "files"), i, e)
		if (strstr(json_string_value(json_object_get(e, "path")), "/include/stdio.h")) {
			json_object_set_new(e, "sha256", json_string("00"));
			json_object_set_new(e, "stat", json_pack("[i, i, i, i, i]", 0, 0, 0, 0, 0));
		}
	assert_int_equal(json_dump_file(info, info_path, 0), 0);
	json_decref(info);
	struct build_result stale = { 0 };
	assert_int_equal(build_run(&rq, &r, &stale), 0);
	assert_true(stale.ok);
	assert_true(json_is_false(json_object_get(stale.info, "cached")));
	build_result_release(&stale);
	assert_int_equal(nftw(root, rm_one, 16, FTW_DEPTH | FTW_PHYS), 0);
	free(info_path);
	free(cache);
	free(src);
	free(kdir);
}

/*
 * The path a worker loads an object from is its object's own hash: two
 * kernel files, byte-identical under two names, built stripped (-s: no
 * .symtab, so no name of the source in the file, as backend_cuda.c links
 * CUDA objects), have two build keys (the key covers the file's name) and
 * one object, which both load from one path.  Before (the entry's path,
 * <cache>/<key>/kernel.so), a kernel could tell which copy it was from a
 * bit of its key, read in /proc/self/maps, while eval and the audit
 * weighed both as one code (predicted, 2026-12-03).
 */
static void test_object_path_by_content(void **state)
{
	(void)state;
	static const char *const strip_flags[] = { "-O2", "-std=c11", "-shared", "-fPIC", "-s", NULL };
	char tmpl[] = "/tmp/evident-test-build-XXXXXX";
	char *root = mkdtemp(tmpl);
	assert_non_null(root);
	char *kdir = xstrfmt("%s/kernels", root), *cache = xstrfmt("%s/cache", root);
	assert_int_equal(mkdir(kdir, 0755), 0);
	const char *names[] = { "k.c", "k_slow.c" };
	struct build_result res[2] = { { 0 }, { 0 } };
	struct build_recipe r = { .compiler = "cc", .base_flags = strip_flags, .version_flag = "--version" };
	for (int i = 0; i < 2; i++) {
		char *src = xstrfmt("%s/%s", kdir, names[i]);
		FILE *f = fopen(src, "w");
		assert_non_null(f);
		fputs("int evident_k(void) { return 1; }\n", f);
		assert_int_equal(fclose(f), 0);
		struct build_request rq = { .kernel_path = src, .repo_root = root, .cache_dir = cache };
		assert_int_equal(build_run(&rq, &r, &res[i]), 0);
		assert_true(res[i].ok);
		free(src);
	}
	assert_string_not_equal(json_string_value(json_object_get(res[0].info, "build_key")),
				json_string_value(json_object_get(res[1].info, "build_key")));
	assert_string_equal(json_string_value(json_object_get(res[0].info, "so_sha256")),
			    json_string_value(json_object_get(res[1].info, "so_sha256")));
	assert_string_equal(res[0].so_path, res[1].so_path);
	assert_null(strstr(res[0].so_path, json_string_value(json_object_get(res[0].info, "build_key"))));
	for (int i = 0; i < 2; i++)
		build_result_release(&res[i]);
	assert_int_equal(nftw(root, rm_one, 16, FTW_DEPTH | FTW_PHYS), 0);
	free(cache);
	free(kdir);
}

/* ---- the spec's flags by allow list (build_flags.c) --------------------- */

/* every flag list the repository's specs, docs and tests use, and the
 * forms the allow list names: each is taken whole */
static void test_flags_allowed(void **state)
{
	(void)state;
	const char *const gcc[][14] = {
		{ "-fopenmp", NULL },
		{ "-fno-strict-aliasing", "-O3", "-Ofast", "-g", "-ggdb3", "-march=x86-64-v3", "-mavx2", "-mno-fma", NULL },
		{ "-DRT37_TWICE", "-D", "X=1", "-UY", "-DF(x)=(x)", "-std=gnu11", "-Wall", "-Wextra", "-Werror",
		  "-Wno-unused-parameter", "-pedantic", NULL },
		{ "-L/tmp/rt72lib", "-Wl,--no-as-needed", "-lrt72pass", "-Wl,-rpath,/tmp/rt72lib", NULL },
		{ "-L/tmp/rt77lib", "-Wl,--whole-archive", "-lrt77pass", "-Wl,--no-whole-archive", NULL },
		{ "-L/tmp/rt77obj", "/tmp/rt77obj/rt77rows.o", "/x/libq.so.1", "/x/libq.a", NULL },
		{ "-I/tmp/rt72inc", "-isystem", "/opt/inc", "-I", "kernels", "-Lbuild/cache", "-L/etc", NULL },
		{ "-Wl,--no-as-needed", "-l:libhdf5_serial.so.103", "-ldl", "-l", "m", "-pthread", NULL },
		{ "-Wl,-soname,/tmp/rt54e/index", "-Wl,--disable-new-dtags", "-Wl,-rpath,/tmp/rt57e/$LIB:/x", NULL },
		{ "-Wl,-rpath,$ORIGIN", "-Xlinker", "-rpath", "-Xlinker", "/opt/lib", "-Wl,-z,now,-z,relro", NULL },
		{ "-Wl,--build-id=0x37a1", "-include", "problems/evident_focus.h", "-imacros", "problems/evident_focus.h",
		  NULL },
		{ "-ffast-math", "-fno-math-errno", "-ftree-vectorize", "-fno-tree-loop-distribute-patterns",
		  "-fvect-cost-model=unlimited", "-fvisibility=hidden", "--param", "max-unroll-times=8",
		  "-fopt-info-vec-missed", "-funroll-loops", "-fPIC", "-fno-builtin-memcpy", "-pipe", NULL },
	};
	for (size_t i = 0; i < ARRAY_SIZE(gcc); i++) {
		char *why = build_flags_refusal(gcc[i], BUILD_FLAGS_GCC, ".", "build/cache");
		if (why)
			fail_msg("gcc list %zu refused: %s", i, why);
	}
	const char *const nvcc[][12] = {
		{ "-rdc=true", "-lcudadevrt", NULL },
		{ "-lineinfo", NULL },
		{ "-arch=sm_90a", "-gencode=arch=compute_90,code=[sm_90,compute_90]", "--use_fast_math", "-O3", NULL },
		{ "-maxrregcount=64", "-Xptxas", "-v,-warn-spills", "-Xptxas", "--maxrregcount", "-Xptxas", "32",
		  NULL },
		{ "-Xcompiler", "-fopenmp,-O3", "-Xcompiler=-Wall", "-Xlinker", "-rpath,/opt/lib", "-std=c++17", NULL },
		{ "--expt-relaxed-constexpr", "-extended-lambda", "-res-usage", "-DBLOCK=128", "-I", "kernels", NULL },
		{ "-ftz=true", "-prec-div=false", "-fmad=true", "-Wno-deprecated-gpu-targets", "-cudart", "shared",
		  NULL },
	};
	for (size_t i = 0; i < ARRAY_SIZE(nvcc); i++) {
		char *why = build_flags_refusal(nvcc[i], BUILD_FLAGS_NVCC, ".", "build/cache");
		if (why)
			fail_msg("nvcc list %zu refused: %s", i, why);
	}
	assert_null(build_flags_refusal(NULL, BUILD_FLAGS_GCC, ".", NULL));
	assert_int_equal(build_flags_dialect_of("/usr/local/cuda/bin/nvcc"), BUILD_FLAGS_NVCC);
	assert_int_equal(build_flags_dialect_of("cc"), BUILD_FLAGS_GCC);
}

/* what runs a program, reads a file no key covers, or undoes the build's
 * own flags: red teams 72 (-B), 77 (@file), 78 (-fprofile-use, -dumpdir),
 * and the forms no list named (the brief's fifth form: -imacros of a file
 * outside the repository, -Wa, -Wp, pass-throughs, a version script, a
 * linker plug-in, -ccbin, -Xnvlink...) */
static void test_flags_refused(void **state)
{
	(void)state;
	/* the flags, then the one the refusal must name */
	const char *const gcc[][6] = {
		{ "-B/tmp/rt72B/", NULL, "-B/tmp/rt72B/" },
		{ "@/tmp/rt77B/opts", NULL, "@/tmp/rt77B/opts" },
		{ "-I/tmp/rt78p", "-dumpdir", "/tmp/rt78p/", NULL, "-dumpdir" },
		{ "-fprofile-use", NULL, "-fprofile-use" },
		{ "-fbranch-probabilities", NULL, "-fbranch-probabilities" },
		{ "-fauto-profile=/tmp/p", NULL, "-fauto-profile=/tmp/p" },
		{ "-wrapper", "/bin/sh", NULL, "-wrapper" },
		{ "-fplugin=/tmp/p.so", NULL, "-fplugin=/tmp/p.so" },
		{ "-specs=/tmp/s", NULL, "-specs=/tmp/s" },
		{ "--sysroot=/tmp", NULL, "--sysroot=/tmp" },
		{ "-fuse-ld=gold", NULL, "-fuse-ld=gold" },
		{ "-include", "/etc/passwd", NULL, "/etc/passwd" },
		{ "-imacros", "/tmp/x.h", NULL, "/tmp/x.h" },
		{ "-include", "build/cache/x.h", NULL, "build/cache/x.h" },
		{ "-iquote", "/tmp", NULL, "-iquote" },
		{ "-idirafter", "/tmp", NULL, "-idirafter" },
		{ "-fdebug-prefix-map=/a=/b", NULL, "-fdebug-prefix-map=/a=/b" },
		{ "-fsanitize-ignorelist=/tmp/l", NULL, "-fsanitize-ignorelist=/tmp/l" },
		{ "-fsanitize=address", NULL, "-fsanitize=address" },
		{ "-fself-test=/tmp", NULL, "-fself-test=/tmp" },
		{ "-fprofile-generate", NULL, "-fprofile-generate" },
		{ "-Wa,-I/tmp", NULL, "-Wa,-I/tmp" },
		{ "-Wp,-MD,/tmp/d", NULL, "-Wp,-MD,/tmp/d" },
		{ "-Xassembler", "--MD", NULL, "-Xassembler" },
		{ "-MF", "/tmp/d", NULL, "-MF" },
		{ "-Wl,--version-script=/tmp/v", NULL, "--version-script=/tmp/v" },
		{ "-Wl,--dynamic-list,/tmp/l", NULL, "--dynamic-list" },
		{ "-Wl,-T,/tmp/s.ld", NULL, "-T" },
		{ "-Wl,@/tmp/opts", NULL, "@/tmp/opts" },
		{ "-Xlinker", "--script=/tmp/s", NULL, "--script=/tmp/s" },
		{ "-Wl,--plugin,/tmp/p.so", NULL, "--plugin" },
		{ "-Wl,--audit=kernel.so", NULL, "--audit=kernel.so" },
		{ "-Wl,-L/tmp,-lx", NULL, "-L/tmp" },
		{ "-Wl,-R,/tmp/syms", NULL, "-R" },
		{ "-Wl,-rpath", NULL, "-rpath" },
		{ "-Xlinker", NULL, "-Xlinker" },
		{ "-D", NULL, "-D" },
		{ "-w", NULL, "-w" },
		{ "-Wno-date-time", NULL, "-Wno-date-time" },
		{ "-Wno-error=date-time", NULL, "-Wno-error=date-time" },
		{ "-x", "c", NULL, "-x" },
		{ "-o", "/tmp/o", NULL, "-o" },
		{ "extra.c", NULL, "extra.c" },
		{ "-l../../etc/x", NULL, "-l../../etc/x" },
		{ "-I=/inc", NULL, "-I=/inc" },
		{ "-march=../x", NULL, "-march=../x" },
		{ "-DX=1\n#include \"/etc/passwd\"", NULL, "-DX=1\n#include \"/etc/passwd\"" },
		{ "-save-temps", NULL, "-save-temps" },
		{ "-fdump-tree-all", NULL, "-fdump-tree-all" },
		{ "-fopt-info=/tmp/o", NULL, "-fopt-info=/tmp/o" },
		{ "-march=native", NULL, "-march=native" },
		{ "-O2", "-mtune=native", NULL, "-mtune=native" },
	};
	for (size_t i = 0; i < ARRAY_SIZE(gcc); i++) {
		size_t n = 0;
		while (gcc[i][n])
			n++;
		char *why = build_flags_refusal(gcc[i], BUILD_FLAGS_GCC, ".", "build/cache");
		if (!why)
			fail_msg("gcc list %zu ('%s') allowed", i, gcc[i][0]);
		char *want = xstrfmt("the flag '%s'", gcc[i][n + 1]);
		if (!strstr(why, want))
			fail_msg("gcc list %zu: the refusal does not name %s: %s", i, want, why);
		assert_non_null(strstr(why, "src/backends/build_flags.c"));
		free(want);
		free(why);
	}
	const char *const nvcc[][6] = {
		{ "-ccbin", "/tmp/gcc", NULL, "-ccbin" },
		{ "--compiler-bindir=/tmp", NULL, "--compiler-bindir=/tmp" },
		{ "-Xcompiler", "-B/tmp/x", NULL, "-B/tmp/x" },
		{ "-Xcompiler", "-fPIC,-include,/etc/passwd", NULL, "-include" },
		{ "-Xcompiler", "-I/tmp", NULL, "-I/tmp" },
		{ "-Xcompiler", "-Wno-error=date-time", NULL, "-Wno-error=date-time" },
		{ "-Xcompiler", "\"-B/tmp\"", NULL, "\"-B/tmp\"" },
		{ "--compiler-options=-wrapper,/bin/sh", NULL, "-wrapper" },
		{ "-Xnvlink", "-v", NULL, "-Xnvlink" },
		{ "-Xcudafe", "--diag_suppress=1", NULL, "-Xcudafe" },
		{ "-Xptxas", "--options-file,/tmp/o", NULL, "--options-file" },
		{ "-Xptxas", "-v", "-Xptxas", NULL, "-Xptxas" },
		{ "-Xlinker", "--version-script,/tmp/v", NULL, "--version-script" },
		{ "--linker-options", "-T/tmp/s", NULL, "-T/tmp/s" },
		{ "-optf", "/tmp/o", NULL, "-optf" },
		{ "--options-file", "/tmp/o", NULL, "--options-file" },
		{ "--dependency-output", "/tmp/d", NULL, "--dependency-output" },
		{ "-odir", "/tmp", NULL, "-odir" },
		{ "--keep", NULL, "--keep" },
		{ "-include", "/etc/passwd", NULL, "-include" },
		{ "-arch=sm_90/../x", NULL, "-arch=sm_90/../x" },
		{ "-w", NULL, "-w" },
		{ "-arch=native", NULL, "-arch=native" },
		{ "-Xcompiler", "-march=native", NULL, "-march=native" },
	};
	for (size_t i = 0; i < ARRAY_SIZE(nvcc); i++) {
		size_t n = 0;
		while (nvcc[i][n])
			n++;
		char *why = build_flags_refusal(nvcc[i], BUILD_FLAGS_NVCC, ".", "build/cache");
		if (!why)
			fail_msg("nvcc list %zu ('%s') allowed", i, nvcc[i][0]);
		char *want = xstrfmt("the flag '%s'", nvcc[i][n + 1]);
		if (!strstr(why, want))
			fail_msg("nvcc list %zu: the refusal does not name %s: %s", i, want, why);
		free(want);
		free(why);
	}
}

static char *write_file(const char *dir, const char *name, const char *text, mode_t mode)
{
	char *p = xstrfmt("%s/%s", dir, name);
	FILE *f = fopen(p, "w");
	assert_non_null(f);
	fputs(text, f);
	assert_int_equal(fclose(f), 0);
	assert_int_equal(chmod(p, mode), 0);
	return p;
}

/*
 * What build_run does with them: a refused flag is a failed build, not
 * compiled, its reason the refusal; the compiler's environment is PATH
 * and the locale alone (COMPILER_PATH and GCC_EXEC_PREFIX naming a
 * directory whose `as` fails and LIBRARY_PATH change nothing, and do not
 * change the key; another PATH is another key); a linker input outside
 * the toolchain that is a text linker script (INPUT(...)) fails the build.
 */
static void test_flags_build(void **state)
{
	(void)state;
	char tmpl[] = "/tmp/evident-test-flags-XXXXXX";
	char *root = mkdtemp(tmpl);
	assert_non_null(root);
	char *kdir = xstrfmt("%s/kernels", root), *bad = xstrfmt("%s/bad", root);
	char *cache = xstrfmt("%s/cache", root);
	assert_int_equal(mkdir(kdir, 0755), 0);
	assert_int_equal(mkdir(bad, 0755), 0);
	char *src = write_file(kdir, "k.c", "int evident_k(void) { return 1; }\n", 0644);
	free(write_file(bad, "as", "#!/bin/sh\necho 'evil as ran' >&2\nexit 1\n", 0755));
	free(write_file(bad, "libscript.so", "GROUP ( AS_NEEDED ( -lm ) )\n", 0644));
	struct build_request rq = { .kernel_path = src, .repo_root = root, .cache_dir = cache };
	struct build_recipe r = { .compiler = "cc", .base_flags = race_flags, .version_flag = "--version" };

	/* a refused flag: not compiled */
	const char *refused[] = { "-O2", "-B/tmp/x/", NULL };
	rq.extra_flags = refused;
	struct build_result res = { 0 };
	assert_int_equal(build_run(&rq, &r, &res), 0);
	assert_false(res.ok);
	assert_string_equal(json_string_value(json_object_get(res.info, "exit")), "refused before compiling");
	assert_non_null(strstr(json_string_value(json_object_get(res.info, "reason")), "the flag '-B/tmp/x/'"));
	build_result_release(&res);

	/* the environment: the compiler's programs are the toolchain's */
	rq.extra_flags = NULL;
	struct build_result plain = { 0 };
	assert_int_equal(build_run(&rq, &r, &plain), 0);
	assert_true(plain.ok);
	char *key = xstrdup(json_string_value(json_object_get(plain.info, "build_key")));
	build_result_release(&plain);
	char *keep_path = xstrdup(getenv("PATH"));
	setenv("COMPILER_PATH", bad, 1);
	char *gep = xstrfmt("%s/", bad);
	setenv("GCC_EXEC_PREFIX", gep, 1);
	setenv("LIBRARY_PATH", bad, 1);
	setenv("CPATH", bad, 1);
	assert_int_equal(nftw(cache, rm_one, 16, FTW_DEPTH | FTW_PHYS), 0); /* compile again */
	struct build_result env = { 0 };
	assert_int_equal(build_run(&rq, &r, &env), 0);
	if (!env.ok)
		fail_msg("the build read the runner's compiler variables: %s", env.log);
	assert_string_equal(json_string_value(json_object_get(env.info, "build_key")), key);
	build_result_release(&env);
	unsetenv("COMPILER_PATH");
	unsetenv("GCC_EXEC_PREFIX");
	unsetenv("LIBRARY_PATH");
	unsetenv("CPATH");
	char *other = xstrfmt("%s:/nonexistent-evident-dir", keep_path);
	setenv("PATH", other, 1);
	struct build_result path = { 0 };
	assert_int_equal(build_run(&rq, &r, &path), 0);
	assert_true(path.ok);
	assert_string_not_equal(json_string_value(json_object_get(path.info, "build_key")), key);
	build_result_release(&path);
	setenv("PATH", keep_path, 1);

	/* a kernel past -Werror=date-time (its own pragma) holds 1970, not
	 * the time of its build: SOURCE_DATE_EPOCH=0 */
	char *k2 = write_file(kdir, "k2.c",
			      "#pragma GCC diagnostic ignored \"-Wdate-time\"\n"
			      "const char *evident_when = \"when=\" __DATE__ \" \" __TIME__;\n",
			      0644);
	struct build_request rq2 = rq;
	rq2.kernel_path = k2;
	struct build_result dt = { 0 };
	assert_int_equal(build_run(&rq2, &r, &dt), 0);
	assert_true(dt.ok);
	struct strbuf obj = STRBUF_INIT;
	assert_int_equal(read_file(dt.so_path, &obj), 0);
	assert_non_null(memmem(obj.buf, obj.len, "when=Jan  1 1970 00:00:00", 25));
	strbuf_release(&obj);
	build_result_release(&dt);
	free(k2);

	/* a linker script in a flag directory */
	char *ldir = xstrfmt("-L%s", bad);
	const char *script[] = { ldir, "-lscript", NULL };
	rq.extra_flags = script;
	struct build_result ls = { 0 };
	assert_int_equal(build_run(&rq, &r, &ls), 0);
	assert_false(ls.ok);
	const char *why = json_string_value(json_object_get(ls.info, "reason"));
	if (!why || !strstr(why, "no ELF object or archive"))
		fail_msg("a linker script input was not refused: %s / %s", why ? why : "(no reason)", ls.log);
	build_result_release(&ls);

	assert_int_equal(nftw(root, rm_one, 16, FTW_DEPTH | FTW_PHYS), 0);
	free(ldir);
	free(other);
	free(keep_path);
	free(gep);
	free(key);
	free(src);
	free(cache);
	free(bad);
	free(kdir);
}


/* A precompiled header where the compiler searches (red team 125: gcc
 * compiles NAME.h.gch in place of NAME.h and its -MD list names neither;
 * a committed problems/math.h.gch changed rowsum's tolerance with every
 * recorded source unchanged): refused before compiling, naming the file,
 * beside the source or in a flag's directory; built once it is gone. */
static void test_pch_refused(void **state)
{
	(void)state;
	char tmpl[] = "/tmp/evident-test-pch-XXXXXX";
	char *root = mkdtemp(tmpl);
	assert_non_null(root);
	char *kdir = xstrfmt("%s/kernels", root), *inc = xstrfmt("%s/inc", root);
	char *cache = xstrfmt("%s/cache", root);
	assert_int_equal(mkdir(kdir, 0755), 0);
	assert_int_equal(mkdir(inc, 0755), 0);
	char *src = write_file(kdir, "k.c", "#include \"k.h\"\nint evident_k(void) { return K; }\n", 0644);
	free(write_file(kdir, "k.h", "#define K 1\n", 0644));
	char *gch = write_file(kdir, "k.h.gch", "not really a precompiled header\n", 0644);
	struct build_request rq = { .kernel_path = src, .repo_root = root, .cache_dir = cache };
	struct build_recipe r = { .compiler = "cc", .base_flags = race_flags, .version_flag = "--version" };
	struct build_result res = { 0 };
	assert_int_equal(build_run(&rq, &r, &res), 0);
	assert_false(res.ok);
	assert_string_equal(json_string_value(json_object_get(res.info, "exit")), "refused before compiling");
	assert_non_null(strstr(json_string_value(json_object_get(res.info, "reason")), "k.h.gch"));
	build_result_release(&res);
	/* in a flag's search directory (joined or apart) */
	assert_int_equal(unlink(gch), 0);
	free(gch);
	gch = write_file(inc, "stdio.h.gch", "x\n", 0644);
	char *iflag = xstrfmt("-I%s", inc);
	const char *joined[] = { iflag, NULL }, *apart[] = { "-isystem", inc, NULL };
	const char *const *forms[] = { joined, apart };
	for (int i = 0; i < 2; i++) {
		rq.extra_flags = forms[i];
		struct build_result fr = { 0 };
		assert_int_equal(build_run(&rq, &r, &fr), 0);
		assert_false(fr.ok);
		assert_non_null(strstr(json_string_value(json_object_get(fr.info, "reason")), "stdio.h.gch"));
		build_result_release(&fr);
	}
	/* below a searched directory (red team 127: <sub/fp.h> finds
	 * inc/sub/fp.h.gch), and clang's FILE.pch beside a forced include */
	assert_int_equal(unlink(gch), 0);
	free(gch);
	char *sub = xstrfmt("%s/sub", inc), *pre = xstrfmt("%s/pre", root);
	assert_int_equal(mkdir(sub, 0755), 0);
	assert_int_equal(mkdir(pre, 0755), 0);
	gch = write_file(sub, "fp.h.gch", "x\n", 0644);
	rq.extra_flags = joined;
	struct build_result deep = { 0 };
	assert_int_equal(build_run(&rq, &r, &deep), 0);
	assert_false(deep.ok);
	assert_non_null(strstr(json_string_value(json_object_get(deep.info, "reason")), "sub/fp.h.gch"));
	build_result_release(&deep);
	assert_int_equal(unlink(gch), 0);
	free(gch);
	char *ph = write_file(pre, "p.h", "#define P 1\n", 0644);
	gch = write_file(pre, "p.h.pch", "x\n", 0644);
	const char *forced[] = { "-include", ph, NULL };
	rq.extra_flags = forced;
	struct build_result pch = { 0 };
	assert_int_equal(build_run(&rq, &r, &pch), 0);
	assert_false(pch.ok);
	assert_non_null(strstr(json_string_value(json_object_get(pch.info, "reason")), "p.h.pch"));
	build_result_release(&pch);
	free(ph);
	free(sub);
	free(pre);
	/* gone: built */
	assert_int_equal(unlink(gch), 0);
	rq.extra_flags = NULL;
	struct build_result ok = { 0 };
	assert_int_equal(build_run(&rq, &r, &ok), 0);
	assert_true(ok.ok);
	build_result_release(&ok);
	assert_int_equal(nftw(root, rm_one, 16, FTW_DEPTH | FTW_PHYS), 0);
	free(iflag);
	free(gch);
	free(src);
	free(cache);
	free(inc);
	free(kdir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_gcc),
		cmocka_unit_test(test_none),
		cmocka_unit_test(test_nvcc),
		cmocka_unit_test(test_long_line),
		cmocka_unit_test(test_info),
		cmocka_unit_test(test_publish_race),
		cmocka_unit_test(test_toolchain_manifest),
		cmocka_unit_test(test_object_path_by_content),
		cmocka_unit_test(test_flags_allowed),
		cmocka_unit_test(test_flags_refused),
		cmocka_unit_test(test_flags_build),
		cmocka_unit_test(test_pch_refused),
	};
	return cmocka_run_group_tests_name("build", tests, NULL, NULL);
}
