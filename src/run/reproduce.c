/*
 * reproduce.c - `evident reproduce BATCH` (contract in reproduce.h): the
 * recorded code rebuilt in a temporary tree, the recorded spec run there by
 * the normal orchestrator (run.h) into the same store, and the verdicts
 * added to the new batch record through run_options.on_batch, before it is
 * committed, so the batch and its verdicts are one record.
 *
 * The tree is a repository of its own (git_repository_init) whose
 * objects/info/alternates names the user's object store, so checking out
 * the recorded commit copies nothing and writes nothing in the user's
 * repository; HEAD is detached at the commit and the recorded patch is
 * applied to the work tree only (git_apply, GIT_APPLY_LOCATION_WORKDIR), as
 * `git apply` would: changed files stay unstaged and untracked files stay
 * untracked, so provenance.c, run in the tree, records the same commit and
 * the same patch - which the verdict step checks.  (git_apply_to_tree and
 * a checkout of the result would stage the untracked files, and the new
 * record's patch would then differ from the recorded one.)
 *
 * The tree is what the batch ran: nothing is copied from today's tree.  If
 * it lacks a file the batch's runs recorded as their code (a kernel's or a
 * problem's source that git ignored, so no patch carried it) or what this
 * evident needs (the problem plug-in problems/NAME.c,
 * kernels/evident_kernel.h), reproduction stops and says which; a missing
 * data file (price or peak table) only loses what it gives (cost, the
 * physical floor) and is a recorded warning.
 */
#include "run/reproduce.h"

#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <git2.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "backends/problem.h"
#include "run/run.h"
#include "run/spec.h"

static const char *git_msg(void)
{
	const git_error *e = git_error_last();
	return e && e->message ? e->message : "unknown libgit2 error";
}

/* A warning recorded with the verdicts (and printed with them); found
 * before the run, it is printed at once too (loud). */
__attribute__((format(printf, 3, 4))) static void note(json_t *warnings, int loud, const char *fmt, ...)
{
	struct strbuf sb = STRBUF_INIT;
	va_list ap;
	va_start(ap, fmt);
	strbuf_vaddf(&sb, fmt, ap);
	va_end(ap);
	if (loud)
		warning("%s", sb.buf);
	json_array_append_new(warnings, json_string(sb.buf));
	strbuf_release(&sb);
}

/* ---------- the tree ---------- */

static int rm_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	return remove(path) < 0 && errno != ENOENT ? -1 : 0;
}

/* rm -r path, without a shell.  0, or -1 after error(). */
static int remove_tree(const char *path)
{
	if (nftw(path, rm_entry, 16, FTW_DEPTH | FTW_PHYS) < 0 && errno != ENOENT)
		return error("cannot remove the temporary tree '%s': %s; remove it by hand", path, strerror(errno));
	return 0;
}

/*
 * Check out commit (40 hex) of the repository holding the current directory
 * into dir (made here), as a repository of its own sharing that one's
 * objects, HEAD detached at the commit; then apply patch[0..len) (len 0:
 * none) to its work tree.  *user_root gets the user's work tree (caller
 * frees).  0, or -1 after error() with *err set.
 */
