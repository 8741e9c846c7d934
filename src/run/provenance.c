/*
 * provenance.c - where a run's code and machine came from.
 *
 * prov_git() asks libgit2 for the commit, branch and dirty state of the
 * repository holding the current directory, and when dirty, produces the
 * patch that turns that commit into the working tree: tracked changes
 * (staged or not) plus untracked files under kernels/, problems/ and
 * experiments/ and the run's own files wherever they lie (the spec, each
 * variant's kernel: prov_git_files), with binary content, so that `git apply` on the commit
 * restores the kernel and problem sources byte for byte (a problem is code
 * the run depends on like its kernel: its reference decides correctness).
 * Files git ignores are in no patch; the records' source hashes still name
 * them, and `evident reproduce` says which one the tree lacks.  The store
 * directory itself is left out (records are added to it while the
 * experiment runs).  Outside a git repository the result says so and the
 * run goes on.
 *
 * prov_runner() names the evident that writes the records (red team 279):
 * the commit it was built from, compiled in, and its executable's and its
 * worker's sha256 as they run; prov_git's repository is the spec's.
 *
 * prov_machine() describes the host: name, CPU, OS, kernel, compilers,
 * the environment variables that change what a GPU program does, and what
 * bounds a box's CPU share (the autogroup sysctl, the runner's cgroup).
 */
#include "run/provenance.h"

#include <git2.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "backends/build.h"

static const char *git_msg(void)
{
	const git_error *e = git_error_last();
	return e && e->message ? e->message : "unknown libgit2 error";
}

static int patch_cb(const git_diff_delta *d, const git_diff_hunk *h, const git_diff_line *l,
		    void *payload)
{
	(void)d;
	(void)h;
	struct strbuf *sb = payload;
	if (l->origin == GIT_DIFF_LINE_CONTEXT || l->origin == GIT_DIFF_LINE_ADDITION ||
	    l->origin == GIT_DIFF_LINE_DELETION)
		strbuf_addch(sb, l->origin);
	strbuf_add(sb, l->content, l->content_len);
	return 0;
}

/* The directories whose untracked files (not ignored) the patch covers
 * (prov_git_files' pathspec, and prov_recorded_files'). */
static const char *const patch_dirs[] = { "kernels", "problems", "experiments" };

/* Skip the store's own files when the store lives inside the repository. */
struct skip_ctx {
	const char *prefix; /* "artifacts/" or NULL */
};

static int notify_cb(const git_diff *diff, const git_diff_delta *delta, const char *spec,
		     void *payload)
{
	(void)diff;
	(void)spec;
	struct skip_ctx *s = payload;
	const char *p = delta->new_file.path ? delta->new_file.path : delta->old_file.path;
	if (s->prefix && p && !strncmp(p, s->prefix, strlen(s->prefix)))
		return 1; /* skip this delta */
	return 0;
}

/*
 * path (relative to the current directory, or to the repository's root
 * wd, which ends in '/') as a path relative to wd, malloc'd (the caller
 * frees); NULL when it does not exist or lies outside wd.
 */
static char *repo_relative(const char *wd, const char *path)
{
	char *abs = realpath(path, NULL);
	if (!abs && path[0] != '/') {
		char *in_root = xstrfmt("%s%s", wd, path);
		abs = realpath(in_root, NULL);
		free(in_root);
	}
	char *root = realpath(wd, NULL);
	char *rel = NULL;
	size_t n = root ? strlen(root) : 0;
	if (abs && root && !strncmp(abs, root, n) && abs[n] == '/' && abs[n + 1])
		rel = xstrdup(abs + n + 1);
	free(abs);
	free(root);
	return rel;
}

int prov_git(const char *store_prefix, struct prov_git *g)
{
	return prov_git_files(store_prefix, NULL, 0, g);
}

