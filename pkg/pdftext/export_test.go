package pdftext

// Work is what an extraction did (tokens lexed, operands dropped, streams
// stopped, cross-reference sections read), for tests to assert on.
type Work = work

// WorkOf returns the work counted for r.
func WorkOf(r *Result) Work { return r.work }
