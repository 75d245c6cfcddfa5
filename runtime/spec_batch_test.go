package runtime

import (
	"slices"
	"testing"

	"github.com/mlxrun/mlx/runtime/kvcache"
)

// TestSpeculationUnderPressure runs sequences that speculate by default
// (a draft model and prompt lookup) at once, in a cache too small for all
// of them, so that their draft rows share forward passes and some are
// preempted; each must give what it gives alone without speculation, and
// every block must come back.
func TestSpeculationUnderPressure(t *testing.T) {
	const blocks = 5
	model := []string{"gguf", "llama-tiny-F32.gguf"}
	blockBytes := kvcache.BlockBytes(kvcache.F32, 2, 2, 16, BlockSize)
	opt := Options{Parallel: 4, KVMem: blocks * blockBytes, Batch: 64, Ctx: (blocks + 1) * BlockSize, KVType: kvcache.F32,
		Spec: SpecOptions{Draft: fixturePath(t, model...), DraftTokens: 4, Lookup: 4}}
	e := loadWith(t, opt, model...)
	alone := loadWith(t, Options{KVType: kvcache.F32}, model...)
	var reqs []Request
	for i := range 4 {
		p := greedy(48)
		p.IgnoreEOS = true
		reqs = append(reqs, Request{Prompt: promptOf(BlockSize-24+i, i), Params: p})
	}
	accepted := 0
	for i, o := range generateAll(e, reqs) {
		plain := reqs[i]
		plain.Spec = specOf(0, 0)
		want := generateAll(alone, []Request{plain})[0]
		if o.err != nil || !slices.Equal(o.ids, want.ids) || o.res.Finish != FinishLength {
			t.Errorf("sequence %d: %v (%v, %q); alone %v", i, o.ids, o.err, o.res.Finish, want.ids)
		}
		accepted += o.res.Spec.Accepted
	}
	if s := e.SpecStats(); s.Accepted != accepted || s.Proposed < accepted {
		t.Errorf("engine speculation stats %+v, want %d accepted", s, accepted)
	}
	if st := e.Stats(); st.KVBlocksUsed != 0 || st.Preemptions == 0 || accepted == 0 {
		t.Errorf("after the sequences: %+v, %d tokens accepted; want no block used, preemptions, accepted tokens", st, accepted)
	}
}

// TestSpeculationPrefixCache checks that what a speculating sequence
// leaves in the prefix cache holds its accepted tokens only: a next turn
// that resends its output reuses those blocks and still generates what a
// plain engine does.
func TestSpeculationPrefixCache(t *testing.T) {
	model := []string{"gguf", "llama-tiny-F32.gguf"}
	e := loadWith(t, Options{KVType: kvcache.F32, Spec: SpecOptions{Draft: fixturePath(t, "gguf", "llama-tiny-Q4_0.gguf"), Lookup: 4}}, model...)
	plain := loadWith(t, Options{KVType: kvcache.F32}, model...)
	first := promptOf(40, 3)
	out, _, _, res := collect(t, e, Request{Prompt: first, Params: greedy(BlockSize)})
	if res.Spec.Proposed == 0 {
		t.Fatal("nothing was proposed")
	}
	next := append(append(slices.Clone(first), out...), promptOf(5, 4)...)
	got, _, _, res := collect(t, e, Request{Prompt: next, Params: greedy(24)})
	want, _, _, _ := collect(t, plain, Request{Prompt: next, Params: greedy(24), Spec: specOf(0, 0)})
	if !slices.Equal(got, want) {
		t.Errorf("next turn: %v, want %v", got, want)
	}
	if res.Usage.Cached < BlockSize {
		t.Errorf("next turn reused %d cached tokens, want at least a block (%d)", res.Usage.Cached, BlockSize)
	}
}
