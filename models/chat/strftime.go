package chat

import (
	"strconv"
	"strings"
	"time"
)

var (
	weekdays = []string{"Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"}
	months   = []string{"January", "February", "March", "April", "May", "June", "July",
		"August", "September", "October", "November", "December"}
)

// Strftime formats t as Python's datetime.strftime does on Linux in the C
// locale, including glibc's flags "-" (no padding), "_" (space padding),
// "0" and "^" (upper case). A naive time prints empty %z and %Z, as the
// naive datetimes of transformers' strftime_now do.
func Strftime(t time.Time, format string) string {
	var b strings.Builder
	for i := 0; i < len(format); i++ {
		c := format[i]
		if c != '%' || i+1 >= len(format) {
			b.WriteByte(c)
			continue
		}
		j := i + 1
		flag := byte(0)
		if strings.IndexByte("-_0^#", format[j]) >= 0 && j+1 < len(format) {
			flag = format[j]
			j++
		}
		out, ok := directive(t, format[j], flag)
		if !ok {
			b.WriteString(format[i : j+1])
		} else {
			b.WriteString(out)
		}
		i = j
	}
	return b.String()
}

func num(n, width int, flag byte, padc byte) string {
	s := strconv.Itoa(n)
	switch flag {
	case '-':
		return s
	case '_':
		padc = ' '
	case '0':
		padc = '0'
	}
	for len(s) < width {
		s = string(padc) + s
	}
	return s
}

// numeric are the directives that print a number: its value, the width
// it is padded to and the padding character.
var numeric = map[byte]func(t time.Time) (n, width int, pad byte){
	'C': func(t time.Time) (int, int, byte) { return t.Year() / 100, 2, '0' },
	'd': func(t time.Time) (int, int, byte) { return t.Day(), 2, '0' },
	'e': func(t time.Time) (int, int, byte) { return t.Day(), 2, ' ' },
	'f': func(t time.Time) (int, int, byte) { return t.Nanosecond() / 1000, 6, '0' },
	'G': func(t time.Time) (int, int, byte) { y, _ := t.ISOWeek(); return y, 1, '0' },
	'g': func(t time.Time) (int, int, byte) { y, _ := t.ISOWeek(); return y % 100, 2, '0' },
	'H': func(t time.Time) (int, int, byte) { return t.Hour(), 2, '0' },
	'I': func(t time.Time) (int, int, byte) { return hour12(t), 2, '0' },
	'j': func(t time.Time) (int, int, byte) { return t.YearDay(), 3, '0' },
	'k': func(t time.Time) (int, int, byte) { return t.Hour(), 2, ' ' },
	'l': func(t time.Time) (int, int, byte) { return hour12(t), 2, ' ' },
	'm': func(t time.Time) (int, int, byte) { return int(t.Month()), 2, '0' },
	'M': func(t time.Time) (int, int, byte) { return t.Minute(), 2, '0' },
	'S': func(t time.Time) (int, int, byte) { return t.Second(), 2, '0' },
	'u': func(t time.Time) (int, int, byte) { return (int(t.Weekday())+6)%7 + 1, 1, '0' },
	'U': func(t time.Time) (int, int, byte) { return (t.YearDay() + 6 - int(t.Weekday())) / 7, 2, '0' },
	'V': func(t time.Time) (int, int, byte) { _, w := t.ISOWeek(); return w, 2, '0' },
	'w': func(t time.Time) (int, int, byte) { return int(t.Weekday()), 1, '0' },
	'W': func(t time.Time) (int, int, byte) { return (t.YearDay() + 6 - (int(t.Weekday())+6)%7) / 7, 2, '0' },
	'y': func(t time.Time) (int, int, byte) { return t.Year() % 100, 2, '0' },
	'Y': func(t time.Time) (int, int, byte) { return t.Year(), 1, '0' },
}

// composite are the directives that stand for a format of other ones.
var composite = map[byte]string{
	'c': "%a %b %e %H:%M:%S %Y", 'D': "%m/%d/%y", 'x': "%m/%d/%y", 'F': "%Y-%m-%d",
	'r': "%I:%M:%S %p", 'R': "%H:%M", 'T': "%H:%M:%S", 'X': "%H:%M:%S",
}

// literal are the directives that print a fixed text.
var literal = map[byte]string{'n': "\n", 't': "\t", '%': "%", 'z': "", 'Z': ""}

// hour12 is the hour on a 12-hour clock, 1 to 12.
func hour12(t time.Time) int {
	if h := t.Hour() % 12; h != 0 {
		return h
	}
	return 12
}

// directive formats the directive c with the flag (0 for none); false for
// a directive it does not know.
func directive(t time.Time, c, flag byte) (string, bool) {
	if f, ok := numeric[c]; ok {
		n, width, pad := f(t)
		return num(n, width, flag, pad), true
	}
	if f, ok := composite[c]; ok {
		return Strftime(t, f), true
	}
	if s, ok := literal[c]; ok {
		return s, true
	}
	var s string
	switch c {
	case 'a':
		s = weekdays[t.Weekday()][:3]
	case 'A':
		s = weekdays[t.Weekday()]
	case 'b', 'h':
		s = months[t.Month()-1][:3]
	case 'B':
		s = months[t.Month()-1]
	case 'p':
		s = "AM"
		if t.Hour() >= 12 {
			s = "PM"
		}
	case 'P':
		if t.Hour() < 12 {
			return "am", true
		}
		return "pm", true
	case 's':
		return strconv.FormatInt(t.Unix(), 10), true
	default:
		return "", false
	}
	if flag == '^' || flag == '#' {
		s = strings.ToUpper(s)
	}
	return s, true
}
