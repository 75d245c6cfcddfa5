package runtime

// A model with linear-attention layers keeps one recurrent state per
// sequence, which every row of a forward pass advances: the drafted tokens
// that verification rejects cannot be taken back out of it. So the state
// is copied before a step that verifies drafted tokens, and when some are
// rejected it goes back to that copy; the tokens kept (the last token
// before the drafts and the accepted ones, whose keys and values are
// already right) are computed again in the next step, in the same forward
// pass as the new token, rather than in a pass of their own.

// keepState copies r's recurrent state, if the model has one.
func (sr *specRun) keepState(r *runningSeq) {
	st, n := r.kv.State()
	if st == nil {
		return
	}
	sr.kept, sr.keptLen = append(sr.kept[:0], st...), n
}

// rollBack restores r's recurrent state after a verification that did
// not accept every drafted token, and moves r.done back to it.
func (e *Engine) rollBack(r *runningSeq) {
	sr := e.spec.runs[r]
	if sr == nil || !e.isRunning(r) {
		return
	}
	st, n := r.kv.State()
	if st == nil || n == r.done {
		return
	}
	copy(st, sr.kept)
	r.kv.SetStateLen(sr.keptLen)
	r.done = sr.keptLen
}
