/*
 * backend_cuda.c - the CUDA backend (placeholder until the CUDA issue
 * lands): probe reports that CUDA support is not built.
 */
#include "backend.h"

static int cuda_probe(struct strbuf *why)
{
	strbuf_addstr(why, "the CUDA backend is not built into this evident");
	return -1;
}

const struct backend backend_cuda = {
	.name = "cuda",
	.probe = cuda_probe,
};
