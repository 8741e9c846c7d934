/*
 * cmd_paper.c - `evident paper [FILE.md...]`: regenerate the generated
 * blocks (tables, provenance, inline values, figures, negative results,
 * cost) of markdown files from the store.  The work is in paper.c; this
 * file reads and writes the files: a file is rewritten (atomically, mode
 * kept) only when its bytes change, so a second run touches nothing.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/evident.h"
#include "cli/options.h"
#include "report/mdscan.h"
#include "report/paper.h"
#include "report/rejudge.h"
#include "store/query.h"
#include "base/util.h"

static const char synopsis[] =
	"usage: evident paper [--store DIR] [--check] [FILE.md...]\n"
	"\n"
	"Regenerates the generated blocks of each markdown file (default PAPER.md)\n"
	"from the store: every byte outside the blocks is left alone, and running it\n"
	"twice gives no diff.  Figures named by figure blocks are written as SVG,\n"
	"relative to the markdown file's directory.  Markers are documented in\n"
	"docs/paper.md:\n"
	"  <!-- evident:table experiment=E run=latest --> ... <!-- /evident:table -->\n"
	"  <!-- evident:value experiment=E variant=V run=latest stat=speedup -->...<!-- /evident:value -->\n"
	"  <!-- evident:figure experiment=E run=latest kind=ecdf|box|speedup path=figures/x.svg -->\n"
	"  <!-- evident:provenance ... -->, <!-- evident:negative -->, <!-- evident:cost -->\n";

static const struct opt_usage usage = {
	"paper", synopsis,
	"exit codes:\n"
	"  0    every block was generated (and, with --check, nothing would change)\n"
	"  1    a block names an experiment or run with no record (the file is still\n"
	"       written, that block saying \"no recorded run\"), a marker is malformed\n"
	"       (the file is left alone), or --check found a difference\n"
	"  2    bad command line\n"
	"  5    the store cannot be read\n"
};

static int write_file_atomic(const char *path, const char *data, size_t n)
{
	struct stat sb;
	mode_t mode = stat(path, &sb) == 0 ? sb.st_mode & 07777 : 0644;
	char *tmp = xstrfmt("%s.evident-tmp", path);
	FILE *f = fopen(tmp, "wb");
	int rc = 0;
	if (!f) {
		rc = error("cannot write '%s': %s", tmp, strerror(errno));
		goto out;
	}
	if (fwrite(data, 1, n, f) != n || fflush(f) != 0 || fsync(fileno(f)) != 0) {
		rc = error("cannot write '%s': %s", tmp, strerror(errno));
		fclose(f);
		unlink(tmp);
		goto out;
	}
	if (fclose(f) != 0 || chmod(tmp, mode) != 0 || rename(tmp, path) != 0) {
		rc = error("cannot replace '%s': %s", path, strerror(errno));
		unlink(tmp);
	}
out:
	free(tmp);
	return rc;
}

int cmd_paper(int argc, const char **argv)
{
	const char *store = NULL;
	int check = 0;
	int rc = EV_OK;
	struct query q = QUERY_INIT;
	const struct option opts[] = {
		OPT_STORE_MD(&store),
		OPT_BOOL("check", &check, "write nothing; exit 1 if any file or figure would change"),
		OPT_END(),
	};
	argc = parse_options(argc, argv, opts, &usage);
	if (argc < 0)
		return argc == OPT_HELP ? EV_OK : EV_USAGE;
	const char *const *files = argc ? argv : (const char *[]){ "PAPER.md", NULL };
	size_t nf = argc ? (size_t)argc : 1;
	for (size_t i = 0; i < nf; i++) {
		struct strbuf in = STRBUF_INIT, out = STRBUF_INIT;
		struct paper_result r;
		char *dir = xstrdup(files[i]);
		char *slash = strrchr(dir, '/');
		if (slash)
			*slash = '\0';
		struct paper_opts o = { slash ? dir : NULL, !check };
		char *declared = NULL;
		if (read_file(files[i], &in) < 0) {
			rc = EV_FAILURES;
		} else if (declared = md_declared_store(files[i], strbuf_str(&in), in.len),
			   query_open_for(&q, store, declared) < 0) {
			rc = EV_STORE;
		} else if (rejudge_drawn_rule_setup(q.st.root), /* red team 298 row 3 */
			   paper_render(&q, files[i], strbuf_str(&in), in.len, &o, &out, &r) < 0) {
			error("'%s' left unchanged; fix the marker and run 'evident paper' again", files[i]);
			rc = EV_FAILURES;
		} else {
			int changed = in.len != out.len || memcmp(strbuf_str(&in), strbuf_str(&out), in.len);
			if (check && (changed || r.figures_changed)) {
				printf("%s: out of date (%s%s%s); run 'evident paper %s'\n", files[i],
				       changed ? "generated blocks" : "", changed && r.figures_changed ? " and " : "",
				       r.figures_changed ? "figures" : "", files[i]);
				rc = EV_FAILURES;
			} else if (!check && changed && write_file_atomic(files[i], strbuf_str(&out), out.len) < 0) {
				rc = EV_FAILURES;
			} else {
				printf("%s: %d block%s%s%s, %d figure%s %s\n", files[i], r.blocks,
				       r.blocks == 1 ? "" : "s",
				       check ? " up to date" : changed ? " regenerated" : " unchanged",
				       r.missing ? " (some with no recorded run)" : "", r.figures_changed,
				       r.figures_changed == 1 ? "" : "s", check ? "would change" : "rewritten");
			}
			if (r.missing) {
				error("%s: %d block%s name%s an experiment or run with no record (see above)",
				      files[i], r.missing, r.missing == 1 ? "" : "s", r.missing == 1 ? "s" : "");
				rc = EV_FAILURES;
			}
		}
		free(dir);
		free(declared);
		strbuf_release(&in);
		strbuf_release(&out);
	}
	query_release_at_exit(&q);
	return rc;
}
