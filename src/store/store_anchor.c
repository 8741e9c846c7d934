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
 * one rewrites history, it records no run).  The walk keys records by
 * their name inside the store and follows the store's folder where a
 * commit moved it (red team 250 row 3); a parent it cannot read (a
 * shallow clone's cut) is a note (row 6).  Every repository enclosing the
 * store that tracks its files anchors it, and one nested inside such a
 * repository is a problem (row 4).  A store in a submodule is anchored
 * to the submodule's history and that history to the project's gitlink
 * of it, each move a descendant of the last (red team 253 row 2).
 * Records not committed yet are new and pass.  A store outside any git
 * work tree is not anchored, which is a note.
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

/* Where the walk met the store in each commit: a commit's store folder is
 * the one its child's was (rel at HEAD), or, where the child moved the
 * store, where the child's records came from.  An open-addressed table of
 * (commit, path) pairs; a commit reached by two paths holds two. */
struct seen {
	git_oid id;
	int used;
	size_t path; /* index into spaths */
};

struct spaths {
	struct seen *v;
	size_t cap, n;
	char **path;
	size_t npath;
};

static size_t oid_hash(const git_oid *id)
{
	size_t h;
	memcpy(&h, id->id, sizeof(h));
	return h;
}

static size_t path_index(struct spaths *sp, const char *path)
{
	for (size_t i = 0; i < sp->npath; i++)
		if (!strcmp(sp->path[i], path))
			return i;
	sp->path = xrealloc(sp->path, (sp->npath + 1) * sizeof(*sp->path));
	sp->path[sp->npath] = xstrdup(path);
	return sp->npath++;
}

static void seen_add(struct spaths *sp, const git_oid *id, size_t path)
{
	if (2 * (sp->n + 1) > sp->cap) {
		struct spaths old = *sp;
		sp->cap = sp->cap ? 2 * sp->cap : 1024;
		sp->v = xcalloc(sp->cap, sizeof(*sp->v));
		sp->n = 0;
		for (size_t i = 0; i < old.cap; i++)
			if (old.v[i].used)
				seen_add(sp, &old.v[i].id, old.v[i].path);
		free(old.v);
	}
	size_t i = oid_hash(id) & (sp->cap - 1);
	for (; sp->v[i].used; i = (i + 1) & (sp->cap - 1))
		if (git_oid_equal(&sp->v[i].id, id) && sp->v[i].path == path)
			return;
	git_oid_cpy(&sp->v[i].id, id);
	sp->v[i].path = path;
	sp->v[i].used = 1;
	sp->n++;
}

/* The paths commit id was reached with, at most max of them. */
static size_t seen_get(const struct spaths *sp, const git_oid *id, size_t *out, size_t max)
{
	size_t k = 0;
	if (!sp->cap)
		return 0;
	for (size_t i = oid_hash(id) & (sp->cap - 1); sp->v[i].used && k < max; i = (i + 1) & (sp->cap - 1))
		if (git_oid_equal(&sp->v[i].id, id))
			out[k++] = sp->v[i].path;
	return k;
}

/* Where the store folder of a commit (at p, tree cs) was in its parent pc,
 * which has nothing at p: every folder of the parent that the commit's
 * diff takes a record file out of (q/runs/X or q/objects/X deleted) and
 * whose store-relative name X the commit's store holds.  A plain
 * tree-to-tree diff shows a moved file as deleted at its old path, edited
 * or not, so a store moved and edited in one commit is found.  Read only
 * where the store's path appears in a commit. */
static size_t store_moved_from(git_repository *repo, git_commit *pc, git_commit *c, git_tree *cs, char ***out)
{
	git_tree *pt = NULL, *ct = NULL;
	git_diff *diff = NULL;
	size_t n = 0;
	*out = NULL;
	if (git_commit_tree(&pt, pc) < 0 || git_commit_tree(&ct, c) < 0 ||
	    git_diff_tree_to_tree(&diff, repo, pt, ct, NULL) < 0)
		goto done;
	size_t nd = git_diff_num_deltas(diff);
	for (size_t i = 0; i < nd; i++) {
		const git_diff_delta *d = git_diff_get_delta(diff, i);
		if (d->status != GIT_DELTA_DELETED || !d->old_file.path)
			continue;
		const char *path = d->old_file.path;
		for (const char *at = path; at && *at;) {
			const char *x = NULL;
			if (at == path && is_record_path(at))
				x = at;
			else if (at[0] == '/' && is_record_path(at + 1))
				x = at + 1;
			if (x) {
				git_tree_entry *e = NULL;
				int ok = git_tree_entry_bypath(&e, cs, x) == 0;
				git_tree_entry_free(e);
				if (ok) {
					size_t lq = (size_t)(x - path) - (x > path);
					char *q = xstrfmt("%.*s", (int)lq, path);
					size_t k = 0;
					while (k < n && strcmp((*out)[k], q))
						k++;
					if (k < n) {
						free(q);
					} else {
						*out = xrealloc(*out, (n + 1) * sizeof(**out));
						(*out)[n++] = q;
					}
				}
			}
			at = strchr(at + 1, '/');
		}
	}
done:
	git_diff_free(diff);
	git_tree_free(pt);
	git_tree_free(ct);
	return n;
}

/* Compare the parent's store tree ps with the commit's (has: cs), counting
 * one comparison. */
static void compare_store(git_repository *repo, const git_oid *ps, int has, const git_oid *cs, struct rewrite *rw,
			  size_t *compared)
{
	git_tree *ta = NULL, *tb = NULL;
	(*compared)++;
	if (git_tree_lookup(&ta, repo, ps) == 0 && (!has || git_tree_lookup(&tb, repo, cs) == 0))
		tree_changes(repo, ta, tb, "", rw);
	git_tree_free(ta);
	git_tree_free(tb);
}

/* The commits reachable from HEAD, children before parents (Kahn's order
 * over the parent links), read without libgit2's revwalk, which stops at
 * the first parent it cannot read (a shallow clone's cut: "0 commits"). */
struct ctab {
	git_oid *id;
	size_t *indeg;
	size_t *slot; /* open-addressed: index + 1, 0 empty */
	size_t n, cap, scap;
};

static size_t ctab_find(struct ctab *t, const git_oid *id, int add, int *added)
{
	if (add && 2 * (t->n + 1) > t->scap) {
		free(t->slot);
		t->scap = t->scap ? 2 * t->scap : 1024;
		t->slot = xcalloc(t->scap, sizeof(*t->slot));
		for (size_t k = 0; k < t->n; k++) {
			size_t i = oid_hash(&t->id[k]) & (t->scap - 1);
			while (t->slot[i])
				i = (i + 1) & (t->scap - 1);
			t->slot[i] = k + 1;
		}
	}
	if (added)
		*added = 0;
	if (!t->scap)
		return SIZE_MAX;
	size_t i = oid_hash(id) & (t->scap - 1);
	for (; t->slot[i]; i = (i + 1) & (t->scap - 1))
		if (git_oid_equal(&t->id[t->slot[i] - 1], id))
			return t->slot[i] - 1;
	if (!add)
		return SIZE_MAX;
	if (t->n == t->cap) {
		t->cap = t->cap ? 2 * t->cap : 1024;
		t->id = xrealloc(t->id, t->cap * sizeof(*t->id));
		t->indeg = xrealloc(t->indeg, t->cap * sizeof(*t->indeg));
	}
	git_oid_cpy(&t->id[t->n], id);
	t->indeg[t->n] = 0;
	t->slot[i] = t->n + 1;
	if (added)
		*added = 1;
	return t->n++;
}

/* Fills order with the commits' indices, children first; returns how many. */
static size_t commit_order(git_repository *repo, const git_oid *head, struct ctab *t, size_t **order)
{
	size_t *stack = NULL, ns = 0, cs = 0, no = 0;
	int added;
	*order = NULL;
	ctab_find(t, head, 1, &added);
	stack = xrealloc(stack, (cs = 1024) * sizeof(*stack));
	stack[ns++] = 0;
	while (ns) {
		size_t k = stack[--ns];
		git_commit *c = NULL;
		if (git_commit_lookup(&c, repo, &t->id[k]) < 0)
			continue;
		unsigned np = git_commit_parentcount(c);
		for (unsigned p = 0; p < np; p++) {
			size_t j = ctab_find(t, git_commit_parent_id(c, p), 1, &added);
			t->indeg[j]++;
			if (added) {
				if (ns == cs)
					stack = xrealloc(stack, (cs *= 2) * sizeof(*stack));
				stack[ns++] = j;
			}
		}
		git_commit_free(c);
	}
	*order = xrealloc(NULL, (t->n + 1) * sizeof(**order));
	size_t qh = 0;
	(*order)[no++] = 0;
	while (qh < no) {
		git_commit *c = NULL;
		if (git_commit_lookup(&c, repo, &t->id[(*order)[qh++]]) < 0)
			continue;
		unsigned np = git_commit_parentcount(c);
		for (unsigned p = 0; p < np; p++) {
			size_t j = ctab_find(t, git_commit_parent_id(c, p), 0, NULL);
			if (j != SIZE_MAX && !--t->indeg[j])
				(*order)[no++] = j;
		}
		git_commit_free(c);
	}
	free(stack);
	return no;
}

/* The history walk: every commit reachable from head against each parent,
 * children first, the store followed to where each commit held it.  A
 * parent that cannot be read (a shallow clone's cut) is a note: the
 * history before it is not compared.  Returns the problems found. */
static int history_walk(git_repository *repo, const char *rel, const char *root, struct strbuf *out,
			size_t *commits, size_t *compared, int *notes)
{
	int problems = 0, shallow = git_repository_is_shallow(repo) == 1;
	struct spaths sp = { 0 };
	struct ctab ct = { 0 };
	git_oid head;
	size_t *order = NULL, norder;
	*commits = *compared = 0;
	if (git_reference_name_to_id(&head, repo, "HEAD") < 0) {
		strbuf_addf(out, "unreadable: the git history of %s: %s\n", root, git_why());
		return 1;
	}
	norder = commit_order(repo, &head, &ct, &order);
	size_t relix = path_index(&sp, rel);
	for (size_t o = 0; o < norder; o++) {
		git_oid oid = ct.id[order[o]];
		git_commit *c = NULL;
		if (git_commit_lookup(&c, repo, &oid) < 0)
			continue;
		(*commits)++;
		size_t paths[8];
		size_t npaths = seen_get(&sp, &oid, paths, 8);
		if (!npaths)
			paths[npaths++] = relix; /* HEAD */
		unsigned np = git_commit_parentcount(c);
		char sha[GIT_OID_HEXSZ + 1];
		git_oid_tostr(sha, sizeof(sha), &oid);
		struct rewrite rw = { out, root, sha, git_commit_summary(c), "", 0 };
		if (!rw.subject)
			rw.subject = "";
		for (unsigned p = 0; p < np; p++) {
			git_commit *pc = NULL;
			if (git_commit_parent(&pc, c, p) < 0) {
				char psha[GIT_OID_HEXSZ + 1];
				git_oid_tostr(psha, sizeof(psha), git_commit_parent_id(c, p));
				if (shallow)
					strbuf_addf(out,
						    "note: %s: history cut at commit %.12s: a shallow clone; commits "
						    "before it are not read (its parent %.12s is not in the clone)\n",
						    root, sha, psha);
				else
					strbuf_addf(out,
						    "note: %s: history cut at commit %.12s: its parent %.12s cannot be "
						    "read (%s); commits before it are not read\n",
						    root, sha, psha, git_why());
				(*notes)++;
				continue;
			}
			for (size_t k = 0; k < npaths; k++) {
				const char *at = sp.path[paths[k]];
				git_oid cs, ps;
				int has = store_tree_of(c, at, &cs);
				if (store_tree_of(pc, at, &ps)) {
					if (!(has && git_oid_equal(&cs, &ps))) {
						compare_store(repo, &ps, has, &cs, &rw, compared);
						/* and records brought in from another folder of
						 * the parent, whose record files the commit took
						 * out there (red team 253: a folder committed at
						 * the destination first, then the store moved
						 * onto it with an edit or a cut, was compared
						 * with that folder alone: intact) */
						char **from = NULL;
						git_tree *cst = NULL;
						size_t nfrom = has && git_tree_lookup(&cst, repo, &cs) == 0
								       ? store_moved_from(repo, pc, c, cst, &from)
								       : 0;
						git_tree_free(cst);
						for (size_t f = 0; f < nfrom; f++) {
							git_oid fs;
							if (strcmp(from[f], at) && store_tree_of(pc, from[f], &fs)) {
								compare_store(repo, &fs, has, &cs, &rw, compared);
								seen_add(&sp, git_commit_id(pc), path_index(&sp, from[f]));
							}
							free(from[f]);
						}
						free(from);
					}
					seen_add(&sp, git_commit_id(pc), paths[k]);
					continue;
				}
				/* the parent has no store at this path: moved here? */
				char **from = NULL;
				size_t nfrom = 0;
				git_tree *cst = NULL;
				if (has && git_tree_lookup(&cst, repo, &cs) == 0)
					nfrom = store_moved_from(repo, pc, c, cst, &from);
				git_tree_free(cst);
				for (size_t f = 0; f < nfrom; f++) {
					if (store_tree_of(pc, from[f], &ps))
						compare_store(repo, &ps, has, &cs, &rw, compared);
					seen_add(&sp, git_commit_id(pc), path_index(&sp, from[f]));
					free(from[f]);
				}
				free(from);
				if (!nfrom)
					seen_add(&sp, git_commit_id(pc), paths[k]);
			}
			git_commit_free(pc);
		}
		if (rw.n > ANCHOR_LINES_PER_COMMIT)
			strbuf_addf(out, "rewritten: and %zu more record files of %s by commit %.12s\n",
				    rw.n - ANCHOR_LINES_PER_COMMIT, root, sha);
		problems += (int)rw.n;
		git_commit_free(c);
	}
	free(order);
	free(ct.id);
	free(ct.indeg);
	free(ct.slot);
	free(sp.v);
	for (size_t i = 0; i < sp.npath; i++)
		free(sp.path[i]);
	free(sp.path);
	return problems;
}

/* The store's path inside the work tree wd: "" at its top; NULL outside. */
static const char *rel_in(const char *abs, const char *wd)
{
	size_t lw = strlen(wd);
	if (!strcmp(abs, wd))
		return "";
	if (!strncmp(abs, wd, lw) && (abs[lw] == '/' || (lw == 1 && wd[0] == '/')))
		return abs + lw + (abs[lw] == '/');
	return NULL;
}

/* The store against one repository's HEAD (and, with history, its
 * history).  Returns the problems found. */
static int anchor_one(struct store *st, git_repository *repo, const char *rel, int history, struct strbuf *out,
		      int *notes)
{
	git_reference *head = NULL;
	git_commit *hc = NULL;
	git_tree *stree = NULL;
	struct afiles fs = { NULL, 0, 0, st->root };
	int problems = 0;
	int shallow = git_repository_is_shallow(repo) == 1;

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
		problems += history_walk(repo, rel, st->root, out, &commits, &compared, notes);
	double took = mono_now() - t0;
	if (!stree && !history)
		goto out;
	strbuf_addf(out, "anchored: %s: to the git commit HEAD (%.12s), %zu record files of it compared", st->root,
		    hsha, fs.n);
	if (history)
		strbuf_addf(out, "; its history: %zu commits read, %zu changes of the store's folder compared (%.1f s)%s\n",
			    commits, compared, took, shallow ? "; a shallow clone: history cut where noted" : "");
	else if (shallow)
		strbuf_addstr(out, " (a shallow clone: --history reads only the commits it holds, and says where it is cut)\n");
	else
		strbuf_addstr(out, " (--history: every commit since)\n");
out:
	for (size_t i = 0; i < fs.n; i++) {
		free(fs.v[i].rel);
		free(fs.v[i].path);
	}
	free(fs.v);
	git_tree_free(stree);
	git_commit_free(hc);
	git_reference_free(head);
	return problems;
}

/* Does the repository's HEAD hold a folder at rel (files of the store)? */
static int tracks_store(git_repository *repo, const char *rel)
{
	git_reference *head = NULL;
	git_commit *hc = NULL;
	git_oid id;
	int yes = git_repository_head(&head, repo) == 0 &&
		  git_reference_peel((git_object **)&hc, head, GIT_OBJECT_COMMIT) == 0 && store_tree_of(hc, rel, &id);
	git_commit_free(hc);
	git_reference_free(head);
	return yes;
}

/* The commit id that commit c's tree holds as a gitlink (a submodule) at
 * path, into out: 1, else 0. */
static int gitlink_at(git_commit *c, const char *path, git_oid *out)
{
	git_tree *t = NULL;
	git_tree_entry *e = NULL;
	int yes = 0;
	if (git_commit_tree(&t, c) == 0 && git_tree_entry_bypath(&e, t, path) == 0 &&
	    git_tree_entry_filemode(e) == GIT_FILEMODE_COMMIT) {
		git_oid_cpy(out, git_tree_entry_id(e));
		yes = 1;
	}
	git_tree_entry_free(e);
	git_tree_free(t);
	return yes;
}

/* Does the submodule's repository hold commit `to` as `from` itself or a
 * descendant of it?  1 yes, 0 no, -1 it does not hold one of them. */
static int sub_descends(git_repository *sub, const git_oid *to, const git_oid *from)
{
	git_commit *a = NULL, *b = NULL;
	int have = git_commit_lookup(&a, sub, to) == 0 && git_commit_lookup(&b, sub, from) == 0;
	git_commit_free(a);
	git_commit_free(b);
	if (!have)
		return -1;
	if (git_oid_equal(to, from))
		return 1;
	return git_graph_descendant_of(sub, to, from) == 1;
}

/* Every commit of the project (proj) that moved the gitlink at path
 * against each parent: the move must go to a descendant in the submodule
 * (sub).  *commits and *moves count what was read.  Returns the problems
 * found (a commit the submodule does not hold: a note where it is
 * shallow). */
static int gitlink_moves(git_repository *sub, git_repository *proj, const char *path, int shallow,
			 struct strbuf *out, int *notes, size_t *commits, size_t *moves)
{
	int problems = 0;
	git_revwalk *w = NULL;
	git_oid id;
	if (git_revwalk_new(&w, proj) < 0 || git_revwalk_push_head(w) < 0) {
		git_revwalk_free(w);
		return 0;
	}
	while (git_revwalk_next(&id, w) == 0) {
		git_commit *c = NULL;
		git_oid now, before;
		if (git_commit_lookup(&c, proj, &id) < 0)
			continue;
		(*commits)++;
		int has = gitlink_at(c, path, &now);
		for (unsigned k = 0; has && k < git_commit_parentcount(c); k++) {
			git_commit *p = NULL;
			int moved = git_commit_parent(&p, c, k) == 0 && gitlink_at(p, path, &before) &&
				    !git_oid_equal(&now, &before);
			git_commit_free(p);
			if (!moved)
				continue;
			(*moves)++;
			int d = sub_descends(sub, &now, &before);
			if (d > 0)
				continue;
			char cs[GIT_OID_HEXSZ + 1], a[GIT_OID_HEXSZ + 1], b[GIT_OID_HEXSZ + 1];
			git_oid_tostr(cs, sizeof(cs), &id);
			git_oid_tostr(a, sizeof(a), &before);
			git_oid_tostr(b, sizeof(b), &now);
			if (d == 0) {
				strbuf_addf(out, "rewritten: the project's commit %.12s moved the store's submodule %s "
						 "from %.12s to %.12s, which does not descend from it (the store's "
						 "history replaced)\n",
					    cs, path, a, b);
				problems++;
			} else {
				strbuf_addf(out, "%s: the project's commit %.12s moved the store's submodule %s from "
						 "%.12s to %.12s, and the submodule does not hold both\n",
					    shallow ? "note" : "missing", cs, path, a, b);
				if (shallow)
					(*notes)++;
				else
					problems++;
			}
		}
		git_commit_free(c);
	}
	git_revwalk_free(w);
	return problems;
}

/*
 * A store in a git submodule (red team 253 row 2): the project tracks the
 * submodule as one commit id (a gitlink), not as files, so the anchor is
 * the submodule's own history, which a writer can replace whole (a cut
 * committed as a new root, `git checkout --orphan`, and the gitlink moved
 * by an ordinary commit of the project: verify --history read intact 3 of
 * 3, a fresh recursive clone too).  What the project's history holds is
 * the order of those commit ids: each must descend from the one before.
 * So the submodule's HEAD must be the project HEAD's gitlink or descend
 * from it, and with history every commit of the project that moved the
 * gitlink must have moved it to a descendant of where it was.  A commit
 * the submodule does not hold is a problem, or a note in a shallow
 * submodule.  sub is the submodule's repository, proj the project's, path
 * the submodule's folder in the project.  Returns the problems found.
 */
static int anchor_gitlinks(git_repository *sub, const char *sub_wd, git_repository *proj, const char *path,
			   int history, struct strbuf *out, int *notes)
{
	int problems = 0, shallow = git_repository_is_shallow(sub) == 1;
	git_oid head, sub_head, link;
	git_commit *hc = NULL;
	char a[GIT_OID_HEXSZ + 1], b[GIT_OID_HEXSZ + 1];
	if (git_reference_name_to_id(&head, proj, "HEAD") < 0 || git_commit_lookup(&hc, proj, &head) < 0)
		return 0;
	int has = gitlink_at(hc, path, &link);
	git_commit_free(hc);
	if (!has)
		return 0;
	if (git_reference_name_to_id(&sub_head, sub, "HEAD") < 0) {
		strbuf_addf(out, "unreadable: the submodule at %s has no HEAD: %s\n", sub_wd, git_why());
		return 1;
	}
	git_oid_tostr(a, sizeof(a), &link);
	git_oid_tostr(b, sizeof(b), &sub_head);
	int d = sub_descends(sub, &sub_head, &link);
	if (d == 0) {
		strbuf_addf(out, "rewritten: the store lies in the submodule %s, whose HEAD (%.12s) does not "
				 "descend from the commit the project's HEAD records for it (%.12s)\n",
			    sub_wd, b, a);
		problems++;
	} else if (d < 0) {
		strbuf_addf(out, "%s: the store lies in the submodule %s, which does not hold the commit the "
				 "project's HEAD records for it (%.12s)\n",
			    shallow ? "note" : "missing", sub_wd, a);
		if (shallow)
			(*notes)++;
		else
			problems++;
	}
	size_t moves = 0, commits = 0;
	if (history)
		problems += gitlink_moves(sub, proj, path, shallow, out, notes, &commits, &moves);
	strbuf_addf(out, "anchored: the submodule %s to the project's gitlink at %s%s", sub_wd, path,
		    history ? "" : " (--history: every move of it since)\n");
	if (history)
		strbuf_addf(out, "; the project's history: %zu commits read, %zu moves of it compared\n", commits,
			    moves);
	return problems;
}

#define ANCHOR_MAX_REPOS 16

int store_anchor(struct store *st, int history, struct strbuf *out, int *notes)
{
	/* every repository enclosing the store, innermost first: a repository
	 * made in the store's folder (or a .git file there) or in a folder
	 * between it and the project's must not stand in for the project's */
	git_repository *repos[ANCHOR_MAX_REPOS];
	char *wds[ANCHOR_MAX_REPOS];
	const char *rels[ANCHOR_MAX_REPOS];
	int tracks[ANCHOR_MAX_REPOS];
	size_t nr = 0;
	char *abs = realpath(st->root, NULL);
	int problems = 0, outside = 0;

	git_libgit2_init();
	/* the history walk reads each store folder's trees twice (a commit's,
	 * then as its child's parent); runs/ is one tree of every manifest,
	 * over libgit2's 4 KiB default for a cached tree */
	git_libgit2_opts(GIT_OPT_SET_CACHE_OBJECT_LIMIT, GIT_OBJECT_TREE, (size_t)16 << 20);
	git_libgit2_opts(GIT_OPT_SET_CACHE_MAX_SIZE, (ssize_t)512 << 20);
	char *from = abs ? xstrdup(abs) : NULL;
	while (from && nr < ANCHOR_MAX_REPOS) {
		git_repository *repo = NULL;
		char *wd = NULL;
		if (git_repository_open_ext(&repo, from, 0, NULL) < 0 || git_repository_is_bare(repo) ||
		    !git_repository_workdir(repo) || !(wd = realpath(git_repository_workdir(repo), NULL))) {
			git_repository_free(repo);
			break;
		}
		const char *rel = rel_in(abs, wd);
		if (!rel || (nr && strlen(wd) >= strlen(wds[nr - 1]))) {
			if (!nr) {
				strbuf_addf(out,
					    "note: %s is not anchored (it lies outside its git repository's work tree %s)\n",
					    st->root, wd);
				(*notes)++;
				outside = 1;
			}
			free(wd);
			git_repository_free(repo);
			break;
		}
		repos[nr] = repo;
		wds[nr] = wd;
		rels[nr] = rel;
		tracks[nr] = tracks_store(repo, rel);
		nr++;
		free(from);
		from = NULL;
		if (strcmp(wd, "/")) {
			char *slash = strrchr(wd, '/');
			from = slash == wd ? xstrdup("/") : xstrfmt("%.*s", (int)(slash - wd), wd);
		}
	}
	free(from);
	if (!nr) {
		if (outside)
			goto out;
		strbuf_addf(out,
			    "note: %s is not anchored (no git repository): its chain has no key, so records "
			    "cut out or rewritten with the chain recomputed would verify intact; commit it to git\n",
			    st->root);
		(*notes)++;
		goto out;
	}
	int any = 0;
	for (size_t i = 0; i < nr; i++)
		any |= tracks[i];
	for (size_t i = 0; i < nr; i++) {
		/* an inner repository where an outer one tracks the store's files */
		size_t outer = 0;
		for (size_t j = i + 1; j < nr; j++)
			if (tracks[j])
				outer = j;
		if (outer) {
			strbuf_addf(out,
				    "nested: the store holds a git repository of its own at %s: the repository at %s "
				    "tracks the store's files, and the inner one's commits do not replace its anchor\n",
				    wds[i], wds[outer]);
			problems++;
		}
		if (tracks[i] || (!any && i == 0))
			problems += anchor_one(st, repos[i], rels[i], history, out, notes);
	}
	/* a repository that is a submodule of the next one out: the project's
	 * gitlink history anchors its HEAD (anchor_gitlinks) */
	for (size_t i = 0; i + 1 < nr; i++) {
		const char *path = rel_in(wds[i], wds[i + 1]);
		if (path && *path)
			problems += anchor_gitlinks(repos[i], wds[i], repos[i + 1], path, history, out, notes);
	}
out:
	for (size_t i = 0; i < nr; i++) {
		git_repository_free(repos[i]);
		free(wds[i]);
	}
	free(abs);
	return problems;
}
