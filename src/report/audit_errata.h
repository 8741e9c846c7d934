/*
 * audit_errata.h - records the audit sets aside as the runner's own
 * defects, read from an errata file (default data/errata.txt, `evident
 * audit --errata FILE`).  A record cannot say that the runner that wrote
 * it was broken (the sealed path's adjacent-pointer bug made every CUDA
 * variant of four batches unwritten_output; a read-only /proc made cuInit
 * fail in every CUDA worker of one batch); the errata say so.
 *
 * A defect belongs to a runner build, not to a run: an erratum names the
 * commit of the runner that had the defect and the commit that fixed it,
 * and sets aside every record that runner commit, or a commit with the
 * same runner code (audit_errata_find_later), wrote, wherever it was started: a record's runner is its code.runner.commit, the commit the
 * evident that wrote it was built from (record.h record_runner_commit),
 * not its code.git.commit, which names the repository the spec lies in
 * (red team 279: the runner from before red team 274's fix, started in a
 * checkout that has the fix, wrote records of that checkout's commit,
 * and an erratum naming the runner set none of them aside, 3 of 3
 * stores); a record without code.runner (before that fix) is matched by
 * its code.git.commit, as before.  Never a chosen run or batch (red team 44: an errata file
 * naming the 5 failing runs of coin_wrong by id, "checker defect ...
 * fixed in" the very commit that recorded them, made `validated`
 * supported).  The audit checks, in the repository, that both commits
 * exist, that the fixing one descends from the defective one
 * (git_graph_descendant_of) and that it changed the code of the runner,
 * the sources that make records, every file its build reads (src/
 * outside src/report/: red team 49's "fix" was a plot colour in
 * src/report/svg.c, which no run reaches; the headers it compiles in,
 * kernels/evident_kernel.h and problems/ *.h, and the Makefile and mk/:
 * red team 282 rows 4 and 5; a header where an #include reaches it, red
 * team 287 row 1b), not only comments and layout (nor groups under #if
 * 0: red team 287 row 1a), compared by tokens (red teams 46 and 47: chains of empty and of comment-only
 * commits, each "fixed in" the next; red team 282: a layout-only "fix");
 * a file that fails is refused whole.  A claim whose own row a record set aside is
 * unsupported, and every value or verdict finding counts the rows of its
 * code set aside.  The
 * reason is printed wherever a record is set aside, so the decision is in
 * the repository and in every finding it touches, never silent.
 *
 * The file: one entry a line, "COMMIT FIXED_IN REASON" (each commit in
 * full or abbreviated to at least 7 hex digits; REASON the rest of the
 * line, required); blank lines and lines starting with '#' are skipped.
 */
#ifndef EVIDENT_AUDIT_ERRATA_H
#define EVIDENT_AUDIT_ERRATA_H

#include <stddef.h>

struct strbuf;

struct audit_errata {
	char **commit;  /* the defective runner commits, in full (40 hex) */
	char **fixed;   /* the commits that fixed them, in full */
	char **why;     /* the reasons; n of each, audit_errata_release's */
	size_t n;
	void *repo;     /* the git_repository the entries were checked in, kept open for
			 * audit_errata_find's ancestry (audit_errata_release's) */
	char **seen;    /* runner commits already placed (audit_errata_find's cache) */
	long *seen_at;  /* and the entry each fell under, or -1; n_seen of each */
	size_t n_seen;
	char **unplaced; /* runner commits the repository does not hold (matched by name alone) */
	size_t n_unplaced;
	void *reach;    /* the files each tree's build reads, by tree (the include walk's cache) */
	size_t n_reach;
	void *incs;     /* each C file's #include operands, by blob (the same walk's) */
	size_t n_incs;
};

/* Read path into *e (zeroed first) and check every entry in the git
 * repository at or above repo_dir: both commits resolve, the fixing one
 * descends from the defective one and changes the runner's code (src/
 * outside src/report/, the headers it compiles in, the Makefile, mk/;
 * by tokens).  0, or -1
 * with "path:LINE: what" in *err (the file unreadable, a malformed line, a
 * commit the repository lacks, a fix that is not a later commit or changes
 * no runner code); *e is then empty. */
int audit_errata_load(const char *path, const char *repo_dir, struct audit_errata *e, struct strbuf *err);
/* The entry that names runner commit runner_commit (may be NULL; in
 * full or abbreviated): its index into commit[], fixed[] and why[], or
 * -1 when none does. */
long audit_errata_find(const struct audit_errata *e, const char *runner_commit);
/* The same, and else the entry whose defective commit has the same
 * runner code as runner_commit in the repository (the same files,
 * comments and layout aside, as the fix's check reads it; red team 282:
 * a layout-only rebuild of the defective runner is it, a runner built
 * before a Makefile-only defect is not):
 * red team 280's runner built from a README-only commit on top of the
 * defective one, red team 281's merge that names the fix but keeps the
 * defective files; a cherry-picked fix is another code, not set aside.
 * A commit the repository lacks is matched by its name alone and kept in
 * unplaced[] for the audit to say so.  Cached per commit (e's). */
long audit_errata_find_later(const struct audit_errata *e, const char *runner_commit);
/* The same for run r, by its runner's commit: its code.runner.commit,
 * with later commits without the fix (audit_errata_find_later), or, in a
 * record without a known code.runner.commit, its code.git.commit alone
 * (audit_errata_find: the committed store reads as it always did). */
struct run_record;
long audit_errata_find_run(const struct audit_errata *e, const struct run_record *r);
void audit_errata_release(struct audit_errata *e);

#endif /* EVIDENT_AUDIT_ERRATA_H */
