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
from concurrent.futures import ProcessPoolExecutor
import re
import sys
import xml.etree.ElementTree as ElementTree
from pathlib import Path
from urllib.parse import unquote, urlparse

import axe_selenium_python
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
  // Text in another language than the page's (a definition marked lang="en") has its own rules.
  const foreign = node.parentElement.closest("[lang]")?.lang !== document.documentElement.lang;
  const text = node.parentElement.closest(skip) || foreign ? "\\ufffc" : node.textContent;
  texts.set(block, (texts.get(block) || "") + text);
}
return [document.title, ...texts.values()];
"""

AXE_SCRIPT = (Path(axe_selenium_python.__file__).parent / "node_modules" / "axe-core" / "axe.min.js").read_text(
    encoding="utf-8"
)

# axe-core's rules that read colours: all the dark theme can change.
DARK_RULES = ["color-contrast", "link-in-text-block"]

FRENCH = re.compile(r" [:;?!»]|« ")
POLISH = re.compile(r"(?:^|[\s\u00a0\u202f(„\"«–—])[aiouwzAIOUWZ] ")


class Run:
    def __init__(self, site: Path, content: Path):
        self.site = site.resolve()
        self.content = content.resolve()
        self.failures: list[str] = []
        self.lines: list[str] = []  # what this run has to say, printed when its job ends
        options = Options()
        for argument in ["--headless=new", "--no-sandbox", "--disable-gpu", "--window-size=1280,900"]:
            options.add_argument(argument)
        options.binary_location = os.environ.get("CHROMIUM", "/usr/bin/chromium")
        service = Service(os.environ.get("CHROMEDRIVER", "/usr/bin/chromedriver"))
        self.driver = webdriver.Chrome(service=service, options=options)
        self.driver.set_script_timeout(120)

    def say(self, line: str):
        self.lines.append(line)

    def fail(self, message: str):
        self.failures.append(message)
        self.say("  ✗ " + message)

    def url(self, page: Path) -> str:
        return page.resolve().as_uri()

    def open(self, page: Path, query: str = ""):
        self.driver.get(self.url(page) + query)

    def theme(self, scheme: str):
        self.driver.execute_cdp_cmd(
            "Emulation.setEmulatedMedia", {"features": [{"name": "prefers-color-scheme", "value": scheme}]}
        )

    # -- checks ---------------------------------------------------------------------------

    def accessibility(self, page: Path, scheme: str, rules: list[str] | None = None) -> int:
        """axe-core on the open page; returns how many serious, critical or heading-order violations
        it found (each one a failure). `rules` limits axe to those rules."""
        self.driver.execute_script(AXE_SCRIPT)
        options = {"resultTypes": ["violations"]}  # axe then details only what failed
        if rules:
            options["runOnly"] = {"type": "rule", "values": rules}
        results = self.driver.execute_async_script(
            "const done = arguments[arguments.length - 1]; axe.run(document, arguments[0]).then(done);", options
        )
        found = 0
        for violation in results["violations"]:
            if violation["impact"] in ("serious", "critical") or violation["id"] == "heading-order":
                found += 1
                targets = ", ".join(str(node["target"]) for node in violation["nodes"][:3])
                self.fail(
                    f"axe ({scheme}): {page.relative_to(self.site)}: {violation['id']} "
                    f"({violation['impact']}, {len(violation['nodes'])} elements: {targets})"
                )
        return found

    def dark_theme(self, pages: list[Path]):
        """The dark theme changes only colours (asserted from the stylesheet), so axe runs its colour
        rules there; any other dark rule and axe runs in full."""
        self.theme("dark")
        rules = DARK_RULES if dark_sets_only_colours(self.site) else None
        found = 0
        for page in pages:
            self.open(page)
            found += self.accessibility(page, "dark", rules)
        self.theme("light")
        which = "its colour rules" if rules else "every rule"
        self.say(f"  axe-core, dark theme ({which}): {len(pages)} pages, {found} serious or critical violations")

    def links(self, page: Path) -> int:
        """Checks the open page's links and alternates; returns how many it checked."""
        checked = 0
        hrefs = self.driver.execute_script(
            "return [...document.querySelectorAll('a[href], link[href]')].map(e => [e.tagName, e.href, e.getAttribute('hreflang')])"
        )
        resources = self.driver.execute_script("return performance.getEntriesByType('resource').map(e => e.name)")
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
        return checked

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
        self.say(f"  search ({language}): '{query}' finds {len(results)} pages, '{word}' marked")

    def copy_buttons(self, page: Path, listings: dict[str, str]) -> int:
        """Clicks every copy button of the open page as a reader would (shown, and not covered by
        anything at its centre); returns how many it clicked."""
        clicked = self.driver.execute_script(
            """window.copied = null;
               Object.defineProperty(navigator, 'clipboard',
                 { value: { writeText: (text) => { window.copied = text; return Promise.resolve(); } } });
               return [...document.querySelectorAll('figure.listing')].map(figure => {
                 const button = figure.querySelector('button.copy');
                 if (!button || !button.checkVisibility()) return [figure.id, null, 'no copy button'];
                 button.scrollIntoView({ block: 'center' });
                 const box = button.getBoundingClientRect();
                 const top = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
                 if (!button.contains(top)) return [figure.id, null, 'a copy button covered by ' + top?.tagName];
                 window.copied = null;
                 button.click();  // the handler calls writeText before its first await
                 return [figure.id, window.copied, null];
               });"""
        )
        for listing, text, problem in clicked:
            if problem:
                self.fail(f"{page.relative_to(self.site)}#{listing}: {problem}")
            elif text != listings.get(listing):
                self.fail(f"{page.relative_to(self.site)}#{listing}: the copy button copied other code than the listing shows")
        return sum(1 for _, _, problem in clicked if problem is None)

    def shown_code(self, tutorial: str, language: str) -> dict[str, str]:
        """Each listing's code as Content/ has it, without hidden lines, region markers and the
        excuses (`// stepwise: not run: …`, with the blanks before it) that the tangle takes out."""
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
            visible = [re.sub(r"\s*// stepwise: not run:.*$", "", line) for line in visible]
            shown[listing.get("id")] = "\n".join(visible)
        return shown

    def typography(self, page: Path, language: str) -> int:
        """Checks the open page's prose (and title) against the language's spacing rule; returns how
        many plain spaces it found where the rule wants none (the first ten are failures)."""
        rule = {"fr": FRENCH, "pl": POLISH}.get(language)
        if rule is None:
            return 0
        found = 0
        for text in self.driver.execute_script(PROSE_TEXT):
            for match in rule.finditer(text):
                found += 1
                self.typography_found += 1
                if self.typography_found <= 10:
                    start = max(0, match.start() - 25)
                    self.fail(f"typography ({language}): {page.relative_to(self.site)}: …{text[start:match.end() + 10]!r}…")
        return found

    def changed_lines(self, page: Path, files: dict[str, list[str]]) -> int:
        """Checks the changed-line marks of the open step page against `files` (each file as the
        tutorial's earlier pages left it), then updates `files`; returns how many whole-file
        listings it checked."""
        listings = 0
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
        return listings

    def language(self, language: str, pages: list[Path], tutorials: list[str]):
        """Every check of one language. Each page is opened once in the light theme for axe, links,
        typography, changed-line marks and copy buttons (in that order: the clicks come last), then
        once more in the dark theme."""
        self.typography_found = 0
        axe = checked = spaces = marked = copied = 0
        listings = {tutorial: self.shown_code(tutorial, language) for tutorial in tutorials}
        files: dict[str, dict[str, list[str]]] = {tutorial: {} for tutorial in tutorials}
        for page in pages:
            self.open(page)
            axe += self.accessibility(page, "light")
            checked += self.links(page)
            spaces += self.typography(page, language)
            parts = page.relative_to(self.site).parts[1:]
            if len(parts) == 2 and re.match(r"[0-9][0-9]-", parts[1]):  # a step page, in order
                marked += self.changed_lines(page, files[parts[0]])
                copied += self.copy_buttons(page, listings[parts[0]])
        self.say(f"  axe-core, light theme: {len(pages)} pages, {axe} serious, critical or heading-order violations")
        self.say(f"  links: {checked} links and alternates on {len(pages)} pages lead to pages that exist")
        self.say(f"  changed lines: {marked} whole-file listings marked exactly where they differ")
        self.say(f"  copy buttons: {copied} listings copy exactly their shown code")
        self.search(language)
        spaces += self.typography(self.site / language / "search.html", language)  # the results' titles and snippets
        if self.typography_found > 10:
            self.fail(f"typography ({language}): {self.typography_found - 10} more")
        if language in ("fr", "pl"):
            self.say(f"  typography: {len(pages)} pages and search results, {spaces} plain spaces where the rules want none")
        self.dark_theme(pages)

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
        self.say(f"  screenshots: {written} in {folder}")


