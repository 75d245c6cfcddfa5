package server

import (
	"encoding/json"
	"errors"
	"net/http"
	"strconv"

	"github.com/mlxrun/mlx/server/openai"
	"github.com/mlxrun/mlx/store"
)

// storeError maps an error of the response or conversation store (kind
// "Response" or "Conversation", about id) to the API error a client gets.
func storeError(err error, kind, id string) *openai.Error {
	flag, bytesFlag := responseStoreFlag, "--responses-store-max-bytes"
	if kind != "Response" {
		flag, bytesFlag = conversationStoreFlag, "--conversation-store-max-bytes"
	}
	switch {
	case errors.Is(err, store.ErrDisabled):
		return notFound(kind + " with id '" + id + "' not found: the " + lower(kind) + " store is disabled (" + flag + " is 0).")
	case errors.Is(err, store.ErrNotFound):
		return notFound(kind + " with id '" + id + "' not found.")
	case errors.Is(err, store.ErrBadPage):
		return openai.Invalid("after", openai.CodeInvalidValue, "%v", err)
	case errors.Is(err, store.ErrDuplicateID):
		return openai.Invalid("items", openai.CodeInvalidValue, "%v", err)
	case errors.Is(err, store.ErrTooLarge):
		return openai.Invalid("", openai.CodeInvalidValue, "The %s would be larger than the store's byte budget (%s).", lower(kind), bytesFlag)
	}
	return apiError(err)
}

// notFound is a 404 with msg.
func notFound(msg string) *openai.Error {
	return &openai.Error{Status: http.StatusNotFound, Type: openai.TypeInvalidRequest, Message: msg}
}

func lower(kind string) string {
	if kind == "Response" {
		return "response"
	}
	return "conversation"
}

// pageQuery reads after, limit and order of a list request.
func pageQuery(c *call) (after string, limit int, order store.Order, e *openai.Error) {
	args := c.rc.QueryArgs()
	after = string(args.Peek("after"))
	if v := string(args.Peek("limit")); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 || n > store.MaxPageLimit {
			return "", 0, "", openai.Invalid("limit", openai.CodeInvalidValue, "limit must be an integer between 1 and %d, got %q.", store.MaxPageLimit, v)
		}
		limit = n
	}
	order, err := store.ParseOrder(string(args.Peek("order")))
	if err != nil {
		return "", 0, "", openai.Invalid("order", openai.CodeInvalidValue, "Invalid value: %q. Supported values are: 'asc' and 'desc'.", args.Peek("order"))
	}
	return after, limit, order, nil
}

// writePage answers a list request with the page that list gives for
// the response or conversation (kind) id.
func writePage(c *call, kind, id string, list func(id, after string, limit int, order store.Order) ([]store.Item, bool, error)) {
	after, limit, order, e := pageQuery(c)
	if e != nil {
		writeError(c.rc, e)
		return
	}
	items, more, err := list(id, after, limit, order)
	if err != nil {
		writeError(c.rc, storeError(err, kind, id))
		return
	}
	writeJSON(c.rc, http.StatusOK, itemList(items, more))
}

// itemList is a page of stored items.
func itemList(items []store.Item, more bool) openai.ItemList {
	l := openai.ItemList{Object: openai.ObjectList, Data: make([]json.RawMessage, len(items)), HasMore: more}
	for i, it := range items {
		l.Data[i] = it.Data
	}
	if n := len(items); n > 0 {
		first, last := items[0].ID, items[n-1].ID
		l.FirstID, l.LastID = &first, &last
	}
	return l
}

// boolQuery reads a boolean query argument; nil when absent or not a
// boolean.
func boolQuery(c *call, name string) *bool {
	v, err := strconv.ParseBool(string(c.rc.QueryArgs().Peek(name)))
	if err != nil {
		return nil
	}
	return &v
}