int prov_git_files(const char *store_prefix, const char *const *files, size_t n_files, struct prov_git *g)
{
	memset(g, 0, sizeof(*g));
	git_repository *repo = NULL;
	git_reference *head = NULL;
	git_object *tree_obj = NULL;
	git_tree *tree = NULL;
	git_diff *tracked = NULL, *untracked = NULL;
	struct strbuf patch = STRBUF_INIT;
	struct skip_ctx skip = { store_prefix };
	char **paths = NULL; /* the untracked files' pathspec, each malloc'd */
	size_t n_paths = 0;
	int rc = -1;

	git_libgit2_init();
	if (git_repository_open_ext(&repo, ".", 0, NULL) < 0) {
		g->is_repo = 0;
		g->why = xstrdup("not inside a git repository");
		rc = 0;
		goto out;
	}
	g->is_repo = 1;
	const char *wd = git_repository_workdir(repo);
	g->toplevel = xstrdup(wd ? wd : "");
	if (git_repository_head(&head, repo) < 0) {
		g->why = xstrfmt("no commit yet (%s)", git_msg());
		g->dirty = 1;
		rc = 0;
		goto out;
	}
	char oid[GIT_OID_HEXSZ + 1];
	git_oid_tostr(oid, sizeof(oid), git_reference_target(head));
	g->commit = xstrdup(oid);
	g->branch = xstrdup(git_reference_is_branch(head) ? git_reference_shorthand(head) : "(detached)");

	if (git_reference_peel(&tree_obj, head, GIT_OBJECT_TREE) < 0) {
		error("git: cannot read HEAD's tree: %s", git_msg());
		goto out;
	}
	tree = (git_tree *)tree_obj;

	git_diff_options o;
	git_diff_options_init(&o, GIT_DIFF_OPTIONS_VERSION);
	o.flags = GIT_DIFF_SHOW_BINARY;
	o.notify_cb = notify_cb;
	o.payload = &skip;
	if (git_diff_tree_to_workdir_with_index(&tracked, repo, tree, &o) < 0) {
		error("git: cannot diff the working tree: %s", git_msg());
		goto out;
	}
	git_diff_options u;
	git_diff_options_init(&u, GIT_DIFF_OPTIONS_VERSION);
	/* the directories a run's code lives in, and the run's own files */
	paths = xcalloc(ARRAY_SIZE(patch_dirs) + n_files, sizeof(*paths));
	for (size_t i = 0; i < ARRAY_SIZE(patch_dirs); i++)
		paths[n_paths++] = xstrdup(patch_dirs[i]);
	for (size_t i = 0; i < n_files; i++) {
		char *rel = files[i] ? repo_relative(g->toplevel, files[i]) : NULL;
		if (rel)
			paths[n_paths++] = rel;
	}
	u.flags = GIT_DIFF_INCLUDE_UNTRACKED | GIT_DIFF_RECURSE_UNTRACKED_DIRS |
		  GIT_DIFF_SHOW_UNTRACKED_CONTENT | GIT_DIFF_SHOW_BINARY;
	u.pathspec.strings = paths;
	u.pathspec.count = n_paths;
	if (git_diff_index_to_workdir(&untracked, repo, NULL, &u) < 0) {
		error("git: cannot list untracked files: %s", git_msg());
		goto out;
	}
	size_t nt = git_diff_num_deltas(tracked), nu = 0;
	if (git_diff_print(tracked, GIT_DIFF_FORMAT_PATCH, patch_cb, &patch) < 0) {
		error("git: cannot format the diff: %s", git_msg());
		goto out;
	}
	g->untracked = json_array();
	for (size_t i = 0; i < git_diff_num_deltas(untracked); i++) {
		const git_diff_delta *d = git_diff_get_delta(untracked, i);
		if (d->status != GIT_DELTA_UNTRACKED)
			continue;
		nu++;
		json_array_append_new(g->untracked, json_string(d->new_file.path));
		git_patch *p = NULL;
		if (git_patch_from_diff(&p, untracked, i) == 0 && p) {
			git_buf b = GIT_BUF_INIT;
			if (git_patch_to_buf(&b, p) == 0)
				strbuf_add(&patch, b.ptr, b.size);
			git_buf_dispose(&b);
			git_patch_free(p);
		}
	}
	g->dirty = nt + nu > 0;
	g->n_changed = nt + nu;
	if (g->dirty)
		g->diff = strbuf_detach(&patch, &g->diff_len);
	rc = 0;
out:
	for (size_t i = 0; i < n_paths; i++)
		free(paths[i]);
	free(paths);
	strbuf_release(&patch);
	git_diff_free(tracked);
	git_diff_free(untracked);
	git_object_free(tree_obj);
	git_reference_free(head);
	git_repository_free(repo);
	git_libgit2_shutdown();
	return rc;
}

struct prov_view {
	git_repository *repo;
	git_index *idx;
	char *root; /* the working directory's real path, no '/' at its end */
};

int prov_view_open(const char *dir, struct prov_view **out)
{
	*out = NULL;
	struct prov_view *pv = xcalloc(1, sizeof(*pv));
	int rc = -1;
	git_libgit2_init();
	if (git_repository_open_ext(&pv->repo, dir, 0, NULL) < 0 || git_repository_is_bare(pv->repo) ||
	    !git_repository_workdir(pv->repo)) {
		rc = 1;
		goto out;
	}
	pv->root = realpath(git_repository_workdir(pv->repo), NULL);
	if (!pv->root || git_repository_index(&pv->idx, pv->repo) < 0) {
		error("git: cannot read the index of '%s': %s", dir, git_msg());
		goto out;
	}
	*out = pv;
	pv = NULL;
	rc = 0;
out:
	prov_view_close(pv);
	return rc;
}

