/*
 * build.c - the content-hash build cache (contract in build.h).
 *
 * build_run() computes the build key from everything that determines the
 * produced code, looks for <cache>/<key>/info.json, and only on a miss runs
 * the compiler in <cache>/tmp-<random>/, then renames that directory to
 * <cache>/<key>.  Two runners building the same key at once both succeed:
 * the loser of the rename finds the winner's entry and uses it (object,
 * log and info), so every process runs and records the one object.
 *
 * The kernel's source is an adversary's, and it steers what the compiler
 * reads (`#include "/abs/path"`, a macro include, the assembler's
 * `.incbin`).  So (issue 22, the red team's build_incbin):
 *   - the compiler runs in the build box (base/sandbox.h
 *     sandbox_wrap_build) when the request has one: the toolchain and the
 *     repository read-only, the store and the build cache masked, the one
 *     entry being built writable; under RLIMIT_AS and RLIMIT_FSIZE (an
 *     `#include "/dev/zero"` stops at the limit) and the timeout;
 *   - before compiling, a source that uses `.incbin` or includes an
 *     absolute path outside the repository and the toolchain is refused
 *     (build failed, with the reason) - the box would hide most such files,
 *     but a refusal names the cause, and holds under --unsandboxed;
 *   - the compiler writes its own dependency list (-MD -MF): every file
 *     it read must lie in the repository or the toolchain, or the build
 *     fails ("the kernel's build read '/tmp/x', outside the repository"),
 *     and every repository file in it joins the entry's `sources`
 *     manifest {path, sha256}.  A cache hit re-hashes that manifest, so a
 *     header reached in a way the key's own walk cannot follow (a macro
 *     include) that changed makes the entry stale: it is removed and
 *     built afresh;
 *   - the assembler's own reads are in no -MD list, and `.incbin` spelled
 *     so that no text search finds it (string pasting in an asm
 *     statement) passes the refusal above (red team 3, asm_paste built a
 *     repository file its record did not name into its binary).  So a
 *     boxed build runs in two passes: the preprocessor alone (-M) lists
 *     what the source includes, with the repository in view; then the
 *     compile sees the toolchain and only those repository files.  What
 *     the assembler reads besides them is not there, and the build fails
 *     saying so.  The key says that the object was made this way, so an
 *     entry compiled with the whole repository in view is never a hit.
 * A spec's flags are taken by allow list (build_flags.c: a deny list of
 * flags that run programs or read files lost one more to each of red
 * teams 72, 77 and 78), and the compiler's environment is PATH and the
 * locale alone (build_env_keep), both in the key.
 * A host variant with parameters gets its echo-neutral identity here
 * (build_recipe.echo_mask, echo_twin): its own compile once more to a
 * relocatable object (-c) in the same box and view, that object relinked
 * to the object byte for byte, and hashed with its EV_PARAM echo's bytes
 * cut out by the descriptor's symbol and relocation (echo_mask.h); a problem plug-in's build makes its box only on a cache
 * miss (build_request.box_on_miss).
 * What is left: a toolchain file (under /usr, the compiler's tree) can
 * still be copied in; the compiler's version stands for those.
 */
#include "backends/build.h"
#include "backends/build_toolchain.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <limits.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "backends/echo_mask.h"
#include "base/elf.h"
#include "base/runcmd.h"
#include "base/sandbox.h"

/* The compiler's bounds: generous for nvcc on a large kernel, far below
 * what an `#include "/dev/zero"` would take. */
#define BUILD_LIMIT_AS_BYTES ((unsigned long long)8 << 30)
#define BUILD_LIMIT_FSIZE_BYTES ((unsigned long long)1 << 30)
#define BUILD_TIMEOUT_S 600

/* The compilers asked about and their answers, kept for this process: a
 * run asks once per build, a hit included (the key depends on the text),
 * and again for the problem plug-in and the provenance record, of the same
 * one or two compilers (cc, nvcc): `cc --version` cost 7 ms of CPU a start
 * on the project's VM, about ten a test.  plan_prebuild's children inherit
 * the answers.  The runner builds from one thread (plan.c), so no lock; a
 * failure is not kept (asked again next time), nor a fifth compiler. */
static struct version_memo {
	char *compiler, *flag, *version;
} version_memo[4];

static char *compiler_version_uncached(const char *compiler, const char *version_flag);
static char *compiler_exe(const char *compiler);

/* The compilers' executables and their contents' hashes, kept as the
 * versions are (one thread). */
static struct exe_memo {
	char *compiler, *path;
	char sha[SHA256_HEX_LEN + 1];
} exe_memo[4];

int build_compiler_exe(const char *compiler, char **path, char sha[SHA256_HEX_LEN + 1])
{
	size_t i;
	for (i = 0; i < ARRAY_SIZE(exe_memo) && exe_memo[i].compiler; i++)
		if (!strcmp(exe_memo[i].compiler, compiler)) {
			*path = xstrdup(exe_memo[i].path);
			memcpy(sha, exe_memo[i].sha, SHA256_HEX_LEN + 1);
			return 0;
		}
	char *exe = compiler_exe(compiler);
	if (!exe || sha256_file_hex(exe, sha) < 0) {
		free(exe);
		return -1;
	}
	if (i < ARRAY_SIZE(exe_memo)) {
		exe_memo[i].compiler = xstrdup(compiler);
		exe_memo[i].path = xstrdup(exe);
		memcpy(exe_memo[i].sha, sha, SHA256_HEX_LEN + 1);
	}
	*path = exe;
	return 0;
}

char *build_compiler_version(const char *compiler, const char *version_flag)
{
	size_t i;
	for (i = 0; i < ARRAY_SIZE(version_memo) && version_memo[i].version; i++)
		if (!strcmp(version_memo[i].compiler, compiler) && !strcmp(version_memo[i].flag, version_flag))
			return xstrdup(version_memo[i].version);
	char *v = compiler_version_uncached(compiler, version_flag);
	if (v && i < ARRAY_SIZE(version_memo)) {
		version_memo[i].compiler = xstrdup(compiler);
		version_memo[i].flag = xstrdup(version_flag);
		version_memo[i].version = xstrdup(v);
	}
	return v;
}

static char *compiler_version_uncached(const char *compiler, const char *version_flag)
{
	const char *argv[] = { compiler, version_flag, NULL };
	struct strbuf out = STRBUF_INIT;
	struct run_opts o = { .argv = argv, .timeout_s = 30, .merge_stderr = 1, .out = &out };
	struct run_result r;
	int saved = util_quiet;
	util_quiet = 1;
	int rc = run_command(&o, &r);
	util_quiet = saved;
	if (rc < 0 || !r.exited || r.exit_code != 0) {
		strbuf_release(&out);
		return NULL;
	}
	/* nvcc puts the useful line last ("Cuda compilation tools, release
	 * 13.0, V13.0.88"); gcc puts it first.  Keep the whole text, trimmed:
	 * it is small, and it is what the key must depend on. */
	char *s = strbuf_detach(&out, NULL);
	rtrim(s);
	return s;
}

static int is_warning_line(const char *line, size_t len)
{
	static const char *const marks[] = { ": warning: ", ": warning #" };
	if (!len || line[0] == ' ' || line[0] == '\t')
		return 0;
	for (size_t i = 0; i < ARRAY_SIZE(marks); i++)
		if (memmem(line, len, marks[i], strlen(marks[i])))
			return 1;
	/* "ptxas warning : ...": the tool's name, then the mark */
	const char *sp = memchr(line, ' ', len);
	return sp && (size_t)(line + len - sp) >= 11 && !memcmp(sp, " warning : ", 11);
}

long long build_count_warnings(const char *log, char **first)
{
	*first = NULL;
	char **seen = NULL;
	size_t n = 0, cap = 0;
	for (const char *p = log; p && *p;) {
		const char *nl = strchr(p, '\n');
		size_t len = nl ? (size_t)(nl - p) : strlen(p);
		if (len && p[len - 1] == '\r')
			len--;
		if (is_warning_line(p, len)) {
			size_t i = 0;
			while (i < n && (strlen(seen[i]) != len || memcmp(seen[i], p, len)))
				i++;
			if (i == n) {
				if (n == cap) {
					cap = cap ? 2 * cap : 8;
					seen = xrealloc(seen, cap * sizeof(*seen));
				}
				seen[n++] = xstrndup(p, len);
			}
		}
		p = nl ? nl + 1 : p + len;
	}
	if (n)
		*first = strlen(seen[0]) > 300 ? xstrfmt("%.297s...", seen[0]) : xstrdup(seen[0]);
	for (size_t i = 0; i < n; i++)
		free(seen[i]);
	free(seen);
	return (long long)n;
}

long long build_info_warnings(const json_t *info, const char **first)
{
	json_t *w = json_object_get(info, "warnings");
	*first = json_string_value(json_object_get(w, "first"));
	return json_integer_value(json_object_get(w, "count"));
}

/* The log's warnings into info ({count, first}), for a fresh build and a
 * cached one alike (an entry cached before they were counted has none). */
static void note_warnings(json_t *info, const char *log)
{
	char *first;
	long long n = build_count_warnings(log, &first);
	/* the compiler's line quotes the source (a #line file name, a
	 * #warning's text): the batch's notes and show print it */
	char *shown = first ? printable_line(first) : NULL;
	json_object_set_new(info, "warnings",
			    json_pack("{s:I, s:o}", "count", (json_int_t)n, "first", shown ? json_string(shown) : json_null()));
	free(first);
	free(shown);
}

static int seen_path(json_t *sources, const char *path)
{
	size_t i;
	json_t *v;
	json_array_foreach(sources, i, v)
	{
		if (!strcmp(json_string_value(json_object_get(v, "path")), path))
			return 1;
	}
	return 0;
}

/* Normalise "a/b/../c" lexically so the same header is recorded once. */
static char *normalise_path(const char *path)
{
	char *copy = xstrdup(path);
	const char *parts[256];
	size_t n = 0;
	int absolute = path[0] == '/';
	for (char *tok = strtok(copy, "/"); tok; tok = strtok(NULL, "/")) {
		if (!strcmp(tok, "."))
			continue;
		if (!strcmp(tok, "..") && n && strcmp(parts[n - 1], "..")) {
			n--;
			continue;
		}
		if (n < ARRAY_SIZE(parts))
			parts[n++] = tok;
	}
	struct strbuf sb = STRBUF_INIT;
	if (absolute)
		strbuf_addch(&sb, '/');
	for (size_t i = 0; i < n; i++) {
		if (i)
			strbuf_addch(&sb, '/');
		strbuf_addstr(&sb, parts[i]);
	}
	free(copy);
	return strbuf_detach(&sb, NULL);
}

static int hash_sources_rec(const char *path, const char *const *include_dirs,
			    struct sha256_ctx *key, json_t *sources, int depth)
{
	if (depth > 64)
		return error("'%s': includes nest deeper than 64 levels", path);
	if (seen_path(sources, path))
		return 0;
	struct strbuf sb = STRBUF_INIT;
	if (read_file(path, &sb) < 0)
		return -1;
	char hex[SHA256_HEX_LEN + 1];
	sha256_hex(strbuf_str(&sb), sb.len, hex);
	json_array_append_new(sources, json_pack("{s:s, s:s}", "path", path, "sha256", hex));
	sha256_update_field(key, "path", path, strlen(path));
	sha256_update_field(key, "source", strbuf_str(&sb), sb.len);

	/* directory of this file, for includes relative to it */
	char *dir = xstrdup(path);
	char *slash = strrchr(dir, '/');
	if (slash)
		*slash = '\0';
	else
		strcpy(dir, ".");

	int rc = 0;
	char *save = NULL;
	char *text = strbuf_detach(&sb, NULL);
	for (char *line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char *inc = include_quoted(line);
		if (!inc)
			continue;
		char *found = NULL;
		char *cand = xstrfmt("%s/%s", dir, inc);
		if (path_exists(cand))
			found = cand;
		else
			free(cand);
		for (size_t i = 0; !found && include_dirs && include_dirs[i]; i++) {
			cand = xstrfmt("%s/%s", include_dirs[i], inc);
			if (path_exists(cand))
				found = cand;
			else
				free(cand);
		}
		free(inc);
		if (!found)
			continue; /* a system or toolkit header: the compiler version covers it */
		char *norm = normalise_path(found);
		free(found);
		rc = hash_sources_rec(norm, include_dirs, key, sources, depth + 1);
		free(norm);
		if (rc < 0)
			break;
	}
	free(text);
	free(dir);
	return rc;
}

int build_hash_sources(const char *path, const char *const *include_dirs,
		       struct sha256_ctx *key, json_t *sources)
{
	char *norm = normalise_path(path);
	int rc = hash_sources_rec(norm, include_dirs, key, sources, 0);
	free(norm);
	return rc;
}

/* ---- what the compiler may read ------------------------------------------------ */

/* Where a build's reads may lie: the repository (keyed), the toolchain and
 * the flags' own directories (not keyed: the compiler version and the argv
 * stand for them).  The build cache lies inside the repository but is
 * not part of it. */
struct build_bounds {
	char *repo, *cache, *tool;
	char **flag_dirs; /* NULL-terminated */
	char *private_dir; /* the first flag directory left out, not for everyone to read (root runner), or NULL */
	const struct repo_view_ops *view; /* the request's: what a record can name of repo */
	struct timespec began; /* CLOCK_REALTIME as the build began, before the key read a byte */
};

/* 1 when a's time is after b's */
static int ts_after(const struct timespec *a, const struct timespec *b)
{
	return a->tv_sec > b->tv_sec || (a->tv_sec == b->tv_sec && a->tv_nsec > b->tv_nsec);
}

static int under(const char *path, const char *dir)
{
	size_t n = dir ? strlen(dir) : 0;
	if (!n)
		return 0;
	if (n == 1 && dir[0] == '/')
		return path[0] == '/';
	return !strncmp(path, dir, n) && (path[n] == '/' || path[n] == '\0');
}

static const char *const toolchain_dirs[] = { "/usr", "/lib", "/lib32", "/lib64", "/libx32", "/etc/alternatives",
					      NULL };

/* 1 when path is one of toolchain_dirs or under one. */
static int in_toolchain(const char *path)
{
	for (int t = 0; toolchain_dirs[t]; t++)
		if (under(path, toolchain_dirs[t]))
			return 1;
	return 0;
}

/* The compiler's executable as exec would find it (through PATH when the
 * name has no '/'), symlinks resolved; malloc'd, or NULL. */
static char *compiler_exe(const char *compiler)
{
	char *exe = NULL;
	if (strchr(compiler, '/')) {
		exe = realpath(compiler, NULL);
	} else {
		const char *path = getenv("PATH");
		char *copy = xstrdup(path && *path ? path : "/usr/bin:/bin"), *save = NULL;
		for (char *d = strtok_r(copy, ":", &save); d && !exe; d = strtok_r(NULL, ":", &save)) {
			char *p = xstrfmt("%s/%s", d, compiler);
			if (access(p, X_OK) == 0)
				exe = realpath(p, NULL);
			free(p);
		}
		free(copy);
	}
	return exe;
}

/* The install tree of the compiler (/usr for /usr/bin/cc, the CUDA home
 * for nvcc), found through PATH when it has no '/'; malloc'd or NULL. */
static char *compiler_prefix(const char *compiler)
{
	char *exe = compiler_exe(compiler);
	for (int up = 0; exe && up < 2; up++) {
		char *slash = strrchr(exe, '/');
		if (slash && slash != exe)
			*slash = '\0';
		else {
			free(exe);
			exe = NULL;
		}
	}
	return exe;
}

/* An absolute, symlink-free form of path (as is when it does not exist
 * here: a file only the box had). */
static char *resolved(const char *path)
{
	char *r = realpath(path, NULL), cwd[PATH_MAX];
	if (r)
		return r;
	if (path[0] == '/' || !getcwd(cwd, sizeof(cwd)))
		return normalise_path(path);
	char *joined = xstrfmt("%s/%s", cwd, path), *n = normalise_path(joined);
	free(joined);
	return n;
}

/*
 * Every name a search directory shows joins the build key: a header only
 * looked for (`#if __has_include(<marker>)`, spelled by pasting as well)
 * is in no dependency list gcc writes and no file the key reads, yet its
 * mere presence chose the code (red team 81's hasinc: one key and one
 * sources list for two programs, and eval promoted a comment-only copy
 * against the cached reference).  The directories are the flags' -I,
 * -isystem, -iquote, -idirafter and -L (attached or not) outside the
 * repository and the toolchain; each is walked whole (names, kinds and
 * link targets, sorted; a link to a directory is walked too, where the
 * compiler would look: red team 82's deep put the marker 12 directories
 * down, past a walk of 8), LIST_MAX entries in all, LIST_DEPTH levels at
 * most (a link cycle ends there), past either refused.  The
 * repository's own directories are its commit and patch's (a name only
 * probed there is in the record's diff, not in the key: README, "Still
 * out of reach").  Returns 0, or -1 with the reason in *why (malloc'd):
 * too many names to list.
 */
#define LIST_MAX 20000
#define LIST_DEPTH 64

