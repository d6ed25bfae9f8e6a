/* cl1cc-launch: grid.y x64 */
__global__ void covar(int m, int n, float *sym, float *data)
{
    int j1 = blockIdx.x * blockDim.x + threadIdx.x;
    int i, j2;

    const bool cl1cc_split = (m) <= (m) && (m) <= (m) && (j1) >= 0;
    if (!cl1cc_split && blockIdx.y != 0)
        return;
    const int cl1cc_y0 = cl1cc_split ? (int)blockIdx.y : 0;
    const int cl1cc_ystep = cl1cc_split ? (int)gridDim.y : 1;
    if (cl1cc_split && blockDim.x == 256 && blockDim.y == 1 && blockDim.z == 1 && gridDim.z == 1) {
    	__shared__ __align__(16) float cl1_sr[2][16][68];
    	__shared__ __align__(16) float cl1_sc[2][16][68];
    	const int cl1_tid = threadIdx.x + 256 * threadIdx.y;
    	const int cl1_tx = cl1_tid % 16, cl1_ty = cl1_tid / 16;
    	const long long cl1_ey = (long long)(gridDim.x * 256), cl1_ex = (long long)(m);
    	const int cl1_nx = (int)((cl1_ex + 63) / 64);
    	const int cl1_tiles = cl1_nx * (int)((cl1_ey + 63) / 64);
    	const bool cl1_vr = ((unsigned long long)(data) & 15) == 0 && (m) % 4 == 0;
    	const bool cl1_vc = ((unsigned long long)(data) & 15) == 0 && (m) % 4 == 0;
    	const long long cl1_kn = (long long)(n) - (long long)(0);
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
    				const decltype(j1) cl1_i = (decltype(j1))(cl1_r0 + cl1_m / 4 * 64 + cl1_ty * 4 + cl1_m % 4);
    				const decltype(j2) cl1_j = (decltype(j2))(cl1_c0 + cl1_n / 4 * 64 + cl1_tx * 4 + cl1_n % 4);
    				cl1_acc[cl1_m][cl1_n] = 0.0f;
    				if (cl1_i < cl1_ey && cl1_j < cl1_ex && ((cl1_i < m) && (cl1_j) >= (cl1_i) && (cl1_j) < (m))) { cl1_acc[cl1_m][cl1_n] = 0.0; cl1_live = 1; }
    			}
    		}
    		if (!__syncthreads_or(cl1_live))
    			continue;
    		const decltype(j1) cl1_or = (decltype(j1))(cl1_r0 + cl1_tid % 16 * 4);
    		bool cl1_okr[4];
    		#pragma unroll
    		for (int cl1_q = 0; cl1_q < 4; cl1_q++) {
    			const decltype(j1) cl1_u = (decltype(j1))(cl1_or + cl1_q);
    			cl1_okr[cl1_q] = false;
    			for (int cl1_w = 0; cl1_u < cl1_ey && cl1_w < 64 && !cl1_okr[cl1_q]; cl1_w++) {
    				const decltype(j2) cl1_w2 = (decltype(j2))(cl1_c0 + cl1_w);
    				cl1_okr[cl1_q] = cl1_w2 < cl1_ex && ((cl1_u < m) && (cl1_w2) >= (cl1_u) && (cl1_w2) < (m));
    			}
    		}
    		const decltype(j2) cl1_oc = (decltype(j2))(cl1_c0 + cl1_tid % 16 * 4);
    		bool cl1_okc[4];
    		#pragma unroll
    		for (int cl1_q = 0; cl1_q < 4; cl1_q++) {
    			const decltype(j2) cl1_u = (decltype(j2))(cl1_oc + cl1_q);
    			cl1_okc[cl1_q] = false;
    			for (int cl1_w = 0; cl1_u < cl1_ex && cl1_w < 64 && !cl1_okc[cl1_q]; cl1_w++) {
    				const decltype(j1) cl1_w2 = (decltype(j1))(cl1_r0 + cl1_w);
    				cl1_okc[cl1_q] = cl1_w2 < cl1_ey && ((cl1_w2 < m) && (cl1_u) >= (cl1_w2) && (cl1_u) < (m));
    			}
    		}
    		float4 cl1_xr, cl1_xc;
    		float4 cl1_yr, cl1_yc;
    		if (cl1_stages > 0) {
    			const int cl1_k0 = (0);
    			{
    				const int cl1_k = cl1_k0 + cl1_tid / 16;
    				const bool cl1_kin = cl1_k < (n);
    				if (cl1_kin && cl1_vr && cl1_okr[0] && cl1_okr[1] && cl1_okr[2] && cl1_okr[3]) {
    					const float4 cl1_v4 = *(const float4 *)&data[(cl1_k) * (m) + cl1_or];
    					cl1_xr.x = (cl1_v4.x);
    					cl1_xr.y = (cl1_v4.y);
    					cl1_xr.z = (cl1_v4.z);
    					cl1_xr.w = (cl1_v4.w);
    				} else {
    					cl1_xr.x = cl1_kin && cl1_okr[0] ? (data[(cl1_k) * (m) + cl1_or + 0]) : 0.0f;
    					cl1_xr.y = cl1_kin && cl1_okr[1] ? (data[(cl1_k) * (m) + cl1_or + 1]) : 0.0f;
    					cl1_xr.z = cl1_kin && cl1_okr[2] ? (data[(cl1_k) * (m) + cl1_or + 2]) : 0.0f;
    					cl1_xr.w = cl1_kin && cl1_okr[3] ? (data[(cl1_k) * (m) + cl1_or + 3]) : 0.0f;
    				}
    			}
    			{
    				const int cl1_k = cl1_k0 + cl1_tid / 16;
    				const bool cl1_kin = cl1_k < (n);
    				if (cl1_kin && cl1_vc && cl1_okc[0] && cl1_okc[1] && cl1_okc[2] && cl1_okc[3]) {
    					const float4 cl1_v4 = *(const float4 *)&data[(cl1_k) * (m) + cl1_oc];
    					cl1_xc.x = (cl1_v4.x);
    					cl1_xc.y = (cl1_v4.y);
    					cl1_xc.z = (cl1_v4.z);
    					cl1_xc.w = (cl1_v4.w);
    				} else {
    					cl1_xc.x = cl1_kin && cl1_okc[0] ? (data[(cl1_k) * (m) + cl1_oc + 0]) : 0.0f;
    					cl1_xc.y = cl1_kin && cl1_okc[1] ? (data[(cl1_k) * (m) + cl1_oc + 1]) : 0.0f;
    					cl1_xc.z = cl1_kin && cl1_okc[2] ? (data[(cl1_k) * (m) + cl1_oc + 2]) : 0.0f;
    					cl1_xc.w = cl1_kin && cl1_okc[3] ? (data[(cl1_k) * (m) + cl1_oc + 3]) : 0.0f;
    				}
    			}
    			*(float4 *)&cl1_sr[0][cl1_tid / 16][cl1_tid % 16 * 4] = cl1_xr;
    			*(float4 *)&cl1_sc[0][cl1_tid / 16][cl1_tid % 16 * 4] = cl1_xc;
    			if (cl1_stages > 1) {
    				const int cl1_k0 = (0) + 16;
    				{
    					const int cl1_k = cl1_k0 + cl1_tid / 16;
    					const bool cl1_kin = cl1_k < (n);
    					if (cl1_kin && cl1_vr && cl1_okr[0] && cl1_okr[1] && cl1_okr[2] && cl1_okr[3]) {
    						const float4 cl1_v4 = *(const float4 *)&data[(cl1_k) * (m) + cl1_or];
    						cl1_xr.x = (cl1_v4.x);
    						cl1_xr.y = (cl1_v4.y);
    						cl1_xr.z = (cl1_v4.z);
    						cl1_xr.w = (cl1_v4.w);
    					} else {
    						cl1_xr.x = cl1_kin && cl1_okr[0] ? (data[(cl1_k) * (m) + cl1_or + 0]) : 0.0f;
    						cl1_xr.y = cl1_kin && cl1_okr[1] ? (data[(cl1_k) * (m) + cl1_or + 1]) : 0.0f;
    						cl1_xr.z = cl1_kin && cl1_okr[2] ? (data[(cl1_k) * (m) + cl1_or + 2]) : 0.0f;
    						cl1_xr.w = cl1_kin && cl1_okr[3] ? (data[(cl1_k) * (m) + cl1_or + 3]) : 0.0f;
    					}
    				}
    				{
    					const int cl1_k = cl1_k0 + cl1_tid / 16;
    					const bool cl1_kin = cl1_k < (n);
    					if (cl1_kin && cl1_vc && cl1_okc[0] && cl1_okc[1] && cl1_okc[2] && cl1_okc[3]) {
    						const float4 cl1_v4 = *(const float4 *)&data[(cl1_k) * (m) + cl1_oc];
    						cl1_xc.x = (cl1_v4.x);
    						cl1_xc.y = (cl1_v4.y);
    						cl1_xc.z = (cl1_v4.z);
    						cl1_xc.w = (cl1_v4.w);
    					} else {
    						cl1_xc.x = cl1_kin && cl1_okc[0] ? (data[(cl1_k) * (m) + cl1_oc + 0]) : 0.0f;
    						cl1_xc.y = cl1_kin && cl1_okc[1] ? (data[(cl1_k) * (m) + cl1_oc + 1]) : 0.0f;
    						cl1_xc.z = cl1_kin && cl1_okc[2] ? (data[(cl1_k) * (m) + cl1_oc + 2]) : 0.0f;
    						cl1_xc.w = cl1_kin && cl1_okc[3] ? (data[(cl1_k) * (m) + cl1_oc + 3]) : 0.0f;
    					}
    				}
    			}
    			__syncthreads();
    		}
    		for (int cl1_s = 0; cl1_s < cl1_stages; cl1_s++) {
    			const int cl1_buf = cl1_s & 1;
    			const int cl1_k0 = (0) + (cl1_s + 2) * 16;
    			if (cl1_s + 2 < cl1_stages) {
    				{
    					const int cl1_k = cl1_k0 + cl1_tid / 16;
    					const bool cl1_kin = cl1_k < (n);
    					if (cl1_kin && cl1_vr && cl1_okr[0] && cl1_okr[1] && cl1_okr[2] && cl1_okr[3]) {
    						const float4 cl1_v4 = *(const float4 *)&data[(cl1_k) * (m) + cl1_or];
    						cl1_yr.x = (cl1_v4.x);
    						cl1_yr.y = (cl1_v4.y);
    						cl1_yr.z = (cl1_v4.z);
    						cl1_yr.w = (cl1_v4.w);
    					} else {
    						cl1_yr.x = cl1_kin && cl1_okr[0] ? (data[(cl1_k) * (m) + cl1_or + 0]) : 0.0f;
    						cl1_yr.y = cl1_kin && cl1_okr[1] ? (data[(cl1_k) * (m) + cl1_or + 1]) : 0.0f;
    						cl1_yr.z = cl1_kin && cl1_okr[2] ? (data[(cl1_k) * (m) + cl1_or + 2]) : 0.0f;
    						cl1_yr.w = cl1_kin && cl1_okr[3] ? (data[(cl1_k) * (m) + cl1_or + 3]) : 0.0f;
    					}
    				}
    				{
    					const int cl1_k = cl1_k0 + cl1_tid / 16;
    					const bool cl1_kin = cl1_k < (n);
    					if (cl1_kin && cl1_vc && cl1_okc[0] && cl1_okc[1] && cl1_okc[2] && cl1_okc[3]) {
    						const float4 cl1_v4 = *(const float4 *)&data[(cl1_k) * (m) + cl1_oc];
    						cl1_yc.x = (cl1_v4.x);
    						cl1_yc.y = (cl1_v4.y);
    						cl1_yc.z = (cl1_v4.z);
    						cl1_yc.w = (cl1_v4.w);
    					} else {
    						cl1_yc.x = cl1_kin && cl1_okc[0] ? (data[(cl1_k) * (m) + cl1_oc + 0]) : 0.0f;
    						cl1_yc.y = cl1_kin && cl1_okc[1] ? (data[(cl1_k) * (m) + cl1_oc + 1]) : 0.0f;
    						cl1_yc.z = cl1_kin && cl1_okc[2] ? (data[(cl1_k) * (m) + cl1_oc + 2]) : 0.0f;
    						cl1_yc.w = cl1_kin && cl1_okc[3] ? (data[(cl1_k) * (m) + cl1_oc + 3]) : 0.0f;
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
    				*(float4 *)&cl1_sr[cl1_buf ^ 1][cl1_tid / 16][cl1_tid % 16 * 4] = cl1_xr;
    				*(float4 *)&cl1_sc[cl1_buf ^ 1][cl1_tid / 16][cl1_tid % 16 * 4] = cl1_xc;
    				cl1_xr = cl1_yr, cl1_xc = cl1_yc;
    			}
    			__syncthreads();
    		}
    		#pragma unroll
    		for (int cl1_m = 0; cl1_m < 4; cl1_m++) {
    			#pragma unroll
    			for (int cl1_n = 0; cl1_n < 4; cl1_n++) {
    				const decltype(j1) cl1_i = (decltype(j1))(cl1_r0 + cl1_m / 4 * 64 + cl1_ty * 4 + cl1_m % 4);
    				const decltype(j2) cl1_j = (decltype(j2))(cl1_c0 + cl1_n / 4 * 64 + cl1_tx * 4 + cl1_n % 4);
    				if (cl1_i < cl1_ey && cl1_j < cl1_ex && ((cl1_i < m) && (cl1_j) >= (cl1_i) && (cl1_j) < (m))) { sym[cl1_i*m+cl1_j] = cl1_acc[cl1_m][cl1_n];sym[cl1_j * m + cl1_i] = sym[cl1_i * m + cl1_j]; }
    			}
    		}
    	}
    } else if (j1 < m)
    {
        for (j2 = (j1) + cl1cc_y0; j2 < m; j2 += cl1cc_ystep)
        {
            sym[j1 * m + j2] = 0.0;
            for (i = 0; i < n; i++)
            {
                sym[j1 * m + j2] += data[i * m + j1] * data[i * m + j2];
            }
            sym[j2 * m + j1] = sym[j1 * m + j2];
        }
    }
}
