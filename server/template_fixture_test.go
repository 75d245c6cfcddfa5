package server

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/mlxrun/mlx/models/chat"
	"github.com/mlxrun/mlx/models/config"
	"github.com/mlxrun/mlx/models/fixture"
	"github.com/mlxrun/mlx/runtime/chatmodel"
)

// templateModel is a fake model that renders its prompts with a real chat
// template and remembers the last one.
type templateModel struct {
	*fakeModel
	chat *chatmodel.Model

	pmu    sync.Mutex
	prompt string
}

func (m *templateModel) RenderChat(ctx context.Context, msgs []ChatMessage, opt ChatOptions) (string, error) {
	m.fakeModel.RenderChat(ctx, msgs, opt) // records the messages and options
	text, err := renderChat(ctx, m.chat, msgs, opt)
	m.pmu.Lock()
	m.prompt = text
	m.pmu.Unlock()
	return text, err
}

// lastPrompt is the prompt the last request rendered.
func (m *templateModel) lastPrompt() string {
	m.pmu.Lock()
	defer m.pmu.Unlock()
	return m.prompt
}

// templateFixture is a template of the shared test data
// (templates/<id>.json) with its special tokens.
type templateFixture struct {
	id  string
	src string
	tok chat.SpecialTokens
}

// loadTemplateFixtures reads every template of the shared test data.
func loadTemplateFixtures(t *testing.T) []templateFixture {
	t.Helper()
	dir := fixture.Path(t, "templates")
	paths, err := filepath.Glob(filepath.Join(dir, "*.json"))
	if err != nil {
		t.Fatal(err)
	}
	var out []templateFixture
	for _, p := range paths {
		if filepath.Base(p) == "scenarios.json" {
			continue
		}
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		var f struct {
			ID       string         `json:"id"`
			Template string         `json:"template"`
			Tokens   map[string]any `json:"special_tokens"`
		}
		if err := json.Unmarshal(data, &f); err != nil {
			t.Fatalf("%s: %v", p, err)
		}
		str := func(k string) string { s, _ := f.Tokens[k].(string); return s }
		out = append(out, templateFixture{id: f.ID, src: f.Template, tok: chat.SpecialTokens{BOS: str("bos_token"), EOS: str("eos_token")}})
	}
	if len(out) == 0 {
		t.Fatalf("no templates in %s", dir)
	}
	return out
}

// newTemplateModel is a fake model named id that renders with the
// template f and writes tool calls in format.
func newTemplateModel(t *testing.T, f templateFixture, reply, format string) *templateModel {
	t.Helper()
	tpl, err := chat.Compile(f.src, f.id)
	if err != nil {
		t.Fatalf("%s: %v", f.id, err)
	}
	fm := newFake(reply)
	fm.id, fm.ctxLen, fm.format = f.id, 1<<16, format
	ts := &chat.Templates{Default: tpl, Named: map[string]*chat.Template{}}
	return &templateModel{fakeModel: fm, chat: chatmodel.New(nil, ts, f.tok, config.Generation{}, nil)}
}

// templateFixtureByID returns the template fixture id.
func templateFixtureByID(t *testing.T, id string) templateFixture {
	t.Helper()
	for _, f := range loadTemplateFixtures(t) {
		if f.id == id {
			return f
		}
	}
	t.Fatalf("no template fixture %s", id)
	return templateFixture{}
}
