package metrics

import (
	"strings"
	"testing"
)

func expose(t *testing.T, r *Registry) string {
	t.Helper()
	var b strings.Builder
	if err := r.Write(&b); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

func TestExposition(t *testing.T) {
	r := NewRegistry()
	c := r.NewCounter("mlx_requests_total", "Requests.", "route", "status")
	c.Inc("/v1/chat", "200")
	c.Add(2, "/v1/chat", "200")
	c.Inc("/v1/models", "404")
	g := r.NewGauge("mlx_in_flight", "In flight.")
	g.Add(3)
	g.Add(-1)
	r.NewGaugeFunc("mlx_loaded", "Loaded.", func() float64 { return 2 })
	h := r.NewHistogram("mlx_seconds", "Durations.", []float64{1, 0.1}, "route")
	for _, v := range []float64{0.05, 0.1, 0.5, 3} {
		h.Observe(v, "a")
	}
	q := r.NewCounter("mlx_quoted", "Help with \\ and\nnewline.", "l")
	q.Inc("a\"b\\c\nd")
	got := expose(t, r)
	want := []string{
		"# HELP mlx_requests_total Requests.\n# TYPE mlx_requests_total counter\n",
		`mlx_requests_total{route="/v1/chat",status="200"} 3` + "\n",
		`mlx_requests_total{route="/v1/models",status="404"} 1` + "\n",
		"# TYPE mlx_in_flight gauge\nmlx_in_flight 2\n",
		"mlx_loaded 2\n",
		"# TYPE mlx_seconds histogram\n",
		`mlx_seconds_bucket{route="a",le="0.1"} 2` + "\n",
		`mlx_seconds_bucket{route="a",le="1"} 3` + "\n",
		`mlx_seconds_bucket{route="a",le="+Inf"} 4` + "\n",
		`mlx_seconds_sum{route="a"} 3.65` + "\n",
		`mlx_seconds_count{route="a"} 4` + "\n",
		"# HELP mlx_quoted Help with \\\\ and\\nnewline.\n",
		`mlx_quoted{l="a\"b\\c\nd"} 1` + "\n",
	}
	for _, w := range want {
		if !strings.Contains(got, w) {
			t.Errorf("exposition lacks %q:\n%s", w, got)
		}
	}
	if strings.Index(got, "mlx_in_flight") > strings.Index(got, "mlx_requests_total") {
		t.Error("families are not sorted by name")
	}
}

func TestValues(t *testing.T) {
	r := NewRegistry()
	g := r.NewGauge("g", "g", "model")
	g.Set(5, "m")
	g.Add(-2, "m")
	h := r.NewHistogram("h", "h", ExpBuckets(0.001, 2, 4))
	h.Observe(0.003)
	h.Observe(100)
	cases := []struct {
		name      string
		got, want float64
	}{
		{"gauge", g.Value("m"), 3},
		{"missing series", g.Value("x"), 0},
		{"histogram count", float64(h.Count()), 2},
		{"wrong label count tolerated", g.Value(), 0},
	}
	for _, c := range cases {
		if c.got != c.want {
			t.Errorf("%s: got %g, want %g", c.name, c.got, c.want)
		}
	}
	if b := ExpBuckets(1, 10, 3); b[2] != 100 {
		t.Errorf("ExpBuckets(1,10,3) = %v", b)
	}
}
