package server

import (
	"context"
	"net/http"
	"testing"
	"time"

	"github.com/mlxrun/mlx/server/ollama"
)

func TestOllamaKeepAlive(t *testing.T) {
	f := newFake("ok")
	f.id = "m"
	pinned := newFake("ok")
	pinned.id = "p"
	l := newFakeLoader(f, pinned)
	ts := start(t, l, Options{KeepAlive: time.Hour})
	if err := ts.Preload(context.Background(), "p"); err != nil {
		t.Fatal(err)
	}
	ps := func() map[string]ollama.RunningModel {
		var out ollama.ProcessResponse
		getJSON(t, ts, "/api/ps", &out)
		m := map[string]ollama.RunningModel{}
		for _, pm := range out.Models {
			m[pm.Name] = pm
		}
		return m
	}

	// keep_alive 0 unloads the model when the request is over.
	ts.post(t, "/api/chat", `{"model":"m","stream":false,"keep_alive":0,"messages":[{"role":"user","content":"hi"}]}`, http.StatusOK, nil)
	if !waitFor(time.Second, f.closed.Load) {
		t.Fatal("keep_alive 0: the model is still loaded")
	}
	if _, ok := ps()["m"]; ok {
		t.Error("keep_alive 0: /api/ps lists the model")
	}

	// A duration keeps it that long: /api/ps says until when.
	before := time.Now()
	ts.post(t, "/api/generate", `{"model":"m","stream":false,"keep_alive":"10m","prompt":"hi"}`, http.StatusOK, nil)
	if exp := ps()["m"].ExpiresAt; exp.Before(before.Add(10*time.Minute)) || exp.After(time.Now().Add(10*time.Minute)) {
		t.Errorf("keep_alive 10m: expires at %v, %v after the request", exp, exp.Sub(before))
	}
	// A negative one keeps it for good.
	ts.post(t, "/api/embed", `{"model":"m","input":"hi","keep_alive":-1}`, http.StatusBadRequest, nil) // the fake does not embed
	if exp := ps()["m"].ExpiresAt; !exp.IsZero() {
		t.Errorf("keep_alive -1: expires at %v", exp)
	}

	// A generate request without a prompt and keep_alive 0 unloads it,
	// as "ollama stop" does.
	var gen ollama.GenerateResponse
	ts.post(t, "/api/generate", `{"model":"m","keep_alive":0}`, http.StatusOK, &gen)
	if gen.DoneReason != "unload" || !waitFor(time.Second, f.closed.Load) {
		t.Errorf("stop: done_reason %q, closed %v", gen.DoneReason, f.closed.Load())
	}

	// Models named at start stay.
	ts.post(t, "/api/generate", `{"model":"p","keep_alive":0}`, http.StatusOK, nil)
	time.Sleep(20 * time.Millisecond)
	if pinned.closed.Load() {
		t.Error("keep_alive 0 unloaded a model named at start")
	}
}
