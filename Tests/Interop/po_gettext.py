#!/usr/bin/env python3
"""gettext PO interoperability: Stepwise's PO export and import against gettext's own tools.

For every translation that the XLIFF script covers (xliff_translate_toolkit.py), this script:

1. exports with `build-docs export --format po`; `msgfmt --check` accepts every .po, and
   translate-toolkit's `pofilter` finds nothing with its printf, Python brace, variable, XML
   tag, escape, newline and tab checks on the untouched export;
2. before anything is imported: has polib delete one code span of an entry (and, in another
   file, duplicate one), each next to a good edit, and checks that `import` refuses each,
   naming the code and the entry's msgstr line, and that `git status Content` is still empty;
3. has polib change a plain entry, an entry with code spans (keeping them) and one comment of a
   listing, and save; imports it, and checks that in Content/ exactly those three segments
   changed, with their codes and the listing's code as they were, and no other file changed;
4. msgmerge: changes one source paragraph, exports a new .pot and runs `msgmerge --previous`
   with the .po of step 3: the entry comes back fuzzy with the old text as `#| msgid`; importing
   the merged file confirms nothing and `build-docs status` shows the segment stale; the files
   this step changed are put back;
5. runs a full `build-docs` build over the imported content,

then restores Content/ and Output/Codebase with git, and Output/site and Output/report.json as
they were. It refuses to start when Content/ or Output/Codebase has uncommitted changes, unless
--after-xliff says that they are the imports the XLIFF script left (its --keep-content): the
full build then covers both formats' imports at once.

Run from anywhere, with gettext (msgfmt, msgmerge), translate-toolkit and polib installed
(`.ci/run` installs them):
    python Tests/Interop/po_gettext.py [--build-docs PATH] [--no-build] [--after-xliff]
"""

from __future__ import annotations

import argparse
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from importlib.metadata import version
from pathlib import Path

import polib

sys.path.insert(0, str(Path(__file__).resolve().parent))
from xliff_translate_toolkit import (  # noqa: E402  (the XLIFF script's helpers, next to this one)
    REPO,
    TRANSLATIONS,
    Failure,
    check,
    content_restored,
    default_build_docs,
    full_build,
    git,
    import_three_edits,
    run,
    source_language,
)

PLAIN, RICH, LISTING, CHANGED = "(po-plain)", "(po-rich)", "(po-listing)", "(po-changed)"
# pofilter's checks of what must survive translation: format strings, placeholders, markup, escapes.
POFILTER_TESTS = ["printf", "pythonbraceformat", "variables", "xmltags", "escapes", "newlines", "tabs"]
# A code span of one backtick: inline code or a term (POMarkup in the Swift sources).
SPAN = re.compile(r"(?<!`)`[^`]+`(?!`)")
MARKUP = set("`*[]\\")


# MARK: Choosing the entries


def is_listing(entry: polib.POEntry) -> bool:
    return "/s" in (entry.msgctxt or "")


def pick(catalog: polib.POFile, source_text: str) -> tuple:
    """A plain paragraph, an entry with at least two code spans, and a comment of a listing, each
    translated and not fuzzy. Entries the XLIFF script edited are left alone. The listing is the
    last one: a change there rebuilds the fewest step targets."""
    entries = [e for e in catalog if e.msgstr and not e.fuzzy and not e.obsolete and "tt-" not in e.msgstr]
    prose = [e for e in entries if not is_listing(e)]
    plain = next((e for e in prose if not MARKUP & set(e.msgid + e.msgstr)), None)
    rich = next((e for e in prose if len(SPAN.findall(e.msgstr)) >= 2), None)
    # A comment (the source has `// text`), not a string: the program's output stays the same.
    listing = next((e for e in reversed(entries) if is_listing(e) and f"// {e.msgid}" in source_text), None)
    check(plain and rich and listing, "the export has no plain entry, entry with code spans or listing comment")
    return plain, rich, listing


def msgstr_line(path: Path, context: str) -> int:
    """The line of the msgstr of the entry whose msgctxt is `context` in the saved file."""
    lines = path.read_text(encoding="utf-8").splitlines()
    start = lines.index(f'msgctxt "{context}"')
    return next(i for i in range(start, len(lines)) if lines[i].startswith("msgstr")) + 1


# MARK: The steps


def content_files() -> dict:
    """Every file in Content/ and its bytes."""
    return {path: path.read_bytes() for path in (REPO / "Content").rglob("*") if path.is_file()}


