package grammar

import (
	"runtime"
	"testing"
)

// BenchmarkNewVocab measures building the trie of a fixture vocabulary and
// reports the memory it keeps.
func BenchmarkNewVocab(b *testing.B) {
	for _, name := range []string{"qwen3", "smollm2"} {
		tv := loadVocab(b, name)
		b.Run(name, func(b *testing.B) {
			b.ReportAllocs()
			var v *Vocab
			var before, after runtime.MemStats
			for b.Loop() {
				runtime.GC()
				runtime.ReadMemStats(&before)
				v = NewVocab(tv.v.pieces, nil)
				runtime.GC()
				runtime.ReadMemStats(&after)
			}
			b.ReportMetric(float64(after.HeapAlloc-before.HeapAlloc)/(1<<20), "MiB-kept")
			b.ReportMetric(float64(v.Nodes()), "nodes")
		})
	}
}
