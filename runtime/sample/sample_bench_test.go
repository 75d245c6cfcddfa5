package sample

import (
	"fmt"
	"testing"
)

// BenchmarkSample measures one token (ns/op = ns per token) for the common
// settings over a Llama-2-sized and a Qwen-sized vocabulary.
func BenchmarkSample(b *testing.B) {
	configs := []struct {
		name string
		edit func(*Params)
	}{
		{"greedy", func(p *Params) { p.Temperature = 0 }},
		{"typical", func(p *Params) { p.Temperature, p.TopP, p.TopK = 0.7, 0.9, 40 }},
		{"top_p", func(p *Params) { p.Temperature, p.TopP = 0.7, 0.9 }},
		{"min_p", func(p *Params) { p.Temperature, p.MinP = 0.7, 0.05 }},
		{"temperature", func(p *Params) { p.Temperature = 0.7 }},
		{"greedy+logprobs", func(p *Params) { p.Temperature, p.Logprobs, p.TopLogprobs = 0, true, 20 }},
		{"typical+penalties", func(p *Params) {
			p.Temperature, p.TopP, p.TopK = 0.7, 0.9, 40
			p.RepetitionPenalty, p.FrequencyPenalty, p.PresencePenalty = 1.1, 0.5, 0.5
		}},
	}
	for _, vocab := range []int{32000, 151936} {
		logits := randomLogits(vocab, 1)
		prompt := make([]int32, 1000)
		for i := range prompt {
			prompt[i] = int32(i * 37 % vocab)
		}
		for _, c := range configs {
			b.Run(fmt.Sprintf("%s/vocab=%d", c.name, vocab), func(b *testing.B) {
				p := Defaults()
				c.edit(&p)
				p.Seed = seed(1)
				s := newSampler(b, p, vocab)
				if err := s.AddPrompt(prompt); err != nil {
					b.Fatal(err)
				}
				b.SetBytes(int64(4 * vocab))
				b.ReportAllocs()
				for b.Loop() {
					if _, err := s.Sample(logits); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}

// BenchmarkStopMatcher feeds token-sized deltas against four stop strings.
func BenchmarkStopMatcher(b *testing.B) {
	deltas := []string{"The", " quick", " brown", " fox", " jumps", " over", " the", " lazy", " dog", ".\n"}
	m, err := NewStopMatcher([]string{"</s>", "\n\nUser:", "<|im_end|>", "###"}, false)
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		for _, d := range deltas {
			m.Feed(d)
		}
	}
}
