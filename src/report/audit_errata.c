/*
 * audit_errata.c - the errata file: runs the audit sets aside as the
 * runner's own defects (audit_errata.h says why and the format).
 */
#include <stdlib.h>
#include <string.h>

#include "report/audit_errata.h"
#include "base/util.h"

int audit_errata_load(const char *path, struct audit_errata *e, struct strbuf *err)
{
	struct strbuf in = STRBUF_INIT;
	memset(e, 0, sizeof(*e));
	if (read_file(path, &in) < 0) {
		strbuf_addf(err, "%s: cannot read the errata file", path);
		strbuf_release(&in);
		return -1;
	}
	const char *p = strbuf_str(&in), *end = p + in.len;
	int line = 0, rc = 0;
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *le = nl ? nl : end;
		line++;
		const char *s = p;
		while (s < le && (*s == ' ' || *s == '\t'))
			s++;
		p = nl ? nl + 1 : end;
		if (s == le || *s == '#')
			continue;
		const char *idend = s;
		while (idend < le && *idend != ' ' && *idend != '\t')
			idend++;
		const char *why = idend;
		while (why < le && (*why == ' ' || *why == '\t'))
			why++;
		const char *wend = le;
		while (wend > why && (wend[-1] == ' ' || wend[-1] == '\t' || wend[-1] == '\r'))
			wend--;
		if (why == wend) {
			strbuf_addf(err, "%s:%d: an entry needs a reason after its id (\"ID REASON\")", path, line);
			rc = -1;
			break;
		}
		e->id = xrealloc(e->id, (e->n + 1) * sizeof(*e->id));
		e->why = xrealloc(e->why, (e->n + 1) * sizeof(*e->why));
		e->id[e->n] = xstrndup(s, (size_t)(idend - s));
		e->why[e->n++] = xstrndup(why, (size_t)(wend - why));
	}
	strbuf_release(&in);
	if (rc < 0)
		audit_errata_release(e);
	return rc;
}

const char *audit_errata_why(const struct audit_errata *e, const char *run_id, const char *batch_id)
{
	for (size_t i = 0; e && i < e->n; i++)
		if ((run_id && !strcmp(e->id[i], run_id)) || (batch_id && !strcmp(e->id[i], batch_id)))
			return e->why[i];
	return NULL;
}

void audit_errata_release(struct audit_errata *e)
{
	for (size_t i = 0; i < e->n; i++) {
		free(e->id[i]);
		free(e->why[i]);
	}
	free(e->id);
	free(e->why);
	memset(e, 0, sizeof(*e));
}
