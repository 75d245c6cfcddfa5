package tokenizer

import (
	"testing"

	"github.com/mlxrun/mlx/models/fixture"
)

// reportCPU adds the throughput per second of CPU time (GC included) to
// a benchmark: on a shared machine the wall-clock MB/s understates it.
func reportCPU(b *testing.B, bytes int, run func()) {
	b.Helper()
	start := processCPU()
	for range b.N {
		run()
	}
	if used := processCPU() - start; used > 0 {
		b.ReportMetric(float64(bytes)*float64(b.N)/1e6/used.Seconds(), "MB/cpu-s")
	}
}

// benchSetup loads a fixture tokenizer and returns it with 1 MiB of mixed
// text (prose, code, numbers, CJK, emoji, other scripts), with the
// benchmark set to report MB/s of that text.
func benchSetup(b *testing.B, name string) (*Tokenizer, string) {
	b.Helper()
	tok := cachedLoad(b, fixture.Path(b, "tokenizers", name, "tokenizer.json"))
	text := mixedText(1<<20, 11)
	b.SetBytes(int64(len(text)))
	b.ReportAllocs()
	b.ResetTimer()
	return tok, text
}

// BenchmarkEncode encodes 1 MiB of mixed text with the real tokenizers.
func BenchmarkEncode(b *testing.B) {
	for _, name := range []string{"qwen3", "llama3", "smollm2"} {
		b.Run(name, func(b *testing.B) {
			tok, text := benchSetup(b, name)
			reportCPU(b, len(text), func() { tok.Encode(text, false) })
		})
	}
}

// BenchmarkEncodeGGUF encodes 1 MiB of mixed text with GGUF vocabularies:
// byte-level (qwen2), with a regex fallback pattern (falcon) and
// SentencePiece (llama-spm, where a text segment is one word).
func BenchmarkEncodeGGUF(b *testing.B) {
	for _, name := range []string{"qwen2", "falcon", "llama-spm"} {
		b.Run(name, func(b *testing.B) {
			tok := cachedLoad(b, fixture.Path(b, "vocab", "ggml-vocab-"+name+".gguf"))
			text := mixedText(1<<20, 11)
			b.SetBytes(int64(len(text)))
			b.ReportAllocs()
			b.ResetTimer()
			reportCPU(b, len(text), func() { tok.Encode(text, false) })
		})
	}
}

// BenchmarkEncodeCold is BenchmarkEncode with the word cache emptied before
// every run, so every word goes through the merge loop.
func BenchmarkEncodeCold(b *testing.B) {
	tok, text := benchSetup(b, "qwen3")
	reportCPU(b, len(text), func() {
		tok.model.cache.init()
		tok.Encode(text, false)
	})
}

// BenchmarkDecode decodes the ids of 1 MiB of mixed text.
func BenchmarkDecode(b *testing.B) {
	tok, text := benchSetup(b, "qwen3")
	ids := tok.Encode(text, false)
	b.ResetTimer()
	reportCPU(b, len(text), func() { tok.Decode(ids, false) })
}

// countSpans counts the spans a matcher reports.
type countSpans int

func (c *countSpans) onSpan(int, int, bool) { *c++ }

// BenchmarkSplit runs the hand scanners and the regex engine with the same
// patterns over 1 MiB of mixed text.
func BenchmarkSplit(b *testing.B) {
	text := mixedText(1<<20, 11)
	for name, pattern := range map[string]string{"gpt2": patGPT2, "llama3": patLlama3, "qwen2": patQwen2, "o200k": patO200k} {
		re, err := compileRegex(pattern)
		if err != nil {
			b.Fatal(err)
		}
		for _, m := range []struct {
			kind string
			m    matcher
		}{{"scanner", knownPatterns[pattern]}, {"regex", re}} {
			b.Run(name+"/"+m.kind, func(b *testing.B) {
				var warm countSpans
				m.m.each(text[:4096], &warm) // builds the rune class tables
				b.SetBytes(int64(len(text)))
				b.ResetTimer()
				for range b.N {
					var c countSpans
					m.m.each(text, &c)
				}
			})
		}
	}
}
