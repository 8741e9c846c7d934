/*
 * sandbox_libs.c - which libraries a box of copies holds (sandbox.h
 * sandbox_wrap_fresh): the files the host's loader would map for the
 * runner's worker (its own --list) and for a job's objects (read from
 * their dynamic sections, never by asking a loader), found by emulating
 * glibc's search: its directories in its order, the subdirectories it
 * says it tries, $ORIGIN, $LIB and $PLATFORM as it expands them, the
 * first file it would take; and what a box is refused (a file the loader
 * would stop at, one not for everyone to read where the runner is root,
 * one too large, a loader hook).  sandbox.c copies what this lists.
 */
#include "base/sandbox.h"
#include "base/sandbox_int.h"

#include <dirent.h>
#include <errno.h>
#include <glob.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/elf.h"
#include "base/runcmd.h"

/*
 * A host box's files (sandbox.h sandbox_wrap_fresh): each a copy bubblewrap
 * writes as the box starts, so the box never reads a page of the host's
 * page cache.  For the runner's own worker the loader says what it maps
 * (`LOADER --list WORKER`); the answer is kept for the process's life
 * (keyed by the file's identity and times).  Never for a job's objects:
 * a loader asked to list an object loads the audit module it names and
 * runs its code, in the runner, outside every box (red team 53's
 * audit_escape ran as root there through a spec's -Wl,--audit); their
 * libraries are read from their dynamic sections (base/elf.h) and found
 * where the loader would look.
 */
struct list_memo {
	char *path;
	dev_t dev;
	ino_t ino;
	struct timespec mtime;
	off_t size;
	char **files; /* NULL-terminated, kept for the process's life */
};
static struct list_memo *list_memo;
static size_t n_list_memo;

/* The absolute paths the loader at interp maps for obj (obj itself not
 * among them: the runner's own worker, never a job's object), as the
 * runner's LD_LIBRARY_PATH resolves them; a library it cannot find is
 * left out (the box's loader fails on it as the runner's would).
 * Memoised: the list belongs to the memo. */
char **sandbox_loader_list(const char *interp, const char *obj)
{
	struct stat st;
	if (stat(obj, &st) < 0)
		return NULL;
	for (size_t i = 0; i < n_list_memo; i++) {
		struct list_memo *m = &list_memo[i];
		if (!strcmp(m->path, obj) && m->dev == st.st_dev && m->ino == st.st_ino && m->size == st.st_size &&
		    m->mtime.tv_sec == st.st_mtim.tv_sec && m->mtime.tv_nsec == st.st_mtim.tv_nsec)
			return m->files;
	}
	/* only the search path: never LD_PRELOAD, LD_AUDIT (code the loader
	 * would run) or LD_WARN (which relocates, running IFUNC resolvers) */
	static const char *const keep[] = { "LD_LIBRARY_PATH", NULL };
	const char *argv[] = { interp, "--list", obj, NULL };
	struct strbuf out = STRBUF_INIT;
	struct run_opts o = { .argv = argv, .timeout_s = 20, .out = &out, .env_keep = keep };
	struct run_result r;
	struct argvb files = { 0 };
	if (run_command(&o, &r) == 0) {
		/* "\tNAME => /PATH (0x...)", "\t/PATH (0x...)", "\tNAME => not found" */
		char *save = NULL;
		for (char *line = strtok_r(out.buf ? out.buf : (char *)"", "\n", &save); line;
		     line = strtok_r(NULL, "\n", &save)) {
			char *arrow = strstr(line, "=> "), *p = arrow ? arrow + 3 : line + strspn(line, " \t");
			if (*p != '/')
				continue;
			char *end = strstr(p, " (0x");
			if (end)
				*end = 0;
			if (strcmp(p, obj))
				argvb_push(&files, p);
		}
	}
	strbuf_release(&out);
	if (!files.v)
		argvb_push(&files, interp); /* never NULL: a list to keep */
	list_memo = xrealloc(list_memo, (n_list_memo + 1) * sizeof(*list_memo));
	list_memo[n_list_memo++] = (struct list_memo){ xstrdup(obj), st.st_dev, st.st_ino, st.st_mtim, st.st_size,
							files.v };
	return files.v;
}

/* The loader's own expansions of $LIB and $PLATFORM, once loader_subdirs
 * has asked it (NULL until then: every spelling of $LIB, AT_PLATFORM). */
static char *loader_lib, *loader_platform;

/* One directory of a search list with the loader's tokens expanded,
 * appended to *l: $ORIGIN (origin), $PLATFORM and $LIB as this loader
 * expands them (sandbox_loader_subdirs asks it; before that, every spelling of
 * $LIB: red team 57's libspell stopped at a file under a spelling this
 * loader never uses, the box's loader went on to a later one), and a
 * directory that is not absolute, the empty one included, from the
 * working directory, as the loader takes it (red team 57's relcheat and
 * emptycheat: a slow build there, left out, and the box mapped a later
 * fast one; the box's working directory has the same path). */
