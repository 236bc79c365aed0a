/*
 * gpu_frame.cu - a frame for the host in the host's layout: positions
 * wrapped into the box (images adjusted), every field scattered back to the
 * original particle order and interleaved x,y,z as in md_state. The host
 * then copies contiguous arrays and does no per-particle work.
 */
#include "gpu_common.cuh"

__global__ void k_frame(gpu_sys s, unsigned fields, double *fx, double *fv,
			double *ff, int *fimg, int *ftype)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x, o, d;
	double4_32a x;
	int4 im;
	double p[3];
	int m[3];

	if (i >= s.n)
		return;
	o = s.id[i];
	x = s.x[i];
	im = s.img[i];
	p[0] = x.x; p[1] = x.y; p[2] = x.z;
	m[0] = im.x; m[1] = im.y; m[2] = im.z;
	ftype[o] = (int)x.w;
	for (d = 0; d < 3; d++) {
		double sh = floor(p[d] * s.dibox[d]);

		p[d] -= sh * s.dbox[d];
		m[d] += (int)sh;
		if (p[d] >= s.dbox[d]) {
			p[d] -= s.dbox[d];
			m[d]++;
		}
		if (fields & MD_F_X)
			fx[3 * o + d] = p[d];
		if (fields & MD_F_IMAGE)
			fimg[3 * o + d] = m[d];
	}
	if (fields & MD_F_V) {
		double4_32a v = s.v[i];

		fv[3 * o] = v.x;
		fv[3 * o + 1] = v.y;
		fv[3 * o + 2] = v.z;
	}
	if (fields & MD_F_F) {
		float4 f = s.f[i];

		ff[3 * o] = f.x;
		ff[3 * o + 1] = f.y;
		ff[3 * o + 2] = f.z;
	}
}

void gpu_enqueue_frame(const gpu_sys *s, unsigned fields, double *fx,
		       double *fv, double *ff, int *fimg, int *ftype,
		       cudaStream_t st)
{
	k_frame<<<(s->n + 255) / 256, 256, 0, st>>>(*s, fields, fx, fv, ff, fimg,
						      ftype);
	GPU_CHECK_LAUNCH();
}
