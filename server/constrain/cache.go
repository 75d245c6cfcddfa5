package constrain

import (
	"encoding/json"
	"fmt"

	"github.com/mlxrun/mlx/runtime/grammar"
	"github.com/mlxrun/mlx/store"
)

// Bounds of a Cache.
const (
	CacheEntries = 64       // grammars kept
	CacheBytes   = 32 << 20 // their estimated size
)

// Cache compiles Specs into grammars and keeps the most recently used
// ones, keyed by the whole Spec (schemas and grammars by their text), so
// that repeated requests do not compile again. Failures are kept too. It
// is safe for concurrent use.
type Cache struct {
	s *store.Store[string, cached]
}

type cached struct {
	g   *grammar.Grammar
	err error
}

// NewCache returns an empty cache.
func NewCache() *Cache {
	return &Cache{s: store.New[string, cached](store.Options{MaxEntries: CacheEntries, MaxBytes: CacheBytes})}
}

// Grammar returns the compiled grammar of s; nil when s is empty. Errors
// are *Error for a bad grammar or schema, else wrap ErrSpec.
func (c *Cache) Grammar(s *Spec) (*grammar.Grammar, error) {
	if s.Empty() {
		return nil, nil
	}
	k, err := json.Marshal(s)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrSpec, err) // a schema that is not JSON
	}
	key := string(k)
	if v, ok := c.s.Get(key); ok {
		return v.g, v.err
	}
	src, err := Build(s)
	var g *grammar.Grammar
	if err == nil {
		g, err = grammar.Parse(src)
		if err != nil {
			err = compileError(s, err)
		}
	}
	// A compiled grammar takes a few times its source; a put that does
	// not fit just leaves it uncached.
	_ = c.s.Put(key, cached{g: g, err: err}, int64(len(key)+4*len(src)))
	return g, err
}

// Stats returns the cache's counters (hits, misses, entries, bytes).
func (c *Cache) Stats() store.Stats { return c.s.Stats() }

// compileError names the part of s that a failure of the whole grammar
// comes from: the only part there is, or the schema.
func compileError(s *Spec, err error) error {
	switch {
	case s.Grammar != "":
		return &Error{Part: PartGrammar, Err: err}
	case !s.calls():
		return &Error{Part: PartSchema, Err: err}
	case len(s.Tools) == 1 && !s.JSON:
		return &Error{Part: PartTool, Err: err}
	}
	return fmt.Errorf("%w: the grammar of the output format and the tools: %w", ErrSpec, err)
}
