#!/usr/bin/env python3
"""XLIFF 2.0 interoperability: Stepwise's export and import against translate-toolkit.

translate-toolkit is the library under Weblate and Pootle. For every translation into French
or Polish of every tutorial (and German, the other translation of promises), this script:

1. exports with `build-docs export` and validates each file against OASIS's XLIFF 2.0 XSD,
   and checks that units whose source uses a term of the termbases carry it (gls:glossary:
   the XSD allows the glossary module's elements in a unit and, without the module's own
   XSD, does not look inside them; import's RELAX NG schema does);
2. has translate-toolkit's XLIFF 2.0 store load it, change a plain unit (`target`), a unit with
   placeholders (through `rich_target`, keeping the placeholders) and one segment of a
   listing unit, and save it;
3. before anything is imported: has the tool delete one placeholder, and (in another file)
   duplicate one, each next to a good edit, and checks that `import` refuses each, naming the
   unit and the XLIFF line, and that `git status Content` is still empty;
4. checks that the tool's file, but for the xml:space it writes on <segment>, still validates
   against the XSD; imports it, and checks that in Content/ exactly those three segments
   changed, that the codes in the changed paragraphs and the code of the changed listing are
   the ones they were, and that no other file changed (the source memory may record hashes);
5. runs a full `build-docs` build over the imported content,

then restores Content/ and Output/Codebase with git, and Output/site and Output/report.json as
they were. It changes Content/ in place, so it
refuses to start when Content/ or Output/Codebase has uncommitted changes. With --keep-content,
a run that passes leaves its imports in Content/ and builds nothing: `po_gettext.py
--after-xliff` imports on top of them, builds both formats' imports at once and restores.

Run from anywhere, with translate-toolkit and lxml installed (`.ci/run` makes the venv):
    python Tests/Interop/xliff_translate_toolkit.py [--build-docs PATH] [--no-build] [--keep-content]
"""

from __future__ import annotations

import argparse
import contextlib
import copy
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from importlib.metadata import version
from pathlib import Path

from lxml import etree
from translate.storage import xliff2
from translate.storage.placeables import StringElem

REPO = Path(__file__).resolve().parents[2]
XLIFF_NS = "urn:oasis:names:tc:xliff:document:2.0"
GLOSSARY_NS = "urn:oasis:names:tc:xliff:glossary:2.0"
XML_NS = "http://www.w3.org/XML/1998/namespace"
# Every translation among French and Polish, and German for promises (written in Polish).
TRANSLATIONS = [
    ("bindings", "fr"),
    ("bindings", "pl"),
    ("async-fetch", "fr"),
    ("async-fetch", "pl"),
    ("promises", "fr"),
    ("promises", "de"),
]
BLOCKS = {"title", "p", "li", "heading", "listing", "output"}
PLAIN, RICH, LISTING = "[tt-plain]", "[tt-rich]", "[tt-listing]"


class Failure(Exception):
    pass


def check(condition: bool, message: str) -> None:
    if not condition:
        raise Failure(message)


def git(*arguments: str) -> str:
    return subprocess.run(["git", *arguments], cwd=REPO, check=True, capture_output=True, text=True).stdout


def run(build_docs: str, *arguments: str) -> subprocess.CompletedProcess:
    return subprocess.run([build_docs, *arguments], cwd=REPO, capture_output=True, text=True)


def q(name: str) -> str:
    return f"{{{XLIFF_NS}}}{name}"


# MARK: Content and the XSD


def source_language(tutorial: str) -> str:
    manifest = (REPO / "Content" / tutorial / "manifest.xml").read_text(encoding="utf-8")
    return re.search(r'source="([a-z-]+)"', manifest).group(1)


def blocks(path: Path) -> list[etree._Element]:
    """The translatable blocks of a tutorial file in document order, outermost only."""
    root = etree.parse(str(path)).getroot()
    result = []
    for element in root.iter():
        if element.tag in BLOCKS and not any(a.tag in BLOCKS for a in element.iterancestors()):
            result.append(element)
    return result