static int name_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static int list_dir(struct sha256_ctx *key, const char *dir, const char *rel, int depth, size_t *left, char **why)
{
	DIR *d = opendir(dir);
	if (!d) {
		sha256_update_field(key, "unlisted", rel, strlen(rel));
		return 0;
	}
	char **names = NULL;
	size_t n = 0, cap = 0;
	struct dirent *e;
	while ((e = readdir(d))) {
		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		if (n == cap)
			names = xrealloc(names, (cap = cap ? 2 * cap : 32) * sizeof(char *));
		names[n++] = xstrdup(e->d_name);
	}
	closedir(d);
	if (n)
		qsort(names, n, sizeof(char *), name_cmp);
	int rc = 0;
	for (size_t i = 0; i < n; i++) {
		if (rc == 0 && (*left)-- == 0) {
			*why = xstrfmt("the search directory '%s' and the others the build names show more than %d "
				       "names: the build key lists every name they show (a header only looked for "
				       "with __has_include chooses the code), so name a smaller directory in the "
				       "flags, or keep the kernel's own directory small",
				       dir, LIST_MAX);
			rc = -1;
		}
		if (rc == 0) {
			char *path = xstrfmt("%s/%s", dir, names[i]), *sub = xstrfmt("%s/%s", rel, names[i]);
			struct stat st;
			char kind = lstat(path, &st) < 0 ? '?' : S_ISDIR(st.st_mode) ? 'd' : S_ISLNK(st.st_mode) ? 'l' : 'f';
			sha256_update_field(key, "name", sub, strlen(sub));
			sha256_update_field(key, "kind", &kind, 1);
			struct stat to;
			if (kind == 'l') {
				char target[PATH_MAX];
				ssize_t t = readlink(path, target, sizeof(target));
				sha256_update_field(key, "link", target, t > 0 ? (size_t)t : 0);
			}
			if (kind == 'd' || (kind == 'l' && stat(path, &to) == 0 && S_ISDIR(to.st_mode))) {
				if (depth >= LIST_DEPTH) {
					*why = xstrfmt("the search directory '%s' goes more than %d directories deep "
						       "(or its links make a cycle): the build key lists every name it "
						       "shows, so name a shallower directory in the flags",
						       dir, LIST_DEPTH);
					rc = -1;
				} else {
					rc = list_dir(key, path, sub, depth + 1, left, why);
				}
			}
			free(path);
			free(sub);
		}
		free(names[i]);
	}
	free(names);
	return rc;
}

static int hash_search_dirs(struct sha256_ctx *key, const char *const *argv, const char *repo_root,
			    const char *compiler, char **why)
{
	char *prefix = NULL;
	const char **dirs = NULL;
	size_t n = 0;
	for (size_t i = 0; argv[i]; i++) {
		static const char *const opt[] = { "-I", "-isystem", "-iquote", "-idirafter", "-L", NULL };
		for (int k = 0; opt[k]; k++) {
			size_t l = strlen(opt[k]);
			if (strncmp(argv[i], opt[k], l))
				continue;
			const char *d = argv[i][l] ? argv[i] + l : argv[i + 1];
			if (argv[i][l] && k > 0 && k < 4 && argv[i][l] == '=') /* -isystem=DIR is a sysroot's */
				d = NULL;
			if (d && *d) {
				dirs = xrealloc(dirs, (n + 3) * sizeof(char *));
				dirs[n++] = d;
			}
			break;
		}
	}
	char **seen = xcalloc(n + 1, sizeof(char *));
	size_t n_seen = 0, left = LIST_MAX;
	int rc = 0;
	prefix = compiler_prefix(compiler);
	char *repo = resolved(repo_root);
	for (size_t i = 0; i < n && rc == 0; i++) {
		char *r = resolved(dirs[i]);
		int skip = in_toolchain(r) || (prefix && under(r, prefix)) || under(r, repo);
		for (size_t j = 0; j < n_seen && !skip; j++)
			skip = !strcmp(seen[j], r);
		if (skip) {
			free(r);
			continue;
		}
		seen[n_seen++] = r;
		sha256_update_field(key, "search_dir", r, strlen(r));
		rc = list_dir(key, r, "", 0, &left, why);
	}
	for (size_t j = 0; j < n_seen; j++)
		free(seen[j]);
	free(seen);
	free(dirs);
	free(prefix);
	free(repo);
	return rc;
}

static void bounds_init(struct build_bounds *b, const struct build_request *rq, const char *compiler,
			const char *const *argv)
{
	b->repo = resolved(rq->repo_root);
	b->cache = resolved(rq->cache_dir);
	b->tool = compiler_prefix(compiler);
	size_t n = 0;
	for (size_t i = 0; argv[i]; i++)
		n++;
	b->flag_dirs = xcalloc(n + 1, sizeof(char *));
	size_t k = 0;
	for (size_t i = 0; argv[i]; i++) {
		const char *d = NULL;
		if (!strncmp(argv[i], "-I", 2) || !strncmp(argv[i], "-L", 2))
			d = argv[i][2] ? argv[i] + 2 : argv[i + 1];
		else if (!strcmp(argv[i], "-isystem"))
			d = argv[i + 1];
		if (d && d[0]) {
			char *r = resolved(d);
			/* the flags' directories inside the repository are the
			 * repository's; one outside it, where the runner is root, is
			 * shown only when anyone may read it (red team 57's
			 * include_leak: -I of a 0700 directory put a 0600 header's
			 * secret into the stored build log) */
			if (under(r, b->repo) && !under(r, b->cache))
				free(r);
			else if (geteuid() == 0 && !sandbox_public_path(r)) {
				if (!b->private_dir)
					b->private_dir = xstrdup(r);
				free(r);
			} else {
				b->flag_dirs[k++] = r;
			}
		}
	}
}

static void bounds_release(struct build_bounds *b)
{
	free(b->repo);
	free(b->cache);
	free(b->tool);
	for (char **d = b->flag_dirs; d && *d; d++)
		free(*d);
	free(b->flag_dirs);
	free(b->private_dir);
}

enum read_kind { READ_OUTSIDE = 0, READ_REPO, READ_TOOLCHAIN };

static enum read_kind classify_read(const struct build_bounds *b, const char *abs)
{
	if (under(abs, b->repo) && !under(abs, b->cache))
		return READ_REPO;
	if (in_toolchain(abs))
		return READ_TOOLCHAIN;
	if (b->tool && under(abs, b->tool))
		return READ_TOOLCHAIN;
	for (char **d = b->flag_dirs; d && *d; d++)
		if (under(abs, *d))
			return READ_TOOLCHAIN;
	return READ_OUTSIDE;
}

/* Why a kernel source must not be compiled (malloc'd), or NULL: it uses
 * the assembler's .incbin (any case: gas takes .INCBIN too), or it
 * includes an absolute path outside the repository and the toolchain. */
static char *refusal_of(const struct build_bounds *b, const char *path, const char *text)
{
	if (strcasestr(text, "incbin"))
		return xstrfmt("'%s' uses .incbin: the assembler would read a file that neither the build key nor "
			       "the record covers (put the data in a header of the repository)",
			       path);
	char *copy = xstrdup(text), *save = NULL, *why = NULL;
	for (char *line = strtok_r(copy, "\n", &save); line && !why; line = strtok_r(NULL, "\n", &save)) {
		char *inc = include_quoted(line);
		if (inc && inc[0] == '/') {
			char *abs = resolved(inc);
			if (classify_read(b, abs) == READ_OUTSIDE)
				why = xstrfmt("'%s' includes '%s', outside the repository", path, inc);
			free(abs);
		}
		free(inc);
	}
	free(copy);
	return why;
}

/*
 * The compiler's environment: an allow list too.  gcc and nvcc read
 * variables that change what they run and read (COMPILER_PATH,
 * GCC_EXEC_PREFIX, LIBRARY_PATH, CPATH, C_INCLUDE_PATH, LD_RUN_PATH,
 * DEPENDENCIES_OUTPUT, NVCC_PREPEND_FLAGS, NVCC_APPEND_FLAGS, NVCC_CCBIN,
 * LD_PRELOAD, LD_LIBRARY_PATH...), and a list of those would be a deny
 * list again.  So the build runs with these alone, cleared of every
 * other: PATH (where gcc finds as and ld and nvcc its host compiler) and
 * the locale (gcc's default input character set is the locale's), and
 * their values join the build key (build_env_hash): another PATH or
 * locale is another build.
 */
static const char *const build_env_keep[] = { "PATH", "LANG", "LANGUAGE", "LC_*", NULL };
/* and one set: gcc takes __DATE__ and __TIME__ from SOURCE_DATE_EPOCH, so
 * a kernel that gets past -Werror=date-time (a `#pragma GCC diagnostic
 * ignored "-Wdate-time"`, a system header: -isystem, `#pragma GCC
 * system_header`) reads 1970, not the time of its build; a constant, so
 * not in the key.  __TIMESTAMP__ is the source file's time, not this. */
static const char *const build_env_set[] = { "SOURCE_DATE_EPOCH=0", NULL };

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* the kept variables ("NAME=VALUE", sorted) into the key */
static void build_env_hash(struct sha256_ctx *key)
{
	extern char **environ;
	size_t n = 0, k = 0;
	while (environ[n])
		n++;
	const char **kept = xcalloc(n + 1, sizeof(char *));
	for (size_t i = 0; i < n; i++) {
		const char *e = environ[i];
		size_t nl = strcspn(e, "=");
		for (size_t j = 0; build_env_keep[j]; j++) {
			size_t kl = strlen(build_env_keep[j]);
			int star = build_env_keep[j][kl - 1] == '*';
			if (star ? nl >= kl - 1 && !strncmp(e, build_env_keep[j], kl - 1)
				 : nl == kl && !strncmp(e, build_env_keep[j], kl)) {
				kept[k++] = e;
				break;
			}
		}
	}
	qsort(kept, k, sizeof(char *), cmp_str);
	for (size_t i = 0; i < k; i++)
		sha256_update_field(key, "env", kept[i], strlen(kept[i]));
	free(kept);
}

/* Refusal of any file in sources ([{path, sha256}]), or NULL. */
static char *refusal_of_sources(const struct build_bounds *b, json_t *sources)
{
	size_t i;
	json_t *v;
	json_array_foreach(sources, i, v)
	{
		const char *path = json_string_value(json_object_get(v, "path"));
		struct strbuf sb = STRBUF_INIT;
		char *why = read_file(path, &sb) < 0 ? NULL : refusal_of(b, path, strbuf_str(&sb));
		strbuf_release(&sb);
		if (why)
			return why;
	}
	return NULL;
}

/* The prerequisites of a make rule file as the compiler wrote it (gcc:
 * "out: a b \", nvcc: "out : a \"), NULL-terminated; the caller frees it
 * with free_strv.  NULL when the file cannot be read.  The rule's one
 * target ends the target part: every word after it is a file, one ending
 * in ':' too (red team 113: gcc writes a header named "sel.h:" unescaped,
 * and it was taken for a target and left out of the list); each once
 * (build_toolchain.c toolchain_trace_list, which reads gas's list so). */
static char **parse_deps(const char *path)
{
	return toolchain_trace_list(path);
}

/* 1 when name is well-formed UTF-8 without control characters: what a
 * record (JSON) holds as it is (printable_line changes nothing) */
static int printable_name(const char *name)
{
	char *p = printable_line(name);
	int same = !strcmp(p, name);
	free(p);
	return same;
}

static void free_strv(char **v)
{
	for (char **p = v; p && *p; p++)
		free(*p);
	free(v);
}

/* abs is in a directory a flag named outside the repository and the
 * toolchain (-I, -L, -isystem): the kernel's, not the compiler's */
static int in_flag_dir(const struct build_bounds *b, const char *abs)
{
	if (under(abs, b->repo))
		return 0;
	if (in_toolchain(abs))
		return 0;
	if (b->tool && under(abs, b->tool))
		return 0;
	for (char **d = b->flag_dirs; d && *d; d++)
		if (under(abs, *d))
			return 1;
	return 0;
}

/* path (absolute) joins the sources with the hash of its contents, once;
 * NULL, or the reason it cannot be read (malloc'd) */
/* The hashes of the files a compile was shown as copies (shown_copy),
 * by real path, which add_source records instead of reading the file
 * again; set by build_run for one build (builds run one at a time in a
 * process), NULL otherwise. */
static const json_t *shown_hashes;

/* path's hash into sources, once: the copy's the compile was shown where
 * there was one (shown_hashes, by real), else the file's now. */
static char *add_source_as(json_t *sources, const char *path, const char *real)
{
	if (seen_path(sources, path))
		return NULL;
	const char *shown = json_string_value(json_object_get(shown_hashes, real ? real : path));
	if (shown) {
		json_array_append_new(sources, json_pack("{s:s, s:s}", "path", path, "sha256", shown));
		return NULL;
	}
	char hex[SHA256_HEX_LEN + 1];
	if (sha256_file_hex(path, hex) < 0)
		return xstrfmt("cannot read '%s', which the build read", path);
	json_array_append_new(sources, json_pack("{s:s, s:s}", "path", path, "sha256", hex));
	return NULL;
}

static char *add_source(json_t *sources, const char *path)
{
	return add_source_as(sources, path, NULL);
}

/*
 * A file the build's output depends on beyond its compiler's own list (a
 * library it loads, a linker input) as the kernel's code: into sources
 * with its hash, by its path in the repository there, else by its
 * absolute path; nothing for the toolchain's (the system's directories,
 * the compiler's install tree) or the build cache's (the job's own
 * objects).  NULL, or the reason (malloc'd).
 */
static int system_file(const struct build_bounds *b, const char *abs)
{
	return !abs || (b->tool && under(abs, b->tool)) || (b->cache && under(abs, b->cache)) || in_toolchain(abs);
}

static char *add_code_file(const struct build_bounds *b, const char *path, json_t *sources)
{
	char *abs = resolved(path), *why = NULL;
	int system = system_file(b, abs);
	if (!system && under(abs, b->repo) && abs[strlen(b->repo)] == '/') {
		char *rel = normalise_path(abs + strlen(b->repo) + 1);
		why = add_source_as(sources, rel, abs);
		free(rel);
	} else if (!system) {
		why = add_source(sources, abs);
	}
	free(abs);
	return why;
}

/*
 * The libraries the object loads from outside the toolchain, where the
 * box's loader search finds them (sandbox_object_libraries: DT_NEEDED,
 * each library's own, through RPATH, LD_LIBRARY_PATH, RUNPATH and the
 * system's directories): they are the kernel's code as much as its
 * sources (red team 72: a library under a spec's -L directory changed
 * between batches under one build key and code identity, and eval held
 * 15 of 15 honest faster candidates by its fast batch; the same through
 * an rpath outside every flag directory).  One in the repository is named
 * by its path there.  Into sources with their hashes (add_source: each
 * once); NULL, or the reason (malloc'd).  A library the search cannot
 * take adds nothing: the box refuses the object when it starts, saying
 * why.
 */
static char *object_libraries(const struct build_bounds *b, char *const *libs, json_t *sources)
{
	char *why = NULL;
	for (char *const *l = libs; l && *l && !why; l++) {
		size_t before = json_array_size(sources);
		why = add_code_file(b, *l, sources);
		/* marked as loaded, not linked in: the object's binary, echo-
		 * neutral and load hashes do not cover it, so the readers
		 * compare its hash beside them (code_identity.c, red team 87's
		 * lib: one object with two versions of its library was one
		 * code to the drift rule) */
		if (!why && json_array_size(sources) > before)
			json_object_set_new(json_array_get(sources, before), "loaded", json_true());
	}
	return why;
}

/*
 * The linker's inputs the spec's flags name, which no -MD list has: an
 * object or archive named as an operand, and what -lNAME (-l:FILE) finds
 * in a -L directory (libNAME.a, libNAME.so): their hashes join the
 * sources, so the code identity and a cache hit see them change (red team
 * 77: `-L/tmp/rt77lib -lrt77pass` with only an archive there, and an
 * object named in the flags, made two programs one build key and one
 * code; eval held 18 of 18 honest faster candidates by the fast batch).
 * The output (out) and the compiler's own inputs are not flags'.  NULL,
 * or the reason (malloc'd).
 */
/*
 * A linker input outside the toolchain that is no ELF object and no
 * (full) archive: a text linker script (`INPUT(...)`, `GROUP(...)`) or a
 * thin archive, which makes the linker read files that neither the
 * flags nor this list name, so no hash covers them.  The reason
 * (malloc'd), or NULL.  The toolchain's own scripts (libc.so) are the
 * toolchain's.
 */
static char *linker_script_refusal(const struct build_bounds *b, const char *path)
{
	char *abs = resolved(path), *why = NULL;
	if (!system_file(b, abs)) {
		char head[8] = { 0 };
		FILE *f = fopen(path, "rb");
		size_t got = f ? fread(head, 1, sizeof(head), f) : 0;
		if (f)
			fclose(f);
		int elf = got >= 4 && !memcmp(head, "\x7f" "ELF", 4);
		int archive = got == 8 && !memcmp(head, "!<arch>\n", 8);
		if (!elf && !archive)
			why = xstrfmt("the linker input '%s' is no ELF object or archive (a linker script or a thin "
				      "archive): the linker would read files it names that no key covers; link the "
				      "objects themselves",
				      abs);
	}
	free(abs);
	return why;
}

/*
 * The files the linker may open for argv[i] when it is -lNAME (or -l
 * NAME): NAME's archive and shared library (or, for -l:FILE, FILE) in
 * each -L directory, in *cands (grown; *nc counts them; the caller frees
 * each and the array).  Nothing for another argument.
 */
static void lib_candidates(const char *const *argv, size_t i, char ***cands, size_t *nc)
{
	const char *a = argv[i];
	if (strncmp(a, "-l", 2))
		return;
	const char *name = a[2] ? a + 2 : argv[i + 1];
	if (!name)
		return;
	for (size_t j = 1; argv[j]; j++) {
		const char *d = NULL;
		if (!strncmp(argv[j], "-L", 2))
			d = argv[j][2] ? argv[j] + 2 : argv[j + 1];
		if (!d || !d[0])
			continue;
		*cands = xrealloc(*cands, (*nc + 2) * sizeof(char *));
		if (name[0] == ':') {
			(*cands)[(*nc)++] = xstrfmt("%s/%s", d, name + 1);
		} else {
			(*cands)[(*nc)++] = xstrfmt("%s/lib%s.a", d, name);
			(*cands)[(*nc)++] = xstrfmt("%s/lib%s.so", d, name);
		}
	}
}

static char *linker_inputs(const struct build_bounds *b, const char *const *argv, const char *out, json_t *sources)
{
	char *why = NULL;
	for (size_t i = 1; argv[i] && !why; i++) {
		const char *a = argv[i];
		char **cands = NULL;
		size_t nc = 0;
		if (!strncmp(a, "-l", 2)) {
			lib_candidates(argv, i, &cands, &nc);
		} else if (a[0] != '-') {
			size_t n = strlen(a);
			int linkable = (n > 2 && (!strcmp(a + n - 2, ".o") || !strcmp(a + n - 2, ".a"))) ||
				       (n > 3 && !strcmp(a + n - 3, ".so")) || strstr(a, ".so.");
			if (linkable && (!out || strcmp(a, out)) && strcmp(argv[i - 1], "-o") && strcmp(argv[i - 1], "-MF")) {
				cands = xrealloc(cands, sizeof(char *));
				cands[nc++] = xstrdup(a);
			}
		}
		for (size_t k = 0; k < nc; k++) {
			if (!why && path_exists(cands[k]))
				why = linker_script_refusal(b, cands[k]);
			if (!why && path_exists(cands[k]))
				why = add_code_file(b, cands[k], sources);
			free(cands[k]);
		}
		free(cands);
	}
	return why;
}

