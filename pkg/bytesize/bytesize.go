// Package bytesize formats byte counts for the messages agents read, so that
// every limit is spelled the same way ("256 KiB", "16 MiB", "1.5 MiB")
// whichever layer refuses.
package bytesize

import "fmt"

// Text formats n: whole KiB and MiB without a fraction, others with one
// decimal, and counts under 1 KiB in bytes.
func Text(n int64) string {
	switch {
	case n >= 1<<20 && n%(1<<20) == 0:
		return fmt.Sprintf("%d MiB", n>>20)
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
	case n >= 1<<10 && n%(1<<10) == 0:
		return fmt.Sprintf("%d KiB", n>>10)
	case n >= 1<<10:
		return fmt.Sprintf("%.1f KiB", float64(n)/(1<<10))
	}
	return fmt.Sprintf("%d bytes", n)
}