/* path (absolute) relative to the working directory, or NULL */
static const char *view_rel(const struct prov_view *pv, const char *path)
{
	size_t n = strlen(pv->root);
	if (strncmp(path, pv->root, n) || path[n] != '/' || !path[n + 1])
		return NULL;
	return path + n + 1;
}

int prov_view_tracked(struct prov_view *pv, const char *path)
{
	const char *rel = view_rel(pv, path);
	size_t pos;
	if (!rel || git_index_find(&pos, pv->idx, rel) < 0)
		return 0;
	const git_index_entry *e = git_index_get_byindex(pv->idx, pos);
	return e && (e->mode & 0170000) == 0160000 ? 2 : 1;
}

int prov_view_tracked_below(struct prov_view *pv, const char *dir)
{
	const char *rel = view_rel(pv, dir);
	if (!rel)
		return 0;
	char *prefix = xstrfmt("%s/", rel);
	size_t pos;
	int found = git_index_find_prefix(&pos, pv->idx, prefix) == 0;
	free(prefix);
	return found;
}

int prov_view_untracked_shown(struct prov_view *pv, const char *path)
{
	const char *rel = view_rel(pv, path);
	if (!rel)
		return 0;
	int in = 0;
	for (size_t i = 0; i < ARRAY_SIZE(patch_dirs) && !in; i++) {
		size_t k = strlen(patch_dirs[i]);
		in = !strncmp(rel, patch_dirs[i], k) && rel[k] == '/';
	}
	int ignored = 1;
	if (in && git_ignore_path_is_ignored(&ignored, pv->repo, rel) < 0)
		ignored = 1;
	return in && !ignored;
}

int prov_view_patch_dir(struct prov_view *pv, const char *path)
{
	const char *rel = view_rel(pv, path);
	if (!rel)
		return 0;
	for (size_t i = 0; i < ARRAY_SIZE(patch_dirs); i++) {
		size_t k = strlen(patch_dirs[i]);
		if (!strncmp(rel, patch_dirs[i], k) && (rel[k] == '/' || rel[k] == '\0'))
			return 1;
	}
	return 0;
}

void prov_view_close(struct prov_view *pv)
{
	if (!pv)
		return;
	git_index_free(pv->idx);
	git_repository_free(pv->repo);
	free(pv->root);
	free(pv);
	git_libgit2_shutdown();
}

void prov_git_release(struct prov_git *g)
{
	free(g->commit);
	free(g->branch);
	free(g->diff);
	free(g->why);
	free(g->toplevel);
	json_decref(g->untracked);
	memset(g, 0, sizeof(*g));
}

/*
 * The runner's cgroup that bounds its CPU share: on a host with cgroup v1
 * controllers, the path of the line whose controllers include `cpu`
 * ("1:cpu:/x", "4:cpu,cpuacct:/x"), else cgroup v2's ("0::/x"); NULL when
 * neither.  A hybrid host has both, and its v2 line says "/" while the
 * runner sits in a v1 cpu cgroup of its own (red team 158: every such
 * batch recorded cgroup "/", and gather.c's share note stayed silent).
 * Malloc'd; the caller frees.
 */
static char *cpu_cgroup(void)
{
	struct strbuf sb = STRBUF_INIT;
	int saved = util_quiet;
	util_quiet = 1;
	int rc = read_file("/proc/self/cgroup", &sb);
	util_quiet = saved;
	if (rc < 0)
		return NULL;
	char *v1 = NULL, *v2 = NULL, *save = NULL;
	for (char *l = strtok_r(sb.buf, "\n", &save); l; l = strtok_r(NULL, "\n", &save)) {
		char *c1 = strchr(l, ':'), *c2 = c1 ? strchr(c1 + 1, ':') : NULL;
		if (!c2)
			continue;
		*c2 = 0;
		const char *ctl = c1 + 1, *path = c2 + 1;
		if (!strncmp(l, "0:", 2) && !*ctl) {
			if (!v2)
				v2 = xstrdup(path);
			continue;
		}
		for (const char *p = ctl; *p && !v1;) {
			size_t n = strcspn(p, ",");
			if (n == 3 && !strncmp(p, "cpu", 3))
				v1 = xstrdup(path);
			p += n + (p[n] == ',');
		}
	}
	strbuf_release(&sb);
	if (v1) {
		free(v2);
		return v1;
	}
	return v2;
}

