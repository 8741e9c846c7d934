/*
 * cmd_paper.c - `evident paper` (placeholder until its issue lands: prints that
 * it is not built yet and exits with EV_INTERNAL, so nothing mistakes it for
 * a result).
 */
#include "evident.h"
#include "util.h"

int cmd_paper(int argc, const char **argv)
{
	(void)argc;
	(void)argv;
	error("'evident paper' is not implemented in this build");
	return EV_INTERNAL;
}
