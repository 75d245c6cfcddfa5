package toolparse

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mlxrun/mlx/models/fixture"
)

// templateMessage is an input message of a template fixture case.
type templateMessage struct {
	Role      string `json:"role"`
	Content   any    `json:"content"`
	ToolCalls []struct {
		Function struct {
			Name      string          `json:"name"`
			Arguments json.RawMessage `json:"arguments"`
		} `json:"function"`
	} `json:"tool_calls"`
}

// assistantTurns cuts a rendered Harmony prompt into the assistant turns
// it holds (runs of assistant messages), each as the model wrote it after
// "<|start|>assistant"; the empty generation prompt at the end is left out.
func assistantTurns(prompt string) []string {
	var turns []string
	var cur strings.Builder
	end := func() {
		if t := strings.TrimPrefix(cur.String(), HarmonyStart+"assistant"); t != "" {
			turns = append(turns, t)
		}
		cur.Reset()
	}
	for _, seg := range strings.Split(prompt, HarmonyStart)[1:] {
		if !strings.HasPrefix(seg, "assistant") {
			end()
			continue
		}
		cur.WriteString(HarmonyStart + seg)
	}
	end()
	return turns
}

// TestHarmonyTemplateTurns parses the assistant turns that the real gpt-oss
// template renders in the shared fixture's expected prompts, and checks
// that they give back the conversation's messages: each answer as content,
// each tool call with its name and arguments, and no marker in any text.
// Detect must name the template's format.
func TestHarmonyTemplateTurns(t *testing.T) {
	data, err := os.ReadFile(filepath.Join(fixture.Path(t, "templates"), "openai-gpt-oss-120b.json"))
	if err != nil {
		t.Fatal(err)
	}
	var f struct {
		Template string `json:"template"`
		Cases    []struct {
			Scenario string `json:"scenario"`
			Input    struct {
				Messages []templateMessage `json:"messages"`
			} `json:"input"`
			ExpectedOutput *string `json:"expected_output"`
		} `json:"cases"`
	}
	if err := json.Unmarshal(data, &f); err != nil {
		t.Fatal(err)
	}
	if got := Detect(f.Template); got != FormatHarmony {
		t.Fatalf("Detect(the gpt-oss template) = %q", got)
	}
	checked := 0
	for _, c := range f.Cases {
		if c.ExpectedOutput == nil {
			continue
		}
		var want []templateMessage
		for _, m := range c.Input.Messages {
			if m.Role == "assistant" {
				want = append(want, m)
			}
		}
		turns := assistantTurns(*c.ExpectedOutput)
		if len(turns) != len(want) {
			t.Fatalf("%s: %d assistant turns in the prompt for %d assistant messages", c.Scenario, len(turns), len(want))
		}
		for i, turn := range turns {
			got := run(harmonyOpt, turn)
			if strings.Contains(got.Content+got.Reasoning, "<|") {
				t.Errorf("%s turn %d: a marker in %+v", c.Scenario, i, got)
			}
			m := want[i]
			if len(m.ToolCalls) == 0 {
				if got.Content != m.Content || len(got.Calls) != 0 {
					t.Errorf("%s turn %d: %+v, want content %q", c.Scenario, i, got, m.Content)
				}
				checked++
				continue
			}
			tc := m.ToolCalls[0].Function // the template renders the first call only
			if len(got.Calls) != 1 || got.Calls[0].Name != tc.Name || got.Calls[0].Arguments != arguments(tc.Arguments) || got.Content != "" {
				t.Errorf("%s turn %d: %+v, want a call of %s(%s)", c.Scenario, i, got, tc.Name, arguments(tc.Arguments))
			}
			checked++
		}
	}
	if checked < 5 {
		t.Fatalf("only %d assistant turns checked", checked)
	}
	t.Logf("%d assistant turns parsed back", checked)
}
