package toolparse

import (
	"bytes"
	"encoding/json"
	"strconv"
	"strings"
)

// The XML call syntax of Qwen3-Coder and Qwen3.5: inside <tool_call>,
//
//	<function=NAME>
//	<parameter=ARG>
//	VALUE
//	</parameter>
//	</function>
//
// A value is raw text, one line end around it belonging to the syntax. It
// becomes a JSON value by the type the tool's schema gives the parameter
// (as vLLM's and llama.cpp's Qwen3-Coder parsers convert it): strings stay
// strings, numbers, booleans, objects and arrays are parsed when they can
// be.
const (
	xmlFunction    = "<function="
	xmlFunctionEnd = "</function>"
	xmlParameter   = "<parameter="
	xmlParamEnd    = "</parameter>"
)

// parseXMLCalls reads the <function=…> blocks of one <tool_call> body.
func parseXMLCalls(body string, schemas map[string]json.RawMessage) ([]Call, bool) {
	var calls []Call
	s := strings.TrimSpace(body)
	for s != "" {
		rest, ok := strings.CutPrefix(s, xmlFunction)
		if !ok {
			return nil, false
		}
		name, rest, ok := strings.Cut(rest, ">")
		name = strings.TrimSpace(name)
		if !ok || name == "" {
			return nil, false
		}
		inner, after, _ := strings.Cut(rest, xmlFunctionEnd)
		args, ok := xmlArguments(inner, paramTypes(schemas[name]))
		if !ok {
			return nil, false
		}
		calls = append(calls, Call{Name: name, Arguments: args})
		s = strings.TrimSpace(after)
	}
	return calls, len(calls) > 0
}

// xmlArguments converts the <parameter=…> blocks of one function into a
// JSON object, in the order written.
func xmlArguments(s string, types map[string]string) (string, bool) {
	var b bytes.Buffer
	b.WriteByte('{')
	for n := 0; ; n++ {
		s = strings.TrimSpace(s)
		if s == "" {
			break
		}
		rest, ok := strings.CutPrefix(s, xmlParameter)
		if !ok {
			return "", false
		}
		key, rest, ok := strings.Cut(rest, ">")
		key = strings.TrimSpace(key)
		if !ok || key == "" {
			return "", false
		}
		value, after, closed := strings.Cut(rest, xmlParamEnd)
		if !closed {
			// The value of a call cut short ends where the next
			// parameter begins, or at the end.
			if i := strings.Index(value, xmlParameter); i >= 0 {
				value, after = value[:i], value[i:]
			}
		}
		value = strings.TrimPrefix(value, "\n")
		value = strings.TrimSuffix(value, "\n")
		if n > 0 {
			b.WriteByte(',')
		}
		k, _ := json.Marshal(key)
		b.Write(k)
		b.WriteByte(':')
		b.WriteString(xmlValue(value, types[key]))
		s = after
	}
	b.WriteByte('}')
	return b.String(), true
}

// xmlValue converts a parameter's text to JSON by its schema type; a text
// the type does not fit stays a string.
func xmlValue(v, typ string) string {
	str := func() string {
		q, _ := json.Marshal(v)
		return string(q)
	}
	t := strings.TrimSpace(v)
	if strings.EqualFold(t, "null") && typ != "string" {
		return "null"
	}
	switch typ {
	case "", "string", "str", "text", "varchar", "char", "enum":
		return str()
	case "integer", "int":
		if _, err := strconv.ParseInt(t, 10, 64); err == nil {
			return t
		}
	case "number", "float", "double":
		if _, err := strconv.ParseFloat(t, 64); err == nil && json.Valid([]byte(t)) {
			return t
		}
	case "boolean", "bool":
		switch strings.ToLower(t) {
		case "true", "false":
			return strings.ToLower(t)
		}
	default: // object, array, or a type this does not know
		var c bytes.Buffer
		if json.Compact(&c, []byte(t)) == nil {
			return c.String()
		}
	}
	return str()
}

// paramTypes reads the type of each property of a parameters schema; a
// property with several types (["integer","null"]) takes its first that
// is not null.
func paramTypes(schema json.RawMessage) map[string]string {
	var s struct {
		Properties map[string]struct {
			Type json.RawMessage `json:"type"`
		} `json:"properties"`
	}
	if len(schema) == 0 || json.Unmarshal(schema, &s) != nil {
		return nil
	}
	types := make(map[string]string, len(s.Properties))
	for name, p := range s.Properties {
		var one string
		var many []string
		switch {
		case json.Unmarshal(p.Type, &one) == nil:
			types[name] = one
		case json.Unmarshal(p.Type, &many) == nil:
			for _, t := range many {
				if t != "null" {
					types[name] = t
					break
				}
			}
		default:
			types[name] = "object" // anyOf and the like: parse JSON when it is JSON
		}
	}
	return types
}
