/*
 * rejudge.c - does a failure recorded under one build of a problem
 * plug-in still fail under another?  Asked of the two builds' own objects
 * (each run keeps its plug-in's object in the store, run/plan.c
 * plan_keep_plugin), each in a box of its own (problem_box.c
 * problem_judge_values): at the failed check's shape (for a check at the
 * extra shape, the one the run recorded: the runner draws it per run,
 * check_shape_json) and distribution, the failing build draws inputs and
 * computes its reference; the current build computes its reference on
 * those very inputs and says how far its own draw is from them.  Twice:
 * on inputs drawn for the question (a seed from the OS, once a process)
 * and on the check's own recorded draw.  The gap between the two
 * references, against the failure's excess over the rule, says whether
 * the failure stands.
 *
 * Why not by a hash (code_identity.c's fingerprints): a hash says only
 * "equal" or "not", and "not" cleared every failure, so a reference
 * nudged by 4e-6 in one entry (inside softmax's rule of 1e-5) cleared a
 * cheat's failure at 1e-3 (validated and faster supported 3 of 3, eval
 * promoted), and a hash taken on fixed inputs is blind to a reference
 * bent everywhere but there (red team 238 row 5).  Here a new build
 * clears a failure only where its reference moved, on inputs nobody
 * could know before and on the failure's own, by more than the
 * failure's excess over the rule: a build that clears a cheat's failure
 * at 100x the rule judges an honest code off by as much, and one that
 * refuted an honest code is told from the current build at the shape it
 * failed at, whether or not the current build ever ran there (238 row 4).
 *
 * And, from the same kept objects, the problem's rule at a run's drawn
 * extra shape where its record does not keep it (a runner older than red
 * team 289's fix; red team 298 row 3): record.h record_drawn_rule's
 * answers, set up by rejudge_drawn_rule_setup.
 */
#include "report/rejudge.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "backends/problem.h"
#include "base/util.h"

/* relative gaps under this are one judge (another order of the same sums
 * moves a double reference by ulps) */
#define SAME_JUDGE_GAP 1e-12
/* the margin a gap on inputs drawn for the question is counted with: a
 * failure stands where it fails the rule by more than this many times the
 * gap in general (a gap moves with the inputs: red team 238's exp(1.001 x)
 * by 8x between two draws of softmax's "large") */
#define FRESH_MARGIN 8.0
/* two draws of a distribution this close (problem_box.c draw_gap: their
 * root mean squares, largest magnitudes and means, the worst input
 * tensor) are one distribution, and the references are compared on the
 * failing build's inputs (a fill moved by an ulp, or drawn by another
 * generator, keeps every failure on it); farther, the failure was on
 * inputs the current build does not draw (a fill bent to magnitudes an
 * honest code cannot take denies nothing) */
#define SAME_FILL_GAP 0.1
/* the failed checks weighed on their own draws, the worst first */
#define MAX_OWN_DRAWS 8

/* the two builds' references at one shape and draw */
struct gap {
	int ok;          /* 0: cannot tell (no values from one of the builds) */
	double fill_gap; /* the current build's draw against the failing one's (draw_gap) */
	double rd2;      /* ||a - b|| / ||a||, both on the failing build's inputs */
	double rdm;      /* max |a - b| / max |a| */
	double amax;     /* max |a|: the failing build's reference's scale there */
	double tol[3];   /* the looser of the two builds' rules there */
	int loosened;    /* the current build's rule is looser in a field */
	/* the failing build's draw after its reference ran, and its reference,
	 * by hash (problem.h problem_draw_sha256); "" where its box gave none */
	char in_sha[SHA256_HEX_LEN + 1], ref_sha[SHA256_HEX_LEN + 1];
	/* the two builds' focus entries at the question's key on the failing
	 * build's draw, by hash (problem_focus_sha256), "none" where a build
	 * has no focus there; "" where not asked or not answered */
	char focus_a[SHA256_HEX_LEN + 1], focus_b[SHA256_HEX_LEN + 1];
	double tol_a[3]; /* the failing build's own rule there, as its box gives it */
	/* the current build's box would not answer where the failing
	 * build's did (an error, "too costly" from its own flops() among
	 * them): what it will not re-judge, it does not clear (red team 272's
	 * reftag: a fill tagged by an ulp and a box that refused, validated
	 * supported 3 of 3 through the fingerprints) */
	int b_refused;
};

/* one question's answer, kept for the process */
struct gap_memo {
	char *key;
	struct gap g;
};
static struct gap_memo *memo;
static size_t n_memo;

/* a box's "outputs" (problem_judge_values: doubles in base64) decoded:
 * a new array the caller frees, its length in *n; NULL where it is not
 * such a string */
static double *values_of(json_t *v, size_t *n)
{
	const char *s = json_string_value(v);
	size_t bytes = 0;
	double *d = s ? b64_decode(s, &bytes) : NULL;
	*n = bytes / sizeof(double);
	if (d && bytes % sizeof(double)) {
		free(d);
		d = NULL;
	}
	return d;
}

/* p's shape as a JSON array of its keys' values (a new reference) */
static json_t *dims_json(const struct rec_problem *p)
{
	json_t *shape = json_array();
	for (size_t i = 0; i < p->n_dims && i < 8; i++)
		json_array_append_new(shape, json_integer(p->dims[i]));
	return shape;
}

/*
 * The shape to ask a box for at role of r (a new array), and the role to
 * ask it with (*box_role): for role "extra", the extra shape r recorded,
 * every key of it, asked as "run" (the box checks it with the plug-in's
 * check() and answers at it as is): the runner draws each run's extra
 * shape under the plug-in's (red team 274 row 2), so the plug-in's
 * extra_shape() of r's shape is not the shape r's check ran at.  Else
 * r's shape and role as given (an older record, or one without the
 * extra shape's keys: the box derives the plug-in's own, which is what
 * such a record checked).
 */
