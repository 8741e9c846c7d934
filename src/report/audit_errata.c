/*
 * audit_errata.c - the errata file: the runner commits whose records the
 * audit sets aside as the runner's own defects, each checked against the
 * repository (audit_errata.h says why and the format).
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include <git2.h>

#include "report/audit_errata.h"
#include "base/util.h"
#include "record/record.h"

static const char *git_msg(void)
{
	const git_error *e = git_error_last();
	return e && e->message ? e->message : "unknown libgit2 error";
}

/* The next whitespace-separated word of [*p, end) into [*w, *we); 0 when none. */
static int word(const char **p, const char *end, const char **w, const char **we)
{
	const char *s = *p;
	while (s < end && (*s == ' ' || *s == '\t'))
		s++;
	const char *t = s;
	while (t < end && *t != ' ' && *t != '\t')
		t++;
	*w = s;
	*we = t;
	*p = t;
	return t > s;
}

static int is_hex_id(const char *s, const char *e)
{
	if (e - s < 7 || e - s > 40)
		return 0;
	for (; s < e; s++)
		if (!isxdigit((unsigned char)*s))
			return 0;
	return 1;
}

/* Resolve the abbreviated commit id into its full hex (out, 41 bytes);
 * 0, or -1 with why in err. */
static int resolve(git_repository *repo, const char *id, char out[GIT_OID_HEXSZ + 1], const char *where,
		   struct strbuf *err)
{
	git_object *obj = NULL;
	char *spec = xstrfmt("%s^{commit}", id);
	int rc = git_revparse_single(&obj, repo, spec);
	free(spec);
	if (rc < 0) {
		strbuf_addf(err, "%s: commit '%s' is not in the repository (%s)", where, id, git_msg());
		return -1;
	}
	git_oid_tostr(out, GIT_OID_HEXSZ + 1, git_object_id(obj));
	git_object_free(obj);
	return 0;
}

/*
 * The code of a C source, without what a compiler ignores, into out: each
 * comment is blank space (as the C standard makes it), and a run of blank
 * space becomes "\n" when it holds a line break (a preprocessor line ends
 * there), else one space between two word bytes or two punctuators (where
 * removing it could join two tokens: "a - -b", "int x"), else nothing.
 * String and character literals are kept as written.  Two sources whose
 * codes are equal differ in comments and layout only (red team 47).  A
 * conservative approximation: layout that changes nothing a compiler sees
 * ("x = -1" for "x=-1") still reads as a change.
 */
static void code_text(const char *s, size_t n, struct strbuf *out)
{
	const char *e = s + n;
	int gap = 0, nl = 0; /* blank space (and a line break in it) since the last byte kept */
	while (s < e) {
		if (*s == '/' && s + 1 < e && s[1] == '*') {
			const char *t = s + 2;
			while (t + 1 < e && !(t[0] == '*' && t[1] == '/'))
				t++;
			s = t + 1 < e ? t + 2 : e;
			gap = 1;
			continue;
		}
		if (*s == '/' && s + 1 < e && s[1] == '/') {
			while (s < e && *s != '\n')
				s++;
			gap = 1;
			continue;
		}
		if (isspace((unsigned char)*s)) {
			nl |= *s == '\n';
			gap = 1;
			s++;
			continue;
		}
		if (gap && out->len) {
			unsigned char p = (unsigned char)out->buf[out->len - 1], c = (unsigned char)*s;
			int wp = isalnum(p) || p == '_', wc = isalnum(c) || c == '_';
			if (nl)
				strbuf_addch(out, '\n');
			else if (wp == wc && p != '\n')
				strbuf_addch(out, ' ');
		}
		gap = nl = 0;
		if (*s == '"' || *s == '\'') {
			/* a literal, escapes and all, to its closing quote or the line's end */
			char q = *s;
			const char *t = s + 1;
			while (t < e && *t != q && *t != '\n')
				t += *t == '\\' && t + 1 < e ? 2 : 1;
			t = t < e && *t == q ? t + 1 : t;
			strbuf_add(out, s, (size_t)(t - s));
			s = t;
			continue;
		}
		strbuf_addch(out, *s++);
	}
}

/* The code (code_text) of the blob id into out; empty for a zero id (a file
 * that one side lacks).  0, or -1 (git_error_last says why). */