static int tree_make(const char *batch, const char *commit, const char *patch, size_t len, const char *dir,
		     char **user_root, enum repro_error *err)
{
	git_repository *src = NULL, *dst = NULL;
	git_commit *cm = NULL;
	git_diff *diff = NULL;
	git_oid oid;
	char *alt = NULL, *objects = NULL;
	int rc = -1;
	*err = REPRO_NO_CODE;
	git_libgit2_init();
	if (git_repository_open_ext(&src, ".", 0, NULL) < 0) {
		error("not inside a git repository: run 'evident reproduce' in a clone of the repository that "
		      "recorded batch '%s'",
		      batch);
		goto out;
	}
	const char *wd = git_repository_workdir(src);
	*user_root = xstrdup(wd ? wd : git_repository_path(src));
	size_t n = strlen(*user_root);
	if (n > 1 && (*user_root)[n - 1] == '/')
		(*user_root)[n - 1] = '\0';
	if (strlen(commit) != GIT_OID_HEXSZ || git_oid_fromstr(&oid, commit) < 0) {
		error("batch '%s' names commit '%s', which is not a commit id; it cannot be rebuilt", batch, commit);
		goto out;
	}
	if (git_commit_lookup(&cm, src, &oid) < 0) {
		error("commit %s of batch '%s' is not in the repository at '%s': fetch it (git fetch origin %s, "
		      "or fetch the branch that holds it) and run evident reproduce again",
		      commit, batch, *user_root, commit);
		goto out;
	}
	*err = REPRO_ENV;
	if (git_repository_init(&dst, dir, 0) < 0) {
		error("git: cannot make a repository in '%s': %s", dir, git_msg());
		goto out;
	}
	/* the user's objects, borrowed: nothing is copied and nothing written there */
	objects = xstrfmt("%sobjects\n", git_repository_commondir(src));
	alt = xstrfmt("%sobjects/info/alternates", git_repository_path(dst));
	int fd = open(alt, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0 || write_all(fd, objects, strlen(objects)) < 0 || close(fd) < 0) {
		error("cannot write '%s': %s", alt, strerror(errno));
		goto out;
	}
	git_repository_free(dst); /* reopen: the object database reads alternates once */
	dst = NULL;
	git_commit_free(cm);
	cm = NULL;
	git_checkout_options co;
	git_checkout_options_init(&co, GIT_CHECKOUT_OPTIONS_VERSION);
	co.checkout_strategy = GIT_CHECKOUT_FORCE;
	if (git_repository_open(&dst, dir) < 0 || git_commit_lookup(&cm, dst, &oid) < 0 ||
	    git_checkout_tree(dst, (const git_object *)cm, &co) < 0 ||
	    git_repository_set_head_detached(dst, &oid) < 0) {
		error("git: cannot check out commit %s into '%s': %s", commit, dir, git_msg());
		goto out;
	}
	*err = REPRO_NO_CODE;
	if (len && (git_diff_from_buffer(&diff, patch, len) < 0 ||
		    git_apply(dst, diff, GIT_APPLY_LOCATION_WORKDIR, NULL) < 0)) {
		error("the recorded patch of batch '%s' does not apply on commit %s: %s ('evident show --diff %s' "
		      "prints it)",
		      batch, commit, git_msg(), batch);
		goto out;
	}
	*err = REPRO_OK;
	rc = 0;
out:
	git_diff_free(diff);
	git_commit_free(cm);
	git_repository_free(dst);
	git_repository_free(src);
	git_libgit2_shutdown();
	free(alt);
	free(objects);
	return rc;
}

/* The first source of src[0..n) missing from the tree, or NULL. */
static const struct rec_source *missing_source(const struct rec_source *src, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (src[i].path && !path_exists(src[i].path))
			return &src[i];
	return NULL;
}

/*
 * What this evident needs from the tree it runs in (the current directory).
 * Every file the batch's runs recorded as their code (the kernel's and the
 * problem's sources) must be there: one that is not was neither committed
 * nor in the patch (git ignores it), and the code that ran cannot be
 * rebuilt.  The problem's plug-in and the kernel ABI header are needed
 * whatever was recorded (a batch older than problem provenance names no
 * problem source); the price and peak tables are only wanted.  0, or -1
 * after error().
 */
