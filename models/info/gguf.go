package info

import (
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"strconv"

	"github.com/mlxrun/mlx/models/config"
	"github.com/mlxrun/mlx/models/gguf"
)

// shardName matches one file of a split GGUF model, as llama.cpp's
// gguf-split names them.
var shardName = regexp.MustCompile(`^(.*)-(\d{5})-of-(\d{5})\.gguf$`)

// maxShards bounds the files of a split GGUF model.
const maxShards = 1024

// loadGGUF describes a GGUF model: metadata from its (first) file, tensors
// from all its files.
func loadGGUF(path string) (*Info, error) {
	paths, err := ggufShards(path)
	if err != nil {
		return nil, err
	}
	f, err := gguf.Open(paths[0])
	if err != nil {
		return nil, err
	}
	defer f.Close()
	in := &Info{Format: FormatGGUF, TensorTypes: map[string]int{}, first: paths[0]}
	elems := map[string]int64{}
	in.addGGUFTensors(f, elems)
	for _, p := range paths[1:] {
		g, err := gguf.Open(p)
		if err != nil {
			return nil, err
		}
		in.addGGUFTensors(g, elems)
		g.Close()
	}
	for _, p := range paths {
		st, err := os.Stat(p)
		if err != nil {
			return nil, err
		}
		in.Files = append(in.Files, File{Name: filepath.Base(p), Size: st.Size()})
	}
	m, err := config.FromGGUF(f)
	switch {
	case err == nil:
		in.setModel(m)
	case errors.Is(err, config.ErrUnsupported):
		in.ggufRaw(f)
		in.warn("%v", err)
	default:
		return nil, err
	}
	in.Quantization = ggufQuant(f, elems)
	if g, err := config.GenerationFromGGUF(f); err != nil {
		in.warn("generation defaults: %v", err)
	} else {
		in.Generation = generationOf(g)
	}
	if in.License, in.LicenseOrigin = ggufLicense(f); in.License == "" {
		in.License, in.LicenseOrigin = folderLicense(filepath.Dir(path))
	}
	return in, nil
}

// ggufShards returns the files of the model path belongs to: path alone, or
// every part of a split model, in order. A missing part is an error.
func ggufShards(path string) ([]string, error) {
	m := shardName.FindStringSubmatch(filepath.Base(path))
	if m == nil {
		return []string{path}, nil
	}
	n, _ := strconv.Atoi(m[3])
	if n < 1 || n > maxShards {
		return nil, fmt.Errorf("%w: %s: a split of %d files (at most %d)", ErrNotModel, path, n, maxShards)
	}
	dir := filepath.Dir(path)
	paths := make([]string, n)
	for i := range paths {
		paths[i] = filepath.Join(dir, fmt.Sprintf("%s-%05d-of-%s.gguf", m[1], i+1, m[3]))
		if !fileExists(paths[i]) {
			return nil, fmt.Errorf("%w: %s: part %d of %d (%s) is missing", ErrNotModel, path, i+1, n, filepath.Base(paths[i]))
		}
	}
	return paths, nil
}

// addGGUFTensors counts the tensors of f by type, and their elements.
func (in *Info) addGGUFTensors(f *gguf.File, elems map[string]int64) {
	for i := range f.Tensors {
		t := &f.Tensors[i]
		name := t.Type.String()
		n := int64(min(t.Elements(), math.MaxInt64/2))
		in.TensorTypes[name]++
		elems[name] = addSat(elems[name], n)
		in.Parameters = addSat(in.Parameters, n)
		in.countExpertTensor(t.Name, n)
	}
}

// ggufRaw reads the sizes of a model whose architecture config does not
// know, straight from the {arch}.* keys.
func (in *Info) ggufRaw(f *gguf.File) {
	arch, _ := f.String("general.architecture")
	in.Architecture, in.ArchitectureName = arch, arch
	in.Name, _ = f.String("general.name")
	get := func(key string) int {
		if v, ok := f.Uint(arch + "." + key); ok && v <= math.MaxInt32 {
			return int(v)
		}
		return 0
	}
	in.ContextLength, in.EmbeddingLength = get("context_length"), get("embedding_length")
	in.FeedForwardLength, in.Layers = get("feed_forward_length"), get("block_count")
	in.Heads, in.KVHeads, in.HeadDim = get("attention.head_count"), get("attention.head_count_kv"), get("attention.key_length")
	if n := get("expert_count"); n > 0 {
		in.Experts = &Experts{Count: n, Used: get("expert_used_count"), FFNLength: get("expert_feed_forward_length"),
			SharedFFNLength: get("expert_shared_feed_forward_length")}
	}
	if in.VocabSize = get("vocab_size"); in.VocabSize == 0 {
		if v, ok := f.Lookup("tokenizer.ggml.tokens"); ok {
			in.VocabSize = v.Len()
		}
	}
	if v, ok := f.Float(arch + ".rope.freq_base"); ok {
		in.RopeTheta = float32(v)
	}
}

// ggufQuant names the quantization from general.file_type, else from the
// tensor type holding the most elements.
func ggufQuant(f *gguf.File, elems map[string]int64) string {
	if ft, ok := f.Uint("general.file_type"); ok {
		if name, ok := fileTypes[ft&^ftypeGuessed]; ok {
			return name
		}
	}
	return dominant(elems)
}

// ggufLicense reads general.license (and general.license.name for "other").
func ggufLicense(f *gguf.File) (license, origin string) {
	license, _ = f.String("general.license")
	name, _ := f.String("general.license.name")
	switch {
	case license == "" && name == "":
		return "", ""
	case license == "":
		license = name
	case name != "" && name != license:
		license += " (" + name + ")"
	}
	return license, "general.license"
}

// dominant returns the key with the largest count; ties go to the first name.
func dominant(counts map[string]int64) string {
	best, most := "", int64(-1)
	for name, n := range counts {
		if n > most || (n == most && name < best) {
			best, most = name, n
		}
	}
	return best
}

// addSat adds two non-negative counts, saturating instead of overflowing.
func addSat(a, b int64) int64 {
	if a > math.MaxInt64-b {
		return math.MaxInt64
	}
	return a + b
}
