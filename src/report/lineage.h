/*
 * lineage.h - where a run's variant came from, followed through a store:
 * the read half of the lineage that a spec's `lineage:` key (run/spec.h)
 * or a search (run/search.h) writes into every run record (record.h's
 * rec_lineage).  `evident show --lineage RUN` prints the chain this
 * module finds; a search's own tree is in its search record.
 *
 * A parent is written as a run id, a search candidate's id or a
 * variant's name, so that a person (or an external proposer) can name it
 * the way they know it.  It resolves, first match wins:
 *   1. a run whose whole id it is;
 *   2. a run of the variant of that name in the same batch (the same
 *      repeat when there is one, else its first);
 *   3. the newest run of the variant of that name in the same experiment
 *      recorded before the child (the store's one order);
 *   4. a run whose id it is a unique prefix of (query_find's rules).
 * The order puts the names a spec writes (a variant beside it) before
 * prefixes, so that a variant called "a1" never resolves to a run whose
 * hash part begins with a1.
 */
#ifndef EVIDENT_LINEAGE_H
#define EVIDENT_LINEAGE_H

#include "store/query.h"

/*
 * The entry of the run that run entry i's lineage names as its parent:
 * its index into q->e, or -1 with the reason in why (no lineage, no
 * parent named, or a parent not in this store: the reason names it).
 */
long lineage_parent(struct query *q, size_t i, struct strbuf *why);

/*
 * The chain of run entry i: i, its parent, the parent's parent..., as
 * indices into q->e in *out (the caller frees it); returns how many.  It
 * stops at a run with no parent, at a parent not in the store, at a
 * cycle (a run already in the chain) or after 1000 links; why then says
 * which (empty when the chain ends at a run that names no parent).
 */
size_t lineage_chain(struct query *q, size_t i, size_t **out, struct strbuf *why);

/*
 * A search's tree (record/search.h), parent before child, each candidate
 * once (where it was first judged), appended to out: as indented text
 * with ASCII branches (markdown 0, for show) or as a nested markdown list
 * (markdown 1, for PAPER.md).  Each node says its mutation, outcome,
 * median with its CI, its speedup over the best of its generation with
 * CI, p and verdict, a knob that never reached the binary, and the
 * generations after which it was the best.
 */
void lineage_search_tree(const struct search_record *r, int markdown, struct strbuf *out);

#endif /* EVIDENT_LINEAGE_H */