static int tree_check(struct query *q, const struct batch_record *old, json_t *warnings)
{
	const char *commit = old->git.commit;
	for (size_t i = 0; i < old->n_rows; i++) {
		const struct run_record *r = query_row_run(q, &old->rows[i]);
		const struct rec_source *m = r ? missing_source(r->problem.sources, r->problem.n_sources) : NULL;
		if (!m && r)
			m = missing_source(r->sources, r->n_sources);
		if (m) {
			error("batch '%s' ran '%s' (sha256 %.16s), which neither commit %.12s nor its recorded patch "
			      "holds (the patch carries untracked files under kernels/, problems/ and experiments/, "
			      "never files git ignores): the code it ran cannot be rebuilt; nothing was run",
			      old->run_id, m->path, m->sha256 ? m->sha256 : "not recorded", commit);
			return -1;
		}
	}
	char *plug = old->problem.name ? xstrfmt("problems/%s.c", old->problem.name) : NULL;
	const char *need[] = { plug, "kernels/evident_kernel.h" };
	for (size_t i = 0; i < ARRAY_SIZE(need); i++)
		if (need[i] && !path_exists(need[i])) {
			if (i == 0)
				error("the recorded tree (commit %.12s and its recorded patch) has no '%s', which this "
				      "evident needs to run batch '%s': the batch predates the problem, or ran it from a "
				      "file that was not committed, which records made before problem provenance "
				      "left out of the patch (then the code it ran is not in the store); nothing was run",
				      commit, need[i], old->run_id);
			else
				error("the recorded tree (commit %.12s) has no '%s', which this evident needs to run "
				      "batch '%s': the batch predates it; nothing was run (reproduce it with an evident "
				      "of its time)",
				      commit, need[i], old->run_id);
			free(plug);
			return -1;
		}
	free(plug);
	if (!path_exists("data/gpu-prices.yaml"))
		note(warnings, 1, "the recorded tree has no 'data/gpu-prices.yaml': the reproduction's cost is unknown");
	if (old->backend && !strcmp(old->backend, "cuda") && !path_exists("data/gpu-peaks.yaml"))
		note(warnings, 1, "the recorded tree has no 'data/gpu-peaks.yaml': no physical floor is checked");
	return 0;
}

/* ---------- the verdicts ---------- */

static void side_of(const struct batch_row *row, struct rec_repro_side *s)
{
	memset(s, 0, sizeof(*s));
	s->median_us = s->ci[0] = s->ci[1] = NAN;
	s->outcome = row ? row->outcome : OUTCOME_ABORTED;
	s->outcome_text = outcome_name(s->outcome);
	if (row && row->outcome == OUTCOME_OK && row->have_stats) {
		s->have_stats = 1;
		s->median_us = row->stats.median;
		s->ci[0] = row->stats.median_ci[0];
		s->ci[1] = row->stats.median_ci[1];
	}
}

/* x within [lo (1 - t), hi (1 + t)] */
static int within(double x, const double ci[2], double t)
{
	return x >= ci[0] * (1 - t) && x <= ci[1] * (1 + t);
}

void repro_judge(const struct batch_row *old, const struct batch_row *now, double t, struct rec_repro_row *out,
		 char **reason)
{
	memset(out, 0, sizeof(*out));
	*reason = NULL;
	out->variant = old->variant;
	side_of(old, &out->recorded);
	side_of(now, &out->now);
	const struct rec_repro_side *a = &out->recorded, *b = &out->now;
	out->verdict = REPRO_NOT_REPRODUCED;
	if (!now) {
		*reason = xstrdup("the reproduction did not run it");
	} else if (old->outcome != now->outcome) {
		if (now->outcome == OUTCOME_BUILD_FAILED) {
			out->verdict = REPRO_COULD_NOT_REBUILD;
			*reason = xstrfmt("it built then, and now the build failed: %s",
					  now->reason ? now->reason : "see the build log of its run");
		} else {
			*reason = xstrfmt("outcome %s then, %s now%s%s", a->outcome_text, b->outcome_text,
					  now->reason ? ": " : "", now->reason ? now->reason : "");
		}
	} else if (old->outcome != OUTCOME_OK || (!a->have_stats && !b->have_stats)) {
		out->verdict = REPRO_REPRODUCED; /* the same outcome, and no times to compare */
	} else if (!a->have_stats || !b->have_stats) {
		*reason = xstrfmt("only the %s batch has timing statistics", a->have_stats ? "recorded" : "new");
	} else {
		int a_in = within(a->median_us, b->ci, t), b_in = within(b->median_us, a->ci, t);
		if (a_in && b_in) {
			out->verdict = REPRO_REPRODUCED;
		} else {
			*reason = xstrfmt("median %.3f us [%.3f, %.3f] then, %.3f us [%.3f, %.3f] now (%.2fx): %s "
					  "outside the %s 95%% CI widened by %g%%",
					  a->median_us, a->ci[0], a->ci[1], b->median_us, b->ci[0], b->ci[1],
					  b->median_us / a->median_us,
					  !b_in && !a_in ? "each median is" : !b_in ? "the new median is" : "the recorded median is",
					  !b_in && !a_in ? "other's" : !b_in ? "recorded" : "new", 100 * t);
		}
	}
	out->reason = *reason;
	out->verdict_text = repro_verdict_name(out->verdict);
}