static void add_expanded(struct argvb *l, const char *d, const char *origin)
{
	static const char *const libs[] = { "lib/x86_64-linux-gnu", "lib64", "lib", NULL };
	const char *plat = loader_platform ? loader_platform : (const char *)getauxval(AT_PLATFORM);
	int has_lib = strstr(d, "$LIB") || strstr(d, "${LIB}");
	int spellings = has_lib && !loader_lib ? 3 : 1;
	for (int v = 0; v < spellings; v++) {
		struct strbuf x = STRBUF_INIT;
		if (d[0] != '/' && strncmp(d, "$ORIGIN", 7) && strncmp(d, "${ORIGIN}", 9)) {
			char cwd[PATH_MAX];
			if (!getcwd(cwd, sizeof(cwd)))
				continue;
			strbuf_addstr(&x, cwd);
			if (*d)
				strbuf_addch(&x, '/');
		}
		for (const char *p = d; *p;) {
			if (!strncmp(p, "${ORIGIN}", 9) || !strncmp(p, "$ORIGIN", 7)) {
				strbuf_addstr(&x, origin);
				p += p[1] == '{' ? 9 : 7;
			} else if (!strncmp(p, "${PLATFORM}", 11) || !strncmp(p, "$PLATFORM", 9)) {
				strbuf_addstr(&x, plat ? plat : "x86_64");
				p += p[1] == '{' ? 11 : 9;
			} else if (!strncmp(p, "${LIB}", 6) || !strncmp(p, "$LIB", 4)) {
				strbuf_addstr(&x, loader_lib ? loader_lib : libs[v]);
				p += p[1] == '{' ? 6 : 4;
			} else {
				strbuf_addch(&x, *p++);
			}
		}
		if (x.len && x.buf[0] == '/' && !argvb_has(l, x.buf))
			argvb_push(l, x.buf);
		strbuf_release(&x);
	}
}

/* dirs ("a:b", the loader's tokens expanded: add_expanded; an empty entry
 * is the working directory, as the loader takes it) appended to *l */
static void add_dirs(struct argvb *l, const char *dirs, const char *origin)
{
	if (!dirs || !*dirs)
		return;
	for (const char *p = dirs;;) {
		size_t n = strcspn(p, ":");
		char *d = xstrndup(p, n);
		add_expanded(l, d, origin);
		free(d);
		if (!p[n])
			break;
		p += n + 1;
	}
}

/* The system's library directories, as the loader's cache is made from
 * them: /etc/ld.so.conf.d's lines, then the defaults.  Kept for the
 * process's life. */
static const struct argvb *system_lib_dirs(void)
{
	static struct argvb dirs;
	static int done;
	if (done)
		return &dirs;
	done = 1;
	glob_t g;
	if (glob("/etc/ld.so.conf.d/*.conf", 0, NULL, &g) == 0) {
		for (size_t i = 0; i < g.gl_pathc; i++) {
			struct strbuf t = STRBUF_INIT;
			if (read_file(g.gl_pathv[i], &t) == 0) {
				char *save = NULL;
				for (char *line = strtok_r(t.buf ? t.buf : (char *)"", "\n", &save); line;
				     line = strtok_r(NULL, "\n", &save)) {
					line += strspn(line, " \t");
					line[strcspn(line, " \t#")] = 0;
					if (line[0] == '/')
						argvb_push(&dirs, line);
				}
			}
			strbuf_release(&t);
		}
		globfree(&g);
	}
	static const char *const defaults[] = { "/lib64", "/usr/lib64", "/lib", "/usr/lib", NULL };
	for (int i = 0; defaults[i]; i++)
		argvb_push(&dirs, defaults[i]);
	return &dirs;
}

/* A shared object's file name: NAME.so or NAME.so.N... */
static int so_name(const char *base)
{
	for (const char *p = strstr(base, ".so"); p; p = strstr(p + 1, ".so"))
		if (p[3] == 0 || p[3] == '.')
			return 1;
	return 0;
}

/* Is dir one of the system's library directories (by its real path)? */
static int system_dir(const char *dir)
{
	char real[PATH_MAX];
	const char *d = realpath(dir, real) ? real : dir;
	const struct argvb *sys = system_lib_dirs();
	for (size_t i = 0; i < sys->n; i++) {
		char r2[PATH_MAX];
		const char *s2 = realpath(sys->v[i], r2) ? r2 : sys->v[i];
		if (!strcmp(d, s2))
			return 1;
	}
	return 0;
}

