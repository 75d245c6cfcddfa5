package toolparse

import (
	"bytes"
	"encoding/json"
	"strings"
)

// Format is a tool call syntax.
type Format string

// The formats.
const (
	FormatNone    Format = ""
	FormatHermes  Format = "hermes"     // <tool_call>{"name":…,"arguments":…}</tool_call> (Qwen, Hermes)
	FormatLlama3  Format = "llama3"     // {"name":…,"parameters":…} or <|python_tag|>… (Llama 3.x)
	FormatMistral Format = "mistral"    // [TOOL_CALLS][{…}] or [TOOL_CALLS]name[ARGS]{…}
	FormatHarmony Format = "harmony"    // gpt-oss: <|channel|>… to=functions.name …<|message|>{…}
	FormatQwenXML Format = "qwen3coder" // <tool_call><function=name><parameter=a>v</parameter>… (Qwen3-Coder, Qwen3.5)
	FormatGemma4  Format = "gemma4"     // <|tool_call>call:name{a:<|"|>v<|"|>}<tool_call|>, <|channel>thought…<channel|>
)

// Detect returns the format a chat template teaches, from the markers it
// holds; FormatHermes when it mentions tools in no known syntax, FormatNone
// when it does not mention tools at all.
func Detect(template string) Format {
	switch {
	case strings.Contains(template, HarmonyChannel) && strings.Contains(template, HarmonyMessage):
		return FormatHarmony
	case strings.Contains(template, Gemma4Call):
		return FormatGemma4
	case strings.Contains(template, HermesOpen) && strings.Contains(template, xmlFunction):
		return FormatQwenXML
	case strings.Contains(template, HermesOpen):
		return FormatHermes
	case strings.Contains(template, MistralCalls):
		return FormatMistral
	case strings.Contains(template, PythonTag), strings.Contains(template, "<|start_header_id|>") && strings.Contains(template, "tools"):
		return FormatLlama3
	case strings.Contains(template, "tools"):
		return FormatHermes
	}
	return FormatNone
}

// SpecialMarkers reports whether the format's markers are special tokens
// of the models that write it, which must then stay in the text for the
// parser to see them.
func (f Format) SpecialMarkers() bool {
	switch f {
	case FormatLlama3, FormatMistral, FormatHarmony, FormatGemma4:
		return true
	}
	return false
}

// markers returns the texts that start tool calls in answer text.
func (f Format) markers() []string {
	switch f {
	case FormatHermes, FormatQwenXML:
		return []string{HermesOpen}
	case FormatLlama3:
		return []string{PythonTag}
	case FormatMistral:
		return []string{MistralCalls}
	}
	return nil
}

// callJSON is a call as models write it in JSON.
type callJSON struct {
	Name       string          `json:"name"`
	Arguments  json.RawMessage `json:"arguments"`
	Parameters json.RawMessage `json:"parameters"`
}

// parseObjectCall reads one {"name":…,"arguments"|"parameters":…} object.
func parseObjectCall(s string) (Call, bool) {
	var c callJSON
	dec := json.NewDecoder(strings.NewReader(strings.TrimSpace(s)))
	if dec.Decode(&c) != nil || dec.More() {
		return Call{}, false
	}
	return c.call()
}

func (c callJSON) call() (Call, bool) {
	if c.Name == "" {
		return Call{}, false
	}
	args := c.Arguments
	if len(args) == 0 {
		args = c.Parameters
	}
	return Call{Name: c.Name, Arguments: arguments(args)}, true
}

// arguments returns the arguments as compact JSON text: a JSON string is
// taken as the text itself, absent arguments are "{}".
func arguments(raw json.RawMessage) string {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || string(raw) == "null" {
		return "{}"
	}
	if raw[0] == '"' {
		var s string
		if json.Unmarshal(raw, &s) == nil {
			return s
		}
	}
	var b bytes.Buffer
	if json.Compact(&b, raw) != nil {
		return string(raw)
	}
	return b.String()
}

// parseRest reads the tool calls that fill the rest of the output.
func (p *Parser) parseRest(s string) ([]Call, bool) {
	switch p.opt.Format {
	case FormatLlama3:
		return parseJSONCalls(s, ";")
	case FormatMistral:
		return parseMistral(s)
	}
	return nil, false
}

// parseJSONCalls reads one or more call objects, or arrays of them,
// separated by white space or sep.
func parseJSONCalls(s, sep string) ([]Call, bool) {
	dec := json.NewDecoder(strings.NewReader(s))
	var calls []Call
	for {
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			break
		}
		var list []callJSON
		if bytes.HasPrefix(bytes.TrimSpace(raw), []byte("[")) {
			if json.Unmarshal(raw, &list) != nil {
				return nil, false
			}
		} else {
			var one callJSON
			if json.Unmarshal(raw, &one) != nil {
				return nil, false
			}
			list = []callJSON{one}
		}
		for _, cj := range list {
			c, ok := cj.call()
			if !ok {
				return nil, false
			}
			calls = append(calls, c)
		}
		rest := strings.TrimLeft(s[dec.InputOffset():], " \t\r\n")
		rest = strings.TrimPrefix(rest, sep)
		if strings.TrimSpace(rest) == "" {
			return calls, len(calls) > 0
		}
		dec = json.NewDecoder(strings.NewReader(rest))
		s = rest
	}
	return nil, false
}

// parseMistral reads what follows [TOOL_CALLS]: a JSON array of calls, or
// name[ARGS]{…} (optionally name[CALL_ID]id[ARGS]{…}), each further call
// after another [TOOL_CALLS].
func parseMistral(s string) ([]Call, bool) {
	var calls []Call
	for _, seg := range strings.Split(s, MistralCalls) {
		seg = strings.TrimSpace(seg)
		if seg == "" {
			continue
		}
		if seg[0] == '[' || seg[0] == '{' {
			cs, ok := parseJSONCalls(seg, ",")
			if !ok {
				return nil, false
			}
			calls = append(calls, cs...)
			continue
		}
		name, args, ok := strings.Cut(seg, mistralArgs)
		if !ok {
			return nil, false
		}
		name, _, _ = strings.Cut(name, mistralCallID)
		name = strings.TrimSpace(name)
		if name == "" || !json.Valid([]byte(args)) {
			return nil, false
		}
		calls = append(calls, Call{Name: name, Arguments: arguments(json.RawMessage(args))})
	}
	return calls, len(calls) > 0
}
