package server

import (
	"errors"
	"net/http"

	"github.com/mlxrun/mlx/server/openai"
	"github.com/mlxrun/mlx/store"
	"github.com/mlxrun/mlx/store/conversations"
)

// conversationObject is the API object of a stored conversation.
func conversationObject(cv conversations.Conversation) openai.Conversation {
	md := cv.Metadata
	if md == nil {
		md = map[string]string{}
	}
	return openai.Conversation{ID: cv.ID, Object: openai.ObjectConversation, CreatedAt: cv.CreatedAt.Unix(), Metadata: md}
}

// withIDs gives an id to each item that has none.
func withIDs(items []openai.Item) []openai.Item {
	for i := range items {
		if items[i].ID == "" {
			items[i].ID = store.NewID(itemPrefix(items[i].Type))
		}
	}
	return items
}

// convStoreReady answers the error of a disabled conversation store and
// reports whether the request may go on.
func (s *Server) convStoreReady(c *call, id string) bool {
	if s.conversationsEnabled() {
		return true
	}
	if id == "" {
		writeError(c.rc, openai.Invalid("", openai.CodeInvalidValue, "The conversation store is disabled (%s is 0).", conversationStoreFlag))
		return false
	}
	writeError(c.rc, storeError(store.ErrDisabled, "Conversation", id))
	return false
}

// handleCreateConversation serves POST /v1/conversations.
func (s *Server) handleCreateConversation(c *call) {
	if !s.convStoreReady(c, "") {
		return
	}
	req, e := openai.ParseConversationRequest(c.rc.PostBody(), 0)
	if e != nil {
		writeError(c.rc, e)
		return
	}
	cv, _, err := s.conversations.Create(req.Metadata, storeItems(withIDs(req.Items)))
	if err != nil {
		writeError(c.rc, storeError(err, "Conversation", ""))
		return
	}
	writeJSON(c.rc, http.StatusOK, conversationObject(cv))
}

// handleConversation serves GET, POST (metadata) and DELETE
// /v1/conversations/{id}.
func (s *Server) handleConversation(c *call, id string) {
	if !s.convStoreReady(c, id) {
		return
	}
	var cv conversations.Conversation
	var err error
	switch string(c.rc.Method()) {
	case http.MethodPost:
		req, e := openai.ParseConversationRequest(c.rc.PostBody(), openai.NeedMetadata)
		if e != nil {
			writeError(c.rc, e)
			return
		}
		cv, err = s.conversations.SetMetadata(id, req.Metadata)
	case http.MethodDelete:
		if err = s.conversations.Delete(id); err == nil {
			writeJSON(c.rc, http.StatusOK, openai.Deleted{ID: id, Object: openai.ObjectConversationDeleted, Deleted: true})
			return
		}
	default:
		cv, err = s.conversations.Get(id)
	}
	if err != nil {
		writeError(c.rc, storeError(err, "Conversation", id))
		return
	}
	writeJSON(c.rc, http.StatusOK, conversationObject(cv))
}

// handleConversationItems serves GET (a page) and POST (append)
// /v1/conversations/{id}/items.
func (s *Server) handleConversationItems(c *call, id string) {
	if !s.convStoreReady(c, id) {
		return
	}
	if string(c.rc.Method()) == http.MethodPost {
		req, e := openai.ParseConversationRequest(c.rc.PostBody(), openai.NeedItems)
		if e != nil {
			writeError(c.rc, e)
			return
		}
		added, err := s.conversations.Append(id, storeItems(withIDs(req.Items))...)
		if err != nil {
			writeError(c.rc, storeError(err, "Conversation", id))
			return
		}
		writeJSON(c.rc, http.StatusOK, itemList(added, false))
		return
	}
	writePage(c, "Conversation", id, s.conversations.List)
}

// handleConversationItem serves GET and DELETE
// /v1/conversations/{id}/items/{item_id}.
func (s *Server) handleConversationItem(c *call, id, itemID string) {
	if !s.convStoreReady(c, id) {
		return
	}
	if string(c.rc.Method()) == http.MethodDelete {
		cv, err := s.conversations.DeleteItem(id, itemID)
		if err != nil {
			writeError(c.rc, s.itemError(err, id, itemID))
			return
		}
		writeJSON(c.rc, http.StatusOK, conversationObject(cv))
		return
	}
	it, err := s.conversations.Item(id, itemID)
	if err != nil {
		writeError(c.rc, s.itemError(err, id, itemID))
		return
	}
	writeRaw(c, it.Data)
}

// itemError is the error of an item lookup: a 404 naming the item when
// the conversation exists.
func (s *Server) itemError(err error, id, itemID string) *openai.Error {
	if _, gerr := s.conversations.Get(id); gerr == nil && errors.Is(err, store.ErrNotFound) {
		return notFound("Item with id '" + itemID + "' not found in conversation '" + id + "'.")
	}
	return storeError(err, "Conversation", id)
}
