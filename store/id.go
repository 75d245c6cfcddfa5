package store

import (
	"crypto/rand"
	"encoding/hex"
)

// Id prefixes of the objects the stores hold, in the OpenAI style.
const (
	PrefixResponse     = "resp"
	PrefixConversation = "conv"
	PrefixMessage      = "msg"
)

// idBytes is the random part of an id: 24 bytes, 48 hex digits, 192 bits.
const idBytes = 24

// NewID returns prefix, an underscore and 48 random lowercase hex digits
// from crypto/rand, such as "resp_3f9a…".
func NewID(prefix string) string {
	var raw [idBytes]byte
	rand.Read(raw[:]) // never fails; it crashes the program if the OS cannot supply randomness
	buf := make([]byte, len(prefix)+1+2*idBytes)
	n := copy(buf, prefix)
	buf[n] = '_'
	hex.Encode(buf[n+1:], raw[:])
	return string(buf)
}