/*
 * The toolchain's files the build read, and the system's libraries the
 * object loads, each with its hash (red team 204: the key named the
 * compiler by its version, and a header put in /usr/include, an archive
 * or shared library in the linker's default directory, a gas `.include`
 * file or an `apt upgrade` changed the program under one key; a shared
 * library the kernel linked was copied into the run box at each run and
 * hashed nowhere).  The files: the toolchain's in the compile's own list
 * (deps: the preprocessor's reads under /usr and the compiler's tree),
 * every file the assembler (gcc's, with_as: traced[0]) and the linker
 * (traced[1]) say they read, and each library the loader would map for
 * the object from the system (sandbox_object_libraries).  A repository
 * or flag-directory file the assembler or linker read joins the sources
 * (add_code_file); one outside the repository and the toolchain fails the
 * build, and so does a toolchain file gone or unreadable since.  Names
 * that are no file here (the compiler's temporaries in the box's /tmp, a
 * relative name the box alone resolved) are left out.  *out: {sha256,
 * files: [{path, sha256, loaded?, stat: [dev, ino, size, mtime_ns,
 * ctime_ns]}]}, sorted by path (new reference; stat is the cache's, the
 * record leaves it out).  NULL, or why the build fails (malloc'd).
 */
/* abs is the toolchain's: the system's or the compiler's tree's, not the
 * repository's (a compiler whose tree holds it: a wrapper beside the
 * checkout), a flag directory's or the build cache's */
static int toolchain_file(const struct build_bounds *b, const char *abs)
{
	return classify_read(b, abs) == READ_TOOLCHAIN && !in_flag_dir(b, abs) && !(b->cache && under(abs, b->cache));
}

static char *toolchain_reads(const struct build_bounds *b, const char *deps, char **const traced[2], int with_as,
			     const char *src, char *const *libs, json_t *sources, json_t **out)
{
	json_t *tc = json_object(); /* real path -> "read" | "loaded" */
	char *why = NULL;
	char **list = parse_deps(deps);
	for (char **d = list; d && *d; d++) {
		char *abs = resolved(*d);
		if (toolchain_file(b, abs))
			json_object_set_new(tc, abs, json_string("read"));
		free(abs);
	}
	free_strv(list);
	if (with_as && !traced[0])
		why = xstrdup("the assembler wrote no list of the files it read (--MD), so what the build read is "
			      "unknown");
	if (!why && !traced[1])
		why = xstrdup("the linker wrote no list of the files it read (--dependency-file, binutils 2.35 or "
			      "later), so what the build read is unknown");
	for (int k = 0; k < 2 && !why; k++)
		for (char **d = traced[k]; d && *d && !why; d++) {
			/* the assembler's `.file`: the source as the compiler named it */
			const char *base = strrchr(src, '/') ? strrchr(src, '/') + 1 : src;
			if ((*d)[0] != '/' && (!strcmp(*d, src) || !strcmp(*d, base)))
				continue;
			char *abs = resolved(*d);
			struct stat st;
			int here = lstat(abs, &st) == 0;
			int system = toolchain_file(b, abs);
			if (b->cache && under(abs, b->cache)) {
				/* the build's own files (the entry being built) */
			} else if (!here) {
				/* a relative name is the assembler's `.file` (the
				 * source as the compile named it, from its own
				 * directory): the source is the key's already; an
				 * absolute one under /tmp the compiler's temporary
				 * in the box's own /tmp; any other is a file read
				 * that is not here (gone since, or a name its list
				 * did not write whole: red team 205) */
				if ((*d)[0] == '/' && strncmp(*d, "/tmp/", 5))
					why = xstrfmt("the %s read '%s', which is no file here (gone since the build "
						      "read it, or a name its list cannot write whole): build again with "
						      "the toolchain left alone, or rename the file",
						      k ? "linker" : "assembler", *d);
			} else if (system) {
				json_object_set_new(tc, abs, json_string("read"));
			} else if (classify_read(b, abs) != READ_OUTSIDE) {
				why = add_code_file(b, abs, sources);
			} else {
				/* however it is spelled (red team 205: "../../dev/null"
				 * passed where "/dev/null" was refused) */
				why = xstrfmt("the %s read '%s', outside the repository and the toolchain",
					      k ? "linker" : "assembler", abs);
			}
			free(abs);
		}
	for (char *const *l = libs; !why && l && *l; l++) {
		char *abs = resolved(*l);
		if (toolchain_file(b, abs))
			json_object_set_new(tc, abs, json_string("loaded"));
		free(abs);
	}
	const char **paths = xcalloc(json_object_size(tc) + 1, sizeof(char *));
	size_t n = 0;
	const char *path;
	json_t *kind;
	json_object_foreach(tc, path, kind)
		paths[n++] = path;
	if (n)
		qsort(paths, n, sizeof(char *), cmp_str);
	json_t *files = json_array();
	struct sha256_ctx *all = sha256_begin();
	for (size_t i = 0; i < n && !why; i++) {
		char hex[SHA256_HEX_LEN + 1];
		struct toolchain_stat st;
		if (toolchain_file_sha(paths[i], hex, &st) < 0) {
			why = xstrfmt("cannot read '%s', a toolchain file the build read", paths[i]);
			break;
		}
		int loaded = !strcmp(json_string_value(json_object_get(tc, paths[i])), "loaded");
		json_t *f = json_pack("{s:s, s:s, s:[I, I, I, I, I]}", "path", paths[i], "sha256", hex, "stat",
				      (json_int_t)st.dev, (json_int_t)st.ino, (json_int_t)st.size,
				      (json_int_t)st.mtime_ns, (json_int_t)st.ctime_ns);
		if (loaded)
			json_object_set_new(f, "loaded", json_true());
		json_array_append_new(files, f);
		sha256_update_field(all, "path", paths[i], strlen(paths[i]));
		sha256_update_field(all, loaded ? "loaded" : "read", hex, strlen(hex));
	}
	char digest[SHA256_HEX_LEN + 1];
	sha256_end(all, digest);
	free(paths);
	json_decref(tc);
	if (why) {
		json_decref(files);
		return why;
	}
	*out = json_pack("{s:s, s:o}", "sha256", digest, "files", files);
	return NULL;
}

/* Does the entry's toolchain manifest still hold: each file as it was
 * (its stat, else its bytes), and each system library the loader would
 * map for the object at so now among them?  (1 yes; 0: stale.) */
static int toolchain_current(const json_t *info, const struct build_bounds *b, char *const *libs)
{
	json_t *files = json_object_get(json_object_get(info, "toolchain"), "files");
	if (!json_is_array(files))
		return 0;
	size_t i;
	json_t *f;
	json_array_foreach(files, i, f)
	{
		json_t *sv = json_object_get(f, "stat");
		struct toolchain_stat st = { 0 };
		int have = json_array_size(sv) == 5;
		if (have) {
			st.dev = (unsigned long long)json_integer_value(json_array_get(sv, 0));
			st.ino = (unsigned long long)json_integer_value(json_array_get(sv, 1));
			st.size = (unsigned long long)json_integer_value(json_array_get(sv, 2));
			st.mtime_ns = json_integer_value(json_array_get(sv, 3));
			st.ctime_ns = json_integer_value(json_array_get(sv, 4));
		}
		if (!toolchain_file_current(json_string_value(json_object_get(f, "path")),
					    json_string_value(json_object_get(f, "sha256")), have ? &st : NULL))
			return 0;
	}
	int ok = 1;
	for (char *const *l = libs; l && *l && ok; l++) {
		char *abs = resolved(*l);
		if (toolchain_file(b, abs)) {
			int found = 0;
			json_array_foreach(files, i, f)
				found |= !strcmp(json_string_value(json_object_get(f, "path")), abs);
			ok = found;
		}
		free(abs);
	}
	return ok;
}

/*
 * After a successful compile: every file in the dependency list at deps
 * must lie in the repository or the toolchain; repository files join
 * sources (hashed) and must not use .incbin.  NULL, or why the build
 * fails (malloc'd).
 */
static char *check_deps(const struct build_bounds *b, const char *deps, json_t *sources, const json_t *pre)
{
	char **list = parse_deps(deps);
	if (!list)
		return xstrdup("the compiler wrote no dependency list (-MD), so what the build read is unknown");
	char *why = NULL;
	for (char **d = list; *d && !why; d++) {
		char *abs = resolved(*d);
		enum read_kind k = classify_read(b, abs);
		struct stat ex;
		if (lstat(abs, &ex) != 0) {
			why = xstrfmt("the compiler's dependency list names '%s', which is no file (a file name the list "
				      "cannot write whole, such as one with a newline in it): rename the file the kernel "
				      "includes",
				      *d);
		} else if (k == READ_OUTSIDE) {
			why = xstrfmt("the kernel's build read '%s', outside the repository", abs);
		} else if (k == READ_TOOLCHAIN && in_flag_dir(b, abs)) {
			/* a header of a flag's directory outside the repository is
			 * the kernel's code: its hash joins the sources, so the
			 * identity and the cache see it change (red team 72); one
			 * with other names (a hard link) may be any file of the host,
			 * the store's own index included (red team 98's store_peek) */
			struct stat st;
			if (stat(abs, &st) == 0 && S_ISREG(st.st_mode) && st.st_nlink > 1)
				why = xstrfmt("the kernel's build read '%s', a file with %lu names (a hard link): "
					      "it may be any file of the host, the store's included; copy it into "
					      "the repository or the directory",
					      abs, (unsigned long)st.st_nlink);
			else if (json_object_get(pre, abs)) /* the copy's bytes, what the compile read */
				json_array_append_new(sources, json_pack("{s:s, s:O}", "path", abs, "sha256",
									 json_object_get(pre, abs)));
			else
				why = add_source(sources, abs);
		} else if (k == READ_REPO) {
			char *norm = normalise_path(*d);
			/* a file the build key hashed before the compile: the
			 * copy the compile read must be those bytes, else the
			 * key names a program other than the object (red team
			 * 102's reporace: a header renamed over mid-build, 3 of
			 * 14 records named the version the object lacks) */
			const char *shown = json_string_value(json_object_get(pre, abs));
			size_t si;
			json_t *sv;
			json_array_foreach(sources, si, sv)
			{
				const char *h = json_string_value(json_object_get(sv, "sha256"));
				if (!why && shown && h && !strcmp(json_string_value(json_object_get(sv, "path")), norm) &&
				    strcmp(h, shown))
					why = xstrfmt("'%s' changed while the kernel was built (the build key hashed other "
						      "bytes than the compile read): build again with the file left alone",
						      norm);
			}
			if (!why && !seen_path(sources, norm)) {
				struct strbuf sb = STRBUF_INIT;
				if (read_file(norm, &sb) < 0) {
					why = xstrfmt("cannot read '%s', which the build read", norm);
				} else {
					/* the bytes the compile was shown (a copy), where
					 * it was shown one, not the file now */
					char hex[SHA256_HEX_LEN + 1];
					const char *shown = json_string_value(json_object_get(pre, abs));
					sha256_hex(strbuf_str(&sb), sb.len, hex);
					json_array_append_new(sources, json_pack("{s:s, s:s}", "path", norm, "sha256",
										 shown ? shown : hex));
					why = refusal_of(b, norm, strbuf_str(&sb));
				}
				strbuf_release(&sb);
			}
			free(norm);
		}
		free(abs);
	}
	free_strv(list);
	return why;
}

/*
 * Pass 1 of a boxed build: the compiler's own argv with -M in place of
 * "-MD -MF DEPS -o OUT" (gcc and nvcc both print the make rule on stdout),
 * run in the build box with the whole repository shown.  *files gets the
 * repository files the rule names: absolute, NULL-terminated, the caller
 * frees it with free_strv.  Pass 2, the compile itself, then sees those
 * files and no other of the repository: what the assembler reads on its
 * own (its include-binary directive, spelled so that no text search finds
 * it) never appears in a -MD list, so a binary could hold a file its
 * record does not name (red team 3, asm_paste).  0; 1 when the
 * preprocessor failed (its messages in *log, its ending in *rr); -1 when
 * it could not be run.
 */
/*
 * May the compile be shown flag-directory file (or -l library) real, the
 * file the name it opens resolves to?  A regular file with one name (a
 * hard link may be any file of the host, the store's index included: red
 * team 98's store_peek) inside a flag directory or the toolchain, never
 * under the store or the build cache (red team 100's libsym: a library
 * name that was a link to the store's index, or to its root, showed it
 * to the compile, which quoted its lines into the stored log), readable
 * by anyone where the runner is root (a private file: red team 57)
 * (shown_copy checks a library's bytes).  NULL, or why not (malloc'd).
 */
static char *showable(const struct build_bounds *b, const struct sandbox *box, const char *opened, const char *real)
{
	struct stat st;
	if (stat(real, &st) < 0 || !S_ISREG(st.st_mode))
		return xstrfmt("'%s' is no regular file", opened);
	if (st.st_nlink > 1)
		return xstrfmt("'%s' is a file with %lu names (a hard link): it may be any file of the host", opened,
			       (unsigned long)st.st_nlink);
	if (under(real, b->cache))
		return xstrfmt("'%s' is a file of the build cache", opened);
	for (char **h = box && box->hide ? box->hide : NULL; h && *h; h++)
		if (under(real, *h))
			return xstrfmt("'%s' is a file of the store", opened);
	if (!in_flag_dir(b, real) && classify_read(b, real) != READ_TOOLCHAIN)
		return xstrfmt("'%s' is '%s', outside the flag directories and the toolchain", opened, real);
	if (geteuid() == 0 && !sandbox_public_path(real))
		return xstrfmt("'%s' is not for everyone to read", opened);
	return NULL;
}

/* Write n bytes to a new file path (0644, read-only to the box once
 * bound).  0, or -1. */
static int write_file_bytes(const char *path, const char *data, size_t n)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
	if (fd < 0)
		return -1;
	int rc = write_all(fd, data, n);
	if (close(fd) != 0)
		rc = -1;
	return rc;
}

/*
 * A copy of the file real (opened: the name the compiler opens), for the
 * compile to be shown at opened: the file is opened once (O_NOFOLLOW),
 * checked by its descriptor (showable's rules unless repo: a file of the
 * repository, and the same file as real's name gave), read through it,
 * hashed into prehash[real] and written to tmpdir/copy-IDX; *entry gets
 * the sandbox_wrap_build entry ">COPY\nOPENED" (malloc'd).  A library
 * must also be an ELF object or a full archive.  Red teams 100 and 102:
 * a file checked by its name and bound later by its name was swapped in
 * between (the store's index quoted into 6 of 12 logs; a header or an
 * archive replaced mid-build recorded as the other version).  NULL, or
 * why it is not shown (malloc'd).
 */
#define P1_COPY_MAX (1 << 20) /* a larger file of a directory shown in part is bound, not copied */

static char *shown_copy(const struct build_bounds *b, const struct sandbox *box, const char *opened, const char *real,
			int library, int repo, const char *tmpdir, size_t idx, json_t *prehash, const json_t *p1seen,
			char **entry)
{
	*entry = NULL;
	char *no = repo ? NULL : showable(b, box, opened, real);
	if (no)
		return no;
	struct stat named, st;
	int fd = open(real, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0 || fstat(fd, &st) < 0 || stat(real, &named) < 0 || st.st_dev != named.st_dev ||
	    st.st_ino != named.st_ino || !S_ISREG(st.st_mode) || (!repo && st.st_nlink > 1)) {
		if (fd >= 0)
			close(fd);
		return xstrfmt("'%s' changed while it was checked (or cannot be read)", opened);
	}
	/* pass 1 was shown every repository and flag-directory file it read
	 * as a copy, hashed as it was made (p1_copy), and those bytes must be
	 * these below; one it read in place all the same (a build whose pass
	 * 1, run again with those shown as copies, read yet another file in
	 * place) fails.  Not by change time alone (red team 107's inplace: a
	 * header rewritten as the key had hashed it and put back before this
	 * copy, one key, a 1-pass program for its 64-pass one): a file of
	 * several names has its change time moved whenever a name of it is
	 * made or removed anywhere (make test's hard-linked fixtures), and a
	 * store through a shared mapping whose page is dirty already moves
	 * none (red team 111's mm, 3 of 3).  The change-time rule below stays
	 * for a file of one name: a write since the build began fails it */
	const char *p1_sha = p1seen ? json_string_value(json_object_get(p1seen, real)) : NULL;
	if (p1seen && !p1_sha) {
		close(fd);
		return xstrfmt("'%s': it changed while the build read it, or may have: the build's first pass read "
			       "it in place, not as a copy of hashed bytes, when run again shown as copies the files "
			       "it had read in place: build again with the files left alone",
			       opened);
	}
	if (st.st_nlink == 1 && ts_after(&st.st_ctim, &b->began)) {
		close(fd);
		return xstrfmt("'%s' was written while the build ran (its change time is after the build began): "
			       "build again once nothing writes it",
			       opened);
	}
	/* as large as no box would copy it (sandbox_libs.c refuses it at
	 * run time): refused before it is read, hashed and copied here (t0178's
	 * 800 MiB library cost 40 s of CPU a build under ASan) */
	if (st.st_size > SANDBOX_MAX_COPY) {
		close(fd);
		return xstrfmt("'%s' is over %lld MiB: a library is copied into every box", opened, SANDBOX_MAX_COPY >> 20);
	}
	struct strbuf bytes = STRBUF_INIT;
	strbuf_grow(&bytes, (size_t)st.st_size + 1);
	int rd = read_fd(fd, &bytes);
	close(fd);
	if (rd < 0) {
		strbuf_release(&bytes);
		return xstrfmt("'%s' cannot be read", opened);
	}
	if (library && !((bytes.len >= 4 && !memcmp(bytes.buf, "\x7f" "ELF", 4)) ||
			 (bytes.len >= 8 && !memcmp(bytes.buf, "!<arch>\n", 8)))) {
		strbuf_release(&bytes);
		return xstrfmt("the linker input '%s' is no ELF object or archive", opened);
	}
	char hex[SHA256_HEX_LEN + 1], *copy = xstrfmt("%s/copy-%zu", tmpdir, idx);
	sha256_hex(strbuf_str(&bytes), bytes.len, hex);
	if (p1_sha && strcmp(p1_sha, hex)) {
		/* pass 1 chose the files from other bytes than the key's and
		 * the compile's (red team 107's inplace on a hard-linked
		 * header, or on any file pass 1 was shown a copy of) */
		no = xstrfmt("'%s': it changed while the build read it (the build's first pass read other bytes, sha256 "
			     "%.12s, than the compile's copy, %.12s): build again with the file left alone",
			     opened, p1_sha, hex);
	} else if (write_file_bytes(copy, strbuf_str(&bytes), bytes.len) < 0) {
		no = xstrfmt("cannot copy '%s' for the compile", opened);
	} else {
		/* the copy's times are the epoch's, not the build's: gcc's
		 * __TIMESTAMP__ is the source's modification time, and a copy
		 * made now put each build's second into its object under one
		 * key (red team 128; SOURCE_DATE_EPOCH fixes __DATE__ and
		 * __TIME__ only) */
		static const struct timespec epoch[2] = { { 0, 0 }, { 0, 0 } };
		utimensat(AT_FDCWD, copy, epoch, AT_SYMLINK_NOFOLLOW);
		json_object_set_new(prehash, real, json_string(hex));
		*entry = xstrfmt(">%s\n%s", copy, opened);
	}
	free(copy);
	strbuf_release(&bytes);
	return no;
}

