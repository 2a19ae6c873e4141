//go:build race

package pdftext_test

// raceEnabled: the race detector slows interpretation ten times over.
const raceEnabled = true
