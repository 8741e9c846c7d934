/*
 * build_toolchain.c - the toolchain's part of a build's identity
 * (build_toolchain.h; red team 204): the listing of the directories the
 * compiler driver searches by default, joined to the build key; the
 * hashes of the toolchain files a build read, kept for the process; and
 * the assembler's and linker's own lists of what they read.
 *
 * The driver is asked where it looks (`-print-search-dirs`, `-E -v` for
 * the include list, `-print-file-name=specs`) once a process, with the
 * environment the build runs with.  A listing is of names, kinds and link
 * targets (links are not followed: a link's target text is the name's
 * content), sorted, so it changes only when a name is made, removed or
 * renamed; each directory walked is kept with its device, inode and ctime
 * (which any such change moves), and the next key re-reads only those to
 * decide whether to walk again: /usr/include's 25k names cost about 50 ms
 * to walk and its 2k directories 2 ms to check.
 */
#include "backends/build_toolchain.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <pwd.h>
#include <unistd.h>

#include "backends/build.h"
#include "base/runcmd.h"

/* read_file without its message: a file that is not there is an answer
 * here (no kept state yet; no list written, which the caller names) */
static int quiet_read(const char *path, struct strbuf *sb)
{
	int q = util_quiet;
	util_quiet = 1;
	int rc = read_file(path, sb);
	util_quiet = q;
	return rc;
}

/* ---- file hashes, kept by identity ------------------------------------- */

static struct tc_memo {
	char *path;
	struct toolchain_stat st;
	char sha[SHA256_HEX_LEN + 1];
} *file_memo;
static size_t n_file_memo, cap_file_memo;

static void stat_of(const struct stat *s, struct toolchain_stat *t)
{
	t->dev = (unsigned long long)s->st_dev;
	t->ino = (unsigned long long)s->st_ino;
	t->size = (unsigned long long)s->st_size;
	t->mtime_ns = (long long)s->st_mtim.tv_sec * 1000000000LL + s->st_mtim.tv_nsec;
	t->ctime_ns = (long long)s->st_ctim.tv_sec * 1000000000LL + s->st_ctim.tv_nsec;
}

static int same_stat(const struct toolchain_stat *a, const struct toolchain_stat *b)
{
	return a->dev == b->dev && a->ino == b->ino && a->size == b->size && a->mtime_ns == b->mtime_ns &&
	       a->ctime_ns == b->ctime_ns;
}

/* the bytes of the open file fd hashed, its stat in *t: read from the one
 * descriptor, so the hash is of the file the stat names */
static int hash_fd(int fd, char hex[SHA256_HEX_LEN + 1], struct toolchain_stat *t)
{
	struct stat s;
	if (fstat(fd, &s) < 0 || !S_ISREG(s.st_mode))
		return -1;
	struct sha256_ctx *c = sha256_begin();
	char buf[1 << 16];
	for (;;) {
		ssize_t k = read(fd, buf, sizeof(buf));
		if (k < 0 && errno == EINTR)
			continue;
		if (k < 0) {
			sha256_end(c, hex);
			return -1;
		}
		if (k == 0)
			break;
		sha256_update(c, buf, (size_t)k);
	}
	sha256_end(c, hex);
	struct stat after;
	/* written while read: not one file's bytes */
	if (fstat(fd, &after) < 0 || after.st_ctim.tv_sec != s.st_ctim.tv_sec ||
	    after.st_ctim.tv_nsec != s.st_ctim.tv_nsec)
		return -1;
	stat_of(&s, t);
	return 0;
}

static void memo_put(const char *path, const struct toolchain_stat *st, const char *sha)
{
	struct tc_memo *m = NULL;
	for (size_t i = 0; i < n_file_memo && !m; i++)
		if (!strcmp(file_memo[i].path, path))
			m = &file_memo[i];
	if (!m) {
		if (n_file_memo == cap_file_memo)
			file_memo = xrealloc(file_memo, (cap_file_memo = cap_file_memo ? 2 * cap_file_memo : 64) *
							       sizeof(*file_memo));
		m = &file_memo[n_file_memo++];
		m->path = xstrdup(path);
	}
	m->st = *st;
	snprintf(m->sha, sizeof(m->sha), "%s", sha);
}

int toolchain_file_sha(const char *path, char hex[SHA256_HEX_LEN + 1], struct toolchain_stat *st)
{
	struct stat s;
	if (stat(path, &s) < 0 || !S_ISREG(s.st_mode))
		return -1;
	struct toolchain_stat now;
	stat_of(&s, &now);
	const struct tc_memo *m = NULL;
	for (size_t i = 0; i < n_file_memo && !m; i++)
		if (!strcmp(file_memo[i].path, path))
			m = &file_memo[i];
	if (m && same_stat(&m->st, &now)) {
		memcpy(hex, m->sha, SHA256_HEX_LEN + 1);
		if (st)
			*st = m->st;
		return 0;
	}
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	if (fd < 0)
		return -1;
	struct toolchain_stat got;
	int rc = hash_fd(fd, hex, &got);
	close(fd);
	if (rc < 0)
		return -1;
	memo_put(path, &got, hex);
	if (st)
		*st = got;
	return 0;
}