/* Remove the copy a shown_copy entry (">SRC\nDEST") names; nothing for
 * NULL or another entry. */
static void remove_copy(const char *entry)
{
	if (!entry || entry[0] != '>')
		return;
	char *src = xstrndup(entry + 1, strcspn(entry + 1, "\n"));
	unlink(src);
	free(src);
}

/* The absolute form of a path the compiler opened (relative: to the
 * current directory, the compile's own); malloc'd. */
static char *opened_abs(const char *d)
{
	char cwd[PATH_MAX];
	if (d[0] == '/' || !getcwd(cwd, sizeof(cwd)))
		return xstrdup(d);
	return xstrfmt("%s/%s", cwd, d);
}

/*
 * What pass 1 (-M) is shown (red team 103): of the repository, only what
 * a record can name (prov_view_open: the index's files and the untracked
 * files the patch covers; and the sources the build key read),
 * never an ignored or other untracked name, the store or the build cache
 * (a git-ignored marker only probed with __has_include chose the program
 * under one key, and eval promoted a comment-only copy 60x); of a flag
 * directory, only the files showable accepts (a 0600 or hard-linked file's
 * "#" lines were quoted by pass 1's errors into the stored log).  A
 * directory all of whose entries are shown is bound whole; one whose
 * entries are not all shown is made in a scratch tree (a private
 * directory of /dev/shm): its shown files copied (opened once,
 * O_NOFOLLOW), its links made anew (never followed), its directories the
 * same way down, and the scratch directory bound at the walk's root with
 * the directories shown whole bound over it.  So a few binds, never one
 * per file: bubblewrap 0.8 reads /proc/self/mountinfo again for each
 * (218 file binds made pass 1's box take 0.7 s to start, measured), and
 * ext4 took about 0.5 ms a copy in the cache (its inode search) where
 * tmpfs takes a few us.  The scratch tree goes once pass 1 has run.  Each directory walked is
 * remembered (device, inode, ctime: any name made, removed or renamed in
 * it changes its ctime) and checked again once pass 1 has run, so a name
 * made or swapped between the walk and pass 1 fails the build, and pass
 * 1's messages are not kept.  A file of several names among the key's
 * sources is shown as a hashed copy bound over its place (p1_view_make),
 * and one pass 1 read in place all the same (through a macro) has pass 1
 * run once more, shown it so; the compile's copy (shown_copy) must hold
 * the bytes of each copy pass 1 read (red team 107's inplace).
 */
#define P1_MAX 200000
#define P1_HIDDEN 64
/* the build key's word for the view (an entry whose pass 1 saw the
 * repository whole, before red team 103, is never a hit) */
#define P1_VIEW "boxed: the dependency list's files; pass 1 the recorded files"

struct p1_snap {
	char *path;
	dev_t dev;
	ino_t ino;
	struct timespec ctim;
};

struct p1_view {
	const struct build_bounds *b;
	const struct sandbox *box;
	int repo;              /* the repository (shown: the recorded files) or a flag directory (showable) */
	struct prov_view *git; /* repo: the files a record names (git's index, the untracked files the patch covers) */
	int nested;            /* walking inside a gitlink, with its submodule's view (tracked files alone) */
	char **files; /* repo: the sources the key read (a git-ignored header included by name), sorted */
	size_t nfiles;
	char **dirs; /* repo: every directory above one of files, sorted */
	size_t ndirs;
	char **linked; /* the files pass 1 is shown as hashed copies bound over the view: every regular file
			* among the key's sources, and those pass 1's rule named that it read in place last
			* time (relive), sorted; not every file of the tree: a copy of each of a checkout's 24k
			* files is no option, and pass 1 reads a few */
	size_t nlinked;
	json_t *keysha; /* repo: the key's sources (real path) -> the sha256 the key hashed */
	char **out; /* sandbox_wrap_build entries */
	size_t nout, capout;
	struct p1_snap *snap;
	size_t nsnap, capsnap;
	size_t left;
	char *why;
	char **hidden; /* flag directories' files showable refused: "NAME\nWHY", the first P1_HIDDEN */
	size_t nhidden;
	char *scratch; /* where the directories shown in part are made: /dev/shm/evident-p1-XXXXXX or tmpdir/p1 */
	json_t *copied; /* each file pass 1 was shown a copy of (its path) -> the copy's sha256 */
	int whole;      /* the repository was shown whole (no git repository): its files are not judged so */
	const char *tmpdir; /* the cache entry being built (writable in the box) */
};

static void p1_push(struct p1_view *v, char *entry)
{
	if (v->nout + 1 >= v->capout)
		v->out = xrealloc(v->out, (v->capout = v->capout ? 2 * v->capout : 64) * sizeof(char *));
	v->out[v->nout++] = entry;
	v->out[v->nout] = NULL;
}

static int p1_has(char *const *sorted, size_t n, const char *path)
{
	return n && bsearch(&path, sorted, n, sizeof(char *), cmp_str) != NULL;
}

/* Never shown through a walk: the store, the build cache, and (walking a
 * flag directory) the repository, which has its own view. */
static int p1_skipped(const struct p1_view *v, const char *path)
{
	if (under(path, v->b->cache))
		return 1;
	if (!v->repo && under(path, v->b->repo))
		return 1;
	for (char **h = v->box && v->box->hide ? v->box->hide : NULL; h && *h; h++)
		if (under(path, *h))
			return 1;
	return 0;
}

/* Why the link at path (a flag directory's) is not shown (malloc'd), or
 * NULL: where it leads to a directory, one of a flag directory or the
 * toolchain; to a file, what showable says. */
static char *p1_link_shown(const struct p1_view *v, const char *path)
{
	char *real = resolved(path), *no = NULL;
	struct stat st;
	if (stat(real, &st) == 0 && S_ISDIR(st.st_mode)) {
		if (p1_skipped(v, real) || under(real, v->b->repo) ||
		    !(in_flag_dir(v->b, real) || classify_read(v->b, real) == READ_TOOLCHAIN))
			no = xstrfmt("'%s' is a link to '%s', outside the flag directories and the toolchain", path, real);
	} else {
		no = showable(v->b, v->box, path, real);
	}
	free(real);
	return no;
}

/* Walk the directory path: its shown entries into v->out, or nothing when
 * every entry is shown (1: the caller binds it whole).  0: some entry is
 * not shown; -1: too many names or too deep (v->why). */
static int p1_walk(struct p1_view *v, const char *path, int depth)
{
	if (depth > LIST_DEPTH) {
		v->why = xstrfmt("'%s' goes more than %d directories deep: the build's first pass is shown it "
				 "name by name",
				 path, LIST_DEPTH);
		return -1;
	}
	DIR *d = opendir(path);
	struct stat ds;
	if (!d || fstat(dirfd(d), &ds) < 0) {
		if (d)
			closedir(d);
		return 0; /* not shown: unreadable */
	}
	if (v->nsnap == v->capsnap)
		v->snap = xrealloc(v->snap, (v->capsnap = v->capsnap ? 2 * v->capsnap : 256) * sizeof(*v->snap));
	v->snap[v->nsnap++] = (struct p1_snap){ xstrdup(path), ds.st_dev, ds.st_ino, ds.st_ctim };
	size_t mark = v->nout;
	int clean = 1, rc = 0;
	struct dirent *e;
	while (rc >= 0 && (e = readdir(d))) {
		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		if (v->left-- == 0) {
			v->why = xstrfmt("the directories the build's first pass is shown hold more than %d names "
					 "(each is checked before it is shown)",
					 P1_MAX);
			rc = -1;
			break;
		}
		char *p = xstrfmt("%s/%s", path, e->d_name);
		unsigned char type = e->d_type;
		struct stat st;
		if (type == DT_UNKNOWN)
			type = lstat(p, &st) < 0 ? DT_UNKNOWN : S_ISDIR(st.st_mode) ? DT_DIR : S_ISLNK(st.st_mode) ? DT_LNK
											     : S_ISREG(st.st_mode) ? DT_REG
														   : DT_UNKNOWN;
		int shown = 0;
		if (p1_skipped(v, p)) {
			shown = 0;
		} else if (type == DT_DIR) {
			if (!v->repo && in_toolchain(p)) {
				/* a toolchain directory inside a flag directory
				 * (/etc/alternatives under -L/etc: the compiler's own
				 * name) is shown whole, as every build box shows it */
				p1_push(v, xstrdup(p));
				shown = 1;
			} else if (v->repo && v->b->view->tracked(v->git, p) == 2) {
				/* a gitlink (a submodule's commit): walked with the
				 * submodule's own index, its tracked files alone (the
				 * record names its commit, never an untracked or
				 * ignored file in it); a gitlink whose directory is
				 * no repository of its own shows nothing (red team
				 * 107: a gitlink was shown whole, an ignored marker
				 * in it chose the program under one key, eval
				 * promoted a copy 62x, every record clean) */
				struct prov_view *sub = NULL, *outer = v->git;
				int g = v->b->view->open(p, &sub);
				if (g == 0 && !strcmp(v->b->view->root(sub), p)) {
					v->git = sub;
					v->nested++;
					int w = p1_walk(v, p, depth + 1);
					v->nested--;
					v->git = outer;
					if (w < 0)
						rc = -1;
					else if (w == 1)
						p1_push(v, xstrdup(p));
					shown = w == 1;
				}
				if (sub)
					v->b->view->close(sub);
			} else if (!v->repo || p1_has(v->dirs, v->ndirs, p) || v->b->view->tracked_below(v->git, p) ||
				   (!v->nested && v->b->view->patch_dir(v->git, p))) {
				int w = p1_walk(v, p, depth + 1);
				if (w < 0)
					rc = -1;
				else if (w == 1)
					p1_push(v, xstrdup(p));
				shown = w == 1;
			}
		} else if (type == DT_REG || type == DT_LNK) {
			if (v->repo) {
				shown = p1_has(v->files, v->nfiles, p) || v->b->view->tracked(v->git, p) == 1 ||
					(!v->nested && v->b->view->untracked_shown(v->git, p));
			} else {
				char *no = type == DT_REG ? showable(v->b, v->box, p, p) : p1_link_shown(v, p);
				shown = !no;
				if (no && v->nhidden < P1_HIDDEN) {
					v->hidden = xrealloc(v->hidden, (v->nhidden + 1) * sizeof(char *));
					v->hidden[v->nhidden++] = xstrfmt("%s\n%s", p, no);
				}
				free(no);
			}
			if (shown && type == DT_REG) {
				p1_push(v, xstrfmt("+%s", p));
			} else if (shown) {
				char target[PATH_MAX];
				ssize_t t = readlink(p, target, sizeof(target) - 1);
				if (t > 0) {
					target[t] = '\0';
					p1_push(v, xstrfmt("=%s\n%s", target, p));
				} else {
					shown = 0;
				}
			}
		}
		if (!shown)
			clean = 0;
		free(p);
	}
	closedir(d);
	if (rc < 0)
		return -1;
	if (clean) {
		/* every entry shown: the directory is bound whole instead */
		for (size_t i = mark; i < v->nout; i++)
			free(v->out[i]);
		v->nout = mark;
		if (v->out)
			v->out[mark] = NULL;
		return 1;
	}
	return 0;
}

/* A copy of the file path (opened once, O_NOFOLLOW; a flag directory's
 * with one name) at dest, its sha256 into hex as it is written.  0; 1:
 * over cap bytes (cap 0: no cap), dest made empty (the caller binds the
 * file there instead); -1: not shown. */
static int p1_copy(const char *path, const char *dest, int repo, off_t cap, char hex[SHA256_HEX_LEN + 1])
{
	struct stat st;
	int fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return -1;
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode) || (!repo && st.st_nlink > 1)) {
		close(fd);
		return -1;
	}
	int out = open(dest, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
	if (out >= 0 && cap && st.st_size > cap) {
		close(out); /* a mount point: the file is bound there, not copied */
		close(fd);
		return 1;
	}
	int rc = out < 0 ? -1 : 0;
	char buf[65536];
	struct sha256_ctx *h = sha256_begin();
	for (ssize_t n; rc == 0 && (n = read(fd, buf, sizeof(buf))) != 0;) {
		rc = n < 0 || write_all(out, buf, (size_t)n) < 0 ? -1 : 0;
		if (rc == 0)
			sha256_update(h, buf, (size_t)n);
	}
	sha256_end(h, hex);
	if (out >= 0 && close(out) != 0)
		rc = -1;
	close(fd);
	return rc;
}

/* The walk of root left entries from mark on: where root is shown in part,
 * make it in the scratch tree (its shown files copied, its links made
 * anew, a mount point for each directory shown whole and each file too
 * large to copy) and leave in v->out the scratch directory shown at root,
 * then those directories and files, bound over it.  0, or -1
 * with v->why. */
static int p1_make_root(struct p1_view *v, const char *root, size_t mark, int repo)
{
	char *top = xstrfmt("%s%s", v->scratch, root);
	int rc = mkdir_p(top, 0755);
	size_t keep = mark;
	char *made = NULL; /* the last directory made: the walk's entries come a directory at a time */
	size_t i = mark;
	for (; i < v->nout && rc == 0; i++) {
		char *e = v->out[i];
		const char *path = e[0] == '+' ? e + 1 : e[0] == '=' ? strchr(e, '\n') + 1 : e;
		char *at = xstrfmt("%s%s", v->scratch, path), *slash = strrchr(at, '/');
		*slash = '\0';
		if (!made || strcmp(made, at)) {
			rc = mkdir_p(at, 0755);
			free(made);
			made = xstrdup(at);
		}
		*slash = '/';
		char hex[SHA256_HEX_LEN + 1];
		int c = rc == 0 && e[0] == '+' ? p1_copy(path, at, repo, P1_COPY_MAX, hex) : 0;
		if (rc == 0 && e[0] == '+' && c == 1) {
			v->out[keep++] = xstrdup(path); /* bound over its empty mount point */
		} else if (rc == 0 && e[0] == '+') {
			if (c < 0)
				unlink(at); /* not shown: gone or changed (the ctime check sees it) */
			else
				json_object_set_new(v->copied, path, json_string(hex));
		} else if (rc == 0 && e[0] == '=') {
			char *target = xstrndup(e + 1, (size_t)(strchr(e, '\n') - e - 1));
			rc = symlink(target, at);
			free(target);
		} else if (rc == 0) {
			rc = mkdir(at, 0755) < 0 && errno != EEXIST ? -1 : 0;
			v->out[keep++] = e; /* a directory shown whole: bound over its mount point */
			e = NULL;
		}
		free(e);
		free(at);
	}
	free(made);
	/* the mount points the box makes under root (the cache's mask, the
	 * entry being built, the store's mask, the current directory): the
	 * scratch directory is bound read-only, so they are made here */
	char cwd[PATH_MAX];
	const char *points[4] = { v->b->cache, v->tmpdir, getcwd(cwd, sizeof(cwd)) ? cwd : NULL, NULL };
	for (size_t i = 0; rc == 0 && i < ARRAY_SIZE(points); i++) {
		if (points[i] && under(points[i], root)) {
			char *at = xstrfmt("%s%s", v->scratch, points[i]);
			rc = mkdir_p(at, 0755);
			free(at);
		}
	}
	for (char **h = v->box && v->box->hide ? v->box->hide : NULL; rc == 0 && h && *h; h++) {
		if (under(*h, root)) {
			char *at = xstrfmt("%s%s", v->scratch, *h);
			rc = mkdir_p(at, 0755);
			free(at);
		}
	}
	if (rc < 0) {
		v->why = xstrfmt("cannot make the build's first pass its view of '%s' in '%s': %s", root, v->scratch,
				 strerror(errno));
		free(top);
		for (; i < v->nout; i++)
			free(v->out[i]);
		v->nout = keep;
		v->out[keep] = NULL;
		return -1;
	}
	/* the scratch directory first, then the directories bound over it */
	v->nout = keep;
	p1_push(v, NULL);
	memmove(v->out + mark + 1, v->out + mark, (v->nout - 1 - mark) * sizeof(char *));
	v->out[mark] = xstrfmt(">%s\n%s", top, root);
	v->out[v->nout] = NULL;
	free(top);
	return 0;
}

