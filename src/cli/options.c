/*
 * options.c - the option parser of options.h: walks argv once, stores each
 * option's value through its table row, moves the positionals to the
 * front, and prints the help (and the usage lines of errors) from the same
 * table.  It decides no exit code: -1 after error(), OPT_HELP after help.
 */
#include "cli/options.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"

void opt_list_push(struct opt_list *l, const char *s)
{
	if (l->n + 2 > l->alloc) {
		l->alloc = l->alloc ? 2 * l->alloc : 4;
		l->v = xrealloc(l->v, l->alloc * sizeof(*l->v));
	}
	l->v[l->n++] = s;
	l->v[l->n] = NULL;
}

void opt_list_release(struct opt_list *l)
{
	free(l->v);
	*l = (struct opt_list)OPT_LIST_INIT;
}

void opt_print_usage(const struct opt_usage *u, FILE *f)
{
	const char *end = strstr(u->synopsis, "\n\n");
	size_t n = end ? (size_t)(end - u->synopsis) + 1 : strlen(u->synopsis);
	fwrite(u->synopsis, 1, n, f);
}

int opt_usage_error(const struct opt_usage *u, const char *fmt, ...)
{
	va_list ap;
	struct strbuf sb = STRBUF_INIT;
	va_start(ap, fmt);
	strbuf_vaddf(&sb, fmt, ap);
	va_end(ap);
	error("%s", strbuf_str(&sb));
	strbuf_release(&sb);
	if (!util_quiet)
		opt_print_usage(u, stderr);
	return -1;
}

/* "  -q, --quiet" / "  --store DIR": the left column of a help row. */
static void help_tag(const struct option *o, struct strbuf *sb)
{
	strbuf_addstr(sb, "  ");
	if (o->short_name)
		strbuf_addf(sb, "-%c, ", o->short_name);
	strbuf_addf(sb, "--%s", o->long_name);
	if (o->argh)
		strbuf_addf(sb, " %s", o->argh);
}

void opt_print_help(const struct option *opts, const struct opt_usage *u, FILE *f)
{
	fputs(u->synopsis, f);
	size_t col = 0;
	for (const struct option *o = opts; o->type != OPT_T_END; o++) {
		struct strbuf tag = STRBUF_INIT;
		help_tag(o, &tag);
		if (tag.len > col)
			col = tag.len;
		strbuf_release(&tag);
	}
	if (col) {
		col += 2; /* at least two spaces: scripts/gen-man splits a row there */
		fputs("\noptions:\n", f);
		for (const struct option *o = opts; o->type != OPT_T_END; o++) {
			struct strbuf tag = STRBUF_INIT;
			help_tag(o, &tag);
			fprintf(f, "%-*s", (int)col, strbuf_str(&tag));
			strbuf_release(&tag);
			for (const char *h = o->help ? o->help : "", *nl;; h = nl + 1) {
				nl = strchr(h, '\n');
				fprintf(f, "%.*s\n", nl ? (int)(nl - h) : (int)strlen(h), h);
				if (!nl)
					break;
				fprintf(f, "%*s", (int)col, "");
			}
		}
	}
	if (u->epilogue)
		fprintf(f, "\n%s", u->epilogue);
}

/* An interval "[lo, hi]", "(lo, hi)", "[lo, hi)" ...; a bad one is a bug
 * of the table. */
struct interval {
	double lo, hi;
	int lo_open, hi_open;
};

static struct interval interval_parse(const struct option *o)
{
	struct interval iv;
	char l, r;
	int n = 0;
	if (!o->range || sscanf(o->range, "%c%lf , %lf%c%n", &l, &iv.lo, &iv.hi, &r, &n) != 4 ||
	    o->range[n] || (l != '[' && l != '(') || (r != ']' && r != ')') || !(iv.lo <= iv.hi))
		die("option table: '--%s' has range '%s', not an interval such as [1, 10]", o->long_name,
		    o->range ? o->range : "(none)");
	iv.lo_open = l == '(';
	iv.hi_open = r == ')';
	return iv;
}

/* A table's mistakes are bugs: die on any use of the command (its --help
 * included, which the CLI tests run for every command), not only when the
 * faulty option is given. */
static void check_table(const struct option *opts)
{
	for (const struct option *o = opts; o->type != OPT_T_END; o++) {
		if (!o->long_name || !*o->long_name || !o->value || (o->type != OPT_T_SET_INT && !o->argh) ||
		    (o->type == OPT_T_CALLBACK && !o->cb))
			die("option table: an option without a name, a value, a value's name or a callback");
		if (o->type != OPT_T_INT && o->type != OPT_T_ULONG && o->type != OPT_T_DOUBLE)
			continue;
		struct interval iv = interval_parse(o);
		if (o->type == OPT_T_INT && (iv.lo < INT_MIN || iv.hi > INT_MAX))
			die("option table: '--%s' has range '%s', wider than an int", o->long_name, o->range);
		if (o->type == OPT_T_ULONG && (iv.lo < 0 || iv.hi > 9007199254740992.0 /* 2^53: exact */))
			die("option table: '--%s' has range '%s', outside [0, 2^53]", o->long_name, o->range);
	}
}

static int interval_has(const struct interval *iv, double v)
{
	return (iv->lo_open ? v > iv->lo : v >= iv->lo) && (iv->hi_open ? v < iv->hi : v <= iv->hi);
}

