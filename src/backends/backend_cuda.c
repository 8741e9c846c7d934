/*
 * backend_cuda.c - the CUDA backend: probe, nvcc build recipe, the worker
 * that checks and times a kernel through the CUDA harness, and device
 * facts through NVML.
 *
 * The runner links no CUDA library.  probe() dlopen()s the driver
 * (libcuda.so.1) to ask for devices; the worker dlopen()s the harness
 * lib/libevident_cuda.so (src/backends/cuda/evident_cuda.h), which does every CUDA
 * call; device_info()/device_state() read NVML (gpu_nvml.c).  So a machine
 * without a driver runs host experiments and says clearly why CUDA ones
 * cannot run.
 *
 * Build: nvcc -O3 -shared -Xcompiler -fPIC -cudart shared <arch> -Xptxas -v
 * -Xlinker -s, through the content-hash cache (build.c).  The object is
 * linked stripped (no .symtab, .strtab or debug sections): nvcc names its
 * intermediate file after the process and the source
 * (tmpxft_<pid>_..._<name>.cudafe1.cpp, .symtab's STT_FILE symbol), so an
 * unstripped object differed from every other build of the same code and
 * told a trust: host kernel reading its own file on disk which copy it was;
 * stripped, two builds of one source, and a byte-identical copy under
 * another name, are one file (nvcc 13.0 here, attn_naive.cu, 2026-12-02),
 * whose hash the record keeps (code.file_sha256) for the code identity
 * (report/code_identity.c).  The arch is, in order: the
 * kernel's own `// evident: arch sm_90a` line, the spec's `arch:`, the
 * device's compute capability (NVML, else the driver API), else sm_90 with
 * a note in the record.  `// evident: libs cublas cudnn` adds -lcublas
 * -lcudnn.  After a build the ptxas report becomes info.resources and
 * info.binary_sha256 is the hash of the device code (see post_build for
 * why the .nv_fatbin section and not the whole .so).
 *
 * Worker: for each seed, fresh inputs (attn_fill_inputs, rounded to the
 * kernel's dtype), poisoned output, one launch, a GPU fp32 reference,
 * problem_check; then timing; then a re-check of what the timed launches
 * left.  Failures map to outcomes: a refused launch (bad configuration,
 * too much shared memory, out of resources) is launch_failed, a fault
 * (sticky error) is crashed with cudaGetErrorName, init() refusing is
 * init_failed, no device is no_device.
 */
#include <dlfcn.h>
#include <elf.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "backends/backend.h"
#include "backends/backend_cuda.h"
#include "backends/build.h"
#include "backends/cuda/evident_cuda.h"
#include "backends/gpu_nvml.h"
#include "backends/job.h"
#include "backends/problem.h"
#include "backends/cuda_worker.h"
#include "backends/protocol.h"
#include "base/elf.h"
#include "base/sandbox.h"
#include "base/util.h"

_Static_assert(POISON_F16 == 0x7e5bu && POISON_BF16 == 0x7fdeu && POISON_F32 == 0x7fc0deadu,
	       "harness.cu repeats the poison patterns of problem.h: keep them equal");

/* ---- finding the toolkit ------------------------------------------------ */

/* Absolute path of an executable in dir, or NULL.  Caller frees. */
static char *exe_in(const char *dir, const char *name)
{
	char *p = xstrfmt("%s/%s", dir, name);
	if (access(p, X_OK) == 0)
		return p;
	free(p);
	return NULL;
}

/* Declared in backend_cuda.h (sanitize.c finds compute-sanitizer with it). */
char *cuda_find_tool(const char *name)
{
	const char *env;
	char *p;

	if (!strcmp(name, "nvcc") && (env = getenv("NVCC")) && *env && access(env, X_OK) == 0)
		return xstrdup(env);
	if ((env = getenv("CUDA_HOME")) && *env) {
		char *bin = xstrfmt("%s/bin", env);
		p = exe_in(bin, name);
		free(bin);
		if (p)
			return p;
	}
	if ((env = getenv("PATH"))) {
		char *copy = xstrdup(env), *save = NULL;
		for (char *d = strtok_r(copy, ":", &save); d; d = strtok_r(NULL, ":", &save))
			if (*d && (p = exe_in(d, name))) {
				free(copy);
				return p;
			}
		free(copy);
	}
	return exe_in("/usr/local/cuda/bin", name);
}

/* $CUDA_HOME of an nvcc path (".../bin/nvcc" -> "..."), malloc'd. */
char *cuda_home_of(const char *nvcc)
{
	const char *slash = strrchr(nvcc, '/');
	char *home;
	if (!slash)
		return xstrdup("/usr/local/cuda");
	home = xstrndup(nvcc, (size_t)(slash - nvcc));
	slash = strrchr(home, '/');
	if (slash && !strcmp(slash, "/bin"))
		home[slash - home] = '\0';
	return home;
}

/* ---- the driver, for probe and the device's arch ------------------------ */

typedef int (*cu_init_fn)(unsigned);
typedef int (*cu_count_fn)(int *);
typedef int (*cu_attr_fn)(int *, int, int);
typedef int (*cu_errname_fn)(int, const char **);