/* The system's file of that name (its first library directory holding
 * one), malloc'd, or NULL. */
static char *system_file_named(const char *base)
{
	const struct argvb *sys = system_lib_dirs();
	for (size_t i = 0; i < sys->n; i++) {
		char *f = xstrfmt("%s/%s", sys->v[i], base);
		if (access(f, R_OK) == 0)
			return f;
		free(f);
	}
	return NULL;
}

/* Shared objects under dir (depth levels of subdirectories too) whose
 * name the system has with other content, as "FILE (shadows
 * SYSTEM_FILE)" into out, each once. */
static void shadows_in(struct argvb *out, const char *dir, int depth)
{
	DIR *d = opendir(dir);
	if (!d) {
		/* one the loader can search and this process cannot list is
		 * taken for a shadow (red team 240's 0311 directory: the
		 * loader opened L/libm.so.6 by name, the walk saw nothing) */
		int e = errno;
		struct stat st;
		if (e != ENOENT && e != ENOTDIR && stat(dir, &st) == 0 && S_ISDIR(st.st_mode)) {
			char *x = xstrfmt("%s (a directory this runner cannot list: %s)", dir, strerror(e));
			if (!argvb_has(out, x))
				argvb_push(out, x);
			free(x);
		}
		return;
	}
	struct dirent *e;
	while ((e = readdir(d))) {
		if (e->d_name[0] == '.')
			continue;
		char *f = xstrfmt("%s/%s", dir, e->d_name);
		struct stat st;
		if (stat(f, &st) == 0 && S_ISDIR(st.st_mode)) {
			if (depth > 0)
				shadows_in(out, f, depth - 1);
		} else if (S_ISREG(st.st_mode) && so_name(e->d_name) && strncmp(e->d_name, "libcuda.so", 10) &&
			   !sandbox_driver_library_name(e->d_name)) {
			/* (the GPU driver's own libraries aside: a CUDA host's
			 * LD_LIBRARY_PATH names the driver's directory, whose
			 * libcuda and libnvidia-* may differ from stale copies
			 * in the system's; open: a third party's driver library) */
			char *sysf = system_file_named(e->d_name);
			char a[SHA256_HEX_LEN + 1], b[SHA256_HEX_LEN + 1];
			struct stat ss;
			/* the sizes first (a driver's libraries are tens of MB),
			 * then what the loader maps of each (elf_load_sha256: red
			 * team 237's system libm with 5 bytes appended, the same
			 * code, made the runs it shadowed a weak judge) */
			int other = 0;
			if (sysf && (stat(sysf, &ss) < 0 || ss.st_size != st.st_size || sha256_file_hex(f, a) < 0 ||
				     sha256_file_hex(sysf, b) < 0 || strcmp(a, b))) {
				char *w1 = NULL, *w2 = NULL;
				other = elf_load_sha256(f, a, &w1) < 0 || elf_load_sha256(sysf, b, &w2) < 0 || strcmp(a, b);
				free(w1);
				free(w2);
			}
			if (other) {
				char *x = xstrfmt("%s (shadows %s)", f, sysf);
				if (!argvb_has(out, x))
					argvb_push(out, x);
				free(x);
			}
			free(sysf);
		}
		free(f);
	}
	closedir(d);
}

static struct argvb box_shadows;
static void llp_dirs(struct argvb *dirs);

void sandbox_note_box_copy(const char *real, int fd)
{
	const char *base = strrchr(real, '/');
	base = base ? base + 1 : real;
	char *dir = xstrndup(real, (size_t)(base - real > 1 ? base - real - 1 : base - real));
	int outside = so_name(base) && strncmp(base, "libcuda.so", 10) && !sandbox_driver_library_name(base) &&
		      !system_dir(dir);
	free(dir);
	if (!outside)
		return;
	/* found through LD_LIBRARY_PATH (a directory on it or below one):
	 * the runner's own libraries (a dist's, by its RPATH) are its own */
	static struct argvb dirs;
	static int have;
	if (!have) {
		llp_dirs(&dirs);
		have = 1;
	}
	int on = 0;
	for (size_t i = 0; i < dirs.n && !on; i++) {
		size_t n = strlen(dirs.v[i]);
		while (n > 1 && dirs.v[i][n - 1] == '/')
			n--;
		on = !strncmp(real, dirs.v[i], n) && real[n] == '/';
	}
	if (!on)
		return;
	char *sysf = system_file_named(base);
	if (!sysf)
		return;
	char a[SHA256_HEX_LEN + 1], b[SHA256_HEX_LEN + 1], via[40];
	char *w1 = NULL, *w2 = NULL;
	snprintf(via, sizeof(via), "/proc/self/fd/%d", fd);
	if (elf_load_sha256(via, a, &w1) < 0 || elf_load_sha256(sysf, b, &w2) < 0 || strcmp(a, b)) {
		char *x = xstrfmt("%s (shadows %s, copied into a box)", real, sysf);
		if (!argvb_has(&box_shadows, x))
			argvb_push(&box_shadows, x);
		free(x);
	}
	free(w1);
	free(w2);
	free(sysf);
}

