package server

import (
	"net/url"
	"strings"
)

// statefulRoute finds the routes of the Responses and Conversations APIs
// in path (without /v1): their ids are path segments.
func (s *Server) statefulRoute(path string) (string, func(*call)) {
	seg := strings.Split(strings.TrimPrefix(path, "/"), "/")
	for i, p := range seg {
		if p == "" {
			return routeOther, nil
		}
		if u, err := url.PathUnescape(p); err == nil {
			seg[i] = u
		}
	}
	n := len(seg)
	switch {
	case seg[0] == "responses" && n == 1:
		return routeResponses, s.handleCreateResponse
	case seg[0] == "responses" && n == 2:
		return routeResponse, func(c *call) { s.handleResponse(c, seg[1]) }
	case seg[0] == "responses" && n == 3 && seg[2] == "cancel":
		return routeResponseCancel, func(c *call) { s.handleCancelResponse(c, seg[1]) }
	case seg[0] == "responses" && n == 3 && seg[2] == "input_items":
		return routeResponseInputs, func(c *call) { s.handleInputItems(c, seg[1]) }
	case seg[0] == "conversations" && n == 1:
		return routeConversations, s.handleCreateConversation
	case seg[0] == "conversations" && n == 2:
		return routeConversation, func(c *call) { s.handleConversation(c, seg[1]) }
	case seg[0] == "conversations" && n == 3 && seg[2] == "items":
		return routeConvItems, func(c *call) { s.handleConversationItems(c, seg[1]) }
	case seg[0] == "conversations" && n == 4 && seg[2] == "items":
		return routeConvItem, func(c *call) { s.handleConversationItem(c, seg[1], seg[3]) }
	}
	return routeOther, nil
}
