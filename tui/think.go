package tui

import "strings"

const (
	thinkOpen  = "<think>"
	thinkClose = "</think>"
)

// splitThink separates a reasoning model's thoughts from its answer in the
// raw text of an answer: reasoning is what lies inside <think>…</think>
// (or before a lone </think>, for templates that open the tag in the
// prompt). thinking reports an unclosed <think>: the model is still
// thinking. Partial tags at the end of a streamed text are held back.
func splitThink(raw string) (reasoning, answer string, thinking bool) {
	s := strings.TrimLeft(raw, " \t\r\n")
	if s != "" && len(s) < len(thinkOpen) && strings.HasPrefix(thinkOpen, s) {
		return "", "", true // the tag is still arriving
	}
	body, opened := strings.CutPrefix(s, thinkOpen)
	if !opened {
		before, after, closed := strings.Cut(raw, thinkClose)
		if !closed {
			return "", raw, false
		}
		return strings.TrimSpace(before), strings.TrimLeft(after, " \t\r\n"), false
	}
	before, after, closed := strings.Cut(body, thinkClose)
	if !closed {
		return strings.TrimSpace(trimPartialSuffix(body, thinkClose)), "", true
	}
	return strings.TrimSpace(before), strings.TrimLeft(after, " \t\r\n"), false
}

// trimPartialSuffix removes from s a trailing proper prefix of tag.
func trimPartialSuffix(s, tag string) string {
	for n := min(len(tag)-1, len(s)); n > 0; n-- {
		if strings.HasSuffix(s, tag[:n]) {
			return s[:len(s)-n]
		}
	}
	return s
}

// joinThink is the inverse of splitThink for a finished answer.
func joinThink(reasoning, answer string) string {
	if reasoning == "" {
		return answer
	}
	return thinkOpen + "\n" + reasoning + "\n" + thinkClose + "\n\n" + answer
}
