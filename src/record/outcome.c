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

int outcome_as_expected(enum outcome o, const char *expect)
{
	enum outcome want = OUTCOME_OK;
	if (expect && outcome_parse(expect, &want) < 0)
		return 0;
	return o == want;            /* want is never OUTCOME_UNKNOWN */
}
