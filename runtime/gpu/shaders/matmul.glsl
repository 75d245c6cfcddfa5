// The body of every matrix kernel: y[i*rows + r] = Σ_k W[r,k]·x[i*cols + k]
// for the n input vectors i, eight at a time, so that each block of weights
// is decoded once per eight vectors. cols is a multiple of 32.
const uint tile = 8u;

void main() {
	uint r = invocationIndex();
	if (r >= shape.rows) {
		return;
	}
	uint nb = shape.cols / 32u;
	uint stride = shape.cols / 4u;
	for (uint n0 = 0u; n0 < shape.n; n0 += tile) {
		uint m = min(tile, shape.n - n0);
		float acc[tile];
		for (uint j = 0u; j < tile; j++) {
			acc[j] = 0.0;
		}
		for (uint b = 0u; b < nb; b++) {
			vec4 v[8];
			load32(r, b, v);
			for (uint j = 0u; j < tile; j++) {
				if (j < m) {
					uint o = (n0 + j) * stride + b * 8u;
					float s = 0.0;
					for (uint i = 0u; i < 8u; i++) {
						s += dot(v[i], x[o + i]);
					}
					acc[j] += s;
				}
			}
		}
		for (uint j = 0u; j < tile; j++) {
			if (j < m) {
				y[(n0 + j) * shape.rows + r] = acc[j];
			}
		}
	}
}