static json_t *check_shape_json(const struct run_record *r, const char *role, const char **box_role)
{
	*box_role = role;
	if (!strcmp(role, "extra") && json_is_object(r->extra_shape) && r->problem.n_dims) {
		json_t *shape = json_array();
		for (size_t i = 0; i < r->problem.n_dims && i < 8; i++) {
			json_t *v = r->problem.dim_names[i] ? json_object_get(r->extra_shape, r->problem.dim_names[i]) : NULL;
			if (!json_is_integer(v)) {
				json_decref(shape);
				return dims_json(&r->problem);
			}
			json_array_append_new(shape, json_integer(json_integer_value(v)));
		}
		*box_role = "run";
		return shape;
	}
	return dims_json(&r->problem);
}

/* check_shape_json's shape as text, for a memo key (caller frees) */
static char *check_shape_key(const struct run_record *r, const char *role)
{
	const char *br;
	json_t *sh = check_shape_json(r, role, &br);
	char *t = json_dumps(sh, JSON_COMPACT);
	json_decref(sh);
	char *k = xstrfmt("%s %s", br, t ? t : "-");
	free(t);
	return k;
}

/* the gap between reference outputs a (the failing build's) and b */
static void gap_of(json_t *ja, json_t *jb, struct gap *g)
{
	size_t n = 0, nb = 0;
	double *a = values_of(ja, &n), *b = values_of(jb, &nb);
	if (!a || !b || n != nb) {
		free(a);
		free(b);
		g->ok = 0;
		return;
	}
	double na2 = 0, d2 = 0, amax = 0, dmax = 0;
	for (size_t i = 0; i < n; i++) {
		double x = a[i], y = b[i], d;
		if (isnan(x) && isnan(y))
			d = 0;
		else if (!isfinite(x) || !isfinite(y))
			d = x == y ? 0 : INFINITY;
		else
			d = fabs(x - y);
		if (isfinite(x)) {
			na2 += x * x;
			if (fabs(x) > amax)
				amax = fabs(x);
		}
		d2 += d * d;
		if (d > dmax)
			dmax = d;
	}
	free(a);
	free(b);
	g->amax = amax;
	g->rd2 = d2 == 0 ? 0 : na2 > 0 ? sqrt(d2 / na2) : INFINITY;
	g->rdm = dmax == 0 ? 0 : amax > 0 ? dmax / amax : INFINITY;
}

static void tol_of(json_t *v, double t[3])
{
	json_t *a = json_object_get(v, "tolerance");
	for (int k = 0; k < 3; k++)
	{
		const char *x = json_string_value(json_array_get(a, (size_t)k));
		t[k] = json_array_size(a) == 3 && x ? strtod(x, NULL) : NAN;
	}
}

/*
 * The kept plug-in object sha of q's store, checked: read with the store's
 * reader (store_get, which hashes the bytes against the name) and written
 * to a private file, whose path is returned (malloc'd; the caller unlinks
 * and frees it), so that what a box loads is what was hashed.  NULL where
 * the object is absent, or is not its own bytes (another file put at its
 * name, a link, damage: red team 249's lead), which counts as absent, with
 * a warning once a process naming it and why.
 */
static char *kept_object(struct query *q, const char *sha)
{
	static char warned[16][SHA256_HEX_LEN + 1];
	static size_t n_warned;
	char *path = store_object_path(&q->st, sha);
	int there = access(path, F_OK) == 0;
	free(path);
	if (!there)
		return NULL;
	struct strbuf bytes = STRBUF_INIT;
	int saved = util_quiet;
	util_quiet = 1;
	int rc = store_get(&q->st, sha, &bytes);
	util_quiet = saved;
	if (rc < 0) {
		path = store_object_path(&q->st, sha);
		size_t k = 0;
		while (k < n_warned && strcmp(warned[k], sha))
			k++;
		if (k == n_warned) {
			warning("the problem object kept at %s is not the object its name says (its bytes do not "
				"hash to its name, or cannot be read): it is not loaded, as if it were absent, and "
				"failures judged by it are weighed without it (run evident verify)",
				path);
			if (n_warned < 16)
				snprintf(warned[n_warned++], SHA256_HEX_LEN + 1, "%s", sha);
		}
		free(path);
		strbuf_release(&bytes);
		return NULL;
	}
	const char *tmpdir = getenv("TMPDIR");
	char *copy = xstrfmt("%s/evident-plugin-XXXXXX", tmpdir && *tmpdir ? tmpdir : "/tmp");
	int fd = mkstemp(copy);
	if (fd < 0 || write_all(fd, strbuf_str(&bytes), bytes.len) < 0 || close(fd) < 0) {
		if (fd >= 0)
			unlink(copy);
		free(copy);
		copy = NULL;
	}
	strbuf_release(&bytes);
	return copy;
}

/* The gap between build a's (r's) and build b's references at r's shape
 * (role "extra": a's extra shape of it), both on the inputs a draws for
 * distribution dist from seed, and how far b's own draw is from them;
 * with b_draws, both on the inputs b draws, and how far a's draw is from
 * them; g->ok 0 where either gave none.  Kept for the process. */
