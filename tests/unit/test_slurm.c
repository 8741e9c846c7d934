/*
 * test_slurm.c - unit tests of what the Slurm executor (run/slurm.c) reads
 * from Slurm without accounting: squeue's task lines, sacct's (once squeue
 * forgot the job), slurmstepd's kill line in a task's stderr (the reason
 * recorded on its aborted runs), the quoting of the batch script, and the
 * totals `evident wait` prints and exits by (gather_count): each variant not
 * as expected counted once.  The executor itself runs on a real Slurm in
 * tests/cli/t7100 and t7101.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>

#include "run/run_ctx.h"
#include "run/spec.h"
#include "backends/sanitize.h"

/* a job's time before a Slurm task starts it counts every worker at its
 * timeout and each sanitizer tool at its longer limit (it did not count
 * the tools: a sanitized job started with 4 x timeout_s left was cut by
 * Slurm's kill, an aborted run the audit leaves out) */
static void test_job_need(void **state)
{
	(void)state;
	char *tools[] = { "racecheck", "memcheck", NULL };
	struct spec s;
	memset(&s, 0, sizeof(s));
	s.k.timeout_s = 30;
	assert_true(slurm_job_need_s(&s, 0) == 60.0);
	assert_true(slurm_job_need_s(&s, 1) == 120.0);
	s.sanitize = tools;
	assert_true(slurm_job_need_s(&s, 1) == 120.0 + 2 * SANITIZE_TIMEOUT_FACTOR * 30.0);
}

static void test_squeue(void **state)
{
	(void)state;
	struct slurm_task_info *t;
	/* squeue -h -r -t all -j 12 -o '%K %A %T %r %N' */
	const char *text = "0 12 COMPLETED None vm\n"
			   "1 14 CANCELLED None vm\n"
			   "2 15 PENDING JobArrayTaskLimit \n"
			   "3 13 RUNNING None node-7\n"
			   "garbage\n";
	int n = slurm_parse_squeue(text, &t);
	assert_int_equal(n, 4);
	assert_int_equal(t[0].task, 0);
	assert_string_equal(t[0].state, "COMPLETED");
	assert_string_equal(t[1].job, "14");
	assert_string_equal(t[2].reason, "JobArrayTaskLimit");
	assert_string_equal(t[2].node, "");
	assert_string_equal(t[3].node, "node-7");
	free(t);
	assert_int_equal(slurm_parse_squeue("", &t), 0);
	assert_null(t);
	/* a task index that is no number (a pending range squeue prints without -r) */
	assert_int_equal(slurm_parse_squeue("[2-5%2] 12 PENDING JobArrayTaskLimit\n", &t), 0);
	free(t);
}

static void test_sacct(void **state)
{
	(void)state;
	struct slurm_task_info *t;
	/* sacct -X -n -P -j 12 -o JobID,State,NodeList */
	const char *text = "12_0|COMPLETED|vm\n12_1|CANCELLED by 0|vm\n12_2|NODE_FAIL|node3\n12_[3-4]|PENDING|None assigned\n";
	int n = slurm_parse_sacct(text, &t);
	assert_int_equal(n, 3);
	assert_int_equal(t[1].task, 1);
	assert_string_equal(t[1].job, "12_1");
	assert_string_equal(t[1].state, "CANCELLED");
	assert_string_equal(t[1].reason, "by 0");
	assert_string_equal(t[2].state, "NODE_FAIL");
	assert_string_equal(t[2].reason, "None");
	assert_string_equal(t[2].node, "node3");
	free(t);
}

static void test_kill_line(void **state)
{
	(void)state;
	char *l = slurm_kill_line("some output\nslurmstepd-vm: error: *** JOB 8 ON vm CANCELLED AT "
				  "2026-11-23T13:59:30 DUE TO TIME LIMIT ***\n");
	assert_string_equal(l, "JOB 8 ON vm CANCELLED AT 2026-11-23T13:59:30 DUE TO TIME LIMIT");
	free(l);
	l = slurm_kill_line("slurmstepd-vm: error: *** JOB 9 ON vm CANCELLED AT 2026-11-23T14:00:00 ***\n");
	assert_string_equal(l, "JOB 9 ON vm CANCELLED AT 2026-11-23T14:00:00 (scancel)");
	free(l);
	l = slurm_kill_line("*** JOB 3 ON n1 CANCELLED AT T DUE TO PREEMPTION ***\n"
			    "*** JOB 3 ON n1 CANCELLED AT T2 DUE TO NODE FAILURE, SEE SLURMCTLD LOG FOR DETAILS ***\n");
	assert_string_equal(l, "JOB 3 ON n1 CANCELLED AT T2 DUE TO NODE FAILURE, SEE SLURMCTLD LOG FOR DETAILS");
	free(l);
	assert_null(slurm_kill_line("a task that was never killed\n"));
	assert_null(slurm_kill_line(NULL));
}

static void test_sh_quote(void **state)
{
	(void)state;
	char *q = slurm_sh_quote("/home/a b/it's/evident");
	assert_string_equal(q, "'/home/a b/it'\\''s/evident'");
	free(q);
	q = slurm_sh_quote("");
	assert_string_equal(q, "''");
	free(q);
}

/* Issue 23: wait once summed strcmp(expect, outcome) over the rows, and
 * one timeout (-5) with five nan (+1 each) made 0 unexpected: exit 0. */
static void test_wait_counts(void **state)
{
	(void)state;
	struct batch_row rows[8];
	memset(rows, 0, sizeof(rows));
	rows[0].outcome = OUTCOME_TIMEOUT;
	for (int i = 1; i <= 5; i++)
		rows[i].outcome = OUTCOME_NAN;
	rows[6].outcome = OUTCOME_CRASHED;
	rows[6].expect = "crashed";
	rows[7].outcome = OUTCOME_OK;
	rows[7].expect = "nan";
	for (int i = 0; i < 8; i++)
		rows[i].outcome_text = outcome_name(rows[i].outcome);
	struct batch_record b;
	memset(&b, 0, sizeof(b));
	b.rows = rows;
	b.n_rows = 6;
	struct run_totals t;
	memset(&t, 0, sizeof(t));
	t.missing = 3;
	gather_count(&b, &t);
	assert_int_equal(t.variants, 6);
	assert_int_equal(t.ok, 0);
	assert_int_equal(t.failed, 6);
	assert_int_equal(t.unexpected, 6);
	assert_int_equal(t.expected_failures, 0);
	assert_int_equal(t.missing, 3); /* not gather_count's to set */
	/* counted again from zero, with a failure as expected and an ok that was not */
	b.n_rows = 8;
	gather_count(&b, &t);
	assert_int_equal(t.variants, 8);
	assert_int_equal(t.ok, 1);
	assert_int_equal(t.failed, 7);
	assert_int_equal(t.unexpected, 7);
	assert_int_equal(t.expected_failures, 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_job_need),
		cmocka_unit_test(test_squeue),
		cmocka_unit_test(test_sacct),
		cmocka_unit_test(test_kill_line),
		cmocka_unit_test(test_sh_quote),
		cmocka_unit_test(test_wait_counts),
	};
	return cmocka_run_group_tests_name("slurm", tests, NULL, NULL);
}
