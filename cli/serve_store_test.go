package cli

import (
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/spf13/pflag"

	"github.com/mlxrun/mlx/store"
	"github.com/mlxrun/mlx/store/conversations"
	"github.com/mlxrun/mlx/store/responses"
)

func TestStoreFlags(t *testing.T) {
	cases := []struct {
		name       string
		args       []string
		env        map[string]string
		resp, conv store.Options
		err        string
	}{
		{name: "defaults", resp: responses.DefaultOptions(), conv: conversations.DefaultOptions()},
		{name: "flags", args: []string{"--responses-store-max-entries=5", "--responses-store-ttl-secs=0", "--responses-store-max-bytes=1000",
			"--conversation-store-max-entries=0", "--conversation-store-ttl-secs=60", "--conversation-store-max-bytes=0"},
			resp: store.Options{MaxEntries: 5, MaxBytes: 1000}, conv: store.Options{TTL: time.Minute}},
		{name: "environment", env: map[string]string{"MLX_RESPONSES_STORE_MAX_ENTRIES": "7", "MLX_RESPONSES_STORE_TTL_SECS": "30",
			"MLX_RESPONSES_STORE_MAX_BYTES": "99", "MLX_CONVERSATION_STORE_MAX_ENTRIES": "3", "MLX_CONVERSATION_STORE_TTL_SECS": "10",
			"MLX_CONVERSATION_STORE_MAX_BYTES": "11"},
			resp: store.Options{MaxEntries: 7, TTL: 30 * time.Second, MaxBytes: 99}, conv: store.Options{MaxEntries: 3, TTL: 10 * time.Second, MaxBytes: 11}},
		{name: "flag over environment", args: []string{"--responses-store-max-entries=2"}, env: map[string]string{"MLX_RESPONSES_STORE_MAX_ENTRIES": "9"},
			resp: store.Options{MaxEntries: 2, TTL: responses.DefaultTTL, MaxBytes: responses.DefaultMaxBytes}, conv: conversations.DefaultOptions()},
		{name: "bad environment", env: map[string]string{"MLX_CONVERSATION_STORE_TTL_SECS": "1h"}, err: "MLX_CONVERSATION_STORE_TTL_SECS"},
		{name: "negative", args: []string{"--responses-store-max-bytes=-1"}, err: "--responses-store-max-bytes"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			for _, e := range storeEnv {
				t.Setenv(e.env, c.env[e.env])
			}
			var s storeFlags
			f := pflag.NewFlagSet("serve", pflag.ContinueOnError)
			s.register(f)
			if err := f.Parse(c.args); err != nil {
				t.Fatal(err)
			}
			err := s.fromEnv(f)
			var resp, conv store.Options
			if err == nil {
				resp, conv, err = s.options()
			}
			if c.err != "" {
				if err == nil || !strings.Contains(err.Error(), c.err) {
					t.Errorf("error %v, want one naming %s", err, c.err)
				}
				return
			}
			if err != nil || !reflect.DeepEqual(resp, c.resp) || !reflect.DeepEqual(conv, c.conv) {
				t.Errorf("got %+v %+v (%v), want %+v %+v", resp, conv, err, c.resp, c.conv)
			}
		})
	}
}
