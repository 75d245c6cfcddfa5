package kernels

// MLX affine quantization: element i of a row is the unsigned Bits-bit value
// at bit Bits*i of the row's little-endian words, and w = scale*q + bias with
// the scale and bias of group i/GroupSize.

// affineParam reads entry i of a scales or biases array.
func (w *Matrix) affineParam(b []byte, i int) float32 {
	switch w.ScaleType {
	case F32:
		return asF32(b)[i]
	case F16:
		return f16ToF32(asU16(b)[i])
	}
	return bf16ToF32(asU16(b)[i])
}

// affineQ returns the quantized value of element i of a packed row.
func affineQ(row []byte, bits, i int) float32 {
	if bits == 8 {
		return float32(row[i])
	}
	return float32(row[i/2] >> (4 * (i & 1)) & 0xf)
}

// affineDequantRows is the batch from which a matmul dequantizes each MLX
// row once and takes float dot products with every activation row, rather
// than unpacking the row again for each.
const affineDequantRows = 2

// affineRow dequantizes row r into dst.
func (w *Matrix) affineRow(r int, dst []float32) {
	row := w.rowData(r)
	groups := w.Cols / w.GroupSize
	for g := range groups {
		s := w.affineParam(w.Scales, r*groups+g)
		b := w.affineParam(w.Biases, r*groups+g)
		i0 := g * w.GroupSize
		d := dst[i0 : i0+w.GroupSize]
		if w.Bits == 4 {
			for k, v := range row[i0/2 : (i0+w.GroupSize)/2] {
				d[2*k] = float32(s*float32(v&0xf)) + b
				d[2*k+1] = float32(s*float32(v>>4)) + b
			}
			continue
		}
		for k, v := range row[i0 : i0+w.GroupSize] {
			d[k] = float32(s*float32(v)) + b
		}
	}
}

// affineParams converts the scales and biases of row r to float32, with
// the type switch out of the per-group loop.
func (w *Matrix) affineParams(r int, sc, bi []float32) {
	groups := w.Cols / w.GroupSize
	i0, i1 := r*groups, (r+1)*groups
	sc, bi = sc[:groups], bi[:groups]
	switch w.ScaleType {
	case F32:
		copy(sc, asF32(w.Scales)[i0:i1])
		copy(bi, asF32(w.Biases)[i0:i1])
	case F16:
		for g, h := range asU16(w.Scales)[i0:i1] {
			sc[g] = f16ToF32(h)
		}
		for g, h := range asU16(w.Biases)[i0:i1] {
			bi[g] = f16ToF32(h)
		}
	default:
		for g, h := range asU16(w.Scales)[i0:i1] {
			sc[g] = bf16ToF32(h)
		}
		for g, h := range asU16(w.Biases)[i0:i1] {
			bi[g] = bf16ToF32(h)
		}
	}
}

// affineCombine returns Σ_g sc[g]*gs[g] + bi[g]*xsum[g] in float32: the dot
// product of an MLX row with x, from the per-group sums gs of q·x and xsum
// of x.
func affineCombine(gs, sc, bi, xsum []float32) float32 {
	var acc float32
	for g, s := range gs {
		acc += float32(sc[g]*s) + float32(bi[g]*xsum[g])
	}
	return acc
}

// affineGroupsRef sets out[g] = Σ q_i*x_i over the gsize elements of group g
// of a packed row of bits-bit values.
func affineGroupsRef(row []byte, bits int, x []float32, gsize int, out []float32) {
	for g := range out {
		i0 := g * gsize
		xs := x[i0 : i0+gsize]
		var s0, s1 float32
		if bits == 8 {
			for i, v := range row[i0 : i0+gsize] {
				s0 += float32(v) * xs[i]
			}
		} else {
			for i, v := range row[i0/2 : (i0+gsize)/2] {
				s0 += float32(v&0xf) * xs[2*i]
				s1 += float32(v>>4) * xs[2*i+1]
			}
		}
		out[g] = s0 + s1
	}
}
