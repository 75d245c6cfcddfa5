package hub

import (
	"crypto/sha1"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"hash"
	"io"
	"os"
	"strings"
)

// verifyBlob checks a downloaded file against its size and etag: the sha256
// of an LFS file, or the git blob sha1 of a small file. Other etags (from a
// mirror) are not hashes and only the size is checked.
func verifyBlob(path, file string, m fileMeta) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return err
	}
	if m.Size >= 0 && st.Size() != m.Size {
		return fmt.Errorf("%s: %d bytes downloaded, the hub announced %d: %w", file, st.Size(), m.Size, ErrChecksum)
	}
	want := strings.ToLower(m.ETag)
	var h hash.Hash
	kind := "sha256"
	switch len(want) {
	case 64:
		h = sha256.New()
	case 40:
		h, kind = sha1.New(), "git sha1"
		fmt.Fprintf(h, "blob %d\x00", st.Size())
	}
	if !verifiable(want) {
		return nil
	}
	if _, err := io.Copy(h, f); err != nil {
		return fmt.Errorf("%s: reading for the checksum: %w", path, err)
	}
	if got := hex.EncodeToString(h.Sum(nil)); got != want {
		return fmt.Errorf("%s: %s is %s, the hub says %s: %w", file, kind, got, want, ErrChecksum)
	}
	return nil
}

// verifiable reports whether an ETag is a checksum verifyBlob can check: a
// sha256 (LFS files) or a git blob sha1 (small files).
func verifiable(etag string) bool {
	return (len(etag) == 64 || len(etag) == 40) && isHex(strings.ToLower(etag))
}
