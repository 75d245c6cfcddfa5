package jinja

import (
	"context"
	"testing"
)

// testVars are the variables the semantic table renders with.
const testVars = `{"s": "Hello World", "n": 7, "l": [3, 1, 2], "d": {"b": 1, "a": 2}, "z": null,
 "msgs": [{"role": "user", "content": "hi"}, {"role": "assistant", "content": "yo"}], "u": "héllo 中文 😀"}`

func mustVars(t testing.TB, js string) *Dict {
	t.Helper()
	v, err := FromJSON([]byte(js))
	if err != nil {
		t.Fatal(err)
	}
	d, ok := v.AsDict()
	if !ok {
		t.Fatalf("vars %s are not an object", js)
	}
	return d
}

func render(t testing.TB, src, vars string) (string, error) {
	t.Helper()
	tpl, err := Parse("test", src)
	if err != nil {
		return "", err
	}
	var d *Dict
	if vars != "" {
		d = mustVars(t, vars)
	}
	return tpl.Render(context.Background(), d, nil)
}

// pythonCases were rendered by Python's jinja2 3.1 in transformers'
// environment (immutable sandbox, trim_blocks, lstrip_blocks, tojson
// override) with testVars.
var pythonCases = []struct{ group, template, want string }{
	{"literals and reprs", "{{ 1 }}|{{ 1.0 }}|{{ 1e16 }}|{{ 1e15 }}|{{ 1e-5 }}|{{ 0.0001 }}|{{ -0.0 }}|{{ 0.1 + 0.2 }}|{{ 1/3 }}", "1|1.0|1e+16|1000000000000000.0|1e-05|0.0001|-0.0|0.30000000000000004|0.3333333333333333"},
	{"literals and reprs", "{{ none }}|{{ true }}|{{ False }}|{{ z }}|{{ undefined_name }}|", "None|True|False|None||"},
	{"literals and reprs", "{{ [1, 'a', none, true, 1.5] }}|{{ ('a',) }}|{{ () }}|{{ {'a': [1, (2,)], 1: 'x'} }}", "[1, 'a', None, True, 1.5]|('a',)|()|{'a': [1, (2,)], 1: 'x'}"},
	{"literals and reprs", "{{ [\"it's\", 'say \"x\"', 'both \\' \"', '\\n\\t\\\\', '\\x00\\x7f\\xa0é\\u200d😀'] }}", "[\"it's\", 'say \"x\"', 'both \\' \"', '\\n\\t\\\\', '\\x00\\x7f\\xa0é\\u200d😀']"},
	{"literals and reprs", "{{ msgs }}|{{ d.items() }}|{{ d.keys() }}|{{ range(3) }}|{{ namespace(a=1) }}", "[{'role': 'user', 'content': 'hi'}, {'role': 'assistant', 'content': 'yo'}]|dict_items([('b', 1), ('a', 2)])|dict_keys(['b', 'a'])|range(0, 3)|<Namespace {'a': 1}>"},
	{"literals and reprs", "{{ 'a' 'b' }}|{{ '\\u00e9\\x41\\101\\q' }}|{{ 0x1F }}|{{ 0b101 }}|{{ 0o17 }}|{{ 1_000 }}", "ab|éAA\\q|31|5|15|1000"},
	{"arithmetic", "{{ 7 // 2 }}|{{ -7 // 2 }}|{{ 7 % 3 }}|{{ -7 % 3 }}|{{ 7 / 2 }}|{{ 2 ** 10 }}|{{ 2 ** -1 }}|{{ 7.5 // 2 }}|{{ -7.5 % 2 }}", "3|-4|1|2|3.5|1024|0.5|3.0|0.5"},
	{"arithmetic", "{{ true + 1 }}|{{ 1 == 1.0 }}|{{ 'a' ~ 1 ~ none ~ [1] }}|{{ 'ab' * 3 }}|{{ 3 * 'ab' }}|{{ [1, 2] * 2 }}|{{ [1] + [2] }}|{{ (1,) + (2,) }}", "2|True|a1None[1]|ababab|ababab|[1, 2, 1, 2]|[1, 2]|(1, 2)"},
	{"arithmetic", "{{ -n }}|{{ - n|abs }}|{{ +1.5 }}|{{ 1 < 2 < 3 }}|{{ 3 > 2 > 5 }}|{{ [1, 2] < [1, 3] }}|{{ 'a' < 'b' }}", "-7|7|1.5|True|False|True|True"},
	{"strings", "{{ s[0] }}|{{ s[-1] }}|{{ s[1:3] }}|{{ s[::-1] }}|{{ s[::2] }}|{{ s[-3:] }}|{{ s[100:] }}|{{ u[1] }}|{{ u|length }}|{{ u[-1] }}", "H|d|el|dlroW olleH|HloWrd|rld||é|10|😀"},
	{"strings", "{{ s.upper() }}|{{ s.lower() }}|{{ 'hello wORLD'.title() }}|{{ 'hELLO'.capitalize() }}|{{ s.swapcase() }}|{{ 'ß'.upper() }}", "HELLO WORLD|hello world|Hello World|Hello|hELLO wORLD|SS"},
	{"strings", "{{ s.split() }}|{{ s.split('o') }}|{{ s.split('o', 1) }}|{{ s.rsplit('o', 1) }}|{{ ' a  b '.split(' ') }}|{{ 'a\\nb\\r\\nc'.splitlines() }}", "['Hello', 'World']|['Hell', ' W', 'rld']|['Hell', ' World']|['Hello W', 'rld']|['', 'a', '', 'b', '']|['a', 'b', 'c']"},
	{"strings", "{{ '  a b  '.strip() }}|{{ 'xxaxx'.strip('x') }}|{{ 'xxaxx'.lstrip('x') }}|{{ 'xxaxx'.rstrip('x') }}|{{ s.startswith('He') }}|{{ s.endswith(('ld', 'x')) }}", "a b|a|axx|xxa|True|True"},
	{"strings", "{{ s.replace('o', '0') }}|{{ s.replace('o', '0', 1) }}|{{ 'abc'.replace('', '-') }}|{{ s.find('o') }}|{{ s.rfind('o') }}|{{ s.count('o') }}|{{ u.find('中') }}", "Hell0 W0rld|Hell0 World|-a-b-c-|4|7|2|6"},
	{"strings", "{{ ', '.join(['a', 'b']) }}|{{ '{} and {}'.format(1, 'x') }}|{{ '{0}{1}{0}'.format('a', 'b') }}|{{ '{n}!'.format(n='x') }}|{{ '{:>5}|{:<5}|{:^5}'.format('a', 'b', 'c') }}|{{ '{:.2f}|{:05d}|{!r}'.format(3.14159, 42, 'x') }}", "a, b|1 and x|aba|x!|    a|b    |  c  |3.14|00042|'x'"},
	{"strings", "{{ '%s and %s' % ('a', 'b') }}|{{ '%d' % 3.7 }}|{{ '%.2f' % 2.345 }}|{{ '%5s|%-5s|' % ('a', 'b') }}|{{ '%r' % 'x' }}|{{ '%(a)s' % {'a': 1} }}|{{ '%x %X %o %e %g %c %%' % (255, 255, 8, 12345.678, 0.00001, 65) }}", "a and b|3|2.35|    a|b    ||'x'|1|ff FF 10 1.234568e+04 1e-05 A %"},
	{"strings", "{{ 'abc'.center(9, '*') }}|{{ '42'.zfill(5) }}|{{ 'k=v=w'.partition('=') }}|{{ 'k=v=w'.rpartition('=') }}|{{ '123'.isdigit() }}|{{ 'Ab Cd'.istitle() }}", "***abc***|00042|('k', '=', 'v=w')|('k=v', '=', 'w')|True|True"},
	{"tests and logic", "{{ 'a' in 'abc' }}|{{ 1 in l }}|{{ 'b' in d }}|{{ 'x' not in d }}|{{ none is none }}|{{ 1 is number }}|{{ l is sequence }}|{{ d is mapping }}|{{ s is iterable }}|{{ n is iterable }}", "True|True|True|True|True|True|True|True|True|False"},
	{"tests and logic", "{{ undefined_name is defined }}|{{ n is odd }}|{{ n is divisibleby 7 }}|{{ 3 is in l }}|{{ 'abc' is lower }}|{{ n is integer }}|{{ true is boolean }}|{{ range is callable }}|{{ 1 is eq 1 }}|{{ 2 is gt 1 }}", "False|True|True|True|True|True|True|True|True|True"},
	{"tests and logic", "{{ s if true else 'no' }}|{{ 'yes' if z }}|{{ not true }}|{{ true and n }}|{{ z or 'dflt' }}|{{ z and 1 }}|{{ [] or l }}", "Hello World||False|7|dflt|None|[3, 1, 2]"},
	{"filters", "{{ l|sort }}|{{ l|sort(reverse=true) }}|{{ ['b', 'A', 'a', 'B']|sort }}|{{ ['b', 'A', 'a', 'B']|sort(case_sensitive=true) }}|{{ msgs|sort(attribute='role', reverse=true)|map(attribute='role')|list }}", "[1, 2, 3]|[3, 2, 1]|['A', 'a', 'b', 'B']|['A', 'B', 'a', 'b']|['user', 'assistant']"},
	{"filters", "{{ msgs|map(attribute='role')|join(',') }}|{{ l|map('string')|join }}|{{ l|select('odd')|list }}|{{ l|reject('odd')|list }}|{{ msgs|selectattr('role', 'equalto', 'user')|list }}|{{ msgs|rejectattr('role', 'eq', 'user')|map(attribute='content')|list }}", "user,assistant|312|[3, 1]|[2]|[{'role': 'user', 'content': 'hi'}]|['yo']"},
	{"filters", "{{ [1, 2, 2, 3, 1]|unique|list }}|{{ d|dictsort }}|{{ d|dictsort(by='value', reverse=true) }}|{{ l|batch(2)|list }}|{{ l|batch(2, 'x')|list }}|{{ l|slice(2)|list }}", "[1, 2, 3]|[('a', 2), ('b', 1)]|[('a', 2), ('b', 1)]|[[3, 1], [2]]|[[3, 1], [2, 'x']]|[[3, 1], [2]]"},
	{"filters", "{{ l|first }}|{{ l|last }}|{{ s|first }}|{{ d|first }}|{{ l|sum }}|{{ l|sum(start=10) }}|{{ l|min }}|{{ l|max }}|{{ ['b', 'A']|min }}|{{ s|wordcount }}|{{ s|reverse }}|{{ l|reverse|list }}|{{ s|list }}|{{ d|list }}", "3|2|H|b|6|16|1|3|A|2|dlroW olleH|[2, 1, 3]|['H', 'e', 'l', 'l', 'o', ' ', 'W', 'o', 'r', 'l', 'd']|['b', 'a']"},
	{"filters", "{{ d|items|list }}|{{ d|tojson }}|{{ msgs|tojson }}|{{ u|tojson }}|{{ u|tojson(ensure_ascii=true) }}|{{ d|tojson(indent=2) }}|{{ [[], {}]|tojson(indent=2) }}|{{ d|tojson(sort_keys=true) }}|{{ 'a<b>&\\'c'|tojson }}|{{ [1.0, 1e20, none, true]|tojson }}|{{ d|tojson(separators=(',', ':')) }}", "[('b', 1), ('a', 2)]|{\"b\": 1, \"a\": 2}|[{\"role\": \"user\", \"content\": \"hi\"}, {\"role\": \"assistant\", \"content\": \"yo\"}]|\"héllo 中文 😀\"|\"h\\u00e9llo \\u4e2d\\u6587 \\ud83d\\ude00\"|{\n  \"b\": 1,\n  \"a\": 2\n}|[\n  [],\n  {}\n]|{\"a\": 2, \"b\": 1}|\"a<b>&'c\"|[1.0, 1e+20, null, true]|{\"b\":1,\"a\":2}"},
	{"filters", "{{ '  x  '|trim }}|{{ 'xxyxx'|trim('x') }}|{{ 'hello-world foo(bar)'|title }}|{{ s|capitalize }}|{{ s|center(21) }}|{{ s|replace('l', 'L', 2) }}|{{ l|string }}|{{ z|string }}", "x|y|Hello-World Foo(Bar)|Hello world|     Hello World     |HeLLo World|[3, 1, 2]|None"},
	{"filters", "{{ z|default('d') }}|{{ undefined_name|default('d') }}|{{ ''|default('d') }}|{{ ''|default('d', true) }}|{{ undefined_name|d }}|{{ '3'|int }}|{{ '3.7'|int }}|{{ 'x'|int(5) }}|{{ '0x1A'|int(0, 16) }}|{{ '3.5'|float }}|{{ 2.5|round }}|{{ 3.5|round }}|{{ 2.567|round(2) }}|{{ 2.5|round(method='ceil') }}|{{ 5|round }}", "None|d||d||3|3|5|26|3.5|2.0|4.0|2.57|3.0|5"},
	{"filters", "{{ 'a\\nb\\n\\nc'|indent }}|{{ 'a\\nb\\n\\nc'|indent(2, true) }}|{{ 'a\\nb\\n\\nc'|indent(2, blank=true) }}|{{ 'a\\nb'|indent('--') }}|{{ s|truncate(8, true) }}|{{ 'a b c d e f g h i j'|truncate(9) }}", "a\n    b\n\n    c|  a\n  b\n\n  c|a\n  b\n  \n  c|a\n--b|Hello World|a b c..."},
	{"filters", "{{ '<b>x</b> &amp; y'|striptags }}|{{ '<a>'|e }}|{{ 'a b&c'|urlencode }}|{{ d|urlencode }}|{{ d|xmlattr }}|{{ l|count }}|{{ 1234567|filesizeformat }}|{{ 1024|filesizeformat(true) }}|{{ 'ab%sd'|format('c') }}", "x & y|&lt;a&gt;|a%20b%26c|b=1&a=2| b=\"1\" a=\"2\"|3|1.2 MB|1.0 KiB|abcd"},
	{"filters", "{{ msgs|groupby('role')|map(attribute='grouper')|list }}|{{ none|map('upper')|list }}|{{ 'x'|safe + '<' }}|{{ '<'|e ~ '<' }}", "['assistant', 'user']|[]|x&lt;|&lt;<"},
	{"statements", "{% for x in l %}{{ loop.index }}{{ loop.index0 }}{{ loop.revindex }}{{ loop.revindex0 }}{{ loop.first }}{{ loop.last }}{{ loop.length }}{{ loop.previtem }}{{ loop.nextitem }}|{% endfor %}", "1032TrueFalse31|2121FalseFalse332|3210FalseTrue31|"},
	{"statements", "{% for x in l if x > 1 %}{{ x }}{{ loop.index }}{% else %}empty{% endfor %}{% for x in [] %}{% else %}empty{% endfor %}", "3122empty"},
	{"statements", "{% for k, v in d.items() %}{{ k }}={{ v }};{% endfor %}{% for c in 'ab' %}{{ c }}.{% endfor %}", "b=1;a=2;a.b."},
	{"statements", "{% for x in l %}{% if x == 1 %}{% continue %}{% endif %}{{ x }}{% if x == 3 %}{% break %}{% endif %}{% endfor %}{% for x in l %}{{ loop.cycle('a', 'b') }}{% endfor %}", "3aba"},
	{"statements", "{% for x in [1, 1, 2, 2, 1] %}{% if loop.changed(x) %}{{ x }}{% endif %}{% endfor %}", "121"},
	{"statements", "{% set ns = namespace(c=0) %}{% for x in l %}{% set ns.c = ns.c + x %}{% endfor %}{{ ns.c }}", "6"},
	{"statements", "{% set x = 0 %}{% for i in [1, 2] %}{{ x }}{% set x = i %}{{ x }}{% endfor %}|{{ x }}", "0102|0"},
	{"statements", "{% set a, b = 1, 2 %}{{ a }}{{ b }}{% set t %}inner {{ n }}{% endset %}[{{ t }}]{% set t | upper %}x{{ n }}{% endset %}[{{ t }}]", "12[inner 7][X7]"},
	{"statements", "{% filter upper %}hello {{ s }}{% endfilter %}{% with a = 5 %}{{ a }}{% endwith %}{{ a }}", "HELLO HELLO WORLD5"},
	{"statements", "{% macro m(a, b='B', c=none) %}[{{ a }}{{ b }}{{ c }}]{% endmacro %}{{ m(1) }}{{ m(1, 2) }}{{ m(a=3, c=4) }}", "[1BNone][12None][3B4]"},
	{"statements", "{% macro m() %}{{ varargs }}{{ kwargs }}{% endmacro %}{{ m(1, 2, x=3) }}{% macro r(x) %}{% if x > 0 %}{{ x }}{{ r(x - 1) }}{% endif %}{% endmacro %}{{ r(3) }}", "(1, 2){'x': 3}321"},
	{"statements", "{% macro m() %}<{{ caller('z') }}>{% endmacro %}{% call(q) m() %}body{{ q }}{% endcall %}", "<bodyz>"},
	{"statements", "{% set x = 5 %}{% macro m() %}{{ x }}{% endmacro %}{% set x = 6 %}{{ m() }}", "6"},
	{"statements", "{% for item in [{'n': 'a', 'c': [{'n': 'b', 'c': []}]}] recursive %}{{ item.n }}[{{ loop(item.c) }}]{{ loop.depth }}{% endfor %}", "a[b[]2]1"},
	{"statements", "{% raw %}{{ not processed }}{% endraw %}|a {# comment #} b|{% generation %}gen{% endgeneration %}", "{{ not processed }}|a  b|gen"},
	{"whitespace", "  {% if true %}\n  yes\n  {% endif %}\n", "  yes\n"},
	{"whitespace", "line1\n    {% if true %}\n    indented\n    {% endif %}\nend\n", "line1\n    indented\nend"},
	{"whitespace", "{%- if true -%}  x  {%- endif -%}  |a   {{- 'b' -}}   c", "x|abc"},
	{"whitespace", "a\n{{ 'b' }}\nc\n\n", "a\nb\nc\n"},
	{"whitespace", "{% for x in l %}\n  {{ x }}\n{% endfor %}\n", "  3\n  1\n  2\n"},
	{"whitespace", "{%+ if true %}x{% endif %}|  {%+ if true %}x{% endif %}|{% if true +%}\nx{% endif %}", "x|  x|\nx"},
	{"whitespace", "{# c #}\n{# d -#}   \n  x\n  {# e #}\ny", "x\ny"},
	{"whitespace", "{% raw -%}   a   {%- endraw %}|  {% raw %}\n b\n  {% endraw %}\nc", "a|  \n b\nc"},
	{"undefined and attributes", "{{ undefined_name }}|{{ undefined_name|string }}|{{ undefined_name|length }}|{{ undefined_name|list }}|{{ undefined_name is none }}|{{ z.foo }}|{{ d['zz'] }}|{{ l[10] }}|{{ s.zz }}", "||0|[]|False||||"},
	{"undefined and attributes", "{{ {'items': 5}['items'] }}|{{ d.get('a') }}|{{ d.get('zz', 'dflt') }}|{{ d.get('zz') }}|{{ l.index(2) }}|{{ msgs[-1].role }}|{{ msgs|last|attr('role') }}", "5|2|dflt|None|2|assistant|"},
}

