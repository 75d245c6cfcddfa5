package store

import (
	"encoding/hex"
	"strings"
	"testing"
)

func TestNewID(t *testing.T) {
	seen := make(map[string]bool)
	for _, prefix := range []string{PrefixResponse, PrefixConversation, PrefixMessage} {
		for range 1000 {
			id := NewID(prefix)
			rest, ok := strings.CutPrefix(id, prefix+"_")
			if !ok {
				t.Fatalf("NewID(%q) = %q: no prefix", prefix, id)
			}
			if raw, err := hex.DecodeString(rest); err != nil || len(raw) != idBytes || strings.ToLower(rest) != rest {
				t.Fatalf("NewID(%q) = %q: not %d lowercase hex bytes", prefix, id, idBytes)
			}
			if seen[id] {
				t.Fatalf("NewID repeated %q", id)
			}
			seen[id] = true
		}
	}
}
