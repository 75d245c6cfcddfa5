// Package llamacpp holds the wire types of llama-server's own endpoints
// that mlx serve speaks besides the OpenAI API: /tokenize, /detokenize,
// /apply-template and /infill (fill-in-the-middle for editors). It decodes
// and checks requests and defines the response bodies; it knows nothing of
// models or generation. Errors are OpenAI-shaped, as llama-server's are.
package llamacpp
