package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/spf13/cobra"
)

// benchServeOptions are the flags of mlx bench serve.
type benchServeOptions struct {
	url, model, apiKey      string
	concurrency, requests   int
	maxTokens, promptTokens int
	questionTokens          int // of every later turn; 0: promptTokens/4 + 1
	seed, turns             int
	temperature, topP       float64
	timeout, wait           time.Duration
	json, chat, allowEOS    bool
}

func newBenchServeCmd() *cobra.Command {
	var o benchServeOptions
	cmd := &cobra.Command{
		Use:   "serve",
		Short: "Load an OpenAI-compatible server with concurrent streaming clients",
		Long: `bench serve drives a running server (mlx serve, llama-server, ...) over HTTP
with --concurrency streaming clients until --requests completions are done,
then reports the aggregate generation rate (completion tokens per second of
wall time), the decoding rate (the tokens after each stream's first, per
second of the time some stream was decoding: without the time all waited
on prompts), the time to first token and the inter-token latency (p50 and
p99), and the errors (a 429 counts as one).

Each request sends a prompt of about --prompt-tokens tokens (words drawn
from --seed and the request number, so that no two requests share more
than a few leading tokens, and a second run with the same seed repeats
the same prompts) and asks for --max-tokens tokens with ignore_eos, so
that every request generates exactly that many. With --turns, each request
is a conversation: every later turn sends the conversation so far, the
last answer and a new question (of about --question-tokens), as chat
clients do; the report then gives
the time to first token of first and of later turns, and the share of
later prompts that the server reports as cached.

Without --model, it asks GET /v1/models for the first model, waiting up to
--wait while the server is not up yet or lists none (mlx serve answers
before its model is loaded), so that it can start with the server.`,
		Example: `  mlx serve model.gguf --parallel 8 &
  mlx bench serve --concurrency 8 --requests 32 --max-tokens 128
  mlx bench serve --url http://127.0.0.1:8081 --model m --concurrency 1 --requests 4 --json`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			rep, err := runBenchServe(cmd.Context(), o)
			if err != nil {
				return err
			}
			if o.json {
				enc := json.NewEncoder(cmd.OutOrStdout())
				enc.SetIndent("", "  ")
				return enc.Encode(rep)
			}
			rep.print(cmd.OutOrStdout())
			return nil
		},
	}
	f := cmd.Flags()
	f.StringVar(&o.url, "url", "http://127.0.0.1:8080", "base URL of the server")
	f.StringVar(&o.model, "model", "", "model to ask for (default: the first of GET /v1/models)")
	f.StringVar(&o.apiKey, "api-key", "", "sent as 'Authorization: Bearer KEY'")
	f.IntVarP(&o.concurrency, "concurrency", "c", 8, "clients streaming at once")
	f.IntVarP(&o.requests, "requests", "n", 32, "completions to run in all")
	f.IntVar(&o.maxTokens, "max-tokens", 128, "tokens each request generates")
	f.IntVar(&o.promptTokens, "prompt-tokens", 64, "approximate prompt length in tokens")
	f.IntVar(&o.questionTokens, "question-tokens", 0, "approximate length of the new question of every later turn (default: a quarter of --prompt-tokens)")
	f.IntVar(&o.seed, "seed", 1, "seed of the prompts' words")
	f.IntVar(&o.turns, "turns", 1, "turns of each request: every turn after the first resends the conversation with the answer and a new question")
	f.Float64Var(&o.temperature, "temperature", 0, "sampling temperature of the requests (0: greedy)")
	f.Float64Var(&o.topP, "top-p", 1, "nucleus sampling probability of the requests (1: off)")
	f.DurationVar(&o.timeout, "timeout", 10*time.Minute, "time limit of one request")
	f.DurationVar(&o.wait, "wait", time.Minute, "how long to wait for the server to list a model (without --model)")
	f.BoolVar(&o.chat, "chat", false, "use /v1/chat/completions instead of /v1/completions")
	f.BoolVar(&o.allowEOS, "allow-eos", false, "let requests stop at end-of-sequence (no ignore_eos)")
	f.BoolVar(&o.json, "json", false, "print the report as JSON")
	return cmd
}