static void gap_at(struct query *q, const struct run_record *r, const char *b_sha, const char *role,
		   const char *dist, uint64_t seed, const char *focus_key, int b_draws, struct gap *g)
{
	memset(g, 0, sizeof(*g));
	if (!dist)
		return;
	const char *a_sha = r->problem.plugin_sha256;
	struct strbuf key = STRBUF_INIT;
	strbuf_addf(&key, "%s %s %s %s %s %s %llu %s %d", a_sha, b_sha, role, r->problem.name,
		    r->problem.dtype ? r->problem.dtype : "", dist, (unsigned long long)seed, focus_key ? focus_key : "-",
		    b_draws);
	for (size_t i = 0; i < r->problem.n_dims && i < 8; i++)
		strbuf_addf(&key, " %lld", r->problem.dims[i]);
	char *at = check_shape_key(r, role); /* the extra shape r recorded */
	strbuf_addf(&key, " %s", at);
	free(at);
	for (size_t i = 0; i < n_memo; i++)
		if (!strcmp(memo[i].key, key.buf)) {
			*g = memo[i].g;
			strbuf_release(&key);
			return;
		}
	/* each object checked against its name, and loaded from a private
	 * copy of the bytes checked */
	char *pa = kept_object(q, a_sha), *pb = pa ? kept_object(q, b_sha) : NULL;
	const char *box_role;
	json_t *shape = check_shape_json(r, role, &box_role);
	int dtype = dtype_from_name(r->problem.dtype ? r->problem.dtype : "fp32");
	struct strbuf why = STRBUF_INIT;
	json_t *va = NULL, *vb = NULL;
	if (pa && pb && dtype > 0) {
		/* the drawing build first, then the other at the very shape,
		 * on the very inputs */
		json_t *v1 = problem_judge_values(b_draws ? pb : pa, r->problem.name, shape, box_role, focus_key, 0, dist, seed,
						  dtype, NULL, &why);
		json_t *ins = json_object_get(v1, "inputs"), *v2 = NULL;
		if (json_is_string(ins))
			v2 = problem_judge_values(b_draws ? pa : pb, r->problem.name, json_object_get(v1, "shape"), "run",
						  focus_key, 0, dist, seed, dtype, ins, &why);
		va = b_draws ? v2 : v1;
		vb = b_draws ? v1 : v2;
		g->b_refused = !vb && (b_draws || va);
		if (!va || !vb) {
			json_decref(v1);
			json_decref(v2);
			va = vb = NULL;
		}
	}
	if (va && vb) {
		double ta[3], tb[3];
		tol_of(va, ta);
		tol_of(vb, tb);
		memcpy(g->tol_a, ta, sizeof(ta));
		g->ok = 1;
		for (int k = 0; k < 3; k++) {
			g->tol[k] = isfinite(ta[k]) && isfinite(tb[k]) ? (ta[k] > tb[k] ? ta[k] : tb[k]) : NAN;
			g->ok &= isfinite(g->tol[k]);
			g->loosened |= tb[k] > ta[k];
		}
		const char *ih = json_string_value(json_object_get(va, "check_inputs_sha256"));
		const char *rh = json_string_value(json_object_get(va, "ref_sha256"));
		snprintf(g->in_sha, sizeof(g->in_sha), "%s", ih && strlen(ih) == SHA256_HEX_LEN ? ih : "");
		snprintf(g->ref_sha, sizeof(g->ref_sha), "%s", rh && strlen(rh) == SHA256_HEX_LEN ? rh : "");
		const char *fa = json_string_value(json_object_get(va, "focus_sha256"));
		const char *fb = json_string_value(json_object_get(vb, "focus_sha256"));
		snprintf(g->focus_a, sizeof(g->focus_a), "%s", fa ? fa : "");
		snprintf(g->focus_b, sizeof(g->focus_b), "%s", fb ? fb : "");
		const char *fg = json_string_value(json_object_get(b_draws ? va : vb, "fill_gap"));
		g->fill_gap = fg ? strtod(fg, NULL) : NAN;
		g->ok &= !isnan(g->fill_gap);
		if (g->ok)
			gap_of(json_object_get(va, "outputs"), json_object_get(vb, "outputs"), g);
	}
	json_decref(va);
	json_decref(vb);
	json_decref(shape);
	strbuf_release(&why);
	if (pa)
		unlink(pa);
	if (pb)
		unlink(pb);
	free(pa);
	free(pb);
	memo = xrealloc(memo, (n_memo + 1) * sizeof(*memo));
	memo[n_memo++] = (struct gap_memo){ strbuf_detach(&key, NULL), *g };
}

/* Does check c fail rule t for sure against a reference m2 (relative L2)
 * and mm (relative to the largest entry, in each entry) away from the one
 * it was judged by?  The code's error against the other is at least the
 * recorded one less that much. */
static int fails_by_margin(const struct rec_check *c, const double t[3], double m2, double mm)
{
	if (c->nan_count > 0 || c->unwritten > 0)
		return 1;
	if (isfinite(c->rel_l2) && (c->rel_l2 - m2) / (1 + m2) > t[2])
		return 1;
	double scale = c->ref_scale;
	return isfinite(c->max_abs_err) && isfinite(scale) &&
	       c->max_abs_err - mm * scale > (t[0] + t[1]) * scale * (1 + mm);
}

static int cmp_excess(const void *x, const void *y)
{
	const struct rec_check *a = *(const struct rec_check *const *)x, *b = *(const struct rec_check *const *)y;
	double ea = isfinite(a->rel_l2) ? a->rel_l2 : INFINITY, eb = isfinite(b->rel_l2) ? b->rel_l2 : INFINITY;
	return ea < eb ? 1 : ea > eb ? -1 : 0;
}

/* A check at the extra shape is weighed by the rule the runner judged it
 * by, which the run recorded, not by either build's rule at the extra
 * shape (red team 272's xtol: a build whose rule was 1e-2 where C is odd,
 * the extra shape's, cleared a cheat failing there at 1e-3, validated
 * supported 4 of 4, though its own checker failed it).  Since red team
 * 289 that is the problem's rule at the drawn shape (job.c
 * check_tolerance; the record's extra_shape.tolerance.problem, as the
 * run's checks are weighed by the problem's rule, not a spec's field);
 * an older record, whose shape checks the runner judged by the problem's
 * rule at the run's shape, by the drawn shape's where it can be had
 * (record_drawn_rule: red team 298 row 3, an older runner's looser rule
 * there), else by the run's (correctness.tolerance.problem). */
static void rule_of_check(const struct run_record *r, const struct rec_check *c, struct gap *g)
{
	double x[3];
	const double rec[3] = { r->problem_atol, r->problem_rtol, r->problem_rel_l2 };
	if (!(c->phase && !strcmp(c->phase, "shape")))
		return;
	if (record_drawn_rule(r, x)) {
		memcpy(g->tol, x, sizeof(g->tol));
		g->loosened = 0;
		return;
	}
	if (!isfinite(rec[0]) || !isfinite(rec[1]) || !isfinite(rec[2]))
		return;
	memcpy(g->tol, rec, sizeof(rec));
	g->loosened = 0;
}

/* 1: check c stands under the current build; 0: it does not; -1: cannot
 * tell.  fresh_seed: the question's draw. */
