package server

import (
	"strings"

	"github.com/mlxrun/mlx/runtime"
	"github.com/mlxrun/mlx/server/openai"
	"github.com/mlxrun/mlx/server/toolparse"
	"github.com/mlxrun/mlx/store"
)

// respBuilder is the Responses encoder of a plan's stream: it turns the
// parsed output into the output items of a response, and into its stream
// events when emit is set.
type respBuilder struct {
	st        *genStream
	tokens    *tokenTexts
	resp      openai.Response
	emit      func(openai.StreamEvent) error // nil: not streamed
	writeErr  error                          // the first error of emit
	seq       int
	cur       int             // output index of the open message or reasoning item; -1: none
	buf       strings.Builder // the open item's text
	partLP    []openai.Logprob
	pendingLP []openai.Logprob // not yet sent with a text delta
	heldLP    []openai.Logprob // of text the parser holds back
	held      string           // white space held back until a message opens
	logprobs  bool
	callsLeft int // function calls still allowed; negative: no cap
	finish    runtime.FinishReason
}

func newRespBuilder(tokens *tokenTexts, logprobs bool, maxCalls int) *respBuilder {
	return &respBuilder{tokens: tokens, cur: -1, logprobs: logprobs, callsLeft: maxCalls}
}

func hdr(typ string) openai.EventHeader { return openai.EventHeader{Type: typ} }

// ref names the first content part of the item id at output index i.
func ref(id string, i int) openai.PartRef { return openai.PartRef{ItemID: id, OutputIndex: i} }

func reasoningEvent(typ string, r openai.PartRef, delta, text *string) *openai.ReasoningEvent {
	return &openai.ReasoningEvent{EventHeader: hdr(typ), PartRef: r, Delta: delta, Text: text}
}

func textEvent(typ string, r openai.PartRef, delta, text *string, lps []openai.Logprob) *openai.TextEvent {
	return &openai.TextEvent{ReasoningEvent: *reasoningEvent(typ, r, delta, text), Logprobs: lps}
}

// event numbers ev and emits it; after a failed write it does nothing.
func (b *respBuilder) event(ev openai.StreamEvent) error {
	if b.emit == nil {
		return nil
	}
	if b.writeErr != nil {
		return b.writeErr
	}
	ev.Header().SequenceNumber = b.seq
	b.seq++
	if err := b.emit(ev); err != nil {
		b.writeErr = err
		return err
	}
	return nil
}

// start emits response.created and response.in_progress.
func (b *respBuilder) start() error {
	if err := b.event(&openai.ResponseEvent{EventHeader: hdr(openai.EventCreated), Response: &b.resp}); err != nil {
		return err
	}
	return b.event(&openai.ResponseEvent{EventHeader: hdr(openai.EventInProgress), Response: &b.resp})
}

// encodeDelta implements encoder. The log-probabilities of reasoning
// are left out: they belong to no output text.
func (b *respBuilder) encodeDelta(_ int, d toolparse.Delta, ev runtime.Event) error {
	if b.logprobs {
		for _, lp := range ev.Logprobs {
			b.heldLP = append(b.heldLP, b.tokens.responseLogprob(lp))
		}
	}
	if d.Empty() {
		return nil
	}
	if d.Reasoning == "" || d.Content != "" {
		b.pendingLP = append(b.pendingLP, b.heldLP...)
	}
	b.heldLP = nil
	if d.Reasoning != "" {
		if err := b.reasoning(d.Reasoning); err != nil {
			return err
		}
	}
	if d.Content != "" {
		if err := b.text(d.Content); err != nil {
			return err
		}
	}
	for _, c := range d.Calls {
		if err := b.call(c); err != nil {
			return err
		}
	}
	return nil
}

// encodeEnd implements encoder.
func (b *respBuilder) encodeEnd(_ int, res runtime.Result) error {
	b.finish = res.Finish
	return nil
}

// encodeFinish implements encoder; runResponse ends the response.
func (b *respBuilder) encodeFinish() error { return nil }

