__global__ void matmul_sum(int m, int n, int kk, const float *A, const float *B, float *C)
{
    int row = blockIdx.y * blockDim.y + threadIdx.y;
    int col = blockIdx.x * blockDim.x + threadIdx.x;
    if (blockDim.x == 32 && blockDim.y == 8 && blockDim.z == 1 && gridDim.z == 1) {
    	__shared__ __align__(16) float cl1_sr[2][16][68];
    	__shared__ __align__(16) float cl1_sc[2][16][68];
    	const int cl1_tid = threadIdx.x + 32 * threadIdx.y;
    	const int cl1_tx = cl1_tid % 16, cl1_ty = cl1_tid / 16;
    	const long long cl1_ey = (long long)(gridDim.y * 8), cl1_ex = (long long)(gridDim.x * 32);
    	const int cl1_nx = (int)((cl1_ex + 63) / 64);
    	const int cl1_tiles = cl1_nx * (int)((cl1_ey + 63) / 64);
    	const bool cl1_vr = ((unsigned long long)(A) & 15) == 0 && (kk) % 4 == 0 && (0) % 4 == 0;
    	const bool cl1_vc = ((unsigned long long)(B) & 15) == 0 && (n) % 4 == 0;
    	const long long cl1_kn = (long long)(kk) - (long long)(0);
    	const int cl1_stages = cl1_kn > 0 ? (int)((cl1_kn + 15) / 16) : 0;
    	const int cl1_nb = (int)(gridDim.x * gridDim.y), cl1_bi = (int)(blockIdx.x + gridDim.x * blockIdx.y);
    	for (int cl1_p = 0;; cl1_p++) {
    		const int cl1_t = cl1_p & 1 ? (cl1_p + 1) * cl1_nb - 1 - cl1_bi : cl1_p * cl1_nb + cl1_bi;
    		if (cl1_t >= cl1_tiles)
    			break;
    		const long long cl1_r0 = (long long)(cl1_t / cl1_nx) * 64, cl1_c0 = (long long)(cl1_t % cl1_nx) * 64;
    		float cl1_acc[4][4];
    		int cl1_live = 0;
    		#pragma unroll
    		for (int cl1_m = 0; cl1_m < 4; cl1_m++) {
    			#pragma unroll
    			for (int cl1_n = 0; cl1_n < 4; cl1_n++) {
    				const decltype(row) cl1_i = (decltype(row))(cl1_r0 + cl1_m / 4 * 64 + cl1_ty * 4 + cl1_m % 4);
    				const decltype(col) cl1_j = (decltype(col))(cl1_c0 + cl1_n / 4 * 64 + cl1_tx * 4 + cl1_n % 4);
    				cl1_acc[cl1_m][cl1_n] = 0.0f;
    				if (cl1_i < cl1_ey && cl1_j < cl1_ex && (cl1_i < m && cl1_j < n)) { cl1_acc[cl1_m][cl1_n] = 0.0f; cl1_live = 1; }
    			}
    		}
    		if (!__syncthreads_or(cl1_live))
    			continue;
    		const decltype(row) cl1_or = (decltype(row))(cl1_r0 + cl1_tid / 4);
    		bool cl1_okr[1];
    		#pragma unroll
    		for (int cl1_q = 0; cl1_q < 1; cl1_q++) {
    			const decltype(row) cl1_u = (decltype(row))(cl1_or + cl1_q);
    			cl1_okr[cl1_q] = false;
    			for (int cl1_w = 0; cl1_u < cl1_ey && cl1_w < 64 && !cl1_okr[cl1_q]; cl1_w++) {
    				const decltype(col) cl1_w2 = (decltype(col))(cl1_c0 + cl1_w);
    				cl1_okr[cl1_q] = cl1_w2 < cl1_ex && (cl1_u < m && cl1_w2 < n);
    			}
    		}
    		const decltype(col) cl1_oc = (decltype(col))(cl1_c0 + cl1_tid % 16 * 4);
    		bool cl1_okc[4];
    		#pragma unroll
    		for (int cl1_q = 0; cl1_q < 4; cl1_q++) {
    			const decltype(col) cl1_u = (decltype(col))(cl1_oc + cl1_q);
    			cl1_okc[cl1_q] = false;
    			for (int cl1_w = 0; cl1_u < cl1_ex && cl1_w < 64 && !cl1_okc[cl1_q]; cl1_w++) {
    				const decltype(row) cl1_w2 = (decltype(row))(cl1_r0 + cl1_w);
    				cl1_okc[cl1_q] = cl1_w2 < cl1_ey && (cl1_w2 < m && cl1_u < n);
    			}
    		}
    		float4 cl1_xr, cl1_xc;
    		if (cl1_stages > 0) {
    			const int cl1_k0 = (0);
    			{
    				const int cl1_k = cl1_k0 + cl1_tid % 4 * 4;
    				if (cl1_okr[0] && cl1_vr && cl1_k + 4 <= (kk)) {
    					const float4 cl1_v4 = *(const float4 *)&A[(cl1_or) * (kk) + cl1_k];
    					cl1_xr.x = (cl1_v4.x);
    					cl1_xr.y = (cl1_v4.y);
    					cl1_xr.z = (cl1_v4.z);
    					cl1_xr.w = (cl1_v4.w);
    				} else {
    					cl1_xr.x = cl1_okr[0] && cl1_k + 0 < (kk) ? (A[(cl1_or) * (kk) + cl1_k + 0]) : 0.0f;
    					cl1_xr.y = cl1_okr[0] && cl1_k + 1 < (kk) ? (A[(cl1_or) * (kk) + cl1_k + 1]) : 0.0f;
    					cl1_xr.z = cl1_okr[0] && cl1_k + 2 < (kk) ? (A[(cl1_or) * (kk) + cl1_k + 2]) : 0.0f;
    					cl1_xr.w = cl1_okr[0] && cl1_k + 3 < (kk) ? (A[(cl1_or) * (kk) + cl1_k + 3]) : 0.0f;
    				}
    			}
    			{
    				const int cl1_k = cl1_k0 + cl1_tid / 16;
    				const bool cl1_kin = cl1_k < (kk);
    				if (cl1_kin && cl1_vc && cl1_okc[0] && cl1_okc[1] && cl1_okc[2] && cl1_okc[3]) {
    					const float4 cl1_v4 = *(const float4 *)&B[(cl1_k) * (n) + cl1_oc];
    					cl1_xc.x = (cl1_v4.x);
    					cl1_xc.y = (cl1_v4.y);
    					cl1_xc.z = (cl1_v4.z);
    					cl1_xc.w = (cl1_v4.w);
    				} else {
    					cl1_xc.x = cl1_kin && cl1_okc[0] ? (B[(cl1_k) * (n) + cl1_oc + 0]) : 0.0f;
    					cl1_xc.y = cl1_kin && cl1_okc[1] ? (B[(cl1_k) * (n) + cl1_oc + 1]) : 0.0f;
    					cl1_xc.z = cl1_kin && cl1_okc[2] ? (B[(cl1_k) * (n) + cl1_oc + 2]) : 0.0f;
    					cl1_xc.w = cl1_kin && cl1_okc[3] ? (B[(cl1_k) * (n) + cl1_oc + 3]) : 0.0f;
    				}
    			}
    			cl1_sr[0][cl1_tid % 4 * 4 + 0][cl1_tid / 4] = cl1_xr.x;
    			cl1_sr[0][cl1_tid % 4 * 4 + 1][cl1_tid / 4] = cl1_xr.y;
    			cl1_sr[0][cl1_tid % 4 * 4 + 2][cl1_tid / 4] = cl1_xr.z;
    			cl1_sr[0][cl1_tid % 4 * 4 + 3][cl1_tid / 4] = cl1_xr.w;
    			*(float4 *)&cl1_sc[0][cl1_tid / 16][cl1_tid % 16 * 4] = cl1_xc;
    			__syncthreads();
    		}
    		for (int cl1_s = 0; cl1_s < cl1_stages; cl1_s++) {
    			const int cl1_buf = cl1_s & 1;
    			const int cl1_k0 = (0) + (cl1_s + 1) * 16;
    			if (cl1_s + 1 < cl1_stages) {
    				{
    					const int cl1_k = cl1_k0 + cl1_tid % 4 * 4;
    					if (cl1_okr[0] && cl1_vr && cl1_k + 4 <= (kk)) {
    						const float4 cl1_v4 = *(const float4 *)&A[(cl1_or) * (kk) + cl1_k];
    						cl1_xr.x = (cl1_v4.x);
    						cl1_xr.y = (cl1_v4.y);
    						cl1_xr.z = (cl1_v4.z);
    						cl1_xr.w = (cl1_v4.w);
    					} else {
    						cl1_xr.x = cl1_okr[0] && cl1_k + 0 < (kk) ? (A[(cl1_or) * (kk) + cl1_k + 0]) : 0.0f;
    						cl1_xr.y = cl1_okr[0] && cl1_k + 1 < (kk) ? (A[(cl1_or) * (kk) + cl1_k + 1]) : 0.0f;
    						cl1_xr.z = cl1_okr[0] && cl1_k + 2 < (kk) ? (A[(cl1_or) * (kk) + cl1_k + 2]) : 0.0f;
    						cl1_xr.w = cl1_okr[0] && cl1_k + 3 < (kk) ? (A[(cl1_or) * (kk) + cl1_k + 3]) : 0.0f;
    					}
    				}
    				{
    					const int cl1_k = cl1_k0 + cl1_tid / 16;
    					const bool cl1_kin = cl1_k < (kk);
    					if (cl1_kin && cl1_vc && cl1_okc[0] && cl1_okc[1] && cl1_okc[2] && cl1_okc[3]) {
    						const float4 cl1_v4 = *(const float4 *)&B[(cl1_k) * (n) + cl1_oc];
    						cl1_xc.x = (cl1_v4.x);
    						cl1_xc.y = (cl1_v4.y);
    						cl1_xc.z = (cl1_v4.z);
    						cl1_xc.w = (cl1_v4.w);
    					} else {
    						cl1_xc.x = cl1_kin && cl1_okc[0] ? (B[(cl1_k) * (n) + cl1_oc + 0]) : 0.0f;
    						cl1_xc.y = cl1_kin && cl1_okc[1] ? (B[(cl1_k) * (n) + cl1_oc + 1]) : 0.0f;
    						cl1_xc.z = cl1_kin && cl1_okc[2] ? (B[(cl1_k) * (n) + cl1_oc + 2]) : 0.0f;
    						cl1_xc.w = cl1_kin && cl1_okc[3] ? (B[(cl1_k) * (n) + cl1_oc + 3]) : 0.0f;
    					}
    				}
    			}
    			#pragma unroll
    			for (int cl1_kk = 0; cl1_kk < 16; cl1_kk++) {
    				float cl1_a[4], cl1_b[4];
    				#pragma unroll
    				for (int cl1_g = 0; cl1_g < 1; cl1_g++) {
    					const float4 cl1_v4 = *(const float4 *)&cl1_sr[cl1_buf][cl1_kk][cl1_g * 64 + cl1_ty * 4];
    					cl1_a[cl1_g * 4] = cl1_v4.x, cl1_a[cl1_g * 4 + 1] = cl1_v4.y, cl1_a[cl1_g * 4 + 2] = cl1_v4.z, cl1_a[cl1_g * 4 + 3] = cl1_v4.w;
    				}
    				#pragma unroll
    				for (int cl1_g = 0; cl1_g < 1; cl1_g++) {
    					const float4 cl1_v4 = *(const float4 *)&cl1_sc[cl1_buf][cl1_kk][cl1_g * 64 + cl1_tx * 4];
    					cl1_b[cl1_g * 4] = cl1_v4.x, cl1_b[cl1_g * 4 + 1] = cl1_v4.y, cl1_b[cl1_g * 4 + 2] = cl1_v4.z, cl1_b[cl1_g * 4 + 3] = cl1_v4.w;
    				}
    				#pragma unroll
    				for (int cl1_m = 0; cl1_m < 4; cl1_m++)
    					#pragma unroll
    					for (int cl1_n = 0; cl1_n < 4; cl1_n++)
    						cl1_acc[cl1_m][cl1_n] += cl1_a[cl1_m] * cl1_b[cl1_n];
    			}
    			if (cl1_s + 1 < cl1_stages) {
    				cl1_sr[cl1_buf ^ 1][cl1_tid % 4 * 4 + 0][cl1_tid / 4] = cl1_xr.x;
    				cl1_sr[cl1_buf ^ 1][cl1_tid % 4 * 4 + 1][cl1_tid / 4] = cl1_xr.y;
    				cl1_sr[cl1_buf ^ 1][cl1_tid % 4 * 4 + 2][cl1_tid / 4] = cl1_xr.z;
    				cl1_sr[cl1_buf ^ 1][cl1_tid % 4 * 4 + 3][cl1_tid / 4] = cl1_xr.w;
    				*(float4 *)&cl1_sc[cl1_buf ^ 1][cl1_tid / 16][cl1_tid % 16 * 4] = cl1_xc;
    			}
    			__syncthreads();
    		}
    		#pragma unroll
    		for (int cl1_m = 0; cl1_m < 4; cl1_m++) {
    			#pragma unroll
    			for (int cl1_n = 0; cl1_n < 4; cl1_n++) {
    				const decltype(row) cl1_i = (decltype(row))(cl1_r0 + cl1_m / 4 * 64 + cl1_ty * 4 + cl1_m % 4);
    				const decltype(col) cl1_j = (decltype(col))(cl1_c0 + cl1_n / 4 * 64 + cl1_tx * 4 + cl1_n % 4);
    				if (cl1_i < cl1_ey && cl1_j < cl1_ex && (cl1_i < m && cl1_j < n)) { C[cl1_i * n + cl1_j] = cl1_acc[cl1_m][cl1_n]; }
    			}
    		}
    	}
    } else if (row < m && col < n) {
        float sum = 0.0f;
        for (int k = 0; k < kk; k++)
            sum += A[row * kk + k] * B[k * n + col];
        C[row * n + col] = sum;
    }
}
