package runtime

import (
	"context"
	"math"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mlxrun/mlx/runtime/kvcache"
)

// longChat returns the conversations of the trained models' cases.json,
// with their expected answers, in ChatML, over and over until the text
// has at least n tokens of e's tokenizer; it returns the first n.
func longChat(t *testing.T, e *Engine, n int) []int32 {
	t.Helper()
	var cases []struct {
		Messages []struct{ Role, Content string } `json:"messages"`
		Answer   string                           `json:"expected_answer"`
	}
	readJSON(t, filepath.Join(fixturePath(t, "trained"), "cases.json"), &cases)
	var b strings.Builder
	for _, c := range cases {
		for _, m := range c.Messages {
			b.WriteString("<|im_start|>" + m.Role + "\n" + m.Content + "<|im_end|>\n")
		}
		b.WriteString("<|im_start|>assistant\n" + c.Answer + "<|im_end|>\n")
	}
	one := e.Tokenizer().Encode(b.String(), false)
	var ids []int32
	for len(ids) < n {
		ids = append(ids, one...)
	}
	return ids[:n]
}

// forcedLogprobs returns the log-probability the model gives each token of
// ids after the tokens before it (teacher forcing), from the second on.
func forcedLogprobs(t *testing.T, e *Engine, ids []int32) []float64 {
	t.Helper()
	out := make([]float64, 0, len(ids)-1)
	err := e.Score(context.Background(), ids[:len(ids)-1], 0, func(i int, logits []float32) error {
		m := math.Inf(-1)
		for _, v := range logits {
			m = math.Max(m, float64(v))
		}
		var sum float64
		for _, v := range logits {
			sum += math.Exp(float64(v) - m)
		}
		out = append(out, float64(logits[ids[i+1]])-m-math.Log(sum))
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// TestQuantizedCacheAccuracy measures what Q8_0 and Q4_0 caches cost in
// accuracy on long prompts: the teacher-forced log-probability of every
// token of a long chat (the whole context of the trained Phi-3 model),
// against an F16 cache, and as a yardstick a float32 one. It bounds the
// largest and the mean |Δ| (docs/performance.md quotes them).
func TestQuantizedCacheAccuracy(t *testing.T) {
	if testing.Short() {
		t.Skip("scores thousands of tokens")
	}
	tests := []struct {
		name   string
		model  []string
		tokens int
		bounds map[kvcache.Type][2]float64 // largest and mean |Δ|
	}{
		{"phi3", []string{"trained", "phi3"}, 2048, map[kvcache.Type][2]float64{
			kvcache.F32: {0.6, 0.01}, kvcache.Q8_0: {0.6, 0.02}, kvcache.Q4_0: {3.5, 0.14}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ref := loadWith(t, Options{KVType: kvcache.F16, Ctx: tt.tokens}, tt.model...)
			ids := longChat(t, ref, tt.tokens)
			want := forcedLogprobs(t, ref, ids)
			ref.Close()
			for _, kv := range []kvcache.Type{kvcache.F32, kvcache.Q8_0, kvcache.Q4_0} {
				e := loadWith(t, Options{KVType: kv, Ctx: tt.tokens}, tt.model...)
				got := forcedLogprobs(t, e, ids)
				e.Close()
				var most, sum, mean float64
				for i := range want {
					d := math.Abs(got[i] - want[i])
					most, sum = math.Max(most, d), sum+d
					mean += want[i]
				}
				t.Logf("%v cache, %d tokens: |Δlogprob| max %.4f, mean %.5f (F16 cache: mean logprob %.3f)",
					kv, len(ids), most, sum/float64(len(want)), mean/float64(len(want)))
				if b := tt.bounds[kv]; most > b[0] || sum/float64(len(want)) > b[1] {
					t.Errorf("%v cache: |Δlogprob| max %.4f, mean %.5f; want at most %v and %v", kv, most, sum/float64(len(want)), b[0], b[1])
				}
			}
		})
	}
}
