package config

import (
	"encoding/binary"
	"math"
	"testing"

	"github.com/mlxrun/mlx/models/gguf"
)

// kvs is GGUF metadata for a test file, in order: key, value, key, value...
// Values may be uint32, int32, float32, bool, string, []string, []uint32 or
// []bool.
type kvs []any

// f32Tensor is an F32 tensor for a test file.
type f32Tensor struct {
	name string
	data []float32
}

// buildGGUF writes a version 3 GGUF file in memory and parses it.
func buildGGUF(t *testing.T, meta kvs, tensors ...f32Tensor) *gguf.File {
	t.Helper()
	le := binary.LittleEndian
	str := func(b []byte, s string) []byte { return append(le.AppendUint64(b, uint64(len(s))), s...) }
	b := le.AppendUint32([]byte("GGUF"), 3)
	b = le.AppendUint64(b, uint64(len(tensors)))
	b = le.AppendUint64(b, uint64(len(meta)/2))
	for i := 0; i+1 < len(meta); i += 2 {
		b = str(b, meta[i].(string))
		switch v := meta[i+1].(type) {
		case uint32:
			b = le.AppendUint32(le.AppendUint32(b, 4), v)
		case int32:
			b = le.AppendUint32(le.AppendUint32(b, 5), uint32(v))
		case float32:
			b = le.AppendUint32(le.AppendUint32(b, 6), math.Float32bits(v))
		case bool:
			b = append(le.AppendUint32(b, 7), map[bool]byte{true: 1}[v])
		case string:
			b = str(le.AppendUint32(b, 8), v)
		case []string:
			b = le.AppendUint64(le.AppendUint32(le.AppendUint32(b, 9), 8), uint64(len(v)))
			for _, s := range v {
				b = str(b, s)
			}
		case []uint32:
			b = le.AppendUint64(le.AppendUint32(le.AppendUint32(b, 9), 4), uint64(len(v)))
			for _, x := range v {
				b = le.AppendUint32(b, x)
			}
		case []bool:
			b = le.AppendUint64(le.AppendUint32(le.AppendUint32(b, 9), 7), uint64(len(v)))
			for _, x := range v {
				b = append(b, map[bool]byte{true: 1}[x])
			}
		default:
			t.Fatalf("buildGGUF: %s: unsupported value %T", meta[i], v)
		}
	}
	var data []byte
	for _, x := range tensors {
		b = str(b, x.name)
		b = le.AppendUint64(le.AppendUint32(b, 1), uint64(len(x.data)))
		b = le.AppendUint64(le.AppendUint32(b, 0), uint64(len(data)))
		for _, v := range x.data {
			data = le.AppendUint32(data, math.Float32bits(v))
		}
		for len(data)%32 != 0 {
			data = append(data, 0)
		}
	}
	for len(b)%32 != 0 {
		b = append(b, 0)
	}
	f, err := gguf.Parse(append(b, data...), "test.gguf")
	if err != nil {
		t.Fatal(err)
	}
	return f
}

// llamaKVs is the metadata of a small llama GGUF, described by llamaModel.
func llamaKVs(arch string, extra ...any) kvs {
	p := arch + "."
	m := kvs{"general.architecture", arch, "general.name", "Test", "general.file_type", uint32(15),
		p + "context_length", uint32(2048), p + "embedding_length", uint32(256), p + "block_count", uint32(4),
		p + "feed_forward_length", uint32(512), p + "attention.head_count", uint32(8),
		p + "attention.head_count_kv", uint32(2), p + "rope.freq_base", float32(10000),
		p + "attention.layer_norm_rms_epsilon", float32(1e-5), p + "vocab_size", uint32(1000),
		"tokenizer.ggml.bos_token_id", uint32(1), "tokenizer.ggml.eos_token_id", uint32(2)}
	return set(m, extra...)
}

// set replaces or appends key/value pairs; a nil value removes the key.
func set(m kvs, extra ...any) kvs {
	out := append(kvs{}, m...)
	for i := 0; i+1 < len(extra); i += 2 {
		j := 0
		for j < len(out) && out[j] != extra[i] {
			j += 2
		}
		switch {
		case j < len(out) && extra[i+1] == nil:
			out = append(out[:j], out[j+2:]...)
		case j < len(out):
			out[j+1] = extra[i+1]
		case extra[i+1] != nil:
			out = append(out, extra[i], extra[i+1])
		}
	}
	return out
}

// llamaModel is what llamaKVs("llama") describes.
func llamaModel() Model {
	return Model{Source: SourceGGUF, Arch: "llama", Architecture: "llama", Name: "Test", VocabSize: 1000, HiddenSize: 256,
		Layers: 4, Heads: 8, KVHeads: 2, HeadDim: 32, FFNSize: 512, ContextLength: 2048, RMSNormEps: 1e-5,
		HiddenAct: "silu", RopeTheta: 10000, RopeDim: 32, TieEmbeddings: true, BOS: 1, EOS: []int{2}, FileType: 15}
}
