#!/usr/bin/env python3
"""The checks of .ci/remote-cache: what each scenario's report.json and output must show.

Each check is a function that takes the parsed report(s) and the run's printed output and
returns the problems it found (an empty list when the scenario passed), so that it can be tried
on a hand-made report.json. From the shell, one subcommand per scenario:

    python3 .ci/remote_cache_checks.py shards REPORT1 REPORT2
    python3 .ci/remote_cache_checks.py cached-only REPORT
    python3 .ci/remote_cache_checks.py corrupt REPORT LOG TARGET
    python3 .ci/remote_cache_checks.py offline REPORT LOG ADDRESS
    python3 .ci/remote_cache_checks.py refused REPORT LOG
    python3 .ci/remote_cache_checks.py decoded PROTOC_TEXT CAS_FOLDER
    python3 .ci/remote_cache_checks.py record-blob CAS_FOLDER  # prints a verification record's path and target

Each prints its problems and exits 1, or prints nothing and exits 0.
"""

import hashlib
import json
import os
import re
import sys


def steps(report):
    """Every step of every tutorial in every language."""
    return [
        step for tutorial in report["tutorials"] for language in tutorial["languages"] for step in language["steps"]
    ]


def targets(report, where=lambda step: True):
    """The step targets of the steps for which `where` holds."""
    return {step["target"] for step in steps(report) if where(step)}


def remote_cache(report):
    """The report's remoteCache object (an empty one when the run had no remote cache)."""
    return report.get("remoteCache") or {}


def check_shards(first, second):
    """Scenario 1: `--shard 1/2` and `--shard 2/2` verified disjoint sets of targets, all of them together."""
    problems = []
    verified = []
    for index, report in ((1, first), (2, second)):
        if report.get("shard") != {"index": index, "count": 2}:
            problems.append(f"shard {index}/2: report.json says shard {report.get('shard')}")
        skipped_elsewhere = {step.get("skipped") for step in steps(report)} - {None, "shard"}
        if skipped_elsewhere:
            problems.append(f"shard {index}/2: steps skipped as {sorted(skipped_elsewhere)}, not 'shard'")
        # Verified in this run. Shard 2 runs after shard 1 here, so it may find shard 1's results.
        mine = targets(report, lambda step: "skipped" not in step and step.get("cache") is None)
        both = mine & targets(report, lambda step: "skipped" in step)
        if both:
            problems.append(f"shard {index}/2: targets both verified and skipped: {sorted(both)}")
        failed = targets(report, lambda step: "skipped" not in step and step.get("status") != "verified")
        if failed:
            problems.append(f"shard {index}/2: not verified: {sorted(failed)}")
        if not mine:
            problems.append(f"shard {index}/2: verified no target")
        if not remote_cache(report).get("stored"):
            problems.append(f"shard {index}/2: stored nothing in the remote cache")
        if remote_cache(report).get("notices"):
            problems.append(f"shard {index}/2: notices {remote_cache(report)['notices']}")
        verified.append(mine)
    everything = targets(first) | targets(second)
    if targets(first) != targets(second):
        problems.append("the two shards' reports list different step targets")
    if verified[0] & verified[1]:
        problems.append(f"verified by both shards: {sorted(verified[0] & verified[1])}")
    if verified[0] | verified[1] != everything:
        problems.append(f"verified by neither shard: {sorted(everything - verified[0] - verified[1])}")
    return problems


def check_cached_only(report):
    """Scenario 2: `--cached-only` took every step from the remote cache and verified none."""
    problems = []
    not_remote = sorted(targets(report, lambda step: step.get("cache") != "remote"))
    if not_remote:
        problems.append(f"not taken from the remote cache: {not_remote}")
    if any("skipped" in step for step in steps(report)):
        problems.append("steps reported as skipped")
    if report.get("shard") is not None:
        problems.append(f"report.json names shard {report['shard']}")
    if not report.get("succeeded"):
        problems.append("report.json says the build did not succeed")
    return problems


# How a notice may say that an entry was corrupt: its blob does not match its digest.
CORRUPT = re.compile(r"corrupt|mismatch|unusable|could not be read", re.I)


def check_corrupt(report, output, target):
    """Scenario 3: the target whose CAS blob was corrupted, and only it, was verified again, and the
    notices and the output say why."""
    problems = []
    again = targets(report, lambda step: step.get("cache") is None)
    if again != {target}:
        problems.append(f"verified again: {sorted(again)}; expected exactly {target}")
    if targets(report, lambda step: step["target"] == target and step.get("status") != "verified"):
        problems.append(f"{target} is not verified")
    other = targets(report, lambda step: step["target"] != target and step.get("cache") != "remote")
    if other:
        problems.append(f"not from the remote cache: {sorted(other)}")
    if not any(target in notice and CORRUPT.search(notice) for notice in remote_cache(report).get("notices", [])):
        problems.append(f"no notice names {target} as corrupt: {remote_cache(report).get('notices')}")
    if not any(target in line and CORRUPT.search(line) for line in output.splitlines()):
        problems.append(f"the output names no corrupt entry of {target}")
    return problems