def markup(element: etree._Element) -> str:
    """A block as written, without the hash stamp that import may record."""
    element = copy.deepcopy(element)
    element.attrib.pop("src-hash", None)
    element.tail = None
    return etree.tostring(element, encoding="unicode")


def codes(element: etree._Element) -> list[str]:
    """The inline code and terms of a block: what a placeholder stands for."""
    return [etree.tostring(e, encoding="unicode", with_tail=False) for e in element.iter("code", "term")]


def xsd(schemas: Path) -> etree.XMLSchema:
    # xliff_core_2.0.xsd imports informativeCopiesOf3rdPartySchemas/w3c/xml.xsd, which lxml
    # resolves next to it: nothing is fetched from the network.
    parser = etree.XMLParser(no_network=True)
    return etree.XMLSchema(etree.parse(str(schemas / "xliff_core_2.0.xsd"), parser))


def validate(schema: etree.XMLSchema, document: etree._ElementTree, what: str) -> None:
    if not schema.validate(document):
        errors = "\n".join(f"  line {e.line}: {e.message}" for e in schema.error_log)
        raise Failure(f"{what} does not validate against xliff_core_2.0.xsd:\n{errors}")


# MARK: What the translator does in the tool


def targets(unit) -> list:
    return [] if unit.get_target_dom() is None else list(unit.get_target_dom())


def placeholders(unit) -> list[etree._Element]:
    return [e for e in targets(unit) if e.tag == q("ph")]


def pick(store, source_text: str) -> tuple:
    """A plain paragraph, a paragraph with at least two placeholders, and a comment segment of
    a listing unit with more than one segment, each current (`translated`). The listing is the
    last one, in the last step: a change there rebuilds the fewest step targets."""

    def current(unit) -> bool:
        return unit.xmlelement.get("state") == "translated" and unit.get_target_dom() is not None

    def kind(unit) -> str:
        return unit.getunitelement().get("type", "")

    units = [unit for unit in store.units if current(unit)]
    paragraphs = [unit for unit in units if kind(unit) == "stepwise:paragraph"]
    plain = next((u for u in paragraphs if not targets(u) and not len(u.source_dom)), None)
    rich = next((u for u in paragraphs if len(placeholders(u)) >= 2), None)
    # A comment (the source has `// text` in a listing), not a string: its words are not what
    # the program prints, so the full build must still pass.
    listing = next(
        (
            u
            for u in reversed(units)
            if kind(u) == "stepwise:listing"
            and len(u.getunitelement().findall(q("segment"))) > 1
            and f"// {u.source}" in source_text
            and u.target.strip()
        ),
        None,
    )
    check(plain and rich and listing, "the export has no plain unit, unit with placeholders or listing comment")
    return plain, rich, listing


def translate(store, source_text: str) -> dict:
    """The three edits, the way a CAT tool makes them; returns unit ids and the new texts."""
    plain, rich, listing = pick(store, source_text)

    # A plain unit: translate-toolkit's plain-text API.
    plain.target = f"{plain.target} {PLAIN}"
    plain.marktranslated()

    # A unit with placeholders: the rich-text API, every placeholder kept where it was.
    tree = rich.rich_target[0]
    before = [str(type(s).__name__) for s in tree.sub]
    texts = [s for s in tree.sub if type(s) is StringElem and all(isinstance(x, str) for x in s.sub)]
    check(texts, f"{rich.getid()}: the rich target has no text to change")
    texts[0].sub[0] = f"{RICH} {texts[0].sub[0]}"
    rich.rich_target = [tree]
    rich.marktranslated()
    check(
        [str(type(s).__name__) for s in rich.rich_target[0].sub] == before,
        f"{rich.getid()}: the placeholders moved",
    )

    # One segment of a listing unit: the comment, through the plain API.
    listing.target = f"{listing.target} {LISTING}"
    listing.marktranslated()
    return {"plain": plain.getid(), "rich": rich.getid(), "listing": listing.getid()}


