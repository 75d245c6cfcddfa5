//go:build race

package runtime

// raceEnabled is set when the tests run under the race detector.
const raceEnabled = true
