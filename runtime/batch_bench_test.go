package runtime

import (
	"fmt"
	"testing"
)

// BenchmarkConcurrentDecode runs k sequences at once through the
// scheduler (each a 32-token prompt, then 32 generated tokens) and reports
// the aggregate rate of generated tokens: how well decoding steps share
// the weights.
func BenchmarkConcurrentDecode(b *testing.B) {
	for _, file := range []string{"llama-k256-Q4_K_M.gguf", "llama-tiny-Q8_0.gguf"} {
		for _, k := range []int{1, 4, 8} {
			b.Run(fmt.Sprintf("%s/%d", file, k), func(b *testing.B) {
				e := loadWith(b, Options{Parallel: k}, "gguf", file)
				reqs := make([]Request, k)
				for i := range reqs {
					p := greedy(32)
					p.IgnoreEOS = true
					reqs[i] = Request{Prompt: promptOf(32, i), Params: p}
				}
				b.ReportAllocs()
				for b.Loop() {
					generateAll(e, reqs)
				}
				b.ReportMetric(float64(32*k*b.N)/b.Elapsed().Seconds(), "tok/s")
			})
		}
	}
}