/*
 * Ask the driver for the device count (and the compute capability of
 * device `dev` when cc_major is not NULL).  0, or -1 with the reason in why.
 */
static int driver_query(int dev, int *count, int *cc_major, int *cc_minor, struct strbuf *why)
{
	void *lib = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
	cu_init_fn cu_init;
	cu_count_fn cu_count;
	cu_attr_fn cu_attr;
	cu_errname_fn cu_errname;
	const char *ename = NULL;
	int r;

	if (!lib) {
		strbuf_addstr(why, "no CUDA driver (libcuda.so.1 not found)");
		return -1;
	}
	*(void **)&cu_init = dlsym(lib, "cuInit");
	*(void **)&cu_count = dlsym(lib, "cuDeviceGetCount");
	*(void **)&cu_attr = dlsym(lib, "cuDeviceGetAttribute");
	*(void **)&cu_errname = dlsym(lib, "cuGetErrorName");
	if (!cu_init || !cu_count || !cu_attr) {
		strbuf_addstr(why, "CUDA driver libcuda.so.1 lacks cuInit (broken driver install?)");
		return -1; /* the library stays loaded: unloading the driver is never safe */
	}
	r = cu_init(0);
	if (r) {
		if (cu_errname)
			cu_errname(r, &ename);
		strbuf_addf(why, "no CUDA device (cuInit = %d %s)", r, ename ? ename : "");
		rtrim(why->buf);
		return -1;
	}
	*count = 0;
	r = cu_count(count);
	if (r || *count == 0) {
		strbuf_addf(why, "no CUDA device (cuDeviceGetCount = %d)", *count);
		return -1;
	}
	if (cc_major) {
		/* CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR = 75, _MINOR = 76 */
		if (dev >= *count || cu_attr(cc_major, 75, dev) || cu_attr(cc_minor, 76, dev)) {
			strbuf_addf(why, "cannot read the compute capability of CUDA device %d", dev);
			return -1;
		}
	}
	return 0;
}

/*
 * Path of the harness, malloc'd: $EVIDENT_CUDA_HARNESS, else
 * <dir of this executable>/../lib/libevident_cuda.so (bin/ -> lib/,
 * build-san/bin/ -> build-san/lib/, dist/evident/bin -> dist/evident/lib),
 * else lib/libevident_cuda.so under the current directory (the repo root).
 * NULL if none exists.
 */
char *cuda_harness_path(void)
{
	const char *env = getenv("EVIDENT_CUDA_HARNESS");
	char exe[PATH_MAX];
	ssize_t n;

	if (env && *env)
		return xstrdup(env);
	n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (n > 0) {
		char *slash, *p;
		exe[n] = '\0';
		slash = strrchr(exe, '/');
		if (slash) {
			*slash = '\0';
			p = xstrfmt("%s/../lib/libevident_cuda.so", exe);
			if (path_exists(p))
				return p;
			free(p);
		}
	}
	if (path_exists("lib/libevident_cuda.so"))
		return realpath("lib/libevident_cuda.so", NULL);
	return NULL;
}

/*
 * What a CUDA worker dlopen()s, for a box of copies (backend.h box_loads):
 * the harness; the driver (libcuda.so.1, which the CUDA runtime opens)
 * and NVML (libnvidia-ml.so.1, gpu_nvml.c); CUPTI (libcupti.so.N of the
 * toolkit whose libcudart.so.N the harness names: harness.cu cupti_load),
 * each where the loader would find it from the harness (its RUNPATH, then
 * LD_LIBRARY_PATH and the system's directories).  A library not found is
 * left out: the worker then says it is missing, as outside a box.  Not the
 * driver's JIT compilers (libnvidia-ptxjitcompiler and its kin): a sealed
 * kernel's object must hold machine code for its GPU, and its planner and
 * worker refuse one that does not before its code runs (cuda_worker.c
 * machine_code; the worker loads those cubins alone), and an object that
 * loads a driver library is refused sealed (kexec.c
 * sealed_driver_library), so no box of copies holds one (red team 58).
 */
static char **cuda_box_loads(void)
{
	char *h = cuda_harness_path();
	if (!h)
		return NULL;
	/* and the decompressors of compressed fatbin entries (seal.c
	 * unpack_load): a cubin of the device's arch the box cannot read is
	 * refused (red team 72: dropped, its readable twin was replayed) */
	char *names[6] = { xstrdup("libcuda.so.1"), xstrdup("libnvidia-ml.so.1"), NULL, xstrdup("libzstd.so.1"),
			   xstrdup("liblz4.so.1"), NULL };
	struct elf_dyn d;
	char *why = NULL;
	if (elf_dyn_read(h, &d, &why) == 0) {
		for (char **n = d.needed; *n && !names[2]; n++)
			if (!strncmp(*n, "libcudart.so.", 13))
				names[2] = xstrfmt("libcupti.so.%s", *n + 13);
		elf_dyn_release(&d);
	}
	free(why);
	char **out = xcalloc(7, sizeof(char *));
	size_t k = 0;
	out[k++] = h;
	for (int i = 0; i < 5; i++) {
		char *p = names[i] ? sandbox_find_library(names[i], h) : NULL;
		if (p)
			out[k++] = p;
		free(names[i]);
	}
	return out;
}

