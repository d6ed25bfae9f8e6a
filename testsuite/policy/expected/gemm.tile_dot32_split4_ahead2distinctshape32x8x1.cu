__global__ void gemm(int ni, int nj, int nk, float alpha, float beta, float *a, float *b, float *c)
{
    int j = blockIdx.x * blockDim.x + threadIdx.x;
    int i = blockIdx.y * blockDim.y + threadIdx.y;

    if (blockDim.x == 32 && blockDim.y == 8 && blockDim.z == 1 && gridDim.z == 1) {
    	__shared__ __align__(16) float cl1_sr[2][32][36];
    	__shared__ __align__(16) float cl1_sc[2][32][36];
    	__shared__ float cl1_part[1024];
    	const int cl1_tid = threadIdx.x + 32 * threadIdx.y;
    	const int cl1_grp = cl1_tid / 64, cl1_lt = cl1_tid % 64;
    	const int cl1_tx = cl1_lt % 8, cl1_ty = cl1_lt / 8;
    	const long long cl1_ey = (long long)(gridDim.y * 8), cl1_ex = (long long)(gridDim.x * 32);
    	const int cl1_nx = (int)((cl1_ex + 31) / 32);
    	const int cl1_tiles = cl1_nx * (int)((cl1_ey + 31) / 32);
    	const bool cl1_vr = ((unsigned long long)(a) & 15) == 0 && (nk) % 4 == 0 && (0) % 4 == 0;
    	const bool cl1_vc = ((unsigned long long)(b) & 15) == 0 && (nj) % 4 == 0;
    	const long long cl1_kn = (long long)(nk) - (long long)(0);
    	const int cl1_stages = cl1_kn > 0 ? (int)((cl1_kn + 31) / 32) : 0;
    	const int cl1_nb = (int)(gridDim.x * gridDim.y), cl1_bi = (int)(blockIdx.x + gridDim.x * blockIdx.y);
    	for (int cl1_p = 0;; cl1_p++) {
    		const int cl1_t = cl1_p & 1 ? (cl1_p + 1) * cl1_nb - 1 - cl1_bi : cl1_p * cl1_nb + cl1_bi;
    		if (cl1_t >= cl1_tiles)
    			break;
    		const long long cl1_r0 = (long long)(cl1_t / cl1_nx) * 32, cl1_c0 = (long long)(cl1_t % cl1_nx) * 32;
    		float cl1_acc[4][4];
    		int cl1_live = 0;
    		#pragma unroll
    		for (int cl1_m = 0; cl1_m < 4; cl1_m++) {
    			#pragma unroll
    			for (int cl1_n = 0; cl1_n < 4; cl1_n++) {
    				const decltype(i) cl1_i = (decltype(i))(cl1_r0 + cl1_m / 4 * 32 + cl1_ty * 4 + cl1_m % 4);
    				const decltype(j) cl1_j = (decltype(j))(cl1_c0 + cl1_n / 4 * 32 + cl1_tx * 4 + cl1_n % 4);
    				cl1_acc[cl1_m][cl1_n] = 0.0f;
    				if (cl1_i < cl1_ey && cl1_j < cl1_ex && ((cl1_i < ni) && (cl1_j < nj))) { if (cl1_grp == 0) { c[cl1_i * nj + cl1_j] *= beta; cl1_acc[cl1_m][cl1_n] = c[cl1_i * nj + cl1_j]; } cl1_live = 1; }
    			}
    		}
    		if (!__syncthreads_or(cl1_live))
    			continue;
    		const decltype(i) cl1_or = (decltype(i))(cl1_r0 + cl1_tid / 8);
    		bool cl1_okr[1];
    		#pragma unroll
    		for (int cl1_q = 0; cl1_q < 1; cl1_q++) {
    			const decltype(i) cl1_u = (decltype(i))(cl1_or + cl1_q);
    			cl1_okr[cl1_q] = false;
    			for (int cl1_w = 0; cl1_u < cl1_ey && cl1_w < 32 && !cl1_okr[cl1_q]; cl1_w++) {
    				const decltype(j) cl1_w2 = (decltype(j))(cl1_c0 + cl1_w);
    				cl1_okr[cl1_q] = cl1_w2 < cl1_ex && ((cl1_u < ni) && (cl1_w2 < nj));
    			}
    		}
    		const decltype(j) cl1_oc = (decltype(j))(cl1_c0 + cl1_tid % 8 * 4);
    		bool cl1_okc[4];
    		#pragma unroll
    		for (int cl1_q = 0; cl1_q < 4; cl1_q++) {
    			const decltype(j) cl1_u = (decltype(j))(cl1_oc + cl1_q);
    			cl1_okc[cl1_q] = false;
    			for (int cl1_w = 0; cl1_u < cl1_ex && cl1_w < 32 && !cl1_okc[cl1_q]; cl1_w++) {
    				const decltype(i) cl1_w2 = (decltype(i))(cl1_r0 + cl1_w);
    				cl1_okc[cl1_q] = cl1_w2 < cl1_ey && ((cl1_w2 < ni) && (cl1_u < nj));
    			}
    		}
    		float4 cl1_xr, cl1_xc;
    		float4 cl1_yr, cl1_yc;
    		if (cl1_stages > 0) {
    			const int cl1_k0 = (0);
    			{
    				const int cl1_k = cl1_k0 + cl1_tid % 8 * 4;
    				if (cl1_okr[0] && cl1_vr && cl1_k + 4 <= (nk)) {
    					const float4 cl1_v4 = *(const float4 *)&a[(cl1_or) * (nk) + cl1_k];
    					cl1_xr.x = alpha * (cl1_v4.x);
    					cl1_xr.y = alpha * (cl1_v4.y);
    					cl1_xr.z = alpha * (cl1_v4.z);
    					cl1_xr.w = alpha * (cl1_v4.w);
    				} else {
    					cl1_xr.x = cl1_okr[0] && cl1_k + 0 < (nk) ? alpha * (a[(cl1_or) * (nk) + cl1_k + 0]) : 0.0f;
    					cl1_xr.y = cl1_okr[0] && cl1_k + 1 < (nk) ? alpha * (a[(cl1_or) * (nk) + cl1_k + 1]) : 0.0f;
    					cl1_xr.z = cl1_okr[0] && cl1_k + 2 < (nk) ? alpha * (a[(cl1_or) * (nk) + cl1_k + 2]) : 0.0f;
    					cl1_xr.w = cl1_okr[0] && cl1_k + 3 < (nk) ? alpha * (a[(cl1_or) * (nk) + cl1_k + 3]) : 0.0f;
    				}
    			}
    			{
    				const int cl1_k = cl1_k0 + cl1_tid / 8;
    				const bool cl1_kin = cl1_k < (nk);
    				if (cl1_kin && cl1_vc && cl1_okc[0] && cl1_okc[1] && cl1_okc[2] && cl1_okc[3]) {
    					const float4 cl1_v4 = *(const float4 *)&b[(cl1_k) * (nj) + cl1_oc];
    					cl1_xc.x = (cl1_v4.x);
    					cl1_xc.y = (cl1_v4.y);
    					cl1_xc.z = (cl1_v4.z);
    					cl1_xc.w = (cl1_v4.w);
    				} else {
    					cl1_xc.x = cl1_kin && cl1_okc[0] ? (b[(cl1_k) * (nj) + cl1_oc + 0]) : 0.0f;
    					cl1_xc.y = cl1_kin && cl1_okc[1] ? (b[(cl1_k) * (nj) + cl1_oc + 1]) : 0.0f;
    					cl1_xc.z = cl1_kin && cl1_okc[2] ? (b[(cl1_k) * (nj) + cl1_oc + 2]) : 0.0f;
    					cl1_xc.w = cl1_kin && cl1_okc[3] ? (b[(cl1_k) * (nj) + cl1_oc + 3]) : 0.0f;
    				}
    			}
    			cl1_sr[0][cl1_tid % 8 * 4 + 0][cl1_tid / 8] = cl1_xr.x;
    			cl1_sr[0][cl1_tid % 8 * 4 + 1][cl1_tid / 8] = cl1_xr.y;
    			cl1_sr[0][cl1_tid % 8 * 4 + 2][cl1_tid / 8] = cl1_xr.z;
    			cl1_sr[0][cl1_tid % 8 * 4 + 3][cl1_tid / 8] = cl1_xr.w;
    			*(float4 *)&cl1_sc[0][cl1_tid / 8][cl1_tid % 8 * 4] = cl1_xc;
    			if (cl1_stages > 1) {
    				const int cl1_k0 = (0) + 32;
    				{
    					const int cl1_k = cl1_k0 + cl1_tid % 8 * 4;
    					if (cl1_okr[0] && cl1_vr && cl1_k + 4 <= (nk)) {
    						const float4 cl1_v4 = *(const float4 *)&a[(cl1_or) * (nk) + cl1_k];
    						cl1_xr.x = alpha * (cl1_v4.x);
    						cl1_xr.y = alpha * (cl1_v4.y);
    						cl1_xr.z = alpha * (cl1_v4.z);
    						cl1_xr.w = alpha * (cl1_v4.w);
    					} else {
    						cl1_xr.x = cl1_okr[0] && cl1_k + 0 < (nk) ? alpha * (a[(cl1_or) * (nk) + cl1_k + 0]) : 0.0f;
    						cl1_xr.y = cl1_okr[0] && cl1_k + 1 < (nk) ? alpha * (a[(cl1_or) * (nk) + cl1_k + 1]) : 0.0f;
    						cl1_xr.z = cl1_okr[0] && cl1_k + 2 < (nk) ? alpha * (a[(cl1_or) * (nk) + cl1_k + 2]) : 0.0f;
    						cl1_xr.w = cl1_okr[0] && cl1_k + 3 < (nk) ? alpha * (a[(cl1_or) * (nk) + cl1_k + 3]) : 0.0f;
    					}
    				}
    				{
    					const int cl1_k = cl1_k0 + cl1_tid / 8;
    					const bool cl1_kin = cl1_k < (nk);
    					if (cl1_kin && cl1_vc && cl1_okc[0] && cl1_okc[1] && cl1_okc[2] && cl1_okc[3]) {
    						const float4 cl1_v4 = *(const float4 *)&b[(cl1_k) * (nj) + cl1_oc];
    						cl1_xc.x = (cl1_v4.x);
    						cl1_xc.y = (cl1_v4.y);
    						cl1_xc.z = (cl1_v4.z);
    						cl1_xc.w = (cl1_v4.w);
    					} else {
    						cl1_xc.x = cl1_kin && cl1_okc[0] ? (b[(cl1_k) * (nj) + cl1_oc + 0]) : 0.0f;
    						cl1_xc.y = cl1_kin && cl1_okc[1] ? (b[(cl1_k) * (nj) + cl1_oc + 1]) : 0.0f;
    						cl1_xc.z = cl1_kin && cl1_okc[2] ? (b[(cl1_k) * (nj) + cl1_oc + 2]) : 0.0f;
    						cl1_xc.w = cl1_kin && cl1_okc[3] ? (b[(cl1_k) * (nj) + cl1_oc + 3]) : 0.0f;
    					}
    				}
    			}
    			__syncthreads();
    		}
    		for (int cl1_s = 0; cl1_s < cl1_stages; cl1_s++) {
    			const int cl1_buf = cl1_s & 1;
    			const int cl1_k0 = (0) + (cl1_s + 2) * 32;
    			if (cl1_s + 2 < cl1_stages) {
    				{
    					const int cl1_k = cl1_k0 + cl1_tid % 8 * 4;
    					if (cl1_okr[0] && cl1_vr && cl1_k + 4 <= (nk)) {
    						const float4 cl1_v4 = *(const float4 *)&a[(cl1_or) * (nk) + cl1_k];
    						cl1_yr.x = alpha * (cl1_v4.x);
    						cl1_yr.y = alpha * (cl1_v4.y);
    						cl1_yr.z = alpha * (cl1_v4.z);
    						cl1_yr.w = alpha * (cl1_v4.w);
    					} else {
    						cl1_yr.x = cl1_okr[0] && cl1_k + 0 < (nk) ? alpha * (a[(cl1_or) * (nk) + cl1_k + 0]) : 0.0f;
    						cl1_yr.y = cl1_okr[0] && cl1_k + 1 < (nk) ? alpha * (a[(cl1_or) * (nk) + cl1_k + 1]) : 0.0f;
    						cl1_yr.z = cl1_okr[0] && cl1_k + 2 < (nk) ? alpha * (a[(cl1_or) * (nk) + cl1_k + 2]) : 0.0f;
    						cl1_yr.w = cl1_okr[0] && cl1_k + 3 < (nk) ? alpha * (a[(cl1_or) * (nk) + cl1_k + 3]) : 0.0f;
    					}
    				}
    				{
    					const int cl1_k = cl1_k0 + cl1_tid / 8;
    					const bool cl1_kin = cl1_k < (nk);
    					if (cl1_kin && cl1_vc && cl1_okc[0] && cl1_okc[1] && cl1_okc[2] && cl1_okc[3]) {
    						const float4 cl1_v4 = *(const float4 *)&b[(cl1_k) * (nj) + cl1_oc];
    						cl1_yc.x = (cl1_v4.x);
    						cl1_yc.y = (cl1_v4.y);
    						cl1_yc.z = (cl1_v4.z);
    						cl1_yc.w = (cl1_v4.w);
    					} else {
    						cl1_yc.x = cl1_kin && cl1_okc[0] ? (b[(cl1_k) * (nj) + cl1_oc + 0]) : 0.0f;
    						cl1_yc.y = cl1_kin && cl1_okc[1] ? (b[(cl1_k) * (nj) + cl1_oc + 1]) : 0.0f;
    						cl1_yc.z = cl1_kin && cl1_okc[2] ? (b[(cl1_k) * (nj) + cl1_oc + 2]) : 0.0f;
    						cl1_yc.w = cl1_kin && cl1_okc[3] ? (b[(cl1_k) * (nj) + cl1_oc + 3]) : 0.0f;
    					}
    				}
    			}
    			#pragma unroll
    			for (int cl1_kk = 0; cl1_kk < 8; cl1_kk++) {
    				float cl1_a[4], cl1_b[4];
    				#pragma unroll
    				for (int cl1_g = 0; cl1_g < 1; cl1_g++) {
    					const float4 cl1_v4 = *(const float4 *)&cl1_sr[cl1_buf][cl1_grp * 8 + cl1_kk][cl1_g * 32 + cl1_ty * 4];
    					cl1_a[cl1_g * 4] = cl1_v4.x, cl1_a[cl1_g * 4 + 1] = cl1_v4.y, cl1_a[cl1_g * 4 + 2] = cl1_v4.z, cl1_a[cl1_g * 4 + 3] = cl1_v4.w;
    				}
    				#pragma unroll
    				for (int cl1_g = 0; cl1_g < 1; cl1_g++) {
    					const float4 cl1_v4 = *(const float4 *)&cl1_sc[cl1_buf][cl1_grp * 8 + cl1_kk][cl1_g * 32 + cl1_tx * 4];
    					cl1_b[cl1_g * 4] = cl1_v4.x, cl1_b[cl1_g * 4 + 1] = cl1_v4.y, cl1_b[cl1_g * 4 + 2] = cl1_v4.z, cl1_b[cl1_g * 4 + 3] = cl1_v4.w;
    				}
    				#pragma unroll
    				for (int cl1_m = 0; cl1_m < 4; cl1_m++)
    					#pragma unroll
    					for (int cl1_n = 0; cl1_n < 4; cl1_n++)
    						cl1_acc[cl1_m][cl1_n] += cl1_a[cl1_m] * cl1_b[cl1_n];
    			}
    			if (cl1_s + 1 < cl1_stages) {
    				cl1_sr[cl1_buf ^ 1][cl1_tid % 8 * 4 + 0][cl1_tid / 8] = cl1_xr.x;
    				cl1_sr[cl1_buf ^ 1][cl1_tid % 8 * 4 + 1][cl1_tid / 8] = cl1_xr.y;
    				cl1_sr[cl1_buf ^ 1][cl1_tid % 8 * 4 + 2][cl1_tid / 8] = cl1_xr.z;
    				cl1_sr[cl1_buf ^ 1][cl1_tid % 8 * 4 + 3][cl1_tid / 8] = cl1_xr.w;
    				*(float4 *)&cl1_sc[cl1_buf ^ 1][cl1_tid / 8][cl1_tid % 8 * 4] = cl1_xc;
    				cl1_xr = cl1_yr, cl1_xc = cl1_yc;
    			}
    			__syncthreads();
    		}
    		for (int cl1_r = 1; cl1_stages > 0 && cl1_r < 4; cl1_r++) {
    			if (cl1_grp == cl1_r)
    				#pragma unroll
    				for (int cl1_m = 0; cl1_m < 4; cl1_m++)
    					#pragma unroll
    					for (int cl1_n = 0; cl1_n < 4; cl1_n++)
    						cl1_part[(cl1_m * 4 + cl1_n) * 64 + cl1_lt] = cl1_acc[cl1_m][cl1_n];
    			__syncthreads();
    			if (cl1_grp == 0)
    				#pragma unroll
    				for (int cl1_m = 0; cl1_m < 4; cl1_m++)
    					#pragma unroll
    					for (int cl1_n = 0; cl1_n < 4; cl1_n++)
    						cl1_acc[cl1_m][cl1_n] += cl1_part[(cl1_m * 4 + cl1_n) * 64 + cl1_lt];
    			__syncthreads();
    		}
    		#pragma unroll
    		for (int cl1_m = 0; cl1_m < 4; cl1_m++) {
    			#pragma unroll
    			for (int cl1_n = 0; cl1_n < 4; cl1_n++) {
    				const decltype(i) cl1_i = (decltype(i))(cl1_r0 + cl1_m / 4 * 32 + cl1_ty * 4 + cl1_m % 4);
    				const decltype(j) cl1_j = (decltype(j))(cl1_c0 + cl1_n / 4 * 32 + cl1_tx * 4 + cl1_n % 4);
    				if (cl1_grp == 0 && cl1_i < cl1_ey && cl1_j < cl1_ex && ((cl1_i < ni) && (cl1_j < nj))) { c[cl1_i * nj + cl1_j] = cl1_acc[cl1_m][cl1_n]; }
    			}
    		}
    	}
    } else if ((i < ni) && (j < nj))
    {
        c[i * nj + j] *= beta;
        int k;
        for (k = 0; k < nk; k++)
        {
            c[i * nj + j] += alpha * a[i * nk + k] * b[k * nj + j];
        }
    }
}
