package ollama

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
	"time"
)

// BadRequest is a request the server cannot take: a 400 with Msg.
type BadRequest struct{ Msg string }

// Error implements error.
func (e *BadRequest) Error() string { return e.Msg }

func bad(format string, args ...any) error { return &BadRequest{Msg: fmt.Sprintf(format, args...)} }

// Think is what a request's think field asks for.
type Think struct {
	Set    bool   // the request has a think field
	On     bool   // thinking turned on
	Effort string // "low", "medium" or "high" when given as a level
}

// Format is what a request's format field asks for.
type Format struct {
	JSON   bool            // a JSON value
	Schema json.RawMessage // which follows this schema (nil: any JSON)
}

// Decoded is what a chat or generate request asks for besides its
// messages, checked.
type Decoded struct {
	Think     Think
	Format    Format
	KeepAlive *time.Duration // nil: the server's; negative: forever
	Stream    bool
}

// DecodeChat reads and checks the body of POST /api/chat.
func DecodeChat(body []byte) (*ChatRequest, Decoded, error) {
	var req ChatRequest
	if err := Unmarshal(body, &req); err != nil {
		return nil, Decoded{}, err
	}
	for i, m := range req.Messages {
		switch m.Role {
		case "system", "user", "assistant", "tool":
		default:
			return nil, Decoded{}, bad("messages[%d]: invalid role %q: use system, user, assistant or tool", i, m.Role)
		}
		if len(m.Images) > 0 {
			return nil, Decoded{}, bad("messages[%d]: images are not supported: this server runs text models only", i)
		}
	}
	for i, t := range req.Tools {
		if t.Function.Name == "" {
			return nil, Decoded{}, bad("tools[%d]: the function has no name", i)
		}
	}
	d, err := decodeCommon(&req.Common)
	return &req, d, err
}

// DecodeGenerate reads and checks the body of POST /api/generate.
func DecodeGenerate(body []byte) (*GenerateRequest, Decoded, error) {
	var req GenerateRequest
	if err := Unmarshal(body, &req); err != nil {
		return nil, Decoded{}, err
	}
	switch {
	case len(req.Images) > 0:
		return nil, Decoded{}, bad("images are not supported: this server runs text models only")
	case req.Template != "":
		return nil, Decoded{}, bad("template is not supported: the model's chat template is used")
	case len(req.Context) > 0:
		return nil, Decoded{}, bad("context is not supported: send the conversation to /api/chat")
	}
	d, err := decodeCommon(&req.Common)
	return &req, d, err
}

// Unmarshal reads one JSON value of a request body into v; a body that is
// not one JSON value is a BadRequest.
func Unmarshal(body []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(body))
	if err := dec.Decode(v); err != nil {
		return bad("invalid request body: %v", err)
	}
	if dec.More() {
		return bad("invalid request body: more than one JSON value")
	}
	return nil
}

func decodeCommon(c *Common) (Decoded, error) {
	d := Decoded{Stream: c.Stream == nil || *c.Stream}
	if c.Model == "" {
		return d, bad("model is required")
	}
	var err error
	if d.Think, err = decodeThink(c.Think); err != nil {
		return d, err
	}
	if d.Format, err = decodeFormat(c.Format); err != nil {
		return d, err
	}
	if d.KeepAlive, err = DecodeKeepAlive(c.KeepAlive); err != nil {
		return d, err
	}
	o := c.Options
	if o.NumCtx != nil && *o.NumCtx <= 0 {
		return d, bad("num_ctx must be positive, got %d", *o.NumCtx)
	}
	if o.NumPredict != nil && *o.NumPredict < -2 {
		return d, bad("num_predict must be -2, -1 or at least 0, got %d", *o.NumPredict)
	}
	return d, nil
}

// decodeThink reads true, false or a level ("low", "medium", "high").
func decodeThink(raw json.RawMessage) (Think, error) {
	if isNull(raw) {
		return Think{}, nil
	}
	var on bool
	if json.Unmarshal(raw, &on) == nil {
		return Think{Set: true, On: on}, nil
	}
	var level string
	if json.Unmarshal(raw, &level) == nil {
		switch level {
		case "low", "medium", "high":
			return Think{Set: true, On: true, Effort: level}, nil
		}
	}
	return Think{}, bad("invalid think value %s: use true, false, \"low\", \"medium\" or \"high\"", raw)
}

// decodeFormat reads "json", a JSON schema object, or "" (none).
func decodeFormat(raw json.RawMessage) (Format, error) {
	if isNull(raw) {
		return Format{}, nil
	}
	var s string
	if json.Unmarshal(raw, &s) == nil {
		switch s {
		case "":
			return Format{}, nil
		case "json":
			return Format{JSON: true}, nil
		}
		return Format{}, bad("invalid format %q: use \"json\" or a JSON schema", s)
	}
	var obj map[string]any
	if json.Unmarshal(raw, &obj) != nil {
		return Format{}, bad("invalid format: use \"json\" or a JSON schema object")
	}
	return Format{JSON: true, Schema: raw}, nil
}

// DecodeKeepAlive reads a duration ("5m", "1h", "-1") or a number of
// seconds; a negative one keeps the model loaded for good.
func DecodeKeepAlive(raw json.RawMessage) (*time.Duration, error) {
	if isNull(raw) {
		return nil, nil
	}
	var secs float64
	if json.Unmarshal(raw, &secs) == nil {
		d := time.Duration(secs * float64(time.Second))
		return &d, nil
	}
	var s string
	if err := json.Unmarshal(raw, &s); err != nil {
		return nil, bad("invalid keep_alive %s: use a duration such as \"5m\" or a number of seconds", raw)
	}
	if n, err := strconv.ParseFloat(s, 64); err == nil {
		d := time.Duration(n * float64(time.Second))
		return &d, nil
	}
	d, err := time.ParseDuration(s)
	if err != nil {
		return nil, bad("invalid keep_alive %q: use a duration such as \"5m\" or a number of seconds", s)
	}
	return &d, nil
}

func isNull(raw json.RawMessage) bool {
	t := bytes.TrimSpace(raw)
	return len(t) == 0 || string(t) == "null"
}
