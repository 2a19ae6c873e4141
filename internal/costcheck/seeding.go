package costcheck

import "flag"

// Seeding reports whether a fuzz target's seed corpus is used in this
// process. A fuzzing worker (go test -fuzz starts a few) runs the target's
// body too, but is sent its inputs by the coordinator: building seeds
// there (seconds of CPU for a corpus of hostile PDFs) is only cost.
func Seeding() bool {
	f := flag.Lookup("test.fuzzworker")
	return f == nil || f.Value.String() != "true"
}
