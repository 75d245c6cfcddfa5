package cli

import (
	"fmt"
	"io"
	"slices"
	"time"
)

// loadReport summarises a bench serve run.
type loadReport struct {
	URL              string   `json:"url"`
	Model            string   `json:"model"`
	Concurrency      int      `json:"concurrency"`
	Requests         int      `json:"requests"`
	Errors           int      `json:"errors"`
	ErrorSamples     []string `json:"error_samples,omitempty"`
	PromptTokens     int      `json:"prompt_tokens"`
	MaxTokens        int      `json:"max_tokens"`
	CompletionTokens int      `json:"completion_tokens"`
	WallSeconds      float64  `json:"wall_seconds"`
	TokensPerSecond  float64  `json:"tokens_per_second"`
	TTFTP50          float64  `json:"ttft_p50_ms"`
	TTFTP99          float64  `json:"ttft_p99_ms"`
	ITLP50           float64  `json:"itl_p50_ms"`
	ITLP99           float64  `json:"itl_p99_ms"`
}

// summarize aggregates the results of a run of wall time.
func summarize(o benchServeOptions, results []streamResult, wall time.Duration) *loadReport {
	rep := &loadReport{URL: o.url, Model: o.model, Concurrency: o.concurrency, Requests: len(results),
		PromptTokens: o.promptTokens, MaxTokens: o.maxTokens, WallSeconds: wall.Seconds()}
	var ttft, itl []time.Duration
	for _, r := range results {
		if r.err != nil {
			rep.Errors++
			if len(rep.ErrorSamples) < 5 {
				rep.ErrorSamples = append(rep.ErrorSamples, r.err.Error())
			}
			continue
		}
		rep.CompletionTokens += r.tokens
		ttft = append(ttft, r.ttft)
		itl = append(itl, r.gaps...)
	}
	if wall > 0 {
		rep.TokensPerSecond = float64(rep.CompletionTokens) / wall.Seconds()
	}
	rep.TTFTP50, rep.TTFTP99 = percentileMS(ttft, 50), percentileMS(ttft, 99)
	rep.ITLP50, rep.ITLP99 = percentileMS(itl, 50), percentileMS(itl, 99)
	return rep
}

// percentileMS returns the p-th percentile of ds in milliseconds (nearest
// rank), 0 for none.
func percentileMS(ds []time.Duration, p float64) float64 {
	if len(ds) == 0 {
		return 0
	}
	s := slices.Clone(ds)
	slices.Sort(s)
	k := int(p/100*float64(len(s))+0.5) - 1
	return float64(s[min(max(k, 0), len(s)-1)]) / float64(time.Millisecond)
}

// print writes the report as a few aligned lines.
func (r *loadReport) print(w io.Writer) {
	fmt.Fprintf(w, "server        %s (model %s)\n", r.URL, r.Model)
	fmt.Fprintf(w, "load          %d requests, %d at once, ~%d prompt tokens, %d max tokens\n", r.Requests, r.Concurrency, r.PromptTokens, r.MaxTokens)
	fmt.Fprintf(w, "throughput    %.1f tokens/s (%d tokens in %.2f s)\n", r.TokensPerSecond, r.CompletionTokens, r.WallSeconds)
	fmt.Fprintf(w, "ttft          p50 %.1f ms   p99 %.1f ms\n", r.TTFTP50, r.TTFTP99)
	fmt.Fprintf(w, "inter-token   p50 %.1f ms   p99 %.1f ms\n", r.ITLP50, r.ITLP99)
	fmt.Fprintf(w, "errors        %d\n", r.Errors)
	for _, e := range r.ErrorSamples {
		fmt.Fprintf(w, "  %s\n", e)
	}
}
