#!/usr/bin/env python3
"""Every command the README and the guide show is run, so none of them rots.

Reads README.md and docs/*.md. In a fenced ``sh`` block each line is a command (a trailing
``# comment`` aside); in any other fenced block, each line that starts with ``$ ``; in prose,
each inline code span that starts with ``swift run``, ``swift test``, ``swift package``,
``Scripts/``, ``python3``, ``CI=true`` or ``rm -rf``. Each command must be in COMMANDS below,
which says how it is covered:

- ``run``: this script runs it, in this checkout, and checks its exit status (and, where
  given, that its output contains a text). What it changes in Content/ is put back after.
- ``ci``: .ci/run runs it, or .ci/new-language, which .ci/run runs; the script checks that one
  command of theirs (continued lines joined) holds its words in order, a ``<placeholder>``
  standing for any one word.
- ``example``: the same command for another language or tutorial than one that runs; the
  entry names that one, which must be ``run`` or ``ci``.
- ``not run``: named with the reason.

A command the docs show that COMMANDS does not have fails, and so does an entry of COMMANDS
that the docs no longer show. The README's sample build output is compared, in shape, with a
real `build-docs` run, line by line, with every number left out.

Run it after a verified build (CI runs it after its own):

    python3 Tests/Docs/doc_commands.py          # check and run
    python3 Tests/Docs/doc_commands.py --list   # what it would run, and why the rest is not run
"""

import glob
import os
import re
import shlex
import signal
import subprocess
import sys
import time
import urllib.request

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))

BENCHMARK = {"exit": (0, 1, 2), "contains": "target"}

