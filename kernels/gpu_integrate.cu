/*
 * gpu_integrate.cu - velocity Verlet in double on the GPU, the rebuild
 * decision (max displacement > skin/2, or a fixed interval), and the
 * kinetic-energy reduction (double accumulation).
 */
#include "gpu_common.cuh"

__global__ void k_integrate1(gpu_sys s)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;

	if (gpu_halted(s))
		return;
	if (i == 0) {
		long long since = ++s.st->since;

		if (s.every > 0 && since >= s.every)
			s.st->rebuild = 1;
	}
	if (i < s.n) {
		double4_32a x = s.x[i], v = s.v[i];
		float4 f = s.f[i];

		v.x += s.hdtm * f.x;
		v.y += s.hdtm * f.y;
		v.z += s.hdtm * f.z;
		x.x += s.dt * v.x;
		x.y += s.dt * v.y;
		x.z += s.dt * v.z;
		s.v[i] = v;
		s.x[i] = x;
		s.pos[i] = make_float4((float)x.x, (float)x.y, (float)x.z, (float)x.w);
		if (s.check) {
			double4_32a o = s.x0[i];
			double dx = x.x - o.x, dy = x.y - o.y, dz = x.z - o.z;
			double r2 = dx * dx + dy * dy + dz * dz;

			if (!(r2 <= s.skin_half2))	/* NaN rebuilds too */
				s.st->rebuild = 1;
		}
	}
}

__global__ void k_integrate2(gpu_sys s)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;

	if (gpu_halted(s))
		return;
	if (i == 0)
		s.st->step++;
	if (i < s.n) {
		double4_32a v = s.v[i];
		float4 f = s.f[i];

		v.x += s.hdtm * f.x;
		v.y += s.hdtm * f.y;
		v.z += s.hdtm * f.z;
		s.v[i] = v;
	}
}

__global__ void k_zero_acc(gpu_sys s)
{
	s.acc->pe = 0.0;
	s.acc->virial = 0.0;
	s.acc->ke = 0.0;
}

__global__ void k_kinetic(gpu_sys s, double mass)
{
	__shared__ double part[32];
	int i = blockIdx.x * blockDim.x + threadIdx.x, k;
	double v2 = 0.0;

	for (; i < s.n; i += gridDim.x * blockDim.x) {
		double4_32a v = s.v[i];

		v2 += v.x * v.x + v.y * v.y + v.z * v.z;
	}
	for (k = 16; k > 0; k >>= 1)
		v2 += __shfl_xor_sync(0xffffffffu, v2, k);
	if ((threadIdx.x & 31) == 0)
		part[threadIdx.x >> 5] = v2;
	__syncthreads();
	if (threadIdx.x == 0) {
		double t = 0.0;

		for (k = 0; k < (int)(blockDim.x >> 5); k++)
			t += part[k];
		atomicAdd(&s.acc->ke, 0.5 * mass * t);
	}
}

void gpu_enqueue_integrate1(const gpu_sys *s, cudaStream_t st)
{
	k_integrate1<<<(s->n + 255) / 256, 256, 0, st>>>(*s);
	GPU_CHECK_LAUNCH();
}

void gpu_enqueue_integrate2(const gpu_sys *s, cudaStream_t st)
{
	k_integrate2<<<(s->n + 255) / 256, 256, 0, st>>>(*s);
	GPU_CHECK_LAUNCH();
}

void gpu_enqueue_zero_acc(const gpu_sys *s, cudaStream_t st)
{
	k_zero_acc<<<1, 1, 0, st>>>(*s);
	GPU_CHECK_LAUNCH();
}

/* Kinetic energy into acc->ke (which the caller zeroes first). */
void gpu_enqueue_kinetic(const gpu_sys *s, double mass, cudaStream_t st)
{
	int nb = (s->n + 255) / 256;

	if (nb > 1024)
		nb = 1024;
	k_kinetic<<<nb, 256, 0, st>>>(*s, mass);
	GPU_CHECK_LAUNCH();
}
