/*
 * build_flags.c - a spec's compile and link flags, by allow list
 * (build_flags_refusal in build.h).
 *
 * A flag can make the compiler or the linker run a program or read a file
 * that neither the build key nor the record's sources cover: -B (red team
 * 72's asswap ran an `as` of its own), a response file (red team 77:
 * `@opts` holding -B), a profile (red team 78: -fprofile-use with
 * -dumpdir), and gcc and nvcc have hundreds more (-wrapper, -fplugin,
 * -specs, -ccbin, -Xnvlink, -Wa, -Wp, -Wl,--version-script, -fsanitize-
 * ignorelist=, -fself-test=...).  Refusing them one by one found a new one
 * each red team, so a spec's flags are taken only in the forms listed
 * here, which read no file and run no program outside what the build
 * already covers:
 *   - optimisation (-O*), debug info (-g*), -D/-U, -std=, -w, -pedantic,
 *     warnings (-W..., not the -Wa, and -Wp, pass-throughs), -pthread;
 *   - -f code-generation flags from a list (gcc_f_names, gcc_f_families;
 *     none names a file), -m machine flags (no '/': no path);
 *   - -I, -isystem, -L DIR (bounds_init in build.c: the repository's, or
 *     a flag directory whose headers and libraries join the sources),
 *     -lNAME and -l:FILE (no '/'), an object, archive or shared library
 *     operand (linker_inputs hashes it), -include/-imacros of a file of
 *     the repository (its -MD list covers it);
 *   - -Wl, and -Xlinker options from a list (rpath, soname, as-needed,
 *     whole-archive, -z keywords, build-id...): no script, version
 *     script, dynamic list, plug-in, audit module, -L or -l;
 *   - nvcc: -arch, -code, -gencode, -rdc, --use_fast_math, -ftz,
 *     -prec-div, -prec-sqrt, -fmad, -maxrregcount, -lineinfo, -G,
 *     --expt-*, -res-usage, -cudart, -default-stream, -Xptxas options
 *     from a list, and -Xcompiler / -Xlinker contents checked by the host
 *     compiler's rules (no path-taking flag inside -Xcompiler: the build's
 *     directory rules would not see it).
 * Anything else is refused before compiling, naming the flag and what is
 * allowed.  A flag that takes a value must have it in the spec's list: the
 * build's own -MD -MF follow the spec's flags, and a trailing -Xlinker
 * would take one of them.
 */
#include "backends/build.h"

#include <ctype.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* what every refusal says besides the flag */
#define FLAGS_WAY_OUT                                                                                         \
	"the build takes a spec's flags only in forms that read no file and run no program the build key "    \
	"does not cover: -O*, -g*, -D/-U, -std=, -W warnings, -f code-generation flags from a list, -m "       \
	"machine flags, -I/-isystem/-L DIR, -lNAME, object and archive operands, -include FILE of the "        \
	"repository, -Wl,/-Xlinker options from a list" ", and for nvcc -arch/-code/-gencode, -rdc, "          \
	"--use_fast_math, -maxrregcount, -lineinfo, -Xptxas options, -Xcompiler by the host rules "            \
	"(the lists: src/backends/build_flags.c); to have a flag added, ask for it with what it does and "     \
	"why it reads no file and runs no program"

struct fctx {
	enum build_flags_dialect d;
	char *repo, *cache; /* resolved, or NULL */
	/* the linker's options as the linker will see them, from every -Wl,
	 * and -Xlinker of the list in order (an option and its value may lie
	 * in two of them) */
	const char **ld;
	size_t nld;
	/* nvcc's -Xptxas options, the same way */
	const char **ptx;
	size_t nptx;
	/* nvcc's -Xcompiler options, checked as the host compiler's */
	const char **host;
	size_t nhost;
	char **owned; /* split pieces, freed at the end */
	size_t nowned;
	const char *bad;  /* the refused flag (points into the list or owned) */
	const char *why;  /* a short reason, static text */
	const char *where; /* "" or " (inside -Xcompiler)" and so on */
};

static void push(const char ***v, size_t *n, const char *s)
{
	*v = xrealloc(*v, (*n + 1) * sizeof(char *));
	(*v)[(*n)++] = s;
}

static char *own(struct fctx *c, char *s)
{
	c->owned = xrealloc(c->owned, (c->nowned + 1) * sizeof(char *));
	c->owned[c->nowned++] = s;
	return s;
}

