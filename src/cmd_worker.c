/* cmd_worker.c - placeholder, being written. */
#include "evident.h"
#include "util.h"

int cmd_worker(int argc, const char **argv)
{
	(void)argc;
	(void)argv;
	error("'evident worker' is not implemented in this build");
	return EV_INTERNAL;
}
