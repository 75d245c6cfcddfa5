package jinja

import (
	"context"
	"errors"
	"testing"
)

// pythonErrors are failures whose exception type and message were taken
// from Python's jinja2 3.1 in transformers' environment, with testVars.
var pythonErrors = []struct{ template, typ, msg string }{
	{"{{ s + 1 }}", "TypeError", `can only concatenate str (not "int") to str`},
	{"{{ 1 + s }}", "TypeError", "unsupported operand type(s) for +: 'int' and 'str'"},
	{"{{ l + 'x' }}", "TypeError", `can only concatenate list (not "str") to list`},
	{"{{ z + 'x' }}", "TypeError", "unsupported operand type(s) for +: 'NoneType' and 'str'"},
	{"{{ undefined_name.attr }}", "UndefinedError", "'undefined_name' is undefined"},
	{"{{ undefined_name + 1 }}", "UndefinedError", "'undefined_name' is undefined"},
	{"{% for x in z %}{% endfor %}", "TypeError", "'NoneType' object is not iterable"},
	{"{% for x in n %}{% endfor %}", "TypeError", "'int' object is not iterable"},
	{"{{ l.append(1) }}", "SecurityError", "access to attribute 'append' of 'list' object is unsafe."},
	{"{{ d.update({}) }}", "SecurityError", "access to attribute 'update' of 'dict' object is unsafe."},
	{"{{ d.pop('a') }}", "SecurityError", "access to attribute 'pop' of 'dict' object is unsafe."},
	{"{{ z|length }}", "TypeError", "object of type 'NoneType' has no len()"},
	{"{{ 'x' in z }}", "TypeError", "argument of type 'NoneType' is not iterable"},
	{"{{ 1 in 'abc' }}", "TypeError", "'in <string>' requires string as left operand, not int"},
	{"{{ undefined_name|indent }}", "UndefinedError", "'undefined_name' is undefined"},
	{"{{ 1 < 'a' }}", "TypeError", "'<' not supported between instances of 'int' and 'str'"},
	{"{{ z.foo.bar }}", "UndefinedError", "'None' has no attribute 'foo'"},
	{"{{ namespace(a=1).a.b.c }}", "UndefinedError", "'int object' has no attribute 'b'"},
	{"{{ 1 / 0 }}", "ZeroDivisionError", "division by zero"},
	{"{{ 1 // 0 }}", "ZeroDivisionError", "integer division or modulo by zero"},
	{"{{ 1 % 0 }}", "ZeroDivisionError", "integer modulo by zero"},
	{"{{ range(100001)|length }}", "OverflowError", "Range too big. The sandbox blocks ranges larger than MAX_RANGE (100000)."},
	{"{{ '%s' % (1, 2) }}", "TypeError", "not all arguments converted during string formatting"},
	{"{{ '%s %s' % (1,) }}", "TypeError", "not enough arguments for format string"},
	{"{{ '%d' % 'x' }}", "TypeError", "%d format: a real number is required, not str"},
	{"{{ l|map('nosuch')|list }}", "TemplateRuntimeError", "No filter named 'nosuch'."},
	{"{{ l|select('nosuch')|list }}", "TemplateRuntimeError", "No test named 'nosuch'."},
	{"{{ l|nosuch }}", "TemplateAssertionError", "No filter named 'nosuch'."},
	{"{{ l is nosuch }}", "TemplateAssertionError", "No test named 'nosuch'."},
	{"{% if true %}{{ x|nosuch }}{% endif %}", "TemplateRuntimeError", "No filter named 'nosuch' found."},
	{"{% if true %}{% for x in [1] %}{{ x|nosuch }}{% endfor %}{% endif %}", "TemplateAssertionError", "No filter named 'nosuch'."},
	{"{{ 'a' if x is nosuchtest }}", "TemplateRuntimeError", "No test named 'nosuchtest' found."},
	{"{% if true %}{% macro m() %}{{ 1|nosuch }}{% endmacro %}{% endif %}", "TemplateAssertionError", "No filter named 'nosuch'."},
	{"{% nosuch %}", "TemplateSyntaxError", "Encountered unknown tag 'nosuch'."},
	{"{{ 1 + }}", "TemplateSyntaxError", "unexpected 'end of print statement'"},
	{"{% if true %}", "TemplateSyntaxError", "Unexpected end of template. Jinja was looking for the following tags: " +
		"'elif' or 'else' or 'endif'. The innermost block that needs to be closed is 'if'."},
	{"{{ 'unclosed }}", "TemplateSyntaxError", `unexpected char "'" at 3`},
	{"{% macro m(a) %}{% endmacro %}{{ m(1, 2) }}", "TypeError", "macro 'm' takes not more than 1 argument(s)"},
	{"{% macro m(a) %}{% endmacro %}{{ m(b=1) }}", "TypeError", "macro 'm' takes no keyword argument 'b'"},
	{"{{ (d|items)[1:] }}", "TypeError", "'generator' object is not subscriptable"},
	{"{{ 'a'.replace('a', 'b', count=1) }}", "TypeError", "str.replace() takes no keyword arguments"},
	{"{% set x.y = 1 %}", "TemplateRuntimeError", "cannot assign attribute on non-namespace object"},
	{"{{ loop.index }}", "UndefinedError", "'loop' is undefined"},
	{"{{ s.split('') }}", "ValueError", "empty separator"},
	{"{{ {[1]: 2} }}", "TypeError", "unhashable type: 'list'"},
	{"{{ d|dictsort(by='x') }}", "FilterArgumentError", `You can only sort by either "key" or "value"`},
	{"{% for a, b in l %}{% endfor %}", "TypeError", "cannot unpack non-iterable int object"},
}

