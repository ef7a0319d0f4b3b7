"""Sphinx configuration of the skstruct documentation.

Build (offline, warnings as errors, as CI does in ``tests/test_docs.py``)::

    .venv/bin/python -m sphinx -W --keep-going -b html docs docs/_build/html

API stubs are generated into ``docs/generated/`` at build time (git-ignored).
"""

import importlib
import pkgutil
import re
import shutil
import sys
from pathlib import Path

import numpydoc.docscrape_sphinx
from sphinx.errors import PycodeError
from sphinx.pycode import ModuleAnalyzer

DOCS = Path(__file__).resolve().parent
# Document the checkout this file belongs to, whether or not it is installed.
sys.path.insert(0, str(DOCS.parent))

import skstruct  # noqa: E402

# -- project ---------------------------------------------------------------------------

project = "skstruct"
author = "the skstruct developers"
copyright = "the skstruct developers"
release = skstruct.__version__
version = ".".join(release.split(".")[:2])

# -- general ---------------------------------------------------------------------------

extensions = [
    "sphinx.ext.autodoc",
    "sphinx.ext.autosummary",
    "sphinx.ext.mathjax",
    "numpydoc",
    "myst_parser",
]

source_suffix = {".rst": "restructuredtext", ".md": "markdown"}
root_doc = "index"
templates_path = ["_templates"]
exclude_patterns = ["_build", "Thumbs.db", ".DS_Store"]
# `single backticks` in docstrings render as code, as in scikit-learn's.
default_role = "literal"

# -- autodoc / autosummary -------------------------------------------------------------

autosummary_generate = True
# Stubs are regenerated on every build; start from an empty folder so that a name
# dropped from api.rst leaves no orphan page behind (an orphan is a warning, -W fails).
shutil.rmtree(DOCS / "generated", ignore_errors=True)
autosummary_generate_overwrite = True
autosummary_imported_members = False
autodoc_typehints = "none"
autodoc_member_order = "groupwise"
autodoc_inherit_docstrings = True
add_module_names = False

# -- numpydoc --------------------------------------------------------------------------

# autosummary's class template lists the methods; numpydoc must not list them again
# (that would describe every method twice).
numpydoc_show_class_members = False
numpydoc_show_inherited_class_members = False
numpydoc_class_members_toctree = False
numpydoc_attributes_as_param_list = True
numpydoc_xref_param_type = False

# -- MyST (the .md pages) --------------------------------------------------------------

myst_enable_extensions = ["dollarmath", "amsmath", "colon_fence", "deflist"]
myst_heading_anchors = 3
myst_dmath_double_inline = True

# -- HTML ------------------------------------------------------------------------------

html_theme = "pydata_sphinx_theme"
html_title = f"skstruct {release}"
html_static_path = []
html_show_sourcelink = False
html_copy_source = False
html_theme_options = {
    # everything is local: no version switcher JSON, no analytics, no remote icons
    "navbar_align": "left",
    "navbar_end": ["theme-switcher", "navbar-icon-links"],
    "icon_links": [],
    "show_toc_level": 2,
    "secondary_sidebar_items": ["page-toc"],
    "footer_start": ["copyright"],
    "footer_end": ["sphinx-version"],
    "show_prev_next": True,
}
html_context = {"default_mode": "light"}

# MathJax is loaded by the browser when a page is viewed; the build itself never goes
# to the network.

# -- what the API pages show ----------------------------------------------------------

# Members every scikit-learn estimator inherits for metadata routing and pandas output.
# Their docstrings point into scikit-learn's own site (labels and glossary terms that
# do not exist here), and they are no part of skstruct's API: the API page points to
# scikit-learn's documentation of them instead.
_SKLEARN_PLUMBING = re.compile(r"get_metadata_routing|set_output|set_\w+_request")


def _skip_member(app, what, name, obj, skip, options):
    if _SKLEARN_PLUMBING.fullmatch(name):
        return True
    # tuple's count/index and the "Alias for field number k" getters of named tuples:
    # the fields are described in the class docstring's Attributes section.
    if getattr(obj, "__objclass__", None) is tuple:
        return True
    if (getattr(obj, "__doc__", None) or "").startswith("Alias for field number"):
        return True
    return None


def _reexported_data_doc(app, what, name, obj, options, lines):
    """Module-level data re-exported by a package (``skstruct.metrics.SCORERS``) keeps
    its ``#:`` doc comment in the private module defining it: use that comment rather
    than the docstring of the value's type (``frozenset``, ``dict``)."""
    if what != "data":
        return
    package_name, _, attr = name.rpartition(".")
    package = importlib.import_module(package_name)
    for module in pkgutil.iter_modules(getattr(package, "__path__", []), package_name + "."):
        try:
            comments = ModuleAnalyzer.for_module(module.name).find_attr_docs()
        except PycodeError:
            continue
        if ("", attr) in comments:
            lines[:] = list(comments[("", attr)])
            return


class _NumpydocTemplateOnce(numpydoc.docscrape_sphinx.SandboxedEnvironment):
    """numpydoc (1.11) makes a new jinja environment for every object it documents and
    compiles its docstring template there again: about 2,200 compiles, 3-4 s of a 22 s
    build. Its environments are all alike (the same loader paths for one build), so the
    template compiled first serves every object."""

    _compiled = {}

    def get_template(self, name, *args, **kwargs):
        if name not in self._compiled:
            self._compiled[name] = super().get_template(name, *args, **kwargs)
        return self._compiled[name]


def setup(app):
    numpydoc.docscrape_sphinx.SandboxedEnvironment = _NumpydocTemplateOnce
    app.connect("autodoc-skip-member", _skip_member)
    app.connect("autodoc-process-docstring", _reexported_data_doc)
