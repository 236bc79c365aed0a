// Sixteenth session: standalone microbenchmark, not part of mdsim's build.
// 1M fcc particles (+-0.1 noise), density 0.8442, sorted by cell and octant.
// One LJ force launch (rc 2.5): (a) thread per particle over its own full list
// (the present register path's shape); (b) "cluster-union" lists: G consecutive
// particles share one list (the union of their lists, sorted by index); a warp
// takes one cluster, lane = slot * G + member, J = 32 / G consecutive entries
// per warp pass, the member's force summed over its J lanes by shuffles.
// Build: nvcc -O3 -arch=sm_90 -Xcompiler -fopenmp -o cmb cluster_mb.cu
// Run:   ./cmb 64 3.0
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <algorithm>
#include <cmath>
#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { printf("%s: %s\n", #x, cudaGetErrorString(e_)); exit(1);} } while (0)
struct P { float x, y, z; int key; };
__device__ __forceinline__ float mi(float d, float L, float iL) { return d - L * rintf(d * iL); }
__global__ void kfull(int n, const float4 *__restrict__ x, const int4 *__restrict__ nl, const int *__restrict__ nn, float4 *f, float L, float rc2)
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
		}
	}
	f[i] = make_float4(fx, fy, fz, 0.f);
}
// x has n+1 entries: x[n] is a NaN phantom (padding), masked by the comparison.
template <int G, int U>
__global__ void kclus(int n, int ncl, const float4 *__restrict__ x, const int *__restrict__ cl, const int *__restrict__ cs, float4 *f, float L, float rc2)
{
	constexpr int J = 32 / G;
	int w = (blockIdx.x * blockDim.x + threadIdx.x) >> 5, lane = threadIdx.x & 31;
	if (w >= ncl) return;
	int gi = lane % G, js = lane / G;
	int i = w * G + gi;
	float iL = 1.f / L;
	float4 xi = x[i < n ? i : n];
	int b = cs[w], e = cs[w + 1]; // padded to a multiple of J * U
	float fx = 0, fy = 0, fz = 0;
	for (int k = b; k < e; k += J * U) {
		int ej[U];
#pragma unroll
		for (int u = 0; u < U; u++) ej[u] = __ldg(cl + k + u * J + js);
		float4 xj[U];
#pragma unroll
		for (int u = 0; u < U; u++) xj[u] = __ldg(x + ej[u]);
#pragma unroll
		for (int u = 0; u < U; u++) {
			float dx = mi(xi.x - xj[u].x, L, iL), dy = mi(xi.y - xj[u].y, L, iL), dz = mi(xi.z - xj[u].z, L, iL);
			float r2 = dx * dx + dy * dy + dz * dz;
			bool ok = r2 < rc2 && r2 > 0.f;
			float ir2 = ok ? 1.f / r2 : 0.f;
			float ir6 = ir2 * ir2 * ir2;
			float ff = 24.f * ir6 * (2.f * ir6 - 1.f) * ir2;
			fx += ff * dx; fy += ff * dy; fz += ff * dz;
		}
	}
#pragma unroll
	for (int o = G; o < 32; o <<= 1) {
		fx += __shfl_xor_sync(0xffffffffu, fx, o);
		fy += __shfl_xor_sync(0xffffffffu, fy, o);
		fz += __shfl_xor_sync(0xffffffffu, fz, o);
	}
	if (js == 0 && i < n) f[i] = make_float4(fx, fy, fz, 0.f);
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
	std::vector<float4> hx(n + 1);
	for (int i = 0; i < n; i++) hx[i] = make_float4(p[i].x, p[i].y, p[i].z, 0);
	hx[n] = make_float4(nanf(""), nanf(""), nanf(""), 0);
	float4 *dx, *df; CK(cudaMalloc(&dx, (n + 1) * 16)); CK(cudaMalloc(&df, n * 16));
	CK(cudaMemcpy(dx, hx.data(), (n + 1) * 16, cudaMemcpyHostToDevice));
	std::vector<float4> ref(n), got(n);
	auto timeit = [&](auto go, const char *what, double avg, double lines) {
		for (int w = 0; w < 20; w++) go();
		cudaEvent_t e0, e1; cudaEventCreate(&e0); cudaEventCreate(&e1);
		int it = 200;
		cudaEventRecord(e0); for (int w = 0; w < it; w++) go(); cudaEventRecord(e1);
		CK(cudaEventSynchronize(e1)); CK(cudaGetLastError()); float ms; cudaEventElapsedTime(&ms, e0, e1);
		CK(cudaMemcpy(got.data(), df, n * 16, cudaMemcpyDeviceToHost));
		double md = 0, fr = 0;
		for (int i = 0; i < n; i++) { float4 a = ref[i], b = got[i]; md = std::max(md, (double)fabsf(a.x - b.x) + fabsf(a.y - b.y) + fabsf(a.z - b.z)); fr += a.x * a.x; }
		printf("n %d rlist %.2f %-22s entries/particle %6.1f lines/pass %5.2f  %7.1f us/launch  maxdiff %.2e (Frms %.2f)\n", n, rlist, what, avg, lines,
		       1000 * ms / it, md, sqrt(fr / n));
	};
	{ // full
		std::vector<int> nn(n); int mx = 0; double avg = 0;
		for (int i = 0; i < n; i++) { nn[i] = full[i].size(); mx = std::max(mx, nn[i]); avg += nn[i]; }
		avg /= n;
		int rows = (mx + 3) / 4;
		std::vector<int4> nl((size_t)rows * n, make_int4(0, 0, 0, 0));
		for (int i = 0; i < n; i++) for (size_t k = 0; k < full[i].size(); k++) ((int *)&nl[(k / 4) * n + i])[k % 4] = full[i][k];
		int4 *dnl; int *dnn;
		CK(cudaMalloc(&dnl, nl.size() * 16)); CK(cudaMalloc(&dnn, n * 4));
		CK(cudaMemcpy(dnl, nl.data(), nl.size() * 16, cudaMemcpyHostToDevice));
		CK(cudaMemcpy(dnn, nn.data(), n * 4, cudaMemcpyHostToDevice));
		kfull<<<(n + 127) / 128, 128>>>(n, dx, dnl, dnn, df, L, rc * rc);
		CK(cudaMemcpy(ref.data(), df, n * 16, cudaMemcpyDeviceToHost));
		for (int bs : {128, 256})
			timeit([&] { kfull<<<(n + bs - 1) / bs, bs>>>(n, dx, dnl, dnn, df, L, rc * rc); }, bs == 128 ? "full b128" : "full b256", avg, 0);
		cudaFree(dnl); cudaFree(dnn);
	}
	auto clus = [&](auto kern, int G, int U, const char *name) {
		int J = 32 / G, ncl = (n + G - 1) / G;
		std::vector<int> cs(ncl + 1, 0), cl;
		double tot = 0, lines = 0, passes = 0;
		for (int w = 0; w < ncl; w++) {
			std::vector<int> u;
			for (int g = 0; g < G && w * G + g < n; g++) { int i = w * G + g; u.insert(u.end(), full[i].begin(), full[i].end()); u.push_back(i); }
			std::sort(u.begin(), u.end()); u.erase(std::unique(u.begin(), u.end()), u.end());
			tot += u.size();
			while (u.size() % (J * U)) u.push_back(n);
			for (size_t k = 0; k < u.size(); k += J) {
				std::vector<int> ln;
				for (int s = 0; s < J; s++) if (u[k + s] < n) ln.push_back(u[k + s] * 16 / 128);
				std::sort(ln.begin(), ln.end()); lines += std::unique(ln.begin(), ln.end()) - ln.begin(); passes++;
			}
			cl.insert(cl.end(), u.begin(), u.end());
			cs[w + 1] = cl.size();
		}
		int *dcl, *dcs;
		CK(cudaMalloc(&dcl, cl.size() * 4)); CK(cudaMalloc(&dcs, cs.size() * 4));
		CK(cudaMemcpy(dcl, cl.data(), cl.size() * 4, cudaMemcpyHostToDevice));
		CK(cudaMemcpy(dcs, cs.data(), cs.size() * 4, cudaMemcpyHostToDevice));
		for (int bs : {128, 256}) {
			char nm[64]; snprintf(nm, sizeof nm, "%s b%d", name, bs);
			int nb = (int)(((size_t)ncl * 32 + bs - 1) / bs);
			CK(cudaMemset(df, 0, n * 16));
			timeit([&] { kern<<<nb, bs>>>(n, ncl, dx, dcl, dcs, df, L, rc * rc); }, nm, tot * G / n, lines / passes);
		}
		cudaFree(dcl); cudaFree(dcs);
	};
	clus(kclus<1, 2>, 1, 2, "G1 J32 U2");
	clus(kclus<2, 2>, 2, 2, "G2 J16 U2");
	clus(kclus<2, 4>, 2, 4, "G2 J16 U4");
	clus(kclus<4, 2>, 4, 2, "G4 J8 U2");
	clus(kclus<4, 4>, 4, 4, "G4 J8 U4");
	clus(kclus<8, 4>, 8, 4, "G8 J4 U4");
	clus(kclus<8, 8>, 8, 8, "G8 J4 U8");
	clus(kclus<16, 8>, 16, 8, "G16 J2 U8");
}
