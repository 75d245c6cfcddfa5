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
	if st := e.Stats(); st.KVBlocksUsed != 0 || st.Preemptions == 0 || accepted == 0 {
		t.Errorf("after the sequences: %+v, %d tokens accepted; want no block used, preemptions, accepted tokens", st, accepted)
	}
}
