/*
 * store_anchor.c - `evident verify`'s anchor: the store against the git
 * history that holds it.  The chain (store.h) has no key: whoever can write
 * the store can drop manifests or edit one and recompute every later prev
 * and digest (red team 249's rechain.py), and the store's own checks then
 * pass.  What such a writer cannot recompute is what git already holds.
 * So, where the store lies inside a git work tree, every record file
 * (runs/ and objects/) in HEAD's committed tree must be in the store byte
 * for byte (its git blob id), and, asked for (--history), no commit
 * reachable from HEAD may have modified or deleted a record file its
 * parent held (records are written once: a commit that changes or drops
 * one rewrites history, it records no run).  Records not committed yet
 * are new and pass.  A store outside any git work tree is not anchored,
 * which is a note.
 */
#include "store/store_internal.h"

#include <errno.h>
#include <fcntl.h>
#include <git2.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* the record files of one commit's report printed, the rest counted */
#define ANCHOR_LINES_PER_COMMIT 20

/* Is rel (a path inside the store) a record file's: under runs/ or objects/? */
static int is_record_path(const char *rel)
{
	return !strncmp(rel, "runs/", 5) || !strncmp(rel, "objects/", 8);
}

/* One file of HEAD's store tree, checked against the disk in parallel. */
struct afile {
	char *rel;  /* path inside the store */
	char *path; /* on disk */
	git_oid want;
	int link;  /* committed as a symbolic link */
	int state; /* 0 same, 1 differs, 2 missing, 3 not a regular file, 4 unreadable */
};

struct afiles {
	struct afile *v;
	size_t n, alloc;
	const char *root;
};

static int collect_cb(const char *dir, const git_tree_entry *e, void *payload)
{
	struct afiles *fs = payload;
	if (git_tree_entry_type(e) != GIT_OBJECT_BLOB)
		return 0;
	char *rel = xstrfmt("%s%s", dir, git_tree_entry_name(e));
	if (!is_record_path(rel)) {
		free(rel);
		return 0;
	}
	if (fs->n == fs->alloc) {
		fs->alloc = fs->alloc ? 2 * fs->alloc : 1024;
		fs->v = xrealloc(fs->v, fs->alloc * sizeof(*fs->v));
	}
	struct afile *f = &fs->v[fs->n++];
	f->rel = rel;
	f->path = xstrfmt("%s/%s", fs->root, rel);
	git_oid_cpy(&f->want, git_tree_entry_id(e));
	f->link = git_tree_entry_filemode(e) == GIT_FILEMODE_LINK;
	f->state = 0;
	return 0;
}

/* The file's git blob id, hashed from its bytes as they are (no filters),
 * through a descriptor opened without following a link. */
static void check_file(void *arg, size_t i)
{
	struct afile *f = (struct afile *)arg + i;
	struct stat sb;
	if (lstat(f->path, &sb) < 0) {
		f->state = errno == ENOENT || errno == ENOTDIR ? 2 : 4;
		return;
	}
	if (!S_ISREG(sb.st_mode)) {
		f->state = 3;
		return;
	}
	int fd = open(f->path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0) {
		f->state = errno == ELOOP ? 3 : 4;
		return;
	}
	git_oid got;
	struct strbuf buf = STRBUF_INIT;
	if (fstat(fd, &sb) < 0 || !S_ISREG(sb.st_mode))
		f->state = 3;
	else if (read_fd(fd, &buf) < 0 || git_odb_hash(&got, strbuf_str(&buf), buf.len, GIT_OBJECT_BLOB) < 0)
		f->state = 4;
	else
		f->state = git_oid_equal(&got, &f->want) ? 0 : 1;
	strbuf_release(&buf);
	close(fd);
}

/* The id of the store's folder rel in commit c's tree; 0 when it has none. */
static int store_tree_of(git_commit *c, const char *rel, git_oid *out)
{
	git_tree *t = NULL;
	if (git_commit_tree(&t, c) < 0)
		return 0;
	int found = 0;
	if (!*rel) {
		git_oid_cpy(out, git_tree_id(t));
		found = 1;
	} else {
		git_tree_entry *e = NULL;
		if (git_tree_entry_bypath(&e, t, rel) == 0 && git_tree_entry_type(e) == GIT_OBJECT_TREE) {
			git_oid_cpy(out, git_tree_entry_id(e));
			found = 1;
		}
		git_tree_entry_free(e);
	}
	git_tree_free(t);
	return found;
}

/* What a history walk found of one commit. */
struct rewrite {
	struct strbuf *out;
	const char *root, *sha, *subject;
	const char *prefix; /* deleted_cb: the folder walked, inside the store */
	size_t n;
};

static void rewrite_one(struct rewrite *rw, const char *rel, const char *how)
{
	if (rw->n++ < ANCHOR_LINES_PER_COMMIT)
		strbuf_addf(rw->out, "rewritten: %s/%s: %s by commit %.12s (\"%s\"), after its parent recorded it\n",
			    rw->root, rel, how, rw->sha, rw->subject);
}

