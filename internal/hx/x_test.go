package hx
import (
	"fmt"
	"testing"
	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/hidden"
)
func TestX(t *testing.T) {
	s := "  <details>\n\n<summary>cnry0305q</summary>\n<?x cnry0306q ?>\n\n\n> - [^1]: cnry0307q\n\n<details>\n<summary>cnry0308q</summary>\n\n\n<!-- cnry0309q\nword cnry0310q<summary>cnry0311q</summary><details><\n\n\n"
	for _, sp := range hidden.Find(s) { fmt.Println(sp.Start, sp.End, sp.Kind, sp.Collapsed, len(s)) }
	fmt.Printf("%q\n", hidden.Mark(s))
}
