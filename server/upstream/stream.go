package upstream

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
)

// Paths of the generation endpoints.
const (
	ChatPath       = "/v1/chat/completions"
	CompletionPath = "/v1/completions"
)

// maxCallBytes bounds the names and arguments of the tool calls of one
// answer.
const maxCallBytes = 16 << 20

// Event is what one chunk of the upstream's stream adds to its first
// choice: text, reasoning, tool calls once complete, and at the end the
// finish reason and the usage.
type Event struct {
	Content   string
	Reasoning string
	Calls     []Call
	Finish    string // "" until the choice ends
	Usage     *Usage // when the upstream reports it
}

// Call is a tool call, complete.
type Call struct {
	ID        string
	Name      string
	Arguments string
}

// Usage counts the tokens of an answer.
type Usage struct {
	Prompt     int
	Completion int
	Cached     int
	Reasoning  int
}

// chunk is a chunk of a chat completion or completion stream.
type chunk struct {
	Choices []struct {
		Index int     `json:"index"`
		Text  *string `json:"text"`
		Delta struct {
			Content          *string `json:"content"`
			ReasoningContent *string `json:"reasoning_content"`
			Reasoning        *string `json:"reasoning"`
			ToolCalls        []struct {
				Index    int    `json:"index"`
				ID       string `json:"id"`
				Function struct {
					Name      string `json:"name"`
					Arguments string `json:"arguments"`
				} `json:"function"`
			} `json:"tool_calls"`
		} `json:"delta"`
		FinishReason *string `json:"finish_reason"`
	} `json:"choices"`
	Usage *struct {
		PromptTokens     int `json:"prompt_tokens"`
		CompletionTokens int `json:"completion_tokens"`
		PromptDetails    *struct {
			CachedTokens int `json:"cached_tokens"`
		} `json:"prompt_tokens_details"`
		CompletionDetails *struct {
			ReasoningTokens int `json:"reasoning_tokens"`
		} `json:"completion_tokens_details"`
	} `json:"usage"`
	Error json.RawMessage `json:"error"`
}

// Stream posts body (a request with "stream": true) to path and calls on
// for each event of the answer's first choice, until the stream ends, on
// returns an error or ctx is done, which closes the upstream connection
// (and so cancels the request there). An error answer comes back as an
// *Error with the upstream's status and message.
func (c *Client) Stream(ctx context.Context, path string, body []byte, on func(Event) error) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	resp, err := c.do(ctx, http.MethodPost, path, body)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return readError(resp)
	}
	d := &decoder{on: on}
	sc := bufio.NewScanner(resp.Body)
	sc.Buffer(make([]byte, 0, 64<<10), maxLine)
	event := ""
	for sc.Scan() {
		line := sc.Bytes()
		switch {
		case bytes.HasPrefix(line, []byte("event:")):
			event = string(bytes.TrimSpace(line[len("event:"):]))
			continue
		case !bytes.HasPrefix(line, []byte("data:")):
			if len(line) == 0 {
				event = ""
			}
			continue
		}
		data := bytes.TrimSpace(line[len("data:"):])
		if string(data) == "[DONE]" {
			return d.flush()
		}
		if event == "error" {
			return streamError(resp.StatusCode, data)
		}
		if event != "" {
			continue // extensions (annotations) that OpenAI clients ignore
		}
		if err := d.chunk(resp.StatusCode, data); err != nil {
			return err
		}
	}
	if err := sc.Err(); err != nil {
		if ctx.Err() != nil {
			return context.Cause(ctx)
		}
		return fmt.Errorf("upstream %s: reading the stream: %w", c.name, err)
	}
	if !d.finished {
		return fmt.Errorf("upstream %s: the stream ended before the answer did", c.name)
	}
	return d.flush()
}

