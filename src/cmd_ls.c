/* cmd_ls.c - placeholder, being written. */
#include "evident.h"
#include "util.h"

int cmd_ls(int argc, const char **argv)
{
	(void)argc;
	(void)argv;
	error("'evident ls' is not implemented in this build");
	return EV_INTERNAL;
}
