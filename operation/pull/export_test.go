package pull

import "time"

// FastMergeRetries makes merge retries immediate for the duration of a test.
func FastMergeRetries() (restore func()) {
	d := mergeRetryDelay
	mergeRetryDelay = time.Millisecond
	return func() { mergeRetryDelay = d }
}
