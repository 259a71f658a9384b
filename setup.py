"""The package list for setuptools (everything else is in pyproject.toml).

Every package under dealer_assist/ is found by its ``__init__.py``, so a new game's package needs
no line here; ui/, db/ and reports/ live at the top of the repository and install under
dealer_assist (their folders are mapped in pyproject.toml's ``package-dir``).
"""

from setuptools import find_namespace_packages, find_packages, setup

MAPPED = {"dealer_assist.db": "db", "dealer_assist.ui": "ui", "dealer_assist.reports": "reports"}


def packages() -> list[str]:
    found = find_packages(include=["dealer_assist", "dealer_assist.*"])
    for name, folder in MAPPED.items():
        # namespace search: the migrations' versions folder has no __init__.py
        subs = find_namespace_packages(where=folder, exclude=["__pycache__", "*.__pycache__"])
        found += [name, *(f"{name}.{sub}" for sub in subs)]
    return sorted(found)


setup(packages=packages())