def check_gettext_tools(exports: Path, work: Path) -> None:
    files = sorted(exports.glob("*.po"))
    for path in files:
        result = subprocess.run(["msgfmt", "--check", "-o", "/dev/null", str(path)], capture_output=True, text=True)
        check(result.returncode == 0, f"msgfmt --check refuses {path.name}:\n{result.stderr}")
    pofilter = Path(sys.executable).parent / "pofilter"
    report = work / "pofilter"
    arguments = [a for test in POFILTER_TESTS for a in ("-t", test)]
    subprocess.run([str(pofilter), *arguments, str(exports), str(report)], check=True, capture_output=True)
    found = [
        f"{path.name}: {line.strip()}"
        for path in sorted(report.glob("*.po"))
        for line in path.read_text(encoding="utf-8").splitlines()
        if line.startswith("# (pofilter)")
    ]
    check(not found, "pofilter found problems in the untouched export:\n" + "\n".join(found[:20]))
    print(f"✓ msgfmt --check and pofilter ({', '.join(POFILTER_TESTS)}) pass on {len(files)} exports")


def check_refused(build_docs: str, exported: Path, work: Path, source_text: str, how: str) -> str:
    """Deletes or duplicates a code span of the rich entry next to a good plain edit: refused at
    the entry's msgstr line, naming the code, and nothing written."""
    catalog = polib.pofile(str(exported))
    plain, rich, _ = pick(catalog, source_text)
    plain.msgstr += f" {PLAIN}"
    spans = list(SPAN.finditer(rich.msgstr))
    victim = spans[0] if how == "delete" else spans[-1]
    if how == "delete":
        rich.msgstr = rich.msgstr[: victim.start()] + rich.msgstr[victim.end() :]
    else:
        rich.msgstr = rich.msgstr[: victim.start()] + victim.group() + " " + rich.msgstr[victim.start() :]
    broken = work / exported.name.replace(".po", f".{how}.po")
    catalog.save(str(broken))
    before = content_files()
    result = run(build_docs, "import", str(broken))
    check(result.returncode != 0, f"import accepted {broken.name}, whose code {victim.group()} was {how}d")
    expected = "is missing from the target" if how == "delete" else "appears twice in the target"
    wanted = f"{broken}:{msgstr_line(broken, rich.msgctxt)}:1:"
    message = next((m for m in result.stderr.splitlines() if f"unit '{rich.msgctxt}'" in m), "")
    check(
        message.startswith(wanted) and f"code '{victim.group()}' {expected}" in message,
        f"import of {broken.name} should name '{rich.msgctxt}' at {wanted} and {victim.group()}:\n{result.stderr}",
    )
    check(content_files() == before, f"import of {broken.name} wrote to Content/")
    return message.removeprefix(str(work) + "/")


def translate(exported: Path, saved: Path, source_text: str) -> dict:
    """The three edits, through polib; returns the entries' contexts."""
    catalog = polib.pofile(str(exported))
    plain, rich, listing = pick(catalog, source_text)
    plain.msgstr += f" {PLAIN}"
    rich.msgstr = f"{RICH} {rich.msgstr}"
    listing.msgstr += f" {LISTING}"
    catalog.save(str(saved))
    return {"plain": plain.msgctxt, "rich": rich.msgctxt, "listing": listing.msgctxt}


