package jinja

// node is a statement of the template body.
type node interface{ line() int }

// expr is an expression.
type expr interface{ line() int }

type pos struct{ ln int }

func (p pos) line() int { return p.ln }

// Statements.
type (
	textNode struct {
		pos
		text string
	}
	outputNode struct {
		pos
		x expr
	}
	ifNode struct {
		pos
		conds  []expr
		bodies [][]node
		else_  []node
	}
	forNode struct {
		pos
		target    expr // *nameExpr or *tupleExpr of names
		iter      expr
		filter    expr // optional "if" condition
		body      []node
		else_     []node
		recursive bool
	}
	setNode struct {
		pos
		target expr // *nameExpr, *tupleExpr or *nsRefExpr
		value  expr
	}
	// filteredBody is a body whose rendered text goes through filters.
	filteredBody struct {
		filters []*filterExpr // applied to the captured text, innermost first
		body    []node
	}
	setBlockNode struct {
		pos
		target expr
		filteredBody
	}
	macroNode struct {
		pos
		name     string
		params   []string
		defaults []expr // for the last len(defaults) params
		body     []node
		varargs  bool // the body uses varargs
		kwargs   bool // the body uses kwargs
		caller   bool // the body uses caller
	}
	callBlockNode struct {
		pos
		call  *callExpr
		macro *macroNode // the caller
	}
	filterBlockNode struct {
		pos
		filteredBody
	}
	withNode struct {
		pos
		targets []expr
		values  []expr
		body    []node
	}
	scopeNode struct { // {% block %} and {% generation %}: a body in a new scope
		pos
		body []node
	}
	seqNode struct { // statements run in the current scope ({% print a, b %})
		pos
		body []node
	}
	loopControl struct {
		pos
		brk bool
	}
	unsupportedNode struct { // include, import, extends, autoescape: fail when run
		pos
		what string
	}
)

// Expressions.
type (
	constExpr struct {
		pos
		v Value
	}
	nameExpr struct {
		pos
		name string
	}
	nsRefExpr struct {
		pos
		name, attr string
	}
	getattrExpr struct {
		pos
		x    expr
		attr string
	}
	getitemExpr struct {
		pos
		x, key expr
	}
	sliceExpr struct {
		pos
		start, stop, step expr // nil when omitted
	}
	callArgs struct {
		args      []expr
		kwNames   []string
		kwValues  []expr
		dynArgs   expr
		dynKwargs expr
	}
	callExpr struct {
		pos
		fn expr
		callArgs
	}
	filterExpr struct {
		pos
		x    expr // nil in filter blocks and set blocks
		name string
		fn   filterFunc
		callArgs
	}
	testExpr struct {
		pos
		x    expr
		name string
		fn   testFunc
		callArgs
	}
	unaryExpr struct {
		pos
		op string // "-", "+", "not"
		x  expr
	}
	binaryExpr struct {
		pos
		op   string // + - * / // % ** and or
		l, r expr
	}
	concatExpr struct {
		pos
		parts []expr
	}
	compareExpr struct {
		pos
		first expr
		ops   []string // == != < <= > >= in notin
		rest  []expr
	}
	condExpr struct {
		pos
		test, then, else_ expr // else_ may be nil
	}
	listExpr struct {
		pos
		items []expr
	}
	tupleExpr struct {
		pos
		items []expr
	}
	dictExpr struct {
		pos
		keys, values []expr
	}
)