def check_offline(report, output, address):
    """Scenario 4: with the server stopped, a run with one listing edited (so that it needs the
    server) said so once, in one line naming the server, verified what it had to and took every
    other step from the local cache."""
    problems = []
    again = targets(report, lambda step: step.get("cache") is None and step.get("status") == "verified")
    if not again:
        problems.append("nothing was verified in the run, so it never needed the server")
    other = sorted(targets(report, lambda step: step.get("cache") != "local") - again)
    if other:
        problems.append(f"neither verified nor taken from the local cache: {other}")
    notices = remote_cache(report).get("notices", [])
    if len(notices) != 1:
        problems.append(f"{len(notices)} notices, expected one: {notices}")
    lines = [line for line in output.splitlines() if address in line or any(notice in line for notice in notices)]
    if len(lines) != 1:
        problems.append(f"{len(lines)} lines of output about the remote cache at {address}, expected one: {lines}")
    if not report.get("succeeded"):
        problems.append("report.json says the build did not succeed")
    return problems


REFUSED = re.compile(r"401|refused|not shared|unauthori[sz]ed", re.I)


def check_refused(report, output):
    """Scenario 5: a run without credentials verified something, the server refused to store it,
    the build passed and said the result was not shared."""
    problems = []
    if not targets(report, lambda step: step.get("cache") is None and step.get("status") == "verified"):
        problems.append("nothing was verified in this run, so there was nothing to store")
    if remote_cache(report).get("stored"):
        problems.append(f"stored {remote_cache(report)['stored']} entries without credentials")
    if not any(REFUSED.search(notice) for notice in remote_cache(report).get("notices", [])):
        problems.append(f"no notice says the write was refused: {remote_cache(report).get('notices')}")
    if not any(REFUSED.search(line) for line in output.splitlines()):
        problems.append("the output does not say the result was not shared")
    if not report.get("succeeded"):
        problems.append("report.json says the build did not succeed")
    return problems


def check_decoded(text, cas):
    """Scenario 6: `protoc --decode ...ActionResult` of an /ac entry names stepwise/verification.json
    with a digest whose blob is under cas/ and has that SHA-256 and size."""
    # protoc prints an OutputFile's fields in field-number order: path (1), then digest (2).
    output_file = r'output_files\s*\{\s*path:\s*"stepwise/verification\.json"\s*'
    digest = r'digest\s*\{\s*hash:\s*"([0-9a-f]{64})"\s*size_bytes:\s*(\d+)'
    match = re.search(output_file + digest, text)
    if not match:
        return [f"no output file stepwise/verification.json with a digest in:\n{text}"]
    digest, size = match.group(1), int(match.group(2))
    path = os.path.join(cas, digest)
    if not os.path.isfile(path):
        return [f"no blob cas/{digest}"]
    blob = open(path, "rb").read()
    if hashlib.sha256(blob).hexdigest() != digest or len(blob) != size:
        return [f"cas/{digest} does not have that SHA-256 and {size} bytes"]
    return []


def record_blob(cas, step_targets):
    """The first blob under cas/ (by name) that is the verification record of one of
    `step_targets`, and the target it records. Other blobs are passed over: later artifacts, and
    the records of benchmarks, whose builds are verified too but are no step of a report."""
    for name in sorted(os.listdir(cas)):
        try:
            record = json.load(open(os.path.join(cas, name), encoding="utf-8"))
        except ValueError:
            continue
        if isinstance(record, dict) and record.get("target") in step_targets:
            return os.path.join(cas, name), record["target"]
    raise SystemExit(f"no verification record of a step target under {cas}")


def main(argv):
    command, arguments = argv[0], argv[1:]

    def load(path):
        return json.load(open(path, encoding="utf-8"))

    def read(path):
        return open(path, encoding="utf-8", errors="replace").read()

    if command == "record-blob":  # the CAS folder, then the report.json files that name the step targets
        print(*record_blob(arguments[0], {target for path in arguments[1:] for target in targets(load(path))}))
        return 0
    problems = {
        "shards": lambda: check_shards(load(arguments[0]), load(arguments[1])),
        "cached-only": lambda: check_cached_only(load(arguments[0])),
        "corrupt": lambda: check_corrupt(load(arguments[0]), read(arguments[1]), arguments[2]),
        "offline": lambda: check_offline(load(arguments[0]), read(arguments[1]), arguments[2]),
        "refused": lambda: check_refused(load(arguments[0]), read(arguments[1])),
        "decoded": lambda: check_decoded(read(arguments[0]), arguments[1]),
    }[command]()
    for problem in problems:
        print(f"  {command}: {problem}")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