int toolchain_file_current(const char *path, const char *sha, const struct toolchain_stat *st)
{
	struct stat s;
	if (!path || !sha || stat(path, &s) < 0 || !S_ISREG(s.st_mode))
		return 0;
	struct toolchain_stat now;
	stat_of(&s, &now);
	if (st && same_stat(st, &now))
		return 1;
	char hex[SHA256_HEX_LEN + 1];
	return toolchain_file_sha(path, hex, NULL) == 0 && !strcmp(hex, sha);
}

/* ---- the driver's search directories ------------------------------------ */

struct dsnap {
	char *path;
	dev_t dev;
	ino_t ino;
	struct timespec ctim;
};

/* one directory's listing and the directories it walked */
struct listing {
	char *root;
	int recursive;
	struct dsnap *dirs;
	size_t n, cap;
	int absent; /* the root was no directory */
	int stale;  /* taken from a kept file that was not taken: walk again */
	char digest[SHA256_HEX_LEN + 1];
};
static struct listing *listings;
static size_t n_listings;
static int walked; /* a listing was walked (not taken as kept) since the flag was cleared */

/* at most this many names a listing: past it the listing says so
 * ("truncated") and names past it are not seen */
#define TC_LIST_MAX 400000
#define TC_LIST_DEPTH 32

static int name_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* path resolves under /usr or /lib* (what the build box shows of the system) */
static int system_path(const char *path)
{
	char *r = realpath(path, NULL);
	static const char *const roots[] = { "/usr/", "/lib/", "/lib32/", "/lib64/", "/libx32/", NULL };
	int in = 0;
	for (int i = 0; r && roots[i] && !in; i++)
		in = !strncmp(r, roots[i], strlen(roots[i]));
	free(r);
	return in;
}

/* has L walked the directory path resolves to (a link cycle, or a tree
 * reached twice)? */
static int walked_dir(const struct listing *L, const char *path)
{
	struct stat st;
	if (stat(path, &st) < 0)
		return 1;
	for (size_t i = 0; i < L->n; i++)
		if (L->dirs[i].dev == st.st_dev && L->dirs[i].ino == st.st_ino)
			return 1;
	return 0;
}

static void walk(struct listing *L, struct sha256_ctx *c, const char *dir, const char *rel, int depth, size_t *left)
{
	DIR *d = opendir(dir);
	struct stat ds;
	if (!d || fstat(dirfd(d), &ds) < 0) {
		if (d)
			closedir(d);
		sha256_update_field(c, "unlisted", rel, strlen(rel));
		return;
	}
	if (L->n == L->cap)
		L->dirs = xrealloc(L->dirs, (L->cap = L->cap ? 2 * L->cap : 64) * sizeof(*L->dirs));
	L->dirs[L->n++] = (struct dsnap){ xstrdup(dir), ds.st_dev, ds.st_ino, ds.st_ctim };
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
	for (size_t i = 0; i < n; i++) {
		if (*left == 0) {
			sha256_update_field(c, "truncated", rel, strlen(rel));
		} else {
			(*left)--;
			char *path = xstrfmt("%s/%s", dir, names[i]), *sub = xstrfmt("%s/%s", rel, names[i]);
			struct stat st;
			char kind = lstat(path, &st) < 0 ? '?' : S_ISDIR(st.st_mode) ? 'd' : S_ISLNK(st.st_mode) ? 'l' : 'f';
			sha256_update_field(c, "name", sub, strlen(sub));
			sha256_update_field(c, "kind", &kind, 1);
			if (kind == 'l') {
				char target[PATH_MAX];
				ssize_t t = readlink(path, target, sizeof(target));
				sha256_update_field(c, "link", target, t > 0 ? (size_t)t : 0);
			}
			/* a link to a directory of the system's is walked too, where
			 * the compiler would look (red team 205's lnk.c probed a
			 * name through /usr/include/python3.11/numpy, a link into
			 * /usr/lib/python3); each directory once (a link cycle) */
			struct stat to;
			int dir_link = kind == 'l' && stat(path, &to) == 0 && S_ISDIR(to.st_mode) && system_path(path);
			if ((kind == 'd' || dir_link) && L->recursive && depth < TC_LIST_DEPTH && !walked_dir(L, path))
				walk(L, c, path, sub, depth + 1, left);
			free(path);
			free(sub);
		}
		free(names[i]);
	}
	free(names);
}

static void listing_clear(struct listing *L)
{
	for (size_t i = 0; i < L->n; i++)
		free(L->dirs[i].path);
	L->n = 0;
	L->absent = 0;
	L->stale = 0;
}

