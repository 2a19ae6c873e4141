package trust

import (
	"context"
	"strings"
	"sync"

	sdk "codeberg.org/mvdkleijn/forgejo-sdk/forgejo/v3"

	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/forgejo"
)

// Roles: an author's relation to a repository, as the marks show it.
const (
	// RoleOwner owns the repository, or owns its organisation.
	RoleOwner = "owner"
	// RoleMember is a member of the organisation that owns the repository.
	RoleMember = "member"
	// RoleCollaborator has been given access to the repository without
	// owning it or being a member of its organisation.
	RoleCollaborator = "collaborator"
	// RoleNone has no relation to the repository beyond what everyone
	// has (reading a public one).
	RoleNone = "none"
	// RoleUnknown: the forge could not tell (a lookup failed, was not
	// allowed, or the author has no account the forge knows).
	RoleUnknown = "unknown"
)

// Bounds of the lookups one call makes to learn who may write where. Past
// them a repository or an author is unknown, which lockdown treats as
// untrusted.
const (
	// MaxRepos is the repositories one call looks up.
	MaxRepos = 16
	// MaxAuthors is the (repository, author) pairs one call looks up.
	MaxAuthors = 64
	// lookupsAtOnce is how many lookups run concurrently.
	lookupsAtOnce = 4
)

// Relation is what the forge says about an author and a repository.
type Relation struct {
	Role string
	// Writer says the author may push to the repository (write, admin or
	// owner access); WriteKnown says the forge told whether they may.
	Writer, WriteKnown bool
}

// RepoFacts is what lockdown needs to know about a repository.
type RepoFacts struct {
	Known   bool // the forge answered
	Private bool
	Owner   string
}

// Access answers who may write where for one call, asking the forge at
// most once per repository and per (repository, author), within MaxRepos
// and MaxAuthors. It is safe for concurrent use and lives as long as the
// call: nothing is cached across calls or identities.
type Access struct {
	c      *forgejo.Client
	mu     sync.Mutex
	repos  map[string]*repoEntry
	people map[string]*personEntry
}

type repoEntry struct {
	once  sync.Once
	facts RepoFacts
}

type personEntry struct {
	once sync.Once
	rel  Relation
}

// NewAccess returns an Access asking the forge through c (nil: knows
// nothing).
func NewAccess(c *forgejo.Client) *Access {
	return &Access{c: c, repos: map[string]*repoEntry{}, people: map[string]*personEntry{}}
}

// Repo returns the facts of the repository full ("owner/repo").
func (a *Access) Repo(ctx context.Context, full string) RepoFacts {
	owner, name, ok := strings.Cut(full, "/")
	if !ok || a.c == nil {
		return RepoFacts{}
	}
	key := strings.ToLower(full)
	a.mu.Lock()
	e, ok := a.repos[key]
	if !ok {
		if len(a.repos) >= MaxRepos {
			a.mu.Unlock()
			return RepoFacts{}
		}
		e = &repoEntry{}
		a.repos[key] = e
	}
	a.mu.Unlock()
	e.once.Do(func() {
		r, resp, err := a.c.SDK(ctx).GetRepo(owner, name)
		if err := forgejo.Fail(resp, err, "get", full); err != nil || r == nil {
			return
		}
		e.facts = RepoFacts{Known: true, Private: r.Private}
		if r.Owner != nil {
			e.facts.Owner = r.Owner.UserName
		}
	})
	return e.facts
}

// Relation returns login's relation to the repository full.
func (a *Access) Relation(ctx context.Context, full, login string) Relation {
	if login == "" || a.c == nil {
		return Relation{Role: RoleUnknown}
	}
	key := strings.ToLower(full + "\x00" + login)
	a.mu.Lock()
	e, ok := a.people[key]
	if !ok {
		if len(a.people) >= MaxAuthors {
			a.mu.Unlock()
			return Relation{Role: RoleUnknown}
		}
		e = &personEntry{}
		a.people[key] = e
	}
	a.mu.Unlock()
	e.once.Do(func() { e.rel = a.relation(ctx, full, login) })
	return e.rel
}

// relation asks the forge: the repository's owner by name; otherwise the
// author's permission on the repository (which the forge tells a
// repository administrator, a site administrator, or the author
// themselves), their membership of the owning organisation, and, when the
// permission was not told, whether they are a collaborator.
func (a *Access) relation(ctx context.Context, full, login string) Relation {
	facts := a.Repo(ctx, full)
	if !facts.Known {
		return Relation{Role: RoleUnknown}
	}
	if strings.EqualFold(login, facts.Owner) {
		return Relation{Role: RoleOwner, Writer: true, WriteKnown: true}
	}
	owner, name, _ := strings.Cut(full, "/")
	// The three questions at once: one round trip rather than three, at
	// the price of a collaborator question the permission would have
	// made needless for a writer.
	var (
		perm                     *sdk.CollaboratorPermissionResult
		permErr, memberErr, cErr error
		member, collaborator     bool
		wg                       sync.WaitGroup
	)
	wg.Add(3)
	go func() {
		defer wg.Done()
		var resp *sdk.Response
		perm, resp, permErr = a.c.SDK(ctx).CollaboratorPermission(owner, name, login)
		permErr = forgejo.Fail(resp, permErr, "get", "permission")
	}()
	go func() {
		defer wg.Done()
		var resp *sdk.Response
		member, resp, memberErr = a.c.SDK(ctx).CheckOrgMembership(owner, login)
		memberErr = forgejo.Fail(resp, memberErr, "check", "membership")
	}()
	go func() {
		defer wg.Done()
		var resp *sdk.Response
		collaborator, resp, cErr = a.c.SDK(ctx).IsCollaborator(owner, name, login)
		cErr = forgejo.Fail(resp, cErr, "check", "collaborator")
	}()
	wg.Wait()
	rel := Relation{Role: RoleNone}
	switch {
	case permErr == nil && perm != nil:
		rel.WriteKnown = true
		switch perm.Permission {
		case sdk.AccessModeOwner:
			return Relation{Role: RoleOwner, Writer: true, WriteKnown: true}
		case sdk.AccessModeAdmin, sdk.AccessModeWrite:
			rel.Writer, rel.Role = true, RoleCollaborator
		}
	case forgejo.IsNotFound(permErr):
		// No such user (a deleted account shows as a ghost): nobody who
		// can write.
		rel.WriteKnown = true
	}
	switch {
	case memberErr == nil && member:
		rel.Role = RoleMember
	case memberErr != nil && !forgejo.IsNotFound(memberErr):
		// The organisation's members could not be read: who they are
		// stays unknown, and so does the role, unless the permission
		// already made them a collaborator.
		if rel.Role == RoleNone {
			rel.Role = RoleUnknown
		}
	case !rel.Writer:
		// Not a writer (or the permission was not told): whether they
		// collaborate (read-only, or the forge did not say), which any
		// reader of the repository may ask.
		switch {
		case cErr != nil:
			rel.Role = RoleUnknown
		case collaborator:
			rel.Role = RoleCollaborator
		}
	}
	return rel
}
