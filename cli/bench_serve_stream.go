package cli

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// streamResult is what one streamed request measured.
type streamResult struct {
	err    error
	ttft   time.Duration   // to the first chunk with text
	gaps   []time.Duration // between chunks with text
	tokens int             // completion tokens (usage, else chunks with text)
	total  time.Duration
}

// benchWords are common English words, mostly one token each.
var benchWords = strings.Fields(`the of and to in is that it for was on are as with his they at be this from
have or by one had not but what all were when we there can an your which their said if do will each about how up
out them then she many some so these would other into has more her two like him see time could no make than first
been its who now people my made over did down only way find use may water long little very after words called just
where most know get through back much before go good new write our used me man too any day same right look think
also around another came come work three word must because does part even place well such here take why things help
put years different away again off went old number great tell men say small every found still between name should
home big give air line set own under read last never us left end along while might next sound below saw something
thought both few those always looked show large often together asked house world going want school important until`)

// benchPrompt returns the prompt of request i: its number, then words
// drawn from seed and i, about n tokens in all.
func benchPrompt(seed, i, n int) string {
	rng := rand.New(rand.NewPCG(uint64(seed), uint64(i)))
	var b strings.Builder
	b.WriteString("Request " + strconv.Itoa(i) + ":")
	for range max(n-3, 1) {
		b.WriteString(" " + benchWords[rng.IntN(len(benchWords))])
	}
	return b.String()
}

// requestBody returns the JSON body of request i.
func requestBody(o benchServeOptions, i int) ([]byte, string) {
	body := map[string]any{"model": o.model, "max_tokens": o.maxTokens, "stream": true, "temperature": 0,
		"stream_options": map[string]any{"include_usage": true}}
	if !o.allowEOS {
		body["ignore_eos"] = true
	}
	prompt := benchPrompt(o.seed, i, o.promptTokens)
	path := "/v1/completions"
	if o.chat {
		path = "/v1/chat/completions"
		body["messages"] = []map[string]string{{"role": "user", "content": prompt}}
	} else {
		body["prompt"] = prompt
	}
	b, _ := json.Marshal(body) // maps of plain values always encode
	return b, path
}

// streamChunk is the part of a completion or chat chunk the bench reads.
type streamChunk struct {
	Choices []struct {
		Text  string `json:"text"`
		Delta struct {
			Content          string `json:"content"`
			ReasoningContent string `json:"reasoning_content"`
		} `json:"delta"`
	} `json:"choices"`
	Usage *struct {
		CompletionTokens int `json:"completion_tokens"`
	} `json:"usage"`
	Error json.RawMessage `json:"error"`
}

// streamOne runs request i and measures it.
func streamOne(ctx context.Context, client *http.Client, o benchServeOptions, i int) (r streamResult) {
	ctx, cancel := context.WithTimeout(ctx, o.timeout)
	defer cancel()
	body, path := requestBody(o, i)
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, o.url+path, bytes.NewReader(body))
	if err != nil {
		return streamResult{err: err}
	}
	req.Header.Set("Content-Type", "application/json")
	authorize(req, o.apiKey)
	start := time.Now()
	defer func() { r.total = time.Since(start) }()
	resp, err := client.Do(req)
	if err != nil {
		return streamResult{err: err}
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		msg, _ := io.ReadAll(io.LimitReader(resp.Body, 4096))
		return streamResult{err: fmt.Errorf("status %d: %s", resp.StatusCode, bytes.TrimSpace(msg))}
	}
	return readStream(resp.Body, start)
}

// readStream reads Server-Sent Events of chunks until [DONE].
func readStream(body io.Reader, start time.Time) (r streamResult) {
	sc := bufio.NewScanner(body)
	sc.Buffer(make([]byte, 64<<10), 16<<20)
	var last time.Time
	chunks, usage := 0, -1
	for sc.Scan() {
		line := sc.Text()
		data, ok := strings.CutPrefix(line, "data:")
		if !ok {
			if strings.HasPrefix(line, "event: error") {
				r.err = fmt.Errorf("error event")
			}
			continue
		}
		data = strings.TrimSpace(data)
		if data == "[DONE]" {
			break
		}
		var c streamChunk
		if err := json.Unmarshal([]byte(data), &c); err != nil {
			r.err = fmt.Errorf("bad chunk %.80q: %w", data, err)
			return r
		}
		if len(c.Error) > 0 {
			r.err = fmt.Errorf("error in the stream: %s", c.Error)
			return r
		}
		if c.Usage != nil {
			usage = c.Usage.CompletionTokens
		}
		if !hasText(&c) {
			continue
		}
		now := time.Now()
		if chunks == 0 {
			r.ttft = now.Sub(start)
		} else {
			r.gaps = append(r.gaps, now.Sub(last))
		}
		last = now
		chunks++
	}
	if err := sc.Err(); err != nil && r.err == nil {
		r.err = err
	}
	r.tokens = chunks
	if usage >= 0 {
		r.tokens = usage
	}
	if chunks == 0 && r.err == nil {
		r.err = fmt.Errorf("the stream ended without text")
	}
	return r
}

func hasText(c *streamChunk) bool {
	for _, ch := range c.Choices {
		if ch.Text != "" || ch.Delta.Content != "" || ch.Delta.ReasoningContent != "" {
			return true
		}
	}
	return false
}
