/*
 * problem_code.c - a problem's code at a commit against the working
 * tree's (contract in problem_code.h): the files are found by following
 * quoted #include lines from the working tree's plug-in, then each is
 * looked up in the commit's tree with libgit2 and compared by blob id.
 */
#include "store/problem_code.h"

#include <git2.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* A list of repository paths, each once (malloc'd strings). */
struct pc_paths {
	char **v;
	size_t n, alloc;
};

static void pc_paths_release(struct pc_paths *p)
{
	for (size_t i = 0; i < p->n; i++)
		free(p->v[i]);
	free(p->v);
	memset(p, 0, sizeof(*p));
}

/* Adds path (takes it); 0 when it was there already (freed then). */
static int pc_paths_add(struct pc_paths *p, char *path)
{
	for (size_t i = 0; i < p->n; i++)
		if (!strcmp(p->v[i], path)) {
			free(path);
			return 0;
		}
	if (p->n == p->alloc) {
		p->alloc = p->alloc ? 2 * p->alloc : 8;
		p->v = xrealloc(p->v, p->alloc * sizeof(*p->v));
	}
	p->v[p->n++] = path;
	return 1;
}

/* dir (may be "") joined with rel, "." and ".." folded: a new string the
 * caller frees, or NULL when it leaves the repository (above its root)
 * or rel is absolute. */
static char *pc_join(const char *dir, const char *rel)
{
	if (*rel == '/')
		return NULL;
	char *all = *dir ? xstrfmt("%s/%s", dir, rel) : xstrdup(rel);
	char *out = xcalloc(strlen(all) + 1, 1);
	size_t n = 0;
	for (char *s = all, *e; *s; s = *e ? e + 1 : e) {
		e = s + strcspn(s, "/");
		size_t len = (size_t)(e - s);
		if (!len || (len == 1 && *s == '.'))
			continue;
		if (len == 2 && s[0] == '.' && s[1] == '.') {
			if (!n) {
				free(all);
				free(out);
				return NULL;
			}
			while (n && out[n - 1] != '/')
				n--;
			if (n)
				n--; /* the '/' before the part dropped */
			out[n] = 0;
			continue;
		}
		if (n)
			out[n++] = '/';
		memcpy(out + n, s, len);
		n += len;
		out[n] = 0;
	}
	free(all);
	if (!n) {
		free(out);
		return NULL;
	}
	return out;
}

/* path's folder ("" for a top-level file): a new string the caller frees. */
static char *pc_dir(const char *path)
{
	const char *slash = strrchr(path, '/');
	return slash ? xstrndup(path, (size_t)(slash - path)) : xstrdup("");
}

/* Adds path and, once, every repository file its quoted #include lines
 * name (from its own folder, else problems/), recursively.  A line
 * scan, wider than the preprocessor (an #include under #if counts): more
 * files compared can only make a run stale, never current. */
static void pc_closure(struct pc_paths *p, const char *path)
{
	if (!pc_paths_add(p, xstrdup(path)))
		return;
	struct strbuf text = STRBUF_INIT;
	int saved = util_quiet;
	util_quiet = 1;
	int got = read_file(path, &text) == 0;
	util_quiet = saved;
	char *dir = pc_dir(path);
	for (const char *s = strbuf_str(&text); got && *s;) {
		char *rel = include_quoted(s);
		if (rel) {
			char *c = pc_join(dir, rel);
			if (!c || !path_exists(c)) {
				free(c);
				c = pc_join("problems", rel);
			}
			if (c && path_exists(c))
				pc_closure(p, c);
			free(c);
			free(rel);
		}
		const char *nl = s + strcspn(s, "\n");
		s = *nl ? nl + 1 : nl;
	}
	free(dir);
	strbuf_release(&text);
}

static const char *pc_git_msg(void)
{
	const git_error *e = git_error_last();
	return e && e->message ? e->message : "unknown libgit2 error";
}

/* The current directory's path inside repo's work tree ("" at its root,
 * "sub/dir/" below it): a new string the caller frees, or NULL when the
 * current directory is not inside it (a bare repository). */
static char *pc_prefix(git_repository *repo)
{
	const char *wd = git_repository_workdir(repo);
	char rw[PATH_MAX], rc[PATH_MAX];
	if (!wd || !realpath(wd, rw) || !realpath(".", rc))
		return NULL;
	size_t n = strlen(rw);
	if (strncmp(rc, rw, n) || (rc[n] && rc[n] != '/'))
		return NULL;
	return rc[n] ? xstrfmt("%s/", rc + n + 1) : xstrdup("");
}

