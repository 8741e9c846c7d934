/*
 * paper.h - regenerate the generated blocks of a markdown paper from the
 * store (`evident paper`, `make paper`).  docs/paper.md is the reference for
 * the markers; in short:
 *
 *   <!-- evident:table experiment=E run=latest -->...<!-- /evident:table -->
 *   <!-- evident:provenance experiment=E run=RUN -->...<!-- /evident:provenance -->
 *   <!-- evident:value experiment=E variant=V run=latest stat=speedup -->1.34x<!-- /evident:value -->
 *   <!-- evident:negative -->...<!-- /evident:negative -->
 *   <!-- evident:cost -->...<!-- /evident:cost -->
 *   <!-- evident:figure experiment=E run=latest kind=ecdf path=figures/E-ecdf.svg -->...
 *   <!-- evident:scaling experiments=E1,E2 runs=latest path=figures/s.svg -->...  (one batch each)
 *
 * A value prints its unit unless the prose right after the block already
 * starts with it (-->6.6<!-- /evident:value --> GFLOP/s: the number alone).
 * Only the bytes between an opening marker and its closing marker change;
 * an opening marker without its closing one gets one.  Output depends only
 * on the markdown and the store: no generation time, fixed precision,
 * stable order, so regenerating twice gives no diff.
 */
#ifndef EVIDENT_PAPER_H
#define EVIDENT_PAPER_H

#include "base/util.h"
#include "store/query.h"

struct paper_opts {
	const char *base_dir;    /* directory of the markdown file: figure paths are relative to it */
	int write_figures;       /* 1: write SVGs whose bytes changed; 0: only count them */
};

struct paper_result {
	int blocks;              /* generated blocks and values */
	int missing;             /* of those, naming an experiment or run with no record */
	int figures_changed;     /* SVGs whose bytes differ (written when write_figures) */
};

/*
 * Regenerate text[0..len) of markdown file `file` into out (appended).
 * Blocks that name a run or experiment with no record say so in the text
 * and are counted in r->missing, with one "FILE:LINE: ..." error each.
 * Returns 0, or -1 after error() on a malformed marker or a figure that
 * cannot be written (out is then incomplete: write nothing).
 */
int paper_render(struct query *q, const char *file, const char *text, size_t len,
		 const struct paper_opts *o, struct strbuf *out, struct paper_result *r);

/*
 * Format statistic value v as prose: "11657.33 us", "1.34x", "5.8 GFLOP/s",
 * "$0.0123", "5.1e-17".  stat is a name of record.h's table (its kind
 * picks the form); unit (times only: us, ms, s; NULL = us); digits < 0 =
 * the default for the kind.  Returns 0, or -1 after error() on an unknown
 * statistic or a unit that does not fit it.
 */
int paper_format_stat(struct strbuf *out, double v, const char *stat, const char *unit, int digits);

#endif /* EVIDENT_PAPER_H */