/* comma-separated pieces of s onto *v (gcc's -Wl, and nvcc's -X options
 * are split at every comma; an empty piece is kept, and refused) */
static void push_split(struct fctx *c, const char ***v, size_t *n, const char *s)
{
	const char *p = s;
	for (;;) {
		const char *comma = strchr(p, ',');
		size_t len = comma ? (size_t)(comma - p) : strlen(p);
		push(v, n, own(c, xstrndup(p, len)));
		if (!comma)
			break;
		p = comma + 1;
	}
}

static int refuse(struct fctx *c, const char *flag, const char *why)
{
	if (!c->bad) {
		c->bad = flag;
		c->why = why;
	}
	return -1;
}

/* letters, digits and the few marks a value needs: no '/' (no path), no
 * space, quote or backslash (nvcc splits and unquotes some values) */
static int plain(const char *s, const char *extra)
{
	if (!*s)
		return 0;
	for (; *s; s++)
		if (!isalnum((unsigned char)*s) && !strchr("_-.+=", *s) && !(extra && strchr(extra, *s)))
			return 0;
	return 1;
}

static int one_of(const char *s, const char *const *list)
{
	for (size_t i = 0; list[i]; i++)
		if (!strcmp(s, list[i]))
			return 1;
	return 0;
}

/* s is "-name" or "-name=VALUE" for a name in list; *value gets VALUE or
 * NULL */
static int named(const char *s, const char *const *list, const char **value)
{
	for (size_t i = 0; list[i]; i++) {
		size_t n = strlen(list[i]);
		if (!strncmp(s, list[i], n) && (s[n] == '\0' || s[n] == '=')) {
			*value = s[n] == '=' ? s + n + 1 : NULL;
			return 1;
		}
	}
	return 0;
}

/* ---- the linker's options ------------------------------------------------ */

static const char *const ld_plain[] = {
	"--no-as-needed", "--as-needed", "--whole-archive", "--no-whole-archive", "--disable-new-dtags",
	"--enable-new-dtags", "--gc-sections", "--no-gc-sections", "-Bsymbolic", "-Bsymbolic-functions",
	"-Bstatic", "-Bdynamic", "--export-dynamic", "-E", "--no-undefined", "--allow-shlib-undefined",
	"--no-allow-shlib-undefined", "--build-id", "-O0", "-O1", "-O2", "--start-group", "--end-group",
	"--push-state", "--pop-state", "--strip-all", "-s", "--strip-debug", "-S", "--sort-common", "--relax",
	"--no-relax", "--copy-dt-needed-entries", "--no-copy-dt-needed-entries", "--eh-frame-hdr",
	"--no-undefined-version", "--fatal-warnings", "--warn-common", NULL
};
static const char *const ld_z[] = { "now", "lazy", "relro", "norelro", "noexecstack", "execstack", "defs",
				     "undefs", "nodelete", "origin", "text", "notext", "separate-code",
				     "noseparate-code", "combreloc", "nocombreloc", "ibt", "shstk", NULL };

static int ld_z_ok(const char *k)
{
	if (one_of(k, ld_z))
		return 1;
	static const char *const sized[] = { "max-page-size", "common-page-size", NULL };
	for (size_t i = 0; sized[i]; i++) {
		size_t n = strlen(sized[i]);
		if (!strncmp(k, sized[i], n) && k[n] == '=' && k[n + 1] && strspn(k + n + 1, "0123456789xabcdefABCDEF") ==
		    strlen(k + n + 1))
			return 1;
	}
	return 0;
}

/* a value the linker writes into the object as text (an rpath, a
 * soname): anything printable but a comma (gcc would have split there) */
static int printable_value(const char *s)
{
	if (!*s)
		return 0;
	for (; *s; s++)
		if ((unsigned char)*s < 0x20 || *s == 0x7f)
			return 0;
	return 1;
}