/* The comparison itself (problem_code_same_at without the cache). */
static int pc_compare(const char *commit, const char *name, int gpu, struct strbuf *why)
{
	int same = 0, inited = 0;
	git_repository *repo = NULL;
	git_object *obj = NULL;
	git_commit *cm = NULL;
	git_tree *tree = NULL;
	struct pc_paths files = { 0 };
	char *prefix = NULL, *spec = NULL;
	char *c_path = xstrfmt("problems/%s.c", name), *cu_path = xstrfmt("problems/%s.cu", name);
	if (!*name || strchr(name, '/') || !path_exists(c_path)) {
		strbuf_addf(why, "the working tree has no '%s' to compare with the problem code of commit %.12s",
			    c_path, commit);
		goto out;
	}
	git_libgit2_init();
	inited = 1;
	if (git_repository_open_ext(&repo, ".", 0, NULL) < 0 || !(prefix = pc_prefix(repo))) {
		strbuf_addf(why, "no git work tree here holds commit %.12s, so the problem code it ran is unknown",
			    commit);
		goto out;
	}
	spec = xstrfmt("%s^{commit}", commit);
	if (git_revparse_single(&obj, repo, spec) < 0 || git_commit_lookup(&cm, repo, git_object_id(obj)) < 0 ||
	    git_commit_tree(&tree, cm) < 0) {
		strbuf_addf(why, "commit %.12s is not in the repository (%s), so the problem code it ran is unknown",
			    commit, pc_git_msg());
		goto out;
	}
	pc_closure(&files, c_path);
	if (gpu && path_exists(cu_path))
		pc_closure(&files, cu_path);
	same = 1;
	for (size_t i = 0; i < files.n && same; i++) {
		char *in_tree = xstrfmt("%s%s", prefix, files.v[i]);
		git_tree_entry *te = NULL;
		struct strbuf now = STRBUF_INIT;
		git_oid id;
		int saved = util_quiet;
		util_quiet = 1;
		int got = read_file(files.v[i], &now) == 0;
		util_quiet = saved;
		if (git_tree_entry_bypath(&te, tree, in_tree) < 0 || git_tree_entry_type(te) != GIT_OBJECT_BLOB) {
			strbuf_addf(why, "'%s' did not exist at commit %.12s", files.v[i], commit);
			same = 0;
		} else if (!got || git_odb_hash(&id, now.buf ? now.buf : "", now.len, GIT_OBJECT_BLOB) < 0 ||
			   !git_oid_equal(&id, git_tree_entry_id(te))) {
			strbuf_addf(why, "'%s' changed since commit %.12s", files.v[i], commit);
			same = 0;
		}
		git_tree_entry_free(te);
		strbuf_release(&now);
		free(in_tree);
	}
out:
	pc_paths_release(&files);
	git_tree_free(tree);
	git_commit_free(cm);
	git_object_free(obj);
	git_repository_free(repo);
	if (inited)
		git_libgit2_shutdown();
	free(spec);
	free(prefix);
	free(c_path);
	free(cu_path);
	return same;
}

/* The answers so far, for the life of the process (each string malloc'd
 * once and kept: reachable, never freed). */
static struct pc_answer {
	char *commit, *name, *why;
	int gpu, same;
} *pc_answers;
static size_t pc_n_answers;

int problem_code_same_at(const char *commit, const char *name, int gpu, struct strbuf *why)
{
	gpu = !!gpu;
	for (size_t i = 0; i < pc_n_answers; i++) {
		struct pc_answer *a = &pc_answers[i];
		if (!strcmp(a->commit, commit) && !strcmp(a->name, name) && a->gpu == gpu) {
			if (!a->same)
				strbuf_addstr(why, a->why);
			return a->same;
		}
	}
	struct strbuf w = STRBUF_INIT;
	int same = pc_compare(commit, name, gpu, &w);
	pc_answers = xrealloc(pc_answers, (pc_n_answers + 1) * sizeof(*pc_answers));
	pc_answers[pc_n_answers++] = (struct pc_answer){ xstrdup(commit), xstrdup(name), xstrdup(strbuf_str(&w)),
							 gpu, same };
	strbuf_release(&w);
	if (!same)
		strbuf_addstr(why, pc_answers[pc_n_answers - 1].why);
	return same;
}

/* Is line [s, e) of a patch a file header ("diff --git", "---", "+++")
 * that names path (as a/PATH or b/PATH)? */
static int pc_header_names(const char *s, const char *e, const char *path)
{
	static const char *const head[] = { "diff --git ", "--- ", "+++ " };
	int is_head = 0;
	for (size_t i = 0; i < sizeof(head) / sizeof(head[0]); i++)
		is_head |= (size_t)(e - s) >= strlen(head[i]) && !strncmp(s, head[i], strlen(head[i]));
	if (!is_head)
		return 0;
	size_t n = strlen(path);
	for (const char *p = s; p + 2 + n <= e; p++)
		if ((p[0] == 'a' || p[0] == 'b') && p[1] == '/' && (p == s || p[-1] == ' ') && !strncmp(p + 2, path, n) &&
		    (p + 2 + n == e || p[2 + n] == ' ' || p[2 + n] == '\t' || p[2 + n] == '\r'))
			return 1;
	return 0;
}

int problem_code_in_diff(const char *name, int gpu, const char *diff, struct strbuf *why)
{
	if (!diff || !*name || strchr(name, '/'))
		return 0;
	struct pc_paths files = { 0 };
	char *c_path = xstrfmt("problems/%s.c", name), *cu_path = xstrfmt("problems/%s.cu", name);
	if (path_exists(c_path))
		pc_closure(&files, c_path);
	else
		pc_paths_add(&files, xstrdup(c_path));
	if (gpu) {
		if (path_exists(cu_path))
			pc_closure(&files, cu_path);
		else
			pc_paths_add(&files, xstrdup(cu_path));
	}
	int hit = 0;
	for (const char *s = diff; *s && !hit;) {
		const char *e = s + strcspn(s, "\n");
		for (size_t i = 0; i < files.n && !hit; i++)
			if (pc_header_names(s, e, files.v[i])) {
				strbuf_addf(why, "'%s' differed from its commit in the run's tree (its recorded diff)",
					    files.v[i]);
				hit = 1;
			}
		s = *e ? e + 1 : e;
	}
	pc_paths_release(&files);
	free(c_path);
	free(cu_path);
	return hit;
}
