package jinja

import (
	"strconv"
	"strings"
)

// loopObj is jinja2's LoopContext, the "loop" variable of a for body.
type loopObj struct {
	items   []Value
	i       int
	depth0  int
	recurse func(items Value) (Value, error) // nil unless the loop is recursive
	last    []Value                          // the last values passed to changed
	seen    bool
}

func (*loopObj) typeName() string { return "LoopContext" }
func (*loopObj) module() string   { return "jinja2.runtime" }
func (l *loopObj) repr() string {
	return "<LoopContext " + strconv.Itoa(l.i+1) + "/" + strconv.Itoa(len(l.items)) + ">"
}

func (l *loopObj) attr(name string) (Value, bool) {
	n := len(l.items)
	switch name {
	case "index":
		return Int(int64(l.i + 1)), true
	case "index0":
		return Int(int64(l.i)), true
	case "revindex":
		return Int(int64(n - l.i)), true
	case "revindex0":
		return Int(int64(n - l.i - 1)), true
	case "first":
		return Bool(l.i == 0), true
	case "last":
		return Bool(l.i == n-1), true
	case "length":
		return Int(int64(n)), true
	case "depth":
		return Int(int64(l.depth0 + 1)), true
	case "depth0":
		return Int(int64(l.depth0)), true
	case "previtem":
		if l.i == 0 {
			return undefHint("there is no previous item"), true
		}
		return l.items[l.i-1], true
	case "nextitem":
		if l.i+1 >= n {
			return undefHint("there is no next item"), true
		}
		return l.items[l.i+1], true
	case "cycle":
		return method("cycle", "LoopContext", func(r *renderer, args []Value, kw []Kwarg) (Value, error) {
			if len(kw) > 0 {
				return Value{}, typeErr("cycle() got an unexpected keyword argument '%s'", kw[0].Name)
			}
			if len(args) == 0 {
				return Value{}, typeErr("no items for cycling given")
			}
			return args[l.i%len(args)], nil
		}), true
	case "changed":
		return method("changed", "LoopContext", func(r *renderer, args []Value, _ []Kwarg) (Value, error) {
			if l.seen && equal(Tuple(l.last...), Tuple(args...)) {
				return Bool(false), nil
			}
			l.seen, l.last = true, args
			return Bool(true), nil
		}), true
	}
	return Value{}, false
}

func (r *renderer) execFor(n *forNode, sc *scope) error {
	it, err := r.eval(n.iter, sc)
	if err != nil {
		return err
	}
	return r.runLoop(n, sc, it, 0)
}

func (r *renderer) runLoop(n *forNode, sc *scope, iterable Value, depth0 int) error {
	items, err := r.iterate(iterable)
	if err != nil {
		return err
	}
	if n.filter != nil {
		var kept []Value
		for _, it := range items {
			if err := r.step(1); err != nil {
				return err
			}
			fs := newScope(sc)
			if err := r.assign(n.target, it, fs); err != nil {
				return err
			}
			ok, err := r.eval(n.filter, fs)
			if err != nil {
				return err
			}
			if truth(ok) {
				kept = append(kept, it)
			}
		}
		items = kept
	}
	if len(items) == 0 {
		_, err := r.execBody(n.else_, newScope(sc))
		return err
	}
	l := &loopObj{items: items, depth0: depth0}
	if n.recursive {
		l.recurse = func(sub Value) (Value, error) {
			if err := r.enterCall(); err != nil {
				return Value{}, err
			}
			defer r.leaveCall()
			s, err := r.captureFunc(func() error { return r.runLoop(n, sc, sub, depth0+1) })
			return String(s), err
		}
	}
	lv := Value{kind: KindObject, ref: l}
	for i, it := range items {
		if err := r.step(1); err != nil {
			return err
		}
		l.i = i
		is := newScope(sc)
		is.set("loop", lv)
		if err := r.assign(n.target, it, is); err != nil {
			return err
		}
		c, err := r.execBody(n.body, is)
		if err != nil {
			return err
		}
		if c == ctrlBreak {
			break
		}
	}
	return nil
}

func (r *renderer) enterCall() error {
	r.depth++
	if r.depth > r.maxDepth {
		return newErr(ErrLimit, "RecursionError", "maximum recursion depth exceeded (%d nested calls)", r.maxDepth)
	}
	return nil
}

func (r *renderer) leaveCall() { r.depth-- }

// captureFunc runs fn with the output redirected to a new buffer.
func (r *renderer) captureFunc(fn func() error) (string, error) {
	saved := r.out
	var b strings.Builder
	r.out = &output{b: &b, max: r.maxOutput}
	err := fn()
	r.out = saved
	if err == nil {
		err = r.useMem(int64(b.Len()))
	}
	return b.String(), err
}