func TestPythonErrors(t *testing.T) {
	for _, c := range pythonErrors {
		_, err := render(t, c.template, testVars)
		var je *Error
		if !errors.As(err, &je) {
			t.Errorf("%s: got %v, want %s: %s", c.template, err, c.typ, c.msg)
			continue
		}
		if je.Type != c.typ || je.Msg != c.msg {
			t.Errorf("%s:\n got %s: %s\nwant %s: %s", c.template, je.Type, je.Msg, c.typ, c.msg)
		}
	}
}

func TestErrorKinds(t *testing.T) {
	cases := []struct {
		template string
		kind     error
	}{
		{"{% if %}", ErrSyntax},
		{"{{ 1 + none }}", ErrRuntime},
		{"{{ raise_exception('stop here') }}", ErrRaised},
		{"{{ 'x' * 100000000 }}", ErrLimit},
	}
	raise := Func("raise_exception", func(args []Value, _ []Kwarg) (Value, error) {
		return Value{}, RaiseError(args[0].String())
	})
	for _, c := range cases {
		tpl, err := Parse("kinds", c.template)
		if err == nil {
			_, err = tpl.Render(context.Background(), nil, &Options{Globals: map[string]Value{"raise_exception": raise},
				MaxOutput: 1 << 20})
		}
		if !errors.Is(err, c.kind) {
			t.Errorf("%s: error %v is not %v", c.template, err, c.kind)
		}
	}
}

func TestRaisedMessageIsExact(t *testing.T) {
	raise := Func("raise_exception", func(args []Value, _ []Kwarg) (Value, error) {
		return Value{}, RaiseError(args[0].String())
	})
	tpl, err := Parse("raise", "line one\n{{ raise_exception('Roles must alternate ' ~ 'user/assistant') }}")
	if err != nil {
		t.Fatal(err)
	}
	_, err = tpl.Render(context.Background(), nil, &Options{Globals: map[string]Value{"raise_exception": raise}})
	if err == nil || err.Error() != "Roles must alternate user/assistant" {
		t.Fatalf("got %v", err)
	}
	var je *Error
	if !errors.As(err, &je) || je.Line != 2 {
		t.Errorf("error %+v lacks line 2", je)
	}
}

func TestErrorLineNumbers(t *testing.T) {
	_, err := render(t, "a\nb\n{% for x in [1] %}\n{{ x + 'y' }}\n{% endfor %}", "")
	var je *Error
	if !errors.As(err, &je) || je.Line != 4 {
		t.Fatalf("error %v: want line 4", err)
	}
}
