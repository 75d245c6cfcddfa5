package server

import (
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/mlxrun/mlx/server/llamacpp"
	"github.com/mlxrun/mlx/server/ollama"
	"github.com/mlxrun/mlx/server/openai"
)

// llamaServerInfill builds the prompt llama-server's format_prompt_infill
// builds for a context that holds everything (no part cut): extra files,
// BOS, PRE prefix prompt SUF suffix MID.
func llamaServerInfill(m *engineModel, in fimInput) []int32 {
	tok := m.chat.Tokenizer()
	id := func(s string) int32 {
		v, _ := tok.TokenID(s)
		return int32(v)
	}
	plain := func(s string) []int32 { return m.TokenizeText(s, false, false) }
	out := append([]int32{id("<|repo_name|>")}, plain("myproject\n")...)
	for _, ch := range in.extra {
		out = append(append(append(out, id("<|file_sep|>")), plain(ch.Filename+"\n")...), plain(ch.Text)...)
	}
	out = append(append(out, id("<|file_sep|>")), plain("filename\n")...)
	out = append(append(append(out, id("<|fim_prefix|>")), plain(in.prefix)...), m.Tokenize(in.prompt, false)...)
	out = append(append(out, id("<|fim_suffix|>")), plain(in.suffix)...)
	return append(out, id("<|fim_middle|>"))
}

func TestFIMPromptQwenRepository(t *testing.T) {
	m := loadEngine(t, "models", "qwen3-tiny")
	in := fimInput{prefix: "def add(a, b):\n    <|im_end|>", suffix: "\n\nprint(add(1, 2))\n", prompt: "return",
		extra: []llamacpp.Chunk{{Filename: "util.py", Text: "import os\n"}, {Filename: "tmp", Text: "x = 1\n"}}}
	got, err := fimPrompt(m, in, 8192, 64)
	if err != nil {
		t.Fatal(err)
	}
	if want := llamaServerInfill(m, in); !slices.Equal(got, want) {
		t.Errorf("prompt\n%v\nwant\n%v", got, want)
	}
	if im, _ := m.chat.Tokenizer().TokenID("<|im_end|>"); slices.Contains(got, int32(im)) {
		t.Error("special tokens written in the prefix must stay text")
	}
}

func TestFIMPromptCuts(t *testing.T) {
	m := loadEngine(t, "models", "qwen3-tiny")
	in := fimInput{prefix: strings.Repeat("a = 1\n", 400), suffix: strings.Repeat("b = 2\n", 400),
		extra: []llamacpp.Chunk{{Filename: "f", Text: strings.Repeat("c = 3\n", 400)}}}
	const ctxLen, maxTokens = 1024, 100
	got, err := fimPrompt(m, in, ctxLen, maxTokens)
	if err != nil {
		t.Fatal(err)
	}
	full := llamaServerInfill(m, in)
	pre, suf, mid := m.FIM().Pre, m.FIM().Suf, m.FIM().Mid
	at := func(list []int32, id int32) int { return slices.Index(list, id) }
	prefix, suffix := full[at(full, pre)+1:at(full, suf)], full[at(full, suf)+1:at(full, mid)]
	batch := ctxLen / 2 // the batch of a context under twice llama-server's
	// The prefix keeps its last 3/4 batch, the suffix its first 1/4 less
	// two, the extra files their last tokens in what the context leaves.
	wantPrefix, wantSuffix := prefix[len(prefix)-3*batch/4:], suffix[:batch/4-2]
	extra := full[:at(full, pre)]
	// As much as the context has beside a batch (llama-server's rule),
	// less what leaves room for the tokens asked.
	keep := min(ctxLen-batch+2, ctxLen-maxTokens-(len(wantPrefix)+len(wantSuffix)+3))
	wantExtra := extra[len(extra)-keep:]
	want := slices.Concat(wantExtra, []int32{pre}, wantPrefix, []int32{suf}, wantSuffix, []int32{mid})
	if !slices.Equal(got, want) {
		t.Errorf("cut prompt has %d tokens, want %d", len(got), len(want))
	}
}

// fillFake is a fake model with fill-in-the-middle tokens but no
// repository ones, whose prompts start with BOS (1).
type fillFake struct{ *fakeModel }

func (f fillFake) TokenizeText(text string, addSpecial, _ bool) []int32 {
	return f.Tokenize(text, addSpecial)
}
func (f fillFake) FIM() FIMTokens {
	return FIMTokens{Pre: 250, Suf: 251, Mid: 252, Pad: 253, Rep: -1, Sep: -1, BOS: 1}
}

func TestFIMPromptSnippets(t *testing.T) {
	f := fillFake{newFake("x")}
	got, err := fimPrompt(f, fimInput{prefix: "p", suffix: "s", extra: []llamacpp.Chunk{{Filename: "a", Text: "t"}}}, 8192, 0)
	if err != nil {
		t.Fatal(err)
	}
	want := slices.Concat(f.Tokenize("\n\n--- snippet ---\n\nt", false), []int32{1, 250}, f.Tokenize("p", false), []int32{251},
		f.Tokenize("s", false), []int32{252})
	if !slices.Equal(got, want) {
		t.Errorf("prompt %v, want %v", got, want)
	}
	if stops := fimStops(f); !slices.Equal(stops, []int32{253}) {
		t.Errorf("stops %v", stops)
	}
}