static int check_stands(struct query *q, const struct run_record *r, const char *now_sha, const struct rec_check *c,
			uint64_t fresh_seed, int own_too)
{
	if (c->nan_count > 0 || c->unwritten > 0)
		return 1; /* fails any rule against any reference */
	const char *role = c->phase && !strcmp(c->phase, "shape") ? "extra" : "run";
	struct gap g;
	int focus_same = -1; /* the two builds' focus on the failure's draw: 1 alike, 0 not, -1 not asked */
	if (c->focus_out > 0 && c->focus_key) {
		/* entries its focus judged out of their bounds: where the
		 * current build's focus names the same entries, values and
		 * bounds on the failure's own draw at its key, it judges them
		 * alike, whatever the whole outputs' gap (red team 264's
		 * launder: a reference moved by 1e-10 cleared a failure only the
		 * focus caught, validated supported 2 of 2) */
		gap_at(q, r, now_sha, role, c->dist, c->seed, c->focus_key, 0, &g);
		if (g.ok && g.focus_a[0] && g.focus_b[0])
			focus_same = strlen(g.focus_a) == SHA256_HEX_LEN && !strcmp(g.focus_a, g.focus_b);
		if (focus_same == 1)
			return 1;
	}
	gap_at(q, r, now_sha, role, c->dist, fresh_seed, NULL, 0, &g);
	if (!g.ok)
		return g.b_refused ? 1 : -1;
	rule_of_check(r, c, &g);
	if (!(g.fill_gap <= SAME_FILL_GAP))
		return 0; /* inputs the current build does not draw */
	if (g.fill_gap == 0 && g.rd2 <= SAME_JUDGE_GAP && g.rdm <= SAME_JUDGE_GAP)
		/* one judge: the failure stands, unless the rule was loosened
		 * past it (judged by the looser), or the focus that judged its
		 * entries one by one is another, when only the whole rule holds
		 * it (red team 264's focus: a build whose focus asked bounds no
		 * output meets refuted an honest code, validated contradicted 3
		 * of 3) */
		return focus_same == 0 ? fails_by_margin(c, g.tol, 0, 0)
				       : !g.loosened || fails_by_margin(c, g.tol, 0, 0);
	/* it stands where the gap in general cannot explain it, or where
	 * the gap on its own inputs cannot: a build that clears it must
	 * judge otherwise there and in general (one bent at the failure's
	 * recorded inputs alone, which the store shows, does not) */
	if (fails_by_margin(c, g.tol, FRESH_MARGIN * g.rd2, FRESH_MARGIN * g.rdm))
		return 1;
	/* two fills that differ in their bits: the current build can tell
	 * the failing build's draw from its own, and bend on it alone (red
	 * team 266's tag: the low bit of 32 inputs set in its own draws, the
	 * reference doubled on any draw without it, validated and faster
	 * supported and eval promoting 3 of 3; build_box_honest holds it on
	 * its own draws only).  So on its own draw too: the failure stands
	 * where the gap there cannot explain it either */
	if (g.fill_gap != 0) {
		struct gap gb;
		gap_at(q, r, now_sha, role, c->dist, fresh_seed, NULL, 1, &gb);
		if (!gb.ok && gb.b_refused)
			return 1;
		rule_of_check(r, c, &gb);
		if (gb.ok && gb.fill_gap <= SAME_FILL_GAP &&
		    fails_by_margin(c, gb.tol, FRESH_MARGIN * gb.rd2, FRESH_MARGIN * gb.rdm))
			return 1;
	}
	if (!own_too)
		return 0;
	struct gap own;
	gap_at(q, r, now_sha, role, c->dist, c->seed, c->focus_key, 0, &own);
	if (!own.ok)
		return own.b_refused ? 1 : -1;
	rule_of_check(r, c, &own);
	return fails_by_margin(c, own.tol, own.rd2, own.rdm);
}

/* does answer x give want at key k? */
static int says(json_t *x, const char *k, const char *want)
{
	const char *s = json_string_value(json_object_get(x, k));
	return s && want && !strcmp(s, want);
}

/* is t (atol, rtol, rel_l2) the rule rec?  1 where a field is not
 * recorded (records before it) */
static int rule_is_at(const double t[3], const double rec[3])
{
	for (int k = 0; k < 3; k++) {
		if (!isfinite(rec[k]))
			continue;
		if (!isfinite(t[k]) || fabs(t[k] - rec[k]) > 1e-9 * fabs(rec[k]))
			return 0;
	}
	return 1;
}

/* is t the problem's own rule r recorded at role's shape: the run's, or
 * (role "extra") the drawn shape's (red team 289; 1 in older records,
 * whose extra shape was judged by the run's rule) */
static int rule_is(const double t[3], const struct run_record *r, const char *role)
{
	const double rec[3] = { r->problem_atol, r->problem_rtol, r->problem_rel_l2 };
	if (!strcmp(role, "extra"))
		return !r->extra_shape_tol_set || rule_is_at(t, r->extra_shape_problem_tol);
	return rule_is_at(t, rec);
}

/* Build sha's (r's problem's kept object) box answer at r's shape (role
 * "extra": its extra shape) for distribution dist from seed, focus at
 * focus_key: hashes only (problem_judge_values hashes_only), so at any
 * number of entries and FLOPs.  A new reference (caller decrefs), or NULL
 * with *absent set where the object is not in the store (else the box
 * would not answer).  Kept for the process. */
