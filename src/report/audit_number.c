/*
 * audit_number.c - numbers as prose and claims write them: "1,234.5 us",
 * "-0.27", "1.4x", "$0.16", with the unit families a number may trace
 * (a time traces only a time), and the family of each recorded statistic.
 * The claim rules and the untraced-number scan read numbers only through
 * here; audit_parse_number (audit.h) is the public face.
 */
#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "report/audit_internal.h"

/* ---------- units and numbers as written ---------- */

const char *const audit_fam_names[] = {
	"a plain number", "a time (us, ms, s, ...)", "a ratio (x)", "a percentage", "a bandwidth (GB/s, ...)",
	"a FLOP rate (GFLOP/s, ...)", "a size (bytes, MiB, ...)", "money ($, USD)", "a count of seeds",
	"a count of samples", "a quantity no statistic records (FLOP, EUR, ...)",
};

#define NC U_NOCASE
/* A unit matches only when no letter, digit or '_' follows it, so order
 * matters only between units that are prefixes of each other ("MB" of
 * "MB/s").  U_NOCASE where a case changes no meaning (red team 86: "MS",
 * "uS", "USEC", "Percent", "2.84X" were no unit); sizes and bandwidths
 * keep their case ("Gb/s" is gigabits, an eighth of "GB/s"), and so do
 * the one-letter "s" and "h". */
