package server

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/mlxrun/mlx/runtime"
	"github.com/mlxrun/mlx/runtime/sample"
	"github.com/mlxrun/mlx/server/toolparse"
)

// fakeModel streams a fixed reply, one byte per token (token id = byte +
// fakeOffset; id 0 is EOS), so tests know every token.
type fakeModel struct {
	id       string
	reply    string        // what every sequence generates, then EOS
	delay    time.Duration // before each token
	prefill  time.Duration // before the first token
	ctxLen   int
	parallel int
	format   string // ToolFormat
	toolResp bool   // ToolResponses

	mu       sync.Mutex
	lastReq  runtime.Request
	reqs     []runtime.Request
	lastOpt  ChatOptions
	lastMsgs []ChatMessage
	closed   atomic.Bool
	active   atomic.Int32 // Generate calls running
	cancels  chan error   // receives ctx causes of cancelled generations
	genErr   error        // returned by Generate before any token
	midErr   error        // returned by Generate after midAt tokens
	midAt    int
}

const fakeOffset = 3

func newFake(reply string) *fakeModel {
	return &fakeModel{reply: reply, ctxLen: 512, parallel: 1, cancels: make(chan error, 16)}
}

func (f *fakeModel) Info() ModelInfo {
	return ModelInfo{Path: "/models/" + f.id, Format: "gguf", Quantization: "Q8_0", Arch: "llama", Parameters: 1000,
		Context: f.ctxLen, VocabSize: 256 + fakeOffset, Memory: 1 << 20, Parallel: f.parallel, Defaults: sample.Defaults(),
		ToolFormat: toolparse.Format(f.format), ToolResponses: f.toolResp}
}

func (f *fakeModel) Tokenize(text string, addSpecial bool) []int32 {
	ids := make([]int32, 0, len(text)+1)
	if addSpecial {
		ids = append(ids, 1) // BOS
	}
	for i := 0; i < len(text); i++ {
		ids = append(ids, int32(text[i])+fakeOffset)
	}
	return ids
}

// EncodePrompt puts BOS first, as a tokenizer with add_bos_token does: the
// fake's texts never start with it.
func (f *fakeModel) EncodePrompt(text string) []int32 { return f.Tokenize(text, true) }

func (f *fakeModel) Detokenize(ids []int32, skipSpecial bool) string {
	var b strings.Builder
	for _, id := range ids {
		switch {
		case id >= fakeOffset:
			b.WriteByte(byte(id - fakeOffset))
		case !skipSpecial:
			b.WriteString(fmt.Sprintf("<s%d>", id))
		}
	}
	return b.String()
}

func (f *fakeModel) RenderChat(_ context.Context, msgs []ChatMessage, opt ChatOptions) (string, error) {
	f.mu.Lock()
	f.lastOpt, f.lastMsgs = opt, msgs
	f.mu.Unlock()
	var b strings.Builder
	for _, m := range msgs {
		if m.Content == "FAIL_TEMPLATE" {
			return "", fmt.Errorf("roles must alternate")
		}
		fmt.Fprintf(&b, "%s: %v\n", m.Role, m.Content)
	}
	if opt.AddGenerationPrompt {
		b.WriteString("assistant:")
	}
	return b.String(), nil
}

func (f *fakeModel) Close() error { f.closed.Store(true); return nil }

func (f *fakeModel) Generate(ctx context.Context, req runtime.Request, emit func(runtime.Event) error) (runtime.Result, error) {
	f.active.Add(1)
	defer f.active.Add(-1)
	f.mu.Lock()
	f.lastReq = req
	f.reqs = append(f.reqs, req)
	f.mu.Unlock()
	res := runtime.Result{StopToken: -1, Usage: runtime.Usage{Prompt: len(req.Prompt), Cached: 2}}
	if f.genErr != nil {
		return res, f.genErr
	}
	cancelled := func() (runtime.Result, error) {
		cause := context.Cause(ctx)
		f.cancels <- cause
		res.Finish = runtime.FinishCancelled
		return res, cause
	}
	select {
	case <-time.After(f.prefill):
	case <-ctx.Done():
		return cancelled()
	}
	p := req.Params
	var out strings.Builder
	seed := int64(0)
	if p.Seed != nil {
		seed = *p.Seed
	}
	for i := 0; i < len(f.reply); i++ {
		if f.midErr != nil && i == f.midAt {
			return res, f.midErr
		}
		if p.MaxTokens > 0 && res.Usage.Completion >= p.MaxTokens {
			res.Finish = runtime.FinishLength
			return res, nil
		}
		select {
		case <-time.After(f.delay):
		case <-ctx.Done():
			return cancelled()
		}
		c := f.reply[i]
		if p.Seed != nil && p.Temperature > 0 && c >= 'a' && c <= 'z' { // the seed shifts letters
			c = 'a' + byte((int64(c-'a')+seed)%26)
		}
		id := int32(c) + fakeOffset
		res.Usage.Completion++
		out.WriteByte(c)
		ev := runtime.Event{Tokens: []int32{id}, Text: string(c)}
		for _, s := range p.Stop {
			if strings.HasSuffix(out.String(), s) {
				res.Finish, res.StopString = runtime.FinishStop, s
				ev.Text = "" // tests use one-byte stop strings: nothing was emitted of it
				return res, emit(ev)
			}
		}
		if p.Logprobs {
			lp := runtime.Logprob{ID: id, Logprob: -0.25}
			for k := 0; k < p.TopLogprobs; k++ {
				lp.Top = append(lp.Top, sample.TokenLogprob{ID: id + int32(k), Logprob: -0.25 - float32(k)})
			}
			ev.Logprobs = []runtime.Logprob{lp}
		}
		if err := emit(ev); err != nil {
			res.Finish = runtime.FinishCancelled
			f.cancels <- err
			return res, err
		}
	}
	res.Usage.Completion++ // EOS
	res.Finish, res.StopToken = runtime.FinishStop, 0
	return res, nil
}

// fakeLoader loads fakeModels by id.
type fakeLoader struct {
	mu     sync.Mutex
	models map[string]*fakeModel
	loads  map[string]int
	delay  time.Duration
	gate   chan struct{} // when set, loads wait for it
}

func newFakeLoader(models ...*fakeModel) *fakeLoader {
	l := &fakeLoader{models: map[string]*fakeModel{}, loads: map[string]int{}}
	for _, m := range models {
		l.models[m.id] = m
	}
	return l
}

func (l *fakeLoader) Load(ctx context.Context, ref string) (Model, error) {
	if l.gate != nil {
		<-l.gate
	}
	time.Sleep(l.delay)
	l.mu.Lock()
	defer l.mu.Unlock()
	m, ok := l.models[ref]
	if !ok {
		return nil, fmt.Errorf("%w: no model %q here", runtime.ErrModelNotFound, ref)
	}
	l.loads[ref]++
	m.closed.Store(false)
	return m, nil
}

func (l *fakeLoader) count(ref string) int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.loads[ref]
}

func (l *fakeLoader) Available() []Available {
	return []Available{{ID: "org/cached-model", Format: "gguf", Quantization: "Q4_K_M", Size: 1234}}
}

// errBusyForTest is the engine's busy error.
var errBusyForTest = runtime.ErrBusy