/* Every directory above path up to (not above) top into *dirs. */
static void p1_add_dirs(const char *path, const char *top, char ***dirs, size_t *n, size_t *cap)
{
	size_t tl = strlen(top);
	char *p = xstrdup(path);
	for (char *s = strrchr(p, '/'); s && (size_t)(s - p) >= tl; s = strrchr(p, '/')) {
		*s = '\0';
		if (*n == *cap)
			*dirs = xrealloc(*dirs, (*cap = *cap ? 2 * *cap : 1024) * sizeof(char *));
		(*dirs)[(*n)++] = xstrdup(p);
	}
	free(p);
}

static int p1_rm(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st;
	(void)ftw;
	if (flag == FTW_DP)
		rmdir(path);
	else
		unlink(path);
	return 0;
}

/* The scratch tree goes once pass 1 has run: the compile (whose box shows
 * the cache entry being built) never sees it. */
static void p1_scratch_remove(struct p1_view *v)
{
	if (v->scratch && path_exists(v->scratch))
		nftw(v->scratch, p1_rm, 16, FTW_DEPTH | FTW_PHYS);
	free(v->scratch);
	v->scratch = NULL;
}

/*
 * Remove the pass-1 scratch directories of runners that are gone (a
 * runner killed during pass 1 leaves its /dev/shm/evident-p1-PID-XXXXXX:
 * red team 107's killp1, 3 of 3): this user's, whose PID no process has.
 * A reused PID keeps its directory until that process ends too.
 */
static void p1_scratch_sweep(void)
{
	static int swept; /* once a process: a runner's builds share one sweep */
	if (swept)
		return;
	swept = 1;
	DIR *d = opendir("/dev/shm");
	if (!d)
		return;
	struct dirent *e;
	while ((e = readdir(d))) {
		long pid;
		char rest[32];
		struct stat st;
		if (sscanf(e->d_name, "evident-p1-%ld-%31s", &pid, rest) != 2 || pid <= 0 || pid == (long)getpid())
			continue;
		char *path = xstrfmt("/dev/shm/%s", e->d_name);
		if (lstat(path, &st) == 0 && S_ISDIR(st.st_mode) && st.st_uid == geteuid() &&
		    kill((pid_t)pid, 0) < 0 && errno == ESRCH)
			nftw(path, p1_rm, 16, FTW_DEPTH | FTW_PHYS);
		free(path);
	}
	closedir(d);
}

static void p1_view_release(struct p1_view *v)
{
	for (size_t i = 0; i < v->nfiles; i++)
		free(v->files[i]);
	free(v->files);
	for (size_t i = 0; i < v->ndirs; i++)
		free(v->dirs[i]);
	free(v->dirs);
	for (size_t i = 0; i < v->nlinked; i++)
		free(v->linked[i]);
	free(v->linked);
	for (size_t i = 0; i < v->nout; i++)
		free(v->out[i]);
	free(v->out);
	for (size_t i = 0; i < v->nsnap; i++)
		free(v->snap[i].path);
	free(v->snap);
	free(v->why);
	for (size_t i = 0; i < v->nhidden; i++)
		free(v->hidden[i]);
	free(v->hidden);
	if (v->git)
		v->b->view->close(v->git);
	json_decref(v->copied);
	json_decref(v->keysha);
	p1_scratch_remove(v);
	memset(v, 0, sizeof(*v));
}

/* Pass 1's view into v->out (sandbox_wrap_build entries, NULL-terminated):
 * the repository's recorded files and sources (a directory that is no
 * git repository's whole: its record names no commit), the compiler's
 * tree whole, each flag directory's files showable accepts.  0, or -1 with
 * the reason in v->why. */
static int p1_view_make(struct p1_view *v, const struct build_bounds *b, const struct sandbox *box,
			const json_t *sources, const char *tmpdir, const json_t *relive, const char *const *argv)
{
	memset(v, 0, sizeof(*v));
	v->b = b;
	v->box = box;
	v->tmpdir = tmpdir;
	/* in memory where there is a /dev/shm: ext4 spent about 0.5 ms a
	 * file making 200 copies in the cache (its inode search), tmpfs a few
	 * us; private (0700), gone once pass 1 has run */
	p1_scratch_sweep();
	char *shm = xstrfmt("/dev/shm/evident-p1-%ld-XXXXXX", (long)getpid());
	v->scratch = is_dir("/dev/shm") && mkdtemp(shm) ? xstrdup(shm) : xstrfmt("%s/p1", tmpdir);
	free(shm);
	v->left = P1_MAX;
	v->copied = json_object();
	if (!b->view) {
		v->why = xstrdup("a boxed build was asked without a view of the repository (build_request.view): "
				 "its first pass is shown what a record can name alone");
		return -1;
	}
	int g = b->view->open(b->repo, &v->git);
	if (g < 0) {
		v->why = xstrfmt("git cannot list the files of the repository '%s' (the build's first pass is shown "
				 "those alone)",
				 b->repo);
		return -1;
	}
	/* the sources the key read (a git-ignored header included by name
	 * is in the key and the record's sources), with the hashes the key
	 * took */
	v->keysha = json_object();
	size_t cap = 0;
	size_t i;
	json_t *s;
	json_array_foreach(sources, i, s)
	{
		const char *path = json_string_value(json_object_get(s, "path"));
		const char *sha = json_string_value(json_object_get(s, "sha256"));
		if (!path)
			continue;
		char *forms[2] = { opened_abs(path), resolved(path) };
		for (int k = 0; k < 2; k++) {
			char *n = normalise_path(forms[k]);
			free(forms[k]);
			if (under(n, b->repo)) {
				if (sha)
					json_object_set_new(v->keysha, n, json_string(sha));
				if (v->nfiles == cap)
					v->files = xrealloc(v->files, (cap = cap ? 2 * cap : 16) * sizeof(char *));
				v->files[v->nfiles++] = n;
			} else {
				free(n);
			}
		}
	}
	if (v->nfiles)
		qsort(v->files, v->nfiles, sizeof(char *), cmp_str);
	/* pass 1 reads no byte in place that it may choose by: every regular
	 * file among the key's sources, and every file its rule named that it
	 * read in place last time (relive: reached through a macro, or a flag
	 * directory's), is shown as a copy hashed as it is made, whatever its
	 * names (red team 111: a store through a shared mapping whose page
	 * was dirty already moves no change time, so the ctime rule let a
	 * header rewritten between the key's hash and pass 1 and put back
	 * before the compile's copy choose the program, 3 of 3) */
	size_t lcap = 0, nre = json_array_size(relive);
	for (size_t j = 0; j < v->nfiles + nre; j++) {
		struct stat st;
		const char *f = j < v->nfiles ? v->files[j] : json_string_value(json_array_get(relive, j - v->nfiles));
		if (f && (j >= v->nfiles || (lstat(f, &st) == 0 && S_ISREG(st.st_mode)))) {
			if (v->nlinked == lcap)
				v->linked = xrealloc(v->linked, (lcap = lcap ? 2 * lcap : 16) * sizeof(char *));
			v->linked[v->nlinked++] = xstrdup(f);
		}
	}
	/* a repository file the flags force in (-include, -imacros of a
	 * spec's flags), where the view shows it: a
	 * copy from the start, not a second pass 1 */
	for (size_t j = 0; argv && argv[j] && argv[j + 1]; j++) {
		if (strcmp(argv[j], "-include") && strcmp(argv[j], "-imacros"))
			continue;
		char *r = resolved(argv[j + 1]);
		struct stat st;
		if (under(r, b->repo) && lstat(r, &st) == 0 && S_ISREG(st.st_mode) &&
		    (g == 1 || b->view->tracked(v->git, r) == 1 || b->view->untracked_shown(v->git, r))) {
			if (v->nlinked == lcap)
				v->linked = xrealloc(v->linked, (lcap = lcap ? 2 * lcap : 16) * sizeof(char *));
			v->linked[v->nlinked++] = r;
		} else {
			free(r);
		}
	}
	if (v->nlinked)
		qsort(v->linked, v->nlinked, sizeof(char *), cmp_str);
	if (g == 1) {
		p1_push(v, xstrdup(b->repo));
		v->whole = 1;
	} else {
		size_t dcap = 0;
		for (size_t j = 0; j < v->nfiles; j++)
			p1_add_dirs(v->files[j], b->repo, &v->dirs, &v->ndirs, &dcap);
		if (v->ndirs) {
			qsort(v->dirs, v->ndirs, sizeof(char *), cmp_str);
			size_t u = 1;
			for (size_t j = 1; j < v->ndirs; j++) {
				if (strcmp(v->dirs[j], v->dirs[u - 1]))
					v->dirs[u++] = v->dirs[j];
				else
					free(v->dirs[j]);
			}
			v->ndirs = u;
		}
		v->repo = 1;
		size_t mark = v->nout;
		int w = p1_walk(v, b->repo, 0);
		if (w < 0 || (w == 0 && p1_make_root(v, b->repo, mark, 1) < 0))
			return -1;
		if (w == 1)
			p1_push(v, xstrdup(b->repo));
	}
	v->repo = 0;
	if (b->tool)
		p1_push(v, xstrdup(b->tool));
	for (char **d = b->flag_dirs; d && *d; d++) {
		int inside = 0;
		for (char **o = b->flag_dirs; *o && !inside; o++)
			inside = o != d && under(*d, *o) && strcmp(*d, *o);
		for (char **o = b->flag_dirs; o < d && !inside; o++)
			inside = !strcmp(*d, *o); /* the same directory named twice */
		if (inside)
			continue; /* walked with the one it lies in */
		if (classify_read(b, *d) == READ_TOOLCHAIN && !in_flag_dir(b, *d)) {
			p1_push(v, xstrdup(*d));
			continue;
		}
		struct stat st;
		if (stat(*d, &st) < 0 || !S_ISDIR(st.st_mode))
			continue;
		size_t mark = v->nout;
		int w = p1_walk(v, *d, 0);
		if (w < 0 || (w == 0 && p1_make_root(v, *d, mark, 0) < 0))
			return -1;
		if (w == 1)
			p1_push(v, xstrdup(*d));
	}
	/* the files of linked not copied already (in a directory shown in
	 * part): a hashed copy of each bound over the view, last (one bind
	 * each: few files, those pass 1 reads); bound over its directory's
	 * view, not made in the scratch tree: each directory above it would
	 * be made too, and each of their subdirectories bound (a header of
	 * redteam107/ had 0.1-0.15 s more of pass 1, most of it bubblewrap's
	 * per-bind work).  Copied whatever its size (pass 1 reads it all).  A
	 * key source whose copy is not the bytes the key hashed fails the
	 * build at once; a file not copied (gone, a flag directory's of
	 * several names) is read in place, and shown_copy fails the build if
	 * pass 1's rule names it */
	for (size_t j = 0; j < v->nlinked; j++) {
		const char *f = v->linked[j];
		struct stat st;
		if (json_object_get(v->copied, f) || lstat(f, &st) < 0 || !S_ISREG(st.st_mode))
			continue;
		char hex[SHA256_HEX_LEN + 1], *at = xstrfmt("%s/evident-copy-%zu", v->scratch, j);
		if (p1_copy(f, at, under(f, b->repo), 0, hex) == 0) {
			const char *want = json_string_value(json_object_get(v->keysha, f));
			if (want && strcmp(want, hex)) {
				v->why = xstrfmt("'%s' changed while the build read it (the build key hashed sha256 %.12s, "
						 "its first pass was shown %.12s): build again with the file left alone",
						 f, want, hex);
				free(at);
				return -1;
			}
			json_object_set_new(v->copied, f, json_string(hex));
			p1_push(v, xstrfmt(">%s\n%s", at, f));
		} else {
			unlink(at);
		}
		free(at);
	}
	if (!v->out)
		p1_push(v, xstrdup(b->repo)); /* never reached: keeps out non-NULL */
	return 0;
}

/* The first directory walked for pass 1 that is no longer what it was
 * (another inode, or a name made, removed or renamed in it since), as a
 * reason (malloc'd); NULL when none. */
static char *p1_changed(const struct p1_view *v)
{
	for (size_t i = 0; i < v->nsnap; i++) {
		struct stat st;
		const struct p1_snap *s = &v->snap[i];
		if (lstat(s->path, &st) < 0 || !S_ISDIR(st.st_mode) || st.st_dev != s->dev || st.st_ino != s->ino ||
		    st.st_ctim.tv_sec != s->ctim.tv_sec || st.st_ctim.tv_nsec != s->ctim.tv_nsec)
			return xstrfmt("the directory '%s' changed while the build's first pass looked for the files "
				       "it includes (a name made, removed or renamed in it): what it found may not "
				       "be what the record names, so it is not compiled (its messages are not kept)",
				       s->path);
	}
	return NULL;
}

static int included_files(const struct sandbox *box, const struct build_bounds *b, const char *const *argv,
			  size_t deps_slot, const char *tmpdir, const char *const *show, const char *const *masks,
			  char ***files, json_t *prehash, const struct p1_view *p1, json_t *relive, json_t *ruled,
			  struct strbuf *log, struct run_result *rr)
{
	*files = NULL;
	size_t n = 0;
	while (argv[n])
		n++;
	/* argv: ... "-MD" "-MF" DEPS "-o" OUT SRC */
	const char **pre = xcalloc(n + 1, sizeof(char *));
	size_t k = 0;
	for (size_t i = 0; i + 2 < deps_slot; i++)
		pre[k++] = argv[i];
	pre[k++] = "-M";
	pre[k++] = argv[deps_slot + 3];
	pre[k] = NULL;
	struct strbuf rule = STRBUF_INIT;
	int filter_fd = -1;
	char **boxed = sandbox_wrap_build(box, pre, show, masks, tmpdir, &filter_fd);
	struct run_opts o = { .argv = (const char *const *)boxed, .timeout_s = BUILD_TIMEOUT_S, .out = &rule,
			      .err = log, .pass_fd = { filter_fd }, .pass_fd_at = { SANDBOX_SECCOMP_FD },
			      .signal_in_exit_code = 1, .limit_as_bytes = BUILD_LIMIT_AS_BYTES,
			      .limit_fsize_bytes = BUILD_LIMIT_FSIZE_BYTES, .oom_score_adj = SANDBOX_OOM_SCORE_ADJ,
			      .no_core = 1, .kill_box = box->on, .env_keep = build_env_keep,
			      .env_set = build_env_set };
	int rc = run_command(&o, rr);
	sandbox_argv_free(boxed);
	if (filter_fd >= 0)
		close(filter_fd);
	free(pre);
	if (rc < 0) {
		strbuf_release(&rule);
		return -1;
	}
	if (!rr->exited || rr->exit_code != 0) {
		strbuf_release(&rule);
		return 1;
	}
	char *rule_path = xstrfmt("%s/deps-pre.d", tmpdir);
	FILE *f = fopen(rule_path, "w");
	int wrote = f && fwrite(strbuf_str(&rule), 1, rule.len, f) == rule.len;
	if (f && fclose(f) != 0)
		wrote = 0;
	char **list = wrote ? parse_deps(rule_path) : NULL;
	unlink(rule_path);
	free(rule_path);
	strbuf_release(&rule);
	if (!list)
		return error("cannot read the preprocessor's dependency list of '%s'", argv[deps_slot + 3]);
	size_t m = 0;
	for (char **d = list; *d; d++)
		m++;
	char **v = xcalloc(m + 1, sizeof(char *));
	size_t nv = 0;
	for (char **d = list; *d; d++) {
		char *abs = resolved(*d);
		/* a word of the list that is no file: a name the rule cannot
		 * write whole (a newline in it), so what pass 1 read is
		 * unknown (red team 113's tab and colon names) */
		/* a word that names no file; a name the rule cannot write
		 * unambiguously (red team 116: gcc writes a backslash as it is,
		 * so "a\\sel.h" read back as a committed decoy "a\sel.h"; red
		 * team 113's colon and tab); a symbolic link, whose target the
		 * record names and not the link, so retargeting it changed
		 * nothing recorded (red team 116's link: eval promoted a copy
		 * 91x): each refused, named */
		struct stat ex, ln;
		int repo_file = classify_read(b, abs) == READ_REPO, kernels_file = repo_file || in_flag_dir(b, abs);
		const char *bad = NULL;
		if (lstat(abs, &ex) != 0)
			bad = "which is no file (a file name the list cannot write whole, such as one with a newline in it)";
		else if (kernels_file && (strpbrk(*d, "\\$#:\t\n") || !printable_name(*d)))
			bad = "a name holding a character a dependency list cannot write unambiguously (a backslash, '$', "
			      "'#', ':', a tab or a newline) or a record cannot hold (a control character, bytes that are "
			      "not UTF-8: red team 116's 0xff name failed as 'changed while the build read it')";
		else if (repo_file && lstat(*d, &ln) == 0 && S_ISLNK(ln.st_mode))
			bad = "a symbolic link (the record names files by their content, and a link's target is no "
			      "file's; include the target itself)";
		if (bad) {
			strbuf_addf(log,
				    "evident: not shown to the compile: the preprocessor's dependency list names '%s', "
				    "%s: rename the file the kernel includes\n",
				    *d, bad);
			free(abs);
			for (size_t i = 0; i < nv; i++)
				free(v[i]);
			free(v);
			free_strv(list);
			return 1;
		}
		/* each a copy of its bytes, read and hashed once here, so the
		 * record's hash is of what the compile read whatever the file
		 * does meanwhile (red team 100's race renamed two versions over
		 * a flag-directory header every 3 ms: 4 of 6 records named the
		 * other, eval promoted a copy 2.46x; red team 102's reporace the
		 * same with a repository header); a repository file shown at
		 * its real path, as before, a flag directory's at the name the
		 * compiler opens (a header that is a link inside its directory:
		 * red team 100's hdrlink) */
		int repo = classify_read(b, abs) == READ_REPO;
		/* a file pass 1 read in place (not among the key's sources:
		 * reached through a macro, or a flag directory's): build_run
		 * runs pass 1 again with it shown as a copy; each such file
		 * joins the record's sources (ruled) with the compile's hash */
		struct stat st;
		int flag = !repo && in_flag_dir(b, abs);
		if ((repo || flag) && !json_object_get(p1->copied, abs) && stat(abs, &st) == 0 && S_ISREG(st.st_mode))
			json_array_append_new(relive, json_string(abs));
		if ((repo || flag) && ruled)
			json_array_append_new(ruled, json_string(abs));
		if (repo || flag) {
			char *at = repo ? xstrdup(abs) : opened_abs(*d), *entry = NULL;
			char *no = shown_copy(b, box, at, abs, 0, repo, tmpdir, nv, prehash, p1->copied, &entry);
			if (no) {
				strbuf_addf(log, "evident: not shown to the compile: %s\n", no);
				free(no);
			} else {
				v[nv++] = entry;
			}
			free(at);
		}
		free(abs);
	}
	free_strv(list);
	*files = v;
	return 0;
}

