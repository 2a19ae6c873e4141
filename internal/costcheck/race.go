//go:build race

package costcheck

// RaceFactor scales the CPU ceiling: the race detector makes code 5-10
// times slower.
const RaceFactor = 10
