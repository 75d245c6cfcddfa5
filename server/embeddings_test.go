package server

import (
	"context"
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/mlxrun/mlx/models/config"
	"github.com/mlxrun/mlx/runtime"
)

// embedModel serves a fixture engine's embeddings with a chosen pooling.
type embedModel struct {
	*engineModel
	pooling string
}

func (m embedModel) Embed(ctx context.Context, inputs [][]int32) ([][]float32, error) {
	return m.e.Embed(ctx, inputs, m.pooling)
}

func (m embedModel) Pooling() string { return m.pooling }

type embResp struct {
	Object string `json:"object"`
	Model  string `json:"model"`
	Data   []struct {
		Object    string          `json:"object"`
		Index     int             `json:"index"`
		Embedding json.RawMessage `json:"embedding"`
	} `json:"data"`
	Usage struct {
		PromptTokens int `json:"prompt_tokens"`
		TotalTokens  int `json:"total_tokens"`
	} `json:"usage"`
}

// floats decodes an embedding in either encoding.
func (r embResp) floats(t *testing.T, i int) []float32 {
	t.Helper()
	var v []float32
	if err := json.Unmarshal(r.Data[i].Embedding, &v); err == nil {
		return v
	}
	var s string
	if err := json.Unmarshal(r.Data[i].Embedding, &s); err != nil {
		t.Fatalf("embedding %d is neither floats nor a string: %s", i, r.Data[i].Embedding)
	}
	b, err := base64.StdEncoding.DecodeString(s)
	if err != nil || len(b)%4 != 0 {
		t.Fatalf("embedding %d is not base64 of float32 values: %v", i, err)
	}
	for k := 0; k < len(b); k += 4 {
		v = append(v, math.Float32frombits(binary.LittleEndian.Uint32(b[k:])))
	}
	return v
}

// wantVector is the engine's vector of ids alone, cut to dims (0: all)
// and normalised.
func wantVector(t *testing.T, m embedModel, ids []int32, dims int) []float32 {
	t.Helper()
	v, err := m.e.Embed(context.Background(), [][]int32{ids}, m.pooling)
	if err != nil {
		t.Fatal(err)
	}
	out := v[0]
	if dims > 0 {
		out = out[:dims]
	}
	runtime.Normalize(out)
	return out
}

func closeTo(a, b []float32, tol float64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if math.Abs(float64(a[i]-b[i])) > tol {
			return false
		}
	}
	return true
}

// TestEmbeddings checks every input form and both encodings against the
// engine's vector of each input alone.
func TestEmbeddings(t *testing.T) {
	for _, pooling := range []string{config.PoolLast, config.PoolMean} {
		m := embedModel{loadEngine(t, "gguf", "llama-tiny-F32.gguf"), pooling}
		ts := startModels(t, modelLoader{"tiny": m})
		a, b := m.Tokenize("The capital of France", true), m.Tokenize("héllo wörld ✓", true)
		ids, _ := json.Marshal(a)
		tests := []struct {
			input  string
			inputs [][]int32
		}{
			{`"The capital of France"`, [][]int32{a}},
			{`["The capital of France", "héllo wörld ✓"]`, [][]int32{a, b}},
			{string(ids), [][]int32{a}},
			{fmt.Sprintf(`[%s, "héllo wörld ✓", [1, 7]]`, ids), [][]int32{a, b, {1, 7}}},
		}
		for _, tt := range tests {
			for _, format := range []string{"float", "base64"} {
				var r embResp
				ts.post(t, "/v1/embeddings", fmt.Sprintf(`{"model":"tiny","input":%s,"encoding_format":%q}`, tt.input, format), 200, &r)
				if r.Object != "list" || r.Model != "tiny" || len(r.Data) != len(tt.inputs) {
					t.Fatalf("%s %s: %+v", pooling, tt.input, r)
				}
				n := 0
				for i, in := range tt.inputs {
					n += len(in)
					if r.Data[i].Index != i || r.Data[i].Object != "embedding" {
						t.Errorf("%s: data[%d] is %+v", tt.input, i, r.Data[i])
					}
					if got := r.floats(t, i); !closeTo(got, wantVector(t, m, in, 0), 1e-5) {
						t.Errorf("%s %s %s: vector %d differs from the input's alone", pooling, format, tt.input, i)
					}
				}
				if r.Usage.PromptTokens != n || r.Usage.TotalTokens != n {
					t.Errorf("%s: usage %+v, want %d tokens", tt.input, r.Usage, n)
				}
			}
		}
	}
}

