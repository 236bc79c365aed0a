// Fifteenth session (bench/RESULTS.md): a standalone microbenchmark, not part
// of mdsim's build. 1M fcc particles (+-0.1 noise), density 0.8442, sorted by
// cell and octant; one LJ force launch (rc 2.5) over a full list, a half list
// with float4 atomicAdd (sm_90) and a half list with three float atomics.
// Build: nvcc -O3 -arch=sm_90 -Xcompiler -fopenmp -o half half_list_microbench.cu
// Run:   ./half 64 3.0   (fcc cells per edge, rlist)
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <algorithm>
#include <cmath>
#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { printf("%s: %s\n", #x, cudaGetErrorString(e_)); exit(1);} } while (0)
struct P { float x, y, z; int key; };
__device__ __forceinline__ float mi(float d, float L, float iL) { return d - L * rintf(d * iL); }
template <int MODE> // 0 full, 1 half v4 atomics, 2 half scalar atomics
__global__ void kforce(int n, const float4 *__restrict__ x, const int4 *__restrict__ nl, const int *__restrict__ nn, float4 *f, float L, float rc2)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i >= n) return;
	float iL = 1.f / L;
	float4 xi = x[i];
	int m = nn[i];
	float fx = 0, fy = 0, fz = 0;
	for (int k = 0; k < m; k += 4) {
		int4 e = __ldg(nl + (size_t)(k >> 2) * n + i);
		int ej[4] = {e.x, e.y, e.z, e.w};
		float4 xj[4];
#pragma unroll
		for (int u = 0; u < 4; u++) xj[u] = __ldg(x + (k + u < m ? ej[u] : i));
#pragma unroll
		for (int u = 0; u < 4; u++) {
			float dx = mi(xi.x - xj[u].x, L, iL), dy = mi(xi.y - xj[u].y, L, iL), dz = mi(xi.z - xj[u].z, L, iL);
			float r2 = dx * dx + dy * dy + dz * dz;
			bool ok = k + u < m && r2 < rc2;
			float ir2 = ok ? 1.f / r2 : 0.f;
			float ir6 = ir2 * ir2 * ir2;
			float ff = 24.f * ir6 * (2.f * ir6 - 1.f) * ir2;
			fx += ff * dx; fy += ff * dy; fz += ff * dz;
			if (MODE == 1 && ok) atomicAdd(f + ej[u], make_float4(-ff * dx, -ff * dy, -ff * dz, 0.f));
			if (MODE == 2 && ok) { atomicAdd(&f[ej[u]].x, -ff * dx); atomicAdd(&f[ej[u]].y, -ff * dy); atomicAdd(&f[ej[u]].z, -ff * dz); }
		}
	}
	if (MODE == 0) f[i] = make_float4(fx, fy, fz, 0.f);
	else atomicAdd(f + i, make_float4(fx, fy, fz, 0.f));
}
int main(int argc, char **argv)
{
	int nc = argc > 1 ? atoi(argv[1]) : 64; // fcc cells per edge
	float rlist = argc > 2 ? atof(argv[2]) : 3.0f, rc = 2.5f;
	int n = 4 * nc * nc * nc;
	float L = powf(n / 0.8442f, 1.f / 3.f), a = L / nc;
	std::vector<P> p(n);
	srand(7);
	int c = 0;
	float bx[4][3] = {{0,0,0},{.5f,.5f,0},{.5f,0,.5f},{0,.5f,.5f}};
	for (int i = 0; i < nc; i++) for (int j = 0; j < nc; j++) for (int k = 0; k < nc; k++) for (int b = 0; b < 4; b++) {
		auto r = [] { return 0.2f * (rand() / (float)RAND_MAX - 0.5f); };
		p[c].x = fmodf((i + bx[b][0]) * a + r() + L, L); p[c].y = fmodf((j + bx[b][1]) * a + r() + L, L); p[c].z = fmodf((k + bx[b][2]) * a + r() + L, L); c++;
	}
	int ncell = (int)(L / rlist); float cs = L / ncell;
	// key: cell (z-major) then octant
	for (auto &q : p) {
		int cx = std::min((int)(q.x / cs), ncell - 1), cy = std::min((int)(q.y / cs), ncell - 1), cz = std::min((int)(q.z / cs), ncell - 1);
		int ox = (q.x / cs - cx) >= .5f, oy = (q.y / cs - cy) >= .5f, oz = (q.z / cs - cz) >= .5f;
		q.key = ((cz * ncell + cy) * ncell + cx) * 8 + (oz * 4 + oy * 2 + ox);
	}
	std::sort(p.begin(), p.end(), [](const P &A, const P &B) { return A.key < B.key; });
	std::vector<int> cstart(ncell * ncell * ncell + 1, 0);
	for (auto &q : p) cstart[q.key / 8 + 1]++;
	for (size_t i = 1; i < cstart.size(); i++) cstart[i] += cstart[i - 1];
	std::vector<std::vector<int>> full(n);
	float rl2 = rlist * rlist;
	#pragma omp parallel for schedule(dynamic, 1024)
	for (int i = 0; i < n; i++) {
		int cx = p[i].key / 8 % ncell, cy = p[i].key / 8 / ncell % ncell, cz = p[i].key / 8 / ncell / ncell;
		for (int dz = -1; dz <= 1; dz++) for (int dy = -1; dy <= 1; dy++) for (int dx = -1; dx <= 1; dx++) {
			int cc = (((cz + dz + ncell) % ncell) * ncell + (cy + dy + ncell) % ncell) * ncell + (cx + dx + ncell) % ncell;
			for (int j = cstart[cc]; j < cstart[cc + 1]; j++) {
				if (j == i) continue;
				float ddx = p[i].x - p[j].x, ddy = p[i].y - p[j].y, ddz = p[i].z - p[j].z;
				ddx -= L * rintf(ddx / L); ddy -= L * rintf(ddy / L); ddz -= L * rintf(ddz / L);
				if (ddx * ddx + ddy * ddy + ddz * ddz < rl2) full[i].push_back(j);
			}
		}
		std::sort(full[i].begin(), full[i].end());
	}
	auto pack = [&](bool half, std::vector<int4> &nl, std::vector<int> &nn, int &mx) {
		nn.assign(n, 0); mx = 0;
		std::vector<std::vector<int>> l(n);
		for (int i = 0; i < n; i++) for (int j : full[i]) if (!half || j > i) l[i].push_back(j);
		for (int i = 0; i < n; i++) { nn[i] = l[i].size(); mx = std::max(mx, nn[i]); }
		int rows = (mx + 3) / 4;
		nl.assign((size_t)rows * n, make_int4(0, 0, 0, 0));
		for (int i = 0; i < n; i++) for (size_t k = 0; k < l[i].size(); k++) ((int *)&nl[(k / 4) * n + i])[k % 4] = l[i][k];
	};
	std::vector<float4> hx(n);
	for (int i = 0; i < n; i++) hx[i] = make_float4(p[i].x, p[i].y, p[i].z, 0);
	float4 *dx, *df; CK(cudaMalloc(&dx, n * 16)); CK(cudaMalloc(&df, n * 16));
	CK(cudaMemcpy(dx, hx.data(), n * 16, cudaMemcpyHostToDevice));
	std::vector<float4> ref(n), got(n);
	for (int mode = 0; mode < 3; mode++) {
		std::vector<int4> nl; std::vector<int> nn; int mx;
		pack(mode > 0, nl, nn, mx);
		double avg = 0; for (int v : nn) avg += v; avg /= n;
		int4 *dnl; int *dnn;
		CK(cudaMalloc(&dnl, nl.size() * 16)); CK(cudaMalloc(&dnn, n * 4));
		CK(cudaMemcpy(dnl, nl.data(), nl.size() * 16, cudaMemcpyHostToDevice));
		CK(cudaMemcpy(dnn, nn.data(), n * 4, cudaMemcpyHostToDevice));
		for (int bs : {128, 256}) {
			int nb = (n + bs - 1) / bs;
			auto go = [&] {
				if (mode) CK(cudaMemsetAsync(df, 0, n * 16));
				if (mode == 0) kforce<0><<<nb, bs>>>(n, dx, dnl, dnn, df, L, rc * rc);
				if (mode == 1) kforce<1><<<nb, bs>>>(n, dx, dnl, dnn, df, L, rc * rc);
				if (mode == 2) kforce<2><<<nb, bs>>>(n, dx, dnl, dnn, df, L, rc * rc);
			};
			for (int w = 0; w < 20; w++) go();
			cudaEvent_t e0, e1; cudaEventCreate(&e0); cudaEventCreate(&e1);
			int it = 200;
			cudaEventRecord(e0); for (int w = 0; w < it; w++) go(); cudaEventRecord(e1);
			CK(cudaEventSynchronize(e1)); float ms; cudaEventElapsedTime(&ms, e0, e1);
			CK(cudaMemcpy(mode ? got.data() : ref.data(), df, n * 16, cudaMemcpyDeviceToHost));
			double md = 0, fr = 0;
			for (int i = 0; i < n; i++) { float4 a = ref[i], b = mode ? got[i] : ref[i]; md = std::max(md, (double)fabsf(a.x - b.x) + fabsf(a.y - b.y) + fabsf(a.z - b.z)); fr += a.x * a.x; }
			printf("n %d rlist %.2f mode %s block %d: avg entries %.1f max %d  %.1f us/launch  maxdiff %.2e (Frms %.2f)\n", n, rlist,
			       mode == 0 ? "full" : mode == 1 ? "half-v4atom" : "half-f32atom", bs, avg, mx, 1000 * ms / it, md, sqrt(fr / n));
		}
		cudaFree(dnl); cudaFree(dnn);
	}
}
