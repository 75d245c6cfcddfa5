//go:build !noasm

package kernels

//go:noescape
func affineGroups4NEON(row *byte, x *float32, ngroups, gsize int, out *float32)

// initAffineNEON installs the 4-bit MLX group sums.
func initAffineNEON(k *kernelSet) {
	k.affineGroups = affineGroups4(affineGroups4NEON)
}