def break_placeholders(store, source_text: str, how: str) -> tuple[str, str]:
    """Deletes or duplicates a placeholder of the rich unit, through the rich-text API, next
    to a good plain edit; returns the unit's id and the code's id."""
    plain, rich, _ = pick(store, source_text)
    plain.target = f"{plain.target} {PLAIN}"
    tree = rich.rich_target[0]
    codes_ = [s for s in tree.sub if type(s).__name__ == "UnknownXML" and s.xml_node.tag == q("ph")]
    if how == "delete":
        victim = codes_[0]
        tree.sub.remove(victim)
    else:
        victim = codes_[-1]
        tree.sub.insert(tree.sub.index(victim), copy.deepcopy(victim))
    rich.rich_target = [tree]
    rich.marktranslated()
    return rich.getunitelement().get("id"), victim.xml_node.get("id")


# MARK: The checks


def target_line(path: Path, unit_id: str) -> int:
    document = etree.parse(str(path))
    unit = document.find(f".//{q('unit')}[@id='{unit_id}']")
    return unit.find(f"{q('segment')}/{q('target')}").sourceline


def check_tool_output(schema: etree.XMLSchema, path: Path) -> int:
    """The saved file is the export with the tool's xml:space (and xml:lang) on <segment>: with
    those taken off, it validates against the XSD. Returns how many segments carried them."""
    document = etree.parse(str(path))
    count = 0
    for segment in document.iter(q("segment")):
        for name in ("space", "lang"):
            if segment.attrib.pop(f"{{{XML_NS}}}{name}", None) is not None:
                count += 1
    validate(schema, document, f"{path.name} as saved by translate-toolkit, xml:space on <segment> aside,")
    return count


def check_refused(build_docs: str, path: Path, unit_id: str, code: str, how: str) -> str:
    result = run(build_docs, "import", str(path))
    check(result.returncode != 0, f"import accepted {path.name}, whose placeholder '{code}' was {how}d")
    line = target_line(path, unit_id)
    expected = "is missing from the target" if how == "delete" else "appears twice in the target"
    wanted = f"{path}:{line}:"
    message = next((m for m in result.stderr.splitlines() if f"unit '{unit_id}'" in m), "")
    check(
        message.startswith(wanted) and f"code '{code}' {expected}" in message,
        f"import of {path.name} should name unit '{unit_id}' at line {line} and code '{code}':\n{result.stderr}",
    )
    check(git("status", "--porcelain", "--", "Content") == "", f"import of {path.name} wrote to Content/")
    return message.removeprefix(str(path.parent) + "/")


def check_import(before: list, after: list, file: str, edits: tuple = (PLAIN, RICH, LISTING)) -> None:
    """Exactly three blocks changed, each holding one of the `edits` markers (plain, rich,
    listing): the listing's code only in its comment, the paragraphs' codes as they were."""
    plain, rich, listing = edits
    check(len(before) == len(after), f"{file}: the import added or removed blocks")
    changed = [(old, new) for old, new in zip(before, after) if markup(old) != markup(new)]
    markers = sorted(m for _, new in changed for m in edits if m in markup(new))
    check(
        len(changed) == 3 and markers == sorted(edits),
        f"{file}: {len(changed)} blocks changed, not exactly the three edited ones:\n"
        + "\n".join(markup(new)[:200] for _, new in changed),
    )
    for old, new in changed:
        text = markup(new)
        if listing in text:
            # The listing: its code is the old code with the one comment changed.
            old_code, new_code = old.text, new.text
            stripped = new_code.replace(f" {listing}", "", 1)
            check(stripped == old_code, f"{file}: listing '{new.get('id')}' changed beyond its comment")
        else:
            check(codes(old) == codes(new), f"{file}: the codes of a paragraph changed: {codes(new)}")
            check(text.count(plain) + text.count(rich) == 1, f"{file}: an edit landed twice")


