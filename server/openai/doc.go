// Package openai holds the wire types of the OpenAI API that mlx serves:
// the request bodies of chat completions, completions, the Responses API
// and the Conversations API with their parsing and validation, the
// response objects, stream chunks and stream events, the model list and
// the error body.
//
// Parsing checks every field's type and range and reports the first
// problem as an *Error whose Param names the field, as the OpenAI API does.
// Unknown fields are ignored. Extensions of vLLM, SGLang and NVIDIA NIM
// (top_k, min_p, chat_template_kwargs, ...) are accepted at the top level
// and inside "nvext"; the top level wins when both set one.
package openai
