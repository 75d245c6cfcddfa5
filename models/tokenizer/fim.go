package tokenizer

// FIM holds the fill-in-the-middle tokens of a vocabulary, the ones code
// models are trained with to write the text between a prefix and a
// suffix; -1 marks a token the vocabulary lacks.
type FIM struct {
	Pre, Suf, Mid int // the prefix, suffix and middle markers
	Pad           int // padding
	Rep           int // before a repository name (repository-level prompts)
	Sep           int // before each file name (repository-level prompts)
}

// CanFill reports whether the vocabulary has the three markers a
// fill-in-the-middle prompt needs.
func (f FIM) CanFill() bool { return f.Pre >= 0 && f.Suf >= 0 && f.Mid >= 0 }

// FIM returns the fill-in-the-middle tokens of the vocabulary.
func (t *Tokenizer) FIM() FIM { return t.fim }

// fimRole is one of the tokens of FIM.
type fimRole int

const (
	fimPre fimRole = iota
	fimSuf
	fimMid
	fimPad
	fimRep
	fimSep
	fimRoles
)

// fimKeys are the GGUF metadata keys of each role's token id, the
// deprecated spelling last (it wins when both are there, as in llama.cpp).
var fimKeys = [fimRoles][]string{
	fimPre: {"tokenizer.ggml.fim_pre_token_id", "tokenizer.ggml.prefix_token_id"},
	fimSuf: {"tokenizer.ggml.fim_suf_token_id", "tokenizer.ggml.suffix_token_id"},
	fimMid: {"tokenizer.ggml.fim_mid_token_id", "tokenizer.ggml.middle_token_id"},
	fimPad: {"tokenizer.ggml.fim_pad_token_id"},
	fimRep: {"tokenizer.ggml.fim_rep_token_id"},
	fimSep: {"tokenizer.ggml.fim_sep_token_id"},
}

// fimTexts are the spellings of each role's token in the vocabularies of
// the code model families (Qwen2.5-Coder, StarCoder, CodeLlama, DeepSeek
// Coder, Granite, CodeGemma, GLM-4.5, Falcon-H1 Coder), used when the file
// names no id: the same list llama.cpp recognises.
var fimTexts = [fimRoles][]string{
	fimPre: {"<|fim_prefix|>", "<fim-prefix>", "<fim_prefix>", "<｜fim▁begin｜>", "<PRE>", "▁<PRE>", "<|code_prefix|>", "<|prefix|>"},
	fimSuf: {"<|fim_suffix|>", "<fim-suffix>", "<fim_suffix>", "<｜fim▁hole｜>", "<SUF>", "▁<SUF>", "<|code_suffix|>", "<|suffix|>"},
	fimMid: {"<|fim_middle|>", "<fim-middle>", "<fim_middle>", "<｜fim▁end｜>", "<MID>", "▁<MID>", "<|code_middle|>", "<|middle|>"},
	fimPad: {"<|fim_pad|>", "<fim-pad>", "<fim_pad>", "<PAD>", "[PAD]"},
	fimRep: {"<|fim_repo|>", "<|repo_name|>", "<fim-repo>", "<REPO>", "<reponame>"},
	fimSep: {"<|file_sep|>"},
}

// setFIM finds the fill-in-the-middle tokens: the ids the file names,
// else the known spellings.
func (t *Tokenizer) setFIM(s *spec) {
	var ids [fimRoles]int
	for r := range fimRoles {
		ids[r] = -1
		if id, ok := s.fim[r]; ok && id >= 0 && id < len(t.tokens) {
			ids[r] = id
			continue
		}
		for _, text := range fimTexts[r] {
			if id, ok := t.TokenID(text); ok {
				ids[r] = id
				break
			}
		}
	}
	t.fim = FIM{Pre: ids[fimPre], Suf: ids[fimSuf], Mid: ids[fimMid], Pad: ids[fimPad], Rep: ids[fimRep], Sep: ids[fimSep]}
}