static json_t *box_hashes(struct query *q, const struct run_record *r, const char *sha, const char *role,
			  const char *dist, uint64_t seed, const char *focus_key, int *absent)
{
	static struct {
		char *key;
		json_t *v;
		int absent;
	} *kept;
	static size_t n_kept;
	*absent = 0;
	if (!dist) {
		*absent = 1;
		return NULL;
	}
	struct strbuf key = STRBUF_INIT;
	strbuf_addf(&key, "%s %s %s %s %llu %s", sha, role, r->problem.name, dist, (unsigned long long)seed,
		    focus_key ? focus_key : "-");
	for (size_t i = 0; i < r->problem.n_dims && i < 8; i++)
		strbuf_addf(&key, " %lld", r->problem.dims[i]);
	char *at = check_shape_key(r, role); /* the extra shape r recorded */
	strbuf_addf(&key, " %s", at);
	free(at);
	for (size_t i = 0; i < n_kept; i++)
		if (!strcmp(kept[i].key, key.buf)) {
			strbuf_release(&key);
			*absent = kept[i].absent;
			return kept[i].v ? json_incref(kept[i].v) : NULL;
		}
	char *path = kept_object(q, sha);
	json_t *v = NULL;
	if (!path) {
		*absent = 1;
	} else {
		const char *box_role;
		json_t *shape = check_shape_json(r, role, &box_role);
		struct strbuf why = STRBUF_INIT;
		v = problem_judge_values(path, r->problem.name, shape, box_role, focus_key, 1, dist, seed, EV_F32, NULL, &why);
		if (v && json_object_get(v, "error")) {
			json_decref(v);
			v = NULL;
		}
		json_decref(shape);
		strbuf_release(&why);
		unlink(path);
		free(path);
	}
	kept = xrealloc(kept, (n_kept + 1) * sizeof(*kept));
	kept[n_kept].key = strbuf_detach(&key, NULL);
	kept[n_kept].v = v ? json_incref(v) : NULL;
	kept[n_kept++].absent = *absent;
	return v;
}

/* does box answer h give check c's hashes and the rule r recorded at
 * role's shape (rule_is)? */
static int hashes_agree(json_t *h, const struct run_record *r, const struct rec_check *c, const char *role)
{
	double t[3];
	tol_of(h, t);
	return (!c->inputs_sha256 || says(h, "check_inputs_sha256", c->inputs_sha256)) &&
	       (!c->ref_sha256 || says(h, "ref_sha256", c->ref_sha256)) &&
	       (!c->focus_sha256 || !c->focus_key || says(h, "focus_sha256", c->focus_sha256)) &&
	       rule_is(t, r, role);
}

/*
 * Did the failing build judge r's checks by the reference it computes in
 * its box?  A host check records its reference's scale (its largest
 * magnitude, exact; a host check's reference is always the plug-in's
 * float64 one, one launch a check) and, since 2026-12-06 16:40, its
 * inputs and reference outputs by hash, and the build's box, on the
 * check's own draw, must give the same, for every failed check (the
 * first MAX_OWN_DRAWS by their values, the rest by hashes alone: red team
 * 272's mask8 bent its reference everywhere on the stress draws, its
 * worst failures, and in the checker only on uniform ones past the first
 * eight, an honest code refuted 3 of 3).  0 where one differs, or where
 * the build's box will not answer for a check its checker ran (red team
 * 272's refrot: "too costly" from its own flops(), refuted 3 of 3): a
 * build that judged otherwise in its checker's process than it computes
 * elsewhere (red team 244's ckdeny: exp(1.001 x) where argv names
 * __check, an honest code refuted 3 of 3; red team 261's rot: X's rows
 * rotated by one there, the largest magnitude unmoved, refuted 3 of 3)
 * says nothing by its failures.  1 otherwise.  (A build that bends the
 * checker's own memory or report, not its draw or reference, is not
 * told: it runs in the checker's process.)
 */
static int judged_as_it_computes(struct query *q, const struct run_record *r, const char *now_sha,
				 const struct rec_check *const *failed, size_t n_failed)
{
	/* (fp32 only: a host timed sample's inputs are drawn at fp32 whatever
	 * the spec's dtype, which the box's draw at the dtype would not be) */
	if (!r->backend || strcmp(r->backend, "host") || (r->problem.dtype && strcmp(r->problem.dtype, "fp32")))
		return 1;
	for (size_t i = 0; i < n_failed; i++) {
		const struct rec_check *c = failed[i];
		int hashed = (c->inputs_sha256 && *c->inputs_sha256) || (c->ref_sha256 && *c->ref_sha256);
		if (!hashed && (c->nan_count > 0 || c->unwritten > 0 || !isfinite(c->ref_scale)))
			continue;
		const char *role = c->phase && !strcmp(c->phase, "shape") ? "extra" : "run";
		struct gap own = { 0 };
		if (i < MAX_OWN_DRAWS)
			gap_at(q, r, now_sha, role, c->dist, c->seed, c->focus_key, 0, &own);
		if (!own.ok) {
			/* its hashes alone: past the first checks, or a shape too
			 * large for values (red team 269's ckbig: the rotation in
			 * the checker only, at R 1024 x C 1024, refuted an honest
			 * code 3 of 3) */
			if (!hashed)
				continue;
			int absent = 0;
			json_t *h = box_hashes(q, r, r->problem.plugin_sha256, role, c->dist, c->seed, c->focus_key, &absent);
			int differs = h ? !hashes_agree(h, r, c, role) : !absent;
			json_decref(h);
			if (differs)
				return 0;
			continue;
		}
		if ((c->inputs_sha256 && own.in_sha[0] && strcmp(c->inputs_sha256, own.in_sha)) ||
		    (c->ref_sha256 && own.ref_sha[0] && strcmp(c->ref_sha256, own.ref_sha)) ||
		    (c->focus_sha256 && c->focus_key && strcmp(c->focus_sha256, own.focus_a)))
			return 0;
		/* and the rule: the run recorded the problem's own rule as the
		 * runner asked it; its box, asked for the same, must give it
		 * (red team 266's tolden: 1e-9 to the runner, 1e-5 in every
		 * re-judge box, an honest code refuted 3 of 3) */
		if (!rule_is(own.tol_a, r, role))
			return 0;
		if (c->nan_count > 0 || c->unwritten > 0 || !isfinite(c->ref_scale))
			continue;
		double want = own.amax > 0 ? own.amax : 1.0;
		if (fabs(want - c->ref_scale) > 1e-9 * (c->ref_scale > 1 ? c->ref_scale : 1))
			return 0;
	}
	return 1;
}