// runBenchServe runs the load and summarises it.
func runBenchServe(ctx context.Context, o benchServeOptions) (*loadReport, error) {
	if o.concurrency < 1 || o.requests < 1 || o.maxTokens < 1 || o.promptTokens < 1 || o.turns < 1 || o.questionTokens < 0 {
		return nil, fmt.Errorf("--concurrency, --requests, --turns, --max-tokens and --prompt-tokens must be at least 1, --question-tokens at least 0")
	}
	if o.questionTokens == 0 {
		o.questionTokens = o.promptTokens/4 + 1
	}
	if o.temperature < 0 || o.topP < 0 || o.topP > 1 {
		return nil, fmt.Errorf("--temperature %g must be at least 0 and --top-p %g in [0, 1]", o.temperature, o.topP)
	}
	o.url = strings.TrimRight(o.url, "/")
	// A connection per request: a server may close an idle keep-alive
	// connection just as a client reuses it, failing a POST that Go does
	// not retry.
	client := &http.Client{Transport: &http.Transport{DisableKeepAlives: true, DisableCompression: true}}
	if o.model == "" {
		m, err := firstModel(ctx, client, o)
		if err != nil {
			return nil, err
		}
		o.model = m
	}
	next := make(chan int)
	results := make([]streamResult, o.requests*o.turns)
	var wg sync.WaitGroup
	start := time.Now()
	for range min(o.concurrency, o.requests) {
		wg.Go(func() {
			for i := range next {
				runConversation(ctx, client, o, i, results[i*o.turns:(i+1)*o.turns])
			}
		})
	}
	for i := range o.requests {
		next <- i
	}
	close(next)
	wg.Wait()
	return summarize(o, results, time.Since(start)), nil
}

// firstModel returns the id of the first model the server lists, asking
// again every modelPoll until --wait has passed while it cannot be reached
// or lists none: a server that is still loading its model.
func firstModel(ctx context.Context, client *http.Client, o benchServeOptions) (string, error) {
	deadline := time.Now().Add(o.wait)
	for {
		id, retry, err := listFirstModel(ctx, client, o)
		if err == nil || !retry || time.Now().Add(modelPoll).After(deadline) {
			return id, err
		}
		select {
		case <-ctx.Done():
			return "", ctx.Err()
		case <-time.After(modelPoll):
		}
	}
}

// modelPoll is how often firstModel asks again.
const modelPoll = 200 * time.Millisecond

// listFirstModel asks the server for its models once and returns the
// first id; retry tells whether asking again may succeed (no connection,
// an empty list, a server error).
func listFirstModel(ctx context.Context, client *http.Client, o benchServeOptions) (id string, retry bool, err error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, o.url+"/v1/models", nil)
	if err != nil {
		return "", false, err
	}
	authorize(req, o.apiKey)
	resp, err := client.Do(req)
	if err != nil {
		return "", ctx.Err() == nil, fmt.Errorf("listing the models of %s: %w", o.url, err)
	}
	defer resp.Body.Close()
	var list struct {
		Data []struct {
			ID string `json:"id"`
		} `json:"data"`
	}
	if err := json.NewDecoder(io.LimitReader(resp.Body, 1<<20)).Decode(&list); err != nil || len(list.Data) == 0 {
		retry := resp.StatusCode == http.StatusOK || resp.StatusCode >= 500
		return "", retry, fmt.Errorf("%s/v1/models names no model (status %d); pass --model", o.url, resp.StatusCode)
	}
	return list.Data[0].ID, false, nil
}

func authorize(req *http.Request, key string) {
	if key != "" {
		req.Header.Set("Authorization", "Bearer "+key)
	}
}