char **sandbox_box_shadows(void)
{
	if (!box_shadows.n)
		return NULL;
	struct argvb out = { 0 };
	for (size_t i = 0; i < box_shadows.n; i++)
		argvb_push(&out, box_shadows.v[i]);
	return out.v;
}

/* LD_LIBRARY_PATH's directories into dirs, each as the loader reads it:
 * $ORIGIN (the worker's directory, beside the runner's), $LIB and
 * $PLATFORM expanded, a relative one from the working directory
 * (add_expanded; red team 232: a libm under a path spelled with $LIB or
 * $PLATFORM was mapped and never looked at, 12 of 12 evals held) */
static void llp_dirs(struct argvb *dirs)
{
	const char *llp = getenv("LD_LIBRARY_PATH");
	char self[PATH_MAX];
	ssize_t sn = readlink("/proc/self/exe", self, sizeof(self) - 1);
	self[sn > 0 ? sn : 0] = 0;
	char *slash = strrchr(self, '/');
	if (slash)
		*slash = 0;
	for (const char *p = llp && *llp ? llp : NULL; p;) {
		size_t n = strcspn(p, ":;");
		char *d = xstrndup(p, n);
		if (*d)
			add_expanded(dirs, d, self[0] ? self : "/");
		free(d);
		p = p[n] ? p + n + 1 : NULL;
	}
}

char **sandbox_shadowed_libraries(void)
{
	struct argvb out = { 0 }, dirs = { 0 };
	llp_dirs(&dirs);
	/* each directory with every subdirectory the loader tries in it,
	 * in its list (sandbox_loader_subdirs: red team 236's libm in the
	 * legacy tls/haswell/avx512_1/x86_64, four levels down, was mapped
	 * and not seen by a walk three deep), or a walk four deep where the
	 * loader could not be asked */
	char *exe = realpath("/proc/self/exe", NULL), *interp = exe ? elf_interp(exe) : NULL;
	const struct argvb *subs = sandbox_loader_subdirs(interp, exe);
	free(exe);
	free(interp);
	for (size_t i = 0; i < dirs.n; i++) {
		if (system_dir(dirs.v[i]))
			continue;
		for (size_t k = 0; k < subs->n; k++)
			if (subs->v[k][0]) {
				char *sub = xstrfmt("%s%s%s", dirs.v[i], subs->v[k][0] == '/' ? "" : "/", subs->v[k]);
				shadows_in(&out, sub, 0);
				free(sub);
			}
		/* the directory itself; every level below it only where the
		 * loader could not be asked (its list is then the directory
		 * alone): a walk six deep of LD_LIBRARY_PATH=/ (t0057) hashed
		 * the machine's libraries for a quarter of an hour */
		shadows_in(&out, dirs.v[i], subs->n > 1 ? 0 : 4);
	}
	sandbox_argv_free(dirs.v);
	return out.v; /* NULL-terminated by argvb_push, NULL for none */
}

/* All of a box's copies together (the largest one, SANDBOX_MAX_COPY, is
 * in sandbox.h: the build's copies are held to it too). */
#define SANDBOX_MAX_COPIES (1536LL << 20)

/*
 * The subdirectories the loader tries in every directory of its search,
 * in its order, "" (the directory itself) last: glibc-hwcaps/x86-64-v4 ...
 * and, before glibc 2.37, the legacy ones (tls/x86_64/x86_64, tls, x86_64
 * ...).  Asked of the loader itself (interp, on evident's own worker exe:
 * LD_DEBUG=libs prints each search path), once per process, so that a box
 * holds the file the host's loader takes and not a later one (red team
 * 55's hwcaps and 56's legacy tls/: a box without the earlier build timed
 * the later one; 56's nine glibc-hwcaps decoys pushed the real one out of
 * a glob).  Kept for the process's life; never NULL.
 */