/* is every directory L walked as it was? */
static int listing_current(const struct listing *L)
{
	struct stat st;
	if (L->stale > 0 || (!L->absent && L->n == 0))
		return 0;
	if (L->absent)
		return stat(L->root, &st) < 0 || !S_ISDIR(st.st_mode);
	for (size_t i = 0; i < L->n; i++) {
		const struct dsnap *s = &L->dirs[i];
		if (stat(s->path, &st) < 0 || !S_ISDIR(st.st_mode) || st.st_dev != s->dev || st.st_ino != s->ino ||
		    st.st_ctim.tv_sec != s->ctim.tv_sec || st.st_ctim.tv_nsec != s->ctim.tv_nsec)
			return 0;
	}
	return 1;
}

/* root's listing digest (walked again where it changed) */
static const char *listing_of(const char *root, int recursive)
{
	struct listing *L = NULL;
	for (size_t i = 0; i < n_listings && !L; i++)
		if (!strcmp(listings[i].root, root) && listings[i].recursive == recursive)
			L = &listings[i];
	if (L && listing_current(L))
		return L->digest;
	if (!L) {
		listings = xrealloc(listings, (n_listings + 1) * sizeof(*listings));
		L = &listings[n_listings++];
		memset(L, 0, sizeof(*L));
		L->root = xstrdup(root);
		L->recursive = recursive;
	}
	listing_clear(L);
	walked = 1;
	struct sha256_ctx *c = sha256_begin();
	struct stat st;
	if (stat(root, &st) < 0 || !S_ISDIR(st.st_mode)) {
		L->absent = 1;
		sha256_update_field(c, "absent", root, strlen(root));
	} else {
		size_t left = TC_LIST_MAX;
		walk(L, c, root, "", 0, &left);
	}
	sha256_end(c, L->digest);
	return L->digest;
}

/* ---- what the driver says ----------------------------------------------- */

#define TC_PROGS 7
struct driver {
	char *cc;
	char **include; /* recursive */
	char **flat;    /* library and program directories: their top only */
	char *install;  /* recursive */
	char *specs;    /* the specs file the driver finds, or NULL */
	char *progs[TC_PROGS]; /* the programs it runs where it finds them, or NULL */
};
/* not cc1 or cc1plus: the compiler proper, 30-40 MB to hash in every
 * process, is what the version names, as the driver's executable */
static const char *const prog_names[TC_PROGS] = { "as", "ld", "collect2", "cc1", "cc1plus", "lto1", "lto-wrapper" };
/* the first TC_PROGS_ALWAYS are hashed wherever they lie; the compiler
 * proper and LTO's only outside the system's directories (a compiler
 * tree of someone's own: red team 208's copied driver ran a cc1 beside
 * it that added a -D, one key for two programs) */
#define TC_PROGS_ALWAYS 3
static struct driver drivers[4];

static char *ask(const char *const *argv, const char *const *env_keep, const char *const *env_set, int want_err)
{
	struct strbuf out = STRBUF_INIT, err = STRBUF_INIT;
	/* the C locale: `-E -v`'s "search starts here" is translated */
	static const char *const c_locale[] = { "LC_ALL=C", "LANGUAGE=C", NULL };
	(void)env_set;
	struct run_opts o = { .argv = argv, .timeout_s = 30, .out = &out, .err = &err, .env_keep = env_keep,
			      .env_set = c_locale };
	struct run_result r;
	int rc = run_command(&o, &r);
	char *text = NULL;
	if (rc == 0 && r.exited && r.exit_code == 0)
		text = strbuf_detach(want_err ? &err : &out, NULL);
	strbuf_release(&out);
	strbuf_release(&err);
	return text;
}

static void push(char ***v, const char *s)
{
	size_t n = 0;
	while (*v && (*v)[n])
		n++;
	for (size_t i = 0; i < n; i++)
		if (!strcmp((*v)[i], s))
			return;
	*v = xrealloc(*v, (n + 2) * sizeof(char *));
	(*v)[n] = xstrdup(s);
	(*v)[n + 1] = NULL;
}

/* "/a/b/../c/" as "/a/c" when it exists (realpath), else NULL */
static char *real_dir(const char *d, size_t n)
{
	char *s = xstrndup(d, n), *r = realpath(s, NULL);
	struct stat st;
	if (r && (stat(r, &st) < 0 || !S_ISDIR(st.st_mode))) {
		free(r);
		r = NULL;
	}
	/* a directory that is not there (yet) is listed as absent, so one
	 * made later is seen (red team 208's `as` put in a programs
	 * directory the driver named but that did not exist when asked) */
	if (!r && s[0] == '/' && !strstr(s, "/../") && !strstr(s, "/./"))
		r = xstrdup(s);
	else if (!r && s[0] == '/' && n) {
		char *t = xstrfmt("%s", s), *q;
		/* lexically: "a/b/../c" as "a/c" (the driver's relative forms) */
		while ((q = strstr(t, "/../"))) {
			char *b = q;
			while (b > t && b[-1] != '/')
				b--;
			memmove(b > t ? b - 1 : t, q + 3, strlen(q + 3) + 1);
		}
		while ((q = strstr(t, "/./")))
			memmove(q, q + 2, strlen(q + 2) + 1);
		r = t;
	}
	free(s);
	return r;
}

