//go:build !race

package costcheck

// RaceFactor scales the CPU ceiling: 1 without the race detector.
const RaceFactor = 1
