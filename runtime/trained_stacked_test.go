package runtime

import (
	"bytes"
	"context"
	"encoding/binary"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"testing"

	"github.com/mlxrun/mlx/models/safetensors"
)

// TestTrainedStackedExperts loads the trained Qwen3-MoE model with its
// experts stacked in one tensor per layer and matrix, as MLX checkpoints
// store them (mlp.switch_mlp.*), and checks that it computes exactly the
// logits of the one-tensor-per-expert original.
func TestTrainedStackedExperts(t *testing.T) {
	orig, dir := loadTrained(t, "qwen3-moe")
	stacked := t.TempDir()
	for _, f := range []string{"config.json", "tokenizer.json", "tokenizer_config.json"} {
		data, err := os.ReadFile(filepath.Join(dir, f))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(stacked, f), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	writeStacked(t, filepath.Join(dir, "model.safetensors"), filepath.Join(stacked, "model.safetensors"))
	e, err := Load(context.Background(), stacked, Options{Threads: 2, Ctx: 512, Device: testDevice()})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	ids := orig.Tokenizer().Encode("What is the capital of France? The capital of France is Paris.", false)
	score := func(e *Engine) [][]float32 {
		var rows [][]float32
		if err := e.Score(context.Background(), ids, 1, func(_ int, logits []float32) error {
			rows = append(rows, slices.Clone(logits))
			return nil
		}); err != nil {
			t.Fatal(err)
		}
		return rows
	}
	want, got := score(orig), score(e)
	for i := range want {
		if !slices.Equal(got[i], want[i]) {
			t.Fatalf("position %d: the stacked experts give other logits", i+1)
		}
	}
}

// writeStacked copies a safetensors file, with each layer's experts
// (mlp.experts.N.M) stacked in mlp.switch_mlp.M, experts in order.
func writeStacked(t *testing.T, from, to string) {
	t.Helper()
	f, err := safetensors.Open(from)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	expert := regexp.MustCompile(`^(model\.layers\.\d+\.mlp\.)experts\.(\d+)\.(\w+\.weight)$`)
	type out struct {
		dtype string
		shape []int
		data  []byte
		parts int
	}
	var names []string
	tensors := map[string]*out{}
	for _, name := range f.Names() {
		x, _ := f.Tensor(name)
		key, shape := name, x.Shape
		if m := expert.FindStringSubmatch(name); m != nil {
			key, shape = m[1]+"switch_mlp."+m[3], append([]int{0}, x.Shape...)
			parts := 0
			if o := tensors[key]; o != nil {
				parts = o.parts
			}
			if m[2] != strconv.Itoa(parts) {
				t.Fatalf("%s: experts out of order", name)
			}
		}
		o := tensors[key]
		if o == nil {
			o = &out{dtype: x.DType.String(), shape: shape}
			tensors[key] = o
			names = append(names, key)
		}
		o.data = append(o.data, x.Data...)
		o.parts++
	}
	var list []namedTensor
	for _, name := range names {
		o := tensors[name]
		if o.shape[0] == 0 {
			o.shape[0] = o.parts
		}
		list = append(list, namedTensor{name, o.dtype, o.shape, o.data})
	}
	writeTensors(t, to, list)
}

// namedTensor is a tensor to write to a safetensors file.
type namedTensor struct {
	name, dtype string
	shape       []int
	data        []byte
}

// writeTensors writes a safetensors file of the tensors, in order.
func writeTensors(t *testing.T, path string, tensors []namedTensor) {
	t.Helper()
	header := map[string]any{}
	var body bytes.Buffer
	for _, x := range tensors {
		header[x.name] = map[string]any{"dtype": x.dtype, "shape": x.shape, "data_offsets": []int{body.Len(), body.Len() + len(x.data)}}
		body.Write(x.data)
	}
	h, err := json.Marshal(header)
	if err != nil {
		t.Fatal(err)
	}
	h = append(h, bytes.Repeat([]byte(" "), (8-len(h)%8)%8)...)
	var file bytes.Buffer
	binary.Write(&file, binary.LittleEndian, uint64(len(h)))
	file.Write(h)
	file.Write(body.Bytes())
	if err := os.WriteFile(path, file.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
}
