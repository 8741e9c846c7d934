/* modslack2.cu - a second module for modslack.cu (see there) */
#include <cuda_runtime.h>
__device__ int ms_other = 7;
__global__ void ms_touch2(int *p) { p[0] += ms_other; }
void *modslack2_addr(void)
{
	int *d = NULL;
	cudaMalloc(&d, 4);
	ms_touch2<<<1, 1>>>(d);
	cudaDeviceSynchronize();
	void *p = NULL;
	cudaGetSymbolAddress(&p, ms_other);
	return p;
}