static int cuda_probe(struct strbuf *why)
{
	int count = 0;
	char *h;

	if (driver_query(0, &count, NULL, NULL, why))
		return -1;
	h = cuda_harness_path();
	if (!h) {
		strbuf_addstr(why, "the CUDA harness lib/libevident_cuda.so is not built "
				   "(run make on a machine with nvcc, or make dist)");
		return -1;
	}
	free(h);
	return 0;
}

/* ---- source directives ---------------------------------------------------- */

void cuda_directives_release(struct cuda_directives *d)
{
	if (!d)
		return;
	free(d->arch);
	for (size_t i = 0; i < d->n_libs; i++)
		free(d->libs[i]);
	free(d->libs);
	d->arch = NULL;
	d->libs = NULL;
	d->n_libs = 0;
}

static int lib_name_ok(const char *s)
{
	if (!*s)
		return 0;
	for (; *s; s++)
		if (!(('a' <= *s && *s <= 'z') || ('A' <= *s && *s <= 'Z') ||
		      ('0' <= *s && *s <= '9') || *s == '_' || *s == '-' || *s == '+' || *s == '.'))
			return 0;
	return 1;
}

int cuda_parse_directives(const char *text, struct cuda_directives *d)
{
	const char *line = text;
	int rc = 0;

	d->libs = xcalloc(1, sizeof(char *));
	while (line && *line) {
		const char *end = strchr(line, '\n');
		size_t len = end ? (size_t)(end - line) : strlen(line);
		char *l = xstrndup(line, len), *p = l, *save = NULL, *kw, *tok;

		while (*p == ' ' || *p == '\t')
			p++;
		if (!strncmp(p, "//", 2)) {
			p += 2;
			while (*p == ' ' || *p == '\t')
				p++;
			if (!strncmp(p, "evident:", 8)) {
				p += 8;
				kw = strtok_r(p, " \t\r", &save);
				if (kw && !strcmp(kw, "libs")) {
					while ((tok = strtok_r(NULL, " \t\r,", &save))) {
						if (!lib_name_ok(tok)) {
							rc = error("'// evident: libs' names an odd library '%s'", tok);
							continue;
						}
						d->libs = xrealloc(d->libs, (d->n_libs + 2) * sizeof(char *));
						d->libs[d->n_libs++] = xstrdup(tok);
						d->libs[d->n_libs] = NULL;
					}
				} else if (kw && !strcmp(kw, "arch")) {
					tok = strtok_r(NULL, " \t\r", &save);
					if (tok) {
						free(d->arch);
						d->arch = xstrdup(tok);
					}
				}
			}
		}
		free(l);
		line = end ? end + 1 : NULL;
	}
	return rc;
}

char *cuda_arch_flag(const char *arch)
{
	const char *p;
	size_t digits = 0;
	char suffix = 0;

	if (!arch || strncmp(arch, "sm_", 3))
		return NULL;
	for (p = arch + 3; *p >= '0' && *p <= '9'; p++)
		digits++;
	if (digits < 2 || digits > 3)
		return NULL;
	if (*p == 'a' || *p == 'f')
		suffix = *p++;
	if (*p)
		return NULL;
	if (suffix)
		return xstrfmt("-gencode=arch=compute_%s,code=%s", arch + 3, arch);
	return xstrfmt("-arch=%s", arch);
}

/* ---- ptxas report ------------------------------------------------------------ */

static json_t *fn_find(json_t *fns, const char *name, const char *arch)
{
	size_t i;
	json_t *f;
	json_array_foreach(fns, i, f) {
		const char *n = json_string_value(json_object_get(f, "name"));
		const char *a = json_string_value(json_object_get(f, "arch"));
		if (n && !strcmp(n, name) && ((!a && !arch) || (a && arch && !strcmp(a, arch))))
			return f;
	}
	return NULL;
}

/* The quoted or bare word after `key` in line, malloc'd, or NULL. */
static char *word_after(const char *line, const char *key)
{
	const char *p = strstr(line, key), *e;
	if (!p)
		return NULL;
	p += strlen(key);
	while (*p == ' ')
		p++;
	if (*p == '\'') {
		p++;
		e = strchr(p, '\'');
	} else {
		e = p + strcspn(p, " \t\r,");
	}
	if (!e || e == p)
		return NULL;
	return xstrndup(p, (size_t)(e - p));
}

/* The number just before `unit` in s (e.g. "624 bytes stack frame"), or -1. */
static long long num_before(const char *s, const char *unit)
{
	const char *p = strstr(s, unit), *q;
	if (!p)
		return -1;
	q = p;
	while (q > s && q[-1] == ' ')
		q--;
	while (q > s && q[-1] >= '0' && q[-1] <= '9')
		q--;
	if (q == p || !(*q >= '0' && *q <= '9'))
		return -1;
	return strtoll(q, NULL, 10);
}

static void set_num(json_t *f, const char *key, long long v)
{
	if (f && v >= 0)
		json_object_set_new(f, key, json_integer(v));
}

