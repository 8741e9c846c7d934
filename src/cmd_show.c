/* cmd_show.c - placeholder, being written. */
#include "evident.h"
#include "util.h"

int cmd_show(int argc, const char **argv)
{
	(void)argc;
	(void)argv;
	error("'evident show' is not implemented in this build");
	return EV_INTERNAL;
}