void repro_env_warnings(const struct batch_record *old, const struct batch_record *now, json_t *warnings)
{
	struct rec_env a, b;
	record_batch_env(old, &a);
	record_batch_env(now, &b);
	const struct {
		const char *what, *then, *now;
	} f[] = {
		{ "the GPU", a.gpu, b.gpu },
		{ "the GPU driver", a.driver, b.driver },
		{ "the CUDA toolchain (nvcc)", a.cuda, b.cuda },
		{ "the host CPU", a.cpu, b.cpu },
	};
	for (size_t i = 0; i < ARRAY_SIZE(f); i++)
		if (!str_same(f[i].then, f[i].now))
			note(warnings, 0, "%s differs: recorded '%s', now '%s'", f[i].what, f[i].then ? f[i].then : "none",
			     f[i].now ? f[i].now : "none");
}

/* run_options.on_batch: the verdicts, into the new batch record */
struct hook {
	struct query *q;
	const struct batch_record *old;
	double t;
	json_t *warnings;
	struct rec_repro_row *rows;
	char **reasons;
	size_t n;
};

/* The first file two toolchain manifests (code.compiler.toolchain) differ
 * in, as text (malloc'd), or NULL when they agree or either is missing. */
static char *toolchain_change(const json_t *then, const json_t *now)
{
	const char *a = json_string_value(json_object_get(then, "sha256")), *b = json_string_value(json_object_get(now, "sha256"));
	if (!a || !b || !strcmp(a, b))
		return NULL;
	json_t *fa = json_object_get(then, "files"), *fb = json_object_get(now, "files"), *x, *y;
	size_t i, j, differ = 0;
	char *first = NULL;
	for (int pass = 0; pass < 2; pass++)
		json_array_foreach(pass ? fb : fa, i, x)
		{
			const char *path = json_string_value(json_object_get(x, "path"));
			const char *sha = json_string_value(json_object_get(x, "sha256"));
			const char *other = NULL;
			json_array_foreach(pass ? fa : fb, j, y)
			{
				const char *py = json_string_value(json_object_get(y, "path"));
				if (path && py && !strcmp(path, py))
					other = json_string_value(json_object_get(y, "sha256"));
			}
			if (pass && other)
				continue; /* counted in the first pass */
			if (other && sha && !strcmp(other, sha))
				continue;
			differ++;
			if (!first)
				first = !other ? xstrfmt("'%s' %s", path ? path : "?", pass ? "read now, not then" : "read then, not now")
					       : xstrfmt("'%s' %.12s then, %.12s now", path ? path : "?", sha ? sha : "?", other);
		}
	char *text = xstrfmt("the toolchain's files differ (%zu: %s)", differ, first ? first : "the manifests' hashes");
	free(first);
	return text;
}

