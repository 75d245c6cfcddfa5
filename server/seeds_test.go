//go:build !race

package server

// seeds is how many sampled outputs each property of constrained output
// is checked on.
const seeds = 200

// raceDetector reports a build with the race detector.
const raceDetector = false