static int blob_code(git_repository *repo, const git_oid *id, struct strbuf *out)
{
	git_blob *blob = NULL;
	strbuf_reset(out);
	if (git_oid_is_zero(id))
		return 0;
	if (git_blob_lookup(&blob, repo, id) < 0)
		return -1;
	code_text(git_blob_rawcontent(blob), (size_t)git_blob_rawsize(blob), out);
	git_blob_free(blob);
	return 0;
}

/* Is path the runner's, the code that makes records?  Under src/, not
 * src/report/ (the readers: red team 49's "fix" was a plot colour in
 * src/report/svg.c, real code no run reaches). */
static int runner_path(const char *path)
{
	return path && !strncmp(path, "src/", 4) && strncmp(path, "src/report/", 11);
}

/* What changed in the runner's sources (runner_path) between commits a
 * and b: SRC_CODE (code a compiler reads), SRC_COMMENTS (comments and
 * layout only: code_text), SRC_NONE, or -1 (git_error_last says why). */
enum { SRC_NONE, SRC_COMMENTS, SRC_CODE };
static int src_changed(git_repository *repo, const git_oid *a, const git_oid *b)
{
	git_commit *ca = NULL, *cb = NULL;
	git_tree *ta = NULL, *tb = NULL;
	git_diff *diff = NULL;
	struct strbuf x = STRBUF_INIT, y = STRBUF_INIT;
	char *spec[] = { "src/" };
	git_diff_options o;
	git_diff_options_init(&o, GIT_DIFF_OPTIONS_VERSION);
	o.pathspec.strings = spec;
	o.pathspec.count = 1;
	int rc = -1;
	if (git_commit_lookup(&ca, repo, a) < 0 || git_commit_lookup(&cb, repo, b) < 0 || git_commit_tree(&ta, ca) < 0 ||
	    git_commit_tree(&tb, cb) < 0 || git_diff_tree_to_tree(&diff, repo, ta, tb, &o) < 0)
		goto out;
	size_t n = git_diff_num_deltas(diff);
	rc = SRC_NONE;
	for (size_t i = 0; i < n && rc != SRC_CODE; i++) {
		const git_diff_delta *d = git_diff_get_delta(diff, i);
		if (!runner_path(d->old_file.path) && !runner_path(d->new_file.path))
			continue;
		rc = SRC_COMMENTS;
		if (blob_code(repo, &d->old_file.id, &x) < 0 || blob_code(repo, &d->new_file.id, &y) < 0) {
			rc = -1;
			break;
		}
		if (x.len != y.len || memcmp(strbuf_str(&x), strbuf_str(&y), x.len))
			rc = SRC_CODE;
	}
out:
	strbuf_release(&x);
	strbuf_release(&y);
	git_diff_free(diff);
	git_tree_free(ta);
	git_tree_free(tb);
	git_commit_free(ca);
	git_commit_free(cb);
	return rc;
}

/* Check entry i (file line line) in repo: both commits resolve (made
 * full), the fix descends from the defect and changes the code of the
 * runner's sources (runner_path: src/ outside src/report/; comments and layout are not code).  0, or -1 with err. */