/* a directory of /usr/local other than the one given (the build box shows
 * only a CUDA home there: sandbox.c push_no_local) */
static int hidden_local(const char *d, const char *const *extra)
{
	if (strncmp(d, "/usr/local", 10) || (d[10] && d[10] != '/'))
		return 0;
	for (const char *const *e = extra; e && *e; e++) {
		size_t n = strlen(*e);
		if (!strncmp(d, *e, n) && (d[n] == '/' || !d[n]))
			return 0;
	}
	return 1;
}

static void driver_free(struct driver *dv)
{
	free(dv->cc);
	for (char **d = dv->include; d && *d; d++)
		free(*d);
	free(dv->include);
	for (char **d = dv->flat; d && *d; d++)
		free(*d);
	free(dv->flat);
	free(dv->install);
	free(dv->specs);
	for (int k = 0; k < TC_PROGS; k++)
		free(dv->progs[k]);
	memset(dv, 0, sizeof(*dv));
}

/* the kept answers of the driver cc, or NULL */
static struct driver *driver_find(const char *cc)
{
	for (size_t i = 0; i < ARRAY_SIZE(drivers); i++)
		if (drivers[i].cc && !strcmp(drivers[i].cc, cc))
			return &drivers[i];
	return NULL;
}

/* a slot for cc's answers (its old ones dropped), or NULL: no slot left */
static struct driver *driver_slot(const char *cc)
{
	struct driver *dv = driver_find(cc);
	for (size_t i = 0; i < ARRAY_SIZE(drivers) && !dv; i++)
		if (!drivers[i].cc)
			dv = &drivers[i];
	if (dv)
		driver_free(dv);
	return dv;
}

static struct driver *driver_ask(const char *cc, const char *const *env_keep, const char *const *env_set)
{
	struct driver *dv = driver_slot(cc);
	if (!dv)
		return NULL;
	const char *sd[] = { cc, "-print-search-dirs", NULL };
	const char *inc[] = { cc, "-xc", "-E", "-v", "/dev/null", NULL };
	const char *sp[] = { cc, "-print-file-name=specs", NULL };
	char *dirs = ask(sd, env_keep, env_set, 0), *v = ask(inc, env_keep, env_set, 1), *s = ask(sp, env_keep, env_set, 0);
	dv->cc = xstrdup(cc);
	char *save = NULL;
	for (char *line = dirs ? strtok_r(dirs, "\n", &save) : NULL; line; line = strtok_r(NULL, "\n", &save)) {
		if (!strncmp(line, "install: ", 9)) {
			dv->install = real_dir(line + 9, strlen(line + 9));
			continue;
		}
		const char *p = !strncmp(line, "libraries: ", 11) ? line + 11 : !strncmp(line, "programs: ", 10) ? line + 10 : NULL;
		if (!p)
			continue;
		if (*p == '=')
			p++;
		while (*p) {
			size_t n = strcspn(p, ":");
			char *r = n ? real_dir(p, n) : NULL;
			if (r)
				push(&dv->flat, r);
			free(r);
			p += n + (p[n] == ':');
		}
	}
	const char *b = v ? strstr(v, "#include <...> search starts here:\n") : NULL;
	const char *e = b ? strstr(b, "End of search list.") : NULL;
	for (const char *p = b ? strchr(b, '\n') + 1 : NULL; p && p < e;) {
		size_t n = strcspn(p, "\n");
		const char *q = p;
		while (*q == ' ')
			q++;
		char *r = q < p + n ? real_dir(q, (size_t)(p + n - q)) : NULL;
		if (r)
			push(&dv->include, r);
		free(r);
		p += n + (p[n] == '\n');
	}
	if (s) {
		s[strcspn(s, "\n")] = '\0';
		struct stat st;
		if (s[0] == '/' && stat(s, &st) == 0 && S_ISREG(st.st_mode))
			dv->specs = xstrdup(s);
	}
	/* the programs the driver runs, by the driver's own search (a
	 * name without a '/' is PATH's: found the same way) */
	for (int k = 0; k < TC_PROGS; k++) {
		char *opt = xstrfmt("-print-prog-name=%s", prog_names[k]);
		const char *pp[] = { cc, opt, NULL };
		char *got = ask(pp, env_keep, env_set, 0);
		if (got) {
			got[strcspn(got, "\n")] = '\0';
			char *r = got[0] == '/' ? realpath(got, NULL) : NULL;
			if (!r && got[0] && got[0] != '/') {
				const char *path = getenv("PATH");
				char *copy = xstrdup(path && *path ? path : "/usr/bin:/bin"), *sv = NULL;
				for (char *d = strtok_r(copy, ":", &sv); d && !r; d = strtok_r(NULL, ":", &sv)) {
					char *c = xstrfmt("%s/%s", d, got);
					if (access(c, X_OK) == 0)
						r = realpath(c, NULL);
					free(c);
				}
				free(copy);
			}
			dv->progs[k] = r;
		}
		free(got);
		free(opt);
	}
	free(dirs);
	free(v);
	free(s);
	return dv;
}

