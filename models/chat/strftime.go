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

func directive(t time.Time, c, flag byte) (string, bool) {
	hour12 := t.Hour() % 12
	if hour12 == 0 {
		hour12 = 12
	}
	text := func(s string) (string, bool) {
		if flag == '^' || flag == '#' {
			return strings.ToUpper(s), true
		}
		return s, true
	}
	switch c {
	case 'a':
		return text(weekdays[t.Weekday()][:3])
	case 'A':
		return text(weekdays[t.Weekday()])
	case 'b', 'h':
		return text(months[t.Month()-1][:3])
	case 'B':
		return text(months[t.Month()-1])
	case 'c':
		return Strftime(t, "%a %b %e %H:%M:%S %Y"), true
	case 'C':
		return num(t.Year()/100, 2, flag, '0'), true
	case 'd':
		return num(t.Day(), 2, flag, '0'), true
	case 'D':
		return Strftime(t, "%m/%d/%y"), true
	case 'e':
		return num(t.Day(), 2, flag, ' '), true
	case 'f':
		return num(t.Nanosecond()/1000, 6, flag, '0'), true
	case 'F':
		return Strftime(t, "%Y-%m-%d"), true
	case 'G':
		y, _ := t.ISOWeek()
		return num(y, 1, flag, '0'), true
	case 'g':
		y, _ := t.ISOWeek()
		return num(y%100, 2, flag, '0'), true
	case 'H':
		return num(t.Hour(), 2, flag, '0'), true
	case 'I':
		return num(hour12, 2, flag, '0'), true
	case 'j':
		return num(t.YearDay(), 3, flag, '0'), true
	case 'k':
		return num(t.Hour(), 2, flag, ' '), true
	case 'l':
		return num(hour12, 2, flag, ' '), true
	case 'm':
		return num(int(t.Month()), 2, flag, '0'), true
	case 'M':
		return num(t.Minute(), 2, flag, '0'), true
	case 'n':
		return "\n", true
	case 'p':
		if t.Hour() < 12 {
			return text("AM")
		}
		return text("PM")
	case 'P':
		if t.Hour() < 12 {
			return "am", true
		}
		return "pm", true
	case 'r':
		return Strftime(t, "%I:%M:%S %p"), true
	case 'R':
		return Strftime(t, "%H:%M"), true
	case 's':
		return strconv.FormatInt(t.Unix(), 10), true
	case 'S':
		return num(t.Second(), 2, flag, '0'), true
	case 't':
		return "\t", true
	case 'T', 'X':
		return Strftime(t, "%H:%M:%S"), true
	case 'u':
		wd := int(t.Weekday())
		if wd == 0 {
			wd = 7
		}
		return num(wd, 1, flag, '0'), true
	case 'U':
		return num((t.YearDay()+6-int(t.Weekday()))/7, 2, flag, '0'), true
	case 'V':
		_, w := t.ISOWeek()
		return num(w, 2, flag, '0'), true
	case 'w':
		return num(int(t.Weekday()), 1, flag, '0'), true
	case 'W':
		return num((t.YearDay()+6-(int(t.Weekday())+6)%7)/7, 2, flag, '0'), true
	case 'x':
		return Strftime(t, "%m/%d/%y"), true
	case 'y':
		return num(t.Year()%100, 2, flag, '0'), true
	case 'Y':
		return num(t.Year(), 1, flag, '0'), true
	case 'z', 'Z':
		return "", true
	case '%':
		return "%", true
	}
	return "", false
}
