package actions

// JobPageOf is jobPage for the tests of package actions_test.
func JobPageOf(runURL, name string, statuses ...CIStatus) string {
	return jobPage(statuses, runURL, name)
}
