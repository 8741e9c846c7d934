/*
 * paper_internal.h - what the files of `evident paper` share: the context
 * of the block being generated and the helpers every block writes with
 * (paper.c holds them and the one-batch blocks; paper_scaling.c the block
 * that reads one batch of each of several experiments).  Not for other
 * modules: paper.h is the interface.
 */
#ifndef EVIDENT_PAPER_INTERNAL_H
#define EVIDENT_PAPER_INTERNAL_H

#include "report/mdscan.h"
#include "report/paper.h"

struct paper_ctx {
	struct query *q;
	const struct paper_opts *o;
	struct paper_result *r;
	const char *file;
	int line;                    /* of the block being generated */
	const char *after;           /* the prose after the block being generated */
	size_t after_len;
};

/* s made safe for a table cell (cell = 1: '|' escaped) or a line: one
 * line, no '`' or '<', at most max bytes (then "..."). */
void paper_clean(struct strbuf *out, const char *s, size_t max, int cell);
/* "2026-11-22T04:04:57.123Z" -> "2026-11-22 04:04:57 UTC" ("unknown date") */
void paper_add_date(struct strbuf *out, const char *iso);
/* The device label of a row's first run (malloc'd, the caller frees), or
 * NULL without a run. */
char *paper_row_device(struct query *q, const struct batch_row *row);
/* Write body to path only when its bytes differ from the file's (atomic;
 * with write = 0 only count); a difference adds 1 to *changed.  0, or -1
 * after error(). */
int paper_write_if_changed(const char *path, const struct strbuf *body, int write, int *changed);
/* A block (or inline value) with no record: "FILE:LINE: why" on stderr,
 * counted in r->missing, and said in the text. */
void paper_missing(struct paper_ctx *c, const char *why, struct strbuf *out, int inline_value);

/* Does one of batch b's notes say text (a substring)? */
int paper_in_notes(const struct batch_record *b, const char *text);
/* Batch b's notes and its rows' timing-health notes not already among them,
 * a "- note: ..." line each (with exp, "- `EXP`, note: ..."): what qualifies
 * every number a block shows of b (a loosened tolerance, a precision note,
 * a capped or charged run).  1 when it wrote a line. */
int paper_batch_notes(const struct batch_record *b, const char *exp, struct strbuf *out);

/*
 * The scaling block (paper_scaling.c; docs/paper.md): one batch of each
 * experiment of m's experiments=, a table of FLOP rates and fractions of
 * peak by experiment and variant, and with path= a figure of the rate
 * against a dimension.  m's keys are checked by the caller.  0 (a missing
 * experiment or batch is a paper_missing), or -1 after error() on a
 * malformed marker or a figure that cannot be written.
 */
int paper_gen_scaling(struct paper_ctx *c, const struct md_marker *m, struct strbuf *out);

#endif /* EVIDENT_PAPER_INTERNAL_H */