/* A whole decimal integer: optional '-', digits, nothing else. */
static int parse_whole(const char *s, long long *out)
{
	const char *d = s[0] == '-' ? s + 1 : s;
	if (!isdigit((unsigned char)d[0]))
		return -1;
	char *end;
	errno = 0;
	long long v = strtoll(s, &end, 10);
	if (*end || errno)
		return -1;
	*out = v;
	return 0;
}

/* A finite decimal number as strtod reads it, the whole word, no blanks. */
int opt_parse_number(const char *s, double *out)
{
	if (!*s || isspace((unsigned char)s[0]))
		return -1;
	char *end;
	double v = strtod(s, &end); /* an overflow is HUGE_VAL: not finite */
	if (*end || end == s || !isfinite(v))
		return -1;
	*out = v;
	return 0;
}

/* Stores arg through o (a valued option).  Returns 0 or error(). */
static int set_value(const struct option *o, const char *arg)
{
	long long ll;
	double d;
	struct interval iv;
	switch (o->type) {
	case OPT_T_STRING:
		*(const char **)o->value = arg;
		return 0;
	case OPT_T_STRING_LIST:
		opt_list_push(o->value, arg);
		return 0;
	case OPT_T_INT:
	case OPT_T_ULONG:
		iv = interval_parse(o);
		if (parse_whole(arg, &ll) < 0 || !interval_has(&iv, (double)ll))
			return error("--%s: '%s' is not a whole number in %s", o->long_name, arg, o->range);
		if (o->type == OPT_T_INT)
			*(int *)o->value = (int)ll;
		else
			*(unsigned long *)o->value = (unsigned long)ll;
		return 0;
	case OPT_T_DOUBLE:
		iv = interval_parse(o);
		if (opt_parse_number(arg, &d) < 0 || !interval_has(&iv, d))
			return error("--%s: '%s' is not a number in %s", o->long_name, arg, o->range);
		*(double *)o->value = d;
		return 0;
	case OPT_T_CALLBACK:
		return o->cb(o, arg);
	default:
		die("option table: '--%s' has no value to set", o->long_name);
	}
}

/* The long option nearest to name (not NUL-terminated, n bytes), or NULL
 * when none is near enough to suggest. */
static const char *nearest(const struct option *opts, const char *name, size_t n)
{
	char *s = xstrndup(name, n);
	const char *best = NULL;
	int bestd = 3;
	for (const struct option *o = opts; o->type != OPT_T_END; o++) {
		int d = edit_distance(s, o->long_name);
		size_t ln = strlen(o->long_name);
		if (ln < 4 && d > 1)
			continue;
		/* a beginning of a long name counts as near: --no-prog, --exp */
		if (n >= 3 && n < ln && !strncmp(s, o->long_name, n) && d > 1)
			d = 1;
		if (d < bestd) {
			bestd = d;
			best = o->long_name;
		}
	}
	free(s);
	return best;
}

static int unknown(const struct option *opts, const struct opt_usage *u, const char *word, size_t n)
{
	const char *name = word + strspn(word, "-");
	const char *near = nearest(opts, name, n - (size_t)(name - word));
	if (near)
		return opt_usage_error(u, "unknown option '%.*s' for 'evident %s'; did you mean '--%s'?", (int)n, word,
				       u->cmd, near);
	return opt_usage_error(u, "unknown option '%.*s' for 'evident %s'; see 'evident %s --help'", (int)n, word,
			       u->cmd, u->cmd);
}

int parse_options(int argc, const char **argv, const struct option *opts, const struct opt_usage *u)
{
	int npos = 0, only_positionals = 0;
	check_table(opts);
	/* positionals move down to argv[npos], npos < i: nothing unread is overwritten */
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		if (only_positionals || a[0] != '-' || !a[1]) {
			argv[npos++] = a;
			continue;
		}
		if (!strcmp(a, "--")) {
			only_positionals = 1;
			continue;
		}
		if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
			opt_print_help(opts, u, stdout);
			return OPT_HELP;
		}
		const struct option *o = opts;
		const char *eq = NULL;
		size_t n; /* the length of the option's name as given, dashes included */
		if (a[1] == '-') {
			eq = strchr(a, '=');
			n = eq ? (size_t)(eq - a) : strlen(a);
			while (o->type != OPT_T_END && (strlen(o->long_name) != n - 2 || strncmp(o->long_name, a + 2, n - 2)))
				o++;
		} else {
			n = strlen(a);
			while (o->type != OPT_T_END && (n != 2 || o->short_name != a[1]))
				o++;
		}
		if (o->type == OPT_T_END)
			return unknown(opts, u, a, n);
		if (o->type == OPT_T_SET_INT) {
			if (eq)
				return opt_usage_error(u, "option '%.*s' takes no value", (int)n, a);
			*(int *)o->value = o->defval;
			continue;
		}
		const char *val = eq ? eq + 1 : i + 1 < argc ? argv[++i] : NULL;
		if (!val)
			return opt_usage_error(u, "option '%s' needs a value (%s %s)", a, a, o->argh);
		if (!*val)
			return opt_usage_error(u, "option '%.*s' has an empty value; give %s", (int)n, a, o->argh);
		if (set_value(o, val) < 0) {
			if (!util_quiet)
				opt_print_usage(u, stderr);
			return -1;
		}
	}
	argv[npos] = NULL;
	return npos;
}