static int check_linker(struct fctx *c)
{
	for (size_t i = 0; i < c->nld; i++) {
		const char *a = c->ld[i], *v = NULL;
		if (one_of(a, ld_plain))
			continue;
		if (!strncmp(a, "--build-id=", 11) && plain(a + 11, NULL))
			continue;
		if (!strncmp(a, "--hash-style=", 13) && plain(a + 13, NULL))
			continue;
		if (!strcmp(a, "-z")) {
			if (i + 1 < c->nld && ld_z_ok(c->ld[i + 1])) {
				i++;
				continue;
			}
			return refuse(c, i + 1 < c->nld ? c->ld[i + 1] : a, "a linker -z keyword not on the list");
		}
		if (!strncmp(a, "-z", 2) && ld_z_ok(a + 2))
			continue;
		static const char *const with_value[] = { "-rpath", "--rpath", "-soname", "--soname", NULL };
		if (named(a, with_value, &v)) {
			if (!v) {
				if (i + 1 >= c->nld)
					return refuse(c, a, "the linker option's value is not in the spec's flags");
				v = c->ld[++i];
			}
			if (!printable_value(v))
				return refuse(c, v, "an rpath or soname with a control character");
			continue;
		}
		if (a[0] == '@' || !strncmp(a, "-T", 2) || !strncmp(a, "--script", 8) || !strncmp(a, "-dT", 3) ||
		    !strncmp(a, "--default-script", 16) || !strncmp(a, "--version-script", 16) ||
		    !strncmp(a, "--dynamic-list", 14))
			return refuse(c, a, "it makes the linker read a file of flags, a linker script, a version "
					    "script or a symbol list, which the build key does not cover");
		if (!strncmp(a, "--audit", 7) || !strncmp(a, "--depaudit", 10) || !strncmp(a, "--plugin", 8) ||
		    !strncmp(a, "-plugin", 7) || !strncmp(a, "--sysroot", 9))
			return refuse(c, a, "it makes the linker or the loader run code of another file");
		if (!strncmp(a, "-L", 2) || !strncmp(a, "-l", 2) || !strncmp(a, "--library", 9))
			return refuse(c, a, "a library or library directory inside -Wl, or -Xlinker, where the "
					    "build's linker-input rules do not see it (give it as -L/-l)");
		return refuse(c, a, "a linker option not on the list");
	}
	return 0;
}

/* ---- the host compiler's (gcc, clang) ------------------------------------- */

/* -fNAME and -fno-NAME for these names; NAME=VALUE where VALUE is plain */
static const char *const gcc_f_names[] = {
	"PIC", "pic", "PIE", "pie", "openmp", "openmp-simd", "strict-aliasing", "omit-frame-pointer",
	"fast-math", "unsafe-math-optimizations", "associative-math", "reciprocal-math", "finite-math-only",
	"math-errno", "signed-zeros", "trapping-math", "rounding-math", "cx-limited-range",
	"single-precision-constant", "float-store", "unroll-loops", "unroll-all-loops", "peel-loops",
	"unswitch-loops", "split-loops", "tracer", "web", "inline", "inline-functions", "inline-small-functions",
	"inline-functions-called-once", "early-inlining", "partial-inlining", "expensive-optimizations",
	"strict-overflow", "wrapv", "trapv", "signed-char", "unsigned-char", "short-enums", "builtin", "common",
	"plt", "function-sections", "data-sections", "exceptions", "asynchronous-unwind-tables",
	"unwind-tables", "non-call-exceptions", "merge-constants", "merge-all-constants", "peephole",
	"peephole2", "delete-null-pointer-checks", "semantic-interposition", "schedule-insns",
	"schedule-insns2", "modulo-sched", "predictive-commoning", "prefetch-loop-arrays", "rename-registers",
	"thread-jumps", "caller-saves", "crossjumping", "reorder-blocks", "reorder-blocks-and-partition",
	"reorder-functions", "split-paths", "code-hoisting", "hoist-adjacent-loads", "store-merging",
	"split-wide-types", "shrink-wrap", "section-anchors", "stack-protector", "stack-protector-strong",
	"stack-protector-all", "stack-protector-explicit", "stack-clash-protection", "visibility-inlines-hidden",
	"ident", "ms-extensions", "gnu89-inline", "rtti", "threadsafe-statics", "allow-store-data-races",
	"move-loop-invariants", "move-loop-stores", "variable-expansion-in-unroller", "split-ivs-in-unroller",
	"ivopts", "graphite-identity", "loop-nest-optimize", "loop-interchange", "loop-unroll-and-jam",
	"version-loops-for-strides", "optimize-sibling-calls", "jump-tables", "var-tracking",
	"var-tracking-assignments", "eliminate-unused-debug-types", "diagnostics-color", "diagnostics-show-caret",
	"zero-initialized-in-bss", "defer-pop", "forward-propagate", "if-conversion", "if-conversion2",
	"cse-follow-jumps", "cse-skip-blocks", "rerun-cse-after-loop", "devirtualize", "isolate-erroneous-paths-dereference",
	"lra-remat", "auto-inc-dec", "dce", "dse", "branch-count-reg", "align-functions", "align-loops",
	"align-jumps", "align-labels", "cprop-registers", "sched-pressure", "selective-scheduling",
	"selective-scheduling2", "live-range-shrinkage", "gcse", "gcse-after-reload", "gcse-lm", "gcse-sm",
	"gcse-las", "cf-protection", "permissive", "strict-volatile-bitfields", "pack-struct",
	"excess-precision", "fp-contract", "vect-cost-model", "simd-cost-model", "visibility", "tls-model",
	"inline-limit", "max-errors", "message-length", "zero-call-used-regs", "trivial-auto-var-init",
	"abi-version", "stack-reuse", "ira-algorithm", "ira-region", "sched-stalled-insns",
	"sched-stalled-insns-dep", "opt-info", "record-gcc-switches", "asm", "hosted", "freestanding",
	"lto-partition", "ipa-cp", "ipa-cp-clone", "ipa-pta", "ipa-sra", "ipa-ra", "ipa-icf", "ipa-vrp",
	"ipa-bit-cp", "ipa-pure-const", "ipa-reference", "ipa-modref", "ipa-strict-aliasing",
	"ipa-stack-alignment", NULL
};
/* -fFAMILY... and -fno-FAMILY... : optimisation switches that read and
 * write nothing (the tree and scheduler passes) */