const struct unit audit_units[] = {
	{ "GFLOP/s", F_FLOPS, 1, NC }, { "TFLOP/s", F_FLOPS, 1e3, NC }, { "PFLOP/s", F_FLOPS, 1e6, NC },
	{ "MFLOP/s", F_FLOPS, 1e-3, NC }, { "FLOP/s", F_FLOPS, 1e-9, NC },
	{ "GFLOP/sec", F_FLOPS, 1, NC }, { "TFLOP/sec", F_FLOPS, 1e3, NC }, { "PFLOP/sec", F_FLOPS, 1e6, NC },
	{ "MFLOP/sec", F_FLOPS, 1e-3, NC }, { "FLOP/sec", F_FLOPS, 1e-9, NC },
	/* GFLOPS, Gflops, GFlops, ... (red team 33: "9.5 Gflop/s" passed the scan unseen) */
	{ "GFLOPS", F_FLOPS, 1, NC }, { "TFLOPS", F_FLOPS, 1e3, NC }, { "PFLOPS", F_FLOPS, 1e6, NC },
	{ "MFLOPS", F_FLOPS, 1e-3, NC }, { "FLOPS", F_FLOPS, 1e-9, NC },
	/* a count of operations: no statistic records one */
	{ "GFLOP", F_OTHER, 1, NC }, { "TFLOP", F_OTHER, 1, NC }, { "PFLOP", F_OTHER, 1, NC },
	{ "MFLOP", F_OTHER, 1, NC }, { "FLOP", F_OTHER, 1, NC },
	{ "GB/s", F_BW, 1, 0 }, { "TB/s", F_BW, 1e3, 0 }, { "MB/s", F_BW, 1e-3, 0 },
	{ "GB/sec", F_BW, 1, 0 }, { "TB/sec", F_BW, 1e3, 0 }, { "MB/sec", F_BW, 1e-3, 0 },
	{ "GiB/s", F_BW, 1.073741824, 0 }, { "TiB/s", F_BW, 1099.511627776, 0 }, { "MiB/s", F_BW, 1.048576e-3, 0 },
	{ "GiB/sec", F_BW, 1.073741824, 0 }, { "TiB/sec", F_BW, 1099.511627776, 0 },
	{ "MiB/sec", F_BW, 1.048576e-3, 0 },
	{ "Gbit/s", F_BW, 0.125, 0 }, { "Tbit/s", F_BW, 125, 0 }, { "Mbit/s", F_BW, 1.25e-4, 0 },
	{ "Gbit/sec", F_BW, 0.125, 0 }, { "Tbit/sec", F_BW, 125, 0 }, { "Mbit/sec", F_BW, 1.25e-4, 0 },
	{ "Gb/s", F_BW, 0.125, 0 }, { "Tb/s", F_BW, 125, 0 }, { "Mb/s", F_BW, 1.25e-4, 0 },
	{ "Gbps", F_BW, 0.125, 0 }, { "Tbps", F_BW, 125, 0 }, { "Mbps", F_BW, 1.25e-4, 0 },
	{ "GBps", F_BW, 1, 0 }, { "TBps", F_BW, 1e3, 0 },
	{ "bytes", F_BYTES, 1, 0 }, { "KiB", F_BYTES, 1024.0, 0 }, { "MiB", F_BYTES, 1048576.0, 0 },
	{ "GiB", F_BYTES, 1073741824.0, 0 }, { "TiB", F_BYTES, 1099511627776.0, 0 }, { "KB", F_BYTES, 1e3, 0 },
	{ "kB", F_BYTES, 1e3, 0 }, { "MB", F_BYTES, 1e6, 0 }, { "GB", F_BYTES, 1e9, 0 }, { "TB", F_BYTES, 1e12, 0 },
	{ "\xce\xbcs" /* μs */, F_TIME, 1, 0 }, { "\xc2\xb5s" /* µs */, F_TIME, 1, 0 },
	{ "\xce\xbcsec" /* μsec */, F_TIME, 1, 0 }, { "\xc2\xb5sec" /* µsec */, F_TIME, 1, 0 },
	{ "us", F_TIME, 1, NC }, { "ns", F_TIME, 1e-3, NC }, { "ms", F_TIME, 1e3, NC },
	{ "microseconds", F_TIME, 1, NC }, { "microsecond", F_TIME, 1, NC }, { "microsecs", F_TIME, 1, NC },
	{ "microsec", F_TIME, 1, NC }, { "usecs", F_TIME, 1, NC }, { "usec", F_TIME, 1, NC },
	{ "milliseconds", F_TIME, 1e3, NC }, { "millisecond", F_TIME, 1e3, NC }, { "millisecs", F_TIME, 1e3, NC },
	{ "millisec", F_TIME, 1e3, NC }, { "msecs", F_TIME, 1e3, NC }, { "msec", F_TIME, 1e3, NC },
	{ "nanoseconds", F_TIME, 1e-3, NC }, { "nanosecond", F_TIME, 1e-3, NC }, { "nanosecs", F_TIME, 1e-3, NC },
	{ "nanosec", F_TIME, 1e-3, NC }, { "nsecs", F_TIME, 1e-3, NC }, { "nsec", F_TIME, 1e-3, NC },
	{ "seconds", F_TIME, 1e6, NC }, { "second", F_TIME, 1e6, NC }, { "secs", F_TIME, 1e6, NC },
	{ "sec", F_TIME, 1e6, NC }, { "s", F_TIME, 1e6, 0 },
	{ "minutes", F_TIME, 6e7, NC }, { "minute", F_TIME, 6e7, NC }, { "mins", F_TIME, 6e7, NC },
	{ "min", F_TIME, 6e7, NC },
	{ "hours", F_TIME, 3.6e9, NC }, { "hour", F_TIME, 3.6e9, NC }, { "hrs", F_TIME, 3.6e9, NC },
	{ "hr", F_TIME, 3.6e9, NC }, { "h", F_TIME, 3.6e9, 0 },
	{ "days", F_TIME, 8.64e10, NC }, { "day", F_TIME, 8.64e10, NC },
	{ "weeks", F_TIME, 6.048e11, NC }, { "week", F_TIME, 6.048e11, NC }, { "wks", F_TIME, 6.048e11, NC },
	{ "wk", F_TIME, 6.048e11, NC },
	{ "USD", F_USD, 1, NC }, { "dollars", F_USD, 1, NC }, { "dollar", F_USD, 1, NC }, { "cents", F_USD, 0.01, NC },
	{ "EUR", F_OTHER, 1, NC }, { "euros", F_OTHER, 1, NC }, { "euro", F_OTHER, 1, NC },
	{ "\xe2\x82\xac" /* € */, F_OTHER, 1, 0 }, { "GBP", F_OTHER, 1, 0 },
	{ "\xc3\x97" /* × */, F_RATIO, 1, 0 }, { "\xe2\x9c\x95" /* ✕ */, F_RATIO, 1, 0 },
	{ "\xe2\xa8\x89" /* ⨉ */, F_RATIO, 1, 0 }, { "x", F_RATIO, 1, U_ATTACHED | NC },
	{ "%", F_PCT, 1, 0 }, { "\xef\xbc\x85" /* ％ */, F_PCT, 1, 0 }, { "percent", F_PCT, 1, NC },
	{ "per cent", F_PCT, 1, NC }, { "per-cent", F_PCT, 1, NC }, { "pct", F_PCT, 1, NC },
	{ "-fold", F_RATIO, 1, U_ATTACHED | NC }, { "fold", F_RATIO, 1, NC },
	/* "3.8 times": a ratio when decimal or followed by a comparison
	 * ("3 times faster", "2 times the baseline"), else a count ("ran 3
	 * times"): times_is_ratio */
	{ "times", F_RATIO, 1, NC },
	{ "seeds", F_SEEDS, 1, 0 }, { "seed", F_SEEDS, 1, 0 },
	{ "samples", F_SAMPLES, 1, 0 }, { "sample", F_SAMPLES, 1, 0 },
};
#undef NC
const size_t audit_n_units = ARRAY_SIZE(audit_units);
const struct unit audit_unit_dollar = { "$", F_USD, 1, 0 };
const struct unit audit_unit_euro = { "\xe2\x82\xac", F_OTHER, 1, 0 };
const struct unit audit_unit_pound = { "\xc2\xa3", F_OTHER, 1, 0 };

