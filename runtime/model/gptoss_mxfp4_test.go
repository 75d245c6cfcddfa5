package model_test

import (
	"encoding/binary"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mlxrun/mlx/models/safetensors"
	"github.com/mlxrun/mlx/runtime/kernels"
	"github.com/mlxrun/mlx/runtime/kvcache"
	"github.com/mlxrun/mlx/runtime/model"
	"github.com/mlxrun/mlx/runtime/sample"
)

// overlay is a checkpoint with some tensors replaced, added or hidden.
type overlay struct {
	base  model.Tensors
	extra map[string]*safetensors.Tensor // nil: hidden
}

func (o overlay) Tensor(name string) (*safetensors.Tensor, bool) {
	if t, ok := o.extra[name]; ok {
		return t, t != nil
	}
	return o.base.Tensor(name)
}

// fp4Values are the magnitudes of the E2M1 codes 0 to 7.
var fp4Values = [8]float64{0, 0.5, 1, 1.5, 2, 3, 4, 6}

// toMXFP4 quantizes experts stored [experts, in, out] (BF16) to the MXFP4
// blocks and scales of a released gpt-oss checkpoint (one row per output)
// and returns them with the same experts dequantized, in the original
// layout and type, which BF16 holds exactly.
func toMXFP4(t *testing.T, w *safetensors.Tensor) (blocks, scales, deq []byte) {
	t.Helper()
	ne, in, out := w.Shape[0], w.Shape[1], w.Shape[2]
	bf := func(i int) float64 {
		return float64(math.Float32frombits(uint32(binary.LittleEndian.Uint16(w.Data[2*i:])) << 16))
	}
	blocks, scales, deq = make([]byte, ne*out*in/2), make([]byte, ne*out*in/32), make([]byte, len(w.Data))
	for e := range ne {
		for o := range out {
			for j := range in / 32 {
				at := func(k int) int { return (e*in+j*32+k)*out + o }
				amax := 0.0
				for k := range 32 {
					amax = math.Max(amax, math.Abs(bf(at(k))))
				}
				s := -20
				if amax > 0 {
					s = int(math.Ceil(math.Log2(amax / 6)))
				}
				blk := (e*out+o)*in/32 + j
				scales[blk] = byte(s + 127)
				for k := range 32 {
					v := bf(at(k)) / math.Exp2(float64(s))
					code := 0
					for c := range fp4Values {
						if math.Abs(math.Abs(v)-fp4Values[c]) < math.Abs(math.Abs(v)-fp4Values[code]) {
							code = c
						}
					}
					q := fp4Values[code] * math.Exp2(float64(s))
					if v < 0 {
						code, q = code|8, -q
					}
					blocks[16*blk+k/2] |= byte(code) << (4 * (k % 2))
					binary.LittleEndian.PutUint16(deq[2*at(k):], uint16(math.Float32bits(float32(q))>>16))
				}
			}
		}
	}
	return blocks, scales, deq
}

// TestGptOssMXFP4Checkpoint runs the trained gpt-oss model with its experts
// quantized to MXFP4 in the released checkpoints' layout, against the same
// model with the dequantized experts in BF16: the same weights through
// another binding and other kernels, so the log-probabilities agree.
func TestGptOssMXFP4Checkpoint(t *testing.T) {
	cfg, st, dir := openGptOss(t)
	quant, plain := overlay{st, map[string]*safetensors.Tensor{}}, overlay{st, map[string]*safetensors.Tensor{}}
	for _, name := range st.Names() {
		if !strings.HasSuffix(name, "_proj") || !strings.Contains(name, ".experts.") {
			continue
		}
		w, _ := st.Tensor(name)
		blocks, scales, deq := toMXFP4(t, w)
		ne, in, out := w.Shape[0], w.Shape[1], w.Shape[2]
		quant.extra[name] = nil
		quant.extra[name+"_blocks"] = &safetensors.Tensor{Name: name + "_blocks", DType: safetensors.U8, Shape: []int{ne, out, in / 32, 16}, Data: blocks}
		quant.extra[name+"_scales"] = &safetensors.Tensor{Name: name + "_scales", DType: safetensors.U8, Shape: []int{ne, out, in / 32}, Data: scales}
		plain.extra[name] = &safetensors.Tensor{Name: name, DType: w.DType, Shape: w.Shape, Data: deq}
	}
	var report struct {
		Reference []struct {
			IDs []int32 `json:"ids"`
		} `json:"reference_bf16"`
	}
	data, err := os.ReadFile(filepath.Join(dir, "train-report.json"))
	if err == nil {
		err = json.Unmarshal(data, &report)
	}
	if err != nil || len(report.Reference) == 0 {
		t.Fatalf("train-report.json: %v", err)
	}
	ids := report.Reference[0].IDs
	n := len(ids)
	logits := func(src model.Tensors) []float32 {
		m, err := model.Build(cfg, model.SafetensorsSource{M: src, Dir: dir})
		if err != nil {
			t.Fatal(err)
		}
		pool := kernels.NewPool(2)
		defer pool.Close()
		s, err := m.NewState(pool, n, n, 256)
		if err != nil {
			t.Fatal(err)
		}
		c, err := kvcache.NewArenaShapes(kvcache.F32, m.KVShapes(), 256, 1)
		if err != nil {
			t.Fatal(err)
		}
		kc := c.NewCache()
		if !kvcache.NewPool(c).Grow(kc, n) {
			t.Fatal("no cache block")
		}
		b := &model.Batch{}
		for i := range n {
			b.Tokens, b.Pos, b.Cache, b.Out = append(b.Tokens, ids[i]), append(b.Pos, i), append(b.Cache, kc), append(b.Out, i)
		}
		out, err := s.Forward(b)
		if err != nil {
			t.Fatal(err)
		}
		return append([]float32(nil), out...)
	}
	q, p := logits(quant), logits(plain)
	vocab, worst := cfg.VocabSize, 0.0
	for i := range n {
		lq, lp := sample.LogSoftmax(nil, q[i*vocab:(i+1)*vocab]), sample.LogSoftmax(nil, p[i*vocab:(i+1)*vocab])
		bq, bp := 0, 0
		for v := range lp {
			if lp[v] > lp[bp] {
				bp = v
			}
			if lq[v] > lq[bq] {
				bq = v
			}
			if lp[v] > -10 {
				worst = math.Max(worst, math.Abs(float64(lq[v]-lp[v])))
			}
		}
		if bq != bp {
			t.Errorf("row %d: top token %d with MXFP4 experts, %d with BF16 ones", i, bq, bp)
		}
	}
	// The MXFP4 kernels round the activations to 8 bits, as llama.cpp's
	// do; a binding that misplaced any weight would move them by far more.
	t.Logf("largest log-probability difference above -10: %.4f", worst)
	if worst > 0.3 {
		t.Errorf("MXFP4 and BF16 experts of the same values differ by %v in log-probability, want at most 0.3", worst)
	}
}
