package server

import (
	"testing"

	"github.com/mlxrun/mlx/runtime"
)

// TestSpeculationFields checks that the speculative decoding extensions
// reach the runtime request of chat and completions, and that bad values
// get an OpenAI error naming the field.
func TestSpeculationFields(t *testing.T) {
	ts, f := startFake(t, "ok", Options{})
	spec := `"num_assistant_tokens":3,"assistant_confidence_threshold":0.25,"prompt_lookup_num_tokens":7`
	cases := []struct {
		name, path, body string
		status           int
		param            string
	}{
		{"chat", "/v1/chat/completions", `{"model":"m",` + userHi + `,` + spec + `}`, 200, ""},
		{"completion nvext", "/v1/completions", `{"model":"m","prompt":"a","nvext":{` + spec + `}}`, 200, ""},
		{"draft tokens range", "/v1/chat/completions", `{"model":"m",` + userHi + `,"num_assistant_tokens":33}`, 400, "num_assistant_tokens"},
		{"lookup negative", "/v1/completions", `{"model":"m","prompt":"a","prompt_lookup_num_tokens":-1}`, 400, "prompt_lookup_num_tokens"},
		{"confidence range", "/v1/chat/completions", `{"model":"m",` + userHi + `,"assistant_confidence_threshold":1.5}`, 400, "assistant_confidence_threshold"},
		{"draft tokens type", "/v1/chat/completions", `{"model":"m",` + userHi + `,"num_assistant_tokens":"many"}`, 400, "num_assistant_tokens"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			status, b, _ := ts.do(t, "POST", c.path, c.body)
			if status != c.status {
				t.Fatalf("status %d, want %d: %s", status, c.status, b)
			}
			if c.status != 200 {
				if e := decodeErr(t, b); e.Error.Param == nil || *e.Error.Param != c.param {
					t.Errorf("error %+v, want one naming %s", e.Error, c.param)
				}
				return
			}
			f.mu.Lock()
			s := f.lastReq.Spec
			f.mu.Unlock()
			if !specIs(s, 3, 0.25, 7) {
				t.Errorf("runtime request speculation %+v, want 3, 0.25, 7", s)
			}
		})
	}
}

func specIs(s runtime.Speculation, draft int, confidence float64, lookup int) bool {
	return s.DraftTokens != nil && *s.DraftTokens == draft && s.Confidence != nil && *s.Confidence == confidence &&
		s.LookupTokens != nil && *s.LookupTokens == lookup
}
