package hub

import (
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"strings"
	"testing"
)

func TestStatusErrors(t *testing.T) {
	tests := []struct {
		code      int
		errCode   string
		token     bool
		kind      error
		transient bool
		says      string
	}{
		{401, "GatedRepo", false, ErrUnauthorized, false, "set HF_TOKEN"},
		{403, "", true, ErrUnauthorized, false, "the token was refused"},
		{401, "RepoNotFound", false, ErrNotFound, false, "if it is private"},
		{404, "EntryNotFound", false, ErrNotFound, false, "no such model"},
		{500, "", false, nil, true, "Internal Server Error"},
		{429, "", false, nil, true, "Too Many Requests"},
		{400, "", false, nil, false, "Bad Request"},
	}
	for _, tc := range tests {
		resp := &http.Response{StatusCode: tc.code, Header: http.Header{}}
		resp.Header.Set("X-Error-Code", tc.errCode)
		err := statusError(resp, "org/m x.json", tc.token)
		if tc.kind != nil && !errors.Is(err, tc.kind) {
			t.Errorf("%d %s: %v is not %v", tc.code, tc.errCode, err, tc.kind)
		}
		if retryable(err) != tc.transient || !strings.Contains(err.Error(), tc.says) || !strings.Contains(err.Error(), "org/m x.json") {
			t.Errorf("%d %s: %q (retryable %v)", tc.code, tc.errCode, err, retryable(err))
		}
	}
}

func TestRetryable(t *testing.T) {
	tests := []struct {
		err  error
		want bool
	}{
		{io.ErrUnexpectedEOF, true},
		{fmt.Errorf("x: %w", errStall), true},
		{fmt.Errorf("x: %w", ErrChecksum), false},
		{&writeError{os.ErrPermission}, false},
		{fmt.Errorf("x: %w", errNoRange), false},
	}
	for _, tc := range tests {
		if got := retryable(tc.err); got != tc.want {
			t.Errorf("retryable(%v) = %v", tc.err, got)
		}
	}
}

func TestParseMeta(t *testing.T) {
	commit := strings.Repeat("ab", 20)
	tests := []struct {
		name    string
		headers map[string]string
		length  int64
		want    fileMeta
		err     bool
	}{
		{"lfs", map[string]string{"X-Repo-Commit": commit, "X-Linked-Etag": `"` + strings.Repeat("c", 64) + `"`,
			"ETag": `"pointer"`, "X-Linked-Size": "123"}, -1, fileMeta{commit, strings.Repeat("c", 64), 123}, false},
		{"small", map[string]string{"X-Repo-Commit": commit, "ETag": `W/"abc"`}, 7, fileMeta{commit, "abc", 7}, false},
		{"bad etag", map[string]string{"ETag": `"../../x"`}, 7, fileMeta{}, true},
		{"no etag", map[string]string{}, 7, fileMeta{}, true},
		{"bad commit", map[string]string{"X-Repo-Commit": "main", "ETag": "abc"}, 7, fileMeta{}, true},
		{"bad size", map[string]string{"ETag": "abc", "X-Linked-Size": "-5"}, 7, fileMeta{}, true},
		{"huge size", map[string]string{"ETag": "abc", "X-Linked-Size": "99999999999999999"}, 7, fileMeta{}, true},
	}
	for _, tc := range tests {
		h := http.Header{}
		for k, v := range tc.headers {
			h.Set(k, v)
		}
		got, err := parseMeta(h, tc.length, "f")
		if (err != nil) != tc.err || (!tc.err && got != tc.want) {
			t.Errorf("%s: %+v, %v", tc.name, got, err)
		}
		if err != nil && !errors.Is(err, ErrProtocol) {
			t.Errorf("%s: %v is not ErrProtocol", tc.name, err)
		}
	}
}

func TestContentRange(t *testing.T) {
	tests := []struct {
		in           string
		first, total int64
		ok           bool
	}{
		{"bytes 10-19/100", 10, 100, true},
		{"bytes 0-0/*", 0, -1, true},
		{"bytes */100", 0, 0, false},
		{"items 1-2/3", 0, 0, false},
		{"bytes -1-2/3", 0, 0, false},
	}
	for _, tc := range tests {
		first, total, ok := parseContentRange(tc.in)
		if ok != tc.ok || (ok && (first != tc.first || total != tc.total)) {
			t.Errorf("parseContentRange(%q) = %d, %d, %v", tc.in, first, total, ok)
		}
	}
}