/*
 * Does the build now_sha compute in its box what its checker computed?
 * Asked on one of its own host runs' recorded checks (one with its inputs
 * and reference by hash, fp32) of the role asked (role "extra": a check
 * at its run's extra shape; "run": a seed or timed one) and distribution
 * dist where it has one (else one of the role, else any): its box draws
 * that check's inputs, then computes its reference on them given back to
 * it, as a re-judge asks it (problem_judge_values with inputs), and both
 * answers must give the recorded hashes.  0 where they do not: a build
 * that tells its box from its checker's process (argv names __problem,
 * not __check: red team 244's open lead) and bends there could clear
 * another build's failures by its box's answers, and its fingerprints are
 * its box's too; its re-judges count for nothing and the failures stand.
 * Held at the role and distribution of the failure it would clear (red
 * team 272: bent at the extra shape only, xbend, or on "large" inputs
 * only, lbend, a build held on one uniform check at the run's shape
 * cleared cheats' failures, validated and faster supported and eval
 * promoting 3 of 3 each).  -2 where such a check is in the store but the
 * box will not answer for it, even by hashes (red team 272's reftag: a box
 * that refused every question, and a fill moved by an ulp, cleared a
 * failure through the fingerprints 3 of 3): as 0.  1 where they agree,
 * -1 where it cannot tell (no such run in the store, no object).  Kept
 * for the process, by build, role and distribution.
 */
static int build_box_honest(struct query *q, const char *now_sha, const char *role, const char *dist)
{
	static struct {
		char *key;
		int v;
	} *seen;
	static size_t n_seen;
	char *key = xstrfmt("%s %s %s", now_sha, role, dist ? dist : "-");
	for (size_t i = 0; i < n_seen; i++)
		if (!strcmp(seen[i].key, key)) {
			free(key);
			return seen[i].v;
		}
	const struct run_record *mine = NULL;
	const struct rec_check *ck = NULL;
	int ck_rank = 0; /* 3: role and distribution; 2: role; 1: any */
	int extra = !strcmp(role, "extra");
	for (size_t i = q->n; i-- > 0 && ck_rank < 3;) { /* the newest first */
		const struct record_attrs *at = &q->e[i].a;
		if (at->is_batch || at->is_search)
			continue;
		const struct run_record *r = query_run_at(q, i);
		if (!r || !r->problem.plugin_sha256 || strcmp(r->problem.plugin_sha256, now_sha) || !r->backend ||
		    strcmp(r->backend, "host") || (r->problem.dtype && strcmp(r->problem.dtype, "fp32")) || !r->problem.name)
			continue;
		for (size_t k = 0; k < r->n_checks && ck_rank < 3; k++) {
			const struct rec_check *c = &r->checks[k];
			if (!c->phase || !c->dist || !c->inputs_sha256 || !c->ref_sha256)
				continue;
			int is_shape = !strcmp(c->phase, "shape");
			if (!is_shape && strcmp(c->phase, "seed") && strcmp(c->phase, "timed"))
				continue;
			int rank = is_shape == extra ? (dist && !strcmp(c->dist, dist) ? 3 : 2) : 1;
			if (rank > ck_rank) {
				mine = r;
				ck = c;
				ck_rank = rank;
			}
		}
	}
	int v = -1;
	const char *ck_role = ck && !strcmp(ck->phase, "shape") ? "extra" : "run";
	char *pb = ck ? kept_object(q, now_sha) : NULL;
	if (pb) {
		const char *box_role;
		json_t *shape = check_shape_json(mine, ck_role, &box_role);
		struct strbuf why = STRBUF_INIT;
		json_t *va = problem_judge_values(pb, mine->problem.name, shape, box_role, ck->focus_key, 0, ck->dist,
						  ck->seed, EV_F32, NULL, &why);
		json_t *ins = json_object_get(va, "inputs");
		json_t *vb = json_is_string(ins) ? problem_judge_values(pb, mine->problem.name, json_object_get(va, "shape"),
									"run", ck->focus_key, 0, ck->dist, ck->seed,
									EV_F32, ins, &why)
						: NULL;
		/* both answers, each hash as the check recorded it (the focus
		 * where the check had one), and the rule its run recorded */
		if (va && vb)
			v = hashes_agree(va, mine, ck, ck_role) && hashes_agree(vb, mine, ck, ck_role);
		json_decref(va);
		json_decref(vb);
		json_decref(shape);
		strbuf_release(&why);
		unlink(pb);
		free(pb);
	}
	if (ck && v == -1) {
		/* a shape too large for values, or a box that gives none: its
		 * hashes alone (its own draw; the draw handed back needs the
		 * values) */
		int absent = 0;
		json_t *h = box_hashes(q, mine, now_sha, ck_role, ck->dist, ck->seed, ck->focus_key, &absent);
		v = h ? hashes_agree(h, mine, ck, ck_role) : absent ? -1 : -2;
		json_decref(h);
	}
	seen = xrealloc(seen, (n_seen + 1) * sizeof(*seen));
	seen[n_seen].key = key;
	seen[n_seen++].v = v;
	return v;
}

int rejudge_counts(struct query *q, const struct run_record *r, const char *now_sha)
{
	if (!r->problem.plugin_sha256 || !now_sha || !r->problem.name || !problem_calls_boxed() ||
	    !store_is_hex64(r->problem.plugin_sha256) || !store_is_hex64(now_sha) || !r->n_checks)
		return -1;
	static uint64_t fresh_seed;
	if (!fresh_seed)
		fresh_seed = (random_secret_u64() & ((1ULL << 62) - 1)) | 1;
	const struct rec_check **failed = xcalloc(r->n_checks, sizeof(*failed));
	size_t n_failed = 0;
	for (size_t i = 0; i < r->n_checks; i++)
		if (!r->checks[i].pass)
			failed[n_failed++] = &r->checks[i];
	/* a current build that computes otherwise in its box than in its
	 * checker, at the role and distribution of a failure, or whose box
	 * will not say, clears nothing (build_box_honest) */
	for (size_t i = 0; i < n_failed; i++) {
		const struct rec_check *c = failed[i];
		int hb = build_box_honest(q, now_sha, c->phase && !strcmp(c->phase, "shape") ? "extra" : "run", c->dist);
		if (hb == 0 || hb == -2) {
			free(failed);
			return 1;
		}
	}
	qsort(failed, n_failed, sizeof(*failed), cmp_excess);
	int told = 0, unknown = 0, rc = judged_as_it_computes(q, r, now_sha, failed, n_failed) ? -2 : 0;
	for (size_t i = 0; i < n_failed && rc == -2; i++) {
		int st = check_stands(q, r, now_sha, failed[i], fresh_seed, i < MAX_OWN_DRAWS);
		if (st > 0)
			rc = 1;
		else if (st == 0)
			told = 1;
		else
			unknown = 1;
	}
	free(failed);
	if (rc >= 0)
		return rc;
	return unknown || !told ? -1 : 0;
}

