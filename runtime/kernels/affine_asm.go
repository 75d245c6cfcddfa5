//go:build (amd64 || arm64) && !noasm

package kernels

// affineGroups4 wraps an assembly kernel of 4-bit MLX group sums; other bit
// widths use the reference.
func affineGroups4(kern func(row *byte, x *float32, ngroups, gsize int, out *float32)) func(row []byte, bits int, x []float32, gsize int, out []float32) {
	return func(row []byte, bits int, x []float32, gsize int, out []float32) {
		if bits != 4 || len(out) == 0 {
			affineGroupsRef(row, bits, x, gsize, out)
			return
		}
		_ = row[len(out)*gsize/2-1]
		_ = x[len(out)*gsize-1]
		kern(&row[0], &x[0], len(out), gsize, &out[0])
	}
}
