#!/usr/bin/env python3
"""The built site as readers use it, in headless Chromium (Selenium), with axe-core.

Reads Output/site (run `swift run build-docs` first) and checks, in every language:

- axe-core finds no violation of impact serious or critical, and no heading that skips a
  level, on any page, in the light theme and in the dark one (prefers-color-scheme);
- every link and every hreflang alternate leads to a page that exists, the language
  switcher lands on the same step, and no page loads anything from another site;
- search finds a known word of each language typed without its diacritics;
- each copy button copies exactly the code its listing shows: the listing's code in
  Content/, without hidden lines and region markers;
- the typography: no plain space before : ; ? ! » or after « in French prose, no
  one-letter word followed by a plain space in Polish prose, read across the inline
  elements of a paragraph (code and terms count as a word of their own), in each page's
  body and its title (document.title), and in the results of a search;
- the changed-line marks: the unmarked lines of a whole-file listing are, in order, lines
  of the file as the earlier pages left it, and there are as few marked lines as any diff
  allows (the file's length minus the longest common subsequence);

and writes screenshots of one page per language at desktop and phone widths, in both
themes, to Output/screenshots. Exits non-zero with every failure listed.

Usage: python Tests/Browser/site_in_browser.py [--site Output/site] [--content Content] [--lang fr]
Needs: Debian's chromium and chromium-driver; selenium and axe-selenium-python (PyPI).
"""

import argparse
import os
import re
import sys
import xml.etree.ElementTree as ElementTree
from pathlib import Path
from urllib.parse import unquote, urlparse

from axe_selenium_python import Axe
from selenium import webdriver
from selenium.webdriver.chrome.options import Options
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By

SEARCHES = {  # a query typed without diacritics, and the word it must find
    "de": ("verspatung", "Verspätung"),
    "fr": ("etape", "étape"),
    "pl": ("zrodlo", "źródło"),
}

# The page's title, then the text nodes of prose: not code, not terms kept as written, not
# form fields or scripts.
PROSE_TEXT = """
const skip = "code, pre, samp, kbd, script, style, [translate='no'], .term, input, textarea";
const blocks = "p, li, h1, h2, h3, h4, h5, h6, figcaption, caption, td, th, dt, dd, summary, button, label, a, div, aside, nav, header, footer, main, section, article, body";
const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
const texts = new Map();
while (walker.nextNode()) {
  const node = walker.currentNode;
  // A block's text read across its inline elements; code and terms stand in as U+FFFC.
  const block = node.parentElement.closest(blocks);
  const text = node.parentElement.closest(skip) ? "\\ufffc" : node.textContent;
  texts.set(block, (texts.get(block) || "") + text);
}
return [document.title, ...texts.values()];
"""

FRENCH = re.compile(r" [:;?!»]|« ")
POLISH = re.compile(r"(?:^|[\s\u00a0\u202f(„\"«–—])[aiouwzAIOUWZ] ")


