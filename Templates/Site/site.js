// The site's two scripts: copy buttons on listings, and the search page. Both work from
// files on disk as well as from a server, and neither asks any other site for anything.
// Text from the pages and the index is only ever set as text, never as markup.
"use strict";

// Copy buttons: each copies exactly the code its listing shows (hidden lines are not on the
// page, so they are not copied either, nor are the words that say a line never ran). Without
// JavaScript the buttons stay hidden.
for (const button of document.querySelectorAll("figure.listing button.copy")) {
  const code = button.closest("figure").querySelector("code.shown");
  const label = button.textContent;
  button.hidden = false;
  button.addEventListener("click", async () => {
    const copy = code.cloneNode(true);
    for (const note of copy.querySelectorAll(".line-note")) note.remove();
    const text = copy.textContent;
    try {
      await navigator.clipboard.writeText(text);
    } catch {
      const area = document.createElement("textarea");
      area.value = text;
      area.setAttribute("readonly", "");
      area.style.position = "fixed";
      area.style.opacity = "0";
      document.body.append(area);
      area.select();
      document.execCommand("copy");
      area.remove();
    }
    button.textContent = button.dataset.done;
    setTimeout(() => { button.textContent = label; }, 1500);
  });
}

// Letters that carry no decomposition in Unicode but that readers type without their mark.
const plainLetters = { "ł": "l", "ø": "o", "đ": "d", "ħ": "h", "ß": "ss", "æ": "ae", "œ": "oe", "ı": "i" };

// `text` lower-cased and without diacritics (`Étape` → `etape`, `źródło` → `zrodlo`), every
// kind of space as a plain one; `origin[i]` is the index in `text` of folded character `i`.
function fold(text) {
  let folded = "";
  const origin = [];
  let index = 0;
  for (const character of text) {
    const lower = character.toLowerCase();
    let plain = plainLetters[lower] ?? lower.normalize("NFD").replace(/\p{M}/gu, "");
    if (/\s/u.test(plain)) plain = " ";
    for (let unit = 0; unit < plain.length; unit++) origin.push(index);
    folded += plain;
    index += character.length;
  }
  return { folded, origin };
}

// The form of a counted string for `count`, by the language's CLDR plural rules as the page
// gives them (PluralRules in Sources/StepwiseRender): the first rule whose conditions all hold
// names the category, else "other". A condition is [modulo (0: the number itself), ranges, negated].
function pluralForm(forms, rules, count) {
  const holds = ([modulo, ranges, negated]) => {
    const value = modulo === 0 ? count : count % modulo;
    return ranges.some(([low, high]) => value >= low && value <= high) !== negated;
  };
  const rule = rules.find(([, conditions]) => conditions.every(holds));
  return forms[rule ? rule[0] : "other"] ?? forms.other;
}

// The search page: every entry whose title or text holds every word of the query.
const results = document.getElementById("search-results");
const index = window.stepwiseSearchIndex;
if (results && index) {
  const query = new URLSearchParams(location.search).get("q") ?? "";
  const input = document.getElementById("site-search");
  if (input) input.value = query;
  const words = fold(query).folded.split(" ").filter((word) => word.length > 0);
  const hits = [];
  if (words.length > 0) {
    for (const entry of index.entries) {
      const title = fold(entry.title).folded;
      const text = fold(entry.text);
      if (!words.every((word) => title.includes(word) || text.folded.includes(word))) continue;
      const score = words.filter((word) => title.includes(word)).length;
      hits.push({ entry, text, score });
    }
    hits.sort((a, b) => b.score - a.score);
  }
  const status = document.getElementById("search-status");
  const message = hits.length === 0 ? status.dataset.none :
    pluralForm(JSON.parse(status.dataset.count), JSON.parse(status.dataset.pluralRules), hits.length);
  status.textContent = words.length === 0 ? "" :
    message.replace("{query}", query.trim()).replace("{count}", String(hits.length));
  for (const { entry, text } of hits) {
    const item = document.createElement("li");
    const link = document.createElement("a");
    link.href = entry.href;
    link.textContent = entry.title;
    const tutorial = document.createElement("span");
    tutorial.className = "tutorial";
    tutorial.textContent = entry.tutorial;
    item.append(link, tutorial);
    const first = words.map((word) => text.folded.indexOf(word)).filter((at) => at >= 0).sort((a, b) => a - b)[0];
    if (first !== undefined) item.append(snippet(entry.text, text, first, words));
    results.append(item);
  }
}

// About 160 characters of `original` around folded position `at`, each match of a word marked.
function snippet(original, text, at, words) {
  const paragraph = document.createElement("p");
  let from = Math.max(0, at - 60);
  if (from > 0) {
    const space = text.folded.indexOf(" ", from);
    if (space >= 0 && space < at) from = space + 1;
  }
  const to = Math.min(text.folded.length, at + 100);
  let position = from;
  if (from > 0) paragraph.append("… ");
  while (position < to) {
    const next = words.map((word) => ({ word, at: text.folded.indexOf(word, position) }))
      .filter((match) => match.at >= 0 && match.at < to).sort((a, b) => a.at - b.at)[0];
    const end = next ? next.at : to;
    paragraph.append(original.slice(text.origin[position], end < text.folded.length ? text.origin[end] : original.length));
    if (!next) break;
    const matchEnd = next.at + next.word.length;
    const mark = document.createElement("mark");
    mark.textContent = original.slice(text.origin[next.at], matchEnd < text.folded.length ? text.origin[matchEnd] : original.length);
    paragraph.append(mark);
    position = matchEnd;
  }
  if (to < text.folded.length) paragraph.append(" …");
  return paragraph;
}