static int verify(git_repository *repo, struct audit_errata *e, size_t i, const char *path, int line,
		  struct strbuf *err)
{
	char where[4096], c[GIT_OID_HEXSZ + 1], f[GIT_OID_HEXSZ + 1];
	snprintf(where, sizeof(where), "%s:%d", path, line);
	if (resolve(repo, e->commit[i], c, where, err) < 0 || resolve(repo, e->fixed[i], f, where, err) < 0)
		return -1;
	git_oid oc, of;
	git_oid_fromstr(&oc, c);
	git_oid_fromstr(&of, f);
	int d = git_graph_descendant_of(repo, &of, &oc);
	if (d < 0) {
		strbuf_addf(err, "%s: cannot tell whether %.12s descends from %.12s (%s)", where, f, c, git_msg());
		return -1;
	}
	if (!d) {
		strbuf_addf(err, "%s: the fixing commit %.12s is not a later commit than the defective %.12s (it must "
			    "descend from it: a defect is fixed after the runner that had it)", where, f, c);
		return -1;
	}
	/* a runner's defect is fixed in the runner's sources: the fix must
	 * change the code under src/ since the defective commit (red team
	 * 46: a chain of empty commits, each "fixed in" the next, set aside
	 * every failing batch of a kernel that failed on its own) */
	int changed = src_changed(repo, &oc, &of);
	if (changed < 0) {
		strbuf_addf(err, "%s: cannot compare %.12s with %.12s (%s)", where, c, f, git_msg());
		return -1;
	}
	if (changed == SRC_NONE) {
		strbuf_addf(err, "%s: the fixing commit %.12s changes nothing under src/ outside src/report/ since "
			    "%.12s: a runner's defect is fixed in the runner's sources, the code that makes records "
			    "(not the report, docs or tests)", where, f, c);
		return -1;
	}
	/* a comment is no fix (red team 47: the same chain, each link a
	 * one-line comment in src/run/outcome.c, set aside 9 of 10 runs) */
	if (changed == SRC_COMMENTS) {
		strbuf_addf(err, "%s: the fixing commit %.12s changes only comments and layout under src/ since "
			    "%.12s: a runner's defect is fixed by changing the runner's code", where, f, c);
		return -1;
	}
	free(e->commit[i]);
	free(e->fixed[i]);
	e->commit[i] = xstrdup(c);
	e->fixed[i] = xstrdup(f);
	return 0;
}

int audit_errata_load(const char *path, const char *repo_dir, struct audit_errata *e, struct strbuf *err)
{
	struct strbuf in = STRBUF_INIT;
	git_repository *repo = NULL;
	int rc = 0, line = 0;
	memset(e, 0, sizeof(*e));
	git_libgit2_init();
	if (read_file(path, &in) < 0) {
		strbuf_addf(err, "%s: cannot read the errata file", path);
		rc = -1;
		goto out;
	}
	if (git_repository_open_ext(&repo, repo_dir ? repo_dir : ".", 0, NULL) < 0) {
		strbuf_addf(err, "%s: no git repository at '%s' to check its commits in (%s)", path,
			    repo_dir ? repo_dir : ".", git_msg());
		rc = -1;
		goto out;
	}
	const char *p = strbuf_str(&in), *end = p + in.len;
	while (p < end && !rc) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *le = nl ? nl : end;
		line++;
		const char *s = p;
		p = nl ? nl + 1 : end;
		while (s < le && (*s == ' ' || *s == '\t' || *s == '\r'))
			s++;
		if (s == le || *s == '#')
			continue;
		const char *c, *ce, *f, *fe, *why = s;
		int two = word(&why, le, &c, &ce) && word(&why, le, &f, &fe);
		while (why < le && (*why == ' ' || *why == '\t'))
			why++;
		const char *wend = le;
		while (wend > why && (wend[-1] == ' ' || wend[-1] == '\t' || wend[-1] == '\r'))
			wend--;
		if (!two || !is_hex_id(c, ce) || !is_hex_id(f, fe) || why == wend) {
			strbuf_addf(err, "%s:%d: an entry is \"COMMIT FIXED_IN REASON\": the runner commit that had the "
				    "defect, the commit that fixed it (7 to 40 hex digits each) and a reason; a run or "
				    "batch id is no erratum (the defect is the runner's, every record it wrote)",
				    path, line);
			rc = -1;
			break;
		}
		e->commit = xrealloc(e->commit, (e->n + 1) * sizeof(*e->commit));
		e->fixed = xrealloc(e->fixed, (e->n + 1) * sizeof(*e->fixed));
		e->why = xrealloc(e->why, (e->n + 1) * sizeof(*e->why));
		e->commit[e->n] = xstrndup(c, (size_t)(ce - c));
		e->fixed[e->n] = xstrndup(f, (size_t)(fe - f));
		e->why[e->n] = xstrndup(why, (size_t)(wend - why));
		e->n++;
		rc = verify(repo, e, e->n - 1, path, line, err);
	}
out:
	strbuf_release(&in);
	if (rc < 0 || !repo) {
		git_repository_free(repo);
		git_libgit2_shutdown();
		if (rc < 0)
			audit_errata_release(e);
		return rc;
	}
	e->repo = repo; /* for audit_errata_find's ancestry; audit_errata_release frees it */
	return 0;
}

