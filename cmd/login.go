package cmd

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"sort"
	"strings"

	"github.com/spf13/pflag"
	"golang.org/x/term"

	"codeberg.org/forgejo-mcp/forgejo-mcp/operation"
	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/forgejo"
	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/tool"
)

// runLogin is `forgejo-mcp login`: check a forge and token by asking the
// forge who the token belongs to, then store them as a profile. The token
// comes from standard input (typed without echo on a terminal, or piped)
// or from --token-command, never from a flag value.
func runLogin(ctx context.Context, args []string, std IO, env Env) int {
	o := &loginOptions{}
	fs := o.flags()
	fs.Usage = func() {
		fmt.Fprintf(std.Out, "Usage:\n  forgejo-mcp login --url URL [--profile NAME] [--token-command CMD] [--default]\n  forgejo-mcp login --list\n\n"+
			"Checks the token with the forge (it must read the token's user: scope read:user) and stores the\n"+
			"forge as a profile. Then forgejo-mcp needs no FORGEJO_URL or token: --profile NAME picks one, the\n"+
			"default is used otherwise; FORGEJO_URL and --url still win.\n\nFlags:\n%s", fs.FlagUsages())
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, pflag.ErrHelp) {
			return ExitOK
		}
		fmt.Fprintln(std.Err, "forgejo-mcp login:", flagError(fs, err, "forgejo-mcp login --help"))
		return ExitUsage
	}
	url, name, command, caFile, makeDefault, list := o.url, o.name, o.command, o.caFile, o.makeDefault, o.list
	dir, err := configDir(env)
	if err == nil && fs.NArg() > 0 {
		err = errors.New("unexpected argument (not shown: it may be a token): the token is read from standard input or --token-command, never from the command line")
	}
	var store *profileStore
	if err == nil {
		store, err = loadProfiles(dir)
	}
	if err != nil {
		fmt.Fprintln(std.Err, "forgejo-mcp login:", err)
		return ExitUsage
	}
	if list {
		printProfiles(std.Out, store, env)
		return ExitOK
	}
	p, err := newProfile(url, &name, command, caFile)
	if err == nil {
		err = validProfileName(name)
	}
	if err != nil {
		fmt.Fprintln(std.Err, "forgejo-mcp login:", err)
		return ExitUsage
	}
	token, err := loginToken(ctx, command, url, std)
	if err != nil {
		fmt.Fprintln(std.Err, "forgejo-mcp login:", err)
		return ExitUsage
	}
	login, err := whoAmI(ctx, p, token)
	if err != nil {
		fmt.Fprintf(std.Err, "forgejo-mcp login: %v; nothing was stored\n", err)
		return ExitToolError
	}
	if command == "" {
		err = writePrivate(tokenPath(dir, name), []byte(token+"\n"))
	} else {
		err = os.Remove(tokenPath(dir, name))
		if errors.Is(err, os.ErrNotExist) {
			err = nil
		}
	}
	store.Profiles[name] = p
	if makeDefault || store.Default == "" {
		store.Default = name
	}
	if err == nil {
		err = store.save(dir)
	}
	if err != nil {
		fmt.Fprintln(std.Err, "forgejo-mcp login: storing the profile:", err)
		return ExitToolError
	}
	what := ""
	if store.Default == name {
		what = " (the default)"
	}
	fmt.Fprintf(std.Err, "Logged in to %s as %s: profile %s%s, stored in %s\n", p.URL, login, name, what, dir)
	return ExitOK
}

// loginOptions are the flags of login.
type loginOptions struct {
	url, name, command, caFile string
	makeDefault, list          bool
}