/* ---- the answers kept across processes ------------------------------------ */

/*
 * A process asks the driver six times and walks 30k names (about 80 ms of
 * CPU on the project's VM, measured: `evident run --dry-run
 * experiments/cpu-demo.yaml` took 0.030 s of CPU before the toolchain's
 * key and 0.108 s after), and make test starts thousands.  So the answers
 * and the listings are kept in a file of the user's cache
 * (XDG_CACHE_HOME or ~/.cache, evident/toolchain/, named by the driver's
 * name and executable's hash, PATH and the extra directories), and a
 * process takes them where every directory a listing walked is as it was
 * (device, inode, ctime), as a process of its own would; any directory
 * changed and the driver is asked again and everything walked anew.  A
 * file's kept hash (specs, as, ld, collect2) is taken only where its
 * stat is as kept.  The file is as trusted as the runner's own cache of
 * CPU peaks: one who writes the runner's home can replace the runner.
 */
static char *state_dir_override;

void toolchain_state_dir(const char *dir)
{
	free(state_dir_override);
	state_dir_override = dir ? xstrdup(dir) : NULL;
}

static char *state_path(const char *cc, const char *const *extra)
{
	const char *path = getenv("PATH");
	char *exe = NULL, sha[SHA256_HEX_LEN + 1], hex[SHA256_HEX_LEN + 1];
	if (build_compiler_exe(cc, &exe, sha) < 0)
		return NULL;
	struct sha256_ctx *c = sha256_begin();
	sha256_update_field(c, "rule", TOOLCHAIN_RULE, strlen(TOOLCHAIN_RULE));
	sha256_update_field(c, "cc", cc, strlen(cc));
	sha256_update_field(c, "exe", exe, strlen(exe));
	sha256_update_field(c, "sha", sha, strlen(sha));
	sha256_update_field(c, "path", path ? path : "", path ? strlen(path) : 0);
	for (const char *const *e = extra; e && *e; e++)
		sha256_update_field(c, "extra", *e, strlen(*e));
	sha256_end(c, hex);
	free(exe);
	/* the runner's own home by its uid, not HOME or XDG_CACHE_HOME: a
	 * kept file is taken only from where the runner's user alone writes
	 * (state_load checks its owner and mode) */
	if (state_dir_override)
		return xstrfmt("%s/%.16s.txt", state_dir_override, hex);
	struct passwd *pw = getpwuid(getuid());
	if (pw && pw->pw_dir && pw->pw_dir[0] == '/')
		return xstrfmt("%s/.cache/evident/toolchain/%.16s.txt", pw->pw_dir, hex);
	return NULL;
}

static struct listing *listing_slot(const char *root, int recursive)
{
	for (size_t i = 0; i < n_listings; i++)
		if (!strcmp(listings[i].root, root) && listings[i].recursive == recursive) {
			listing_clear(&listings[i]);
			return &listings[i];
		}
	listings = xrealloc(listings, (n_listings + 1) * sizeof(*listings));
	struct listing *L = &listings[n_listings++];
	memset(L, 0, sizeof(*L));
	L->root = xstrdup(root);
	L->recursive = recursive;
	return L;
}


/* cc's answers and listings from the file at path into the process's
 * memos; the driver's slot, or NULL where there is none or one of its
 * listings no longer holds (then nothing of it is taken) */
