package hubtest

import (
	"bytes"
	"crypto/sha1"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"hash"
	"io"
	"os"
	"path"
	"strings"
)

// lfsLimit is the size from which the hub stores any file in LFS.
const lfsLimit = 10 << 20

// lfsExt are the extensions the hub's default .gitattributes sends to LFS.
var lfsExt = []string{".safetensors", ".gguf", ".bin", ".model", ".pt", ".pth", ".onnx", ".msgpack", ".h5"}

// blob is the content of one file, in memory or on disk.
type blob struct {
	data    []byte
	file    string
	size    int64
	sha256  string
	gitSHA1 string // sha1 of "blob <size>\0" + content, the git object id
	lfs     bool
}

func memBlob(name string, data []byte) *blob {
	b := &blob{data: data, size: int64(len(data))}
	b.hash(bytes.NewReader(data))
	b.lfs = isLFS(name, b.size)
	return b
}

func fileBlob(name, file string) (*blob, error) {
	f, err := os.Open(file)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, err
	}
	b := &blob{file: file, size: st.Size()}
	if err := b.hash(f); err != nil {
		return nil, fmt.Errorf("hubtest: %s: %w", file, err)
	}
	b.lfs = isLFS(name, b.size)
	return b, nil
}

func (b *blob) hash(r io.Reader) error {
	s256, s1 := sha256.New(), sha1.New()
	fmt.Fprintf(s1, "blob %d\x00", b.size)
	if _, err := io.Copy(io.MultiWriter(s256, s1), r); err != nil {
		return err
	}
	b.sha256, b.gitSHA1 = sum(s256), sum(s1)
	return nil
}

// etag is what the hub names the file by: sha256 for LFS, else the git id.
func (b *blob) etag() string {
	if b.lfs {
		return b.sha256
	}
	return b.gitSHA1
}

// open returns the content for reading.
func (b *blob) open() (io.ReadSeekCloser, error) {
	if b.file != "" {
		return os.Open(b.file)
	}
	return nopCloser{bytes.NewReader(b.data)}, nil
}

type nopCloser struct{ io.ReadSeeker }

func (nopCloser) Close() error { return nil }

func isLFS(name string, size int64) bool {
	ext := strings.ToLower(path.Ext(name))
	for _, e := range lfsExt {
		if ext == e {
			return true
		}
	}
	return size >= lfsLimit
}

func sum(h hash.Hash) string { return hex.EncodeToString(h.Sum(nil)) }