// flags is login's flag set (completion reads it too).
func (o *loginOptions) flags() *pflag.FlagSet {
	fs := pflag.NewFlagSet("forgejo-mcp login", pflag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.SetNormalizeFunc(normalizeFlag)
	fs.StringVar(&o.url, "url", "", "the forge's root URL, e.g. https://codeberg.org")
	fs.StringVar(&o.name, "profile", "", "the profile's name (default: the URL's host name)")
	fs.StringVar(&o.command, "token-command", "", "a command that prints the token (run with sh -c at every start, e.g. 'pass show codeberg'); without it the token is read from standard input and stored in a 0600 file")
	fs.StringVar(&o.caFile, "ca-file", "", "PEM file of CA certificates to trust for this forge")
	fs.BoolVar(&o.makeDefault, "default", false, "make it the default profile (the first one stored is)")
	fs.BoolVar(&o.list, "list", false, "list the stored profiles")
	onceOnly(fs)
	return fs
}

// logoutFlags is logout's flag set.
func logoutFlags(name *string) *pflag.FlagSet {
	fs := pflag.NewFlagSet("forgejo-mcp logout", pflag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.StringVar(name, "profile", "", "the profile to forget (forgejo-mcp login --list)")
	onceOnly(fs)
	return fs
}

// newProfile checks the URL and names the profile after its host when no
// name is given.
func newProfile(rawURL string, name *string, command, caFile string) (Profile, error) {
	if strings.TrimSpace(rawURL) == "" {
		return Profile{}, errors.New("--url is required: the forge's root URL, e.g. https://codeberg.org")
	}
	u, err := forgejo.ParseBaseURL(rawURL)
	if err != nil {
		return Profile{}, err
	}
	if caFile != "" {
		if _, err := forgejo.TLSConfig(caFile, false); err != nil {
			return Profile{}, err
		}
	}
	if *name == "" {
		*name = u.Hostname()
	}
	return Profile{URL: u.String(), CAFile: caFile, TokenCommand: command}, nil
}

// loginToken reads the token: the token command's output, a line typed on
// the terminal without echo, or the first line of standard input.
func loginToken(ctx context.Context, command, url string, std IO) (string, error) {
	if command != "" {
		return runTokenCommand(ctx, command)
	}
	var token string
	if f, ok := std.In.(*os.File); ok && term.IsTerminal(int(f.Fd())) {
		fmt.Fprintf(std.Err, "Paste an access token for %s (input hidden; create one under Settings → Applications): ", url)
		b, err := term.ReadPassword(int(f.Fd()))
		fmt.Fprintln(std.Err)
		if err != nil {
			return "", err
		}
		token = string(b)
	} else if std.In != nil {
		line, err := bufio.NewReader(io.LimitReader(std.In, 64<<10)).ReadString('\n')
		if err != nil && !errors.Is(err, io.EOF) {
			return "", err
		}
		token = line
	}
	token = strings.TrimSpace(token)
	if token == "" {
		return "", errors.New("no token: pipe it on standard input (forgejo-mcp login --url URL < token-file) or give --token-command")
	}
	if strings.ContainsAny(token, " \t") {
		return "", errors.New("the token contains white space")
	}
	return token, nil
}

// whoAmI asks the forge whose token it is, through the same tool call
// pipeline as everything else (errors say what the forge refused).
func whoAmI(ctx context.Context, p Profile, token string) (string, error) {
	var cfg Config
	cfg.registerFlags(pflag.NewFlagSet("login", pflag.ContinueOnError), func(string) string { return "" })
	cfg.RawURL, cfg.CAFile, cfg.profileToken = p.URL, p.CAFile, token
	if err := cfg.resolve(func(string) string { return "" }, true); err != nil {
		return "", err
	}
	def, _ := tool.Find(operation.All(), "get_my_user_info")
	res := cfg.runner(slog.New(slog.DiscardHandler)).Call(ctx, def, map[string]any{})
	if res.IsError {
		return "", errors.New(resultText(res))
	}
	var me struct {
		Login string `json:"login"`
	}
	if err := json.Unmarshal([]byte(resultText(res)), &me); err != nil || me.Login == "" {
		return "", fmt.Errorf("the forge's answer names no user")
	}
	return me.Login, nil
}

// printProfiles lists the stored profiles and says which one is in use.
func printProfiles(w io.Writer, store *profileStore, env Env) {
	if len(store.Profiles) == 0 {
		fmt.Fprintln(w, "No profiles: store one with forgejo-mcp login --url URL")
		return
	}
	names := store.names()
	sort.Strings(names)
	tw := newTable(w)
	fmt.Fprintln(tw, "PROFILE\tURL\tTOKEN\t")
	for _, n := range names {
		p := store.Profiles[n]
		src, mark := "stored (0600 file)", ""
		if p.TokenCommand != "" {
			src = "command: " + p.TokenCommand
		}
		if n == store.Default {
			mark = "default"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\n", n, p.URL, src, mark)
	}
	_ = tw.Flush()
	if env("FORGEJO_URL") != "" {
		fmt.Fprintln(w, "FORGEJO_URL is set: it wins over the profiles")
	}
}

// runLogout is `forgejo-mcp logout --profile NAME`: forget a profile and
// delete its stored token.
func runLogout(_ context.Context, args []string, std IO, env Env) int {
	var name string
	fs := logoutFlags(&name)
	fs.Usage = func() {
		fmt.Fprintf(std.Out, "Usage:\n  forgejo-mcp logout --profile NAME\n\nForgets the profile and deletes its stored token (revoke the token itself on the forge).\n\nFlags:\n%s", fs.FlagUsages())
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, pflag.ErrHelp) {
			return ExitOK
		}
		fmt.Fprintln(std.Err, "forgejo-mcp logout:", flagError(fs, err, "forgejo-mcp logout --help"))
		return ExitUsage
	}
	dir, err := configDir(env)
	var store *profileStore
	if err == nil {
		store, err = loadProfiles(dir)
	}
	if err == nil && name == "" {
		err = errors.New("--profile NAME is required (forgejo-mcp login --list shows them)")
	}
	if err == nil {
		if _, ok := store.Profiles[name]; !ok {
			err = fmt.Errorf("no profile %q%s", name, didYouMeanWord(name, store.names()))
		}
	}
	if err != nil {
		fmt.Fprintln(std.Err, "forgejo-mcp logout:", err)
		return ExitUsage
	}
	delete(store.Profiles, name)
	if store.Default == name {
		store.Default = ""
	}
	err = os.Remove(tokenPath(dir, name))
	if errors.Is(err, os.ErrNotExist) {
		err = nil
	}
	if err == nil {
		err = store.save(dir)
	}
	if err != nil {
		fmt.Fprintln(std.Err, "forgejo-mcp logout:", err)
		return ExitToolError
	}
	fmt.Fprintf(std.Err, "Forgot profile %s; its token still works until you revoke it on the forge\n", name)
	return ExitOK
}
