//go:build !noasm

package kernels

//go:noescape
func affineRow4BF16AVX2(row *byte, x *float32, ngroups, gsize int, sc, bi *uint16, xsum *float32) float32

// affineRowBF16 wraps affineRow4BF16AVX2 with the bounds checks.
func affineRowBF16(row []byte, x []float32, gsize int, sc, bi []uint16, xsum []float32) float32 {
	groups := len(xsum)
	if groups == 0 {
		return 0
	}
	_, _, _ = row[groups*gsize/2-1], x[groups*gsize-1], sc[groups-1]
	_ = bi[groups-1]
	return affineRow4BF16AVX2(&row[0], &x[0], groups, gsize, &sc[0], &bi[0], &xsum[0])
}

//go:noescape
func affineGroups4AVX2(row *byte, x *float32, ngroups, gsize int, out *float32)

// initAffineAVX2 installs the 4-bit MLX group sums and whole-row dot product.
func initAffineAVX2(k *kernelSet) {
	k.affineGroups = affineGroups4(affineGroups4AVX2)
	k.affineRow4BF16 = affineRowBF16
}