json_t *cuda_parse_ptxas(const char *log)
{
	json_t *fns = json_array(), *cur = NULL;
	char *arch = NULL;
	const char *line = log;

	while (line && *line) {
		const char *end = strchr(line, '\n');
		char *l = xstrndup(line, end ? (size_t)(end - line) : strlen(line));
		char *name;

		if (strstr(l, "Compiling entry function") && (name = word_after(l, "entry function"))) {
			char *a = word_after(l, " for ");
			if (a) {
				free(arch);
				arch = a;
			}
			cur = fn_find(fns, name, arch);
			if (!cur) {
				cur = json_pack("{s:s, s:b}", "name", name, "entry", 1);
				if (arch)
					json_object_set_new(cur, "arch", json_string(arch));
				json_array_append_new(fns, cur);
			}
			json_object_set_new(cur, "entry", json_true());
			free(name);
		} else if (strstr(l, "Compiling") && strstr(l, " for '")) {
			/* "Compiling function 'f' for 'sm_90'" (non-entry, older ptxas) */
			char *a = word_after(l, " for ");
			if (a) {
				free(arch);
				arch = a;
			}
		} else if ((name = word_after(l, "Function properties for"))) {
			cur = fn_find(fns, name, arch);
			if (!cur) {
				cur = json_pack("{s:s, s:b}", "name", name, "entry", 0);
				if (arch)
					json_object_set_new(cur, "arch", json_string(arch));
				json_array_append_new(fns, cur);
			}
			free(name);
		} else if (cur && strstr(l, "bytes stack frame")) {
			set_num(cur, "stack_bytes", num_before(l, "bytes stack frame"));
			set_num(cur, "spill_stores", num_before(l, "bytes spill stores"));
			set_num(cur, "spill_loads", num_before(l, "bytes spill loads"));
		} else if (cur && strstr(l, "Used ") && strstr(l, " registers")) {
			set_num(cur, "registers", num_before(l, "registers"));
			set_num(cur, "barriers", num_before(l, "barriers"));
			set_num(cur, "smem_bytes", num_before(l, "bytes smem"));
			set_num(cur, "cmem_bytes", num_before(l, "bytes cmem[0]"));
			if (!json_object_get(cur, "smem_bytes"))
				json_object_set_new(cur, "smem_bytes", json_integer(0));
		}
		free(l);
		line = end ? end + 1 : NULL;
	}
	free(arch);
	return fns;
}

json_t *cuda_resources_summary(json_t *functions)
{
	static const char *const keys[] = { "registers", "smem_bytes", "spill_stores",
					    "spill_loads", "stack_bytes" };
	json_t *r = json_object(), *f;
	size_t i;

	json_array_foreach(functions, i, f) {
		if (!json_is_true(json_object_get(f, "entry")))
			continue;
		for (size_t k = 0; k < ARRAY_SIZE(keys); k++) {
			json_t *v = json_object_get(f, keys[k]), *have = json_object_get(r, keys[k]);
			if (json_is_integer(v) &&
			    (!have || json_integer_value(v) > json_integer_value(have)))
				json_object_set_new(r, keys[k], json_integer(json_integer_value(v)));
		}
	}
	json_object_set(r, "functions", functions);
	return r;
}

/* ---- failure classification -------------------------------------------------- */

static long long hex_or_dec(const char *s)
{
	return strtoll(s, NULL, 0);
}

/* Does line hold `word` followed by optional blanks and ':' ("error   :")? */
static int word_colon(const char *line, const char *word)
{
	for (const char *p = strstr(line, word); p; p = strstr(p + 1, word)) {
		const char *q = p + strlen(word);
		while (*q == ' ' || *q == '\t')
			q++;
		if (*q == ':')
			return 1;
	}
	return 0;
}

