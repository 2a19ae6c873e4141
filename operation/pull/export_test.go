package pull

import "time"

// FastMergeRetries makes merge retries immediate for the duration of a test.
func FastMergeRetries() (restore func()) {
	d := mergeRetryDelay
	mergeRetryDelay = time.Millisecond
	return func() { mergeRetryDelay = d }
}

// FastAutoMergeWait shortens the wait for a merge no rule holds back.
func FastAutoMergeWait() (restore func()) {
	d := autoMergeWait
	autoMergeWait = 2 * time.Second
	return func() { autoMergeWait = d }
}