// TestEmbeddingsDimensions checks that dimensions cuts the vector and then
// normalises it.
func TestEmbeddingsDimensions(t *testing.T) {
	m := embedModel{loadEngine(t, "gguf", "llama-tiny-F32.gguf"), config.PoolMean}
	ts := startModels(t, modelLoader{"tiny": m})
	var r embResp
	ts.post(t, "/v1/embeddings", `{"model":"tiny","input":"Paris","dimensions":8}`, 200, &r)
	if got := r.floats(t, 0); !closeTo(got, wantVector(t, m, m.Tokenize("Paris", true), 8), 1e-6) {
		t.Errorf("8 dimensions: %v", got)
	}
	hid := m.e.Config().HiddenSize
	b := ts.post(t, "/v1/embeddings", fmt.Sprintf(`{"model":"tiny","input":"Paris","dimensions":%d}`, hid+1), 400, nil)
	if e := decodeErr(t, b); e.Error.Param == nil || *e.Error.Param != "dimensions" {
		t.Errorf("too many dimensions: %+v", e.Error)
	}
}

// TestEmbeddingsContext checks that an input longer than the context is
// refused, or cut with truncate.
func TestEmbeddingsContext(t *testing.T) {
	m := embedModel{loadEngine(t, "gguf", "llama-tiny-F32.gguf"), config.PoolLast}
	ts := startModels(t, modelLoader{"tiny": m})
	ctxLen := m.Info().Context
	long := make([]int32, ctxLen+5)
	for i := range long {
		long[i] = int32(1 + i%50)
	}
	ids, _ := json.Marshal(long)
	b := ts.post(t, "/v1/embeddings", fmt.Sprintf(`{"model":"tiny","input":["a", %s]}`, ids), 400, nil)
	e := decodeErr(t, b)
	if e.Error.Code == nil || *e.Error.Code != "context_length_exceeded" || *e.Error.Param != "input[1]" {
		t.Errorf("long input: %+v", e.Error)
	}
	var r embResp
	ts.post(t, "/v1/embeddings", fmt.Sprintf(`{"model":"tiny","input":%s,"truncate":true}`, ids), 200, &r)
	if got := r.floats(t, 0); !closeTo(got, wantVector(t, m, long[:ctxLen], 0), 1e-5) {
		t.Errorf("truncated input differs from its first %d tokens", ctxLen)
	}
	if r.Usage.PromptTokens != ctxLen {
		t.Errorf("truncated usage %+v, want %d", r.Usage, ctxLen)
	}
}

// TestEmbeddingsRefused checks the 400s of bad requests and of models
// that cannot embed for the OpenAI API.
func TestEmbeddingsRefused(t *testing.T) {
	m := loadEngine(t, "gguf", "llama-tiny-F32.gguf")
	f := newFake("x")
	ts := startModels(t, modelLoader{"tiny": embedModel{m, config.PoolLast}, "tokens": embedModel{m, config.PoolNone}, "chat": f})
	tests := []struct{ body, param, msg string }{
		{`{"model":"tiny"}`, "input", "Missing required parameter"},
		{`{"model":"tiny","input":""}`, "input", "empty string"},
		{`{"model":"tiny","input":[]}`, "input", "must not be empty"},
		{`{"model":"tiny","input":[[]]}`, "input[0]", "must not be empty"},
		{`{"model":"tiny","input":{"a":1}}`, "input", "must be a string"},
		{`{"model":"tiny","input":[1, 100000]}`, "input", "outside the vocabulary"},
		{`{"model":"tiny","input":"a","encoding_format":"int8"}`, "encoding_format", "'float' or 'base64'"},
		{`{"model":"tiny","input":"a","dimensions":0}`, "dimensions", "between 1"},
		{`{"input":"a"}`, "model", "provide a model"},
		{`{"model":"tokens","input":"a"}`, "model", "--pooling"},
		{`{"model":"chat","input":"a"}`, "model", "cannot compute embeddings"},
	}
	for _, tt := range tests {
		e := decodeErr(t, ts.post(t, "/v1/embeddings", tt.body, 400, nil))
		if e.Error.Param == nil || *e.Error.Param != tt.param || !strings.Contains(e.Error.Message, tt.msg) {
			t.Errorf("%s: %+v, want param %s and %q", tt.body, e.Error, tt.param, tt.msg)
		}
	}
}
