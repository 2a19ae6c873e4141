# A two-page PDF drawn with cairo's toy text API.
import sys, cairo
s = cairo.PDFSurface(sys.argv[1], 595, 842)
c = cairo.Context(s)
lines = [
    "Cairo draws this page with show_text.",
    "The office workflow finds the difficult affine flows efficiently.",
    "Each glyph is placed by the layout, spaces included.",
]
for page in range(2):
    c.select_font_face("DejaVu Sans", cairo.FONT_SLANT_NORMAL, cairo.FONT_WEIGHT_NORMAL)
    c.set_font_size(14)
    y = 80
    for l in lines:
        c.move_to(60, y)
        c.show_text("Page %d: %s" % (page + 1, l))
        y += 24
    c.show_page()
s.finish()