# Ordered: the `run` commands run in this order (export before import).
COMMANDS = {
    "swift run build-docs": ("ci",),
    "swift run build-docs check": ("ci",),
    "swift run build-docs --repeat 3 --min-coverage 100": ("ci",),
    "swift test": ("ci",),
    "swift test --sanitize=thread --filter": ("ci",),
    # A new language, end to end, in a temporary clone: .ci/new-language (run by .ci/run).
    "swift run build-docs add-language cs bindings --accept-outputs": ("ci",),
    "swift run build-docs accept-outputs --lang cs": ("ci",),
    "swift run lesson bindings --lang cs": ("ci",),
    "swift run build-docs --help": ("run", {"contains": "USAGE"}),
    "swift run build-docs status": ("run", {"contains": "language"}),
    "CI=true bash .ci/run": ("not run", "it is CI itself: the run that runs this script"),
    "python3 Tests/Docs/doc_commands.py --list": ("run", {"contains": "not run"}),
    "swift run build-docs test-filter --last 2 --source-language-only --write-package": ("run", {"contains": "Step"}),
    "swift run build-docs status --verbose": ("run", {"contains": "language  translated"}),
    "swift run build-docs confirm --lang fr bindings": ("run", {}),
    "swift run build-docs confirm --lang fr bindings dynamic-box.2": ("run", {}),
    "swift run build-docs export --lang fr": ("run", {"contains": "Output/xliff/bindings.fr.xlf"}),
    "swift run build-docs import Output/xliff/bindings.fr.xlf": ("run", {}),
    "swift run lesson bindings --lang fr": ("run", {"contains": "✓"}),
    "swift run lesson bindings --lang pl --step 5": ("run", {"contains": "✓"}),
    "swift run --package-path Output/Codebase bindings-lesson --step 3 --lang pl": ("run", {}),
    # Three CI runs may share a machine, so the default port 8000 could be taken: the
    # documented command runs with `--port 0` added, which is the next command as shown.
    "swift run build-docs serve": ("run", {"serve": True, "extra": ["--port", "0"]}),
    "swift run build-docs serve --no-verify --port 0": ("run", {"serve": True}),
    # A benchmark exits non-zero when it misses a speed target: that is its verdict (docs/measurements.md
    # reports it), not a command that rotted. It must build, run to the end and print a verdict.
    "swift run -c release --package-path Output/Codebase bindings-benchmark": ("run", BENCHMARK),
    "swift run -c release --package-path Output/Codebase promises-benchmark": ("run", BENCHMARK),
    "swift run -c release --package-path Output/Codebase async-fetch-benchmark": ("run", BENCHMARK),
    # A benchmark of its own: a forced full verification, then three builds after small edits, which
    # it puts back. It must run to the end and print its table.
    "Scripts/benchmark-incremental": (
        "not run",
        "a benchmark: verifies all 75 step targets again (--force) beside the runs it measures; the README has its numbers",
    ),
    "swift run build-docs export --lang cs": ("example", "swift run build-docs export --lang fr"),
    "swift run build-docs import Output/xliff/<tutorial>.cs.xlf": (
        "example",
        "swift run build-docs import Output/xliff/bindings.fr.xlf",
    ),
    "swift run lesson <tutorial> --lang cs": ("example", "swift run lesson bindings --lang fr"),
    "swift run -c release --package-path Output/Codebase <tutorial>-benchmark": (
        "example",
        "swift run -c release --package-path Output/Codebase bindings-benchmark",
    ),
    "rm -rf Output/.cache": (
        "not run",
        "empties the verification cache, so that the next build verifies everything again: CI's fresh clone starts so",
    ),
    "swift package clean": ("not run", "named as what the cache survives, not as a step to take"),
    "sudo apt-get install chromium chromium-driver": (
        "not run",
        "installs system packages; .ci/run installs the same two with apt-get before the browser suite",
    ),
    "python3 -m venv .build/browser-venv": ("ci",),
    ".build/browser-venv/bin/pip install selenium==4.51.0 axe-selenium-python==2.1.6": ("ci",),
    ".build/browser-venv/bin/python Tests/Browser/site_in_browser.py": ("ci",),
    "python3 -m venv .build/interop-venv": ("ci",),
    ".build/interop-venv/bin/pip install translate-toolkit==3.20.4 lxml==6.1.3": ("ci",),
    ".build/interop-venv/bin/python Tests/Interop/xliff_translate_toolkit.py": ("ci",),
    ".build/interop-venv/bin/pip install translate-toolkit==3.20.4 lxml==6.1.3 polib==1.2.0": ("ci",),
    ".build/interop-venv/bin/python Tests/Interop/po_gettext.py": ("ci",),
    "swift run build-docs export --format po --lang fr": ("run", {"contains": "Output/po/bindings.fr.po"}),
    "swift run build-docs import Output/po/bindings.fr.po": ("run", {}),  # the file the export above wrote
    "swift run build-docs export --format tbx --lang pl": ("run", {"contains": "Output/tbx/bindings.pl.tbx"}),
    "swift run build-docs build --strict-terms": ("run", {}),  # the content has no deprecated term: it passes
    "sudo apt-get install gettext": (
        "not run",
        "installs a system package; .ci/run installs it with apt-get before the interoperability section",
    ),
    # A team's cache and CI matrix (docs/ci-and-teams.md). .ci/remote-cache, run by .ci/run, runs the
    # team's build-docs commands against a real nginx, through the tool .ci/run built, in clones.
    "bash .ci/remote-cache": ("ci",),
    "python3 Tests/CI/test_remote_cache_checks.py": ("run", {"contains": "OK"}),
    "printf 'ci:%s\\n' \"$(openssl passwd -apr1)\" > /etc/nginx/stepwise.htpasswd": (
        "not run",
        "asks for a password and writes a server's system file; .ci/nginx-cache.sh makes its htpasswd with openssl passwd -apr1",
    ),
    "docker run -d -p 8080:8080 -v /srv/cache:/data -v /etc/stepwise.htpasswd:/etc/bazel-remote/htpasswd "
    "buchgr/bazel-remote-cache --max_size=20 --htpasswd_file=/etc/bazel-remote/htpasswd --allow_unauthenticated_reads": (
        "not run",
        "starts a team's server in Docker; CI proves the protocol against nginx (.ci/remote-cache)",
    ),
    'swift run build-docs --shard 1/2 --cache-url "$STEPWISE_CACHE_URL"': (
        "not run",
        "needs a cache server: .ci/remote-cache runs these arguments in a fresh clone against nginx (scenario 1)",
    ),
    'swift run build-docs --shard 2/2 --cache-url "$STEPWISE_CACHE_URL"': (
        "not run",
        "needs a cache server: .ci/remote-cache runs these arguments in a fresh clone against nginx (scenario 1)",
    ),
    'swift run build-docs --cached-only --cache-url "$STEPWISE_CACHE_URL" --cache-read-only': (
        "not run",
        "needs a warm cache server: .ci/remote-cache runs these arguments in a fresh clone against nginx (scenario 2)",
    ),
    "Scripts/benchmark-coverage": (
        "not run",
        "a benchmark: a baseline commit's tool built from nothing, two builds of the codebase from nothing and ten"
        " forced full verifications; docs/measurements.md has its table",
    ),
    "Scripts/benchmark-scale": (
        "not run",
        "verifies 75, 150 and 300 step targets several times each, from cold builds; docs/ci-and-teams.md has its table",
    ),
    "Scripts/benchmark-no-change": (
        "not run",
        "makes the content of 75 and 300 step targets and times 7 runs of each (with --baseline, beside another "
        "commit's tool built from nothing); docs/ci-and-teams.md has its table",
    ),
    "Scripts/benchmark-no-change 4": ("not run", "the same benchmark at 300 step targets only; see above"),
    "Scripts/benchmark-ablation-promises": (
        "not run",
        "a benchmark: three release builds of promises' benchmark and ten runs of each; docs/measurements.md has"
        " its table",
    ),
}


