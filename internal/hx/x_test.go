package hx
import (
	"fmt"
	"testing"
	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/hidden"
)
func TestX(t *testing.T) {
	s := "a</span>\n[^1]: c52q\n    <!--\nc53q\n    -->\n\n\n> \"c54q\" [r] a\n"
	for _, sp := range hidden.Find(s) { fmt.Println(sp.Start, sp.End, sp.Kind, sp.Collapsed, len(s)) }
	fmt.Printf("%q\n", hidden.Mark(s))
}