/* The first file the build box did not show for a reason of its own
 * (showable: "evident: not shown to the compile: WHY" in the log), as a
 * reason; malloc'd or NULL. */
static char *unshown_file(const char *log)
{
	static const char tag[] = "evident: not shown to the compile: ";
	const char *m = log ? strstr(log, tag) : NULL;
	if (!m)
		return NULL;
	m += strlen(tag);
	return xstrfmt("the build box did not show %.*s", (int)strcspn(m, "\n"), m);
}

/* The assembler's "file not found" (`.incbin`) or "can't open FILE for
 * reading" (`.include`: red team 128), a file it was told to read that
 * the build box does not show, as a reason; malloc'd or NULL. */
static char *unseen_file(const char *log)
{
	static const char bin[] = "Error: file not found: ", inc[] = "Error: can't open ";
	const char *m = log ? strstr(log, bin) : NULL, *end = NULL;
	if (m) {
		m += strlen(bin);
		end = m + strcspn(m, "\n");
	} else if (log && (m = strstr(log, inc))) {
		m += strlen(inc);
		const char *nl = m + strcspn(m, "\n");
		const char *r = strstr(m, " for reading");
		if (!r || r > nl)
			return NULL;
		end = r;
	} else {
		return NULL;
	}
	return xstrfmt("the assembler read '%.*s', which no #include names: the compiler sees only the "
		       "repository files its dependency list names, so that the record's sources cover the binary",
		       (int)(end - m), m);
}

/* Does every file of an entry's sources manifest still hash as recorded?
 * (1 yes; 0: a file changed or is gone, and the entry is stale.) */
static int sources_current(const json_t *info)
{
	size_t i;
	json_t *v;
	json_array_foreach(json_object_get(info, "sources"), i, v)
	{
		const char *path = json_string_value(json_object_get(v, "path"));
		const char *want = json_string_value(json_object_get(v, "sha256"));
		char now[SHA256_HEX_LEN + 1];
		if (!path || !want || sha256_file_hex(path, now) < 0 || strcmp(now, want))
			return 0;
	}
	return 1;
}

static char *object_libraries(const struct build_bounds *b, char *const *libs, json_t *sources);

/* Does the entry's sources list every library the object at so would load
 * from outside the toolchain now, with the hash it has now?  (1 yes; 0: the
 * loader's search finds one the entry was not built with, through another
 * LD_LIBRARY_PATH or a file put in an rpath's directory since, and the
 * entry is stale.) */
static int libraries_listed(const json_t *info, const struct build_bounds *b, char *const *libs)
{
	json_t *now = json_array();
	char *why = object_libraries(b, libs, now);
	int ok = !why;
	size_t i, j;
	json_t *v, *w;
	json_array_foreach(now, i, v)
	{
		int found = 0;
		json_array_foreach(json_object_get(info, "sources"), j, w)
			found |= json_equal(json_object_get(v, "path"), json_object_get(w, "path")) &&
				 json_equal(json_object_get(v, "sha256"), json_object_get(w, "sha256"));
		ok &= found;
	}
	free(why);
	json_decref(now);
	return ok;
}

/* argv as a JSON array of strings (new reference). */
static json_t *argv_json(const char *const *argv)
{
	json_t *a = json_array();
	for (size_t i = 0; argv[i]; i++)
		json_array_append_new(a, json_string(argv[i]));
	return a;
}

static void remove_flat_dir(const char *dir);

/*
 * info's "load_sha256": the hash of what the loader maps of the object at
 * so (base/elf.h elf_load_sha256: every loaded segment, the build id
 * zeroed), the record's code.load_sha256.  binary_sha256 covers the whole
 * file on the host, whose unloaded sections hold the source's file name
 * (the STT_FILE symbol) and a build id over it, so a comment-only copy of
 * a kernel under another name was another binary and another code (red
 * team 83's twin and rate copies: objdump -d identical, the objects
 * differing only there); this hash is one for them.  On CUDA,
 * binary_sha256 is the .nv_fatbin section (backend_cuda.c post_build),
 * which a comment-only copy under another name leaves unchanged (nvcc
 * 13.0 here, sm_90, kernels/rowsum/naive.cu and a copy with two comment
 * lines under another name: one .nv_fatbin hash 49a9dcea, two file
 * hashes, one load hash b43471c2; the accumulator's start changed from
 * 0.0f to 1.0f: .nv_fatbin a70b99ae, load hash 46a6df4e, 2026-12-01), so
 * there a comment-only copy was already the same code by binary_sha256
 * where code_same asks (not for `validated`, whose program includes the
 * host code); the load hash covers that host code too (.nv_fatbin is a
 * loaded section), so it is the whole program in both backends.  Nothing is
 * set when the object cannot be read as ELF: the record then has none.
 */
static void add_load_sha256(json_t *info, const char *so)
{
	char hex[SHA256_HEX_LEN + 1], *why = NULL;
	if (elf_load_sha256(so, hex, &why) == 0)
		json_object_set_new(info, "load_sha256", json_string(hex));
	free(why);
}

static int cache_hit(const char *entry, const struct build_bounds *b, struct build_result *res)
{
	char *info_path = xstrfmt("%s/info.json", entry);
	char *so = xstrfmt("%s/kernel.so", entry);
	char *logp = xstrfmt("%s/build.log", entry);
	int hit = 0;
	/* the libraries the object would load now, searched once */
	char **libs = path_exists(so) ? sandbox_object_libraries(so) : NULL;
	if (path_exists(info_path) && path_exists(so)) {
		json_error_t jerr;
		json_t *info = json_load_file(info_path, 0, &jerr);
		const char *want = json_string_value(json_object_get(info, "so_sha256"));
		char now[SHA256_HEX_LEN + 1];
		if (info && (!want || sha256_file_hex(so, now) < 0 || strcmp(now, want))) {
			/* the object is not the one this entry built: never run it;
			 * move the entry aside for inspection and build afresh */
			char rnd[9];
			random_hex(rnd, 8);
			char *aside = xstrfmt("%s.tampered-%s", entry, rnd);
			warning("build cache entry '%s': kernel.so does not match the hash recorded when it was "
				"built; set aside as '%s', rebuilding", entry, aside);
			if (rename(entry, aside) < 0)
				warning("cannot move '%s' aside: %s", entry, strerror(errno));
			free(aside);
			json_decref(info);
			info = NULL;
		} else if (info && (!sources_current(info) || !libraries_listed(info, b, libs) ||
				    !toolchain_current(info, b, libs))) {
			/* a file the compiler read changed (one the key's own walk
			 * cannot see, such as a macro include): the object is stale;
			 * drop the entry, and the caller builds afresh */
			char rnd[9];
			random_hex(rnd, 8);
			char *aside = xstrfmt("%s.stale-%s", entry, rnd);
			if (rename(entry, aside) == 0)
				remove_flat_dir(aside);
			else
				warning("cannot move the stale build cache entry '%s' aside: %s", entry, strerror(errno));
			free(aside);
			json_decref(info);
			info = NULL;
		}
		if (info) {
			struct strbuf log = STRBUF_INIT;
			read_file(logp, &log);
			json_object_set_new(info, "cached", json_true());
			note_warnings(info, strbuf_str(&log));
			/* an entry built before the load hash was kept: its
			 * object, checked above, is the one that will run */
			if (!json_object_get(info, "load_sha256"))
				add_load_sha256(info, so);
			res->info = info;
			res->so_path = so;
			so = NULL;
			res->log = strbuf_detach(&log, NULL);
			res->ok = 1;
			hit = 1;
		}
	}
	free(info_path);
	free(so);
	sandbox_argv_free(libs);
	free(logp);
	return hit;
}

/* rm -r of a directory we made ourselves (flat: files only). */
static void remove_flat_dir(const char *dir)
{
	const char *names[] = { "kernel.so", "build.log", "info.json", "deps.d", NULL };
	for (size_t i = 0; names[i]; i++) {
		char *p = xstrfmt("%s/%s", dir, names[i]);
		unlink(p);
		free(p);
	}
	/* post hooks may leave other files (extracted cubins): best effort */
	const char *argv[] = { "rm", "-rf", dir, NULL };
	struct run_opts o = { .argv = argv, .timeout_s = 30 };
	struct run_result r;
	run_command(&o, &r);
}

/*
 * Every repository or flag-directory file pass 1's rule named (ruled, by
 * real path) joins sources with the hash of the copy pass 1 and the
 * compile were shown (shown_hashes), where the compile's own list did
 * not name it already: pass 1 chose the program by it, so the record
 * names it and a cache hit re-hashes it (red team 111: a header pass 1
 * alone read, in a -I directory or named through a macro, was in
 * neither the key nor the sources; rewritten, one key gave two
 * programs, the old entry served, and eval promoted a comment-only copy
 * 115x; red team 102's suggestion).  NULL, or why not (malloc'd).
 */
static char *ruled_sources(const struct build_bounds *b, const json_t *ruled, json_t *sources)
{
	if (!json_array_size(ruled))
		return NULL;
	json_t *have = json_object();
	size_t i;
	json_t *v;
	json_array_foreach(sources, i, v)
	{
		const char *path = json_string_value(json_object_get(v, "path"));
		if (path) {
			char *r = resolved(path);
			json_object_set_new(have, r, json_true());
			free(r);
		}
	}
	char *why = NULL;
	json_array_foreach(ruled, i, v)
	{
		const char *abs = json_string_value(v);
		if (why || !abs || json_object_get(have, abs))
			continue;
		if (!json_object_get(shown_hashes, abs)) {
			why = xstrfmt("'%s', which the build's first pass read, was not shown to the compile as a "
				      "hashed copy",
				      abs);
			continue;
		}
		why = add_code_file(b, abs, sources);
		json_object_set_new(have, abs, json_true());
	}
	json_decref(have);
	return why;
}

/*
 * A precompiled header where the compiler may look for one (red teams 125
 * and 127): gcc takes NAME.gch (a file, or a directory of them) in place
 * of an included NAME at the include's full path under every directory it
 * searches, and beside a forced include (-include); clang takes FILE.pch
 * for -include FILE; and the compiler's -MD list then names neither.  A
 * committed problems/math.h.gch turned rowsum's tolerance to 0.1 with
 * every recorded source unchanged (the problem plug-in, built outside the
 * box), and so did problems/rt127/fp.h.gch behind an angle include the key
 * walk does not follow; under --unsandboxed a kernel's built another
 * program under one key.  So no file named *.gch or *.pch may lie in a
 * directory the build may search: each hashed source's own, every
 * directory a flag names (-I, -isystem, -iquote, -idirafter, joined or
 * apart), a forced include's (-include, -imacros), and the repository's
 * kernels/ and problems/; inside the repository each is walked whole (8
 * levels, .git and the build cache left out), outside it its top level
 * alone (a toolchain's own tree).  A refusal naming the file (malloc'd,
 * the caller frees), or NULL.
 */
struct pch_walk {
	const char *skip; /* the build cache: not the sources' */
	char *found;
};
static struct pch_walk *pch_w;

static int pch_visit(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st;
	const char *base = path + ftw->base;
	if (flag == FTW_D && ftw->level > 0 &&
	    (!strcmp(base, ".git") || (pch_w->skip && !strcmp(path, pch_w->skip)) || ftw->level > 8))
		return FTW_SKIP_SUBTREE;
	size_t l = strlen(base);
	if (l > 4 && (!strcmp(base + l - 4, ".gch") || !strcmp(base + l - 4, ".pch"))) {
		pch_w->found = xstrdup(path);
		return FTW_STOP;
	}
	return FTW_CONTINUE;
}

static char *pch_refusal(json_t *sources, const char *const *argv, const char *repo_root, const char *cache_dir)
{
	static const char *const opt[] = { "-I", "-isystem", "-iquote", "-idirafter", "-include", "-imacros", NULL };
	char **dirs = NULL;
	size_t n = 0, cap = 0;
	size_t i;
	json_t *e;
#define PCH_PUSH(d)                                                                                 \
	do {                                                                                        \
		if (n == cap)                                                                       \
			dirs = xrealloc(dirs, (cap = cap ? 2 * cap : 16) * sizeof(*dirs));           \
		dirs[n++] = (d);                                                                    \
	} while (0)
	PCH_PUSH(xstrfmt("%s/kernels", repo_root));
	PCH_PUSH(xstrfmt("%s/problems", repo_root));
	json_array_foreach(sources, i, e)
	{
		const char *p = json_string_value(json_object_get(e, "path"));
		if (!p)
			continue;
		const char *slash = strrchr(p, '/');
		PCH_PUSH(slash ? xstrndup(p, (size_t)(slash - p) + (slash == p)) : xstrdup("."));
	}
	for (size_t a = 0; argv[a]; a++)
		for (size_t o = 0; opt[o]; o++) {
			size_t ol = strlen(opt[o]);
			int file = o >= 4; /* -include, -imacros: a file, its directory searched */
			if (strncmp(argv[a], opt[o], ol) || (file && argv[a][ol]))
				continue;
			const char *d = argv[a][ol] ? argv[a] + ol : argv[a + 1];
			if (!argv[a][ol] && argv[a + 1])
				a++; /* the directory was the next word */
			if (!d)
				break;
			if (file) {
				const char *slash = strrchr(d, '/');
				PCH_PUSH(slash ? xstrndup(d, (size_t)(slash - d) + (slash == d)) : xstrdup("."));
			} else {
				PCH_PUSH(xstrdup(d));
			}
			break;
		}
#undef PCH_PUSH
	char *root = realpath(repo_root, NULL), *cache = cache_dir ? realpath(cache_dir, NULL) : NULL;
	char *why = NULL;
	char **walked = xcalloc(n + 1, sizeof(*walked)); /* in-repository trees walked whole */
	size_t nw = 0;
	for (size_t d = 0; d < n && !why; d++) {
		char *real = realpath(dirs[d], NULL);
		if (!real)
			continue;
		size_t rl = root ? strlen(root) : 0;
		int inside = root && !strncmp(real, root, rl) && (real[rl] == '/' || !real[rl]);
		/* once a tree is walked, a directory in it needs no walk of its
		 * own (a source in kernels/, the same -I twice) */
		int done = 0;
		for (size_t w = 0; inside && w < nw && !done; w++) {
			size_t wl = strlen(walked[w]);
			done = !strncmp(real, walked[w], wl) && (real[wl] == '/' || !real[wl]);
		}
		if (done) {
			free(real);
			continue;
		}
		char *hit = NULL;
		if (inside) {
			walked[nw++] = xstrdup(real);
			struct pch_walk w = { cache, NULL };
			pch_w = &w;
			nftw(real, pch_visit, 16, FTW_PHYS | FTW_ACTIONRETVAL);
			pch_w = NULL;
			hit = w.found;
		} else {
			DIR *dh = opendir(real);
			struct dirent *de;
			while (dh && !hit && (de = readdir(dh))) {
				size_t l = strlen(de->d_name);
				if (l > 4 && (!strcmp(de->d_name + l - 4, ".gch") || !strcmp(de->d_name + l - 4, ".pch")))
					hit = xstrfmt("%s/%s", real, de->d_name);
			}
			if (dh)
				closedir(dh);
		}
		if (hit)
			why = xstrfmt("a precompiled header, %s, lies where the compiler may search for headers: gcc or "
				      "clang would compile it in place of the header it stands for, and no record "
				      "would name it; remove it (evident builds from sources, never precompiled "
				      "headers)",
				      hit);
		free(hit);
		free(real);
	}
	free(root);
	free(cache);
	for (size_t d = 0; d < n; d++)
		free(dirs[d]);
	free(dirs);
	for (size_t w = 0; w < nw; w++)
		free(walked[w]);
	free(walked);
	return why;
}

/* the build key's word for an entry that holds its echo identity */
#define BUILD_ID_SEALED "build id: the load hash (elf_seal_build_ids)"
#define ECHO_TWIN "echo twin: the compile's own -c object, relinked to the object, its echo masked by symbol"

/* Run av in the build box as the compile ran (sandbox_wrap_build: the
 * same view, masks and writable entry), its output into log.  0 when it
 * ran and exited 0. */
static int boxed_run(const struct sandbox *box, const char *const *av, const char *const *show,
		     const char *const *masks, const char *tmpdir, struct strbuf *log)
{
	int filter_fd = -1;
	char **boxed = sandbox_wrap_build(box, av, show, masks, tmpdir, &filter_fd);
	struct run_result rr;
	struct run_opts o = { .argv = (const char *const *)boxed, .timeout_s = BUILD_TIMEOUT_S,
			      .merge_stderr = 1, .out = log, .pass_fd = { filter_fd },
			      .pass_fd_at = { box->on ? SANDBOX_SECCOMP_FD : 0 },
			      .signal_in_exit_code = box->on, .limit_as_bytes = BUILD_LIMIT_AS_BYTES,
			      .limit_fsize_bytes = BUILD_LIMIT_FSIZE_BYTES,
			      .oom_score_adj = SANDBOX_OOM_SCORE_ADJ, .no_core = 1, .kill_box = box->on,
			      .env_keep = build_env_keep, .env_set = build_env_set };
	int rc = run_command(&o, &rr);
	sandbox_argv_free(boxed);
	if (filter_fd >= 0)
		close(filter_fd);
	return rc == 0 && rr.exited && rr.exit_code == 0 ? 0 : -1;
}

