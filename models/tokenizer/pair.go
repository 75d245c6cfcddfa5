package tokenizer

// pairRule is how llama.cpp frames a pair of texts, from a GGUF file's
// flags: add_eos_token (EOS, or SEP without one, after each text) and
// add_sep_token (SEP between them), which BERT vocabularies have by
// default.
type pairRule struct {
	eos, sep       int
	addEOS, addSEP bool
}

// EncodePair returns the tokens of a pair of texts, such as a reranker's
// query and document, framed as llama.cpp frames them: BOS when the
// tokenizer adds it, the first text, EOS when the file asks for it, SEP
// when it asks for that, the second text, and EOS again. Special tokens
// written in the texts are taken as plain text. A tokenizer.json frames
// the pair as its post-processor's pair template does (TemplateProcessing,
// RobertaProcessing, BertProcessing); one without puts EOS after each text
// when it adds one.
func (t *Tokenizer) EncodePair(first, second string) []int32 {
	if t.pair == nil && t.pairTpl != nil {
		return t.encodeTemplatePair(first, second)
	}
	r := pairRule{eos: t.eos, sep: -1, addEOS: t.AddEOS()}
	if t.pair != nil {
		r = *t.pair
	}
	end := r.eos
	if end < 0 {
		end = r.sep
	}
	var ids []int32
	if t.AddBOS() {
		ids = append(ids, int32(t.bos))
	}
	ids = append(ids, t.EncodePlain(first)...)
	if r.addEOS && end >= 0 {
		ids = append(ids, int32(end))
	}
	if r.addSEP && r.sep >= 0 {
		ids = append(ids, int32(r.sep))
	}
	ids = append(ids, t.EncodePlain(second)...)
	if r.addEOS && end >= 0 {
		ids = append(ids, int32(end))
	}
	return ids
}
