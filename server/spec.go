package server

import (
	"github.com/mlxrun/mlx/runtime"
	"github.com/mlxrun/mlx/server/openai"
)

// speculation maps the speculative decoding extensions of a request to
// the runtime's; unset fields keep the engine's defaults.
func speculation(x *openai.Ext) runtime.Speculation {
	return runtime.Speculation{DraftTokens: x.NumAssistantTokens, Confidence: x.AssistantConfidenceThreshold,
		LookupTokens: x.PromptLookupNumTokens}
}