/*
 * A warning where the rebuilt object of old's row is not the one it
 * recorded (red team 70: a reproduction served the writer's wrapper-built
 * object from the cache, or built with another compiler, and said
 * nothing): the times then compare other code, whatever the verdict.
 * And where the toolchain's files the build read or the system's
 * libraries the object loads differ (red team 204: one object, a library
 * of /usr changed, "NOT reproduced" with nothing to say why).  The new
 * row's runs are read from the store, where they were just committed.
 */
static void binary_warning(struct hook *h, const struct batch_row *row, const struct batch_row *now)
{
	const struct run_record **runs;
	size_t n = query_row_runs(h->q, row, &runs);
	const char *then = NULL, *then_cc = NULL;
	json_t *then_tc = NULL;
	for (size_t i = 0; i < n && !then; i++)
		if (runs[i]->binary_sha256) {
			then = runs[i]->binary_sha256;
			then_cc = json_string_value(json_object_get(json_object_get(runs[i]->compiler, "exe"), "sha256"));
			then_tc = json_object_get(runs[i]->compiler, "toolchain");
		}
	free(runs);
	if (!then || !now)
		return;
	const char *ids[] = { now->run_id, NULL };
	const char *const *list = now->n_runs ? now->runs : ids;
	size_t k = now->n_runs ? now->n_runs : 1;
	for (size_t i = 0; i < k; i++) {
		json_t *m = NULL;
		struct run_record r;
		memset(&r, 0, sizeof(r));
		if (!list[i] || store_load(&h->q->st, list[i], &m) < 0 || record_run_read(m, &r) < 0) {
			run_record_release(&r);
			json_decref(m);
			continue;
		}
		const char *cc = json_string_value(json_object_get(json_object_get(r.compiler, "exe"), "sha256"));
		int other = r.binary_sha256 && strcmp(r.binary_sha256, then);
		char *tc = toolchain_change(then_tc, json_object_get(r.compiler, "toolchain"));
		if (other)
			note(h->warnings, 0,
			     "%s: the rebuilt object (%.12s) is not the recorded one (%.12s)%s: the times compare other code%s%s",
			     row->variant, r.binary_sha256, then,
			     then_cc && cc && strcmp(then_cc, cc) ? ", built by another compiler executable" : "",
			     tc ? "; " : "", tc ? tc : "");
		else if (tc)
			note(h->warnings, 0, "%s: the same object, but %s: the times compare other code", row->variant, tc);
		free(tc);
		run_record_release(&r);
		json_decref(m);
		if (other || tc)
			return;
	}
}

static int on_batch(struct batch_record *b, void *ctx)
{
	struct hook *h = ctx;
	const struct batch_record *old = h->old;
	int all = old->n_rows > 0;
	h->rows = xcalloc(old->n_rows + 1, sizeof(*h->rows));
	h->reasons = xcalloc(old->n_rows + 1, sizeof(char *));
	for (h->n = 0; h->n < old->n_rows; h->n++) {
		const struct batch_row *row = &old->rows[h->n];
		repro_judge(row, batch_find_row(b, row->variant), h->t, &h->rows[h->n], &h->reasons[h->n]);
		all &= h->rows[h->n].verdict == REPRO_REPRODUCED;
	}
	repro_env_warnings(old, b, h->warnings);
	for (size_t i = 0; i < old->n_rows; i++)
		binary_warning(h, &old->rows[i], batch_find_row(b, old->rows[i].variant));
	if (!str_same(old->git.commit, b->git.commit))
		note(h->warnings, 0, "the rebuilt tree is at commit %s, not the recorded %s", b->git.commit ? b->git.commit : "none",
		     old->git.commit ? old->git.commit : "none");
	if (!str_same(old->git.diff_object, b->git.diff_object))
		note(h->warnings, 0, "the rebuilt tree's patch (object %s) is not the recorded one (%s)",
		     b->git.diff_object ? b->git.diff_object : "none, clean",
		     old->git.diff_object ? old->git.diff_object : "none, clean");
	struct rec_reproduction *r = &b->repro;
	memset(r, 0, sizeof(*r));
	r->have = 1;
	r->of = old->run_id;
	r->commit = old->git.commit;
	r->diff_object = old->git.diff_object;
	r->threshold = h->t;
	r->reproduced = all;
	r->rows = h->rows;
	r->n_rows = h->n;
	r->warnings = h->warnings;
	return 0;
}

