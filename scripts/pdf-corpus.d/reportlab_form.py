# A filled AcroForm: text fields whose values exist only in the form.
import sys
from reportlab.pdfgen import canvas
c = canvas.Canvas(sys.argv[1])
c.drawString(72, 760, "Registration form")
f = c.acroForm
c.drawString(72, 700, "Name:")
f.textfield(name="name", value="Ada Lovelace", x=140, y=690, width=250, height=20)
c.drawString(72, 660, "City:")
f.textfield(name="city", value="London", x=140, y=650, width=250, height=20)
c.save()
