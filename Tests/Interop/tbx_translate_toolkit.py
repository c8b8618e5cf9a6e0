#!/usr/bin/env python3
"""TBX interoperability: the termbases, as translation tools read them.

The termbases (Content/terms.tbx for the project, Content/<tutorial>/terms.tbx for a tutorial)
are authored in TBX-Basic as ISO 30042:2019 writes it (tbx, conceptEntry, langSec, termSec).
translate-toolkit, the library under Weblate and Pootle, reads TBX in its 2008 form (martif,
termEntry, langSet, tig) only, which is what `build-docs export --format tbx` writes. For every
language a tutorial is translated into, this script:

1. reads every authored termbase with lxml: each concept's definition and each language's
   terms with their administrativeStatus;
2. exports with `build-docs export --format tbx --lang <language>`;
3. has translate-toolkit's TBX store (translate.storage.tbx) load each export, and checks that
   it finds every concept of the project's termbase and of the tutorial's, and in each every
   term of the source language and of the target language, in order, with its status.

It writes only to a temporary folder. Run from anywhere, with translate-toolkit and lxml
installed (`.ci/run` makes the venv):
    python Tests/Interop/tbx_translate_toolkit.py [--build-docs PATH]
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
from importlib.metadata import version
from pathlib import Path

from lxml import etree
from translate.storage import tbx

REPO = Path(__file__).resolve().parents[2]
TBX_NS = "urn:iso:std:iso:30042:ed-2"
XML_LANG = "{http://www.w3.org/XML/1998/namespace}lang"


class Failure(Exception):
    pass


def authored(path: Path) -> dict[str, dict[str, list[tuple[str, str]]]]:
    """Each concept of an authored termbase: its terms by language, as (term, status)."""
    if not path.exists():
        return {}
    concepts = {}
    for entry in etree.parse(str(path)).iter(f"{{{TBX_NS}}}conceptEntry"):
        languages = {}
        for section in entry.iter(f"{{{TBX_NS}}}langSec"):
            languages[section.get(XML_LANG)] = [
                (
                    " ".join(termSec.findtext(f"{{{TBX_NS}}}term").split()),
                    next(
                        note.text
                        for note in termSec.iter(f"{{{TBX_NS}}}termNote")
                        if note.get("type") == "administrativeStatus"
                    ),
                )
                for termSec in section.iter(f"{{{TBX_NS}}}termSec")
            ]
        concepts[entry.get("id")] = languages
    return concepts


def manifest(tutorial: Path) -> tuple[str, list[str]]:
    """A tutorial's source language and its translations."""
    root = etree.parse(str(tutorial / "manifest.xml")).getroot()
    source = root.get("source")
    return source, [title.get(XML_LANG) for title in root.iter("title") if title.get(XML_LANG) != source]


def default_build_docs() -> str:
    """The build-docs that `swift build` made."""
    folder = subprocess.run(["swift", "build", "--show-bin-path"], cwd=REPO, check=True, capture_output=True, text=True)
    return str(Path(folder.stdout.strip()) / "build-docs")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--build-docs", help="the build-docs executable (default: swift build's)")
    options = parser.parse_args()
    build_docs = options.build_docs or default_build_docs()
    print(f"translate-toolkit {version('translate-toolkit')}, lxml {version('lxml')}")
    project = authored(REPO / "Content" / "terms.tbx")
    tutorials = sorted(path.parent for path in (REPO / "Content").glob("*/manifest.xml"))
    try:
        with tempfile.TemporaryDirectory(prefix="stepwise-tbx-") as folder:
            languages = sorted({language for tutorial in tutorials for language in manifest(tutorial)[1]})
            for language in languages:
                result = subprocess.run(
                    [build_docs, "export", "--format", "tbx", "--lang", language, "--output", folder],
                    cwd=REPO, capture_output=True, text=True,
                )
                if result.returncode != 0:
                    raise Failure(f"export --format tbx --lang {language} failed:\n{result.stderr}")
            for tutorial in tutorials:
                source, targets = manifest(tutorial)
                concepts = project | authored(tutorial / "terms.tbx")
                for language in targets:
                    path = Path(folder) / "tbx" / f"{tutorial.name}.{language}.tbx"
                    with path.open("rb") as handle:
                        store = tbx.tbxfile(handle, sourcelanguage=source, targetlanguage=language)
                    units = {unit.getid(): unit for unit in store.units}
                    terms = 0
                    for concept, by_language in concepts.items():
                        unit = units.get(concept)
                        if unit is None:
                            raise Failure(f"{path.name}: translate-toolkit finds no entry '{concept}'")
                        for code, found in ((source, unit.get_source_terms()), (language, unit.get_target_terms(language))):
                            read = [(term.text, term.administrative_status) for term in found]
                            if read != by_language.get(code, []):
                                raise Failure(
                                    f"{path.name}: '{concept}' in {code}: translate-toolkit reads {read},"
                                    f" the termbase has {by_language.get(code, [])}"
                                )
                            terms += len(read)
                    if len(units) != len(concepts):
                        raise Failure(f"{path.name}: {len(units)} entries, the termbases have {len(concepts)} concepts")
                    print(f"✓ {path.name}: translate-toolkit reads all {len(concepts)} concepts and {terms} terms, with their status")
    except Failure as failure:
        print(f"tbx interop: FAILED: {failure}", file=sys.stderr)
        return 1
    print("tbx interop: passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