const struct argvb *sandbox_loader_subdirs(const char *interp, const char *exe)
{
	static struct argvb subs;
	static int done;
	if (done)
		return &subs;
	done = 1;
	static const char probe[] = "/nonexistent-evident-loader-probe";
	static const char tok[] = "/nonexistent-evident-token-probe/";
	char lib_path[160];
	snprintf(lib_path, sizeof(lib_path), "LD_LIBRARY_PATH=%s:%s$LIB/@/$PLATFORM/@", probe, tok);
	const char *env[] = { "LD_DEBUG=libs", lib_path, NULL };
	const char *argv[] = { interp, "--list", exe, NULL };
	static const char *const keep[] = { NULL };
	struct strbuf out = STRBUF_INIT, err = STRBUF_INIT;
	struct run_opts o = { .argv = argv, .timeout_s = 20, .out = &out, .err = &err, .env_keep = keep,
			      .env_set = env };
	struct run_result r;
	if (interp && exe && run_command(&o, &r) == 0 && err.buf) {
		/* "search path=P/glibc-hwcaps/x86-64-v4:P/tls:...:P		(LD_LIBRARY_PATH)" */
		char *line = strstr(err.buf, "search path=");
		char *end = line ? strstr(line, "(LD_LIBRARY_PATH)") : NULL;
		if (line && end) {
			*end = 0;
			char *save = NULL;
			for (char *e = strtok_r(line + 12, ": \t\n", &save); e; e = strtok_r(NULL, ": \t\n", &save)) {
				if (!strncmp(e, probe, sizeof(probe) - 1) && !argvb_has(&subs, e + sizeof(probe) - 1))
					argvb_push(&subs, e + sizeof(probe) - 1);
				/* "TOK" LIB "/@/" PLATFORM "/@" (the plain entry, no subdirectory) */
				char *at = !strncmp(e, tok, sizeof(tok) - 1) ? strstr(e, "/@/") : NULL;
				size_t el = strlen(e);
				if (at && !loader_lib && el > 2 && !strcmp(e + el - 2, "/@") && e + el - 2 > at + 2) {
					loader_lib = xstrndup(e + sizeof(tok) - 1, (size_t)(at - e) - (sizeof(tok) - 1));
					loader_platform = xstrndup(at + 3, (size_t)(e + el - 2 - (at + 3)));
				}
			}
		}
	}
	strbuf_release(&out);
	strbuf_release(&err);
	if (!argvb_has(&subs, ""))
		argvb_push(&subs, "");
	return &subs;
}

/* Whether a box may be shown path as a library: where the runner is root,
 * only when anyone may read it, the file readable by others and every
 * directory above its real path searchable by others (red team 56's
 * privdir: a 0644 file in a 0700 directory, read by a root runner);
 * elsewhere, whatever the runner's user may read (the spec's author's own
 * files).  1 or 0. */
static int public_file(const char *path)
{
	if (geteuid() != 0)
		return access(path, R_OK) == 0;
	return sandbox_public_path(path);
}

int sandbox_public_path(const char *path)
{
	char *real = realpath(path, NULL);
	struct stat st;
	int ok = real && stat(real, &st) == 0 && (st.st_mode & S_IROTH) &&
		 (!S_ISDIR(st.st_mode) || (st.st_mode & S_IXOTH));
	for (char *slash = real ? strrchr(real, '/') : NULL; ok && slash && slash > real;
	     slash = strrchr(real, '/')) {
		*slash = 0;
		ok = stat(real, &st) == 0 && (st.st_mode & S_IXOTH);
	}
	free(real);
	return ok;
}

/*
 * What the loader makes of path, a file that exists in its search: 1 it
 * maps it (a shared ELF object of this machine, not a program), 0 it goes
 * on searching (another class or machine, or a file the runner cannot
 * read), or -1 it would stop there, or map what the box cannot be given:
 * the reason in *why (malloc'd) - not a library (not ELF, too short, a
 * program: red team 56's notelf, where the host's loader failed and the
 * box went on to a later file), readable by the runner but not by all
 * (56's private: a root runner's loader mapped a 0600 build the box
 * skipped), or over SANDBOX_MAX_COPY.
 */
static int loader_takes(const char *path, int machine, char **why)
{
	struct stat st;
	if (stat(path, &st) < 0 || access(path, R_OK) < 0)
		return 0;
	if (!S_ISREG(st.st_mode)) {
		*why = xstrfmt("'%s' is not a regular file", path);
		return -1;
	}
	struct elf_dyn cd;
	char *ewhy = NULL;
	int r;
	if (elf_dyn_read(path, &cd, &ewhy) < 0) {
		/* another ELF class is skipped; anything else stops the loader */
		unsigned char h[5] = { 0 };
		FILE *f = fopen(path, "rb");
		size_t n = f ? fread(h, 1, sizeof(h), f) : 0;
		if (f)
			fclose(f);
		int elf32 = n == 5 && !memcmp(h, ELFMAG, SELFMAG) && h[EI_CLASS] == ELFCLASS32;
		if (!elf32)
			*why = xstrfmt("'%s' is not a shared object (%s): the host's loader stops at it", path,
				       ewhy ? ewhy : "not ELF");
		free(ewhy);
		return elf32 ? 0 : -1;
	}
	if (cd.machine != machine)
		r = 0;
	else if (cd.type != ET_DYN || cd.pie)
		r = -1, *why = xstrfmt("'%s' is a program, not a library: the host's loader stops at it", path);
	else if (!public_file(path))
		r = -1, *why = xstrfmt("'%s' is not for everyone to read (the file, or a directory above it): a "
				       "root runner shows a box only a library anyone may read (make it and its "
				       "directories readable by all, or take it off the loader's path)",
				       path);
	else if (st.st_size > SANDBOX_MAX_COPY)
		r = -1, *why = xstrfmt("'%s' is over %lld MiB: a library is copied into every box", path,
				       SANDBOX_MAX_COPY >> 20);
	else
		r = 1;
	elf_dyn_release(&cd);
	return r;
}