static const char *const gcc_f_families[] = { "tree-", "sched-", "sched2-", "ira-", "align-", "opt-info-", "builtin-",
					      NULL };

static int gcc_f_ok(const char *a)
{
	const char *n = a + 2;
	if (!strncmp(n, "no-", 3))
		n += 3;
	const char *eq = strchr(n, '=');
	size_t len = eq ? (size_t)(eq - n) : strlen(n);
	if (eq && !plain(eq + 1, ","))
		return 0;
	/* -fopt-info=FILE writes a file: the plain form only */
	if (!strncmp(n, "opt-info", 8) && eq)
		return 0;
	char *name = xstrndup(n, len);
	int ok = one_of(name, gcc_f_names);
	for (size_t i = 0; !ok && gcc_f_families[i]; i++)
		ok = !strncmp(name, gcc_f_families[i], strlen(gcc_f_families[i])) && plain(name, NULL);
	free(name);
	return ok;
}

static int gcc_g_ok(const char *a)
{
	static const char *const g[] = { "-g", "-g0", "-g1", "-g2", "-g3", "-ggdb", "-ggdb0", "-ggdb1",
					 "-ggdb2", "-ggdb3", "-gdwarf", "-gdwarf-2", "-gdwarf-3", "-gdwarf-4",
					 "-gdwarf-5", "-gcolumn-info", "-gno-column-info", "-gstrict-dwarf",
					 "-gno-strict-dwarf", "-gstatement-frontiers", "-gvariable-location-views",
					 "-gbtf", "-gctf", NULL };
	return one_of(a, g);
}

static int gcc_O_ok(const char *a)
{
	static const char *const o[] = { "-O", "-O0", "-O1", "-O2", "-O3", "-Os", "-Ofast", "-Og", "-Oz", NULL };
	return one_of(a, o);
}

/* a macro of -D/-U: a name, then "=..." or "(...)..." for -D */
static int macro_ok(const char *m, int define)
{
	if (!(isalpha((unsigned char)m[0]) || m[0] == '_'))
		return 0;
	size_t n = 1;
	while (isalnum((unsigned char)m[n]) || m[n] == '_')
		n++;
	if (!m[n])
		return 1;
	return define && (m[n] == '=' || m[n] == '(');
}

/* a file the repository holds (not its build cache) */
static int repo_file(const struct fctx *c, const char *f)
{
	if (!*f || !c->repo)
		return 0;
	char *r = realpath(f, NULL);
	if (!r)
		return 0;
	size_t n = strlen(c->repo), m = c->cache ? strlen(c->cache) : 0;
	int in = !strncmp(r, c->repo, n) && r[n] == '/' &&
		 !(m && !strncmp(r, c->cache, m) && (r[m] == '/' || r[m] == '\0'));
	free(r);
	return in;
}