size_t audit_unit_at(const char *s, const struct unit *u)
{
	size_t ul = strlen(u->text);
	if ((u->flags & U_NOCASE) ? strncasecmp(s, u->text, ul) : strncmp(s, u->text, ul))
		return 0;
	return ul;
}

/* Width of a space we accept between number and unit (ASCII, NBSP, thin,
 * narrow NBSP; the untraced scan reads prose rendered, every run of
 * whitespace one space).  strncmp, not memcmp: s may end (its NUL) before
 * the 2 or 3 bytes compared, and memcmp may read them all (ASan at -O1
 * caught it on "12%"; -O2's inlined compare stopped at the first byte). */
static size_t space_len(const char *s)
{
	if (*s == ' ')
		return 1;
	if (!strncmp(s, "\xc2\xa0", 2))
		return 2;
	if (!strncmp(s, "\xe2\x80\x89", 3) || !strncmp(s, "\xe2\x80\xaf", 3))
		return 3;
	return 0;
}

/* "16 times the warps", "4 times its tile": a multiple of a size in a rule, not a result */
static int sizes_follow(const char *after)
{
	static const char *const sizes[] = { "warps", "warp", "threads", "blocks", "block", "tile", "tiles", "rows",
					     "columns", "cols", "elements", "stages", "lanes", "width", "height",
					     "dimension", "number", "count", "size", NULL };
	while (*after == ' ')
		after++;
	for (size_t i = 0; sizes[i]; i++) {
		size_t l = strlen(sizes[i]);
		if (!strncasecmp(after, sizes[i], l) && !isalnum((unsigned char)after[l]))
			return 1;
	}
	return 0;
}