func TestPythonSemantics(t *testing.T) {
	for _, c := range pythonCases {
		t.Run(c.group, func(t *testing.T) {
			got, err := render(t, c.template, testVars)
			if err != nil {
				t.Fatalf("%s: %v", c.template, err)
			}
			if got != c.want {
				t.Errorf("%s\n got: %q\nwant: %q", c.template, got, c.want)
			}
		})
	}
}

// TestNamespaceCycle prints a namespace that contains itself as Python
// does, instead of recursing without end.
func TestNamespaceCycle(t *testing.T) {
	got, err := render(t, "{% set ns = namespace(x=1) %}{% set ns.y = ns %}{% set ns.z = [ns, {'a': ns}] %}{{ ns }}", "")
	want := "<Namespace {'x': 1, 'y': <Namespace {...}>, 'z': [<Namespace {...}>, {'a': <Namespace {...}>}]}>"
	if err != nil || got != want {
		t.Fatalf("got %q, %v\nwant %q", got, err, want)
	}
}

// TestUnknownFilterInIf checks that an unknown filter inside an if (or a
// conditional expression) fails only when it is called, as in jinja2:
// templates guard optional filters such as from_json this way.
func TestUnknownFilterInIf(t *testing.T) {
	for src, want := range map[string]string{
		"{% if false %}{{ x|nosuch }}{% endif %}ok":                        "ok",
		"{{ 'a' if true else x|nosuch }}":                                  "a",
		"{% if true %}{% set y = 1|nosuch if false %}{% endif %}[{{ y }}]": "[]",
	} {
		if got, err := render(t, src, ""); err != nil || got != want {
			t.Errorf("%s: got %q, %v; want %q", src, got, err, want)
		}
	}
}
