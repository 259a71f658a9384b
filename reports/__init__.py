"""PDF reports (reportlab): shift, hand history and dispute, audit, day summary."""
