package kernels

// packedTypes are the weight formats with packed tile kernels.
var packedTypes = []DType{Q4_0, Q8_0, Q4_K, Q6_K}

// kPackedCases covers, for the K-quants, partial groups of rows, one to
// four super-blocks and activation counts around the four-column tiles.
var kPackedCases = []packedCase{
	{1, 256, 1}, {3, 512, 2}, {4, 256, 4}, {5, 768, 5}, {7, 256, 9},
	{13, 1024, 8}, {37, 512, 6},
}

// packedCasesFor returns the tile kernel test shapes of typ.
func packedCasesFor(typ DType) []packedCase {
	if typ.blockElems() == qkK {
		return kPackedCases
	}
	return packedCases
}