/*
 * The file the loader maps for library name, needed by an object in
 * origin whose dynamic section is d and whose loaders' DT_RPATHs are
 * chain (":"-joined, expanded; NULL for none), appended to *out: the
 * loader's own search, in its order - the object's DT_RPATH and its
 * loaders' (inherited where the object has no DT_RUNPATH: red team 55's
 * rpath_chain), LD_LIBRARY_PATH, its DT_RUNPATH, the system's directories
 * - each directory with the loader's subdirectories first
 * (sandbox_loader_subdirs), $ORIGIN, $PLATFORM and every spelling of $LIB
 * expanded.  1 found, 0 not found (the box's loader then fails as the
 * host's would), -1 with *why set where the loader would stop at a file,
 * or take one the box cannot show (loader_takes).
 */
static int find_library(const char *name, const struct elf_dyn *d, const char *origin, const char *chain,
			int machine, const struct argvb *subs, struct argvb *out, char **why)
{
	if (strchr(name, '/')) {
		/* refused at build (elf_refuse_hooks) */
		int t = name[0] == '/' ? loader_takes(name, machine, why) : 0;
		if (t > 0 && !argvb_has(out, name))
			argvb_push(out, name);
		return t;
	}
	struct argvb dirs = { 0 };
	if (!d->runpath) {
		add_dirs(&dirs, d->rpath, origin);
		add_dirs(&dirs, chain, origin);
	}
	add_dirs(&dirs, getenv("LD_LIBRARY_PATH"), origin);
	add_dirs(&dirs, d->runpath, origin);
	const struct argvb *sys = system_lib_dirs();
	for (size_t i = 0; i < sys->n; i++)
		if (!argvb_has(&dirs, sys->v[i]))
			argvb_push(&dirs, sys->v[i]);
	int t = 0;
	for (size_t i = 0; i < dirs.n && t == 0; i++)
		for (size_t k = 0; k < subs->n && t == 0; k++) {
			char *c = xstrfmt("%s%s/%s", dirs.v[i], subs->v[k], name);
			t = loader_takes(c, machine, why);
			if (t > 0 && !argvb_has(out, c))
				argvb_push(out, c);
			free(c);
		}
	sandbox_argv_free(dirs.v);
	return t;
}

char *sandbox_find_library(const char *name, const char *object)
{
	struct elf_dyn d;
	char *why = NULL;
	if (elf_dyn_read(object, &d, &why) < 0) {
		free(why);
		return NULL;
	}
	char *origin = sandbox_abs_path(object), *slash = strrchr(origin, '/');
	if (slash)
		*slash = 0;
	struct argvb found = { 0 }, plain = { 0 };
	argvb_push(&plain, "");
	char *r = find_library(name, &d, origin, NULL, d.machine, &plain, &found, &why) > 0 ? xstrdup(found.v[0])
											     : NULL;
	free(why);
	sandbox_argv_free(plain.v);
	sandbox_argv_free(found.v);
	free(origin);
	elf_dyn_release(&d);
	return r;
}

/*
 * The libraries the loader would map for a job's object (sandbox.h): the
 * search sandbox_object_deps makes for a box, with the runner's own
 * loader's subdirectories, every name searched (no worker's library is
 * taken as mapped).  NULL-terminated; the caller frees with
 * sandbox_argv_free.  NULL where a library cannot be found or taken (the
 * box says why when it starts).
 */
