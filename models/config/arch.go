package config

import (
	"fmt"
	"slices"
	"strings"
)

// slidingRule says how a family's config turns on sliding-window attention.
type slidingRule int

const (
	noSliding    slidingRule = iota // the family has no sliding window
	keySliding                      // sliding_window, with the family default when absent
	gatedSliding                    // only when use_sliding_window is true (qwen2, qwen3)
)

// family holds the defaults of one transformers config class: the values a
// config.json may leave out.
type family struct {
	arch         string // normalised architecture
	vocab        int
	heads        int
	kvHeads      int // 0: same as heads
	headDim      int // 0: hidden/heads
	maxPos       int
	eps          float64
	theta        float64
	localTheta   float64
	tie          bool
	act          string
	bias         bool // q/k/v biases whatever the config says
	bos, eos     int  // -1: none
	sliding      slidingRule
	window       int
	pattern      int
	attnCap      float64
	finalCap     float64
	queryPreAttn float64
}

var (
	llamaFamily = family{arch: "llama", vocab: 32000, heads: 32, maxPos: 2048, eps: 1e-6, theta: 10000,
		act: "silu", bos: 1, eos: 2}
	mistralFamily = family{arch: "llama", vocab: 32000, heads: 32, kvHeads: 8, maxPos: 4096 * 32, eps: 1e-6, theta: 10000,
		act: "silu", bos: 1, eos: 2, sliding: keySliding, window: 4096}
	qwen2Family = family{arch: "qwen2", vocab: 151936, heads: 32, maxPos: 32768, eps: 1e-6, theta: 10000,
		act: "silu", bias: true, bos: -1, eos: -1, sliding: gatedSliding, window: 4096}
	qwen3Family = family{arch: "qwen3", vocab: 151936, heads: 32, headDim: 128, maxPos: 32768, eps: 1e-6, theta: 10000,
		act: "silu", bos: -1, eos: -1, sliding: gatedSliding, window: 4096}
	gemma2Family = family{arch: "gemma2", vocab: 256000, heads: 8, kvHeads: 4, headDim: 256, maxPos: 8192, eps: 1e-6,
		theta: 10000, tie: true, act: "gelu_pytorch_tanh", bos: 2, eos: 1, sliding: keySliding, window: 4096,
		pattern: 2, attnCap: 50, finalCap: 30, queryPreAttn: 256}
	gemma3Family = family{arch: "gemma3", vocab: 262208, heads: 8, kvHeads: 4, headDim: 256, maxPos: 131072, eps: 1e-6,
		theta: 1e6, localTheta: 10000, tie: true, act: "gelu_pytorch_tanh", bos: 2, eos: 1, sliding: keySliding,
		window: 4096, pattern: 6, queryPreAttn: 256}
	phi3Family = family{arch: "phi3", vocab: 32064, heads: 32, maxPos: 4096, eps: 1e-5, theta: 10000,
		act: "silu", bos: 1, eos: 32000, sliding: keySliding}
)

// hfArchitectures maps the architectures entry of config.json to a family.
var hfArchitectures = map[string]*family{
	"LlamaForCausalLM":               &llamaFamily,
	"MistralForCausalLM":             &mistralFamily,
	"Qwen2ForCausalLM":               &qwen2Family,
	"Qwen3ForCausalLM":               &qwen3Family,
	"Gemma2ForCausalLM":              &gemma2Family,
	"Gemma3ForCausalLM":              &gemma3Family,
	"Gemma3ForConditionalGeneration": &gemma3Family,
	"Phi3ForCausalLM":                &phi3Family,
}

// modelTypes maps model_type, used when architectures is absent.
var modelTypes = map[string]*family{
	"llama": &llamaFamily, "mistral": &mistralFamily, "qwen2": &qwen2Family, "qwen3": &qwen3Family,
	"gemma2": &gemma2Family, "gemma3": &gemma3Family, "gemma3_text": &gemma3Family, "phi3": &phi3Family,
}

// ggufArchitectures maps general.architecture to a family.
var ggufArchitectures = map[string]*family{
	"llama": &llamaFamily, "qwen2": &qwen2Family, "qwen3": &qwen3Family,
	"gemma2": &gemma2Family, "gemma3": &gemma3Family, "phi3": &phi3Family,
}

// unsupportedArch returns the error for an architecture not in table.
func unsupportedArch[V any](what, name string, table map[string]V) error {
	names := make([]string, 0, len(table))
	for k := range table {
		names = append(names, k)
	}
	slices.Sort(names)
	return fmt.Errorf("%w: %s %.80q (supported: %s)", ErrUnsupported, what, name, strings.Join(names, ", "))
}