class Run:
    def __init__(self, site: Path, content: Path):
        self.site = site.resolve()
        self.content = content.resolve()
        self.failures: list[str] = []
        options = Options()
        for argument in ["--headless=new", "--no-sandbox", "--disable-gpu", "--window-size=1280,900"]:
            options.add_argument(argument)
        options.binary_location = os.environ.get("CHROMIUM", "/usr/bin/chromium")
        service = Service(os.environ.get("CHROMEDRIVER", "/usr/bin/chromedriver"))
        self.driver = webdriver.Chrome(service=service, options=options)
        self.driver.set_script_timeout(120)

    def fail(self, message: str):
        self.failures.append(message)
        print("  ✗ " + message)

    def url(self, page: Path) -> str:
        return page.resolve().as_uri()

    def open(self, page: Path, query: str = ""):
        self.driver.get(self.url(page) + query)

    def theme(self, scheme: str):
        self.driver.execute_cdp_cmd(
            "Emulation.setEmulatedMedia", {"features": [{"name": "prefers-color-scheme", "value": scheme}]}
        )

    # -- checks ---------------------------------------------------------------------------

    def accessibility(self, pages: list[Path]):
        for scheme in ["light", "dark"]:
            self.theme(scheme)
            found = 0
            for page in pages:
                self.open(page)
                axe = Axe(self.driver)
                axe.inject()
                results = axe.run()
                for violation in results["violations"]:
                    if violation["impact"] in ("serious", "critical") or violation["id"] == "heading-order":
                        found += 1
                        targets = ", ".join(str(node["target"]) for node in violation["nodes"][:3])
                        self.fail(
                            f"axe ({scheme}): {page.relative_to(self.site)}: {violation['id']} "
                            f"({violation['impact']}, {len(violation['nodes'])} elements: {targets})"
                        )
            print(f"  axe-core, {scheme} theme: {len(pages)} pages, {found} serious, critical or heading-order violations")
        self.theme("light")

    def links(self, pages: list[Path], languages: list[str]):
        checked = 0
        for page in pages:
            self.open(page)
            hrefs = self.driver.execute_script(
                "return [...document.querySelectorAll('a[href], link[href]')].map(e => [e.tagName, e.href, e.getAttribute('hreflang')])"
            )
            resources = self.driver.execute_script(
                "return performance.getEntriesByType('resource').map(e => e.name)"
            )
            for resource in resources:
                if not resource.startswith("file://"):
                    self.fail(f"{page.relative_to(self.site)} loads {resource} from another site")
            for tag, href, hreflang in hrefs:
                parsed = urlparse(href)
                if parsed.scheme != "file":
                    continue  # a link out of the site, in the prose
                target = Path(unquote(parsed.path))
                checked += 1
                if not target.is_file():
                    self.fail(f"{page.relative_to(self.site)}: {tag.lower()} to {href} leads nowhere")
                    continue
                if hreflang:
                    here = page.relative_to(self.site).parts
                    there = target.relative_to(self.site).parts
                    # The root page's alternates are the languages' first pages.
                    same = ("index.html",) if len(here) == 1 else here[1:]
                    if there[0] != hreflang or there[1:] != same:
                        self.fail(
                            f"{page.relative_to(self.site)}: the {hreflang} alternate is {'/'.join(there)}, "
                            f"not the same page in {hreflang}"
                        )
        print(f"  links: {checked} links and alternates on {len(pages)} pages lead to pages that exist")

    def search(self, language: str):
        query, word = SEARCHES[language]
        self.open(self.site / language / "search.html", f"?q={query}")
        results = self.driver.find_elements(By.CSS_SELECTOR, "#search-results > li")
        if not results:
            self.fail(f"search ({language}): '{query}' found nothing, although the pages say '{word}'")
            return
        marks = {mark.text for mark in self.driver.find_elements(By.CSS_SELECTOR, "#search-results mark")}
        if not any(mark.lower() == word.lower() for mark in marks):
            self.fail(f"search ({language}): '{query}' marked {sorted(marks)}, not '{word}'")
        first = results[0].find_element(By.TAG_NAME, "a").get_attribute("href")
        page = Path(unquote(urlparse(first).path)).read_text(encoding="utf-8")
        if word.lower() not in page.lower():
            self.fail(f"search ({language}): '{query}' led to {first}, which does not say '{word}'")
        print(f"  search ({language}): '{query}' finds {len(results)} pages, '{word}' marked")

    def copy_buttons(self, language: str, tutorials: list[str]):
        copied = 0
        for tutorial in tutorials:
            listings = self.shown_code(tutorial, language)
            for page in sorted((self.site / language / tutorial).glob("[0-9][0-9]-*.html")):
                self.open(page)
                self.driver.execute_script(
                    "window.copied = null; Object.defineProperty(navigator, 'clipboard', "
                    "{ value: { writeText: (text) => { window.copied = text; return Promise.resolve(); } } });"
                )
                for figure in self.driver.find_elements(By.CSS_SELECTOR, "figure.listing"):
                    listing = figure.get_attribute("id")
                    button = figure.find_element(By.CSS_SELECTOR, "button.copy")
                    if not button.is_displayed():
                        self.fail(f"{page.relative_to(self.site)}#{listing}: no copy button")
                        continue
                    button.click()
                    text = self.driver.execute_script("return window.copied")
                    if text != listings.get(listing):
                        self.fail(f"{page.relative_to(self.site)}#{listing}: the copy button copied other code than the listing shows")
                    copied += 1
        print(f"  copy buttons ({language}): {copied} listings copy exactly their shown code")

    def shown_code(self, tutorial: str, language: str) -> dict[str, str]:
        """Each listing's code as Content/ has it, without hidden lines and region markers."""
        tree = ElementTree.parse(self.content / tutorial / f"{language}.xml")
        shown = {}
        for listing in tree.iter("listing"):
            lines = (listing.text or "").split("\n")
            if lines and not lines[0].strip():
                lines = lines[1:]
            while lines and not lines[-1].strip():
                lines.pop()
            indent = min((len(line) - len(line.lstrip()) for line in lines if line.strip()), default=0)
            lines = [line[indent:] for line in lines]
            visible = [
                line
                for line in lines
                if line != "#" and not line.startswith("# ") and not re.match(r"\s*// (end)?region: \S+\s*$", line)
            ]
            shown[listing.get("id")] = "\n".join(visible)
        return shown

    def typography(self, language: str, pages: list[Path]):
        rule = {"fr": FRENCH, "pl": POLISH}.get(language)
        if rule is None:
            return
        found = 0
        # Every page, then the search page showing results (their titles and snippets).
        for page, query in [(page, "") for page in pages] + [
            (self.site / language / "search.html", f"?q={SEARCHES[language][0]}")
        ]:
            self.open(page, query)
            for text in self.driver.execute_script(PROSE_TEXT):
                for match in rule.finditer(text):
                    found += 1
                    if found <= 10:
                        start = max(0, match.start() - 25)
                        self.fail(f"typography ({language}): {page.relative_to(self.site)}: …{text[start:match.end() + 10]!r}…")
        if found > 10:
            self.fail(f"typography ({language}): {found - 10} more")
        print(f"  typography ({language}): {len(pages)} pages and search results, {found} plain spaces where the rules want none")

    def changed_lines(self, language: str, tutorials: list[str]):
        listings = 0
        for tutorial in tutorials:
            files: dict[str, list[str]] = {}  # caption's file (test or not) → lines as the pages so far left it
            for page in sorted((self.site / language / tutorial).glob("[0-9][0-9]-*.html")):
                self.open(page)
                figures = self.driver.execute_script(
                    """return [...document.querySelectorAll('figure.listing')].map(figure => {
                         const lines = (code) => code.textContent.split('\\n');
                         const shown = figure.querySelector('code.shown');
                         const whole = figure.querySelector('.whole-file code');
                         return {
                           id: figure.id,
                           file: figure.querySelector('.file').textContent.split(' — ')[0],
                           test: figure.classList.contains('test'),
                           region: figure.querySelector('.file').textContent.includes(' — '),
                           shown: lines(shown),
                           markedLines: (() => { const result = []; let number = 0;
                             for (const node of shown.childNodes) {
                               if (node.nodeType === Node.TEXT_NODE) { number += (node.textContent.match(/\\n/g) || []).length; continue; }
                               if (node.classList.contains('changed')) result.push(number + 1);
                               number += (node.textContent.match(/\\n/g) || []).length;
                             }
                             return result; })(),
                           changes: figure.querySelector('.changes')?.textContent ?? null,
                           whole: whole ? lines(whole) : null,
                         };
                       });"""
                )
                updates: dict[str, list[str]] = {}
                for figure in figures:
                    key = ("test:" if figure["test"] else "") + figure["file"]
                    before = files.get(key)
                    marked = figure["markedLines"]
                    if figure["region"]:
                        if marked:
                            self.fail(f"{page.relative_to(self.site)}#{figure['id']}: a region listing has changed-line marks")
                        updates[key] = figure["whole"]
                        continue
                    updates[key] = figure["shown"]
                    if before is None:
                        if marked:
                            self.fail(f"{page.relative_to(self.site)}#{figure['id']}: marks on a file no earlier page showed")
                        continue
                    listings += 1
                    self.check_marks(page, figure, before, marked)
                files.update(updates)
        print(f"  changed lines ({language}): {listings} whole-file listings marked exactly where they differ")

    def check_marks(self, page: Path, figure: dict, before: list[str], marked: list[int]):
        shown = figure["shown"]
        where = f"{page.relative_to(self.site)}#{figure['id']}"
        unmarked = [line for number, line in enumerate(shown, 1) if number not in marked]
        remaining = iter(before)
        if not all(any(line == earlier for earlier in remaining) for line in unmarked):
            self.fail(f"{where}: an unmarked line is not in the file as the step before left it")
        fewest = len(shown) - longest_common_subsequence(before, shown)
        if len(marked) != fewest:
            self.fail(f"{where}: {len(marked)} lines marked, but {fewest} differ from the step before")
        if marked and (figure["changes"] is None or not figure["changes"].endswith(ranges(marked))):
            self.fail(f"{where}: the words say {figure['changes']!r}, the marks are on {ranges(marked)}")

    def screenshots(self, languages: list[str]):
        folder = self.site.parent / "screenshots"
        folder.mkdir(exist_ok=True)
        written = 0
        for language in languages:
            pages = sorted((self.site / language).glob("*/0[5-9]-*.html"))
            if not pages:
                continue
            for scheme in ["light", "dark"]:
                self.theme(scheme)
                for name, (width, height) in {"desktop": (1280, 900), "phone": (390, 844)}.items():
                    self.driver.set_window_size(width, height)
                    self.open(pages[0])
                    self.driver.save_screenshot(str(folder / f"{language}-{name}-{scheme}.png"))
                    written += 1
        self.theme("light")
        self.driver.set_window_size(1280, 900)
        print(f"  screenshots: {written} in {folder}")