INLINE = r"`((?:swift (?:run|package) [^`]|swift test\b|Scripts/|python3 |CI=true |rm -rf )[^`]*)`"


def documented():
    """Every command in the docs' fenced blocks, as (file, line, command)."""
    found = []
    for path in ["README.md"] + sorted(glob.glob("docs/*.md")):
        fence = None
        for number, line in enumerate(open(os.path.join(ROOT, path), encoding="utf-8"), 1):
            line = line.rstrip("\n")
            opening = re.match(r"^```(\S*)", line)
            if opening:
                fence = opening.group(1) if fence is None else None
                continue
            if fence is None:
                for span in re.finditer(INLINE, line):
                    found.append((path, number, span.group(1).strip()))
                continue
            if fence == "sh":
                command = line
            elif line.startswith("$ "):
                command = line[2:]
            else:
                continue
            command = re.sub(r"\s+#\s.*$", "", command).strip()
            if command and not command.startswith("#"):
                found.append((path, number, command))
    return found


# The CI scripts whose commands count as run by CI: .ci/run, and .ci/new-language (which .ci/run
# runs), whose commands run the checkout's build of build-docs and lesson (what `swift run` runs)
# with the language and the tutorial in variables: read as the commands they stand for.
CI_SCRIPTS = {
    "run": {},
    "new-language": {
        '"$build_docs"': "swift run build-docs",
        '"$lesson"': "swift run lesson",
        '"$language"': "cs",
        '"$tutorial"': "bindings",
    },
}


def ci_runs(command):
    """Whether one command of the CI scripts (lines ending in a backslash joined) holds the
    command's words in order, a `<placeholder>` standing for any one word."""
    words = shlex.split(command)
    return any(script_runs(words, script, names) for script, names in CI_SCRIPTS.items())


def script_runs(words, script, names):
    """Whether one command of `.ci/<script>`, with `names` replaced by what they stand for, holds
    `words` in order."""
    text = open(os.path.join(ROOT, ".ci", script), encoding="utf-8").read().replace("\\\n", " ")
    for name, meaning in names.items():
        text = text.replace(name, meaning)
    for line in text.splitlines():
        try:
            tokens = shlex.split(line, comments=True)
        except ValueError:  # a quote that opens on one line and closes on another
            tokens = line.split()
        position = 0
        for token in tokens:
            word = words[position] if position < len(words) else None
            if word is not None and (token == word or re.fullmatch(r"<[^>]+>", word)):
                position += 1
        if words and position == len(words):
            return True
    return False


def run(command, options):
    """Runs a documented command; returns an error text or None."""
    argv = shlex.split(command) + options.get("extra", [])
    if options.get("serve"):
        return serve(argv)
    result = subprocess.run(
        argv, cwd=ROOT, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True
    )
    if result.returncode not in options.get("exit", (0,)):
        return f"exited {result.returncode}:\n{result.stdout[-3000:]}"
    expected = options.get("contains")
    if expected and expected not in result.stdout:
        return f"printed no '{expected}':\n{result.stdout[-3000:]}"
    return None


def serve(argv):
    """Starts `build-docs serve`, waits for the address it prints, fetches the first page, stops it."""
    process = subprocess.Popen(
        argv, cwd=ROOT, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True
    )
    seen = []
    try:
        for line in process.stdout:
            seen.append(line)
            address = re.search(r"Serving on (http://127\.0\.0\.1:\d+/)", line)
            if address:
                with urllib.request.urlopen(address.group(1), timeout=60) as page:
                    if b"<html" not in page.read():
                        return "served no HTML page at " + address.group(1)
                break
        else:
            return "ended without serving:\n" + "".join(seen)[-3000:]
    finally:
        if process.poll() is None:
            process.send_signal(signal.SIGINT)
        rest = process.communicate()[0]
    if process.returncode != 0:
        return f"exited {process.returncode} after Ctrl-C:\n" + ("".join(seen) + rest)[-3000:]
    return None


