package store

import (
	"strconv"
	"testing"
)

var benchSizes = []int{1024, 65536}

// benchStore returns a full store of n entries keyed "0".."n-1".
func benchStore(b *testing.B, n int) (*Store[string, int], []string) {
	b.Helper()
	s, _ := newTest(b, Options{MaxEntries: n, MaxBytes: int64(n) * 100, TTL: 3600e9})
	keys := make([]string, 2*n)
	for i := range keys {
		keys[i] = strconv.Itoa(i)
	}
	for i := range n {
		mustPut(b, s, keys[i], i, 100)
	}
	return s, keys
}

// benchLoop runs op(s, keys, i) with i counting up, on full stores of each size.
func benchLoop(b *testing.B, op func(s *Store[string, int], keys []string, i int)) {
	for _, n := range benchSizes {
		b.Run(strconv.Itoa(n), func(b *testing.B) {
			s, keys := benchStore(b, n)
			b.ReportAllocs()
			i := 0
			for b.Loop() {
				op(s, keys, i)
				i++
			}
		})
	}
}

// BenchmarkGet gets keys that are all present.
func BenchmarkGet(b *testing.B) {
	benchLoop(b, func(s *Store[string, int], keys []string, i int) { s.Get(keys[i%s.opts.MaxEntries]) })
}

func BenchmarkGetParallel(b *testing.B) {
	s, keys := benchStore(b, 1024)
	b.ReportAllocs()
	b.RunParallel(func(pb *testing.PB) {
		i := 0
		for pb.Next() {
			s.Get(keys[i%1024])
			i++
		}
	})
}

// BenchmarkPutEvict puts new keys into a full store: each Put evicts one.
func BenchmarkPutEvict(b *testing.B) {
	benchLoop(b, func(s *Store[string, int], keys []string, i int) { s.Put(keys[i%len(keys)], i, 100) })
}

func BenchmarkPutReplace(b *testing.B) {
	s, keys := benchStore(b, 1024)
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		s.Put(keys[i%1024], i, 100)
		i++
	}
}
