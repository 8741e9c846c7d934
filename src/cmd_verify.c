/* cmd_verify.c - placeholder, being written. */
#include "evident.h"
#include "util.h"

int cmd_verify(int argc, const char **argv)
{
	(void)argc;
	(void)argv;
	error("'evident verify' is not implemented in this build");
	return EV_INTERNAL;
}