static struct driver *state_load(const char *path, const char *cc)
{
	/* the runner's user's alone: owned by it, written by no one else, in
	 * a directory no one else may write */
	struct stat st, dst;
	char *dir = xstrdup(path), *slash = strrchr(dir, '/');
	if (slash)
		*slash = '\0';
	int mine = stat(path, &st) == 0 && S_ISREG(st.st_mode) && st.st_uid == getuid() && !(st.st_mode & 022) &&
		   stat(dir, &dst) == 0 && dst.st_uid == getuid() && !(dst.st_mode & 022);
	free(dir);
	if (!mine)
		return NULL;
	struct strbuf sb = STRBUF_INIT;
	if (quiet_read(path, &sb) < 0)
		return NULL;
	char *text = strbuf_detach(&sb, NULL), *save = NULL;
	struct driver *dv = NULL;
	struct listing *L = NULL;
	int ok = 1, ended = 0;
	for (char *line = strtok_r(text, "\n", &save); line && ok; line = strtok_r(NULL, "\n", &save)) {
		int at = -1, k = 0, rec = 0, absent = 0;
		unsigned long long a = 0, b = 0, z = 0;
		long long m = 0, c = 0, ns = 0;
		char sha[SHA256_HEX_LEN + 1];
		if (!dv) {
			ok = !strcmp(line, "evident-toolchain 1") && (dv = driver_slot(cc)) != NULL;
			if (ok)
				dv->cc = xstrdup(cc);
		} else if (sscanf(line, "inc %n", &at) == 0 && at > 0) {
			push(&dv->include, line + at);
		} else if (sscanf(line, "flat %n", &at) == 0 && at > 0) {
			push(&dv->flat, line + at);
		} else if (sscanf(line, "install %n", &at) == 0 && at > 0) {
			free(dv->install);
			dv->install = xstrdup(line + at);
		} else if (sscanf(line, "specs %n", &at) == 0 && at > 0) {
			free(dv->specs);
			dv->specs = xstrdup(line + at);
		} else if (sscanf(line, "prog %d %n", &k, &at) == 1 && at > 0 && k >= 0 && k < TC_PROGS) {
			free(dv->progs[k]);
			dv->progs[k] = xstrdup(line + at);
		} else if (sscanf(line, "file %llu %llu %llu %lld %lld %64s %n", &a, &b, &z, &m, &c, sha, &at) == 6 &&
			   at > 0 && strlen(sha) == SHA256_HEX_LEN) {
			struct toolchain_stat st = { a, b, z, m, c };
			memo_put(line + at, &st, sha);
		} else if (sscanf(line, "list %d %d %64s %n", &rec, &absent, sha, &at) == 3 && at > 0 &&
			   strlen(sha) == SHA256_HEX_LEN) {
			L = listing_slot(line + at, rec);
			L->stale = -1; /* this file's, judged below */
			L->absent = absent;
			memcpy(L->digest, sha, SHA256_HEX_LEN + 1);
		} else if (L && sscanf(line, "dir %llu %llu %lld %lld %n", &a, &b, &c, &ns, &at) == 4 && at > 0) {
			if (L->n == L->cap)
				L->dirs = xrealloc(L->dirs, (L->cap = L->cap ? 2 * L->cap : 64) * sizeof(*L->dirs));
			L->dirs[L->n++] = (struct dsnap){ xstrdup(line + at), (dev_t)a, (ino_t)b,
							  { (time_t)c, (long)ns } };
		} else if (!strcmp(line, "end")) {
			ended = 1;
		} else {
			ok = 0;
		}
		ok &= !ended || !save || !*save; /* "end" is the last line */
	}
	free(text);
	ok &= ended; /* a file cut short is not taken */
	for (size_t i = 0; ok && i < n_listings; i++)
		if (listings[i].stale == -1)
			ok = listing_current(&listings[i]);
	/* what this file gave is the file's only where all of it holds */
	for (size_t i = 0; i < n_listings; i++)
		if (listings[i].stale == -1)
			listings[i].stale = !ok;
	if (!ok && dv) {
		driver_free(dv);
		dv = NULL;
	}
	return dv;
}

static int one_line(const char *p)
{
	return p && !strchr(p, '\n');
}

/* dv's answers, the listings named (roots), and the kept hashes of its
 * files into the file at path, written whole and renamed into place */
static void state_save(const char *path, const struct driver *dv, char **rec, char **flat)
{
	struct strbuf sb = STRBUF_INIT;
	strbuf_addstr(&sb, "evident-toolchain 1\n");
	int ok = 1;
	for (char **d = dv->include; d && *d; d++)
		strbuf_addf(&sb, "inc %s\n", *d), ok &= one_line(*d);
	for (char **d = dv->flat; d && *d; d++)
		strbuf_addf(&sb, "flat %s\n", *d), ok &= one_line(*d);
	if (dv->install)
		strbuf_addf(&sb, "install %s\n", dv->install), ok &= one_line(dv->install);
	if (dv->specs)
		strbuf_addf(&sb, "specs %s\n", dv->specs), ok &= one_line(dv->specs);
	for (int k = 0; k < TC_PROGS; k++)
		if (dv->progs[k])
			strbuf_addf(&sb, "prog %d %s\n", k, dv->progs[k]), ok &= one_line(dv->progs[k]);
	for (size_t i = 0; i < n_file_memo; i++) {
		const struct tc_memo *f = &file_memo[i];
		int mine = (dv->specs && !strcmp(f->path, dv->specs));
		for (int k = 0; k < TC_PROGS; k++)
			mine |= dv->progs[k] && !strcmp(f->path, dv->progs[k]);
		if (mine)
			strbuf_addf(&sb, "file %llu %llu %llu %lld %lld %s %s\n", f->st.dev, f->st.ino, f->st.size,
				    f->st.mtime_ns, f->st.ctime_ns, f->sha, f->path);
	}
	for (int k = 0; k < 2; k++)
		for (char **d = k ? flat : rec; d && *d; d++)
			for (size_t i = 0; i < n_listings; i++) {
				const struct listing *L = &listings[i];
				if (strcmp(L->root, *d) || L->recursive != !k)
					continue;
				strbuf_addf(&sb, "list %d %d %s %s\n", L->recursive, L->absent, L->digest, L->root);
				ok &= one_line(L->root);
				for (size_t j = 0; j < L->n; j++) {
					const struct dsnap *ds = &L->dirs[j];
					strbuf_addf(&sb, "dir %llu %llu %lld %lld %s\n", (unsigned long long)ds->dev,
						    (unsigned long long)ds->ino, (long long)ds->ctim.tv_sec,
						    (long long)ds->ctim.tv_nsec, ds->path);
					ok &= one_line(ds->path);
				}
			}
	strbuf_addstr(&sb, "end\n");
	char *dir = xstrdup(path), *slash = strrchr(dir, '/');
	if (slash)
		*slash = '\0';
	char *tmp = xstrfmt("%s.%ld.tmp", path, (long)getpid());
	int quiet = util_quiet;
	util_quiet = 1;
	if (ok && mkdir_p(dir, 0755) == 0) {
		int fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
		int wrote = fd >= 0 && write_all(fd, sb.buf, sb.len) == 0;
		if (fd >= 0 && close(fd) != 0)
			wrote = 0;
		if (!wrote || rename(tmp, path) < 0)
			unlink(tmp);
	}
	util_quiet = quiet;
	free(tmp);
	free(dir);
	strbuf_release(&sb);
}

