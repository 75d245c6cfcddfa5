package tokenizer

import (
	"strings"
	"unicode/utf8"
)

// StreamDecoder turns a stream of generated ids into text deltas that are
// always complete UTF-8: bytes of a character split over several tokens are
// held back until the character is complete. The deltas add up to what
// Decode gives for the whole sequence (byte tokens that never form valid
// UTF-8 aside), including the leading-space rules of SentencePiece-style
// decoders, because each step decodes the new ids together with the ids of
// the previous chunk as context. A StreamDecoder serves one sequence at a
// time and is not safe for concurrent use.
type StreamDecoder struct {
	t *Tokenizer
	// SkipSpecial drops special tokens from the text (the default).
	SkipSpecial bool

	ids     []int32 // context ids followed by the ids not yet settled
	ctx     int     // number of context ids at the front of ids
	emitted string  // text of ids already given out (context included)
}

// maxPending bounds the ids kept after the context while text is held
// back; see Next.
const maxPending = 16

// NewStreamDecoder returns a StreamDecoder that skips special tokens; set
// SkipSpecial to false before the first Next to keep them.
func (t *Tokenizer) NewStreamDecoder() *StreamDecoder {
	return &StreamDecoder{t: t, SkipSpecial: true}
}

// Next takes the next id and returns the text it completes, often "" while
// a multi-byte character is incomplete. Unknown ids are ignored.
func (d *StreamDecoder) Next(id int32) string {
	if !d.t.keep(int(id), d.SkipSpecial) {
		return ""
	}
	d.ids = append(d.ids, id)
	raw := d.t.decodeRaw(d.ids, d.SkipSpecial, stream)
	cut := completeLen(raw)
	out := d.advance(lossy(raw[:cut]))
	if cut == len(raw) {
		// A clean boundary: the ids after the old context become the new
		// context, and what they decode to is already given out.
		d.ids = append(d.ids[:0], d.ids[d.ctx:]...)
		d.ctx = len(d.ids)
		d.emitted = lossy(d.t.decodeRaw(d.ids, d.SkipSpecial, stream))
	} else if len(d.ids)-d.ctx > maxPending {
		d.reanchor()
	}
	return out
}

// reanchorKeep is how many of the last ids reanchor keeps: enough to hold
// the at most three bytes of an incomplete character.
const reanchorKeep = 4

// reanchor bounds the work of Next when the text keeps ending inside a
// character (a stream of bytes that never form one), so that no clean
// boundary moves the context: only the last ids are kept, decoded alone
// from now on, and what they decode to before the held-back bytes counts
// as given out.
func (d *StreamDecoder) reanchor() {
	d.ids = append(d.ids[:0], d.ids[len(d.ids)-reanchorKeep:]...)
	d.ctx = 0
	raw := d.t.decodeRaw(d.ids, d.SkipSpecial, stream)
	d.emitted = lossy(raw[:completeLen(raw)])
}

// Flush returns whatever is held back (incomplete bytes become U+FFFD) and
// resets the decoder for a new sequence.
func (d *StreamDecoder) Flush() string {
	out := ""
	if len(d.ids) > d.ctx {
		out = d.advance(d.t.Decode(d.ids, d.SkipSpecial))
	}
	d.ids, d.ctx, d.emitted = d.ids[:0], 0, ""
	return out
}

// advance returns the part of text beyond what was emitted and records it.
// Should a decoder rewrite earlier text, the text from the first changed
// character on is given out again.
func (d *StreamDecoder) advance(text string) string {
	if strings.HasPrefix(text, d.emitted) {
		out := text[len(d.emitted):]
		d.emitted = text
		return out
	}
	if len(text) <= len(d.emitted) {
		return ""
	}
	i := 0
	for i < len(d.emitted) && text[i] == d.emitted[i] {
		i++
	}
	for i > 0 && !utf8.RuneStart(text[i]) {
		i--
	}
	d.emitted = text
	return text[i:]
}
