/*
 * outcome.c - names and meanings of the outcomes (the list is
 * outcome_list.h), for the records, the spec's `expect:`, help and README.
 */
#include "record/record.h"

#include <string.h>

static const char *const names[] = {
#define X(e, name, meaning) name,
	OUTCOME_LIST(X)
#undef X
};

static const char *const meanings[] = {
#define X(e, name, meaning) meaning,
	OUTCOME_LIST(X)
#undef X
};

const char *outcome_name(enum outcome o)
{
	return (unsigned)o < OUTCOME_COUNT ? names[o] : "unknown";
}

const char *outcome_meaning(enum outcome o)
{
	return (unsigned)o < OUTCOME_COUNT ? meanings[o] : "an outcome this evident does not know (a newer record)";
}

int outcome_parse(const char *name, enum outcome *o)
{
	for (unsigned i = 0; name && i < OUTCOME_COUNT; i++)
		if (!strcmp(names[i], name)) {
			*o = (enum outcome)i;
			return 0;
		}
	return -1;
}

const char *outcome_names(void)
{
	static char buf[1024];
	if (!buf[0]) {
		size_t n = 0;
		for (unsigned i = 0; i < OUTCOME_COUNT && n < sizeof(buf); i++)
			n += (size_t)snprintf(buf + n, sizeof(buf) - n, "%s%s", i ? ", " : "", names[i]);
	}
	return buf;
}

const char *outcome_suggest(const char *name)
{
	const char *best = NULL;
	int bd = 4;
	for (unsigned i = 0; name && i < OUTCOME_COUNT; i++) {
		int d = edit_distance(name, names[i]);
		if (d < bd) {
			bd = d;
			best = names[i];
		}
	}
	return best;
}

/*
 * A spec's expect: names one outcome or several ("flaky or escaped_work",
 * the form spec.c writes for a list): a cheat that a race lets either of
 * two mechanisms catch is caught either way, and an `ok` is never among
 * the others (spec.c refuses a list holding ok).  Without an expect:, ok.
 */
int outcome_as_expected(enum outcome o, const char *expect)
{
	if (!expect)
		return o == OUTCOME_OK;
	const char *p = expect;
	for (;;) {
		const char *end = strstr(p, " or ");
		size_t n = end ? (size_t)(end - p) : strlen(p);
		char name[64];
		enum outcome want;
		if (n && n < sizeof(name)) {
			memcpy(name, p, n);
			name[n] = 0;
			if (!outcome_parse(name, &want) && o == want)
				return 1;    /* want is never OUTCOME_UNKNOWN */
		}
		if (!end)
			return 0;
		p = end + 4;
	}
}