char **sandbox_object_libraries(const char *object)
{
	struct elf_dyn d;
	char *why = NULL;
	if (elf_dyn_read(object, &d, &why) < 0) {
		free(why);
		return NULL;
	}
	int machine = d.machine;
	elf_dyn_release(&d);
	char *self = realpath("/proc/self/exe", NULL), *interp = self ? elf_interp(self) : NULL;
	struct argvb roots = { 0 };
	char *abs = sandbox_abs_path(object);
	argvb_push(&roots, abs);
	free(abs);
	struct argvb none = { 0 };
	int rc = sandbox_object_deps(&roots, 0, machine, NULL, sandbox_loader_subdirs(interp, self), &none);
	free(self);
	free(interp);
	if (rc < 0) {
		sandbox_argv_free(roots.v);
		return NULL;
	}
	struct argvb libs = { 0 };
	for (size_t i = 1; i < roots.n; i++)
		argvb_push(&libs, roots.v[i]);
	sandbox_argv_free(roots.v);
	return libs.v ? libs.v : xcalloc(1, sizeof(char *)); /* none: an empty list, not a failure */
}

int sandbox_driver_library_name(const char *name)
{
	const char *b = name ? strrchr(name, '/') : NULL;
	b = b ? b + 1 : name;
	/* libcuda itself is the worker's own (a kernel that NEEDs it for the
	 * driver API, -lcuda, gets the one the worker loads; its JIT finds no
	 * PTX to compile, since the worker loads the object's cubins alone:
	 * review2's note) */
	return b && (!strncmp(b, "libnvidia-", 10) || !strncmp(b, "libcudadebugger.so", 18));
}

/* The first driver library among d's names (its soname, then what it
 * NEEDs), said with whose it is, malloc'd, or NULL. */
static char *driver_name_in(const struct elf_dyn *d, const char *whose)
{
	if (d->soname && sandbox_driver_library_name(d->soname))
		return xstrfmt("%s (the soname of %s)", d->soname, whose);
	for (char **n = d->needed; n && *n; n++)
		if (sandbox_driver_library_name(*n))
			return xstrfmt("%s (needed by %s)", *n, whose);
	return NULL;
}

char *sandbox_driver_library(const char *object)
{
	struct elf_dyn d;
	char *why = NULL, *r = NULL;
	if (elf_dyn_read(object, &d, &why) < 0) {
		free(why);
		return NULL;
	}
	/* the object's own names first: found on this host or not */
	r = driver_name_in(&d, "the kernel object");
	elf_dyn_release(&d);
	char **libs = r ? NULL : sandbox_object_libraries(object);
	for (char **l = libs; l && *l && !r; l++) {
		if (sandbox_driver_library_name(*l)) {
			r = xstrfmt("%s (a library the kernel object loads)", *l);
			break;
		}
		if (elf_dyn_read(*l, &d, &why) < 0) {
			free(why);
			why = NULL;
			continue;
		}
		r = driver_name_in(&d, *l);
		elf_dyn_release(&d);
	}
	sandbox_argv_free(libs);
	return r;
}

/* Does path lie under one of dirs (NULL-terminated, absolute)? */
static int masked(char *const *dirs, const char *path)
{
	char *real = realpath(path, NULL);
	int r = 0;
	for (char *const *d = dirs; real && d && *d && !r; d++) {
		size_t n = strlen(*d);
		r = !strncmp(real, *d, n) && (real[n] == '/' || real[n] == 0);
	}
	free(real);
	return r;
}

/* The libraries a job's objects (roots[from..]) load, read from their
 * dynamic sections, appended to roots (each once: the file the loader
 * takes, find_library, in the loader's subdirectories subs; a name an
 * object read so far, or one of provided, has as its soname is not
 * searched: the worker's own libraries are loaded before the objects).  0, or -1 with the error printed: an object
 * that names a loader hook (DT_AUDIT and its kin) is refused, since the
 * box's loader would run that library's code before the worker's first
 * check, and so is a library under a directory the box masks (hide: the
 * store, the build cache), which only the job's own objects may come from
 * (red team 54 read the store's index through a library's name), and
 * copies over SANDBOX_MAX_COPIES bytes in all. */
