/*
 * rejudge.h - a failure under one build of a problem plug-in, judged by
 * another build's reference (rejudge.c): by the two objects, each in a
 * box, on inputs drawn for the question.
 */
#ifndef EVIDENT_REJUDGE_H
#define EVIDENT_REJUDGE_H

#include "record/record.h"
#include "store/query.h"

/*
 * Does r's failure stand under the build of r's problem whose object hash
 * is now_sha?  1: a failed check has NaN or unwritten entries, or, with
 * the current build's reference computed on the failing build's inputs
 * (where its own draw is a sample of the same distribution, by their
 * sizes: problem_box.c draw_gap under 0.1), fails the looser
 * of the two builds' rules by more than 8 times the two references' gap
 * on inputs drawn for the question and by more than their gap on its own
 * recorded draw, or the two references are one; 0: every failed check was
 * told and none stands (the references moved past it, or the current
 * build draws other inputs); -1: cannot tell (an object not in q's
 * store, no box in this process, a costly shape, a check with no
 * distribution recorded, a build that would not answer): the caller's
 * other evidence decides.  Answers are kept for the process.
 */
int rejudge_counts(struct query *q, const struct run_record *r, const char *now_sha);

/*
 * Let record_drawn_rule (record.h) answer for records that did not record
 * their drawn extra shape's rule (a runner older than red team 289's fix:
 * red team 298 row 3), from the store at root: the problem's rule at the
 * recorded drawn shape, asked of the run's own plug-in object kept there
 * (in its box), else of today's build of the problem where the record's
 * code is current (query_sources_current), else not had.  Answers are kept
 * for the process (per object, dtype and shape; per record until another
 * root is set).  A root that is no store unsets it.  For the processes
 * that hold a store and weigh runs: the audit, paper, eval and a search.
 */
void rejudge_drawn_rule_setup(const char *root);

#endif
