package pdftext

import "math"

// matrix is a PDF transformation [a b c d e f] (PDF 32000-2 §8.3.3):
// a point (x, y) maps to (a·x + c·y + e, b·x + d·y + f).
type matrix [6]float64

var identity = matrix{1, 0, 0, 1, 0, 0}

// mul is m then n: the matrix of applying m first.
func (m matrix) mul(n matrix) matrix {
	return matrix{
		m[0]*n[0] + m[1]*n[2], m[0]*n[1] + m[1]*n[3],
		m[2]*n[0] + m[3]*n[2], m[2]*n[1] + m[3]*n[3],
		m[4]*n[0] + m[5]*n[2] + n[4], m[4]*n[1] + m[5]*n[3] + n[5],
	}
}

func (m matrix) apply(x, y float64) (float64, float64) {
	return m[0]*x + m[2]*y + m[4], m[1]*x + m[3]*y + m[5]
}

func translate(x, y float64) matrix { return matrix{1, 0, 0, 1, x, y} }

// scaleY is how long a unit vertical vector becomes: the size of text.
func (m matrix) scaleY() float64 { return math.Hypot(m[2], m[3]) }

// sane reports whether every entry is finite and not absurd, so a
// hostile matrix cannot make the layout's arithmetic meaningless.
func (m matrix) sane() bool {
	for _, v := range m {
		if math.IsNaN(v) || math.IsInf(v, 0) || math.Abs(v) > 1e9 {
			return false
		}
	}
	return true
}