static int deleted_cb(const char *dir, const git_tree_entry *e, void *payload)
{
	struct rewrite *rw = payload;
	if (git_tree_entry_type(e) == GIT_OBJECT_BLOB) {
		char *rel = xstrfmt("%s%s%s", rw->prefix, dir, git_tree_entry_name(e));
		rewrite_one(rw, rel, "deleted");
		free(rel);
	}
	return 0;
}

/* Record files of tree a (the parent's, at prefix inside the store) that
 * tree b (the commit's; NULL: gone) lacks or holds otherwise.  Subtrees of
 * one id are skipped, so a commit that only adds costs a lookup a folder
 * it touched. */
static void tree_changes(git_repository *repo, git_tree *a, git_tree *b, const char *prefix, struct rewrite *rw)
{
	/* both trees' entries are in git's order: one merge pass, no path
	 * made for an entry that did not change (runs/ is one tree of
	 * every manifest) */
	size_t n = git_tree_entrycount(a), nb = b ? git_tree_entrycount(b) : 0, j = 0;
	for (size_t i = 0; i < n; i++) {
		const git_tree_entry *ea = git_tree_entry_byindex(a, i), *eb = NULL;
		const char *name = git_tree_entry_name(ea);
		/* at the store's top, only runs/ and objects/ hold records */
		if (!*prefix && strcmp(name, "runs") && strcmp(name, "objects"))
			continue;
		int c = 1;
		while (j < nb && (c = git_tree_entry_cmp(git_tree_entry_byindex(b, j), ea)) < 0)
			j++;
		if (j < nb && c == 0)
			eb = git_tree_entry_byindex(b, j);
		else if (b)
			eb = git_tree_entry_byname(b, name); /* the same name as another type sorts elsewhere */
		if (eb && git_oid_equal(git_tree_entry_id(ea), git_tree_entry_id(eb)))
			continue;
		char *rel = xstrfmt("%s%s", prefix, name);
		int ta = git_tree_entry_type(ea) == GIT_OBJECT_TREE, tb = eb && git_tree_entry_type(eb) == GIT_OBJECT_TREE;
		git_tree *sa = NULL, *sb = NULL;
		if (ta && git_tree_lookup(&sa, repo, git_tree_entry_id(ea)) == 0) {
			char *sub = xstrfmt("%s/", rel);
			if (tb && git_tree_lookup(&sb, repo, git_tree_entry_id(eb)) == 0) {
				tree_changes(repo, sa, sb, sub, rw);
			} else if (!tb) {
				/* the folder gone, or a file now: every record under it is gone */
				const char *saved = rw->prefix;
				rw->prefix = sub;
				git_tree_walk(sa, GIT_TREEWALK_PRE, deleted_cb, rw);
				rw->prefix = saved;
			}
			free(sub);
		} else if (!ta) {
			rewrite_one(rw, rel, !eb ? "deleted" : "modified");
		}
		git_tree_free(sa);
		git_tree_free(sb);
		free(rel);
	}
}

/* libgit2's last error message (never NULL) */
static const char *git_why(void)
{
	const git_error *e = git_error_last();
	return e && e->message ? e->message : "unknown error";
}

/* The history walk: every commit reachable from head against each parent.
 * Returns the problems found. */
static int history_walk(git_repository *repo, const char *rel, const char *root, struct strbuf *out,
			size_t *commits, size_t *compared)
{
	git_revwalk *walk = NULL;
	int problems = 0;
	*commits = *compared = 0;
	if (git_revwalk_new(&walk, repo) < 0 || git_revwalk_push_head(walk) < 0) {
		strbuf_addf(out, "unreadable: the git history of %s: %s\n", root, git_why());
		git_revwalk_free(walk);
		return 1;
	}
	git_oid oid;
	while (git_revwalk_next(&oid, walk) == 0) {
		git_commit *c = NULL;
		if (git_commit_lookup(&c, repo, &oid) < 0)
			continue;
		(*commits)++;
		git_oid cs, ps;
		int has = store_tree_of(c, rel, &cs);
		unsigned np = git_commit_parentcount(c);
		char sha[GIT_OID_HEXSZ + 1];
		git_oid_tostr(sha, sizeof(sha), &oid);
		struct rewrite rw = { out, root, sha, git_commit_summary(c), "", 0 };
		if (!rw.subject)
			rw.subject = "";
		for (unsigned p = 0; p < np; p++) {
			git_commit *pc = NULL;
			if (git_commit_parent(&pc, c, p) < 0)
				continue;
			if (store_tree_of(pc, rel, &ps) && !(has && git_oid_equal(&cs, &ps))) {
				git_tree *ta = NULL, *tb = NULL;
				(*compared)++;
				if (git_tree_lookup(&ta, repo, &ps) == 0 && (!has || git_tree_lookup(&tb, repo, &cs) == 0))
					tree_changes(repo, ta, tb, "", &rw);
				git_tree_free(ta);
				git_tree_free(tb);
			}
			git_commit_free(pc);
		}
		if (rw.n > ANCHOR_LINES_PER_COMMIT)
			strbuf_addf(out, "rewritten: and %zu more record files of %s by commit %.12s\n",
				    rw.n - ANCHOR_LINES_PER_COMMIT, root, sha);
		problems += (int)rw.n;
		git_commit_free(c);
	}
	git_revwalk_free(walk);
	return problems;
}

