/* cmd_run.c - placeholder, being written. */
#include "evident.h"
#include "util.h"

int cmd_run(int argc, const char **argv)
{
	(void)argc;
	(void)argv;
	error("'evident run' is not implemented in this build");
	return EV_INTERNAL;
}
