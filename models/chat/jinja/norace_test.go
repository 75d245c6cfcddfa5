//go:build !race

package jinja

// raceEnabled is set when the tests run under the race detector.
const raceEnabled = false
