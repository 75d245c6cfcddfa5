package grammar

import "errors"

// Errors returned (wrapped) by this package.
var (
	// ErrSyntax reports a grammar that does not parse.
	ErrSyntax = errors.New("grammar syntax error")
	// ErrInvalid reports a grammar that parses but cannot be used: an
	// undefined or missing rule, left recursion, a bad repetition.
	ErrInvalid = errors.New("invalid grammar")
	// ErrTooComplex reports a grammar or a state past the package's bounds
	// (rules, elements, stacks per state, nesting depth).
	ErrTooComplex = errors.New("grammar too complex")
	// ErrRejected reports a token that the grammar does not allow here.
	ErrRejected = errors.New("token not allowed by the grammar")
	// ErrMaskSize reports a mask buffer shorter than the vocabulary.
	ErrMaskSize = errors.New("mask buffer too small for the vocabulary")
)

// Bounds on grammars and matcher states.
const (
	maxRules     = 1 << 16 // rules, synthetic ones included
	maxElems     = 1 << 20 // elements of all alternatives
	maxRepeat    = 1 << 12 // the m and n of x{m,n}
	maxStacks    = 1 << 12 // stacks in one matcher state
	maxDepth     = 512     // depth of one stack
	maxNest      = 256     // parentheses open at once in the source
	maxExpand    = 1 << 16 // expansion steps to compute one state
	maxNodes     = 1 << 18 // interned stack nodes before a cache reset
	maxStates    = 1 << 14 // interned states before a cache reset
	hardNodes    = 1 << 20 // interned stack nodes within one call
	hardStates   = 1 << 16 // interned states within one call
	maxSourceLen = 4 << 20 // bytes of grammar source
)
