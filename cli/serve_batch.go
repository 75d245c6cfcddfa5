package cli

import (
	"fmt"
	"os"
	"strconv"
	"strings"

	"github.com/spf13/pflag"

	"github.com/mlxrun/mlx/runtime"
)

// batchFlags are the flags of mlx serve that size the engine for many
// users at once: running sequences, waiting requests, the token budget of
// a step and the KV cache memory.
type batchFlags struct {
	parallel, maxQueue, batchTokens int
	kvMem                           string
}

// batchEnv pairs each batch flag with its environment variable.
var batchEnv = []struct{ flag, env string }{
	{"parallel", "MLX_PARALLEL"},
	{"max-queue", "MLX_MAX_QUEUE"},
	{"batch-tokens", "MLX_BATCH_TOKENS"},
	{"kv-cache-mem", "MLX_KV_CACHE_MEM"},
}

// defaultParallel is how many sequences mlx serve runs at once.
const defaultParallel = 4

// register adds the batch flags to f.
func (b *batchFlags) register(f *pflag.FlagSet) {
	f.IntVar(&b.parallel, "parallel", defaultParallel, "sequences generated at once, sharing each read of the weights (env MLX_PARALLEL)")
	f.IntVar(&b.maxQueue, "max-queue", runtime.DefaultQueue, "requests that may wait beyond --parallel; more get 429 (env MLX_MAX_QUEUE)")
	f.IntVar(&b.batchTokens, "batch-tokens", runtime.DefaultBatch, "tokens of one forward pass: one per running sequence plus a chunk of a prompt (env MLX_BATCH_TOKENS)")
	f.StringVar(&b.kvMem, "kv-cache-mem", "", "KV cache memory shared by all sequences, e.g. 512MiB or 2GB (env MLX_KV_CACHE_MEM; default: --ctx × --parallel tokens)")
}

// fromEnv applies the variables of batchEnv where the flags were not given.
func (b *batchFlags) fromEnv(f *pflag.FlagSet) error {
	for _, e := range batchEnv {
		v := os.Getenv(e.env)
		if v == "" || f.Changed(e.flag) {
			continue
		}
		if err := f.Set(e.flag, v); err != nil {
			return fmt.Errorf("%s=%q: %w", e.env, v, err)
		}
	}
	return nil
}

// apply checks the flags and sets them in o.
func (b *batchFlags) apply(o *runtime.Options) error {
	for _, v := range []struct {
		flag    string
		n, most int
	}{
		{"parallel", b.parallel, runtime.MaxParallel}, {"max-queue", b.maxQueue, 1 << 20}, {"batch-tokens", b.batchTokens, 1 << 16},
	} {
		if v.n < 1 || v.n > v.most {
			return fmt.Errorf("--%s is %d: it must be between 1 and %d", v.flag, v.n, v.most)
		}
	}
	o.Parallel, o.Queue, o.Batch = b.parallel, b.maxQueue, b.batchTokens
	if b.kvMem == "" {
		return nil
	}
	n, err := parseBytes(b.kvMem)
	if err != nil {
		return fmt.Errorf("--kv-cache-mem: %w", err)
	}
	o.KVMem = n
	return nil
}

// byteUnits are the suffixes parseBytes knows, longest first.
var byteUnits = []struct {
	suffix string
	mult   int64
}{
	{"KiB", 1 << 10}, {"MiB", 1 << 20}, {"GiB", 1 << 30}, {"TiB", 1 << 40},
	{"KB", 1e3}, {"MB", 1e6}, {"GB", 1e9}, {"TB", 1e12},
	{"K", 1 << 10}, {"M", 1 << 20}, {"G", 1 << 30}, {"T", 1 << 40}, {"B", 1},
}

// parseBytes reads a size: a whole number of bytes, or a number with a
// unit (KiB, MiB, GiB, TiB; KB, MB, GB, TB; K, M, G, T as binary units).
func parseBytes(s string) (int64, error) {
	num, mult := strings.TrimSpace(s), int64(1)
	for _, u := range byteUnits {
		if rest, ok := strings.CutSuffix(num, u.suffix); ok {
			num, mult = strings.TrimSpace(rest), u.mult
			break
		}
	}
	x, err := strconv.ParseFloat(num, 64)
	if err != nil || x <= 0 || x*float64(mult) > 1<<50 {
		return 0, fmt.Errorf("%q is not a size such as 512MiB or 2GB", s)
	}
	return int64(x * float64(mult)), nil
}