/*
 * The echo twin (build_recipe.echo_mask), run where the compile ran: the
 * compile's argv (dependency list left out) with -c, writing the
 * relocatable object ECHO.o into the entry, then that object linked with
 * the same argv into ECHO.so.  The compile's preprocessing is the kernel's
 * own (the same defines and files: red team 125's kernel told the old
 * neutral build, which forced a header in, by `#ifdef EVIDENT_KERNEL_H`),
 * and the relinked object must be the compiled one byte for byte, so the
 * relocatable object is the object's: what gas made of the compiler's text,
 * not the text (red team 130's `#NO_APP`, `\9` and macro tricks fooled a
 * reading of the -S text).  *hex gets its hash with the echo masked
 * (echo_mask.h), or *why (malloc'd) says why there is none.  Both files go.
 */
/* 1 when both objects' build ids are sealed (base/elf.h
 * elf_seal_build_ids: the object's is again after the link, a no-op):
 * compared before, two links under -Wl,--build-id=uuid differed by
 * their random ids alone, and an honest parametrised kernel lost its
 * echo-neutral identity (red team 200: 2 of 2 builds; eval refused a
 * configuration 1.647x faster as unknown). */
static int sealed_both(const char *x, const char *y)
{
	int n;
	char *why = NULL;
	int ok = elf_seal_build_ids(x, &n, &why) == 0;
	free(why);
	why = NULL;
	ok = ok && elf_seal_build_ids(y, &n, &why) == 0;
	free(why);
	return ok;
}

static void echo_twin(const struct sandbox *box, const char *const *argv, size_t deps_slot, size_t out_slot,
		      const char *const *show, const char *const *masks, const char *tmpdir,
		      const struct build_request *rq, char hex[SHA256_HEX_LEN + 1], char **why)
{
	size_t n = 0;
	while (argv[n])
		n++;
	char *opath = xstrfmt("%s/echo.o", tmpdir), *lpath = xstrfmt("%s/echo.so", tmpdir);
	const char **cc = xcalloc(n + 2, sizeof(char *)), **ld = xcalloc(n + 1, sizeof(char *));
	size_t nc = 0, nl = 0;
	for (size_t i = 0; i < n; i++) {
		if (i + 2 >= deps_slot && i <= deps_slot)
			continue; /* -MD -MF DEPS */
		if (i == n - 1) {
			cc[nc++] = "-c";
			cc[nc++] = argv[i];
			ld[nl++] = opath;
		} else {
			cc[nc++] = i == out_slot ? opath : argv[i];
			ld[nl++] = i == out_slot ? lpath : argv[i];
		}
	}
	struct strbuf log = STRBUF_INIT, a = STRBUF_INIT, b = STRBUF_INIT;
	*why = NULL;
	hex[0] = '\0';
	if (boxed_run(box, cc, show, masks, tmpdir, &log) < 0 || !path_exists(opath)) {
		char *e = line_with(strbuf_str(&log), "error");
		*why = xstrfmt("the compile to a relocatable object (-c) failed%s%s", e ? ": " : "", e ? e : "");
		free(e);
	} else if (boxed_run(box, ld, show, masks, tmpdir, &log) < 0 || !path_exists(lpath)) {
		char *e = line_with(strbuf_str(&log), "error");
		*why = xstrfmt("the compile's relocatable object did not link%s%s", e ? ": " : "", e ? e : "");
		free(e);
	} else if (!sealed_both(argv[out_slot], lpath)) {
		*why = xstrdup("the compile's relocatable object, linked, could not have its build id sealed");
	} else if (read_file(argv[out_slot], &a) < 0 || read_file(lpath, &b) < 0 || a.len != b.len ||
		   memcmp(a.buf, b.buf, a.len)) {
		*why = xstrdup("the compile's relocatable object, linked, is not the compiled object byte for byte");
	} else {
		strbuf_reset(&a);
		char *ewhy = NULL;
		if (read_file(opath, &a) < 0)
			*why = xstrdup("the compile's relocatable object cannot be read");
		else if (echo_mask_object((const unsigned char *)(a.buf ? a.buf : ""), a.len,
					  (const unsigned char *)(b.buf ? b.buf : ""), b.len, rq->params, rq->n_params, hex,
					  &ewhy) < 0)
			*why = xstrfmt("the compile's relocatable object cannot be read: %s", ewhy);
		free(ewhy);
	}
	unlink(opath);
	unlink(lpath);
	strbuf_release(&log);
	strbuf_release(&a);
	strbuf_release(&b);
	free(cc);
	free(ld);
	free(opath);
	free(lpath);
}

/*
 * The echo-neutral identity: the relocatable object's masked hash (obj,
 * echo_twin) with what else the link put into the shared object, so that
 * the same object linked with other inputs is another code: the spec's
 * flags as written (link options, operands), and every object, archive or
 * shared library among the build's sources by its path and hash
 * (linker_inputs, object_libraries: a flag's `x.o` linked in is code the
 * relocatable object does not hold).  Into hex.
 */
static void echo_with_link(const char *obj, const struct build_request *rq, const json_t *sources,
			   char hex[SHA256_HEX_LEN + 1])
{
	struct sha256_ctx *h = sha256_begin();
	sha256_update_field(h, "object", obj, strlen(obj));
	for (size_t i = 0; rq->extra_flags && rq->extra_flags[i]; i++)
		sha256_update_field(h, "flag", rq->extra_flags[i], strlen(rq->extra_flags[i]));
	size_t i;
	json_t *s;
	json_array_foreach(sources, i, s) {
		const char *path = json_string_value(json_object_get(s, "path"));
		const char *sha = json_string_value(json_object_get(s, "sha256"));
		size_t n = path ? strlen(path) : 0;
		int linkable = (n > 2 && (!strcmp(path + n - 2, ".o") || !strcmp(path + n - 2, ".a"))) ||
			       (n > 3 && !strcmp(path + n - 3, ".so")) || (path && strstr(path, ".so."));
		if (!linkable)
			continue;
		sha256_update_field(h, "input", path, n);
		sha256_update_field(h, "sha256", sha ? sha : "", sha ? strlen(sha) : 0);
	}
	sha256_end(h, hex);
}

/*
 * The path a worker loads the object from, <cache_dir>/obj/<so_sha256>/kernel.so:
 * a hard link to the entry's kernel.so named by the object's own hash, so
 * that what a kernel can read of its path (/proc/self/maps, dladdr, the
 * job's kernel_so; a box shows its copy at that path) is a function of
 * its own bytes.  The entry's name is the build key, which covers the
 * kernel file's name and its parameters: two variants of one object (a
 * byte-identical CUDA copy under another name, stripped: one file, one
 * code to eval and the audit) could tell which one they were from a bit
 * of it, a name ground until the bits differ (predicted 2026-12-03).
 * Made by a link under a temporary name and a rename over whatever is
 * there, so a concurrent build of the same object, or a file left by
 * anyone, is replaced by this entry's checked object.  res->so_path is
 * replaced (freed here) on success; on failure it stays the entry's, with
 * a warning.
 */
static void publish_by_object(const char *cache_dir, struct build_result *res)
{
	const char *hex = json_string_value(json_object_get(res->info, "so_sha256"));
	if (!res->so_path || !hex || strlen(hex) != SHA256_HEX_LEN)
		return;
	char rnd[9];
	random_hex(rnd, 8);
	char *top = xstrfmt("%s/obj", cache_dir), *dir = xstrfmt("%s/%s", top, hex);
	char *tmp = xstrfmt("%s/.kernel.so.%s", dir, rnd), *dst = xstrfmt("%s/kernel.so", dir);
	if ((mkdir(top, 0755) < 0 && errno != EEXIST) || (mkdir(dir, 0755) < 0 && errno != EEXIST) ||
	    link(res->so_path, tmp) < 0 || rename(tmp, dst) < 0) {
		warning("cannot name the object '%s' by its hash in '%s': %s (its build key's path is used)",
			res->so_path, dir, strerror(errno));
		unlink(tmp);
		free(dst);
	} else {
		free(res->so_path);
		res->so_path = dst;
	}
	free(top);
	free(dir);
	free(tmp);
}

int build_run(const struct build_request *rq, const struct build_recipe *recipe,
	      struct build_result *res)
{
	int rc = -1;
	char *kernels_inc = xstrfmt("-I%s/kernels", rq->repo_root);
	char *kernels_dir = xstrfmt("%s/kernels", rq->repo_root);
	char *src = path_exists(rq->kernel_path) || rq->kernel_path[0] == '/'
			    ? xstrdup(rq->kernel_path)
			    : xstrfmt("%s/%s", rq->repo_root, rq->kernel_path);
	char *version = NULL, *tmpdir = NULL, *entry = NULL, *out_path = NULL, *deps_path = NULL;
	char *as_list = NULL, *ld_list = NULL, **tracers = NULL, **traced[2] = { NULL, NULL };
	const char **run_argv = NULL;
	json_t *toolchain = NULL;
	char *refused = NULL, *exe_path = NULL, exe_sha[SHA256_HEX_LEN + 1];
	char echo_hex[SHA256_HEX_LEN + 1] = "", *echo_why = NULL; /* the echo twin's (echo_twin) */
	int echo_tried = 0;
	const char **argv = NULL;
	struct build_bounds bounds = { 0 };
	bounds.view = rq->view;
	/* the fine clock: a file written before it has an earlier change
	 * time (the kernel stamps one at most the time of the write: the
	 * coarse clock lags it by up to a tick), and one put back after pass
	 * 1 has read it, tens of milliseconds later, a later one */
	clock_gettime(CLOCK_REALTIME, &bounds.began);
	char **dflags = NULL;
	json_t *sources = json_array();
	json_t *pre = json_object(); /* flag-directory files' hashes before the compile, by real path */
	json_t *relive = json_array(); /* files pass 1 read in place (not copied), by real path */
	json_t *ruled = json_array();  /* the repository and flag-directory files pass 1's rule names, by real path */
	struct sha256_ctx *key = NULL;
	struct strbuf log = STRBUF_INIT;

	version = build_compiler_version(recipe->compiler, recipe->version_flag);
	if (!version) {
		error("cannot run the compiler '%s'; is it installed and on PATH?", recipe->compiler);
		goto out;
	}
	/* the compiler is the executable that runs, not its name and what it
	 * says of itself: a wrapper named cc first on PATH (or
	 * EVIDENT_HOST_CC) that adds a flag answers cc's --version and built
	 * other code under the same key and identity (red team 70) */
	if (build_compiler_exe(recipe->compiler, &exe_path, exe_sha) < 0) {
		error("cannot find or read the compiler '%s' (for its hash); is it installed and on PATH?",
		      recipe->compiler);
		goto out;
	}
	if (mkdir_p(rq->cache_dir, 0755) < 0)
		goto out;

	/* argv with a placeholder output, for the key */
	size_t nb = 0, ne = 0;
	while (recipe->base_flags && recipe->base_flags[nb])
		nb++;
	while (rq->extra_flags && rq->extra_flags[ne])
		ne++;
	argv = xcalloc(nb + rq->n_params + ne + 11, sizeof(char *));
	dflags = xcalloc(rq->n_params + 1, sizeof(char *));
	size_t k = 0;
	argv[k++] = recipe->compiler;
	for (size_t i = 0; i < nb; i++)
		argv[k++] = recipe->base_flags[i];
	argv[k++] = kernels_inc;
	for (size_t i = 0; i < rq->n_params; i++) {
		dflags[i] = xstrfmt("-D%s=%s", rq->params[i].name, rq->params[i].value);
		argv[k++] = dflags[i];
	}
	/* (a library, -lNAME, after the source instead: the linker keeps only
	 * what an object before it needs, and Debian's gcc links --as-needed,
	 * so a spec's -lcblas before the source linked nothing and the kernel
	 * was launch_failed, "undefined symbol: cblas_sgemv": red team 212) */
	for (size_t i = 0; i < ne; i++)
		if (strncmp(rq->extra_flags[i], "-l", 2))
			argv[k++] = rq->extra_flags[i];
	/* the compiler's own list of every file it read (gcc and nvcc alike) */
	argv[k++] = "-MD";
	argv[k++] = "-MF";
	size_t deps_slot = k;
	argv[k++] = "@DEPS@";
	argv[k++] = "-o";
	size_t out_slot = k;
	argv[k++] = "@OUT@";
	argv[k++] = src;
	for (size_t i = 0; i < ne; i++)
		if (!strncmp(rq->extra_flags[i], "-l", 2))
			argv[k++] = rq->extra_flags[i];
	argv[k] = NULL;

	key = sha256_begin();
	const char *incs[] = { kernels_dir, NULL };
	if (build_hash_sources(src, incs, key, sources) < 0)
		goto out;
	for (size_t i = 0; argv[i]; i++)
		sha256_update_field(key, "arg", argv[i], strlen(argv[i]));
	sha256_update_field(key, "compiler", version, strlen(version));
	sha256_update_field(key, "compiler_sha256", exe_sha, strlen(exe_sha));
	build_env_hash(key);
	char *unlisted = NULL;
	hash_search_dirs(key, argv, rq->repo_root, recipe->compiler, &unlisted);
	/* how the object was made is part of what it is: an entry compiled
	 * with the whole repository in view (before red team 3's asm_paste)
	 * may hold a file no manifest names, so it is never a hit now */
	if ((rq->sb && rq->sb->on) || (!rq->sb && rq->box_on_miss))
		sha256_update_field(key, "view", P1_VIEW, strlen(P1_VIEW));
	/* an entry made before the echo twin has no echo identity of it */
	if (recipe->echo_mask && rq->n_params)
		sha256_update_field(key, "echo", ECHO_TWIN, strlen(ECHO_TWIN));
	/* an entry made before the sealed build id may hold the linker's own */
	sha256_update_field(key, "build-id", BUILD_ID_SEALED, strlen(BUILD_ID_SEALED));
	/* the names the toolchain's search directories show and its specs
	 * file (build_toolchain.h, red team 204): nvcc's host compiler is the
	 * gcc on PATH, and its own headers are the CUDA home's */
	int nvcc = build_flags_dialect_of(recipe->compiler) == BUILD_FLAGS_NVCC;
	{
		char *pfx = nvcc ? compiler_prefix(recipe->compiler) : NULL;
		char *inc = pfx ? xstrfmt("%s/include", pfx) : NULL, *rinc = inc ? realpath(inc, NULL) : NULL;
		const char *extra[] = { rinc, NULL };
		toolchain_key(key, nvcc ? "gcc" : recipe->compiler, extra, build_env_keep, build_env_set);
		free(pfx);
		free(inc);
		free(rinc);
	}
	char hex[SHA256_HEX_LEN + 1];
	sha256_end(key, hex);
	key = NULL;

	bounds_init(&bounds, rq, recipe->compiler, argv);
	/* the spec's flags by allow list (build_flags.c); the recipe's own
	 * (base_flags, the kernels' -I, the -D parameters) are the backend's */
	refused = build_flags_refusal(rq->extra_flags, build_flags_dialect_of(recipe->compiler), rq->repo_root,
				      rq->cache_dir);
	if (!refused)
		refused = refusal_of_sources(&bounds, sources);
	if (!refused && unlisted) {
		refused = unlisted;
		unlisted = NULL;
	}
	free(unlisted);
	if (!refused)
		refused = pch_refusal(sources, argv, rq->repo_root, rq->cache_dir);
	entry = refused ? NULL : xstrfmt("%s/%s", rq->cache_dir, hex);
	if (entry && cache_hit(entry, &bounds, res)) {
		rc = 0;
		goto out;
	}
	/* only looking (build.h): not in the cache, so nothing more here */
	if (rq->hit_only) {
		rc = 1;
		goto out;
	}
	/* a box made on a miss alone (build_request.box_on_miss): the key
	 * above is a boxed build's, so one that cannot be made fails */
	static const struct sandbox no_box = SANDBOX_INIT;
	const struct sandbox *box = rq->sb ? rq->sb : &no_box;
	if (!refused && !rq->sb && rq->box_on_miss) {
		struct strbuf bwhy = STRBUF_INIT;
		const struct sandbox *made = rq->box_on_miss(&bwhy);
		if (made && made->on)
			box = made;
		else
			refused = xstrfmt("the build box cannot be set up: %s",
					  bwhy.len ? strbuf_str(&bwhy) : "no reason given");
		strbuf_release(&bwhy);
	}
	if (refused) {
		char *shown = printable_line(refused); /* it quotes the source's include */
		free(refused);
		refused = shown;
		/* not compiled at all: the record says why */
		res->info = json_pack("{s:o, s:s, s:s, s:O, s:b, s:f, s:o, s:s, s:s, s:s, s:n}", "argv", argv_json(argv),
				      "compiler_version", version, "build_key", hex, "sources", sources, "cached", 0,
				      "seconds", 0.0, "resources", json_object(), "status", "failed", "exit",
				      "refused before compiling", "reason", refused, "binary_sha256");
		json_object_set_new(res->info, "compiler_exe", json_pack("{s:s, s:s}", "path", exe_path, "sha256", exe_sha));
		res->log = xstrfmt("evident: not compiled: %s\n", refused);
		note_warnings(res->info, res->log);
		res->ok = 0;
		rc = 0;
		goto out;
	}

	char rnd[17];
	random_hex(rnd, 16);
	tmpdir = xstrfmt("%s/tmp-%s", rq->cache_dir, rnd);
	if (mkdir(tmpdir, 0755) < 0) {
		error("cannot create '%s': %s", tmpdir, strerror(errno));
		goto out;
	}
	out_path = xstrfmt("%s/kernel.so", tmpdir);
	deps_path = xstrfmt("%s/deps.d", tmpdir);
	argv[out_slot] = out_path;
	argv[deps_slot] = deps_path;
	/* the compile itself also has the assembler and the linker list what
	 * they read (build_toolchain.h): not in the key or the record's argv,
	 * which name the program, not where its lists go */
	as_list = xstrfmt("%s/as.d", tmpdir);
	ld_list = xstrfmt("%s/ld.d", tmpdir);
	int gas = !strstr(version, "clang");
	tracers = toolchain_tracers(nvcc, gas, as_list, ld_list);
	{
		size_t na = 0, nt = 0;
		while (argv[na])
			na++;
		while (tracers[nt])
			nt++;
		run_argv = xcalloc(na + nt + 1, sizeof(char *));
		size_t k2 = 0;
		for (size_t i = 0; i < na; i++) {
			if (i == deps_slot - 2)
				for (size_t t = 0; t < nt; t++)
					run_argv[k2++] = tracers[t];
			run_argv[k2++] = argv[i];
		}
	}