/* a NULL-terminated list of malloc'd strings freed */
static void free_list(char **v)
{
	for (char **d = v; d && *d; d++)
		free(*d);
	free(v);
}

void toolchain_forget(void)
{
	for (size_t i = 0; i < ARRAY_SIZE(drivers); i++)
		driver_free(&drivers[i]);
	for (size_t i = 0; i < n_listings; i++) {
		listing_clear(&listings[i]);
		free(listings[i].dirs);
		free(listings[i].root);
	}
	free(listings);
	listings = NULL;
	n_listings = 0;
	for (size_t i = 0; i < n_file_memo; i++)
		free(file_memo[i].path);
	free(file_memo);
	file_memo = NULL;
	n_file_memo = cap_file_memo = 0;
}

void toolchain_key(struct sha256_ctx *key, const char *host_cc, const char *const *extra_dirs,
		   const char *const *env_keep, const char *const *env_set)
{
	sha256_update_field(key, "toolchain", TOOLCHAIN_RULE, strlen(TOOLCHAIN_RULE));
	char *state = host_cc ? state_path(host_cc, extra_dirs) : NULL;
	struct driver *dv = host_cc ? driver_find(host_cc) : NULL;
	int asked = 0;
	if (!dv && state)
		dv = state_load(state, host_cc);
	char **rec = NULL, **flat = NULL;
	for (int round = 0; round < 2; round++) {
		if (!dv && host_cc) {
			dv = driver_ask(host_cc, env_keep, env_set);
			asked = 1;
		}
		free_list(rec);
		free_list(flat);
		rec = flat = NULL;
		if (dv) {
			for (char **d = dv->include; d && *d; d++)
				push(&rec, *d);
			if (dv->install)
				push(&rec, dv->install);
			for (char **d = dv->flat; d && *d; d++)
				push(&flat, *d);
		}
		for (const char *const *d = extra_dirs; d && *d; d++)
			push(&rec, *d);
		/* each listing kept or walked anew; a directory changed since the
		 * driver was asked (a specs file made beside it, a directory
		 * added to its search) has it asked again, once */
		walked = 0;
		for (int k = 0; k < 2; k++)
			for (char **d = k ? flat : rec; d && *d; d++)
				if (!hidden_local(*d, extra_dirs))
					listing_of(*d, !k);
		if (!walked || asked || !host_cc)
			break;
		dv = NULL;
	}
	for (int k = 0; k < 2; k++)
		for (char **d = k ? flat : rec; d && *d; d++) {
			if (hidden_local(*d, extra_dirs))
				continue;
			const char *dg = listing_of(*d, !k);
			sha256_update_field(key, k ? "tc_flat" : "tc_tree", *d, strlen(*d));
			sha256_update_field(key, "tc_list", dg, strlen(dg));
		}
	/* the specs file's bytes (the driver reads it whenever it exists:
	 * red team 204's *cpp: line added a -D to every compile) */
	char hex[SHA256_HEX_LEN + 1];
	if (dv && dv->specs && toolchain_file_sha(dv->specs, hex, NULL) == 0)
		sha256_update_field(key, "specs", hex, strlen(hex));
	else
		sha256_update_field(key, "specs", "", 0);
	/* the driver's programs' bytes: the compiler's version and executable
	 * are the driver's, not what it runs */
	for (int k = 0; dv && k < TC_PROGS; k++) {
		if (k >= TC_PROGS_ALWAYS && (!dv->progs[k] || system_path(dv->progs[k])))
			continue;
		int have = dv->progs[k] && toolchain_file_sha(dv->progs[k], hex, NULL) == 0;
		sha256_update_field(key, prog_names[k], have ? hex : "", have ? strlen(hex) : 0);
	}
	if (dv && state && (asked || walked))
		state_save(state, dv, rec, flat);
	free(state);
	free_list(rec);
	free_list(flat);
}