static void hook_release(struct hook *h)
{
	for (size_t i = 0; i < h->n; i++)
		free(h->reasons[i]);
	free(h->reasons);
	free(h->rows);
	json_decref(h->warnings);
}

/* ---------- the reproduction ---------- */

/* The first run of old that recorded its spec, or NULL. */
static const struct run_record *spec_run(struct query *q, const struct batch_record *old)
{
	for (size_t i = 0; i < old->n_rows; i++) {
		const struct run_record **runs;
		size_t n = query_row_runs(q, &old->rows[i], &runs);
		const struct run_record *r = NULL;
		for (size_t k = 0; k < n && !r; k++)
			if (runs[k]->spec_object)
				r = runs[k];
		free(runs);
		if (r)
			return r;
	}
	return NULL;
}

/*
 * The path of the recorded spec to run, relative to the tree (the current
 * directory) when the tree holds it byte for byte, else a copy of the
 * recorded text written beside the tree into tmp (caller frees).  NULL
 * after error().
 */
static char *spec_file(const struct run_record *r, const char *text, const char *tmp, json_t *warnings)
{
	const char *p = r->spec_path;
	if (p && p[0] != '/' && !strstr(p, "..")) {
		struct strbuf now = STRBUF_INIT;
		int saved = util_quiet;
		util_quiet = 1;
		int same = read_file(p, &now) == 0 && now.len == strlen(text) && !memcmp(now.buf, text, now.len);
		util_quiet = saved;
		strbuf_release(&now);
		if (same)
			return xstrdup(p);
	}
	const char *base = p && strrchr(p, '/') ? strrchr(p, '/') + 1 : p ? p : "spec.yaml";
	char *copy = xstrfmt("%s/%s", tmp, base);
	int fd = open(copy, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
	if (fd < 0 || write_all(fd, text, strlen(text)) < 0 || close(fd) < 0) {
		error("cannot write the recorded spec to '%s': %s", copy, strerror(errno));
		free(copy);
		return NULL;
	}
	note(warnings, 1, "the rebuilt tree's '%s' is not the spec the batch recorded; the recorded spec is run (%s)",
	     p ? p : "(no path)", copy);
	return copy;
}

int reproduce_batch(struct query *q, const struct batch_record *old, const struct repro_options *o,
		    struct repro_result *res, enum repro_error *err)
{
	struct hook h = { q, old, o->threshold, json_array(), NULL, NULL, 0 };
	struct spec s;
	struct strbuf spec_text = STRBUF_INIT;
	char *tmp = NULL, *tree = NULL, *user_root = NULL, *cache = NULL, *spec_path = NULL;
	const char **only = NULL;
	int rc = -1, cwd = -1;
	memset(&s, 0, sizeof(s));
	memset(res, 0, sizeof(*res));
	*err = REPRO_NO_CODE;
	if (!old->git.is_repo || !old->git.commit) {
		error("batch '%s' was recorded %s: there is no commit to rebuild", old->run_id,
		      !old->git.is_repo ? "outside a git repository" : "before the repository's first commit");
		goto out;
	}
	if (h.t < 0)
		h.t = isfinite(old->holm_threshold) && old->holm_threshold >= 0 ? old->holm_threshold
										 : ((struct stats_opts)STATS_OPTS_INIT).threshold;
	*err = REPRO_SPEC;
	const struct run_record *sr = spec_run(q, old);
	if (!sr) {
		error("no run of batch '%s' in '%s' records its spec: there is nothing to run", old->run_id, q->st.root);
		goto out;
	}
	*err = REPRO_STORE;
	if (store_get(&q->st, sr->spec_object, &spec_text) < 0)
		goto out;
	struct strbuf patch = STRBUF_INIT;
	if (old->git.diff_object && store_get(&q->st, old->git.diff_object, &patch) < 0) {
		strbuf_release(&patch);
		goto out;
	}

	*err = REPRO_ENV;
	const char *td = getenv("TMPDIR");
	tmp = xstrfmt("%s/evident-reproduce-XXXXXX", td && *td ? td : "/tmp");
	if (!mkdtemp(tmp)) {
		error("cannot make a temporary directory '%s': %s; set TMPDIR to a writable one", tmp, strerror(errno));
		free(tmp);
		tmp = NULL;
		strbuf_release(&patch);
		goto out;
	}
	tree = xstrfmt("%s/tree", tmp);
	int made = tree_make(old->run_id, old->git.commit, patch.buf, patch.len, tree, &user_root, err);
	strbuf_release(&patch);
	if (made < 0)
		goto out;
	printf("reproducing batch %s: commit %.12s%s, rebuilt in %s\n", old->run_id, old->git.commit,
	       old->git.diff_object ? " + its recorded patch" : " (clean)", tree);
	fflush(stdout);
	cache = o->cache_dir ? xstrdup(o->cache_dir) : xstrfmt("%s/build/cache", user_root);

	*err = REPRO_ENV;
	cwd = open(".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (cwd < 0 || chdir(tree) < 0) {
		error("cannot enter '%s': %s", tree, strerror(errno));
		goto out;
	}
	*err = REPRO_NO_CODE;
	if (tree_check(q, old, h.warnings) < 0)
		goto out;
	for (size_t i = 0; i < old->n_rows; i++) {
		const struct run_record *r = query_row_run(q, &old->rows[i]);
		struct strbuf why = STRBUF_INIT;
		if (r && r->n_sources && !query_sources_current(NULL, r, &why))
			note(h.warnings, 1, "%s: the rebuilt tree is not the code it ran: %s", old->rows[i].variant,
			     why.buf);
		strbuf_release(&why);
	}

	*err = REPRO_SPEC;
	spec_path = spec_file(sr, spec_text.buf, tmp, h.warnings);
	if (!spec_path)
		goto out;
	struct problem_keys_ctx kc = { cache, PROBLEM_INIT };
	struct spec_env env = { .check_files = 1, .problem_keys = problem_spec_keys,
				.shape_hint = problem_spec_shape_hint, .ctx = &kc };
	int loaded = spec_load(spec_path, &env, &s);
	problem_release(&kc.pr);
	if (loaded < 0) {
		error("the recorded spec of batch '%s' does not load with this evident in the rebuilt tree", old->run_id);
		goto out;
	}
	only = xcalloc(old->n_rows + 1, sizeof(*only));
	for (size_t i = 0; i < old->n_rows; i++) {
		only[i] = old->rows[i].variant;
		if (!only[i] || !spec_variant(&s, only[i])) {
			error("batch '%s' has a variant '%s' that its recorded spec does not define", old->run_id,
			      only[i] ? only[i] : "(unnamed)");
			goto out;
		}
	}

	struct run_options ro = {
		.store_root = o->store_root,
		.cache_dir = cache,
		.price_table = "data/gpu-prices.yaml",
		.only = only,
		.progress = o->progress,
		.color = o->color,
		.jobs = (int)sysconf(_SC_NPROCESSORS_ONLN),
		.repeats = o->repeats > 0 ? o->repeats : old->repeats > 0 ? old->repeats : 1,
		.on_batch = on_batch,
		.on_batch_ctx = &h,
		.reproduces = old->run_id,
	};
	struct run_totals t;
	enum run_error why;
	if (run_experiment(&s, &ro, &t, &why) < 0) {
		*err = why == RUN_NO_DEVICE ? REPRO_NO_DEVICE : why == RUN_STORE ? REPRO_STORE : REPRO_ENV;
		free(t.batch_id);
		goto out;
	}
	res->batch_id = t.batch_id;
	res->interrupted = t.interrupted;
	*err = REPRO_OK;
	rc = 0;
out:
	if (cwd >= 0) {
		if (fchdir(cwd) < 0 && rc == 0) {
			error("cannot return to the directory evident reproduce started in: %s", strerror(errno));
			*err = REPRO_ENV;
			rc = -1;
		}
		close(cwd);
	}
	if (tmp && o->keep)
		res->tree = xstrdup(tree);
	else if (tmp && remove_tree(tmp) < 0 && rc == 0) {
		*err = REPRO_ENV;
		rc = -1;
	}
	spec_release(&s);
	strbuf_release(&spec_text);
	hook_release(&h);
	free(only);
	free(spec_path);
	free(cache);
	free(user_root);
	free(tree);
	free(tmp);
	return rc;
}

void repro_result_release(struct repro_result *res)
{
	free(res->batch_id);
	free(res->tree);
	memset(res, 0, sizeof(*res));
}

/* ---------- the table ---------- */

static void side_text(const struct rec_repro_side *s, struct strbuf *out)
{
	size_t at = out->len;
	strbuf_addstr(out, s->outcome_text ? s->outcome_text : outcome_name(s->outcome));
	if (s->have_stats)
		strbuf_addf(out, " %.3f us [%.3f, %.3f]", s->median_us, s->ci[0], s->ci[1]);
	while (out->len - at < 36)
		strbuf_addch(out, ' ');
}

void repro_format(const struct rec_reproduction *r, const char *batch_id, struct strbuf *out)
{
	size_t ok = 0, bad = 0, nobuild = 0;
	strbuf_addf(out, "reproduction of %s by %s\n", r->of ? r->of : "?", batch_id ? batch_id : "?");
	strbuf_addf(out, "  code: commit %.12s%s%s; noise band %g%%\n", r->commit ? r->commit : "?",
		    r->diff_object ? " + recorded patch " : " (clean)", r->diff_object ? r->diff_object : "",
		    100 * r->threshold);
	strbuf_addf(out, "  %-24s %-18s %-36s %s\n", "variant", "verdict", "recorded", "now");
	for (size_t i = 0; i < r->n_rows; i++) {
		const struct rec_repro_row *row = &r->rows[i];
		const char *v = row->verdict == REPRO_REPRODUCED	     ? "reproduced"
				: row->verdict == REPRO_NOT_REPRODUCED	     ? "NOT reproduced"
				: row->verdict == REPRO_COULD_NOT_REBUILD ? "could not rebuild"
									   : row->verdict_text ? row->verdict_text : "?";
		ok += row->verdict == REPRO_REPRODUCED;
		bad += row->verdict != REPRO_REPRODUCED && row->verdict != REPRO_COULD_NOT_REBUILD;
		nobuild += row->verdict == REPRO_COULD_NOT_REBUILD;
		strbuf_addf(out, "  %-24s %-18s ", row->variant ? row->variant : "?", v);
		side_text(&row->recorded, out);
		strbuf_addch(out, ' ');
		side_text(&row->now, out);
		while (out->len && out->buf[out->len - 1] == ' ')
			out->buf[--out->len] = '\0';
		strbuf_addch(out, '\n');
		if (row->reason)
			strbuf_addf(out, "  %-24s   %s\n", "", row->reason);
	}
	size_t k;
	json_t *w;
	json_array_foreach(r->warnings, k, w) strbuf_addf(out, "  warning: %s\n", json_string_value(w));
	if (r->reproduced)
		strbuf_addf(out, "reproduced: all %zu variant(s) of %s\n", r->n_rows, r->of ? r->of : "?");
	else
		strbuf_addf(out, "NOT reproduced: %zu of %zu variant(s) reproduced, %zu not reproduced, %zu could not be "
			    "rebuilt\n",
			    ok, r->n_rows, bad, nobuild);
}