def import_three_edits(build_docs: str, saved: Path, content: Path, edits: tuple = (PLAIN, RICH, LISTING)) -> None:
    """Imports `saved` and checks that exactly its three edits changed `content`, and no other
    file of Content/ changed (but the source memory, which may record hashes)."""
    before = blocks(content)
    unchanged = {
        path: path.read_bytes() for path in (REPO / "Content").rglob("*")
        if path.is_file() and path != content and path.name != "source-memory.json"
    }
    result = run(build_docs, "import", str(saved))
    check(result.returncode == 0, f"import of {saved.name} failed:\n{result.stderr}")
    check("3 segments changed" in result.stdout, f"{saved.name}: {result.stdout.strip()}")
    check_import(before, blocks(content), saved.name, edits)
    touched = [str(p.relative_to(REPO)) for p, data in unchanged.items() if p.read_bytes() != data]
    check(not touched, f"{saved.name}: import changed other files: {touched}")


def full_build(build_docs: str, what: str) -> None:
    """A full build of the content, verification included, which must pass."""
    print(f"== build-docs over {what}")
    result = subprocess.run([build_docs], cwd=REPO)
    check(result.returncode == 0, "the full build failed after the imports")
    print("✓ full build passed")


def default_build_docs() -> str:
    """The build-docs that `swift build` made."""
    folder = subprocess.run(["swift", "build", "--show-bin-path"], cwd=REPO, check=True, capture_output=True, text=True)
    return str(Path(folder.stdout.strip()) / "build-docs")