int store_anchor(struct store *st, int history, struct strbuf *out, int *notes)
{
	git_repository *repo = NULL;
	git_reference *head = NULL;
	git_commit *hc = NULL;
	git_tree *htree = NULL, *stree = NULL;
	struct afiles fs = { NULL, 0, 0, st->root };
	char *abs = realpath(st->root, NULL), *wd = NULL;
	int problems = 0;

	git_libgit2_init();
	/* the history walk reads each store folder's trees twice (a commit's,
	 * then as its child's parent); runs/ is one tree of every manifest,
	 * over libgit2's 4 KiB default for a cached tree */
	git_libgit2_opts(GIT_OPT_SET_CACHE_OBJECT_LIMIT, GIT_OBJECT_TREE, (size_t)16 << 20);
	git_libgit2_opts(GIT_OPT_SET_CACHE_MAX_SIZE, (ssize_t)512 << 20);
	if (!abs || git_repository_open_ext(&repo, abs, 0, NULL) < 0 || git_repository_is_bare(repo) ||
	    !git_repository_workdir(repo) || !(wd = realpath(git_repository_workdir(repo), NULL))) {
		strbuf_addf(out,
			    "note: %s is not anchored (no git repository): its chain has no key, so records "
			    "cut out or rewritten with the chain recomputed would verify intact; commit it to git\n",
			    st->root);
		(*notes)++;
		goto out;
	}
	size_t lw = strlen(wd);
	const char *rel = NULL;
	if (!strcmp(abs, wd))
		rel = "";
	else if (!strncmp(abs, wd, lw) && (abs[lw] == '/' || (lw == 1 && wd[0] == '/')))
		rel = abs + lw + (abs[lw] == '/');
	if (!rel) {
		strbuf_addf(out, "note: %s is not anchored (it lies outside its git repository's work tree %s)\n",
			    st->root, wd);
		(*notes)++;
		goto out;
	}
	if (git_repository_head(&head, repo) < 0 || git_reference_peel((git_object **)&hc, head, GIT_OBJECT_COMMIT) < 0) {
		strbuf_addf(out, "note: %s is not anchored (its git repository has no commit yet)\n", st->root);
		(*notes)++;
		goto out;
	}
	char hsha[GIT_OID_HEXSZ + 1];
	git_oid_tostr(hsha, sizeof(hsha), git_commit_id(hc));
	git_oid sid;
	if (!store_tree_of(hc, rel, &sid) || git_tree_lookup(&stree, repo, &sid) < 0) {
		strbuf_addf(out, "note: %s is not anchored (none of it is in the commit HEAD, %.12s)\n", st->root,
			    hsha);
		(*notes)++;
	} else {
		git_tree_walk(stree, GIT_TREEWALK_PRE, collect_cb, &fs);
		store_parallel_for(fs.n, check_file, fs.v);
		for (size_t i = 0; i < fs.n; i++) {
			struct afile *f = &fs.v[i];
			if (f->link) {
				strbuf_addf(out, "altered: %s: the commit HEAD (%.12s) recorded it as a symbolic link\n",
					    f->path, hsha);
				problems++;
			} else if (f->state == 1)
				strbuf_addf(out, "altered: %s: differs from the commit HEAD (%.12s) recorded\n", f->path,
					    hsha);
			else if (f->state == 2)
				strbuf_addf(out, "missing: %s: missing since the commit HEAD (%.12s) recorded it\n",
					    f->path, hsha);
			else if (f->state == 3)
				strbuf_addf(out,
					    "altered: %s: not a regular file, where the commit HEAD (%.12s) recorded one\n",
					    f->path, hsha);
			else if (f->state == 4)
				strbuf_addf(out, "unreadable: %s (recorded by the commit HEAD, %.12s)\n", f->path, hsha);
			problems += !f->link && f->state != 0;
		}
	}
	size_t commits = 0, compared = 0;
	double t0 = mono_now();
	if (history)
		problems += history_walk(repo, rel, st->root, out, &commits, &compared);
	double took = mono_now() - t0;
	if (!stree && !history)
		goto out;
	strbuf_addf(out, "anchored: %s: to the git commit HEAD (%.12s), %zu record files of it compared", st->root,
		    hsha, fs.n);
	if (history)
		strbuf_addf(out, "; its history: %zu commits read, %zu changes of the store's folder compared (%.1f s)\n",
			    commits, compared, took);
	else
		strbuf_addstr(out, " (--history: every commit since)\n");
out:
	for (size_t i = 0; i < fs.n; i++) {
		free(fs.v[i].rel);
		free(fs.v[i].path);
	}
	free(fs.v);
	git_tree_free(stree);
	git_tree_free(htree);
	git_commit_free(hc);
	git_reference_free(head);
	git_repository_free(repo);
	free(abs);
	free(wd);
	return problems;
}
