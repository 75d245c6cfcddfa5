package server

import (
	"time"

	"github.com/mlxrun/mlx/server/metrics"
)

// observer holds the server's metrics.
type observer struct {
	reg        *metrics.Registry
	requests   *metrics.Counter   // route, status
	inFlight   *metrics.Gauge     // requests being served
	duration   *metrics.Histogram // route
	ttft       *metrics.Histogram // model
	itl        *metrics.Histogram // model
	promptToks *metrics.Counter   // model
	genToks    *metrics.Counter   // model
	waiting    *metrics.Gauge     // sequences queued or prefilling
	running    *metrics.Gauge     // sequences generating
	loadSecs   *metrics.Histogram // model
	loadFails  *metrics.Counter   // model
	upRequests *metrics.Counter   // upstream: requests forwarded
	upErrors   *metrics.Counter   // upstream: requests that failed there
	upInFlight *metrics.Gauge     // upstream: requests being forwarded
	upLatency  *metrics.Histogram // upstream: time to the end of its answer
	stores     *storeMetrics
	engines    *engineMetrics
}

var (
	latencyBuckets = metrics.ExpBuckets(0.005, 2, 14) // 5 ms … 41 s
	tokenBuckets   = metrics.ExpBuckets(0.001, 2, 14) // 1 ms … 8 s
	loadBuckets    = metrics.ExpBuckets(0.1, 2, 12)   // 0.1 s … 205 s
)

func newObserver(loaded func() float64) *observer {
	r := metrics.NewRegistry()
	o := &observer{
		reg:        r,
		requests:   r.NewCounter("mlx_http_requests_total", "HTTP requests by route and status code.", "route", "status"),
		inFlight:   r.NewGauge("mlx_http_requests_in_flight", "HTTP requests being served."),
		duration:   r.NewHistogram("mlx_http_request_duration_seconds", "Time from request to the end of the response.", latencyBuckets, "route"),
		ttft:       r.NewHistogram("mlx_time_to_first_token_seconds", "Time from request to the first generated token.", latencyBuckets, "model"),
		itl:        r.NewHistogram("mlx_inter_token_latency_seconds", "Time between two generated tokens of a sequence.", tokenBuckets, "model"),
		promptToks: r.NewCounter("mlx_prompt_tokens_total", "Prompt tokens of finished sequences.", "model"),
		genToks:    r.NewCounter("mlx_generated_tokens_total", "Tokens generated.", "model"),
		waiting:    r.NewGauge("mlx_queue_length", "Sequences queued or prefilling (waiting for their first token)."),
		running:    r.NewGauge("mlx_sequences_running", "Sequences generating tokens."),
		loadSecs:   r.NewHistogram("mlx_model_load_seconds", "Time to load a model.", loadBuckets, "model"),
		loadFails:  r.NewCounter("mlx_model_load_failures_total", "Model loads that failed.", "model"),
	}
	o.upRequests = r.NewCounter("mlx_upstream_requests_total", "Requests forwarded to an upstream server.", "upstream")
	o.upErrors = r.NewCounter("mlx_upstream_errors_total", "Forwarded requests that failed at or on the way to the upstream.", "upstream")
	o.upInFlight = r.NewGauge("mlx_upstream_requests_in_flight", "Requests being forwarded to an upstream.", "upstream")
	o.upLatency = r.NewHistogram("mlx_upstream_request_duration_seconds", "Time from forwarding a request to the end of the upstream's answer.", latencyBuckets, "upstream")
	o.stores = newStoreMetrics(r)
	o.engines = newEngineMetrics(r)
	r.NewGaugeFunc("mlx_models_loaded", "Models loaded in memory.", loaded)
	return o
}

// modelLoaded records a model load.
func (o *observer) modelLoaded(id string, d time.Duration, err error) {
	if err != nil {
		o.loadFails.Inc(id)
		return
	}
	o.loadSecs.Observe(d.Seconds(), id)
}
