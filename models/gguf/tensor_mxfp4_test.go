package gguf

import (
	"bytes"
	"math/rand/v2"
	"testing"
)

// TestMXFP4Tensor reads a hand-built MXFP4 tensor back from a GGUF file: its
// type, size and bytes. A row that is not a whole number of 32-value blocks
// is refused.
func TestMXFP4Tensor(t *testing.T) {
	r := rand.New(rand.NewPCG(39, 1))
	data := make([]byte, 2*3*17) // 2 rows of 96 values, 17 bytes per block
	for i := range data {
		data[i] = byte(r.Uint32())
	}
	m := testModel{tensors: []testTensor{
		{"blk.0.ffn_down_exps.weight", []uint64{96, 2}, TypeMXFP4, data},
		{"after", []uint64{2}, TypeF32, f32Bytes(1, 2)},
	}}
	f, err := Parse(m.build(), "mxfp4.gguf")
	if err != nil {
		t.Fatal(err)
	}
	ti, ok := f.Tensor("blk.0.ffn_down_exps.weight")
	if !ok || ti.Type != TypeMXFP4 || ti.Size != 6*17 || ti.Elements() != 192 {
		t.Fatalf("tensor %+v", ti)
	}
	if !bytes.Equal(f.TensorData(ti), data) {
		t.Fatal("TensorData differs")
	}
	if after, ok := f.Tensor("after"); !ok || !bytes.Equal(f.TensorData(after), f32Bytes(1, 2)) {
		t.Fatal("the tensor after the MXFP4 one moved")
	}
	bad := testModel{tensors: []testTensor{{"w", []uint64{48, 2}, TypeMXFP4, make([]byte, 3*17)}}}
	if _, err := Parse(bad.build(), "bad.gguf"); err == nil {
		t.Error("48-column MXFP4 tensor accepted")
	}
}