// streamError is an error sent inside a stream.
func streamError(status int, data []byte) error {
	var body struct {
		Error *struct {
			Message string `json:"message"`
			Type    string `json:"type"`
			Code    any    `json:"code"`
		} `json:"error"`
	}
	e := &Error{Status: http.StatusBadGateway, Message: string(data)}
	if json.Unmarshal(data, &body) == nil && body.Error != nil {
		e.Message, e.Type = body.Error.Message, body.Error.Type
		if n, ok := body.Error.Code.(float64); ok && n >= 400 && n < 600 {
			e.Status = int(n)
		} else if body.Error.Code != nil {
			e.Code = fmt.Sprint(body.Error.Code)
			e.Status = statusOf(e.Type, e.Code)
		} else {
			e.Status = statusOf(e.Type, "")
		}
	}
	return e
}

// statusOf is the status of an error that came inside a stream, whose
// answer had begun with 200: the one its type or code names; 502 for
// an error of the upstream itself.
func statusOf(typ, code string) int {
	switch {
	case code == "engine_overloaded", code == "rate_limit_exceeded", typ == "rate_limit_error", typ == "overloaded_error":
		return http.StatusTooManyRequests
	case typ == "invalid_request_error":
		return http.StatusBadRequest
	case typ == "not_found_error":
		return http.StatusNotFound
	case typ == "authentication_error":
		return http.StatusUnauthorized
	case typ == "permission_error":
		return http.StatusForbidden
	}
	return http.StatusBadGateway
}

// decoder turns chunks into events, assembling tool calls from their
// pieces.
type decoder struct {
	on       func(Event) error
	calls    []Call
	size     int
	finished bool
	finish   string
	usage    *Usage
	done     bool
}

func (d *decoder) chunk(status int, data []byte) error {
	var ch chunk
	if err := json.Unmarshal(data, &ch); err != nil {
		return fmt.Errorf("upstream sent a chunk that is not JSON: %w", err)
	}
	if len(ch.Error) > 0 && string(ch.Error) != "null" {
		return streamError(status, data)
	}
	if u := ch.Usage; u != nil {
		d.usage = &Usage{Prompt: u.PromptTokens, Completion: u.CompletionTokens}
		if u.PromptDetails != nil {
			d.usage.Cached = u.PromptDetails.CachedTokens
		}
		if u.CompletionDetails != nil {
			d.usage.Reasoning = u.CompletionDetails.ReasoningTokens
		}
	}
	var ev Event
	for _, c := range ch.Choices {
		if c.Index != 0 {
			return errors.New("upstream answered with more than one choice")
		}
		ev.Content += deref(c.Text) + deref(c.Delta.Content)
		ev.Reasoning += deref(c.Delta.ReasoningContent) + deref(c.Delta.Reasoning)
		for _, tc := range c.Delta.ToolCalls {
			if err := d.callPiece(tc.Index, tc.ID, tc.Function.Name, tc.Function.Arguments, &ev); err != nil {
				return err
			}
		}
		if c.FinishReason != nil && *c.FinishReason != "" {
			d.finished, d.finish = true, *c.FinishReason
		}
	}
	if ev.Content == "" && ev.Reasoning == "" && len(ev.Calls) == 0 {
		return nil
	}
	return d.on(ev)
}

// callPiece adds a piece of the tool call at index; the calls before it
// are complete and go to ev.
func (d *decoder) callPiece(index int, id, name, args string, ev *Event) error {
	if index < 0 || index > len(d.calls) || index < len(d.calls)-1 {
		return fmt.Errorf("upstream sent tool call %d out of order", index)
	}
	d.size += len(name) + len(args)
	if d.size > maxCallBytes {
		return fmt.Errorf("upstream's tool calls are larger than %d bytes", maxCallBytes)
	}
	if index == len(d.calls) {
		if len(d.calls) > 0 {
			ev.Calls = append(ev.Calls, d.calls[len(d.calls)-1])
		}
		d.calls = append(d.calls, Call{ID: id})
	}
	c := &d.calls[index]
	if c.ID == "" {
		c.ID = id
	}
	c.Name += name
	c.Arguments += args
	return nil
}

// flush sends the last tool call and the end of the choice.
func (d *decoder) flush() error {
	if d.done {
		return nil
	}
	d.done = true
	ev := Event{Finish: d.finish, Usage: d.usage}
	if n := len(d.calls); n > 0 {
		ev.Calls = []Call{d.calls[n-1]}
	}
	if ev.Finish == "" {
		ev.Finish = "stop"
	}
	return d.on(ev)
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}