def check_msgmerge(build_docs: str, tutorial: str, language: str, saved: Path, work: Path) -> str:
    """One source paragraph changes; msgmerge brings the translator's file up to the new .pot."""
    source = REPO / "Content" / tutorial / f"{source_language(tutorial)}.xml"
    touched = [source, REPO / "Content" / tutorial / f"{language}.xml", source.parent / "source-memory.json"]
    kept = {path: path.read_bytes() for path in touched if path.exists()}
    text = source.read_text(encoding="utf-8")
    entry = next(
        e
        for e in polib.pofile(str(saved))
        if re.search(r"\.\d+$", e.msgctxt or "") and e.msgstr and not e.fuzzy and "(po-" not in e.msgstr
        and not MARKUP & set(e.msgid) and not set("&<>") & set(e.msgid) and text.count(e.msgid) == 1
        # Long enough that msgmerge's fuzzy search takes the old entry for the changed text.
        and len(e.msgid) >= 80
    )
    try:
        source.write_text(text.replace(entry.msgid, f"{entry.msgid} {CHANGED}"), encoding="utf-8")
        fresh = work / "msgmerge" / f"{tutorial}.{language}"
        result = run(build_docs, "export", "--format", "po", "--lang", language, "--output", str(fresh), tutorial)
        check(result.returncode == 0, f"export after the source changed failed:\n{result.stderr}")
        merged = work / f"{tutorial}.{language}.merged.po"
        subprocess.run(
            ["msgmerge", "--quiet", "--previous", "-o", str(merged), str(saved), str(fresh / "po" / f"{tutorial}.pot")],
            check=True,
        )
        after = next(e for e in polib.pofile(str(merged)) if e.msgctxt == entry.msgctxt)
        check(
            after.fuzzy and after.previous_msgid == entry.msgid and after.msgid == f"{entry.msgid} {CHANGED}"
            and after.msgstr == entry.msgstr,
            f"msgmerge: '{entry.msgctxt}' should be fuzzy with #| msgid the old text:\n{after}",
        )
        result = run(build_docs, "import", str(merged))
        check(result.returncode == 0 and " 0 confirmed" in result.stdout, f"import of {merged.name}: {result}")
        status = run(build_docs, "status", "--verbose").stdout
        check(
            any(f"stale {entry.msgctxt} (" in line and line.endswith(f", {language})") for line in status.splitlines()),
            f"'{entry.msgctxt}' should be stale in {language} after importing the fuzzy entry:\n{status}",
        )
        return entry.msgctxt
    finally:
        for path in touched:
            if path in kept:
                path.write_bytes(kept[path])
            elif path.exists():
                path.unlink()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--build-docs", help="the build-docs executable (default: swift build's)")
    parser.add_argument("--no-build", action="store_true", help="skip the full build after the imports")
    parser.add_argument(
        "--after-xliff", action="store_true",
        help="Content/ holds the imports of xliff_translate_toolkit.py --keep-content (restored too)",
    )
    options = parser.parse_args()
    for tool in ("msgfmt", "msgmerge"):
        if shutil.which(tool) is None:
            print(f"error: no {tool}: install gettext", file=sys.stderr)
            return 2
    build_docs = options.build_docs or default_build_docs()
    if not options.after_xliff and git("status", "--porcelain", "--", "Content", "Output/Codebase"):
        print("error: Content/ or Output/Codebase has uncommitted changes; this script edits them", file=sys.stderr)
        return 2

    gettext = subprocess.run(["msgfmt", "--version"], capture_output=True, text=True).stdout.splitlines()[0]
    print(f"{gettext}, translate-toolkit {version('translate-toolkit')}, polib {version('polib')}")
    started = time.monotonic()
    # A CI job that is stopped still restores Content/ (content_restored).
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    with content_restored():
        try:
            with tempfile.TemporaryDirectory(prefix="stepwise-po-") as folder:
                work = Path(folder)
                exports = work / "export"
                for language in sorted({language for _, language in TRANSLATIONS}):
                    result = run(build_docs, "export", "--format", "po", "--lang", language, "--output", str(exports))
                    check(result.returncode == 0, f"export --format po --lang {language} failed:\n{result.stderr}")
                check_gettext_tools(exports / "po", work)

                refusals = {}
                for tutorial, language in TRANSLATIONS:
                    exported = exports / "po" / f"{tutorial}.{language}.po"
                    source_text = (REPO / "Content" / tutorial / f"{source_language(tutorial)}.xml").read_text("utf-8")
                    refusals[(tutorial, language)] = [
                        check_refused(build_docs, exported, work, source_text, how) for how in ("delete", "duplicate")
                    ]

                for tutorial, language in TRANSLATIONS:
                    name = f"{tutorial}.{language}.po"
                    source_text = (REPO / "Content" / tutorial / f"{source_language(tutorial)}.xml").read_text("utf-8")
                    content = REPO / "Content" / tutorial / f"{language}.xml"
                    saved = work / name
                    edits = translate(exports / "po" / name, saved, source_text)
                    import_three_edits(build_docs, saved, content, (PLAIN, RICH, LISTING))
                    merged = check_msgmerge(build_docs, tutorial, language, saved, work)
                    print(
                        f"✓ {tutorial} {language}: plain {edits['plain']}, rich {edits['rich']}, listing"
                        f" {edits['listing']}: exactly these 3 segments changed, codes kept;"
                        f" msgmerge: {merged} fuzzy with #| msgid, stays stale;"
                        f" refused: {'; '.join(refusals[(tutorial, language)])}"
                    )

            if not options.no_build:
                full_build(build_docs, "the imported translations" + (" (XLIFF's and PO's)" if options.after_xliff else ""))
            print(f"po interop: passed in {time.monotonic() - started:.0f} s")
            return 0
        except Failure as failure:
            print(f"po interop: FAILED: {failure}", file=sys.stderr)
            return 1


if __name__ == "__main__":
    sys.exit(main())