/* a path under the build cache */
static int in_cache(const struct fctx *c, const char *f)
{
	char *r = c->cache ? realpath(f, NULL) : NULL;
	if (!r)
		return 0;
	size_t m = strlen(c->cache);
	int in = !strncmp(r, c->cache, m) && (r[m] == '/' || r[m] == '\0');
	free(r);
	return in;
}

/* an operand the linker takes as an input (linker_inputs in build.c
 * hashes it): NAME.o, NAME.a, NAME.so, NAME.so.N */
static int linkable(const char *a)
{
	size_t n = strlen(a);
	return (n > 2 && (!strcmp(a + n - 2, ".o") || !strcmp(a + n - 2, ".a"))) ||
	       (n > 3 && !strcmp(a + n - 3, ".so")) || strstr(a, ".so.");
}

/* the value of a flag given as "-Xvalue" or "-X value"; NULL when the
 * spec's list ends first */
static const char *joined_or_next(const char *const *v, size_t n, size_t *i, size_t plen)
{
	if (v[*i][plen])
		return v[*i] + plen;
	if (*i + 1 >= n)
		return NULL;
	return v[++*i];
}

/* flags known to run a program or read a file: their own reason */
static const char *known_bad(const char *a)
{
	static const char *const run[] = { "-B", "-wrapper", "-fplugin", "-specs", "--specs", "--sysroot",
					   "-iplugindir", "-fuse-ld", "-ccbin", "--compiler-bindir", "-Xnvlink",
					   "-Xcudafe", "-Xarchive", "--nvlink-options", NULL };
	static const char *const read[] = { "-fprofile", "-fauto-profile", "-fbranch-probabilities",
					    "-dumpdir", "-dumpbase", "--options-file", "-optf", "-T",
					    "-fsanitize-blacklist", "-fsanitize-ignorelist", "-fself-test",
					    "-fdebug-prefix-map", "-ffile-prefix-map", "-fmacro-prefix-map",
					    "-fcoverage", "-ftest-coverage", "-iprefix", "-iwithprefix",
					    "-idirafter", "-iquote", "--sysroot", "-isysroot", "-imultilib",
					    "--dependency-output", "-MF", "-MD", "-MMD", "-M", "-o", "-odir",
					    "--keep", "-save-temps", NULL };
	for (size_t i = 0; run[i]; i++)
		if (!strncmp(a, run[i], strlen(run[i])))
			return "it makes the compiler run programs or read a tree the build key does not cover "
			       "(its tools are the toolchain's)";
	if (a[0] == '@')
		return "it makes the compiler read a file of flags or a linker script, which the build key does "
		       "not cover (put the flags in the spec)";
	for (size_t i = 0; read[i]; i++)
		if (!strncmp(a, read[i], strlen(read[i])))
			return "it makes the compiler read or write a file (a profile, a file of flags, a "
			       "dependency list, a map) that the build key does not cover";
	/* -Werror=date-time is the build's own (backend_host.c host_flags:
	 * an object holds no time of its build); -w and -Wno-date-time
	 * undo it (gcc 12 built __DATE__ with either) */
	if (!strcmp(a, "-w") || !strcmp(a, "--disable-warnings") || (!strncmp(a, "-W", 2) && strstr(a, "date-time")))
		return "it undoes the build's -Werror=date-time (a kernel must not hold the time of its build: "
		       "the cache serves the first build's bytes to every later run)";
	if (!strcmp(a, "-Wa") || !strcmp(a, "-Wp") || !strcmp(a, "-Wl"))
		return "a pass-through to the assembler, the preprocessor or the linker without its options";
	if (!strncmp(a, "-Wa,", 4) || !strncmp(a, "-Wp,", 4) || !strncmp(a, "-Xassembler", 11) ||
	    !strncmp(a, "-Xpreprocessor", 14))
		return "it passes options to the assembler or the preprocessor, which no rule here checks";
	return NULL;
}

/* a value that is the build machine's own CPU or GPU (-march=native,
 * -mtune=native, nvcc's -arch=native): the code would depend on a machine
 * the key does not name, and a cache shared by two machines (a cluster's
 * file system) would serve one's object to the other under one key */