char *cuda_classify_build_log(const char *log)
{
	const char *p, *first_error = NULL, *first_fatal = NULL, *hint = "";
	int n_errors = 0;
	char *line, *out;

	if (!log)
		return NULL;
	/* "ptxas error   : Entry function 'f' uses too much shared data (0x11000 bytes, 0xc000 max)" */
	if ((p = strstr(log, "uses too much shared data")) || (p = strstr(log, "uses too much local data"))) {
		int shared = p[14] == 's';
		const char *ls = p;
		char *fn = NULL;
		const char *paren = strchr(p, '(');
		while (ls > log && ls[-1] != '\n')
			ls--;
		line = xstrndup(ls, strcspn(ls, "\n"));
		fn = word_after(line, "function");
		if (paren) {
			const char *mx = strstr(paren, ", ");
			long long used = hex_or_dec(paren + 1), max = mx ? hex_or_dec(mx + 2) : -1;
			out = xstrfmt("%s memory over the limit in '%s': %lld bytes > %lld max",
				      shared ? "static shared" : "local", fn ? fn : "?", used, max);
		} else {
			out = xstrfmt("%s memory over the limit: %s", shared ? "shared" : "local", line);
		}
		free(fn);
		free(line);
		return out;
	}
	if ((p = strstr(log, "too many resources"))) {
		const char *ls = p;
		while (ls > log && ls[-1] != '\n')
			ls--;
		line = xstrndup(ls, strcspn(ls, "\n"));
		out = xstrfmt("too many resources requested: %s", line);
		free(line);
		return out;
	}
	/* scan the lines: register limits first, then the first error, then the first fatal */
	for (p = log; *p;) {
		size_t len = strcspn(p, "\n");
		char *l = xstrndup(p, len);
		int is_err = word_colon(l, "error"), is_fatal = word_colon(l, "fatal");
		if ((is_err || is_fatal) &&
		    (strstr(l, "register") || strstr(l, "Register") || strstr(l, "regcount"))) {
			rtrim(l);
			out = xstrfmt("register limit: %s", l);
			free(l);
			return out;
		}
		if (is_err) {
			if (!first_error)
				first_error = p;
			n_errors++;
		} else if (is_fatal && !first_fatal) {
			first_fatal = p;
		}
		free(l);
		p += len;
		if (*p == '\n')
			p++;
	}
	if (!first_error)
		first_error = first_fatal;
	if (!first_error)
		return NULL;
	line = xstrndup(first_error, strcspn(first_error, "\n"));
	rtrim(line);
	/* "ptxas /tmp/tmpxft_..ptx, line 26; error   : X" -> "ptxas: X" (the
	 * temporary file's name changes on every build) */
	if (!strncmp(line, "ptxas ", 6) && (p = strstr(line, "; error"))) {
		const char *msg = strchr(p, ':');
		char *t = xstrfmt("ptxas: %s", msg ? msg + 2 : p);
		free(line);
		line = t;
	}
	if (strstr(line, "not supported on .target 'sm_") && !strstr(line, "a'"))
		hint = " (an arch-specific instruction: add `// evident: arch sm_90a` to the kernel)";
	if (n_errors > 1)
		out = xstrfmt("%s%s (and %d more error lines)", line, hint, n_errors - 1);
	else
		out = xstrfmt("%s%s", line, hint);
	free(line);
	return out;
}

/* ---- device-code hash -------------------------------------------------------- */

int cuda_device_code_sha256(const char *so_path, char hex[SHA256_HEX_LEN + 1],
			    size_t *section_bytes)
{
	struct strbuf sb = STRBUF_INIT;
	const Elf64_Ehdr *eh;
	const Elf64_Shdr *sh, *strtab;
	int rc = 1;

	if (read_file(so_path, &sb))
		return -1;
	eh = (const Elf64_Ehdr *)sb.buf;
	if (sb.len < sizeof(*eh) || memcmp(eh->e_ident, ELFMAG, SELFMAG) ||
	    eh->e_ident[EI_CLASS] != ELFCLASS64 || eh->e_shentsize != sizeof(Elf64_Shdr) ||
	    eh->e_shoff + (size_t)eh->e_shnum * sizeof(Elf64_Shdr) > sb.len ||
	    eh->e_shstrndx >= eh->e_shnum) {
		strbuf_release(&sb);
		return error("'%s' is not a 64-bit ELF shared object", so_path);
	}
	sh = (const Elf64_Shdr *)(sb.buf + eh->e_shoff);
	strtab = &sh[eh->e_shstrndx];
	for (unsigned i = 0; i < eh->e_shnum; i++) {
		const char *nm;
		if (sh[i].sh_name >= strtab->sh_size || strtab->sh_offset + strtab->sh_size > sb.len)
			continue;
		nm = sb.buf + strtab->sh_offset + sh[i].sh_name;
		if (strcmp(nm, ".nv_fatbin"))
			continue;
		if (sh[i].sh_type == SHT_NOBITS || sh[i].sh_offset + sh[i].sh_size > sb.len) {
			rc = error("'%s': section .nv_fatbin lies outside the file", so_path);
			break;
		}
		sha256_hex(sb.buf + sh[i].sh_offset, sh[i].sh_size, hex);
		if (section_bytes)
			*section_bytes = sh[i].sh_size;
		rc = 0;
		break;
	}
	strbuf_release(&sb);
	return rc;
}

/* ---- build -------------------------------------------------------------------- */

/*
 * build_run() calls post/classify without a context pointer; the facts of
 * the build in progress (chosen arch and why, libraries) reach post
 * through this.  The runner builds one variant at a time.
 */
static struct {
	const char *arch;
	const char *arch_source;
	const char *note;
	json_t *libs;
} cur_build;

/*
 * After a successful compile, in build_run's temporary directory: the ptxas
 * report becomes info.resources, and binary_sha256 is the SHA-256 of the
 * .nv_fatbin section of kernel.so.  Why that section: it is exactly the
 * device code the CUDA runtime registers and loads (cubin, plus PTX when
 * embedded); it does not change with host-side strings such as
 * compiled_params or with -D macros the device code never reads (checked
 * with nvcc 13.0: two builds differing only in an unused -D gave identical
 * sections and different .so files), so equal hashes across variants
 * prove that a parameter never reached the compiled kernel.  Reading the
 * section ourselves needs neither cuobjdump (absent on some build hosts)
 * nor a second -cubin compile (which doubles build time).
 */