@contextlib.contextmanager
def content_restored(keep=lambda: False):
    """Output/site and Output/report.json put aside; afterwards, Content/ and Output/Codebase
    restored with git (unless `keep()` says the imports stay for the next script), what a build
    wrote to Output/site and Output/report.json removed, and the two put back."""
    kept = Path(tempfile.mkdtemp(prefix="stepwise-interop-output-"))
    for name in ("site", "report.json"):
        if (REPO / "Output" / name).exists():
            shutil.move(str(REPO / "Output" / name), str(kept / name))
    try:
        yield
    finally:
        if not keep():
            git("checkout", "--", "Content", "Output/Codebase")
            git("clean", "-fdq", "--", "Content", "Output/Codebase")
        for name in ("site", "report.json"):
            path = REPO / "Output" / name
            if path.is_dir():
                shutil.rmtree(path)
            elif path.exists():
                path.unlink()
            if (kept / name).exists():
                shutil.move(str(kept / name), str(path))
        shutil.rmtree(kept, ignore_errors=True)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--build-docs", help="the build-docs executable (default: swift build's)")
    parser.add_argument(
        "--schemas", default=os.environ.get("XLIFF_SCHEMAS", str(REPO.parent / "shared" / "xliff")),
        help="the folder with OASIS's xliff_core_2.0.xsd (default: ../shared/xliff, or $XLIFF_SCHEMAS)",
    )
    parser.add_argument("--no-build", action="store_true", help="skip the full build after the imports")
    parser.add_argument(
        "--keep-content", action="store_true",
        help="when it passes, leave the imports in Content/ and build nothing (for po_gettext.py --after-xliff)",
    )
    options = parser.parse_args()
    schemas = Path(options.schemas)
    if not (schemas / "xliff_core_2.0.xsd").exists():
        print(f"error: no xliff_core_2.0.xsd in {schemas}", file=sys.stderr)
        return 2
    build_docs = options.build_docs or default_build_docs()
    if git("status", "--porcelain", "--", "Content", "Output/Codebase"):
        print("error: Content/ or Output/Codebase has uncommitted changes; this script edits them", file=sys.stderr)
        return 2

    print(f"translate-toolkit {version('translate-toolkit')}, lxml {version('lxml')}")
    schema = xsd(schemas)
    started = time.monotonic()
    # A CI job that is stopped still restores Content/ (content_restored).
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    keep = False  # set only when the run passed with --keep-content
    with content_restored(lambda: keep):
        try:
            with tempfile.TemporaryDirectory(prefix="stepwise-interop-") as folder:
                work = Path(folder)
                exports = work / "export"
                for language in sorted({language for _, language in TRANSLATIONS}):
                    result = run(build_docs, "export", "--lang", language, "--output", str(exports))
                    check(result.returncode == 0, f"export --lang {language} failed:\n{result.stderr}")
                files = sorted((exports / "xliff").glob("*.xlf"))
                glossaries = 0
                for path in files:
                    document = etree.parse(str(path))
                    validate(schema, document, path.name)
                    found = len(document.findall(f".//{{{XLIFF_NS}}}unit/{{{GLOSSARY_NS}}}glossary"))
                    check(found > 0, f"{path.name}: no unit carries the termbase's terms (gls:glossary)")
                    glossaries += found
                print(f"✓ {len(files)} exports validate against xliff_core_2.0.xsd: {', '.join(p.name for p in files)}")
                print(f"✓ {glossaries} units carry glossary entries (gls:glossary), within the validated files")

                # The tool deletes, then (another file) duplicates a placeholder, next to a good edit:
                # refused, naming the unit and line, and nothing written (Content/ is still clean).
                refusals = {}
                for tutorial, language in TRANSLATIONS:
                    exported = exports / "xliff" / f"{tutorial}.{language}.xlf"
                    source_text = (REPO / "Content" / tutorial / f"{source_language(tutorial)}.xml").read_text("utf-8")
                    for how in ("delete", "duplicate"):
                        store = xliff2.Xliff2File.parsefile(str(exported))
                        unit_id, code = break_placeholders(store, source_text, how)
                        broken = work / f"{tutorial}.{language}.{how}.xlf"
                        broken.write_bytes(bytes(store))
                        refusals.setdefault((tutorial, language), []).append(
                            check_refused(build_docs, broken, unit_id, code, how))

                # The three good edits, imported.
                for tutorial, language in TRANSLATIONS:
                    name = f"{tutorial}.{language}.xlf"
                    exported = exports / "xliff" / name
                    source_text = (REPO / "Content" / tutorial / f"{source_language(tutorial)}.xml").read_text("utf-8")
                    content = REPO / "Content" / tutorial / f"{language}.xml"
                    store = xliff2.Xliff2File.parsefile(str(exported))
                    edits = translate(store, source_text)
                    saved = work / name
                    saved.write_bytes(bytes(store))
                    on_segments = check_tool_output(schema, saved)
                    import_three_edits(build_docs, saved, content)
                    print(
                        f"✓ {tutorial} {language}: plain {edits['plain']}, rich {edits['rich']}, listing"
                        f" {edits['listing']}: exactly these 3 segments changed, codes kept"
                        f" (translate-toolkit put xml:space on {on_segments} <segment>);"
                        f" refused: {'; '.join(refusals[(tutorial, language)])}"
                    )
                memory = [line for line in git("status", "--porcelain", "--", "Content").splitlines()]
                print(f"  Content/ after the imports: {', '.join(line[3:] for line in memory)}")

            if options.keep_content:
                print(f"xliff interop: passed in {time.monotonic() - started:.0f} s; the imports stay in Content/")
                keep = True
                return 0
            if not options.no_build:
                full_build(build_docs, "the imported translations")
            print(f"xliff interop: passed in {time.monotonic() - started:.0f} s")
            return 0
        except Failure as failure:
            print(f"xliff interop: FAILED: {failure}", file=sys.stderr)
            return 1


if __name__ == "__main__":
    sys.exit(main())
