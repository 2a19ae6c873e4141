package operation_test

import (
	"reflect"

	sdk "codeberg.org/mvdkleijn/forgejo-sdk/forgejo/v3"
)

// sdkTypes maps a response definition to the forgejo-sdk type the SDK
// decodes it into (the SDK names its types after Forgejo's definitions;
// where it decodes into an unexported envelope, a mirror of it).
// TestDrift/ResponseShapesMatchOrAreDeclared asks for an entry when a tool's
// SDK call answers a definition missing here.
var sdkTypes = map[string]reflect.Type{
	"ActionVariable": reflect.TypeFor[sdk.ActionVariable](),
	"Secret":         reflect.TypeFor[sdk.Secret](),
	// Issue 29's repository administration (operation/repoadmin).
	"RepoCollaboratorPermission": reflect.TypeFor[sdk.CollaboratorPermissionResult](),
	"TagProtection":              reflect.TypeFor[sdk.TagProtection](),
	"DeployKey":                  reflect.TypeFor[sdk.DeployKey](),
	"PushMirror":                 reflect.TypeFor[sdk.PushMirrorResponse](),
	// ListRepoTopics decodes {"topics": [...]}.
	"TopicName": reflect.TypeFor[struct {
		Topics []string `json:"topics"`
	}](),
	"WatchInfo":          reflect.TypeFor[sdk.WatchInfo](),
	"Branch":             reflect.TypeFor[sdk.Branch](),
	"CommitStatus":       reflect.TypeFor[sdk.Status](),
	"GitTreeResponse":    reflect.TypeFor[sdk.GitTreeResponse](),
	"PullReview":         reflect.TypeFor[sdk.PullReview](),
	"PullReviewComment":  reflect.TypeFor[sdk.PullReviewComment](),
	"Reaction":           reflect.TypeFor[sdk.Reaction](),
	"Tag":                reflect.TypeFor[sdk.Tag](),
	"BranchProtection":   reflect.TypeFor[sdk.BranchProtection](),
	"ChangedFile":        reflect.TypeFor[sdk.ChangedFile](),
	"Comment":            reflect.TypeFor[sdk.Comment](),
	"Commit":             reflect.TypeFor[sdk.Commit](),
	"Hook":               reflect.TypeFor[sdk.Hook](),
	"Issue":              reflect.TypeFor[sdk.Issue](),
	"Label":              reflect.TypeFor[sdk.Label](),
	"Milestone":          reflect.TypeFor[sdk.Milestone](),
	"NotificationThread": reflect.TypeFor[sdk.NotificationThread](),
	"Organization":       reflect.TypeFor[sdk.Organization](),
	"PullRequest":        reflect.TypeFor[sdk.PullRequest](),
	"Release":            reflect.TypeFor[sdk.Release](),
	"Repository":         reflect.TypeFor[sdk.Repository](),
	"StopWatch":          reflect.TypeFor[sdk.StopWatch](),
	"Team":               reflect.TypeFor[sdk.Team](),
	"TrackedTime":        reflect.TypeFor[sdk.TrackedTime](),
	"User":               reflect.TypeFor[sdk.User](),
	// SearchRepos decodes {"data": [...]} into repositories.
	"SearchResults": reflect.TypeFor[struct {
		Repos []*sdk.Repository `json:"data"`
	}](),
}
