package model_test

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"slices"
	"testing"

	"github.com/mlxrun/mlx/models/config"
	"github.com/mlxrun/mlx/models/gguf"
	"github.com/mlxrun/mlx/models/safetensors"
	"github.com/mlxrun/mlx/runtime/model"

	_ "github.com/mlxrun/mlx/runtime/arch/qwen3moe"
)

// TestQwen3MoeGGUFLayout binds the trained Qwen3-MoE model from a GGUF
// file in llama.cpp's layout (experts stacked in ffn_*_exps, dims
// innermost first), written from its safetensors with the same BF16
// values, and checks that it computes exactly the logits of the Hugging
// Face directory.
func TestQwen3MoeGGUFLayout(t *testing.T) {
	hf, st := buildTrained(t, "qwen3-moe", nil)
	cfg := hf.Config
	f, err := gguf.Parse(ggufOf(t, st, cfg), "qwen3moe.gguf")
	if err != nil {
		t.Fatal(err)
	}
	gcfg := *cfg
	gcfg.Source = config.SourceGGUF
	g, err := model.Build(&gcfg, model.GGUFSource{F: f})
	if err != nil {
		t.Fatal(err)
	}
	if want, got := lastLogits(t, hf), lastLogits(t, g); !slices.Equal(got, want) {
		t.Fatal("the GGUF layout gives other logits than the Hugging Face one")
	}
}

// ggufOf writes the tensors of a Qwen3-MoE checkpoint as a GGUF file with
// llama.cpp's names, each layer's experts stacked.
func ggufOf(t *testing.T, st *safetensors.Model, cfg *config.Model) []byte {
	t.Helper()
	hf, gg := model.HFMoENames, model.GGUFMoENames
	type tensor struct {
		name string
		dims []int // outermost first
		data []byte
	}
	var ts []tensor
	add := func(to string, from ...string) {
		var data []byte
		var dims []int
		for _, name := range from {
			x, ok := st.Tensor(name)
			if !ok || x.DType != safetensors.BF16 {
				t.Fatalf("%s: missing or not BF16", name)
			}
			data, dims = append(data, x.Data...), x.Shape
		}
		if len(from) > 1 {
			dims = append([]int{len(from)}, dims...)
		}
		ts = append(ts, tensor{to, dims, data})
	}
	add(gg.Embed, hf.Embed)
	add(gg.OutputNorm, hf.OutputNorm)
	for i := range cfg.Layers {
		for _, p := range [][2]string{{gg.AttnNorm, hf.AttnNorm}, {gg.Q, hf.Q}, {gg.K, hf.K}, {gg.V, hf.V}, {gg.O, hf.O},
			{gg.QNorm, hf.QNorm}, {gg.KNorm, hf.KNorm}, {gg.FFNNorm, hf.FFNNorm}, {gg.Router, hf.Router}} {
			add(fmt.Sprintf(p[0], i), fmt.Sprintf(p[1], i))
		}
		for _, p := range [][2]string{{gg.ExpGate, hf.ExpGate}, {gg.ExpUp, hf.ExpUp}, {gg.ExpDown, hf.ExpDown}} {
			var from []string
			for x := range cfg.MoE.Experts {
				from = append(from, fmt.Sprintf(p[1], i, x))
			}
			add(fmt.Sprintf(p[0], i), from...)
		}
	}
	var b bytes.Buffer
	w := func(v any) { binary.Write(&b, binary.LittleEndian, v) }
	str := func(s string) { w(uint64(len(s))); b.WriteString(s) }
	b.WriteString("GGUF")
	w(uint32(3))
	w(uint64(len(ts)))
	w(uint64(0))
	off := 0
	for _, x := range ts {
		str(x.name)
		w(uint32(len(x.dims)))
		for _, d := range slices.Backward(x.dims) {
			w(uint64(d))
		}
		w(uint32(gguf.TypeBF16))
		w(uint64(off))
		off += (len(x.data) + 31) &^ 31
	}
	for b.Len()%32 != 0 {
		b.WriteByte(0)
	}
	for _, x := range ts {
		b.Write(x.data)
		b.Write(make([]byte, (32-len(x.data)%32)%32))
	}
	return b.Bytes()
}