/* Entry i covers full commit c in e's repository: the runner's code at c
 * (src/ outside src/report/, comments and layout aside: src_changed) is
 * the defective commit's.  Red team 280: a runner built from one
 * README-only commit on top of the defective one dodged an erratum that
 * named the defective one alone; red team 281: matched by ancestry
 * instead, a merge that names the fix as a parent but keeps the
 * defective files (git merge -s ours) escaped, and a release branch with
 * the fix cherry-picked was set aside; by the code itself, the first
 * two are the defective runner and the third is not.  1, or 0 (also
 * where the repository cannot tell). */
static int covers(const struct audit_errata *e, size_t i, const git_oid *c)
{
	git_oid d;
	if (git_oid_fromstr(&d, e->commit[i]) < 0)
		return 0;
	int ch = src_changed(e->repo, &d, c);
	return ch == SRC_NONE || ch == SRC_COMMENTS;
}

long audit_errata_find(const struct audit_errata *e, const char *runner_commit)
{
	size_t len = runner_commit ? strlen(runner_commit) : 0;
	/* a record's commit is in full; an older one may be abbreviated */
	for (size_t i = 0; e && len >= 7 && i < e->n; i++)
		if (!strncmp(e->commit[i], runner_commit, len))
			return (long)i;
	return -1;
}

long audit_errata_find_later(const struct audit_errata *e, const char *runner_commit)
{
	long exact = audit_errata_find(e, runner_commit);
	size_t len = runner_commit ? strlen(runner_commit) : 0;
	if (exact >= 0 || !e || !e->n || !e->repo || len != GIT_OID_HEXSZ)
		return exact;
	struct audit_errata *m = (struct audit_errata *)e; /* the cache only */
	for (size_t k = 0; k < m->n_seen; k++)
		if (!strcmp(m->seen[k], runner_commit))
			return m->seen_at[k];
	long at = -1;
	git_oid c;
	git_commit *cc = NULL;
	if (git_oid_fromstr(&c, runner_commit) == 0 && git_commit_lookup(&cc, e->repo, &c) == 0) {
		for (size_t i = 0; at < 0 && i < e->n; i++)
			if (covers(e, i, &c))
				at = (long)i;
	} else {
		/* a runner commit this repository does not hold: matched by
		 * name alone, and the audit says so (red team 281: the same
		 * store read otherwise in the build's own clone) */
		m->unplaced = xrealloc(m->unplaced, (m->n_unplaced + 1) * sizeof(*m->unplaced));
		m->unplaced[m->n_unplaced++] = xstrdup(runner_commit);
	}
	git_commit_free(cc);
	m->seen = xrealloc(m->seen, (m->n_seen + 1) * sizeof(*m->seen));
	m->seen_at = xrealloc(m->seen_at, (m->n_seen + 1) * sizeof(*m->seen_at));
	m->seen[m->n_seen] = xstrdup(runner_commit);
	m->seen_at[m->n_seen++] = at;
	return at;
}

long audit_errata_find_run(const struct audit_errata *e, const struct run_record *r)
{
	/* red team 279 row 1b: the runner's build, not the spec's checkout;
	 * and a record that names its runner's build is set aside by an
	 * erratum of an earlier commit that build has not the fix of (red
	 * team 280); a record written before code.runner is matched by its
	 * commit alone, as it always was (the committed store's findings
	 * stay as they were read) */
	if (!r)
		return -1;
	const char *c = record_runner_commit(&r->runner, &r->git);
	int named = r->runner.have && r->runner.commit && c == r->runner.commit;
	return named ? audit_errata_find_later(e, c) : audit_errata_find(e, c);
}

void audit_errata_release(struct audit_errata *e)
{
	for (size_t i = 0; i < e->n; i++) {
		free(e->commit[i]);
		free(e->fixed[i]);
		free(e->why[i]);
	}
	free(e->commit);
	free(e->fixed);
	free(e->why);
	for (size_t k = 0; k < e->n_seen; k++)
		free(e->seen[k]);
	free(e->seen);
	free(e->seen_at);
	for (size_t k = 0; k < e->n_unplaced; k++)
		free(e->unplaced[k]);
	free(e->unplaced);
	if (e->repo) {
		git_repository_free(e->repo);
		git_libgit2_shutdown();
	}
	memset(e, 0, sizeof(*e));
}
