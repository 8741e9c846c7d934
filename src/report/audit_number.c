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

#include "report/audit_internal.h"

/* ---------- units and numbers as written ---------- */

const char *const audit_fam_names[] = {
	"a plain number", "a time (us, ms, s, ...)", "a ratio (x)", "a percentage", "a bandwidth (GB/s, ...)",
	"a FLOP rate (GFLOP/s, ...)", "a size (bytes, MiB, ...)", "money ($, USD)", "a count of seeds",
	"a count of samples",
};

/* A unit matches only when no letter, digit or '_' follows it, so order
 * matters only between units that are prefixes of each other ("MB" of
 * "MB/s"). */
const struct unit audit_units[] = {
	{ "GFLOP/s", F_FLOPS, 1, 0 }, { "TFLOP/s", F_FLOPS, 1e3, 0 },
	{ "GFLOPS", F_FLOPS, 1, 0 }, { "TFLOPS", F_FLOPS, 1e3, 0 },
	/* other spellings of the same units (red team 33: "9.5 Gflop/s" passed
	 * the scan unseen) */
	{ "Gflop/s", F_FLOPS, 1, 0 }, { "Tflop/s", F_FLOPS, 1e3, 0 },
	{ "GFlop/s", F_FLOPS, 1, 0 }, { "TFlop/s", F_FLOPS, 1e3, 0 },
	{ "Gflops", F_FLOPS, 1, 0 }, { "Tflops", F_FLOPS, 1e3, 0 },
	{ "GFlops", F_FLOPS, 1, 0 }, { "TFlops", F_FLOPS, 1e3, 0 },
	{ "GB/s", F_BW, 1, 0 }, { "TB/s", F_BW, 1e3, 0 }, { "MB/s", F_BW, 1e-3, 0 },
	{ "bytes", F_BYTES, 1, 0 }, { "KiB", F_BYTES, 1024.0, 0 }, { "MiB", F_BYTES, 1048576.0, 0 },
	{ "GiB", F_BYTES, 1073741824.0, 0 }, { "KB", F_BYTES, 1e3, 0 }, { "MB", F_BYTES, 1e6, 0 },
	{ "GB", F_BYTES, 1e9, 0 },
	{ "\xce\xbcs" /* μs */, F_TIME, 1, 0 }, { "\xc2\xb5s" /* µs */, F_TIME, 1, 0 }, { "us", F_TIME, 1, 0 },
	{ "ns", F_TIME, 1e-3, 0 }, { "ms", F_TIME, 1e3, 0 },
	{ "microseconds", F_TIME, 1, 0 }, { "microsecond", F_TIME, 1, 0 }, { "usec", F_TIME, 1, 0 },
	{ "milliseconds", F_TIME, 1e3, 0 }, { "millisecond", F_TIME, 1e3, 0 }, { "msec", F_TIME, 1e3, 0 },
	{ "nanoseconds", F_TIME, 1e-3, 0 }, { "nanosecond", F_TIME, 1e-3, 0 },
	{ "seconds", F_TIME, 1e6, 0 }, { "second", F_TIME, 1e6, 0 }, { "secs", F_TIME, 1e6, 0 },
	{ "sec", F_TIME, 1e6, 0 }, { "s", F_TIME, 1e6, 0 },
	{ "minutes", F_TIME, 6e7, 0 }, { "minute", F_TIME, 6e7, 0 }, { "mins", F_TIME, 6e7, 0 },
	{ "min", F_TIME, 6e7, 0 },
	{ "hours", F_TIME, 3.6e9, 0 }, { "hour", F_TIME, 3.6e9, 0 }, { "hrs", F_TIME, 3.6e9, 0 },
	{ "hr", F_TIME, 3.6e9, 0 }, { "h", F_TIME, 3.6e9, 0 },
	{ "days", F_TIME, 8.64e10, 0 }, { "day", F_TIME, 8.64e10, 0 },
	{ "USD", F_USD, 1, 0 },
	{ "\xc3\x97" /* × */, F_RATIO, 1, 0 }, { "x", F_RATIO, 1, 1 }, { "%", F_PCT, 1, 0 },
	{ "-fold", F_RATIO, 1, 1 }, { "fold", F_RATIO, 1, 0 },
	/* "3.8 times": a ratio when decimal or followed by a comparison
	 * ("3 times faster", "2 times the baseline"), else a count ("ran 3
	 * times"): times_is_ratio */
	{ "times", F_RATIO, 1, 0 },
	{ "seeds", F_SEEDS, 1, 0 }, { "seed", F_SEEDS, 1, 0 },
	{ "samples", F_SAMPLES, 1, 0 }, { "sample", F_SAMPLES, 1, 0 },
};
const size_t audit_n_units = ARRAY_SIZE(audit_units);
const struct unit audit_unit_dollar = { "$", F_USD, 1, 0 };

/* Width of a space we accept between number and unit (ASCII, NBSP, thin,
 * narrow NBSP).  strncmp, not memcmp: s may end (its NUL) before the 2 or
 * 3 bytes compared, and memcmp may read them all (ASan at -O1 caught it on
 * "12%"; -O2's inlined compare stopped at the first byte). */
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

/*
 * "N times" at u (the unit "times", ul its length) of number n: a ratio
 * when n is written with a decimal point or the next word compares
 * (red team 33: "3.8 times faster" passed the scan unseen); otherwise a
 * count ("ran 3 times"), which is no unit.
 */
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
			return 1;
	}
	return 0;
}

int audit_is_name_byte(unsigned char c)
{
	return isalnum(c) || c == '_';
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
	size_t sp = space_len(p);
	for (size_t i = 0; i < ARRAY_SIZE(audit_units); i++) {
		size_t ul = strlen(audit_units[i].text);
		for (int with_space = 0; with_space <= !audit_units[i].attached_only; with_space++) {
			const char *u = p + (with_space ? sp : 0);
			if (with_space && !sp)
				continue;
			if (strncmp(u, audit_units[i].text, ul))
				continue;
			unsigned char next = (unsigned char)u[ul];
			if (audit_is_name_byte(next) || next >= 0x80)
				continue; /* "5 stages", "128x64" */
			if (audit_units[i].fam == F_RATIO && ((next == ' ' && isdigit((unsigned char)u[ul + 1])) || isdigit(next)))
				continue; /* "4 x 4", "3 × 3": a dimension */
			if (!strcmp(audit_units[i].text, "times") && !times_is_ratio(n, u + ul))
				continue;
			n->u = &audit_units[i];
			n->unit_off = (size_t)(u - s);
			n->len = (size_t)(u + ul - s);
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
