package jinja

import (
	"context"
	"errors"
	"unsafe"
)

type renderer struct {
	ctx       context.Context
	name      string
	globals   *scope
	out       *output
	steps     int64
	maxSteps  int64
	maxOutput int
	maxDepth  int
	mem       int64 // bytes of strings, lists and dicts built so far
	maxMem    int64
	depth     int
	nest      int // eval and exec frames in progress
}

// maxNest bounds nested evaluation (expressions within statements within
// macro calls), which keeps the Go stack small.
const maxNest = 3000

func newRenderer(ctx context.Context, name string, o *Options) *renderer {
	if o == nil {
		o = &Options{}
	}
	r := &renderer{ctx: ctx, name: name, maxSteps: o.MaxSteps, maxOutput: o.MaxOutput, maxDepth: o.MaxCallDepth}
	if r.maxSteps <= 0 {
		r.maxSteps = DefaultMaxSteps
	}
	if r.maxOutput <= 0 {
		r.maxOutput = DefaultMaxOutput
	}
	if r.maxDepth <= 0 {
		r.maxDepth = DefaultMaxCallDepth
	}
	if r.maxMem = o.MaxMemory; r.maxMem <= 0 {
		r.maxMem = DefaultMaxMemory
	}
	if r.ctx == nil {
		r.ctx = context.Background()
	}
	r.globals = newScope(nil)
	for name, v := range builtinGlobals {
		r.globals.set(name, v)
	}
	for name, v := range o.Globals {
		r.globals.set(name, v)
	}
	return r
}

// step charges n units of work and checks the budget and the context.
func (r *renderer) step(n int64) error {
	r.steps += n
	if r.steps > r.maxSteps {
		return limitErr("template exceeded %d steps of work", r.maxSteps)
	}
	if r.steps&0x3ff < n || n > 0x3ff {
		if err := r.ctx.Err(); err != nil {
			return err
		}
	}
	return nil
}

// checkLen rejects a string or list of n bytes or elements before it is
// built, and charges the copy. Strings are charged to the memory budget
// here; lists through useItems.
func (r *renderer) checkLen(n int) error {
	if n > r.maxOutput {
		return limitErr("value of %d bytes or items exceeds the %d limit", n, r.maxOutput)
	}
	if err := r.useMem(int64(n)); err != nil {
		return err
	}
	return r.step(int64(n / 64))
}

// valueSize is the bytes one element of a list, tuple or dict takes.
const valueSize = int64(unsafe.Sizeof(Value{}))

// checkItems rejects a list of n elements past the size of any one value
// before it is built, and charges it.
func (r *renderer) checkItems(n int) error {
	if n > r.maxOutput {
		return limitErr("list of %d items exceeds the %d limit", n, r.maxOutput)
	}
	return r.useItems(n)
}

// useItems charges n list, tuple or dict elements about to be built to
// the memory budget and to the step budget.
func (r *renderer) useItems(n int) error {
	if err := r.useMem(int64(n) * valueSize); err != nil {
		return err
	}
	return r.step(int64(n / 64))
}

// useMem charges n bytes about to be allocated to the render's memory
// budget. The budget counts everything a render builds, garbage included,
// so it bounds the memory a render can hold at any time.
func (r *renderer) useMem(n int64) error {
	if n < 0 || n > r.maxMem-r.mem {
		return limitErr("template would use more than %d bytes of memory (strings, lists and dicts)", r.maxMem)
	}
	r.mem += n
	return nil
}

type ctrl uint8

const (
	ctrlNone ctrl = iota
	ctrlBreak
	ctrlContinue
)

// atLine sets the line of an error that does not have one yet.
func atLine(err error, line int) error {
	var e *Error
	if errors.As(err, &e) && e.Line == 0 {
		e.Line = line
	}
	return err
}

func (r *renderer) execBody(body []node, sc *scope) (ctrl, error) {
	for _, n := range body {
		c, err := r.exec(n, sc)
		if err != nil {
			return ctrlNone, atLine(err, n.line())
		}
		if c != ctrlNone {
			return c, nil
		}
	}
	return ctrlNone, nil
}