static int times_is_ratio(const struct num *n, const char *after)
{
	static const char *const cmp[] = { "faster", "slower", "quicker", "more", "less", "fewer", "higher",
					   "lower", "larger", "smaller", "bigger", "greater", "longer", "shorter",
					   "better", "worse", "as", "the", "that", "its", "their", NULL };
	if (n->decimal)
		return 1;
	while (*after == ' ')
		after++;
	for (size_t i = 0; cmp[i]; i++) {
		size_t l = strlen(cmp[i]);
		if (!strncmp(after, cmp[i], l) && !isalnum((unsigned char)after[l]))
			return !sizes_follow(after + l);
	}
	return 0;
}

int audit_is_name_byte(unsigned char c)
{
	return isalnum(c) || c == '_';
}

/*
 * "2.84 x faster", "2.84 X." (red team 86): an x after a space is a ratio
 * when a comparison follows, or when the number has a decimal point (no
 * exponent) and no word follows; "64 x N", "1e-5 x sum", "30 x its
 * count" are products.
 */
static int spaced_x_is_ratio(const char *s, const struct num *n, const char *after)
{
	static const char *const cmp[] = { "faster", "slower", "quicker", "speedup", "slowdown", "better",
					   "worse", "higher", "lower", "more", "less", "fewer", NULL };
	if (*after == ' ') {
		for (size_t i = 0; cmp[i]; i++) {
			size_t l = strlen(cmp[i]);
			if (!strncasecmp(after + 1, cmp[i], l) && !isalnum((unsigned char)after[1 + l]))
				return 1;
		}
		if (isalnum((unsigned char)after[1]))
			return 0;
	}
	int point = 0;
	for (size_t k = 0; k < n->unit_off; k++) {
		if (s[k] == 'e' || s[k] == 'E')
			return 0;
		point |= s[k] == '.';
	}
	return point;
}

/* Length of a minus sign at s: '-' or U+2212 '−'; 0 if none. */
size_t audit_minus_len(const char *s)
{
	if (*s == '-')
		return 1;
	if (!strncmp(s, "\xe2\x88\x92", 3))
		return 3;
	return 0;
}

/* Parses a number (and its unit) at s; returns the bytes consumed, 0 if s
 * does not start with one.  A leading minus sign is taken. */
