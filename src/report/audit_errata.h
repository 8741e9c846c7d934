/*
 * audit_errata.h - runs the audit sets aside as the runner's own defects,
 * each with its reason, read from an errata file (default data/errata.txt,
 * `evident audit --errata FILE`).  A record cannot say that the runner
 * that wrote it was broken (the sealed path's adjacent-pointer bug made
 * every CUDA variant of four batches unwritten_output; a read-only /proc
 * made cuInit fail in every CUDA worker of one batch); the errata say so,
 * by exact run or batch id and a reason the audit prints wherever it sets
 * a run aside, so the decision is in the repository and in every finding
 * it touches, never silent.
 *
 * The file: one entry a line, "ID REASON" (ID a run's or a batch's id, in
 * full; REASON the rest of the line, required); blank lines and lines
 * starting with '#' are skipped.
 */
#ifndef EVIDENT_AUDIT_ERRATA_H
#define EVIDENT_AUDIT_ERRATA_H

#include <stddef.h>

struct strbuf;

struct audit_errata {
	char **id, **why; /* n of each, audit_errata_release's */
	size_t n;
};

/* Read path into *e (zeroed first).  0, or -1 with "path:LINE: what"
 * in *err (the file unreadable, a line with no reason). */
int audit_errata_load(const char *path, struct audit_errata *e, struct strbuf *err);
/* The reason for setting aside a run with this run id or batch id (either
 * may be NULL), or NULL when the errata do not name it. */
const char *audit_errata_why(const struct audit_errata *e, const char *run_id, const char *batch_id);
void audit_errata_release(struct audit_errata *e);

#endif /* EVIDENT_AUDIT_ERRATA_H */