def dark_sets_only_colours(site: Path) -> bool:
    """Whether the stylesheet's dark-theme blocks set nothing but custom properties (colours)."""
    css = (site / "style.css").read_text(encoding="utf-8")
    blocks = list(re.finditer(r"@media \(prefers-color-scheme: dark\) \{(.*?)\}\s*\}", css, re.S))
    if len(blocks) != css.count("prefers-color-scheme"):
        return False  # a dark rule written in a way this reading does not know
    for block in blocks:
        for rule in re.finditer(r"([^{}]*)\{([^{}]*)\}", block.group(1) + "}"):
            declarations = [d.strip() for d in rule.group(2).split(";") if d.strip()]
            if rule.group(1).strip() != ":root" or not all(d.startswith("--") for d in declarations):
                return False
    return True


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


def check_language(site: Path, content: Path, language: str, first: bool) -> tuple[list[str], int]:
    """Every check of one language, in a browser of its own; returns what it says and how many
    failures it found. The first language's pages include the root page."""
    run = Run(site, content)
    try:
        tutorials = sorted(path.name for path in (site / language).iterdir() if path.is_dir())
        pages = [site / language / "index.html", site / language / "search.html"] + sorted(
            (site / language).glob("*/*.html")
        )
        if first:
            pages.insert(0, site / "index.html")
        run.say(f"== {language}")
        run.language(language, pages, tutorials)
    finally:
        run.driver.quit()
    return run.lines, len(run.failures)


def take_screenshots(site: Path, content: Path, languages: list[str]) -> tuple[list[str], int]:
    run = Run(site, content)
    try:
        run.screenshots(languages)
    finally:
        run.driver.quit()
    return run.lines, len(run.failures)


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
    # One browser per language, as many at once as the machine has cores; their reports in order.
    with ProcessPoolExecutor(max_workers=min(len(languages), os.cpu_count() or 1)) as pool:
        jobs = [pool.submit(check_language, site, content, language, index == 0) for index, language in enumerate(languages)]
        jobs.append(pool.submit(take_screenshots, site, content, languages))
        failures = 0
        for job in jobs:
            lines, failed = job.result()
            print("\n".join(lines), flush=True)
            failures += failed
    if failures:
        print(f"\n{failures} problems in the browser")
        return 1
    print("\nthe site passed every browser check")
    return 0


if __name__ == "__main__":
    sys.exit(main())
