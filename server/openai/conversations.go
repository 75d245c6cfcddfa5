package openai

import (
	"bytes"
	"encoding/json"
)

// MaxItemsPerCall bounds the items a conversation request adds at once.
const MaxItemsPerCall = 20

// ConversationRequest is the body of POST /v1/conversations (items and
// metadata), of POST /v1/conversations/{id} (metadata) and of POST
// /v1/conversations/{id}/items (items).
type ConversationRequest struct {
	ItemsRaw    []json.RawMessage `json:"items"`
	MetadataRaw json.RawMessage   `json:"metadata"`

	// Filled by parsing.
	Items    []Item            `json:"-"`
	Metadata map[string]string `json:"-"`
}

// Parts of a ConversationRequest that a route requires.
const (
	NeedItems    = 1 << iota // "items" must be present
	NeedMetadata             // "metadata" must be present
)

// ParseConversationRequest decodes and validates a Conversations API body;
// need says which fields must be present. An empty body is {}.
func ParseConversationRequest(body []byte, need int) (*ConversationRequest, *Error) {
	r := &ConversationRequest{}
	if len(bytes.TrimSpace(body)) == 0 {
		body = []byte("{}")
	}
	if e := decode(body, r, ""); e != nil {
		return nil, e
	}
	if need&NeedItems != 0 && r.ItemsRaw == nil {
		return nil, Invalid("items", CodeMissing, "Missing required parameter: 'items'.")
	}
	if need&NeedMetadata != 0 && r.MetadataRaw == nil {
		return nil, Invalid("metadata", CodeMissing, "Missing required parameter: 'metadata'.")
	}
	if len(r.ItemsRaw) > MaxItemsPerCall {
		return nil, Invalid("items", CodeInvalidValue, "'items' may hold at most %d items, got %d.", MaxItemsPerCall, len(r.ItemsRaw))
	}
	items, e := ParseItems(r.ItemsRaw, "items")
	if e != nil {
		return nil, e
	}
	r.Items = items
	if !isNull(r.MetadataRaw) {
		if e := decodeValue(r.MetadataRaw, &r.Metadata, "metadata"); e != nil {
			return nil, e
		}
	}
	return r, ValidateMetadata(r.Metadata, "metadata")
}

// ItemList is a page of items (input items of a response, items of a
// conversation), as stored JSON.
type ItemList struct {
	Object  string            `json:"object"`
	Data    []json.RawMessage `json:"data"`
	FirstID *string           `json:"first_id"`
	LastID  *string           `json:"last_id"`
	HasMore bool              `json:"has_more"`
}
