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
	turn   int             // of its conversation, from 0
	ttft   time.Duration   // to the first chunk with text
	gaps   []time.Duration // between chunks with text
	first  time.Time       // when the first chunk with text came
	last   time.Time       // when the last one came
	tokens int             // completion tokens (usage, else chunks with text)
	prompt int             // prompt tokens (usage), -1 when not reported
	cached int             // prompt tokens found in the server's cache, -1 when not reported
	text   string
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
// drawn from seed and i, about n tokens in all (at least one word).
func benchPrompt(seed, i, n int) string {
	rng := rand.New(rand.NewPCG(uint64(seed), uint64(i)))
	var b strings.Builder
	b.WriteString("Request " + strconv.Itoa(i) + ":")
	for range max(n-3, 1) {
		b.WriteString(" " + benchWords[rng.IntN(len(benchWords))])
	}
	return b.String()
}

// conversation is the state of one client's request across turns: the
// prompt so far (completions) or the messages (chat).
type conversation struct {
	prompt   string
	messages []map[string]string
}

// newConversation starts the conversation of request i.
func newConversation(o benchServeOptions, i int) *conversation {
	p := benchPrompt(o.seed, i, o.promptTokens)
	if o.chat {
		return &conversation{messages: []map[string]string{{"role": "user", "content": p}}}
	}
	return &conversation{prompt: p}
}

// next adds the answer of the last turn and a new question of about n
// tokens, drawn from seed.
func (c *conversation) next(answer string, seed, n int) {
	q := benchPrompt(seed, 1<<20, n)
	if c.messages != nil {
		c.messages = append(c.messages, map[string]string{"role": "assistant", "content": answer}, map[string]string{"role": "user", "content": q})
		return
	}
	c.prompt += answer + "\n" + q
}

// requestBody returns the JSON body of the conversation's next turn.
func requestBody(o benchServeOptions, c *conversation) ([]byte, string) {
	body := map[string]any{"model": o.model, "max_tokens": o.maxTokens, "stream": true, "temperature": o.temperature,
		"stream_options": map[string]any{"include_usage": true}}
	if o.topP > 0 && o.topP < 1 {
		body["top_p"] = o.topP
	}
	if !o.allowEOS {
		body["ignore_eos"] = true
	}
	path := "/v1/completions"
	if c.messages != nil {
		path = "/v1/chat/completions"
		body["messages"] = c.messages
	} else {
		body["prompt"] = c.prompt
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
		PromptTokens        int `json:"prompt_tokens"`
		CompletionTokens    int `json:"completion_tokens"`
		PromptTokensDetails *struct {
			CachedTokens int `json:"cached_tokens"`
		} `json:"prompt_tokens_details"`
	} `json:"usage"`
	Error json.RawMessage `json:"error"`
}

// runConversation runs the turns of request i into results.
func runConversation(ctx context.Context, client *http.Client, o benchServeOptions, i int, results []streamResult) {
	c := newConversation(o, i)
	for t := range results {
		results[t] = streamOne(ctx, client, o, c)
		results[t].turn = t
		if err := results[t].err; err != nil {
			for k := t + 1; k < len(results); k++ {
				results[k] = streamResult{turn: k, err: fmt.Errorf("not sent: turn %d failed: %w", t+1, err)}
			}
			return
		}
		c.next(results[t].text, o.seed+t+1, o.questionTokens)
	}
}

// streamOne runs the next turn of c and measures it.
func streamOne(ctx context.Context, client *http.Client, o benchServeOptions, c *conversation) (r streamResult) {
	ctx, cancel := context.WithTimeout(ctx, o.timeout)
	defer cancel()
	body, path := requestBody(o, c)
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
	var text strings.Builder
	chunks, usage := 0, -1
	r.prompt, r.cached = -1, -1
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
			usage, r.prompt = c.Usage.CompletionTokens, c.Usage.PromptTokens
			if d := c.Usage.PromptTokensDetails; d != nil {
				r.cached = d.CachedTokens
			}
		}
		if !addText(&text, &c) {
			continue
		}
		now := time.Now()
		if chunks == 0 {
			r.ttft, r.first = now.Sub(start), now
		} else {
			r.gaps = append(r.gaps, now.Sub(last))
		}
		last, r.last = now, now
		chunks++
	}
	if err := sc.Err(); err != nil && r.err == nil {
		r.err = err
	}
	r.tokens, r.text = chunks, text.String()
	if usage >= 0 {
		r.tokens = usage
	}
	if chunks == 0 && r.err == nil {
		r.err = fmt.Errorf("the stream ended without text")
	}
	return r
}

// addText appends the answer text of a chunk to b and reports whether the
// chunk carried any text (reasoning included).
func addText(b *strings.Builder, c *streamChunk) bool {
	got := false
	for _, ch := range c.Choices {
		b.WriteString(ch.Text + ch.Delta.Content)
		got = got || ch.Text != "" || ch.Delta.Content != "" || ch.Delta.ReasoningContent != ""
	}
	return got
}