func TestInfillEndpoints(t *testing.T) {
	m := loadEngine(t, "models", "qwen3-tiny")
	ts := startModels(t, modelLoader{"q": m, "nofim": loadEngine(t, "models", "llama-tiny")})
	const prefix, suffix = "def add(a, b):\n", "\nprint(add(1, 2))\n"
	ids, err := fimPrompt(m, fimInput{prefix: prefix, suffix: suffix}, m.Info().Context, 8)
	if err != nil {
		t.Fatal(err)
	}
	body := fmt.Sprintf(`{"model":"q","input_prefix":%q,"input_suffix":%q,"n_predict":8,"temperature":0`, prefix, suffix)
	var res llamacpp.Completion
	ts.post(t, "/infill", body+`}`, http.StatusOK, &res)
	if !res.Stop || res.Content == "" || res.TokensEvaluated != len(ids) || res.TokensPredicted == 0 || res.Model != "q" {
		t.Errorf("infill %+v; its prompt has %d tokens", res, len(ids))
	}
	if res.StopType != "limit" && res.StopType != "eos" {
		t.Errorf("stop_type %q", res.StopType)
	}

	// n_predict 0 (editors' warm-up) reads the prompt and generates
	// nothing.
	var warm llamacpp.Completion
	ts.post(t, "/infill", strings.Replace(body, `"n_predict":8`, `"n_predict":0`, 1)+`}`, http.StatusOK, &warm)
	if !warm.Stop || warm.Content != "" || warm.TokensPredicted != 0 || warm.TokensEvaluated != len(ids) {
		t.Errorf("n_predict 0: %+v", warm)
	}

	status, b, _ := ts.do(t, http.MethodPost, "/infill", body+`,"stream":true}`)
	if status != http.StatusOK {
		t.Fatalf("stream: %d %s", status, b)
	}
	frames := parseSSE(t, b)
	var text strings.Builder
	for i, fr := range frames {
		var ev llamacpp.Completion
		if err := json.Unmarshal([]byte(fr.data), &ev); err != nil {
			t.Fatalf("event %d: %v: %s", i, err, fr.data)
		}
		if ev.Stop != (i == len(frames)-1) {
			t.Errorf("event %d of %d has stop %v", i, len(frames), ev.Stop)
		}
		text.WriteString(ev.Content)
		if ev.Stop && (ev.TokensEvaluated != len(ids) || ev.StopType != res.StopType) {
			t.Errorf("last event %+v", ev)
		}
	}
	if text.String() != res.Content {
		t.Errorf("streamed %q, not streamed %q", text.String(), res.Content)
	}

	var comp openai.Completion
	ts.post(t, "/v1/completions", fmt.Sprintf(`{"model":"q","prompt":%q,"suffix":%q,"max_tokens":8,"temperature":0}`, prefix, suffix), http.StatusOK, &comp)
	if comp.Usage == nil || comp.Usage.PromptTokens != len(ids) || comp.Choices[0].Text != res.Content {
		t.Errorf("completion with suffix %+v, usage %+v; infill %q", comp.Choices, comp.Usage, res.Content)
	}
	// Ollama's /api/generate takes a suffix too, and /api/show says so.
	var gen ollama.GenerateResponse
	ts.post(t, "/api/generate", fmt.Sprintf(`{"model":"q","prompt":%q,"suffix":%q,"stream":false,"options":{"num_predict":8,"temperature":0}}`, prefix, suffix), http.StatusOK, &gen)
	if gen.Response != res.Content || gen.PromptEvalCount != len(ids) {
		t.Errorf("/api/generate with suffix: %q from %d prompt tokens; infill %q from %d", gen.Response, gen.PromptEvalCount, res.Content, len(ids))
	}
	var show ollama.ShowResponse
	ts.post(t, "/api/show", `{"model":"q"}`, http.StatusOK, &show)
	if !slices.Contains(show.Capabilities, "insert") {
		t.Errorf("capabilities %v lack insert", show.Capabilities)
	}
	ts.post(t, "/api/show", `{"model":"nofim"}`, http.StatusOK, &show)
	if slices.Contains(show.Capabilities, "insert") {
		t.Errorf("capabilities of a model without FIM tokens: %v", show.Capabilities)
	}
	ts.post(t, "/api/generate", `{"model":"nofim","prompt":"a","suffix":"b","stream":false}`, http.StatusBadRequest, nil)

	ts.post(t, "/v1/completions", `{"model":"q","prompt":[1,2],"suffix":"x"}`, http.StatusBadRequest, nil)
	ts.post(t, "/v1/completions", `{"model":"q","prompt":"a","suffix":"x","echo":true}`, http.StatusBadRequest, nil)

	for _, bad := range []string{
		`{"model":"nofim","input_prefix":"a","input_suffix":"b"}`,
		`{"model":"q","input_suffix":"b"}`,
		`{"model":"q","input_prefix":"a","input_suffix":"b","input_extra":[{"filename":"x"}]}`,
		`{"model":"q","input_prefix":"a","input_suffix":"b","input_extra":{"text":"x"}}`,
		`{"model":"q","input_prefix":"a","input_suffix":"b","n_predict":-2}`,
	} {
		b := ts.post(t, "/infill", bad, http.StatusBadRequest, nil)
		decodeErr(t, b)
	}
	b = ts.post(t, "/v1/completions", `{"model":"nofim","prompt":"a","suffix":"b"}`, http.StatusBadRequest, nil)
	if e := decodeErr(t, b); !strings.Contains(e.Error.Message, "fill in the middle") {
		t.Errorf("no FIM tokens: %s", b)
	}
}