static char *first_line_matching(const char *path, const char *prefix)
{
	struct strbuf sb = STRBUF_INIT;
	int saved = util_quiet;
	util_quiet = 1;
	int rc = read_file(path, &sb);
	util_quiet = saved;
	if (rc < 0)
		return NULL;
	char *res = NULL, *save = NULL;
	for (char *l = strtok_r(sb.buf, "\n", &save); l; l = strtok_r(NULL, "\n", &save)) {
		if (!strncmp(l, prefix, strlen(prefix))) {
			char *v = l + strlen(prefix);
			while (*v == ' ' || *v == '\t' || *v == ':' || *v == '=')
				v++;
			if (*v == '"')
				v++;
			res = xstrdup(v);
			size_t n = strlen(res);
			if (n && res[n - 1] == '"')
				res[n - 1] = '\0';
			break;
		}
	}
	strbuf_release(&sb);
	return res;
}

static json_t *str_or_null(char *s)
{
	json_t *j = s ? json_string(s) : json_null();
	free(s);
	return j;
}

json_t *prov_machine(const char *const *compilers)
{
	char host[256] = "";
	gethostname(host, sizeof(host) - 1);
	struct utsname u;
	uname(&u);
	json_t *m = json_object();
	json_object_set_new(m, "host", json_string(host));
	json_object_set_new(m, "cpu", str_or_null(first_line_matching("/proc/cpuinfo", "model name")));
	json_object_set_new(m, "cpus_online", json_integer(sysconf(_SC_NPROCESSORS_ONLN)));
	json_object_set_new(m, "os", str_or_null(first_line_matching("/etc/os-release", "PRETTY_NAME")));
	json_object_set_new(m, "kernel", json_sprintf("%s %s %s", u.sysname, u.release, u.machine));
	json_t *cc = json_object();
	for (size_t i = 0; compilers && compilers[i]; i++) {
		char *v = build_compiler_version(compilers[i], "--version");
		json_object_set_new(cc, compilers[i], str_or_null(v));
	}
	json_object_set_new(m, "compilers", cc);
	/* what bounds a box's share of the CPUs against a pool neighbour's:
	 * every box is a session of its own (bwrap --new-session), which the
	 * kernel's autogroup gives one fair share however many threads it
	 * runs, but only in the root cpu cgroup (red team 139: a hog in a
	 * twin's untimed init() slowed the baseline 2-3x once the runner ran
	 * in a cpu cgroup of its own, and did nothing in the root one) */
	json_t *ag = json_null();
	struct strbuf sb = STRBUF_INIT;
	int saved = util_quiet;
	util_quiet = 1; /* a kernel without autogroup has no such file */
	if (read_file("/proc/sys/kernel/sched_autogroup_enabled", &sb) == 0 && sb.len && sb.buf[0] >= '0' &&
	    sb.buf[0] <= '9')
		ag = json_integer(atoi(sb.buf));
	util_quiet = saved;
	strbuf_release(&sb);
	json_object_set_new(m, "sched_autogroup", ag);
	char *cg = cpu_cgroup();
	json_object_set_new(m, "cgroup", cg ? json_string(cg) : json_null());
	free(cg);
	static const char *const env_names[] = { "CUDA_VISIBLE_DEVICES", "CUDA_DEVICE_ORDER",
						 "CUDA_LAUNCH_BLOCKING", "CUDA_MODULE_LOADING",
						 "OMP_NUM_THREADS", "LD_LIBRARY_PATH",
						 "EVIDENT_STORE", "EVIDENT_PRICE_USD_PER_H", NULL };
	json_t *env = json_object();
	for (size_t i = 0; env_names[i]; i++) {
		const char *v = getenv(env_names[i]);
		json_object_set_new(env, env_names[i], v ? json_string(v) : json_null());
	}
	json_object_set_new(m, "env", env);
	return m;
}

static const char *prov_view_root(struct prov_view *pv)
{
	return pv->root;
}

const struct repo_view_ops prov_view_ops = {
	prov_view_open, prov_view_tracked, prov_view_tracked_below, prov_view_untracked_shown, prov_view_patch_dir,
	prov_view_close, prov_view_root,
};

int prov_runner(const char *worker_exe, struct prov_runner *pr)
{
	memset(pr, 0, sizeof(*pr));
	snprintf(pr->commit, sizeof(pr->commit), "%s", prov_runner_commit());
	pr->dirty = prov_runner_dirty();
	/* the image this process runs, whatever is at its path by now (a
	 * rebuild while it runs replaces the file, not the image) */
	int rc = 0;
	if (sha256_file_hex("/proc/self/exe", pr->sha256) < 0) {
		pr->sha256[0] = 0;
		rc = -1;
	}
	if (!worker_exe || sha256_file_hex(worker_exe, pr->worker_sha256) < 0) {
		pr->worker_sha256[0] = 0;
		rc = -1;
	}
	return rc;
}
