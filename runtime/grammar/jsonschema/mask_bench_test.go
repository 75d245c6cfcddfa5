package jsonschema

import (
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"testing"
	"time"

	"github.com/mlxrun/mlx/runtime/grammar"
	"github.com/mlxrun/mlx/runtime/grammar/internal/cpuclock"
)

// BenchmarkGenerationMask measures the mask of every token of whole
// random generations, each with a newly compiled grammar (no caches
// shared between requests): the per-token cost of a first request. It reports the mean and
// the worst mask in CPU time of the thread.
func BenchmarkGenerationMask(b *testing.B) {
	for _, vocab := range []string{"smollm2", "qwen3"} {
		for _, schema := range []string{"tool_call", "person"} {
			b.Run(vocab+"/"+schema, func(b *testing.B) {
				wv := loadVocab(b, vocab)
				src, err := os.ReadFile(filepath.Join("testdata", schema+".json"))
				if err != nil {
					b.Fatal(err)
				}
				g, err := Compile(src, Options{})
				if err != nil {
					b.Fatal(err)
				}
				runtime.LockOSThread()
				defer runtime.UnlockOSThread()
				var total, worst time.Duration
				tokens := 0
				seed := uint64(0)
				for b.Loop() {
					seed++
					if g, err = Compile(src, Options{}); err != nil {
						b.Fatal(err)
					}
					m, err := grammar.NewMatcher(g, wv.v)
					if err != nil {
						b.Fatal(err)
					}
					n, sum, max := timedWalk(b, m, wv, rand.New(rand.NewPCG(seed, 1)))
					tokens += n
					total += sum
					worst = maxDur(worst, max)
				}
				b.ReportMetric(float64(total.Microseconds())/float64(tokens), "µs/mask")
				b.ReportMetric(float64(worst.Microseconds()), "µs/worst-mask")
				b.ReportMetric(float64(tokens)/float64(b.N), "tokens/gen")
			})
		}
	}
}

// timedWalk runs one random walk and times each mask.
func timedWalk(b *testing.B, m *grammar.Matcher, wv *walkVocab, rng *rand.Rand) (n int, total, worst time.Duration) {
	mask := make([]uint64, wv.v.Words())
	for step := 0; step < 1500 && !m.Done(); step++ {
		start := cpuclock.Thread()
		if err := m.Mask(mask); err != nil {
			b.Fatal(err)
		}
		d := cpuclock.Thread() - start
		total += d
		worst = maxDur(worst, d)
		n++
		id := -1
		if step > 30 && rng.Float64() < float64(step-30)/20 {
			for _, c := range append(wv.eog, wv.closers...) {
				if mask[c>>6]&(1<<(c&63)) != 0 {
					id = c
					break
				}
			}
		}
		if id < 0 {
			id = pickBit(mask, rng)
		}
		if err := m.Accept(id); err != nil {
			b.Fatal(err)
		}
	}
	return n, total, worst
}

func maxDur(a, b time.Duration) time.Duration {
	if a > b {
		return a
	}
	return b
}
