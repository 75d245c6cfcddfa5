package hub

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
)

// minPart is the smallest byte range worth its own connection.
const minPart = 256 << 10

// fetchParallel downloads a file of known size in byte ranges over several
// connections. The first range goes into the .incomplete file itself, so
// that it always holds a valid prefix of the file (what the Hugging Face
// tools resume from); every other range goes into "<incomplete>.<start>".
// Lengths of these files say how far each range got, so a rerun resumes
// every range where it stopped. When all are done, the ranges are appended
// to the .incomplete file in order.
func (c *Client) fetchParallel(ctx context.Context, u, what, incomplete string, size int64, prog *fileProgress) error {
	spans, err := planParts(incomplete, size, c.opts.Connections)
	defer closeSpans(spans)
	if err != nil {
		return diskFull(err, incomplete)
	}
	var done int64
	for _, sp := range spans {
		done += sp.done
	}
	prog.set(done)
	prog.event(EventStart)
	pctx, cancel := context.WithCancel(ctx)
	defer cancel()
	errs := make([]error, len(spans))
	var wg sync.WaitGroup
	for i, sp := range spans {
		wg.Go(func() {
			if errs[i] = c.fetchSpan(pctx, u, what, sp, size, prog); errs[i] != nil {
				cancel()
			}
		})
	}
	wg.Wait()
	if err := firstError(ctx, errs); err != nil {
		if errors.Is(err, errNoRange) {
			closeSpans(spans[1:])
			removeParts(incomplete)
		}
		return err
	}
	return assemble(spans)
}

// planParts opens the .incomplete file and the range files, reusing those a
// previous run left, or cuts what is missing into n ranges.
func planParts(incomplete string, size int64, n int) ([]*span, error) {
	f, err := os.OpenFile(incomplete, os.O_CREATE|os.O_RDWR, 0o644)
	if err != nil {
		return nil, err
	}
	have, err := fileLen(f, size)
	if err != nil {
		f.Close()
		return nil, err
	}
	// A range that starts before the end of the prefix was (partly) appended
	// already: the prefix has its bytes.
	var starts []int64
	for _, p := range partFiles(incomplete) {
		if s := partStart(incomplete, p); s > 0 && s >= have && s < size {
			starts = append(starts, s)
		} else {
			os.Remove(p)
		}
	}
	slices.Sort(starts)
	if len(starts) == 0 {
		rest := size - have
		k := max(1, min(int64(n), rest/minPart))
		for i := int64(1); i < k; i++ {
			starts = append(starts, have+rest*i/k)
		}
	}
	spans := []*span{{f: f, path: incomplete, end: size, done: have}}
	if len(starts) > 0 {
		spans[0].end = starts[0]
	}
	for i, s := range starts {
		end := size
		if i+1 < len(starts) {
			end = starts[i+1]
		}
		p := incomplete + "." + strconv.FormatInt(s, 10)
		pf, err := os.OpenFile(p, os.O_CREATE|os.O_RDWR, 0o644)
		if err != nil {
			return spans, err
		}
		done, err := fileLen(pf, end-s)
		spans = append(spans, &span{f: pf, path: p, start: s, end: end, done: done})
		if err != nil {
			return spans, err
		}
	}
	return spans, nil
}

// fileLen returns the length of f, emptying it when it exceeds limit.
func fileLen(f *os.File, limit int64) (int64, error) {
	st, err := f.Stat()
	if err != nil {
		return 0, err
	}
	if limit >= 0 && st.Size() > limit {
		return 0, f.Truncate(0)
	}
	return st.Size(), nil
}

// assemble appends the ranges to the first one, removing each range file
// once appended.
func assemble(spans []*span) error {
	head := spans[0]
	for _, sp := range spans[1:] {
		if _, err := io.Copy(io.NewOffsetWriter(head.f, sp.start), io.NewSectionReader(sp.f, 0, sp.end-sp.start)); err != nil {
			return diskFull(err, head.path)
		}
		sp.f.Close()
		sp.f = nil
		os.Remove(sp.path)
	}
	return nil
}

// partFiles lists the range files of an .incomplete file. It reads the
// directory rather than globbing, so that a cache path holding '[' or '*'
// does not hide them.
func partFiles(incomplete string) []string {
	dir := filepath.Dir(incomplete)
	entries, _ := os.ReadDir(dir)
	var parts []string
	for _, e := range entries {
		if p := filepath.Join(dir, e.Name()); partStart(incomplete, p) > 0 {
			parts = append(parts, p)
		}
	}
	return parts
}

// partStart returns the offset in the name of a range file, or -1.
func partStart(incomplete, p string) int64 {
	s, ok := strings.CutPrefix(p, incomplete+".")
	if !ok {
		return -1
	}
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil || n <= 0 {
		return -1
	}
	return n
}

func removeParts(incomplete string) {
	for _, p := range partFiles(incomplete) {
		os.Remove(p)
	}
}

func closeSpans(spans []*span) {
	for _, sp := range spans {
		if sp.f != nil {
			sp.f.Close()
			sp.f = nil
		}
	}
}

// firstError returns the error that stopped the ranges: the first that is
// not the cancellation it caused in the others.
func firstError(ctx context.Context, errs []error) error {
	var cancelled error
	for _, err := range errs {
		switch {
		case err == nil:
		case errors.Is(err, context.Canceled) && ctx.Err() == nil:
			cancelled = err
		default:
			return err
		}
	}
	if cancelled != nil {
		return fmt.Errorf("download stopped: %w", cancelled)
	}
	return nil
}
