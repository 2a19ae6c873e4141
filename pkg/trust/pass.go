package trust

import (
	"bytes"
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"
)

// Pass applies scoping, author marks and lockdown to one result of one
// call, where the result's plan says its texts, authors and repositories
// are. It is what the tool pipeline runs on every result, so no converter
// and no surface has to remember it.
type Pass struct {
	Fence Fence
	// Lockdown withholds the texts, on public repositories, of authors
	// without write access (or whose access cannot be told).
	Lockdown bool
	// Marks adds each author's relation to the repository next to them.
	Marks bool
	// Repo is the call's repository ("owner/repo"): the one its texts
	// belong to unless a part of the result names another; "" for none.
	Repo string
	// Context is the author of texts the result does not attribute (an
	// issue attachment's name is taken as its issue author's); nil: none.
	Context *ContextAuthor
	Access  *Access
}

// ContextAuthor is the author a call's result is about without naming
// them: an issue's, a comment's, a pull request's.
type ContextAuthor struct {
	// Key is the member the login is shown in ("issue_author"); the
	// relation follows in Key+"_role".
	Key string
	// Login asks the forge; an error leaves the author unknown.
	Login func(ctx context.Context) (string, error)
}

// Outcome is what a pass did to a result.
type Outcome struct {
	// JSON is the result's new JSON; nil when the pass changed nothing.
	JSON []byte
	// Refusal, when set, replaces the whole result: it belongs to a
	// repository outside the scope.
	Refusal string
	// Hidden counts the parts dropped as outside the scope; Withheld the
	// texts lockdown withheld.
	Hidden, Withheld int
}

// authorRef is one author member found in the result.
type authorRef struct {
	obj   *object
	key   string
	login string
	repo  string
}

// textSite is one text found in the result.
type textSite struct {
	obj     *object
	key     string
	repo    string
	author  *authorRef // nil: the context author's, or nobody's
	context bool
}

type walker struct {
	p       *Pass
	authors []*authorRef
	texts   []*textSite
	// orphans are the objects holding text nobody is named for: marked
	// with an unknown author.
	orphans []*object
	hidden  int
}

// Apply runs the pass over data, the JSON of a result whose plan is plan.
func (p *Pass) Apply(ctx context.Context, plan *Plan, data []byte) Outcome {
	if plan.empty() || !p.Lockdown && !p.Marks && !p.Fence.IsSet() {
		return Outcome{}
	}
	root := &node{raw: data}
	if root.openObject() == nil {
		if p.Lockdown || p.Fence.IsSet() {
			// What cannot be read cannot be checked.
			return Outcome{Refusal: "the result could not be read to check it (not one JSON object), so it is withheld"}
		}
		return Outcome{}
	}
	w := &walker{p: p}
	if w.walk(root, plan, p.Repo, nil) {
		return Outcome{Refusal: p.Fence.Refusal(splitFull(w.droppedRepo(root, plan)))}
	}
	changed := w.hidden > 0
	if w.hidden > 0 {
		note := fmt.Sprintf("%d results outside the allowed repositories (%s) were hidden", w.hidden, p.Fence.Describe())
		addNote(root.obj, note)
	}
	withheld := 0
	if len(w.texts) > 0 || len(w.authors) > 0 {
		var ok bool
		withheld, ok = w.settle(ctx, root.obj)
		changed = changed || ok
	}
	if !changed {
		return Outcome{}
	}
	var b bytes.Buffer
	root.encode(&b)
	return Outcome{JSON: b.Bytes(), Hidden: w.hidden, Withheld: withheld}
}

// walk finds the authors, texts and repositories of n along plan, dropping
// the parts outside the fence; it reports whether n itself is outside.
func (w *walker) walk(n *node, plan *Plan, repo string, author *authorRef) bool {
	obj := n.openObject()
	if obj == nil {
		return false
	}
	if plan.Repo != "" {
		if s, ok := stringAt(obj, plan.Repo); ok && s != "" {
			repo = s
			if w.p.Fence.IsSet() && !w.p.Fence.Allows(splitFull(s)) {
				return true
			}
		}
	}
	if plan.Author != "" {
		author = &authorRef{obj: obj, key: plan.Author, login: loginAt(obj, plan.Author), repo: repo}
		w.authors = append(w.authors, author)
	}
	for key, context := range plan.Texts {
		// Any value but none is taken as text: one that is not a string
		// (never sent by the tools) is withheld all the same.
		if v, _ := obj.get(key); !v.empty() {
			t := &textSite{obj: obj, key: key, repo: repo, author: author, context: context}
			if context {
				t.author = nil
			}
			if t.author == nil && w.p.Context == nil && !slices.Contains(w.orphans, obj) {
				w.orphans = append(w.orphans, obj)
			}
			w.texts = append(w.texts, t)
		}
	}
	for key, sub := range plan.Members {
		v, _ := obj.get(key)
		if v == nil {
			continue
		}
		if arr, ok := v.openArray(); ok {
			kept := arr[:0]
			for _, e := range arr {
				if w.walk(e, sub, repo, author) {
					w.hidden++
					continue
				}
				kept = append(kept, e)
			}
			v.arr = kept
			continue
		}
		if w.walk(v, sub, repo, author) {
			w.hidden++
			obj.remove(key)
		}
	}
	return false
}

// droppedRepo is the repository the root object names, for a refusal.
func (w *walker) droppedRepo(root *node, plan *Plan) string {
	s, _ := stringAt(root.obj, plan.Repo)
	return s
}