static int names_native(const char *a)
{
	const char *eq = strchr(a, '=');
	return eq && strstr(eq + 1, "native");
}
#define NATIVE_WHY                                                                                            \
	"it takes the build machine's own CPU or GPU, which the build key does not name (name the target: "  \
	"-march=x86-64-v3, -arch=sm_90)"

static int check_gcc(struct fctx *c, const char *const *v, size_t n, int nested);

/* one host compiler argument at v[*i] (advancing *i over its value) */
static int gcc_arg(struct fctx *c, const char *const *v, size_t n, size_t *i, int nested)
{
	const char *a = v[*i], *val;
	const char *kb = known_bad(a);
	if (kb)
		return refuse(c, a, kb);
	if (gcc_O_ok(a) || gcc_g_ok(a))
		return 0;
	static const char *const plain_flags[] = { "-pthread", "-pipe", "-pedantic", "-pedantic-errors", "-ansi",
						   "-shared", "-rdynamic", NULL };
	if (one_of(a, plain_flags))
		return 0;
	if (!strncmp(a, "-D", 2) || !strncmp(a, "-U", 2)) {
		val = joined_or_next(v, n, i, 2);
		if (!val)
			return refuse(c, a, "its value is not in the spec's flags");
		return macro_ok(val, a[1] == 'D') ? 0 : refuse(c, val, "not a macro name (and definition)");
	}
	if (!strncmp(a, "-std=", 5))
		return plain(a + 5, NULL) ? 0 : refuse(c, a, "not a language standard");
	if (!strncmp(a, "--param", 7)) {
		val = a[7] == '=' ? a + 8 : a[7] ? NULL : *i + 1 < n ? v[++*i] : NULL;
		return val && plain(val, NULL) ? 0 : refuse(c, a, "--param takes NAME=VALUE");
	}
	if (!strncmp(a, "-Wl,", 4)) {
		push_split(c, &c->ld, &c->nld, a + 4);
		return 0;
	}
	if (!strcmp(a, "-Xlinker")) {
		if (*i + 1 >= n)
			return refuse(c, a, "its value is not in the spec's flags");
		push(&c->ld, &c->nld, v[++*i]);
		return 0;
	}
	if (!strncmp(a, "-W", 2))
		return plain(a + 2, NULL) && strncmp(a, "-Wl,", 4) ? 0 : refuse(c, a, "not a warning option");
	if (!strncmp(a, "-f", 2))
		return gcc_f_ok(a) ? 0 : refuse(c, a, "not on the list of -f code-generation flags");
	if (!strncmp(a, "-m", 2)) {
		if (names_native(a))
			return refuse(c, a, NATIVE_WHY);
		return plain(a + 2, ",") ? 0 : refuse(c, a, "not a machine option");
	}
	if (!strncmp(a, "-I", 2) || !strncmp(a, "-L", 2) || !strcmp(a, "-isystem")) {
		if (nested)
			return refuse(c, a, "a directory inside -Xcompiler, where the build's directory rules do "
					    "not see it (give it to nvcc itself)");
		val = joined_or_next(v, n, i, a[1] == 'i' ? 8 : 2);
		if (!val || !*val)
			return refuse(c, a, "its directory is not in the spec's flags");
		if (val[0] == '=' || val[0] == '$')
			return refuse(c, a, "a directory under the sysroot");
		return 0;
	}
	if (!strncmp(a, "-l", 2)) {
		if (nested)
			return refuse(c, a, "a library inside -Xcompiler (give it to nvcc itself)");
		val = joined_or_next(v, n, i, 2);
		if (!val)
			return refuse(c, a, "its library is not in the spec's flags");
		const char *name = val[0] == ':' ? val + 1 : val;
		/* "." and "..": the library directory itself, or its parent
		 * (red team 100's etcview: -L/etc/ld.so.conf.d -l:.. showed /etc) */
		if (name[strspn(name, ".")] == 0)
			return refuse(c, a, "a library name of dots alone (a directory)");
		return plain(name, NULL) ? 0 : refuse(c, a, "a library name with a path");
	}
	if (!strcmp(a, "-include") || !strcmp(a, "-imacros")) {
		if (nested)
			return refuse(c, a, "a forced include inside -Xcompiler");
		if (*i + 1 >= n)
			return refuse(c, a, "its file is not in the spec's flags");
		val = v[++*i];
		return repo_file(c, val) ? 0 : refuse(c, val, "a forced include that is not a file of the repository");
	}
	if (a[0] != '-') {
		if (nested)
			return refuse(c, a, "an operand inside -Xcompiler");
		if (!linkable(a))
			return refuse(c, a, "an operand that is not an object, archive or shared library");
		return in_cache(c, a) ? refuse(c, a, "an object of the build cache (another build's)") : 0;
	}
	return refuse(c, a, "not on the allow list");
}

