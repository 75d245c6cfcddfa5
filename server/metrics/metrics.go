// Package metrics keeps counters, gauges and histograms with labels and
// writes them in the Prometheus text exposition format (version 0.0.4).
// It is small on purpose: families are registered once, series are
// created on first use, and Write sorts everything so output is stable.
package metrics

import (
	"fmt"
	"io"
	"math"
	"sort"
	"strconv"
	"strings"
	"sync"
)

// ContentType is the media type of the exposition.
const ContentType = "text/plain; version=0.0.4; charset=utf-8"

// Registry holds metric families.
type Registry struct {
	mu       sync.Mutex
	families []*family
}

// NewRegistry returns an empty registry.
func NewRegistry() *Registry { return &Registry{} }

type kind string

const (
	kindCounter   kind = "counter"
	kindGauge     kind = "gauge"
	kindHistogram kind = "histogram"
)

// family is a metric name with its series, keyed by label values.
type family struct {
	name, help string
	kind       kind
	labels     []string
	buckets    []float64
	mu         sync.Mutex
	series     map[string]*series
	fn         func() float64 // a gauge read at Write time
}

// series is the state of one label combination.
type series struct {
	values []string
	value  float64  // counter or gauge
	counts []uint64 // histogram: per bucket (not cumulative), +Inf last
	sum    float64  // histogram
	count  uint64   // histogram
}

func (r *Registry) add(f *family) *family {
	r.mu.Lock()
	defer r.mu.Unlock()
	f.series = map[string]*series{}
	r.families = append(r.families, f)
	return f
}

func (f *family) get(values []string) *series {
	if len(values) != len(f.labels) { // a caller's slip: pad or cut, never fail
		values = append(append([]string(nil), values...), make([]string, len(f.labels))...)[:len(f.labels)]
	}
	key := strings.Join(values, "\xff")
	s := f.series[key]
	if s == nil {
		s = &series{values: append([]string(nil), values...)}
		if f.kind == kindHistogram {
			s.counts = make([]uint64, len(f.buckets)+1)
		}
		f.series[key] = s
	}
	return s
}

// Counter is a monotonically increasing value per label combination.
type Counter struct{ f *family }

// NewCounter registers a counter family.
func (r *Registry) NewCounter(name, help string, labels ...string) *Counter {
	return &Counter{r.add(&family{name: name, help: help, kind: kindCounter, labels: labels})}
}

// Add adds v (≥ 0) to the series of the label values.
func (c *Counter) Add(v float64, values ...string) {
	c.f.mu.Lock()
	c.f.get(values).value += v
	c.f.mu.Unlock()
}

// Inc adds 1.
func (c *Counter) Inc(values ...string) { c.Add(1, values...) }

// Gauge is a value that goes up and down, per label combination.
type Gauge struct{ f *family }

// NewGauge registers a gauge family.
func (r *Registry) NewGauge(name, help string, labels ...string) *Gauge {
	return &Gauge{r.add(&family{name: name, help: help, kind: kindGauge, labels: labels})}
}

// NewGaugeFunc registers a gauge without labels whose value fn gives at
// each Write.
func (r *Registry) NewGaugeFunc(name, help string, fn func() float64) {
	r.add(&family{name: name, help: help, kind: kindGauge, fn: fn})
}

// Add adds v to the series of the label values.
func (g *Gauge) Add(v float64, values ...string) {
	g.f.mu.Lock()
	g.f.get(values).value += v
	g.f.mu.Unlock()
}

// Set sets the series of the label values to v.
func (g *Gauge) Set(v float64, values ...string) {
	g.f.mu.Lock()
	g.f.get(values).value = v
	g.f.mu.Unlock()
}

// Value returns the current value of a series (0 when it does not exist).
func (g *Gauge) Value(values ...string) float64 {
	g.f.mu.Lock()
	defer g.f.mu.Unlock()
	return g.f.get(values).value
}

// Histogram counts observations in buckets per label combination.
type Histogram struct{ f *family }