/* ---------- the drawn shape's rule of a record that did not record it ----------
 * Red team 298 row 3: an evident built before red team 289's fix (the
 * extra shape judged by the spec shape's rule), started in today's tree,
 * builds and records today's problem code and the drawn extra shape, and
 * no extra_shape.tolerance; rsqrtss in layernorm, outside the problem's
 * rule at a drawn C under ~2900 (the rule grows like sqrt(C)), read `ok`
 * 58 of 60 runs and `validated` and `faster` supported 3 of 5 stores.
 * The rule such a record's shape checks should have been judged by is
 * the problem's at the drawn shape: asked here of the run's own plug-in
 * object where the store keeps it (kept_object), in its box, else of
 * today's build of the problem where the record's code is the working
 * tree's (query_sources_current), else not had (the record is weighed
 * as before, by the run's rule).  Kept per object (or today's build),
 * dtype and shape: artifacts/ holds ~3,600 such records over a few dozen
 * of them, and one box call costs ~45 ms. */

/* the store the objects are read from (rejudge_drawn_rule_setup) */
static struct query drawn_q = QUERY_INIT;

/* one rule asked: of object sha ("today NAME" for today's build), at
 * dtype and shape; have 1 with rule, 0 not had */
static struct drawn_memo {
	char *who;
	int dtype;
	long long shape[8];
	size_t n;
	int have;
	double rule[3];
} *drawn_memo;
static size_t n_drawn_memo;

/* one record's answer, by "RUN_ID PLUGIN_SHA" (a hash table of n_rec_slots,
 * a power of two; cleared when the store changes) */
static struct rec_memo {
	char *key;
	int have;
	double rule[3];
} *rec_memo;
static size_t n_rec_slots, n_rec_used;

/* whether a record's code is current, by its sources' hashes, commit and
 * diff (query_sources_current once for all the records that share them) */
static struct cur_memo {
	char *key;
	int current;
} *cur_memo;
static size_t n_cur_memo;

/* today's builds of problems, loaded once a process (ok 0: would not load) */
static struct today_build {
	char *name;
	int ok;
	struct problem p;
} *today;
static size_t n_today;

static struct rec_memo *rec_slot(const char *key)
{
	if (!n_rec_slots) {
		n_rec_slots = 1024;
		rec_memo = xcalloc(n_rec_slots, sizeof(*rec_memo));
	}
	size_t i = (size_t)str_hash(key) & (n_rec_slots - 1);
	while (rec_memo[i].key && strcmp(rec_memo[i].key, key))
		i = (i + 1) & (n_rec_slots - 1);
	return &rec_memo[i];
}

static void rec_memo_put(char *key, int have, const double rule[3])
{
	if (2 * (n_rec_used + 1) > n_rec_slots) {
		struct rec_memo *old = rec_memo;
		size_t n_old = n_rec_slots;
		n_rec_slots = n_old ? 2 * n_old : 1024;
		rec_memo = xcalloc(n_rec_slots, sizeof(*rec_memo));
		for (size_t i = 0; i < n_old; i++)
			if (old[i].key)
				*rec_slot(old[i].key) = old[i];
		free(old);
	}
	struct rec_memo *m = rec_slot(key);
	m->key = key;
	m->have = have;
	memcpy(m->rule, rule, sizeof(m->rule));
	n_rec_used++;
}

/* r's drawn extra shape, every key of it, as an array into s (n keys):
 * 0 where r did not record it so (an older record: its extra shape was
 * the plug-in's own of r's shape, check_shape_json) */
static int drawn_shape(const struct run_record *r, long long s[8], size_t *n)
{
	const char *br;
	json_t *sh = check_shape_json(r, "extra", &br);
	int ok = !strcmp(br, "run") && json_array_size(sh) >= 1 && json_array_size(sh) <= 8;
	*n = 0;
	for (size_t i = 0; ok && i < json_array_size(sh); i++)
		s[(*n)++] = (long long)json_integer_value(json_array_get(sh, i));
	json_decref(sh);
	return ok;
}

/* p's rule at dtype and shape s (n keys) into t: 1, or 0 where its box
 * gave none */
static int problem_rule_at(const struct problem *p, int dtype, const long long *s, size_t n, double t[3])
{
	if (!p->desc || p->desc->n_keys != (int)n)
		return 0;
	struct ev_tolerance tol;
	problem_tolerance(p, dtype, s, &tol);
	t[0] = tol.atol;
	t[1] = tol.rtol;
	t[2] = tol.rel_l2;
	return isfinite(t[0]) && isfinite(t[1]) && isfinite(t[2]);
}

/* the memo entry of (who, dtype, s), or NULL */
static struct drawn_memo *drawn_memo_of(const char *who, int dtype, const long long *s, size_t n)
{
	for (size_t i = 0; i < n_drawn_memo; i++) {
		struct drawn_memo *m = &drawn_memo[i];
		if (m->dtype == dtype && m->n == n && !memcmp(m->shape, s, n * sizeof(*s)) && !strcmp(m->who, who))
			return m;
	}
	return NULL;
}

static struct drawn_memo *drawn_memo_add(const char *who, int dtype, const long long *s, size_t n)
{
	drawn_memo = xrealloc(drawn_memo, (n_drawn_memo + 1) * sizeof(*drawn_memo));
	struct drawn_memo *m = &drawn_memo[n_drawn_memo++];
	memset(m, 0, sizeof(*m));
	m->who = xstrdup(who);
	m->dtype = dtype;
	m->n = n;
	memcpy(m->shape, s, n * sizeof(*s));
	return m;
}

