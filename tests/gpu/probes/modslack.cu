/*
 * modslack.cu - a probe for the sealed planner's module-gap check (red
 * team 157's tail): where does the driver put a module's globals, how
 * large is the allocation cuMemGetAddressRange gives for them, do two
 * modules share one, and what does the slack past a section's end hold
 * at load time?  Built and run by hand on a GPU host:
 *   nvcc -arch=sm_90 -o modslack modslack.cu modslack2.cu -lcuda && ./modslack
 * Prints one line per global and the first non-zero byte of the slack.
 */
#include <cuda.h>
#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>

__device__ int ms_a;
__device__ __align__(256) int ms_b[3];
__constant__ float ms_c[4];
void *modslack2_addr(void);

__global__ void ms_touch(int *p) { p[0] += ms_a + ms_b[1]; }

static void show(const char *name, void *p)
{
	CUdeviceptr base = 0;
	size_t size = 0;
	CUresult r = cuMemGetAddressRange(&base, &size, (CUdeviceptr)p);
	printf("%-10s at %p: cuMemGetAddressRange %d base 0x%llx size %zu (offset %lld)\n", name, p, (int)r,
	       (unsigned long long)base, size, (long long)((CUdeviceptr)p - base));
	if (r == CUDA_SUCCESS) {
		/* the allocation's bytes: how many are non-zero, where */
		unsigned char *h = (unsigned char *)malloc(size);
		cudaError_t e = cudaMemcpy(h, (void *)base, size, cudaMemcpyDeviceToHost);
		size_t nz = 0, first = (size_t)-1, last = 0;
		for (size_t i = 0; e == cudaSuccess && i < size; i++)
			if (h[i]) {
				nz++;
				if (first == (size_t)-1)
					first = i;
				last = i;
			}
		printf("           read %s: %zu non-zero bytes (first +%zu, last +%zu)\n", cudaGetErrorName(e), nz,
		       first == (size_t)-1 ? 0 : first, last);
		free(h);
	}
}

int main(void)
{
	int *d = NULL;
	cudaMalloc(&d, 4);
	ms_touch<<<1, 1>>>(d); /* loads this module (lazy loading) */
	cudaDeviceSynchronize();
	void *pa, *pb, *pc;
	cudaGetSymbolAddress(&pa, ms_a);
	cudaGetSymbolAddress(&pb, ms_b);
	cudaGetSymbolAddress(&pc, ms_c);
	show("ms_a", pa);
	show("ms_b", pb);
	show("ms_c", pc);
	show("other", modslack2_addr());
	show("cudaMalloc", d);
	printf("CUDA_MODULE_LOADING=%s\n", getenv("CUDA_MODULE_LOADING") ? getenv("CUDA_MODULE_LOADING") : "(unset)");
	return 0;
}
