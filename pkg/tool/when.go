package tool

import (
	"fmt"
	"regexp"
	"strings"
	"time"
)

// whenPattern is an RFC 3339 date-time or a bare date, checked when the
// arguments are parsed so a handler's Time never sees anything else.
var whenPattern = regexp.MustCompile(`^\d{4}-\d{2}-\d{2}([Tt ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?([Zz]|[+-]\d{2}:\d{2}))?$`)

const whenHint = "an RFC 3339 date-time such as 2026-01-02T15:04:05Z, or a date such as 2026-01-02 (midnight UTC)"

// When is a point in time, named name, described by desc.
func When(name, desc string, opts ...Opt) Param {
	return Str(name, desc+" (RFC 3339 or a date)", append(opts, Match(whenPattern, whenHint))...)
}

// whenOrEmptyPattern is whenPattern or the empty string.
var whenOrEmptyPattern = regexp.MustCompile(`^$|` + whenPattern.String()[1:])

// WhenOrEmpty is a When whose empty value means "remove it", such as a
// due date; Time returns the zero time for it.
func WhenOrEmpty(name, desc string, opts ...Opt) Param {
	return Str(name, desc+" (RFC 3339 or a date; \"\" removes it)",
		append(opts, Match(whenOrEmptyPattern, whenHint+", or an empty string"))...)
}

// Since filters a list to what changed at or after a time; what says what
// the time is compared with ("updated", "created").
func Since(what string) Param { return When("since", upper(what)+" at or after") }

// Before filters a list to what changed before a time.
func Before(what string) Param { return When("before", upper(what)+" before") }

// upper is s with its first letter in upper case.
func upper(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

// Time returns the time of a When parameter, the zero time when absent.
// An out-of-range value the pattern let through (month 13) is an error.
func (a Args) Time(name string) (time.Time, error) {
	s := a.String(name)
	if s == "" {
		return time.Time{}, nil
	}
	if len(s) == len(time.DateOnly) {
		t, err := time.Parse(time.DateOnly, s)
		return t, whenErr(name, s, err)
	}
	s = strings.Replace(strings.ToUpper(s), " ", "T", 1)
	if strings.Count(s, ":") == 1 || (strings.Count(s, ":") == 2 && !strings.HasSuffix(s, "Z") && len(s) == len("2006-01-02T15:04+07:00")) {
		t, err := time.Parse("2006-01-02T15:04Z07:00", s) // no seconds
		return t, whenErr(name, s, err)
	}
	t, err := time.Parse(time.RFC3339Nano, s)
	return t, whenErr(name, s, err)
}

func whenErr(name, s string, err error) error {
	if err == nil {
		return nil
	}
	return fmt.Errorf("invalid arguments: argument %q: %q is not %s", name, s, whenHint)
}

// Window returns the since and before arguments, zero when absent, and
// refuses a window that is empty by construction.
func (a Args) Window() (since, before time.Time, err error) {
	if since, err = a.Time("since"); err != nil {
		return since, before, err
	}
	if before, err = a.Time("before"); err != nil {
		return since, before, err
	}
	if !since.IsZero() && !before.IsZero() && !since.Before(before) {
		return since, before, fmt.Errorf("invalid arguments: since (%s) must be earlier than before (%s)", a.String("since"), a.String("before"))
	}
	return since, before, nil
}