def shape(text):
    """A build-docs run's lines with every number left out (times, counts and words change from run to
    run), runs of spaces made one (a number one digit longer moves the padding around it: a render of
    19.38 s against the sample's 9.7 s) and SwiftPM's own lines dropped."""
    lines = [line.strip() for line in text.splitlines()]
    return [
        re.sub(r"\s+", " ", re.sub(r"\d+(\.\d+)?", "N", line))
        for line in lines
        if line and not line.startswith(("Building for", "[", "Build of product", "Build complete"))
    ]


def sample_in_readme():
    """The README's sample run: the first fenced block that starts with `$ swift run build-docs`."""
    block = None
    for line in open(os.path.join(ROOT, "README.md"), encoding="utf-8"):
        if line.startswith("```"):
            if block is not None and block[:1] == ["$ swift run build-docs\n"]:
                return "".join(block[1:])
            block = [] if block is None else None
        elif block is not None:
            block.append(line)
    return None


def main():
    os.chdir(ROOT)
    listing = "--list" in sys.argv
    problems = []
    shown = documented()
    for path, number, command in shown:
        if command not in COMMANDS:
            problems.append(f"{path}:{number}: '{command}' is shown, but no test or CI step runs it")
    for command in COMMANDS:
        if all(command != shown_command for _, _, shown_command in shown):
            problems.append(f"Tests/Docs/doc_commands.py: '{command}' is no longer in the docs; remove it here")
    for command, how in COMMANDS.items():
        if how[0] == "ci" and not ci_runs(command):
            problems.append(f".ci/run: no line runs '{command}', which the docs show")
        if how[0] == "example" and COMMANDS.get(how[1], ("",))[0] not in ("run", "ci"):
            problems.append(f"Tests/Docs/doc_commands.py: '{command}' is an example of '{how[1]}', which nothing runs")
    if listing:
        for command, how in COMMANDS.items():
            note = f"  ({how[1]})" if how[0] == "not run" else f"  (as: {how[1]})" if how[0] == "example" else ""
            print(f"{how[0]:8} {command}{note}")
        for problem in problems:
            print(problem, file=sys.stderr)
        return 1 if problems else 0

    dirty = subprocess.run(
        ["git", "status", "--porcelain", "--", "Content", "Output/Codebase"], cwd=ROOT, capture_output=True, text=True
    ).stdout
    if dirty:
        print("Content/ or Output/Codebase has uncommitted changes; commit or stash them first.", file=sys.stderr)
        return 1

    sample = sample_in_readme()
    if sample is None:
        problems.append("README.md: no sample run (a block starting with '$ swift run build-docs')")
    else:
        real = subprocess.run(["swift", "run", "build-docs"], cwd=ROOT, capture_output=True, text=True)
        if real.returncode != 0:
            problems.append(f"swift run build-docs failed:\n{(real.stdout + real.stderr)[-3000:]}")
        elif shape(sample) != shape(real.stderr + real.stdout):
            problems.append(
                "README.md: the sample run no longer has the shape of a real one; a real run printed:\n"
                + real.stderr
                + real.stdout
            )

    for command, how in COMMANDS.items():
        if how[0] != "run":
            continue
        print(f"== {command}", flush=True)
        started = time.monotonic()
        try:
            error = run(command, how[1])
        finally:  # each command starts from the content as committed
            subprocess.run(["git", "checkout", "-q", "--", "Content", "Output/Codebase"], cwd=ROOT, check=True)
            subprocess.run(["git", "clean", "-fdq", "--", "Content", "Output/Codebase"], cwd=ROOT, check=True)
        print(f"   {time.monotonic() - started:.0f} s", flush=True)  # what CI's time goes to
        if error:
            problems.append(f"'{command}' {error}")

    for problem in problems:
        print(problem, file=sys.stderr)
    ran = sum(1 for how in COMMANDS.values() if how[0] == "run")
    ci = sum(1 for how in COMMANDS.values() if how[0] == "ci")
    examples = sum(1 for how in COMMANDS.values() if how[0] == "example")
    print(
        f"documented commands: {ran} run here, {ci} run by .ci/run, {examples} examples of those, "
        f"{len(COMMANDS) - ran - ci - examples} not run (python3 Tests/Docs/doc_commands.py --list says why)"
    )
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