int sandbox_object_deps(struct argvb *roots, size_t from, int machine, char *const *hide, const struct argvb *subs,
		       const struct argvb *provided)
{
	struct argvb sonames = { 0 }; /* of the objects read so far */
	/* chain[i - from]: the DT_RPATHs of roots[i]'s loaders, expanded and
	 * ":"-joined (NULL: none), which glibc searches after its own */
	size_t cap = 16;
	char **chain = xcalloc(cap, sizeof(char *));
	struct argvb reals = { 0 }; /* the real paths of roots[from..] */
	for (size_t i = from; i < roots->n; i++) {
		char *real = realpath(roots->v[i], NULL);
		if (real)
			argvb_push(&reals, real);
		free(real);
		/* the objects themselves are mapped before their libraries */
		struct elf_dyn od;
		char *owhy = NULL;
		if (elf_dyn_read(roots->v[i], &od, &owhy) == 0) {
			if (od.soname && !argvb_has(&sonames, od.soname))
				argvb_push(&sonames, od.soname);
			elf_dyn_release(&od);
		}
		free(owhy);
	}
	long long bytes = 0;
	int rc = 0;
	for (size_t i = from; i < roots->n && rc == 0; i++) {
		if (roots->n > SANDBOX_MAX_FRESH) {
			rc = sandbox_box_fail("cannot show '%s' in the box: its objects load more than %d files", roots->v[from],
				   SANDBOX_MAX_FRESH);
			break;
		}
		struct stat st;
		if (stat(roots->v[i], &st) == 0 && (bytes += st.st_size) > SANDBOX_MAX_COPIES) {
			rc = sandbox_box_fail("cannot show '%s' in the box: its objects and libraries are over %lld MiB, copied "
				   "into every box",
				   roots->v[from], SANDBOX_MAX_COPIES >> 20);
			break;
		}
		struct elf_dyn d;
		char *why = NULL;
		if (elf_dyn_read(roots->v[i], &d, &why) < 0) {
			free(why);
			continue; /* not ELF: nothing to follow */
		}
		if (d.hook) {
			rc = sandbox_box_fail("'%s' names a loader hook (%s): refused, a loader would run that library's code",
				   roots->v[i], d.hook);
			elf_dyn_release(&d);
			break;
		}
		char *origin = xstrdup(roots->v[i]);
		char *slash = strrchr(origin, '/');
		if (slash)
			*slash = 0;
		const char *mine = chain[i - from];
		/* what this object's libraries inherit: its loaders' DT_RPATHs
		 * and its own */
		struct argvb own = { 0 };
		if (!d.runpath) /* an object with a DT_RUNPATH has its DT_RPATH ignored (red team 57's rpathchain) */
			add_dirs(&own, d.rpath, origin);
		struct strbuf next = STRBUF_INIT;
		if (mine)
			strbuf_addstr(&next, mine);
		for (size_t k = 0; k < own.n; k++) {
			if (next.len)
				strbuf_addch(&next, ':');
			strbuf_addstr(&next, own.v[k]);
		}
		sandbox_argv_free(own.v);
		struct argvb libs = { 0 };
		for (char **n = d.needed; *n && rc == 0; n++) {
			/* a name an object the loader has already mapped answers to
			 * (its soname, or a name it was loaded by) is that object: the
			 * loader opens no file for it.  Mapped means by then, in the
			 * loader's own order: breadth first, each library mapped as
			 * its name is met (red team 56's alias; red team 57's phantom
			 * and sonamedos: a soname taken from an object read later hid
			 * a search, or made one the loader never makes) */
			if (argvb_has(&sonames, *n) || argvb_has(provided, *n))
				continue;
			char *why = NULL;
			size_t before = libs.n;
			if (find_library(*n, &d, origin, mine, machine, subs, &libs, &why) < 0)
				rc = sandbox_box_fail("cannot show '%s' in the box: its library '%s': %s", roots->v[i], *n, why);
			free(why);
			argvb_push(&sonames, *n);
			for (size_t k = before; k < libs.n; k++) {
				struct elf_dyn ld;
				char *lwhy = NULL;
				if (elf_dyn_read(libs.v[k], &ld, &lwhy) == 0) {
					if (ld.soname && !argvb_has(&sonames, ld.soname))
						argvb_push(&sonames, ld.soname);
					elf_dyn_release(&ld);
				}
				free(lwhy);
			}
		}
		for (size_t k = 0; k < libs.n && rc == 0; k++) {
			/* one file under two paths (/lib and /usr/lib on a merged
			 * /usr) is one copy: the loader finds it by either */
			char *real = realpath(libs.v[k], NULL);
			int seen = argvb_has(roots, libs.v[k]) || (real && argvb_has(&reals, real));
			if (real && !seen)
				argvb_push(&reals, real);
			free(real);
			if (seen)
				continue;
			if (masked(hide, libs.v[k])) {
				rc = sandbox_box_fail("'%s' needs '%s', under a directory the box masks: refused", roots->v[i],
					   libs.v[k]);
				break;
			}
			argvb_push(roots, libs.v[k]);
			if (roots->n - from > cap) {
				chain = xrealloc(chain, 2 * cap * sizeof(char *));
				memset(chain + cap, 0, cap * sizeof(char *));
				cap *= 2;
			}
			chain[roots->n - 1 - from] = next.len ? xstrdup(next.buf) : NULL;
		}
		sandbox_argv_free(libs.v);
		strbuf_release(&next);
		free(origin);
		elf_dyn_release(&d);
	}
	for (size_t i = 0; i < cap; i++)
		free(chain[i]);
	free(chain);
	sandbox_argv_free(reals.v);
	sandbox_argv_free(sonames.v);
	return rc;
}