func (r *renderer) exec(n node, sc *scope) (ctrl, error) {
	if err := r.step(1); err != nil {
		return ctrlNone, err
	}
	if r.nest++; r.nest > maxNest {
		return ctrlNone, newErr(ErrLimit, "RecursionError", "maximum recursion depth exceeded (%d nested evaluations)", maxNest)
	}
	defer func() { r.nest-- }()
	switch t := n.(type) {
	case *textNode:
		return ctrlNone, r.out.write(t.text)
	case *outputNode:
		v, err := r.eval(t.x, sc)
		if err != nil {
			return ctrlNone, err
		}
		return ctrlNone, r.out.write(r.str(v))
	case *ifNode:
		for i, c := range t.conds {
			v, err := r.eval(c, sc)
			if err != nil {
				return ctrlNone, err
			}
			if truth(v) {
				return r.execBody(t.bodies[i], sc)
			}
		}
		return r.execBody(t.else_, sc)
	case *forNode:
		return ctrlNone, r.execFor(t, sc)
	case *setNode:
		v, err := r.eval(t.value, sc)
		if err != nil {
			return ctrlNone, err
		}
		return ctrlNone, r.assign(t.target, v, sc)
	case *setBlockNode:
		v, err := r.renderFiltered(&t.filteredBody, sc)
		if err != nil {
			return ctrlNone, err
		}
		return ctrlNone, r.assign(t.target, v, sc)
	case *macroNode:
		sc.set(t.name, Value{kind: KindObject, ref: &macroObj{m: t, scope: sc}})
		return ctrlNone, nil
	case *callBlockNode:
		return ctrlNone, r.execCallBlock(t, sc)
	case *filterBlockNode:
		v, err := r.renderFiltered(&t.filteredBody, sc)
		if err != nil {
			return ctrlNone, err
		}
		return ctrlNone, r.out.write(r.str(v))
	case *withNode:
		inner := newScope(sc)
		for i, x := range t.values {
			v, err := r.eval(x, sc)
			if err != nil {
				return ctrlNone, err
			}
			if err := r.assign(t.targets[i], v, inner); err != nil {
				return ctrlNone, err
			}
		}
		return r.execBody(t.body, inner)
	case *scopeNode:
		return r.execBody(t.body, newScope(sc))
	case *seqNode:
		return r.execBody(t.body, sc)
	case *loopControl:
		if t.brk {
			return ctrlBreak, nil
		}
		return ctrlContinue, nil
	case *unsupportedNode:
		return ctrlNone, runtimeErr("the '%s' tag is not supported: templates are rendered without a loader or autoescaping", t.what)
	}
	return ctrlNone, runtimeErr("unknown statement %T", n)
}

// capture renders body into a string.
func (r *renderer) capture(body []node, sc *scope) (string, error) {
	return r.captureFunc(func() error {
		_, err := r.execBody(body, sc)
		return err
	})
}

// renderFiltered renders the body of a filter block or set block in a new
// scope and applies its filters to the text.
func (r *renderer) renderFiltered(b *filteredBody, sc *scope) (Value, error) {
	s, err := r.capture(b.body, newScope(sc))
	if err != nil {
		return Value{}, err
	}
	v := String(s)
	for _, f := range b.filters {
		if v, err = r.callFilter(f, v, sc); err != nil {
			return Value{}, err
		}
	}
	return v, nil
}

// assign binds a set/for/with target.
func (r *renderer) assign(target expr, v Value, sc *scope) error {
	switch t := target.(type) {
	case *nameExpr:
		sc.set(t.name, v)
		return nil
	case *nsRefExpr:
		nv, _ := sc.lookup(t.name)
		ns, ok := nv.ref.(*namespace)
		if !ok || nv.kind != KindObject {
			return runtimeErr("cannot assign attribute on non-namespace object")
		}
		ns.d.Set(t.attr, v)
		return nil
	case *tupleExpr:
		items, err := r.unpack(v, len(t.items))
		if err != nil {
			return err
		}
		for i, it := range t.items {
			if err := r.assign(it, items[i], sc); err != nil {
				return err
			}
		}
		return nil
	}
	return runtimeErr("cannot assign to %T", target)
}

// unpack is Python's sequence unpacking into n targets.
func (r *renderer) unpack(v Value, n int) ([]Value, error) {
	items, err := r.iterate(v)
	if err != nil {
		return nil, typeErr("cannot unpack non-iterable %s object", typeName(v))
	}
	switch {
	case len(items) < n:
		return nil, valueErr("not enough values to unpack (expected %d, got %d)", n, len(items))
	case len(items) > n:
		return nil, valueErr("too many values to unpack (expected %d)", n)
	}
	return items, nil
}
