package cmd

import "strings"

// foldRoles joins, for --output table, each author mark to its author:
// "author": "eve" and "author_role": "none" read "author  eve (none)", one
// field (one column in a table) rather than two. Only what people read
// changes: the JSON forms keep the marks as the server sent them.
func foldRoles(v any) {
	switch v := v.(type) {
	case []any:
		for _, e := range v {
			foldRoles(e)
		}
	case *object:
		kept := v.keys[:0]
		for _, k := range v.keys {
			foldRoles(v.vals[k])
			base, ok := strings.CutSuffix(k, "_role")
			role, isString := v.vals[k].(string)
			if !ok || !isString || role == "" {
				kept = append(kept, k)
				continue
			}
			login := ""
			switch a := v.vals[base].(type) {
			case string:
				login = a
			case *object:
				login, _ = a.vals["login"].(string)
			}
			if login == "" {
				kept = append(kept, k)
				continue
			}
			v.vals[base] = login + " (" + role + ")"
			delete(v.vals, k)
		}
		v.keys = kept
	}
}
