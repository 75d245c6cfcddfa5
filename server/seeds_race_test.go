//go:build race

package server

// seeds is how many sampled outputs each property of constrained output
// is checked on: fewer under the race detector, which makes the model's
// forward pass many times slower (the full count runs without it).
const seeds = 16

// raceDetector reports a build with the race detector.
const raceDetector = true
