/*
 * runner_build.c - the commit this evident was built from, compiled in
 * (red team 279: a record names the runner that wrote it, code.runner;
 * code.git names only the repository the spec lies in).  The Makefile
 * writes $(BUILD)/gen/runner_commit.h (scripts/runner-commit.sh) at every
 * make; only this file includes it, so a new commit recompiles nothing
 * else.  The worker never calls these: its executable stays the same
 * bytes from commit to commit.
 */
#include "run/provenance.h"

#include "runner_commit.h"

const char *prov_runner_commit(void)
{
	return EVIDENT_RUNNER_COMMIT;
}

int prov_runner_dirty(void)
{
	return EVIDENT_RUNNER_DIRTY;
}