static int check_gcc(struct fctx *c, const char *const *v, size_t n, int nested)
{
	for (size_t i = 0; i < n; i++)
		if (gcc_arg(c, v, n, &i, nested) < 0)
			return -1;
	return 0;
}

/* ---- nvcc ----------------------------------------------------------------- */

static const char *const ptxas_plain[] = { "-v", "--verbose", "-O0", "-O1", "-O2", "-O3", "--warn-on-spills",
					   "-warn-spills", "--warn-on-local-memory-usage", "-warn-lmem-usage",
					   "--warn-on-double-precision-use", "-warn-double-usage",
					   "--allow-expensive-optimizations", "-allow-expensive-optimizations",
					   "--suppress-stack-size-warning", "-suppress-stack-size-warning",
					   "-lineinfo", "--generate-line-info", "--disable-optimizer-constants",
					   "-disable-optimizer-constants", "--sp-bounds-check", "-sp-bounds-check",
					   "--warning-as-error", "-Werror", NULL };
static const char *const ptxas_valued[] = { "--maxrregcount", "-maxrregcount", "--def-load-cache", "-dlcm",
					    "--def-store-cache", "-dscm", "--fmad", "-fmad",
					    "--allow-expensive-optimizations", "-allow-expensive-optimizations",
					    "--opt-level", "-O", NULL };

static int check_ptxas(struct fctx *c)
{
	for (size_t i = 0; i < c->nptx; i++) {
		const char *a = c->ptx[i], *v = NULL;
		if (one_of(a, ptxas_plain))
			continue;
		if (named(a, ptxas_valued, &v)) {
			if (!v) {
				if (i + 1 >= c->nptx)
					return refuse(c, a, "the ptxas option's value is not in the spec's flags");
				v = c->ptx[++i];
			}
			if (plain(v, NULL))
				continue;
		}
		return refuse(c, a, "a ptxas option not on the list");
	}
	return 0;
}

static const char *const nvcc_plain[] = {
	"-O0", "-O1", "-O2", "-O3", "-g", "-G", "--device-debug", "--debug", "-lineinfo", "--generate-line-info",
	"--use_fast_math", "-use_fast_math", "--extra-device-vectorization", "-extra-device-vectorization",
	"--expt-relaxed-constexpr", "-expt-relaxed-constexpr", "--expt-extended-lambda", "-expt-extended-lambda",
	"--extended-lambda", "-extended-lambda", "-res-usage", "--resource-usage", "-restrict", "--restrict",
	"--display-error-number", "-m64", "-shared", "-src-in-ptx", "--source-in-ptx",
	NULL
};
/* -name=VALUE or -name VALUE, VALUE plain (commas and brackets for the
 * arch lists) */
static const char *const nvcc_valued[] = {
	"-arch", "--gpu-architecture", "-code", "--gpu-code", "-gencode", "--generate-code", "-rdc",
	"--relocatable-device-code", "-ftz", "--ftz", "-prec-div", "--prec-div", "-prec-sqrt", "--prec-sqrt",
	"-fmad", "--fmad", "-maxrregcount", "--maxrregcount", "-std", "--std", "-cudart", "--cudart",
	"-default-stream", "--default-stream", "-diag-suppress", "--diag-suppress", "-diag-warn", "--diag-warn",
	"-diag-error", "--diag-error", "-Werror", "--Werror", "-t", "--threads", "-split-compile",
	"--split-compile", NULL
};

