/*
 * checker_run.h - for the unit tests that drive the checker in-process:
 * run checker_main on a check JSON written under a scratch directory and
 * collect the JSON lines it prints.  Header-only (static inline: a test
 * may use one of the two), included by
 * test_checker_timed.c, test_checker_par.c and test_fresh.c after
 * cmocka.h (its asserts).
 */
#ifndef EVIDENT_TEST_CHECKER_RUN_H
#define EVIDENT_TEST_CHECKER_RUN_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <jansson.h>

#include "backends/checker.h"
#include "base/util.h"

/* The checker's stdout, byte for byte, into out (reset first), from
 * running it on check JSON j (its files under dir, removed after);
 * returns checker_main's exit code. */
static inline int run_checker_raw(json_t *j, const char *dir, struct strbuf *out)
{
	char *jp = xstrfmt("%s/check.json", dir), *op = xstrfmt("%s/out.txt", dir);
	assert_int_equal(json_dump_file(j, jp, 0), 0);
	fflush(stdout);
	int saved = dup(1);
	FILE *f = fopen(op, "w");
	assert_non_null(f);
	dup2(fileno(f), 1);
	int rc = checker_main(jp);
	fflush(stdout);
	dup2(saved, 1);
	close(saved);
	fclose(f);
	strbuf_reset(out);
	assert_int_equal(read_file(op, out), 0);
	unlink(jp);
	unlink(op);
	free(jp);
	free(op);
	return rc;
}

/* The checker's stdout lines, from running it on check JSON j (its files
 * under dir, removed after), which must exit 0; a new array the caller
 * json_decrefs. */
static inline json_t *run_checker(json_t *j, const char *dir)
{
	struct strbuf sb = STRBUF_INIT;
	assert_int_equal(run_checker_raw(j, dir, &sb), 0);
	json_t *lines = json_array();
	for (char *save = NULL, *l = strtok_r(sb.buf, "\n", &save); l; l = strtok_r(NULL, "\n", &save))
		json_array_append_new(lines, json_loads(l, 0, NULL));
	strbuf_release(&sb);
	return lines;
}

#endif
