package chat

import (
	"context"
	"fmt"
	"testing"
)

// BenchmarkFixtureRender renders each fixture template's tool-call case.
func BenchmarkFixtureRender(b *testing.B) {
	t := &testing.T{}
	files := loadFixtures(t)
	if t.Failed() || t.Skipped() {
		b.Skip("template fixtures unavailable")
	}
	for i := range files {
		f := &files[i]
		for j := range f.Cases {
			c := &f.Cases[j]
			if c.Scenario != "tool_call_dict_arguments" || c.ExpectedOutput == nil {
				continue
			}
			tpl, err := Compile(f.Template, f.ID)
			if err != nil {
				b.Fatal(err)
			}
			in := fixtureInput(t, f, c)
			b.Run(f.ID, func(b *testing.B) {
				b.ReportAllocs()
				b.SetBytes(int64(len(*c.ExpectedOutput)))
				for b.Loop() {
					if _, err := tpl.Render(context.Background(), in); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}

// BenchmarkLongConversation shows how rendering grows with the number of
// messages (a Qwen-style template that scans the history).
func BenchmarkLongConversation(b *testing.B) {
	src := `{%- for m in messages %}{%- if m.role == "user" %}<|im_start|>user
{{ m.content }}<|im_end|>
{%- elif m.role == "assistant" %}<|im_start|>assistant
{% if m.content is string %}{{ m.content | trim }}{% endif %}<|im_end|>
{%- endif %}{%- endfor %}{%- if add_generation_prompt %}<|im_start|>assistant
{% endif %}`
	tpl, err := Compile(src, "bench")
	if err != nil {
		b.Fatal(err)
	}
	for _, n := range []int{10, 100, 1000} {
		msgs := make([]Message, n)
		for i := range msgs {
			role := "user"
			if i%2 == 1 {
				role = "assistant"
			}
			msgs[i] = Message{Role: role, Content: Text(fmt.Sprintf("message %d with some text in it", i))}
		}
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := tpl.Render(context.Background(), Input{Messages: msgs, AddGenerationPrompt: true}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