// openType is the type of the open item, "" when none.
func (b *respBuilder) openType() string {
	if b.cur < 0 {
		return ""
	}
	return b.resp.Output[b.cur].Type
}

// text adds output text, opening a message first (white space alone
// does not open one).
func (b *respBuilder) text(delta string) error {
	if b.openType() != openai.ItemMessage {
		if strings.TrimSpace(b.held+delta) == "" {
			b.held += delta
			return nil
		}
		if err := b.closeOpen(openai.ItemCompleted); err != nil {
			return err
		}
		delta, b.held = b.held+delta, ""
		if err := b.open(openai.ItemMessage, openai.PartOutputText); err != nil {
			return err
		}
		b.pendingLP = trimLogprobs(b.pendingLP, len(delta))
	}
	lps := b.pendingLP
	b.pendingLP = nil
	if lps == nil {
		lps = []openai.Logprob{}
	}
	b.buf.WriteString(delta)
	b.partLP = append(b.partLP, lps...)
	it := &b.resp.Output[b.cur]
	return b.event(textEvent(openai.EventTextDelta, ref(it.ID, b.cur), &delta, nil, lps))
}

// reasoning adds reasoning text, opening a reasoning item first.
func (b *respBuilder) reasoning(delta string) error {
	if b.openType() != openai.ItemReasoning {
		if err := b.closeOpen(openai.ItemCompleted); err != nil {
			return err
		}
		if err := b.open(openai.ItemReasoning, openai.PartReasoningText); err != nil {
			return err
		}
	}
	b.buf.WriteString(delta)
	it := &b.resp.Output[b.cur]
	return b.event(reasoningEvent(openai.EventReasoningDelta, ref(it.ID, b.cur), &delta, nil))
}

// open adds an item of type typ with one content part of type part.
func (b *respBuilder) open(typ, part string) error {
	it := openai.Item{ID: store.NewID(itemPrefix(typ)), Type: typ, Status: openai.ItemInProgress}
	if typ == openai.ItemMessage {
		it.Role = openai.RoleAssistant
	}
	b.resp.Output = append(b.resp.Output, it)
	b.cur = len(b.resp.Output) - 1
	b.buf.Reset()
	b.partLP = nil
	if err := b.event(&openai.ItemEvent{EventHeader: hdr(openai.EventItemAdded), OutputIndex: b.cur, Item: &it}); err != nil {
		return err
	}
	p := openai.Part{Type: part}
	return b.event(&openai.PartEvent{EventHeader: hdr(openai.EventPartAdded), PartRef: ref(it.ID, b.cur), Part: &p})
}

// closeOpen ends the open item with status.
func (b *respBuilder) closeOpen(status string) error {
	if b.cur < 0 {
		return nil
	}
	i := b.cur
	b.cur = -1
	it := &b.resp.Output[i]
	text := b.buf.String()
	part := openai.Part{Type: openai.PartReasoningText, Text: text}
	var err error
	if it.Type == openai.ItemMessage {
		part = openai.Part{Type: openai.PartOutputText, Text: text, Logprobs: b.partLP}
		lps := b.partLP
		if lps == nil {
			lps = []openai.Logprob{}
		}
		err = b.event(textEvent(openai.EventTextDone, ref(it.ID, i), nil, &text, lps))
	} else {
		err = b.event(reasoningEvent(openai.EventReasoningDone, ref(it.ID, i), nil, &text))
	}
	it.Content, it.Status = []openai.Part{part}, status
	done := *it
	return firstErr(err,
		b.event(&openai.PartEvent{EventHeader: hdr(openai.EventPartDone), PartRef: ref(it.ID, i), Part: &part}),
		b.event(&openai.ItemEvent{EventHeader: hdr(openai.EventItemDone), OutputIndex: i, Item: &done}))
}

