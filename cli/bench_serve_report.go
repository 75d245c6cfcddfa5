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
	// DecodeTokensPerSecond counts the tokens after each stream's first over
	// the time at least one stream was between its first and last token:
	// the rate of decoding, without the time every stream waited on its
	// prompt.
	DecodeTokensPerSecond float64 `json:"decode_tokens_per_second"`
	TTFTP50               float64 `json:"ttft_p50_ms"`
	TTFTP99               float64 `json:"ttft_p99_ms"`
	ITLP50                float64 `json:"itl_p50_ms"`
	ITLP99                float64 `json:"itl_p99_ms"`
	// With several turns: the time to first token of first turns and of
	// later ones, and the share of later prompts the server found cached
	// (-1 when it does not report cached tokens).
	Turns              int     `json:"turns"`
	FirstTurnTTFTP50   float64 `json:"first_turn_ttft_p50_ms,omitempty"`
	LaterTurnsTTFTP50  float64 `json:"later_turns_ttft_p50_ms,omitempty"`
	LaterTurnsCachedPc float64 `json:"later_turns_cached_percent,omitempty"`
}

// summarize aggregates the results of a run of wall time.
func summarize(o benchServeOptions, results []streamResult, wall time.Duration) *loadReport {
	rep := &loadReport{URL: o.url, Model: o.model, Concurrency: o.concurrency, Requests: len(results),
		PromptTokens: o.promptTokens, MaxTokens: o.maxTokens, WallSeconds: wall.Seconds(), Turns: max(o.turns, 1)}
	var ttft, itl, first, later []time.Duration
	var spans []span
	decoded := 0
	cached, prompts := 0, 0
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
		if len(r.gaps) > 0 {
			spans = append(spans, span{r.first, r.last})
			decoded += len(r.gaps)
		}
		if r.turn == 0 {
			first = append(first, r.ttft)
			continue
		}
		later = append(later, r.ttft)
		if r.cached < 0 || cached < 0 {
			cached = -1
		} else {
			cached, prompts = cached+r.cached, prompts+r.prompt
		}
	}
	if rep.Turns > 1 {
		rep.FirstTurnTTFTP50, rep.LaterTurnsTTFTP50 = percentileMS(first, 50), percentileMS(later, 50)
		rep.LaterTurnsCachedPc = -1
		if cached >= 0 && prompts > 0 {
			rep.LaterTurnsCachedPc = 100 * float64(cached) / float64(prompts)
		}
	}
	if wall > 0 {
		rep.TokensPerSecond = float64(rep.CompletionTokens) / wall.Seconds()
	}
	if d := covered(spans); d > 0 {
		rep.DecodeTokensPerSecond = float64(decoded) / d.Seconds()
	}
	rep.TTFTP50, rep.TTFTP99 = percentileMS(ttft, 50), percentileMS(ttft, 99)
	rep.ITLP50, rep.ITLP99 = percentileMS(itl, 50), percentileMS(itl, 99)
	return rep
}

// span is the time from one stream's first token to its last.
type span struct{ from, to time.Time }

// covered returns the length of the union of the spans.
func covered(spans []span) time.Duration {
	slices.SortFunc(spans, func(a, b span) int { return a.from.Compare(b.from) })
	var total time.Duration
	var end time.Time
	for _, s := range spans {
		if s.from.After(end) {
			end = s.from
		}
		if s.to.After(end) {
			total += s.to.Sub(end)
			end = s.to
		}
	}
	return total
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
	fmt.Fprintf(w, "decoding      %.1f tokens/s (after each stream's first token, while any stream decodes)\n", r.DecodeTokensPerSecond)
	fmt.Fprintf(w, "ttft          p50 %.1f ms   p99 %.1f ms\n", r.TTFTP50, r.TTFTP99)
	fmt.Fprintf(w, "inter-token   p50 %.1f ms   p99 %.1f ms\n", r.ITLP50, r.ITLP99)
	if r.Turns > 1 {
		fmt.Fprintf(w, "turns         %d: ttft p50 %.1f ms first, %.1f ms later", r.Turns, r.FirstTurnTTFTP50, r.LaterTurnsTTFTP50)
		if r.LaterTurnsCachedPc >= 0 {
			fmt.Fprintf(w, "; later prompts %.1f%% cached", r.LaterTurnsCachedPc)
		}
		fmt.Fprintln(w)
	}
	fmt.Fprintf(w, "errors        %d\n", r.Errors)
	for _, e := range r.ErrorSamples {
		fmt.Fprintf(w, "  %s\n", e)
	}
}
