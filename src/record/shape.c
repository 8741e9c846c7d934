/*
 * shape.c - a recorded problem's shape as its readers compare shapes
 * (contract in record.h): its dims as one "R=4096 C=2048" string, its
 * work (FLOPs, else the fewest bytes), and whether one shape reaches at
 * least another in every dimension.  eval (run/eval.c), a search's
 * confirmation through it, and the audit (report/audit_verdict.c) weigh a
 * comparison of two runner's processes made at another shape by these,
 * one definition for all (red team 294 row 1: the work alone let a shape
 * of more FLOPs and fewer rows stand for a larger one).
 */
#include "record/record.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"

char *rec_problem_shape(const struct rec_problem *x)
{
	struct strbuf sb = STRBUF_INIT;
	for (size_t i = 0; i < x->n_dims && i < 8; i++)
		strbuf_addf(&sb, "%s%s=%lld", i ? " " : "", x->dim_names[i] ? x->dim_names[i] : "?", x->dims[i]);
	return sb.buf ? strbuf_detach(&sb, NULL) : xstrdup("");
}

double rec_problem_work(const struct rec_problem *x)
{
	if (isfinite(x->flops) && x->flops > 0)
		return x->flops;
	return isfinite(x->min_bytes) && x->min_bytes > 0 ? x->min_bytes : NAN;
}

/* The value of dimension name (len bytes) in shape s ("R=4096 C=2048"):
 * 1 with *v, 0 where s has no such dimension or an unreadable one. */
static int shape_dim(const char *s, const char *name, size_t len, long long *v)
{
	while (s && *s) {
		while (*s == ' ')
			s++;
		const char *eq = strchr(s, '='), *sp = strchr(s, ' ');
		if (!eq || (sp && sp < eq))
			return 0;
		if ((size_t)(eq - s) == len && !strncmp(s, name, len)) {
			char *end;
			*v = strtoll(eq + 1, &end, 10);
			return end != eq + 1 && (*end == ' ' || !*end);
		}
		s = sp;
	}
	return 0;
}

int rec_shape_covers(const char *big, const char *small)
{
	if (!big || !small || !*small)
		return 0;
	int n_big = 0, n_small = 0;
	for (const char *s = big; (s = strchr(s, '=')); s++)
		n_big++;
	for (const char *s = small; *s;) {
		while (*s == ' ')
			s++;
		if (!*s)
			break;
		const char *eq = strchr(s, '='), *sp = strchr(s, ' ');
		if (!eq || (sp && sp < eq))
			return 0;
		long long vs, vb;
		char *end;
		vs = strtoll(eq + 1, &end, 10);
		if (end == eq + 1 || !shape_dim(big, s, (size_t)(eq - s), &vb) || vb < vs)
			return 0;
		n_small++;
		s = sp ? sp : eq + strlen(eq);
	}
	return n_small > 0 && n_small == n_big;
}
