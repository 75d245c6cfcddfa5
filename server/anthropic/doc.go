// Package anthropic holds the wire types of Anthropic's Messages API
// (POST /v1/messages and /v1/messages/count_tokens): the request, its
// checks, the response message, the streaming events and the error body.
// It knows nothing of models or generation.
package anthropic
