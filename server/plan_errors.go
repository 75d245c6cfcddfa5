package server

import (
	"errors"
	"fmt"
	"strings"

	"github.com/mlxrun/mlx/runtime/sample"
	"github.com/mlxrun/mlx/server/openai"
)

// Keys of the plan's parameters that its errors name. The sampling
// parameters are named by sample's keys ("temperature", "max_tokens",
// "stop", ...).
const (
	keyMessages   = "messages"      // the conversation, or the prompt
	keyTemplate   = "chat_template" // a chat template from the request
	keyFormat     = "format"        // the output format
	keyJSONWord   = "format.json"   // the conversation a JSON format needs to mention JSON
	keySchema     = "format.schema" // the JSON schema of the format
	keyGrammar    = "grammar"
	keyTools      = "tools"
	keyToolSchema = "tools.parameters" // the parameters of the tool at an index
	keyToolChoice = "tool_choice"
	keyMaxTokens  = "max_tokens"
	keyMinTokens  = "min_tokens"
	keyStopIDs    = "stop_token_ids"
	keyLogitBias  = "logit_bias"
	keyTopK       = "top_k"
	keyBeam       = "use_beam_search"
	keyPromptLP   = "prompt_logprobs"
)

// paramError is a bad value of a plan parameter. key names the
// parameter (index the tool it concerns); the message's arguments of
// type paramKey are written as the API of the request names them.
type paramError struct {
	key    string
	index  int
	code   string // an openai.Code* code
	format string
	args   []any
}

// paramKey is a plan key in an error message.
type paramKey string

// planErr returns the paramError of key.
func planErr(key, code, format string, args ...any) *paramError {
	return &paramError{key: key, code: code, format: format, args: args}
}

// Error implements error with the plan's own names.
func (e *paramError) Error() string {
	name, msg := e.in(nil)
	return name + ": " + msg
}

// in returns the parameter's name and the message in names' terms.
func (e *paramError) in(names paramNames) (string, string) {
	args := make([]any, len(e.args))
	for i, a := range e.args {
		if k, ok := a.(paramKey); ok {
			a = names.name(string(k), e.index)
		}
		args[i] = a
	}
	return names.name(e.key, e.index), fmt.Sprintf(e.format, args...)
}

// paramNames maps plan keys to the names of one API; a key it leaves out
// keeps its own name. A name with a %d verb takes the tool's index.
type paramNames map[string]string

func (n paramNames) name(key string, index int) string {
	name, ok := n[key]
	if !ok {
		return key
	}
	if strings.Contains(name, "%d") {
		return fmt.Sprintf(name, index)
	}
	return name
}

// openai turns the plan's errors in err (paramError, and sample's
// ParamError) into OpenAI errors about the parameters of names; other
// errors pass.
func (n paramNames) openai(err error) error {
	var pe *paramError
	var se *sample.ParamError
	switch {
	case errors.As(err, &pe):
		name, msg := pe.in(n)
		return openai.Invalid(name, pe.code, "%s", msg)
	case errors.As(err, &se):
		return openai.Invalid(n.name(se.Param, 0), openai.CodeInvalidValue, "%s", se.Msg)
	}
	return err
}

// The parameter names of each API.
var (
	chatNames = paramNames{keyFormat: "response_format", keyJSONWord: keyMessages, keySchema: "response_format.json_schema.schema",
		keyToolSchema: "tools[%d].function.parameters"}
	responseNames = paramNames{keyMessages: "input", keyFormat: "text.format", keyJSONWord: "text.format", keySchema: "text.format.schema",
		keyToolSchema: "tools[%d].parameters", keyMaxTokens: "max_output_tokens"}
	anthropicNames = paramNames{keyToolSchema: "tools[%d].input_schema", "stop": "stop_sequences"}
	ollamaNames    = paramNames{keyFormat: "format", keySchema: "format", keyToolSchema: "tools[%d].function.parameters",
		keyMaxTokens: "options.num_predict", "temperature": "options.temperature", "top_p": "options.top_p",
		keyTopK: "options.top_k", "min_p": "options.min_p", "typical_p": "options.typical_p",
		"repetition_penalty": "options.repeat_penalty", "presence_penalty": "options.presence_penalty",
		"frequency_penalty": "options.frequency_penalty", "stop": "options.stop", "seed": "options.seed"}
)
