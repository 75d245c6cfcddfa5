package upstream

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

func TestNewRefusesBadConfigs(t *testing.T) {
	for _, cfg := range []Config{
		{Name: "", URL: "http://h"},
		{Name: "a/b", URL: "http://h"},
		{Name: "a", URL: "ftp://h"},
		{Name: "a", URL: "http://"},
		{Name: "a", URL: "http://h/v1?x=1"},
	} {
		if _, err := New(cfg); !errors.Is(err, ErrConfig) {
			t.Errorf("%+v: %v, want ErrConfig", cfg, err)
		}
	}
	c, err := New(Config{Name: "a", URL: "http://h:8000/v1/"})
	if err != nil || c.URL() != "http://h:8000" {
		t.Fatalf("%v %q", err, c.URL())
	}
}

// serve answers every request with handler, on a loopback port.
func serve(t *testing.T, handler http.HandlerFunc) *Client {
	t.Helper()
	ts := httptest.NewServer(handler)
	t.Cleanup(ts.Close)
	c, err := New(Config{Name: "up", URL: ts.URL, Key: "secret"})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func TestStreamAssemblesToolCalls(t *testing.T) {
	c := serve(t, func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Authorization") != "Bearer secret" {
			t.Errorf("authorization %q", r.Header.Get("Authorization"))
		}
		for _, d := range []string{
			`{"choices":[{"index":0,"delta":{"reasoning_content":"think"}}]}`,
			`{"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"id":"a","function":{"name":"f","arguments":"{\"x\""}}]}}]}`,
			`{"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"function":{"arguments":":1}"}}]}}]}`,
			`{"choices":[{"index":0,"delta":{"tool_calls":[{"index":1,"id":"b","function":{"name":"g","arguments":"{}"}}]}}]}`,
			`{"choices":[{"index":0,"delta":{},"finish_reason":"tool_calls"}]}`,
			`{"choices":[],"usage":{"prompt_tokens":7,"completion_tokens":5,"prompt_tokens_details":{"cached_tokens":3}}}`,
			`[DONE]`,
		} {
			fmt.Fprintf(w, "data: %s\n\n", d)
		}
	})
	var got []Event
	err := c.Stream(context.Background(), ChatPath, []byte(`{}`), func(ev Event) error {
		got = append(got, ev)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 3 || got[0].Reasoning != "think" || len(got[1].Calls) != 1 || got[1].Calls[0] != (Call{"a", "f", `{"x":1}`}) {
		t.Fatalf("events %+v", got)
	}
	last := got[2]
	if len(last.Calls) != 1 || last.Calls[0].Name != "g" || last.Finish != "tool_calls" || last.Usage == nil || *last.Usage != (Usage{Prompt: 7, Completion: 5, Cached: 3}) {
		t.Fatalf("last event %+v", last)
	}
}

func TestStreamErrors(t *testing.T) {
	for _, tc := range []struct {
		name    string
		handler http.HandlerFunc
		status  int
		msg     string
	}{
		{"an error answer", func(w http.ResponseWriter, r *http.Request) {
			w.WriteHeader(http.StatusUnprocessableEntity)
			fmt.Fprint(w, `{"error":{"message":"bad temperature","type":"invalid_request_error"}}`)
		}, http.StatusUnprocessableEntity, "bad temperature"},
		{"an error event", func(w http.ResponseWriter, r *http.Request) {
			fmt.Fprint(w, "event: error\ndata: {\"error\":{\"message\":\"busy\",\"code\":\"engine_overloaded\"}}\n\n")
		}, http.StatusTooManyRequests, "busy"},
		{"a cut stream", func(w http.ResponseWriter, r *http.Request) {
			fmt.Fprint(w, "data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"a\"}}]}\n\n")
		}, 0, "ended before the answer"},
		{"a line too long", func(w http.ResponseWriter, r *http.Request) {
			fmt.Fprint(w, "data: "+strings.Repeat("x", maxLine+1)+"\n\n")
		}, 0, "too long"},
		{"two choices", func(w http.ResponseWriter, r *http.Request) {
			fmt.Fprint(w, "data: {\"choices\":[{\"index\":1,\"delta\":{\"content\":\"a\"}}]}\n\n")
		}, 0, "more than one choice"},
	} {
		c := serve(t, tc.handler)
		err := c.Stream(context.Background(), ChatPath, []byte(`{}`), func(Event) error { return nil })
		var ue *Error
		if err == nil || !strings.Contains(err.Error(), tc.msg) || (tc.status != 0 && (!errors.As(err, &ue) || ue.Status != tc.status)) {
			t.Errorf("%s: %v", tc.name, err)
		}
	}
}

func TestConnectFailuresAreRetriedAndReported(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close() // nothing listens there now
	c, err := New(Config{Name: "gone", URL: "http://" + addr})
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Refresh(context.Background()); err == nil || !strings.Contains(err.Error(), "upstream gone") {
		t.Fatalf("refresh: %v", err)
	}
	if h := c.Health(); h.OK || h.Error == "" {
		t.Fatalf("health %+v", h)
	}
}

func TestRefreshBoundsTheList(t *testing.T) {
	c := serve(t, func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprint(w, `{"data":[{"id":"b"},{"id":"a"},{"id":"a"}]}`)
	})
	if err := c.Refresh(context.Background()); err != nil {
		t.Fatal(err)
	}
	if got := c.Models(); len(got) != 2 || got[0] != "a" || !c.Serves("b") || c.Serves("c") {
		t.Fatalf("models %v", got)
	}
	big := serve(t, func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprint(w, `{"data":[`+strings.Repeat(`{"id":"x"},`, maxModelsBody/10)+`{"id":"y"}]}`)
	})
	if err := big.Refresh(context.Background()); err == nil || !strings.Contains(err.Error(), "larger than") {
		t.Fatalf("a huge list: %v", err)
	}
}
