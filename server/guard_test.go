package server

import (
	"io"
	"net/http"
	"strings"
	"testing"
)

// TestHostCheck: with AllowedHosts set, only loopback names and the listed
// hosts are answered; a rebound name gets 403 before any model loads.
func TestHostCheck(t *testing.T) {
	ts, _ := startFake(t, "ok", Options{AllowedHosts: []string{"127.0.0.1", "box.lan"}})
	body := `{"model":"m",` + userHi + `}`
	cases := []struct {
		host   string
		status int
	}{
		{"localhost:8080", 200},
		{"LOCALHOST.", 200},
		{"app.localhost:1", 200},
		{"127.0.0.1:8080", 200},
		{"127.1.2.3", 200},
		{"[::1]:8080", 200},
		{"box.lan:8080", 200},
		{"rebind.evil.example", 403},
		{"rebind.evil.example:8080", 403},
		{"10.0.0.1", 403},
		{"localhost.evil.example", 403},
	}
	for _, c := range cases {
		req, _ := http.NewRequest("POST", ts.url+"/v1/chat/completions", strings.NewReader(body))
		req.Host = c.host
		req.Header.Set("Content-Type", "application/json")
		resp, err := ts.client.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		b := readAll(t, resp)
		if resp.StatusCode != c.status {
			t.Errorf("Host %s: status %d, want %d: %s", c.host, resp.StatusCode, c.status, b)
			continue
		}
		if c.status == 403 {
			if e := decodeErr(t, b); e.Error.Code == nil || *e.Error.Code != codeHostNotAllowed || !strings.Contains(e.Error.Message, "--allowed-hosts") {
				t.Errorf("Host %s: body %s", c.host, b)
			}
		}
	}
}

// TestHostCheckOff: without AllowedHosts (a server bound to a public
// address), and with "*", any Host is answered.
func TestHostCheckOff(t *testing.T) {
	for _, hosts := range [][]string{nil, {"*"}} {
		ts, _ := startFake(t, "ok", Options{AllowedHosts: hosts})
		req, _ := http.NewRequest("GET", ts.url+"/v1/models", nil)
		req.Host = "anything.example"
		resp, err := ts.client.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		if b := readAll(t, resp); resp.StatusCode != 200 {
			t.Errorf("AllowedHosts %q: status %d: %s", hosts, resp.StatusCode, b)
		}
	}
}

// TestContentType: JSON endpoints refuse the content types a web page can
// send without a preflight, and take JSON or no type at all.
func TestContentType(t *testing.T) {
	ts, _ := startFake(t, "ok", Options{})
	body := `{"model":"m",` + userHi + `}`
	cases := []struct {
		ct     string
		status int
	}{
		{"application/json", 200},
		{"application/json; charset=utf-8", 200},
		{"Application/JSON", 200},
		{"application/vnd.api+json", 200},
		{"", 200},
		{"text/plain", 415},
		{"text/plain;charset=UTF-8", 415},
		{"application/x-www-form-urlencoded", 415},
		{"multipart/form-data; boundary=x", 415},
		{"nonsense;;", 415},
	}
	for _, c := range cases {
		req, _ := http.NewRequest("POST", ts.url+"/v1/chat/completions", strings.NewReader(body))
		if c.ct != "" {
			req.Header.Set("Content-Type", c.ct)
		}
		resp, err := ts.client.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		b := readAll(t, resp)
		if resp.StatusCode != c.status {
			t.Errorf("Content-Type %q: status %d, want %d: %s", c.ct, resp.StatusCode, c.status, b)
			continue
		}
		if c.status == 415 {
			if e := decodeErr(t, b); e.Error.Code == nil || *e.Error.Code != codeUnsupportedMedia {
				t.Errorf("Content-Type %q: body %s", c.ct, b)
			}
		}
	}
}

// readAll reads and closes a response body.
func readAll(t *testing.T, resp *http.Response) []byte {
	t.Helper()
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
