"""PDF reports (reportlab): shift, hand history and dispute, audit, day summary.

``data`` holds the plain report-data objects, ``build`` fills them from the store (read-only,
every figure re-derived by replay and checked against the ledger), ``layouts``/``render`` lay
them out as pages, and ``generate`` does all three for a signed-in user and logs it.
"""