static int nvcc_arg(struct fctx *c, const char *const *v, size_t n, size_t *i)
{
	const char *a = v[*i], *val = NULL;
	const char *kb = known_bad(a);
	if (kb)
		return refuse(c, a, kb);
	if (one_of(a, nvcc_plain))
		return 0;
	static const char *const xc[] = { "-Xcompiler", "--compiler-options", NULL };
	static const char *const xl[] = { "-Xlinker", "--linker-options", NULL };
	static const char *const xp[] = { "-Xptxas", "--ptxas-options", NULL };
	const char ***dst = NULL;
	size_t *ndst = NULL;
	if (named(a, xc, &val)) {
		dst = &c->host;
		ndst = &c->nhost;
	} else if (named(a, xl, &val)) {
		dst = &c->ld;
		ndst = &c->nld;
	} else if (named(a, xp, &val)) {
		dst = &c->ptx;
		ndst = &c->nptx;
	}
	if (dst) {
		if (!val) {
			if (*i + 1 >= n)
				return refuse(c, a, "its value is not in the spec's flags");
			val = v[++*i];
		}
		if (strpbrk(val, " \t\"'\\"))
			return refuse(c, val, "a pass-through value with a space, quote or backslash (nvcc splits "
					      "and unquotes these)");
		push_split(c, dst, ndst, val);
		return 0;
	}
	if (named(a, nvcc_valued, &val)) {
		if (!val) {
			if (*i + 1 >= n)
				return refuse(c, a, "its value is not in the spec's flags");
			val = v[++*i];
		}
		if (strstr(val, "native"))
			return refuse(c, a, NATIVE_WHY);
		return plain(val, ",[]") ? 0 : refuse(c, a, "a value other than letters, digits and ,=[]_-.+");
	}
	/* what nvcc takes as the host compiler does: -D, -U, -I, -isystem,
	 * -L, -l, operands; -W warnings */
	if (!strncmp(a, "-D", 2) || !strncmp(a, "-U", 2) || !strncmp(a, "-I", 2) || !strcmp(a, "-isystem") ||
	    !strncmp(a, "-L", 2) || !strncmp(a, "-l", 2) || a[0] != '-')
		return gcc_arg(c, v, n, i, 0);
	if (!strncmp(a, "-W", 2) && strncmp(a, "-Wl,", 4) && strncmp(a, "-Wa,", 4) && strncmp(a, "-Wp,", 4))
		return plain(a + 2, ",") ? 0 : refuse(c, a, "not a warning option");
	return refuse(c, a, "not on the allow list");
}

/* ---- the entry point -------------------------------------------------------- */

enum build_flags_dialect build_flags_dialect_of(const char *compiler)
{
	const char *base = strrchr(compiler, '/');
	base = base ? base + 1 : compiler;
	return !strncmp(base, "nvcc", 4) ? BUILD_FLAGS_NVCC : BUILD_FLAGS_GCC;
}

char *build_flags_refusal(const char *const *flags, enum build_flags_dialect d, const char *repo_root,
			  const char *cache_dir)
{
	size_t n = 0;
	while (flags && flags[n])
		n++;
	if (!n)
		return NULL;
	struct fctx c = { .d = d };
	c.repo = repo_root ? realpath(repo_root, NULL) : NULL;
	c.cache = cache_dir ? realpath(cache_dir, NULL) : NULL;
	c.where = "";
	int rc = 0;
	for (size_t i = 0; i < n && !rc; i++)
		for (const char *p = flags[i]; *p && !rc; p++)
			if ((unsigned char)*p < 0x20 || *p == 0x7f)
				rc = refuse(&c, flags[i], "a flag with a control character");
	if (!rc && d == BUILD_FLAGS_NVCC) {
		for (size_t i = 0; i < n && !rc; i++)
			rc = nvcc_arg(&c, flags, n, &i);
		if (!rc) {
			c.where = " (inside -Xptxas)";
			rc = check_ptxas(&c);
		}
		if (!rc) {
			c.where = " (inside -Xcompiler)";
			rc = check_gcc(&c, c.host, c.nhost, 1);
		}
	} else if (!rc) {
		rc = check_gcc(&c, flags, n, 0);
	}
	if (!rc) {
		c.where = " (a linker option, from -Wl, or -Xlinker)";
		rc = check_linker(&c);
	}
	char *why = NULL;
	if (rc)
		why = xstrfmt("the flag '%s'%s is refused: %s; %s", c.bad, c.where, c.why, FLAGS_WAY_OUT);
	for (size_t i = 0; i < c.nowned; i++)
		free(c.owned[i]);
	free(c.owned);
	free(c.ld);
	free(c.ptx);
	free(c.host);
	free(c.repo);
	free(c.cache);
	return why;
}
