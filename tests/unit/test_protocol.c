/*
 * test_protocol.c - the parent's end of the worker protocol
 * (backends/protocol.h): what a sample's clocks may be, and what of the
 * worker's own text reaches a record (escaped).
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "backends/protocol.h"

static int keep_none(void *ctx, long long i, int last)
{
	(void)ctx, (void)i, (void)last;
	return 0;
}

static void feed(struct proto *p, const char *text, int reply_fd)
{
	assert_int_equal(proto_feed(p, text, strlen(text), reply_fd), 0);
}

/* a worker without CUPTI sends kernel_us -1: a missing clock, never a
 * time (issue 23: the parent took it as one, and the kernel clock won) */
static void test_missing_kernel_clock_is_not_a_time(void **state)
{
	(void)state;
	int fds[2];
	assert_int_equal(pipe(fds), 0);
	struct proto p;
	proto_init(&p);
	p.phase = "main";
	p.timed = 1;
	p.n_sets = 1;
	p.batch = 1;
	p.keep = keep_none;
	feed(&p, "{\"msg\":\"hello\",\"protocol\":" "3" ",\"pid\":1}\n", fds[1]);
	feed(&p, "{\"msg\":\"device\",\"info\":{}}\n{\"msg\":\"kernel\",\"name\":\"k\"}\n", fds[1]);
	feed(&p, "{\"msg\":\"warmup\",\"samples\":0}\n", fds[1]);
	feed(&p, "{\"msg\":\"sample\",\"i\":0,\"set\":0,\"us\":5.0,\"event_us\":5.0,\"kernel_us\":-1,\"host_us\":-3}\n",
	     fds[1]);
	assert_null(p.violation);
	assert_int_equal(p.n_samples, 1);
	assert_true(isnan(p.samples[0].kernel_us));
	assert_true(isnan(p.samples[0].host_us));
	assert_true(p.samples[0].event_us == 5.0);
	proto_release(&p);
	close(fds[0]);
	close(fds[1]);
}

/* a fixed count is a bound: the parent draws its checks among the
 * samples it asked for, and a flood past them (red team sample_flood:
 * 2000 samples timed around nothing after 59 honest ones) is a violation */
static void test_samples_past_the_count(void **state)
{
	(void)state;
	int fds[2];
	assert_int_equal(pipe(fds), 0);
	struct proto p;
	proto_init(&p);
	p.phase = "main";
	p.timed = 1;
	p.n_sets = 1;
	p.batch = 1;
	p.keep = keep_none;
	p.max_samples = 2;
	feed(&p, "{\"msg\":\"hello\",\"protocol\":3,\"pid\":1}\n", fds[1]);
	feed(&p, "{\"msg\":\"device\",\"info\":{}}\n{\"msg\":\"kernel\",\"name\":\"k\"}\n", fds[1]);
	feed(&p, "{\"msg\":\"warmup\",\"samples\":0}\n", fds[1]);
	for (int i = 0; i < 2; i++) {
		char line[128];
		snprintf(line, sizeof(line), "{\"msg\":\"sample\",\"i\":%d,\"set\":0,\"us\":5.0}\n", i);
		feed(&p, line, fds[1]);
	}
	const char *third = "{\"msg\":\"sample\",\"i\":2,\"set\":0,\"us\":5.0}\n";
	assert_int_equal(proto_feed(&p, third, strlen(third), fds[1]), -1);
	assert_non_null(strstr(p.violation, "past the 2"));
	proto_release(&p);
	close(fds[0]);
	close(fds[1]);
}

/* what the worker writes reaches the record escaped: a message named with
 * control bytes (the violation quotes it), a failure whose every field
 * is the kernel's (red team 4, ctl_bytes) */
static void test_worker_text_escaped(void **state)
{
	(void)state;
	int fds[2];
	assert_int_equal(pipe(fds), 0);
	struct proto p;
	proto_init(&p);
	p.phase = "main";
	const char *forged = "{\"msg\":\"\\u001b[2J\\r\\nok\"}\n";
	assert_int_equal(proto_feed(&p, forged, strlen(forged), fds[1]), -1);
	assert_string_equal(p.violation, "unknown message '\\x1b[2J\\x0d\\x0aok'");
	proto_release(&p);

	proto_init(&p);
	p.phase = "main";
	feed(&p, "{\"msg\":\"failure\",\"outcome\":\"init_failed\",\"error\":\"e\\u001b]0;x\\u0007\\n\","
		 "\"reason\":\"line 1\\nline \\u001b2\",\"phase\":\"in\\tit\"}\n",
	     fds[1]);
	assert_non_null(p.failure);
	assert_string_equal(json_string_value(json_object_get(p.failure, "error")), "e\\x1b]0;x\\x07\\x0a");
	assert_string_equal(json_string_value(json_object_get(p.failure, "reason")), "line 1\nline \\x1b2");
	assert_string_equal(json_string_value(json_object_get(p.failure, "phase")), "in\\x09it");
	assert_string_equal(json_string_value(json_object_get(p.failure, "outcome")), "init_failed");
	proto_release(&p);
	close(fds[0]);
	close(fds[1]);
}

int main(void)
{
	assert_int_equal(PROTOCOL_VERSION, 3); /* the hello above speaks it */
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_missing_kernel_clock_is_not_a_time),
		cmocka_unit_test(test_samples_past_the_count),
		cmocka_unit_test(test_worker_text_escaped),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