	/* in the build box when the run has one (sandbox.h): the repository
	 * and the compiler's tree read-only, the cache masked but for this
	 * entry; the flags' directories outside the repository (a library's
	 * -I, -L) are the spec's, not the kernel's, and are shown too */
	size_t nshow = 0;
	for (char **d = bounds.flag_dirs; *d; d++)
		nshow++;
	const char **show = xcalloc(nshow + 3, sizeof(char *));
	size_t ns = 0;
	show[ns++] = bounds.repo;
	if (bounds.tool)
		show[ns++] = bounds.tool;
	for (char **d = bounds.flag_dirs; *d; d++)
		show[ns++] = *d;
	const char *masks[] = { bounds.cache, NULL };
	struct run_result rr;
	double t0 = mono_now();
	int spawned = 0, pre_failed = 0;
	/* boxed: pass 1 lists what the source includes, and the compile sees
	 * those repository files instead of the whole repository */
	char **view = NULL, **libs = NULL;
	size_t nlibs = 0;
	struct p1_view p1 = { 0 };
	char *p1_why = NULL;
	if (box->on && p1_view_make(&p1, &bounds, box, sources, tmpdir, NULL, argv) < 0) {
		memset(&rr, 0, sizeof(rr));
		p1_why = p1.why;
		p1.why = NULL;
		pre_failed = 1;
	} else if (box->on) {
		size_t mark = log.len;
		int prc = included_files(box, &bounds, argv, deps_slot, tmpdir, (const char *const *)p1.out, masks,
					 &view, pre, &p1, relive, ruled, &log, &rr);
		if (prc == 0 && json_array_size(relive)) {
			/* pass 1 read a file of several names in place (one the
			 * key's sources do not name): once more, shown those
			 * as copies; a file so read again fails the build
			 * (shown_copy) */
			for (char **f = view; f && *f; f++)
				remove_copy(*f);
			free_strv(view);
			view = NULL;
			p1_view_release(&p1);
			if (log.buf) {
				log.len = mark;
				log.buf[mark] = '\0';
			}
			json_t *again = json_array();
			json_array_clear(ruled);
			if (p1_view_make(&p1, &bounds, box, sources, tmpdir, relive, argv) < 0) {
				p1_why = p1.why;
				p1.why = NULL;
				pre_failed = 1;
				prc = -2; /* pass 1 not run */
			} else {
				prc = included_files(box, &bounds, argv, deps_slot, tmpdir,
						     (const char *const *)p1.out, masks, &view, pre, &p1, again, ruled,
						     &log, &rr);
			}
			json_decref(again);
		}
		if (prc == -1)
			spawned = -1;
		if (prc != -2)
			pre_failed = prc == 1;
		/* pass 1 missed a flag directory's file it was not shown: say why */
		for (size_t i = 0; prc == 1 && i < p1.nhidden; i++) {
			const char *nl = strchr(p1.hidden[i], '\n'), *base = p1.hidden[i];
			for (const char *q = p1.hidden[i]; q < nl; q++)
				if (*q == '/')
					base = q + 1;
			char *miss = xstrfmt("%.*s: No such file", (int)(nl - base), base);
			if (strstr(strbuf_str(&log), miss))
				strbuf_addf(&log, "evident: not shown to the compile: %s\n", nl + 1);
			free(miss);
		}
		/* or a repository file a record cannot name: say so */
		const char *fe = prc == 1 && p1.git ? strstr(strbuf_str(&log), "fatal error: ") : NULL;
		const char *nsf = fe ? strstr(fe, ": No such file") : NULL;
		if (nsf && nsf > fe + 13 && !memchr(fe, '\n', (size_t)(nsf - fe))) {
			char *name = xstrndup(fe + 13, (size_t)(nsf - fe - 13)), *dir = resolved(src);
			char *slash = strrchr(dir, '/');
			if (slash)
				*slash = '\0';
			const char *dirs[] = { dir, kernels_dir, NULL };
			int said = 0;
			for (size_t i = 0; dirs[i] && name[0] != '/' && !said; i++) {
				char *c = xstrfmt("%s/%s", dirs[i], name), *r = resolved(c);
				if (path_exists(r) && under(r, bounds.repo)) {
					strbuf_addf(&log,
						    "evident: not shown to the compile: '%s' is a file git neither tracks nor "
						    "would put in the record's patch (ignored, or untracked outside kernels/, "
						    "problems/ and experiments/): the record could not name it (git add it)\n",
						    r);
					said = 1;
				}
				free(c);
				free(r);
			}
			free(name);
			free(dir);
		}
		p1_scratch_remove(&p1);
		/* a directory pass 1 was shown changed meanwhile: what it found
		 * is not what the walk saw (a marker made and removed, a name
		 * swapped for a link), so neither its program nor its messages */
		if (prc >= 0)
			p1_why = p1_changed(&p1);
		if (p1_why) {
			pre_failed = 1;
			if (log.buf) {
				log.len = mark;
				log.buf[mark] = '\0';
			}
		}
		/* a file pass 1 read that the compile may not be shown fails
		 * the build: compiled without it, the object would not be the
		 * program pass 1's rule names (red team 102's p1: a hard-linked
		 * header choosing between two programs, one key, eval promoted
		 * a copy 63x) */
		if (!pre_failed && strstr(strbuf_str(&log), "evident: not shown to the compile: "))
			pre_failed = 1;
		if (view) {
			/* the flags' directories are no longer shown whole
			 * either: their headers the rule names (in view) and the
			 * libraries -l names in the -L ones, each at the path the
			 * linker opens ("@": red team 98's flag_blob had the
			 * assembler read a file of an -I directory that no -MD
			 * list names, one build key for two objects, and its
			 * store_peek the store's index through a hard link) */
			for (size_t i = 1; argv[i]; i++)
				lib_candidates((const char *const *)argv, i, &libs, &nlibs);
			size_t nv = 0;
			for (char **f = view; *f; f++)
				nv++;
			free(show);
			show = xcalloc(nv + nlibs + 2, sizeof(char *));
			ns = 0;
			if (bounds.tool)
				show[ns++] = bounds.tool;
			for (char **f = view; *f; f++)
				show[ns++] = *f;
			for (size_t i = 0; i < nlibs; i++) {
				char *real = resolved(libs[i]), *no = NULL, *at = NULL;
				if (path_exists(libs[i])) {
					char *opened = opened_abs(libs[i]);
					no = shown_copy(&bounds, box, opened, real, 1, 0, tmpdir, nv + i, pre, NULL, &at);
					free(opened);
					if (no)
						strbuf_addf(&log, "evident: not shown to the compile: %s\n", no);
				}
				free(no);
				free(real);
				free(libs[i]);
				libs[i] = at; /* NULL: not shown */
				if (at)
					show[ns++] = at;
			}
		}
	}
	if (spawned == 0 && !pre_failed) {
		int filter_fd = -1;
		char **boxed = sandbox_wrap_build(box, run_argv, show, masks, tmpdir, &filter_fd);
		struct run_opts o = { .argv = (const char *const *)boxed, .timeout_s = BUILD_TIMEOUT_S,
				      .merge_stderr = 1, .out = &log, .pass_fd = { filter_fd },
				      .pass_fd_at = { box->on ? SANDBOX_SECCOMP_FD : 0 },
				      .signal_in_exit_code = box->on, .limit_as_bytes = BUILD_LIMIT_AS_BYTES,
				      .limit_fsize_bytes = BUILD_LIMIT_FSIZE_BYTES,
				      .oom_score_adj = SANDBOX_OOM_SCORE_ADJ, .no_core = 1, .kill_box = box->on,
				      .env_keep = build_env_keep, .env_set = build_env_set };
		spawned = run_command(&o, &rr);
		sandbox_argv_free(boxed);
		if (filter_fd >= 0)
			close(filter_fd);
		/* the assembler's and linker's lists, before the echo twin's
		 * compile (which is not traced) */
		traced[0] = gas && !nvcc ? toolchain_trace_list(as_list) : NULL;
		traced[1] = toolchain_ld_list(ld_list);
		unlink(as_list);
		unlink(ld_list);
		if (spawned == 0 && recipe->echo_mask && rq->n_params && rr.exited && rr.exit_code == 0 &&
		    path_exists(out_path)) {
			double e0 = mono_now();
			echo_twin(box, argv, deps_slot, out_slot, show, masks, tmpdir, rq, echo_hex, &echo_why);
			echo_tried = 1;
			t0 += mono_now() - e0; /* the build's seconds are the compile's */
		}
	}
	free(show);
	p1_view_release(&p1);
	if (p1_why)
		strbuf_addf(&log, "evident: not compiled: %s\n", p1_why);
	/* the copies (">SRC\nDEST") go: the entry keeps the object and its
	 * log alone */
	for (char **f = view; f && *f; f++)
		remove_copy(*f);
	free_strv(view);
	for (size_t i = 0; i < nlibs; i++) {
		remove_copy(libs[i]);
		free(libs[i]);
	}
	free(libs);
	if (spawned < 0) {
		free(p1_why);
		remove_flat_dir(tmpdir);
		goto out;
	}
	double secs = mono_now() - t0;

	json_t *argv_rec = argv_json(argv);
	/* record the argv with the placeholders: the temp dir name is noise */
	json_array_set_new(argv_rec, out_slot, json_string("@OUT@"));
	json_array_set_new(argv_rec, deps_slot, json_string("@DEPS@"));
	int compiled = rr.exited && rr.exit_code == 0 && path_exists(out_path);
	/* what the compiler read, by its own list: the repository's files join
	 * the manifest, anything outside the repository and the toolchain
	 * fails the build */
	shown_hashes = pre;
	char *outside = compiled ? check_deps(&bounds, deps_path, sources, pre) : NULL;
	if (compiled && !outside)
		outside = ruled_sources(&bounds, ruled, sources);
	/* the libraries the object loads, searched once: the kernel's own
	 * join its sources, the system's its toolchain manifest */
	char **loads = compiled ? sandbox_object_libraries(out_path) : NULL;
	if (compiled && !outside)
		outside = object_libraries(&bounds, loads, sources);
	if (compiled && !outside)
		outside = linker_inputs(&bounds, argv, out_path, sources);
	if (compiled && !outside)
		outside = toolchain_reads(&bounds, deps_path, traced, gas && !nvcc, src, loads, sources, &toolchain);
	sandbox_argv_free(loads);
	unlink(deps_path);
	json_t *info = json_pack("{s:o, s:s, s:s, s:O, s:b, s:f, s:o, s:o}", "argv", argv_rec,
				 "compiler_version", version, "build_key", hex, "sources", sources,
				 "cached", 0, "seconds", secs, "resources", json_object(), "limits",
				 json_pack("{s:I, s:I, s:i, s:s}", "address_space_bytes",
					   (json_int_t)BUILD_LIMIT_AS_BYTES, "file_size_bytes",
					   (json_int_t)BUILD_LIMIT_FSIZE_BYTES, "timeout_s", BUILD_TIMEOUT_S, "box",
					   box->on ? "bubblewrap build box" : "none"));
	json_object_set_new(info, "compiler_exe", json_pack("{s:s, s:s}", "path", exe_path, "sha256", exe_sha));
	if (toolchain) {
		json_object_set_new(info, "toolchain", toolchain);
		toolchain = NULL;
	}
	res->info = info;
	res->log = xstrdup(strbuf_str(&log));
	note_warnings(info, res->log);

	/* an object that names a loader hook (DT_AUDIT and its kin) is no
	 * kernel: a loader runs the hook's code before any check, in
	 * whatever process loads or lists the object (red team 53's
	 * audit_escape: -Wl,--audit in a spec's flags made the kernel's own
	 * object its audit module, run as root in the runner) */
	if (compiled && !outside && path_exists(out_path))
		outside = elf_refuse_hooks(out_path);
	if (!compiled || outside) {
		struct strbuf how = STRBUF_INIT;
		run_result_describe(&rr, &how);
		char *reason = outside ? outside : p1_why ? p1_why : unseen_file(strbuf_str(&log));
		p1_why = NULL;
		if (!reason && !compiled)
			reason = unshown_file(strbuf_str(&log));
		if (!reason && !compiled && bounds.private_dir)
			reason = xstrfmt("the spec's directory '%s' is not for everyone to read (it or a directory above "
					 "it): a root runner's build box shows only such directories (make it readable "
					 "by all, chmod o+rx, or run evident as another user)",
					 bounds.private_dir);
		if (!reason && recipe->classify)
			reason = recipe->classify(strbuf_str(&log));
		if (!reason && (strstr(strbuf_str(&log), "out of memory") ||
				strstr(strbuf_str(&log), "virtual memory exhausted")))
			reason = xstrfmt("the compiler ran out of memory (the build's limit: %llu GiB of address space)",
					 BUILD_LIMIT_AS_BYTES >> 30);
		else if (!reason && strstr(strbuf_str(&log), "File too large"))
			reason = xstrfmt("the compiler wrote a file over the build's limit of %llu GiB",
					 BUILD_LIMIT_FSIZE_BYTES >> 30);
		json_object_set_new(info, "status", json_string("failed"));
		json_object_set_new(info, "exit", json_string(how.buf));
		/* the compiler's own line, which quotes the source (a #line file
		 * name, an #error's text): one line, its control bytes visible
		 * in the summary, show and PAPER.md (red team 4, ctl_bytes) */
		char *shown = reason ? printable_line(reason) : NULL;
		json_object_set_new(info, "reason", shown ? json_string(shown) : json_null());
		json_object_set_new(info, "binary_sha256", json_null());
		free(shown);
		free(reason);
		strbuf_release(&how);
		res->ok = 0;
		remove_flat_dir(tmpdir);
		rc = 0;
		goto out;
	}
	json_object_set_new(info, "status", json_string("ok"));
	json_object_set_new(info, "reason", json_null());
	if (echo_tried && !echo_why) {
		char linked[SHA256_HEX_LEN + 1];
		echo_with_link(echo_hex, rq, sources, linked);
		json_object_set_new(info, "echo_neutral_sha256", json_string(linked));
	} else if (echo_tried) {
		/* whether the parameters reach more than the echo is unknown */
		json_object_set_new(info, "echo_neutral_failed", json_true());
		json_object_set_new(info, "echo_neutral_reason", json_string(echo_why));
	}
	if (recipe->post) {
		if (recipe->post(tmpdir, strbuf_str(&log), info) < 0) {
			remove_flat_dir(tmpdir);
			goto out;
		}
	}
	/* the build id as a function of the loaded image, before any hash of
	 * the object is taken and before anything runs it (base/elf.h
	 * elf_seal_build_ids: a linker's random id was a coin the kernel
	 * read, red team 199) */
	int sealed_ids = 0;
	char *seal_why = NULL;
	if (elf_seal_build_ids(out_path, &sealed_ids, &seal_why) < 0) {
		warning("the object built for '%s' could not have its build id sealed (%s); not used",
			rq->kernel_path ? rq->kernel_path : "?", seal_why);
		free(seal_why);
		remove_flat_dir(tmpdir);
		goto out;
	}
	json_object_set_new(info, "build_ids_sealed", json_integer(sealed_ids));
	char so_hex[SHA256_HEX_LEN + 1];
	if (sha256_file_hex(out_path, so_hex) < 0) {
		remove_flat_dir(tmpdir);
		goto out;
	}
	/* the whole object's hash, checked on every cache hit and after every
	 * worker (a kernel that rewrites its own or another's binary) */
	json_object_set_new(info, "so_sha256", json_string(so_hex));
	if (!json_object_get(info, "binary_sha256"))
		json_object_set_new(info, "binary_sha256", json_string(so_hex));
	add_load_sha256(info, out_path);
	/* write log + info, then publish the directory atomically */
	char *logp = xstrfmt("%s/build.log", tmpdir);
	char *infop = xstrfmt("%s/info.json", tmpdir);
	FILE *f = fopen(logp, "w");
	int wrote = f && fwrite(strbuf_str(&log), 1, log.len, f) == log.len;
	if (f && fclose(f) != 0)
		wrote = 0;
	if (!wrote || json_dump_file(info, infop, JSON_INDENT(2) | JSON_SORT_KEYS) < 0) {
		error("cannot write the build cache entry '%s'", tmpdir);
		free(logp);
		free(infop);
		remove_flat_dir(tmpdir);
		goto out;
	}
	free(logp);
	free(infop);
	if (rename(tmpdir, entry) < 0) {
		/* another runner published the same key first: use theirs, all of
		 * it (its object and its info: a compiler need not be bit-for-bit
		 * reproducible, and the record must name the object that runs) */
		int e = errno;
		remove_flat_dir(tmpdir);
		json_decref(res->info);
		free(res->log);
		res->info = NULL;
		res->log = NULL;
		if (!cache_hit(entry, &bounds, res)) {
			error("cannot publish build cache entry '%s': %s", entry, strerror(e));
			goto out;
		}
		json_object_set_new(res->info, "cached", json_false());
		rc = 0;
		goto out;
	}
	res->so_path = xstrfmt("%s/kernel.so", entry);
	res->ok = 1;
	rc = 0;
out:
	if (rc == 0 && res->ok)
		publish_by_object(rq->cache_dir, res);
	if (key) {
		char tmp[SHA256_HEX_LEN + 1];
		sha256_end(key, tmp);
	}
	if (dflags) {
		for (size_t i = 0; i < rq->n_params; i++)
			free(dflags[i]);
		free(dflags);
	}
	free(argv);
	free(run_argv);
	for (char **t = tracers; t && *t; t++)
		free(*t);
	free(tracers);
	free_strv(traced[0]);
	free_strv(traced[1]);
	free(as_list);
	free(ld_list);
	json_decref(toolchain);
	json_decref(sources);
	shown_hashes = NULL;
	json_decref(pre);
	json_decref(relive);
	json_decref(ruled);
	strbuf_release(&log);
	free(version);
	free(exe_path);
	free(tmpdir);
	free(entry);
	free(out_path);
	free(deps_path);
	free(refused);
	free(echo_why);
	bounds_release(&bounds);
	free(src);
	free(kernels_inc);
	free(kernels_dir);
	return rc;
}