/* ---- the assembler's and linker's lists ---------------------------------- */

char **toolchain_tracers(int nvcc, int gas, const char *as_list, const char *ld_list)
{
	char **v = xcalloc(5, sizeof(char *));
	size_t n = 0;
	/* gcc's -Xassembler, not -Wa,: nvcc would split the latter's commas;
	 * and only gcc's: nvcc runs the assembler twice (the host code, then
	 * its device-link stub) and --MD keeps the last list */
	if (gas && !nvcc) {
		v[n++] = xstrdup("-Xassembler");
		v[n++] = xstrfmt("--MD=%s", as_list);
	}
	if (nvcc)
		v[n++] = xstrdup("-Xlinker");
	v[n++] = nvcc ? xstrfmt("--dependency-file=%s", ld_list) : xstrfmt("-Wl,--dependency-file=%s", ld_list);
	return v;
}

/* v grown by name (a copy), once */
static void add_name(char ***v, size_t *n, const char *name, size_t len)
{
	for (size_t i = 0; i < *n; i++)
		if (strlen((*v)[i]) == len && !strncmp((*v)[i], name, len))
			return;
	*v = xrealloc(*v, (*n + 2) * sizeof(char *));
	(*v)[(*n)++] = xstrndup(name, len);
	(*v)[*n] = NULL;
}

char **toolchain_trace_list(const char *path)
{
	struct strbuf sb = STRBUF_INIT;
	if (quiet_read(path, &sb) < 0)
		return NULL;
	const char *p = strbuf_str(&sb);
	char **v = xcalloc(1, sizeof(char *));
	size_t n = 0;
	struct strbuf tok = STRBUF_INIT;
	int in_deps = 0;
	for (;;) {
		while (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r' ||
		       (*p == '\\' && (p[1] == '\n' || (p[1] == '\r' && p[2] == '\n'))))
			p += *p == '\\' ? (p[1] == '\n' ? 2 : 3) : 1;
		if (!*p)
			break;
		strbuf_reset(&tok);
		while (*p && *p != ' ' && *p != '\t' && *p != '\n' && *p != '\r') {
			if (*p == '\\' && (p[1] == ' ' || p[1] == '#' || p[1] == '\\' || p[1] == '\t')) {
				strbuf_addch(&tok, p[1]);
				p += 2;
			} else if (*p == '\\' && (p[1] == '\n' || p[1] == '\r')) {
				break;
			} else if (*p == '$' && p[1] == '$') {
				strbuf_addch(&tok, '$');
				p += 2;
			} else {
				strbuf_addch(&tok, *p++);
			}
		}
		const char *t = strbuf_str(&tok);
		size_t len = strlen(t);
		/* gas writes one rule: its one target ends the target part, and
		 * every word after it is a file, one ending in ':' too (red team
		 * 205's gascolon: `.include "/usr/share/x.s:"` was taken for a
		 * target and left out) */
		if (!in_deps) {
			in_deps = len && t[len - 1] == ':';
			continue;
		}
		if (len)
			add_name(&v, &n, t, len);
	}
	strbuf_release(&tok);
	strbuf_release(&sb);
	return v;
}

char **toolchain_ld_list(const char *path)
{
	struct strbuf sb = STRBUF_INIT;
	if (quiet_read(path, &sb) < 0)
		return NULL;
	char **v = xcalloc(1, sizeof(char *));
	size_t n = 0;
	const char *p = strbuf_str(&sb);
	/* the target's line ("OUT: \"), then a name a line ("  NAME \", the
	 * last without the backslash) as it is, unescaped (red team 205's
	 * spaced.sh: a name with a space split in two, its first word a
	 * decoy; one ending in ':' dropped); then, after an empty line, each
	 * name again as a phony target */
	const char *nl = strchr(p, '\n');
	int more = nl && nl > p && nl[-1] == '\\';
	p = nl ? nl + 1 : p + strlen(p);
	while (more && *p) {
		nl = strchr(p, '\n');
		size_t len = nl ? (size_t)(nl - p) : strlen(p);
		const char *q = p;
		while (len && (*q == ' ' || *q == '\t'))
			q++, len--;
		more = len >= 2 && q[len - 1] == '\\' && q[len - 2] == ' ';
		if (more)
			len -= 2;
		else if (len && q[len - 1] == '\\')
			len--, more = 1;
		if (len)
			add_name(&v, &n, q, len);
		p = nl ? nl + 1 : q + len;
	}
	strbuf_release(&sb);
	return v;
}
