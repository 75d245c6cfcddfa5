package tui

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// A transcript file is markdown: a first line that marks it, a title, and
// one section per message, each opened by a marker comment (invisible
// when the markdown is rendered) and a heading. A line of a message that
// looks like a marker is saved with one more leading backslash.
const (
	transcriptMagic = "<!-- mlx chat transcript v1 -->"
	markerPrefix    = "<!-- mlx:"
	markerSuffix    = " -->"
	// maxTranscriptBytes bounds the file /load reads.
	maxTranscriptBytes = 16 << 20
)

// marshalTranscript writes the conversation as markdown.
func marshalTranscript(modelName, system string, msgs []Message) []byte {
	var b strings.Builder
	b.WriteString(transcriptMagic + "\n\n# Chat with " + modelName + "\n")
	section := func(role, heading, body string) {
		fmt.Fprintf(&b, "\n%s%s%s\n## %s\n\n%s\n", markerPrefix, role, markerSuffix, heading, escapeMarkers(body))
	}
	if system != "" {
		section(RoleSystem, "System prompt", system)
	}
	for _, msg := range msgs {
		switch msg.Role {
		case RoleUser:
			section(RoleUser, "You", msg.Content)
		case RoleAssistant:
			section(RoleAssistant, modelName, joinThink(msg.Reasoning, msg.Content))
		}
	}
	return []byte(b.String())
}

// parseTranscript reads a file written by marshalTranscript.
func parseTranscript(data []byte) (system string, msgs []Message, err error) {
	if !utf8.Valid(data) {
		return "", nil, fmt.Errorf("%w: the file is not UTF-8 text", ErrTranscript)
	}
	lines := strings.Split(strings.ReplaceAll(string(data), "\r\n", "\n"), "\n")
	i := 0
	for i < len(lines) && strings.TrimSpace(lines[i]) == "" {
		i++
	}
	if i == len(lines) || strings.TrimSpace(lines[i]) != transcriptMagic {
		return "", nil, fmt.Errorf("%w: the first line is not %s (files written by /save start with it)", ErrTranscript, transcriptMagic)
	}
	role, start := "", 0
	flush := func(end int) error {
		if role == "" {
			return nil
		}
		body := unescapeMarkers(sectionBody(lines[start:end]))
		switch {
		case role == RoleSystem && (len(msgs) > 0 || system != ""):
			return fmt.Errorf("%w: line %d: the system prompt must come first, once", ErrTranscript, start)
		case role == RoleSystem:
			system = body
		case role == RoleAssistant:
			reasoning, answer, _ := splitThink(body)
			msgs = append(msgs, Message{Role: role, Content: answer, Reasoning: reasoning})
		default:
			msgs = append(msgs, Message{Role: role, Content: body})
		}
		return nil
	}
	for n := i + 1; n < len(lines); n++ {
		r, ok := marker(lines[n])
		if !ok {
			continue
		}
		if r != RoleSystem && r != RoleUser && r != RoleAssistant {
			return "", nil, fmt.Errorf("%w: line %d: unknown role %q (want system, user or assistant)", ErrTranscript, n+1, r)
		}
		if err := flush(n); err != nil {
			return "", nil, err
		}
		role, start = r, n+1
	}
	if err := flush(len(lines)); err != nil {
		return "", nil, err
	}
	return system, msgs, nil
}

// marker returns the role of a section marker line.
func marker(line string) (string, bool) {
	s, ok := strings.CutPrefix(strings.TrimRight(line, " "), markerPrefix)
	if !ok {
		return "", false
	}
	return strings.CutSuffix(s, markerSuffix)
}

// sectionBody drops a section's heading and the blank lines around it.
func sectionBody(lines []string) string {
	for len(lines) > 0 && strings.TrimSpace(lines[0]) == "" {
		lines = lines[1:]
	}
	if len(lines) > 0 && strings.HasPrefix(lines[0], "## ") {
		lines = lines[1:]
	}
	return strings.Trim(strings.Join(lines, "\n"), "\n")
}

// escapeMarkers adds a backslash before every line that is a marker
// behind zero or more backslashes, so that no message line reads as one.
func escapeMarkers(s string) string {
	return mapLines(s, func(l string) string {
		if strings.HasPrefix(strings.TrimLeft(l, `\`), markerPrefix) {
			return `\` + l
		}
		return l
	})
}

// unescapeMarkers removes the backslash escapeMarkers added.
func unescapeMarkers(s string) string {
	return mapLines(s, func(l string) string {
		if strings.HasPrefix(l, `\`) && strings.HasPrefix(strings.TrimLeft(l, `\`), markerPrefix) {
			return l[1:]
		}
		return l
	})
}

func mapLines(s string, f func(string) string) string {
	if !strings.Contains(s, markerPrefix) {
		return s
	}
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		lines[i] = f(l)
	}
	return strings.Join(lines, "\n")
}