/* The rule of object sha (problem name) at dtype and s, in its box: 1
 * with t; 0 where its box gave none; -1 where the store does not keep
 * the object (or it is not its own bytes: kept_object). */
static int object_rule(const char *sha, const char *name, int dtype, const long long *s, size_t n, double t[3])
{
	struct drawn_memo *m = drawn_memo_of(sha, dtype, s, n);
	if (!m) {
		char *path = kept_object(&drawn_q, sha);
		m = drawn_memo_add(sha, dtype, s, n);
		m->have = -1;
		if (path) {
			struct problem p = PROBLEM_INIT;
			struct strbuf why = STRBUF_INIT;
			p.name = xstrdup(name);
			/* its description kept for the process by the object's
			 * hash (problem_remote_open), one box for each shape */
			p.build = json_pack("{s:s}", "binary_sha256", sha);
			m->have = problem_remote_open(&p, path, &why) == 0 &&
				  problem_rule_at(&p, dtype, s, n, m->rule);
			problem_release(&p);
			strbuf_release(&why);
			unlink(path);
			free(path);
		}
	}
	if (m->have == 1)
		memcpy(t, m->rule, sizeof(m->rule));
	return m->have;
}

/* The rule of today's build of problem name at dtype and s: 1 with t, 0
 * where it would not build or answer. */
static int today_rule(const char *name, int dtype, const long long *s, size_t n, double t[3])
{
	char *who = xstrfmt("today %s", name);
	struct drawn_memo *m = drawn_memo_of(who, dtype, s, n);
	if (!m) {
		size_t k = 0;
		while (k < n_today && strcmp(today[k].name, name))
			k++;
		if (k == n_today) {
			struct strbuf why = STRBUF_INIT;
			today = xrealloc(today, (n_today + 1) * sizeof(*today));
			today[k].name = xstrdup(name);
			today[k].p = (struct problem)PROBLEM_INIT;
			/* the runner's build cache (cmd_run.c's default) */
			today[k].ok = problem_load(name, "build/cache", &today[k].p, &why) == 0;
			n_today++;
			strbuf_release(&why);
		}
		m = drawn_memo_add(who, dtype, s, n);
		m->have = today[k].ok && problem_rule_at(&today[k].p, dtype, s, n, m->rule);
	}
	free(who);
	if (m->have == 1)
		memcpy(t, m->rule, sizeof(m->rule));
	return m->have == 1;
}

/* is r's code the working tree's (query_sources_current), by what it
 * recorded of it */
static int code_current(const struct run_record *r)
{
	struct strbuf key = STRBUF_INIT;
	strbuf_addf(&key, "%s %s %s %d %s", r->problem.name, r->problem.plugin_sha256,
		    r->git.commit ? r->git.commit : "-", r->git.dirty, r->git.diff_object ? r->git.diff_object : "-");
	for (size_t i = 0; i < r->n_sources; i++)
		strbuf_addf(&key, " %s=%s", r->sources[i].path ? r->sources[i].path : "-",
			    r->sources[i].sha256 ? r->sources[i].sha256 : "-");
	for (size_t i = 0; i < r->problem.n_sources; i++)
		strbuf_addf(&key, " p%s=%s", r->problem.sources[i].path ? r->problem.sources[i].path : "-",
			    r->problem.sources[i].sha256 ? r->problem.sources[i].sha256 : "-");
	for (size_t i = 0; i < n_cur_memo; i++)
		if (!strcmp(cur_memo[i].key, key.buf)) {
			strbuf_release(&key);
			return cur_memo[i].current;
		}
	struct strbuf why = STRBUF_INIT;
	int cur = query_sources_current(&drawn_q, r, &why) == 1;
	strbuf_release(&why);
	cur_memo = xrealloc(cur_memo, (n_cur_memo + 1) * sizeof(*cur_memo));
	cur_memo[n_cur_memo++] = (struct cur_memo){ strbuf_detach(&key, NULL), cur };
	return cur;
}

/* record_drawn_rule's answerer for a record without the rule */
static int drawn_rule_of(const struct run_record *r, double out[3])
{
	const char *sha = r->problem.plugin_sha256, *name = r->problem.name;
	if (!drawn_q.st.root || !name || !r->run_id || !problem_calls_boxed())
		return 0;
	char *key = xstrfmt("%s %s", r->run_id, sha ? sha : "-");
	struct rec_memo *m = rec_slot(key);
	if (m->key) {
		free(key);
		memcpy(out, m->rule, sizeof(m->rule));
		return m->have;
	}
	long long s[8];
	size_t n;
	double t[3] = { NAN, NAN, NAN };
	int dtype = dtype_from_name(r->problem.dtype ? r->problem.dtype : "fp32"), have = 0;
	if (dtype > 0 && drawn_shape(r, s, &n)) {
		int o = sha && store_is_hex64(sha) ? object_rule(sha, name, dtype, s, n, t) : -1;
		have = o == 1 || (o < 0 && code_current(r) && today_rule(name, dtype, s, n, t));
	}
	rec_memo_put(key, have, t);
	memcpy(out, t, sizeof(t));
	return have;
}

void rejudge_drawn_rule_setup(const char *root)
{
	if (drawn_q.st.root && root && !strcmp(drawn_q.st.root, root))
		return;
	store_release(&drawn_q.st);
	drawn_q = (struct query)QUERY_INIT;
	/* another store's run ids are other records */
	for (size_t i = 0; i < n_rec_slots; i++)
		free(rec_memo[i].key);
	free(rec_memo);
	rec_memo = NULL;
	n_rec_slots = n_rec_used = 0;
	int saved = util_quiet;
	util_quiet = 1;
	int open = root && is_dir(root) && store_open(&drawn_q.st, root, 0) == 0;
	util_quiet = saved;
	if (!open) {
		store_release(&drawn_q.st);
		drawn_q = (struct query)QUERY_INIT;
	}
	record_drawn_rule_setup(open ? drawn_rule_of : NULL);
}
