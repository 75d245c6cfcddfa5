package tui

import (
	"slices"
	"strings"
	"testing"
)

const haiku = "Soft rain on the roof\nwhispers to the sleeping town\npuddles hold the sky"

// TestAnswerKeepsLineBreaks checks that a single newline of an answer is a
// line break on the screen, as in chat apps, for a streamed answer and for
// one read back by /load, while code blocks keep their lines and long
// lines still wrap.
func TestAnswerKeepsLineBreaks(t *testing.T) {
	toolCall := "<tool_call>\n{\"name\": \"weather\",\n\"arguments\": {\"city\": \"Paris\"}}\n</tool_call>"
	long := strings.Repeat("word ", 20)
	answer := haiku + "\n\n" + toolCall + "\n\n```\na := 1\nb := 2\n```\n\n" + long
	want := append(strings.Split(haiku, "\n"), strings.Split(toolCall, "\n")...)
	want = append(want, "a := 1", "b := 2")

	check := func(t *testing.T, h *harness) {
		t.Helper()
		e := h.m.transcript.entries[len(h.m.transcript.entries)-1]
		if e.kind != entryAnswer {
			e = h.m.transcript.entries[len(h.m.transcript.entries)-2]
		}
		if e.md == "" {
			t.Fatal("the answer was not rendered as markdown")
		}
		lines := strings.Split(e.md, "\n")
		for i := range lines {
			lines[i] = strings.TrimSpace(lines[i])
		}
		for _, w := range want {
			if !slices.Contains(lines, w) {
				t.Errorf("no line %q in the answer:\n%s", w, e.md)
			}
		}
		wrapped := 0
		for _, l := range lines {
			if strings.HasPrefix(l, "word") {
				wrapped++
			}
		}
		if wrapped < 2 {
			t.Errorf("the long line was not wrapped at width 60:\n%s", e.md)
		}
	}

	t.Run("streamed", func(t *testing.T) {
		h := newHarness(t, &fakeGen{deltas: words(answer)}, 60, 40)
		h.ask("a haiku and a call")
		check(t, h)
	})
	t.Run("loaded", func(t *testing.T) {
		path := t.TempDir() + "/chat.md"
		data := marshalTranscript("tiny-model", "", []Message{{Role: RoleUser, Content: "a haiku"}, {Role: RoleAssistant, Content: answer}})
		if err := writeFileAtomic(path, data); err != nil {
			t.Fatal(err)
		}
		h := newHarness(t, &fakeGen{}, 60, 40)
		h.submit("/load " + path)
		h.settle()
		check(t, h)
	})
}
