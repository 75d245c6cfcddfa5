package server

import (
	"maps"

	"github.com/mlxrun/mlx/server/openai"
)

// effortKwargs returns the template variables kw with what a reasoning
// effort (reasoning_effort, or the Responses reasoning.effort) asks for,
// where chat_template_kwargs left them unset: enable_thinking (off for
// "none" and "minimal"), and reasoning_effort for the levels templates
// take ("low", "medium", "high": gpt-oss writes it into its system
// message). Without an effort kw is returned as it is.
func effortKwargs(kw map[string]any, effort *string) map[string]any {
	on, ok := (&openai.ReasoningConfig{Effort: effort}).Thinking()
	if !ok {
		return kw
	}
	kw = maps.Clone(kw)
	if kw == nil {
		kw = map[string]any{}
	}
	if _, set := kw["enable_thinking"]; !set {
		kw["enable_thinking"] = on
	}
	if _, set := kw["reasoning_effort"]; !set {
		switch *effort {
		case "low", "medium", "high":
			kw["reasoning_effort"] = *effort
		}
	}
	return kw
}
