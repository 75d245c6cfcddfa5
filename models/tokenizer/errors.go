package tokenizer

import "errors"

// Sentinel errors, wrapped with the file and the detail.
var (
	// ErrFormat marks a tokenizer file that cannot be parsed or is inconsistent.
	ErrFormat = errors.New("malformed tokenizer")
	// ErrUnsupported marks a valid tokenizer that uses a feature this package
	// does not implement (for example a WordPiece or Unigram model).
	ErrUnsupported = errors.New("unsupported tokenizer")
)
