package cli

import (
	"fmt"
	"os"
	"time"

	"github.com/spf13/pflag"

	"github.com/mlxrun/mlx/store"
	"github.com/mlxrun/mlx/store/conversations"
	"github.com/mlxrun/mlx/store/responses"
)

// storeFlags bound the in-memory stores of mlx serve: the responses of
// the Responses API and the conversations of the Conversations API.
type storeFlags struct {
	respEntries, convEntries int
	respTTL, convTTL         int // seconds
	respBytes, convBytes     int64
}

// storeEnv pairs each store flag with its environment variable.
var storeEnv = []struct{ flag, env string }{
	{"responses-store-max-entries", "MLX_RESPONSES_STORE_MAX_ENTRIES"},
	{"responses-store-ttl-secs", "MLX_RESPONSES_STORE_TTL_SECS"},
	{"responses-store-max-bytes", "MLX_RESPONSES_STORE_MAX_BYTES"},
	{"conversation-store-max-entries", "MLX_CONVERSATION_STORE_MAX_ENTRIES"},
	{"conversation-store-ttl-secs", "MLX_CONVERSATION_STORE_TTL_SECS"},
	{"conversation-store-max-bytes", "MLX_CONVERSATION_STORE_MAX_BYTES"},
}

// register adds the store flags to f.
func (s *storeFlags) register(f *pflag.FlagSet) {
	f.IntVar(&s.respEntries, "responses-store-max-entries", responses.DefaultMaxEntries, "most responses kept for retrieval and previous_response_id (0: keep none)")
	f.IntVar(&s.respTTL, "responses-store-ttl-secs", int(responses.DefaultTTL/time.Second), "seconds a stored response lives (0: until evicted)")
	f.Int64Var(&s.respBytes, "responses-store-max-bytes", responses.DefaultMaxBytes, "byte budget of the stored responses (0: no budget)")
	f.IntVar(&s.convEntries, "conversation-store-max-entries", conversations.DefaultMaxEntries, "most conversations kept (0: no Conversations API)")
	f.IntVar(&s.convTTL, "conversation-store-ttl-secs", int(conversations.DefaultTTL/time.Second), "seconds a conversation lives after its last change (0: until evicted)")
	f.Int64Var(&s.convBytes, "conversation-store-max-bytes", conversations.DefaultMaxBytes, "byte budget of the conversations (0: no budget)")
}

// fromEnv applies the MLX_*_STORE_* variables where the flags were not
// given.
func (s *storeFlags) fromEnv(f *pflag.FlagSet) error {
	for _, e := range storeEnv {
		v := os.Getenv(e.env)
		if v == "" || f.Changed(e.flag) {
			continue
		}
		if err := f.Set(e.flag, v); err != nil {
			return fmt.Errorf("%s=%q: not a whole number: %w", e.env, v, err)
		}
	}
	return nil
}

// options returns the bounds of the response and conversation stores.
func (s *storeFlags) options() (resp, conv store.Options, err error) {
	for _, v := range []struct {
		flag string
		n    int64
	}{
		{"responses-store-max-entries", int64(s.respEntries)}, {"responses-store-ttl-secs", int64(s.respTTL)},
		{"responses-store-max-bytes", s.respBytes}, {"conversation-store-max-entries", int64(s.convEntries)},
		{"conversation-store-ttl-secs", int64(s.convTTL)}, {"conversation-store-max-bytes", s.convBytes},
	} {
		if v.n < 0 {
			return resp, conv, fmt.Errorf("--%s is %d: it must be 0 or more", v.flag, v.n)
		}
	}
	resp = store.Options{MaxEntries: s.respEntries, TTL: time.Duration(s.respTTL) * time.Second, MaxBytes: s.respBytes}
	conv = store.Options{MaxEntries: s.convEntries, TTL: time.Duration(s.convTTL) * time.Second, MaxBytes: s.convBytes}
	return resp, conv, nil
}
