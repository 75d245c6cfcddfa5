package openai

// Event types of a streamed response.
const (
	EventCreated        = "response.created"
	EventInProgress     = "response.in_progress"
	EventCompleted      = "response.completed"
	EventIncomplete     = "response.incomplete"
	EventFailed         = "response.failed"
	EventItemAdded      = "response.output_item.added"
	EventItemDone       = "response.output_item.done"
	EventPartAdded      = "response.content_part.added"
	EventPartDone       = "response.content_part.done"
	EventTextDelta      = "response.output_text.delta"
	EventTextDone       = "response.output_text.done"
	EventReasoningDelta = "response.reasoning_text.delta"
	EventReasoningDone  = "response.reasoning_text.done"
	EventArgumentsDelta = "response.function_call_arguments.delta"
	EventArgumentsDone  = "response.function_call_arguments.done"
	EventError          = "error"
)

// StreamEvent is an event of a streamed response.
type StreamEvent interface {
	// Header returns the type and sequence number every event has.
	Header() *EventHeader
}

// EventHeader holds the fields every event has.
type EventHeader struct {
	Type           string `json:"type"`
	SequenceNumber int    `json:"sequence_number"`
}

// Header implements StreamEvent.
func (h *EventHeader) Header() *EventHeader { return h }

// ResponseEvent carries the response: created, in_progress and the last
// event (completed, incomplete or failed).
type ResponseEvent struct {
	EventHeader
	Response *Response `json:"response"`
}

// ItemEvent announces an output item or its end.
type ItemEvent struct {
	EventHeader
	OutputIndex int   `json:"output_index"`
	Item        *Item `json:"item"`
}

// PartRef names a content part: its item, the item's output index and the
// part's index in the item.
type PartRef struct {
	ItemID       string `json:"item_id"`
	OutputIndex  int    `json:"output_index"`
	ContentIndex int    `json:"content_index"`
}

// PartEvent announces a content part of an output item or its end.
type PartEvent struct {
	EventHeader
	PartRef
	Part *Part `json:"part"`
}

// ReasoningEvent is a delta of reasoning text, or its whole text at the
// end.
type ReasoningEvent struct {
	EventHeader
	PartRef
	Delta *string `json:"delta,omitempty"`
	Text  *string `json:"text,omitempty"`
}

// TextEvent is a delta of output text, or its whole text at the end,
// with their log-probabilities.
type TextEvent struct {
	ReasoningEvent
	Logprobs []Logprob `json:"logprobs"`
}

// ArgumentsEvent is a delta of a function call's arguments, or, with the
// name, the whole arguments at the end.
type ArgumentsEvent struct {
	EventHeader
	ItemID      string  `json:"item_id"`
	OutputIndex int     `json:"output_index"`
	Name        string  `json:"name,omitempty"`
	Delta       *string `json:"delta,omitempty"`
	Arguments   *string `json:"arguments,omitempty"`
}

// ErrorEvent reports an error that ends a stream.
type ErrorEvent struct {
	EventHeader
	Code    *string `json:"code"`
	Message string  `json:"message"`
	Param   *string `json:"param"`
}

// NewErrorEvent returns the error event of e.
func NewErrorEvent(e *Error) *ErrorEvent {
	return &ErrorEvent{EventHeader: EventHeader{Type: EventError}, Code: nullable(e.Code), Message: e.Message, Param: nullable(e.Param)}
}