def longest_common_subsequence(a: list[str], b: list[str]) -> int:
    previous = [0] * (len(b) + 1)
    for x in a:
        current = [0]
        for j, y in enumerate(b):
            current.append(previous[j] + 1 if x == y else max(previous[j + 1], current[j]))
        previous = current
    return previous[-1]


def ranges(numbers: list[int]) -> str:
    spans: list[list[int]] = []
    for number in sorted(numbers):
        if spans and spans[-1][1] + 1 == number:
            spans[-1][1] = number
        else:
            spans.append([number, number])
    return ", ".join(f"{a}" if a == b else f"{a}–{b}" for a, b in spans)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--site", default="Output/site", type=Path)
    parser.add_argument("--content", default="Content", type=Path)
    parser.add_argument("--lang", action="append", help="check only this language (repeatable)")
    arguments = parser.parse_args()
    site, content = arguments.site.resolve(), arguments.content.resolve()
    languages = sorted(path.name for path in site.iterdir() if (path / "index.html").is_file())
    if arguments.lang:
        languages = [language for language in languages if language in arguments.lang]
    run = Run(site, content)
    try:
        for language in languages:
            print(f"== {language}")
            tutorials = sorted(path.name for path in (site / language).iterdir() if path.is_dir())
            pages = [site / language / "index.html", site / language / "search.html"] + sorted(
                (site / language).glob("*/*.html")
            )
            if language == languages[0]:
                pages.insert(0, site / "index.html")
            run.accessibility(pages)
            run.links(pages, languages)
            run.search(language)
            run.copy_buttons(language, tutorials)
            run.typography(language, pages)
            run.changed_lines(language, tutorials)
        run.screenshots(languages)
    finally:
        run.driver.quit()
    if run.failures:
        print(f"\n{len(run.failures)} problems in the browser")
        return 1
    print("\nthe site passed every browser check")
    return 0


if __name__ == "__main__":
    sys.exit(main())