static int post_build(const char *tmpdir, const char *log, json_t *info)
{
	json_t *fns = cuda_parse_ptxas(log ? log : "");
	char hex[SHA256_HEX_LEN + 1];
	size_t bytes = 0;
	char *so = xstrfmt("%s/kernel.so", tmpdir);
	int r = cuda_device_code_sha256(so, hex, &bytes);

	json_object_set_new(info, "resources", cuda_resources_summary(fns));
	json_decref(fns);
	if (r == 0) {
		json_object_set_new(info, "binary_sha256", json_string(hex));
		json_object_set_new(info, "binary_hashed",
				    json_pack("{s:s, s:I}", "section", ".nv_fatbin", "bytes",
					      (json_int_t)bytes));
	} else if (r == 1 && !sha256_file_hex(so, hex)) {
		/* no device code at all (a host-only object): hash the file */
		json_object_set_new(info, "binary_sha256", json_string(hex));
		json_object_set_new(info, "binary_hashed", json_pack("{s:s}", "section", "whole file"));
	}
	free(so);
	if (cur_build.arch)
		json_object_set_new(info, "arch", json_string(cur_build.arch));
	if (cur_build.arch_source)
		json_object_set_new(info, "arch_source", json_string(cur_build.arch_source));
	if (cur_build.note)
		json_object_set_new(info, "arch_note", json_string(cur_build.note));
	if (cur_build.libs)
		json_object_set(info, "libs", cur_build.libs);
	return r < 0 ? -1 : 0;
}

/* The device's own arch ("sm_90"), malloc'd, or NULL with why. */
static char *device_arch(int dev, struct strbuf *why)
{
	int ma = 0, mi = 0, count = 0;
	if (!gpu_nvml_compute_capability(dev, &ma, &mi) ||
	    !driver_query(dev, &count, &ma, &mi, why))
		return xstrfmt("sm_%d%d", ma, mi);
	return NULL;
}

static int cuda_build(const struct build_request *rq, struct build_result *res)
{
	struct cuda_directives dir = CUDA_DIRECTIVES_INIT;
	struct strbuf src = STRBUF_INIT, why = STRBUF_INIT;
	char *nvcc = cuda_find_tool("nvcc"), *home = NULL, *arch = NULL, *archflag = NULL;
	char *path, *rpath = NULL, *note = NULL;
	const char *arch_source;
	const char **flags = NULL;
	size_t nf = 0, first_owned = 0;
	struct build_recipe recipe;
	int rc = -1;

	if (!nvcc)
		return error("nvcc not found (set CUDA_HOME or NVCC, or put nvcc on PATH)");
	path = rq->kernel_path[0] == '/' || !rq->repo_root
		       ? xstrdup(rq->kernel_path)
		       : xstrfmt("%s/%s", rq->repo_root, rq->kernel_path);
	if (read_file(path, &src))
		goto out;
	if (cuda_parse_directives(src.buf ? src.buf : "", &dir))
		goto out;

	if (dir.arch) {
		arch = xstrdup(dir.arch);
		arch_source = "kernel directive";
	} else if (rq->arch && *rq->arch) {
		arch = xstrdup(rq->arch);
		arch_source = "spec";
	} else if ((arch = device_arch(0, &why))) {
		arch_source = "device";
	} else {
		arch = xstrdup("sm_90");
		arch_source = "fallback";
		note = xstrfmt("no device to read the arch from (%s): compiled for sm_90",
			       strbuf_str(&why));
		warning("%s", note);
	}
	archflag = cuda_arch_flag(arch);
	if (!archflag) {
		error("arch '%s' of '%s' (from the %s) is not of the form sm_NN or sm_NNa",
		      arch, rq->kernel_path, arch_source);
		goto out;
	}

	home = cuda_home_of(nvcc);
	rpath = xstrfmt("%s/lib64", home);
	flags = xcalloc(24 + dir.n_libs, sizeof(char *));
	flags[nf++] = "-O3";
	flags[nf++] = "-shared";
	flags[nf++] = "-Xcompiler";
	flags[nf++] = "-fPIC";
	/* no time of the build in the object (backend_host.c host_flags) */
	flags[nf++] = "-Xcompiler";
	flags[nf++] = "-Werror=date-time";
	flags[nf++] = "-cudart";
	flags[nf++] = "shared";
	flags[nf++] = archflag;
	flags[nf++] = "-Xptxas";
	flags[nf++] = "-v";
	/* stripped: one file for one code (the head of this file) */
	flags[nf++] = "-Xlinker";
	flags[nf++] = "-s";
	flags[nf++] = "-Xlinker";
	flags[nf++] = "-rpath";
	flags[nf++] = "-Xlinker";
	flags[nf++] = rpath;
	cur_build.libs = json_array();
	first_owned = nf; /* the -l flags below are ours to free */
	for (size_t i = 0; i < dir.n_libs; i++) {
		flags[nf++] = xstrfmt("-l%s", dir.libs[i]);
		json_array_append_new(cur_build.libs, json_string(dir.libs[i]));
	}
	flags[nf] = NULL;

	cur_build.arch = arch;
	cur_build.arch_source = arch_source;
	cur_build.note = note;
	recipe.compiler = nvcc;
	recipe.base_flags = flags;
	recipe.version_flag = "--version";
	recipe.post = post_build;
	recipe.classify = cuda_classify_build_log;
	rc = build_run(rq, &recipe, res);
	if (rc == 0 && res->info) {
		/* a cache hit skipped post_build: its info.json already has these */
		if (!json_object_get(res->info, "arch"))
			json_object_set_new(res->info, "arch", json_string(arch));
	}

out:
	for (size_t i = first_owned; flags && i < nf; i++)
		free((char *)flags[i]);
	free(flags);
	json_decref(cur_build.libs);
	memset(&cur_build, 0, sizeof(cur_build));
	cuda_directives_release(&dir);
	strbuf_release(&src);
	strbuf_release(&why);
	free(path);
	free(nvcc);
	free(home);
	free(arch);
	free(archflag);
	free(rpath);
	free(note);
	return rc;
}

