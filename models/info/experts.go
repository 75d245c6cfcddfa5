package info

import "strings"

// Experts is the mixture-of-experts layout of a sparse model.
type Experts struct {
	Count     int `json:"count"`      // experts of a sparse layer
	Used      int `json:"used"`       // experts each token is routed to
	FFNLength int `json:"ffn_length"` // intermediate size of one expert
	// SharedFFNLength is the intermediate size of the shared expert, 0
	// when the config states none or the weights have none.
	SharedFFNLength int `json:"shared_ffn_length"`
}

// countExpertTensor adds the n parameters of a tensor to the routed
// experts' count if it is one of theirs, and notes a shared expert.
func (in *Info) countExpertTensor(name string, n int64) {
	switch {
	case isExpertTensor(name):
		in.expertParams = addSat(in.expertParams, n)
	case strings.Contains(name, "shared_expert") || strings.Contains(name, "_shexp."):
		in.sharedExpert = true
	}
}

// isExpertTensor reports whether a tensor holds routed experts' weights:
// GGUF's stacked ffn_*_exps, Hugging Face's mlp.experts.* (one tensor per
// expert or fused), MLX's switch_mlp. Shared experts are not routed.
func isExpertTensor(name string) bool {
	return strings.Contains(name, "_exps.") || strings.Contains(name, ".experts.") || strings.Contains(name, ".switch_mlp.")
}

// setActive derives the parameters a token uses from the routed experts'
// share of them.
func (in *Info) setActive() {
	e := in.Experts
	if e != nil && !in.sharedExpert && in.Tensors > 0 {
		e.SharedFFNLength = 0
	}
	if e == nil || e.Count <= 0 || e.Used <= 0 || e.Used > e.Count || in.expertParams > in.Parameters {
		return
	}
	routed := in.expertParams / int64(e.Count) * int64(e.Used)
	in.ActiveParameters = in.Parameters - in.expertParams + routed
	in.ActiveParameterSize = HumanCount(in.ActiveParameters)
}