// call adds a complete function call, unless the cap on calls is reached.
func (b *respBuilder) call(c toolparse.Call) error {
	b.held, b.pendingLP = "", nil
	if err := b.closeOpen(openai.ItemCompleted); err != nil {
		return err
	}
	if b.callsLeft == 0 {
		return nil
	}
	b.callsLeft--
	it := openai.Item{ID: store.NewID(itemPrefix(openai.ItemFunctionCall)), Type: openai.ItemFunctionCall, Status: openai.ItemInProgress,
		CallID: newID("call_", 24), Name: c.Name}
	b.resp.Output = append(b.resp.Output, it)
	i := len(b.resp.Output) - 1
	args := c.Arguments
	err := firstErr(
		b.event(&openai.ItemEvent{EventHeader: hdr(openai.EventItemAdded), OutputIndex: i, Item: &it}),
		b.event(&openai.ArgumentsEvent{EventHeader: hdr(openai.EventArgumentsDelta), ItemID: it.ID, OutputIndex: i, Delta: &args}),
		b.event(&openai.ArgumentsEvent{EventHeader: hdr(openai.EventArgumentsDone), ItemID: it.ID, OutputIndex: i, Name: it.Name, Arguments: &args}))
	it.Arguments, it.Status = args, openai.ItemCompleted
	b.resp.Output[i] = it
	return firstErr(err, b.event(&openai.ItemEvent{EventHeader: hdr(openai.EventItemDone), OutputIndex: i, Item: &it}))
}

// complete ends the open item and sets the final status, usage and text
// of the response; a response that said nothing gets an empty message.
func (b *respBuilder) complete(status string, now int64, failure *openai.ResponseError) error {
	itemStatus := openai.ItemCompleted
	if status != openai.StatusCompleted {
		itemStatus = openai.ItemIncomplete
	}
	var err error
	if len(b.resp.Output) == 0 && (status == openai.StatusCompleted || status == openai.StatusIncomplete) {
		err = b.open(openai.ItemMessage, openai.PartOutputText)
		b.buf.WriteString(b.held)
	}
	err = firstErr(err, b.closeOpen(itemStatus))
	r := &b.resp
	r.Status, r.Error, r.CompletedAt = status, failure, &now
	if status == openai.StatusIncomplete {
		r.IncompleteDetails = &openai.IncompleteDetails{Reason: "max_output_tokens"}
	}
	if b.st != nil {
		u := b.st.usage()
		r.Usage = &openai.ResponseUsage{InputTokens: u.prompt, OutputTokens: u.completion, TotalTokens: u.prompt + u.completion}
		r.Usage.InputTokensDetails.CachedTokens = u.cached
		r.Usage.OutputTokensDetails.ReasoningTokens = u.reasoning
	}
	var text strings.Builder
	for _, it := range r.Output {
		if it.Type == openai.ItemMessage {
			for _, p := range it.Content {
				if p.Type == openai.PartOutputText {
					text.WriteString(p.Text)
				}
			}
		}
	}
	r.OutputText = text.String()
	return err
}

// terminal emits the last event: response.completed, .incomplete, or
// .failed (which also ends a cancelled response).
func (b *respBuilder) terminal() error {
	typ := openai.EventFailed
	switch b.resp.Status {
	case openai.StatusCompleted:
		typ = openai.EventCompleted
	case openai.StatusIncomplete:
		typ = openai.EventIncomplete
	}
	return b.event(&openai.ResponseEvent{EventHeader: hdr(typ), Response: &b.resp})
}

// trimLogprobs drops the leading entries of lps that do not make up the
// first n bytes of a message: the tokens of a closing </think> and the
// white space after it, which the parser removes from the text.
func trimLogprobs(lps []openai.Logprob, n int) []openai.Logprob {
	total := 0
	for _, lp := range lps {
		total += len(lp.Token)
	}
	for len(lps) > 0 && total-len(lps[0].Token) >= n {
		total -= len(lps[0].Token)
		lps = lps[1:]
	}
	return lps
}

func firstErr(errs ...error) error {
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}
