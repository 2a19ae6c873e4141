package tool

import "regexp"

// Shared parameters: each has one name and one description everywhere.

// namePattern is what Forgejo accepts for user, organisation and repository
// names. It also guarantees a name cannot change an API route: no slash, no
// percent sign, no query or fragment characters.
var namePattern = regexp.MustCompile(`^[A-Za-z0-9_.-]+$`)

const nameHint = "letters, digits, '-', '_' and '.' only"

// Named declares a required parameter holding a user, organisation or
// repository name: what the forge accepts as one, never a route changer.
// Every name parameter is declared through it, so there is one pattern.
func Named(name, desc string) Param {
	return Str(name, desc, Required(), MaxLen(100), Match(namePattern, nameHint))
}

// Owner is the repository owner (user or organisation).
func Owner() Param { return Named("owner", "User or org") }

// Repo is the repository name.
func Repo() Param { return Named("repo", "Repository") }

// Org is an organisation name.
func Org() Param { return Named("org", "Organisation") }

// User is a user's login.
func User() Param { return Named("user", "User login") }

// Index is an issue or pull request number.
func Index() Param {
	return Int("index", "Issue or PR number", Required(), AtLeast(1))
}

// PullIndex is a pull request's number, for the tools that take only
// pull requests (issues and pull requests share one numbering).
func PullIndex() Param {
	return Int("index", "PR number", Required(), AtLeast(1))
}

// ID declares a required numeric ID parameter (from 1), such as
// "hook_id"; desc says what it identifies and where to find it.
func ID(name, desc string) Param { return Int(name, desc, Required(), AtLeast(1)) }

// CommentID is an issue or pull request comment's ID.
func CommentID() Param { return ID("comment_id", "Comment ID") }

// AttachmentID is a file attachment's ID (issue, comment or release).
func AttachmentID() Param { return ID("attachment_id", "Attachment ID") }

// ReleaseID is a release's ID.
func ReleaseID() Param { return ID("release_id", "Release ID") }

// Page is the 1-based page of a list.
func Page() Param {
	return Int("page", "Page, from 1", Default(1), AtLeast(1))
}

// Limit is the page size of a list.
func Limit() Param {
	return Int("limit", "Page size", Default(20), Range(1, 50))
}

// Paging is the page and limit of a list tool, in that order.
func Paging() []Param { return []Param{Page(), Limit()} }

// State filters issues and pull requests by state.
func State() Param {
	return Str("state", "Filter by state", Default("open"), OneOf("open", "closed", "all"))
}

// Pages is the page range of a PDF read as text.
func Pages() Param {
	return Str("pages", `PDF pages as text: "2", "1-3", "4-" (default all, up to 48 KiB)`, MaxLen(32))
}
