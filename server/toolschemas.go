package server

import (
	"encoding/json"

	"github.com/mlxrun/mlx/server/constrain"
)

// toolSchemas maps each tool the output may call to its parameters
// schema, for the tool call parsers that type argument values by it.
func toolSchemas(tools []constrain.Tool) map[string]json.RawMessage {
	if len(tools) == 0 {
		return nil
	}
	m := make(map[string]json.RawMessage, len(tools))
	for _, t := range tools {
		m[t.Name] = t.Parameters
	}
	return m
}