// NewHistogram registers a histogram family with the upper bounds of its
// buckets (sorted ascending; +Inf is implied).
func (r *Registry) NewHistogram(name, help string, buckets []float64, labels ...string) *Histogram {
	b := append([]float64(nil), buckets...)
	sort.Float64s(b)
	return &Histogram{r.add(&family{name: name, help: help, kind: kindHistogram, labels: labels, buckets: b})}
}

// Observe records v in the series of the label values.
func (h *Histogram) Observe(v float64, values ...string) {
	h.f.mu.Lock()
	defer h.f.mu.Unlock()
	s := h.f.get(values)
	i := sort.SearchFloat64s(h.f.buckets, v) // first bound ≥ v
	s.counts[i]++
	s.sum += v
	s.count++
}

// Count returns how many observations a series has.
func (h *Histogram) Count(values ...string) uint64 {
	h.f.mu.Lock()
	defer h.f.mu.Unlock()
	return h.f.get(values).count
}

// ExpBuckets returns n bucket bounds start, start·factor, ...
func ExpBuckets(start, factor float64, n int) []float64 {
	b := make([]float64, n)
	for i := range b {
		b[i] = start * math.Pow(factor, float64(i))
	}
	return b
}

// Write writes every family in the text exposition format.
func (r *Registry) Write(w io.Writer) error {
	r.mu.Lock()
	fams := append([]*family(nil), r.families...)
	r.mu.Unlock()
	sort.Slice(fams, func(i, j int) bool { return fams[i].name < fams[j].name })
	var b strings.Builder
	for _, f := range fams {
		f.write(&b)
	}
	_, err := io.WriteString(w, b.String())
	return err
}

func (f *family) write(b *strings.Builder) {
	fmt.Fprintf(b, "# HELP %s %s\n# TYPE %s %s\n", f.name, escapeHelp(f.help), f.name, f.kind)
	if f.fn != nil {
		fmt.Fprintf(b, "%s %s\n", f.name, num(f.fn()))
		return
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	keys := make([]string, 0, len(f.series))
	for k := range f.series {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		s := f.series[k]
		if f.kind != kindHistogram {
			fmt.Fprintf(b, "%s%s %s\n", f.name, labelSet(f.labels, s.values, "", ""), num(s.value))
			continue
		}
		var cum uint64
		for i, c := range s.counts {
			cum += c
			le := "+Inf"
			if i < len(f.buckets) {
				le = num(f.buckets[i])
			}
			fmt.Fprintf(b, "%s_bucket%s %d\n", f.name, labelSet(f.labels, s.values, "le", le), cum)
		}
		fmt.Fprintf(b, "%s_sum%s %s\n", f.name, labelSet(f.labels, s.values, "", ""), num(s.sum))
		fmt.Fprintf(b, "%s_count%s %d\n", f.name, labelSet(f.labels, s.values, "", ""), s.count)
	}
}

func labelSet(names, values []string, extraName, extraValue string) string {
	if len(names) == 0 && extraName == "" {
		return ""
	}
	parts := make([]string, 0, len(names)+1)
	for i, n := range names {
		parts = append(parts, n+`="`+escapeLabel(values[i])+`"`)
	}
	if extraName != "" {
		parts = append(parts, extraName+`="`+extraValue+`"`)
	}
	return "{" + strings.Join(parts, ",") + "}"
}

func num(v float64) string {
	switch {
	case math.IsInf(v, 1):
		return "+Inf"
	case math.IsInf(v, -1):
		return "-Inf"
	case math.IsNaN(v):
		return "NaN"
	}
	return strconv.FormatFloat(v, 'g', -1, 64)
}

var (
	labelEscaper = strings.NewReplacer(`\`, `\\`, "\n", `\n`, `"`, `\"`)
	helpEscaper  = strings.NewReplacer(`\`, `\\`, "\n", `\n`)
)

func escapeLabel(s string) string { return labelEscaper.Replace(s) }
func escapeHelp(s string) string  { return helpEscaper.Replace(s) }
