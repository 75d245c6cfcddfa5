package cli

import (
	"fmt"
	"os"

	"github.com/spf13/pflag"

	"github.com/mlxrun/mlx/runtime/kvcache"
)

// kvTypeEnv is the environment form of --kv-type.
const kvTypeEnv = "MLX_KV_TYPE"

// addKVTypeFlag adds --kv-type to f, with the one help text of every
// command that loads a model.
func addKVTypeFlag(f *pflag.FlagSet, dst *string) {
	f.StringVar(dst, "kv-type", "f16", "KV cache type: f16, f32, q8_0 (about half the memory of f16) or q4_0 (about a quarter) (env "+kvTypeEnv+")")
}

// kvTypeFromEnv sets --kv-type from MLX_KV_TYPE where the flag was not
// given, and checks it before a model is loaded.
func kvTypeFromEnv(f *pflag.FlagSet) error {
	if v := os.Getenv(kvTypeEnv); v != "" && !f.Changed("kv-type") {
		if err := f.Set("kv-type", v); err != nil {
			return fmt.Errorf("%s=%q: %w", kvTypeEnv, v, err)
		}
	}
	s, err := f.GetString("kv-type")
	if err != nil {
		return err
	}
	if _, err := kvcache.ParseType(s); err != nil {
		return fmt.Errorf("--kv-type: %w", err)
	}
	return nil
}