/* ---- ASan builds (make SAN=1) ------------------------------------------------------ */

#if defined(__SANITIZE_ADDRESS__)
/*
 * The CUDA driver maps device memory into the address range ASan keeps as
 * its protected shadow gap, so a sanitized worker could not even create a
 * context: CUDA under ASan needs protect_shadow_gap=0.  And the driver,
 * runtime and cuBLAS keep allocations until the process ends, which LSan
 * would report as leaks (and fail the worker after its "done"); those
 * libraries' leaks are suppressed (and libgit2's pcre2 match data, below),
 * ours are still reported.  Both apply to
 * the whole sanitized binary, which is only ever a test build.
 *
 * In a host kernel's box there is no /proc (base/sandbox.h
 * SANDBOX_VIEW_COPIES_NO_PROC): the runtimes read ASAN_OPTIONS from
 * /proc/self/environ as they start, and LeakSanitizer lists the process's
 * threads in /proc/PID/task at exit (without it every worker ended
 * "LeakSanitizer has encountered a fatal error", status 1).  There the
 * options are those make test's SAN_ENV gives (Makefile: fatal signals
 * reach the process, the fault fixtures crash on purpose) with no leak
 * check; where /proc is there, the environment adds to these as before.
 */
const char *__asan_default_options(void);
const char *__asan_default_options(void)
{
	if (access("/proc/self/environ", F_OK) == 0)
		return "protect_shadow_gap=0";
	return "protect_shadow_gap=0:handle_segv=0:handle_sigbus=0:handle_abort=0:handle_sigfpe=0:"
	       "handle_sigill=0:allow_user_segv_handler=1:detect_leaks=0";
}

const char *__lsan_default_suppressions(void);
const char *__lsan_default_suppressions(void)
{
	/* and libgit2 1.5's diff of a work tree that holds a submodule
	 * leaves pcre2's match data unfreed inside the library
	 * (git_diff_tree_to_workdir_with_index -> pcre2_match_data_create_8,
	 * pcre2_match_8; t0309's run in a submodule).  By pcre2's library,
	 * whose frames end the fast unwinder's stack (no frame pointers
	 * there): evident calls no pcre2 itself, and a git object it forgets
	 * to free is allocated by libgit2, still reported */
	return "leak:libcuda.so\nleak:libcudart.so\nleak:libcublas.so\nleak:libcublasLt.so\n"
	       "leak:libnvidia-ml.so\nleak:libpcre2-8.so\n";
}
#endif

/* ---- device facts --------------------------------------------------------------- */

static json_t *cuda_device_info(int device)
{
	return gpu_nvml_info(device);
}

static json_t *cuda_device_state(int device)
{
	return gpu_nvml_state(device);
}

static int cuda_device_count(struct strbuf *why)
{
	int n = gpu_nvml_count();
	if (n >= 0)
		return n;
	if (driver_query(0, &n, NULL, NULL, why) < 0)
		return -1;
	return n;
}

/*
 * Pinned by UUID where NVML reads it: CUDA's own order of the devices
 * (fastest first by default) need not be NVML's, a UUID names one GPU
 * whatever the order.  Without NVML, by index in PCI bus order, which is
 * NVML's.
 */
static char *cuda_pin_device(int index, int *minor, const char **why)
{
	static char why_buf[256];
	char *uuid = gpu_nvml_uuid(index);
	char *val = uuid ? uuid : xstrfmt("%d", index);
	/* the one GPU node its boxes bind (base/sandbox.h): by the UUID, the
	 * GPU CUDA_VISIBLE_DEVICES names.  The variable stays the UUID: with
	 * one GPU's node in the box it names the one device the driver can
	 * open, whether the driver counts the others (then unopenable) or
	 * not, where an ordinal 0 would be right only in the second case. */
	*minor = uuid ? gpu_nvml_minor(uuid) : -1;
	if (*minor < 0) {
		snprintf(why_buf, sizeof(why_buf), "the slot's GPU %d has no minor number from NVML (%s)", index,
			 gpu_nvml_error());
		*why = why_buf;
	}
	if (setenv("CUDA_DEVICE_ORDER", "PCI_BUS_ID", 1) < 0 || setenv("CUDA_VISIBLE_DEVICES", val, 1) < 0) {
		free(val);
		error("cannot set CUDA_VISIBLE_DEVICES for GPU %d", index);
		return NULL;
	}
	char *out = xstrfmt("CUDA_VISIBLE_DEVICES=%s", val);
	free(val);
	return out;
}

