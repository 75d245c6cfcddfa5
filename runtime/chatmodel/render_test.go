package chatmodel

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/mlxrun/mlx/models/chat"
	"github.com/mlxrun/mlx/models/config"
)

// slowTemplate loops long, yet within the template engine's step budget.
const slowTemplate = "{% for i in range(1000) %}{% for j in range(1000) %}{% if i + j * 2 - i % 3 + j // 5 < 0 %}{% endif %}{% endfor %}{% endfor %}{{ messages[0].content }}"

// TestRenderStopsWithItsContext renders a template that loops long: with
// a context cancelled during the render, it must stop at once with the
// context's error; without one, it finishes.
func TestRenderStopsWithItsContext(t *testing.T) {
	tpl, err := chat.Compile(slowTemplate, "slow")
	if err != nil {
		t.Fatal(err)
	}
	m := New(nil, &chat.Templates{Default: tpl}, chat.SpecialTokens{}, config.Generation{}, nil)
	in := chat.Input{Messages: []chat.Message{{Role: "user", Content: chat.Text("Hi")}}}

	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(10*time.Millisecond, cancel)
	began := time.Now()
	if _, err := m.Render(ctx, in, ""); !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled render: %v, want context.Canceled", err)
	}
	stopped := time.Since(began)

	began = time.Now()
	out, err := m.Render(context.Background(), in, "")
	if err != nil || out != "Hi" {
		t.Fatalf("render: %q, %v", out, err)
	}
	whole := time.Since(began)
	if stopped > whole/2 {
		t.Errorf("the cancelled render took %v, the whole render %v", stopped, whole)
	}
	t.Logf("cancelled after %v; whole render %v", stopped, whole)
}
