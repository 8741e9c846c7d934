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
 * Build: nvcc -O3 -shared -Xcompiler -fPIC -cudart shared <arch> -Xptxas -v,
 * through the content-hash cache (build.c).  The arch is, in order: the
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
#include "backends/problem.h"
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
static char *cuda_home_of(const char *nvcc)
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
static char *harness_path(void)
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

static int cuda_probe(struct strbuf *why)
{
	int count = 0;
	char *h;

	if (driver_query(0, &count, NULL, NULL, why))
		return -1;
	h = harness_path();
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
	flags[nf++] = "-cudart";
	flags[nf++] = "shared";
	flags[nf++] = archflag;
	flags[nf++] = "-Xptxas";
	flags[nf++] = "-v";
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

/* ---- worker ------------------------------------------------------------------- */

struct worker {
	const struct job *job;
	const struct evc_api *api;
	struct evc_ctx *ctx;
	const struct ev_kernel_desc *desc;
	struct ev_launch l;
	struct attn_shape shape;
	int dtype;
	size_t numel;
	float *h_q, *h_k, *h_v, *h_ref;
	void *h_out;
	char err[1024];
};

/* Emit a failure for CUDA error `code` seen during `phase`. */
static int fail_cuda(struct worker *w, int code, const char *phase)
{
	int kind = w->api->kind(code);
	const char *outcome = kind == EVC_LAUNCH	   ? "launch_failed"
			      : kind == EVC_NO_DEVICE ? "no_device"
						      : "crashed";
	struct strbuf why = STRBUF_INIT;
	int count = 0;
	json_t *m;

	/* "driver version is insufficient" is what the runtime says when there
	 * is no driver at all: ask the driver itself for a plainer reason */
	if (kind == EVC_NO_DEVICE && driver_query(0, &count, NULL, NULL, &why) == 0)
		strbuf_reset(&why);
	m = json_pack("{s:s, s:s, s:s, s:s, s:s, s:s, s:i}", "msg", "failure", "outcome", outcome,
		      "error", w->api->error_name(code), "reason",
		      why.len ? why.buf : w->api->error_string(code), "phase", phase, "detail",
		      w->err, "code", code);
	strbuf_release(&why);
	fprintf(stderr, "evident worker: %s during %s: %s\n", outcome, phase, w->err);
	emit_json(m);
	return 1;
}

static int fail_plain(const char *outcome, const char *error_name, const char *reason)
{
	fprintf(stderr, "evident worker: %s: %s\n", outcome, reason);
	emit_failure(outcome, error_name, reason);
	return 1;
}

static json_t *device_json(const struct evc_device_info *d, const char *harness)
{
	char cc[16];
	snprintf(cc, sizeof(cc), "%d.%d", d->cc_major, d->cc_minor);
	return json_pack("{s:i, s:s, s:s, s:s, s:s, s:i, s:I, s:I, s:I, s:I, s:I, s:I, s:I, s:I,"
			 " s:i, s:i, s:b, s:i, s:i, s:i, s:s}",
			 "index", d->device, "name", d->name, "uuid", d->uuid, "pci_bus_id",
			 d->pci_bus_id, "compute_capability", cc, "sm_count", d->sm_count,
			 "l2_bytes", (json_int_t)d->l2_bytes, "persisting_l2_max_bytes",
			 (json_int_t)d->persisting_l2_max_bytes, "smem_per_block_bytes",
			 (json_int_t)d->smem_per_block, "smem_per_block_optin_bytes",
			 (json_int_t)d->smem_per_block_optin, "smem_per_sm_bytes",
			 (json_int_t)d->smem_per_sm, "regs_per_block", (json_int_t)d->regs_per_block,
			 "regs_per_sm", (json_int_t)d->regs_per_sm, "memory_total_bytes",
			 (json_int_t)d->global_mem_bytes, "max_threads_per_block",
			 d->max_threads_per_block, "warp_size", d->warp_size, "ecc_enabled",
			 d->ecc_enabled, "cuda_driver_version", d->driver_version,
			 "cuda_runtime_version", d->runtime_version, "cublas_version",
			 d->cublas_version, "harness", harness);
}

/* Download the output and check it against h_ref.  0 or a CUDA error. */
static int check_output(struct worker *w, const char *phase, unsigned long long seed,
			int *pass)
{
	struct check_result cr;
	int rc = w->api->download(w->ctx, w->h_out, w->l.outputs[0].data,
				  w->numel * dtype_size(w->dtype), w->err, sizeof(w->err));
	if (rc)
		return rc;
	memset(&cr, 0, sizeof(cr));
	problem_check(w->h_out, w->dtype, NULL, w->h_ref, w->numel, w->job->atol, w->job->rtol, &cr);
	emit_check(phase, seed, &cr);
	*pass = cr.pass;
	return 0;
}

/*
 * The GPU's fp32 reference is itself checked against the float64 CPU
 * reference (problem.c) on the first seed, when the shape is small enough
 * for the CPU to redo it in about a second (B*H*S*S*D <= 2^26 multiply-adds).
 * The result goes into the record (correctness.reference_check).
 */
#define REF_CHECK_MAX_MACS (1LL << 26)
static void cross_check_reference(struct worker *w)
{
	const struct attn_shape *sh = &w->shape;
	if (sh->B * sh->H * sh->S * sh->S * sh->D > REF_CHECK_MAX_MACS) {
		emit_json(json_pack("{s:s, s:b, s:s}", "msg", "reference_check", "done", 0, "why",
				    "shape too large for the float64 CPU reference"));
		return;
	}
	double *ref64 = xmalloc(w->numel * sizeof(double));
	attn_reference_cpu(sh, w->h_q, w->h_k, w->h_v, ref64);
	double num = 0, den = 0, max_abs = 0;
	for (size_t i = 0; i < w->numel; i++) {
		double d = fabs((double)w->h_ref[i] - ref64[i]);
		max_abs = d > max_abs ? d : max_abs;
		num += d * d;
		den += ref64[i] * ref64[i];
	}
	free(ref64);
	emit_json(json_pack("{s:s, s:b, s:f, s:f, s:s}", "msg", "reference_check", "done", 1,
			    "max_abs_diff", max_abs, "rel_l2", den > 0 ? sqrt(num / den) : sqrt(num),
			    "against", "float64 CPU reference (problem.c)"));
}

static int run_seed(struct worker *w, unsigned long long seed, int *pass)
{
	const struct evc_api *a = w->api;
	int rc;
	int round_to = (w->dtype == EV_F16 || w->dtype == EV_BF16) ? w->dtype : EV_F32;

	attn_fill_inputs(&w->shape, seed, round_to, w->h_q, w->h_k, w->h_v);
	if ((rc = a->upload_floats(w->ctx, w->l.inputs[0].data, w->dtype, w->h_q, w->numel, w->err,
				   sizeof(w->err))) ||
	    (rc = a->upload_floats(w->ctx, w->l.inputs[1].data, w->dtype, w->h_k, w->numel, w->err,
				   sizeof(w->err))) ||
	    (rc = a->upload_floats(w->ctx, w->l.inputs[2].data, w->dtype, w->h_v, w->numel, w->err,
				   sizeof(w->err))))
		return fail_cuda(w, rc, "upload");
	if ((rc = a->reference_attn(w->ctx, w->shape.B, w->shape.H, w->shape.S, w->shape.D,
				    w->l.scale, w->h_q, w->h_k, w->h_v, w->h_ref, w->err,
				    sizeof(w->err))))
		return fail_cuda(w, rc, "reference");
	if (seed == w->job->seed0)
		cross_check_reference(w);
	if ((rc = a->poison(w->ctx, w->l.outputs[0].data, w->dtype, w->numel, w->err,
			    sizeof(w->err))))
		return fail_cuda(w, rc, "poison");
	if ((rc = a->launch_sync(w->ctx, w->desc, &w->l, w->err, sizeof(w->err))))
		return fail_cuda(w, rc, "check");
	if ((rc = check_output(w, "check", seed, pass)))
		return fail_cuda(w, rc, "check");
	return 0;
}

/*
 * The v1 sampling policy on the harness's v2 sample callback (a stopgap
 * until the shared sampler): warm up for warmup_ms of wall time (at least
 * one sample), then take `samples` samples, or adaptively stop once
 * stdev/mean <= stdrel over at least min_seconds of sampled time; stop
 * after max_seconds once 10 samples (or `samples`) are in.  Samples are
 * the event times per launch.
 */
struct v1_sampler {
	double warmup_ms, stdrel, min_seconds, max_seconds;
	int samples, min_n;
	double t0;          /* start of the phase (mono_now) */
	double *v;          /* xrealloc'd, freed by run_timing */
	int n, cap;
	double mean, m2;    /* Welford */
	double sum_ms;      /* sampled time, all batch launches */
	int converged, capped;
};

static double v1_stdrel(const struct v1_sampler *p)
{
	if (p->n < 2 || p->mean <= 0)
		return INFINITY;
	return sqrt(p->m2 / (p->n - 1)) / p->mean;
}

static int v1_on_sample(void *ctx, const struct evc_sample *s)
{
	struct v1_sampler *p = ctx;
	double now = mono_now(), d;

	if (s->warmup) {
		if (s->index == 0)
			p->t0 = now - s->wall_us * 1e-6;
		if ((now - p->t0) * 1e3 < p->warmup_ms)
			return 0;
		p->t0 = now;
		return EVC_STOP;
	}
	if (p->n == p->cap) {
		p->cap = p->cap ? 2 * p->cap : 1024;
		p->v = xrealloc(p->v, (size_t)p->cap * sizeof(double));
	}
	p->v[p->n++] = s->event_us;
	d = s->event_us - p->mean;
	p->mean += d / p->n;
	p->m2 += d * (s->event_us - p->mean);
	p->sum_ms += s->event_us * s->batch * 1e-3;
	if (p->samples > 0) {
		if (p->n >= p->samples) {
			p->converged = 1;
			return EVC_STOP;
		}
	} else if (p->n >= 10 && p->sum_ms * 1e-3 >= p->min_seconds && v1_stdrel(p) <= p->stdrel) {
		p->converged = 1;
		return EVC_STOP;
	}
	if (now - p->t0 >= p->max_seconds && p->n >= p->min_n) {
		p->capped = 1;
		return EVC_STOP;
	}
	return 0;
}

static int run_timing(struct worker *w)
{
	const struct job *j = w->job;
	struct evc_timing_opts o;
	struct evc_timing_result r;
	struct v1_sampler p;
	json_t *method, *samples;
	int rc;
	const char *cache = j->cache && *j->cache ? j->cache : "cold";

	memset(&p, 0, sizeof(p));
	p.warmup_ms = j->warmup_ms >= 0 ? j->warmup_ms : 25;
	p.samples = j->samples > 0 ? j->samples : 0;
	p.stdrel = j->stdrel > 0 ? j->stdrel : 0.005;
	p.min_seconds = j->min_seconds >= 0 ? j->min_seconds : 0.5;
	p.max_seconds = j->max_seconds > 0 ? j->max_seconds : 15;
	p.min_n = p.samples > 0 ? (p.samples < 10 ? p.samples : 10) : 10;
	p.t0 = mono_now();

	/* one input set, the outputs in w->l, events behind the blocking kernel */
	memset(&o, 0, sizeof(o));
	o.cold = strcmp(cache, "hot") != 0;
	o.batch = j->batch > 1 ? j->batch : 1;
	o.scramble_seed = j->seed0;
	o.clock = EVC_CLOCK_EVENTS;
	o.block = 1;
	/* a safety net only: the policy above stops first */
	o.max_seconds = p.warmup_ms * 1e-3 + 2 * p.max_seconds + 30;
	o.on_sample = v1_on_sample;
	o.cb_ctx = &p;
	rc = w->api->time_kernel(w->ctx, w->desc, &w->l, &o, &r, w->err, sizeof(w->err));
	if (rc) {
		free(p.v);
		return fail_cuda(w, rc, "timing");
	}
	if (r.capped)
		p.capped = 1;
	method = json_pack("{s:s, s:s, s:f, s:f, s:I, s:s, s:s, s:i, s:f, s:f, s:b, s:b, s:I, s:f,"
			   " s:f, s:f, s:i}",
			   "clock", "cuda_events", "cache", o.cold ? "cold" : "hot", "warmup_ms",
			   p.warmup_ms, "warmup_ms_done", r.warmup_seconds * 1e3, "warmup_launches",
			   (json_int_t)r.warmup_launches, "mode", p.samples <= 0 ? "adaptive" : "fixed",
			   "launch", r.graph ? "graph" : "stream", "batch", r.batch,
			   "stdrel_target", p.samples <= 0 ? p.stdrel : 0.0, "stdrel",
			   p.n < 2 ? 0.0 : isfinite(v1_stdrel(&p)) ? v1_stdrel(&p) : -1.0, "converged",
			   p.converged, "capped", p.capped, "l2_flush_bytes",
			   (json_int_t)r.l2_flush_bytes, "min_seconds", p.min_seconds, "max_seconds",
			   p.max_seconds, "sampling_seconds", r.sampling_seconds, "samples_requested",
			   p.samples);
	if (r.graph)
		json_object_set_new(method, "per_launch",
				    json_string("each sample is one replay of a CUDA graph of "
						"`batch` launches, divided by batch"));
	samples = json_array();
	for (int i = 0; i < p.n; i++)
		json_array_append_new(samples, json_real(p.v[i]));
	free(p.v);
	emit_json(json_pack("{s:s, s:o, s:o}", "msg", "timing", "method", method, "samples_us",
			    samples));
	return 0;
}

static int worker_alloc(struct worker *w)
{
	const struct evc_api *a = w->api;
	struct ev_launch *l = &w->l;
	int rc;

	memset(l, 0, sizeof(*l));
	l->abi_version = EVIDENT_ABI_VERSION;
	l->struct_size = sizeof(*l);
	l->problem = w->job->problem;
	l->n_inputs = 3;
	l->n_outputs = 1;
	l->scale = 1.0 / sqrt((double)w->shape.D);
	l->stream = a->stream(w->ctx);
	for (int i = 0; i < 4; i++) {
		struct ev_tensor *t = i < 3 ? &l->inputs[i] : &l->outputs[0];
		t->dtype = w->dtype;
		t->ndim = 4;
		t->dims[0] = w->shape.B;
		t->dims[1] = w->shape.H;
		t->dims[2] = w->shape.S;
		t->dims[3] = w->shape.D;
		if ((rc = a->alloc(w->ctx, w->dtype, w->numel, &t->data, w->err, sizeof(w->err))))
			return fail_cuda(w, rc, "alloc");
	}
	w->h_q = xmalloc(w->numel * sizeof(float));
	w->h_k = xmalloc(w->numel * sizeof(float));
	w->h_v = xmalloc(w->numel * sizeof(float));
	w->h_ref = xmalloc(w->numel * sizeof(float));
	w->h_out = xmalloc(w->numel * dtype_size(w->dtype));
	return 0;
}

static int cuda_worker(const struct job *job)
{
	struct worker w;
	struct evc_device_info di;
	char *hpath = NULL;
	void *hlib = NULL;
	evc_api_fn api_fn;
	int rc = 1, all_pass = 1, pass = 0, seeds;
	unsigned long long seed = 0;

	memset(&w, 0, sizeof(w));
	w.job = job;
	if (!job->problem || strcmp(job->problem, "attention_fwd")) {
		rc = fail_plain("init_failed", NULL, "the cuda backend runs problem 'attention_fwd' only");
		goto out;
	}
	w.shape.B = job->B;
	w.shape.H = job->H;
	w.shape.S = job->S;
	w.shape.D = job->D;
	w.numel = attn_numel(&w.shape);
	w.dtype = dtype_from_name(job->dtype ? job->dtype : "fp16");
	if (!w.dtype || w.dtype == EV_F64) {
		rc = fail_plain("init_failed", NULL, "dtype must be fp16, bf16 or fp32");
		goto out;
	}

	hpath = harness_path();
	if (!hpath) {
		rc = fail_plain("init_failed", "harness_missing",
				"CUDA harness lib/libevident_cuda.so not found next to the "
				"executable (build it with make where nvcc exists, or make dist)");
		goto out;
	}
	hlib = dlopen(hpath, RTLD_NOW | RTLD_LOCAL);
	if (!hlib) {
		const char *e = dlerror();
		/* a harness that cannot load its libcudart means no usable CUDA here */
		rc = fail_plain(strstr(e ? e : "", "libcuda") ? "no_device" : "init_failed",
				"harness_load", e ? e : "dlopen failed");
		goto out;
	}
	*(void **)&api_fn = dlsym(hlib, EVC_API_SYMBOL);
	w.api = api_fn ? api_fn() : NULL;
	if (!w.api || w.api->api_version != EVC_API_VERSION ||
	    w.api->struct_size < sizeof(struct evc_api)) {
		rc = fail_plain("init_failed", "harness_version",
				"CUDA harness is of another version than this evident (rebuild both)");
		goto out;
	}

	rc = w.api->open(job->device, &w.ctx, &di, w.err, sizeof(w.err));
	if (rc) {
		rc = fail_cuda(&w, rc, "open");
		goto out;
	}
	emit_json(json_pack("{s:s, s:o}", "msg", "device", "info", device_json(&di, hpath)));

	/* shared with the host backend: dlopen, ABI and backend/problem checks,
	 * the compiled_params message (or a failure message) */
	w.desc = worker_load_kernel(job, "cuda");
	if (!w.desc) {
		rc = 1;
		goto out;
	}

	if ((rc = worker_alloc(&w)))
		goto out;
	rc = w.api->kernel_init(w.ctx, w.desc, &w.l, w.err, sizeof(w.err));
	if (rc == -1) {
		rc = fail_plain("init_failed", "init", w.err);
		goto out;
	} else if (rc) {
		rc = fail_cuda(&w, rc, "init");
		goto out;
	}

	seeds = job->sanitize ? 1 : (job->seeds > 0 ? job->seeds : 1);
	for (int i = 0; i < seeds; i++) {
		seed = job->seed0 + (unsigned long long)i;
		if ((rc = run_seed(&w, seed, &pass)))
			goto out;
		all_pass &= pass;
	}
	if (!job->sanitize) {
		if ((rc = run_timing(&w)))
			goto out;
		/* what the timed launches left, against the last seed's reference */
		if ((rc = check_output(&w, "recheck", seed, &pass))) {
			rc = fail_cuda(&w, rc, "recheck");
			goto out;
		}
		all_pass &= pass;
	}
	emit_json(json_pack("{s:s}", "msg", "done"));
	/* a wrong answer is recorded through the seed messages; the worker
	 * itself succeeded */
	rc = 0;
	(void)all_pass;

out:
	if (w.desc && w.desc->fini && w.l.abi_version && rc == 0)
		w.desc->fini(&w.l);
	if (w.api && w.ctx)
		w.api->close(w.ctx);
	free(w.h_q);
	free(w.h_k);
	free(w.h_v);
	free(w.h_ref);
	free(w.h_out);
	free(hpath);
	/* the harness stays loaded: CUDA's exit handlers may still run in it */
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
 * libraries' leaks are suppressed, ours are still reported.  Both apply to
 * the whole sanitized binary, which is only ever a test build.
 */
const char *__asan_default_options(void);
const char *__asan_default_options(void)
{
	return "protect_shadow_gap=0";
}

const char *__lsan_default_suppressions(void);
const char *__lsan_default_suppressions(void)
{
	return "leak:libcuda.so\nleak:libcudart.so\nleak:libcublas.so\nleak:libcublasLt.so\n"
	       "leak:libnvidia-ml.so\n";
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

const struct backend backend_cuda = {
	.name = "cuda",
	.probe = cuda_probe,
	.build = cuda_build,
	.worker = cuda_worker,
	.device_info = cuda_device_info,
	.device_state = cuda_device_state,
};
