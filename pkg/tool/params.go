package tool

import "regexp"

// Shared parameters: each has one name and one description everywhere.

// namePattern is what Forgejo accepts for user, organisation and repository
// names. It also guarantees a name cannot change an API route: no slash, no
// percent sign, no query or fragment characters.
var namePattern = regexp.MustCompile(`^[A-Za-z0-9_.-]+$`)

const nameHint = "letters, digits, '-', '_' and '.' only"

// Owner is the repository owner (user or organisation).
func Owner() Param {
	return Str("owner", "Owner: a user or organisation", Required(),
		MaxLen(100), Match(namePattern, nameHint))
}

// Repo is the repository name.
func Repo() Param {
	return Str("repo", "Repository name", Required(),
		MaxLen(100), Match(namePattern, nameHint))
}

// Index is an issue or pull request number.
func Index() Param {
	return Int("index", "Issue or pull request number (#N)", Required(), AtLeast(1))
}

// Page is the 1-based page of a list.
func Page() Param {
	return Int("page", "Page number, from 1", Default(1), AtLeast(1))
}

// Limit is the page size of a list.
func Limit() Param {
	return Int("limit", "Page size", Default(20), Range(1, 50))
}

// State filters issues and pull requests by state.
func State() Param {
	return Str("state", "Filter by state", Default("open"), OneOf("open", "closed", "all"))
}