// settle asks the forge what it needs and marks and withholds; it
// returns how many texts it withheld and whether it changed anything.
func (w *walker) settle(ctx context.Context, top *object) (int, bool) {
	p := w.p
	contextLogin, contextUsed := "", false
	for _, t := range w.texts {
		if t.author == nil && p.Context != nil {
			contextUsed = true
		}
	}
	if contextUsed {
		if login, err := p.Context.Login(ctx); err == nil {
			contextLogin = login
		}
	}
	// Every (repository, author) pair once, a few at a time.
	type pair struct{ repo, login string }
	// In the order they appear, so the bounds cut the same ones each
	// time: the first authors of a result are the ones asked about.
	pairs := map[pair]Relation{}
	var keys []pair
	need := func(repo, login string) {
		k := pair{repo, login}
		if _, seen := pairs[k]; !seen && repo != "" {
			pairs[k] = Relation{}
			keys = append(keys, k)
		}
	}
	if p.Marks {
		for _, a := range w.authors {
			need(a.repo, a.login)
		}
		if contextUsed {
			need(p.Repo, contextLogin)
		}
	}
	if p.Lockdown {
		for _, t := range w.texts {
			need(t.repo, w.loginOf(t, contextLogin))
		}
	}
	rels := make([]Relation, len(keys))
	var wg sync.WaitGroup
	sem := make(chan struct{}, lookupsAtOnce)
	for i, k := range keys {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer func() { <-sem; wg.Done() }()
			rels[i] = Relation{Role: RoleUnknown}
			if k.login != "" {
				rels[i] = p.Access.Relation(ctx, k.repo, k.login)
			} else {
				p.Access.Repo(ctx, k.repo)
			}
		}()
	}
	wg.Wait()
	for i, k := range keys {
		pairs[k] = rels[i]
	}
	role := func(repo, login string) string {
		if rel, ok := pairs[pair{repo, login}]; ok && login != "" && rel.Role != "" {
			return rel.Role
		}
		return RoleUnknown
	}
	changed := false
	withheld := 0
	if p.Lockdown {
		for _, t := range w.texts {
			login := w.loginOf(t, contextLogin)
			why := p.withholding(ctx, t.repo, login, pairs[pair{t.repo, login}])
			if why == "" {
				continue
			}
			_, i := t.obj.get(t.key)
			t.obj.vals[i] = stringNode(why)
			withheld++
			changed = true
		}
	}
	if p.Marks {
		for _, a := range w.authors {
			_, i := a.obj.get(a.key)
			a.obj.insertAfter(i, a.key+"_role", stringNode(role(a.repo, a.login)))
			changed = true
		}
		for _, o := range w.orphans {
			o.insertAfter(-1, "author_role", stringNode(RoleUnknown))
			changed = true
		}
		if contextUsed {
			top.insertAfter(-1, p.Context.Key, stringNode(contextLogin))
			top.insertAfter(-1, p.Context.Key+"_role", stringNode(role(p.Repo, contextLogin)))
			changed = true
		}
	}
	return withheld, changed
}

// loginOf is the login of t's author ("" when unknown).
func (w *walker) loginOf(t *textSite, contextLogin string) string {
	if t.author != nil {
		return t.author.login
	}
	if w.p.Context != nil {
		return contextLogin
	}
	return ""
}

// withholding is why lockdown withholds a text by login in repo, or ""
// when it may be shown: in a private repository, or by someone who may
// write to the repository. Whatever cannot be told is withheld.
func (p *Pass) withholding(ctx context.Context, repo, login string, rel Relation) string {
	const pre = "[withheld by lockdown: "
	switch {
	case repo == "":
		return pre + "the repository it belongs to is unknown, so its author's access cannot be checked]"
	}
	facts := p.Access.Repo(ctx, repo)
	switch {
	case !facts.Known:
		return pre + "whether " + repo + " is public, and who may write to it, could not be read from the forge]"
	case facts.Private:
		return ""
	case login == "":
		return pre + "its author has no account the forge knows, so their access to the public repository " + repo + " cannot be checked]"
	case rel.Writer:
		return ""
	case !rel.WriteKnown:
		return fmt.Sprintf("%swritten by %s (%s), whose write access to the public repository %s the forge did not tell this token]", pre, login, rel.Role, repo)
	}
	return fmt.Sprintf("%swritten by %s (%s), who has no write access to the public repository %s]", pre, login, rel.Role, repo)
}

// Withholding is why lockdown withholds a whole result (a download of a
// file attached by login to repo), or "".
func (p *Pass) Withholding(ctx context.Context, repo, login string) string {
	if !p.Lockdown {
		return ""
	}
	rel := Relation{Role: RoleUnknown}
	if login != "" && repo != "" {
		rel = p.Access.Relation(ctx, repo, login)
	}
	return p.withholding(ctx, repo, login, rel)
}

// stringAt is obj's member key when it is a string.
func stringAt(obj *object, key string) (string, bool) {
	v, _ := obj.get(key)
	return v.str()
}

// loginAt is the login held by obj's member key: the string itself, or an
// object's "login".
func loginAt(obj *object, key string) string {
	v, _ := obj.get(key)
	if v == nil {
		return ""
	}
	if s, ok := v.str(); ok {
		return s
	}
	if o := v.openObject(); o != nil {
		s, _ := stringAt(o, "login")
		return s
	}
	return ""
}

// addNote appends note to obj's "note", or adds one.
func addNote(obj *object, note string) {
	if s, ok := stringAt(obj, "note"); ok && s != "" {
		note = s + "; " + note
	}
	obj.insertAfter(-1, "note", stringNode(note))
}

func splitFull(full string) (string, string) {
	owner, repo, _ := strings.Cut(full, "/")
	return owner, repo
}
