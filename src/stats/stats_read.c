/*
 * stats_read.c - reading sample files for the statistics (stats.h): one
 * plain decimal number per line, blank lines and '#' comments ignored,
 * anything else an error naming FILE:LINE.  The accepted form is spelled
 * out in stats.h; this file enforces it with a small scanner instead of
 * trusting strtod, which would also take hex floats, "nan", "inf" and
 * silently turn 1e-400 into 0.
 *
 * Speed matters (files of 10^7 samples): the file is read whole, scanned
 * in place without a copy per line, and a number of at most 19 significant
 * digits whose decimal exponent is within +-22 is converted exactly
 * (Clinger's fast path: the digits and the power of ten are both exact
 * doubles, so one IEEE multiplication or division rounds correctly); the
 * rest goes to strtod.
 */
#include <errno.h>
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "stats/stats.h"
#include "base/util.h"

#define SAMPLE_HINT "(one sample per line; '#' starts a comment)"

static const double pow10_exact[23] = {
	1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11,
	1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
};

static int is_digit(char c)
{
	return c >= '0' && c <= '9';
}

/* Why a token that is not a plain decimal number was refused (static string). */
static const char *not_a_number(const char *s, size_t len)
{
	if (len && (*s == '+' || *s == '-'))
		s++, len--;
	if ((len == 3 && !strncasecmp(s, "nan", 3)) || (len > 3 && !strncasecmp(s, "nan(", 4)) ||
	    (len == 3 && !strncasecmp(s, "inf", 3)) || (len == 8 && !strncasecmp(s, "infinity", 8)))
		return "is not a finite number; samples must be finite";
	if (len > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))
		return "is a hexadecimal number; write samples as plain decimals such as 12.5 or 1e-3";
	return "is not a number " SAMPLE_HINT;
}

int stats_parse_sample(char *s, size_t len, double *x, const char **why)
{
	const char *p = s, *end = s + len;
	uint64_t mant = 0;
	int neg = 0, sig = 0, inexact = 0, nonzero = 0;
	long exp10 = 0;
	size_t ndigits = 0;

	if (p < end && (*p == '+' || *p == '-'))
		neg = *p++ == '-';
	for (; p < end && is_digit(*p); p++, ndigits++) {
		int d = *p - '0';
		nonzero |= d;
		if (!mant && !d)
			continue; /* leading zero */
		if (sig < 19) {
			mant = mant * 10 + (uint64_t)d;
			sig++;
		} else {
			exp10++;
			inexact |= d;
		}
	}
	if (p < end && *p == '.') {
		for (p++; p < end && is_digit(*p); p++, ndigits++) {
			int d = *p - '0';
			nonzero |= d;
			if (!mant && !d) {
				exp10--;
			} else if (sig < 19) {
				mant = mant * 10 + (uint64_t)d;
				sig++;
				exp10--;
			} else {
				inexact |= d;
			}
		}
	}
	if (!ndigits)
		goto not_number;
	if (p < end && (*p == 'e' || *p == 'E')) {
		int eneg = 0;
		long e = 0;
		p++;
		if (p < end && (*p == '+' || *p == '-'))
			eneg = *p++ == '-';
		if (p == end || !is_digit(*p))
			goto not_number;
		for (; p < end && is_digit(*p); p++)
			if (e < 100000)
				e = e * 10 + (*p - '0');
		exp10 += eneg ? -e : e;
	}
	if (p != end)
		goto not_number;

	if (!nonzero) {
		*x = neg ? -0.0 : 0.0;
		return 0;
	}
	if (!inexact && mant <= (UINT64_C(1) << 53) && exp10 >= -22 && exp10 <= 22) {
		double v = (double)mant;
		v = exp10 < 0 ? v / pow10_exact[-exp10] : v * pow10_exact[exp10];
		*x = neg ? -v : v;
		return 0;
	}
	char saved = s[len];
	s[len] = '\0';
	*x = strtod(s, NULL);
	s[len] = saved;
	if (!isfinite(*x)) {
		*why = "is out of range: larger in magnitude than the largest double (about 1.8e308)";
		return -1;
	}
	if (fabs(*x) < DBL_MIN) {
		*why = "is out of range: not 0 but smaller in magnitude than the smallest normal double "
		       "(about 2.2e-308); write 0 or a larger value";
		return -1;
	}
	return 0;
not_number:
	*why = not_a_number(s, len);
	return -1;
}

static int is_blank(char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v';
}

int stats_read_samples(const char *path, double **out, size_t *n)
{
	struct strbuf sb = STRBUF_INIT;
	double *v = NULL;
	size_t nv = 0, alloc = 0, lineno = 0;
	char *line, *next, *end, *nul;

	*out = NULL;
	*n = 0;
	if (read_file(path, &sb) < 0)
		return -1;
	end = sb.buf + sb.len;
	nul = sb.len ? memchr(sb.buf, '\0', sb.len) : NULL;
	/* one allocation: at most one sample per line */
	for (line = sb.buf; line && line < end; alloc++) {
		line = memchr(line, '\n', (size_t)(end - line));
		line = line ? line + 1 : NULL;
	}
	v = xmalloc((alloc ? alloc : 1) * sizeof(*v));
	for (line = sb.buf; line && line < end; line = next) {
		char *stop, *hash;
		const char *why;
		double x;

		lineno++;
		stop = memchr(line, '\n', (size_t)(end - line));
		next = stop ? stop + 1 : NULL;
		if (!stop)
			stop = end;
		if (nul && nul < stop) {
			error("'%s' line %zu: has a NUL byte; is it a text file? %s", path, lineno, SAMPLE_HINT);
			goto fail;
		}
		if ((hash = memchr(line, '#', (size_t)(stop - line))))
			stop = hash;
		while (line < stop && is_blank(*line))
			line++;
		while (stop > line && is_blank(stop[-1]))
			stop--;
		if (line == stop)
			continue;
		if (stats_parse_sample(line, (size_t)(stop - line), &x, &why) < 0) {
			error("'%s' line %zu: '%.*s' %s", path, lineno,
			      (int)(stop - line < 40 ? stop - line : 40), line, why);
			goto fail;
		}
		v[nv++] = x;
	}
	if (!nv) {
		error("'%s' has no samples %s", path, SAMPLE_HINT);
		goto fail;
	}
	strbuf_release(&sb);
	*out = nv < alloc / 2 ? xrealloc(v, nv * sizeof(*v)) : v;
	*n = nv;
	return 0;
fail:
	free(v);
	strbuf_release(&sb);
	return -1;
}
