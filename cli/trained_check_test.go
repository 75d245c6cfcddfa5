package cli

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"testing"

	"github.com/mlxrun/mlx/runtime"
)

// trainedMaxTokens bounds every answer: the longest expected answer is
// well under it, and a model that does not stop shows as a mismatch.
const trainedMaxTokens = 96

// trainedOptions are the engine options of the trained-model checks: the
// prompts are at most a few hundred tokens.
func trainedOptions() runtime.Options { return runtime.Options{Threads: 2, Ctx: 1024} }

// checkTrained runs every case through the server at srv and through pipe
// mode on the model at path.
func checkTrained(t *testing.T, srv *liveServer, path string, cases []trainedCase) {
	t.Helper()
	t.Run("server", func(t *testing.T) { checkTrainedServer(t, srv, cases) })
	t.Run("pipe", func(t *testing.T) { checkTrainedPipe(t, path, cases) })
}

// trainedExpect returns the cases with the expected answers of a form of
// the model: a case in sameAs expects the answer of the case it names.
func trainedExpect(t *testing.T, cases []trainedCase, sameAs map[string]string) []trainedCase {
	t.Helper()
	answers := map[string]string{}
	for _, c := range cases {
		answers[c.Name] = c.Expected
	}
	out := append([]trainedCase(nil), cases...)
	for i, c := range out {
		if other, ok := sameAs[c.Name]; ok {
			if answers[other] == "" {
				t.Fatalf("%s answers as %s, which cases.json lacks", c.Name, other)
			}
			t.Logf("%s expects the answer of %s", c.Name, other)
			out[i].Expected = answers[other]
		}
	}
	return out
}

// checkTrainedServer sends every case to /v1/chat/completions, streamed and
// not, a few at a time so that the engine batches them, and compares
// content, reasoning_content, tool_calls and finish_reason.
func checkTrainedServer(t *testing.T, srv *liveServer, cases []trainedCase) {
	type result struct {
		got reply
		err error
	}
	results := make([]result, 2*len(cases))
	sem := make(chan struct{}, 8)
	var wg sync.WaitGroup
	for i := range results {
		wg.Add(1)
		go func() {
			defer wg.Done()
			sem <- struct{}{}
			defer func() { <-sem }()
			got, err := srv.chat(cases[i/2], i%2 == 1)
			results[i] = result{got, err}
		}()
	}
	wg.Wait()
	for i, r := range results {
		c, mode := cases[i/2], map[bool]string{false: "whole", true: "streamed"}[i%2 == 1]
		want, err := wantReply(c.Expected)
		switch {
		case err != nil:
			t.Fatalf("cases.json: %s: %v", c.Name, err)
		case r.err != nil:
			t.Errorf("%s (%s): %v", c.Name, mode, r.err)
		case !r.got.equal(want):
			t.Errorf("%s (%s):\n got %v\nwant %v", c.Name, mode, r.got, want)
		}
	}
}

// chat sends one case with greedy sampling and reads the reply.
func (s *liveServer) chat(c trainedCase, stream bool) (reply, error) {
	body := map[string]any{"model": s.model, "messages": c.Messages, "temperature": 0,
		"max_tokens": trainedMaxTokens, "stream": stream}
	if len(c.Tools) > 0 {
		body["tools"] = c.Tools
	}
	b, err := json.Marshal(body)
	if err != nil {
		return reply{}, err
	}
	resp, err := s.client.Post(s.url+"/v1/chat/completions", "application/json", strings.NewReader(string(b)))
	if err != nil {
		return reply{}, err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		var e json.RawMessage
		json.NewDecoder(resp.Body).Decode(&e)
		return reply{}, fmt.Errorf("status %d: %s", resp.StatusCode, e)
	}
	return readReply(resp, stream)
}

// checkTrainedPipe runs mlx run --temperature 0 with each case's user
// message on standard input, as `echo Q | mlx run MODEL` gives it, and its
// system message as --system; the output must be the expected answer as
// it is, ended by a newline. Cases of several turns cannot be said in
// pipe mode.
func checkTrainedPipe(t *testing.T, path string, cases []trainedCase) {
	for _, c := range cases {
		var msgs []struct{ Role, Content string }
		if err := json.Unmarshal(c.Messages, &msgs); err != nil {
			t.Fatalf("cases.json: %s: %v", c.Name, err)
		}
		args := []string{"run", "--temperature", "0", "--max-tokens", fmt.Sprint(trainedMaxTokens), "--threads", "2"}
		if len(msgs) == 2 && msgs[0].Role == "system" {
			args = append(args, "--system", msgs[0].Content)
			msgs = msgs[1:]
		}
		if len(msgs) != 1 || msgs[0].Role != "user" {
			continue
		}
		got, err := runWithInput(t, msgs[0].Content+"\n", append(args, path)...)
		switch {
		case err != nil:
			t.Errorf("%s: %v", c.Name, err)
		case got != c.Expected+"\n":
			t.Errorf("%s:\n got %q\nwant %q", c.Name, got, c.Expected+"\n")
		}
	}
}
