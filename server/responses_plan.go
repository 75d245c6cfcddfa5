package server

import (
	"encoding/json"
	"errors"
	"net/http"
	"time"

	"github.com/mlxrun/mlx/server/openai"
	"github.com/mlxrun/mlx/store"
)

// Flags that enable the stores, named in the errors of a disabled store.
const (
	responseStoreFlag     = "--responses-store-max-entries"
	conversationStoreFlag = "--conversation-store-max-entries"
)

// responsePlan is a validated Responses request with the history the
// stores hold for it.
type responsePlan struct {
	req     *openai.ResponseRequest
	id      string
	created time.Time
	history []openai.Item   // the previous responses' items, or the conversation's
	known   map[string]bool // ids of the history's items
	input   []openai.Item   // the request's new input items, with ids
	store   bool            // keep the response in the response store
}

// planResponse loads the history of req (previous_response_id or
// conversation) and gives ids to its new input items.
func (s *Server) planResponse(req *openai.ResponseRequest) (*responsePlan, error) {
	p := &responsePlan{req: req, id: store.NewID(store.PrefixResponse), created: time.Now(), known: map[string]bool{},
		store: req.Stored && s.responsesEnabled()}
	if prev := deref(req.PreviousResponseID); prev != "" {
		if err := p.loadChain(s, prev); err != nil {
			return nil, err
		}
	}
	if req.Conversation != "" {
		if err := p.loadConversation(s, req.Conversation); err != nil {
			return nil, err
		}
	}
	for _, it := range req.Input {
		if it.ID != "" && p.known[it.ID] {
			continue // the same item as in the history
		}
		if it.ID == "" {
			it.ID = store.NewID(itemPrefix(it.Type))
		}
		p.input = append(p.input, it)
	}
	return p, nil
}

// loadChain reads the items of the response prev and of those it follows.
func (p *responsePlan) loadChain(s *Server, prev string) error {
	if !s.responsesEnabled() {
		return openai.Invalid("previous_response_id", openai.CodeInvalidValue,
			"previous_response_id needs the response store, which is disabled (%s is 0).", responseStoreFlag)
	}
	notFound := openai.Invalid("previous_response_id", "previous_response_not_found", "Previous response with id '%s' not found.", prev)
	if _, err := s.responses.Get(prev); err != nil {
		return notFound
	}
	chain, err := s.responses.Chain(prev)
	if err != nil {
		return openai.Invalid("previous_response_id", "previous_response_not_found", "The responses that '%s' follows are not all stored: %v.", prev, err)
	}
	if last := chain[len(chain)-1]; last.Status.Running() {
		return openai.Invalid("previous_response_id", openai.CodeInvalidValue, "Previous response with id '%s' is still in progress.", prev)
	}
	for _, r := range chain {
		for _, list := range [][]store.Item{r.Input, r.Output} {
			if err := p.addHistory(list); err != nil {
				return err
			}
		}
	}
	return nil
}

// loadConversation reads the items of the conversation id.
func (p *responsePlan) loadConversation(s *Server, id string) error {
	if !s.conversationsEnabled() {
		return openai.Invalid("conversation", openai.CodeInvalidValue,
			"conversation needs the conversation store, which is disabled (%s is 0).", conversationStoreFlag)
	}
	items, err := s.conversations.Items(id)
	if errors.Is(err, store.ErrNotFound) {
		return &openai.Error{Status: http.StatusNotFound, Type: openai.TypeInvalidRequest, Param: "conversation",
			Message: "Conversation with id '" + id + "' not found."}
	}
	if err != nil {
		return err
	}
	return p.addHistory(items)
}

// addHistory parses stored items into the history.
func (p *responsePlan) addHistory(items []store.Item) error {
	for _, si := range items {
		it, e := openai.ParseItem(si.Data, "item "+si.ID)
		if e != nil {
			return openai.ServerError(http.StatusInternalServerError, "", "a stored item is unreadable: %v", e)
		}
		p.history = append(p.history, it)
		p.known[si.ID] = true
	}
	return nil
}

// plan decodes the request, with its history, into a generation plan.
func (p *responsePlan) plan() (*plan, error) {
	r := p.req
	msgs := conversation(r.Instructions, p.history, p.input)
	if len(msgs) == 0 {
		return nil, planErr(keyMessages, openai.CodeInvalidValue, "The %s is empty: there is no message to answer.", paramKey(keyMessages))
	}
	g := &plan{msgs: msgs, logprobs: r.Logprobs(), topLogprobs: r.TopLogprobCount(), choice: r.ToolChoice.Mode,
		named: r.ToolChoice.Function, parallel: openai.Flag(r.ParallelToolCalls, true),
		sampling: samplingPlan{temperature: r.Temperature, topP: r.TopP}}
	if r.MaxOutputTokens != nil {
		g.sampling.maxTokens = *r.MaxOutputTokens
	}
	if f := r.Text; f != nil && f.Format != nil && f.Format.Type != "text" {
		g.format = outputFormat{json: true, mentionJSON: f.Format.Type == "json_object", schema: f.Format.Schema, schemaName: f.Format.Name}
	}
	var effort *string
	if r.Reasoning != nil {
		effort = r.Reasoning.Effort
	}
	extPlan(g, &r.Ext, effort)
	for _, t := range r.Tools {
		g.tools = append(g.tools, planTool{name: t.Name, params: t.Parameters, decl: toolDecl(t.Name, deref(t.Description), t.Parameters, t.Strict)})
	}
	return g, nil
}

// conversation turns instructions and items into template messages:
// function calls join the assistant message before them, function call
// outputs become tool messages, and reasoning is left out.
func conversation(instructions *string, lists ...[]openai.Item) []ChatMessage {
	var msgs []ChatMessage
	if instructions != nil && *instructions != "" {
		msgs = append(msgs, ChatMessage{Role: openai.RoleSystem, Content: *instructions})
	}
	names := map[string]string{} // call id → function name
	for _, items := range lists {
		for _, it := range items {
			switch it.Type {
			case openai.ItemMessage:
				msgs = append(msgs, ChatMessage{Role: it.Role, Content: openai.Text(it.Content)})
			case openai.ItemFunctionCall:
				names[it.CallID] = it.Name
				tc := TemplateToolCall{ID: it.CallID, Type: "function", Function: TemplateFunctionCall{Name: it.Name, Arguments: jsonText(it.Arguments)}}
				if n := len(msgs); n > 0 && msgs[n-1].Role == openai.RoleAssistant {
					msgs[n-1].ToolCalls = append(msgs[n-1].ToolCalls, tc)
					continue
				}
				msgs = append(msgs, ChatMessage{Role: openai.RoleAssistant, ToolCalls: []TemplateToolCall{tc}})
			case openai.ItemFunctionCallOutput:
				msgs = append(msgs, ChatMessage{Role: openai.RoleTool, Content: it.OutputText(), ToolCallID: it.CallID, Name: names[it.CallID]})
			}
		}
	}
	return msgs
}

// itemPrefix is the id prefix of an item type.
func itemPrefix(typ string) string {
	switch typ {
	case openai.ItemFunctionCall:
		return "fc"
	case openai.ItemFunctionCallOutput:
		return "fco"
	case openai.ItemReasoning:
		return "rs"
	}
	return store.PrefixMessage
}

// storeItems renders items for a store.
func storeItems(items []openai.Item) []store.Item {
	out := make([]store.Item, 0, len(items))
	for _, it := range items {
		b, _ := json.Marshal(it) // an Item always encodes
		out = append(out, store.Item{ID: it.ID, Data: b})
	}
	return out
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}
