package runtime

import (
	"fmt"
	"slices"
	"testing"

	"github.com/mlxrun/mlx/runtime/kvcache"
)

// quantKV are the block formats of the KV cache.
var quantKV = []kvcache.Type{kvcache.Q8_0, kvcache.Q4_0}

// TestQuantizedCacheSharing runs what shares and copies cache blocks over
// Q8_0 and Q4_0 caches: n choices of one prompt (two share the first's
// full blocks and copy its last), a second turn found in the prefix cache,
// and beams forked from one prompt. Each gives what an engine that
// computes everything itself gives.
func TestQuantizedCacheSharing(t *testing.T) {
	model := []string{"gguf", "qwen3-tiny-F16.gguf"} // heads of 32
	for _, kv := range quantKV {
		t.Run(kv.String(), func(t *testing.T) {
			e := loadWith(t, Options{KVType: kv, Parallel: 3}, model...)
			prompt := promptOf(BlockSize+70, 1)
			req := Request{Prompt: prompt, Params: greedy(8)}
			outs := generateAll(e, []Request{req, req, req})
			cached := 0
			for i, o := range outs {
				if o.err != nil || !slices.Equal(o.ids, outs[0].ids) {
					t.Fatalf("choice %d: %v, %v; choice 0 %v", i, o.ids, o.err, outs[0].ids)
				}
				cached += o.res.Usage.Cached
			}
			if cached != 2*(len(prompt)-1) {
				t.Errorf("choices found %d cached tokens, want %d", cached, 2*(len(prompt)-1))
			}
			turn2 := Request{Prompt: append(append(slices.Clone(prompt), outs[0].ids...), promptOf(20, 2)...), Params: greedy(8)}
			got := generateAll(e, []Request{turn2})[0]
			fresh := generateAll(loadWith(t, Options{KVType: kv}, model...), []Request{turn2})[0]
			if got.err != nil || !slices.Equal(got.ids, fresh.ids) || got.res.Usage.Cached < len(prompt) {
				t.Errorf("second turn: %v (%v), %d cached; without the cache %v", got.ids, got.err, got.res.Usage.Cached, fresh.ids)
			}
			want, _, _ := greedyLogprob(t, e, prompt, 6)
			one := beamRun(t, e, prompt, greedy(6), BeamSearch{Width: 1, LengthPenalty: 1})
			if len(one.Beams) != 1 || !slices.Equal(one.Beams[0].Tokens, want) {
				t.Errorf("one beam: %+v, want the greedy tokens %v", one.Beams, want)
			}
			three := beamRun(t, e, prompt, greedy(6), BeamSearch{Width: 3, LengthPenalty: 1})
			checkBeams(t, "three beams", three.Beams, 6)
		})
	}
}

// TestQuantizedCacheHybrid runs a second turn of the trained Qwen3.5
// model (linear-attention layers beside attention ones) over quantized
// caches: it resumes from the snapshot of the first turn and gives what an
// engine without the cache gives.
func TestQuantizedCacheHybrid(t *testing.T) {
	refs := hybridPrompts(t)
	for _, kv := range quantKV {
		e := loadWith(t, Options{KVType: kv, Ctx: 512}, "trained", "qwen3.5")
		turn1 := generateAll(e, []Request{{Prompt: refs[0].Prompt, Params: greedy(12)}})[0]
		if turn1.err != nil {
			t.Fatal(turn1.err)
		}
		second := Request{Prompt: append(append(slices.Clone(refs[0].Prompt), turn1.ids...), refs[1].Prompt...), Params: greedy(12)}
		got := generateAll(e, []Request{second})[0]
		fresh := generateAll(loadWith(t, Options{KVType: kv, Ctx: 512}, "trained", "qwen3.5"), []Request{second})[0]
		if got.err != nil || !slices.Equal(got.ids, fresh.ids) || got.res.Usage.Cached == 0 {
			t.Errorf("%v: second turn %v (%v), %d cached; without the cache %v", kv, got.ids, got.err, got.res.Usage.Cached, fresh.ids)
		}
	}
}

// TestQuantizedCacheSpeculation checks that greedy generation over a
// quantized cache gives the same tokens with the model as its own draft
// (every draft accepted) and with prompt lookup, whose verification steps
// compute several positions at once and take back rejected ones.
func TestQuantizedCacheSpeculation(t *testing.T) {
	model := []string{"gguf", "qwen3-tiny-F16.gguf"}
	prompt := specPrompts(t)["capital"]
	for _, kv := range quantKV {
		plain := loadWith(t, Options{KVType: kv}, model...)
		want, wantText, _, wantRes := collect(t, plain, Request{Prompt: prompt, Params: greedy(40)})
		for _, s := range []struct {
			draft string
			spec  Speculation
		}{{fixturePath(t, model...), specOf(4, 0)}, {"", specOf(0, 6)}} {
			e := loadWith(t, Options{KVType: kv, Spec: SpecOptions{Draft: s.draft}}, model...)
			got, text, _, res := collect(t, e, Request{Prompt: prompt, Params: greedy(40), Spec: s.spec})
			sameOutput(t, fmt.Sprintf("%v draft %q", kv, s.draft), got, want, text, wantText, res, wantRes)
			if s.draft != "" && res.Spec.Accepted == 0 {
				t.Errorf("%v: no draft token accepted", kv)
			}
		}
	}
}
