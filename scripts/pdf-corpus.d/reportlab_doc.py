# A flowing document with ReportLab's platypus: paragraphs, a table.
import sys
from reportlab.lib.pagesizes import A4
from reportlab.lib.styles import getSampleStyleSheet
from reportlab.platypus import SimpleDocTemplate, Paragraph, Table, Spacer
st = getSampleStyleSheet()
body = ("The office workflow finds the difficult affine flows efficiently. "
        "Agents read the text of attachments page by page, and each word must "
        "come out whole, neither glued to its neighbour nor split in two. ") * 6
story = [Paragraph("ReportLab platypus document", st["Title"]), Paragraph(body, st["BodyText"]),
         Spacer(1, 12), Table([["Name", "Value"], ["alpha", "1"], ["beta", "2"]]),
         Paragraph(body, st["BodyText"])]
SimpleDocTemplate(sys.argv[1], pagesize=A4).build(story)