/*
 * "GPU-xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx" (NVML's and nvidia-smi's
 * spelling) of the 16 bytes of a CUuuid, into out (at least 41 bytes).
 */
void cuda_uuid_text(const unsigned char b[16], char *out)
{
	static const char hex[] = "0123456789abcdef";
	char *o = out + sprintf(out, "GPU-");
	for (int i = 0; i < 16; i++) {
		if (i == 4 || i == 6 || i == 8 || i == 10)
			*o++ = '-';
		*o++ = hex[b[i] >> 4];
		*o++ = hex[b[i] & 15];
	}
	*o = 0;
}

typedef int (*cu_devget_fn)(int *, int);
typedef int (*cu_uuid_fn)(unsigned char *, int);

/* The UUID of CUDA's device `ordinal` as this process's environment
 * (CUDA_VISIBLE_DEVICES, CUDA_DEVICE_ORDER) numbers them, malloc'd, or
 * NULL with the reason in why (static text). */
static char *driver_uuid(int ordinal, const char **why)
{
	void *lib = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
	cu_init_fn cu_init;
	cu_devget_fn cu_devget;
	cu_uuid_fn cu_uuid;
	int dev = 0;
	unsigned char b[16];
	char text[48];
	if (!lib) {
		*why = "no CUDA driver (libcuda.so.1 not found)";
		return NULL;
	}
	*(void **)&cu_init = dlsym(lib, "cuInit");
	*(void **)&cu_devget = dlsym(lib, "cuDeviceGet");
	*(void **)&cu_uuid = dlsym(lib, "cuDeviceGetUuid_v2");
	if (!cu_uuid)
		*(void **)&cu_uuid = dlsym(lib, "cuDeviceGetUuid");
	if (!cu_init || !cu_devget || !cu_uuid) {
		*why = "the CUDA driver lacks cuDeviceGetUuid";
		return NULL; /* the library stays loaded: unloading the driver is never safe */
	}
	if (cu_init(0) || cu_devget(&dev, ordinal) || cu_uuid(b, dev)) {
		*why = "the CUDA driver cannot read the device's UUID";
		return NULL;
	}
	cuda_uuid_text(b, text);
	return xstrdup(text);
}

/*
 * A plain run's (and a Slurm task's) pin: the GPU is CUDA's device
 * `ordinal` under this process's environment, as the workers would
 * number it; found by its UUID, it becomes what every process started
 * from now on sees alone (CUDA_VISIBLE_DEVICES=<UUID>), as in a pool slot,
 * so that the box can bind its one node.  *index: its NVML index (for
 * device_info), or -1; *minor and *why as pin_device.  Returns what it
 * set, malloc'd, or NULL where the UUID cannot be read (*why says, and
 * nothing changed) or after error().
 */
static char *cuda_pin_ordinal(int ordinal, int *index, int *minor, const char **why)
{
	static char why_buf[256];
	char *uuid = driver_uuid(ordinal, why);
	*index = -1;
	*minor = -1;
	if (!uuid)
		return NULL;
	*index = gpu_nvml_index_of(uuid);
	*minor = gpu_nvml_minor(uuid);
	if (*minor < 0) {
		snprintf(why_buf, sizeof(why_buf), "the run's GPU %s has no minor number from NVML (%s)", uuid,
			 gpu_nvml_error());
		*why = why_buf;
	}
	if (setenv("CUDA_DEVICE_ORDER", "PCI_BUS_ID", 1) < 0 || setenv("CUDA_VISIBLE_DEVICES", uuid, 1) < 0) {
		error("cannot set CUDA_VISIBLE_DEVICES for GPU %s", uuid);
		free(uuid);
		*why = NULL;
		return NULL;
	}
	char *out = xstrfmt("CUDA_VISIBLE_DEVICES=%s", uuid);
	free(uuid);
	return out;
}

static const char *const cuda_dtypes[] = { "fp16", "bf16", "fp32", NULL };
static const char *const cuda_compilers[] = { "cc", "nvcc", NULL };

/* 1 or 0 as the state after the run says; -1 where it says nothing (no
 * state was read: the record's throttled is then null, not false) */
static int cuda_throttled(json_t *state)
{
	json_t *t = json_object_get(state, "throttled");
	return json_is_boolean(t) ? json_is_true(t) : -1;
}

const struct backend backend_cuda = {
	.name = "cuda",
	.source_ext = ".cu",
	.default_dtype = "fp16",
	.dtypes = cuda_dtypes,
	.compilers = cuda_compilers,
	.uses_gpu = 1,
	.default_repeats = 3,
	/* twice the largest L2 of a current GPU (B200: 126 MB) */
	.rotation_bytes = 256.0 * (1 << 20),
	.throttled = cuda_throttled,
	.worker = cuda_worker,
	.reference = cuda_reference,
	.probe = cuda_probe,
	.build = cuda_build,
	.device_info = cuda_device_info,
	.device_state = cuda_device_state,
	.device_count = cuda_device_count,
	.pin_device = cuda_pin_device,
	.pin_ordinal = cuda_pin_ordinal,
	.box_loads = cuda_box_loads,
};