size_t audit_parse_num(const char *s, struct num *n)
{
	const char *p = s;
	char digits[128];
	size_t nd = 0;
	memset(n, 0, sizeof(*n));
	size_t ml = audit_minus_len(p);
	if (ml && isdigit((unsigned char)p[ml])) {
		digits[nd++] = '-';
		p += ml;
	}
	if (!isdigit((unsigned char)*p))
		return 0;
	while (isdigit((unsigned char)*p) || (*p == ',' && isdigit((unsigned char)p[1]) &&
					      isdigit((unsigned char)p[2]) && isdigit((unsigned char)p[3]) &&
					      !isdigit((unsigned char)p[4]))) {
		if (*p != ',' && nd < sizeof(digits) - 24)
			digits[nd++] = *p;
		p++;
	}
	int decimals = 0, exp10 = 0;
	if (*p == '.' && isdigit((unsigned char)p[1])) {
		digits[nd++] = *p++;
		while (isdigit((unsigned char)*p)) {
			if (nd < sizeof(digits) - 24)
				digits[nd++] = *p;
			p++;
			decimals++;
		}
		n->decimal = 1;
	}
	if ((*p == 'e' || *p == 'E') &&
	    (isdigit((unsigned char)p[1]) || ((p[1] == '-' || p[1] == '+') && isdigit((unsigned char)p[2])))) {
		char *end;
		long e = strtol(p + 1, &end, 10);
		exp10 = e > 400 ? 400 : e < -400 ? -400 : (int)e;
		nd += (size_t)snprintf(digits + nd, sizeof(digits) - nd, "e%d", exp10);
		p = end;
		n->decimal = 1;
	}
	digits[nd] = '\0';
	n->v = strtod(digits, NULL);
	n->ulp = 0.5 * pow(10, exp10 - decimals);
	n->len = n->unit_off = (size_t)(p - s);
	/* where a unit may start: attached ("1.4x"), after spaces ("41.7 us"),
	 * after a hyphen ("41.7-ms") or in brackets ("41.7 (ms)", "41.7 [ms]") */
	size_t sp = space_len(p);
	const char *at[4] = { p, sp ? p + sp : NULL, *p == '-' ? p + 1 : NULL, NULL };
	char close = 0;
	if (p[sp] == '(' || p[sp] == '[') {
		at[3] = p + sp + 1;
		close = p[sp] == '(' ? ')' : ']';
	}
	for (size_t i = 0; i < ARRAY_SIZE(audit_units); i++) {
		const struct unit *un = &audit_units[i];
		for (int form = 0; form < 4; form++) {
			const char *u = at[form];
			size_t ul;
			if (!u || !(ul = audit_unit_at(u, un)))
				continue;
			unsigned char next = (unsigned char)u[ul];
			if (audit_is_name_byte(next) || next >= 0x80)
				continue; /* "5 stages", "128x64" */
			if (form == 3 && (char)next != close)
				continue;
			/* "a 1-minute load average", "a 5-second timeout": an integer and a
			 * unit's singular word make a name, "41.7-ms", "3-s" a result */
			if (form == 2 && !n->decimal && ul > 3 && un->text[ul - 1] != 's')
				continue;
			if (un->fam == F_RATIO && ((form && next == ' ' && isdigit((unsigned char)u[ul + 1])) || isdigit(next)))
				continue; /* "4 x 4", "3 × 3", "4x4": a dimension ("1.5x 2.5x" are two ratios) */
			/* "x" after a space: "2.84 x faster", "2.84 X"; "64 x N" is a dimension */
			if ((un->flags & U_ATTACHED) && form != 0 && !(form == 1 && !strcmp(un->text, "x") && spaced_x_is_ratio(s, n, u + ul)))
				continue;
			if (!strcmp(un->text, "times") && !times_is_ratio(n, u + ul))
				continue;
			n->u = un;
			n->unit_off = (size_t)(u - s);
			n->len = (size_t)(u + ul - s) + (form == 3);
			return n->len;
		}
	}
	return n->len;
}

size_t audit_parse_number(const char *s, double *v, const char **unit, size_t *ulen, double *ulp)
{
	struct num n;
	size_t len = audit_parse_num(s, &n);
	*v = n.v;
	*ulp = n.ulp;
	*unit = n.u ? s + n.unit_off : "";
	*ulen = n.u ? strlen(n.u->text) : 0;
	return len;
}

int audit_same_number(double a, double b)
{
	return fabs(a - b) <= 1e-9 * fmax(fabs(a), fabs(b)) + 1e-300;
}

/*
 * The unit family of statistic stat (record.h's table, docs/paper.md
 * "Statistics") and the factor from its recorded value to the family's
 * base unit (gpu_s is recorded in seconds, times in us).
 */
enum fam audit_stat_fam(const char *stat, double *scale)
{
	const struct stat_def *d = record_stat_def(stat);
	*scale = 1;
	switch (d ? d->kind : STAT_PLAIN) {
	case STAT_TIME:
		return F_TIME;
	case STAT_RATIO:
		return F_RATIO;
	case STAT_FLOPS:
		*scale = !strcmp(stat, "tflops") ? 1e3 : 1;
		return F_FLOPS;
	case STAT_BW:
		return F_BW;
	case STAT_USD:
		return F_USD;
	case STAT_P:
		return F_NONE;
	case STAT_PLAIN:
		break;
	}
	if (!strcmp(stat, "gpu_s")) {
		*scale = 1e6;
		return F_TIME;
	}
	if (!strcmp(stat, "n"))
		return F_SAMPLES;
	return F_NONE; /* delta, repeats, max_abs_err */
}
