package config

// The families these tests parse with. The runtime registers the real ones
// (runtime/arch/*); models/config cannot import them, so its tests declare
// families of the same shapes, one for each parsing path: plain, keyed and
// gated sliding windows, a sliding pattern with two RoPE bases, soft-caps,
// a wide-query GGUF layer count, a mixture of experts.
func init() {
	for _, f := range []Family{
		{Arch: "llama", HF: []string{"LlamaForCausalLM"}, ModelTypes: []string{"llama"}, GGUF: []string{"llama"},
			Vocab: 32000, Heads: 32, MaxPos: 2048, Eps: 1e-6, Theta: 10000, Act: "silu", BOS: 1, EOS: 2},
		{Arch: "llama", HF: []string{"MistralForCausalLM"}, ModelTypes: []string{"mistral"},
			Vocab: 32000, Heads: 32, KVHeads: 8, MaxPos: 4096 * 32, Eps: 1e-6, Theta: 10000, Act: "silu", BOS: 1, EOS: 2,
			Sliding: KeySliding, Window: 4096},
		{Arch: "qwen2", HF: []string{"Qwen2ForCausalLM"}, ModelTypes: []string{"qwen2"}, GGUF: []string{"qwen2"},
			Vocab: 151936, Heads: 32, MaxPos: 32768, Eps: 1e-6, Theta: 10000, Act: "silu", Bias: true, BOS: -1, EOS: -1,
			Sliding: GatedSliding, Window: 4096},
		{Arch: "qwen3", HF: []string{"Qwen3ForCausalLM"}, ModelTypes: []string{"qwen3"}, GGUF: []string{"qwen3"},
			Vocab: 151936, Heads: 32, HeadDim: 128, MaxPos: 32768, Eps: 1e-6, Theta: 10000, Act: "silu", BOS: -1, EOS: -1,
			Sliding: GatedSliding, Window: 4096},
		{Arch: "gemma2", HF: []string{"Gemma2ForCausalLM"}, ModelTypes: []string{"gemma2"}, GGUF: []string{"gemma2"},
			Vocab: 256000, Heads: 8, KVHeads: 4, HeadDim: 256, MaxPos: 8192, Eps: 1e-6, Theta: 10000, Tie: true,
			Act: "gelu_pytorch_tanh", BOS: 2, EOS: 1, Sliding: KeySliding, Window: 4096, Pattern: 2,
			AttnCap: 50, FinalCap: 30, QueryPreAttn: 256, WideQueryLayers: 46},
		{Arch: "gemma3", HF: []string{"Gemma3ForCausalLM", "Gemma3ForConditionalGeneration"},
			ModelTypes: []string{"gemma3", "gemma3_text"}, GGUF: []string{"gemma3"},
			Vocab: 262208, Heads: 8, KVHeads: 4, HeadDim: 256, MaxPos: 131072, Eps: 1e-6, Theta: 1e6, LocalTheta: 10000,
			Tie: true, Act: "gelu_pytorch_tanh", BOS: 2, EOS: 1, Sliding: KeySliding, Window: 4096, Pattern: 6,
			QueryPreAttn: 256, WideQueryLayers: 62},
		{Arch: "phi3", HF: []string{"Phi3ForCausalLM"}, ModelTypes: []string{"phi3"}, GGUF: []string{"phi3"},
			Vocab: 32064, Heads: 32, MaxPos: 4096, Eps: 1e-5, Theta: 10000, Act: "silu", BOS: 1, EOS: 32000,
			Sliding: KeySliding},
		{Arch: "qwen3moe", HF: []string{"Qwen3MoeForCausalLM"}, ModelTypes: []string{"qwen3_moe"}, GGUF: []string{"qwen3moe"},
			Vocab: 151936, Heads: 32, KVHeads: 4, MaxPos: 32768, Eps: 1e-6, Theta: 10000, Act: "silu", BOS: -1, EOS: -1,
			MoE: MoE{Experts: 128, TopK: 8, FFNSize: 768, Step: 1}, GGUFNormTopK: true},
		{Arch: "gpt-oss", HF: []string{"GptOssForCausalLM"}, ModelTypes: []string{"gpt_oss"}, GGUF: []string{"gpt-oss"},
			Vocab: 201088, Heads: 64, KVHeads: 8, HeadDim: 64, MaxPos: 131072, Eps: 1e-5, Theta: 150000, Act: "silu",
			Bias: true, BOS: -1, EOS: -1, Sliding: KeySliding, Window: 128, Pattern: 2,
			MoE: MoE{Experts: 32, TopK: 4, FFNSize: 2880, Step: 1}, MoEFFNKey: "intermediate_size"},
		{Arch: "nomic-bert", HF: []string{"NomicBertModel"}, ModelTypes: []string{"nomic_bert"},
			Vocab: 30528, Heads: 12, MaxPos: 2048, Eps: 1e-12, Theta: 1000, Act: "swiglu", BOS: -1, EOS: -1, Encoder: true,
			Aliases: [][2]string{{"n_embd", "hidden_size"}, {"n_layer", "num_hidden_layers"}, {"n_head", "num_attention_heads"},
				{"n_inner", "intermediate_size"}, {"max_trained_positions", "max_position_embeddings"},
				{"n_positions", "max_position_embeddings"}, {"rotary_emb_base", "rope_theta"}}},
		{Arch: "xlm-roberta", HF: []string{"XLMRobertaModel", "XLMRobertaForSequenceClassification"},
			Vocab: 250002, Heads: 12, MaxPos: 514, Eps: 1e-5, Theta: 10000, Act: "gelu", BOS: 0, EOS: 2, Encoder: true,
			PosOffset: true},
	} {
		Register(f)
	}
}

// gemma4 is registered alone: its defaults turn on the keys only Gemma 4
// configs have.
func init() {
	Register(Family{Arch: "gemma4", HF: []string{"Gemma4ForCausalLM"}, ModelTypes: []string{"gemma4_text"}, GGUF: []string{"gemma4"},
		Vocab: 262144, Heads: 8, KVHeads: 4, HeadDim: 256, MaxPos: 131072, Eps: 1e-6, Theta: 1e6, LocalTheta: 10000,
		Tie: true, Act: "gelu_pytorch_tanh", BOS: 2, EOS: 1, Sliding: KeySliding, Window: 512, Pattern: 6,
		GlobalHeadDim: 512, PerLayerInput: 256, PerLayerVocab: 262144, OptionalMoE: true})
}
