package server

import (
	"encoding/json"

	"github.com/mlxrun/mlx/server/openai"
)

// toolSchemas maps each function tool's name to its parameters schema, for
// the tool call parsers that type argument values by it.
func toolSchemas(tools []openai.Tool) map[string]json.RawMessage {
	if len(tools) == 0 {
		return nil
	}
	m := make(map[string]json.RawMessage, len(tools))
	for _, t := range tools {
		m[t.Function.Name] = t.Function.Parameters
	}
	return m
}
